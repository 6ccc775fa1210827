"""The `llm` parser: the paper's contextual semantic parser behind the Parser interface.

One chat completion per user turn. The prompt holds the worksheet signatures,
today's date, the formal state (task records and only the latest KB record),
the agent's last acts, the last agent utterance and the user's turn, plus the
project's few-shot examples; never the earlier turns, so its size stays flat.
The examples are chosen per turn: the ones most like it (word overlap with the user's
words, the agent's last acts and the worksheets in focus), as many as fit under
PROMPT_TOKENS_MAX tokens of the whole prompt (counted by core_engine.llm.tokens), at most
FEW_SHOTS_MAX.

The completion is data. `extract_statements` keeps the statement lines (code
fences and prose around them are dropped), and `guard_statements` removes what
a user must not be able to do by talking: set a field the agent computes
(`kind: internal`), or say yes to a confirmation the agent has not asked for.
Everything else goes to the same interpreter as every other parser, which
rejects anything outside the statement language. Nothing is executed.

An endpoint failure (timeout, HTTP error, garbage, empty answer) or a completion
with no statement in it comes back as a ParseResult with `error` set and no
statements: the turn then keeps the previous state and says it did not catch that.
"""

from __future__ import annotations

import ast
from typing import Any

from ..errors import BackendError, GenieError
from ..llm.client import LLMClient
from ..llm.options import client_for
from ..llm.prompting import (PromptLibrary, RenderedPrompt, date_words, example_text, render_acts, render_few_shots,
                         render_kb_tables, render_signatures, render_state, select_few_shots)
from ..spec.model import Field, Spec, Worksheet, parse_type, snake_case
from ..dialogue.state import DialogueState, TaskRecord
from ..dialogue.statements import (Assign, ConfirmValue, Const, Construct, PathPart, Statement, parse_statements,
                          strip_fences)
from ..spec.syntax import parse_python
from ..llm.tokens import chat_tokens, count_tokens
from .base import ParseContext, ParseResult

__all__ = ["LLMParser", "extract_statements", "guard_statements", "llm_parser"]

UTTERANCE_MAX = 2000  # characters of the user's turn sent to the model
PROMPT_TOKENS_MAX = 2400  # the parser prompt stays under 2,500 tokens: examples fill what the rest leaves
FEW_SHOTS_MAX = 3
EXAMPLES_HEADER = 8  # "Examples:" and the blank lines around the block
NO_STATEMENTS = "the language model's answer held no formal statements"
REFUSED_ALL = "every statement in the language model's answer was refused"
_CONTINUE_ERRORS = ("was never closed", "unexpected EOF", "unterminated triple-quoted")
_MAX_CONTINUATION = 30  # lines one statement may span


class LLMParser:
    """Utterance + context -> prompt -> one completion -> formal statements (as text)."""

    name = "llm"

    def __init__(self, client: LLMClient, prompts: PromptLibrary | None = None,
                 few_shots: list[dict[str, Any]] | None = None) -> None:
        self.client = client
        self.prompts = prompts or PromptLibrary()
        self.examples = render_few_shots(few_shots or [])  # malformed examples fail here, at session start
        self._costs = [count_tokens(example_text(ex)) for ex in self.examples]

    def variables(self, utterance: str, ctx: ParseContext) -> dict[str, Any]:
        """What the parser templates see (also handy for writing an override)."""
        spec, state = ctx.spec, ctx.state
        text = utterance if len(utterance) <= UTTERANCE_MAX else utterance[:UTTERANCE_MAX] + " …(cut)"
        variables = {
            "agent_name": spec.name, "agent_description": spec.description, **date_words(ctx.today),
            "signatures": render_signatures(spec), "kb_tables": render_kb_tables(spec),
            "examples": [], "state": render_state(state, spec),
            "agent_acts": render_acts(state.last_acts, spec), "agent_utterance": state.last_response,
            "user_utterance": text,
            "record_lists": _has_record_lists(spec),
        }
        variables["examples"] = self.pick_examples(variables, state)
        return variables

    def pick_examples(self, variables: dict[str, Any], state: DialogueState) -> list[dict[str, str]]:
        """The few-shots most like this turn, as many as the prompt's token budget leaves room for."""
        if not self.examples:
            return []
        used = chat_tokens(self.prompts.render("parser", **variables).messages)
        focus = " ".join(r.worksheet for r in state.tasks() if r.status == "active")
        context = " ".join((variables["user_utterance"], variables["agent_acts"], variables["agent_utterance"], focus))
        return select_few_shots(self.examples, self._costs, context, room=PROMPT_TOKENS_MAX - used - EXAMPLES_HEADER,
                                most=FEW_SHOTS_MAX)

    def prompt(self, utterance: str, ctx: ParseContext) -> RenderedPrompt:
        return self.prompts.render("parser", **self.variables(utterance, ctx))

    def parse(self, utterance: str, ctx: ParseContext) -> ParseResult:
        if not utterance.strip():
            return ParseResult(text="", rules=[{"rule": "empty", "why": "nothing was said; no LLM call"}])
        try:
            prompt = self.prompt(utterance, ctx)
        except GenieError as exc:
            return ParseResult(text="", rules=[{"rule": "prompt-error", "error": str(exc)}],
                               error=f"the parser prompt could not be built: {exc.message}")
        try:
            completion, call = self.client.complete(prompt.messages, component="parser")
        except BackendError as exc:
            call = getattr(exc, "call", None)
            return ParseResult(text="", rules=[{"rule": "llm-failed", "error": exc.message}],
                               llm_calls=[call.to_dict()] if call is not None else [],
                               error=f"the language model did not answer usably: {exc.message}")
        rules: list[dict[str, Any]] = [{"rule": "llm", "model": call.model, "prompts": prompt.sources,
                                        "cached": call.cached}]
        code, dropped = extract_statements(completion)
        if dropped:
            rules.append({"rule": "prose-dropped", "lines": dropped})
        code, guarded = guard_statements(code, ctx.state, ctx.spec)
        rules += guarded
        error = None
        if not parse_statements(code).statements and (dropped or guarded or _has_statement(code)):
            error = NO_STATEMENTS if not _has_statement(code) and not guarded else REFUSED_ALL
        return ParseResult(text=code, rules=rules, llm_calls=[call.to_dict()], error=error)


def llm_parser(agent: Any, **options: Any) -> LLMParser:
    """BACKEND_FACTORIES entry for ("parser", "llm")."""
    return LLMParser(client_for("parser", options), PromptLibrary(agent.prompts_dir), agent.few_shots)


def _register() -> None:
    from ..session.agent import BACKEND_FACTORIES
    BACKEND_FACTORIES[("parser", "llm")] = llm_parser


_register()


# -- extraction ---------------------------------------------------------------------


def extract_statements(completion: str) -> tuple[str, list[str]]:
    """(statement text, dropped prose lines): the code of fenced blocks, else the lines that parse.

    Lines that parse but say nothing (`Plan: ...` annotations, a bare word) count as prose.
    A line that is code but outside the language (`os.system(...)`) is kept, so the
    interpreter rejects it visibly in the trace.
    """
    text = completion.replace("\r\n", "\n")
    if "```" in text:
        text = strip_fences(text)
    try:
        tree = parse_python(text)
    except SyntaxError:
        return _line_by_line(text)
    except (ValueError, RecursionError, MemoryError):  # NUL bytes, absurd nesting
        return "", [text[:200]]
    if not any(_is_prose(node) for node in tree.body):
        return text.strip(), []
    kept, dropped = [], []
    for node in tree.body:
        segment = ast.get_source_segment(text, node) or ""
        (dropped if _is_prose(node) else kept).append(segment)
    return "\n".join(kept), dropped


def _line_by_line(text: str) -> tuple[str, list[str]]:
    kept: list[str] = []
    dropped: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line.startswith("#"):
            kept.append(line)
            continue
        chunk, ok = line, _parses(line)
        extra = 0
        while ok is None and i < len(lines) and extra < _MAX_CONTINUATION:  # a statement spanning lines
            chunk += "\n" + lines[i]
            i += 1
            extra += 1
            ok = _parses(chunk)
        if ok:
            kept.append(chunk)
        else:
            dropped.append(line)
            i -= extra  # the lines after it get their own chance
    return "\n".join(kept), dropped


def _parses(code: str) -> bool | None:
    """True: statements; False: prose; None: unfinished (an open bracket or string)."""
    try:
        tree = parse_python(code)
    except SyntaxError as exc:
        return None if any(m in str(exc.msg) for m in _CONTINUE_ERRORS) else False
    except (ValueError, RecursionError, MemoryError):
        return False
    return not any(_is_prose(node) for node in tree.body)


def _is_prose(node: ast.stmt) -> bool:
    if isinstance(node, ast.AnnAssign) and node.value is None:
        return True  # "Plan: fill the date"
    if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Name, ast.Constant, ast.Attribute)):
        return True  # "Sure", "'ok'", a bare path
    return False


def _has_statement(code: str) -> bool:
    return any(line.strip() and not line.strip().startswith("#") for line in code.split("\n"))


# -- guard --------------------------------------------------------------------------


def guard_statements(code: str, state: DialogueState, spec: Spec) -> tuple[str, list[dict[str, Any]]]:
    """Drop statements a user must not be able to make by talking; one rule entry for each.

    Refused: assigning an internal field (the agent computes it), a `confirm`-typed
    field set to True when the agent's last act did not ask for it, and
    `confirm(x.f)` when the agent did not ask to confirm f. Saying no is always allowed.
    """
    parsed = parse_statements(code)
    refused: dict[int, str] = {}
    for i, st in enumerate(parsed.statements):
        why = _violation(st, state, spec)
        if why:
            refused[i] = why
    if not refused:
        return code, []
    kept = [st.source for i, st in enumerate(parsed.statements) if i not in refused]
    kept += [r["source"] for r in parsed.rejected]  # left in, so the interpreter reports them
    rules = [{"rule": "guard", "source": parsed.statements[i].source, "error": why, "rejected": True}
             for i, why in refused.items()]
    return "\n".join(kept), rules


def _violation(st: Statement, state: DialogueState, spec: Spec) -> str | None:
    if isinstance(st, Assign):
        if len(st.target) == 1 and isinstance(st.value, Construct):
            ws = spec.worksheet(st.value.worksheet)
            return _construct_violation(st.value, ws, state, spec) if ws else None
        resolved = _resolve(st.target, state, spec)
        if resolved is None:
            return None  # the interpreter reports unknown paths
        ws, f = resolved
        why = _field_violation(ws, f, st.value, state)
        if why is None and isinstance(st.value, Construct):
            inner = spec.worksheet(st.value.worksheet)
            why = _construct_violation(st.value, inner, state, spec) if inner else None
        return why
    if isinstance(st, ConfirmValue) and st.yes:
        resolved = _resolve(st.target, state, spec)
        if resolved is not None and resolved[1].confirm and not _asked(state, "confirm", resolved[0], resolved[1]):
            return (f"{resolved[0].name}.{resolved[1].name} can only be confirmed after the agent asks the user "
                    "to confirm it")
    return None


def _construct_violation(value: Construct, ws: Worksheet, state: DialogueState, spec: Spec) -> str | None:
    for name, sub in value.kwargs:
        f = ws.field(name)
        if f is None:
            continue  # the interpreter rejects unknown fields
        why = _field_violation(ws, f, sub, state)
        if why is None and isinstance(sub, Construct):
            inner = spec.worksheet(sub.worksheet)
            why = _construct_violation(sub, inner, state, spec) if inner else None
        if why:
            return why
    return None


def _field_violation(ws: Worksheet, f: Field, value: Any, state: DialogueState) -> str | None:
    if f.kind in ("internal", "output"):
        return f"{ws.name}.{f.name} is set by the agent, not from what the user says"
    if parse_type(f.type).base == "confirm" and isinstance(value, Const) and value.value is True:
        if not _asked(state, "ask", ws, f):
            return (f"{ws.name}.{f.name} can only be answered yes after the agent shows the summary and asks; "
                    "it has not asked")
    return None


def _asked(state: DialogueState, act: str, ws: Worksheet, f: Field) -> bool:
    return any(a.get("act") == act and a.get("worksheet") == ws.name and a.get("field") == f.name
               for a in state.last_acts)


def _resolve(parts: tuple[PathPart, ...], state: DialogueState, spec: Spec) -> tuple[Worksheet, Field] | None:
    """The worksheet and field a statement path ends at, read from the state and spec (no side effects)."""
    head, rest = parts[0], list(parts[1:])
    if not isinstance(head, str) or not rest:
        return None
    ws = _worksheet_of_var(head, state, spec)
    if ws is None:
        holder = next((r for r in state.tasks() if r.status == "active"
                       and (w := spec.worksheet(r.worksheet)) is not None and w.field(head) is not None), None)
        if holder is None:
            return None
        ws, rest = spec.worksheet(holder.worksheet), [head, *rest]
    for name in rest[:-1]:
        f = ws.field(name) if isinstance(name, str) else None
        inner = spec.worksheet(parse_type(f.type).worksheet or "") if f is not None else None
        if inner is None:
            return None
        ws = inner
    last = rest[-1]
    f = ws.field(last) if isinstance(last, str) else None
    return (ws, f) if f is not None else None


def _worksheet_of_var(var: str, state: DialogueState, spec: Spec) -> Worksheet | None:
    rec = state.get(var)
    if isinstance(rec, TaskRecord):
        return spec.worksheet(rec.worksheet)
    if rec is not None:
        return None
    return next((w for w in spec.task_worksheets() if snake_case(w.name) == var), None)


def _has_record_lists(spec: Spec) -> bool:
    """Whether some task field is a `List[Worksheet]` (the prompt then teaches list statements)."""
    for ws in spec.task_worksheets():
        for f in ws.fields:
            try:
                ref = parse_type(f.type)
            except GenieError:
                continue
            if ref.is_list and ref.worksheet and spec.worksheet(ref.worksheet) is not None:
                return True
    return False
