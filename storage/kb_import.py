"""Importing CSV, JSON and JSONL files (and Python records) into a project's KB.

Each import is one transaction on the KB file: it either commits the new
table, its FTS5 index and its column metadata together, or leaves the
database exactly as it was (DESIGN §7: a bad import never loses data).

Files are read twice, streaming: a first pass checks the whole file (encoding,
shape) and infers column types, so every later value fits its type unless the
caller overrode it; the second pass converts and inserts batches of rows.
Types are the logical ones of :data:`core_engine.kb.COLUMN_TYPES` (see
``storage.kb_values`` for inference and stored forms). Free-text columns get a
``{table}_fts`` FTS5 index (porter tokenizer) whose rowid is the table's rowid;
a list-of-text column is indexed as its elements joined by newlines.

sqlite-utils creates the tables and writes the metadata; the bulk rows go
through ``executemany`` on the same connection, about three times faster than
``insert_all`` (which re-checks every value for JSON encoding) on 100k rows.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from core_engine.errors import StorageError
from core_engine.kb import COLUMN_TYPES, METADATA_TABLE, Column, fts_table_name, quote_identifier
from core_engine.kb import _MAX_VALUE_BYTES as MAX_VALUE_BYTES  # what SQLiteKB can read back
from storage.kb_values import Unfit, chunk_text, convert_column, describe_type, guess_columns

__all__ = [
    "ImportReport",
    "chunk_text",
    "import_documents",
    "import_file",
    "import_records",
    "infer_columns",
]

Progress = Callable[[int, int | None], None]
RawRecord = tuple[int, int | None, dict[str, Any]]  # (row number, file line or None, values)

BATCH_SIZE = 1000  # rows per insert batch; progress is reported once per batch
FORMATS = {".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}
RESERVED_COLUMNS = {"rowid", "oid", "_rowid_"}

_TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SQL_TYPES = {"int": int, "float": float, "bool": int, "date": str, "text": str, "list": str}


@dataclass
class ImportReport:
    """What an import created: the table, how many rows, its columns and FTS index."""

    table: str
    rows: int
    columns: list[Column]
    elapsed_s: float
    fts_table: str | None


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
    source = _reader(path, fmt)
    columns, total = guess_columns(_batched(r for _, _, r in source()))
    if total == 0:
        raise StorageError("the file has no rows", file=str(path))
    if not columns:
        raise StorageError("the file's records have no fields, so there are no columns to import", file=str(path))
    columns = _apply_options(columns, column_types, free_text, file=str(path))
    checked = {c.name for c in columns} - set(column_types or ())
    return _import(
        db_path, table, columns, source(), replace=replace, total=total, progress=progress, file=str(path),
        started=started, checked=checked,
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
        db_path, table, columns, numbered, replace=replace, total=total, progress=progress, file=None,
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
        db_path, table, columns, chunks(), replace=replace, total=None, progress=progress, file=None, started=started
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


def _batched(items: Iterable[Any], size: int = BATCH_SIZE) -> Iterator[list[Any]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


# -- reading files -------------------------------------------------------------


def _reader(path: Path, fmt: str | None) -> Callable[[], Iterator[RawRecord]]:
    """A factory of fresh record iterators over the file (it is read once per pass)."""
    kind = (fmt or FORMATS.get(path.suffix.lower(), "")).lower()
    if kind in ("csv", "tsv"):
        delimiter = "\t" if kind == "tsv" else ","
        return lambda: _read_csv(path, delimiter)
    if kind == "jsonl":
        return lambda: _read_jsonl(path)
    if kind == "json":
        records = _read_json(path)  # parsed once, kept for both passes
        return lambda: iter(records)
    raise StorageError(
        f"cannot tell the format of {path.name!r}; pass fmt='csv', 'tsv', 'json' or 'jsonl'", file=str(path)
    )


def _utf8_lines(path: Path) -> Iterator[str]:
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise StorageError(
                    f"line {number} is not UTF-8 text (byte {exc.start} of the line); save the file as UTF-8",
                    file=str(path), line=number,
                ) from exc
            yield line.removeprefix("\ufeff") if number == 1 else line


def _read_csv(path: Path, delimiter: str) -> Iterator[RawRecord]:
    reader = csv.reader(_utf8_lines(path), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
        if header is None or not any(h.strip() for h in header):
            raise StorageError("the file is empty (no header row)", file=str(path), line=1)
        names = [h.strip() for h in header]
        _check_names(names, file=str(path))
        row = 0
        for fields in reader:
            if not fields:
                continue  # blank line
            row += 1
            if len(fields) != len(names):
                raise StorageError(
                    f"row {row} has {len(fields)} fields but the header has {len(names)}",
                    file=str(path), row=row, line=reader.line_num,
                )
            yield row, reader.line_num, dict(zip(names, fields))
    except csv.Error as exc:
        raise StorageError(f"malformed CSV at line {reader.line_num}: {exc}", file=str(path), line=reader.line_num) from exc


def _read_jsonl(path: Path) -> Iterator[RawRecord]:
    row = 0
    for number, line in enumerate(_utf8_lines(path), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise StorageError(f"invalid JSON at line {number}: {exc.msg}", file=str(path), line=number) from exc
        if not isinstance(value, dict):
            raise StorageError(f"line {number} is a JSON {_json_kind(value)}, not an object", file=str(path), line=number)
        row += 1
        _check_names(list(value), file=str(path), row=row)
        yield row, number, value
    if row == 0:
        raise StorageError("the file is empty (no JSON objects)", file=str(path))


def _read_json(path: Path) -> list[RawRecord]:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise StorageError(f"line {line} is not UTF-8 text; save the file as UTF-8", file=str(path), line=line) from exc
    if not text.strip():
        raise StorageError("the file is empty", file=str(path))
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StorageError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", file=str(path), line=exc.lineno
        ) from exc
    if not isinstance(value, list):
        raise StorageError(f"a JSON file must hold an array of objects, not a JSON {_json_kind(value)}", file=str(path))
    records: list[RawRecord] = []
    for row, item in enumerate(value, 1):
        if not isinstance(item, dict):
            raise StorageError(f"item {row} of the array is a JSON {_json_kind(item)}, not an object", file=str(path), row=row)
        _check_names(list(item), file=str(path), row=row)
        records.append((row, None, item))
    return records


def _numbered_records(records: Iterable[dict[str, Any]]) -> Iterator[RawRecord]:
    for row, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise StorageError(f"row {row} is a {type(record).__name__}, not a dict", row=row)
        _check_names(list(record), file=None, row=row)
        yield row, None, record


def _json_kind(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")


def _check_names(names: list[Any], *, file: str | None, row: int | None = None) -> None:
    seen = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise StorageError("a column has no name", file=file, row=row)
        if name.lower() in RESERVED_COLUMNS:
            raise StorageError(f"column name {name!r} is reserved by SQLite; rename it", file=file, row=row, column=name)
        if name in seen:
            raise StorageError(f"column {name!r} appears twice", file=file, row=row, column=name)
        seen.add(name)


# -- writing the database ---------------------------------------------------------


def _import(
    db_path: str | Path, table: str, columns: list[Column], records: Iterator[RawRecord], *,
    replace: bool, total: int | None, progress: Progress | None, file: str | None, started: float,
    checked: set[str] = frozenset(),
) -> ImportReport:
    """Create ``table`` from ``records`` in one transaction: all of it commits, or nothing does."""
    existed = Path(db_path).exists()
    try:
        conn = sqlite3.connect(str(db_path), isolation_level=None)  # transactions are ours to control
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the knowledge base: {exc}", db=str(db_path)) from exc
    fts = None
    try:
        db = sqlite_utils.Database(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            _clear_table(db, table, replace)
            db[table].create({c.name: _SQL_TYPES[c.type] for c in columns})
            rows = _insert_rows(conn, table, columns, records, total, progress, file, checked)
            if any(c.free_text for c in columns):
                fts = _build_fts(db, table, columns)
            _write_metadata(db, table, columns)
            conn.execute("COMMIT")
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
    return ImportReport(table, rows, list(columns), time.perf_counter() - started, fts)


def _insert_rows(
    conn: sqlite3.Connection, table: str, columns: list[Column], records: Iterator[RawRecord],
    total: int | None, progress: Progress | None, file: str | None, checked: set[str],
) -> int:
    """Convert and insert batch by batch; a value that does not fit names its row and column."""
    names = [c.name for c in columns]
    known = set(names)
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote_identifier(table), ", ".join(map(quote_identifier, names)), ", ".join("?" * len(names))
    )
    done = 0
    for batch in _batched(records):
        dicts = [record for _, _, record in batch]
        for row, line, record in batch:
            if not known.issuperset(record):
                extra = next(k for k in record if k not in known)
                raise StorageError(
                    f"row {row} has a column {extra!r} that the sampled rows did not have",
                    file=file, row=row, line=line, column=extra,
                )
        converted = []
        for column in columns:
            try:
                values = [d.get(column.name) for d in dicts]
                converted.append(convert_column(values, column.type, checked=column.name in checked))
            except Unfit as unfit:
                row, line, _ = batch[unfit.index]
                shown = repr(unfit.value)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise StorageError(
                    f"row {row}, column {column.name!r}: {shown} is not {describe_type(column.type)}",
                    file=file, row=row, line=line, column=column.name,
                ) from None
        for column, values in zip(columns, converted):
            _check_value_sizes(column, values, batch, file)
        conn.executemany(sql, zip(*converted))
        done += len(batch)
        if progress is not None:
            progress(done, total)
    return done


def _check_value_sizes(column: Column, values: list[Any], batch: list[RawRecord], file: str | None) -> None:
    """Refuse a value the read-only KB could not return (SQLITE_LIMIT_LENGTH), naming its row and column."""
    if max((len(v) for v in values if isinstance(v, str)), default=0) * 4 <= MAX_VALUE_BYTES:
        return  # even at 4 bytes a character, every value fits
    for index, value in enumerate(values):
        if isinstance(value, str) and len(value.encode("utf-8")) > MAX_VALUE_BYTES:
            row, line, _ = batch[index]
            raise StorageError(
                f"row {row}, column {column.name!r}: a value of {len(value.encode('utf-8')):,} bytes is over the "
                f"limit of {MAX_VALUE_BYTES:,} bytes per cell", file=file, row=row, line=line, column=column.name,
            )


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
        db.execute(f"DELETE FROM {METADATA_TABLE} WHERE table_name = ?", [found[0]])


def _build_fts(db: sqlite_utils.Database, table: str, columns: list[Column]) -> str:
    """A contentful FTS5 table over the free-text columns; rowid = the table's rowid.

    Contentful (not sqlite-utils' external-content index) because list columns
    are indexed flattened, and snippet()/highlight() then show clean text.
    """
    fts = fts_table_name(table)
    free = [c for c in columns if c.free_text]
    names = ", ".join(quote_identifier(c.name) for c in free)
    db.execute(f"CREATE VIRTUAL TABLE {quote_identifier(fts)} USING fts5({names}, tokenize='porter unicode61')")
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
