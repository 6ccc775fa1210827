"""Reading and writing spreadsheet grids (CSV/TSV text) for the sheet layouts.

Both sheet loaders see a spec file as numbered records; a record number is the
spreadsheet row a user sees (1-based, counting the header and blank rows, and a
cell with line breaks still counts as one row), so every error can point at it.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from ..errors import SpecFormatError

TRUE_WORDS = frozenset({"true", "yes", "y", "1", "x"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", ""})


@dataclass(frozen=True)
class Record:
    """One non-blank row of a sheet: its 1-based row number and raw cells."""

    number: int
    cells: list[str]

    def at(self, index: int | None) -> str:
        """The raw cell at `index`, or "" when the row is short or the column absent."""
        if index is None or index >= len(self.cells):
            return ""
        return self.cells[index]


def cell_error(message: str, *, source: str, row: int, column: str) -> SpecFormatError:
    """A SpecFormatError whose message and context name the row and column."""
    return SpecFormatError(
        f"row {row}, column '{column}': {message}", file=source, row=row, column=column
    )


def sniff_delimiter(text: str) -> str:
    """Comma, tab or semicolon, judged on the first non-blank line."""
    for line in text.splitlines():
        if line.strip():
            counts = {d: line.count(d) for d in (",", "\t", ";")}
            best = max(counts, key=lambda d: counts[d])
            return best if counts[best] > counts[","] else ","
    return ","


def read_records(text: str, *, source: str) -> list[Record]:
    """All rows that have at least one non-blank cell, numbered as in a spreadsheet."""
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))
    records: list[Record] = []
    number = 0
    try:
        for cells in reader:
            number += 1
            if any(c.strip() for c in cells):
                records.append(Record(number, cells))
    except csv.Error as exc:
        raise SpecFormatError(
            f"row {number + 1}: unreadable CSV: {exc}", file=source, row=number + 1
        ) from exc
    if not records:
        raise SpecFormatError("empty file: no rows with content", file=source)
    return records


def write_grid(rows: list[list[str]]) -> str:
    """CSV text with `\\n` line ends; cells with commas, quotes or line breaks are quoted."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def header_key(cell: str) -> str:
    """Normalise a header cell: `Don't Ask` -> `dontask`, `Form Name` -> `wsname`."""
    key = re.sub(r"[^a-z0-9]", "", cell.lower())
    for prefix in ("worksheet", "form"):
        if key.startswith(prefix) and len(key) > len(prefix):
            return "ws" + key[len(prefix):]
    return key


def parse_bool(
    cell: str, *, default: bool, source: str, row: int, column: str
) -> bool:
    """A lenient boolean cell: TRUE/true/yes/1/x or FALSE/false/no/0; empty -> default."""
    word = cell.strip().lower()
    if not word:
        return default
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise cell_error(
        f"'{cell.strip()}' is not a yes/no value (use TRUE or FALSE)",
        source=source,
        row=row,
        column=column,
    )
