"""Replaying a conversation against an edited spec, and the state diff the inspector uses."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from core_engine import Agent, GenieError, Spec
from core_engine.session.replay import act_keys, changed_fields, diff_states, replay

ROOT = Path(__file__).resolve().parents[1]

SPEC = {"name": "r", "worksheets": [
    {"name": "Main", "fields": [
        {"name": "full_name", "type": "str", "description": "Your name"},
        {"name": "age", "type": "int", "description": "Your age"},
        {"name": "city", "type": "str", "description": "Your city"},
    ]},
]}
TURNS = ['main.full_name = "Ada"', "main.age = 36", 'main.city = "Paris"']


def agent(spec: dict = SPEC) -> Agent:
    return Agent(spec=Spec.model_validate(spec))


def recorded(turns=TURNS):
    s = agent().new_session(parser="formal")
    return [s.turn(t) for t in turns]


def test_same_spec_replays_without_changes():
    report = replay(agent(), recorded(), parser="formal")
    assert report.first_difference is None
    assert report.changed_turns == []
    assert "all 3 turns" in report.summary()


def test_edited_spec_shows_the_first_changed_turn_with_expected_and_actual():
    edited = json.loads(json.dumps(SPEC))
    edited["worksheets"][0]["fields"][1].update(required=False, dont_ask=True)  # age is no longer asked
    report = replay(agent(edited), recorded(), parser="formal")
    first = report.first_difference
    assert first is not None and first.index == 1
    assert first.acts_changed and first.response_changed
    d = first.to_dict()
    assert d["expected_acts"] == ["Ask(main, age)"] and d["actual_acts"] == ["Ask(main, city)"]
    assert report.to_dict()["first_difference"] == 1


def test_log_json_replays_like_turn_results_and_keeps_injected_turns():
    s = agent().new_session(parser="offline")
    s.inject('main.full_name = "Ada"')
    s.set_field("main", "age", "36")
    log = [t.to_json(i) for i, t in enumerate(s.turns, 1)]
    report = replay(agent(), json.loads(json.dumps(log)), parser="offline")
    assert [t.input for t in report.turns] == ["inject", "edit"]
    assert report.first_difference is None
    assert report.session is not None and len(report.session.turns) == 2


def test_plain_user_texts_replay_with_nothing_to_compare():
    report = replay(agent(), TURNS, parser="formal")
    assert report.first_difference is None
    assert [t.actual_acts for t in report.turns][-1] == []


def test_bad_conversation_item_is_a_clear_error():
    with pytest.raises(GenieError, match="cannot replay int"):
        replay(agent(), [3], parser="formal")


def test_changed_kb_rows_count_as_a_change():
    a = [{"act": "report", "var": "answer", "kind": "kb", "result": [{"id": 1}]}]
    b = [{"act": "report", "var": "answer", "kind": "kb", "result": [{"id": 2}]}]
    assert act_keys(a) != act_keys(b)


def test_diff_states_lists_field_level_changes():
    rs = recorded()
    changes = diff_states(rs[0].state, rs[1].state)
    assert changes == [{"var": "main", "field": "age", "op": "added", "old": None, "new": 36}]
    assert changed_fields(rs[0].state, rs[1].state) == {("main", "age")}
    old = {"records": [{"var": "main", "kind": "task", "worksheet": "Main", "values": {"age": 1, "city": "X"},
                        "status": "active", "confirmed": [], "refused": []}]}
    new = {"records": [{"var": "main", "kind": "task", "worksheet": "Main", "values": {"age": 2},
                        "status": "completed", "confirmed": [], "refused": []},
                       {"var": "answer", "kind": "kb", "query": "q", "status": "done"}]}
    ops = {(c["var"], c["field"], c["op"]) for c in diff_states(old, new)}
    assert ops == {("answer", None, "added"), ("main", "age", "changed"), ("main", "city", "removed"),
                   ("main", "[status]", "changed")}


def test_restaurant_replay_with_a_broken_spec_changes_from_the_turn_it_affects():
    agent_ = Agent.load(ROOT / "sample_projects" / "restaurant_reservation")
    s = agent_.new_session(parser="offline")
    for text in ["I want to book a table at a pizza place in San Francisco with a patio", "the second one",
                 "July 6 2024", "7pm"]:
        s.turn(text)
    spec = agent_.spec.model_copy(deep=True)
    spec.worksheet("BookRestaurant").field("time").dont_ask = True  # no longer asked (optional alone still is)
    report = replay(dataclasses.replace(agent_, spec=spec), s.turns, parser="offline")
    assert report.changed_turns[0] == 3
    assert report.turns[2].to_dict()["expected_acts"] == ["Ask(book_restaurant, time)"]
