"""Session 14, helper A: codes of two groups typed in capitals, reference examples whose letters are placeholders,
the make named beside a colour in a turn that answers another field of the record.

Pinned on a marina office's spec written here (tests/data/session14_a_marina.json; not a sample, not a development
agent): each test names the mechanism it holds and fails without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.parsers.offline.words.values import find_codes
from tests.fakes.specs import agent_of, statements, talk

SPEC = json.loads((Path(__file__).parent / "data" / "session14_a_marina.json").read_text())


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("marina"), SPEC)


def test_a_code_of_two_groups_typed_in_capitals_is_one_code():
    assert [c.value for c in find_codes("GB55 KRT")] == ["GB55 KRT"]
    assert [c.value for c in find_codes("it's WK19 TRP, white")] == ["WK19 TRP"]
    assert [c.value for c in find_codes("CS106 AND CS107")] == ["CS106", "CS107"]  # a word in capitals
    assert [c.value for c in find_codes("CS 106 ABC")] == ["CS 106"]  # a code with a space is not extended
    assert [c.value for c in find_codes("gb55 krt")] == ["gb55"]  # in lower case the second group is unsure


def test_a_two_group_code_answers_a_field_with_no_example(agent):
    _s, [*_, r] = talk(agent, "I want to dispute a fee", "HT7712004", "WK19 TRP")
    assert statements(r) == ['dispute_fee.boat_sail_number = "WK19 TRP"']


def test_an_example_reference_whose_letters_are_placeholders_takes_any_letters(agent):
    _s, [*_, r] = talk(agent, "I want to dispute a fee", "HT7712004")
    assert statements(r) == ['dispute_fee.invoice_number = "HT7712004"']
    _s, [*_, r] = talk(agent, "I want to dispute a fee", "hold on let me find the letter.... ok its QS7712004")
    assert statements(r) == ['dispute_fee.invoice_number = "QS7712004"']
    _s, [*_, r] = talk(agent, "I want to dispute a fee", "HT771200")  # a digit short: not the shape
    assert statements(r) == []


def test_the_make_beside_the_colour_in_an_answer_to_the_sail_number(agent):
    _s, [*_, r] = talk(agent, "I'd like to rent a berth", "GB55 KRT, a green beneteau oceanis, outboard")
    assert sorted(statements(r)) == sorted(['boat.sail_number = "GB55 KRT"', 'boat.colour = "green"',
                                            'boat.make = "Beneteau Oceanis"', 'boat.engine = "Outboard"'])
    _s, [*_, r] = talk(agent, "I'd like to rent a berth", "Jeanneau Sun Odyssey in white, GB41 LLP")
    assert 'boat.make = "Jeanneau Sun Odyssey"' in statements(r) and 'boat.sail_number = "GB41 LLP"' in statements(r)
    _s, [*_, r] = talk(agent, "I'd like to rent a berth", "GB41 LLP red hunter")
    assert statements(r) == ['boat.sail_number = "GB41 LLP"', 'boat.colour = "red"', 'boat.make = "Hunter"'] or \
        not any(s.startswith("boat.make") for s in statements(r))


def test_a_plain_word_beside_the_colour_is_no_make(agent):
    for said in ("GB41 LLP, a white one", "GB41 LLP white boat", "GB41 LLP, it's blue"):
        _s, [*_, r] = talk(agent, "I'd like to rent a berth", said)
        assert 'boat.sail_number = "GB41 LLP"' in statements(r), said
        assert not any(s.startswith("boat.make") for s in statements(r)), said


def test_an_address_field_with_its_postcode_takes_the_street_and_the_postcode(agent):
    _s, [r] = talk(agent, "I'd like to rent a berth please, I live at 7 Kiln Lane HX2 9PL")
    assert 'rent_berth.home_address = "7 Kiln Lane HX2 9PL"' in statements(r) or \
        'home_address="7 Kiln Lane HX2 9PL"' in " ".join(statements(r))
    _s, [r] = talk(agent, "I'd like to rent a berth please, I live at 7 Kiln Lane, Hexby, HX2 9PL")
    assert 'home_address="7 Kiln Lane, Hexby, HX2 9PL"' in " ".join(statements(r))


def test_a_field_marked_free_text_takes_prose_whatever_its_name(agent):
    # `account` would read as a code field by its name; the spec's free_text flag says it is prose
    _s, [*_, r] = talk(agent, "I want to dispute a fee", "HT7712004", "WK19 TRP", "they charged me twice",
                       "I paid for the night and then paid again")
    assert statements(r) == ['dispute_fee.account = "I paid for the night and then paid again"']


def test_a_person_who_has_none_of_the_thing_asked_is_a_refusal(agent):
    turns = ("I want to dispute a fee", "HT7712004", "WK19 TRP", "they charged me twice", "paid twice", "Ann Lee")
    for said in ("she doesnt do email tbh", "he has no email", "my dad doesn't have one"):
        _s, [*_, r] = talk(agent, *turns, said)
        assert statements(r) == ['dispute_fee.email = "NA"'], said
    for said in ("she doesn't do computers", "he doesn't have a boat"):  # not the thing asked
        _s, [*_, r] = talk(agent, *turns, said)
        assert statements(r) == [], said


def test_a_short_number_led_by_the_code_fields_own_name_word(agent):
    for said, value in (("tag 12", "12"), ("its number 7", "7"), ("tag no. 4B", "4B")):
        _s, [*_, r] = talk(agent, "the shore power post on my pontoon is broken", said)
        assert statements(r) == [f'report_fault.tag_number = "{value}"'], said
    _s, [*_, r] = talk(agent, "the shore power post on my pontoon is broken", "the blue one 7")
    assert statements(r) == []


FAULT_DONE = ("the shore power post on pontoon 2 is broken", "no tag", "no", "no thanks")


def test_another_task_once_the_one_before_went_through(agent):
    _s, [*_, r] = talk(agent, *FAULT_DONE, "I want to dispute a fee")
    assert statements(r) == ['main.task = "Dispute Fee"']
    _s, [*_, r] = talk(agent, *FAULT_DONE, "I want to dispute a fee", "HT7712004")
    assert statements(r) == ['dispute_fee.invoice_number = "HT7712004"']


def test_a_task_left_for_another_is_taken_up_again_once_that_one_is_done(agent):
    _s, [*_, r] = talk(agent, "I'd like to rent a visitor berth", "oh actually before that, the shore power post on "
                       "pontoon 2 is broken", *FAULT_DONE[1:], "right, the visitor berth now. pontoon 1")
    assert statements(r) == ['main.task = "Rent Berth"',
                             'rent_berth_2 = RentBerth(berth_kind="Visitor", pontoon="Pontoon 1")']


def test_a_yes_after_the_task_went_through_opens_nothing(agent):
    _s, [*_, r] = talk(agent, *FAULT_DONE, "yes thanks")
    assert not any(s.startswith("main.task") for s in statements(r))


def test_a_code_after_a_word_that_names_a_field_in_an_opening(agent):
    _s, [r] = talk(agent, "I want to dispute a fee, invoice HT7712004 for sail no GB55 KRT")
    assert 'boat_sail_number="GB55 KRT"' in " ".join(statements(r))
    assert 'dispute_fee.invoice_number = "HT7712004"' in statements(r) or \
        'invoice_number="HT7712004"' in " ".join(statements(r))


def test_a_reference_in_an_opening_tells_no_story_for_an_option_by_meaning(agent):
    _s, [r] = talk(agent, "I want to dispute a fee for GB55 KRT")
    assert not any("reason" in s for s in statements(r))


def test_a_word_the_tasks_own_example_shares_with_the_turn_chooses_no_longer_option(agent):
    _s, [r] = talk(agent, "i want to query a charge on my bill")  # via "I think a charge on my bill is wrong"
    assert statements(r) == ['main.task = "Dispute Fee"']
    _s, [r] = talk(agent, "I think a charge on my bill is wrong, they charged me twice")
    assert 'dispute_fee = DisputeFee(reason="Charged Twice")' in statements(r)


def test_a_place_said_in_an_opening_chooses_the_option_described_as_that_place(agent):
    # the pontoons are described by where they are: "near the lighthouse" names one by a word only it has
    _s, [r] = talk(agent, "I'd like to rent an annual berth for my yacht, somewhere near the lighthouse please")
    assert statements(r)[-1] == 'rent_berth = RentBerth(berth_kind="Annual", pontoon="Pontoon 1")'


def test_the_story_an_opening_tells_fills_a_required_field_the_spec_marks_free_text(agent):
    _s, [r] = talk(agent, "I want to dispute a fee, they charged me twice for the same night on the visitor pontoon")
    assert 'account="they charged me twice for the same night on the visitor pontoon"' in statements(r)[-1]
    _s, [r] = talk(agent, "hello. I was overcharged on my last invoice. the boat is only 8 metres but I was billed "
                          "for a 12 metre boat")
    assert 'account="I was overcharged on my last invoice, the boat is only 8 metres but I was billed for a 12 ' \
           'metre boat"' in statements(r)[-1]


def test_no_story_from_the_request_the_references_or_the_tasks_own_words(agent):
    for said in ("I want to dispute a fee", "hi, I was overcharged, invoice HT7712004",
                 "I want to dispute a fee for GB55 KRT"):
        _s, [r] = talk(agent, said)
        assert not any("account" in s for s in statements(r)), said
    # an optional free-text field ("anything else we should know") asks for more than the opening told
    _s, [r] = talk(agent, "the shore power post on pontoon 2 is broken, it trips every time I plug in")
    assert not any("notes" in s for s in statements(r))


def test_an_option_answered_by_meaning_keeps_the_other_values_of_the_turn(agent):
    _s, [*_, r] = talk(agent, "I'd like to rent a berth", "GB55 KRT", "Beneteau Oceanis", "white", "outboard",
                       "Name's Ann Lee, the shop is Crabpots, 7 Kiln Lane HX2 9PL")
    assert statements(r) == ['rent_berth.owner_name = "Ann Lee"', 'rent_berth.berth_kind = "Commercial"',
                             'rent_berth.home_address = "7 Kiln Lane HX2 9PL"']


CRANE = {**SPEC, "worksheets": [
    {**SPEC["worksheets"][0], "fields": [{**SPEC["worksheets"][0]["fields"][0], "enum_values": [
        *SPEC["worksheets"][0]["fields"][0]["enum_values"],
        {"value": "Book Crane", "description": "book the boat crane to lift a boat out of the water"}]}]},
    *SPEC["worksheets"][1:],
    {"name": "BookCrane", "kind": "task", "predicate": "task == \"Book Crane\"", "api": "book_crane", "fields": [
        {"name": "slipway", "type": "Slipway", "description": "The slipway where the boat is lifted"},
        {"name": "lift_day", "type": "date", "description": "The day of the lift"}]},
    {"name": "slipways", "kind": "kb", "fields": [{"name": "id", "type": "str", "primary_key": True},
                                                  {"name": "name", "type": "str"}, {"name": "quay", "type": "str"}]},
    {"name": "Slipway", "kind": "type", "fields": [{"name": "id", "type": "str", "primary_key": True},
                                                   {"name": "name", "type": "str"}]}],
    "apis": [*SPEC["apis"], {"name": "book_crane"}]}
SLIPWAYS = [{"id": "s1", "name": "North Slip", "quay": "North Quay"}, {"id": "s2", "name": "Basin Slip", "quay": "Basin"}]


@pytest.fixture(scope="module")
def crane(tmp_path_factory):
    from core_engine.session.agent import Agent
    root = tmp_path_factory.mktemp("crane")
    (root / "spec.json").write_text(json.dumps(CRANE))
    (root / "data").mkdir()
    (root / "data" / "slipways.jsonl").write_text("".join(json.dumps(r) + "\n" for r in SLIPWAYS))
    return Agent.load(root)


def test_a_no_with_only_closing_words_to_the_row_asked_searches_nothing(crane):
    for said in ("no that's everything", "no, that's all", "no thats it"):
        _s, [*_, r] = talk(crane, "I want to book the crane", said)
        assert not any("slipway" in s for s in statements(r)), said
    _s, [*_, r] = talk(crane, "I want to book the crane", "the basin one")
    assert any(s.startswith("book_crane.slipway") for s in statements(r))


DISPUTE_TO_SUMMARY = ("I want to dispute a fee", "HT7712004", "WK19 TRP", "they charged me twice",
                      "I paid at the harbour office and I was waiting for the refund from the ferry office", "Ann Lee",
                      "ann@lee.com")


def test_a_part_of_the_story_put_right_at_the_summary(agent):
    _s, [*_, r] = talk(agent, *DISPUTE_TO_SUMMARY,
                       "not quite - it was the marina office I was waiting for, not the ferry office")
    assert statements(r) == ['dispute_fee.account = "I paid at the harbour office and I was waiting for the refund '
                             'from the marina office"']
    _s, [*_, r] = talk(agent, *DISPUTE_TO_SUMMARY, "no, it was the fuel dock that had my money, not the ferry office")
    assert statements(r) == ['dispute_fee.account = "I paid at the harbour office and I was waiting for the refund '
                             'from the fuel dock"']


def test_words_in_no_story_put_nothing_right(agent):
    _s, [*_, r] = talk(agent, *DISPUTE_TO_SUMMARY, "no, it was the fuel dock, not the lock keeper")
    assert not any(s.startswith("dispute_fee.account") for s in statements(r))
