"""Session 14, helper D: two nested records of one type in different roles, an address answered with a sentence after
its postcode, fields behind a predicate on a value given in the same turn, and floors counted by ordinals.

Pinned on a courier desk's spec written here (`tests/data/session14_d_courier.json`: not a sample, not a development
agent): each test names the mechanism it holds and fails without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fakes.specs import agent_of, statements, talk

SPEC = json.loads((Path(__file__).parent / "data" / "session14_d_courier.json").read_text())
OPEN = "I need a courier to send a parcel"
FIRST = "12 Dock Street, Leith, EH6 6QT"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("courier"), SPEC)


def test_two_sites_in_different_roles_are_no_list_of_items(agent):
    """`pickup_site` and `dropoff_site` are one type in two roles, not slots of a list (`dish_1`, `dish_2`): the
    street asked takes the street, not the postcode as an item's name."""
    _s, [*_, r] = talk(agent, OPEN, "collect from 12 Dock Street, Leith, EH6 6QT")
    assert statements(r) == ['site.street = "12 Dock Street"', 'site.town = "Leith"', 'site.postcode = "EH6 6QT"']


def test_a_sentence_after_the_postcode_fills_the_record_too(agent):
    _s, [*_, r] = talk(agent, OPEN, "collect from 12 Dock Street, Leith, EH6 6QT. it's a warehouse")
    assert statements(r) == ['site.street = "12 Dock Street"', 'site.town = "Leith"', 'site.postcode = "EH6 6QT"',
                             'site.building_type = "Warehouse"']
    _s, [*_, r] = talk(agent, OPEN, "12 Dock Street, Leith, EH6 6QT - an office block")
    assert 'site.building_type = "Office"' in statements(r) and 'site.street = "12 Dock Street"' in statements(r)


def test_the_second_sites_postcode_is_its_own_not_a_correction_of_the_first(agent):
    _s, [*_, r] = talk(agent, OPEN, FIRST, "warehouse", "4 Marchmont Road, Edinburgh, EH9 1HU")
    assert statements(r) == ['site_2.street = "4 Marchmont Road"', 'site_2.town = "Edinburgh"',
                             'site_2.postcode = "EH9 1HU"']


@pytest.mark.parametrize("said, floor, lift", [("an apartment, 4th floor, with an elevator", 4, True),
                                               ("apartment. third floor and there's no elevator", 3, False),
                                               ("apartment, floor 2, no elevator", 2, False)])
def test_fields_behind_a_predicate_on_the_answer_are_read_in_the_same_turn(agent, said, floor, lift):
    """`floor` and `elevator` are asked only for an apartment; the answer that says so may also give them."""
    _s, [*_, r] = talk(agent, OPEN, FIRST, "warehouse", "4 Marchmont Road, Edinburgh, EH9 1HU", said)
    assert statements(r) == ['site_2.building_type = "Apartment"', f"site_2.floor = {floor}",
                             f"site_2.elevator = {lift}"]


def test_a_phrase_the_description_numbers(agent):
    """ "Which floor the apartment is on (0 for the street level)": "street level" is floor 0."""
    _s, [*_, r] = talk(agent, OPEN, FIRST, "warehouse", "4 Marchmont Road, Edinburgh, EH9 1HU",
                       "a street level apartment, no elevator")
    assert statements(r) == ['site_2.building_type = "Apartment"', "site_2.floor = 0", "site_2.elevator = False"]


def test_a_house_takes_no_floor_from_its_number(agent):
    """A field whose predicate the turn's own answer makes false is not filled: "12" is the building's number."""
    _s, [*_, r] = talk(agent, OPEN, FIRST, "warehouse", "4 Marchmont Road, Edinburgh, EH9 1HU. an office")
    assert "site_2.floor" not in " ".join(statements(r))


@pytest.mark.parametrize("said, day", [("it was the 14th August, can it be the 21st instead", "2024-08-21"),
                                       ("first week of september. the 5th?", "2024-09-05")])
def test_a_bare_day_takes_the_one_month_the_turn_names(said, day):
    """ "the 21st" in a turn that names one month is that month's 21st, not the next 21st of the calendar."""
    import datetime as dt

    from core_engine.parsers.offline.words.values import find_dates
    assert find_dates(said, dt.date(2024, 7, 1))[-1].value == day


@pytest.mark.parametrize("said", ["no", "no handling needed ta", "nope none of that"])
def test_an_optional_list_is_declined_like_an_optional_value(agent, said):
    """`handling` (an optional List[Enum]) asked, and a no: "NA", as for an optional text or number."""
    _s, [*_, r] = talk(agent, OPEN, FIRST, "warehouse", "4 Marchmont Road, Edinburgh, EH9 1HU", "office", "Ana Ruiz",
                       said)
    assert statements(r) == ['book_courier.handling = "NA"']
