"""Conversation logs: recorded turn by turn (API and `genie chat --record`), exported, turned into tests."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from core_engine.cli import main
from core_engine.evaluation.testing import run_test
from storage import ProjectFile, StorageError, Workspace

ROOT = Path(__file__).resolve().parents[1]
TURNS = ['main.full_name = "Katarina Miller"',
         'first_authentication = FirstAuthentication(account_number="NA")',
         'second_authentication.date_of_birth = "1990-04-02"']


@pytest.fixture
def bank(tmp_path: Path) -> ProjectFile:
    return Workspace(tmp_path / "ws").from_sample(ROOT / "sample_projects" / "bank_fraud")


def record(project: ProjectFile, turns: list[str]) -> str:
    session = project.agent().new_session(parser="formal")
    log = project.start_log(parser="formal", rg="template", title="three turns")
    for n, text in enumerate(turns, 1):
        log.append(session.turn(text).to_json(turn=n))
    return log.id


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def test_log_records_each_turn_and_reopens(bank: ProjectFile):
    log_id = record(bank, TURNS)
    [info] = bank.logs()
    assert (info.id, info.turns, info.parser, info.title, info.spec_version) == (log_id, 3, "formal", "three turns", 1)
    other = ProjectFile(bank.path).open_log(log_id)  # another session sees the same turns
    turns = other.turns()
    assert [t["turn"] for t in turns] == [1, 2, 3] and [t["user"] for t in turns] == TURNS
    assert turns[1]["acts"][0] == {"act": "ask", "var": "second_authentication", "worksheet": "SecondAuthentication",
                                   "field": "date_of_birth"}
    assert set(turns[0]) >= {"turn", "user", "response", "acts", "state", "trace"}
    lines = other.to_jsonl().splitlines()
    assert [json.loads(line) for line in lines] == turns
    with pytest.raises(StorageError, match="no conversation log"):
        bank.open_log("nope")
    with pytest.raises(StorageError, match="'user' string"):
        other.append({"response": "no user"})
    bank.delete_log(log_id)
    assert bank.logs() == []


def test_log_to_test_replays_and_passes(bank: ProjectFile):
    log = bank.open_log(record(bank, TURNS))
    test = log.to_test("dob", assert_values=True, assert_response=True)
    assert test["parser"] == "formal" and [t["user"] for t in test["turns"]] == TURNS
    assert test["turns"][0]["values"] == {"main.full_name": "Katarina Miller",
                                          "main.first_authentication_details": {"$ref": "first_authentication"}}
    assert test["turns"][2]["values"] == {"second_authentication.date_of_birth": "1990-04-02"}
    assert all("response_contains" in t and "acts" in t for t in test["turns"])
    bank.put_test("dob", test)
    result = run_test(bank.agent(), bank.tests()["dob"])
    assert result.passed, result.first_failure
    broken = json.loads(json.dumps(test))
    broken["turns"][1]["acts"][0]["field"] = "security_answer_1"
    assert not run_test(bank.agent(), broken).passed  # the generated test can fail


def test_to_test_leaves_out_report_results(bank: ProjectFile):
    log = bank.start_log(parser="formal", rg="template")
    log.append({"user": "x", "response": "ok", "acts": [{"act": "report", "var": "answer", "kind": "kb",
                                                          "result": [{"id": 1}]}], "state": {"records": []}})
    assert log.to_test("t")["turns"][0]["acts"] == [{"act": "report", "var": "answer", "kind": "kb"}]
    assert "values" not in log.to_test("t", assert_values=True)["turns"][0]


def test_cli_chat_record_and_log_commands(bank: ProjectFile, tmp_path: Path):
    script = tmp_path / "turns.txt"
    script.write_text("\n".join(TURNS) + "\n", encoding="utf-8")
    code, out = run(["chat", str(bank.path), "--parser", "formal", "--script", str(script), "--jsonl", "--record"])
    assert code == 0
    printed = [json.loads(line) for line in out.splitlines()]
    [info] = bank.logs()
    stored = bank.open_log(info.id).turns()
    assert [t["acts"] for t in stored] == [t["acts"] for t in printed] and len(stored) == 3
    code, out = run(["log", "list", str(bank.path)])
    assert code == 0 and info.id in out and "3 turn(s)" in out
    code, out = run(["log", "show", str(bank.path), info.id])
    assert out.count("User: ") == 3 and "date of birth" in out
    code, out = run(["log", "export", str(bank.path), info.id])
    assert [json.loads(line)["user"] for line in out.splitlines()] == TURNS
    code, out = run(["log", "to-test", str(bank.path), info.id, "recorded", "--values", "--save"])
    assert code == 0 and "recorded" in bank.tests()
    code, out = run(["test", str(bank.path)])
    assert code == 0 and "PASS" in out and "0 failed" in out


def test_record_needs_a_project_file(capsys, tmp_path: Path):
    script = tmp_path / "t.txt"
    script.write_text(TURNS[0] + "\n", encoding="utf-8")
    code, _ = run(["chat", str(ROOT / "sample_projects" / "bank_fraud"), "--parser", "formal",
                   "--script", str(script), "--record"])
    assert code == 2 and "--record needs a project file" in capsys.readouterr().err
