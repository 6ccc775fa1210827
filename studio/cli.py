"""`genie studio`: start the Streamlit studio (also `python -m studio.cli`).

    genie studio [--port 8501] [--address 127.0.0.1] [--workspace DIR] [--no-samples] [--browser]

Why a launcher rather than plain `streamlit run studio/app.py`: Streamlit treats a
folder named `pages/` beside the entry script as an old-style (v1) multipage app and
then never runs `app.py`'s `st.navigation` router for deep links such as
`/worksheets`. The launcher switches that detection off in-process before the
server starts, then hands over to Streamlit's own `run` command. It always starts
headless and without usage statistics (no network calls, DESIGN §11).

A production run is lighter than Streamlit's defaults (measured in bench/bench_studio.py):
`runner.postScriptGC false` skips the full `gc.collect(2)` Streamlit forces after every
script run (most of the server's CPU per chat turn; Python's own generational GC still
runs), and `server.fileWatcherType none` stops polling the source tree for changes.
`--dev` keeps the watcher (edit a page, see it rerun) and the forced collection.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

APP = Path(__file__).resolve().parent / "app.py"
ROOT = APP.parent.parent


PRODUCTION = ["--runner.postScriptGC", "false", "--server.fileWatcherType", "none", "--runner.fastReruns", "true"]


def streamlit_argv(port: int, address: str, *, browser: bool = False, extra: list[str] | None = None,
                   dev: bool = False) -> list[str]:
    """The `streamlit run` command line the studio uses (tests and scripts share it)."""
    return ["streamlit", "run", str(APP), "--server.port", str(port), "--server.address", address,
            "--server.headless", "false" if browser else "true", "--browser.gatherUsageStats", "false",
            "--server.runOnSave", "false", "--theme.base", "light", "--client.toolbarMode", "minimal",
            *([] if dev else PRODUCTION), *(extra or [])]


def serve(port: int = 8501, address: str = "127.0.0.1", *, workspace: str | None = None, samples: bool = True,
          browser: bool = False, extra: list[str] | None = None, dev: bool = False) -> int:
    """Run the studio in this process until it is stopped (Ctrl+C)."""
    if workspace:
        os.environ["GENIE_WORKSPACE"] = str(Path(workspace).expanduser().resolve())
    if not samples:
        os.environ["GENIE_NO_SAMPLES"] = "1"
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    if samples:  # materialise the samples now, so the first page load is quick
        from storage import Workspace

        root = os.environ.get("GENIE_WORKSPACE") or Path.cwd() / ".workspace"
        infos = Workspace(root).ensure_samples()
        print(f"Workspace {root}: {len(infos)} project(s)", flush=True)
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web import cli as stcli

    os.environ.setdefault("GENIE_WARM_VECTORS", "1")  # a loaded agent's KB text vectors are built in the background
    PagesManager.uses_pages_directory = False  # studio/pages/ holds st.Page scripts, not a v1 pages folder
    sys.argv = streamlit_argv(port, address, browser=browser, extra=extra, dev=dev)
    try:
        stcli.main(prog_name="streamlit")
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=int(os.environ.get("GENIE_STUDIO_PORT", 8501)),
                   help="port to listen on (default 8501)")
    p.add_argument("--address", default="127.0.0.1", help="address to bind (default 127.0.0.1; 0.0.0.0 to share)")
    p.add_argument("--workspace", help="folder of project files (default $GENIE_WORKSPACE or ./.workspace)")
    p.add_argument("--no-samples", action="store_true", help="do not add the four sample projects to the workspace")
    p.add_argument("--browser", action="store_true", help="open a browser tab when the server is up")
    p.add_argument("--dev", action="store_true",
                   help="developing the studio: watch its files and keep Streamlit's forced GC after each run")
    p.add_argument("streamlit_args", nargs=argparse.REMAINDER,
                   help="after '--': extra `streamlit run` options, e.g. -- --server.fileWatcherType none")


def _extra(args: argparse.Namespace) -> list[str]:
    extra = list(args.streamlit_args or [])
    return extra[1:] if extra[:1] == ["--"] else extra


def cmd_studio(args: argparse.Namespace, out: TextIO) -> int:
    print(f"Genie Studio on http://{args.address}:{args.port}  (Ctrl+C stops it)", file=out, flush=True)
    return serve(args.port, args.address, workspace=args.workspace, samples=not args.no_samples,
                 browser=args.browser, extra=_extra(args), dev=args.dev)


def register(sub: argparse._SubParsersAction) -> None:
    """The `genie.commands` entry point: adds `genie studio`."""
    p = sub.add_parser("studio", help="start the browser studio",
                       description="Start the Streamlit studio on the embedded default (offline parser, template "
                                   "responses; no API key needed), with the sample projects in the workspace. "
                                   "Example: genie studio --port 8502 --workspace ~/genie-projects")
    _add_arguments(p)
    p.set_defaults(func=cmd_studio)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m studio.cli", description="Start the Genie studio.")
    _add_arguments(parser)
    args = parser.parse_args(argv)
    return cmd_studio(args, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
