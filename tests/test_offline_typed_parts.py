"""Typed parts of a short answer, pinned on a bike-pickup spec written here (no sample, no held-out agent).

A street address is taken out of the words around it ("I'm staying at ..."), and beside another field's
answer it fills the address field; a basic colour word beside a model fills the colour field and leaves the
model; a yes/no field described as a contrast ("... rather than the customer") takes "it's my own" as no and
its first side's words as yes; several comma parts go each to the field whose name word leads it or whose description's example
it is shaped like ("e.g. Trek FX"); an answer that says words only one option's description has ("6 months") chooses that option.
"""

from __future__ import annotations


import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "bike pickup", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Pickup", "description": "have a bike collected from home for a repair"}),
        {"name": "BookPickup", "kind": "task", "predicate": 'task == "Book Pickup"', "api": "book_pickup",
         "fields": [
             field("owner_name", description="Your full name"),
             field("home_address", description="Street address where the bike is collected"),
             field("bike_model", description="The make and model of the bike, e.g. Trek FX"),
             field("frame_colour", description="The colour of the bike frame"),
             field("cover", "Enum", "The repair cover", enum_values=[
                 {"value": "Basic", "description": "lasts one month"},
                 {"value": "Plus", "description": "lasts six months, spare parts included"}]),
             field("frame_serial", description="The serial engraved under the frame"),
             field("is_rental", "bool", "Whether the bike belongs to a hire shop rather than the customer"),
             field("confirm", "confirm", "Confirm the pickup")]},
    ],
    "apis": [{"name": "book_pickup"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("bike"), SPEC)


def rules(result) -> list[dict]:
    return result.trace["parse"]["rules"]


def test_the_address_asked_is_taken_out_of_the_words_around_it(agent):
    _s, results = talk(agent, "I'd like a bike pickup", "Ana Ruiz", "I'm staying at 12 Quarry Lane")
    assert results[-2].acts[-1]["field"] == "home_address"
    assert statements(results[-1]) == ['book_pickup.home_address = "12 Quarry Lane"']


def test_an_address_beside_the_name_fills_the_address_field(agent):
    _s, results = talk(agent, "I'd like a bike pickup", "Ana Ruiz, 7 Mill Road")
    assert set(statements(results[-1])) == {'book_pickup.owner_name = "Ana Ruiz"',
                                            'book_pickup.home_address = "7 Mill Road"'}


def test_a_colour_beside_the_model_fills_the_colour_field(agent):
    _s, results = talk(agent, "I'd like a bike pickup", "Ana Ruiz", "7 Mill Road", "a red Trek FX")
    assert results[-2].acts[-1]["field"] == "bike_model"
    assert set(statements(results[-1])) == {'book_pickup.bike_model = "Trek FX"',
                                            'book_pickup.frame_colour = "red"'}


def test_words_only_one_options_description_has_choose_it(agent):
    _s, results = talk(agent, "I'd like a bike pickup", "Ana Ruiz", "7 Mill Road", "Trek FX", "red",
                       "6 months")
    assert results[-2].acts[-1]["field"] == "cover"
    assert statements(results[-1]) == ['book_pickup.cover = "Plus"']


def test_comma_parts_go_to_the_field_named_or_shaped_like_its_example(agent):
    _s, results = talk(agent, "I'd like a bike pickup", "Ana Ruiz", "7 Mill Road", "serial is TX4410, a blue Trek FX")
    assert results[-2].acts[-1]["field"] == "bike_model"
    assert set(statements(results[-1])) == {'book_pickup.frame_serial = "TX4410"',
                                            'book_pickup.bike_model = "Trek FX"',
                                            'book_pickup.frame_colour = "blue"'}
    assert {x["rule"] for x in rules(results[-1])} == {"labelled-part"}
    # a part that no field's name or example places: nothing is read in parts
    _s, results = talk(agent, "I'd like a bike pickup", "Ana Ruiz", "7 Mill Road", "serial TX4410, kind of old")
    assert not any(x["rule"] == "labelled-part" for x in rules(results[-1]))


def test_a_name_with_accented_letters_is_a_name(agent):
    _s, [r] = talk(agent, "I'd like a bike pickup. I'm Zoé Ibáñez and I live at 3 Elm Court")
    said = " ".join(statements(r))
    assert 'owner_name="Zoé Ibáñez"' in said and 'home_address="3 Elm Court"' in said


def test_a_contrast_field_reads_its_sides_in_words(agent):
    before = ("I'd like a bike pickup", "Ana Ruiz", "7 Mill Road", "Trek FX", "red", "6 months", "TX4410")
    _s, results = talk(agent, *before, "it's my own one")
    assert results[-2].acts[-1]["field"] == "is_rental"
    assert statements(results[-1]) == ["book_pickup.is_rental = False"]
    _s, results = talk(agent, *before, "from the hire shop actually")
    assert statements(results[-1]) == ["book_pickup.is_rental = True"]
    _s, results = talk(agent, *before, "it's a bike")  # the subject's words say neither side
    assert not statements(results[-1])
