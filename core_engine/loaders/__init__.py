"""Spec files in and out: canonical JSON, the paper's sheet layout, the reference's layouts
(CSV, JSON, and Python classes read statically).

Every reader returns a validated `Spec` or raises a `SpecError`; layout problems
are `SpecFormatError`s naming the file and, for sheets, the row and column.
Writers produce canonical JSON or the paper's CSV layout, both lossless.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Literal

from ..errors import SpecFormatError
from ..spec.model import Spec
from .canonical import dumps_json, loads_json
from .files import SHEET_SUFFIXES, read_text, write_text_atomic
from .grid import read_records
from .paper_csv import dumps_paper_csv, is_paper_header, loads_paper_csv
from .python_classes import loads_python_classes, looks_like_python_classes
from .reference import (
    is_reference_header,
    loads_reference_csv,
    loads_reference_json,
    looks_like_header,
    looks_like_headerless_sheet,
)

Format = Literal["json", "paper_csv", "reference_csv", "reference_json", "python_classes"]
FORMATS: tuple[str, ...] = ("json", "paper_csv", "reference_csv", "reference_json", "python_classes")
READABLE_SUFFIXES = (".json", *SHEET_SUFFIXES, ".py", "")

_LOADERS: dict[str, Callable[..., Spec]] = {
    "json": loads_json,
    "paper_csv": loads_paper_csv,
    "reference_csv": loads_reference_csv,
    "reference_json": loads_reference_json,
    "python_classes": loads_python_classes,
}
_WRITERS: dict[str, Callable[[Spec], str]] = {".json": dumps_json, ".csv": dumps_paper_csv}

__all__ = [
    "FORMATS",
    "detect_format",
    "dumps_json",
    "dumps_paper_csv",
    "load_spec",
    "loads_spec",
    "write_spec",
]


def detect_format(text: str, filename: str = "") -> str:
    """Which layout `text` is in, judged on the file extension and the content.

    JSON (unless the file is a .csv/.tsv): an object is canonical, a list the
    reference's. Sheets: the reference's exact header, or no header but reference
    worksheet rows, is `reference_csv`; a header naming WS/Form Name, Type and Name
    in any order is `paper_csv`.
    """
    source = filename or "<string>"
    body = text.lstrip("\ufeff \t\r\n")
    if not body:
        raise SpecFormatError("empty file", file=source)
    suffix = Path(filename).suffix.lower()
    if suffix == ".py" or (suffix not in (".csv", ".tsv", ".json") and looks_like_python_classes(body)):
        return "python_classes"  # parsed with ast, never imported
    if suffix not in (".csv", ".tsv"):
        if body[0] == "[":
            return "reference_json"
        if body[0] == "{" or suffix == ".json":
            return "json"
    records = read_records(text, source=source)
    first = records[0].cells
    if is_reference_header(first):
        return "reference_csv"
    if is_paper_header(first) or looks_like_header(first):
        return "paper_csv"  # the loader names any missing column
    if looks_like_headerless_sheet(records):
        return "reference_csv"
    raise SpecFormatError(
        f"row {records[0].number}: not a spec sheet: no header row "
        "(WS Name, Type, Name, ...) and no worksheet row",
        file=source,
        row=records[0].number,
    )


def loads_spec(text: str, fmt: Format | None = None, *, source: str = "<string>") -> Spec:
    """Parse spec text in `fmt` (detected when None); `source` names it in errors."""
    name = fmt or detect_format(text, "" if source == "<string>" else source)
    loader = _LOADERS.get(name)
    if loader is None:
        raise SpecFormatError(f"unknown spec format '{name}' (one of {', '.join(FORMATS)})")
    return loader(text, source=source)


def load_spec(path: str | Path) -> Spec:
    """Read a spec file in any supported layout."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in READABLE_SUFFIXES:
        raise SpecFormatError(
            f"unsupported spec file type '{suffix}' (use .json, a sheet exported as .csv, "
            "or a worksheets.py of Python classes)",
            file=str(path),
        )
    if path.is_dir():
        raise SpecFormatError(f"{path} is a folder, not a spec file", file=str(path))
    return loads_spec(read_text(path), source=str(path))


def write_spec(spec: Spec, path: str | Path) -> None:
    """Save as canonical JSON (.json) or the paper's sheet layout (.csv), atomically."""
    path = Path(path)
    writer = _WRITERS.get(path.suffix.lower())
    if writer is None:
        raise SpecFormatError(
            f"cannot write a spec as '{path.suffix}' (use .json or .csv)", file=str(path)
        )
    write_text_atomic(path, writer(spec))
