"""Turns of agents the offline parser was never written for (session 8, helper H): references shaped like an
example with runs of letters and digits ("like PL40 XRT"), and such a reference beating a "don't know" said beside
it."""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "boat moorings", "starting_prompt": "Harbour office, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-03-05"},
    "worksheets": [
        task_choice({"value": "Rent Mooring", "description": "a berth in the harbour for a boat, by the night"},
                    {"value": "Order Fuel", "description": "diesel delivered to a moored boat"}),
        {"name": "RentMooring", "kind": "task", "predicate": 'task == "Rent Mooring"', "api": "rent", "fields": [
            field("hull_number", description="The hull number painted on the bow, like PL40 XRT"),
            field("nights", "int", "How many nights"),
            field("skipper_name", description="Your name"),
            field("confirm", "confirm", "Confirm the mooring")]},
        {"name": "OrderFuel", "kind": "task", "predicate": 'task == "Order Fuel"', "api": "fuel",
         "fields": [field("litres", "int", "How many litres")]},
        {"name": "berths", "kind": "kb", "description": "The berths", "fields": [
            field("id", primary_key=True), field("name"), field("length_m", "float")]},
    ],
    "apis": [{"name": "rent"}, {"name": "fuel"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("moorings"), SPEC)


@pytest.mark.parametrize("answer, value", [("PL52 KDM", "PL52 KDM"), ("its pl52kdm", "PL52 KDM"),
                                           ("hang on... ok it's TR07 WNA", "TR07 WNA"),
                                           ("dont know it by heart, it's on the bow... GH19 LOP", "GH19 LOP")])
def test_a_reference_shaped_like_an_example_of_letter_and_digit_runs(agent, answer, value):
    s, results = talk(agent, "I'd like to rent a mooring")
    assert results[0].acts[-1]["field"] == "hull_number"
    assert statements(s.turn(answer)) == [f'rent_mooring.hull_number = "{value}"']


def test_a_part_of_such_a_reference_is_not_the_value(agent):
    s, _results = talk(agent, "I'd like to rent a mooring")
    assert statements(s.turn("PL52")) == []


@pytest.mark.parametrize("said, value", [("drop it off at 9", "09:00"), ("next monday around 10", "10:00"),
                                         ("at 7", "19:00"), ("8 o'clock", "20:00"), ("at 10 tonight", "22:00"),
                                         ("half 10", "10:30")])
def test_a_bare_hour_of_nine_or_ten_is_a_morning(said, value):
    from core_engine.parsers.offline.words.values import find_times
    assert [t.value for t in find_times(said)][:1] == [value]
