"""The embedded session store: one SQLite file in WAL mode, shared by the worker processes of one machine.

Each thread has its own connection. A turn is computed outside any lock, then written
under `BEGIN IMMEDIATE` with a compare-and-set on the version; a writer that lost the
race (another worker applied a turn of the same conversation meanwhile) computes again
on the new state. Within one worker the server also queues turns per conversation, so a
conversation's turns apply in arrival order there.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from core_engine.errors import StorageError

from .base import Compute, SessionExists, SessionRow, TurnConflict, UnknownSession, dumps, now

SCHEMA = """
CREATE TABLE IF NOT EXISTS genie_sessions (
  id TEXT PRIMARY KEY, version INTEGER NOT NULL, state TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS genie_turns (
  session_id TEXT NOT NULL, turn INTEGER NOT NULL, created TEXT NOT NULL, turn_json TEXT NOT NULL,
  PRIMARY KEY (session_id, turn));
CREATE TABLE IF NOT EXISTS genie_idempotency (
  session_id TEXT NOT NULL, key TEXT NOT NULL, turn INTEGER NOT NULL, PRIMARY KEY (session_id, key));
"""
MAX_ATTEMPTS = 50


class SQLiteStore:
    def __init__(self, url: str, *, busy_timeout_s: float = 30.0) -> None:
        self.url = url
        self.path = Path(url[len("sqlite:///"):])
        if not self.path.name:
            raise StorageError(f"no file name in session store {url!r}", store=url)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._timeout = busy_timeout_s
        self._local = threading.local()
        self._write = threading.Lock()  # threads of one process take turns here, not in SQLite's busy-wait
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(f"PRAGMA busy_timeout={int(self._timeout * 1000)}")
            self._local.conn = conn
        return conn

    def create(self, session_id: str, state: dict[str, Any]) -> None:
        stamp = now()
        try:
            self._conn().execute("INSERT INTO genie_sessions (id, version, state, created, updated) "
                                 "VALUES (?, 0, ?, ?, ?)", (session_id, dumps(state), stamp, stamp))
        except sqlite3.IntegrityError as exc:
            raise SessionExists(f"session {session_id!r} already exists", session=session_id) from exc

    def get(self, session_id: str) -> SessionRow | None:
        row = self._conn().execute("SELECT id, version, state, created, updated FROM genie_sessions WHERE id = ?",
                                   (session_id,)).fetchone()
        return SessionRow(row[0], row[1], json.loads(row[2]), row[3], row[4]) if row else None

    def turns(self, session_id: str) -> list[dict[str, Any]]:
        rows = self._conn().execute("SELECT turn_json FROM genie_turns WHERE session_id = ? ORDER BY turn",
                                    (session_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def _replay(self, conn: sqlite3.Connection, session_id: str, key: str | None) -> dict[str, Any] | None:
        if key is None:
            return None
        row = conn.execute("SELECT t.turn_json FROM genie_idempotency i JOIN genie_turns t "
                           "ON t.session_id = i.session_id AND t.turn = i.turn WHERE i.session_id = ? AND i.key = ?",
                           (session_id, key)).fetchone()
        return json.loads(row[0]) if row else None

    def apply(self, session_id: str, compute: Compute, *,
              idempotency_key: str | None = None) -> tuple[dict[str, Any], bool]:
        conn = self._conn()
        for _ in range(MAX_ATTEMPTS):
            first = self._replay(conn, session_id, idempotency_key)
            if first is not None:
                return first, True
            row = self.get(session_id)
            if row is None:
                raise UnknownSession(f"no session {session_id!r}", session=session_id)
            turn_json, new_state = compute(row.state, row.version + 1)
            with self._write:
                written = self._write_turn(conn, session_id, row.version, turn_json, new_state, idempotency_key)
            if written is not None:
                return written
        raise TurnConflict(f"session {session_id!r} changed under this turn {MAX_ATTEMPTS} times; retry",
                           session=session_id)

    def _write_turn(self, conn: sqlite3.Connection, session_id: str, version: int, turn_json: dict[str, Any],
                    new_state: dict[str, Any], idempotency_key: str | None) -> tuple[dict[str, Any], bool] | None:
        """The compare-and-set; None when another writer got there first (compute again)."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            first = self._replay(conn, session_id, idempotency_key)
            if first is not None:
                conn.execute("ROLLBACK")
                return first, True
            stamp = now()
            cur = conn.execute("UPDATE genie_sessions SET version = version + 1, state = ?, updated = ? "
                               "WHERE id = ? AND version = ?", (dumps(new_state), stamp, session_id, version))
            if cur.rowcount != 1:
                conn.execute("ROLLBACK")
                return None
            conn.execute("INSERT INTO genie_turns (session_id, turn, created, turn_json) VALUES (?, ?, ?, ?)",
                         (session_id, version + 1, stamp, dumps(turn_json)))
            if idempotency_key is not None:
                conn.execute("INSERT INTO genie_idempotency (session_id, key, turn) VALUES (?, ?, ?)",
                             (session_id, idempotency_key, version + 1))
            conn.execute("COMMIT")
            return turn_json, False
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def sessions(self, limit: int = 100) -> list[tuple[str, int, str]]:
        """(id, turns, updated), most recently updated first."""
        return [tuple(r) for r in self._conn().execute(
            "SELECT id, version, updated FROM genie_sessions ORDER BY updated DESC LIMIT ?", (limit,)).fetchall()]

    def ping(self) -> None:
        self._conn().execute("SELECT count(*) FROM genie_sessions WHERE 0").fetchone()

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
