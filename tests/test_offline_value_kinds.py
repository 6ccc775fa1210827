"""Mechanisms found by grouping a development set's failures by kind, pinned on a boat-hire spec written here.

Nothing here uses that set's words: a word shared by two enum options decides neither, a `*_name` field whose
description speaks of a full name holds a person's name span, and a length of time or a position in a list is
never read as a date.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from core_engine.parsers.offline.words.libvalues import not_a_date, parse_date
from core_engine.parsers.offline.words.match import Bag, best_enum
from core_engine.parsers.offline.words.values import find_dates
from core_engine.session.agent import Agent
from core_engine.spec.model import Field

TODAY = dt.date(2024, 7, 1)  # a Monday


def _field(name, type_="str", description="", **extra):
    return {"name": name, "type": type_, "description": description, **extra}


SPEC = {
    "name": "boat hire", "starting_prompt": "Ahoy! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [
            _field("task", "Enum", "What you would like to do", enum_values=[
                {"value": "Hire Boat", "description": "take out a boat for a few hours"},
                {"value": "Refund Payment", "description": "money back for a trip that was cancelled"}])]},
        {"name": "HireBoat", "kind": "task", "predicate": 'task == "Hire Boat"', "api": "hire_boat", "fields": [
            _field("hours", "int", "For how many hours you need the boat"),
            _field("skipper_name", description="The skipper's full name"),
            _field("skipper_age", "int", "The skipper's age in years"),
            _field("day", "date", "The day of the trip"),
            _field("confirm", "confirm", "Confirm the hire")]},
        {"name": "RefundPayment", "kind": "task", "predicate": 'task == "Refund Payment"', "api": "refund",
         "fields": [_field("receipt_code", description="The code on the receipt")]},
    ],
    "apis": [{"name": "hire_boat"}, {"name": "refund"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("boats")
    (root / "spec.json").write_text(json.dumps(SPEC))
    return Agent.load(Path(root))


def talk(agent: Agent, *turns: str):
    session = agent.new_session(parser="offline", today=TODAY)
    return session, [session.turn(t) for t in turns]


def statements(result) -> list[str]:
    return result.trace["parse"]["statements"]


def test_a_word_shared_by_two_options_decides_neither():
    values = [{"value": "Extend Booking", "description": "more nights on a stay"},
              {"value": "New Stay", "description": "a booking for some nights"}]
    plain = Field.model_validate({"name": "task", "type": "Enum", "enum_values": values})
    assert best_enum(plain, Bag.of("I'd like a booking"), minimum=1)[0] == "Extend Booking"  # its name says it
    values[1]["examples"] = ["I'd like a booking for two nights"]
    taught = Field.model_validate({"name": "task", "type": "Enum", "enum_values": values})
    assert best_enum(taught, Bag.of("I'd like a booking"), minimum=1) is None  # the developer taught it for the other
    assert best_enum(taught, Bag.of("extend my booking please"))[0] == "Extend Booking"  # "extend" is its own


def test_a_person_name_field_takes_the_name_span(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "3 hours", "Sam Ortiz, I'm 41")
    assert 'hire_boat.skipper_name = "Sam Ortiz"' in statements(results[-1])
    _s, results = talk(agent, "I'd like to hire a boat", "3", "My name's Ruth Abebe")
    assert statements(results[-1]) == ['hire_boat.skipper_name = "Ruth Abebe"']


def test_a_length_of_time_or_a_list_position_is_no_date():
    assert parse_date("6 days", TODAY) is None and parse_date("a week", TODAY) is None
    assert parse_date("in 6 days", TODAY).value == "2024-07-07"
    assert parse_date("3 days from now", TODAY).value == "2024-07-04"
    assert parse_date("next week", TODAY) is not None  # "next" is no number of weeks
    assert find_dates("let's take the 2nd one", TODAY) == [] and not_a_date("the 2nd one", "the 2nd one")
    assert [d.value for d in find_dates("on the 2nd", TODAY)] == ["2024-07-02"]


def test_a_duration_answer_does_not_fill_a_date(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "4 hours. I'm Lea Moss")
    said = " ".join(statements(results[-1]))
    assert "day=" not in said and "hire_boat.day" not in said

