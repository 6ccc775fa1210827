"""Project folders (reviewable source) to and from project files.

A folder is what `sample_projects/<name>/` looks like:

    spec.json            the spec (or spec.csv / worksheets.json / worksheets.csv)
    data/*.jsonl         KB tables, one JSON object per row
    data/tables.json     optional: the exact column types and free-text flags of each table
    tests/*.json         conversation tests (the file stem is the test's key)
    prompts/*.jinja2     prompt overrides
    few_shots.json       parser few-shot examples
    api.py               python APIs
    settings.json        optional project settings (never secrets)

Without ``data/tables.json`` the KB is built the way the samples are
(``storage.kb.samples``: types inferred, free-text columns from the spec,
document tables chunked). With it, each table is re-created with exactly the
recorded columns and rows, which is what makes bundle -> folder -> bundle
lossless (a chunked document table stays chunk-for-chunk the same).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

from core_engine.session.agent import SPEC_FILES
from core_engine import jsonsafe
from core_engine.errors import StorageError
from core_engine.knowledge.kb import SQLiteKB, quote_identifier
from core_engine.loaders import dumps_json, load_spec
from core_engine.spec.model import Spec

from ..safepath import safe_path

__all__ = ["FILE_NAMES", "TABLES_FILE", "build_folder_kb", "check_file_path", "read_folder", "write_folder"]

TABLES_FILE = "tables.json"
FILE_NAMES = ("api.py", "few_shots.json")
"""Project files besides ``prompts/*.jinja2`` that a project keeps (and a folder holds)."""


def check_file_path(path: str) -> str:
    """A project file path: api.py, few_shots.json or prompts/<name>.jinja2; nothing else, no '..'."""
    clean = str(path).replace("\\", "/").strip()
    if clean in FILE_NAMES:
        return clean
    parts = clean.split("/")
    if (len(parts) == 2 and parts[0] == "prompts" and parts[1].endswith(".jinja2") and not parts[1].startswith(".")
            and all(ch.isalnum() or ch in "_-." for ch in parts[1])):
        return clean
    raise StorageError("a project file is api.py, few_shots.json or prompts/<name>.jinja2", path=str(path))


def read_folder(folder: str | Path) -> dict[str, Any]:
    """Spec, files, tests and settings of a project folder (the KB is built separately)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise StorageError("not a project folder", folder=str(folder))
    spec_file = next((folder / n for n in SPEC_FILES if (folder / n).is_file()), None)
    if spec_file is None:
        raise StorageError(f"the folder has no spec file (expected one of {', '.join(SPEC_FILES)})",
                           folder=str(folder))
    spec = load_spec(spec_file)
    files = {name: (folder / name).read_text(encoding="utf-8") for name in FILE_NAMES if (folder / name).is_file()}
    for prompt in sorted((folder / "prompts").glob("*.jinja2")) if (folder / "prompts").is_dir() else []:
        files[f"prompts/{prompt.name}"] = prompt.read_text(encoding="utf-8")
    tests = {}
    for test_file in sorted((folder / "tests").glob("*.json")) if (folder / "tests").is_dir() else []:
        try:
            tests[test_file.stem] = jsonsafe.loads(test_file.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise StorageError(f"test file is not valid JSON: {exc}", file=str(test_file)) from exc
    settings: dict[str, Any] = {}
    if (folder / "settings.json").is_file():
        try:
            settings = jsonsafe.loads((folder / "settings.json").read_text(encoding="utf-8"))
        except ValueError as exc:
            raise StorageError(f"settings.json is not valid JSON: {exc}", folder=str(folder)) from exc
    return {"spec": spec, "files": files, "tests": tests, "settings": settings}


def has_kb_source(folder: Path) -> bool:
    return ((folder / "data").is_dir() and any((folder / "data").glob("*.jsonl"))) or (folder / "kb.sqlite").is_file()


def build_folder_kb(folder: str | Path, target: str | Path) -> Path:
    """Create the folder's KB tables in ``target`` (a new file): from data/ (exact or sample-style) or kb.sqlite."""
    from storage.kb.importer import import_records
    from storage.kb.samples import build_sample_kb

    folder, target = Path(folder), Path(target)
    data = folder / "data"
    schema_file = data / TABLES_FILE
    if schema_file.is_file():
        try:
            schema = jsonsafe.loads(schema_file.read_text(encoding="utf-8"))["tables"]
        except (ValueError, KeyError, TypeError) as exc:
            raise StorageError(f"{TABLES_FILE} is not a table description: {exc}", file=str(schema_file)) from exc
        # all tables, then one rename; a name of its own, as two processes may build the same folder at once
        building = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.building")
        try:
            for table, info in schema.items():
                columns = info["columns"]
                rows = list(_read_jsonl(safe_path(data, f"{table}.jsonl", what="table name")))
                import_records(building, rows, table, column_types={c["name"]: c["type"] for c in columns},
                               free_text=[c["name"] for c in columns if c.get("free_text")])
            os.replace(building, target)
        finally:
            building.unlink(missing_ok=True)
        return target
    if data.is_dir() and any(data.glob("*.jsonl")):
        return build_sample_kb(folder, target)
    if (folder / "kb.sqlite").is_file():
        _copy_database(folder / "kb.sqlite", target)
        return target
    raise StorageError("the folder has no KB data (data/*.jsonl or kb.sqlite)", folder=str(folder))


def _copy_database(source: Path, target: Path) -> None:
    import sqlite3
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    dst = sqlite3.connect(str(target))
    try:
        src.backup(dst)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot copy the knowledge base: {exc}", file=str(source)) from exc
    finally:
        src.close()
        dst.close()


def _read_jsonl(path: Path):
    if not path.is_file():
        raise StorageError("a table named in tables.json has no .jsonl file", file=str(path))
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                yield jsonsafe.loads(line)
            except ValueError as exc:
                raise StorageError(f"invalid JSON on line {number}: {exc}", file=str(path), line=number) from exc


# -- writing a folder ------------------------------------------------------------------


def write_folder(spec: Spec, files: dict[str, str], tests: dict[str, dict], settings: dict[str, Any],
                 kb_file: Path | None, out_dir: str | Path, *, extra: dict[str, str] | None = None) -> Path:
    """Write reviewable source into ``out_dir`` (which must not exist or be empty); all or nothing."""
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise StorageError("the output folder exists and is not empty; choose a new folder", folder=str(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / "spec.json").write_text(dumps_json(spec), encoding="utf-8")
        for name, text in files.items():
            path = safe_path(tmp, check_file_path(name))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if tests:
            (tmp / "tests").mkdir()
            for name, test in tests.items():
                safe_path(tmp / "tests", f"{_safe_stem(name)}.json", what="test name").write_text(
                    json.dumps(test, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if settings:
            (tmp / "settings.json").write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
        if kb_file is not None:
            write_kb_data(kb_file, tmp / "data")
        for name, text in (extra or {}).items():
            safe_path(tmp, name).write_text(text, encoding="utf-8")
        if out.exists():
            out.rmdir()
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _safe_stem(name: str) -> str:
    if not name or name.startswith(".") or any(ch in name for ch in "/\\\0"):
        raise StorageError("a test name cannot be empty, start with '.' or contain a slash", test=name)
    return name


def write_kb_data(kb_file: Path, data_dir: Path) -> dict[str, Any]:
    """Every KB table as data/<table>.jsonl (rowid order) plus data/tables.json; returns the description."""
    with SQLiteKB(kb_file) as kb:
        tables = kb.tables()
    if not tables:
        return {}
    data_dir.mkdir(parents=True, exist_ok=True)
    import sqlite3
    conn = sqlite3.connect(f"{kb_file.resolve().as_uri()}?mode=ro", uri=True)
    description: dict[str, Any] = {}
    try:
        for name in sorted(tables):
            info = tables[name]
            cols = [c.name for c in info.columns]
            select = ", ".join(quote_identifier(c) for c in cols)
            with safe_path(data_dir, f"{name}.jsonl", what="table name").open("w", encoding="utf-8") as fh:
                for row in conn.execute(f"SELECT {select} FROM {quote_identifier(name)} ORDER BY rowid"):
                    record = {c.name: _decode(c.type, v) for c, v in zip(info.columns, row)}
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            description[name] = {"columns": [{"name": c.name, "type": c.type, "free_text": c.free_text}
                                             for c in info.columns], "rows": info.row_count}
    finally:
        conn.close()
    (data_dir / TABLES_FILE).write_text(json.dumps({"tables": description}, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    return description


def _decode(typ: str, value: Any) -> Any:
    if typ == "list" and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    if typ == "bool" and value in (0, 1):
        return bool(value)
    return value

