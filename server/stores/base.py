"""Where served conversations live: one interface, a SQLite and a PostgreSQL implementation.

    store = open_store("sqlite:///genie-sessions.db")         # or "postgresql://user@host/db"
    store.create(session_id, initial_state)
    turn, replayed = store.apply(session_id, compute, idempotency_key="k1")

A conversation is one row with a `version` (= the number of turns applied). `apply`
reads the state, calls `compute(state, turn_number) -> (turn_json, new_state)` and
writes the new state with a compare-and-set on the version, together with the turn
(its transcript entry and trace) and the idempotency key, in one transaction. So a
turn is applied at most once whichever worker runs it, and a retried idempotency key
returns the first result. The SQLite store runs `compute` optimistically and retries on
a lost race; the PostgreSQL store holds the row lock (`SELECT ... FOR UPDATE`) while it
computes, so turns of one conversation sent to several machines apply in arrival order.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from core_engine.errors import StorageError

__all__ = ["Compute", "SessionRow", "SessionStore", "UnknownSession", "SessionExists", "TurnConflict",
           "open_store", "now"]

Compute = Callable[[dict[str, Any], int], tuple[dict[str, Any], dict[str, Any]]]
"""(state before, turn number) -> (turn JSON as `genie chat --jsonl` prints it, full state after)."""


class UnknownSession(StorageError):
    """No conversation with that id (the API answers 404)."""


class SessionExists(StorageError):
    """A conversation with that id already exists (409)."""


class TurnConflict(StorageError):
    """The turn lost the compare-and-set too many times in a row (503, safe to retry)."""


@dataclass(frozen=True)
class SessionRow:
    session_id: str
    version: int
    state: dict[str, Any]
    created: str
    updated: str


class SessionStore(Protocol):
    url: str

    def create(self, session_id: str, state: dict[str, Any]) -> None: ...
    def get(self, session_id: str) -> SessionRow | None: ...
    def turns(self, session_id: str) -> list[dict[str, Any]]: ...
    def apply(self, session_id: str, compute: Compute, *,
              idempotency_key: str | None = None) -> tuple[dict[str, Any], bool]: ...
    def sessions(self, limit: int = 100) -> list[tuple[str, int, str]]: ...
    def ping(self) -> None: ...
    def close(self) -> None: ...


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))


def open_store(url: str, **options: Any) -> SessionStore:
    """`sqlite:///relative.db`, `sqlite:////abs/path.db` or `postgresql://...` (also `postgres://`)."""
    if url.startswith("sqlite:///"):
        from .sqlite import SQLiteStore
        return SQLiteStore(url, **options)
    if url.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore
        return PostgresStore(url, **options)
    raise StorageError(f"unknown session store {url!r}: use sqlite:///PATH or postgresql://...", store=url)
