"""Coverage of a spec by conversations: fields, predicates, actions, APIs, act kinds."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from core_engine import Agent, Spec
from core_engine.cli import main
from core_engine.evaluation.coverage import coverage
from core_engine.evaluation.testing import run_tests

ROOT = Path(__file__).resolve().parents[1]

SPEC = {"name": "cov", "worksheets": [
    {"name": "Main", "fields": [
        {"name": "user_task", "type": "Enum", "enum_values": ["Book", "Browse"]},
        {"name": "full_name", "type": "str"},
        {"name": "nickname", "type": "str", "dont_ask": True, "required": False},
        {"name": "vip_code", "type": "str", "predicate": 'full_name == "Ada"'},
    ]},
    {"name": "Book", "predicate": 'user_task == "Book"', "api": "book", "actions": 'say("Booked.")', "fields": [
        {"name": "people", "type": "int", "confirm": True, "actions": 'say(f"{self.people} people.")'},
        {"name": "confirm", "type": "confirm"},
    ]},
    {"name": "Never", "predicate": 'user_task == "Nope"', "fields": [{"name": "x", "type": "str"}]},
], "apis": [{"name": "book", "kind": "mock", "mock_result": {"id": "{transaction_id}"}},
            {"name": "unused", "kind": "mock", "mock_result": {}}]}


def run(turns: list[str]):
    session = Agent(spec=Spec.model_validate(SPEC)).new_session(parser="formal")
    return [session.turn(t) for t in turns]


@pytest.fixture
def conversations():
    booked = run(['main.full_name = "Bob"', 'main.user_task = "Book"', "book.people = 2", "confirm(book.people)",
                  "book.confirm = True"])
    refused = run(['main.full_name = "NA"'])
    return Spec.model_validate(SPEC), [booked, refused]


def test_trace_records_predicate_outcomes_once_each():
    r = run(['main.user_task = "Book"'])[0]
    preds = r.trace["policy"]["predicates"]
    assert {"where": "Book (ws_predicate)", "var": None, "value": True} in preds
    assert len(preds) == len({json.dumps(p, sort_keys=True) for p in preds})


def test_fields_asked_filled_confirmed_refused(conversations):
    spec, convs = conversations
    cov = coverage(spec, convs)
    assert (cov.conversations, cov.turns) == (2, 6)
    main = {f.name: f for f in cov.worksheet("Main").fields}
    assert (main["full_name"].filled, main["full_name"].refused) == (1, 1)
    assert main["user_task"].asked == 2 and main["user_task"].filled == 1  # asked in both, answered in one
    assert not main["vip_code"].touched
    book = {f.name: f for f in cov.worksheet("Book").fields}
    assert book["people"].asked == 1 and book["people"].confirmed == 1  # asked by Confirm, confirmed by the user
    assert book["confirm"].confirmed == 1


def test_predicates_actions_apis_and_acts(conversations):
    spec, convs = conversations
    cov = coverage(spec, convs)
    book = cov.worksheet("Book")
    ws_pred = book.predicates[0]
    assert ws_pred.field is None and ws_pred.seen_true == 1 and ws_pred.seen_false == 2  # false before the task
    vip = cov.worksheet("Main").predicates[0]
    assert vip.field == "vip_code" and vip.seen_false >= 1 and vip.seen_true == 0
    assert book.actions == {"people": 1, "ws_actions": 1}
    assert book.api_calls == 1 and cov.apis == {"book": 1, "unused": 0}
    assert book.instantiated == 1 and book.completed == 1
    assert cov.act_kinds["confirm"] == 1 and cov.act_kinds["report"] == 1 and cov.act_kinds["propose"] == 0
    assert book.acts["confirm"] == 1 and book.acts["report"] == 1


def test_untouched_parts_are_listed(conversations):
    spec, convs = conversations
    untouched = coverage(spec, convs).untouched()
    assert "Main.vip_code: never asked or filled" in untouched
    assert any(u.startswith("Main.vip_code: predicate never true") for u in untouched)
    assert "Never: never started" in untouched
    assert "API unused: never called" in untouched
    assert "act propose: never occurred" in untouched
    assert not any(u.startswith("Book.people") for u in untouched)


def test_summary_and_text_and_json(conversations):
    spec, convs = conversations
    cov = coverage(spec, convs)
    s = cov.summary()
    assert s["APIs called"] == (1, 2)
    assert s["act kinds"][1] == 5
    text = cov.format_text()
    assert "Book (task): started in 1/2, completed in 1/2" in text
    assert "Untouched (" in text
    assert json.loads(json.dumps(cov.to_dict()))["worksheets"][0]["name"] == "Main"


def test_coverage_reads_turn_json_like_turn_results(conversations):
    spec, convs = conversations
    as_json = [[t.to_json(i) for i, t in enumerate(c, 1)] for c in convs]
    assert coverage(spec, as_json).to_dict() == coverage(spec, convs).to_dict()


def test_kb_queries_count_tables_and_condition_columns():
    agent = Agent.load(ROOT / "sample_projects" / "restaurant_reservation")
    results = run_tests(agent)
    cov = coverage(agent.spec, [r.outputs for r in results])
    kb = cov.worksheet("restaurants")
    assert kb.queried == len(results)
    assert {f.name for f in kb.fields if f.queried} >= {"location"}
    assert cov.worksheet("Restaurant").actions["ws_actions"] >= 1


def test_cli_test_coverage_prints_the_same(tmp_path):
    project = tmp_path / "bank"
    shutil.copytree(ROOT / "sample_projects" / "bank_fraud", project)
    out = io.StringIO()
    assert main(["test", str(project), "--coverage"], out=out) == 0
    text = out.getvalue()
    agent = Agent.load(project)
    expected = coverage(agent.spec, [r.outputs for r in run_tests(agent)]).format_text()
    assert expected in text
    out = io.StringIO()
    assert main(["test", str(project), "--coverage", "--json"], out=out) == 0
    assert '"coverage"' in out.getvalue()
