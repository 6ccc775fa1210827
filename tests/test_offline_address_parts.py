"""An address kept in parts (a nested record of street, town and postcode fields), the name of the person a thing is
for, and the words of an opening that are no search of the KB.

Pinned on a furniture-repair pickup spec written here (not a sample, not a development agent).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import field, statements, talk, task_choice

SPEC = {
    "name": "repair pickup", "starting_prompt": "Hello, repair desk. How can I help?",
    "description": "The desk of a furniture repair workshop: arranges pickups of broken furniture.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Arrange Pickup", "description": "have a broken chair or table picked up for repair",
             "examples": ["can you fetch my broken chair from my flat"]},
            {"value": "Repair Status", "description": "ask how a repair is coming along"}),
        {"name": "ArrangePickup", "kind": "task", "predicate": 'task == "Arrange Pickup"', "api": "pickup",
         "fields": [
            field("home", "Place", "The address we fetch the furniture from"),
            field("pickup_day", "date", "The day we should fetch it"),
            field("owner_name", description="The full name of the person the furniture belongs to"),
            field("owner_phone", description="The owner's phone number, for the driver's call"),
            field("workshop", "Shop", "The workshop that repairs it"),
            field("confirm", "confirm", "Confirm the pickup")]},
        {"name": "Place", "kind": "task", "fields": [
            field("street", description="The house number and street"),
            field("town", description="The town or city"),
            field("postcode", description="The postcode")]},
        {"name": "RepairStatus", "kind": "task", "predicate": 'task == "Repair Status"', "api": "status",
         "fields": [field("job_ref", description="The job reference, like JB-1234")]},
        {"name": "shops", "kind": "kb", "fields": [field("id", primary_key=True), field("name"), field("town"),
                                                   field("services", "List[str]"), field("description")]},
        {"name": "Shop", "kind": "type", "fields": [field("id", primary_key=True), field("name"), field("town")]},
    ],
    "apis": [{"name": "pickup"}, {"name": "status"}],
}
SHOPS = [{"id": "s1", "name": "Millbank Workshop", "town": "Millbank", "services": ["collection", "upholstery"],
          "description": "A big workshop that can take whole sofas and is going strong since 1950."},
         {"id": "s2", "name": "Eastby Bench", "town": "Eastby", "services": ["varnishing"],
          "description": "A small bench for chairs."}]


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("repair")
    (root / "spec.json").write_text(json.dumps(SPEC))
    (root / "data").mkdir()
    (root / "data" / "shops.jsonl").write_text("".join(json.dumps(r) + "\n" for r in SHOPS))
    return Agent.load(Path(root))


def test_an_address_answer_fills_each_part_of_the_record(agent):
    session, [*_, r] = talk(agent, "I need a broken chair picked up for repair", "it's at 41 Quarry View, Eastby, LS9 2PQ")
    assert statements(r) == ['place.street = "41 Quarry View"', 'place.town = "Eastby"', 'place.postcode = "LS9 2PQ"']
    session, [*_, r] = talk(agent, "I need a broken chair picked up for repair", "Flat 3 Tanner Court, Millbank M3 4RT")
    assert statements(r) == ['place.street = "Flat 3 Tanner Court"', 'place.town = "Millbank"',
                             'place.postcode = "M3 4RT"']
    session, [*_, r] = talk(agent, "I need a broken chair picked up for repair", "coming from 7 Dale Road, BD2 4QA")
    assert statements(r) == ['place.street = "7 Dale Road"', 'place.postcode = "BD2 4QA"']


def test_an_address_with_more_said_after_it_is_not_split(agent):
    session, [*_, r] = talk(agent, "I need a broken chair picked up for repair",
                            "41 Quarry View, Eastby, LS9 2PQ but ring the bell twice")
    assert not any(s.startswith("place.town") for s in statements(r))


def test_an_opening_fills_the_address_parts_the_owner_and_searches_nothing(agent):
    session, [r] = talk(agent, "Can you fetch my broken table for repair from 12 Pier Street, Eastby EB1 2XY on friday? "
                               "It's going to Ada Lovell")
    said = " ".join(statements(r))
    assert 'home=Place(street="12 Pier Street", town="Eastby", postcode="EB1 2XY")' in said
    assert 'owner_name="Ada Lovell"' in said
    assert "owner_phone" not in said  # a postcode is no phone number
    assert "workshop" not in said  # "Can you fetch", "going to": no words of the workshops to search for


def test_whom_it_is_for_is_the_name_field_that_is_not_the_speakers(agent):
    session, [r] = talk(agent, "Can you fetch my broken chair from my flat on friday please? It's going to Ada Lovell")
    said = " ".join(statements(r))
    assert 'owner_name="Ada Lovell"' in said
    assert "workshop" not in said
