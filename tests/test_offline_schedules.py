"""A start and an end said in one turn go to their own date and time fields (session 13, a blind set's car hire:
"tmrw 8am til fri", "saturday 8am, back same day 6pm" set the return time to 08:00 and the pick-up time to 18:00)."""

import datetime as dt
from pathlib import Path

import pytest

from core_engine import Agent

SPEC = Path(__file__).parent / "data" / "camper_hire_spec.json"
TODAY = dt.date(2024, 9, 9)  # a Monday


def _values(*turns: str) -> dict:
    s = Agent.load(SPEC).new_session(parser="offline", today=TODAY)
    for t in turns:
        r = s.turn(t)
    rec = next(x for x in r.state["records"] if x["var"] == "hire_van")
    return {k: v for k, v in rec["values"].items() if k.endswith(("_date", "_time"))}


@pytest.mark.parametrize("turns, expected", [
    (("hi need a van from the airport tmrw 8am til fri",),
     {"start_date": "2024-09-10", "start_time": "08:00", "end_date": "2024-09-13"}),
    (("I want to hire a van", "harbour, this friday 10am to sunday 5pm"),
     {"start_date": "2024-09-13", "start_time": "10:00", "end_date": "2024-09-15", "end_time": "17:00"}),
    (("I want to hire a van", "airport", "saturday 8am, back same day 6pm"),  # were swapped: wrong values
     {"start_date": "2024-09-14", "start_time": "08:00", "end_date": "2024-09-14", "end_time": "18:00"}),
    (("I want to hire a van", "airport", "20th of september, 2pm, back on the 27th same time"),
     {"start_date": "2024-09-20", "start_time": "14:00", "end_date": "2024-09-27", "end_time": "14:00"}),
    (("I want to hire a van", "airport", "pick up on 20 dec around 3pm, back on the 28th at 11 in the morning"),
     {"start_date": "2024-12-20", "start_time": "15:00", "end_date": "2024-12-28", "end_time": "11:00"}),  # not 28 Sep
    (("hi need a van from the airport tmrw 8am til fri", "same time"),
     {"start_date": "2024-09-10", "start_time": "08:00", "end_date": "2024-09-13", "end_time": "08:00"}),
])
def test_a_range_fills_the_start_and_the_end(turns, expected):
    assert _values(*turns) == expected


def test_one_value_at_a_time_is_left_to_the_question_asked():
    assert _values("I want to hire a van", "airport", "saturday", "10am", "sunday at 5") == {
        "start_date": "2024-09-14", "start_time": "10:00", "end_date": "2024-09-15", "end_time": "17:00"}


def test_a_record_without_a_start_and_an_end_is_not_read_as_a_range():
    """Two dates of unrelated meaning (a birthday and a visit) are not a schedule: the pass leaves them alone."""
    from core_engine.parsers.offline.answering.schedule import _pairs
    from core_engine.spec.model import Worksheet
    ws = Worksheet.model_validate({"name": "Visit", "kind": "task", "fields": [
        {"name": "date_of_birth", "type": "date", "description": "Your date of birth"},
        {"name": "visit_date", "type": "date", "description": "The day of the visit"}]})
    pairs = _pairs(ws)
    assert not any(p.end for p in pairs)
