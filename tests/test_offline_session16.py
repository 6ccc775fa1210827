"""Session 16: values read wrong on session 15's kept sets, fixed as mechanisms of the value layer.

"last monday" was the coming Monday; "last monday, the 4th" the 4th of next month; a weekday typed with a slip
("wedensday") was no day; "The day you lost it" was read forwards; "should be half 2 not 2" moved a 14:00 visit to
14:00; "so no car" chose Car; "ref is HB-55120 i think" was stored whole. Pinned on a piano tuner's spec written
here (not a sample, not a development agent); each test fails without its mechanism.
"""

from __future__ import annotations

import datetime as dt

import pytest

from core_engine.parsers.offline.words.values import find_dates
from core_engine.spec.model import Field, past_field
from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "piano tuner", "starting_prompt": "Hello, Keys & Strings tuning. How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Tuning", "description": "book a piano tuning visit"},
                    {"value": "Cancel Tuning", "description": "cancel a tuning visit already booked"}),
        {"name": "BookTuning", "kind": "task", "predicate": 'task == "Book Tuning"', "fields": [
            field("visit_date", "date", "The day the tuner should come"),
            field("visit_time", "time", "The time the tuner should arrive"),
            field("pets", "Enum", "Any pets in the house", enum_values=[
                {"value": "No Pets"}, {"value": "Dog"}, {"value": "Cat"}]),
            field("bought_on", "date", "The day you bought the piano"),
            field("confirm", "confirm", "Confirm the visit")]},
        {"name": "CancelTuning", "kind": "task", "predicate": 'task == "Cancel Tuning"', "fields": [
            field("booking_reference", "str", "The reference of the visit to cancel"),
            field("confirm", "confirm", "Confirm the cancellation")]},
    ],
}
TODAY = dt.date(2024, 11, 12)  # a Tuesday


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("tuner"), SPEC)


def _dates(text: str, *, past: bool = False) -> list[tuple[str, str]]:
    return [(d.text, d.value) for d in find_dates(text, TODAY, past=past)]


def test_last_before_a_weekday_is_the_one_gone_by_whatever_the_field():
    assert _dates("last monday") == [("last monday", "2024-11-11")]
    assert _dates("last wednesday") == [("last wednesday", "2024-11-06")]
    assert _dates("wednesday") == [("wednesday", "2024-11-13")]  # no "last": the coming one


def test_a_weekday_and_a_day_of_the_month_agree_on_the_month():
    assert _dates("last monday, the 4th") == [("last monday, the 4th", "2024-11-04")]
    assert _dates("last friday the 8th") == [("last friday the 8th", "2024-11-08")]
    assert _dates("last monday the 5th") == []  # no Monday the 5th lately: a slip, so no date rather than a guess


def test_a_weekday_typed_with_a_slip_is_that_day_and_words_ending_in_day_are_not():
    assert _dates("wedensday") == [("wedensday", "2024-11-13")]
    assert _dates("next thurday") == [("next thurday", "2024-11-14")]
    assert _dates("saterday morning") == [("saterday", "2024-11-16")]
    assert _dates("last wendsday") == [("last wendsday", "2024-11-06")]
    for text in ("someday", "a weekday", "midday", "sundae", "study", "ready", "holidays"):
        assert _dates(text) == [], text


def test_a_date_field_about_something_lost_or_bought_is_read_backwards():
    assert past_field(Field(name="date_lost", type="date", description="The day you lost it"))
    assert past_field(Field(name="bought_on", type="date", description="The day you bought the piano"))
    assert not past_field(Field(name="visit_date", type="date", description="The day the tuner should come"))


def test_an_option_ruled_out_is_the_fields_none_option(agent):
    _s, [*_, r] = talk(agent, "I'd like to book a piano tuning", "friday", "5pm and there's no dog any more")
    assert "book_tuning.pets = \"No Pets\"" in statements(r)
    assert "book_tuning.pets = \"Dog\"" not in statements(r)


def test_a_bare_hour_correction_keeps_the_time_said_with_it(agent):
    _s, [*_, r] = talk(agent, "I'd like to book a piano tuning", "friday", "2pm", "no pets", "last monday",
                       "no the time's wrong, should be half 2 not 2")
    assert "book_tuning.visit_time = \"14:30\"" in statements(r)


def test_a_reference_in_a_sentence_is_the_reference_alone(agent):
    _s, [*_, r] = talk(agent, "I need to cancel my tuning", "ref is KS-55120 i think")
    assert statements(r) == ["cancel_tuning.booking_reference = \"KS-55120\""]


# ---- after the blind score: values read wrong on session 16's own sets (then development sets)

HIRE = {
    "name": "skip hire", "starting_prompt": "Hello, Tipper Skips. How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Hire Skip", "description": "hire a skip delivered to your home"},
                    {"value": "Book Callback", "description": "book a call back from the office"}),
        {"name": "HireSkip", "kind": "task", "predicate": 'task == "Hire Skip"', "fields": [
            field("address", "str", "The house number and street where the skip goes"),
            field("postcode", "str", "The postcode of the delivery address"),
            field("phone", "str", "A phone number the driver can reach you on"),
            field("confirm", "confirm", "Confirm the hire")]},
        {"name": "BookCallback", "kind": "task", "predicate": 'task == "Book Callback"', "fields": [
            field("call_time", "time", "When we should call you back"),
            field("confirm", "confirm", "Confirm the call back")]},
    ],
}


@pytest.fixture(scope="module")
def hire(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("skips"), HIRE)


def test_an_hour_of_one_to_six_on_a_clock_is_the_afternoon_as_at_six_is():
    from core_engine.parsers.offline.words.values import find_times

    assert [t.value for t in find_times("6:45")] == ["18:45"]
    assert [t.value for t in find_times("1:15 then")] == ["13:15"]
    assert [t.value for t in find_times("06:45")] == ["06:45"]  # a 24-hour clock
    assert [t.value for t in find_times("6:30 in the morning")] == ["06:30"]
    assert [t.value for t in find_times("5:30 am")] == ["05:30"]
    from core_engine.parsers.offline.words.values import EVENING
    token = EVENING.set(False)  # a daytime trade (a garage): 7 and later stay the morning
    try:
        assert [t.value for t in find_times("7:30")] == ["07:30"]
    finally:
        EVENING.reset(token)
    assert [t.value for t in find_times("7:30")] == ["19:30"]  # an evening trade's 7:30 (session 24), as its "at 7"


def test_a_postcode_answer_is_the_code_in_capitals_whatever_else_the_turn_says(hire):
    _s, [*_, r] = talk(hire, "I need a skip", "14 Mill Lane", "wf1 3hj")
    assert statements(r) == ["hire_skip.postcode = \"WF1 3HJ\""]
    _s, [*_, r] = talk(hire, "I need a skip", "14 Mill Lane", "M45 7QP. mobile is 07723 456789")
    assert "hire_skip.postcode = \"M45 7QP\"" in statements(r)
    assert not any("07723456789" in s and "postcode" in s for s in statements(r))


def test_an_address_with_its_postcode_fills_both_fields(hire):
    _s, [*_, r] = talk(hire, "I need a skip", "27b Hollins Road, Oldham OL8 4JX")
    assert statements(r) == ["hire_skip.address = \"27b Hollins Road, Oldham\"", "hire_skip.postcode = \"OL8 4JX\""]


def test_an_address_with_its_postcode_drops_the_words_that_lead_the_answer_in(hire):
    _s, [*_, r] = talk(hire, "I need a skip", "ok. 5 Riverside Mews SB1 9TX")
    assert statements(r) == ["hire_skip.address = \"5 Riverside Mews\"", "hire_skip.postcode = \"SB1 9TX\""]
