"""Every conversation test of the four sample projects, one pytest case per test file.

The files live in `sample_projects/<name>/tests/*.json` (DESIGN §6) and run through
`core_engine.evaluation.testing` exactly as `genie test` runs them. A failure prints, per failing
turn, what the user said, what was expected, what the agent did and how the parser read
the turn, so the diff is readable without re-running anything.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from core_engine.session.agent import Agent
from core_engine.evaluation import testing
from core_engine.evaluation.testing import load_test, run_test

ROOT = Path(__file__).resolve().parents[1] / "sample_projects"
SAMPLES = ("ticket_submission", "bank_fraud", "restaurant_reservation", "course_enrollment")
PAPER = {"ticket_submission": "h13_ap_credits", "bank_fraud": "kita_c1", "restaurant_reservation": "h15_paper",
         "course_enrollment": "h11_paper"}
"""The paper's example conversation of each sample: `<stem>_formal.json` and `<stem>_offline.json`."""

TEST_FILES = [p for name in SAMPLES for p in sorted((ROOT / name / "tests").glob("*.json"))]


@lru_cache(maxsize=None)
def agent(name: str) -> Agent:
    return Agent.load(ROOT / name)


def _short(act: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    """An act with the keys a reader needs (and the ones the test names), without bulky results."""
    wanted = {"act", "var", "field", "kind", "api", "worksheet", "text"} | keys
    return {k: (v if k != "result" else f"<{len(v) if isinstance(v, list) else 'result'}>")
            for k, v in act.items() if k in wanted}


def diff(result: testing.TestResult) -> str:
    """The failing turns of a conversation test, each with expected and actual acts and the parse."""
    if result.error:
        return f"{result.name}: {result.error}"
    outputs = getattr(result, "outputs", []) or []
    lines = [f"{result.name} ({result.path})"]
    for check in result.turns:
        if not check.problems:
            continue
        lines.append(f"  turn {check.index}: user said {check.user!r}")
        lines += [f"    - {p}" for p in check.problems]
        keys = {k for a in check.expected_acts or [] for k in a}
        if check.expected_acts is not None:
            lines.append(f"    expected acts: {json.dumps(check.expected_acts)}")
        lines.append(f"    actual acts:   {json.dumps([_short(a, keys) for a in check.actual_acts])}")
        if check.index - 1 < len(outputs):
            parse = outputs[check.index - 1].trace.get("parse") or {}
            for rule in parse.get("rules") or []:
                lines.append(f"    parse: {rule.get('rule')}: {rule.get('matched')!r} -> {rule.get('statement')}")
            if parse.get("rejected"):
                lines.append(f"    rejected: {parse['rejected']}")
        lines.append(f"    response: {check.response[:300]!r}")
    return "\n".join(lines)


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_conversation(path: Path) -> None:
    test = load_test(path)
    result = run_test(agent(path.parent.parent.name), test, path=str(path))
    assert result.passed, diff(result)


@pytest.mark.parametrize("name", SAMPLES)
def test_each_sample_has_fifteen_more_natural_language_conversations(name: str) -> None:
    offline = [p for p in (ROOT / name / "tests").glob("*.json") if load_test(p).get("parser") == "offline"]
    others = [p for p in offline if not p.stem.startswith(PAPER[name])]
    assert len(others) >= 15, [p.name for p in offline]


@pytest.mark.parametrize("name", SAMPLES)
def test_the_paper_conversation_expects_the_same_acts_in_both_modes(name: str) -> None:
    """Offline (natural language) and formal versions of the paper's conversation: same acts each turn."""
    formal = load_test(ROOT / name / "tests" / f"{PAPER[name]}_formal.json")
    offline = load_test(ROOT / name / "tests" / f"{PAPER[name]}_offline.json")
    assert formal["parser"] == "formal" and offline["parser"] == "offline"

    def core(acts: list[dict[str, Any]] | None) -> list[tuple[Any, ...]]:
        return [(a["act"], a.get("var"), a.get("field"), a.get("kind"), a.get("api")) for a in acts or []]

    assert [core(t.get("acts")) for t in offline["turns"]] == [core(t.get("acts")) for t in formal["turns"]]
    final = core(offline["turns"][-1].get("acts"))
    assert any(a[0] == "report" and a[3] == "api" and a[4] for a in final), "the conversation ends with the API call"


def test_a_bad_today_is_a_clear_error(tmp_path: Path) -> None:
    from core_engine.errors import SpecError
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"today": "next week", "turns": [{"user": "hi"}]}), encoding="utf-8")
    with pytest.raises(SpecError, match="today"):
        load_test(path)


def test_today_fixes_relative_dates() -> None:
    """The same words, held on two different days, give two different dates."""
    base = {"parser": "offline", "turns": [{"user": "I want to book a table at Ragazza"}, {"user": "tomorrow"}]}
    dates = []
    for today in ("2024-07-01", "2024-12-31"):
        result = run_test(agent("restaurant_reservation"), {**base, "name": "t", "today": today})
        state = result.outputs[-1].state
        dates.append(next(r for r in state["records"] if r["var"] == "book_restaurant")["values"]["date"])
    assert dates == ["2024-07-02", "2025-01-01"]
