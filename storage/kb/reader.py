"""Reading KB import files: CSV/TSV, JSON and JSONL, as numbered records or column-wise batches.

The CSV reader is the C `csv` module straight over the decoded file, BATCH_SIZE rows at
a time; a row's file line is worked out only when an error message needs it. Every
reader names the line (and row) of what it cannot read: bad UTF-8, malformed CSV, a
row with the wrong number of fields, invalid JSON, a reserved or repeated column name.
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from core_engine.errors import StorageError

RawRecord = tuple[int, int | None, dict[str, Any]]  # (row number, file line or None, values)
# (row, line) of each row; the values column by column; the records themselves when they were dicts
Batch = tuple[Any, dict[str, list[Any]], list[dict[str, Any]] | None]

BATCH_SIZE = 1000  # rows per insert batch; progress is reported once per batch
FORMATS = {".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}
RESERVED_COLUMNS = {"rowid", "oid", "_rowid_"}


def _batched(items: Iterable[Any], size: int = BATCH_SIZE) -> Iterator[list[Any]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def _format(path: Path, fmt: str | None) -> str:
    kind = (fmt or FORMATS.get(path.suffix.lower(), "")).lower()
    if kind not in ("csv", "tsv", "json", "jsonl"):
        raise StorageError(
            f"cannot tell the format of {path.name!r}; pass fmt='csv', 'tsv', 'json' or 'jsonl'", file=str(path)
        )
    return kind


def _reader(path: Path, kind: str, records: list[RawRecord] | None) -> Callable[[], Iterator[RawRecord]]:
    """A factory of fresh record iterators over the file (it is read once per pass)."""
    if kind in ("csv", "tsv"):
        delimiter = "\t" if kind == "tsv" else ","
        return lambda: _read_csv(path, delimiter)
    if kind == "jsonl":
        return lambda: _read_jsonl(path)
    assert records is not None
    return lambda: iter(records)


def _file_batches(path: Path, kind: str, records: list[RawRecord] | None) -> Iterator[Batch]:
    if kind in ("csv", "tsv"):
        return _csv_batches(path, "\t" if kind == "tsv" else ",")
    return _dict_batches(_reader(path, kind, records)())


def _dict_batches(records: Iterable[RawRecord]) -> Iterator[Batch]:
    """Batches of dict records, turned column-wise (a key missing from a record is None)."""
    for batch in _batched(records):
        dicts = [record for _, _, record in batch]
        names: dict[str, None] = {}
        last_keys = None
        for record in dicts:
            if record.keys() != last_keys:
                names.update(dict.fromkeys(record))
                last_keys = record.keys()
        cols = {name: [d.get(name) for d in dicts] for name in names}
        yield [(row, line) for row, line, _ in batch], cols, dicts


def _csv_batches(path: Path, delimiter: str) -> Iterator[Batch]:
    """The CSV read by the C reader straight from the file, BATCH_SIZE rows at a time, column-wise."""
    try:
        with path.open("r", encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle, delimiter=delimiter, strict=True)
            try:
                header = next(reader, None)
                if header is None or not any(h.strip() for h in header):
                    raise StorageError("the file is empty (no header row)", file=str(path), line=1)
                names = [h.strip() for h in header]
                _check_names(names, file=str(path))
                width, row = len(names), 0
                while rows := list(itertools.islice(reader, BATCH_SIZE)):
                    if not all(rows):
                        rows = [r for r in rows if r]  # blank lines
                        if not rows:
                            continue
                    first, row = row + 1, row + len(rows)
                    # one line per row so far (no blank lines, no line breaks in values): line = row + 1
                    meta = _CsvRows(path, delimiter, first, len(rows), reader.line_num == row + 1)
                    if len(rows[0]) != width or len(set(map(len, rows))) != 1:
                        bad = next(i for i, r in enumerate(rows) if len(r) != width)
                        raise StorageError(
                            f"row {first + bad} has {len(rows[bad])} fields but the header has {width}",
                            file=str(path), row=first + bad, line=meta[bad][1],
                        )
                    yield meta, dict(zip(names, map(list, zip(*rows)))), None
            except csv.Error as exc:
                raise StorageError(f"malformed CSV at line {reader.line_num}: {exc}", file=str(path),
                                   line=reader.line_num) from exc
    except UnicodeDecodeError:
        for _ in _utf8_lines(path):  # raises the error that names the line
            pass
        raise


class _CsvRows:
    """(row, line) of each row of a CSV batch, for error messages; the line is computed only
    when asked, by re-reading the file when rows and lines do not match one to one."""

    def __init__(self, path: Path, delimiter: str, first: int, count: int, regular: bool) -> None:
        self.path, self.delimiter, self.first, self.count, self.regular = path, delimiter, first, count, regular

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> tuple[int, int | None]:
        row = self.first + index
        if self.regular:
            return row, row + 1
        for number, line, _ in _read_csv(self.path, self.delimiter):
            if number == row:
                return row, line
        return row, None


def _count_rows(path: Path, kind: str) -> int:
    """Rows of a CSV (non-blank lines after the header) or JSONL file, counted in C; for the
    progress total (a CSV value with a line break in it makes this an overestimate)."""
    with path.open("rb") as handle:
        lines = sum(map(bool, map(bytes.strip, handle)))
    return max(0, lines - 1) if kind in ("csv", "tsv") else lines


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
