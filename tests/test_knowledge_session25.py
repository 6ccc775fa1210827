"""KB questions on a repair workshop's services, written for session 25's knowledge-parser rules (not a sample, not a
blind set): the first word of one row's name said with another of its words names that row ("standard tuning" for
"Standard Piano Tuning"), and a word for the ordinary kind the KB never uses is read as the one it does ("the usual
tuning"). Expected rows are computed from SERVICES, so the tests check rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

SERVICES = [
    {"id": "s1", "name": "Standard Piano Tuning", "category": "Tuning", "price": 95.0,
     "details": "A fine tuning for a piano tuned in the last year or two."},
    {"id": "s2", "name": "Pitch Raise Tuning", "category": "Tuning", "price": 140.0,
     "details": "For a piano that has dropped well below standard pitch after years without a tuning."},
    {"id": "s3", "name": "Concert Tuning", "category": "Tuning", "price": 160.0,
     "details": "An extra careful tuning before a recital or a recording."},
    {"id": "s4", "name": "Sticky Key Repair", "category": "Repair", "price": 70.0,
     "details": "Keys that stay down after damp weather, eased and regulated."},
    {"id": "s5", "name": "Guitar Setup", "category": "Setup", "price": 55.0,
     "details": "String height, truss rod and intonation adjusted, with fresh strings."},
    {"id": "s6", "name": "Password Reset", "category": "Repair", "price": 10.0,
     "details": "A forgotten lock code on a digital piano cleared."},
    {"id": "s7", "name": "Bow Rehair", "category": "Repair", "price": 65.0, "details": "Fresh horsehair for a bow."},
    {"id": "s8", "name": "Cello Setup", "category": "Setup", "price": 90.0, "details": "Bridge and soundpost fitted."},
    {"id": "s9", "name": "Guitar Refret", "category": "Repair", "price": 180.0, "details": "Worn frets replaced."},
    {"id": "s10", "name": "Piano Condition Report", "category": "Assessment", "price": 80.0,
     "details": "A written report on a piano before you buy it."},
]
COLUMNS = {"name": "The service's name", "category": "The kind of work", "price": "Price in pounds",
           "details": "What the service involves"}


@pytest.fixture(scope="module")
def workshop(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, SERVICES, "services", COLUMNS, name="workshop",
                     description="A piano and string instrument workshop.", table_description="Services offered.",
                     free_text=["details"], field_types={"price": "float"}) as fixture:
        yield fixture


@pytest.mark.parametrize("question, ids", [
    ("standard tuning", ["s1"]),
    ("just the standard tuning please", ["s1"]),
    ("just the usual tuning", ["s1"]),  # the KB says "standard", the user "usual"
    ("a normal tuning", ["s1"]),
])
def test_a_name_said_by_its_first_word_and_another(workshop, question, ids):
    assert ask(workshop, question)[0] == ids, question


def test_a_word_every_row_of_a_kind_has_names_none_of_them(workshop):
    assert ask(workshop, "tuning")[0] == ["s1", "s2", "s3"]
    assert ask(workshop, "a concert tuning")[0] == ["s3"]


def test_the_usual_kind_word_only_for_a_row_that_has_the_other_words(workshop):
    assert ask(workshop, "the usual guitar setup")[0] == ["s5"]  # not Standard Piano Tuning
