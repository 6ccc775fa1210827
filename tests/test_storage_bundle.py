"""Agent bundles: export, run, unpack to source, round trip, and no secrets inside."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from core_engine import Agent
from core_engine.cli import main
from core_engine.loaders import load_spec
from core_engine.spec.model import Api
from storage import BundleError, Workspace, export_bundle, import_bundle, read_manifest
from storage.fileformat import spec_hash

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ["bank_fraud", "course_enrollment", "restaurant_reservation", "ticket_submission"]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def kb_dump(path: Path) -> dict[str, list[tuple]]:
    """Every KB table's rows (rowid order) and column metadata, read with plain sqlite3."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE "
                                            "'CREATE VIRTUAL%' AND name NOT LIKE '%_fts%' AND name NOT LIKE "
                                            "'sqlite_%' ORDER BY name")]
        dump = {n: conn.execute(f'SELECT rowid, * FROM "{n}" ORDER BY rowid').fetchall()
                for n in names if not n.startswith("_genie_")}
        if "_genie_columns" in names:
            dump["_columns"] = conn.execute("SELECT * FROM _genie_columns ORDER BY table_name, position").fetchall()
        return dump
    finally:
        conn.close()


@pytest.mark.parametrize("sample", SAMPLES)
def test_round_trip_sample_export_import_export(sample: str, tmp_path: Path):
    folder = ROOT / "sample_projects" / sample
    first = export_bundle(folder, tmp_path / f"{sample}.genie")
    source = import_bundle(first, tmp_path / "src")
    second = export_bundle(source, tmp_path / "again.genie")
    m1, m2 = read_manifest(first), read_manifest(second)
    assert m1["spec_hash"] == m2["spec_hash"] == spec_hash(load_spec(folder / "spec.json"))
    assert m1["tables"] == m2["tables"] and m1["tests"] == m2["tests"] and m1["content_hash"] == m2["content_hash"]
    assert m1["tests"] == sorted(p.stem for p in (folder / "tests").glob("*.json"))
    assert kb_dump(first) == kb_dump(second)
    expected_tables = sorted(p.stem for p in (folder / "data").glob("*.jsonl")) if (folder / "data").is_dir() else []
    assert sorted(m1["tables"]) == expected_tables
    assert all(m1["tables"][t]["rows"] > 0 for t in expected_tables)
    # the unpacked folder is reviewable source
    assert json.loads((source / "manifest.json").read_text()) == m1
    assert load_spec(source / "spec.json") == load_spec(folder / "spec.json")
    for test in (folder / "tests").glob("*.json"):
        assert json.loads((source / "tests" / test.name).read_text()) == json.loads(test.read_text())
    assert {p.name for p in (source / "data").glob("*.jsonl")} == {f"{t}.jsonl" for t in expected_tables}
    # genie test passes on both bundles
    for bundle in (first, second):
        code, out = run(["test", str(bundle)])
        assert code == 0 and " 0 failed" in out, out


def test_bundle_manifest_and_headless_chat(tmp_path: Path):
    bundle = export_bundle(ROOT / "sample_projects" / "restaurant_reservation", tmp_path / "r.genie")
    manifest = read_manifest(bundle)
    assert manifest["format"] == "genie-bundle" and manifest["format_version"] == 1
    assert manifest["engine_version"] and manifest["created"].endswith("+00:00")
    assert manifest["tables"]["restaurants"]["rows"] >= 200
    assert not Path(str(bundle) + "-journal").exists() and not list(tmp_path.glob(".*.tmp"))
    agent = Agent.load(bundle)
    assert agent.kb_path == bundle
    session = agent.new_session(parser="offline")
    session.turn("I want to book a restaurant")
    assert any(a["act"] == "report" for a in session.turn("cheap Thai in Palo Alto").acts)
    script = tmp_path / "turns.txt"
    script.write_text('answer("romantic French restaurant")\n', encoding="utf-8")
    code, out = run(["chat", str(bundle), "--parser", "formal", "--script", str(script), "--jsonl"])
    assert code == 0 and json.loads(out.splitlines()[0])["acts"][0]["act"] == "report"


def test_no_secrets_enter_a_bundle(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-ENVMARKER0123456789")
    ws = Workspace(tmp_path / "ws")
    project = ws.from_sample(ROOT / "sample_projects" / "bank_fraud")
    spec = project.spec()
    spec.description = "OLDVERSIONMARKER"
    project.save_spec(spec, "a version that must not travel")
    spec = project.spec()
    spec.description = "current"
    spec.apis.append(Api(name="crm", kind="http", url="http://localhost:9/crm",
                         headers={"Authorization": "Bearer HEADERMARKER0123", "X-Api-Key": "KEYMARKER",
                                  "Accept": "application/json"}))
    project.save_spec(spec, "with an http API")
    project.set_settings({"parser": "offline", "llm": {"model": "m", "api_key_env": "OPENAI_API_KEY"}})
    conn = sqlite3.connect(project.path)  # a settings row that bypassed set_settings (an older tool, say)
    with conn:
        conn.execute("INSERT INTO _genie_settings (key, value_json) VALUES ('api_key', '\"SETTINGMARKER\"')")
    conn.close()
    log = project.start_log(parser="formal", rg="template")
    log.append({"user": "my PIN is LOGMARKER", "response": "", "acts": [], "state": {"records": []}})
    bundle = project.export_bundle(tmp_path / "bank.genie")
    data = bundle.read_bytes()
    for marker in (b"ENVMARKER", b"OLDVERSIONMARKER", b"HEADERMARKER", b"KEYMARKER", b"SETTINGMARKER", b"LOGMARKER"):
        assert marker not in data, marker
    manifest = read_manifest(bundle)
    assert manifest["redacted"] == ["apis.crm.headers.Authorization", "apis.crm.headers.X-Api-Key"]
    bundled = Agent.load(bundle).spec.api("crm")
    assert bundled.headers == {"Authorization": "", "X-Api-Key": "", "Accept": "application/json"}
    source = import_bundle(bundle, tmp_path / "src")
    assert json.loads((source / "settings.json").read_text()) == {
        "llm": {"api_key_env": "OPENAI_API_KEY", "model": "m"}, "parser": "offline"}
    for path in source.rglob("*"):
        if path.is_file():
            assert b"MARKER" not in path.read_bytes(), path


def test_cli_export_import_and_workspace(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "ws"))
    code, out = run(["projects", "list", "--samples"])
    assert code == 0 and out.count("1 version(s)") == 4
    code, out = run(["export", "ticket_submission", "-o", str(tmp_path / "t.genie")])  # a workspace name
    tests = len(list((ROOT / "sample_projects" / "ticket_submission" / "tests").glob("*.json")))
    assert code == 0 and "1 table(s)" in out and f"{tests} test(s)" in out
    code, out = run(["import", str(tmp_path / "t.genie"), "-o", str(tmp_path / "t_src")])
    assert code == 0 and (tmp_path / "t_src" / "data" / "services_general_info.jsonl").is_file()
    code, _ = run(["import", str(tmp_path / "t.genie"), "-o", str(tmp_path / "t_src")])
    assert code == 2  # never unpacks over an existing folder
    code, out = run(["import", str(tmp_path / "t.genie"), "--workspace", "--name", "tickets"])
    assert code == 0 and Workspace(tmp_path / "ws").open("tickets").meta()["kind"] == "project"
    for fmt, suffix in (("json", ".json"), ("csv", ".csv")):
        code, _ = run(["export", "tickets", "-o", str(tmp_path / f"spec{suffix}")])
        assert code == 0 and load_spec(tmp_path / f"spec{suffix}") == Workspace(tmp_path / "ws").open("tickets").spec()
    code, out = run(["export", "tickets", "--format", "folder", "-o", str(tmp_path / "folder")])
    assert code == 0 and (tmp_path / "folder" / "spec.json").is_file()
    code, out = run(["projects", "new", "blank"])
    assert code == 0 and Workspace(tmp_path / "ws").exists("blank")
    code, out = run(["projects", "rename", "blank", "blank2"])
    code, out = run(["projects", "delete", "blank2"])
    assert code == 0 and not Workspace(tmp_path / "ws").exists("blank2")


def test_cli_versions_and_save(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "ws"))
    Workspace(tmp_path / "ws").from_sample(ROOT / "sample_projects" / "bank_fraud").close()
    spec = load_spec(ROOT / "sample_projects" / "bank_fraud" / "spec.json")
    spec.worksheet("Main").field("full_name").description = "legal name"
    (tmp_path / "edited.json").write_text(spec.model_dump_json(), encoding="utf-8")
    code, out = run(["save", "bank_fraud", str(tmp_path / "edited.json"), "-m", "describe", "--base", "1"])
    assert code == 0 and out.startswith("version 2")
    code, out = run(["save", "bank_fraud", str(tmp_path / "edited.json"), "--base", "1"])
    assert code == 2  # a conflict: version 2 exists
    code, out = run(["versions", "bank_fraud"])
    assert out.splitlines()[0].startswith("2\t") and "describe" in out
    code, out = run(["versions", "bank_fraud", "--diff", "1", "2"])
    assert "worksheets.Main.fields.full_name.description" in out
    code, out = run(["versions", "bank_fraud", "--restore", "1"])
    assert code == 0 and "version 3: restored version 1" in out
    code, out = run(["versions", "bank_fraud", "--show", "2"])
    assert json.loads(out)["worksheets"][0]["fields"][0]["description"] == "legal name"


def test_bundle_errors(tmp_path: Path):
    ws = Workspace(tmp_path / "ws")
    project = ws.from_sample(ROOT / "sample_projects" / "bank_fraud")
    with pytest.raises(BundleError, match="not a bundle"):
        read_manifest(project.path)
    with pytest.raises(BundleError, match="ends in .genie"):
        export_bundle(project, tmp_path / "x.zip")
    text = tmp_path / "fake.genie"
    text.write_text("hello " * 40, encoding="utf-8")
    with pytest.raises(BundleError, match="not an SQLite database"):
        import_bundle(text, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    bundle = project.export_bundle(tmp_path / "b.genie")
    from storage import ProjectFile, StorageError
    with pytest.raises(StorageError, match="read-only"):
        ProjectFile(bundle, readonly=True).save_spec(project.spec(), "no")


def test_an_unpacked_bundle_runs_as_a_folder_with_the_exact_tables(tmp_path: Path):
    """`genie test DIR` on unpacked source rebuilds kb.sqlite from data/tables.json, chunk for chunk."""
    bundle = export_bundle(ROOT / "sample_projects" / "ticket_submission", tmp_path / "t.genie")
    source = import_bundle(bundle, tmp_path / "src")
    code, out = run(["test", str(source)])
    assert code == 0 and " 0 failed" in out, out
    rebuilt = kb_dump(source / "kb.sqlite")
    assert rebuilt == kb_dump(bundle)
    assert max(row[3] for row in rebuilt["services_general_info"]) > 0  # chunk_index kept, not re-chunked
