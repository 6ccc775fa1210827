"""KB questions on an arts centre's rooms, written for session 22's knowledge-parser rules (not a sample, not a blind
set): a negated free-text word leaves its rows out, an English word is no misspelt value, "a year or more" against
a column kept in months, "for 10 people" after the room named as a value, an ordinal before a column's name word
("the 4th floor", "ground floor" as its description numbers it), placeholder nouns ("the cheapest thing"), the verb
of a comparison ("ready in less than"), and "can't be done" before a yes/no column. Every expected answer is
computed from ROOMS, so the tests check rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

KINDS = ["dance studio", "meeting room", "kiln room", "darkroom", "music room"]
ROOMS = [{"id": f"r{i:02d}", "name": f"{['Ash', 'Beech', 'Cedar', 'Hazel', 'Larch', 'Rowan'][i % 6]} {i}",
          "kind": KINDS[i % 5], "floor": i % 5, "seats": [4, 8, 12, 20, 40][i % 5],
          "hourly_price": 10.0 + 3 * (i % 7), "lease_months": [3, 6, 12, 18, 24][i % 5],
          "setup_days": [2, 5, 7, 10][i % 4], "equipment": [["mirrors", "speakers"], ["screen"], ["kiln"],
                                                            ["enlarger"], ["piano", "speakers"]][i % 5],
          "same_day": i % 3 == 0, "surface": ["Sprung", "Carpet", "Vinyl"][i % 3],
          "notes": ["Heated by underfloor pipes, warm all winter.", "Cooled by a quiet fan; bright and airy.",
                    "Plain room with daylight bulbs."][i % 3]}
         for i in range(30)]
COLUMNS = {"name": "Name of the room", "kind": "The kind of room", "floor": "The floor it is on (0 is the ground floor)",
           "seats": "How many people it seats", "hourly_price": "Price per hour in pounds",
           "lease_months": "Shortest lease, in months", "setup_days": "Days it takes to set the room up",
           "equipment": "Equipment in the room", "same_day": "Whether it can be booked same day",
           "surface": "The floor surface", "notes": "What the room is like"}


@pytest.fixture(scope="module")
def centre(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, ROOMS, "rooms", COLUMNS, name="arts_centre",
                     description="An arts centre that lets rooms.", table_description="Rooms to hire.",
                     free_text=["notes"], column_types={"same_day": "bool"},
                     field_types={"floor": "int", "seats": "int", "lease_months": "int", "setup_days": "int",
                                  "hourly_price": "float"}) as fixture:
        yield fixture


def expect(pred):
    return sorted(r["id"] for r in ROOMS if pred(r))


@pytest.mark.parametrize("question, pred", [
    ("a dance studio that doesnt use heating pipes", lambda r: r["kind"] == "dance studio" and "Heated" not in r["notes"]),
    ("meeting rooms without heating", lambda r: r["kind"] == "meeting room" and "Heated" not in r["notes"]),
    ("rooms with a lease of a year or more", lambda r: r["lease_months"] >= 12),
    ("a meeting room for 10 people", lambda r: r["kind"] == "meeting room" and r["seats"] >= 10),
    ("what's on the 4th floor", lambda r: r["floor"] == 4),
    ("anything on the ground floor", lambda r: r["floor"] == 0),
    ("a kiln room on the second floor", lambda r: r["kind"] == "kiln room" and r["floor"] == 2),
    ("music rooms that are ready in less than a week", lambda r: r["kind"] == "music room" and r["setup_days"] < 7),
    ("which rooms can't be booked same day", lambda r: not r["same_day"]),
])
def test_rows(centre, question, pred):
    assert ask(centre, question)[0] == expect(pred), question


def test_an_english_word_is_no_misspelt_value(centre):
    ids, rules = ask(centre, "a room with carpet for getting fit")
    assert not any(r.get("match") == "fuzzy" and r.get("words") == "getting" for r in rules)
    assert ids == expect(lambda r: r["surface"] == "Carpet")


def test_a_placeholder_noun_searches_nothing(centre):
    ids, rules = ask(centre, "whats the cheapest thing you do", ordered=True)
    assert ids[0] == min(ROOMS, key=lambda r: (r["hourly_price"], r["id"]))["id"] or \
        ROOMS[[r["id"] for r in ROOMS].index(ids[0])]["hourly_price"] == min(r["hourly_price"] for r in ROOMS)
    assert not any(r.get("rule") == "free_text" and "thing" in r.get("words", []) for r in rules)


def test_only_keeps_out_the_rows_for_any(tmp_path_factory):
    rows = [{"id": f"h{i}", "name": f"Style {i}", "length": ["Short", "Long", "Any"][i % 3],
             "notes": "A style."} for i in range(9)]
    with kb_and_spec(tmp_path_factory, rows, "styles", {"name": "Name", "length": "Hair length it suits",
                                                         "notes": "About it"},
                     name="salon", description="A hair salon.", table_description="Styles.",
                     free_text=["notes"]) as fixture:
        assert ask(fixture, "styles only for short hair")[0] == sorted(r["id"] for r in rows if r["length"] == "Short")
        assert ask(fixture, "styles for short hair")[0] == sorted(r["id"] for r in rows if r["length"] != "Long")


def test_a_sentence_about_the_asker_before_the_question_searches_nothing(centre):
    ids, rules = ask(centre, "I only have my lunch break, what rooms can you set up in under 3 days?")
    assert ids == expect(lambda r: r["setup_days"] < 3)


def test_the_agents_own_verb_is_no_word_of_a_value(tmp_path_factory):
    rows = [{"id": f"c{i}", "name": f"Clean {i}", "category": ["windows", "solar panels", "gutters"][i % 3],
             "included": [["frames", "sills"], ["panel clean"] if i == 1 else ["bird check"], ["downpipes"]][i % 3],
             "notes": "Done with care."} for i in range(9)]
    with kb_and_spec(tmp_path_factory, rows, "services", {"name": "Name", "category": "What is cleaned",
                                                           "included": "What the clean includes", "notes": "About it"},
                     name="window_cleaning", description="A window cleaning round.", table_description="Cleans.",
                     free_text=["notes"]) as fixture:
        assert ask(fixture, "do you clean solar panels")[0] == sorted(r["id"] for r in rows
                                                                      if r["category"] == "solar panels")


@pytest.mark.parametrize("question, pred", [
    ("rooms not on the ground floor", lambda r: r["floor"] != 0),
    ("anything above the 2nd floor", lambda r: r["floor"] > 2),
    ("rooms that doesnt have a piano", lambda r: "piano" not in r["equipment"]),
])
def test_negated_and_compared_rows(centre, question, pred):
    assert ask(centre, question)[0] == expect(pred), question


def test_a_row_that_says_it_lacks_the_thing_is_kept(tmp_path_factory):
    rows = [{"id": "a", "name": "Ash", "notes": "No stairs at all, level access."},
            {"id": "b", "name": "Birch", "notes": "Up two flights of stairs."},
            {"id": "c", "name": "Cedar", "notes": "A lift to every floor."}]
    with kb_and_spec(tmp_path_factory, rows, "rooms", {"name": "Name", "notes": "About it"}, name="hall",
                     description="A hall.", table_description="Rooms.", free_text=["notes"]) as fixture:
        assert ask(fixture, "a room without stairs")[0] == ["a", "c"]
