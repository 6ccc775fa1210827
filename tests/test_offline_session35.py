"""Turn shapes from session 35's reading of the development agents' misreadings, pinned on a bakery's spec written
here (not a sample, not a development agent): counts and options left over after the rule that read a turn, and
counts of people said with the speaker or hedged. One test per mechanism; each fails without it, except the guards,
which keep a rule from reaching too far.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_with_kb, field, statements, talk, task_choice

SPEC = {
    "name": "oven_door_bakery", "starting_prompt": "Hello, Oven Door Bakery.",
    "description": "A bakery that takes bread orders for collection, celebration cakes and tasting sessions.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Order Bread", "description": "order loaves of bread to collect",
                     "examples": ["I'd like to order some bread"]},
                    {"value": "Order Cake", "description": "order a celebration cake", "examples": ["a birthday cake"]},
                    {"value": "Book Tasting", "description": "book a cake tasting session for a group"},
                    {"value": "Order Catering", "description": "order trays of sandwiches and pastries for an event"},
                    {"value": "Cancel Order", "description": "cancel an order you already placed"}),
        {"name": "OrderBread", "kind": "task", "predicate": 'main.task == "Order Bread"', "fields": [
            field("loaf", "Enum", "Which loaf", enum_values=[{"value": "Sourdough"}, {"value": "Rye"},
                                                            {"value": "Seeded Batch"}]),
            field("quantity", "int", "How many you would like"),
            field("collection_day", "date", "The day you will collect"),
            field("customer_name", "str", "Your name"),
            field("loyalty_number", "str", "Your loyalty card number, like LC123456"),
            field("confirm", "confirm", "Place the order")]},
        {"name": "OrderCake", "kind": "task", "predicate": 'main.task == "Order Cake"', "fields": [
            field("flavour", "Enum", "The flavour of the sponge", enum_values=[
                {"value": "Chocolate"}, {"value": "Lemon"}, {"value": "Carrot"}]),
            field("number_of_tiers", "int", "How many tiers the cake has"),
            field("message", "str", "The message piped on top", required=False),
            field("collection_day", "date", "The day you will collect"),
            field("customer_name", "str", "Your name"),
            field("confirm", "confirm", "Place the order")]},
        {"name": "BookTasting", "kind": "task", "predicate": 'main.task == "Book Tasting"', "fields": [
            field("group_size", "int", "How many people are coming"),
            field("youngest_age", "int", "The age of the youngest person in the group"),
            field("tasting_day", "date", "The day of the tasting"),
            field("contact_name", "str", "Your name"),
            field("confirm", "confirm", "Book the tasting")]},
        {"name": "OrderCatering", "kind": "task", "predicate": 'main.task == "Order Catering"', "fields": [
            field("platter", "Enum", "Which platter", enum_values=[{"value": "Sandwiches"}, {"value": "Pastries"}]),
            field("trays", "int", "How many trays (one tray feeds about ten people)"),
            field("event_day", "date", "The day of the event"),
            field("contact_name", "str", "Your name"),
            field("confirm", "confirm", "Place the order")]},
        {"name": "CancelOrder", "kind": "task", "predicate": 'main.task == "Cancel Order"', "fields": [
            field("order_reference", "str", "Your order reference, like OD-1234"),
            field("confirm", "confirm", "Cancel the order")]},
        {"name": "cakes", "kind": "kb", "fields": [field("id"), field("name"), field("flavour"), field("serves", "int")]},
    ],
}
CAKES = [{"id": f"c{i}", "name": n, "flavour": f, "serves": s} for i, (n, f, s) in enumerate([
    ("Midnight Fudge", "Chocolate", 12), ("Lemon Drizzle Tower", "Lemon", 20), ("Garden Carrot", "Carrot", 10)])]


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "bakery", SPEC, {"cakes": (CAKES, [])})


def _last(agent, *turns):
    _s, results = talk(agent, *turns)
    return statements(results[-1])


BREAD = "I'd like to order some bread"


# -- counts left over beside what another rule read ---------------------------------------------------------------


def test_a_count_before_an_option_of_the_record_goes_to_its_count_field(agent):
    assert _last(agent, BREAD, "2 seeded please") == ['order_bread.loaf = "Seeded Batch"', "order_bread.quantity = 2"]


def test_a_count_before_an_option_said_as_a_change(agent):
    assert _last(agent, BREAD, "rye", "3 sourdoughs actually") == \
        ['order_bread.loaf = "Sourdough"', "order_bread.quantity = 3"]


def test_n_of_them_after_the_option_named(agent):
    assert _last(agent, BREAD, "i'll take the rye, 2 of them") == ['order_bread.loaf = "Rye"', "order_bread.quantity = 2"]


def test_just_the_one_with_the_fields_own_noun(agent):
    assert _last(agent, "I'd like to order a chocolate cake, just the one tier") == \
        ['main.task = "Order Cake"', 'order_cake = OrderCake(flavour="Chocolate", number_of_tiers=1)']


# -- counts of people ------------------------------------------------------------------------------------------


def test_a_hedged_group_size_after_of(agent):
    assert _last(agent, "can we book a tasting, we're a book club of about 12") == \
        ['main.task = "Book Tasting"', "book_tasting = BookTasting(group_size=12)"]


def test_me_and_my_two_kids_is_three_and_no_age(agent):
    assert _last(agent, "can I book a tasting for me and my two kids") == \
        ['main.task = "Book Tasting"', "book_tasting = BookTasting(group_size=3)"]


# -- guards ----------------------------------------------------------------------------------------------------


def test_guard_people_are_never_trays_that_each_feed_ten(agent):
    said = _last(agent, "I'd like to order catering for about 40 people, sandwiches please")
    assert said == ['main.task = "Order Catering"', 'order_catering = OrderCatering(platter="Sandwiches")']


def test_guard_a_number_of_other_things_counts_no_people(agent):
    assert _last(agent, "can we book a tasting, there are 3 cakes we'd like to try") == ['main.task = "Book Tasting"']


def test_guard_a_number_inside_a_knowledge_question_is_no_count(agent):
    said = _last(agent, "can we book a tasting? do you have cakes for 10 people?")
    assert not any("group_size" in s for s in said), said


def test_guard_a_count_already_given_is_not_given_again(agent):
    assert _last(agent, BREAD, "Sourdough", "friday", "Ana Silva. make it 4 loaves") == ["order_bread.quantity = 4"]


def test_guard_a_count_in_a_message_is_no_tier(agent):
    said = _last(agent, "I'd like to order a cake", "lemon", "2", "saturday", "Ana Silva, and can it say Happy 40th Dad")
    assert not any("tiers" in s for s in said), said


# -- guards found by the attack pass (each was a wrong value in the first version) --------------------------------


@pytest.mark.parametrize("said", ["2 seeded, no actually just 1", "the sourdough, 2 of them were burnt last time",
                                  "I had 2 rye last week", "not 2 rye"])
def test_guard_a_count_of_an_option_only_when_said_plainly_and_alone(agent, said):
    assert not any("quantity = 2" in s for s in _last(agent, BREAD, said)), said


def test_guard_a_count_field_that_names_another_thing_takes_no_option_count(agent):
    said = _last(agent, "I'd like to order catering", "sandwiches, 3 of them")  # trays count trays, not the option
    assert said == ['order_catering.platter = "Sandwiches"'], said


@pytest.mark.parametrize("said", ["can we book a tasting, our budget is of about 150",
                                  "can we book a tasting for around 60 pounds"])
def test_guard_a_hedged_number_is_a_group_only_after_a_group_word(agent, said):
    assert not any("group_size" in s for s in _last(agent, said)), said


@pytest.mark.parametrize("said", ["last time it was me and my two kids, this time it's just me",
                                  "can I book a tasting for me and my two kids and their dad"])
def test_guard_me_and_my_two_kids_only_as_the_whole_group_now(agent, said):
    assert not any("group_size=3" in s or "group_size = 3" in s for s in _last(agent, said)), said


def test_a_name_with_accents_is_a_name(agent):
    assert _last(agent, BREAD, "rye", "2", "friday", "Lucía Fernández") == ['order_bread.customer_name = "Lucía Fernández"']


# -- numbers that name, date or price something are no counts (older false readings the attack pass found) --------

HOTEL = {
    "name": "quayside_rooms", "starting_prompt": "Hello, Quayside Rooms.",
    "description": "A small hotel that books rooms and tables in its restaurant.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Book Room", "description": "book a hotel room", "examples": ["I'd like a room"]},
                    {"value": "Book Table", "description": "book a table in the restaurant"}),
        {"name": "BookRoom", "kind": "task", "predicate": 'main.task == "Book Room"', "fields": [
            field("room_type", "Enum", "The kind of room", enum_values=[
                {"value": "Single"}, {"value": "Double"}, {"value": "Twin"}]),
            field("number_of_rooms", "int", "How many rooms"),
            field("guests", "int", "How many guests are staying"),
            field("nights", "int", "The nights you are staying"),
            field("arrival_date", "date", "The day you arrive"),
            field("guest_name", "str", "Your name")]},
        {"name": "BookTable", "kind": "task", "predicate": 'main.task == "Book Table"', "fields": [
            field("party_size", "int", "How many people are eating"),
            field("area", "Enum", "Where you would like to sit", enum_values=[
                {"value": "Terrace"}, {"value": "Window"}]),
            field("table_date", "date", "The day of the booking"),
            field("guest_name", "str", "Your name")]},
        {"name": "rooms", "kind": "kb", "fields": [field("id"), field("name"), field("price", "int"),
                                                    field("suits")]},
    ],
}
ROOMS = [{"id": "r1", "name": "Harbour Double", "price": 120, "suits": "Adults"},
         {"id": "r2", "name": "Garden Twin", "price": 95, "suits": "Families"}]


@pytest.fixture(scope="module")
def hotel(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "quayside", HOTEL, {"rooms": (ROOMS, [])})


@pytest.mark.parametrize("said, wrong", [("Room 12 please, a double", "number_of_rooms"),
                                         ("a double for 120 a night", "nights"),
                                         ("a double, unit 4 if it's free", "number_of_rooms")])
def test_a_label_or_a_rate_is_no_count(hotel, said, wrong):
    statements_ = _last(hotel, "I'd like to book a room", said)
    assert 'book_room.room_type = "Double"' in statements_ and not any(wrong in s for s in statements_), statements_


def test_the_group_with_the_speaker_leaves_the_rest_of_the_answer_to_read(hotel):
    assert sorted(_last(hotel, "I'd like to book a table", "window, me and my 3 friends")) == \
        ['book_table.area = "Window"', "book_table.party_size = 4"]


def test_guard_a_quantity_that_looks_like_a_year_is_still_a_count(hotel):
    assert _last(hotel, "I'd like to book a room", "a double", "2000") == ["book_room.number_of_rooms = 2000"]


def test_a_year_after_since_is_no_count(hotel):
    assert _last(hotel, "I'd like to book a room", "a double, since 2015 we come every year, 2 rooms") == \
        ['book_room.room_type = "Double"', "book_room.number_of_rooms = 2"]


def test_people_are_no_count_of_rows_even_when_the_kb_names_them(hotel):
    said = _last(hotel, "I'd like to book a double room for 2 adults and 1 child")  # "Adults": a KB value
    assert not any("number_of_rooms" in s for s in said), said


def test_an_age_told_is_no_answer_to_a_count(hotel):
    assert _last(hotel, "I'd like to book a room", "a double", "ha, we're all fourteen") == []


# -- a count of those "coming" counts people ------------------------------------------------------------------------

WALL = {
    "name": "crag_wall", "starting_prompt": "Hello, Crag Wall.",
    "description": "An indoor climbing wall that books climbing sessions.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Book Session", "description": "book a climbing session"},
                    {"value": "Cancel Session", "description": "cancel a session you booked"}),
        {"name": "BookSession", "kind": "task", "predicate": 'main.task == "Book Session"', "fields": [
            field("session_day", "date", "The day of the session"),
            field("number_of_climbers", "int", "How many climbers are coming"),
            field("booker_name", "str", "Your name")]},
        {"name": "CancelSession", "kind": "task", "predicate": 'main.task == "Cancel Session"', "fields": [
            field("booking_reference", "str", "Your booking reference")]},
    ],
}


@pytest.fixture(scope="module")
def wall(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "wall", WALL, {})


def test_those_coming_are_people_so_the_speaker_counts_too(wall):
    said = _last(wall, "can I book a climbing session on friday for me and my 2 kids")
    assert said[0] == 'main.task = "Book Session"' and "number_of_climbers=3" in said[1], said
