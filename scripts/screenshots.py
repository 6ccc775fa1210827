"""Screenshots of every studio page with a sample project loaded -> docs/screenshots/<page>.png.

Starts the studio headless on a temporary workspace (the four samples), opens each
page in headless Chromium (1600x1000) with the restaurant sample, waits until its
content is drawn (grids, graph layout), does what the page's entry in SHOTS says
(e.g. pick a node, run a query) and saves the picture.

    python scripts/screenshots.py [--only graph worksheets] [--out docs/screenshots]

To add a page: append a Shot (name, url path, project, a `prepare(page)` function).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from e2e_tests.conftest import (CHROMIUM, CHROMIUM_ARGS, VIEWPORT, click, edit_grid_cell, fill,  # noqa: E402
                                frame_with, start_studio, stop_studio, wait_idle)

SAMPLE = "restaurant_reservation"


@dataclass
class Shot:
    name: str
    path: str
    project: str | None = SAMPLE
    prepare: Callable[[Any], None] | None = None
    width: int | None = None  # viewport width (default VIEWPORT's); the name then ends in _<width>
    copy_of: str | None = None  # make `project` a fresh copy of this sample first (shots that change it)


WORKSPACE: Any = None  # the screenshot workspace, for shots that act as "someone else" through storage


def _projects(page) -> None:
    page.get_by_text("Project: restaurant_reservation").first.wait_for()
    page.get_by_role("button", name="Open project").wait_for()
    page.get_by_label("New project name").wait_for()
    page.wait_for_timeout(800)  # let the widgets hydrate (no skeletons in the picture)


def _worksheets(page) -> None:
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()
    frame.locator('.ag-row[row-id="w1.f1"] .ag-cell[col-id="name"]').first.click()  # select a field row
    wait_idle(page)
    page.wait_for_timeout(400)


def _worksheets_lint(page) -> None:
    """A typo in a WS predicate: the lint panel explains it and 'Show in grid' outlines the cell."""
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()
    edit_grid_cell(page, frame, "w1", "ws_predicate", 'user_taskk == "Book Restaurant"', long_text=True)
    page.get_by_text("Did you mean 'user_task'?").wait_for()
    click(page, "Show in grid")
    frame.wait_for_function("() => document.querySelector('.genie-focus-cell') !== null")
    page.wait_for_timeout(400)


def _graph(page) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text="Find a node").first.click()
    page.keyboard.type("BookRestaurant (worksheet")
    page.get_by_role("option", name="BookRestaurant (worksheet)").click()
    wait_idle(page)
    for frame in page.frames[1:]:
        try:
            frame.wait_for_function("() => document.body.getAttribute('data-graph-ready') === '1'", timeout=30_000)
            frame.evaluate("() => window.genieNetwork.fit({animation: false})")
            break
        except Exception:
            continue
    page.wait_for_timeout(600)


def _graph_big(page) -> None:
    """The generated 30-worksheet / 300-field spec: the default worksheet-level view, laid out."""
    for frame in page.frames[1:]:
        try:
            frame.wait_for_function("() => document.body.getAttribute('data-graph-ready') === '1'", timeout=60_000)
            break
        except Exception:
            continue
    page.wait_for_timeout(600)


def _graph_big_fields(page) -> None:
    """The same big spec with every field drawn (the 'Worksheets only' toggle switched off)."""
    _graph_big(page)
    for frame in page.frames[1:]:
        try:
            frame.evaluate("() => { window.genieStale = true; }")
        except Exception:
            continue
    page.get_by_text("Worksheets only", exact=True).click()
    wait_idle(page)
    for frame in page.frames[1:]:
        try:
            frame.wait_for_function("() => !window.genieStale && "
                                    "document.body.getAttribute('data-graph-ready') === '1'", timeout=60_000)
            break
        except Exception:
            continue
    page.wait_for_timeout(600)


def _knowledge(page) -> None:
    frame = frame_with(page, "Page 1 of")
    frame.locator(".ag-row").first.wait_for()
    page.wait_for_timeout(300)


def _settings(page) -> None:
    page.get_by_text("Embedded default").wait_for()


def _generic(page) -> None:
    page.wait_for_timeout(500)


# -- playground and tests pages (STUDIO-B) ----------------------------------------------------

def _say(page, text: str) -> None:
    expected = page.locator(".genie-chat .msg").count() + 2
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    box.press("Enter")
    page.wait_for_function("n => document.querySelectorAll('.genie-chat .msg').length >= n", arg=expected)
    wait_idle(page)


def _chat(page, turns: list[str]) -> None:
    page.get_by_test_id("stChatInputTextArea").wait_for()
    for text in turns:
        _say(page, text)


def _nav(page, title: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    wait_idle(page)


PIZZA = ["I want to book a table at a pizza place in San Francisco with a patio", "the second one", "July 6 2024"]


def _playground(page) -> None:
    _chat(page, PIZZA)
    page.get_by_test_id("stSelectbox").filter(has_text="Inspect").first.click()  # inspect turn 2: the restaurant
    page.get_by_role("option", name=re.compile(r"^turn 2 ·")).first.click()
    wait_idle(page)
    page.mouse.move(5, 5)  # no tooltip in the picture
    page.wait_for_timeout(600)


def _playground_trace(page) -> None:
    _chat(page, PIZZA[:1])
    page.get_by_test_id("stButtonGroup").get_by_text("Trace", exact=True).first.click()  # the inspector's view
    wait_idle(page)
    page.get_by_role("tab", name="KB queries", exact=True).click()
    wait_idle(page)
    page.wait_for_timeout(600)


def _coverage(page) -> None:
    click(page, "Run all tests")
    page.get_by_text("passed,").first.wait_for(timeout=120_000)
    page.get_by_role("tab", name="Coverage", exact=True).click()
    wait_idle(page)
    page.locator('[data-testid="stExpander"]').filter(has_text="CoursesToTake (task)").first.scroll_into_view_if_needed()
    page.wait_for_timeout(600)


def _tests(page) -> None:
    """The issue's flow in short: save a conversation as a test, break the spec, see the diff."""
    _nav(page, "Playground")
    _chat(page, PIZZA + ["7pm"])
    click(page, "Save as test")
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Test name").fill("pizza booking")
    dialog.get_by_label("Test name").press("Tab")
    wait_idle(page)
    dialog.get_by_role("button", name="Save test").click()
    wait_idle(page)
    _nav(page, "Worksheets")
    from e2e_tests.conftest import edit_grid_cell, grid_frame
    edit_grid_cell(page, grid_frame(page), "w1.f2", "name", "time_of_day")
    click(page, "Save version")
    _nav(page, "Tests")
    page.get_by_test_id("stSelectbox").filter(has_text="Test").first.click()
    page.get_by_role("option", name="pizza booking", exact=True).click()
    wait_idle(page)
    click(page, "Run this test")
    page.get_by_text("First differing turn").first.scroll_into_view_if_needed()
    page.wait_for_timeout(600)


# -- issue 14: agent page, merge and conflict, kept draft, inspector, knowledge import, accept --------------

def _tab(page, name: str) -> None:
    page.get_by_role("tab", name=name, exact=True).first.click()
    wait_idle(page)


def _agent_settings(page) -> None:
    page.get_by_role("textbox", name="Starting prompt").wait_for()
    page.wait_for_timeout(500)


def _agent_apis(page) -> None:
    _tab(page, "APIs")
    page.get_by_test_id("stSelectbox").filter(has_text="API").first.click()
    page.get_by_role("option", name="book_restaurant", exact=True).click()
    wait_idle(page)
    click(page, "Try book_restaurant")
    page.get_by_text("The API answered:").wait_for()
    page.get_by_text("The API answered:").scroll_into_view_if_needed()
    page.wait_for_timeout(500)


def _agent_prompts(page) -> None:
    _tab(page, "Prompts and examples")
    page.get_by_text("The rendered parser prompt").click()
    wait_idle(page)
    page.get_by_text("The rendered parser prompt").scroll_into_view_if_needed()
    page.wait_for_timeout(500)


def _conflict(page) -> None:
    """Both sides changed the same description: the studio shows both values and lets the user choose."""
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()
    edit_grid_cell(page, frame, "w1.f1", "description", "The day the guests come (mine)", long_text=True)
    project = WORKSPACE.open(page.url.split("project=")[1].split("&")[0])
    spec = project.spec()
    spec.worksheet("BookRestaurant").field("date").description = "Date of the booking (theirs)"
    spec.starting_prompt = "Welcome! (changed in another tab)"
    project.save_spec(spec, "edited in another tab", author="colleague")
    click(page, "Save version")
    page.get_by_text("conflict(s) with version").wait_for()
    page.get_by_text("conflict(s) with version").scroll_into_view_if_needed()
    page.wait_for_timeout(500)


def _newer(page) -> None:
    """Someone saved while I was editing: what they changed next to my unsaved edits, and a merge button."""
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()
    edit_grid_cell(page, frame, "w1.f1", "description", "The day the guests come (mine)", long_text=True)
    project = WORKSPACE.open(page.url.split("project=")[1].split("&")[0])
    spec = project.spec()
    spec.worksheet("BookRestaurant").description = "Book a table (edited by a colleague)"
    project.save_spec(spec, "clearer wording", author="colleague")
    page.reload()
    wait_idle(page)
    click(page, "Restore my unsaved edits")
    page.get_by_text("that your edits started from").wait_for()
    page.mouse.move(5, 5)
    page.wait_for_timeout(500)


def _kept(page) -> None:
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()
    edit_grid_cell(page, frame, "w1.f1", "description", "Unsaved: the day of the visit", long_text=True)
    page.reload()
    wait_idle(page)
    page.get_by_text("Unsaved edits from").wait_for()
    page.wait_for_timeout(500)


def _inspector(page) -> None:
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()
    frame.locator('.ag-row[row-id="w1.f1"] .ag-cell[col-id="name"]').first.click()
    wait_idle(page)
    page.get_by_text("Inspector: every attribute").click()
    wait_idle(page)
    page.get_by_label("Field name").scroll_into_view_if_needed()
    page.wait_for_timeout(500)


def _knowledge_import(page) -> None:
    data = Path(tempfile.mkdtemp()) / "dentists.csv"
    data.write_text("name;specialty;services;city\nDr Lee;general;cleaning, implants, whitening;Palo Alto\n"
                    "Dr Kim;orthodontics;braces, retainers;Menlo Park\nDr Rao;surgery;extractions;Palo Alto\n")
    expander = page.get_by_test_id("stExpander").filter(has_text="Import a table").first
    if expander.locator("details").get_attribute("open") is None:
        expander.locator("summary").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(data))
    wait_idle(page)
    page.get_by_test_id("stMultiSelect").filter(has_text="Split into lists").first.click()
    page.get_by_role("option", name="services").click()
    page.keyboard.press("Escape")
    wait_idle(page)
    page.get_by_text("parsed with semicolon").scroll_into_view_if_needed()
    page.wait_for_timeout(500)


def _accept(page) -> None:
    _nav(page, "Playground")
    _chat(page, PIZZA)
    click(page, "Save as test")
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Test name").fill("pizza booking")
    dialog.get_by_label("Test name").press("Tab")
    wait_idle(page)
    dialog.get_by_role("button", name="Save test").click()
    wait_idle(page)
    project = WORKSPACE.open(page.url.split("project=")[1].split("&")[0])
    spec = project.spec()
    spec.worksheet("BookRestaurant").field("time").dont_ask = True
    project.save_spec(spec, "time optional")
    _nav(page, "Tests")
    page.get_by_test_id("stSelectbox").filter(has_text="Test").first.click()
    page.get_by_role("option", name="pizza booking", exact=True).click()
    wait_idle(page)
    click(page, "Run this test")
    click(page, "Accept the new behaviour")
    page.get_by_role("dialog").get_by_text("become what the agent does now").wait_for()
    page.wait_for_timeout(500)


def _clusters(page) -> None:
    page.get_by_text("hierarchical", exact=True).click()
    wait_idle(page)
    for frame in page.frames[1:]:
        try:
            frame.wait_for_function("() => document.body.getAttribute('data-graph-ready') === '1'", timeout=30_000)
            frame.evaluate("() => window.genieNetwork.fit({animation: false})")
            break
        except Exception:
            continue
    page.wait_for_timeout(600)


def _picker(page) -> None:
    _chat(page, PIZZA)
    page.reload()
    wait_idle(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Conversation").first.click()
    page.get_by_role("option").first.wait_for()
    page.wait_for_timeout(400)


NEW_PANELS = [
    ("agent_settings", "agent", _agent_settings), ("agent_apis", "agent", _agent_apis),
    ("agent_prompts", "agent", _agent_prompts), ("worksheets_newer", "worksheets", _newer),
    ("worksheets_conflict", "worksheets", _conflict), ("worksheets_kept_draft", "worksheets", _kept),
    ("worksheets_inspector", "worksheets", _inspector), ("knowledge_import", "knowledge", _knowledge_import),
    ("tests_accept", "tests", _accept), ("graph_clusters", "graph", _clusters),
    ("playground_picker", "playground", _picker),
]

SHOTS: list[Shot] = [
    Shot("projects", "projects", prepare=_projects),
    Shot("worksheets", "worksheets", prepare=_worksheets),
    Shot("worksheets_lint", "worksheets", prepare=_worksheets_lint),  # unsaved edit: the sample stays intact
    Shot("graph", "graph", prepare=_graph),
    Shot("knowledge", "knowledge", prepare=_knowledge),
    Shot("playground", "playground", prepare=_playground),
    Shot("playground_trace", "playground", prepare=_playground_trace),
    Shot("coverage", "tests", project="course_enrollment", prepare=_coverage),  # has untouched parts
    Shot("tests", "tests", prepare=_tests),  # breaks the sample's spec: keep it after the shots above
    Shot("settings", "settings", prepare=_settings),
    Shot("graph_big", "graph", project="big_30x300", prepare=_graph_big),
    Shot("graph_big_fields", "graph", project="big_30x300", prepare=_graph_big_fields),
] + [Shot(name, path, project="restaurant_demo", prepare=prep, width=w, copy_of=SAMPLE)
     for name, path, prep in NEW_PANELS for w in (1280, 1600)]


def take(shots: list[Shot], out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    from storage import Workspace

    global WORKSPACE
    base = Path(tempfile.mkdtemp(prefix="genie-screens-"))
    workspace = Workspace(base / "workspace")
    workspace.ensure_samples()
    WORKSPACE = workspace
    studio = start_studio(base / "workspace", base / "streamlit.log")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for shot in shots:
                if shot.project == "big_30x300" and not workspace.exists("big_30x300"):
                    from bench.bench_studio import big_spec  # made late, so the Projects shot lists the samples
                    workspace.create("big_30x300", big_spec()).close()
                if shot.copy_of:
                    if workspace.exists(shot.project):
                        workspace.delete(shot.project)
                    workspace.from_sample(next(f for f in workspace.samples() if f.name == shot.copy_of),
                                          shot.project).close()
                viewport = {**VIEWPORT, "width": shot.width} if shot.width else VIEWPORT
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                page.set_default_timeout(30_000)
                query = f"?project={shot.project}" if shot.project else ""
                page.goto(f"{studio.url}/{shot.path}{query}")
                wait_idle(page)
                if shot.prepare is not None:
                    shot.prepare(page)
                target = out / (f"{shot.name}_{shot.width}.png" if shot.width else f"{shot.name}.png")
                page.screenshot(path=str(target))
                written.append(target)
                print(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
                context.close()
            browser.close()
    finally:
        stop_studio(studio)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Screenshots of every studio page -> docs/screenshots/")
    parser.add_argument("--only", nargs="*", help="page names (default: all)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    shots = [s for s in SHOTS if not args.only or s.name in args.only or f"{s.name}_{s.width}" in args.only]
    take(shots, Path(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
