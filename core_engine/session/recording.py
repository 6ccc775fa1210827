"""Recorded conversations become conversation tests (DESIGN §6), and failures read as diffs.

    test = conversation_to_test("book a pizza place", session.turns, parser="offline",
                                assertions={1: {"acts"}, 3: {"acts", "values"}, 5: {"response"}})
    rows = act_rows(check.expected_acts, check.actual_acts, check.match)   # for a failed TurnCheck

What each turn asserts is chosen per turn: its acts (the keys that identify each act, not
bulky KB rows or generated ids), the field values it set or changed, and its response
text. Injected and edited turns are saved with `"parser": "formal"` so the test plays
them as statements, as the playground did.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..policy.acts import describe
from ..errors import GenieError
from .replay import diff_states

ASSERTIONS = ("acts", "values", "response")
_ACT_KEYS = {
    "ask": ("act", "var", "worksheet", "field"),
    "confirm": ("act", "var", "worksheet", "field", "value"),
    "say": ("act", "text"),
    "propose": ("act", "worksheet"),
}


def expected_act(act: dict[str, Any]) -> dict[str, Any]:
    """The part of an act a test pins: identity, not payload (rows, generated ids)."""
    kind = act.get("act")
    if kind == "report":
        keys = ("act", "var", "kind", "api") if act.get("kind") == "api" else ("act", "var", "kind")
    else:
        keys = _ACT_KEYS.get(kind, tuple(act))
    return {k: act[k] for k in keys if k in act}


def _turn_json(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    return {"user": item.user, "response": item.response, "acts": item.acts, "state": item.state,
            "trace": item.trace}


def _choices(assertions: Any, n: int, default: Iterable[str]) -> list[set[str]]:
    if assertions is None:
        chosen = [set(default)] * n
    elif isinstance(assertions, Mapping):
        chosen = [set(assertions.get(i, ())) for i in range(1, n + 1)]
    else:
        chosen = [set(a) for a in assertions]
        if len(chosen) != n:
            raise GenieError(f"assertions name {len(chosen)} turns but the conversation has {n}")
    for i, c in enumerate(chosen, start=1):
        unknown = c - set(ASSERTIONS)
        if unknown:
            raise GenieError(f"turn {i}: unknown assertion {sorted(unknown)} (choose from {', '.join(ASSERTIONS)})")
    return chosen


def conversation_to_test(name: str, turns: Sequence[Any], *, parser: str = "offline", rg: str = "template",
                         assertions: Mapping[int, Iterable[str]] | Sequence[Iterable[str]] | None = None,
                         default: Iterable[str] = ("acts",), initial_state: dict[str, Any] | None = None,
                         description: str = "") -> dict[str, Any]:
    """A test dict from recorded turns (TurnResults or their JSON).

    `assertions` maps 1-based turn numbers (or lists per turn) to a subset of
    {"acts", "values", "response"}; turns it leaves out assert nothing. Without it every
    turn asserts `default`. `initial_state` is the state before the first turn (for the
    values diff of turn 1; by default only the first turn's own assignments count).
    """
    if not name.strip():
        raise GenieError("a test needs a name")
    recorded = [_turn_json(t) for t in turns]
    if not recorded:
        raise GenieError("the conversation has no turns to save")
    chosen = _choices(assertions, len(recorded), default)
    out_turns = []
    previous = initial_state
    for rec, wanted in zip(recorded, chosen):
        turn: dict[str, Any] = {"user": rec["user"]}
        if (rec.get("trace") or {}).get("input") in ("inject", "edit"):
            turn["parser"] = "formal"
        if "acts" in wanted:
            turn["acts"] = [expected_act(a) for a in rec.get("acts") or []]
        if "values" in wanted:
            turn["values"] = {f"{c['var']}.{c['field']}": c["new"] for c in diff_states(previous, rec.get("state"))
                              if c["field"] and not c["field"].startswith("[")
                              and _is_task(rec.get("state"), c["var"])}
        if "response" in wanted and (rec.get("response") or "").strip():
            turn["response_contains"] = [rec["response"].strip()]
        out_turns.append(turn)
        previous = rec.get("state")
    test = {"name": name.strip(), "parser": parser, "rg": rg, "turns": out_turns}
    if description:
        test["description"] = description
    return test


def _is_task(state: dict[str, Any] | None, var: str) -> bool:
    return any(r.get("var") == var and r.get("kind", "task") == "task" for r in (state or {}).get("records") or [])


def act_rows(expected: Sequence[dict[str, Any]] | None, actual: Sequence[dict[str, Any]],
             match: str = "exact") -> list[dict[str, Any]]:
    """Expected and actual acts side by side, each row marked ok or not: a readable diff.

    With `match="exact"` rows pair acts by position; with "contains" each expected act is
    paired with the first actual act it matches, and unmatched actual acts follow.
    """
    from ..evaluation.testing import act_matches
    rows: list[dict[str, Any]] = []
    expected = list(expected or [])
    if match == "contains":
        used: set[int] = set()
        for exp in expected:
            hit = next((i for i, a in enumerate(actual) if i not in used and act_matches(exp, a)), None)
            if hit is not None:
                used.add(hit)
            rows.append({"expected": _show(exp), "actual": describe(actual[hit]) if hit is not None else "",
                         "ok": hit is not None})
        rows += [{"expected": "", "actual": describe(a), "ok": True} for i, a in enumerate(actual) if i not in used]
        return rows
    for i in range(max(len(expected), len(actual))):
        exp = expected[i] if i < len(expected) else None
        act = actual[i] if i < len(actual) else None
        ok = exp is not None and act is not None and act_matches(exp, act)
        rows.append({"expected": _show(exp) if exp else "", "actual": describe(act) if act else "", "ok": ok})
    return rows


def _show(act: dict[str, Any]) -> str:
    """An expected act (possibly partial) in the formal one-line form where its keys allow."""
    try:
        return describe(act)
    except KeyError:
        return ", ".join(f"{k}={v!r}" for k, v in act.items())


__all__ = ["conversation_to_test", "expected_act", "act_rows", "ASSERTIONS"]
