"""Before a CSV import: detect the delimiter, preview the parsed rows, split list columns.

    sniff_delimiter(data)                        -> ";"
    preview(data, ";", split={"tags": ","})      -> Preview(columns, rows)   (rows as the importer will see them)
    normalise(data, ";", split={"tags": ","})    -> CSV bytes (comma-separated, list cells as JSON arrays)

Why a layer in front of `storage.kb.importer`: a semicolon file parsed with a comma
becomes one column and "imports successfully"; the user must see the parsed
columns before anything is written. Split-on-delimiter turns text like
"cleaning, implants" into the JSON array the importer stores as a list column.
The importer itself is untouched: it receives a normalised comma CSV.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from core_engine.errors import StorageError

__all__ = ["DELIMITERS", "Preview", "normalise", "preview", "sniff_delimiter"]

DELIMITERS = {",": "comma ,", ";": "semicolon ;", "\t": "tab", "|": "pipe |"}
SNIFF_BYTES = 64 * 1024


@dataclass(frozen=True)
class Preview:
    columns: list[str]
    rows: list[dict[str, Any]]
    total_rows: int


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StorageError(f"the file is not UTF-8 text (byte {exc.start}); save it as UTF-8 and upload again") \
            from exc


def sniff_delimiter(data: bytes, default: str = ",") -> str:
    """The most likely delimiter among `DELIMITERS` (csv.Sniffer on the first lines, then a count)."""
    sample = _text(data[:SNIFF_BYTES])
    lines = sample.splitlines()[:50]
    if len(lines) > 1 and not data[:SNIFF_BYTES].endswith(b"\n") and len(data) > SNIFF_BYTES:
        lines = lines[:-1]  # a cut last line would skew the count
    try:
        found = csv.Sniffer().sniff("\n".join(lines), delimiters="".join(DELIMITERS)).delimiter
        if found in DELIMITERS:
            return found
    except csv.Error:
        pass
    header = lines[0] if lines else ""
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else default


def _rows(data: bytes, delimiter: str) -> tuple[list[str], csv.DictReader]:
    if delimiter not in DELIMITERS:
        raise StorageError(f"unsupported delimiter {delimiter!r}; use one of {', '.join(map(repr, DELIMITERS))}")
    reader = csv.DictReader(io.StringIO(_text(data), newline=""), delimiter=delimiter)
    columns = [c.strip() for c in (reader.fieldnames or [])]
    if not columns:
        raise StorageError("the file has no header row")
    return columns, reader


def _split(value: Any, sep: str) -> Any:
    if value is None or str(value).strip() == "":
        return None
    text = str(value).strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            parsed = json.loads(text)
            if isinstance(parsed, list):
                return parsed
        except json.JSONDecodeError:
            pass
    return [part.strip() for part in text.split(sep) if part.strip()]


def _records(data: bytes, delimiter: str, split: dict[str, str] | None, limit: int | None):
    columns, reader = _rows(data, delimiter)
    split = split or {}
    unknown = [c for c in split if c not in columns]
    if unknown:
        raise StorageError(f"cannot split {', '.join(unknown)}: not a column of the file", columns=", ".join(columns))
    total = 0
    out = []
    for raw in reader:
        total += 1
        if limit is not None and len(out) >= limit:
            continue
        row = {c.strip() if c else "": v for c, v in raw.items()}
        if None in raw or "" in row and not row[""]:
            row.pop("", None)
        for col, sep in split.items():
            row[col] = _split(row.get(col), sep)
        out.append(row)
    return columns, out, total


def preview(data: bytes, delimiter: str, *, split: dict[str, str] | None = None, limit: int = 20) -> Preview:
    """The first `limit` rows as the importer will see them (split columns already lists)."""
    columns, rows, total = _records(data, delimiter, split, limit)
    return Preview(columns, rows, total)


def normalise(data: bytes, delimiter: str, *, split: dict[str, str] | None = None) -> bytes:
    """The file as a comma-separated CSV the importer reads, list cells written as JSON arrays."""
    columns, rows, _ = _records(data, delimiter, split, None)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: json.dumps(v, ensure_ascii=False) if isinstance(v, list) else v for k, v in row.items()})
    return buf.getvalue().encode("utf-8")
