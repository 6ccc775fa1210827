"""The `genie` command line: a thin shell over the Python API.

Each command opens the engine, calls one function, and turns a GenieError into
a clean message and an exit status. Commands that need storage (kb, export,
import, studio) are contributed by other packages through the `genie.commands`
entry-point group, so the engine does not import them.

Examples:
    genie chat sample_projects/ticket_submission --parser formal --script turns.txt --jsonl
    genie lint sample_projects/bank_fraud
    genie test sample_projects/bank_fraud
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Iterable, TextIO

from .agent import Agent
from .errors import GenieError


def _script_lines(path: str) -> Iterable[str]:
    """One user turn per line; a JSON line with a "user" key is read as that; blank lines skipped."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip():
            continue
        stripped = line.strip()
        if stripped.startswith("{"):
            try:
                obj = json.loads(stripped)
            except ValueError:
                obj = None
            if isinstance(obj, dict) and isinstance(obj.get("user"), str):
                yield obj["user"]
                continue
        yield line.replace("\\n", "\n")


def cmd_chat(args: argparse.Namespace, out: TextIO) -> int:
    agent = Agent.load(args.project)
    session = agent.new_session(parser=args.parser, rg=args.rg)
    if not args.jsonl:
        print(f"Agent: {session.starting_prompt}", file=out)
    lines: Iterable[str]
    if args.script:
        lines = _script_lines(args.script)
    else:
        lines = _interactive()
    for n, text in enumerate(lines, start=1):
        result = session.turn(text)
        if args.jsonl:
            print(json.dumps(result.to_json(turn=n), ensure_ascii=False, default=str), file=out, flush=True)
        else:
            if args.script:
                print(f"User: {text}", file=out)
            print(f"Agent: {result.response}", file=out, flush=True)
    return 0


def _interactive() -> Iterable[str]:
    while True:
        try:
            text = input("User: ")
        except EOFError:
            return
        if text.strip() in ("/quit", "/exit"):
            return
        yield text


def cmd_lint(args: argparse.Namespace, out: TextIO) -> int:
    from .lint import has_errors, lint
    agent = Agent.load(args.project)
    diags = lint(agent.spec)
    if args.json:
        print(json.dumps([d.to_dict() for d in diags], indent=2), file=out)
    else:
        for d in diags:
            print(f"{d.severity}: {d.location()}: {d.message} [{d.code}]", file=out)
        errors = sum(d.severity == "error" for d in diags)
        print(f"{errors} error(s), {len(diags) - errors} warning(s)", file=out)
    return 1 if has_errors(diags) else 0


def cmd_test(args: argparse.Namespace, out: TextIO) -> int:
    from .testing import find_tests, run_tests
    agent = Agent.load(args.project)
    paths = [Path(p) for p in args.tests] if args.tests else find_tests(agent)
    if not paths:
        print("no conversation tests found", file=out)
        return 0
    results = run_tests(agent, paths)
    if args.json:
        print(json.dumps([r.to_dict() for r in results], indent=2, default=str), file=out)
    for r in results:
        if args.json:
            break
        print(f"{'PASS' if r.passed else 'FAIL'} {r.name}", file=out)
        if r.error:
            print(f"    {r.error}", file=out)
        fail = r.first_failure
        if fail is not None:
            print(f"    turn {fail.index}: {fail.user!r}", file=out)
            for p in fail.problems:
                print(f"      - {p}", file=out)
            print(f"      expected acts: {json.dumps(fail.expected_acts)}", file=out)
            print(f"      actual acts:   {json.dumps(fail.actual_acts, default=str)}", file=out)
    failed = sum(not r.passed for r in results)
    if not args.json:
        print(f"{len(results) - failed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="genie", description="Genie Studio: worksheet agents from the command line.",
                                     epilog="Example: genie chat sample_projects/bank_fraud --parser formal")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("chat", help="chat with an agent (interactive, or a script of turns)",
                       description="Chat with an agent. Example: genie chat sample_projects/ticket_submission "
                                   "--parser formal --script turns.txt --jsonl")
    p.add_argument("project", help="a project folder, spec file or bundle")
    p.add_argument("--parser", default="offline", help="formal, offline (default) or llm")
    p.add_argument("--rg", default="template", help="template (default) or llm")
    p.add_argument("--script", help="a file with one user turn per line ('-' for stdin)")
    p.add_argument("--jsonl", action="store_true", help="print one JSON object per turn")
    p.set_defaults(func=cmd_chat)

    p = sub.add_parser("lint", help="check a spec; exit status 1 on any error",
                       description="Check a spec. Example: genie lint sample_projects/bank_fraud")
    p.add_argument("project")
    p.add_argument("--json", action="store_true", help="print diagnostics as JSON")
    p.set_defaults(func=cmd_lint)

    p = sub.add_parser("test", help="run a project's conversation tests; exit status 1 on failure",
                       description="Run conversation tests. Example: genie test sample_projects/bank_fraud")
    p.add_argument("project")
    p.add_argument("tests", nargs="*", help="test files (default: the project's tests/*.json)")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    p.set_defaults(func=cmd_test)

    for ep in entry_points(group="genie.commands"):
        try:
            register = ep.load()
        except ImportError as exc:
            print(f"warning: command plugin {ep.name} failed to load: {exc}", file=sys.stderr)
            continue
        register(sub)
    return parser


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    _register_backends()
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args, out) or 0)
    except GenieError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _register_backends() -> None:
    from .agent import load_backends
    load_backends()


if __name__ == "__main__":
    raise SystemExit(main())
