"""Fixtures for the studio's browser tests (DESIGN §10).

One studio process per test session (`studio`), started with `python -m
studio.cli` (= `streamlit run studio/app.py`, headless, no usage stats) on a free port and a temporary GENIE_WORKSPACE; one headless
Debian Chromium per session (`browser`), a fresh context per test (`page`).
A failing test leaves a screenshot in `e2e_tests/screenshots/failures/`.

    def test_x(studio, page):
        goto(page, studio, "worksheets")
        ...
        wait_idle(page)
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("GENIE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FAILURES = Path(__file__).resolve().parent / "screenshots" / "failures"
VIEWPORT = {"width": 1600, "height": 1000}
START_TIMEOUT_S = 60.0


@dataclass
class Studio:
    """A running studio: its base url and the workspace folder it serves."""

    url: str
    workspace: Path
    process: subprocess.Popen
    log: Path

    def open_workspace(self):
        """The same workspace through the storage API (to check what the UI saved)."""
        from storage import Workspace

        return Workspace(self.workspace)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_studio(workspace: Path, log: Path, *, port: int | None = None,
                 extra_env: dict[str, str] | None = None) -> Studio:
    """Start the studio headless (`python -m studio.cli`) and wait for /_stcore/health."""
    port = port or free_port()
    env = {**os.environ, "GENIE_WORKSPACE": str(workspace), "PYTHONPATH": str(ROOT), **(extra_env or {})}
    # `python -m studio.cli` is `streamlit run studio/app.py` with Streamlit's v1 pages/ detection off
    cmd = [sys.executable, "-m", "studio.cli", "--port", str(port), "--address", "127.0.0.1",
           "--", "--server.fileWatcherType", "none"]
    out = log.open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the studio exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return Studio(url, workspace, proc, log)
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError(f"the studio did not become healthy in {START_TIMEOUT_S:.0f} s:\n{log.read_text()[-3000:]}")


def stop_studio(studio: Studio) -> None:
    studio.process.terminate()
    try:
        studio.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        studio.process.kill()
        studio.process.wait(timeout=5)


def chromium_available() -> bool:
    return Path(CHROMIUM).exists() or shutil.which("chromium") is not None


@pytest.fixture(scope="session")
def studio(tmp_path_factory):
    if not chromium_available():
        pytest.skip(f"Chromium not found at {CHROMIUM} (scripts/test.sh installs it with apt-get)")
    base = tmp_path_factory.mktemp("studio")
    from storage import Workspace

    Workspace(base / "workspace").ensure_samples()  # what the first page load would do, done up front
    server = start_studio(base / "workspace", base / "streamlit.log")
    yield server
    stop_studio(server)


@pytest.fixture(scope="session")
def browser():
    if not chromium_available():
        pytest.skip(f"Chromium not found at {CHROMIUM} (scripts/test.sh installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    yield pg
    failed = any(getattr(request.node, f"rep_{w}", None) is not None and getattr(request.node, f"rep_{w}").failed
                 for w in ("setup", "call"))
    if failed:
        FAILURES.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-120:]
        try:
            pg.screenshot(path=str(FAILURES / f"{name}.png"), full_page=True)
        except Exception as exc:  # the browser may be gone; the test failure is what matters
            print(f"could not save a failure screenshot: {exc}")
    context.close()


# -- helpers tests share -----------------------------------------------------------------


def wait_idle(page, timeout_ms: int = 30_000) -> None:
    """Wait until Streamlit has finished the script run an action started.

    The app root carries `data-test-script-state`; right after a click the rerun may
    not have started yet, so first give it a moment to leave `notRunning`.
    """
    app = page.locator('[data-testid="stApp"]')
    app.wait_for(state="attached", timeout=timeout_ms)
    try:
        page.wait_for_function(
            "() => { const a = document.querySelector('[data-testid=stApp]');"
            " return a && a.getAttribute('data-test-script-state') !== 'notRunning'; }",
            timeout=400)
    except Exception:
        pass  # the run was quick (or nothing was triggered): already idle
    idle = ("() => { const a = document.querySelector('[data-testid=stApp]');"
            " return a && a.getAttribute('data-test-script-state') === 'notRunning'"
            " && a.getAttribute('data-test-connection-state') === 'CONNECTED'; }")
    for _ in range(2):  # a callback's st.rerun() leaves a short idle gap between two runs
        page.wait_for_function(idle, timeout=timeout_ms, polling=25)
        page.wait_for_timeout(150)
    page.wait_for_function(idle, timeout=timeout_ms)


def goto(page, studio: Studio, url_path: str = "", query: str = "") -> None:
    """Open a page of the studio by its url path (projects, worksheets, ...) and wait for it."""
    page.goto(f"{studio.url}/{url_path}{'?' + query if query else ''}")
    wait_idle(page)


def open_project(page, studio: Studio, name: str) -> None:
    """Open a project through the Projects page, as a user would (select it, click Open)."""
    goto(page, studio, "projects")
    page.get_by_test_id("stSelectbox").filter(has_text="Project").first.click()
    page.get_by_role("option", name=name, exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Open project", exact=True).click()
    wait_idle(page)
    page.get_by_text(f"Project: {name}").first.wait_for()


def ensure_project(studio: Studio, name: str, sample: str) -> None:
    """A fresh copy of `sample` named `name` in the studio's workspace (via the storage API)."""
    ws = studio.open_workspace()
    if ws.exists(name):
        ws.delete(name)
    for folder in ws.samples():
        if folder.name == sample:
            ws.from_sample(folder, name)
            return
    raise LookupError(f"no sample named {sample}")


def frame_with(page, text: str, timeout_ms: int = 45_000):
    """The first iframe (components.html, AgGrid) whose body contains `text`."""
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        for frame in page.frames:
            try:
                if frame != page.main_frame and text in (frame.inner_text("body", timeout=500) or ""):
                    return frame
            except Exception:
                continue
        page.wait_for_timeout(200)
    raise AssertionError(f"no frame shows {text!r}")


def fill(page, label: str, value: str, *, nth: int = 0) -> None:
    """Type into a Streamlit text input/area by its label and commit it (Streamlit reads on blur)."""
    box = page.get_by_label(label, exact=True).nth(nth)
    box.fill(value)
    box.press("Tab")
    wait_idle(page)


def click(page, name: str, *, exact: bool = True) -> None:
    """Click a button by its visible name and wait for the rerun."""
    page.get_by_role("button", name=name, exact=exact).first.click()
    wait_idle(page)


def grid_frame(page, text: str = "WS Name"):
    """The AgGrid frame of the worksheet editor, once its rows are drawn."""
    frame = frame_with(page, text)
    frame.locator(".ag-row").first.wait_for()
    return frame


def show_column(page, frame, row_id: str, col: str) -> None:
    """Scroll the grid sideways until the cell is drawn (AG Grid draws only the columns in view)."""
    cell = frame.locator(f'.ag-row[row-id="{row_id}"] .ag-cell[col-id="{col}"]')
    bar = frame.locator(".ag-body-horizontal-scroll-viewport").first
    for left in (None, 0, 300, 600, 900, 1200, 1500, 1800, 2100):
        if cell.count():
            return
        if left is not None:
            bar.evaluate(f"e => {{ e.scrollLeft = {left}; e.dispatchEvent(new Event('scroll')); }}")
            page.wait_for_timeout(250)


def edit_grid_cell(page, frame, row_id: str, col: str, value: str, *, long_text: bool = False) -> None:
    """Double-click a grid cell, replace its text, commit (Enter, or Tab for the large-text editor)."""
    show_column(page, frame, row_id, col)
    frame.locator(f'.ag-row[row-id="{row_id}"] .ag-cell[col-id="{col}"]').first.dblclick()
    editor = frame.locator("textarea" if long_text else ".ag-cell-inline-editing input").first
    editor.fill(value)
    editor.press("Tab" if long_text else "Enter")
    wait_idle(page)


def nav(page, title: str) -> None:
    """Go to another page through the sidebar, as a user does (same browser session, so drafts stay)."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    wait_idle(page)
