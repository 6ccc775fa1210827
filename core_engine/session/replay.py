"""Replay a conversation against a (possibly edited) spec and say where it changed.

    report = replay(agent, log_turns, parser="offline")
    report.first_difference      # the first turn whose acts or response changed, or None
    report.turns[2].acts_changed, report.turns[2].expected_acts, report.turns[2].actual_acts

The input is a recorded conversation (TurnResults, or their JSON: a conversation log's
lines) or just the user turns (strings: then there is nothing to compare against and the
report only carries the new results). Injected and edited turns (`trace.input`) are played
as injected statements, like the playground did. Also here: `diff_states`, the field-level
difference of two state snapshots, used by the replay report and the state inspector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..policy.acts import describe
from .agent import Agent, Session
from .turn import TurnResult

_INJECTED = ("inject", "edit")


@dataclass
class ReplayTurn:
    index: int  # 1-based
    user: str
    input: str  # "user", "inject" or "edit"
    expected_acts: list[dict[str, Any]] | None
    actual_acts: list[dict[str, Any]]
    expected_response: str | None
    actual_response: str
    state_changes: list[dict[str, Any]] = field(default_factory=list)  # recorded state -> replayed state
    actual: TurnResult | None = field(default=None, repr=False)

    @property
    def acts_changed(self) -> bool:
        return self.expected_acts is not None and act_keys(self.expected_acts) != act_keys(self.actual_acts)

    @property
    def response_changed(self) -> bool:
        return self.expected_response is not None and self.expected_response != self.actual_response

    @property
    def changed(self) -> bool:
        return self.acts_changed or self.response_changed or bool(self.state_changes)

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.index, "user": self.user, "input": self.input, "changed": self.changed,
                "acts_changed": self.acts_changed, "response_changed": self.response_changed,
                "expected_acts": [describe(a) for a in self.expected_acts or []],
                "actual_acts": [describe(a) for a in self.actual_acts],
                "expected_response": self.expected_response, "actual_response": self.actual_response,
                "state_changes": self.state_changes}


@dataclass
class ReplayReport:
    turns: list[ReplayTurn]
    session: Session | None = field(default=None, repr=False)  # the replayed session (continue from it)

    @property
    def first_difference(self) -> ReplayTurn | None:
        return next((t for t in self.turns if t.changed), None)

    @property
    def changed_turns(self) -> list[int]:
        return [t.index for t in self.turns if t.changed]

    def to_dict(self) -> dict[str, Any]:
        first = self.first_difference
        return {"turns": [t.to_dict() for t in self.turns], "changed_turns": self.changed_turns,
                "first_difference": first.index if first else None}

    def summary(self) -> str:
        first = self.first_difference
        if first is None:
            return f"all {len(self.turns)} turns replayed with the same acts and responses"
        return (f"{len(self.changed_turns)} of {len(self.turns)} turns changed; the first is turn {first.index} "
                f"({first.user!r})")


def act_keys(acts: Sequence[dict[str, Any]]) -> list[str]:
    """What an act list means, for comparison: the formal one-line form of each act, plus
    report results (KB rows or API results) so a changed answer counts as a change."""
    out = []
    for a in acts:
        key = describe(a)
        if a.get("act") == "report":
            key += repr(a.get("result"))
        out.append(key)
    return out


def _as_turn(item: Any) -> dict[str, Any]:
    if isinstance(item, str):
        return {"user": item}
    if isinstance(item, TurnResult):
        return {"user": item.user, "acts": item.acts, "response": item.response, "state": item.state,
                "trace": item.trace}
    if isinstance(item, dict) and isinstance(item.get("user"), str):
        return item
    from ..errors import GenieError
    raise GenieError(f"cannot replay {type(item).__name__}: expected a user text, a TurnResult or its JSON")


def replay(agent: Agent, conversation: Sequence[Any], *, parser: str = "offline", rg: str = "template",
           session: Session | None = None, **options: Any) -> ReplayReport:
    """Play the user turns again on a fresh session of `agent` and compare with what was recorded."""
    session = session or agent.new_session(parser=parser, rg=rg, **options)
    turns: list[ReplayTurn] = []
    for i, item in enumerate(conversation, start=1):
        rec = _as_turn(item)
        kind = (rec.get("trace") or {}).get("input") or "user"
        result = session.inject(rec["user"], kind=kind, strict=False) if kind in _INJECTED \
            else session.turn(rec["user"])
        recorded_state = rec.get("state")
        changes = diff_states(recorded_state, result.state) if recorded_state is not None else []
        turns.append(ReplayTurn(i, rec["user"], kind, rec.get("acts"), result.acts, rec.get("response"),
                                result.response, changes, result))
    return ReplayReport(turns, session)


# ---------------------------------------------------------------- state diff

def _records(state: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {r["var"]: r for r in (state or {}).get("records") or [] if "var" in r}


def diff_states(old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Field-level changes from `old` to `new` (state JSON): a list of
    `{"var", "field", "op": added|removed|changed, "old", "new"}`; `field` is None for a
    whole record, and `status`, `confirmed`, `refused`, `result`/`sql` changes are listed too."""
    a, b = _records(old), _records(new)
    out: list[dict[str, Any]] = []
    for var in b:
        if var not in a:
            out.append({"var": var, "field": None, "op": "added", "old": None, "new": _label(b[var])})
    for var in a:
        if var not in b:
            out.append({"var": var, "field": None, "op": "removed", "old": _label(a[var]), "new": None})
    for var, new_rec in b.items():
        old_rec = a.get(var)
        if old_rec is None:
            old_rec = {"values": {}, "kind": new_rec.get("kind")}
        if new_rec.get("kind", "task") == "task":
            ov, nv = old_rec.get("values") or {}, new_rec.get("values") or {}
            for name in list(ov) + [n for n in nv if n not in ov]:
                if name not in nv:
                    out.append({"var": var, "field": name, "op": "removed", "old": ov[name], "new": None})
                elif name not in ov:
                    out.append({"var": var, "field": name, "op": "added", "old": None, "new": nv[name]})
                elif ov[name] != nv[name]:
                    out.append({"var": var, "field": name, "op": "changed", "old": ov[name], "new": nv[name]})
            keys = ("status", "confirmed", "refused", "result")
        else:
            keys = ("status", "sql", "result", "error")
        for key in keys:
            if var in a and old_rec.get(key) != new_rec.get(key):
                out.append({"var": var, "field": f"[{key}]", "op": "changed", "old": old_rec.get(key),
                            "new": new_rec.get(key)})
    return out


def changed_fields(old: dict[str, Any] | None, new: dict[str, Any] | None) -> set[tuple[str, str]]:
    """(var, field) pairs whose value differs; what the state inspector highlights."""
    return {(c["var"], c["field"]) for c in diff_states(old, new) if c["field"] and not c["field"].startswith("[")}


def _label(rec: dict[str, Any]) -> str:
    if rec.get("kind") == "kb":
        return f"answer({rec.get('query')!r})"
    return f"{rec.get('worksheet')}()"


__all__ = ["replay", "ReplayReport", "ReplayTurn", "act_keys", "diff_states", "changed_fields"]
