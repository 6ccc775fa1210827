"""Mechanisms of the offline parser that must hold on any agent, pinned on a vet-clinic spec written here.

The spec and its small KB are not a sample and not a held-out agent, so nothing here can pass
through words grown on them: a request that names KB rows opens the task that takes such a row,
a name after a noun goes to the name field that noun means, each number goes to the field its own
words mean, a wh-question about the user's own thing can name a task, "actually ..." switches to
another task, and an optional question can be declined.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import field, statements, talk, task_choice

TODAY = dt.date(2024, 7, 1)  # a Monday


SPEC = {
    "name": "vet clinic", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Book Visit", "description": "make an appointment with a vet"},
            {"value": "Check Booking", "description": "look up a visit that is already booked",
                 "examples": ["where is my booking confirmation"]}),
        {"name": "BookVisit", "kind": "task", "predicate": 'task == "Book Visit"', "api": "book_visit", "fields": [
            field("vet", "Vet", "The vet to see"),
            field("pet_name", description="Your pet's name"),
            field("weight_kg", "float", "Your pet's weight in kilograms"),
            field("age_years", "int", "Your pet's age in years"),
            field("date", "date", "The day of the visit"),
            field("time", "time", "The time of the visit"),
            field("owner_name", description="Your full name"),
            field("notes", description="Anything the vet should know", required=False),
            field("confirm", "confirm", "Confirm the visit")]},
        {"name": "CheckBooking", "kind": "task", "predicate": 'task == "Check Booking"', "api": "check_booking",
         "fields": [field("booking_code", description="The booking code from the confirmation")]},
        {"name": "vets", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name"), field("animals", "List[str]")]},
        {"name": "Vet", "kind": "type", "fields": [
            field("id", primary_key=True), field("name"), field("animals", "List[str]")]},
    ],
    "apis": [{"name": "book_visit"}, {"name": "check_booking"}],
}
VETS = [{"id": "v1", "name": "Dr. Ines Moreau", "animals": ["cats", "dogs"]},
        {"id": "v2", "name": "Dr. Paul Okonkwo", "animals": ["horses"]},
        {"id": "v3", "name": "Dr. Lena Fischer", "animals": ["dogs", "rabbits"]}]


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("vet")
    (root / "spec.json").write_text(json.dumps(SPEC))
    (root / "data").mkdir()
    (root / "data" / "vets.jsonl").write_text("".join(json.dumps(r) + "\n" for r in VETS))
    return Agent.load(Path(root))


def rules(result) -> list[dict]:
    return result.trace["parse"]["rules"]


def test_a_request_naming_a_row_opens_the_task_with_every_value(agent):
    session, [r] = talk(agent, "I'd like Dr. Lena Fischer for my dog Rex on Friday at 4pm")
    said = statements(r)
    assert said[0] == 'main.task = "Book Visit"'
    assert said[1].startswith("book_visit = BookVisit(") and 'date="2024-07-05"' in said[1] \
        and 'time="16:00"' in said[1] and 'pet_name="Rex"' in said[1] and "vet=answer(" in said[1]
    assert "owner_name" not in said[1]  # "my dog Rex" names the pet, not the owner
    assert session.current.get("book_visit").values["vet"]["id"] == "v3"
    assert rules(r)[0]["rule"] == "row-request"
    assert any(x["rule"] == "name-by-meaning" and x["field"] == "pet_name" for x in rules(r))


def test_a_wh_question_about_a_row_stays_a_search(agent):
    _s, [r] = talk(agent, "which vets see rabbits?")
    assert len(statements(r)) == 1 and statements(r)[0].startswith("answer(")
    assert not any(s.startswith("main.task") for s in statements(r))


def test_each_number_goes_to_the_field_its_words_mean(agent):
    _s, results = talk(agent, "I'd like to book a visit", "Dr. Ines Moreau", "Tom",
                       "he's 9 years old and weighs about 7 kilos")
    assert results[-2].acts[-1]["field"] == "weight_kg"
    assert set(statements(results[-1])) == {"book_visit.weight_kg = 7", "book_visit.age_years = 9"}
    meant = next(x for x in rules(results[-1]) if x["statement"] == "book_visit.weight_kg = 7")
    assert meant["how"] == "number+meaning" and meant["score"] > meant["runner_up_score"]
    # one bare number is the answer to the question asked
    _s, results = talk(agent, "I'd like to book a visit", "Dr. Ines Moreau", "Tom", "7")
    assert statements(results[-1]) == ["book_visit.weight_kg = 7"]


def test_a_wh_question_about_the_users_own_thing_can_name_a_task(agent):
    _s, [r] = talk(agent, "hi, where is my booking confirmation? I never got it")
    assert statements(r)[0] == 'main.task = "Check Booking"'
    _s, [r] = talk(agent, "how do I get my dog to stop biting?")  # how-to: a question, never a task
    assert not any(s.startswith("main.task") for s in statements(r))


def test_a_code_in_the_opening_fills_the_code_field(agent):
    _s, [r] = talk(agent, "can you look up my booking VC-5521 please")
    assert 'booking_code="VC-5521"' in " ".join(statements(r))


def test_actually_switches_to_another_task_but_not_on_a_changed_value(agent):
    _s, results = talk(agent, "I'd like to book a visit", "actually, could you look up the visit I already have?")
    said = statements(results[-1])
    assert said[0] == "exitws(book_visit)" and 'main.task = "Check Booking"' in said
    _s, results = talk(agent, "I'd like to book a visit", "Dr. Ines Moreau", "Tom", "12", "actually make it 14")
    assert statements(results[-1]) == ["book_visit.weight_kg = 14"]


def test_an_optional_question_can_be_declined_and_a_required_one_cannot(agent):
    _s, results = talk(agent, "I'd like to book a visit", "Dr. Ines Moreau", "Tom", "7", "3", "the 12th", "10am",
                       "Ann Lee", "no thanks, nothing special")
    assert results[-2].acts[-1]["field"] == "notes"
    assert statements(results[-1]) == ['book_visit.notes = "NA"']
