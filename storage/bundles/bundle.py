"""Agent bundles (`.genie`): one file that runs an agent headless, and unpacks to reviewable source.

A bundle is a project file of kind "bundle": the head
spec as its only version, the KB tables with their full-text indexes and
column metadata, prompts, few-shot examples, api.py, conversation tests,
non-secret settings, and a manifest (``_genie_meta.manifest``, also written as
``manifest.json`` when unpacked): format version, spec hash, engine version,
creation time, and a content hash over spec, tables, tests, files and settings,
so two bundles of the same agent compare equal whatever their creation time.

The file starts as a page-level snapshot of the project (``VACUUM INTO``: fast,
and the KB's full-text indexes need no rebuilding); everything that is not
bundle content is then deleted with ``secure_delete`` on, and a final VACUUM
rewrites the file so no free page keeps anything deleted.

Secrets never enter a bundle: logs and old versions are dropped as above,
settings are filtered again, and http API headers that carry credentials
(Authorization, *key*, *token*, ...) are blanked and listed in
``manifest["redacted"]``. A developer's environment (OPENAI_API_KEY and
friends) is never read here.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
import tempfile
import uuid
from pathlib import Path
from typing import Any

from core_engine.errors import StorageError
from core_engine import jsonsafe
from core_engine.knowledge.kb import METADATA_TABLE, quote_identifier
from core_engine.spec.model import Spec

from .. import fileformat as ff
from ..projects import ProjectFile, Workspace, check_name

__all__ = ["BUNDLE_FORMAT", "BundleError", "export_bundle", "import_bundle", "read_manifest", "resolve_project"]

BUNDLE_FORMAT = "genie-bundle"


class BundleError(StorageError):
    """A bundle cannot be written, read or unpacked."""


# -- export ------------------------------------------------------------------------------


def resolve_project(source: ProjectFile | str | Path, scratch: Path | None = None) -> tuple[ProjectFile, bool]:
    """(ProjectFile, made_here) for a ProjectFile, a project/bundle file, a project folder or a workspace name.

    A folder is turned into a temporary project file under ``scratch`` (the caller removes it).
    """
    if isinstance(source, ProjectFile):
        return source, False
    path = Path(source)
    if path.is_file():
        return ProjectFile(path, readonly=True), True
    if path.is_dir():
        if scratch is None:
            raise BundleError("a folder needs a scratch directory to be exported", folder=str(path))
        return Workspace(scratch).from_sample(path, _safe_name(path.name)), True
    workspace = Workspace.default()
    try:
        check_name(str(source))
    except StorageError:
        raise BundleError("no project, bundle, folder or workspace project by this name", project=str(source)) from None
    if workspace.exists(str(source)):
        return workspace.open(str(source)), True
    raise BundleError("no project, bundle, folder or workspace project by this name", project=str(source),
                      workspace=str(workspace.root))


def _safe_name(name: str) -> str:
    clean = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in name).strip("_") or "project"
    return clean[:80]


def export_bundle(project_or_folder: ProjectFile | str | Path, out: str | Path) -> Path:
    """Write a bundle to ``out`` (built under a temporary name, then moved into place)."""
    out = Path(out)
    if out.suffix != ff.BUNDLE_SUFFIX:
        raise BundleError(f"a bundle file name ends in {ff.BUNDLE_SUFFIX}", file=str(out))
    with tempfile.TemporaryDirectory(prefix="genie-export-") as scratch:
        project, close = resolve_project(project_or_folder, Path(scratch))
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_name(f".{out.name}.{uuid.uuid4().hex[:8]}.tmp")
            try:
                _write_bundle(project, tmp)
                os.replace(tmp, out)
                ff.fsync_dir(out.parent)
            finally:
                tmp.unlink(missing_ok=True)
                tmp.with_name(tmp.name + "-journal").unlink(missing_ok=True)
        finally:
            if close:
                project.close()
    return out


def redact_spec(spec: Spec) -> tuple[Spec, list[str]]:
    """The spec with credential-carrying http headers blanked; the paths that were blanked."""
    from core_engine.secrets import redact_spec_apis
    clean = spec.model_copy(deep=True)
    return clean, redact_spec_apis(clean)


def _clean_settings(settings: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in settings.items() if not ff.find_secrets({k: v})}


def _write_bundle(project: ProjectFile, tmp: Path) -> None:
    """A page-level snapshot of the project, stripped to what a bundle holds, then VACUUMed.

    The final VACUUM rebuilds the file, so nothing deleted here (logs, old versions,
    settings) survives in a free page; ``secure_delete`` zeroes it even before that.
    """
    spec, redacted = redact_spec(project.spec())
    head = project.head()
    files, tests, settings = project.files(), project.tests(), _clean_settings(project.settings())
    tables = project.kb_tables()
    project.snapshot(tmp)
    conn = ff.connect(tmp)
    try:
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("PRAGMA foreign_keys = OFF")  # the _genie_* tables are dropped and re-created together
        conn.execute("BEGIN IMMEDIATE")
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                    "AND substr(name, 1, 7) = '_genie_'").fetchall():
            if name == METADATA_TABLE:
                conn.execute(f"DELETE FROM {METADATA_TABLE} WHERE table_name NOT IN "
                             f"({', '.join('?' * len(tables))})", tables)
            else:
                conn.execute(f"DROP TABLE {quote_identifier(name)}")
        ff.init_schema(conn, {"kind": "bundle", "created": _now(), "format": ff.FORMAT_VERSION,
                              "engine_version": _engine_version()})
        text = ff.spec_text(spec)
        digest = ff.spec_hash(text)
        conn.execute("INSERT INTO _genie_specs (hash, spec_json) VALUES (?, ?)", (digest, text))
        conn.execute("INSERT INTO _genie_versions (number, created, message, author, spec_hash, parent, diff_json) "
                     "VALUES (1, ?, ?, ?, ?, NULL, ?)",
                     (_now(), f"bundle of {project.name} version {head.number}", head.author, digest,
                      ff.dumps({"changes": [], "summary": "no changes"})))
        conn.executemany("INSERT INTO _genie_files (path, text, modified) VALUES (?, ?, ?)",
                         [(p, t, _now()) for p, t in sorted(files.items())])
        conn.executemany("INSERT INTO _genie_tests (name, test_json, modified) VALUES (?, ?, ?)",
                         [(n, json.dumps(t, ensure_ascii=False), _now()) for n, t in sorted(tests.items())])
        conn.executemany("INSERT INTO _genie_settings (key, value_json) VALUES (?, ?)",
                         [(k, ff.dumps(v)) for k, v in sorted(settings.items())])
        table_info = {t: describe_table(conn, t) for t in tables}
        manifest = {
            "format": BUNDLE_FORMAT, "format_version": ff.FORMAT_VERSION, "name": project.name,
            "spec_name": spec.name, "spec_hash": digest, "spec_version": head.number,
            "engine_version": _engine_version(), "created": _now(), "tables": table_info,
            "tests": sorted(tests), "files": sorted(files), "redacted": redacted,
        }
        manifest["content_hash"] = content_hash(digest, table_info, tests, files, settings)
        conn.execute("INSERT INTO _genie_meta (key, value) VALUES ('manifest', ?)",
                     (json.dumps(manifest, ensure_ascii=False),))
        conn.execute("COMMIT")
        conn.execute("VACUUM")
    except sqlite3.Error as exc:
        raise BundleError(f"cannot write the bundle: {exc}", file=str(tmp)) from exc
    finally:
        conn.close()


def content_hash(spec_digest: str, tables: dict[str, Any], tests: dict, files: dict, settings: dict) -> str:
    payload = ff.dumps({"spec": spec_digest, "tables": {t: i["hash"] for t, i in tables.items()},
                        "tests": tests, "files": files, "settings": settings})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def describe_table(conn: sqlite3.Connection, table: str) -> dict[str, Any]:
    """Rows, columns (type and free-text flag) and a digest of one KB table."""
    q = quote_identifier(table)
    columns = [r[1] for r in conn.execute(f"PRAGMA table_info({q})")]
    meta: list[tuple] = []
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (METADATA_TABLE,)).fetchone():
        meta = conn.execute(f"SELECT table_name, column_name, position, type, free_text FROM {METADATA_TABLE} "
                            "WHERE table_name = ? ORDER BY position", (table,)).fetchall()
    return {"rows": conn.execute(f"SELECT count(*) FROM {q}").fetchone()[0],
            "columns": [{"name": m[1], "type": m[3], "free_text": bool(m[4])} for m in meta] or
                       [{"name": c} for c in columns],
            "hash": table_digest(conn, q, columns, meta)}


def table_digest(conn: sqlite3.Connection, qualified: str, columns: list[str], meta: list[tuple]) -> str:
    """sha256 over the column description and every row (stored values, rowid order)."""
    h = hashlib.sha256(ff.dumps([list(m[1:]) for m in meta] or columns).encode())
    names = ", ".join(quote_identifier(c) for c in columns)
    cursor = conn.execute(f"SELECT {names} FROM {qualified} ORDER BY rowid")
    while batch := cursor.fetchmany(5000):
        h.update("\n".join(map(repr, batch)).encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


def _engine_version() -> str:
    import core_engine
    return core_engine.__version__


# -- reading and unpacking ----------------------------------------------------------------


def read_manifest(file: str | Path) -> dict[str, Any]:
    """The manifest of a bundle; BundleError if the file is not a bundle."""
    with _open_bundle(file) as bundle:
        return _manifest(bundle)


def _open_bundle(file: str | Path) -> ProjectFile:
    path = Path(file)
    try:
        bundle = ProjectFile(path, readonly=True)
    except StorageError as exc:
        raise BundleError(exc.message, **exc.context) from exc
    if bundle.kind != "bundle":
        bundle.close()
        raise BundleError("not a bundle (it is a project file; export it first with genie export)", file=str(path))
    return bundle


def _manifest(bundle: ProjectFile) -> dict[str, Any]:
    text = bundle.meta().get("manifest")
    if not text:
        raise BundleError("the bundle has no manifest", file=str(bundle.path))
    try:
        return jsonsafe.loads(text, what="the manifest")
    except ValueError as exc:
        raise BundleError(f"the bundle's manifest is not readable: {exc}", file=str(bundle.path)) from exc


def import_bundle(file: str | Path, out_dir: str | Path) -> Path:
    """Unpack a bundle into a new folder of reviewable source (spec.json, data/, tests/, ... manifest.json)."""
    from .folders import write_folder
    with _open_bundle(file) as bundle:
        manifest = _manifest(bundle)
        return write_folder(bundle.spec(), bundle.files(), bundle.tests(), bundle.settings(),
                            bundle.path if bundle.kb_tables() else None, out_dir,
                            extra={"manifest.json": json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"})
