"""`genie serve AGENT`: serve an agent over HTTP with uvicorn (one or several worker processes);
`genie sessions`: the served conversations in a store (list, export, copy into a project).

    genie serve sample_projects/restaurant_reservation --port 8000
    genie serve agent.genie --workers 4 --store postgresql://genie@db/genie --host 0.0.0.0
    genie sessions export SESSION_ID --format test --store postgresql://genie@db/genie
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

DEFAULT_STORE = "sqlite:///genie-sessions.db"


def options_from_args(args: argparse.Namespace) -> Any:
    from .engine import ServeOptions
    llm = {k: v for k, v in (("base_url", args.llm_base_url), ("model", args.llm_model),
                             ("temperature", args.llm_temperature), ("api_key_env", args.llm_key_env))
           if v is not None}
    origins = [o.strip() for o in (args.cors_origins or os.environ.get("GENIE_CORS_ORIGINS", "")).split(",")
               if o.strip()]
    store = _store_url(args.store)  # a relative SQLite path is made absolute: every worker finds the same file
    return ServeOptions(agent=str(Path(args.agent).resolve()), store=store, parser=args.parser, rg=args.rg,
                        knowledge_parser=args.knowledge_parser, llm_config=llm, llm_cache=args.llm_cache,
                        today=args.today, cors_origins=origins, rate_limit_per_min=args.rate_limit,
                        max_body_bytes=args.max_body_bytes, pool_size=args.pool_size, threads=args.threads)


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    import uvicorn

    from .app import OPTIONS_ENV, create_app, options_env
    from .observability import setup_logging

    options = options_from_args(args)
    setup_logging(args.log_level)
    app = create_app(options)  # fails now, in the parent, on a bad agent, option or store
    agent = app.state.service.runner.agent
    if agent.kb_path is not None:  # once, here, not in every worker at its first question
        from core_engine.knowledge.vectors import LAZY_ROWS, build_vectors
        print("Preparing the knowledge base's text vectors ...", file=out, flush=True)
        try:
            build_vectors(agent.kb_path, agent.spec.settings.embedding_model, max_rows=LAZY_ROWS)
        except Exception as exc:  # noqa: BLE001 - the first free-text question builds them instead
            print(f"  not prepared ({type(exc).__name__}: {exc}); the first free-text question builds them",
                  file=out, flush=True)
    os.environ[OPTIONS_ENV] = options_env(options)
    os.environ["GENIE_LOG_LEVEL"] = args.log_level
    if args.workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="genie-metrics-")
    print(f"Serving {Path(args.agent).name} on http://{args.host}:{args.port}  (chat page: /chat; "
          f"{args.workers} worker(s); store {options.store.split('@')[-1]})", file=out, flush=True)
    common = dict(host=args.host, port=args.port, log_config=None, access_log=False,
                  timeout_graceful_shutdown=args.graceful_timeout, limit_concurrency=args.limit_concurrency,
                  timeout_keep_alive=args.keep_alive)
    if args.workers == 1:  # serve the app built above: the agent is loaded once
        uvicorn.run(app, **common)
    else:  # each worker process builds its own from GENIE_SERVE_OPTIONS
        app.state.service.store.close()
        uvicorn.run("server.app:app_from_env", factory=True, workers=args.workers, **common)
    return 0


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("agent", help="a project folder, project file (.genieproj) or bundle")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; 0.0.0.0 for all)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--store", help=f"session store: sqlite:///PATH or postgresql://... (default $GENIE_STORE, "
                                   f"then {DEFAULT_STORE} in this folder)")
    p.add_argument("--parser", default="offline", help="formal, offline (default) or llm")
    p.add_argument("--rg", default="template", help="template (default) or llm")
    p.add_argument("--knowledge-parser", default="offline", help="offline (default) or llm")
    p.add_argument("--llm-base-url", help="OpenAI-compatible endpoint (default $GENIE_LLM_BASE_URL)")
    p.add_argument("--llm-model", help="model name (default $GENIE_LLM_MODEL)")
    p.add_argument("--llm-temperature", type=float, help="sampling temperature (default 0)")
    p.add_argument("--llm-key-env", help="environment variable holding the LLM key (default OPENAI_API_KEY)")
    p.add_argument("--llm-cache", help="a JSON file caching completions by prompt")
    p.add_argument("--today", help="fix the agent's date (YYYY-MM-DD), for demos and tests")
    p.add_argument("--cors-origins", help="comma-separated origins allowed to call the API from a browser "
                                          "(default $GENIE_CORS_ORIGINS; none)")
    p.add_argument("--rate-limit", type=float, default=float(os.environ.get("GENIE_RATE_LIMIT", 600)),
                   help="requests per minute per API key (per client address without keys); 0 = off (default 600)")
    p.add_argument("--max-body-bytes", type=int, default=64 * 1024, help="largest request body (default 65536)")
    p.add_argument("--pool-size", type=int, default=10, help="PostgreSQL connections per worker (default 10)")
    p.add_argument("--threads", type=int, default=40,
                   help="turns computed at once per worker (thread pool; default 40). Turns waiting on an LLM "
                        "endpoint want many; CPU-bound offline turns answer more evenly with few")
    p.add_argument("--graceful-timeout", type=float, default=30.0,
                   help="seconds to finish turns in flight after SIGTERM (default 30)")
    p.add_argument("--keep-alive", type=float, default=5.0, help="seconds an idle HTTP connection stays open (5)")
    p.add_argument("--limit-concurrency", type=int, default=None, help="refuse (503) beyond this many open connections")
    p.add_argument("--log-level", default="info", help="debug, info (default), warning, error")


def _store_url(value: str | None) -> str:
    store = value or os.environ.get("GENIE_STORE") or DEFAULT_STORE
    if store.startswith("sqlite:///") and not store.startswith("sqlite:////"):
        store = "sqlite:///" + str(Path.cwd() / store[len("sqlite:///"):])
    return store


def cmd_sessions(args: argparse.Namespace, out: TextIO) -> int:
    from . import export
    from .stores.base import open_store

    url = _store_url(args.store)
    if url.startswith("sqlite:///") and not Path(url[len("sqlite:///"):]).is_file():
        from core_engine.errors import StorageError
        raise StorageError("no session store here (give --store)", store=url)
    store = open_store(url)
    try:
        if args.sessions_command == "list":
            for session_id, turns, updated in store.sessions(args.limit):
                print(f"{session_id}\t{turns} turn(s)\t{updated}", file=out)
            return 0
        turns = export.turns_of(store, args.session_id)
        if args.to_project:
            log_id = export.to_project_log(turns, args.session_id, args.to_project, parser=args.parser, rg=args.rg)
            print(f"conversation log {log_id} in {args.to_project} ({len(turns)} turn(s)); open it in the "
                  f"Playground, or `genie log to-test {args.to_project} {log_id} NAME`", file=out)
        elif args.format == "test":
            test = export.to_test(turns, args.session_id, name=args.name, parser=args.parser, rg=args.rg,
                                  today=args.today)
            print(json.dumps(test, indent=2, ensure_ascii=False), file=out)
        else:
            out.write(export.to_jsonl(turns))
        return 0
    finally:
        store.close()


def register(sub: argparse._SubParsersAction) -> None:
    """The `genie.commands` entry point: adds `genie serve` and `genie sessions`."""
    p = sub.add_parser("sessions", help="served conversations: list, export as JSONL or a test, copy into a project",
                       description="The conversations a `genie serve` store holds. Examples: genie sessions list "
                                   "--store postgresql://genie@db/genie   |   genie sessions export ID --format test "
                                   "--name 'served booking'   |   genie sessions export ID --to-project my.genieproj")
    p.add_argument("sessions_command", choices=["list", "export"])
    p.add_argument("session_id", nargs="?", help="export: the session id")
    p.add_argument("--store", help=f"the session store (default $GENIE_STORE, then {DEFAULT_STORE})")
    p.add_argument("--limit", type=int, default=100, help="list: at most this many, newest first")
    p.add_argument("--format", choices=["jsonl", "test"], default="jsonl",
                   help="export: `genie chat --jsonl` lines (default) or a conversation test")
    p.add_argument("--name", help="export --format test: the test's name")
    p.add_argument("--parser", default="offline", help="the parser the agent was served with (default offline)")
    p.add_argument("--rg", default="template", help="the response generator it was served with")
    p.add_argument("--today", help="the date it was served with (--today of genie serve)")
    p.add_argument("--to-project", help="export: add it to this project file as a conversation log (Playground)")
    p.set_defaults(func=_sessions_checked)

    p = sub.add_parser("serve", help="serve an agent over HTTP (REST, OpenAI-compatible, web chat)",
                       description="Serve an agent over HTTP: REST API, server-sent events, an OpenAI-compatible "
                                   "/v1/chat/completions and a web chat page at /chat. API keys come from "
                                   "GENIE_API_KEYS. Example: genie serve sample_projects/restaurant_reservation "
                                   "--port 8000 --workers 4 --store postgresql://genie@db/genie")
    _add_arguments(p)
    p.set_defaults(func=cmd_serve)


def _sessions_checked(args: argparse.Namespace, out: TextIO) -> int:
    if args.sessions_command == "export" and not args.session_id:
        from core_engine.errors import GenieError
        raise GenieError("genie sessions export needs a session id (see `genie sessions list`)")
    return cmd_sessions(args, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.cli", description="Serve a Genie agent over HTTP.")
    _add_arguments(parser)
    args = parser.parse_args(argv)
    from core_engine.session.agent import load_backends
    load_backends()
    try:
        return cmd_serve(args, sys.stdout)
    except Exception as exc:  # noqa: BLE001 - a clean message and status, as the genie CLI does
        from core_engine.errors import GenieError
        if isinstance(exc, (GenieError, OSError)):
            print(f"error: {exc}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
