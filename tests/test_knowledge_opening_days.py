"""Opening days, lengths of time in other units, and verbs that only carry a condition.

A town's recycling points written here (not a sample, not a held-out agent). An opening-hours text ("Tue-Sat
9:00-16:00, Sun 10:00-13:00", "Open 24 hours") says which days a row is open, so a day name in the question is a
condition on it, not a search of the free text ("closed on Mondays" would find the rows that say so). "three
weeks" finds a text that says "21 days". A verb with a pronoun object ("dump something bulky"), and "take",
say nothing beyond the condition that follows them.
"""

from __future__ import annotations

import pytest

from core_engine.knowledge.offline import OfflineKnowledgeParser
from tests.fakes.kbs import kb_and_spec


def _point(i, name, district, kind, hours, accepts, notes):
    return {"id": f"r{i:02d}", "name": name, "district": district, "kind": kind, "hours": hours,
            "accepts": accepts, "notes": notes}


POINTS = [
    _point(1, "Northgate Tip", "Northgate", "Tip", "Tue-Sat 9:00-16:00, Sun 10:00-13:00",
           ["glass", "garden waste", "electricals", "bulky waste"], "Big site by the bypass. Takes sofas and "
           "mattresses."),
    _point(2, "Northgate Bottle Bank", "Northgate", "Bank", "Open 24 hours", ["glass"],
           "Bottle banks in the supermarket car park."),
    _point(3, "Riverside Tip", "Riverside", "Tip", "Mon-Fri 8:00-18:00", ["glass", "electricals", "bulky waste"],
           "Small site on the quay. Booking slots are held for 21 days."),
    _point(4, "Riverside Swap Shop", "Riverside", "Shop", "Mon-Sat 10:00-17:00",
           ["clothes", "bulky waste"], "Charity shop that takes furniture in good condition, open Sundays in December."),
    _point(5, "Hilltop Tip", "Hilltop", "Tip", "Mon-Sun 8:00-20:00", ["garden waste", "glass"],
           "Sends clothes and tools overseas with a charity and takes orders online. Slots are held for a week."),
    _point(6, "Hilltop Textile Bank", "Hilltop", "Bank", "Mon-Fri 7:00-19:00; Sat closed", ["clothes"],
           "Clothing bank by the library."),
]
COLUMNS = {"id": "Point id", "name": "Name", "district": "District of the town", "kind": "Tip, Bank or Shop",
           "hours": "Opening hours", "accepts": "What it accepts", "notes": "About the site"}


@pytest.fixture(scope="module")
def points(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, POINTS, "recycling_points", COLUMNS, name="recycling_desk",
                     description="A council's recycling help desk.", table_description="Recycling points of the town.",
                     free_text=["notes"]) as fixture:
        yield fixture


def ask(fixture, question):
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return sorted(r["id"] for r in kb.execute(query.sql()).rows), query.sql(), rules


def test_an_opening_hours_text_is_read_as_days():
    from core_engine.knowledge.calendar import schedule_days

    assert schedule_days("Tue-Sat 9:00-16:00, Sun 10:00-13:00") == frozenset({1, 2, 3, 4, 5, 6})
    assert schedule_days("Open 24 hours") == frozenset(range(7))
    assert schedule_days("Mon-Fri 7:00-19:00; Sat closed") == frozenset(range(5))
    assert schedule_days("Sat & Sun 10-4") == frozenset({5, 6})
    assert schedule_days("Next to the library") is None


def test_a_day_name_selects_the_rows_open_that_day(points):
    rows, sql, rules = ask(points, "where can I take glass on a Sunday?")
    assert rows == ["r01", "r02", "r05"]  # r04's text says "Sundays" but its hours do not
    assert any(r.get("match") == "opening days" for r in rules)


def test_closed_on_a_day_selects_the_rows_not_open_that_day(points):
    rows, _, _ = ask(points, "which tips are closed on mondays")
    assert rows == ["r01"]


def test_a_length_of_time_is_searched_in_other_units(points):
    rows, _, rules = ask(points, "which tips hold a booking for three weeks")
    assert rows == ["r03"]  # "21 days"; "a week" (r05) is not three weeks
    assert any(r.get("rule") == "duration" and "21 days" in r["searched"] for r in rules)


def test_a_verb_with_a_pronoun_object_before_a_condition_is_no_search_word(points):
    rows, _, rules = ask(points, "where can I dump something bulky in Riverside?")
    assert rows == ["r03", "r04"]
    assert any(r.get("rule") == "ignored" and r["words"] == ["dump"] for r in rules)


def test_take_is_a_verb_of_accepting_not_a_search_word(points):
    rows, _, _ = ask(points, "tips that can take mattresses")
    assert rows == ["r01"]  # r05's text says "takes orders"
