"""Knowledge page in a real browser: import a CSV with progress, query it, bad files and bad queries."""

from conftest import click, ensure_project, fill, frame_with, goto, nav, wait_idle

PROJECT = "e2e_knowledge"


def upload(page, path):
    expander = page.get_by_test_id("stExpander").filter(has_text="Import a table").first
    expander.wait_for()
    if expander.locator("details").get_attribute("open") is None:
        expander.locator("summary").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    wait_idle(page)


def test_import_a_csv_query_it_and_refuse_bad_input(studio, page, tmp_path):
    ensure_project(studio, PROJECT, "bank_fraud")  # no KB yet
    data = tmp_path / "pets.csv"
    data.write_text("name,species,age\nRex,dog,3\nTom,cat,1\nNemo,fish,2\n")
    goto(page, studio, "knowledge", f"project={PROJECT}")
    page.get_by_text("has no knowledge-base tables yet").wait_for()
    upload(page, data)
    assert page.get_by_label("Table name").input_value() == "pets"
    click(page, "Import")
    page.get_by_text("Imported 3 rows into table pets").wait_for()
    assert studio.open_workspace().open(PROJECT).kb_tables() == ["pets"]
    preview = frame_with(page, "Rex")
    assert "Nemo" in preview.inner_text("body")

    page.get_by_role("tab", name="SQL console").click()
    fill(page, "Read-only SQL", "SELECT name FROM pets WHERE age >= 2 ORDER BY name")
    click(page, "Run query")
    page.get_by_text("2 row(s) in").wait_for()
    fill(page, "Read-only SQL", "DELETE FROM pets")
    click(page, "Run query")
    error = page.get_by_test_id("stAlertContentError").first
    error.wait_for()
    assert "Query failed" in error.inner_text()
    with studio.open_workspace().open(PROJECT) as project:
        from core_engine.knowledge.kb import SQLiteKB
        assert SQLiteKB(project.kb_path()).execute("SELECT count(*) AS n FROM pets").rows == [{"n": 3}]

    bad = tmp_path / "broken.jsonl"  # a bad file is reported by line and nothing is imported
    bad.write_text('{"a": 1}\n{"a": \n')
    upload(page, bad)
    click(page, "Import")
    error = page.get_by_test_id("stAlertContentError").filter(has_text="Nothing was imported").first
    error.wait_for()
    assert "line 2" in error.inner_text()
    assert studio.open_workspace().open(PROJECT).kb_tables() == ["pets"]


def test_derive_the_kb_worksheet_into_the_draft(studio, page, tmp_path):
    ensure_project(studio, PROJECT, "bank_fraud")
    project = studio.open_workspace().open(PROJECT)
    data = tmp_path / "branches.csv"
    data.write_text("id,city,kind\n1,Paris,main\n2,Lyon,outlet\n3,Nice,outlet\n4,Lille,main\n5,Brest,outlet\n")
    project.import_kb(data, "branches")
    goto(page, studio, "knowledge", f"project={PROJECT}")
    page.get_by_role("tab", name="Derive worksheet").click()
    fill(page, "Row type name (optional)", "Branch")
    click(page, "Add the worksheets to the draft")
    page.get_by_text("added kb worksheet branches").wait_for()
    nav(page, "Worksheets")  # the draft lives in the browser session
    page.get_by_text("unsaved: 2 worksheets added").wait_for()
