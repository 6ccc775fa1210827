"""Import and export of whole projects for the Projects page (no Streamlit, so it is unit-tested).

Uploads arrive as bytes with the browser's file name; they are written to a private
temporary folder under that name (the storage layer detects the format from the
suffix and the content) and imported with `Workspace.import_path`. Exports are
written to a temporary folder by the storage API and returned as bytes for a
download button.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core_engine.errors import StorageError

__all__ = ["EXPORT_FORMATS", "IMPORT_SUFFIXES", "Export", "export_project", "import_upload", "suggest_name"]

IMPORT_SUFFIXES = ("json", "csv", "tsv", "py", "genie", "genieproj")
EXPORT_FORMATS = {
    "bundle": (".genie", "application/octet-stream", "Bundle (.genie)"),
    "json": (".json", "application/json", "Spec JSON"),
    "csv": (".csv", "text/csv", "Spec CSV (paper layout)"),
}
MAX_UPLOAD_BYTES = 200 * 1024 * 1024


@dataclass(frozen=True)
class Export:
    data: bytes
    file_name: str
    mime: str


def suggest_name(file_name: str, taken: set[str]) -> str:
    """A valid, unused project name from an upload's file name (`my spec (2).json` -> `my spec 2`)."""
    stem = Path(file_name).stem
    stem = re.sub(r"[^A-Za-z0-9 _.\-]", "", stem).strip(" ._-") or "imported"
    stem = stem[:70]
    name, n = stem, 2
    while name in taken:
        name, n = f"{stem} {n}", n + 1
    return name


def import_upload(workspace: Any, file_name: str, data: bytes, name: str | None = None) -> Any:
    """A new project from an uploaded spec file or bundle; StorageError/SpecError say what is wrong."""
    suffix = Path(file_name).suffix.lower().lstrip(".")
    if suffix not in IMPORT_SUFFIXES:
        raise StorageError(f"cannot import a .{suffix or '?'} file: use one of "
                           f"{', '.join('.' + s for s in IMPORT_SUFFIXES)}", file=file_name)
    if not data:
        raise StorageError("the uploaded file is empty", file=file_name)
    if len(data) > MAX_UPLOAD_BYTES:
        raise StorageError("the uploaded file is larger than 200 MB", file=file_name)
    target = name or suggest_name(file_name, {i.name for i in workspace.list()})
    if workspace.exists(target):
        raise StorageError(f"a project named {target!r} already exists; choose another name", name=target)
    with tempfile.TemporaryDirectory(prefix="genie-upload-") as tmp:
        safe = re.sub(r"[^A-Za-z0-9_.\-]", "_", Path(file_name).name) or f"upload.{suffix}"
        path = Path(tmp) / safe
        path.write_bytes(data)
        return workspace.import_path(path, target)


def export_project(project: Any, fmt: str) -> Export:
    """The project as a bundle, spec JSON or spec CSV, in memory."""
    if fmt not in EXPORT_FORMATS:
        raise StorageError(f"unknown export format {fmt!r} (bundle, json or csv)")
    suffix, mime, _ = EXPORT_FORMATS[fmt]
    with tempfile.TemporaryDirectory(prefix="genie-export-") as tmp:
        out = Path(tmp) / f"{project.name}{suffix}"
        written = {"bundle": project.export_bundle, "json": project.export_json, "csv": project.export_csv}[fmt](out)
        return Export(Path(written).read_bytes(), Path(written).name, mime)
