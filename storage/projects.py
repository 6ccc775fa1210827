"""Projects: one SQLite file per project (`.genieproj`) in a workspace folder.

A project file holds the spec's whole version history, the KB tables, settings
(never secrets), project files (prompts, few-shot examples, api.py),
conversation tests and conversation logs; see docs/storage.md for the tables.
Every write is one ``BEGIN IMMEDIATE`` transaction; a spec is never changed in
place: each save adds a version (with a structured diff against the previous
one), and restoring an old version adds a new one.

Concurrent sessions: ``save_spec(..., base_version=n)`` raises ConflictError
when someone else saved after version n, instead of silently replacing their
work. New project files are built under a temporary name and linked into place,
so a crash while creating one never leaves a half-made project behind.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from core_engine.errors import StorageError
from core_engine import jsonsafe
from core_engine.loaders import load_spec, loads_spec, write_spec
from core_engine.spec.model import Spec
from core_engine.spec.syntax import parse_python

from . import fileformat as ff
from .logs import ConversationLog, LogInfo, list_logs, new_log, now
from .spec_diff import SpecDiff, diff_specs

if TYPE_CHECKING:
    from core_engine.session.agent import Agent
    from storage.kb.importer import ImportReport

__all__ = ["ConflictError", "ProjectFile", "ProjectInfo", "VersionInfo", "Workspace"]

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "sample_projects"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.\-]{0,79}")
_TEST_NAME = re.compile(r"[^/\\\x00-\x1f]{1,120}")


@dataclass(frozen=True)
class ProjectInfo:
    name: str
    path: Path
    modified: dt.datetime
    versions: int
    description: str
    error: str | None = None  # set when the file cannot be opened (the listing still shows it)


@dataclass(frozen=True)
class VersionInfo:
    number: int
    created: dt.datetime
    message: str
    spec_hash: str
    author: str
    summary: str = ""  # what changed against the previous version, one line


class ConflictError(StorageError):
    """Someone else saved the spec after ``base_version``; ``head`` is their version."""

    def __init__(self, message: str, head: VersionInfo, **context: object) -> None:
        super().__init__(message, **context)
        self.head = head


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name.endswith((".", " ")):
        raise StorageError("a project name is 1-80 letters, digits, spaces, '_', '-' or '.', starting with a letter "
                           "or digit", name=repr(name))
    return name


# ---------------------------------------------------------------------------- project file


class ProjectFile:
    """An open project file (or, read-only, a bundle). Cheap to open; safe to share between threads."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.name = self.path.stem
        self.readonly = readonly
        what = "Genie bundle" if self.path.suffix == ff.BUNDLE_SUFFIX else "Genie project"
        conn, meta = ff.open_checked(self.path, what=what, readonly=readonly)
        self.kind = meta["kind"]
        self._meta = meta
        self._store = ff.Store(conn, self.path)
        self._specs: dict[str, Spec] = {}

    def __repr__(self) -> str:
        return f"ProjectFile({str(self.path)!r})"

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> "ProjectFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def meta(self) -> dict[str, str]:
        return dict(self._store.query("SELECT key, value FROM _genie_meta"))

    def _write(self):
        if self.readonly:
            raise StorageError("this file is open read-only (a bundle); import it into a project to change it",
                               file=str(self.path))
        return self._store.write()

    # -- spec and versions -------------------------------------------------------------

    def spec(self, version: int | None = None) -> Spec:
        """The spec at ``version`` (the latest when None); a private copy, safe to edit."""
        row = self._version_row(version)
        spec = self._specs.get(row[4])
        if spec is None:
            spec = loads_spec(self._spec_json(row[4]), "json", source=f"{self.path.name} version {row[0]}")
            self._specs[row[4]] = spec
        return spec.model_copy(deep=True)

    def _spec_json(self, digest: str) -> str:
        return self._store.query("SELECT spec_json FROM _genie_specs WHERE hash = ?", (digest,))[0][0]

    def head(self) -> VersionInfo:
        return _version_info(self._version_row(None))

    def versions(self) -> list[VersionInfo]:
        """Newest first."""
        rows = self._store.query(f"SELECT {_VERSION_COLUMNS} FROM _genie_versions ORDER BY number DESC")
        return [_version_info(r) for r in rows]

    def save_spec(self, spec: Spec | dict, message: str = "", *, base_version: int | None = None,
                  author: str = "") -> VersionInfo:
        """Add a version. ConflictError if ``base_version`` is not the head; an unchanged spec adds nothing."""
        if isinstance(spec, dict):
            spec = loads_spec(json.dumps(spec), "json", source="spec")
        if not isinstance(spec, Spec):
            raise StorageError(f"save_spec needs a Spec, not a {type(spec).__name__}")
        text = ff.spec_text(spec)
        digest = ff.spec_hash(text)
        with self._write() as conn:
            row = conn.execute(f"SELECT {_VERSION_COLUMNS} FROM _genie_versions ORDER BY number DESC LIMIT 1"
                               ).fetchone()
            head = _version_info(row) if row else None
            if base_version is not None and head is not None and head.number != base_version:
                raise ConflictError(
                    f"the spec was saved by someone else (version {head.number}"
                    f"{', ' + head.author if head.author else ''}: {head.message or 'no message'}) after version "
                    f"{base_version} that your edits started from; reload and merge your changes",
                    head=head, file=str(self.path), base_version=base_version, head_version=head.number)
            if head is not None and head.spec_hash == digest:
                return head
            diff = diff_specs(_json(self._spec_json(head.spec_hash), f"the spec of version {head.number}"),
                              json.loads(text)) if head else SpecDiff()
            _insert_version(conn, text, digest, message, author, head.number if head else None, diff)
        return self.head()

    def diff(self, a: int, b: int) -> SpecDiff:
        """What changed from version ``a`` to version ``b``."""
        return diff_specs(self.spec(a), self.spec(b))

    def restore(self, number: int, message: str | None = None) -> VersionInfo:
        """Make version ``number`` the latest again, as a new version (history is kept)."""
        spec = self.spec(number)
        return self.save_spec(spec, message if message is not None else f"restored version {number}")

    def _version_row(self, version: int | None) -> tuple:
        if version is None:
            rows = self._store.query(f"SELECT {_VERSION_COLUMNS} FROM _genie_versions ORDER BY number DESC LIMIT 1")
        else:
            rows = self._store.query(f"SELECT {_VERSION_COLUMNS} FROM _genie_versions WHERE number = ?", (version,))
        if not rows:
            raise StorageError("the project has no spec version" if version is None else f"no version {version}",
                               file=str(self.path), version=version)
        return rows[0]

    # -- settings and files ------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        return {k: self._json(v, f"setting {k!r}") for k, v in self._store.query(
            "SELECT key, value_json FROM _genie_settings ORDER BY key")}

    def _json(self, text: str, what: str) -> Any:
        """Stored JSON, read with the depth limit (core_engine.jsonsafe); a clear StorageError otherwise."""
        try:
            return jsonsafe.loads(text, what=what)
        except ValueError as exc:
            raise StorageError(f"the project file holds a bad {what}: {exc}", file=str(self.path)) from exc

    def set_settings(self, values: dict[str, Any]) -> None:
        """Merge ``values`` into the settings (a None value removes the key). Secrets are refused."""
        if not isinstance(values, dict):
            raise StorageError("settings must be a dict")
        secrets = ff.find_secrets(values)
        if secrets:
            raise StorageError(f"settings never hold secrets; refused {', '.join(secrets)} (keep keys in the "
                               "environment, e.g. OPENAI_API_KEY)", file=str(self.path))
        with self._write() as conn:
            for key, value in values.items():
                if value is None:
                    conn.execute("DELETE FROM _genie_settings WHERE key = ?", (str(key),))
                else:
                    conn.execute("INSERT OR REPLACE INTO _genie_settings (key, value_json) VALUES (?, ?)",
                                 (str(key), ff.dumps(value)))

    def files(self) -> dict[str, str]:
        return dict(self._store.query("SELECT path, text FROM _genie_files ORDER BY path"))

    def put_file(self, path: str, text: str) -> None:
        """Store prompts/<name>.jinja2, few_shots.json (a JSON list) or api.py (valid Python)."""
        from .bundles.folders import check_file_path
        from .trust import reviewed_code
        path = check_file_path(path)
        _check_file_text(path, text)
        files = self.files()
        # the user's own code (typed or pasted by them) is trusted as saved, unless other code of the
        # project is still waiting for review (then the whole text is reviewed together)
        rest = reviewed_code({p: t for p, t in files.items() if p != path})
        keep_trusted = rest is None or self.code_trusted()
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO _genie_files (path, text, modified) VALUES (?, ?, ?)",
                         (path, text, now().isoformat()))
            code = reviewed_code({**files, path: text})
            if code is not None and keep_trusted and (path == "api.py" or path.startswith("prompts/")):
                _record_trust(conn, code)

    def code_trusted(self) -> bool:
        """True when there is no code (api.py, prompt templates), or this user has trusted its exact text."""
        from .trust import is_trusted, reviewed_code
        code = reviewed_code(self.files())
        return code is None or (self.kind == "project" and is_trusted(self.meta(), code))

    def reviewed_code(self) -> str | None:
        """The text the review shows and trust covers: api.py and the prompt templates (storage.trust)."""
        from .trust import reviewed_code
        return reviewed_code(self.files())

    def trust_code(self, digest: str | None = None) -> None:
        """Record that the user trusts the current code (``digest``: the sha256 of what they reviewed)."""
        from .trust import code_digest
        code = self.reviewed_code()
        if code is None:
            return
        if digest is not None and digest != code_digest(code):
            raise StorageError("the project's code changed since it was reviewed; review it again",
                               file=str(self.path))
        with self._write() as conn:
            _record_trust(conn, code)

    def delete_file(self, path: str) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM _genie_files WHERE path = ?", (path,))

    # -- knowledge base ------------------------------------------------------------------

    def schema_version(self) -> int:
        """SQLite's schema cookie: it changes when a KB table is imported, replaced or dropped, not
        when a conversation log is written (a cache key that survives the chat's own writes)."""
        return int(self._store.query("PRAGMA schema_version")[0][0])

    def kb_tables(self) -> list[str]:
        """The KB tables (FTS indexes and `_genie_*` tables excluded), by name."""
        from core_engine.knowledge.kb import METADATA_TABLE, list_table_name
        rows = self._store.query("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        virtual = {n for n, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL TABLE")}
        shadow = {v + s for v in virtual for s in ("_data", "_idx", "_content", "_docsize", "_config")}
        if any(n == METADATA_TABLE for n, _ in rows):  # list columns' lookup tables belong to their table
            shadow |= {list_table_name(t, c) for t, c in self._store.query(
                f"SELECT table_name, column_name FROM {METADATA_TABLE} WHERE type = 'list'")}
        return sorted(n for n, _ in rows if n not in virtual | shadow and not n.startswith(("sqlite_", "_genie_")))

    def import_kb(self, file: str | Path, table: str, *, replace: bool = False, progress=None,
                  **options: Any) -> "ImportReport":
        """Import a CSV/TSV/JSON/JSONL file as a KB table, in one transaction (see storage.kb.importer)."""
        from .kb.importer import import_file
        self._check_writable()
        return import_file(self.path, file, table, replace=replace, progress=progress, **options)

    def import_kb_records(self, records: Any, table: str, *, replace: bool = False, progress=None,
                          **options: Any) -> "ImportReport":
        """Import Python dicts as a KB table, in one transaction."""
        from .kb.importer import import_records
        self._check_writable()
        return import_records(self.path, records, table, replace=replace, progress=progress, **options)

    def drop_kb_table(self, table: str) -> None:
        """Remove a KB table with its full-text index and column metadata."""
        from core_engine.knowledge.kb import METADATA_TABLE, fts_table_name, list_table_name, quote_identifier
        if table not in self.kb_tables():
            raise StorageError(f"no KB table {table!r}", file=str(self.path), table=table)
        with self._write() as conn:
            conn.execute(f"DROP TABLE IF EXISTS {quote_identifier(fts_table_name(table))}")
            conn.execute(f"DROP TABLE {quote_identifier(table)}")
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (METADATA_TABLE,)).fetchone():
                for (column,) in conn.execute(f"SELECT column_name FROM {METADATA_TABLE} "
                                              "WHERE table_name = ? AND type = 'list'", (table,)).fetchall():
                    conn.execute(f"DROP TABLE IF EXISTS {quote_identifier(list_table_name(table, column))}")
                conn.execute(f"DELETE FROM {METADATA_TABLE} WHERE table_name = ?", (table,))

    def kb_path(self) -> Path:
        """The file SQLiteKB opens read-only (it hides and refuses the `_genie_*` tables)."""
        return self.path

    def _check_writable(self) -> None:
        if self.readonly:
            raise StorageError("this file is open read-only (a bundle)", file=str(self.path))

    # -- conversation tests and logs -------------------------------------------------------

    def tests(self) -> dict[str, dict]:
        return {n: self._json(t, f"test {n!r}") for n, t in self._store.query(
            "SELECT name, test_json FROM _genie_tests ORDER BY name")}

    def put_test(self, name: str, test: dict) -> None:
        """Add or replace a conversation test (DESIGN §6 shape: name, parser, turns)."""
        _check_test(name, test)
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO _genie_tests (name, test_json, modified) VALUES (?, ?, ?)",
                         (name, json.dumps(test, ensure_ascii=False), now().isoformat()))

    def delete_test(self, name: str) -> None:
        with self._write() as conn:
            if conn.execute("DELETE FROM _genie_tests WHERE name = ?", (name,)).rowcount == 0:
                raise StorageError(f"no test named {name!r}", file=str(self.path), test=name)

    def logs(self) -> list[LogInfo]:
        """Newest first."""
        return list_logs(self._store)

    def open_log(self, log_id: str) -> ConversationLog:
        return ConversationLog(self._store, log_id)

    def start_log(self, *, parser: str, rg: str, title: str = "") -> ConversationLog:
        self._check_writable()
        return new_log(self._store, parser=parser, rg=rg, title=title, spec_version=self.head().number)

    def delete_log(self, log_id: str) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM _genie_log_turns WHERE log_id = ?", (log_id,))
            conn.execute("DELETE FROM _genie_logs WHERE id = ?", (log_id,))

    # -- running and exporting ------------------------------------------------------------

    def agent(self) -> "Agent":
        """The engine Agent for the head spec, the KB in this file, and the project's files and tests."""
        from .bundles.agent_loader import agent_for
        return agent_for(self)

    def export_bundle(self, out: str | Path) -> Path:
        from .bundles.bundle import export_bundle
        return export_bundle(self, out)

    def export_json(self, out: str | Path) -> Path:
        return _export_spec(_redacted(self.spec()), out, ".json")

    def export_csv(self, out: str | Path) -> Path:
        return _export_spec(_redacted(self.spec()), out, ".csv")

    def export_folder(self, out_dir: str | Path) -> Path:
        """Reviewable source (spec.json, data/, tests/, prompts/, few_shots.json, api.py) in a new folder."""
        from .bundles.folders import write_folder
        return write_folder(_redacted(self.spec()), self.files(), self.tests(), self.settings(),
                            self.path if self.kb_tables() else None, out_dir)

    def snapshot(self, target: str | Path) -> Path:
        """A consistent, compact copy of the whole file at ``target`` (``VACUUM INTO``; target must not exist)."""
        target = Path(target)
        if target.exists():
            raise StorageError("the snapshot target exists", file=str(target))
        self._store.query("VACUUM INTO ?", (str(target),))
        return target

    def check(self) -> list[str]:
        """SQLite's full integrity check: ["ok"] for a healthy file."""
        return [r[0] for r in self._store.query("PRAGMA integrity_check")]


_VERSION_COLUMNS = "number, created, message, author, spec_hash, diff_json"


def _record_trust(conn: sqlite3.Connection, code: str) -> None:
    from .trust import TRUST_KEY, record_for
    conn.execute("INSERT OR REPLACE INTO _genie_meta (key, value) VALUES (?, ?)", (TRUST_KEY, record_for(code)))


def _json(text: str, what: str) -> Any:
    """JSON from the project file itself (another person's file may hold anything): depth-limited."""
    try:
        return jsonsafe.loads(text, what=what)
    except ValueError as exc:
        raise StorageError(str(exc)) from exc  # names what was read


def _version_info(row: tuple) -> VersionInfo:
    diff = _json(row[5], f"the change summary of version {row[0]}") if row[5] else {}
    summary = diff.get("summary", "") if isinstance(diff, dict) else ""
    return VersionInfo(number=row[0], created=dt.datetime.fromisoformat(row[1]), message=row[2], spec_hash=row[4],
                       author=row[3], summary=summary)


def _insert_version(conn: sqlite3.Connection, text: str, digest: str, message: str, author: str,
                    parent: int | None, diff: SpecDiff) -> int:
    conn.execute("INSERT OR IGNORE INTO _genie_specs (hash, spec_json) VALUES (?, ?)", (digest, text))
    number = (parent or 0) + 1
    conn.execute("INSERT INTO _genie_versions (number, created, message, author, spec_hash, parent, diff_json) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (number, now().isoformat(), message or "", author or "", digest, parent, ff.dumps(diff.to_dict())))
    return number


def _check_file_text(path: str, text: str) -> None:
    if not isinstance(text, str):
        raise StorageError("file content must be text", path=path)
    if path == "few_shots.json":
        try:
            data = jsonsafe.loads(text, what="few_shots.json")
        except ValueError as exc:
            raise StorageError(f"few_shots.json is not valid JSON: {exc}", path=path) from exc
        if not isinstance(data, list):
            raise StorageError("few_shots.json must hold a list of examples", path=path)
    elif path == "api.py":
        try:
            parse_python(text, filename="api.py")
        except SyntaxError as exc:
            raise StorageError(f"api.py has a syntax error: {exc.msg}", path=path, line=exc.lineno) from exc


def _check_test(name: str, test: Any) -> None:
    if not isinstance(name, str) or not _TEST_NAME.fullmatch(name) or name.startswith(".") or name != name.strip():
        raise StorageError("a test name is 1-120 characters with no slashes, not starting with '.'", test=repr(name))
    if not isinstance(test, dict) or not isinstance(test.get("turns"), list):
        raise StorageError("a test is a dict with a 'turns' list", test=name)
    for i, turn in enumerate(test["turns"], start=1):
        if not isinstance(turn, dict) or not isinstance(turn.get("user"), str):
            raise StorageError(f"turn {i} needs a 'user' string", test=name, turn=i)
    try:
        json.dumps(test)
    except (TypeError, ValueError) as exc:
        raise StorageError(f"the test is not JSON-serialisable: {exc}", test=name) from exc


def _redacted(spec: Spec) -> Spec:
    """Every export blanks literal http credentials (core_engine.secrets); ${env:NAME} references stay."""
    from core_engine.secrets import redact_spec_apis
    redact_spec_apis(spec)  # spec() returns a private copy
    return spec


def _export_spec(spec: Spec, out: str | Path, suffix: str) -> Path:
    out = Path(out)
    if out.suffix.lower() != suffix:
        raise StorageError(f"the output file must end in {suffix}", file=str(out))
    write_spec(spec, out)
    return out


# ---------------------------------------------------------------------------- creating files


def build_project_file(path: Path, fill: Callable[[Path], None], *, kind: str = "project",
                       base: Callable[[Path], None] | None = None) -> Path:
    """Create ``path`` all-or-nothing: ``base`` may lay down KB tables, ``fill`` adds the rest; never overwrites."""
    if path.exists():
        raise StorageError(f"{path.name} already exists", file=str(path))
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        if base is not None:
            base(tmp)
        conn = ff.connect(tmp, create=True)
        try:
            conn.execute("BEGIN IMMEDIATE")
            ff.init_schema(conn, {"kind": kind, "created": now().isoformat(), "format": ff.FORMAT_VERSION,
                                  "engine_version": _engine_version()})
            conn.execute("COMMIT")
        finally:
            conn.close()
        fill(tmp)
        try:
            os.link(tmp, path)  # atomic and never replaces an existing project
        except FileExistsError:
            raise StorageError(f"{path.name} already exists", file=str(path)) from None
        ff.fsync_dir(path.parent)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            leftover.unlink(missing_ok=True)
    return path


def _engine_version() -> str:
    import core_engine
    return core_engine.__version__


def _fill_from_content(spec: Spec, files: dict[str, str], tests: dict[str, dict], settings: dict[str, Any],
                       message: str, author: str = "") -> Callable[[Path], None]:
    def fill(tmp: Path) -> None:
        project = ProjectFile(tmp)
        try:
            project.save_spec(spec, message, author=author)
            for name, text in files.items():
                project.put_file(name, text)
            for name, test in tests.items():
                project.put_test(name, test)
            if settings:
                project.set_settings(settings)
        finally:
            project.close()
    return fill


# ---------------------------------------------------------------------------- workspace


class Workspace:
    """A folder of project files (one SQLite file per project, suffix `.genieproj`)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the workspace folder: {exc.strerror or exc}",
                               folder=str(self.root)) from exc

    @classmethod
    def default(cls) -> "Workspace":
        """$GENIE_WORKSPACE, else ./.workspace."""
        return cls(os.environ.get("GENIE_WORKSPACE") or Path.cwd() / ".workspace")

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    def path_of(self, name: str) -> Path:
        return self.root / f"{check_name(name)}{ff.PROJECT_SUFFIX}"

    def list(self) -> list[ProjectInfo]:
        """Every project file, sorted by name; an unreadable one is listed with its error."""
        infos = []
        for path in sorted(self.root.glob(f"*{ff.PROJECT_SUFFIX}"), key=lambda p: p.stem.lower()):
            if path.name.startswith("."):
                continue
            modified = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc)
            try:
                with ProjectFile(path, readonly=True) as project:
                    versions = len(project.versions())
                    description = project.spec().description
                infos.append(ProjectInfo(path.stem, path, modified, versions, description))
            except StorageError as exc:
                infos.append(ProjectInfo(path.stem, path, modified, 0, "", error=str(exc)))
        return infos

    def exists(self, name: str) -> bool:
        try:
            return self.path_of(name).is_file()
        except StorageError:
            return False

    def open(self, name: str) -> ProjectFile:
        path = self.path_of(name)
        if not path.is_file():
            raise StorageError(f"no project named {name!r} in the workspace", workspace=str(self.root))
        return ProjectFile(path)

    def create(self, name: str, spec: Spec | None = None, *, message: str = "created") -> ProjectFile:
        spec = spec if spec is not None else Spec(name=name)
        path = self.path_of(name)
        build_project_file(path, _fill_from_content(spec, {}, {}, {}, message))
        return ProjectFile(path)

    def samples(self) -> list[Path]:
        """The sample project folders shipped in sample_projects/."""
        if not SAMPLES_DIR.is_dir():
            return []
        return sorted(p for p in SAMPLES_DIR.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))
                      and (p / "spec.json").is_file())

    def ensure_samples(self) -> list[ProjectInfo]:
        """Materialise every sample that is not in the workspace yet (first use); the listing after."""
        for sample in self.samples():
            if not self.exists(sample.name):
                try:
                    self.from_sample(sample).close()
                except StorageError:
                    if not self.exists(sample.name):  # another session made it at the same moment: fine
                        raise
        return self.list()

    def from_sample(self, sample_dir: str | Path, name: str | None = None) -> ProjectFile:
        """A new project from a project folder: spec, KB, tests, prompts, few-shots, api.py, settings."""
        from .bundles.folders import build_folder_kb, has_kb_source, read_folder
        folder = Path(sample_dir)
        content = read_folder(folder)
        path = self.path_of(name or folder.name)
        base = (lambda tmp: build_folder_kb(folder, tmp)) if has_kb_source(folder) else None
        build_project_file(path, _fill_from_content(content["spec"], content["files"], content["tests"],
                                                    content["settings"], f"imported from {folder.name}/"), base=base)
        return ProjectFile(path)

    def rename(self, old: str, new: str) -> None:
        src, dst = self.path_of(old), self.path_of(new)
        if not src.is_file():
            raise StorageError(f"no project named {old!r}", workspace=str(self.root))
        if src.with_name(src.name + "-journal").exists():
            raise StorageError(f"project {old!r} is being written; try again", workspace=str(self.root))
        try:
            os.link(src, dst)
        except FileExistsError:
            raise StorageError(f"a project named {new!r} already exists", workspace=str(self.root)) from None
        src.unlink()
        ff.fsync_dir(self.root)

    def delete(self, name: str) -> None:
        """Move the project file to the workspace's .trash/ folder (recoverable by hand)."""
        src = self.path_of(name)
        if not src.is_file():
            raise StorageError(f"no project named {name!r}", workspace=str(self.root))
        trash = self.root / ".trash"
        trash.mkdir(exist_ok=True)
        os.replace(src, trash / f"{name}-{dt.datetime.now():%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:4]}{ff.PROJECT_SUFFIX}")

    def import_path(self, path: str | Path, name: str | None = None) -> ProjectFile:
        """A new project from a spec file (canonical JSON, paper CSV, reference CSV/JSON), a bundle,
        a project file, or a project folder. A bundle or project file is rebuilt table by table
        into a fresh file (storage.bundles.reconstruct), never copied page by page."""
        from .bundles.reconstruct import reconstruct
        src = Path(path)
        if src.is_dir():
            return self.from_sample(src, name)
        if not src.is_file():
            raise StorageError("nothing to import here", file=str(src))
        target = self.path_of(name or _default_name(src))
        if src.suffix in (ff.BUNDLE_SUFFIX, ff.PROJECT_SUFFIX):
            ProjectFile(src, readonly=True).close()  # the same checks as opening it (clear errors)
            build_project_file(target, _mark_project(src.name), base=lambda tmp: reconstruct(src, tmp))
            return ProjectFile(target)
        spec = load_spec(src)
        build_project_file(target, _fill_from_content(spec, {}, {}, {}, f"imported from {src.name}"))
        return ProjectFile(target)


def _default_name(src: Path) -> str:
    stem = re.sub(r"[^A-Za-z0-9 _.\-]", "_", src.stem).strip(" ._") or "project"
    return stem[:80]


def _mark_project(source_name: str) -> Callable[[Path], None]:
    def fill(tmp: Path) -> None:
        conn = ff.connect(tmp)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("UPDATE _genie_meta SET value = 'project' WHERE key = 'kind'")
            conn.execute("DELETE FROM _genie_meta WHERE key = 'trusted_code'")  # trust is never imported
            conn.execute("INSERT OR REPLACE INTO _genie_meta (key, value) VALUES ('imported_from', ?)", (source_name,))
            conn.execute("COMMIT")
        finally:
            conn.close()
    return fill
