"""A unit written on to its number ("12kg"), a weekday of next week ("thursday next week") and chatter after a short
answer ("Leeds as well lol"). Pinned on a small removals spec written here (not a sample, not a development agent)."""

from __future__ import annotations

import datetime

import pytest

from core_engine.parsers.offline.words.values import find_dates, find_numbers
from tests.fakes.specs import agent_of, field, statements, talk

SPEC = {
    "name": "removals", "starting_prompt": "Removals desk, how can I help?",
    "settings": {"start_worksheet": "Move", "today": "2024-07-01"},
    "worksheets": [{"name": "Move", "kind": "task", "api": "book", "fields": [
        field("city", description="The town or city you are moving to"),
        field("load_kg", "int", "How heavy the load is, in kilograms"),
        field("move_day", "date", "The day of the move"),
        field("confirm", "confirm", "Confirm the move")]}],
    "apis": [{"name": "book"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("removals"), SPEC)


def test_a_unit_written_on_to_the_number_still_reads_the_number(agent):
    assert [s.value for s in find_numbers("about 40kg")] == [40]
    assert [s.value for s in find_numbers("3lbs and 5km")] == [3, 5]
    assert find_numbers("at 5pm") == [] and find_numbers("a 4x4") == []  # a time, a name: no number
    session, [*_, r] = talk(agent, "hi, I need a move booked", "Dover", "roughly 250kg")
    assert statements(r) == ["move.load_kg = 250"]


def test_a_weekday_of_next_week_is_in_next_week():
    wednesday = datetime.date(2024, 7, 3)
    assert [s.value for s in find_dates("friday next week", wednesday)] == ["2024-07-12"]
    assert [s.value for s in find_dates("next week on tuesday", wednesday)] == ["2024-07-09"]
    assert [s.value for s in find_dates("monday of next week", wednesday)] == ["2024-07-08"]
    assert [s.value for s in find_dates("friday", wednesday)] == ["2024-07-05"]  # this week's, as before


def test_chatter_after_a_short_answer_is_left_out(agent):
    session, [_, r] = talk(agent, "hi, I need a move booked", "Dover too haha")
    assert statements(r) == ['move.city = "Dover"']
    session, [_, r] = talk(agent, "hi, I need a move booked", "Market Rasen as well lol")
    assert statements(r) == ['move.city = "Market Rasen"']


def test_a_refusal_that_asks_whether_something_else_will_do_is_a_question(agent):
    session, [*_, r] = talk(agent, "hi, I need a move booked", "Dover", "I don't have the weight on me, will a guess do?")
    assert statements(r) == []
    session, [*_, r] = talk(agent, "hi, I need a move booked", "Dover", "I don't have it, can I give you the van size instead?")
    assert statements(r) == []
    session, [*_, r] = talk(agent, "hi, I need a move booked", "Dover", "I don't have it")
    assert statements(r) == ['move.load_kg = "NA"']  # a refusal with no question stays one


def test_friday_week_is_the_friday_after_the_coming_one(agent):
    wednesday = datetime.date(2025, 5, 14)
    assert [s.value for s in find_dates("can you book that for friday week?", wednesday)] == ["2025-05-23"]
    assert [s.value for s in find_dates("a week on friday", wednesday)] == ["2025-05-23"]
    assert [s.value for s in find_dates("wednesday week", wednesday)] == ["2025-05-21"]  # a week today
    _s, [*_, r] = talk(agent, "hi, I need a move booked", "Dover", "250kg", "friday week")
    assert statements(r) == ["move.move_day = \"2024-07-12\""]  # said on Monday 2024-07-01


def test_a_day_of_the_month_that_falls_on_the_weekday_named_wins(agent):
    wednesday = datetime.date(2025, 5, 14)
    assert [s.value for s in find_dates("is next thursday free? the 22nd", wednesday)] == ["2025-05-22"]
    assert [s.value for s in find_dates("next thursday, the 22nd", wednesday)] == ["2025-05-22"]
    both = find_dates("is thursday free? if not, the 22nd", wednesday)  # two days to choose from
    assert [s.value for s in both] == ["2025-05-15", "2025-05-22"]
    _s, [*_, r] = talk(agent, "hi, I need a move booked", "Dover", "250kg", "is next tuesday free? the 9th")
    assert statements(r) == ["move.move_day = \"2024-07-09\""]
