"""Studio logic without a browser: project import/export, KB import/retype/derive/query, backend settings."""

import json
from pathlib import Path

import pytest

from components.agent import backends as bk
from components.knowledge import kb_io
from components.projects import project_io
from core_engine.errors import GenieError, KnowledgeError, StorageError
from core_engine.knowledge.kb import SQLiteKB
from core_engine.loaders import dumps_json, dumps_paper_csv
from core_engine.llm.client import LLMConfig
from storage import Workspace
from tests.fakes.openai_server import Reply

SAMPLES = Path(__file__).resolve().parents[1] / "sample_projects"


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    return Workspace(tmp_path / "ws")


@pytest.fixture
def bank(workspace):
    return workspace.from_sample(SAMPLES / "bank_fraud")


# -- projects ---------------------------------------------------------------------------------


def test_import_uploads_in_every_spec_layout(workspace, bank):
    spec = bank.spec()
    csv_project = project_io.import_upload(workspace, "bank (paper).csv", dumps_paper_csv(spec).encode())
    assert csv_project.name == "bank paper" and csv_project.spec() == spec
    json_project = project_io.import_upload(workspace, "bank.json", dumps_json(spec).encode(), "from_json")
    assert json_project.spec() == spec
    bundle = project_io.export_project(bank, "bundle")
    assert bundle.file_name == "bank_fraud.genie"
    again = project_io.import_upload(workspace, bundle.file_name, bundle.data, "from_bundle")
    assert again.spec() == spec and again.tests() == bank.tests()


def test_bad_uploads_are_refused_with_a_reason(workspace, bank):
    with pytest.raises(StorageError, match="cannot import a .exe"):
        project_io.import_upload(workspace, "x.exe", b"MZ")
    with pytest.raises(StorageError, match="empty"):
        project_io.import_upload(workspace, "x.json", b"")
    with pytest.raises(StorageError, match="already exists"):
        project_io.import_upload(workspace, "x.json", dumps_json(bank.spec()).encode(), "bank_fraud")
    before = {i.name for i in workspace.list()}
    with pytest.raises(GenieError):
        project_io.import_upload(workspace, "broken.json", b'{"worksheets": [')
    assert {i.name for i in workspace.list()} == before


def test_export_json_and_csv(bank):
    exported = project_io.export_project(bank, "json")
    assert exported.mime == "application/json" and json.loads(exported.data)["worksheets"][0]["name"] == "Main"
    exported = project_io.export_project(bank, "csv")
    assert exported.file_name == "bank_fraud.csv" and exported.data.decode().startswith("WS Predicate,WS Name")
    with pytest.raises(StorageError, match="unknown export format"):
        project_io.export_project(bank, "pdf")


def test_suggested_names_are_valid_and_unused():
    assert project_io.suggest_name("My Spec (v2).json", set()) == "My Spec v2"
    assert project_io.suggest_name("a.json", {"a", "a 2"}) == "a 3"
    assert project_io.suggest_name("((().csv", set()) == "imported"


# -- knowledge ----------------------------------------------------------------------------------


def test_import_retype_derive_and_query(bank, tmp_path):
    data = b"id,city,kind,note\n1,Paris,main,10\n2,Lyon,outlet,20\n3,Nice,outlet,30\n4,Lille,main,40\n"
    seen = []
    report = kb_io.import_upload(bank, "Branches (EU).csv", data, kb_io.table_name_for("Branches (EU).csv"),
                                 progress=lambda done, total: seen.append((done, total)))
    assert report.table == "branches_eu" and report.rows == 4 and seen[-1] == (4, 4)
    kb = SQLiteKB(bank.kb_path())
    assert {c.name: c.type for c in kb.tables()["branches_eu"].columns}["note"] == "int"

    kb_io.retype_table(bank, bank.kb_path(), "branches_eu", {"note": "text"}, ["note"])
    info = SQLiteKB(bank.kb_path()).tables()["branches_eu"]
    assert info.column("note").type == "text" and info.column("note").free_text and info.row_count == 4
    with pytest.raises(StorageError):
        kb_io.retype_table(bank, bank.kb_path(), "branches_eu", {"city": "int"}, [])  # Paris is no int
    assert SQLiteKB(bank.kb_path()).tables()["branches_eu"].column("city").type == "text"  # unchanged

    kb = SQLiteKB(bank.kb_path())
    table_ws, row_type = kb_io.derive(kb, "branches_eu", "Branch")
    assert table_ws.kind == "kb" and row_type.kind == "type"
    spec, notes = kb_io.apply_derived(bank.spec(), [table_ws, row_type])
    assert [w.name for w in spec.worksheets][-2:] == ["branches_eu", "Branch"] and len(notes) == 2
    spec.worksheet("Branch").actions = "say('hi')"
    again, notes = kb_io.apply_derived(spec, [table_ws, row_type])
    assert again.worksheet("Branch").actions == "say('hi')" and "updated" in notes[1]

    result = kb_io.run_query(kb, "SELECT city FROM branches_eu WHERE kind = 'outlet' ORDER BY city")
    assert [r["city"] for r in result.rows] == ["Lyon", "Nice"] and result.elapsed_ms >= 0
    with pytest.raises(KnowledgeError):
        kb_io.run_query(kb, "DELETE FROM branches_eu")
    with pytest.raises(KnowledgeError):
        kb_io.run_query(kb, "SELEC nonsense")
    assert len(kb_io.preview_rows(kb, "branches_eu").rows) == 4


def test_bad_kb_uploads_leave_the_kb_alone(bank):
    with pytest.raises(StorageError, match="cannot import a .xlsx"):
        kb_io.import_upload(bank, "t.xlsx", b"PK", "t")
    with pytest.raises(StorageError, match="line 2") as info:
        kb_io.import_upload(bank, "broken.jsonl", b'{"a": 1}\n{"a": \n', "broken")
    assert info.value.context.get("file") == "broken.jsonl"  # the user's name, not a temporary path
    kb_io.import_upload(bank, "t.csv", b"a\n1\n", "t")
    with pytest.raises(StorageError, match="already exists"):
        kb_io.import_upload(bank, "t.csv", b"a\n2\n", "t")
    assert bank.kb_tables() == ["t"]
    assert kb_io.table_name_for("2024 data.csv") == "t_2024_data"


# -- backends -------------------------------------------------------------------------------------


def test_backend_settings_default_to_offline_and_never_show_the_key():
    s = bk.BackendSettings()
    assert (s.parser, s.knowledge_parser, s.rg) == ("offline", "offline", "template") and s.uses_llm() == []
    s = s.with_choice("rg", "llm").with_config("rg", LLMConfig(model="m", base_url="http://localhost:1/v1"))
    s = bk.BackendSettings(**{**s.__dict__, "api_key": "sk-secret"})
    options = s.session_options()
    assert options["rg"] == "llm" and options["llm_configs"]["rg"].model == "m" and options["api_key"] == "sk-secret"
    assert set(options["llm_configs"]) == {"parser", "knowledge", "rg"}
    assert "sk-secret" not in json.dumps(s.to_public_dict())
    with pytest.raises(ValueError):
        s.with_choice("parser", "magic")


def test_check_connection_against_the_scripted_server(scripted_server):
    scripted_server.push(Reply(content="OK"))
    s = bk.BackendSettings().with_config("parser", LLMConfig(base_url=scripted_server.base_url,
                                                             model="scripted-model"))
    ok, message = bk.check_connection(s, "parser")
    assert ok and "connected to" in message and "'OK'" in message
    scripted_server.push(Reply(status=500, content="down"))
    ok, message = bk.check_connection(s, "parser")
    assert not ok and message
