"""Names in any alphabet, free text without its hedge or lead-in, a summary held back after "no actually", and an
item named alone beside the clause that gives its options. Pinned on a lost-property desk written here (and the dance
studio of test_offline_told_in_full, the parts counter of test_offline_lists): no sample, no held-out agent.

"Björn Ålund" is a name; "yes submit" is none. "my locker is 42 if that helps" is "my locker is 42"; "It's Room B12
and Room C3" is "Room B12 and Room C3", but "it's my first visit" is kept whole. "hmm no actually, don't book it
yet" is a no to the summary ("actually" there changes no value). "3 for 40 and 52, 5 for 61": 52 gets 3 too.
"swap that for KZ 61" renames the item just told; "the second one is KY 52, same finish" copies the finish of the
item before.
"""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk
from tests.test_offline_held_back_and_remarks import BOOKED
from tests.test_offline_lists import PARTS, _agent
from tests.test_offline_told_in_full import STUDIO

LOST = {
    "name": "lost property desk", "starting_prompt": "Hello, lost property. What's your name?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [{"name": "Main", "kind": "task", "api": "log_item", "fields": [
        field("full_name", description="Your full name"),
        field("item_description", description="Describe the item you lost"),
        field("other_details", description="Any other details you would like to add"),
        field("confirm", "confirm", "Confirm the report")]}],
    "apis": [{"name": "log_item"}],
}


@pytest.fixture(scope="module")
def lost(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("lost"), LOST)


@pytest.fixture(scope="module")
def studio(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("studio"), STUDIO)


@pytest.fixture(scope="module")
def parts(tmp_path_factory) -> Agent:
    return _agent(tmp_path_factory.mktemp("parts"), PARTS)


def _at_details(lost: Agent):
    session = lost.new_session(parser="offline")
    session.inject('main.full_name = "Ana Ruiz"\nmain.item_description = "a blue umbrella"')
    assert session.current.last_acts[-1]["field"] == "other_details"
    return session


def test_a_name_with_letters_beyond_ascii(lost):
    _s, (r0, r) = talk(lost, "hi", "Björn Ålund")
    assert r0.acts[-1]["field"] == "full_name"
    assert statements(r) == ['main.full_name = "Björn Ålund"']


def test_a_yes_and_what_to_do_in_lower_case_is_no_name(lost):
    _s, (r0, r) = talk(lost, "hi", "yes submit")
    assert r0.acts[-1]["field"] == "full_name"
    assert not any("full_name" in s for s in statements(r))


@pytest.mark.parametrize("said, value", [("my locker is 42 if that helps", "my locker is 42"),
                                         ("I'm staff here, if that matters", "I'm staff here"),
                                         ("It's Room B12 and Room C3", "Room B12 and Room C3"),
                                         ("it's my first visit", "it's my first visit")])
def test_free_text_without_its_hedge_or_lead_in(lost, said, value):
    session = _at_details(lost)
    assert statements(session.turn(said)) == [f'main.other_details = "{value}"']


def test_no_actually_dont_book_it_yet_is_a_no_to_the_summary(studio):
    _s, results = talk(studio, *BOOKED, "2", "hmm no actually, don't book it yet, I need to ask my friends first")
    assert results[-2].acts[-1]["field"] == "confirm"
    assert statements(results[-1]) == ["book_class.confirm = False"]


def test_an_item_named_alone_shares_the_options_of_the_clause_beside_it(parts):
    _s, (*_rest, r) = talk(parts, "KX 40, KY 52 and KZ 61 please", "all gloss", "3 for 40 and 52, 5 for 61")
    assert sorted(statements(r)) == ["part.quantity = 3", "part_2.quantity = 3", "part_3.quantity = 5"]


def test_swap_that_for_a_new_name_renames_the_item_just_told(parts):
    _s, (*_rest, r) = talk(parts, "KX 40 please", "gloss", "3", "actually swap that for KZ 61, same finish and quantity")
    assert statements(r) == ['part.part_code = "KZ 61"']


@pytest.mark.parametrize("said, told", [
    ("the second one is KY 52, same finish, 5 pieces", ['part_2.finish = "Gloss"', "part_2.quantity = 5"]),
    ("the second one is KY 52, same finish and quantity", ['part_2.finish = "Gloss"', "part_2.quantity = 3"])])
def test_same_field_beside_a_new_items_name_copies_the_item_before(parts, said, told):
    _s, (*_rest, r) = talk(parts, "KX 40 please", "gloss", "3", said)
    assert sorted(statements(r)) == sorted(['part_2.part_code = "KY 52"', *told])
