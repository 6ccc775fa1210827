"""Values read from the spec's own hints: a reference shaped like a field's described example opens its task,
national phone numbers, and "the weekend" as a date (session 6, helper C)."""

from __future__ import annotations

import datetime as dt

import pytest

from core_engine.parsers.offline.words.libvalues import find_phones
from core_engine.parsers.offline.words.values import find_dates
from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "bike repairs", "starting_prompt": "Hi! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Book Repair", "description": "bring a bike in to be fixed"},
            {"value": "Check Repair", "description": "ask how a repair that was booked is going"}),
        {"name": "BookRepair", "kind": "task", "predicate": 'task == "Book Repair"', "api": "book", "fields": [
            field("bike_model", description="The make and model of the bike"),
            field("frame_number", description="The serial number under the frame"),
            field("drop_off", "date", "The day you bring the bike in"),
            field("fault", "Enum", "What is wrong with the bike", enum_values=[
                {"value": "Brakes", "description": "the brakes squeal, rub or do not stop the bike"},
                {"value": "Gears", "description": "the chain slips or the gears do not change"}]),
            field("phone", description="A phone number to call when it is ready"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "CheckRepair", "kind": "task", "predicate": 'task == "Check Repair"', "api": "status",
         "fields": [field("job_ref", description="The job reference, like BX-5120")]},
    ],
    "apis": [{"name": "book"}, {"name": "status"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("bikes"), SPEC)


def test_a_reference_shaped_like_a_fields_example_opens_its_task(agent):
    s, results = talk(agent, "how's my bike doing? it's BX-7731")
    assert statements(results[0])[0] == 'main.task = "Check Repair"'
    assert s.current.get("check_repair").values["job_ref"] == "BX-7731"
    s, results = talk(agent, "I want to get my bike fixed", "actually just check on job bx7731 instead")
    assert statements(results[1])[:2] == ["exitws(book_repair)", 'main.task = "Check Repair"']
    assert s.current.get("check_repair").values["job_ref"] == "bx7731"
    _s, results = talk(agent, "I want to get my bike fixed", "it's BX-77")  # not the example's shape: no task
    assert not any("Check Repair" in s for s in statements(results[1]))


def test_a_national_number_with_its_trunk_prefix_is_a_phone_number(agent):
    assert [p.value for p in find_phones("Priya Raman, 07700 900123")] == ["07700 900123"]
    assert find_phones("on 2024-07-12") == [] and find_phones("ref 0012") == []
    s, _results = talk(agent, "I want to get my bike fixed")
    r = s.turn("a Brompton C2, dropping it off tomorrow, call me on 020 7946 0958")
    assert 'book_repair.phone = "020 7946 0958"' in statements(r)


def test_the_weekend_is_the_coming_saturday():
    assert [d.value for d in find_dates("a room for the weekend", dt.date(2024, 7, 1))] == ["2024-07-06"]
    assert [d.value for d in find_dates("this weekend", dt.date(2024, 7, 7))] == ["2024-07-07"]  # a Sunday
    assert find_dates("next weekend", dt.date(2024, 7, 1)) == []
    assert find_dates("last weekend", dt.date(2024, 7, 1), past=True) == []


def test_an_answer_naming_another_fields_option_by_its_description_fills_it(agent):
    s, results = talk(agent, "I want to get my bike fixed", "a Brompton C2")
    assert results[1].acts[0]["field"] == "frame_number"
    r = s.turn("the chain keeps slipping on hills")  # the serial is asked; the words are the Gears option's
    assert statements(r) == ['book_repair.fault = "Gears"'] and r.acts[-1]["field"] == "frame_number"
    r = s.turn("hmm the bike is old")  # "bike" is in both descriptions: no option, the serial is asked again
    assert not statements(r)
