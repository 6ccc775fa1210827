"""KB questions on an arts council's list of rehearsal rooms, written for session 31's knowledge-parser rules (not a
sample, not a blind set):

- the rows whose text has the rarer of the question's words, not every row with one common word of it;
- words said together as they stand inside one value ("the glass quarter" for "Old Glass Quarter");
- a capitalised word that several names share and one place value has is the place ("rooms in Millbrook");
- a lower-case run ending in the plural of the noun several names end in is a kind, not one name ("tango studios");
- a clipped word ("improv") is the one longer value word it begins;
- a yes/no column named as a status ("vacant") is what "free" and "available" ask for.

Expected rows are computed from ROWS where they can be, so the tests check rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

ROWS = [
    {"id": "r01", "name": "Millbrook Tango Studio", "district": "Millbrook Green", "genre": "Contemporary Dance",
     "vacant": True, "notes": "Sprung floor with a mirror wall and a piano in the corner."},
    {"id": "r02", "name": "Millbrook Band Room", "district": "Millbrook Green", "genre": "Rock and Pop",
     "vacant": False, "notes": "Soundproofed, with a drum kit and two amplifiers."},
    {"id": "r03", "name": "Tanner Hall", "district": "Millbrook Green", "genre": "Chamber Music",
     "vacant": True, "notes": "A high ceiling and a grand piano; good for string quartets."},
    {"id": "r04", "name": "Kiln Yard Studio", "district": "Old Glass Quarter", "genre": "Contemporary Dance",
     "vacant": True, "notes": "Sprung floor and daylight from a roof lantern."},
    {"id": "r05", "name": "Furnace Rooms", "district": "Old Glass Quarter", "genre": "Improvisation",
     "vacant": False, "notes": "A black box room with a small lighting rig."},
    {"id": "r06", "name": "Glassblowers Loft", "district": "Old Glass Quarter", "genre": "Rock and Pop",
     "vacant": True, "notes": "Top floor loft, lift access, a PA system and a drum kit."},
    {"id": "r07", "name": "Station Studio", "district": "Railway Sidings", "genre": "Ballet",
     "vacant": False, "notes": "Sprung floor, barres on two walls and a full mirror wall."},
    {"id": "r08", "name": "Signal Box Studio", "district": "Railway Sidings", "genre": "Chamber Music",
     "vacant": True, "notes": "A tiny room for duos, with an upright piano."},
    {"id": "r09", "name": "Goods Shed", "district": "Railway Sidings", "genre": "Physical Theatre",
     "vacant": True, "notes": "A big open floor for movement work, concrete floor with mats."},
    {"id": "r10", "name": "Weighbridge Room", "district": "Railway Sidings", "genre": "Improvisation",
     "vacant": True, "notes": "Carpeted room with chairs and a whiteboard."},
    {"id": "r11", "name": "Cooper's Attic", "district": "Millbrook Green", "genre": "Rock and Pop",
     "vacant": True, "notes": "Under the eaves; low beams, bring your own amplifiers."},
    {"id": "r12", "name": "Bottle Works", "district": "Old Glass Quarter", "genre": "Chamber Music",
     "vacant": False, "notes": "Warm acoustic, a harpsichord by arrangement."},
    {"id": "r13", "name": "Lamp Room", "district": "Railway Sidings", "genre": "Ballet",
     "vacant": True, "notes": "Barres along one wall, lino floor."},
    {"id": "r14", "name": "Pattern Store", "district": "Old Glass Quarter", "genre": "Physical Theatre",
     "vacant": False, "notes": "Rigging points for aerial work."},
]  # eight rows or more, and fewer genres than six in ten rows: names name rows, genres are kinds
COLUMNS = {"name": "The room's name", "district": "Where in the city it is", "genre": "What the room suits best",
           "vacant": "Whether it can be booked this week", "notes": "About the room"}


@pytest.fixture(scope="module")
def rooms(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, ROWS, "rooms", COLUMNS, name="rehearsal_rooms",
                     description="An arts council's desk for booking rehearsal rooms.",
                     table_description="Our rehearsal rooms.", free_text=["notes"],
                     column_types={"vacant": "bool"}) as fixture:
        yield fixture


def ids(**where) -> list[str]:
    return sorted(r["id"] for r in ROWS if all(r[k] == v for k, v in where.items()))


def test_the_rows_with_the_rarer_words_not_every_row_with_a_common_one(rooms):
    found, rules = ask(rooms, "a room with a sprung floor and a mirror wall")
    assert found == ["r01", "r07"]  # both have all four words; r04 and r09 say only "floor" or "sprung floor"
    assert any(r.get("most_words") for r in rules)
    assert ask(rooms, "somewhere with a drum kit")[0] == ["r02", "r06"]  # one rare word: unchanged


def test_words_said_together_inside_one_value(rooms):
    found, rules = ask(rooms, "rooms in the glass quarter")
    assert found == ids(district="Old Glass Quarter")
    assert any(r.get("column") == "district" and r.get("value") == "Old Glass Quarter" for r in rules)


def test_a_word_several_names_share_and_one_place_has_is_the_place(rooms):
    assert ask(rooms, "which rooms are in Millbrook?")[0] == ids(district="Millbrook Green")
    assert ask(rooms, "the Millbrook Band Room")[0] == ["r02"]  # the whole name still names its row


def test_a_plural_of_the_noun_names_end_in_is_a_kind_not_one_name(rooms):
    found, rules = ask(rooms, "the tango studio")
    assert found == ["r01"] and any(r.get("match") == "name" for r in rules)
    found, rules = ask(rooms, "tango studios")  # studios of a kind: not the one room whose name has the words
    assert not any(r.get("match") == "name" for r in rules)
    assert ask(rooms, "the Kiln Yard Studio")[0] == ["r04"]


def test_a_clipped_word_is_the_value_word_it_begins(rooms):
    found, rules = ask(rooms, "an improv room in the railway sidings")
    assert found == ["r10"]
    assert any(r.get("value") == "Improvisation" and r.get("match") == "stem" for r in rules)  # by its letters


def test_free_and_available_ask_for_a_status_column_that_is_yes_or_no(rooms):
    assert ask(rooms, "which rooms are free in Railway Sidings?")[0] == ids(district="Railway Sidings", vacant=True)
    assert ask(rooms, "rooms that aren't available")[0] == ids(vacant=False)
    found, _ = ask(rooms, "a room with free parking")  # "free" of a thing: no status condition
    assert found != ids(vacant=True)
