"""Postcodes and addresses, counts and names of KB rows in an opening, "can you <task verb> them?", echoed yes/no
answers and refusals by "I don't do ...".

Pinned on a courier spec written here (not a sample, not a development agent): each test names the mechanism it
holds, so a rule grown on one agent's words fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import field, statements, talk, task_choice

SPEC = {
    "name": "courier desk", "starting_prompt": "Hello, courier desk. How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Send Parcel", "description": "arrange a courier pickup of boxes, bikes or instruments"},
            {"value": "Late Parcel", "description": "report a parcel that did not arrive on the promised day"},
            {"value": "Order Supplies", "description": "order replacement, new or extra packing boxes"}),
        {"name": "SendParcel", "kind": "task", "predicate": 'task == "Send Parcel"', "api": "send", "fields": [
            field("item", "ParcelKind", "What you are sending"),
            field("item_count", "int", "How many of them"),
            field("pickup_date", "date", "The day we should collect it"),
            field("pickup", "PickupAddress", "Where we collect it"),
            field("phone", description="A phone number for the driver"),
            field("confirm", "confirm", "Confirm the pickup")]},
        {"name": "PickupAddress", "kind": "task", "predicate": 'task == "Send Parcel"', "fields": [
            field("street_address", description="The house number and street"),
            field("postcode", description="The postcode", confirm=True)]},
        {"name": "LateParcel", "kind": "task", "predicate": 'task == "Late Parcel"', "api": "late", "fields": [
            field("service", "Enum", "Which service it was sent with", enum_values=[
                {"value": "Next Day", "description": "the standard next working day service"},
                {"value": "Same Day", "description": "the express same day courier"}]),
            field("due_date", "date", "The day it should have been delivered"),
            field("address", description="Your address, including the postcode"),
            field("safe_place", "bool", "Was the parcel left at the door by noon"),
            field("email", description="An e-mail address for updates", required=False),
            field("confirm", "confirm", "Confirm the report")]},
        {"name": "OrderSupplies", "kind": "task", "predicate": 'task == "Order Supplies"', "api": "supplies",
         "fields": [
            field("box_colour", "Enum", "Which boxes", enum_values=[
                {"value": "Brown", "description": "the plain brown cardboard box"},
                {"value": "White", "description": "the white printed box"}]),
            field("why", "Enum", "Why you need them", enum_values=[
                {"value": "New Shop", "description": "you have opened a new shop"},
                {"value": "Ran Out", "description": "you have used them all up"}]),
            field("confirm", "confirm", "Confirm the order")]},
        {"name": "kinds", "kind": "kb", "fields": [field("id", primary_key=True), field("name"), field("size")]},
        {"name": "ParcelKind", "kind": "type", "fields": [field("id", primary_key=True), field("name"),
                                                          field("size")]},
    ],
    "apis": [{"name": "send"}, {"name": "late"}, {"name": "supplies"}],
}
KINDS = [{"id": "k1", "name": "Small Box", "size": "S"}, {"id": "k2", "name": "Guitar Case", "size": "L"},
         {"id": "k3", "name": "Bicycle", "size": "XL"}, {"id": "k4", "name": "Suitcase", "size": "M"}]


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("courier")
    (root / "spec.json").write_text(json.dumps(SPEC))
    (root / "data").mkdir()
    (root / "data" / "kinds.jsonl").write_text("".join(json.dumps(r) + "\n" for r in KINDS))
    return Agent.load(Path(root))


def _late(agent, *turns: str):
    """A late-parcel report opened, then the turns."""
    return talk(agent, "a parcel did not arrive on the promised day", "next day", *turns)


def test_an_address_with_its_postcode_is_kept_whole(agent):
    session, [*_, r] = _late(agent, "yesterday", "14 Elm Road, EH3 9QP")
    assert statements(r) == ['late_parcel.address = "14 Elm Road, EH3 9QP"']
    session, [*_, r] = _late(agent, "yesterday", "9 brook lane bd7 1qs")  # typed in lower case, no commas
    assert statements(r) == ['late_parcel.address = "9 Brook Lane BD7 1QS"']


def test_a_postcode_is_one_code_and_splits_from_the_street_for_its_own_field(agent):
    session, [*_, r] = talk(agent, "I want to send a suitcase", "1", "tomorrow", "Flat 2, 41 Hill Road", "LS6 1DR")
    assert statements(r) == ['pickup_address.postcode = "LS6 1DR"']
    session, [*_, r] = talk(agent, "I want to send a suitcase", "1", "tomorrow", "ok. 9 Rose Lane, Hollowby, BT7 1NN")
    assert statements(r) == ['pickup_address.street_address = "9 Rose Lane, Hollowby"',
                             'pickup_address.postcode = "BT7 1NN"']


def test_a_correction_is_written_as_the_old_value_was(agent):
    session, [*_, r] = talk(agent, "I want to send a suitcase", "1", "tomorrow", "Flat 2, 41 Hill Road", "LS6 1DR",
                            "sorry no, typo. it's LS6 1DB")
    assert statements(r)[-1] == 'pickup_address.postcode = "LS6 1DB"'


def test_an_opening_fills_the_nested_address_the_count_and_the_row_named(agent):
    session, [r] = talk(agent, "hi, i need my old guitar case picked up from 22 Canal Street, M4 6HJ. this friday")
    said = statements(r)
    assert said[0] == 'main.task = "Send Parcel"'
    assert 'pickup=PickupAddress(postcode="M4 6HJ", street_address="22 Canal Street")' in said[1]
    assert "item_count=1" in said[1] and 'item=answer("Guitar Case")' in said[1]
    assert 'pickup_date="2024-07-05"' in said[1]


def test_asked_to_do_the_task_with_a_count_of_rows(agent):
    session, [r] = talk(agent, "I've got 3 old suitcases to send, can you pick them up on the 4th of July?")
    said = statements(r)
    assert said[0] == 'main.task = "Send Parcel"'
    assert 'item_count=3' in said[1] and 'item=answer("Suitcase")' in said[1]
    assert 'pickup_date="2024-07-04"' in said[1]


def test_a_pronoun_one_counts_nothing(agent):
    session, [_, r] = talk(agent, "what sizes do you have?", "Okay, I'd like to book one for two suitcases please")
    said = " ".join(statements(r))
    assert "item_count=2" in said


def test_a_past_date_field_and_this_morning(agent):
    session, [r] = talk(agent, "Hi, my next day parcel wasn't delivered this morning")
    said = statements(r)
    assert 'service="Next Day"' in said[1] and 'due_date="2024-07-01"' in said[1]
    session, [*_, r] = _late(agent, "on Friday")
    assert statements(r) == ['late_parcel.due_date = "2024-06-28"']  # it should have been: the last Friday


def test_an_echoed_yes_no_question(agent):
    session, [*_, r] = _late(agent, "yesterday", "14 Elm Road, EH3 9QP", "It was left at the door by eleven")
    assert statements(r) == ["late_parcel.safe_place = True"]
    session, [*_, r] = _late(agent, "yesterday", "14 Elm Road, EH3 9QP", "it wasn't left anywhere")
    assert statements(r) == ["late_parcel.safe_place = False"]


def test_i_dont_do_email_refuses_the_optional_field(agent):
    session, [*_, r] = _late(agent, "yesterday", "14 Elm Road, EH3 9QP", "yes", "I don't do email sorry")
    assert statements(r) == ['late_parcel.email = "NA"']

