"""Session 15's knowledge-parser mechanisms, on a ceramics-studio KB written here (no sample's, no test agent's).

Each was a wrong answer on the test agents' KB questions: a place said by its first word ("at Riverside"), a value
that stands for all others ("Both"), "only for", a superlative naming a column by one of its words ("the longest
wait"), and a verb that asks whether rows happen ("open on a saturday") searched as text and emptying the answer.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

ROWS = [
    {"id": "w1", "name": "Wheel Throwing Basics", "venue": "Harbourside Arts Centre", "level": "Beginner",
     "kiln": "Electric", "days": ["Monday", "Saturday"], "clays": ["Stoneware"], "wait_list_weeks": 3,
     "price": 120, "about": "Centre the clay, pull walls and trim a first bowl."},
    {"id": "w2", "name": "Raku Evenings", "venue": "Old Mill Studios", "level": "Intermediate", "kiln": "Gas",
     "days": ["Thursday"], "clays": ["Raku", "Stoneware"], "wait_list_weeks": 8, "price": 160,
     "about": "Glaze and fire outdoors in a raku kiln; pieces crackle as they cool."},
    {"id": "w3", "name": "Hand Building for Families", "venue": "Harbourside Arts Centre", "level": "Beginner",
     "kiln": "Both", "days": ["Saturday"], "clays": ["Earthenware"], "wait_list_weeks": 1, "price": 60,
     "about": "Pinch pots, coils and slabs; children welcome with an adult."},
    {"id": "w4", "name": "Porcelain Masterclass", "venue": "Old Mill Studios", "level": "Advanced",
     "kiln": "Electric", "days": ["Tuesday", "Wednesday"], "clays": ["Porcelain"], "wait_list_weeks": 12,
     "price": 240, "about": "Thin walls, translucent bowls and the patience porcelain needs."},
    {"id": "w5", "name": "Glaze Chemistry", "venue": "Eastgate College", "level": "Advanced", "kiln": "Gas",
     "days": ["Wednesday"], "clays": ["Stoneware", "Porcelain"], "wait_list_weeks": 5, "price": 180,
     "about": "Mix your own glazes from raw materials and test tiles."},
    {"id": "w6", "name": "Saturday Slab Club", "venue": "Eastgate College", "level": "Intermediate", "kiln": "Both",
     "days": ["Saturday"], "clays": ["Stoneware", "Earthenware"], "wait_list_weeks": 2, "price": 95,
     "about": "Slab-built plates and planters with texture stamps."},
    {"id": "w7", "name": "Sculpture in Clay", "venue": "Harbourside Arts Centre", "level": "Intermediate",
     "kiln": "Gas", "days": ["Friday"], "clays": ["Earthenware"], "wait_list_weeks": 6, "price": 150,
     "about": "Figures and heads modelled from life."},
    {"id": "w8", "name": "Repair with Gold", "venue": "Old Mill Studios", "level": "Beginner", "kiln": "Electric",
     "days": ["Sunday"], "clays": ["Porcelain", "Stoneware", "Earthenware"], "wait_list_weeks": 4, "price": 85,
     "about": "Mend broken cups the kintsugi way with lacquer and gold powder."},
]
COLUMNS = {"id": "Workshop id", "name": "Workshop name", "venue": "Where it is held", "level": "Level",
           "kiln": "Kind of kiln used", "days": "Days it runs", "clays": "Clays used",
           "wait_list_weeks": "Typical wait for a place, in weeks", "price": "Price in pounds",
           "about": "What the workshop is about"}


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, ROWS, "workshops", COLUMNS, name="clay_studio",
                     description="A pottery studio's booking assistant.", table_description="Pottery workshops",
                     free_text=["about"]) as fixture:
        yield fixture


def test_a_place_said_by_its_first_word_selects_its_rows(studio):
    ids, rules = ask(studio, "which workshops are at Harbourside?")
    assert ids == ["w1", "w3", "w7"]
    assert any(r.get("column") == "venue" and r.get("value") == "Harbourside Arts Centre" for r in rules)
    ids, rules = ask(studio, "anything at the Old Mill?")  # the first words of "Old Mill Studios"
    assert ids == ["w2", "w4", "w8"] and any(r.get("match") == "prefix" for r in rules)
    ids, _ = ask(studio, "anything at Eastgate on a wednesday?")
    assert ids == ["w5"]
    ids, _ = ask(studio, "which workshops are at harbourside?")  # not capitalised: not read as the place
    assert not any(r.get("column") == "venue" for r in _)


def test_a_value_that_stands_for_every_other_value_is_found_with_each(studio):
    ids, rules = ask(studio, "workshops with a gas kiln")
    assert ids == ["w2", "w3", "w5", "w6", "w7"]  # the "Both" rows fire in gas too
    ids, _ = ask(studio, "beginner workshops with an electric kiln")
    assert ids == ["w1", "w3", "w8"]
    ids, _ = ask(studio, "workshops without a gas kiln")  # a negated value is not widened
    assert ids == ["w1", "w3", "w4", "w6", "w8"]


def test_only_before_or_after_a_list_value_excludes_rows_with_other_items(studio):
    ids, rules = ask(studio, "which workshops are only for stoneware")
    assert ids == ["w1"]
    assert any(r.get("rule") == "only" for r in rules)
    ids, _ = ask(studio, "earthenware only please")
    assert ids == ["w3", "w7"]
    ids, _ = ask(studio, "workshops using porcelain")  # no "only": every row with porcelain
    assert ids == ["w4", "w5", "w8"]


def test_a_superlative_names_a_numeric_column_by_one_of_its_words(studio):
    ids, _ = ask(studio, "which workshop has the longest wait", ordered=True)
    assert ids[:1] == ["w4"]
    ids, _ = ask(studio, "the shortest wait list", ordered=True)
    assert ids[:1] == ["w3"]


def test_a_verb_that_asks_whether_rows_happen_does_not_empty_the_answer(studio):
    ids, rules = ask(studio, "any workshops running on a saturday?")
    assert ids == ["w1", "w3", "w6"]
    assert any(r.get("dropped") for r in rules if r.get("rule") == "free_text")
    ids, _ = ask(studio, "are there workshops on sunday about gold")  # a content word still searches the text
    assert ids == ["w8"]
    ids, _ = ask(studio, "saturday workshops about porcelain bowls")  # content words with no hit stay a filter
    assert ids == []
