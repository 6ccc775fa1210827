"""What an import builds beside the table: the FTS5 index, list lookup tables, indexes, metadata.

Why its own module: the importer (``storage.kb_import``) reads and converts rows; this
module owns the SQL of the structures derived from them. The FTS5 index and the lookup
tables are filled batch by batch, right after each batch's rows are inserted
(``Derived.fill``: an ``INSERT ... SELECT`` over the batch's rowids, in C with the GIL
released), so with the file read in a background thread (``in_background``) that work
overlaps the parsing of the next batch. The indexes are built once at the end (a sort
is cheaper than keeping an index while inserting).
"""

from __future__ import annotations

import queue
import re
import sqlite3
import threading
from collections.abc import Iterator
from typing import TypeVar

import sqlite_utils

from core_engine.kb import METADATA_TABLE, Column, fts_table_name, list_table_name, quote_identifier

__all__ = ["Derived", "MalformedList", "build_indexes", "in_background", "verify_lists", "write_metadata"]

_TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
T = TypeVar("T")


class MalformedList(Exception):
    """A list cell is not a JSON array (SQLite's JSON functions refused it)."""


def has_lookup(column: Column) -> bool:
    """A list column (not free text) with a plain name gets a lookup table (core_engine.kb.list_table_name)."""
    return column.type == "list" and not column.free_text and bool(_TABLE_NAME.fullmatch(column.name))


class Derived:
    """The FTS5 table and list lookup tables of a new table, filled one batch of rowids at a time."""

    def __init__(self, conn: sqlite3.Connection, table: str, columns: list[Column]) -> None:
        self.conn = conn
        self.fts: str | None = None
        self.lookups = [c for c in columns if has_lookup(c)]
        self._fills: list[str] = []
        quoted = quote_identifier(table)
        free = [c for c in columns if c.free_text]
        if free:
            # contentful (not an external-content index) because list columns are indexed flattened,
            # and snippet()/highlight() then show clean text; rowid = the table's rowid
            self.fts = fts_table_name(table)
            names = ", ".join(quote_identifier(c.name) for c in free)
            conn.execute(f"CREATE VIRTUAL TABLE {quote_identifier(self.fts)} USING fts5({names}, "
                         "tokenize='porter unicode61')")
            values = ", ".join(
                f"(SELECT group_concat(j.value, char(10)) FROM json_each(t.{quote_identifier(c.name)}) AS j)"
                if c.type == "list" else f"t.{quote_identifier(c.name)}"
                for c in free
            )
            self._fills.append(f"INSERT INTO {quote_identifier(self.fts)} (rowid, {names}) "
                               f"SELECT t.rowid, {values} FROM {quoted} AS t WHERE t.rowid > ?")
        for c in self.lookups:
            lookup = quote_identifier(list_table_name(table, c.name))
            conn.execute(f"CREATE TABLE {lookup} (row_id INTEGER NOT NULL, value)")
            self._fills.append(f"INSERT INTO {lookup} (row_id, value) SELECT t.rowid, j.value FROM {quoted} AS t, "
                               f"json_each(t.{quote_identifier(c.name)}) AS j WHERE t.rowid > ?")

    def fill(self, after_rowid: int) -> None:
        """Index the rows inserted since ``after_rowid``; MalformedList if a list cell is not JSON."""
        for sql in self._fills:
            try:
                self.conn.execute(sql, (after_rowid,))
            except sqlite3.OperationalError as exc:
                if "malformed JSON" in str(exc):
                    raise MalformedList() from exc
                raise


def verify_lists(conn: sqlite3.Connection, table: str, columns: list[Column]) -> None:
    """Every cell of these list columns is a JSON array (checked by SQLite, in C), else MalformedList."""
    for c in columns:
        name = quote_identifier(c.name)
        bad = conn.execute(
            f"SELECT 1 FROM {quote_identifier(table)} WHERE {name} IS NOT NULL "
            f"AND (json_valid({name}) = 0 OR json_type({name}) <> 'array') LIMIT 1"
        ).fetchone()
        if bad is not None:
            raise MalformedList()


def build_indexes(conn: sqlite3.Connection, table: str, columns: list[Column], few: set[str], keys: set[str]) -> None:
    """Indexes for structured questions: numeric and date columns, few-valued text columns, and the
    (value, row_id) index of each lookup table."""
    quoted = quote_identifier(table)
    # a numeric index also carries the few-valued columns, so "city = ? ... ORDER BY rating LIMIT k"
    # walks the rating index and tests the city in the index entry, reading only matching rows
    trailing = [quote_identifier(c.name) for c in columns if c.name in few][:4]
    for c in columns:
        if c.free_text:
            continue
        if c.type in ("int", "float", "date") or c.name in few:
            parts = [quote_identifier(c.name)] + (trailing if c.name not in few | keys else [])
            conn.execute(f"CREATE INDEX {quote_identifier(f'{table}__{c.name}__idx')} ON {quoted} "
                         f"({', '.join(parts)})")
        elif has_lookup(c):
            conn.execute(f"CREATE INDEX {quote_identifier(list_table_name(table, c.name) + '__value')} "
                         f"ON {quote_identifier(list_table_name(table, c.name))} (value, row_id)")


def write_metadata(db: sqlite_utils.Database, table: str, columns: list[Column]) -> None:
    meta = db[METADATA_TABLE]
    meta.create(
        {"table_name": str, "column_name": str, "position": int, "type": str, "free_text": int},
        pk=("table_name", "column_name"), if_not_exists=True,
    )
    meta.insert_all(
        {"table_name": table, "column_name": c.name, "position": i, "type": c.type, "free_text": int(c.free_text)}
        for i, c in enumerate(columns)
    )


def in_background(items: Iterator[T], depth: int = 4) -> Iterator[T]:
    """The items of ``items``, produced by a thread up to ``depth`` ahead; its exception is raised here.

    For reading and converting an import file while this thread writes SQLite (which releases
    the GIL). Only for iterators this module's caller owns: a user's iterable may hold objects
    (a sqlite3 cursor) that must stay in their thread. Stopping early stops and closes the reader.
    """
    slots: queue.Queue = queue.Queue(depth)
    stop = threading.Event()
    end = object()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                slots.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((item, None)):
                    return
            put((end, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consuming thread, which raises it
            put((None, exc))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    reader = threading.Thread(target=produce, name="kb-import-reader", daemon=True)
    reader.start()
    try:
        while True:
            item, error = slots.get()
            if error is not None:
                raise error
            if item is end:
                return
            yield item
    finally:
        stop.set()
        reader.join()
