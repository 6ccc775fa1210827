"""Turns about rows the user was shown, pinned on the held-out dental agent (tests/agents/dental_clinic) and a
small table-booking spec written here (no sample).

A yes with only agreeing words after it names no row (it was searched for as the dentist); a question that
points at a shown row by its place ("does the second one speak Spanish?") is asked about that row by name,
not run as a new search that fills the field; in an opening, "for two" is the count of people when the task
has one such field, and a number left over is never the words to search for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

DENTAL = Path(__file__).parent / "agents" / "dental_clinic"
TO_RESULTS = ("I'd like to book a dental appointment", "an orthodontist please")


@pytest.fixture(scope="module")
def dental() -> Agent:
    return Agent.load(DENTAL)


def test_the_search_shows_several_rows(dental):
    _s, results = talk(dental, *TO_RESULTS)
    report = [a for a in results[-1].acts if a["act"] == "report"]
    assert report and len(report[-1]["result"]) >= 2


@pytest.mark.parametrize("agreeing", ["yep that's right", "yes confirm", "yes, sounds good"])
def test_a_yes_with_agreeing_words_is_no_search(dental, agreeing):
    _s, results = talk(dental, *TO_RESULTS, agreeing)
    assert not any("answer(" in s for s in statements(results[-1]))


def test_a_question_about_a_shown_row_by_its_place_is_asked_about_that_row(dental):
    _s, results = talk(dental, *TO_RESULTS, "does the second one speak Spanish?")
    second = [a for a in results[-2].acts if a["act"] == "report"][-1]["result"][1]["name"]
    assert statements(results[-1]) == [f'answer("does {second} speak Spanish?")']


TABLES = {
    "name": "bistro tables", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Table", "description": "reserve a table at the bistro"}),
        {"name": "BookTable", "kind": "task", "predicate": 'task == "Book Table"', "api": "book_table",
         "fields": [
             field("date", "date", "The date of the booking"),
             field("time", "time", "The time of the booking"),
             field("guests", "int", "How many people are coming"),
             field("confirm", "confirm", "Confirm the booking")]},
    ],
    "apis": [{"name": "book_table"}],
}


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("tables"), TABLES)


def test_for_two_in_an_opening_is_the_number_of_guests(tables):
    _s, (r1,) = talk(tables, "I want to book a table for two tonight at 8")
    opened = [s for s in statements(r1) if s.startswith("book_table")]
    assert opened and "guests=2" in opened[0] and 'time="20:00"' in opened[0]


def test_for_a_time_or_a_duration_is_not_a_count(tables):
    _s, (r1,) = talk(tables, "I want to book a table for 8 pm tomorrow")
    assert not any("guests=8" in s for s in statements(r1))


def test_a_persons_name_to_the_row_question_is_the_patients_name(dental):
    _s, (r1, r2) = talk(dental, "I'd like to book a dental appointment", "Tom Becker")
    assert r1.acts[-1]["field"] == "dentist"
    assert statements(r2) == ['book_appointment.patient_name = "Tom Becker"']


def test_a_phone_number_to_the_row_question_is_no_search(dental):
    _s, (_r1, r2) = talk(dental, "I'd like to book a dental appointment", "it's 555-201-3344")
    assert statements(r2) == ['book_appointment.phone = "555-201-3344"']


def test_a_question_whose_values_were_the_point_searches_nothing(dental):
    _s, (_r1, r2) = talk(dental, "I'd like to book a dental appointment", "can I come at 3pm tomorrow?")
    assert not any("answer(" in s for s in statements(r2))
    assert 'book_appointment.time = "15:00"' in statements(r2)


def test_does_that_asks_about_the_row_in_focus(dental):
    _s, results = talk(dental, "tell me about Dr. Grace Garcia", "does that dentist speak Spanish?")
    _s, results2 = talk(dental, "tell me about Dr. Grace Garcia", "does that work on saturdays?")
    assert statements(results2[-1]) == ['answer("does Dr. Grace Garcia work on saturdays?")']


def test_an_option_of_another_field_to_the_row_question(dental):
    from core_engine.session.agent import Agent as _A  # noqa: F401 - the dental agent's reason is an option field
    _s, (r1, r2) = talk(dental, "I'd like to book a dental appointment", "a checkup")
    assert r1.acts[-1]["field"] == "dentist"
    assert not any("answer(" in s for s in statements(r2))
