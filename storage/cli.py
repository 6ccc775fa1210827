"""`genie kb ...` commands, contributed to the engine's CLI through the `genie.commands` entry point.

    genie kb import PROJECT FILE --table NAME [--replace]
    genie kb query PROJECT "SELECT ..."
    genie kb build PROJECT        (re)build a sample project's kb.sqlite from its data/ files
    genie kb derive PROJECT --table NAME [--type Name]   the kb/type worksheets for a table, as JSON
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

# the engine, sqlite-utils and the importer are imported by the commands, not here: `genie --help`
# loads this module to list the commands


def _kb_path(project: str, *, create: bool = False) -> Path:
    """A folder's kb.sqlite, a project/KB file, or a workspace project by name; never a stray new file.

    Only an import may create a file, and only one named ``*.sqlite``/``*.db``.
    """
    from core_engine.errors import StorageError

    from .bundles.agent_loader import _default_workspace_exists, _looks_like_name
    from .projects import Workspace
    p = Path(project)
    if p.is_dir():
        return p / "kb.sqlite"
    if p.is_file():
        return p
    if _looks_like_name(project) and _default_workspace_exists():
        workspace = Workspace.default()
        if workspace.exists(project):
            return workspace.path_of(project)
    if create and p.suffix in (".sqlite", ".db", ".sqlite3"):
        return p
    raise StorageError("no project folder, project file or workspace project by this name "
                       "(a new KB file must end in .sqlite)", project=project)


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    from .kb.importer import import_file

    def progress(done: int, total: int | None) -> None:
        print(f"\r{done} rows" + (f" of {total}" if total else ""), end="", file=sys.stderr, flush=True)

    report = import_file(_kb_path(args.project, create=True), args.file, args.table, replace=args.replace, progress=progress)
    print(file=sys.stderr)
    cols = ", ".join(f"{c.name}:{c.type}{'*' if c.free_text else ''}" for c in report.columns)
    print(f"imported {report.rows} rows into '{report.table}' in {report.elapsed_s:.2f} s ({cols})", file=out)
    return 0


def cmd_query(args: argparse.Namespace, out: TextIO) -> int:
    from core_engine.knowledge.kb import SQLiteKB
    kb = SQLiteKB(_kb_path(args.project))
    try:
        result = kb.execute(args.sql)
    finally:
        kb.close()
    for row in result.rows:
        print(json.dumps(row, ensure_ascii=False, default=str), file=out)
    note = " (truncated)" if result.truncated else ""
    print(f"{len(result.rows)} row(s){note} in {result.elapsed_ms:.1f} ms", file=sys.stderr)
    return 0


def cmd_build(args: argparse.Namespace, out: TextIO) -> int:
    from .kb.samples import build_sample_kb
    path = build_sample_kb(args.project)
    print(f"built {path}", file=out)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    kb = sub.add_parser("kb", help="knowledge-base tables: import, query, build",
                        description="Knowledge-base commands. Example: genie kb query "
                                    "sample_projects/restaurant_reservation \"SELECT name FROM restaurants LIMIT 3\"")
    kb_sub = kb.add_subparsers(dest="kb_command", required=True)
    p = kb_sub.add_parser("import", help="import a CSV/JSON/JSONL file as a table (one transaction)")
    p.add_argument("project", help="a project folder (its kb.sqlite) or a .sqlite file")
    p.add_argument("file")
    p.add_argument("--table", required=True)
    p.add_argument("--replace", action="store_true", help="replace the table if it exists")
    p.set_defaults(func=cmd_import)
    p = kb_sub.add_parser("query", help="run a read-only SQL query")
    p.add_argument("project")
    p.add_argument("sql")
    p.set_defaults(func=cmd_query)
    p = kb_sub.add_parser("build", help="build kb.sqlite from the project's data/*.jsonl")
    p.add_argument("project")
    p.set_defaults(func=cmd_build)
    register_derive(kb_sub)
    register_drop_rename(kb_sub)


def cmd_derive(args: argparse.Namespace, out: TextIO) -> int:
    from core_engine.errors import StorageError
    from core_engine.knowledge.kb import SQLiteKB
    from core_engine.knowledge.kb_worksheets import derive_worksheets

    kb = SQLiteKB(_kb_path(args.project))
    try:
        tables = kb.tables()
        if args.table not in tables:
            raise StorageError(f"no table '{args.table}' (tables: {', '.join(sorted(tables)) or 'none'})")
        ws, row_type = derive_worksheets(tables[args.table], type_name=args.type,
                                         distinct=lambda c: kb.distinct_values(args.table, c, limit=50))
    finally:
        kb.close()
    print(json.dumps([w.model_dump(mode="json") for w in (ws, row_type) if w], indent=2, ensure_ascii=False), file=out)
    return 0


def register_derive(kb_sub: argparse._SubParsersAction) -> None:
    p = kb_sub.add_parser("derive", help="print the kb worksheet (and a type worksheet) derived from a table")
    p.add_argument("project")
    p.add_argument("--table", required=True)
    p.add_argument("--type", help="also derive a type worksheet with this name, e.g. Restaurant")
    p.set_defaults(func=cmd_derive)


def _open_project(ref: str):
    from . import Workspace
    from .projects import ProjectFile

    path = Path(ref)
    if path.is_file():
        return ProjectFile(path)
    return Workspace.default().open(ref)


def cmd_drop(args: argparse.Namespace, out: TextIO) -> int:
    from .kb.tables import drop_table

    with _open_project(args.project) as project:
        drop_table(project, args.table)
    print(f"Dropped KB table {args.table}", file=out)
    return 0


def cmd_rename(args: argparse.Namespace, out: TextIO) -> int:
    from .kb.tables import rename_table

    with _open_project(args.project) as project:
        rename_table(project, args.table, args.new_name)
    print(f"Renamed KB table {args.table} to {args.new_name}", file=out)
    return 0


def register_drop_rename(kb_sub: argparse._SubParsersAction) -> None:
    p = kb_sub.add_parser("drop", help="delete a KB table of a project file (with its index and metadata)",
                          description="Example: genie kb drop my_project.genieproj junk_table")
    p.add_argument("project", help="a .genieproj file or a project name in the workspace")
    p.add_argument("table")
    p.set_defaults(func=cmd_drop)
    p = kb_sub.add_parser("rename", help="rename a KB table of a project file",
                          description="Example: genie kb rename my_project.genieproj dentist dentists")
    p.add_argument("project", help="a .genieproj file or a project name in the workspace")
    p.add_argument("table")
    p.add_argument("new_name")
    p.set_defaults(func=cmd_rename)
