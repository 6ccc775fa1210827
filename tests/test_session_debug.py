"""Session time travel for the playground: inject, set_field, rewind, fork; saving tests."""

from __future__ import annotations

import json

import pytest

from core_engine import Agent, Spec, StatementError
from core_engine.session.recording import act_rows, conversation_to_test, expected_act
from core_engine.evaluation.testing import run_test

BOOKING = [
    {"name": "Main", "fields": [
        {"name": "user_task", "type": "Enum", "enum_values": ["Book", "Browse"], "description": "What to do"},
    ]},
    {"name": "Book", "predicate": 'user_task == "Book"', "api": "book", "fields": [
        {"name": "date", "type": "date", "description": "The date"},
        {"name": "people", "type": "int", "description": "How many people"},
        {"name": "note", "type": "str", "dont_ask": True, "required": False},
        {"name": "confirm", "type": "confirm", "description": "Book it?"},
    ]},
]
BOOK_API = [{"name": "book", "kind": "mock", "mock_result": {"booking_id": "{transaction_id}"}}]


def make_agent(worksheets=BOOKING, apis=BOOK_API) -> Agent:
    return Agent(spec=Spec.model_validate({"name": "booking", "worksheets": worksheets, "apis": apis}))


def asks(result) -> list[tuple]:
    return [(a["act"], a.get("var"), a.get("field")) for a in result.acts]


@pytest.fixture
def session():
    s = make_agent().new_session(parser="formal")
    s.turn('main.user_task = "Book"')
    return s


def test_inject_applies_statements_as_a_turn_and_recomputes_acts(session):
    r = session.inject('book.date = "2024-07-06"')
    assert asks(r) == [("ask", "book", "people")]
    assert r.trace["input"] == "inject"
    assert len(session.turns) == 2
    book = next(x for x in session.state["records"] if x["var"] == "book")
    assert book["values"]["date"] == "2024-07-06"


def test_inject_uses_the_formal_path_even_when_the_session_parser_is_offline():
    s = make_agent().new_session(parser="offline")
    r = s.inject('main.user_task = "Book"')
    assert r.trace["parse"]["parser"] == "formal"
    assert asks(r) == [("ask", "book", "date")]


@pytest.mark.parametrize("text, reason", [
    ("import os", "Import"),
    ("book.nope = 1", "no field 'nope'"),
    ('book.people = "many"', "not a whole number"),
    ("", "no statements"),
    ("__import__('os').system('true')", "can be called on their own"),
    ("book.__class__ = 1", "not allowed"),
])
def test_inject_rejects_bad_statements_and_records_nothing(session, text, reason):
    before = json.dumps(session.state, sort_keys=True)
    with pytest.raises(StatementError) as exc:
        session.inject(text)
    assert reason in str(exc.value)
    assert len(session.turns) == 1
    assert json.dumps(session.state, sort_keys=True) == before


def test_inject_not_strict_records_the_turn_with_rejections_in_the_trace(session):
    r = session.inject('book.nope = 1\nbook.people = 3', strict=False)
    assert len(session.turns) == 2
    assert r.trace["interpret"]["rejected"][0]["source"] == "book.nope = 1"
    assert next(x for x in r.state["records"] if x["var"] == "book")["values"]["people"] == 3


def test_set_field_is_typed_validated_and_recomputes_acts(session):
    r = session.set_field("book", "people", "4")  # typed text from a form is coerced like any assignment
    assert r.trace["input"] == "edit"
    assert r.user == 'book.people = "4"'
    assert next(x for x in r.state["records"] if x["var"] == "book")["values"]["people"] == 4
    assert asks(r) == [("ask", "book", "date")]
    with pytest.raises(StatementError, match="not a whole number"):
        session.set_field("book", "people", "lots")
    with pytest.raises(StatementError, match="no task record named 'nobody'"):
        session.set_field("nobody", "people", 1)
    with pytest.raises(StatementError, match="Book has no field 'colour'"):
        session.set_field("book", "colour", "red")
    with pytest.raises(StatementError, match="cannot be typed in"):
        session.set_field("book", "note", {"a": 1})
    assert len(session.turns) == 2


def test_set_field_none_removes_and_quotes_are_escaped(session):
    session.set_field("book", "note", 'say "hi"\nand bye')
    assert next(x for x in session.state["records"] if x["var"] == "book")["values"]["note"] == 'say "hi"\nand bye'
    session.set_field("book", "note", None)
    assert "note" not in next(x for x in session.state["records"] if x["var"] == "book")["values"]


def test_rewind_then_edit_then_continue(session):
    session.turn('book.date = "2024-07-06"')
    session.turn("book.people = 2")
    session.rewind(2)
    assert len(session.turns) == 1
    session.set_field("book", "date", "2024-08-01")
    r = session.turn("book.people = 3")
    assert asks(r) == [("ask", "book", "confirm")]
    book = next(x for x in r.state["records"] if x["var"] == "book")
    assert book["values"] == {"date": "2024-08-01", "people": 3}


def test_fork_is_independent(session):
    other = session.fork()
    other.inject('book.date = "2024-07-06"')
    assert len(other.turns) == 2 and len(session.turns) == 1
    assert "date" not in next(x for x in session.state["records"] if x["var"] == "book")["values"]


# ---------------------------------------------------------------- saving as a test

def test_expected_act_keeps_identity_not_payload():
    assert expected_act({"act": "report", "var": "answer", "kind": "kb", "result": [{"a": 1}], "query": "q"}) == \
        {"act": "report", "var": "answer", "kind": "kb"}
    assert expected_act({"act": "report", "var": "book", "kind": "api", "api": "book", "result": {"id": "x"}}) == \
        {"act": "report", "var": "book", "kind": "api", "api": "book"}
    assert expected_act({"act": "ask", "var": "m", "worksheet": "M", "field": "f"}) == \
        {"act": "ask", "var": "m", "worksheet": "M", "field": "f"}


def test_saved_conversation_replays_green_with_per_turn_assertions(session):
    session.set_field("book", "date", "2024-07-06")
    session.turn("book.people = 2")
    test = conversation_to_test("booking", session.turns, parser="formal",
                                assertions={1: {"acts"}, 2: {"acts", "values"}, 3: {"response"}})
    turns = test["turns"]
    assert turns[0]["acts"] == [{"act": "ask", "var": "book", "worksheet": "Book", "field": "date"}]
    assert "values" not in turns[0] and "response_contains" not in turns[0]
    assert turns[1]["parser"] == "formal" and turns[1]["values"] == {"book.date": "2024-07-06"}
    assert "acts" not in turns[2] and turns[2]["response_contains"] == [session.turns[2].response]
    assert run_test(make_agent(), test).passed


def test_saved_test_plays_edits_as_statements_under_the_offline_parser():
    s = make_agent().new_session(parser="offline")
    s.turn("book")
    s.set_field("book", "people", 5)
    test = conversation_to_test("offline edits", s.turns, parser="offline", default=("acts", "values"))
    assert test["turns"][1]["parser"] == "formal"
    result = run_test(make_agent(), test)
    assert result.passed, result.to_dict()
    assert [o.trace["parse"]["parser"] for o in result.outputs] == ["offline", "formal"]


def test_failure_names_first_differing_turn_with_expected_and_actual(session):
    session.turn('book.date = "2024-07-06"')
    session.turn("book.people = 2")
    test = conversation_to_test("booking", session.turns, parser="formal", default=("acts", "values"))
    broken = json.loads(json.dumps(BOOKING))
    broken[1]["fields"][1].update(required=False, dont_ask=True)  # people is no longer asked (optional alone still is)
    result = run_test(make_agent(broken), test)
    assert not result.passed
    fail = result.first_failure
    assert fail.index == 2
    assert fail.problems == ["acts differ"]
    rows = act_rows(fail.expected_acts, fail.actual_acts, fail.match)
    assert rows == [{"expected": "Ask(book, people)", "actual": "Ask(book, confirm)", "ok": False}]
    assert fail.expected_values == {"book.date": "2024-07-06"} and fail.actual_values == {"book.date": "2024-07-06"}


def test_act_rows_contains_mode_pairs_by_match():
    actual = [{"act": "report", "var": "a", "kind": "kb", "result": []}, {"act": "ask", "var": "m", "field": "f"}]
    rows = act_rows([{"act": "ask", "var": "m", "field": "f"}, {"act": "say", "text": "hi"}], actual, "contains")
    assert rows[0] == {"expected": "Ask(m, f)", "actual": "Ask(m, f)", "ok": True}
    assert rows[1] == {"expected": "Say('hi')", "actual": "", "ok": False}
    assert rows[2] == {"expected": "", "actual": "Report(a, kb)", "ok": True}


def test_conversation_to_test_rejects_bad_choices(session):
    with pytest.raises(Exception, match="unknown assertion"):
        conversation_to_test("x", session.turns, assertions={1: {"vibes"}})
    with pytest.raises(Exception, match="needs a name"):
        conversation_to_test("  ", session.turns)
    with pytest.raises(Exception, match="no turns"):
        conversation_to_test("x", [])


def test_cli_failure_shows_expected_and_actual_acts_side_by_side(tmp_path):
    import io

    from core_engine.cli import main
    (tmp_path / "spec.json").write_text(json.dumps({"name": "booking", "worksheets": BOOKING, "apis": BOOK_API}))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.json").write_text(json.dumps({"name": "t", "parser": "formal", "turns": [
        {"user": 'main.user_task = "Book"', "acts": [{"act": "ask", "var": "book", "field": "people"}]}]}))
    out = io.StringIO()
    assert main(["test", str(tmp_path)], out=out) == 1
    text = out.getvalue()
    assert "turn 1: 'main.user_task = \"Book\"'" in text
    assert "✗ Ask(book, people)" in text and "| Ask(book, date)" in text
