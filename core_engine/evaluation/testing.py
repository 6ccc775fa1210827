"""Conversation tests: recorded turns with the acts, values and words they must produce.

A test file (JSON, in a project's `tests/`):

    {"name": "...", "parser": "formal", "turns": [
        {"user": "main.full_name = \\"Jane\\"",
         "acts": [{"act": "ask", "var": "main", "field": "confirm"}],   # each expected act is a
         "match": "exact",                                               # subset of the actual one
         "values": {"main.full_name": "Jane"},                           # paths through records
         "response_contains": ["Jane"]}]}

`match` is "exact" (same number and order of acts) or "contains" (each expected
act appears somewhere). An expected act lists only the keys it cares about, so
generated values such as transaction ids need not be written down. A turn with
`"parser": "formal"` is played as injected statements whatever the test's parser
(the playground's inject and edit turns).

For `genie eval` (core_engine/evaluation/metrics.py, docs/evaluation.md) a turn may also carry
`"statements": [...]`, the formal statements an ideal parser gives for it, and a test a
`"goal": {"api": "...", "values": {...}}`, the API the conversation must call and the values
it must hold then; `genie test` ignores both. A path may read a KB row a field holds by
column (`book_appointment.dentist.id`).

`run_test(..., context="gold")` plays each turn that has `statements` twice: the session's parser
reads it and is checked, without the turn being kept; then the turn is kept as its expected
statements made it. Every turn is so judged from the state the test expects before it (the
"gold context"), so one misread turn does not fail the turns after it.

An optional top-level `"today": "YYYY-MM-DD"` fixes the date the conversation is held on
(what "tomorrow" and "next Friday" mean); without it the spec's `settings.today`, else the
real date, applies.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import jsonsafe
from ..session.agent import Agent
from ..errors import SpecError
from ..dialogue.state import DialogueState, TaskRecord, ref_target
from ..parsers.base import ParseContext, ParseResult

_MISSING = object()
CONTEXTS = ("own", "gold")


class ExpectedStatements:
    """A parser that reads a turn as the statements its test expects: how the gold context is kept."""

    name = "expected"

    def __init__(self, statements: list[str]) -> None:
        self.text = "\n".join(statements)

    def parse(self, utterance: str, ctx: ParseContext) -> ParseResult:
        return ParseResult(text=self.text, rules=[{"rule": "expected statements", "text": self.text}])


@dataclass
class TurnCheck:
    index: int
    user: str
    problems: list[str] = field(default_factory=list)
    expected_acts: list[dict[str, Any]] | None = None
    actual_acts: list[dict[str, Any]] = field(default_factory=list)
    response: str = ""
    # what the turn asserted on state and words, beside what it got (for readable diffs)
    expected_values: dict[str, Any] | None = None
    actual_values: dict[str, Any] = field(default_factory=dict)
    expected_response: list[str] | None = None
    match: str = "exact"


@dataclass
class TestResult:
    name: str
    path: str | None
    passed: bool
    turns: list[TurnCheck]
    error: str | None = None
    outputs: list[Any] = field(default_factory=list, repr=False)  # the TurnResults (coverage reads them)

    @property
    def first_failure(self) -> TurnCheck | None:
        return next((t for t in self.turns if t.problems), None)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "path": self.path, "passed": self.passed, "error": self.error,
                "turns": [dict(t.__dict__) for t in self.turns]}


def load_test(path: Path) -> dict[str, Any]:
    try:
        data = jsonsafe.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(f"{path}: not a readable JSON test file: {exc}", path=str(path)) from exc
    if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
        raise SpecError(f"{path}: a test needs a 'turns' list", path=str(path))
    for i, turn in enumerate(data["turns"], start=1):
        if not isinstance(turn, dict) or not isinstance(turn.get("user"), str):
            raise SpecError(f"{path}: turn {i} needs a 'user' string", path=str(path), turn=i)
    if "today" in data:
        try:
            dt.date.fromisoformat(str(data["today"]))
        except ValueError as exc:
            raise SpecError(f"{path}: 'today' must be a date like 2024-07-01, not {data['today']!r}",
                            path=str(path)) from exc
    data.setdefault("name", path.stem)
    return data


def find_tests(agent: Agent) -> list[Path]:
    if agent.root is None or not (agent.root / "tests").is_dir():
        return []
    return sorted((agent.root / "tests").glob("*.json"))


def act_matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    return all(actual.get(k, _MISSING) == v for k, v in expected.items())


def same_value(want: Any, got: Any) -> bool:
    """Equal, or two texts that differ only in letter case and spacing ("jordan blake", "Jordan Blake").

    How a typed value is capitalised is the agent's presentation, not a reading: blind-set writers
    disagree on it, and a test should not fail on it."""
    if want == got:
        return True
    return isinstance(want, str) and isinstance(got, str) and folded(want) == folded(got)


def folded(text: str) -> str:
    return " ".join(text.casefold().split())


def read_path(state: DialogueState, path: str) -> Any:
    """`main.courses_to_take.course_0_details.grade_type` -> the value, following references.

    A field holding a KB row is read by column: `book_appointment.dentist.id`."""
    parts = path.split(".")
    rec = state.get(parts[0])
    value: Any = rec
    for name in parts[1:]:
        if isinstance(value, dict) and not ref_target(value):  # a KB row held by a field: its columns
            value = value.get(name, _MISSING)
            rec = None
            continue
        if not isinstance(rec, TaskRecord):
            return _MISSING
        value = rec.values.get(name)
        target = ref_target(value)
        rec = state.get(target) if target else None
    if isinstance(value, TaskRecord):
        return {"$ref": value.var}
    return value


def check_turn(index: int, spec_turn: dict[str, Any], result: Any) -> TurnCheck:
    check = TurnCheck(index, spec_turn["user"], expected_acts=spec_turn.get("acts"),
                      actual_acts=result.acts, response=result.response,
                      expected_values=spec_turn.get("values"), expected_response=spec_turn.get("response_contains"),
                      match=spec_turn.get("match", "exact"))
    expected = spec_turn.get("acts")
    if expected is not None:
        if spec_turn.get("match", "exact") == "contains":
            for exp in expected:
                if not any(act_matches(exp, a) for a in result.acts):
                    check.problems.append(f"expected act {json.dumps(exp)} not among the acts")
        elif len(expected) != len(result.acts) or not all(
                act_matches(e, a) for e, a in zip(expected, result.acts)):
            check.problems.append("acts differ")
    state = DialogueState.from_json(result.state)
    for path, want in (spec_turn.get("values") or {}).items():
        got = read_path(state, path)
        check.actual_values[path] = None if got is _MISSING else got
        if got is _MISSING:
            check.problems.append(f"{path}: no such record or field")
        elif not same_value(want, got):
            check.problems.append(f"{path}: expected {want!r}, got {got!r}")
    for text in spec_turn.get("response_contains") or []:
        if text.lower() not in result.response.lower():
            check.problems.append(f"response does not contain {text!r}")
    if not result.ok:
        check.problems.append(f"turn failed: {result.trace.get('fallback')}")
    return check


def run_test(agent: Agent, test: dict[str, Any], *, path: str | None = None,
             session_options: dict[str, Any] | None = None, context: str = "own") -> TestResult:
    """Play a test; with `context="gold"` each annotated turn starts from its expected state."""
    if context not in CONTEXTS:
        raise SpecError(f"context must be one of {', '.join(CONTEXTS)}, not {context!r}")
    opts = {"parser": test.get("parser", "formal"), "rg": test.get("rg", "template"), **(session_options or {})}
    if test.get("today") and "today" not in opts:
        opts["today"] = dt.date.fromisoformat(str(test["today"]))
    try:
        session = agent.new_session(**opts)
    except Exception as exc:  # noqa: BLE001 - a test that cannot start is a failed test with a reason
        return TestResult(test.get("name", "?"), path, False, [], error=f"{type(exc).__name__}: {exc}")
    checks, outputs = [], []
    if context == "gold":
        from .metrics import statements_equal  # late: metrics imports this module
    for i, spec_turn in enumerate(test["turns"], start=1):
        if spec_turn.get("parser") == "formal" and opts["parser"] != "formal":
            result = session.inject(spec_turn["user"], strict=False)  # an injected or edited turn
            check = check_turn(i, spec_turn, result)
        elif context == "gold" and isinstance(spec_turn.get("statements"), list):
            result = session.probe(spec_turn["user"])
            check = check_turn(i, spec_turn, result)
            got = (result.trace.get("parse") or {}).get("statements") or []
            if result.ok and not check.problems and statements_equal(list(spec_turn["statements"]), list(got)):
                # read right, and the acts, values and words the test expects hold: keep the turn as it was (with
                # any question the parser asked). The same statements can find other rows (`answer(...)` in the
                # user's words): the turns after then start from the rows the test expects.
                session.keep(result)
            else:
                kept = session.turn(spec_turn["user"], parser=ExpectedStatements(spec_turn["statements"]))
                rejected = (kept.trace.get("interpret") or {}).get("rejected") or []
                if rejected or not kept.ok:  # the annotation is wrong: the turns after start from a broken state
                    check.problems.append("gold context: the expected statements did not apply: "
                                          + "; ".join(f"{r.get('source')!r}: {r.get('error')}" for r in rejected))
        else:
            result = session.turn(spec_turn["user"])
            check = check_turn(i, spec_turn, result)
        outputs.append(result)
        checks.append(check)
    return TestResult(test["name"], path, all(not c.problems for c in checks), checks, outputs=outputs)


def run_tests(agent: Agent, paths: list[Path] | None = None,
              progress: Callable[[int, int, TestResult], None] | None = None) -> list[TestResult]:
    paths = find_tests(agent) if paths is None else paths
    results = []
    for i, p in enumerate(paths, start=1):
        try:
            result = run_test(agent, load_test(p), path=str(p))
        except SpecError as exc:
            result = TestResult(p.stem, str(p), False, [], error=str(exc))
        results.append(result)
        if progress:
            progress(i, len(paths), result)
    return results
