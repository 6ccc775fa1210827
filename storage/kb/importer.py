"""Importing CSV, JSON and JSONL files (and Python records) into a project's KB.

Each import is one transaction on the KB file: it either commits the new
table, its FTS5 index and its column metadata together, or leaves the
database exactly as it was (DESIGN §7: a bad import never loses data).

Files are read once, streaming: the first ``SAMPLE_ROWS`` rows choose the column
types, and every later batch is checked against them as it is converted and
inserted (list cells are checked by SQLite's JSON functions after the insert). Only
when a later row does not fit its sampled type (or brings a new column) is the
import rolled back and redone the old way: a first pass over the whole file infers
the types, a second inserts.
Types are the logical ones of :data:`core_engine.knowledge.kb.COLUMN_TYPES` (see
``storage.kb.values`` for inference and stored forms). Free-text columns get a
``{table}_fts`` FTS5 index (porter tokenizer) whose rowid is the table's rowid;
a list-of-text column is indexed as its elements joined by newlines.

sqlite-utils creates the tables and writes the metadata; the bulk rows go
through ``executemany`` on the same connection, about three times faster than
``insert_all`` (which re-checks every value for JSON encoding) on 100k rows.

Structured questions filter on few columns, so the importer indexes the numeric and
date columns and the text columns with few distinct values (in the sample), and gives
each list column (not free text) a lookup table ``{table}__{column}`` (row_id, value)
indexed on (value, row_id) (``core_engine.knowledge.kb.list_table_name``): membership is then
``r.rowid IN (SELECT row_id FROM "t__c" WHERE value = ?)`` instead of a json_each scan.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from core_engine.errors import StorageError
from core_engine.knowledge.kb import COLUMN_TYPES, METADATA_TABLE, Column, fts_table_name, list_table_name, quote_identifier
from core_engine.knowledge.kb import _MAX_VALUE_BYTES as MAX_VALUE_BYTES  # what SQLiteKB can read back
from storage.kb.reader import (  # noqa: F401 - BATCH_SIZE, FORMATS, RESERVED_COLUMNS: this module's old names
    BATCH_SIZE, FORMATS, RESERVED_COLUMNS, Batch, RawRecord, _batched, _count_rows, _dict_batches, _file_batches,
    _format, _numbered_records, _read_json, _reader,
)
from storage.kb.values import (
    ColumnGuess, Unfit, chunk_text, convert_column, convert_sampled, describe_type, guess_columns,
)

__all__ = [
    "ImportReport",
    "chunk_text",
    "import_documents",
    "import_file",
    "import_records",
    "infer_columns",
]

Progress = Callable[[int, int | None], None]
SAMPLE_ROWS = 1000  # rows whose values choose the column types of a streamed file
_FTS_HASH_BYTES = 32 << 20  # FTS5 'hashsize' while bulk loading (its setting stays in the index)
FEW_VALUES = 64  # a text column with at most this many distinct values in the first batch is indexed
NEW_FILE_PAGE_SIZE = 8192  # SQLite's default is 4096; measured in docs/storage.md
_SESSION_PRAGMAS = ("PRAGMA cache_size = -65536",)  # this connection only: index and FTS builds sort in memory
_TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SQL_TYPES = {"int": int, "float": float, "bool": int, "date": str, "text": str, "list": str}


class _Resample(Exception):
    """A later row did not fit the types chosen from the sample: infer from the whole file instead."""


@dataclass
class ImportReport:
    """What an import created: the table, how many rows, its columns and FTS index."""

    table: str
    rows: int
    columns: list[Column]
    elapsed_s: float
    fts_table: str | None
    phases_s: dict[str, float] = field(default_factory=dict)  # where the time went: rows, fts, indexes, commit


# -- public API ---------------------------------------------------------------


def infer_columns(records: Iterable[dict[str, Any]], sample: int | None = 1000) -> list[Column]:
    """Infer column types and free-text flags from the first ``sample`` records (None: all)."""
    head = itertools.islice(records, sample) if sample else iter(records)
    columns, _ = guess_columns(_batched(head))
    return columns


def import_file(
    db_path: str | Path,
    file_path: str | Path,
    table: str,
    *,
    replace: bool = False,
    column_types: dict[str, str] | None = None,
    free_text: Iterable[str] | None = None,
    progress: Progress | None = None,
    fmt: str | None = None,
) -> ImportReport:
    """Import a CSV/TSV, JSON (array of objects) or JSONL file as table ``table``."""
    started = time.perf_counter()
    _check_table_name(table)
    path = Path(file_path)
    if not path.is_file():
        raise StorageError("file not found", file=str(path))
    kind = _format(path, fmt)
    records = _read_json(path) if kind == "json" else None  # parsed once, kept for both passes
    try:
        return _import_sampled(db_path, path, kind, records, table, replace=replace, column_types=column_types,
                               free_text=free_text, progress=progress, started=started)
    except _Resample:
        pass  # a later row did not fit the sample's types (the transaction was rolled back)
    source = _reader(path, kind, records)
    columns, total = guess_columns(_batched(r for _, _, r in source()))
    if total == 0:
        raise StorageError("the file has no rows", file=str(path))
    if not columns:
        raise StorageError("the file's records have no fields, so there are no columns to import", file=str(path))
    columns = _apply_options(columns, column_types, free_text, file=str(path))
    checked = {c.name for c in columns} - set(column_types or ())
    return _import(
        db_path, table, columns, _file_batches(path, kind, records), replace=replace, total=total, progress=progress,
        file=str(path), started=started, checked=checked,
    )


def _import_sampled(
    db_path: str | Path, path: Path, kind: str, records: list[RawRecord] | None, table: str, *, replace: bool,
    column_types: dict[str, str] | None, free_text: Iterable[str] | None, progress: Progress | None, started: float,
) -> ImportReport:
    """One streaming pass: types from the first batch, later batches checked as they are inserted."""
    batches = _file_batches(path, kind, records)
    first = next(batches, None)
    if first is None:
        raise StorageError("the file has no rows", file=str(path))
    meta, cols, dicts = first
    sample = dicts if dicts is not None else [dict(zip(cols, values)) for values in zip(*cols.values())]
    columns, _ = guess_columns([sample])
    if not columns:
        raise StorageError("the file's records have no fields, so there are no columns to import", file=str(path))
    columns = _apply_options(columns, column_types, free_text, file=str(path))
    verify = {c.name for c in columns} - set(column_types or ())
    if records is not None:
        total = len(records)
    else:  # a count pass over the file only for a progress bar
        total = _count_rows(path, kind) if progress is not None else None
    return _import(
        db_path, table, columns, itertools.chain([first], batches), replace=replace, total=total, progress=progress,
        file=str(path), started=started, verify=verify,
    )


def import_records(
    db_path: str | Path,
    records: Iterable[dict[str, Any]],
    table: str,
    *,
    replace: bool = False,
    column_types: dict[str, str] | None = None,
    free_text: Iterable[str] | None = None,
    progress: Progress | None = None,
    sample: int = 1000,
) -> ImportReport:
    """Import Python dicts. A list is inferred in full; any other iterable from its first ``sample`` rows."""
    started = time.perf_counter()
    _check_table_name(table)
    numbered = _numbered_records(records)
    checked: set[str] = set()
    if isinstance(records, Sequence):
        columns, total = guess_columns(_batched(r for _, _, r in numbered))
        numbered = _numbered_records(records)
        checked = {c.name for c in columns} - set(column_types or ())
    else:
        head = list(itertools.islice(numbered, sample))
        columns, _ = guess_columns(_batched(r for _, _, r in head))
        numbered = itertools.chain(head, numbered)
        total = len(records) if isinstance(records, Sized) else None
    if not columns:
        raise StorageError("no records to import", table=table)
    columns = _apply_options(columns, column_types, free_text, file=None)
    return _import(
        db_path, table, columns, _dict_batches(numbered), replace=replace, total=total, progress=progress, file=None,
        started=started, checked=checked,
    )


def import_documents(
    db_path: str | Path,
    documents: Iterable[dict[str, Any]],
    table: str,
    *,
    text_field: str = "text",
    title_field: str = "title",
    chunk_chars: int = 800,
    overlap: int = 100,
    progress: Progress | None = None,
    replace: bool = False,
) -> ImportReport:
    """Import free-text articles as rows (doc_id, title, chunk_index, text) with an FTS5 index.

    ``doc_id`` is the document's ``id`` (or ``doc_id``) field, else its 1-based
    position. Title and text are both free text, so a search matches either.
    """
    started = time.perf_counter()
    _check_table_name(table)
    if chunk_chars <= 0 or not 0 <= overlap < chunk_chars:
        raise StorageError(
            "need chunk_chars > 0 and 0 <= overlap < chunk_chars", chunk_chars=chunk_chars, overlap=overlap
        )
    columns = [
        Column("doc_id", "text"),
        Column("title", "text", free_text=True),
        Column("chunk_index", "int"),
        Column("text", "text", free_text=True),
    ]

    def chunks() -> Iterator[RawRecord]:
        row = 0
        for number, doc in enumerate(documents, 1):
            if not isinstance(doc, dict):
                raise StorageError(f"document {number} is a {type(doc).__name__}, not a dict", row=number)
            body = doc.get(text_field)
            if not isinstance(body, str):
                raise StorageError(f"document {number} has no {text_field!r} text", row=number, field=text_field)
            doc_id = str(doc.get("id", doc.get("doc_id", number)))
            title = doc.get(title_field)
            for index, chunk in enumerate(chunk_text(body, chunk_chars, overlap)):
                row += 1
                yield row, None, {"doc_id": doc_id, "title": title, "chunk_index": index, "text": chunk}

    return _import(  # total=None: the number of chunks is unknown until the texts are split
        db_path, table, columns, _dict_batches(chunks()), replace=replace, total=None, progress=progress, file=None,
        started=started,
    )


def _apply_options(
    columns: list[Column], column_types: dict[str, str] | None, free_text: Iterable[str] | None, *, file: str | None
) -> list[Column]:
    """Apply type overrides, then the explicit free-text list (which replaces inferred flags)."""
    by_name = {c.name: c for c in columns}
    for name, typ in (column_types or {}).items():
        if name not in by_name:
            raise StorageError(f"column_types names a column that is not in the data: {name!r}", file=file, column=name)
        if typ not in COLUMN_TYPES:
            raise StorageError(
                f"unknown column type {typ!r}; use one of {', '.join(COLUMN_TYPES)}", file=file, column=name
            )
        by_name[name] = Column(name, typ, by_name[name].free_text and typ in ("text", "list"))
    if free_text is not None:
        wanted = set(free_text)
        for name in wanted:
            if name not in by_name:
                raise StorageError(f"free_text names a column that is not in the data: {name!r}", file=file, column=name)
            if by_name[name].type not in ("text", "list"):
                raise StorageError(
                    f"free-text column {name!r} must be text or list, not {by_name[name].type}", file=file, column=name
                )
        by_name = {n: Column(n, c.type, n in wanted) for n, c in by_name.items()}
    return [by_name[c.name] for c in columns]


# -- writing the database ---------------------------------------------------------


def _import(
    db_path: str | Path, table: str, columns: list[Column], batches: Iterator[Batch], *,
    replace: bool, total: int | None, progress: Progress | None, file: str | None, started: float,
    checked: set[str] = frozenset(), verify: set[str] = frozenset(),
) -> ImportReport:
    """Create ``table`` from ``batches`` in one transaction: all of it commits, or nothing does."""
    existed = Path(db_path).exists()
    try:
        conn = sqlite3.connect(str(db_path), isolation_level=None)  # transactions are ours to control
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the knowledge base: {exc}", db=str(db_path)) from exc
    fts = None
    try:
        db = sqlite_utils.Database(conn)
        if not existed:  # a new file: 8 KB pages, less CPU for the insert, FTS and index builds (docs/storage.md)
            conn.execute(f"PRAGMA page_size = {NEW_FILE_PAGE_SIZE}")
        for pragma in _SESSION_PRAGMAS:
            conn.execute(pragma)
        conn.execute("BEGIN IMMEDIATE")
        try:
            _clear_table(db, table, replace)
            db[table].create({c.name: _SQL_TYPES[c.type] for c in columns})
            rows, few, keys = _insert_rows(conn, table, columns, batches, total, progress, file, checked, verify)
            phases = {"read_insert_s": time.perf_counter() - started}
            # a sampled list column whose cells go through json_each anyway (FTS, lookup table) is checked
            # there, one scan fewer: json_each refuses a cell that is not JSON (brackets were checked)
            _verify_lists(conn, table, [c for c in columns if c.type == "list" and c.name in verify
                                        and not c.free_text and not _has_lookup(c)])
            try:
                if any(c.free_text for c in columns):
                    fts = _build_fts(db, table, columns, hashsize=_FTS_HASH_BYTES)
                phases["fts_s"] = time.perf_counter() - started - sum(phases.values())
                _build_indexes(conn, table, columns, few, keys)
            except sqlite3.OperationalError as exc:
                if verify and "malformed JSON" in str(exc):
                    raise _Resample() from None
                raise
            phases["indexes_s"] = time.perf_counter() - started - sum(phases.values())
            _write_metadata(db, table, columns)
            conn.execute("PRAGMA analysis_limit = 1000")  # sampled statistics (ms): the planner picks the index
            conn.execute(f"ANALYZE {quote_identifier(table)}")
            conn.execute("COMMIT")
            phases["metadata_commit_s"] = time.perf_counter() - started - sum(phases.values())
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.close()
            if not existed:
                Path(db_path).unlink(missing_ok=True)  # leave no empty KB file behind
            raise
    except sqlite3.Error as exc:
        raise StorageError(f"cannot write table {table!r}: {exc}", db=str(db_path), table=table, file=file) from exc
    finally:
        conn.close()
    return ImportReport(table, rows, list(columns), time.perf_counter() - started, fts,
                        {k: round(v, 4) for k, v in phases.items()})


def _insert_rows(
    conn: sqlite3.Connection, table: str, columns: list[Column], batches: Iterator[Batch],
    total: int | None, progress: Progress | None, file: str | None, checked: set[str], verify: set[str],
) -> tuple[int, set[str], set[str]]:
    """Convert and insert batch by batch; a value that does not fit names its row and column.

    ``checked``: columns whose every value inference saw fit; ``verify``: columns typed from a
    sample, checked here batch by batch (a misfit raises _Resample). Returns the row count, the
    text columns with few distinct values in the first batch, and the int columns unique in it (keys).
    """
    names = [c.name for c in columns]
    known = set(names)
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote_identifier(table), ", ".join(map(quote_identifier, names)), ", ".join("?" * len(names))
    )
    done = 0
    few: set[str] | None = None
    keys: set[str] = set()
    for meta, cols, dicts in batches:
        if not known.issuperset(cols):
            if verify:
                raise _Resample()
            extra = next(k for k in cols if k not in known)
            index = next(i for i, d in enumerate(dicts or []) if extra in d) if dicts else 0
            row, line = meta[index]
            raise StorageError(
                f"row {row} has a column {extra!r} that the sampled rows did not have",
                file=file, row=row, line=line, column=extra,
            )
        converted = []
        for column in columns:
            values = cols.get(column.name) or [None] * len(meta)
            sampled = column.name in verify
            strings = dicts is None and column.name in cols  # a CSV column: str values only
            out = convert_sampled(values, column.type, strings=strings) if sampled else None
            if out is None and sampled and not _fits(values, column.type):
                raise _Resample()
            try:
                if out is None:
                    out = convert_column(values, column.type, checked=sampled or column.name in checked)
            except Unfit as unfit:
                row, line = meta[unfit.index]
                shown = repr(unfit.value)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise StorageError(
                    f"row {row}, column {column.name!r}: {shown} is not {describe_type(column.type)}",
                    file=file, row=row, line=line, column=column.name,
                ) from None
            _check_value_sizes(column, out, meta, file)
            converted.append(out)
        if few is None:
            few = {c.name for c, values in zip(columns, converted)
                   if c.type == "text" and not c.free_text and len(set(values)) <= min(FEW_VALUES, len(values) // 2)}
            keys = {c.name for c, values in zip(columns, converted)
                    if c.type == "int" and len(values) > 1 and len(set(values)) == len(values)}
        conn.executemany(sql, zip(*converted))
        done += len(meta)
        if progress is not None:
            progress(done, max(total, done) if total is not None else None)
    if progress is not None and total is not None and done and total != done:
        progress(done, done)  # the estimate was high (line breaks inside values)
    return done, few or set(), keys


def _fits(values: list[Any], typ: str) -> bool:
    """Whether a batch fits a type chosen from the sample, by the rules of inference (a zip code
    "02139" is not an int). List cells are only checked for brackets here; SQLite checks the JSON."""
    if typ == "text":
        return True
    if typ == "list" and all(type(v) is str for v in values):
        return all(s[0] == "[" and s[-1] == "]" for s in map(str.strip, values) if s)
    guess = ColumnGuess()
    guess.candidates = [typ]
    guess.add_batch(values)
    return bool(guess.candidates)


def _verify_lists(conn: sqlite3.Connection, table: str, columns: list[Column]) -> None:
    """Every cell of a sampled list column is a JSON array (checked by SQLite, in C), else resample."""
    for c in columns:
        name = quote_identifier(c.name)
        bad = conn.execute(
            f"SELECT 1 FROM {quote_identifier(table)} WHERE {name} IS NOT NULL "
            f"AND (json_valid({name}) = 0 OR json_type({name}) <> 'array') LIMIT 1"
        ).fetchone()
        if bad is not None:
            raise _Resample()


def _check_value_sizes(column: Column, values: list[Any], meta: list[tuple[int, int | None]], file: str | None) -> None:
    """Refuse a value the read-only KB could not return (SQLITE_LIMIT_LENGTH), naming its row and column."""
    if column.type in ("int", "float", "bool"):
        return
    if max(map(len, filter(None, values)), default=0) * 4 <= MAX_VALUE_BYTES:
        return  # even at 4 bytes a character, every value fits
    for index, value in enumerate(values):
        if isinstance(value, str) and len(value.encode("utf-8")) > MAX_VALUE_BYTES:
            row, line = meta[index]
            raise StorageError(
                f"row {row}, column {column.name!r}: a value of {len(value.encode('utf-8')):,} bytes is over the "
                f"limit of {MAX_VALUE_BYTES:,} bytes per cell", file=file, row=row, line=line, column=column.name,
            )


def _build_indexes(conn: sqlite3.Connection, table: str, columns: list[Column], few: set[str],
                   keys: set[str]) -> None:
    """Indexes for structured questions: numeric and date columns, few-valued text columns, and a
    lookup table per list column (core_engine.knowledge.kb.list_table_name)."""
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
        elif _has_lookup(c):
            lookup = quote_identifier(list_table_name(table, c.name))
            conn.execute(f"CREATE TABLE {lookup} (row_id INTEGER NOT NULL, value)")
            conn.execute(f"INSERT INTO {lookup} (row_id, value) SELECT t.rowid, j.value FROM {quoted} AS t, "
                         f"json_each(t.{quote_identifier(c.name)}) AS j")
            conn.execute(f"CREATE INDEX {quote_identifier(list_table_name(table, c.name) + '__value')} "
                         f"ON {lookup} (value, row_id)")


def _has_lookup(column: Column) -> bool:
    """A list column (not free text) with a plain name (a plain table name) gets a lookup table."""
    return column.type == "list" and not column.free_text and bool(_TABLE_NAME.fullmatch(column.name))


def _check_table_name(table: str) -> None:
    if not isinstance(table, str) or not _TABLE_NAME.fullmatch(table):
        raise StorageError("a table name must be letters, digits and underscores, not starting with a digit", table=table)
    lowered = table.lower()
    if lowered.startswith(("sqlite_", "_genie")) or lowered.endswith("_fts"):
        raise StorageError("table names starting with sqlite_ or _genie, or ending with _fts, are reserved", table=table)


def _clear_table(db: sqlite_utils.Database, table: str, replace: bool) -> None:
    """Refuse an existing table unless ``replace``; then drop it, its FTS index and its metadata."""
    found = db.execute(  # SQLite table names ignore case: "Restaurants" is "restaurants"
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [table]
    ).fetchone()
    if found is None:
        return
    if not replace:
        raise StorageError(f"table {found[0]!r} already exists; pass replace=True to overwrite it", table=table)
    fts = fts_table_name(found[0])
    if db[fts].exists():
        db.execute(f"DROP TABLE {quote_identifier(fts)}")
    db[found[0]].drop()
    if db[METADATA_TABLE].exists():
        for (column,) in db.execute(
            f"SELECT column_name FROM {METADATA_TABLE} WHERE table_name = ? AND type = 'list'", [found[0]]
        ).fetchall():
            db.execute(f"DROP TABLE IF EXISTS {quote_identifier(list_table_name(found[0], column))}")
        db.execute(f"DELETE FROM {METADATA_TABLE} WHERE table_name = ?", [found[0]])


def _build_fts(db: sqlite_utils.Database, table: str, columns: list[Column], *, hashsize: int | None = None) -> str:
    """A contentful FTS5 table over the free-text columns; rowid = the table's rowid.

    Contentful (not sqlite-utils' external-content index) because list columns
    are indexed flattened, and snippet()/highlight() then show clean text.
    """
    fts = fts_table_name(table)
    free = [c for c in columns if c.free_text]
    names = ", ".join(quote_identifier(c.name) for c in free)
    db.execute(f"CREATE VIRTUAL TABLE {quote_identifier(fts)} USING fts5({names}, tokenize='porter unicode61')")
    if hashsize:  # FTS5 flushes its pending terms at 1 MB by default: fewer, larger segments to merge
        try:
            db.execute(f"INSERT INTO {quote_identifier(fts)} ({quote_identifier(fts)}, rank) VALUES ('hashsize', ?)",
                       [hashsize])
        except sqlite3.OperationalError:
            pass  # an SQLite without the setting: the build is only slower
    values = ", ".join(
        f"(SELECT group_concat(j.value, char(10)) FROM json_each(t.{quote_identifier(c.name)}) AS j)"
        if c.type == "list" else f"t.{quote_identifier(c.name)}"
        for c in free
    )
    db.execute(f"INSERT INTO {quote_identifier(fts)} (rowid, {names}) SELECT t.rowid, {values} FROM {quote_identifier(table)} AS t")
    return fts


def _write_metadata(db: sqlite_utils.Database, table: str, columns: list[Column]) -> None:
    meta = db[METADATA_TABLE]
    meta.create(
        {"table_name": str, "column_name": str, "position": int, "type": str, "free_text": int},
        pk=("table_name", "column_name"), if_not_exists=True,
    )
    meta.insert_all(
        {"table_name": table, "column_name": c.name, "position": i, "type": c.type, "free_text": int(c.free_text)}
        for i, c in enumerate(columns)
    )
