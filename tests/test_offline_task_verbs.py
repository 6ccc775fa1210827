"""The verb that chose a task also chooses its option, close readings told apart by their words, and what the user
cannot make holds no value.

Pinned on a gym desk spec written here (not a sample, not a development agent), so a rule grown on one agent's
words fails here.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "gym desk", "description": "The front desk of a gym: books fitness classes and changes bookings.",
    "starting_prompt": "Hello, gym desk. How can I help?",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice(
            {"value": "Book Class", "description": "book a place on one of the fitness classes",
             "examples": ["can I get a place on a class"]},
            {"value": "Change Booking", "description": "move or cancel a class you have already booked",
             "examples": ["I can't make my class on monday"]}),
        {"name": "BookClass", "kind": "task", "predicate": 'task == "Book Class"', "api": "book", "fields": [
            field("kind_of_class", "Enum", "Which class", enum_values=[
                {"value": "Spin", "description": "an indoor cycling class on bikes"},
                {"value": "Yoga", "description": "stretching and breathing on a mat"}]),
            field("day", "date", "The day of the class"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "ChangeBooking", "kind": "task", "predicate": 'task == "Change Booking"', "api": "change",
         "fields": [
            field("reference", description="The booking reference, like GY-1234"),
            field("change", "Enum", "Whether you want to move the class or cancel it", enum_values=[
                {"value": "Reschedule", "description": "move the class to another day"},
                {"value": "Cancel", "description": "cancel the booking altogether"}]),
            field("new_day", "date", "The new day for the class"),
            field("confirm", "confirm", "Confirm the change")]},
    ],
    "apis": [{"name": "book"}, {"name": "change"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("gym"), SPEC)


def test_the_verb_that_chose_the_task_chooses_its_option(agent):
    _, [r] = talk(agent, "Hi, I'd like to move my class please")
    assert statements(r) == ['main.task = "Change Booking"', 'change_booking = ChangeBooking(change="Reschedule")']
    _, [r] = talk(agent, "I need to cancel my class, not move it")
    assert statements(r) == ['main.task = "Change Booking"', 'change_booking = ChangeBooking(change="Cancel")']
    trace = [rule for rule in r.trace["parse"]["rules"] if rule["rule"] == "option-by-task-verb"]
    assert trace == [] or trace[0]["words"] == ["cancel"]


def test_a_task_whose_texts_name_one_option_chooses_none(agent):
    _, [r] = talk(agent, "can I get a place on a class")  # "class" is no option's own word
    assert statements(r) == ['main.task = "Book Class"']


def test_close_readings_are_told_apart_by_a_word_only_one_has(agent):
    _, [r] = talk(agent, "hi, something came up at work and I can't do my class on thursday. can it be moved?")
    said = statements(r)
    assert said[0] == 'main.task = "Change Booking"'
    assert 'change="Reschedule"' in said[1]
    assert "new_day" not in said[1]  # thursday is the day the user cannot make, not the new one
    assert any(rule["rule"] == "task-told-apart" for rule in r.trace["parse"]["rules"]) or \
        not any(rule["rule"] == "task-uncertain" for rule in r.trace["parse"]["rules"])


def test_the_day_the_user_cannot_make_is_no_value(agent):
    _, [r] = talk(agent, "I can't make my class on friday")
    assert statements(r)[0] == 'main.task = "Change Booking"'
    assert "2024-07-05" not in " ".join(statements(r))  # the booked day, not the new one
    _, [_, _, r] = talk(agent, "I want to change a booking", "GY-4410", "I can't make friday, I'd like tuesday instead")
    assert 'change_booking.new_day = "2024-07-02"' in statements(r)
    assert "2024-07-05" not in " ".join(statements(r))
