"""Browser round-trip time of one chat turn in the Playground, offline default backends.

Starts the studio (headless Streamlit, a temporary workspace), opens the restaurant
sample in headless Chromium, and for each user turn measures the time from pressing
Enter in the chat input to the agent's reply being on the page with the script run
finished. Also reads the engine's own time per turn (`trace.timings_ms.total`) from the
conversation log, so the difference is the studio's overhead (rerun, rendering,
websocket). Two moments are timed per turn: the reply visible (the agent's message
on the page with its text; issue 17's measure, "Enter to the reply visible") and the
script run finished (the inspector beside the chat drawn too).

Side by side in the same run, conversations alternating: the smallest Streamlit chat
over the same engine (bench/minimal_chat_app.py, same launch flags as `genie studio`),
the framework's floor; six conversations of five turns each side by default (30 turns a side: with
15, the minimal chat's median moved 41-54 ms from run to run). `studio_over_minimal` is the ratio of their median turn times
on the reply visible (the goal is <= 1.2); `studio_over_minimal_run_finished` is the
same on the finished run. Ports 8670-8689. Writes ``bench/results/playground.json``.

    python bench/bench_playground.py [--conversations 6]
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from e2e_tests.conftest import (CHROMIUM, CHROMIUM_ARGS, VIEWPORT, Studio, goto, start_studio,  # noqa: E402
                                stop_studio, wait_idle)
from studio.cli import streamlit_argv  # noqa: E402

PORTS = range(8670, 8690)

PROJECT = "bench_restaurant"
TURNS = ["I want to book a table at a pizza place in San Francisco with a patio", "the second one",
         "July 6 2024", "7pm", "4 people"]
# a chat message: the studio's chat is one HTML element with a block per message
# (components/playground/chat.py); the minimal chat has Streamlit's chat messages
STUDIO_MESSAGE = ".genie-chat .msg"
MINIMAL_MESSAGE = "[data-testid=stChatMessage]"
_DONE = ("([sel, n]) => { const a = document.querySelector('[data-testid=stApp]');"
         " return document.querySelectorAll(sel).length >= n"
         " && a && a.getAttribute('data-test-script-state') === 'notRunning'; }")


def _open_playground(page, studio) -> None:
    goto(page, studio, "")
    page.get_by_test_id("stSelectbox").filter(has_text="Project").first.click()
    page.get_by_role("option", name=PROJECT, exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Open project", exact=True).click()
    wait_idle(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Playground").click()
    wait_idle(page)
    page.get_by_test_id("stChatInputTextArea").wait_for()


_VISIBLE = ("([sel, n]) => { const m = document.querySelectorAll(sel);"
            " return m.length >= n && m[n - 1].innerText.trim().length > 0; }")


def _turn(page, text: str, message: str = STUDIO_MESSAGE) -> tuple[float, float]:
    """(ms to the reply visible, ms to the script run finished) after Enter; `message` selects a chat message."""
    expected = page.locator(message).count() + 2
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    t0 = time.perf_counter()
    box.press("Enter")
    page.wait_for_function(_VISIBLE, arg=[message, expected], timeout=60_000, polling="raf")
    visible = (time.perf_counter() - t0) * 1000
    page.wait_for_function(_DONE, arg=[message, expected], timeout=60_000)
    return visible, (time.perf_counter() - t0) * 1000


def _free_port(taken: set[int]) -> int:
    import socket
    for port in PORTS:
        if port in taken:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def start_minimal(base: Path, port: int) -> Studio:
    """bench/minimal_chat_app.py under `streamlit run`, with the studio's own launch flags."""
    import os
    import subprocess
    import urllib.request
    argv = streamlit_argv(port, "127.0.0.1")
    argv[2] = str(ROOT / "bench" / "minimal_chat_app.py")
    out = (base / "minimal.log").open("w")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", *argv], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the minimal chat exited: {(base / 'minimal.log').read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return Studio(url, base, proc, base / "minimal.log")
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("the minimal chat did not start in 60 s")


def _minimal_conversation(browser, minimal: Studio) -> list[tuple[float, float]]:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.set_default_timeout(60_000)
    page.goto(minimal.url)
    wait_idle(page)
    page.get_by_test_id("stChatInputTextArea").wait_for()
    times = [_turn(page, text, MINIMAL_MESSAGE) for text in TURNS]
    page.context.close()
    return times


def run(conversations: int = 6) -> dict:
    from playwright.sync_api import sync_playwright

    from storage import Workspace

    base = Path(tempfile.mkdtemp(prefix="genie-bench-playground-"))
    workspace = Workspace(base / "ws")
    workspace.from_sample(ROOT / "sample_projects" / "restaurant_reservation", PROJECT).close()
    studio_port = _free_port(set())
    studio = start_studio(base / "ws", base / "streamlit.log", port=studio_port)
    minimal = start_minimal(base, _free_port({studio_port}))
    samples: list[dict] = []
    minimal_ms: list[tuple[float, float]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            _minimal_conversation(browser, minimal)  # warm-up: the engine's first KB question, page caches
            page = browser.new_context(viewport=VIEWPORT).new_page()
            page.set_default_timeout(60_000)
            _open_playground(page, studio)
            for c in range(conversations):
                if c:
                    page.get_by_role("button", name="New conversation").click()
                    wait_idle(page)
                for i, text in enumerate(TURNS, start=1):
                    visible, done = _turn(page, text)
                    samples.append({"conversation": c + 1, "turn": i, "user": text,
                                    "visible_ms": round(visible, 1), "browser_ms": round(done, 1)})
                minimal_ms += [(round(v, 1), round(d, 1)) for v, d in _minimal_conversation(browser, minimal)]
            browser.close()
        project = workspace.open(PROJECT)
        logs = sorted(project.logs(), key=lambda log: log.created)
        engine = [t["trace"]["timings_ms"]["total"] for log in logs for t in project.open_log(log.id).turns()]
        for sample, ms in zip(samples, engine):
            sample["engine_ms"] = ms
    finally:
        stop_studio(studio)
        stop_studio(minimal)
        shutil.rmtree(base, ignore_errors=True)
    browser_ms = [s["browser_ms"] for s in samples]
    visible_ms = [s["visible_ms"] for s in samples]
    minimal_visible = [v for v, _ in minimal_ms]
    minimal_done = [d for _, d in minimal_ms]
    later = [s["browser_ms"] for s in samples if s["turn"] > 1]
    return {
        "benchmark": "playground chat turn, browser round trip (offline parser + template responses)",
        "what": "Enter pressed in the chat input -> the reply visible (visible_ms) and the script run "
                "finished (browser_ms)",
        "samples": samples,
        "turns": len(samples),
        "median_ms": round(statistics.median(browser_ms), 1),
        "median_visible_ms": round(statistics.median(visible_ms), 1),
        "p90_ms": round(sorted(browser_ms)[max(0, int(len(browser_ms) * 0.9) - 1)], 1),
        "min_ms": min(browser_ms),
        "max_ms": max(browser_ms),
        "median_ms_without_kb_question": round(statistics.median(later), 1) if later else None,
        "median_engine_ms": round(statistics.median([s.get("engine_ms", 0) for s in samples]), 1),
        "minimal_chat": {"what": "bench/minimal_chat_app.py, same engine, sample, turns and launch flags",
                         "samples_ms": minimal_ms, "median_ms": round(statistics.median(minimal_done), 1),
                         "median_visible_ms": round(statistics.median(minimal_visible), 1)},
        "studio_over_minimal": round(statistics.median(visible_ms) / statistics.median(minimal_visible), 3),
        "studio_over_minimal_run_finished": round(statistics.median(browser_ms) / statistics.median(minimal_done),
                                                  3),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=6)
    args = parser.parse_args(argv)
    result = run(args.conversations)
    out = ROOT / "bench" / "results" / "playground.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
