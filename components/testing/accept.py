""""Accept the new behaviour": a failing test's expectations become what the agent does now.

Pure (no Streamlit) so it is unit-tested. Only what the test already asserts is
updated: the acts of turns that pin acts (in the stable form `expected_act`
keeps), the values of turns that pin values. Response texts are left alone (a
changed wording is for the developer to re-pin by hand), and a test that could
not run has nothing to accept.
"""

from __future__ import annotations

import copy
from typing import Any

from core_engine.errors import GenieError
from core_engine.session.recording import expected_act

__all__ = ["accept_new_behaviour", "changed_turns"]


def accept_new_behaviour(test: dict[str, Any], result: Any) -> dict[str, Any]:
    """A copy of `test` whose asserted acts and values are the actual ones of `result` (a TestResult)."""
    if result.error:
        raise GenieError(f"the test could not run ({result.error}); there is no new behaviour to accept")
    if len(result.turns) != len(test.get("turns", [])):
        raise GenieError("the test changed since it was run; run it again first")
    new = copy.deepcopy(test)
    for spec_turn, check in zip(new["turns"], result.turns):
        if spec_turn.get("acts") is not None:
            spec_turn["acts"] = [expected_act(a) for a in check.actual_acts]
            spec_turn.pop("match", None) if spec_turn.get("match") == "contains" else None
        if spec_turn.get("values"):
            spec_turn["values"] = {p: check.actual_values.get(p) for p in spec_turn["values"]}
    return new


def changed_turns(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Per turn whose expectations change: {"turn", "user", "before", "after"} (acts and values)."""
    out = []
    for i, (a, b) in enumerate(zip(old.get("turns", []), new.get("turns", [])), start=1):
        before = {k: a.get(k) for k in ("acts", "values") if a.get(k) is not None}
        after = {k: b.get(k) for k in ("acts", "values") if b.get(k) is not None}
        if before != after:
            out.append({"turn": i, "user": a.get("user", ""), "before": before, "after": after})
    return out
