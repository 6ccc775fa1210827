"""The CLI contract of DESIGN §6: genie chat --jsonl, lint, test."""

import io
import json
import subprocess
import sys
from pathlib import Path

from core_engine.cli import main

ROOT = Path(__file__).resolve().parents[1]
TICKET = ROOT / "sample_projects" / "ticket_submission"

H13 = [
    'main.student_task = "External Test Credits"\\nmain.external_test_credits = ExternalTestCredits('
    'specific_issue="Missing or Incorrect Record", test_issues="Credit not posted", '
    'test_type="Advanced Placement (AP) Scores")',
    json.dumps({"user": 'external_test_credits.time_of_test_score_submission = "May 2024"'}),
    'main.extra_details = "They were for AP psychology"',
    'main.full_name = "Jane Doe"',
    "main.confirm = True",
]


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(args, out=out)
    return code, out.getvalue()


def test_chat_jsonl_h13_contract(tmp_path):
    script = tmp_path / "h13.txt"
    script.write_text("\n".join(H13) + "\n")
    code, out = run(["chat", str(TICKET), "--parser", "formal", "--script", str(script), "--jsonl"])
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [x["turn"] for x in lines] == [1, 2, 3, 4, 5]
    for obj in lines:
        assert set(obj) == {"turn", "user", "response", "acts", "state", "trace"}
        assert set(obj["state"]) == {"records"}
    asks = [(x["acts"][0]["act"], x["acts"][0].get("field")) for x in lines]
    assert asks[:4] == [("ask", "time_of_test_score_submission"), ("ask", "extra_details"),
                        ("ask", "full_name"), ("ask", "confirm")]
    report = lines[4]["acts"][0]
    assert report["act"] == "report" and report["kind"] == "api" and report["result"]["transaction_id"]
    main_rec = lines[4]["state"]["records"][0]
    assert set(main_rec) >= {"var", "kind", "worksheet", "initiator", "status", "values", "confirmed",
                             "refused", "result"}
    assert main_rec["status"] == "completed"


def test_console_script_and_module_entry_point(tmp_path):
    script = tmp_path / "t.txt"
    script.write_text('main.full_name = "Jane Doe"\n')
    proc = subprocess.run([sys.executable, "-m", "core_engine", "chat", str(TICKET), "--parser", "formal",
                           "--script", str(script), "--jsonl"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["acts"][0] == {"act": "ask", "var": "main", "worksheet": "Main",
                                                  "field": "student_task"}


def test_lint_clean_sample_exits_0():
    code, out = run(["lint", str(TICKET)])
    assert code == 0 and "0 error(s)" in out


def test_lint_broken_spec_exits_1_and_locates(tmp_path):
    spec = json.loads((TICKET / "spec.json").read_text())
    spec["worksheets"][0]["fields"][0]["predicate"] = "self.no_such_field == 1"
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    code, out = run(["lint", str(tmp_path)])
    assert code == 1
    assert "Main.student_task (predicate" in out and "no_such_field" in out


def test_test_command_passes_on_samples():
    for name in ("ticket_submission", "bank_fraud"):
        code, out = run(["test", str(ROOT / "sample_projects" / name)])
        assert code == 0, out
        assert " 0 failed" in out


def test_test_command_fails_on_broken_expectation(tmp_path):
    (tmp_path / "spec.json").write_text((TICKET / "spec.json").read_text())
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.json").write_text(json.dumps({"name": "wrong", "parser": "formal", "turns": [
        {"user": 'main.full_name = "Jo"', "acts": [{"act": "ask", "field": "confirm"}]}]}))
    code, out = run(["test", str(tmp_path)])
    assert code == 1 and "FAIL wrong" in out and "acts differ" in out


def test_missing_project_is_a_clean_error(capsys):
    code, _ = run(["lint", "/nonexistent/project"])
    assert code == 2
    assert "no project" in capsys.readouterr().err


def test_lint_flags_a_kb_worksheet_without_a_table(tmp_path):
    """`genie lint` reads the project's KB like the studio does: a kb worksheet naming no table is an error."""
    spec = {"name": "p", "worksheets": [
        {"name": "Main", "fields": [{"name": "x", "type": "int", "description": "x"}]},
        {"name": "dentists", "kind": "kb", "fields": [{"name": "name", "type": "str"}]}]}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    code, out = run(["lint", str(tmp_path)])
    assert code == 1 and "dentists" in out and "table" in out
