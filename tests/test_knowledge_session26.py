"""KB questions on a campervan hire firm's fleet, written for session 26's knowledge-parser rules (not a sample, not
a blind set): the kind of row a "which" question asks for searches nothing beside conditions, a yes/no column named
with a verb of need ("need a deposit" for `deposit_required`), a question of what the asker must do shows the column
rather than filtering by it (for what it names before any relative clause), and "cheapest" ranks by a column in
pounds. Expected rows are computed from VANS, so the tests check rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

VANS = [
    {"id": "v1", "daily_hire": 55.0, "name": "Little Wren", "berths": 2, "pet_friendly": True, "deposit_required": False,
     "features": ["Solar Panel"], "notes": "The smallest of our campers, easy to park in town."},
    {"id": "v2", "daily_hire": 80.0, "name": "Roamer", "berths": 4, "pet_friendly": True, "deposit_required": True,
     "features": ["Ramp", "Solar Panel"], "notes": "A family van with a side ramp; a wheelchair fits through the door."},
    {"id": "v3", "daily_hire": 110.0, "name": "Highlander", "berths": 6, "pet_friendly": False, "deposit_required": True,
     "features": ["Ramp"], "notes": "Our biggest van, with two double beds and bunks."},
    {"id": "v4", "daily_hire": 70.0, "name": "Coastal", "berths": 4, "pet_friendly": False, "deposit_required": False,
     "features": ["Bike Rack"], "notes": "Bike rack on the back and an outdoor shower."},
    {"id": "v5", "daily_hire": 60.0, "name": "Heron", "berths": 2, "pet_friendly": True, "deposit_required": True,
     "features": ["Ramp", "Bike Rack"], "notes": "A compact van with a low step and a ramp."},
]
COLUMNS = {"name": "The van's name", "daily_hire": "Hire per day in pounds (£)", "berths": "How many people it sleeps", "pet_friendly": "Whether pets may come",
           "deposit_required": "Whether a deposit is taken", "features": "What the van comes with",
           "notes": "About the van"}


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, VANS, "vans", COLUMNS, name="fleet", description="A campervan hire firm.",
                     table_description="The campervans and motorhomes we hire out.", free_text=["notes"],
                     field_types={"daily_hire": "float", "berths": "int", "pet_friendly": "bool", "deposit_required": "bool",
                                  "features": "List[str]"}) as fixture:
        yield fixture


def ids_where(test) -> list[str]:
    return sorted(v["id"] for v in VANS if test(v))


def test_the_kind_a_which_question_asks_for_searches_nothing_beside_a_condition(fleet):
    assert ask(fleet, "which campers are pet friendly?")[0] == ids_where(lambda v: v["pet_friendly"])


def test_a_yes_no_column_named_with_a_verb_of_need(fleet):
    assert ask(fleet, "which vans need a deposit?")[0] == ids_where(lambda v: v["deposit_required"])


def test_what_the_asker_must_do_is_shown_not_filtered(fleet):
    assert ask(fleet, "do I have to pay a deposit?")[0] == ids_where(lambda v: True)


def test_what_the_asker_must_do_is_asked_only_before_a_relative_clause(fleet):
    assert ask(fleet, "do I have to pay a deposit for the vans that are pet friendly?")[0] == \
        ids_where(lambda v: v["pet_friendly"])


def test_a_request_that_starts_with_the_kind_of_row(fleet):
    assert ask(fleet, "campers with 4 or more berths")[0] == ids_where(lambda v: v["berths"] >= 4)


def test_cheapest_ranks_by_a_column_described_in_pounds(fleet):
    assert ask(fleet, "what's the cheapest van?")[0] == ["v1"]


def test_a_word_of_some_rows_text_that_is_no_kind_of_the_table_still_restricts(fleet):
    assert ask(fleet, "any showers under 75 pounds")[0] == ids_where(lambda v: "shower" in v["notes"].lower()
                                                                      and v["daily_hire"] < 75)
