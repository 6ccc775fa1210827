"""`genie eval --context gold`: each annotated turn judged from the state its test expects before it."""

import io
import json
from pathlib import Path

from core_engine.cli import main
from core_engine.evaluation.metrics import evaluate
from core_engine.evaluation.testing import load_test, run_test
from core_engine.session.agent import Agent

from tests.test_evaluation import API, ASK, _project

ROOT = Path(__file__).resolve().parents[1]

# the parser (here: the formal one, which reads the user's text as it stands) misreads turn 1 only
CASCADE = {"name": "cascade", "parser": "formal", "goal": {"api": "submit", "values": {"main.age": 31}}, "turns": [
    {"user": "main.age = 30", "statements": ["main.age = 31"], "values": {"main.age": 31}, "acts": [ASK("name")]},
    {"user": 'main.name = "Ann"', "statements": ['main.name = "Ann"'], "values": {"main.name": "Ann", "main.age": 31},
     "acts": [ASK("confirm")]},
    {"user": "main.confirm = True", "statements": ["main.confirm = True"], "acts": [API]},
]}

BAD_ANNOTATION = {"name": "bad annotation", "parser": "formal", "turns": [
    {"user": "main.age = 30", "statements": ["main.shoe_size = 31"], "values": {"main.age": 30}},
]}


def _turns_right(col):
    return [[t["ok"] for t in test["turns"]] for test in col["tests"]]


def test_one_misread_turn_fails_only_itself_in_the_gold_context(tmp_path):
    agent = Agent.load(_project(tmp_path, {"cascade": CASCADE}))
    result = evaluate(agent, ["formal"], contexts=("own", "gold"))
    own, gold = result["parsers"]["formal"], result["parsers"]["formal (gold context)"]
    assert own["context"] == "own" and gold["context"] == "gold"
    assert _turns_right(own) == [[False, False, True]]  # turn 2 still holds age 30
    assert _turns_right(gold) == [[False, True, True]]
    assert own["tests"][0]["goal"]["reached"] is False and gold["tests"][0]["goal"]["reached"] is True
    assert own["metrics"]["semantic_parsing"]["right"] == gold["metrics"]["semantic_parsing"]["right"] == 2


def test_expected_statements_that_do_not_apply_are_named(tmp_path):
    agent = Agent.load(_project(tmp_path, {"bad": BAD_ANNOTATION}))
    result = run_test(agent, BAD_ANNOTATION, context="gold")
    problems = result.turns[0].problems
    assert any(p.startswith("gold context: the expected statements did not apply") and "shoe_size" in p
               for p in problems), problems
    assert run_test(agent, BAD_ANNOTATION, context="own").passed  # the turn itself was read as annotated


def test_a_turn_read_right_is_kept_with_the_question_the_parser_asked():
    """'never mind, cancel it' has no statements: the parser asks whether to stop. The gold context keeps
    that question, so the 'yes, cancel' after it is judged as the conversation had it."""
    agent = Agent.load(ROOT / "tests" / "agents" / "vet_clinic")
    test = load_test(ROOT / "tests" / "agents" / "vet_clinic" / "tests" / "nl_limping_dog_then_cancel.json")
    result = run_test(agent, test, context="gold")
    asked = result.outputs[4]
    assert not asked.trace["parse"]["statements"] and asked.acts[0]["act"] == "say"
    assert not result.turns[5].problems, result.turns[5].problems
    assert result.passed


def test_a_reading_equal_by_shape_but_leaving_another_state_is_not_kept():
    """`answer("an orthodontist")` compares equal to `answer("Dr. Grace Garcia")` (queries by where they go),
    but finds other rows: the turn after starts from the expected state (Dr. Garcia chosen), not the parser's."""
    agent = Agent.load(ROOT / "tests" / "agents" / "dental_clinic")
    test = {"name": "shape-equal", "parser": "formal", "turns": [
        {"user": 'main.task = "Book Appointment"\nbook_appointment.dentist = answer("an orthodontist")',
         "statements": ['main.task = "Book Appointment"', 'book_appointment.dentist = answer("Dr. Grace Garcia")'],
         "values": {"book_appointment.dentist.id": "d01"}},
        {"user": 'book_appointment.reason = "Checkup"', "statements": ['book_appointment.reason = "Checkup"'],
         "values": {"book_appointment.dentist.id": "d01", "book_appointment.reason": "Checkup"}},
    ]}
    gold = run_test(agent, test, context="gold")
    assert gold.turns[0].problems and not gold.turns[1].problems, [t.problems for t in gold.turns]
    own = run_test(agent, test, context="own")
    assert own.turns[1].problems  # played on its own reading, the dentist is still not chosen


def test_the_session_keeps_a_probed_turn_only_when_asked():
    agent = Agent.load(ROOT / "sample_projects" / "bank_fraud")
    session = agent.new_session(parser="formal")
    probe = session.probe('main.task = "Nothing"')
    assert session.turns == [] and probe.user == 'main.task = "Nothing"'
    session.keep(probe)
    assert session.turns == [probe] and session.state == probe.state


def test_cli_context_both_prints_a_column_of_each(tmp_path):
    project = _project(tmp_path / "p", {"cascade": CASCADE})
    out = io.StringIO()
    assert main(["eval", str(project), "--parser", "formal", "--context", "both"], out=out) == 0
    header = out.getvalue().splitlines()[1]
    assert "formal" in header and "formal (gold context)" in header
    out = io.StringIO()
    assert main(["eval", str(project), "--parser", "formal", "--context", "gold", "--json"], out=out) == 0
    assert list(json.loads(out.getvalue())["parsers"]) == ["formal (gold context)"]


def test_a_reading_equal_by_shape_whose_reply_misses_what_the_test_expects_is_not_kept():
    """A KB question checked by its reply only (no `values`): `answer("an orthodontist")` compares equal to
    `answer("Dr. Grace Garcia")`, but the reply lacks the dentist the test expects, so the turn after starts from
    the expected rows ("book her" then takes Dr. Garcia)."""
    agent = Agent.load(ROOT / "tests" / "agents" / "dental_clinic")
    test = {"name": "reply only", "parser": "formal", "turns": [
        {"user": 'answer("an orthodontist")', "statements": ['answer("Dr. Grace Garcia")'],
         "response_contains": ["Grace Garcia"]},
        {"user": 'main.task = "Book Appointment"\nbook_appointment.dentist = answer.result[0]',
         "statements": ['main.task = "Book Appointment"', "book_appointment.dentist = answer.result[0]"],
         "values": {"book_appointment.dentist.id": "d01"}},
    ]}
    gold = run_test(agent, test, context="gold")
    assert gold.turns[0].problems and not gold.turns[1].problems, [t.problems for t in gold.turns]
