"""Projects page in a real browser: open a sample, create, rename, delete, import, export a bundle."""

from pathlib import Path

from conftest import click, ensure_project, fill, goto, open_project, wait_idle

from core_engine.loaders import dumps_paper_csv


def test_open_a_sample_and_export_a_bundle(studio, page, tmp_path):
    open_project(page, studio, "bank_fraud")
    page.get_by_role("tab", name="Export").click()
    with page.expect_download() as info:
        page.get_by_role("button", name="Bundle (.genie)").click()
    download = info.value
    assert download.suggested_filename == "bank_fraud.genie"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    from storage import ProjectFile, read_manifest

    assert read_manifest(path)  # a real bundle, readable by the storage layer
    with ProjectFile(path, readonly=True) as bundle:
        assert [w.name for w in bundle.spec().worksheets] == ["Main", "FirstAuthentication", "SecondAuthentication"]


def test_create_from_sample_rename_and_delete(studio, page):
    ws = studio.open_workspace()
    for name in ("e2e_created", "e2e_renamed"):
        if ws.exists(name):
            ws.delete(name)
    goto(page, studio, "projects")
    fill(page, "New project name", "e2e_created")
    page.get_by_test_id("stSelectbox").filter(has_text="Start from").first.click()
    page.get_by_role("option", name="bank_fraud", exact=True).click()
    click(page, "Create")
    page.get_by_text("Created e2e_created and opened it.").wait_for()
    page.get_by_text("Project: e2e_created").first.wait_for()
    assert ws.exists("e2e_created")
    assert ws.open("e2e_created").spec().worksheet("FirstAuthentication") is not None

    page.get_by_role("tab", name="Rename or delete").click()
    fill(page, "Rename to", "e2e_renamed")
    click(page, "Rename")
    page.get_by_text("Renamed e2e_created to e2e_renamed.").wait_for()
    assert ws.exists("e2e_renamed") and not ws.exists("e2e_created")

    page.get_by_role("tab", name="Rename or delete").click()
    click(page, "Delete e2e_renamed…")
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("will be moved to the workspace's").wait_for()
    dialog.get_by_role("button", name="Delete", exact=True).click()
    wait_idle(page)
    page.get_by_text("Deleted e2e_renamed.").wait_for()
    assert not ws.exists("e2e_renamed")


def test_import_a_paper_csv_spec_and_refuse_a_broken_one(studio, page, tmp_path):
    ws = studio.open_workspace()
    if ws.exists("e2e_imported"):
        ws.delete("e2e_imported")
    ensure_project(studio, "e2e_source", "ticket_submission")
    spec = ws.open("e2e_source").spec()
    csv_file = tmp_path / "ticket.csv"
    csv_file.write_text(dumps_paper_csv(spec))
    goto(page, studio, "projects")
    page.get_by_role("tab", name="Import").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(csv_file))
    wait_idle(page)
    fill(page, "Project name (optional)", "e2e_imported")
    click(page, "Import")
    page.get_by_text("Imported ticket.csv as e2e_imported and opened it.").wait_for()
    assert ws.open("e2e_imported").spec() == spec

    bad = tmp_path / "broken.json"  # a broken file: a clear message, and the workspace is unchanged
    bad.write_text('{"worksheets": [ {"name": ')
    before = {i.name for i in ws.list()}
    page.get_by_role("tab", name="Import").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(bad))
    wait_idle(page)
    fill(page, "Project name (optional)", "")
    click(page, "Import")
    alert = page.get_by_test_id("stAlertContentError").first
    alert.wait_for()
    assert "broken" in alert.inner_text() or "JSON" in alert.inner_text()
    assert {i.name for i in ws.list()} == before
