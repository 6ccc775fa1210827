"""The `genie` command line: a thin shell over the Python API.

Each command opens the engine, calls one function, and turns a GenieError into
a clean message and an exit status. Commands that need storage (kb, export,
import, studio) are contributed by other packages through the `genie.commands`
entry-point group, so the engine does not import them.

`genie --help` stays quick (< 0.5 s): this module imports the engine inside the
commands, and a `genie.commands` entry-point module must do the same. Its module
level imports argparse and the standard library only; `register(sub)` adds the
parser; the command function imports what it runs (storage, streamlit, openai,
pandas, numpy, server code) when it is called.

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
from typing import TYPE_CHECKING, Any, Iterable, TextIO

from .errors import GenieError

if TYPE_CHECKING:
    from .session.agent import Agent


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


def _code(args: argparse.Namespace) -> str:
    return "trust" if getattr(args, "trust_code", False) else "trusted"


def cmd_chat(args: argparse.Namespace, out: TextIO) -> int:
    from .session.agent import Agent
    agent = Agent.load(args.project, code=_code(args))
    session = agent.new_session(parser=args.parser, rg=args.rg, **_llm_options(args))
    recorder = _recorder(agent, args) if getattr(args, "record", False) else None
    if not args.jsonl:
        print(f"Agent: {session.starting_prompt}", file=out)
    lines: Iterable[str]
    if args.script:
        lines = _script_lines(args.script)
    else:
        lines = _interactive()
    for n, text in enumerate(lines, start=1):
        result = session.turn(text)
        if recorder is not None:
            recorder.append(result.to_json(turn=n))
        if args.jsonl:
            print(json.dumps(result.to_json(turn=n), ensure_ascii=False, default=str), file=out, flush=True)
        else:
            if args.script:
                print(f"User: {text}", file=out)
            print(f"Agent: {result.response}", file=out, flush=True)
    return 0


def _llm_options(args: argparse.Namespace) -> dict[str, Any]:
    """Session options for the LLM backends; the key stays in the environment (never an argument)."""
    options: dict[str, Any] = {"knowledge_parser": args.knowledge_parser}
    config = {k: v for k, v in (("base_url", args.llm_base_url), ("model", args.llm_model),
                                 ("temperature", args.llm_temperature), ("api_key_env", args.llm_key_env))
              if v is not None}
    if config:
        options["llm_config"] = config
    if args.llm_cache:
        from .llm.client import ResponseCache
        options["cache"] = ResponseCache(args.llm_cache)
    return options


def _recorder(agent: Agent, args: argparse.Namespace) -> Any:
    """`--record`: the project's loader (storage, via genie.project_loaders) puts a `start_log` in agent.extras."""
    start_log = agent.extras.get("start_log")
    if start_log is None:
        raise GenieError("--record needs a project file (.genieproj) or a workspace project; "
                         f"{args.project} cannot store conversation logs")
    log = start_log(parser=args.parser, rg=args.rg, title=f"genie chat {Path(args.project).name}")
    print(f"recording conversation log {log.id}", file=sys.stderr)
    return log


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
    from .session.agent import Agent
    from .lint import has_errors, lint_with_kb
    agent = Agent.load(args.project, code="never")  # lint never runs project code
    kb = None
    if agent.kb_path is not None:
        from .knowledge.kb import SQLiteKB
        kb = SQLiteKB(agent.kb_path)
    diags = lint_with_kb(agent.spec, kb)
    if args.json:
        print(json.dumps([d.to_dict() for d in diags], indent=2), file=out)
    else:
        for d in diags:
            print(f"{d.severity}: {d.location()}: {d.message} [{d.code}]", file=out)
        errors = sum(d.severity == "error" for d in diags)
        print(f"{errors} error(s), {len(diags) - errors} warning(s)", file=out)
    return 1 if has_errors(diags) else 0


def cmd_test(args: argparse.Namespace, out: TextIO) -> int:
    from .session.agent import Agent
    from .evaluation.testing import find_tests, run_tests
    agent = Agent.load(args.project, code=_code(args))
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
            if fail.expected_acts is not None:
                from .session.recording import act_rows
                print("      acts (expected | actual):", file=out)
                for row in act_rows(fail.expected_acts, fail.actual_acts, fail.match):
                    print(f"      {'  ' if row['ok'] else '✗ '}{row['expected'] or '-':<40} | {row['actual'] or '-'}",
                          file=out)
    failed = sum(not r.passed for r in results)
    if not args.json:
        print(f"{len(results) - failed} passed, {failed} failed", file=out)
    if getattr(args, "coverage", False):
        from .evaluation.coverage import coverage
        cov = coverage(agent.spec, [r.outputs for r in results])
        print(json.dumps({"coverage": cov.to_dict()}, indent=2, default=str) if args.json else cov.format_text(),
              file=out)
    return 1 if failed else 0


def cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from .session.agent import Agent
    from .evaluation.metrics import evaluate, format_table
    agent = Agent.load(args.project)
    result = evaluate(agent, args.parser or ["offline"], paths=[Path(p) for p in args.tests] or None,
                      queries=args.queries, session_options=_llm_options(args),
                      contexts=("own", "gold") if args.context == "both" else (args.context,))
    text = json.dumps(result, indent=2, ensure_ascii=False, default=str)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    print(text if args.json else format_table(result), file=out)
    return 0


def _llm_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--knowledge-parser", default="offline", help="offline (default) or llm: how answer(...) becomes SQL")
    p.add_argument("--llm-base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 "
                                          "(default: $GENIE_LLM_BASE_URL, then $OPENAI_BASE_URL, then OpenAI)")
    p.add_argument("--llm-model", help="model name (default: $GENIE_LLM_MODEL, then gpt-4o-mini)")
    p.add_argument("--llm-temperature", type=float, help="sampling temperature (default 0)")
    p.add_argument("--llm-key-env", help="environment variable holding the API key (default OPENAI_API_KEY)")
    p.add_argument("--llm-cache", help="a JSON file caching completions by prompt (reused across runs)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="genie", description="Genie Studio: worksheet agents from the command line.",
                                     epilog="Example: genie chat sample_projects/bank_fraud --parser formal")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("chat", help="chat with an agent (interactive, or a script of turns)",
                       description="Chat with an agent. Example: genie chat sample_projects/ticket_submission "
                                   "--parser formal --script turns.txt --jsonl. With a model: genie chat "
                                   "sample_projects/bank_fraud --parser llm --rg llm --llm-base-url "
                                   "http://localhost:11434/v1 --llm-model llama3.1")
    p.add_argument("project", help="a project folder, spec file or bundle")
    p.add_argument("--parser", default="offline", help="formal, offline (default) or llm")
    p.add_argument("--trust-code", action="store_true",
                   help="run the project's api.py even though it has not been reviewed and trusted")
    p.add_argument("--rg", default="template", help="template (default) or llm")
    p.add_argument("--script", help="a file with one user turn per line ('-' for stdin)")
    p.add_argument("--jsonl", action="store_true", help="print one JSON object per turn")
    p.add_argument("--record", action="store_true", help="record the conversation in the project file, turn by turn")
    _llm_arguments(p)
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
    p.add_argument("--trust-code", action="store_true",
                   help="run the project's api.py even though it has not been reviewed and trusted")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    p.add_argument("--coverage", action="store_true",
                   help="also print which fields, predicates, actions, APIs and act kinds the tests exercised")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("eval", help="the paper's metrics on a project's annotated conversations, per parser",
                       description="Semantic parsing, execution, dialogue-act accuracy and goal completion. "
                                   "Example: genie eval tests/agents/dental_clinic --parser offline --parser llm")
    p.add_argument("project")
    p.add_argument("tests", nargs="*", help="test files (default: the project's tests/*.json)")
    p.add_argument("--parser", action="append", help="offline, llm or formal; repeat for side-by-side columns")
    p.add_argument("--queries", choices=("shape", "text"), default="shape",
                   help="compare answer(...) by where it goes (default) or also by its wording")
    p.add_argument("--context", choices=("own", "gold", "both"), default="own",
                   help="own (default): the parser plays the whole conversation; gold: every turn is judged "
                        "from the state its test expects before it, so one misread turn does not fail the rest; "
                        "both: a column of each")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("-o", "--output", help="also write the JSON result to this file")
    _llm_arguments(p)
    p.set_defaults(func=cmd_eval)

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
    args = build_parser().parse_args(argv)  # --help ends here, before any backend is imported
    _register_backends()
    try:
        return int(args.func(args, out) or 0)
    except GenieError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _register_backends() -> None:
    from .session.agent import load_backends
    load_backends()


if __name__ == "__main__":
    raise SystemExit(main())
