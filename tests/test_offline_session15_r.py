"""Session 15, helper R: which field a value belongs to, from the label typed before it and from what was asked;
short values said with a lead-in or beside other words.

Pinned on a storage company's spec written here (tests/data/session15_r_lockers.json; not a sample, not a
development agent): each test names the mechanism it holds and fails without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.parsers.offline.words.value_labels import head_names, label_of
from core_engine.spec.model import Field
from tests.fakes.specs import agent_of, statements, talk

SPEC = json.loads((Path(__file__).parent / "data" / "session15_r_lockers.json").read_text())


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("lockers"), SPEC)


_SIGNED_IN = ("Hi, I am Ana Ruiz", "40817726", "2291")


def _values(session) -> dict:
    from core_engine.dialogue.state import DialogueState
    return {r.var: dict(r.values) for r in DialogueState.from_json(session.state).tasks()}


def test_a_label_is_the_word_before_the_value_and_may_be_shortened():
    assert label_of("acct no 40012298", 8) == ("acct", True)
    assert label_of("my claim is CL-318842", 12) == ("claim", False)
    assert label_of("yeah 1234", 5) is None
    f = Field(name="membership_number", type="str")
    assert head_names("mem", f) and head_names("memb", f) and head_names("membership", f)
    assert not head_names("door", f)


def test_an_abbreviated_label_gives_each_value_its_field(agent):
    _s, [*_, r] = talk(agent, "Hi, I am Ana Ruiz", "mem 40817726, pin 2291")
    assert statements(r) == ['verification.membership_number = "40817726"', 'verification.pin = "2291"']


def test_a_value_labelled_for_no_field_is_not_the_one_asked(agent):
    _s, [*_, r] = talk(agent, "Hi, I am Ana Ruiz", "membership number 12345678, door code 61-44-09")
    assert statements(r) == ['verification.membership_number = "12345678"']


def test_labelled_values_in_an_opening_are_not_the_story(agent):
    s, [r] = talk(agent, "This is Li Wei, membership 61029384 pin 8812 - someone broke in last night and took my bike")
    values = _values(s)
    assert values["main"]["full_name"] == "Li Wei"
    assert values["verification"]["membership_number"] == "61029384" and values["verification"]["pin"] == "8812"
    assert values["main"]["what_happened"] == "someone broke in last night and took my bike"


def test_a_name_typed_without_its_apostrophe_introduces(agent):
    s, [r] = talk(agent, "my names Rob, I need to report a break-in")
    assert statements(r) == ['main.full_name = "Rob"']


def test_a_sentence_that_is_only_a_name_opens_the_story(agent):
    s, [r] = talk(agent, "Dolores Mbeki. Someone broke in and my bike has gone")
    assert statements(r) == ['main.full_name = "Dolores Mbeki"', 'main.what_happened = "Someone broke in and my bike has gone"']


def test_a_name_said_again_after_should_have_said(agent):
    s, [*_, r] = talk(agent, "Hi, I am Rob", "sorry should've said Robert Kowalczyk, that's what the account is under")
    assert statements(r) == ['main.full_name = "Robert Kowalczyk"']


def test_a_lead_in_naming_the_field_is_left_out_of_a_short_answer(agent):
    _s, [*_, r] = talk(agent, "Hi, I am Ana Ruiz", "I don't know my membership number", "first pet's name was Rex")
    assert statements(r) == ['verification.security_answer = "Rex"']


def test_a_name_beside_the_code_asked_fills_the_name_field(agent):
    _s, [*_, r] = talk(agent, *_SIGNED_IN, "I have a question about an invoice",
                       "INV-38002, it's under Chidi Okafor")
    assert sorted(statements(r)) == ['invoice_query.customer_name = "Chidi Okafor"',
                                     'invoice_query.invoice_reference = "INV-38002"']


def test_a_check_on_the_question_then_the_value(agent):
    _s, [*_, r] = talk(agent, *_SIGNED_IN, "I have a question about an invoice",
                       "is that the number at the top of the letter? INV-90344")
    assert statements(r) == ['invoice_query.invoice_reference = "INV-90344"']


def test_a_floor_in_brackets_once_the_turn_makes_the_locker_indoor(agent):
    _s, [*_, r] = talk(agent, *_SIGNED_IN, "I'd like to rent a locker", "large, indoor, top floor (3rd)")
    assert 'rent_locker.floor = 3' in statements(r)
    _s, [*_, r] = talk(agent, *_SIGNED_IN, "I'd like to rent a locker", "large, indoor on the ground floor")
    assert 'rent_locker.floor = 0' in statements(r)
