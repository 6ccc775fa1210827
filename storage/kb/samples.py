"""Building a sample project's `kb.sqlite` from its `data/*.jsonl` files.

The KB files are not committed (they are derived data), so tests and the CLI
rebuild them from the committed JSONL. The build is deterministic: files in
name order, rows in file order, free-text columns taken from the spec's `kb`
worksheets. It writes a temporary file of its own and renames it over the old one, so a
failed build never leaves a half-built KB behind and two processes building at once never
share a half-built file.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from core_engine.errors import StorageError
from storage.kb.importer import import_documents, import_file

__all__ = ["DOCUMENT_TABLES", "build_sample_kb", "ensure_sample_kb"]

DOCUMENT_TABLES = frozenset({"services_general_info"})
"""Tables imported as chunked articles (import_documents) rather than one row per record."""


def build_sample_kb(project_dir: str | Path, target: str | Path | None = None) -> Path:
    """Import every `data/*.jsonl` of a project into `kb.sqlite` (or `target`); return its path."""
    folder = Path(project_dir)
    if (folder / "data" / "tables.json").is_file():  # unpacked from a bundle: rebuild the exact tables
        from storage.bundles.folders import build_folder_kb
        return build_folder_kb(folder, Path(target) if target is not None else folder / "kb.sqlite")
    files = sorted((folder / "data").glob("*.jsonl"))
    if not files:
        raise StorageError("the project has no data/*.jsonl files", project=str(folder))
    out = Path(target) if target is not None else folder / "kb.sqlite"
    tmp = out.with_name(f".{out.name}.{uuid.uuid4().hex[:8]}.building")  # own name: builds may run at once
    free_text = _free_text_columns(folder)
    try:
        for path in files:
            table = path.stem
            if table in DOCUMENT_TABLES:
                import_documents(tmp, _read_jsonl(path), table)
            else:
                import_file(tmp, path, table, free_text=free_text.get(table))
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return out


def ensure_sample_kb(project_dir: str | Path) -> Path:
    """The project's `kb.sqlite`, built first if it is missing or older than its data."""
    folder = Path(project_dir)
    kb = folder / "kb.sqlite"
    data = list((folder / "data").glob("*.jsonl"))
    if kb.is_file() and all(p.stat().st_mtime <= kb.stat().st_mtime for p in data):
        return kb
    return build_sample_kb(folder)


def _free_text_columns(folder: Path) -> dict[str, list[str]]:
    """Per kb worksheet of the spec, its free_text fields (None when the spec says nothing)."""
    spec_file = folder / "spec.json"
    if not spec_file.is_file():
        return {}
    try:
        spec = json.loads(spec_file.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise StorageError(f"spec.json is not valid JSON: {exc}", file=str(spec_file)) from exc
    result: dict[str, list[str]] = {}
    for ws in spec.get("worksheets", []):
        if ws.get("kind") == "kb":
            names = [f["name"] for f in ws.get("fields", []) if f.get("free_text")]
            if names:
                result[ws["name"]] = names
    return result


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError as exc:
                raise StorageError(f"invalid JSON on line {number}: {exc}", file=str(path), line=number) from exc
    return rows


def build_on_load(path: Path) -> None:
    """`genie.project_loaders` hook: a project folder with data/ gets its kb.sqlite built when missing or stale.

    Returns None so the engine goes on loading the folder as usual.
    """
    folder = Path(path)
    if folder.is_dir() and (folder / "data").is_dir() and any((folder / "data").glob("*.jsonl")):
        ensure_sample_kb(folder)
    return None
