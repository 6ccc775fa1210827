"""Reading spec files as text and writing them atomically.

A save must never leave a half-written spec behind (DESIGN §7): the text goes to
a temporary file in the same folder, is flushed to disk, then replaces the target.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from pathlib import Path

from ..errors import SpecFormatError, StorageError

SHEET_SUFFIXES = (".csv", ".tsv", ".txt")
NEW_FILE_MODE = 0o644


def read_text(path: Path) -> str:
    """The file's UTF-8 text (a BOM is dropped); errors name the file and position."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SpecFormatError(f"cannot read {path}: {exc.strerror or exc}", file=str(path)) from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8-sig")
        line = prefix.count("\n") + 1
        where = {"line": line}
        if path.suffix.lower() in SHEET_SUFFIXES:  # a sheet row can span lines
            where["row"] = sum(1 for _ in csv.reader(io.StringIO(prefix + "x", newline="")))
        label = f"row {where['row']}" if "row" in where else f"line {line}"
        raise SpecFormatError(
            f"{label}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save the file as UTF-8",
            file=str(path),
            offset=exc.start,
            **where,
        ) from exc


def write_text_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) in one step; StorageError if that fails."""
    path = Path(path)
    tmp_name = None
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else NEW_FILE_MODE
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
        tmp_name = None
    except OSError as exc:
        raise StorageError(f"cannot write {path}: {exc.strerror or exc}", file=str(path)) from exc
    finally:
        if tmp_name is not None and os.path.exists(tmp_name):
            os.unlink(tmp_name)
