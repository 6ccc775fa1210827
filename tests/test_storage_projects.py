"""Workspace and project files: versions, conflicts, settings, files, tests, KB tables, agents."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from core_engine import Agent, KnowledgeError, Spec, StorageError
from core_engine.knowledge.kb import SQLiteKB
from core_engine.loaders import load_spec
from core_engine.evaluation.testing import run_test
from storage import ConflictError, ProjectFile, Workspace

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_projects"
SPECS = ROOT / "tests" / "data" / "specs"


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path / "ws")


@pytest.fixture
def bank(ws: Workspace) -> ProjectFile:
    return ws.from_sample(SAMPLES / "bank_fraud")


# -- workspace -------------------------------------------------------------------------------


def test_workspace_create_list_open_rename_delete(ws: Workspace):
    ws.create("zeta").close()
    ws.create("alpha", Spec(name="alpha", description="first")).close()
    infos = ws.list()
    assert [i.name for i in infos] == ["alpha", "zeta"]
    assert infos[0].versions == 1 and infos[0].description == "first" and infos[0].error is None
    assert ws.exists("alpha") and not ws.exists("beta")
    with pytest.raises(StorageError, match="already exists"):
        ws.create("alpha")
    ws.rename("alpha", "beta")
    assert not ws.exists("alpha") and ws.open("beta").spec().description == "first"
    with pytest.raises(StorageError, match="already exists"):
        ws.rename("beta", "zeta")
    ws.delete("beta")
    assert [i.name for i in ws.list()] == ["zeta"]
    trashed = list((ws.root / ".trash").glob("beta-*.genieproj"))
    assert len(trashed) == 1 and ProjectFile(trashed[0]).spec().description == "first"  # recoverable
    with pytest.raises(StorageError, match="no project named"):
        ws.open("beta")


@pytest.mark.parametrize("bad", ["", "../x", "a/b", ".hidden", "x" * 81, "ends.", "tab\tname"])
def test_project_names_are_checked(ws: Workspace, bad: str):
    with pytest.raises(StorageError, match="project name"):
        ws.create(bad)
    assert not any(ws.root.iterdir())


def test_default_workspace_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "elsewhere"))
    assert Workspace.default().root == tmp_path / "elsewhere" and (tmp_path / "elsewhere").is_dir()


def test_ensure_samples_materialises_each_sample_once(ws: Workspace):
    names = [p.name for p in ws.samples()]
    assert names == ["bank_fraud", "course_enrollment", "restaurant_reservation", "ticket_submission"]
    first = ws.ensure_samples()
    assert [i.name for i in first] == names
    before = {i.name: i.path.stat().st_mtime_ns for i in first}
    second = ws.ensure_samples()
    assert {i.name: i.path.stat().st_mtime_ns for i in second} == before
    with ws.open("restaurant_reservation") as project:
        assert project.kb_tables() == ["restaurants"]
        assert set(project.tests()) == {p.stem for p in (SAMPLES / "restaurant_reservation" / "tests").glob("*.json")}
        assert project.spec() == load_spec(SAMPLES / "restaurant_reservation" / "spec.json")
    with ws.open("course_enrollment") as project:
        assert project.kb_tables() == ["courses", "offerings", "programs", "ratings"]


@pytest.mark.parametrize("name", ["restaurant.json", "kita_restaurant.csv", "reference_restaurant.csv",
                                  "reference_bank.json", "ticket_submission.csv"])
def test_import_spec_files_of_every_layout(ws: Workspace, name: str):
    project = ws.import_path(SPECS / name)
    assert project.name == Path(name).stem
    assert project.spec() == load_spec(SPECS / name)
    assert project.head().message == f"imported from {name}"


def test_import_a_project_file_copies_history(ws: Workspace, bank: ProjectFile):
    spec = bank.spec()
    spec.description = "v2"
    bank.save_spec(spec, "second")
    copy = ws.import_path(bank.path, "bank_copy")
    assert [v.message for v in copy.versions()] == ["second", "imported from bank_fraud/"]
    assert copy.tests() == bank.tests()


def test_import_garbage_names_the_problem(ws: Workspace, tmp_path: Path):
    bad = tmp_path / "spec.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(Exception, match="malformed JSON"):
        ws.import_path(bad)
    assert ws.list() == []


# -- versions ---------------------------------------------------------------------------------


def test_save_version_diff_restore(bank: ProjectFile):
    v1 = bank.head()
    assert v1.number == 1
    spec = bank.spec()
    spec.worksheets[0].fields[0].description = "Your full legal name"
    v2 = bank.save_spec(spec, "describe the name", base_version=1, author="ana")
    assert (v2.number, v2.message, v2.author) == (2, "describe the name", "ana")
    assert v2.summary == "1 attribute changed"
    assert bank.save_spec(spec, "again") == v2  # unchanged spec: no new version
    spec.worksheets[0].fields.pop(0)
    v3 = bank.save_spec(spec, "drop the name", base_version=2)
    assert [v.number for v in bank.versions()] == [3, 2, 1]
    diff = bank.diff(1, 3)
    assert [(c.op, c.path) for c in diff.changes] == [("removed", "worksheets.Main.fields.full_name")]
    v4 = bank.restore(1)
    assert v4.number == 4 and v4.message == "restored version 1" and v4.spec_hash == v1.spec_hash
    assert bank.spec() == bank.spec(1) and bank.spec(3) != bank.spec(1)  # history is kept
    assert not bank.diff(1, 4)
    with pytest.raises(StorageError, match="no version 9"):
        bank.spec(9)


def test_spec_returns_a_private_copy(bank: ProjectFile):
    spec = bank.spec()
    spec.name = "edited in memory"
    assert bank.spec().name == "bank_fraud"


def test_conflicting_saves_from_two_sessions(bank: ProjectFile):
    other = ProjectFile(bank.path)
    mine, theirs = bank.spec(), other.spec()
    base = bank.head().number
    theirs.description = "their edit"
    other.save_spec(theirs, "theirs", base_version=base, author="bo")
    mine.description = "my edit"
    with pytest.raises(ConflictError) as info:
        bank.save_spec(mine, "mine", base_version=base, author="ana")
    assert info.value.head.number == 2 and info.value.head.author == "bo"
    assert "saved by someone else" in str(info.value)
    assert bank.spec().description == "their edit"  # nothing lost, nothing overwritten
    assert bank.save_spec(mine, "mine, after merging", base_version=2).number == 3


def test_save_accepts_a_dict_and_rejects_junk(bank: ProjectFile):
    data = bank.spec().model_dump(mode="json")
    data["description"] = "from a dict"
    assert bank.save_spec(data, "dict").number == 2
    with pytest.raises(StorageError, match="needs a Spec"):
        bank.save_spec("not a spec")  # type: ignore[arg-type]


# -- settings, files, tests --------------------------------------------------------------------


def test_settings_merge_and_refuse_secrets(bank: ProjectFile):
    bank.set_settings({"parser": "llm", "llm": {"model": "m", "max_tokens": 256, "api_key_env": "OPENAI_API_KEY"}})
    bank.set_settings({"rg": "template", "parser": None})
    assert bank.settings() == {"llm": {"model": "m", "max_tokens": 256, "api_key_env": "OPENAI_API_KEY"},
                               "rg": "template"}
    for secret in ({"api_key": "abc"}, {"llm": {"apiKey": "abc"}}, {"client_secret": "x"}, {"auth_token": "t"},
                   {"note": "sk-abcdefghijklmnop"}, {"Authorization": "Bearer abcdefghij"}):
        with pytest.raises(StorageError, match="never hold secrets"):
            bank.set_settings(secret)
    stored = json.dumps(bank.settings())
    assert all(word not in stored for word in ("abc", "sk-", "Bearer", "client_secret", "auth_token"))


def test_files_are_checked(bank: ProjectFile):
    bank.put_file("prompts/parser.jinja2", "{{ spec.name }}")
    bank.put_file("few_shots.json", '[{"user": "hi", "statements": ""}]')
    bank.put_file("api.py", "def ping():\n    return {'ok': True}\n")
    assert sorted(bank.files()) == ["api.py", "few_shots.json", "prompts/parser.jinja2"]
    for path, text, message in (("../etc/passwd", "x", "project file is"), ("prompts/../x.jinja2", "", "project file"),
                                ("few_shots.json", "{}", "list"), ("few_shots.json", "[", "not valid JSON"),
                                ("api.py", "def (:", "syntax error")):
        with pytest.raises(StorageError, match=message):
            bank.put_file(path, text)
    assert bank.files()["api.py"].startswith("def ping")
    bank.delete_file("api.py")
    assert "api.py" not in bank.files()


def test_tests_put_replace_delete(bank: ProjectFile):
    test = {"name": "hello", "parser": "formal", "turns": [{"user": 'main.full_name = "Jo"'}]}
    bank.put_test("my test", test)
    assert bank.tests()["my test"] == test
    bank.put_test("my test", {**test, "parser": "offline"})
    assert bank.tests()["my test"]["parser"] == "offline"
    bank.delete_test("my test")
    assert "my test" not in bank.tests()
    with pytest.raises(StorageError, match="no test named"):
        bank.delete_test("my test")
    for name, bad, message in (("a/b", test, "test name"), ("ok", {"turns": "x"}, "turns"),
                               ("ok", {"turns": [{"text": "x"}]}, "turn 1 needs a 'user'")):
        with pytest.raises(StorageError, match=message):
            bank.put_test(name, bad)


# -- knowledge base in the project file ------------------------------------------------------------


def test_kb_import_and_the_private_tables_stay_private(bank: ProjectFile, tmp_path: Path):
    csv_file = tmp_path / "branches.csv"
    csv_file.write_text("city,phone,notes\nOakland,555-1,open late on fridays\nFremont,555-2,\n", encoding="utf-8")
    seen = []
    report = bank.import_kb(csv_file, "branches", progress=lambda done, total: seen.append(done))
    assert report.rows == 2 and seen == [2]
    assert bank.kb_tables() == ["branches"]
    bank.set_settings({"parser": "offline"})
    with SQLiteKB(bank.kb_path()) as kb:
        assert set(kb.tables()) == {"branches"}
        assert kb.execute("SELECT city FROM branches ORDER BY city").rows == [{"city": "Fremont"}, {"city": "Oakland"}]
        for table in ("_genie_settings", "_genie_versions", "_genie_specs", "_genie_columns"):
            with pytest.raises(KnowledgeError, match="private table"):
                kb.execute(f"SELECT * FROM {table}")
        with pytest.raises(KnowledgeError, match="private table"):
            kb.execute("SELECT city FROM branches WHERE city IN (SELECT key FROM _genie_settings)")
    with pytest.raises(StorageError, match="already exists"):
        bank.import_kb(csv_file, "branches")
    bank.drop_kb_table("branches")
    assert bank.kb_tables() == []


def test_failed_kb_import_leaves_the_project_as_it_was(bank: ProjectFile, tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n{"a": 2}\nnot json\n', encoding="utf-8")
    before = bank.path.read_bytes()
    with pytest.raises(StorageError, match="line 3"):
        bank.import_kb(bad, "things")
    assert bank.kb_tables() == [] and bank.path.read_bytes() == before


# -- agents -----------------------------------------------------------------------------------------


def test_project_agent_runs_tests_and_kb(ws: Workspace):
    project = ws.from_sample(SAMPLES / "restaurant_reservation")
    agent = project.agent()
    assert agent.kb_path == project.path and agent.spec == project.spec()
    for name, test in project.tests().items():
        assert run_test(agent, test).passed, name
    session = agent.new_session(parser="offline")
    session.turn("I'd like to book a restaurant")
    result = session.turn("pizza in San Francisco with a patio")
    assert any(a["act"] == "report" for a in result.acts)
    assert Agent.load(project.path).spec == project.spec()  # through the genie.project_loaders entry point


def test_agent_uses_the_projects_api_module_and_few_shots(bank: ProjectFile):
    spec = bank.spec()
    api = spec.api(spec.worksheets[0].api) if spec.worksheets[0].api else None
    assert api is not None
    api.kind = "python"
    api.function = "report_fraud"
    bank.save_spec(spec, "python API")
    bank.put_file("api.py", "def report_fraud(**params):\n    return {'status': 'filed', 'case': 'C-42'}\n")
    bank.put_file("few_shots.json", '[{"user": "hello", "statements": "none"}]')
    agent = bank.agent()
    assert agent.few_shots == [{"user": "hello", "statements": "none"}]
    assert agent.api_module.report_fraud() == {"status": "filed", "case": "C-42"}
    bank.put_file("api.py", "def report_fraud(**params):\n    return {'status': 'changed'}\n")
    assert bank.agent().api_module.report_fraud() == {"status": "changed"}  # a changed file is picked up


def test_export_spec_as_json_and_csv(bank: ProjectFile, tmp_path: Path):
    assert load_spec(bank.export_json(tmp_path / "s.json")) == bank.spec()
    assert load_spec(bank.export_csv(tmp_path / "s.csv")) == bank.spec()
    with pytest.raises(StorageError, match="must end in .json"):
        bank.export_json(tmp_path / "s.txt")


def test_project_file_is_stamped_and_checks_ok(bank: ProjectFile):
    conn = sqlite3.connect(bank.path)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x47454E49
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    finally:
        conn.close()
    assert bank.check() == ["ok"] and bank.meta()["kind"] == "project"
    assert not list(bank.path.parent.glob(".*.tmp"))  # the build's temporary file is gone
