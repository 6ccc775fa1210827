"""Prompts of the LLM backends: Jinja2 templates plus compact renderings of spec, state and acts.

Every LLM prompt is two templates, `NAME_system.jinja2` and `NAME_user.jinja2`,
shipped in `core_engine/llm/prompts/`. A project's `prompts/` folder is searched
first, so a developer overrides a prompt by dropping a file of the same name
there; `{% extends "builtin/NAME_system.jinja2" %}` reaches the shipped one.
Templates run in Jinja's sandbox with StrictUndefined (a typo in an override is
an error naming the template, not a silently empty prompt).

The renderers below turn the spec, the dialogue state and the agent acts into
the short Python-like text the paper's prompts use. They are bounded on
purpose: the state shows task records and only the latest KB record (plus a KB
record a field is still waiting on), rows are capped and long values cut, so a
prompt does not grow with the length of the conversation.
"""

from __future__ import annotations

import datetime as dt
import re
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

from ..policy import acts as A
from ..errors import SpecError
from ..spec.model import Field, Spec, Worksheet, parse_type
from ..dialogue.state import DialogueState, KBRecord, TaskRecord, ref_target

__all__ = [
    "BUILTIN_PROMPTS",
    "PromptLibrary",
    "RenderedPrompt",
    "compact_row",
    "render_acts",
    "render_few_shots",
    "select_few_shots",
    "render_kb_tables",
    "render_signatures",
    "render_state",
    "render_value",
    "date_words",
    "shown_kb_records",
]

BUILTIN_PROMPTS = Path(__file__).resolve().parent / "prompts"
ROW_KEYS_MAX = 10  # columns shown per row
VALUE_KEYS_MAX = 4  # columns shown of a row that is a field's value (e.g. the chosen restaurant)
TEXT_MAX = 80  # characters shown of a text value
LIST_MAX = 3  # items shown of a list value
ROWS_MAX = 5  # rows shown of a KB result (the spec's report_rows when smaller)


@dataclass
class RenderedPrompt:
    """Chat messages plus where each template came from (project override or built-in)."""

    messages: list[dict[str, str]]
    sources: dict[str, str]


TEMPLATE_TEXT_MAX = 1_000_000
"""Characters (or items) one template operation may build: `"a" * n`, `center(n)`, `range(n)`."""
TEMPLATE_ITEMS_MAX = 1_000_000
"""Items all `range()` calls of one render may yield together (nested loops share it)."""


class BudgetedEnvironment(SandboxedEnvironment):
    """Jinja's sandbox plus size budgets: a project's templates come from whoever wrote the bundle.

    The sandbox stops attribute escapes; it does not stop `"a" * 10**9`, `|center(10**9)` or
    nested `range(100000)` loops, which would stall every LLM turn. Those three are bounded here;
    going past a budget is a SecurityError, which `PromptLibrary.render` reports as a SpecError.
    """

    intercepted_binops = frozenset({"*", "**"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._items = threading.local()
        self.globals["range"] = self._range
        for name in ("center", "indent", "wordwrap", "truncate"):
            self.filters[name] = self._bounded_filter(self.filters[name])

    def reset_budget(self) -> None:
        self._items.left = TEMPLATE_ITEMS_MAX

    def _range(self, *args: int) -> range:
        r = range(*args)
        left = getattr(self._items, "left", TEMPLATE_ITEMS_MAX) - len(r)
        if len(r) > TEMPLATE_TEXT_MAX or left < 0:
            raise SecurityError(f"the template's loops went past {TEMPLATE_ITEMS_MAX:,} items")
        self._items.left = left
        return r

    @staticmethod
    def _bounded_filter(fn: Any) -> Any:
        def bounded(value: Any, *args: Any, **kwargs: Any) -> Any:
            for n in (*args, *kwargs.values()):
                if isinstance(n, int) and not isinstance(n, bool) and abs(n) > TEMPLATE_TEXT_MAX:
                    raise SecurityError(f"a template filter width of {n:,} is past {TEMPLATE_TEXT_MAX:,}")
            return fn(value, *args, **kwargs)
        return bounded

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > TEMPLATE_TEXT_MAX:
                    raise SecurityError(f"the template builds {len(seq) * n:,} characters or items "
                                        f"(at most {TEMPLATE_TEXT_MAX:,})")
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(right) > 64:
            raise SecurityError("the template raises a number to a power above 64")
        return super().call_binop(context, operator, left, right)


class PromptLibrary:
    """The prompt templates of one agent: the project's `prompts/` first, then the shipped ones."""

    def __init__(self, project_dir: Path | str | None = None) -> None:
        self.project_dir = Path(project_dir) if project_dir else None
        builtin = jinja2.FileSystemLoader(str(BUILTIN_PROMPTS))
        loaders: list[jinja2.BaseLoader] = []
        if self.project_dir is not None and self.project_dir.is_dir():
            loaders.append(jinja2.FileSystemLoader(str(self.project_dir)))
        loaders += [builtin, jinja2.PrefixLoader({"builtin": builtin})]
        self.env = BudgetedEnvironment(
            loader=jinja2.ChoiceLoader(loaders), undefined=jinja2.StrictUndefined, autoescape=False,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False,
        )
        self.env.filters["tojson_compact"] = lambda v: json.dumps(v, ensure_ascii=False, default=str)

    def source_of(self, template: str) -> str:
        """'project' when the project overrides this template, else 'builtin'."""
        if self.project_dir is not None and (self.project_dir / template).is_file():
            return "project"
        return "builtin"

    def render(self, name: str, **variables: Any) -> RenderedPrompt:
        """The system and user messages of prompt NAME; a broken template is a SpecError naming it."""
        messages, sources = [], {}
        for role in ("system", "user"):
            template = f"{name}_{role}.jinja2"
            try:
                self.env.reset_budget()
                text = self.env.get_template(template).render(**variables)
            except jinja2.TemplateSyntaxError as exc:
                raise SpecError(f"prompt template {exc.name or template} line {exc.lineno}: {exc.message}",
                                path=exc.filename) from exc
            except jinja2.TemplateNotFound as exc:
                raise SpecError(f"prompt template {exc.name} not found", template=template) from exc
            except (jinja2.TemplateError, TypeError, ValueError) as exc:
                raise SpecError(f"prompt template {template} failed to render: {exc}", template=template) from exc
            messages.append({"role": role, "content": text.strip() + "\n"})
            sources[template] = self.source_of(template)
        return RenderedPrompt(messages, sources)


# -- the spec ---------------------------------------------------------------------


def render_signatures(spec: Spec) -> str:
    """Task worksheets and record types as compact Python-like classes, one field a line.

    Internal fields are left out: the agent computes them, the user never gives them.
    """
    blocks = []
    start = spec.start_worksheet()
    for ws in spec.worksheets:
        if ws.kind == "kb":
            continue
        blocks.append(_signature(ws, spec, start is not None and ws.name == start.name))
    return "\n\n".join(blocks)


def _signature(ws: Worksheet, spec: Spec, is_start: bool) -> str:
    notes = []
    if ws.kind == "type":
        table = _table_of_type(ws, spec)
        notes.append(f"a row of the knowledge-base table {table}" if table else "a knowledge-base row")
        notes.append('a field of this type takes answer("...") or answer.result[i]')
    else:
        notes.append("task, the starting worksheet" if is_start else "task")
        if ws.predicate.strip():
            notes.append(f"opened when {ws.predicate.strip()}")
        if ws.api:
            notes.append(f"calls the API {ws.api} when complete")
    if ws.description.strip():
        notes.insert(0, ws.description.strip().rstrip("."))
    lines = [f"class {ws.name}:  # " + "; ".join(notes)]
    if ws.kind == "type":
        names = ", ".join(f.name for f in ws.fields)
        lines.append(f"    # columns: {names}")
        return "\n".join(lines)
    for f in ws.fields:
        if f.kind in ("internal", "output"):
            continue
        lines.append(f"    {f.name}: {_type_text(f)}" + _field_comment(f))
    if len(lines) == 1:
        lines.append("    pass")
    return "\n".join(lines)


def _type_text(f: Field) -> str:
    base = parse_type(f.type).base
    if base == "Enum" and f.enum_values:
        return "Enum[" + ", ".join(json.dumps(e.value, ensure_ascii=False) for e in f.enum_values) + "]"
    return f.type


def _field_comment(f: Field) -> str:
    notes = []
    if f.description.strip():
        notes.append(f.description.strip().rstrip("."))
    described = [e for e in f.enum_values if e.description]
    if described:
        notes.append("; ".join(f'"{e.value}" = {e.description.strip()}' for e in described))
    base = parse_type(f.type).base
    if base == "confirm":
        notes.append("True only when the user agrees to the summary the agent just showed, False when they decline")
    elif base == "date":
        notes.append("YYYY-MM-DD")
    elif base == "time":
        notes.append("HH:MM, 24-hour")
    if f.dont_ask:
        notes.append("only when the user offers it")
    elif not f.required:
        notes.append("optional")
    if f.confirm:
        notes.append("the agent confirms it with the user")
    if f.predicate.strip():
        notes.append(f"only when {f.predicate.strip()}")
    return "  # " + "; ".join(notes) if notes else ""


def _table_of_type(ws: Worksheet, spec: Spec) -> str | None:
    names = {f.name for f in ws.fields}
    for kb in spec.kb_worksheets():
        if names and names <= {f.name for f in kb.fields}:
            return kb.name
    return None


def render_kb_tables(spec: Spec) -> str:
    """One line per KB table: what `answer("...")` can be asked about."""
    lines = []
    for ws in spec.kb_worksheets():
        about = f" ({ws.description.strip()})" if ws.description.strip() else ""
        lines.append(f"- {ws.name}{about}: " + ", ".join(f.name for f in ws.fields))
    return "\n".join(lines)


# -- values, rows, state ------------------------------------------------------------


def render_value(value: Any) -> str:
    """A field value as the prompt shows it: a record reference by name, a KB row compacted."""
    target = ref_target(value)
    if target is not None:
        return target
    if isinstance(value, dict):
        return json.dumps(compact_row(value, keys_max=VALUE_KEYS_MAX), ensure_ascii=False, default=str)
    if isinstance(value, str):
        return json.dumps(_cut(value, TEXT_MAX * 2), ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value[:LIST_MAX * 2]) + "]"
    return repr(value) if isinstance(value, (bool, int, float)) or value is None else json.dumps(str(value))


def compact_row(row: dict[str, Any], keys_max: int = ROW_KEYS_MAX) -> dict[str, Any]:
    """A KB row cut to its first columns, short text and a few list items: bounded size."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if len(out) >= keys_max:
            break
        if value is None or value == "" or value == []:
            continue
        if isinstance(value, str):
            out[key] = _cut(value, TEXT_MAX)
        elif isinstance(value, list):
            out[key] = [_cut(v, TEXT_MAX // 2) if isinstance(v, str) else v for v in value[:LIST_MAX]]
        elif isinstance(value, dict):
            out[key] = "{...}"
        else:
            out[key] = value
    return out


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def shown_kb_records(state: DialogueState) -> list[KBRecord]:
    """The latest KB record, plus any KB record a task field still points at (a pending choice)."""
    kbs = state.kb_records()
    if not kbs:
        return []
    waiting = {ref_target(v) for r in state.tasks() if r.status == "active" for v in r.values.values()}
    shown = [k for k in kbs if k.var in waiting]
    if kbs[-1] not in shown:
        shown.append(kbs[-1])
    return sorted(shown, key=kbs.index)


def render_state(state: DialogueState, spec: Spec, *, rows_max: int | None = None, kb: bool = True) -> str:
    """Task records (abandoned ones left out) and, with `kb`, the shown KB records, as statements."""
    rows_max = min(rows_max or ROWS_MAX, spec.settings.report_rows or ROWS_MAX)
    lines: list[str] = []
    for rec in state.tasks():
        if rec.status == "abandoned":
            continue
        lines.append(_task_line(rec, spec, state))
    for record in shown_kb_records(state) if kb else []:
        lines += _kb_lines(record, rows_max)
    return "\n".join(lines) if lines else "# (empty: nothing has been said yet)"


def _task_line(rec: TaskRecord, spec: Spec, state: DialogueState) -> str:
    ws = spec.worksheet(rec.worksheet)
    order = [f.name for f in ws.fields] if ws else []
    names = [n for n in order if n in rec.values] + [n for n in rec.values if n not in order]
    args = ", ".join(f"{n}={render_value(rec.values[n])}" for n in names)
    notes = []
    if rec.status == "completed":
        result = json.dumps(rec.result, ensure_ascii=False, default=str) if rec.result is not None else "none"
        notes.append(f"completed; API result: {_cut(result, TEXT_MAX * 2)}")
    if rec.confirmed:
        notes.append("confirmed: " + ", ".join(rec.confirmed))
    if rec.refused:
        notes.append("refused: " + ", ".join(rec.refused))
    if rec.outcome == "declined":
        notes.append("the user declined to go ahead")
    for n in names:
        target = ref_target(rec.values[n])
        if target and isinstance(state.get(target), KBRecord):
            notes.append(f"{n} waits for the user to pick one of {target}.result")
    comment = "  # " + "; ".join(notes) if notes else ""
    return f"{rec.var} = {rec.worksheet}({args}){comment}"


def _kb_lines(kb: KBRecord, rows_max: int) -> list[str]:
    lines = [f"{kb.var} = answer({json.dumps(kb.query, ensure_ascii=False)})"]
    if kb.status == "error":
        lines.append(f"# {kb.var} could not be answered: {_cut(kb.error or 'error', TEXT_MAX)}")
        return lines
    rows = kb.result or []
    if kb.status == "pending":
        lines.append(f"# {kb.var} is not answered yet")
        return lines
    shown = [json.dumps(compact_row(r), ensure_ascii=False, default=str) for r in rows[:rows_max]]
    more = f"  # {len(rows)} rows, first {rows_max} shown" if len(rows) > rows_max else ""
    if not shown:
        lines.append(f"{kb.var}.result = []")
    else:
        lines.append(f"{kb.var}.result = [{more}")
        lines += [f"    {s}," for s in shown]
        lines.append("]")
    return lines


# -- acts ------------------------------------------------------------------------------


def render_acts(acts: Iterable[dict[str, Any]], spec: Spec, *, rows: bool = False) -> str:
    """One act a line in the paper's notation, with what a reader needs (the field asked, its options)."""
    lines = []
    for act in acts:
        kind = act.get("act")
        line = A.describe(act)
        if kind == "ask":
            f = _field(spec, act.get("worksheet", ""), act.get("field", ""))
            if f is not None:
                line += "  # asks: " + (f.description.strip() or f.name)
                if f.enum_values:
                    line += "; options: " + ", ".join(e.value for e in f.enum_values)
        elif kind == "report" and act.get("kind") == "kb":
            result = act.get("result") or []
            line += f'  # {len(result)} row(s) for "{act.get("query", "")}"'
            if act.get("error"):
                line += f"; could not answer: {act['error']}"
            if act.get("note"):
                line += f"; {act['note']}"
            if rows:
                line += "\n" + "\n".join(f"    {i}. " + json.dumps(compact_row(r), ensure_ascii=False, default=str)
                                          for i, r in enumerate(result, start=1))
        elif kind == "report":
            line += "  # result: " + _cut(json.dumps(act.get("result"), ensure_ascii=False, default=str), 400)
        lines.append(line)
    return "\n".join(lines) if lines else "(none)"


def _field(spec: Spec, worksheet: str, name: str) -> Field | None:
    ws = spec.worksheet(worksheet)
    return ws.field(name) if ws else None


# -- few-shot examples ------------------------------------------------------------------


def render_few_shots(examples: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Project examples normalised for the template: state, acts, agent, user, statements (text)."""
    out = []
    for i, ex in enumerate(examples, start=1):
        if not isinstance(ex, dict) or not isinstance(ex.get("user"), str) or not isinstance(ex.get("statements"), str):
            raise SpecError(f"few-shot example {i} needs 'user' and 'statements' strings", example=i)
        acts = ex.get("acts", "")
        out.append({
            "state": str(ex.get("state") or "# (empty)"),
            "acts": "\n".join(acts) if isinstance(acts, list) else str(acts or "(none)"),
            "agent": str(ex.get("agent", "")),
            "user": ex["user"],
            "statements": ex["statements"].strip() or "# nothing to change",
        })
    return out


_WORD = re.compile(r"[a-z0-9]{3,}")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def example_text(ex: dict[str, str]) -> str:
    """An example as the parser template shows it (for its size in tokens)."""
    return (f"Example 1\nState:\n```\n{ex['state']}\n```\nAgent acts:\n{ex['acts']}\nAgent: {ex['agent']}\n"
            f"User: {ex['user']}\nStatements:\n```python\n{ex['statements']}\n```\n")


def select_few_shots(examples: list[dict[str, str]], costs: list[int], context: str, *, room: int,
                     most: int) -> list[dict[str, str]]:
    """The examples most like this turn that fit in `room` tokens, at most `most`, in project order.

    Likeness is word overlap (words of 3+ letters) between `context` (the user's words, the
    agent's last acts and utterance, the worksheets in focus) and the example, scaled by the
    example's length so a long example does not win by size alone; ties keep project order.
    """
    query = _words(context)
    scored = []
    for i, ex in enumerate(examples):
        words = _words(" ".join((ex["user"], ex["acts"], ex["agent"], ex["state"], ex["statements"])))
        scored.append((-(len(query & words) / (1 + len(words)) ** 0.5), i))
    chosen: list[int] = []
    for _, i in sorted(scored):
        if len(chosen) == most:
            break
        if costs[i] <= room:
            chosen.append(i)
            room -= costs[i]
    return [examples[i] for i in sorted(chosen)]


def date_words(today: dt.date) -> dict[str, str]:
    return {"date": today.isoformat(), "day": today.strftime("%A")}
