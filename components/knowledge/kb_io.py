"""Knowledge-page logic without Streamlit: import uploads, retype tables, derive worksheets, run queries.

Writes go through the project's storage API (one transaction each: a bad file or
an impossible type change leaves the KB exactly as it was). Reads go through
`core_engine.knowledge.kb.SQLiteKB`, the read-only, time-limited executor the agent uses,
so the SQL console can do nothing the agent could not.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core_engine.errors import StorageError
from core_engine.knowledge.kb import COLUMN_TYPES, QueryResult, SQLiteKB, TableInfo, quote_identifier
from core_engine.knowledge.kb_worksheets import derive_worksheets
from core_engine.spec.model import Spec, Worksheet

__all__ = ["COLUMN_TYPES", "KB_SUFFIXES", "apply_derived", "derive", "import_upload", "preview_rows",
           "retype_table", "run_query", "table_name_for", "tables"]

KB_SUFFIXES = ("csv", "tsv", "json", "jsonl", "ndjson")
PREVIEW_ROWS = 1000
Progress = Callable[[int, int | None], None]


def table_name_for(file_name: str) -> str:
    """A table name from a file name: `Restaurants (SF).csv` -> `restaurants_sf`."""
    stem = re.sub(r"[^A-Za-z0-9_]+", "_", Path(file_name).stem).strip("_").lower()
    if not stem or not re.match(r"[A-Za-z_]", stem):
        stem = f"t_{stem}" if stem else "table"
    return stem[:60]


def import_upload(project: Any, file_name: str, data: bytes, table: str, *, replace: bool = False,
                  progress: Progress | None = None) -> Any:
    """Import uploaded bytes as a KB table; returns the storage ImportReport."""
    suffix = Path(file_name).suffix.lower().lstrip(".")
    if suffix not in KB_SUFFIXES:
        raise StorageError(f"cannot import a .{suffix or '?'} file as a table: use CSV, TSV, JSON or JSONL",
                           file=file_name)
    if not data.strip():
        raise StorageError("the uploaded file is empty", file=file_name)
    if not replace and table in project.kb_tables():
        raise StorageError(f"table {table!r} already exists: tick 'Replace' or choose another name", table=table)
    with tempfile.TemporaryDirectory(prefix="genie-kb-") as tmp:
        path = Path(tmp) / f"upload.{suffix}"
        path.write_bytes(data)
        try:
            return project.import_kb(path, table, replace=replace, progress=progress)
        except StorageError as exc:
            if exc.context.get("file") == str(path):  # name the user's file, not our temporary copy
                exc.context["file"] = file_name
            raise


def tables(kb: SQLiteKB | None) -> dict[str, TableInfo]:
    return kb.tables() if kb is not None else {}


def preview_rows(kb: SQLiteKB, table: str, limit: int = PREVIEW_ROWS) -> QueryResult:
    return kb.execute(f"SELECT * FROM {quote_identifier(table)}", max_rows=limit, timeout_s=10)


def retype_table(project: Any, kb_path: str | Path, table: str, column_types: dict[str, str],
                 free_text: list[str], progress: Progress | None = None) -> Any:
    """Rebuild `table` from its own rows with new column types / free-text flags (one transaction)."""
    for name, typ in column_types.items():
        if typ not in COLUMN_TYPES:
            raise StorageError(f"unknown column type {typ!r} for {name!r}; use one of {', '.join(COLUMN_TYPES)}",
                               column=name)
    reader = SQLiteKB(kb_path, timeout_s=120, max_rows=10_000_000)
    try:
        rows = reader.execute(f"SELECT * FROM {quote_identifier(table)}").rows
    finally:
        reader.close()
    if not rows:
        raise StorageError(f"table {table!r} has no rows to retype", table=table)
    return project.import_kb_records(rows, table, replace=True, column_types=column_types, free_text=free_text,
                                     progress=progress)


def derive(kb: SQLiteKB, table: str, type_name: str | None) -> tuple[Worksheet, Worksheet | None]:
    info = kb.tables().get(table)
    if info is None:
        raise StorageError(f"no KB table {table!r}", table=table)
    return derive_worksheets(info, type_name=type_name or None,
                             distinct=lambda column: kb.distinct_values(table, column, limit=50))


def apply_derived(spec: Spec, derived: list[Worksheet]) -> tuple[Spec, list[str]]:
    """Put derived worksheets into the spec: replace same-named ones in place, append new ones."""
    new = spec.model_copy(deep=True)
    notes = []
    for ws in derived:
        index = next((i for i, w in enumerate(new.worksheets) if w.name == ws.name), None)
        if index is None:
            new.worksheets.append(ws)
            notes.append(f"added {ws.kind} worksheet {ws.name}")
        else:
            old = new.worksheets[index]
            keep = ws.model_copy(update={"description": old.description or ws.description, "actions": old.actions,
                                         "predicate": old.predicate, "api": old.api})
            new.worksheets[index] = keep
            notes.append(f"updated {ws.kind} worksheet {ws.name} (its actions and description kept)")
    return new, notes


def run_query(kb: SQLiteKB, sql: str, max_rows: int = 1000) -> QueryResult:
    """One read-only query (KnowledgeError for a bad or refused one), at most `max_rows` rows."""
    return kb.execute(sql, max_rows=max_rows, timeout_s=5)
