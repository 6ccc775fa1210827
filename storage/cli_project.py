"""Project, version, log and bundle commands, contributed to `genie` through the `genie.commands` entry point.

    genie export PROJECT -o agent.genie [--format bundle|json|csv|folder]
    genie import FILE -o DIR                 unpack a bundle (or project file) into reviewable source
    genie import FILE --workspace [--name N] add a spec file, bundle, project file or folder to the workspace
    genie projects [list|new|rename|delete]  the workspace ($GENIE_WORKSPACE or ./.workspace)
    genie versions PROJECT [--diff A B | --show N | --restore N]
    genie save PROJECT SPEC_FILE -m MESSAGE [--base N]
    genie log list|show|export|to-test PROJECT ...

PROJECT is a `.genieproj` file, a project name in the workspace, or (for
export) a project folder or a bundle. Each command calls one storage function
and prints its result; errors are GenieErrors that the engine's CLI turns into
a message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from core_engine.errors import StorageError

if TYPE_CHECKING:
    from .projects import ProjectFile

# the spec model, bundles and project files are imported by the commands, not here: `genie --help`
# loads this module to list the commands


def open_project(ref: str) -> ProjectFile:
    from .projects import ProjectFile, Workspace
    """A project file path, else a name in the default workspace."""
    path = Path(ref)
    if path.is_file():
        return ProjectFile(path)
    workspace = Workspace.default()
    if workspace.exists(ref):
        return workspace.open(ref)
    raise StorageError("no project file or workspace project by this name", project=ref,
                       workspace=str(workspace.root))


# -- export / import ------------------------------------------------------------------


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from .bundles.bundle import export_bundle, read_manifest, resolve_project
    target = Path(args.output)
    fmt = args.format or {".genie": "bundle", ".json": "json", ".csv": "csv"}.get(target.suffix.lower(), "")
    if not fmt:
        raise StorageError("cannot tell the format from the file name; pass --format bundle|json|csv|folder",
                           file=str(target))
    if fmt == "bundle":
        export_bundle(args.project, target)
        manifest = read_manifest(target)
        print(f"wrote {target} (spec {manifest['spec_hash'][:12]}, {len(manifest['tables'])} table(s), "
              f"{len(manifest['tests'])} test(s))", file=out)
        return 0
    import tempfile
    with tempfile.TemporaryDirectory(prefix="genie-export-") as scratch:
        project, close = resolve_project(args.project, Path(scratch))
        try:
            {"json": project.export_json, "csv": project.export_csv, "folder": project.export_folder}[fmt](target)
        finally:
            if close:
                project.close()
    print(f"wrote {target}", file=out)
    return 0


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    from .bundles.bundle import import_bundle
    from .projects import ProjectFile, Workspace
    if args.workspace:
        project = Workspace.default().import_path(args.file, args.name)
        print(f"imported {args.file} as project {project.name!r} ({project.path})", file=out)
        project.close()
        return 0
    if not args.output:
        raise StorageError("give -o DIR (unpack to source) or --workspace (add as a project)")
    path = Path(args.file)
    if path.is_file() and path.suffix == ".genieproj":
        with ProjectFile(path, readonly=True) as project:
            folder = project.export_folder(args.output)
    else:
        folder = import_bundle(path, args.output)
    print(f"unpacked {args.file} into {folder}", file=out)
    code = [p for p in ("api.py", "prompts") if (Path(folder) / p).exists()]
    if code:  # a folder is the developer's own source: its code runs without a review step
        print(f"review {' and '.join(code)} in {folder} before you run it: a project folder's code runs as your "
              "own (genie import FILE --workspace keeps it behind the code-trust review)", file=out)
    return 0


# -- workspace ------------------------------------------------------------------------------


def cmd_projects(args: argparse.Namespace, out: TextIO) -> int:
    from .projects import Workspace
    ws = Workspace(args.workspace) if args.workspace else Workspace.default()
    action = args.action or "list"
    if action == "list":
        if args.samples:
            ws.ensure_samples()
        for info in ws.list():
            status = f"ERROR {info.error}" if info.error else f"{info.versions} version(s)"
            print(f"{info.name}\t{status}\t{info.modified:%Y-%m-%d %H:%M}\t{info.description}", file=out)
        return 0
    if action == "new":
        _need(args.names, 1, "genie projects new NAME [--from PATH]")
        project = ws.import_path(args.source, args.names[0]) if args.source else ws.create(args.names[0])
        print(f"created {project.path}", file=out)
        project.close()
        return 0
    if action == "rename":
        _need(args.names, 2, "genie projects rename OLD NEW")
        ws.rename(*args.names[:2])
        print(f"renamed {args.names[0]} to {args.names[1]}", file=out)
        return 0
    _need(args.names, 1, "genie projects delete NAME")
    ws.delete(args.names[0])
    print(f"moved {args.names[0]} to {ws.root / '.trash'}", file=out)
    return 0


def _need(names: list[str], n: int, usage: str) -> None:
    if len(names) < n:
        raise StorageError(f"usage: {usage}")


# -- versions ------------------------------------------------------------------------------


def cmd_versions(args: argparse.Namespace, out: TextIO) -> int:
    with open_project(args.project) as project:
        if args.diff:
            diff = project.diff(*args.diff)
            print(json.dumps(diff.to_dict(), indent=2, ensure_ascii=False) if args.json else diff.format(), file=out)
        elif args.show is not None:
            print(project.spec(args.show).model_dump_json(indent=2), file=out)
        elif args.restore is not None:
            v = project.restore(args.restore, args.message)
            print(f"version {v.number}: {v.message}", file=out)
        elif args.json:
            print(json.dumps([{**v.__dict__, "created": v.created.isoformat()} for v in project.versions()],
                             indent=2, ensure_ascii=False), file=out)
        else:
            for v in project.versions():
                author = f" [{v.author}]" if v.author else ""
                print(f"{v.number}\t{v.created:%Y-%m-%d %H:%M:%S}{author}\t{v.message}\t({v.summary})", file=out)
    return 0


def cmd_save(args: argparse.Namespace, out: TextIO) -> int:
    from core_engine.loaders import load_spec
    spec = load_spec(args.spec)
    with open_project(args.project) as project:
        before = project.head().number
        v = project.save_spec(spec, args.message, base_version=args.base, author=args.author)
        if v.number == before:
            print(f"no changes; still version {v.number}", file=out)
        else:
            print(f"version {v.number}: {v.summary}", file=out)
    return 0


# -- logs -------------------------------------------------------------------------------------


def cmd_log(args: argparse.Namespace, out: TextIO) -> int:
    with open_project(args.project) as project:
        if args.log_command == "list":
            for info in project.logs():
                print(f"{info.id}\t{info.created:%Y-%m-%d %H:%M:%S}\t{info.turns} turn(s)\t{info.parser}/{info.rg}"
                      f"\t{info.title}", file=out)
            return 0
        log = project.open_log(args.log_id)
        if args.log_command == "show":
            for turn in log.turns():
                print(f"User: {turn['user']}\nAgent: {turn.get('response', '')}", file=out)
        elif args.log_command == "export":
            text = log.to_jsonl()
            if args.output:
                Path(args.output).write_text(text, encoding="utf-8")
                print(f"wrote {args.output}", file=sys.stderr)
            else:
                out.write(text)
        else:
            test = log.to_test(args.name, assert_acts=not args.no_acts, assert_values=args.values,
                               assert_response=args.response)
            if args.save:
                project.put_test(args.name, test)
                print(f"saved test {args.name!r} in {project.path.name}", file=out)
            else:
                print(json.dumps(test, indent=2, ensure_ascii=False), file=out)
    return 0


# -- registration -------------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write a bundle (.genie), the spec as JSON/CSV, or a source folder",
                       description="Export a project. Example: genie export sample_projects/bank_fraud -o bank.genie")
    p.add_argument("project", help="a .genieproj file, a bundle, a project folder or a workspace project name")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--format", choices=["bundle", "json", "csv", "folder"], help="default: from the file name")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="unpack a bundle into a source folder, or add a file to the workspace",
                       description="Example: genie import bank.genie -o bank_src   |   "
                                   "genie import spec.csv --workspace --name my_agent")
    p.add_argument("file", help="a .genie bundle, a .genieproj file, a spec file or a project folder")
    p.add_argument("-o", "--output", help="the new folder to unpack into")
    p.add_argument("--workspace", action="store_true", help="add to the workspace as a new project instead")
    p.add_argument("--name", help="the project name in the workspace (default: the file name)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("projects", help="list, create, rename or delete workspace projects",
                       description="Workspace projects ($GENIE_WORKSPACE or ./.workspace). "
                                   "Example: genie projects new my_agent --from spec.json")
    p.add_argument("action", nargs="?", choices=["list", "new", "rename", "delete"])
    p.add_argument("names", nargs="*")
    p.add_argument("--from", dest="source", help="new: start from a spec file, bundle or folder")
    p.add_argument("--samples", action="store_true", help="list: add the sample projects first")
    p.add_argument("--workspace", help="the workspace folder (default $GENIE_WORKSPACE or ./.workspace)")
    p.set_defaults(func=cmd_projects)

    p = sub.add_parser("versions", help="list a project's spec versions; diff, show or restore one",
                       description="Example: genie versions my_agent --diff 1 3")
    p.add_argument("project")
    p.add_argument("--diff", nargs=2, type=int, metavar=("A", "B"))
    p.add_argument("--show", type=int, metavar="N", help="print version N's spec")
    p.add_argument("--restore", type=int, metavar="N", help="make version N the latest (a new version)")
    p.add_argument("-m", "--message", help="message for --restore")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_versions)

    p = sub.add_parser("save", help="save a spec file as the project's next version",
                       description="Example: genie save my_agent spec.json -m 'ask for the date first' --base 3")
    p.add_argument("project")
    p.add_argument("spec", help="a spec file (canonical JSON, paper CSV, reference CSV/JSON)")
    p.add_argument("-m", "--message", default="")
    p.add_argument("--base", type=int, help="the version your edit started from (refuse if someone saved since)")
    p.add_argument("--author", default="")
    p.set_defaults(func=cmd_save)

    p = sub.add_parser("log", help="recorded conversations: list, show, export as JSONL, turn into a test",
                       description="Example: genie log to-test my_agent 20250101-120000-ab12cd34 booking --save")
    log_sub = p.add_subparsers(dest="log_command", required=True)
    q = log_sub.add_parser("list", help="the project's conversation logs, newest first")
    q.add_argument("project")
    for name, text in (("show", "print a log's turns"), ("export", "a log as JSONL")):
        q = log_sub.add_parser(name, help=text)
        q.add_argument("project")
        q.add_argument("log_id")
        if name == "export":
            q.add_argument("-o", "--output")
    q = log_sub.add_parser("to-test", help="turn a log into a conversation test")
    q.add_argument("project")
    q.add_argument("log_id")
    q.add_argument("name")
    q.add_argument("--values", action="store_true", help="also check the fields each turn filled")
    q.add_argument("--response", action="store_true", help="also check each response")
    q.add_argument("--no-acts", action="store_true", help="do not check the acts")
    q.add_argument("--save", action="store_true", help="store the test in the project (else print it)")
    p.set_defaults(func=cmd_log)
