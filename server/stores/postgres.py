"""The shared session store: PostgreSQL through psycopg 3 and a connection pool.

Several `genie serve` processes on several machines give the same URL. A turn runs in
one transaction: `SELECT ... FOR UPDATE` on the conversation's row (other turns of the
same conversation wait, in arrival order), the engine turn, then the UPDATE with a
compare-and-set on the version, the turn row and the idempotency key. If the process
dies mid-turn, PostgreSQL rolls the transaction back and releases the lock, so a retry
on another server applies the turn exactly once.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from core_engine.errors import StorageError

from .base import Compute, SessionExists, SessionRow, TurnConflict, UnknownSession, dumps, now

SCHEMA = """
CREATE TABLE IF NOT EXISTS genie_sessions (
  id TEXT PRIMARY KEY, version BIGINT NOT NULL, state TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS genie_turns (
  session_id TEXT NOT NULL, turn BIGINT NOT NULL, created TEXT NOT NULL, turn_json TEXT NOT NULL,
  PRIMARY KEY (session_id, turn));
CREATE TABLE IF NOT EXISTS genie_idempotency (
  session_id TEXT NOT NULL, key TEXT NOT NULL, turn BIGINT NOT NULL, PRIMARY KEY (session_id, key));
"""
SCHEMA_LOCK = 0x67656E6965  # advisory lock id: concurrent first starts create the tables once
F = TypeVar("F", bound=Callable[..., Any])


def _mapped(method: F) -> F:
    """A lost connection or an exhausted pool becomes a StorageError (the API answers 503, retry)."""
    @functools.wraps(method)
    def wrapper(self: "PostgresStore", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout) as exc:
            raise StorageError(f"the PostgreSQL session store failed: {exc}", store=_redact(self.url)) from exc
    return wrapper  # type: ignore[return-value]


class PostgresStore:
    def __init__(self, url: str, *, pool_size: int = 10, timeout_s: float = 30.0) -> None:
        self.url = url
        try:
            self._pool = ConnectionPool(url, min_size=1, max_size=max(1, pool_size), timeout=timeout_s,
                                        open=True, name="genie-sessions")
            self._pool.wait(timeout=timeout_s)
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                conn.execute(SCHEMA)
        except (psycopg.Error, Exception) as exc:  # pool errors are not psycopg.Error subclasses
            if isinstance(exc, StorageError):
                raise
            raise StorageError(f"cannot open the PostgreSQL session store: {exc}", store=_redact(url)) from exc

    @_mapped
    def create(self, session_id: str, state: dict[str, Any]) -> None:
        stamp = now()
        try:
            with self._pool.connection() as conn:
                conn.execute("INSERT INTO genie_sessions (id, version, state, created, updated) "
                             "VALUES (%s, 0, %s, %s, %s)", (session_id, dumps(state), stamp, stamp))
        except psycopg.errors.UniqueViolation as exc:
            raise SessionExists(f"session {session_id!r} already exists", session=session_id) from exc

    @_mapped
    def get(self, session_id: str) -> SessionRow | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT id, version, state, created, updated FROM genie_sessions WHERE id = %s",
                               (session_id,)).fetchone()
        return SessionRow(row[0], row[1], json.loads(row[2]), row[3], row[4]) if row else None

    @_mapped
    def turns(self, session_id: str) -> list[dict[str, Any]]:
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT turn_json FROM genie_turns WHERE session_id = %s ORDER BY turn",
                                (session_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    @staticmethod
    def _replay(conn: psycopg.Connection, session_id: str, key: str | None) -> dict[str, Any] | None:
        if key is None:
            return None
        row = conn.execute("SELECT t.turn_json FROM genie_idempotency i JOIN genie_turns t "
                           "ON t.session_id = i.session_id AND t.turn = i.turn "
                           "WHERE i.session_id = %s AND i.key = %s", (session_id, key)).fetchone()
        return json.loads(row[0]) if row else None

    @_mapped
    def apply(self, session_id: str, compute: Compute, *,
              idempotency_key: str | None = None) -> tuple[dict[str, Any], bool]:
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute("SELECT version, state FROM genie_sessions WHERE id = %s FOR UPDATE",
                               (session_id,)).fetchone()
            if row is None:
                raise UnknownSession(f"no session {session_id!r}", session=session_id)
            first = self._replay(conn, session_id, idempotency_key)
            if first is not None:
                return first, True
            version = row[0]
            turn_json, new_state = compute(json.loads(row[1]), version + 1)
            stamp = now()
            cur = conn.execute("UPDATE genie_sessions SET version = version + 1, state = %s, updated = %s "
                               "WHERE id = %s AND version = %s", (dumps(new_state), stamp, session_id, version))
            if cur.rowcount != 1:  # cannot happen under the row lock; checked all the same
                raise TurnConflict(f"session {session_id!r} changed under this turn; retry", session=session_id)
            conn.execute("INSERT INTO genie_turns (session_id, turn, created, turn_json) VALUES (%s, %s, %s, %s)",
                         (session_id, version + 1, stamp, dumps(turn_json)))
            if idempotency_key is not None:
                conn.execute("INSERT INTO genie_idempotency (session_id, key, turn) VALUES (%s, %s, %s)",
                             (session_id, idempotency_key, version + 1))
            return turn_json, False

    @_mapped
    def sessions(self, limit: int = 100) -> list[tuple[str, int, str]]:
        """(id, turns, updated), most recently updated first."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT id, version, updated FROM genie_sessions ORDER BY updated DESC LIMIT %s",
                                (limit,)).fetchall()
        return [tuple(r) for r in rows]

    @_mapped
    def ping(self) -> None:
        with self._pool.connection(timeout=5) as conn:
            conn.execute("SELECT 1").fetchone()

    def close(self) -> None:
        self._pool.close()


def _redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "postgresql://…"
    info.pop("password", None)
    return psycopg.conninfo.make_conninfo(**info)
