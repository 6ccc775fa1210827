"""`genie eval`: the Genie paper's four metrics on a project's annotated conversation tests.

Per turn, three metrics, each counted only on the turns that carry its annotation
(so every metric reports its own `n`):

- semantic parsing: the turn's statements (the parse trace) equal the expected
  `statements`, compared as canonical formal statements, order-insensitive;
- execution: the state after the turn holds the expected `values`;
- dialogue acts: the agent's acts match the expected `acts` (`match` as in tests).

Per conversation, goal completion: the expected API is called with the expected
values (a test-level `"goal": {"api": ..., "values": {...}}`, else the last turn
that expects an API report, with that turn's `values`). A call with wrong values
is a failed goal.

Canonical statements: `x = W(a=1, b=2)` for a bare record variable counts as
`x.a = 1` and `x.b = 2`; keyword order does not matter; texts compare without letter case
or extra spaces ("jordan blake" is "Jordan Blake"), as values and goals do (`same_value`); `answer(...)` compares
its query text only with `queries="text"` (lower-cased, punctuation dropped) -
by default a KB question is scored by where it goes, not by its wording, since
two phrasings of one question are the same parse. `answer("*")` in an expected
statement matches any text either way.

A project may also hold `kb_questions.json` - `[{"question", "expected_ids", "mode"}]`
- scored through the knowledge parser: mode "all" needs exactly the expected rows
back, mode "any" needs one expected row among the rows the agent would show.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from ..dialogue import statements as S
from ..session.agent import Agent
from ..errors import GenieError, SpecError
from ..dialogue.state import DialogueState, KBRecord
from .testing import (_MISSING, CONTEXTS, act_matches, check_turn, find_tests, folded, load_test, read_path, run_test,
                      same_value)

METRICS = ("semantic_parsing", "execution", "dialogue_acts", "goal_completion")
KB_QUESTIONS_FILE = "kb_questions.json"


# -- canonical statements ---------------------------------------------------------------


def _query(text: str, queries: str) -> str:
    if text.strip() == "*" or queries != "text":
        return "*"
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _value(v: Any, queries: str) -> str:
    if isinstance(v, S.Const):  # texts compared as `same_value` does: letter case and spacing aside
        value = v.value
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # 4.0 hours is 4 hours, as `same_value` has it
        return json.dumps(folded(value) if isinstance(value, str) else value, sort_keys=True, default=str)
    if isinstance(v, S.PathRef):
        return str(v)
    if isinstance(v, S.AnswerQuery):
        return f"answer({_query(v.query, queries)!r})"
    if isinstance(v, S.ListValue):
        return "[" + ", ".join(_value(i, queries) for i in v.items) + "]"
    if isinstance(v, S.Construct):
        args = sorted(f"{k}={_value(x, queries)}" for k, x in v.kwargs)
        return f"{v.worksheet}({', '.join(args)})"
    return repr(v)


def _forms(stmt: S.Statement, queries: str) -> list[str]:
    if isinstance(stmt, S.Assign):
        if len(stmt.target) == 1 and isinstance(stmt.value, S.Construct):  # x = W(a=1) is x.a = 1
            return [f"{stmt.target[0]}.{k} = {_value(v, queries)}" for k, v in stmt.value.kwargs] or \
                   [f"{stmt.target[0]} = {stmt.value.worksheet}()"]
        return [f"{S.format_path(stmt.target)} = {_value(stmt.value, queries)}"]
    if isinstance(stmt, S.Ask):
        return [f"answer({_query(stmt.query, queries)!r})"]
    if isinstance(stmt, S.ConfirmValue):
        return [f"confirm({S.format_path(stmt.target)}, {stmt.yes})"]
    if isinstance(stmt, S.Exit):
        return [f"exitws({stmt.var})"]
    return [repr(replace(stmt, source="", line=0))]


def canonical_statements(lines: list[str] | str, *, queries: str = "shape") -> list[str]:
    """Sorted canonical forms of formal statements; a line that does not parse stays as its text."""
    text = lines if isinstance(lines, str) else "\n".join(lines)
    parsed = S.parse_statements(text)
    out = [form for stmt in parsed.statements for form in _forms(stmt, queries)]
    out += [f"<rejected> {r.get('source', '')}".strip() for r in parsed.rejected]
    return sorted(out)


def statements_equal(expected: list[str], actual: list[str], *, queries: str = "shape") -> bool:
    if queries != "text":
        return Counter(canonical_statements(expected)) == Counter(canonical_statements(actual))
    exp_text, exp_shape = canonical_statements(expected, queries="text"), canonical_statements(expected)
    act_text, act_shape = canonical_statements(actual, queries="text"), canonical_statements(actual)
    if len(exp_text) != len(act_text):
        return False
    # an expected answer("*") matches any wording: compare those statements by shape, the rest by text
    wild = [shape for text, shape in zip(exp_text, exp_shape) if "answer('*')" in text]
    exact = Counter(t for t in exp_text if "answer('*')" not in t)
    left = [shape for text, shape in zip(act_text, act_shape) if not _take(exact, text)]
    return not +exact and Counter(left) == Counter(wild)


def _take(counter: Counter, key: str) -> bool:
    if counter[key] > 0:
        counter[key] -= 1
        return True
    return False


# -- one parser over the tests ------------------------------------------------------------


def _goal(test: dict[str, Any]) -> dict[str, Any] | None:
    if isinstance(test.get("goal"), dict):
        return test["goal"]
    for turn in reversed(test["turns"]):
        for act in turn.get("acts") or []:
            if act.get("act") == "report" and act.get("kind") == "api" and act.get("api"):
                return {"api": act["api"], "values": dict(turn.get("values") or {})}
    return None


def _goal_reached(goal: dict[str, Any], outputs: list[Any]) -> tuple[bool, str]:
    for out in outputs:
        if any(a.get("act") == "report" and a.get("kind") == "api" and a.get("api") == goal["api"]
               for a in out.acts):
            state = DialogueState.from_json(out.state)
            wrong = []
            for path, want in (goal.get("values") or {}).items():
                got = read_path(state, path)
                if got is _MISSING or not same_value(want, got):
                    wrong.append(f"{path}: expected {want!r}, got {None if got is _MISSING else got!r}")
            return (not wrong, "; ".join(wrong) or "called with the expected values")
    return False, f"{goal['api']} was never called"


def _score(right: int, n: int) -> dict[str, Any]:
    return {"right": right, "n": n, "accuracy": round(right / n, 4) if n else None}


def evaluate_tests(agent: Agent, tests: list[tuple[str, dict[str, Any]]], parser: str, *,
                   queries: str = "shape", session_options: dict[str, Any] | None = None,
                   context: str = "own") -> dict[str, Any]:
    """The four metrics of one parser over (path, test) pairs; formal tests only for the formal parser.

    `context`: "own" plays the conversation on the parser's own readings (a misread turn can fail
    the turns after it); "gold" judges every annotated turn from the state its test expects before it."""
    counts = {m: [0, 0] for m in METRICS}
    turns_ok = turns_n = passed = 0
    details, skipped, failed = [], 0, []
    for path, test in tests:
        if (test.get("parser", "formal") == "formal") != (parser == "formal"):
            skipped += 1
            continue
        result = run_test(agent, test, path=path, session_options={"parser": parser, **(session_options or {})},
                          context=context)
        passed += result.passed
        rows = []
        for spec_turn, check, out in zip(test["turns"], result.turns, result.outputs):
            row: dict[str, Any] = {"index": check.index, "user": check.user, "ok": not check.problems}
            if check.problems:
                row["problems"] = list(check.problems)
            turns_n += 1
            turns_ok += not check.problems
            broken = [c.get("error") for c in out.trace.get("parse", {}).get("llm_calls") or [] if c.get("error")]
            if broken or not out.ok:  # the backend failed (e.g. no LLM configured): say so beside the scores
                failed.append(str(broken[0] if broken else out.trace.get("fallback") or "the turn failed"))
            got = list(out.trace.get("parse", {}).get("statements") or [])
            if "statements" in spec_turn:
                ok = statements_equal(list(spec_turn["statements"]), got, queries=queries)
                _count(counts, "semantic_parsing", ok)
                row.update(semantic_parsing=ok, expected_statements=spec_turn["statements"], statements=got)
            if spec_turn.get("values"):
                ok = not any(p.split(":")[0] in spec_turn["values"] for p in check.problems)
                _count(counts, "execution", ok)
                row["execution"] = ok
            if spec_turn.get("acts") is not None:
                only_acts = check_turn(check.index, {"user": check.user, "acts": spec_turn["acts"],
                                                     "match": spec_turn.get("match", "exact")}, out)
                ok = not [p for p in only_acts.problems if not p.startswith("turn failed")]
                _count(counts, "dialogue_acts", ok)
                row["dialogue_acts"] = ok
            rows.append(row)
        goal = _goal(test)
        entry: dict[str, Any] = {"name": result.name, "path": path, "passed": result.passed, "error": result.error,
                                 "turns": rows}
        if goal is not None:
            ok, why = _goal_reached(goal, result.outputs) if not result.error else (False, result.error)
            _count(counts, "goal_completion", ok)
            entry["goal"] = {"api": goal["api"], "reached": ok, "detail": why}
        details.append(entry)
    return {"parser": parser, "context": context, "metrics": {m: _score(*counts[m]) for m in METRICS},
            "turns": _score(turns_ok, turns_n), "conversations": _score(passed, len(details)),
            "skipped_tests": skipped, "failed_turns": len(failed), "first_failure": failed[0] if failed else None,
            "tests": details}


def _count(counts: dict[str, list[int]], metric: str, ok: bool) -> None:
    counts[metric][0] += bool(ok)
    counts[metric][1] += 1


# -- KB questions ---------------------------------------------------------------------------


def load_kb_questions(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(f"{path}: not a readable JSON list of KB questions: {exc}", path=str(path)) from exc
    if not isinstance(data, list):
        raise SpecError(f"{path}: KB questions must be a JSON list", path=str(path))
    for i, q in enumerate(data, start=1):
        if not (isinstance(q, dict) and isinstance(q.get("question"), str) and isinstance(q.get("expected_ids"), list)
                and q.get("mode", "all") in ("all", "any")):
            raise SpecError(f"{path}: question {i} needs 'question', 'expected_ids' and a mode 'all' or 'any'",
                            path=str(path), item=i)
    return data


def _row_ids(agent: Agent, rows: list[Any]) -> list[str]:
    keys = {f.name for ws in agent.spec.worksheets if ws.kind == "kb" for f in ws.fields if f.primary_key}
    ids = []
    for row in rows:
        if isinstance(row, dict):
            ids += [str(row[k]) for k in keys if k in row]
    return ids


def evaluate_kb_questions(agent: Agent, questions: list[dict[str, Any]],
                          session_options: dict[str, Any] | None = None) -> dict[str, Any]:
    shown = agent.spec.settings.report_rows
    right, details = 0, []
    for q in questions:
        session = agent.new_session(parser="formal", **(session_options or {}))
        out = session.turn(f"answer({json.dumps(q['question'], ensure_ascii=False)})")
        state = DialogueState.from_json(out.state)
        record = next((r for r in reversed(state.records) if isinstance(r, KBRecord)), None)
        got = _row_ids(agent, list(getattr(record, "result", None) or []))
        want = [str(i) for i in q["expected_ids"]]
        ok = set(got) == set(want) if q.get("mode", "all") == "all" else bool(set(got[:shown]) & set(want))
        right += ok
        details.append({"question": q["question"], "mode": q.get("mode", "all"), "expected_ids": want,
                        "ids": got, "right": ok})
    return {**_score(right, len(questions)), "questions": details}


# -- a project ---------------------------------------------------------------------------------


def evaluate(agent: Agent, parsers: list[str], *, paths: list[Path] | None = None, queries: str = "shape",
             tests: dict[str, dict[str, Any]] | None = None, session_options: dict[str, Any] | None = None,
             progress: Callable[[str], None] | None = None, contexts: tuple[str, ...] = ("own",)) -> dict[str, Any]:
    """Every parser in `parsers` over the project's tests (and its KB questions, if it has any).

    `tests` (name -> test, as a project file keeps them) replaces the test files when given.
    `contexts`: "own" (a column per parser) and/or "gold" (a column "PARSER (gold context)")."""
    if queries not in ("shape", "text"):
        raise GenieError(f"queries must be 'shape' or 'text', not {queries!r}")
    if not contexts or any(c not in CONTEXTS for c in contexts):
        raise GenieError(f"contexts must be among {', '.join(CONTEXTS)}, not {list(contexts)!r}")
    pairs = [(name, {"name": name, **t}) for name, t in tests.items()] if tests is not None else []
    for p in ([] if tests is not None else find_tests(agent) if paths is None else paths):
        try:
            pairs.append((str(p), load_test(p)))
        except SpecError as exc:
            raise SpecError(f"cannot evaluate: {exc}", path=str(p)) from exc
    kb_file = agent.root / KB_QUESTIONS_FILE if agent.root is not None else None
    questions = load_kb_questions(kb_file) if kb_file is not None and kb_file.is_file() else None
    for parser in parsers:  # an unknown parser is an error before anything runs
        agent.make_parser(parser, **(session_options or {}))
    columns = {}
    for parser in parsers:
        if progress:
            progress(parser)
        kb = None
        if questions is not None and parser != "formal" and agent.kb_path is not None:
            kb = evaluate_kb_questions(agent, questions, session_options)  # the same in either context
        for context in contexts:
            col = evaluate_tests(agent, pairs, parser, queries=queries, session_options=session_options,
                                 context=context)
            if kb is not None:
                col["kb_questions"] = kb
            columns[column_name(parser, context)] = col
    return {"project": agent.spec.name, "parsers": columns}


def column_name(parser: str, context: str) -> str:
    """A result column: the parser's name, marked when its turns were judged from the gold context."""
    return parser if context == "own" else f"{parser} ({context} context)"


ROWS = (("semantic parsing", lambda c: c["metrics"]["semantic_parsing"]),
        ("execution", lambda c: c["metrics"]["execution"]),
        ("dialogue acts", lambda c: c["metrics"]["dialogue_acts"]),
        ("goal completion", lambda c: c["metrics"]["goal_completion"]),
        ("turns fully right", lambda c: c["turns"]),
        ("conversations passing", lambda c: c["conversations"]),
        ("KB questions", lambda c: c.get("kb_questions")))


def table_rows(result: dict[str, Any]) -> list[dict[str, str]]:
    """One row per metric, one column per parser: 'right/n (pct%)' or '-'."""
    rows = []
    for label, get in ROWS:
        row = {"metric": label}
        for parser, col in result["parsers"].items():
            row[parser] = format_score(get(col))
        rows.append(row)
    return rows


def format_score(score: dict[str, Any] | None) -> str:
    if not score or not score.get("n"):
        return "-"
    return f"{score['right']}/{score['n']} ({100 * score['right'] / score['n']:.0f}%)"


def format_table(result: dict[str, Any]) -> str:
    rows = table_rows(result)
    headers = ["metric", *result["parsers"]]
    widths = [max(len(h), *(len(r[h]) for r in rows)) for h in headers]
    lines = [f"{result['project']}", "  ".join(h.ljust(w) for h, w in zip(headers, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(r[h].ljust(w) for h, w in zip(headers, widths)) for r in rows]
    lines += [f"warning: {parser}: {col['failed_turns']} turn(s) failed to run, e.g. {col['first_failure']}"
              for parser, col in result["parsers"].items() if col.get("failed_turns")]
    return "\n".join(lines)
