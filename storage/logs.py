"""Conversation logs: every turn of a playground or CLI session, stored as it happens.

A log lives in the project file (``_genie_logs`` + ``_genie_log_turns``); each
``append`` is its own transaction, so a crash loses at most the turn being
written. A turn is the engine's ``TurnResult.to_json(n)`` shape (turn, user,
response, acts, state, trace). ``to_test`` turns a log into a conversation test
(DESIGN §6) that replays the user turns and checks what the agent did.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core_engine.errors import StorageError

from .fileformat import dumps

if TYPE_CHECKING:
    from .fileformat import Store

__all__ = ["ConversationLog", "LogInfo", "STABLE_ACT_KEYS"]

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
        with self._store.write() as conn:
            n = conn.execute("SELECT coalesce(max(turn), 0) + 1 FROM _genie_log_turns WHERE log_id = ?",
                             (self.id,)).fetchone()[0]
            text = dumps({**turn_json, "turn": n})
            conn.execute("INSERT INTO _genie_log_turns (log_id, turn, created, turn_json) VALUES (?, ?, ?, ?)",
                         (self.id, n, now().isoformat(), text))
            conn.execute("UPDATE _genie_logs SET turns = ? WHERE id = ?", (n, self.id))

    def turns(self) -> list[dict[str, Any]]:
        rows = self._store.query("SELECT turn_json FROM _genie_log_turns WHERE log_id = ? ORDER BY turn", (self.id,))
        return [json.loads(r[0]) for r in rows]

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


def _field_values(state: dict[str, Any]) -> dict[str, Any]:
    """``{"var.field": value}`` for every task record's filled fields."""
    out: dict[str, Any] = {}
    for rec in state.get("records") or []:
        if rec.get("kind") == "task":
            for field, value in (rec.get("values") or {}).items():
                out[f"{rec['var']}.{field}"] = value
    return out
