"""Algorithm 1, branch by branch, on small specs built in the test."""

from __future__ import annotations

from typing import Any

import pytest

from core_engine import Agent, Spec
from core_engine.policy.runtime import KnowledgeBackend
from core_engine.spec.model import Api, Field, Worksheet
from core_engine.dialogue.state import KBRecord


def make_agent(worksheets: list[dict[str, Any]], apis: list[dict[str, Any]] | None = None, **spec: Any) -> Agent:
    return Agent(spec=Spec.model_validate({"worksheets": worksheets, "apis": apis or [], **spec}))


BOOKING = [
    {"name": "Main", "fields": [
        {"name": "user_task", "type": "Enum", "enum_values": ["Book", "Browse"], "description": "What to do"},
    ]},
    {"name": "Book", "predicate": 'user_task == "Book"', "api": "book", "fields": [
        {"name": "date", "type": "date", "description": "The date"},
        {"name": "people", "type": "int", "description": "How many people", "confirm": True,
         "actions": 'say(f"Noted: {self.people} people.")'},
        {"name": "note", "type": "str", "dont_ask": True, "required": False},
        {"name": "confirm", "type": "confirm", "description": "Book it?",
         "actions": 'if self.confirm == False:\n    say("Okay, not booking.")'},
    ], "actions": 'say("Enjoy your meal!")'},
]
BOOK_API = [{"name": "book", "kind": "mock", "mock_result": {"booking_id": "{transaction_id}", "people": "{people}"}}]


def kinds(result) -> list[tuple]:
    return [(a["act"], a.get("var"), a.get("field")) for a in result.acts]


@pytest.fixture
def booking():
    return make_agent(BOOKING, BOOK_API).new_session(parser="formal")


def test_session_starts_with_start_worksheet_and_prompt(booking):
    assert [r["var"] for r in booking.state["records"]] == ["main"]
    assert booking.state["records"][0]["initiator"] == "agent"
    assert booking.starting_prompt


def test_ask_first_unfilled_required_field(booking):
    r = booking.turn("")
    assert kinds(r) == [("ask", "main", "user_task")]


def test_ws_predicate_activates_worksheet_as_agent_initiative(booking):
    r = booking.turn('main.user_task = "book"')
    recs = {x["var"]: x for x in r.state["records"]}
    assert recs["main"]["values"]["user_task"] == "Book"  # enum normalised
    assert recs["book"]["initiator"] == "agent"
    assert kinds(r) == [("ask", "book", "date")]


def test_confirm_field_then_actions_after_confirmation(booking):
    booking.turn('main.user_task = "Book"')
    r = booking.turn('book.date = "2024-07-06"\nbook.people = "3"')
    assert kinds(r) == [("confirm", "book", "people")]
    assert r.acts[0]["value"] == 3
    r = booking.turn("confirm(book.people)")
    assert r.acts[0] == {"act": "say", "text": "Noted: 3 people."}
    assert kinds(r)[1] == ("ask", "book", "confirm")


def test_rejected_confirmation_removes_value_and_reasks(booking):
    booking.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')
    r = booking.turn("confirm(book.people, False)")
    assert kinds(r) == [("ask", "book", "people")]
    assert "people" not in {x["var"]: x for x in r.state["records"]}["book"]["values"]


def test_completed_record_calls_api_reports_and_runs_ws_actions(booking):
    booking.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')
    booking.turn("confirm(book.people)")  # a yes counts only after the agent asked (issue 13)
    r = booking.turn("book.confirm = True")
    report = r.acts[0]
    assert report["act"] == "report" and report["kind"] == "api" and report["var"] == "book"
    assert report["result"]["people"] == 3 and len(report["result"]["booking_id"]) == 36
    assert r.acts[1] == {"act": "say", "text": "Enjoy your meal!"}
    book = {x["var"]: x for x in r.state["records"]}["book"]
    assert book["status"] == "completed" and book["result"] == report["result"]


def test_confirm_no_never_calls_api(booking):
    booking.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')
    booking.turn("confirm(book.people)")  # a yes counts only after the agent asked (issue 13)
    r = booking.turn("book.confirm = False")
    assert r.acts == [{"act": "say", "text": "Okay, not booking."}]
    book = {x["var"]: x for x in r.state["records"]}["book"]
    assert book["status"] == "active" and book["result"] is None
    # nothing is asked again and no API runs on later turns either
    r = booking.turn("")
    assert all(a["act"] != "report" for a in r.acts)


def test_changed_value_reopens_confirm_checkpoint(booking):
    booking.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')
    booking.turn("confirm(book.people)")  # a yes counts only after the agent asked (issue 13)
    booking.turn("book.confirm = False")
    r = booking.turn('book.date = "2024-07-07"')
    assert kinds(r) == [("ask", "book", "confirm")]


def test_mock_transaction_ids_are_reproducible():
    agent = make_agent(BOOKING, BOOK_API)
    ids = []
    for _ in range(2):
        s = agent.new_session(parser="formal")
        s.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')
        s.turn("confirm(book.people)")
        ids.append(s.turn("book.confirm = True").acts[0]["result"]["booking_id"])
    assert ids[0] == ids[1]


def test_dont_ask_field_is_recorded_but_never_asked(booking):
    r = booking.turn('main.user_task = "Book"\nbook.note = "window seat"')
    assert kinds(r) == [("ask", "book", "date")]
    assert {x["var"]: x for x in r.state["records"]}["book"]["values"]["note"] == "window seat"


def test_one_question_per_turn(booking):
    r = booking.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')
    assert sum(a["act"] in ("ask", "confirm") for a in r.acts) == 1


NESTED = [
    {"name": "Main", "api": "submit", "fields": [
        {"name": "kind", "type": "Enum", "enum_values": ["A", "B"]},
        {"name": "a_details", "type": "Details", "predicate": 'self.kind == "A"'},
        {"name": "name", "type": "str"},
    ]},
    {"name": "Details", "fields": [
        {"name": "x", "type": "int"},
        {"name": "y", "type": "int", "predicate": "self.x > 1"},
    ]},
]


def test_nested_worksheet_instantiated_when_asked():
    s = make_agent(NESTED, [{"name": "submit"}]).new_session(parser="formal")
    r = s.turn('main.kind = "A"')
    assert kinds(r) == [("ask", "details", "x")]
    recs = {x["var"]: x for x in r.state["records"]}
    assert recs["main"]["values"]["a_details"] == {"$ref": "details"}
    assert recs["details"]["parent"] == "main" and recs["details"]["initiator"] == "agent"


def test_inactive_nested_fields_are_skipped():
    s = make_agent(NESTED, [{"name": "submit"}]).new_session(parser="formal")
    s.turn('main.kind = "A"')
    assert kinds(s.turn("details.x = 1")) == [("ask", "main", "name")]  # y inactive (x <= 1)
    s.rewind(1)
    assert kinds(s.turn("details.x = 5")) == [("ask", "details", "y")]


def test_nested_record_whose_parent_predicate_turned_false_is_not_asked():
    s = make_agent(NESTED, [{"name": "submit"}]).new_session(parser="formal")
    s.turn('main.kind = "A"')
    r = s.turn('main.kind = "B"')
    assert kinds(r) == [("ask", "main", "name")]
    r = s.turn('main.name = "Zed"')
    assert [a["act"] for a in r.acts] == ["report"]


def test_nested_path_assignment_creates_children():
    s = make_agent(NESTED, [{"name": "submit"}]).new_session(parser="formal")
    r = s.turn('main.kind = "A"\nmain.a_details.x = 3')
    assert kinds(r) == [("ask", "details", "y")]


def test_user_initiatives_are_asked_first():
    ws = [{"name": "Main", "fields": [{"name": "a", "type": "str"}]},
          {"name": "Other", "predicate": "a is not None", "fields": [{"name": "b", "type": "str"}]},
          {"name": "Mine", "predicate": "False", "fields": [{"name": "c", "type": "str"}]}]
    s = make_agent(ws).new_session(parser="formal")
    r = s.turn("mine = Mine()")
    assert kinds(r) == [("ask", "mine", "c")]


def test_refused_field_not_asked_again_and_predicates_see_na():
    ws = [{"name": "Main", "api": "go", "fields": [
        {"name": "acct", "type": "str"},
        {"name": "dob", "type": "date", "predicate": 'self.acct == "NA"'},
        {"name": "why", "type": "str"}]}]
    s = make_agent(ws, [{"name": "go"}]).new_session(parser="formal")
    r = s.turn('main.acct = "NA"')
    assert kinds(r) == [("ask", "main", "dob")]
    rec = r.state["records"][0]
    assert rec["refused"] == ["acct"] and rec["values"]["acct"] == "NA"
    r = s.turn('main.dob = "1990-01-02"\nmain.why = "lost card"')
    assert r.acts[0]["act"] == "say" and "acct" in r.acts[0]["text"]  # blocked: own required field refused
    assert all(a["act"] != "report" for a in r.acts)


def test_exitws_abandons_record():
    ws = [{"name": "Main", "fields": [
        {"name": "stop", "type": "bool", "actions": "if self.stop:\n    exitws()"},
        {"name": "more", "type": "str"}]}]
    s = make_agent(ws).new_session(parser="formal")
    r = s.turn("main.stop = True")
    assert r.state["records"][0]["status"] == "abandoned" and r.acts == []


def test_propose_act_and_acceptance():
    ws = [{"name": "Main", "fields": [{"name": "dest", "type": "str",
                                        "actions": 'propose(Hotel, {"city": self.dest})'}]},
          {"name": "Hotel", "fields": [{"name": "city", "type": "str"}, {"name": "nights", "type": "int"}]}]
    s = make_agent(ws).new_session(parser="formal")
    r = s.turn('main.dest = "Paris"')
    assert r.acts == [{"act": "propose", "worksheet": "Hotel", "values": {"city": "Paris"}}]
    r = s.turn('hotel = Hotel(city="Paris")')
    assert kinds(r) == [("ask", "hotel", "nights")]
    assert r.state["proposals"] == []


def test_failing_action_is_traced_not_fatal():
    ws = [{"name": "Main", "fields": [{"name": "a", "type": "int", "actions": "say(1 / 0)"},
                                       {"name": "b", "type": "str"}]}]
    s = make_agent(ws).new_session(parser="formal")
    r = s.turn("main.a = 2")
    assert r.ok and kinds(r) == [("ask", "main", "b")]
    assert "ZeroDivisionError" in r.trace["policy"]["errors"][0]["error"]


def test_action_loop_trips_budget_cleanly():
    ws = [{"name": "Main", "fields": [
        {"name": "a", "type": "int", "actions": "self.b = self.a + 1"},
        {"name": "b", "type": "int", "actions": "self.a = self.b + 1"}]}]
    s = make_agent(ws).new_session(parser="formal")
    r = s.turn("main.a = 1")
    assert r.ok  # the action budget stops the ping-pong, the turn still answers
    assert any("actions in one turn" in e["error"] for e in r.trace["policy"]["errors"])


class FakeKnowledge:
    def __init__(self, rows: list[dict]):
        self.rows = rows

    def run(self, record: KBRecord, spec, trace) -> None:
        record.sql = "SELECT * FROM t"
        record.result = list(self.rows)
        record.status = "done"
        trace.append({"query": record.query, "sql": record.sql, "rows": len(self.rows)})


KB_SPEC = [
    {"name": "Main", "fields": [{"name": "task", "type": "Enum", "enum_values": ["Book"]}]},
    {"name": "Book", "predicate": 'task == "Book"', "fields": [
        {"name": "place", "type": "Place"}, {"name": "people", "type": "int"}]},
    {"name": "Place", "kind": "type", "fields": [{"name": "name", "type": "str"}]},
]


def kb_session(rows) -> Any:
    knowledge: KnowledgeBackend = FakeKnowledge(rows)
    return make_agent(KB_SPEC).new_session(parser="formal", knowledge=knowledge)


def test_new_kb_record_is_executed_and_reported_before_asking():
    s = kb_session([{"name": "A"}, {"name": "B"}])
    r = s.turn('answer("places with a patio")')
    assert r.acts[0]["act"] == "report" and r.acts[0]["kind"] == "kb" and r.acts[0]["var"] == "answer"
    assert r.acts[0]["result"] == [{"name": "A"}, {"name": "B"}]
    assert kinds(r)[1] == ("ask", "main", "task")
    assert r.trace["kb"][0]["sql"] == "SELECT * FROM t"


def test_composition_single_row_fills_field():
    s = kb_session([{"name": "Ragazza"}])
    r = s.turn('main.task = "Book"\nbook.place = answer("Ragazza")')
    assert {x["var"]: x for x in r.state["records"]}["book"]["values"]["place"] == {"name": "Ragazza"}
    assert kinds(r)[-1] == ("ask", "book", "people")


def test_composition_several_rows_reported_then_choice_selects():
    s = kb_session([{"name": "A"}, {"name": "B"}])
    r = s.turn('main.task = "Book"\nbook.place = answer("pizza")')
    assert [a["act"] for a in r.acts] == ["report", "ask"] and r.acts[1]["field"] == "place"
    r = s.turn("book.place = answer.result[1]")
    assert {x["var"]: x for x in r.state["records"]}["book"]["values"]["place"] == {"name": "B"}
    assert kinds(r) == [("ask", "book", "people")]


def test_composition_no_rows_says_so_and_reasks():
    s = kb_session([])
    r = s.turn('main.task = "Book"\nbook.place = answer("sushi on the moon")')
    assert r.acts[0]["act"] == "report" and r.acts[0]["result"] == []
    assert kinds(r)[-1] == ("ask", "book", "place")


def test_without_knowledge_base_question_reports_error():
    s = make_agent(KB_SPEC).new_session(parser="formal")
    r = s.turn('answer("anything")')
    assert r.acts[0]["act"] == "report" and "no knowledge base" in r.acts[0]["error"]


def test_previous_state_is_never_mutated(booking):
    before = booking.state
    booking.turn('main.user_task = "Book"')
    assert before["records"] == [{**before["records"][0]}]
    assert len(before["records"]) == 1


def test_rewind_restores_state_and_turns(booking):
    booking.turn('main.user_task = "Book"')
    booking.turn('book.date = "2024-07-06"')
    booking.rewind(1)
    assert len(booking.turns) == 1
    assert "date" not in {x["var"]: x for x in booking.state["records"]}["book"]["values"]
    with pytest.raises(Exception):
        booking.rewind(5)


def test_state_setter_validates_and_drives_policy(booking):
    state = booking.state
    state["records"][0]["values"]["user_task"] = "Book"
    booking.state = state
    r = booking.turn("")
    assert kinds(r) == [("ask", "book", "date")]
    bad = booking.state
    bad["records"][0]["worksheet"] = "Nope"
    with pytest.raises(Exception, match="unknown worksheet"):
        booking.state = bad


def test_fork_is_independent(booking):
    booking.turn('main.user_task = "Book"')
    other = booking.fork()
    other.turn('book.date = "2024-07-06"')
    assert len(booking.turns) == 1 and len(other.turns) == 2


def test_spec_objects_build_from_models():
    ws = Worksheet(name="Main", fields=[Field(name="a")])
    spec = Spec(worksheets=[ws], apis=[Api(name="x")])
    assert spec.start_worksheet() is ws


def test_a_nested_record_named_first_is_made_where_the_form_needs_it():
    """`course.course_name = ...` before any course field exists: the course is made inside Main's empty
    `courses_to_take` (its first Course field), not as a loose record. The loose record used to be asked
    first and then a second, conditional course was asked before `more_courses_2` said there was one."""
    from pathlib import Path

    agent = Agent.load(Path(__file__).resolve().parents[1] / "sample_projects" / "course_enrollment")
    session = agent.new_session(parser="formal")
    turns = ['course.course_name = "Compilers"', 'course.grade_type = "Letter"', "course.course_num_units = 4",
             'course_2.course_name = "CS 144"', 'course_2.grade_type = "Letter"', "course_2.course_num_units = 3"]
    results = [session.turn(t) for t in turns]
    asked = [(a["var"], a["field"]) for r in results for a in r.acts if a["act"] == "ask"]
    assert asked[2] == ("course_2", "course_name")
    assert asked[-1] == ("courses_to_take", "more_courses_2")
    parents = {r["var"]: (r.get("parent"), r.get("parent_field")) for r in results[-1].state["records"]}
    assert parents["course"] == ("courses_to_take", "course_0_details")
    assert parents["courses_to_take"] == ("main", "courses_to_take")
