"""The on-disk format shared by project files (`.genieproj`) and bundles (`.genie`).

Both are SQLite databases ("SQLite as an application file format"): the
header's ``application_id`` marks them as Genie files, ``user_version`` holds
the format version, and the ``_genie_*`` tables hold everything that is not a
knowledge-base table. Opening a file checks, in this order and without writing
a byte: the SQLite magic, the application id, the format version, truncation
(file shorter than the header's page count), the schema, and SQLite's own
quick check. Any failure is a StorageError that says which of these it was.

Connections use the rollback journal (one file on disk, nothing to lose when
the file is copied), ``BEGIN IMMEDIATE`` for every write (a second writer waits
up to ``BUSY_TIMEOUT_S`` and then gets a clear "busy" error) and
``synchronous=FULL``: a writer killed at any instant leaves a hot journal that
SQLite rolls back on the next open, i.e. the last committed state.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core_engine.errors import StorageError
from core_engine.loaders import dumps_json
from core_engine.secrets import find_secrets, is_secret_name
from core_engine.spec.model import Spec

__all__ = [
    "APPLICATION_ID", "FORMAT_VERSION", "PROJECT_SUFFIX", "BUNDLE_SUFFIX", "Store", "check_file",
    "is_secret_name", "find_secrets", "spec_hash", "spec_text",
]

APPLICATION_ID = 0x47454E49  # "GENI"
FORMAT_VERSION = 1
PROJECT_SUFFIX = ".genieproj"
BUNDLE_SUFFIX = ".genie"
BUSY_TIMEOUT_S = 10.0
FULL_CHECK_BYTES = 16 * 1024 * 1024  # files up to this size get a whole-file quick_check on open

SCHEMA = """
CREATE TABLE IF NOT EXISTS _genie_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _genie_specs (hash TEXT PRIMARY KEY, spec_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _genie_versions (
    number INTEGER PRIMARY KEY, created TEXT NOT NULL, message TEXT NOT NULL, author TEXT NOT NULL,
    spec_hash TEXT NOT NULL REFERENCES _genie_specs(hash), parent INTEGER, diff_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _genie_settings (key TEXT PRIMARY KEY, value_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _genie_files (path TEXT PRIMARY KEY, text TEXT NOT NULL, modified TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _genie_tests (name TEXT PRIMARY KEY, test_json TEXT NOT NULL, modified TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS _genie_logs (
    id TEXT PRIMARY KEY, created TEXT NOT NULL, title TEXT NOT NULL, parser TEXT NOT NULL, rg TEXT NOT NULL,
    spec_version INTEGER, turns INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS _genie_log_turns (
    log_id TEXT NOT NULL REFERENCES _genie_logs(id), turn INTEGER NOT NULL, created TEXT NOT NULL,
    turn_json TEXT NOT NULL, PRIMARY KEY (log_id, turn));
"""
REQUIRED_TABLES = ("_genie_meta", "_genie_specs", "_genie_versions", "_genie_settings", "_genie_files",
                   "_genie_tests", "_genie_logs", "_genie_log_turns")
OPTIONAL_TABLES = {
    # unsaved grid edits (storage/drafts.py): local to one project file, created on first use,
    # never copied into a bundle or an import
    "_genie_drafts": "CREATE TABLE IF NOT EXISTS _genie_drafts (owner TEXT PRIMARY KEY, base INTEGER NOT NULL, "
                     "spec_json TEXT NOT NULL, saved TEXT NOT NULL)",
}
KINDS = ("project", "bundle")

# -- spec identity ------------------------------------------------------------------


def spec_text(spec: Spec) -> str:
    """The canonical JSON text a spec is stored as (deterministic, so equal specs hash equal)."""
    return dumps_json(spec)


def spec_hash(spec: Spec | str) -> str:
    """sha256 of the canonical JSON text."""
    text = spec if isinstance(spec, str) else spec_text(spec)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- secrets ------------------------------------------------------------------------


# -- checking a file before anything else touches it ------------------------------------


def _header(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(100)
    except OSError as exc:
        raise StorageError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from exc


def check_file(path: str | Path, *, what: str = "Genie project") -> dict[str, Any]:
    """Check a file is a Genie file this version can read; return its header facts. Writes nothing."""
    path = Path(path)
    if not path.exists():
        raise StorageError(f"no {what} file here", file=str(path))
    if not path.is_file():
        raise StorageError(f"not a {what} file: it is a folder", file=str(path))
    head = _header(path)
    size = path.stat().st_size
    if size == 0:
        raise StorageError(f"not a {what} file: the file is empty", file=str(path))
    if not head.startswith(b"SQLite format 3\x00"):
        raise StorageError(f"not a {what} file: it is not an SQLite database (a text file or another format?)",
                           file=str(path))
    if len(head) < 100:
        raise StorageError(f"the {what} file is truncated ({size} bytes, shorter than its header)", file=str(path))
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    change_counter, page_count = struct.unpack(">II", head[24:32])
    user_version, = struct.unpack(">i", head[60:64])
    app_id, = struct.unpack(">I", head[68:72])
    valid_for, = struct.unpack(">I", head[92:96])
    if app_id != APPLICATION_ID:
        raise StorageError(f"not a {what} file: it is an SQLite database of another application "
                           f"(application_id {app_id:#x})", file=str(path))
    if user_version > FORMAT_VERSION:
        raise StorageError(f"this {what} file was written by a newer Genie Studio (file format {user_version}; "
                           f"this version reads up to {FORMAT_VERSION}); upgrade to open it", file=str(path),
                           format=user_version)
    if user_version < 1:
        raise StorageError(f"not a {what} file: it has no Genie format version", file=str(path))
    hot_journal = _has_hot_journal(path)
    if not hot_journal and change_counter == valid_for and page_count and size < page_count * page_size:
        raise StorageError(f"the {what} file is truncated ({size} bytes; its header says "
                           f"{page_count * page_size})", file=str(path))
    return {"format": user_version, "page_size": page_size, "pages": page_count, "hot_journal": hot_journal}


def _has_hot_journal(path: Path) -> bool:
    journal = path.with_name(path.name + "-journal")
    try:
        return journal.stat().st_size > 0
    except OSError:
        return False


def connect(path: Path, *, readonly: bool = False, create: bool = False) -> sqlite3.Connection:
    """A connection with our settings; ``mode=ro``/``rw`` so a missing file is never created by accident."""
    mode = "ro" if readonly else ("rwc" if create else "rw")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None,
                               timeout=BUSY_TIMEOUT_S, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        if not readonly:
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the file: {exc}", file=str(path)) from exc
    return conn


def verify_schema(conn: sqlite3.Connection, path: Path, *, what: str, quick_check: bool = True) -> dict[str, str]:
    """The file's meta table; StorageError if tables are missing, the kind is unknown, or pages are damaged."""
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [t for t in REQUIRED_TABLES if t not in names]
        if missing:
            raise StorageError(f"the {what} file is damaged or foreign: missing table(s) {', '.join(missing)}",
                               file=str(path))
        strangers = foreign_objects(conn)
        if strangers:
            raise StorageError(f"the {what} file holds database objects Genie does not use and will not open: "
                               f"{', '.join(strangers[:10])}", file=str(path), objects=strangers[:50])
        meta = dict(conn.execute("SELECT key, value FROM _genie_meta").fetchall())
        if meta.get("kind") not in KINDS:
            raise StorageError(f"the {what} file has an unknown kind {meta.get('kind')!r}", file=str(path))
        if quick_check:
            targets = [None] if path.stat().st_size <= FULL_CHECK_BYTES else list(REQUIRED_TABLES)
            for target in targets:
                sql = "PRAGMA quick_check" if target is None else f'PRAGMA quick_check("{target}")'
                problems = [r[0] for r in conn.execute(sql).fetchall()]
                if problems != ["ok"]:
                    raise StorageError(f"the {what} file is corrupt: {problems[0]}", file=str(path))
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"the {what} file is corrupt: {exc}", file=str(path)) from exc
    return meta


def foreign_objects(conn: sqlite3.Connection) -> list[str]:
    """Schema objects outside the allow-list, as "trigger 'x'" strings (empty when the file is clean).

    Allowed: the _genie_* tables, plain KB tables, their FTS5 indexes (``<table>_fts``)
    with FTS5's shadow tables, and indexes. Triggers, views, other virtual tables and
    unknown _genie_ tables could run or hide code, so a file holding them is refused.
    """
    from core_engine.knowledge.kb import FTS_SHADOW_SUFFIXES, METADATA_TABLE, fts_table_name
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    tables = {name: (sql or "") for typ, name, _, sql in rows if typ == "table"}
    plain = {n for n, sql in tables.items() if not sql.upper().startswith("CREATE VIRTUAL")}
    fts = {n for n, sql in tables.items() if sql.upper().startswith("CREATE VIRTUAL")
           and re.search(r"\bUSING\s+fts5\s*\(", sql, re.I) and any(fts_table_name(t) == n for t in plain)}
    shadow = {f + s for f in fts for s in FTS_SHADOW_SUFFIXES}
    found = []
    expected = _expected_columns()
    for table, columns in expected.items():
        if table in tables:
            have = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
            if have != columns:
                found.append(f"table {table!r} with columns {', '.join(have)} (expected {', '.join(columns)})")
    for typ, name, _, _ in rows:
        if typ == "index":
            continue
        if typ == "table" and (name in REQUIRED_TABLES or name in OPTIONAL_TABLES or name == METADATA_TABLE
                               or name in fts or name in shadow
                               or name in ("sqlite_sequence", "sqlite_stat1", "sqlite_stat4")):
            continue
        if typ == "table" and name in plain and not name.startswith(("_genie_", "sqlite_")) and name not in shadow:
            continue
        found.append(f"{typ} {name!r}")
    return found


_EXPECTED: dict[str, list[str]] = {}


def _expected_columns() -> dict[str, list[str]]:
    """The columns of each _genie_* table, as SCHEMA creates them."""
    if not _EXPECTED:
        mem = sqlite3.connect(":memory:")
        try:
            mem.executescript(SCHEMA)
            for ddl in OPTIONAL_TABLES.values():
                mem.execute(ddl)
            for table in (*REQUIRED_TABLES, *OPTIONAL_TABLES):
                _EXPECTED[table] = [r[1] for r in mem.execute(f'PRAGMA table_info("{table}")')]
        finally:
            mem.close()
    return _EXPECTED


def open_checked(path: Path, *, what: str, readonly: bool = False) -> tuple[sqlite3.Connection, dict[str, str]]:
    """check_file, recover a hot journal if one is left from a crash, verify; a connection and the meta."""
    facts = check_file(path, what=what)
    if facts["hot_journal"]:  # a writer died mid-transaction (or one is writing right now)
        if not os.access(path, os.W_OK):
            raise StorageError(f"the {what} file has an interrupted write that needs write access to roll back",
                               file=str(path))
        conn = connect(path)  # the first read rolls the interrupted transaction back (even for readers)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StorageError(f"the {what} file is corrupt: {exc}", file=str(path)) from exc
        conn.close()
        check_file(path, what=what)
    conn = connect(path, readonly=readonly)
    try:
        meta = verify_schema(conn, path, what=what)
    except BaseException:
        conn.close()
        raise
    return conn, meta


def init_schema(conn: sqlite3.Connection, meta: dict[str, str]) -> None:
    """Create the _genie_* tables and stamp the header; call inside a write transaction."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
    conn.executemany("INSERT OR REPLACE INTO _genie_meta (key, value) VALUES (?, ?)",
                     [(k, str(v)) for k, v in meta.items()])


# -- one connection, serialised, with write transactions -----------------------------------


class Store:
    """One SQLite connection shared by a ProjectFile's methods (any thread, one at a time)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.lock = threading.RLock()

    def query(self, sql: str, params: Any = ()) -> list[tuple]:
        with self.lock:
            try:
                return self.conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StorageError(f"cannot read the project file: {exc}", file=str(self.path)) from exc

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT; any exception rolls everything back."""
        with self.lock:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StorageError(f"the project file is busy (another session is writing it): {exc}",
                                   file=str(self.path)) from exc
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException as exc:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"cannot write the project file: {exc}", file=str(self.path)) from exc
                raise

    def close(self) -> None:
        with self.lock:
            self.conn.close()


def dumps(value: Any) -> str:
    """Compact, key-sorted JSON for stored values (stable text, so stable hashes)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def fsync_dir(folder: Path) -> None:
    """Make a rename durable (best effort where directories cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
