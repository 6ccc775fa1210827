"""Dropping and renaming KB tables of a project file (studio and `genie kb drop|rename`).

Why its own module: a junk table (a bad first import) otherwise ships in every
bundle. A rename moves the table, its full-text index, its list lookup tables and its
column metadata in one transaction; the spec is not touched (the Knowledge page renames the kb
worksheet too, as a version).
"""

from __future__ import annotations

import re
from typing import Any

from core_engine.errors import StorageError

__all__ = ["drop_table", "rename_table"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def drop_table(project: Any, table: str) -> None:
    """Remove `table` with its full-text index and metadata (StorageError naming it when absent)."""
    project.drop_kb_table(table)


def rename_table(project: Any, old: str, new: str) -> None:
    """Rename KB table `old` to `new` (a fresh identifier); its FTS index and metadata move with it."""
    from core_engine.knowledge.kb import METADATA_TABLE, fts_table_name, list_table_name, quote_identifier

    tables = project.kb_tables()
    if old not in tables:
        raise StorageError(f"no KB table {old!r}", file=str(project.path), table=old)
    if not _NAME.fullmatch(new or "") or new.startswith("_genie") or new.endswith("_fts"):
        raise StorageError(f"{new!r} is not a usable table name (letters, digits and _, not starting with a digit)",
                           table=new)
    if new in tables or new == old:
        raise StorageError(f"a KB table named {new!r} already exists", table=new)
    with project._write() as conn:
        old_fts, new_fts = fts_table_name(old), fts_table_name(new)
        has_fts = conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (old_fts,)).fetchone()
        conn.execute(f"ALTER TABLE {quote_identifier(old)} RENAME TO {quote_identifier(new)}")
        if has_fts:  # a contentful FTS5 index (rowid = the table's rowid): it moves as it is
            conn.execute(f"ALTER TABLE {quote_identifier(old_fts)} RENAME TO {quote_identifier(new_fts)}")
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (METADATA_TABLE,)).fetchone():
            # a list column's lookup table (`old__col`) moves too: left behind it would show up as a table
            # of its own and the renamed table's list queries would lose their index
            for (column,) in conn.execute(f"SELECT column_name FROM {METADATA_TABLE} "
                                          "WHERE table_name = ? AND type = 'list'", (old,)).fetchall():
                before, after = list_table_name(old, column), list_table_name(new, column)
                if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                (before,)).fetchone():
                    conn.execute(f"ALTER TABLE {quote_identifier(before)} RENAME TO {quote_identifier(after)}")
            conn.execute(f"UPDATE {METADATA_TABLE} SET table_name = ? WHERE table_name = ?", (new, old))
