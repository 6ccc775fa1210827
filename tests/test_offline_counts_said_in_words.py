"""Counts said in words, on a spec written here (a climbing wall): no sample, no held-out agent.

"none" or "no kids" to "how many children?" is 0; "me and my partner, no kids" to "how many adults?" is 2 adults
and 0 children; "just an hour" to a field of hours is 1 ("an hour and a half" is not); a word that is a spec word
with one letter more at its end ("change" beside the option "Plans Changed") is not respelled as that word.
"""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.intents import declines
from core_engine.parsers.offline.words.measures.durations import converted_duration
from core_engine.parsers.offline.words.spelling import respelled
from core_engine.loaders import load_spec
from tests.fakes.specs import agent_of, field, statements, talk, task_choice

WALL = {
    "name": "climbing wall", "starting_prompt": "Hi, Crux climbing centre here. What can I do for you?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Session", "description": "reserve the wall for a group climb"},
                    {"value": "Move Session", "description": "plans changed: move a booked climb to another day"}),
        {"name": "BookSession", "kind": "task", "predicate": 'task == "Book Session"', "api": "book_session",
         "fields": [field("climb_date", "date", "The day you climb"),
                    field("hours", "int", "How many hours you want the wall for"),
                    field("group", "Group", "Who is climbing"),
                    field("email", description="An email address for the receipt, if you want one", required=False),
                    field("confirm", "confirm", "Confirm the booking")]},
        {"name": "Group", "kind": "task", "fields": [
            field("adults", "int", "How many adults are climbing"),
            field("children", "int", "How many children under 12 are climbing"),
            field("lead_name", description="The name of the person in charge")]},
        {"name": "MoveSession", "kind": "task", "predicate": 'task == "Move Session"', "api": "move_session",
         "fields": [field("reference", description="Your booking reference"),
                    field("new_date", "date", "The new day"),
                    field("reason", "Enum", "Why it moves", enum_values=[
                        {"value": "Plans Changed", "description": "you cannot come that day"},
                        {"value": "Weather", "description": "rain or storms"}])]}],
    "apis": [{"name": "book_session"}, {"name": "move_session"}],
}
TO_GROUP = ("I'd like to book a session at the wall", "the 9th", "2")


@pytest.fixture(scope="module")
def wall(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("wall"), WALL)


def test_none_to_a_count_of_children_is_zero(wall):
    _s, results = talk(wall, *TO_GROUP, "3", "none")
    assert results[-2].acts[-1]["field"] == "children"
    assert statements(results[-1]) == ["group.children = 0"]


def test_no_kids_beside_the_adults_is_zero_children(wall):
    _s, results = talk(wall, *TO_GROUP, "me and my partner, no kids")
    assert results[-2].acts[-1]["field"] == "adults"
    assert sorted(statements(results[-1])) == ["group.adults = 2", "group.children = 0"]


def test_no_idea_is_not_zero(wall):
    _s, results = talk(wall, *TO_GROUP, "3", "no idea yet")
    assert "group.children = 0" not in statements(results[-1])


def test_an_hour_is_one_hour():
    assert converted_duration("just an hour, the kids get bored", "hour") == 1
    assert converted_duration("a couple of hours", "hour") == 2
    assert converted_duration("an hour and a half", "hour") is None
    assert converted_duration("3 hours", "hour") is None  # the number reading has it


def test_just_an_hour_answers_the_hours(wall):
    _s, results = talk(wall, "I'd like to book a session at the wall", "the 9th", "just an hour, they get tired")
    assert statements(results[-1]) == ["book_session.hours = 1"]


def test_an_inflected_spec_word_is_not_a_slip(wall):
    spec = load_spec(wall.root / "spec.json")
    assert respelled("change it to 3 hours", spec)[0] == "change it to 3 hours"
    assert respelled("I want to book a sesion", spec)[0] == "I want to book a session"


def test_no_thanks_with_a_reason_declines_an_optional_question(wall):
    assert declines("no thanks dont need a receipt") and declines("no thanks, I don't need one")
    assert not declines("no I want one")
    _s, results = talk(wall, *TO_GROUP, "3", "none", "Sam Lee", "no thanks dont need a receipt")
    assert results[-2].acts[-1]["field"] == "email"
    assert statements(results[-1]) == ['book_session.email = "NA"']


def test_adults_and_children_said_together_are_not_summed(wall):
    _s, results = talk(wall, *TO_GROUP, "2 adults and one kid")
    assert sorted(statements(results[-1])) == ["group.adults = 2", "group.children = 1"]


def test_a_number_said_with_another_noun_does_not_change_a_filled_count(wall):
    """ "actually, the 5 metre wall please" names no new number of hours (before: hours = 5)."""
    _s, results = talk(wall, *TO_GROUP, "actually, the 5 metre wall please")
    assert "book_session.hours = 5" not in statements(results[-1])
    _s, results = talk(wall, *TO_GROUP, "actually make it 3 hours")
    assert statements(results[-1]) == ["book_session.hours = 3"]


def test_a_user_who_goes_to_look_refuses_nothing(wall):
    from core_engine.parsers.offline.intents import refusal

    assert refusal("i don't know it offhand, hang on a sec") is None
    assert refusal("hold on, I'd rather not say")  # an explicit refusal stays one
    _s, results = talk(wall, "I need to move my session", "i don't know it offhand, hang on a sec")
    assert results[0].acts[-1]["field"] == "reference"
    assert statements(results[-1]) == [] and "take your time" in results[-1].response
    assert results[-1].acts[-1]["field"] == "reference"
    _s, results = talk(wall, "I need to move my session", "erm hang on let me find it... CX-4410")
    assert statements(results[-1]) == ['move_session.reference = "CX-4410"']  # the value after the waiting words


def test_a_weekday_said_before_a_date_names_that_date():
    import datetime as dt

    from core_engine.parsers.offline.words.values import find_dates

    today = dt.date(2024, 8, 28)
    assert [s.value for s in find_dates("monday 9 sept, 11.30", today)] == ["2024-09-09"]
    assert [s.value for s in find_dates("on monday, 9 sept", today)] == ["2024-09-09"]
    assert [s.value for s in find_dates("monday or the 9th", today)] == ["2024-09-02", "2024-09-09"]


DOJO = {
    "name": "karate dojo", "starting_prompt": "Hello, Red Pine dojo. What can I do for you?",
    "settings": {"start_worksheet": "Grading", "today": "2024-07-01"},
    "worksheets": [{"name": "Grading", "kind": "task", "api": "book_grading", "fields": [
        field("grading_day", "date", "The day of the belt grading"),
        field("earlier_tries", "int", "How many times you have already tried this grading (0 if never)"),
        field("own_gi", "bool", "Whether you have your own gi"),
        field("confirm", "confirm", "Confirm the grading")]}],
    "apis": [{"name": "book_grading"}],
}


@pytest.fixture(scope="module")
def dojo(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("dojo"), DOJO)


@pytest.mark.parametrize("said, count", [("never taken it", 0), ("none, first time", 0), ("this is his first go", 0),
                                         ("I've failed it twice already ugh", 2), ("he's tried once", 1),
                                         ("three times", 3)])
def test_a_count_of_times_said_in_words(dojo, said, count):
    _s, results = talk(dojo, "I'd like to book a grading", "the 9th", said)
    assert results[-2].acts[-1]["field"] == "earlier_tries"
    assert statements(results[-1]) == [f"grading.earlier_tries = {count}"]


def test_times_words_need_a_count_of_times_and_one_count(dojo):
    from core_engine.parsers.offline.words.measures.counts import times_count

    assert times_count("earlier_tries", "How many times you have tried", "once or twice") is None  # two counts
    assert times_count("earlier_tries", "How many times you have tried", "once I've paid") is None
    assert times_count("guests", "How many guests are coming", "never") is None  # not a count of times
    assert times_count("visits", "How many times you have visited", "my first time") is None  # not of earlier times
    _s, results = talk(dojo, "I'd like to book a grading", "the 9th", "twice", "never")
    assert results[-2].acts[-1]["field"] == "own_gi"
    assert statements(results[-1]) == ["grading.own_gi = False"]  # "never" to a yes/no question is still a no
