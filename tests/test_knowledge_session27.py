"""KB questions on a mobility-scooter hire firm's list, written for session 27's knowledge-parser rules (not a sample,
not a blind set): a capitalised small word inside a name ("the Go Plus") keeps the run whole, so it names the one row
whose name has both words; two lower-case words of one name, one of them another column's value ("the central
store", where "Store" is a kind), name that row when the other word is the name's own. Expected rows are computed
from ROWS, so the tests check rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

ROWS = [
    {"id": "s1", "name": "Hilltop Go", "kind": "Scooter", "notes": "A light folding scooter for shopping trips."},
    {"id": "s2", "name": "Hilltop Go Plus", "kind": "Scooter", "notes": "The folding scooter with a bigger battery."},
    {"id": "s3", "name": "Marsh Power Plus", "kind": "Scooter", "notes": "A road scooter for longer rides."},
    {"id": "s4", "name": "Northgate Central Store", "kind": "Store", "notes": "Our main branch, open every day."},
    {"id": "s5", "name": "Eastfield Store", "kind": "Store", "notes": "A small branch by the central market."},
    {"id": "s6", "name": "Riverside Depot", "kind": "Depot", "notes": "Where scooters are serviced."},
    {"id": "s7", "name": "Heron Tourer", "kind": "Scooter", "notes": "A comfortable scooter with a padded seat."},
    {"id": "s8", "name": "Kestrel Compact", "kind": "Scooter", "notes": "Small enough for a car boot."},
    {"id": "s9", "name": "Wren Lite", "kind": "Scooter", "notes": "Our lightest scooter."},
]  # eight rows or more: the name column is a naming column
COLUMNS = {"name": "The scooter or branch name", "kind": "Scooter, store or depot", "notes": "About it"}


@pytest.fixture(scope="module")
def hire(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, ROWS, "items", COLUMNS, name="scooters", description="A mobility scooter hire firm.",
                     table_description="Our scooters and branches.", free_text=["notes"]) as fixture:
        yield fixture


def test_a_capitalised_small_word_keeps_the_name_whole(hire):
    assert ask(hire, "I'd like to try the Go Plus")[0] == ["s2"]
    assert sorted(ask(hire, "Plus")[0]) == ["s2", "s3"]  # one word of two names: both


def test_a_small_word_no_name_shares_is_dropped_from_the_run(hire):
    assert ask(hire, "The Riverside one")[0] == ["s6"]


def test_two_words_of_a_name_one_of_them_a_kind(hire):
    assert ask(hire, "the central store")[0] == ["s4"]
    assert sorted(ask(hire, "a store")[0]) == ["s4", "s5"]  # the kind alone: every row of it
