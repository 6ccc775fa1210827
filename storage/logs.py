"""Conversation logs: every turn of a playground or CLI session, stored as it happens.

A log lives in the project file (``_genie_logs`` + ``_genie_log_turns``); each
``append`` is its own transaction, so a crash loses at most the turn being
written. A turn is the engine's ``TurnResult.to_json(n)`` shape (turn, user,
response, acts, state, trace). The state is stored as a delta against the
previous turn's (``state_delta``: the records that changed, by variable, and the
other keys that changed), so a long conversation's log grows linearly, not with
the square of its length; ``turns()`` gives back whole states. KB answers keep at
most ``MAX_LOGGED_ROWS`` rows in the log (``result_rows`` says how many there were). ``to_test`` turns a log into a conversation test
(DESIGN §6) that replays the user turns and checks what the agent did.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core_engine.errors import StorageError

from core_engine.jsonsafe import loads as _loads

from .fileformat import dumps


def loads(text: str, *, what: str) -> Any:
    try:
        return _loads(text, what=what)
    except ValueError as exc:
        raise StorageError(str(exc)) from exc

if TYPE_CHECKING:
    from .fileformat import Store

__all__ = ["ConversationLog", "LogInfo", "MAX_LOGGED_ROWS", "STABLE_ACT_KEYS"]

MAX_LOGGED_ROWS = 20
"""KB result rows a logged state keeps per knowledge record (the rest are counted, not stored)."""

STABLE_ACT_KEYS = ("act", "var", "worksheet", "field", "kind", "value", "text", "values")
"""Act keys a generated test asserts; a Report's ``result`` (rows, ids) is left out on purpose."""


@dataclass(frozen=True)
class LogInfo:
    id: str
    created: dt.datetime
    title: str
    parser: str
    rg: str
    turns: int
    spec_version: int | None


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)


def new_log(store: "Store", *, parser: str, rg: str, title: str, spec_version: int | None) -> "ConversationLog":
    log_id = now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:8]
    with store.write() as conn:
        conn.execute("INSERT INTO _genie_logs (id, created, title, parser, rg, spec_version, turns) "
                     "VALUES (?, ?, ?, ?, ?, ?, 0)",
                     (log_id, now().isoformat(), title or "", parser, rg, spec_version))
    return ConversationLog(store, log_id)


def list_logs(store: "Store") -> list[LogInfo]:
    rows = store.query("SELECT id, created, title, parser, rg, turns, spec_version FROM _genie_logs "
                       "ORDER BY created DESC, id DESC")
    return [_info(r) for r in rows]


def _info(row: tuple) -> LogInfo:
    return LogInfo(row[0], dt.datetime.fromisoformat(row[1]), row[2], row[3], row[4], row[5], row[6])


class ConversationLog:
    """One recorded conversation; reads go to the file, so two handles see the same turns."""

    def __init__(self, store: "Store", log_id: str) -> None:
        rows = store.query("SELECT id, created, title, parser, rg, turns, spec_version FROM _genie_logs WHERE id = ?",
                           (log_id,))
        if not rows:
            raise StorageError(f"no conversation log {log_id!r}", file=str(store.path), log=log_id)
        self._store = store
        self.id = log_id
        self._last_state: dict[str, Any] | None = None  # the state of the last stored turn (for deltas)
        self._last_turn = 0  # the number of that turn: another handle's append since then means a reread
        info = _info(rows[0])
        self.created, self.title, self.parser, self.rg, self.spec_version = (
            info.created, info.title, info.parser, info.rg, info.spec_version)

    def info(self) -> LogInfo:
        rows = self._store.query("SELECT id, created, title, parser, rg, turns, spec_version FROM _genie_logs "
                                 "WHERE id = ?", (self.id,))
        return _info(rows[0])

    def append(self, turn_json: dict[str, Any]) -> None:
        """Store one turn (numbered after the last stored one, whatever ``turn`` it carries)."""
        if not isinstance(turn_json, dict) or not isinstance(turn_json.get("user"), str):
            raise StorageError("a logged turn must be a dict with a 'user' string", log=self.id)
        state = turn_json.get("state")
        stored = dict(turn_json)
        with self._store.write() as conn:
            n = conn.execute("SELECT coalesce(max(turn), 0) + 1 FROM _genie_log_turns WHERE log_id = ?",
                             (self.id,)).fetchone()[0]
            if isinstance(state, dict):
                state = _cap_rows(state)
                previous = self._last_state if n > 1 and self._last_turn == n - 1 else None
                if previous is None and n > 1:
                    previous = self._rebuild()[-1].get("state")
                if isinstance(previous, dict):
                    stored.pop("state")
                    stored["state_delta"] = state_delta(previous, state)
                else:
                    stored["state"] = state
            text = dumps({**stored, "turn": n})
            conn.execute("INSERT INTO _genie_log_turns (log_id, turn, created, turn_json) VALUES (?, ?, ?, ?)",
                         (self.id, n, now().isoformat(), text))
            conn.execute("UPDATE _genie_logs SET turns = ? WHERE id = ?", (n, self.id))
        self._last_state = state if isinstance(state, dict) else None
        self._last_turn = n

    def turns(self) -> list[dict[str, Any]]:
        """Every turn with its whole state (deltas applied in order)."""
        return self._rebuild()

    def _rebuild(self) -> list[dict[str, Any]]:
        rows = self._store.query("SELECT turn_json FROM _genie_log_turns WHERE log_id = ? ORDER BY turn", (self.id,))
        out: list[dict[str, Any]] = []
        state: dict[str, Any] | None = None
        for (text,) in rows:
            turn = loads(text, what="a logged turn")
            if "state_delta" in turn:
                state = apply_delta(state or {}, turn.pop("state_delta"))
                turn["state"] = state
            elif isinstance(turn.get("state"), dict):
                state = turn["state"]
            out.append(turn)
        return out

    def to_jsonl(self) -> str:
        """One JSON object per line, the same shape as ``genie chat --jsonl``."""
        return "".join(json.dumps(t, ensure_ascii=False, default=str) + "\n" for t in self.turns())

    def to_test(self, name: str, *, assert_acts: bool = True, assert_values: bool = False,
                assert_response: bool = False) -> dict[str, Any]:
        """A conversation test replaying the user turns.

        acts: the stable keys of each act (exact order); values: the fields whose
        value changed in that turn; response: the whole response as a substring.
        """
        test: dict[str, Any] = {"name": name, "parser": self.parser, "rg": self.rg,
                                "description": f"recorded from conversation log {self.id}", "turns": []}
        previous: dict[str, Any] = {}
        for turn in self.turns():
            item: dict[str, Any] = {"user": turn["user"]}
            if assert_acts:
                item["acts"] = [{k: a[k] for k in STABLE_ACT_KEYS if k in a} for a in turn.get("acts") or []]
            values = _field_values(turn.get("state") or {})
            if assert_values:
                changed = {k: v for k, v in values.items() if previous.get(k, _UNSET) != v}
                if changed:
                    item["values"] = changed
            previous = values
            if assert_response and turn.get("response"):
                item["response_contains"] = [turn["response"]]
            test["turns"].append(item)
        return test


_UNSET = object()


def _cap_rows(state: dict[str, Any]) -> dict[str, Any]:
    """The state with each KB record's result cut to MAX_LOGGED_ROWS rows (and the full count noted)."""
    records = state.get("records")
    if not isinstance(records, list) or not any(isinstance(r, dict) and isinstance(r.get("result"), list)
                                                and len(r["result"]) > MAX_LOGGED_ROWS for r in records):
        return state
    capped = []
    for rec in records:
        if isinstance(rec, dict) and isinstance(rec.get("result"), list) and len(rec["result"]) > MAX_LOGGED_ROWS:
            rec = {**rec, "result": rec["result"][:MAX_LOGGED_ROWS], "result_rows": len(rec["result"])}
        capped.append(rec)
    return {**state, "records": capped}


def state_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from ``old`` to ``new``: records by var (changed or added), the var order, other keys."""
    old_records = {r.get("var"): r for r in old.get("records") or [] if isinstance(r, dict)}
    new_records = [r for r in new.get("records") or [] if isinstance(r, dict)]
    changed = {r.get("var"): r for r in new_records if old_records.get(r.get("var")) != r}
    patches = {var: p for var, r in changed.items() if (p := _record_patch(old_records.get(var), r)) is not None}
    order = [r.get("var") for r in new_records]
    delta: dict[str, Any] = {"records": {v: r for v, r in changed.items() if v not in patches}, "patches": patches,
                             "keys": {k: v for k, v in new.items() if k != "records" and old.get(k, _MISSING) != v},
                             "dropped": [k for k in old if k not in new]}
    if order != [r.get("var") for r in old.get("records") or [] if isinstance(r, dict)]:
        delta["order"] = order
    return delta


_MISSING = object()


def _record_patch(old: Any, new: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of a task record that changed (a 100 kB list growing by one item each turn was stored
    whole every turn: quadratic); None when the whole record is stored instead."""
    if not isinstance(old, dict) or not isinstance(old.get("values"), dict) or not isinstance(new.get("values"), dict):
        return None
    values = {f: v for f, v in new["values"].items() if old["values"].get(f, _MISSING) != v}
    patch = {"set": {k: v for k, v in new.items() if k != "values" and old.get(k, _MISSING) != v},
             "drop": [k for k in old if k not in new], "values": values,
             "unset": [f for f in old["values"] if f not in new["values"]]}
    return patch if _patched(old, patch) == new and list(_patched(old, patch)["values"]) == list(new["values"]) else None


def _patched(old: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    record = {k: v for k, v in old.items() if k not in patch.get("drop", [])}
    record.update(patch.get("set") or {})
    values = {f: v for f, v in (old.get("values") or {}).items() if f not in patch.get("unset", [])}
    values.update(patch.get("values") or {})
    record["values"] = values
    return record


def apply_delta(old: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The state ``state_delta(old, new)`` was made from."""
    records = {r.get("var"): r for r in old.get("records") or [] if isinstance(r, dict)}
    records.update(delta.get("records") or {})
    for var, patch in (delta.get("patches") or {}).items():
        records[var] = _patched(records[var], patch)
    order = delta.get("order") or [r.get("var") for r in old.get("records") or [] if isinstance(r, dict)]
    state = {k: v for k, v in old.items() if k not in (delta.get("dropped") or [])}
    state.update(delta.get("keys") or {})
    state["records"] = [records[v] for v in order if v in records]
    return state


def _field_values(state: dict[str, Any]) -> dict[str, Any]:
    """``{"var.field": value}`` for every task record's filled fields."""
    out: dict[str, Any] = {}
    for rec in state.get("records") or []:
        if rec.get("kind") == "task":
            for field, value in (rec.get("values") or {}).items():
                out[f"{rec['var']}.{field}"] = value
    return out
