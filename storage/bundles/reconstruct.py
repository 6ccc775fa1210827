"""Import by reconstruction: a bundle or project file from elsewhere becomes a fresh SQLite file.

Nothing of the source file's schema is copied as SQL text. The new file gets
the _genie_* tables from ``fileformat.SCHEMA``, the column-metadata table,
and for each KB table a ``CREATE TABLE`` built here from its column names and
one of SQLite's plain declared types; then the rows of exactly those known
tables and columns are copied (rowids kept, so a bundle's tables hash the same)
and each FTS5 index is re-created with the importer's settings. Values are
validated on the way: file paths, test names, table names and stored JSON.
Triggers, views and anything else never exist in the new file (and a source
holding them is refused on open, naming them: ``fileformat.foreign_objects``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core_engine import jsonsafe
from core_engine.errors import StorageError
from core_engine.knowledge.kb import FTS_SHADOW_SUFFIXES, METADATA_TABLE, fts_table_name, quote_identifier

from .. import fileformat as ff
from ..safepath import safe_name

__all__ = ["reconstruct"]

_PLAIN_TYPES = {"", "TEXT", "INTEGER", "REAL", "NUMERIC", "BLOB", "INT", "FLOAT"}
_JSON_COLUMNS = {"_genie_specs": "spec_json", "_genie_versions": "diff_json", "_genie_settings": "value_json",
                 "_genie_tests": "test_json", "_genie_log_turns": "turn_json"}
_METADATA_SQL = (f"CREATE TABLE {METADATA_TABLE} (table_name TEXT, column_name TEXT, position INTEGER, type TEXT, "
                 "free_text INTEGER, PRIMARY KEY (table_name, column_name))")


def reconstruct(source: Path, target: Path) -> None:
    """Write ``target`` (a new file) from the known content of ``source`` (already opened and checked)."""
    from .folders import check_file_path

    # ``target`` is a temporary file its caller deletes on failure, so no transaction is needed
    conn = sqlite3.connect(f"{target.resolve().as_uri()}?mode=rwc", uri=True, isolation_level=None)
    try:
        conn.execute("ATTACH DATABASE ? AS src", (f"{source.resolve().as_uri()}?mode=ro",))
        conn.executescript(ff.SCHEMA.replace("CREATE TABLE IF NOT EXISTS ", "CREATE TABLE main."))
        expected = ff._expected_columns()
        for table in ff.REQUIRED_TABLES:  # optional local tables (drafts) are never imported
            columns = expected[table]
            names = ", ".join(quote_identifier(c) for c in columns)
            conn.execute(f"INSERT INTO main.{table} ({names}) SELECT {names} FROM src.{table}")
        conn.execute("DELETE FROM main._genie_meta WHERE key = 'trusted_code'")  # trust is never imported
        _validate(conn, check_file_path)
        _copy_kb(conn)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot rebuild the file: {exc}", file=str(source)) from exc
    finally:
        conn.close()


def _validate(conn: sqlite3.Connection, check_file_path) -> None:
    for (path,) in conn.execute("SELECT path FROM main._genie_files").fetchall():
        check_file_path(path)
    for (name,) in conn.execute("SELECT name FROM main._genie_tests").fetchall():
        safe_name(name, what="test name")
    for table, column in _JSON_COLUMNS.items():
        for (text,) in conn.execute(f"SELECT {column} FROM main.{table}"):
            try:
                jsonsafe.loads(text, what=f"a value of {table}.{column}")
            except ValueError as exc:
                raise StorageError(str(exc), table=table) from exc


def _copy_kb(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT name, sql FROM src.sqlite_master WHERE type = 'table'").fetchall()
    virtual = {n for n, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL")}
    shadow = {v + s for v in virtual for s in FTS_SHADOW_SUFFIXES}
    tables = [n for n, _ in rows if n not in virtual | shadow and not n.startswith(("_genie_", "sqlite_"))]
    has_meta = any(n == METADATA_TABLE for n, _ in rows)
    if has_meta or tables:
        conn.execute(_METADATA_SQL.replace("CREATE TABLE ", "CREATE TABLE main."))
    for table in tables:
        safe_name(table, what="table name")
        q = quote_identifier(table)
        info = conn.execute(f"PRAGMA src.table_info({q})").fetchall()
        defs, names = [], []
        for _, name, declared, *_ in info:
            typ = (declared or "").upper()
            if typ not in _PLAIN_TYPES:
                raise StorageError(f"KB table {table!r}: column {name!r} has the type {declared!r}", table=table)
            defs.append(f"{quote_identifier(name)} {typ}".strip())
            names.append(quote_identifier(name))
        cols = ", ".join(names)
        conn.execute(f"CREATE TABLE main.{q} ({', '.join(defs)})")
        conn.execute(f"INSERT INTO main.{q} (rowid, {cols}) SELECT rowid, {cols} FROM src.{q}")
        if has_meta:
            conn.execute(f"INSERT INTO main.{METADATA_TABLE} (table_name, column_name, position, type, free_text) "
                         f"SELECT table_name, column_name, position, type, free_text FROM src.{METADATA_TABLE} "
                         "WHERE table_name = ?", (table,))
        fts = fts_table_name(table)
        if fts in virtual:
            fts_cols = ", ".join(quote_identifier(r[1]) for r in conn.execute(
                f"PRAGMA src.table_info({quote_identifier(fts)})"))
            conn.execute(f"CREATE VIRTUAL TABLE main.{quote_identifier(fts)} USING fts5({fts_cols}, "
                         "tokenize='porter unicode61')")
            conn.execute(f"INSERT INTO main.{quote_identifier(fts)} (rowid, {fts_cols}) "
                         f"SELECT rowid, {fts_cols} FROM src.{quote_identifier(fts)}")
