"""A task whose subject is a nested record (a repair's boat): its name and kind said in an opening, the option of
another field the opening means, the thing's name in an answer, and dates and times said in passing
(session 7, helper F)."""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.words.values import find_dates, find_times
from core_engine.session.agent import Agent

from tests.fakes.specs import TODAY, agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "boatyard", "starting_prompt": "Boatyard office, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Repair", "description": "bring a boat in to be repaired"},
                    {"value": "Rent Mooring", "description": "a place to keep a boat in the harbour"}),
        {"name": "BookRepair", "kind": "task", "predicate": 'task == "Book Repair"', "api": "repair", "fields": [
            field("boat", "BoatDetails", "Your boat"),
            field("problem", "Enum", "What is wrong with the boat", enum_values=[
                {"value": "Engine", "description": "the motor will not start, smokes or makes a noise"},
                {"value": "Hull", "description": "a crack, a hole or a leak: water comes into the boat"},
                {"value": "Rigging", "description": "the mast, the sails or the ropes are damaged"}]),
            field("drop_off", "date", "The day you bring the boat in"),
            field("owner_name", description="Your name"),
            field("confirm", "confirm", "Confirm the repair")]},
        {"name": "BoatDetails", "kind": "task", "predicate": 'task == "Book Repair"', "fields": [
            field("boat_name", description="Your boat's name"),
            field("hull_type", "Enum", "What kind of boat it is", enum_values=[
                {"value": "Sailboat", "description": "a sailing boat or a yacht"},
                {"value": "Motorboat", "description": "a speedboat, a cruiser or another boat with an engine"},
                {"value": "Kayak", "description": "a kayak or a canoe"}]),
            field("length_m", "int", "The boat's length in metres")]},
        {"name": "RentMooring", "kind": "task", "predicate": 'task == "Rent Mooring"', "api": "moor",
         "fields": [field("owner_name", description="Your name"), field("confirm", "confirm", "Confirm")]},
    ],
    "apis": [{"name": "repair"}, {"name": "moor"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("boatyard"), SPEC)


def test_a_name_after_a_noun_goes_to_the_nested_subjects_name_field(agent):
    s, results = talk(agent, "hi, my yacht Seabird has a crack in the hull")
    said = " ".join(statements(results[0]))
    assert 'boat_name="Seabird"' in said and "owner_name" not in said


SITTING = {
    "name": "pet sitting", "starting_prompt": "Hi!", "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Sitter", "description": "someone to look after a pet while you are away"},
                    {"value": "Give Feedback", "description": "tell us how a past visit went"}),
        {"name": "BookSitter", "kind": "task", "predicate": 'task == "Book Sitter"', "api": "sit", "fields": [
            field("pet", "PetInfo", "The pet to look after"), field("start", "date", "The first day")]},
        {"name": "PetInfo", "kind": "task", "predicate": 'task == "Book Sitter"', "fields": [
            field("animal", "Enum", "What kind of animal", enum_values=[
                {"value": "Dog", "description": "a dog or a puppy"}, {"value": "Cat", "description": "a cat or a kitten"}]),
            field("pet_name", description="Your pet's name")]},
        {"name": "GiveFeedback", "kind": "task", "predicate": 'task == "Give Feedback"', "api": "feedback",
         "fields": [field("comment", description="What you want to tell us")]},
    ],
    "apis": [{"name": "sit"}, {"name": "feedback"}],
}


def test_a_noun_for_the_subject_chooses_the_nested_records_option_by_meaning(tmp_path):
    _s, results = talk(agent_of(tmp_path, SITTING), "I need a sitter for my puppy")
    assert 'pet=PetInfo(animal="Dog")' in " ".join(statements(results[0]))


def test_an_opening_that_tells_what_is_wrong_chooses_that_option_by_meaning(agent):
    _s, results = talk(agent, "I need a repair, the boat is filling up with seawater")
    assert 'problem="Hull"' in " ".join(statements(results[0]))
    _s, results = talk(agent, "hi, I'd like to bring my boat in please")  # names the task only: nothing chosen
    assert "problem=" not in " ".join(statements(results[0]))


def test_the_things_name_is_the_name_the_answer_gives(agent):
    s, results = talk(agent, "I need to book a repair")
    assert results[0].acts[-1]["field"] == "boat_name"
    assert statements(s.turn("Her name's Seabird")) == ['boat_details.boat_name = "Seabird"']
    s, _results = talk(agent, "I need to book a repair")
    assert statements(s.turn("Seabird, she's 9 metres")) == ['boat_details.boat_name = "Seabird"',
                                                             "boat_details.length_m = 9"]


def test_a_date_after_since_is_when_something_began_not_the_booked_day():
    assert find_dates("it has leaked since the weekend", TODAY) == []
    assert [d.value for d in find_dates("it has leaked since yesterday", TODAY, past=True)] == ["2024-06-30"]
    assert [d.value for d in find_dates("on friday", TODAY)] == ["2024-07-05"]


def test_a_dotted_clock_is_a_time_beside_a_part_of_the_day_or_after_at():
    assert [t.value for t in find_times("tomorrow morning, 9.30 if you have it")] == ["09:30"]
    assert [t.value for t in find_times("at 7.45")] == ["19:45"]
    assert find_times("it cost 9.30") == [] and find_times("£9.30 in the morning") == []


def test_another_clause_of_an_answer_chooses_an_option_of_the_task_by_meaning(agent):
    s, results = talk(agent, "I need to book a repair", "Seabird", "a sailboat")
    assert results[-1].acts[-1]["field"] == "length_m"
    r = s.turn("she's 9 metres and she is filling up with seawater")
    assert statements(r) == ["boat_details.length_m = 9", 'book_repair.problem = "Hull"']
    s, _results = talk(agent, "I need to book a repair", "Seabird", "a sailboat")
    assert statements(s.turn("9 metres")) == ["boat_details.length_m = 9"]
