"""Nothing a user does is lost (issue 14): concurrent saves merge, conflicts are chosen per cell, a reload
keeps the project in the URL and offers the unsaved draft back, destructive actions ask first, recorded
conversations reopen, a test is not overwritten silently, and a failing test can accept the new behaviour."""

import socket

import pytest
from conftest import click, edit_grid_cell, ensure_project, goto, grid_frame, nav, start_studio, stop_studio, wait_idle

from storage.drafts import load_draft

PROJECT = "e2e_safety"


def _port() -> int:
    for port in range(8640, 8650):  # the ports this tests may use
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port in 8640-8649")


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    from storage import Workspace

    base = tmp_path_factory.mktemp("studio14")
    Workspace(base / "workspace").ensure_samples()
    server = start_studio(base / "workspace", base / "streamlit.log", port=_port())
    yield server
    stop_studio(server)


def dialog(page):
    box = page.get_by_role("dialog")
    box.wait_for()
    return box


def test_merge_conflict_reload_draft_and_confirmations(studio, page):
    ensure_project(studio, PROJECT, "restaurant_reservation")
    goto(page, studio, "worksheets", f"project={PROJECT}")
    frame = grid_frame(page)
    project = studio.open_workspace().open(PROJECT)

    # 1. someone else saves parts the grid does not show, and a worksheet description; my save merges
    edit_grid_cell(page, frame, "w1.f1", "description", "mine", long_text=True)
    spec = project.spec()
    spec.starting_prompt = "Theirs: hello"
    spec.worksheet("BookRestaurant").description = "theirs"
    theirs = project.save_spec(spec, "other tab", author="cli")
    click(page, "Save version")
    page.get_by_text(f"Saved version {theirs.number + 1}").wait_for()
    merged = project.spec()
    assert merged.worksheet("BookRestaurant").field("date").description == "mine"
    assert merged.worksheet("BookRestaurant").description == "theirs" and merged.starting_prompt == "Theirs: hello"

    # 2. the same cell changed on both sides: both values shown, I keep mine
    edit_grid_cell(page, frame, "w1.f1", "description", "mine again", long_text=True)
    spec = project.spec()
    spec.worksheet("BookRestaurant").field("date").description = "theirs again"
    other = project.save_spec(spec, "other tab 2", author="cli")
    click(page, "Save version")
    page.get_by_text("1 conflict(s) with version").wait_for()
    assert project.head().number == other.number  # nothing saved while the conflict is open
    page.get_by_test_id("stCode").filter(has_text="theirs again").first.wait_for()  # both values, side by side
    page.get_by_test_id("stRadio").last.get_by_text("mine", exact=True).click()
    wait_idle(page)
    click(page, "Merge with these choices")
    page.get_by_text(f"merged onto version {other.number}").wait_for()
    click(page, "Save version")
    page.get_by_text(f"Saved version {other.number + 1}").wait_for()
    assert project.spec().worksheet("BookRestaurant").field("date").description == "mine again"

    # 3. a reload keeps the project (URL) and offers the unsaved edit back
    frame = grid_frame(page)
    edit_grid_cell(page, frame, "w1.f1", "description", "kept across reload", long_text=True)
    assert load_draft(project).spec.worksheet("BookRestaurant").field("date").description == "kept across reload"
    assert f"project={PROJECT}" in page.url
    page.reload()
    wait_idle(page)
    page.get_by_text("Unsaved edits from").wait_for()
    click(page, "Restore my unsaved edits")
    page.get_by_text("unsaved: 1 attribute changed").wait_for()

    # 4. discarding asks first; Cancel keeps the edits, Yes drops them (also from the file)
    click(page, "Discard edits")
    dialog(page).get_by_text("Discard all unsaved edits?").wait_for()
    dialog(page).get_by_role("button", name="Cancel").click()
    wait_idle(page)
    page.get_by_text("unsaved: 1 attribute changed").wait_for()
    click(page, "Discard edits")
    dialog(page).get_by_role("button", name="Yes, discard").click()
    wait_idle(page)
    page.get_by_text("no unsaved edits").wait_for()
    assert load_draft(project) is None

    # 5. deleting a worksheet asks first
    frame = grid_frame(page)
    frame.locator('.ag-row[row-id="w1"] .ag-cell[col-id="ws_name"]').first.click()
    wait_idle(page)
    page.get_by_text("Selected: worksheet BookRestaurant").wait_for()
    click(page, "Delete")
    dialog(page).get_by_text("Delete worksheet BookRestaurant?").wait_for()
    dialog(page).get_by_role("button", name="Yes, delete").click()
    wait_idle(page)
    page.get_by_text("unsaved: 1 worksheet removed").wait_for()
    nav(page, "Agent")  # navigation keeps the project in the URL
    assert f"project={PROJECT}" in page.url


def test_recorded_conversations_reopen_tests_ask_first_and_accept_new_behaviour(studio, page):
    from test_playground import PIZZA, START, choose, messages, say, select_turn

    project = "e2e_safety_pg"
    ensure_project(studio, project, "restaurant_reservation")
    goto(page, studio, "playground", f"project={project}")
    page.get_by_text(START).first.wait_for()
    say(page, PIZZA)
    say(page, "the second one")
    say(page, "July 6 2024")

    # a reload: the recorded conversation is in the picker and reopens with its turns and time travel
    page.reload()
    wait_idle(page)
    page.get_by_text(START).first.wait_for()
    choose(page, "Conversation", next(o for o in _options(page, "Conversation") if "3 turn(s)" in o))
    page.get_by_role("heading", name="Turn 3 of 3").wait_for()
    assert messages(page).count() == 7
    select_turn(page, 2)
    click(page, "Rewind to turn 2")
    page.get_by_role("heading", name="Turn 2 of 2").wait_for()
    say(page, "July 6 2024")

    # save as a test; saving again under the same name asks before replacing
    for attempt in range(2):
        click(page, "Save as test")
        box = dialog(page)
        box.get_by_label("Test name").fill("pizza")
        box.get_by_label("Test name").press("Tab")
        wait_idle(page)
        if attempt:
            box.get_by_text("A test named 'pizza' already exists").wait_for()
            assert box.get_by_role("button", name="Replace test").is_disabled()
            box.get_by_text("Replace the existing test 'pizza'").click()
            wait_idle(page)
            box.get_by_role("button", name="Replace test").click()
        else:
            box.get_by_role("button", name="Save test").click()
        wait_idle(page)
        page.get_by_text("Saved test 'pizza' (3 turns)").wait_for()

    # the spec changes; the test fails; accepting the new behaviour shows the diff and updates it
    pf = studio.open_workspace().open(project)
    spec = pf.spec()
    spec.worksheet("BookRestaurant").field("time").dont_ask = True
    pf.save_spec(spec, "time optional")
    nav(page, "Tests")
    choose(page, "Test", "pizza")
    click(page, "Run this test")
    page.get_by_text("0 passed, 1 failed").wait_for()
    click(page, "Accept the new behaviour")
    box = dialog(page)
    box.get_by_text("the expectations of 1 turn(s) become what the agent does now").wait_for()
    box.get_by_role("button", name="Accept and update the test").click()
    wait_idle(page)
    page.get_by_text("Updated test 'pizza' to the new behaviour").wait_for()
    click(page, "Run this test")
    page.get_by_text("1 passed, 0 failed").wait_for()

    # deleting a test asks first
    click(page, "Delete this test")
    dialog(page).get_by_role("button", name="Cancel").click()
    wait_idle(page)
    assert "pizza" in pf.tests()
    click(page, "Delete this test")
    dialog(page).get_by_role("button", name="Yes, delete").click()
    wait_idle(page)
    page.get_by_text("Deleted test 'pizza'.").wait_for()
    assert "pizza" not in pf.tests()


def _options(page, label: str) -> list[str]:
    page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    options = page.get_by_role("option").all_inner_texts()
    page.keyboard.press("Escape")
    wait_idle(page)
    return options
