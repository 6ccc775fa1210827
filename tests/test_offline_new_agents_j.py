"""Turns of agents the offline parser was never written for (session 9, helper J; found on tests/agents/bike_repair
and tests/agents/self_storage): references whose example has a one-letter prefix, lengths of time in months and
years, a yes/no field answered by its own word, a "no" to an optional number, "starting <day>", names after a
lead-in sentence, a yes after thanks, and a cancel said with "sorry"."""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "allotment society", "starting_prompt": "Allotment society, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Rent Plot", "description": "a plot of land to grow vegetables on, rented by the month"},
                    {"value": "Leave Plot", "description": "give up a plot you rent now"}),
        {"name": "RentPlot", "kind": "task", "predicate": 'task == "Rent Plot"', "api": "rent", "fields": [
            field("plot_size", "Enum", "How big a plot you want", enum_values=[
                {"value": "Half Plot", "description": "enough for a few beds of vegetables"},
                {"value": "Full Plot", "description": "room for a greenhouse, fruit trees and vegetables"}]),
            field("fenced", "bool", "Whether the plot must be fenced, against rabbits and deer"),
            field("start_date", "date", "The day you take the plot on"),
            field("lease_months", "int", "How many months you lease the plot for"),
            field("shed_value", "int", "What your shed and tools are worth in pounds, for the insurance",
                  required=False),
            field("holder_name", description="Your full name"),
            field("confirm", "confirm", "Confirm the lease")]},
        {"name": "LeavePlot", "kind": "task", "predicate": 'task == "Leave Plot"', "api": "leave", "fields": [
            field("plot_number", description="Your plot number, like D-310"),
            field("leave_date", "date", "The day you hand the plot back"),
            field("confirm", "confirm", "Confirm the notice")]},
    ],
    "apis": [{"name": "rent"}, {"name": "leave"}],
}
OPEN = ("I'd like to rent a plot", "a half plot")


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("allotments"), SPEC)


def _asked(result) -> str | None:
    return next((a.get("field") for a in reversed(result.acts) if a.get("act") == "ask"), None)


@pytest.mark.parametrize("answer, value", [("F-122", "F-122"), ("f122", "F-122"), ("it's plot a-009", "A-009")])
def test_an_example_with_a_one_letter_prefix_fits_any_letter(agent, answer, value):
    s, results = talk(agent, "I want to give up my plot")
    assert _asked(results[-1]) == "plot_number"
    assert statements(s.turn(answer)) == [f'leave_plot.plot_number = "{value}"']


@pytest.mark.parametrize("answer, months", [("a year", 12), ("two years", 24), ("a year and a half", 18),
                                            ("18 months", 18)])
def test_years_in_a_field_of_months(agent, answer, months):
    s, results = talk(agent, *OPEN, "yes", "1st august")
    assert _asked(results[-1]) == "lease_months"
    assert statements(s.turn(answer)) == [f"rent_plot.lease_months = {months}"]


def test_a_length_in_another_unit_that_does_not_convert_is_no_value(agent):
    s, _results = talk(agent, *OPEN, "yes", "1st august")
    assert statements(s.turn("six weeks")) == []  # not 6 months: the agent asks again
    s, _results = talk(agent, "I'd like to rent a half plot for two years")
    assert 'lease_months=24' in statements(_results[-1])[-1]


@pytest.mark.parametrize("answer, value", [("not fenced", False), ("it doesn't need to be fenced", False),
                                           ("fenced please", True)])
def test_a_yes_no_field_answered_by_its_own_word(agent, answer, value):
    s, results = talk(agent, *OPEN)
    assert _asked(results[-1]) == "fenced"
    assert statements(s.turn(answer)) == [f"rent_plot.fenced = {value}"]


@pytest.mark.parametrize("answer", ["nah", "no", "no thanks"])
def test_a_no_refuses_an_optional_number(agent, answer):
    s, results = talk(agent, *OPEN, "yes", "1st august", "12")
    assert _asked(results[-1]) == "shed_value"
    assert statements(s.turn(answer)) == ['rent_plot.shed_value = "NA"']


def test_a_no_does_not_refuse_a_required_number(agent):
    s, results = talk(agent, *OPEN, "yes", "1st august")
    assert _asked(results[-1]) == "lease_months"
    assert statements(s.turn("no")) == []


def test_a_day_after_starting_is_the_start_of_what_is_booked(agent):
    s, results = talk(agent, "a half plot please, starting 1st of august, for 6 months")
    said = statements(results[-1])[-1]
    assert 'start_date="2024-08-01"' in said and "lease_months=6" in said


@pytest.mark.parametrize("answer, name", [("ok fine. Its Jo Marsh", "Jo Marsh"), ("Jo Marsh here", "Jo Marsh"),
                                          ("its jo marsh", "Jo Marsh")])
def test_a_name_after_a_lead_in(agent, answer, name):
    s, results = talk(agent, *OPEN, "yes", "1st august", "12", "no")
    assert _asked(results[-1]) == "holder_name"
    assert statements(s.turn(answer)) == [f'rent_plot.holder_name = "{name}"']


def test_a_yes_and_a_cancel_are_no_name(agent):
    s, _results = talk(agent, *OPEN, "yes", "1st august", "12", "2000")
    assert statements(s.turn("yes please cancel")) == []


def test_a_yes_after_thanks_confirms_and_a_change_after_thanks_changes(agent):
    said = (*OPEN, "yes", "1st august", "12", "no", "Jo Marsh")
    s, results = talk(agent, *said)
    assert _asked(results[-1]) == "confirm"
    assert statements(s.turn("ok thanks, thats all fine. yes go ahead")) == ["rent_plot.confirm = True"]
    s, _results = talk(agent, *said)
    assert statements(s.turn("ok thanks, thats all fine. can you make it 10 months")) == \
        ["rent_plot.lease_months = 10"]


def test_a_cancel_said_with_sorry(agent):
    s, _results = talk(agent, *OPEN, "yes")
    r = s.turn("my neighbour offered me half of his. cancel it, sorry")
    assert statements(r) == [] and any(x["rule"] == "control-cancel" for x in r.trace["parse"]["rules"])
    assert statements(s.turn("yes please cancel")) == ["exitws(rent_plot)", "main.task = None"]


MARINA = {
    "name": "marina", "starting_prompt": "Marina office, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Rent Berth", "description": "a place in the marina to keep your boat"},
                    {"value": "Leave Berth",
                     "description": "tell us you are taking your boat out of a berth you rent now"}),
        {"name": "RentBerth", "kind": "task", "predicate": 'task == "Rent Berth"', "api": "rent", "fields": [
            field("berth_size", "Enum", "How big a berth you need", enum_values=[
                {"value": "Small Berth", "description": "a dinghy or a small motor boat"},
                {"value": "Large Berth", "description": "a yacht or a narrowboat"}]),
            field("months", "int", "How many months you want the berth for"),
            field("start_date", "date", "The day you bring the boat")]},
        {"name": "LeaveBerth", "kind": "task", "predicate": 'task == "Leave Berth"', "api": "leave", "fields": [
            field("berth_number", description="Your berth number, like P-12"),
            field("reason", "Enum", "Why you are leaving", required=False, enum_values=[
                {"value": "Selling The Boat", "description": "the boat is sold"},
                {"value": "Moving Away", "description": "moving to another town or area"}])]},
    ],
    "apis": [{"name": "rent"}, {"name": "leave"}],
}


def test_of_two_clauses_read_as_two_tasks_the_one_asking_for_something_is_the_request(tmp_path):
    marina = agent_of(tmp_path, MARINA)
    s, results = talk(marina, "Hi, we're moving away at the end of the month and need somewhere to keep our yacht for "
                              "about 3 months, starting the 28th")
    said = statements(results[-1])
    assert said[0] == 'main.task = "Rent Berth"' and "months=3" in said[1]
