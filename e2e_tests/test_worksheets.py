"""Worksheets page in a real browser: edit a cell and save a version; lint errors come and go; conflicts."""

from conftest import click, edit_grid_cell, ensure_project, fill, goto, grid_frame, wait_idle

PROJECT = "e2e_worksheets"


def open_grid(page, studio):
    ensure_project(studio, PROJECT, "restaurant_reservation")
    goto(page, studio, "worksheets", f"project={PROJECT}")
    return grid_frame(page)


def test_edit_a_field_and_save_creates_a_version(studio, page):
    frame = open_grid(page, studio)
    before = studio.open_workspace().open(PROJECT).head().number
    edit_grid_cell(page, frame, "w1.f1", "description", "The day of the booking (e2e)", long_text=True)
    page.get_by_text("unsaved: 1 attribute changed").wait_for()
    fill(page, "Version message (optional)", "clearer date description")
    click(page, "Save version")
    page.get_by_text(f"Saved version {before + 1}: clearer date description").wait_for()
    project = studio.open_workspace().open(PROJECT)
    head = project.head()
    assert head.number == before + 1 and head.message == "clearer date description"
    assert project.spec().worksheet("BookRestaurant").field("date").description == "The day of the booking (e2e)"
    page.get_by_text(f"Editing from version {before + 1} · no unsaved edits").wait_for()


def test_lint_error_appears_links_to_the_cell_and_disappears_then_add_and_undo(studio, page):
    frame = open_grid(page, studio)
    page.get_by_text("No problems found.").wait_for()
    edit_grid_cell(page, frame, "w1", "ws_predicate", 'user_taskk == "Book Restaurant"', long_text=True)
    page.get_by_text("Did you mean 'user_task'?").wait_for()
    assert frame.locator('.ag-row[row-id="w1"] .ag-cell[col-id="lint"]').first.inner_text() == "1 error"
    click(page, "Show in grid")
    cell = frame.locator('.ag-row[row-id="w1"] .ag-cell[col-id="ws_predicate"]').first
    cell.wait_for()
    frame.wait_for_function("() => document.querySelector('.ag-row[row-id=\"w1\"] .genie-focus-cell') !== null")
    assert "genie-focus-cell" in cell.get_attribute("class")
    assert "ag-row-selected" in frame.locator('.ag-row[row-id="w1"]').first.get_attribute("class")
    click(page, "Undo")
    page.get_by_text("No problems found.").wait_for()
    assert frame.locator('.ag-row[row-id="w1"] .ag-cell[col-id="lint"]').first.inner_text() == ""

    # add a field below a selected row, then undo it
    frame.locator('.ag-row[row-id="w0.f0"] .ag-cell[col-id="name"]').first.click()
    wait_idle(page)
    page.get_by_text("Selected: field UserInfo.user_task").wait_for()
    click(page, "Add field")
    frame.locator('.ag-row[row-id="w0.f1"]').first.wait_for()
    assert frame.locator('.ag-row[row-id="w0.f1"] .ag-cell[col-id="name"]').first.inner_text() == "new_field"
    page.get_by_text("unsaved: 1 field added").wait_for()
    click(page, "Undo")
    frame.locator('.ag-row[row-id="w0.f1"]').first.wait_for(state="detached")  # pinned columns: one row element per side


def test_a_save_after_someone_else_saved_merges_both(studio, page):
    frame = open_grid(page, studio)
    edit_grid_cell(page, frame, "w1.f2", "description", "mine", long_text=True)
    project = studio.open_workspace().open(PROJECT)  # someone else saves meanwhile
    spec = project.spec()
    spec.worksheet("BookRestaurant").description = "theirs"
    theirs = project.save_spec(spec, "someone else", author="other")
    click(page, "Save version")  # merged three-way onto their version: nothing of theirs is lost
    page.get_by_text(f"Saved version {theirs.number + 1}").wait_for()
    spec = project.spec()
    assert spec.worksheet("BookRestaurant").field("time").description == "mine"
    assert spec.worksheet("BookRestaurant").description == "theirs"
