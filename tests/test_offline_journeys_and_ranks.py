"""Turns of a removals desk, pinned on a spec and KB written here (no sample, no held-out agent).

The two ends of a move said together ("from X to Y", "I'm at X, going to Y") fill the record's "from" and "to"
address fields, and their words choose no option and search for nothing; a number names an option only beside
its other word ("a 2 room flat", not "for 2 people"); a bare number in an opening is no floor; an ordinal of the
field's own noun is its number ("the second floor", "2nd flr", not the 2nd of the month) and a description
teaches words ("1 for the ground floor"); "there is a lift" answers the lift; "there" is never respelled
"three"; "sat" ending a turn is Saturday; "ok. no wrapping" is a no; the words left of an opening search the
KB only when it has them; a KB place inside an address answer is no search.
"""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent
from core_engine.parsers.offline.words.match import Bag, best_enum
from core_engine.parsers.offline.words.spelling import respelled
from core_engine.parsers.offline.words.values import find_dates
from core_engine.spec.model import Field

from tests.fakes.specs import TODAY, field, statements, talk, task_choice

VAN = [field("id", description="Van id", primary_key=True), field("name", description="Name of the van and crew"),
       field("areas", "List[str]", "Towns the crew serves"), field("languages", "List[str]", "Languages spoken"),
       field("price_per_hour", "float", "Price per hour"), field("notes", description="Notes about the crew")]

DESK = {
    "name": "removals desk", "starting_prompt": "Removals desk, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Removal", "description": "book a van and porters to move your furniture"},
                    {"value": "Cancel Removal", "description": "cancel a removal you booked"}),
        {"name": "BookRemoval", "kind": "task", "predicate": 'task == "Book Removal"', "api": "book_removal",
         "fields": [
             field("pickup_address", description="The address we collect from"),
             field("delivery_address", description="The address we deliver to"),
             field("size", "Enum", "How much there is to move", enum_values=[
                 {"value": "One Room", "description": "a single room or a bedsit"},
                 {"value": "Two Rooms", "description": "two rooms or a small flat"},
                 {"value": "Three Rooms", "description": "three rooms"},
                 {"value": "Whole House", "description": "a house full of furniture"}]),
             field("removal_date", "date", "The day of the removal"),
             field("van", "Van", "The van and crew to book"),
             field("access", "Access", "How the porters get in at the delivery address"),
             field("wrapping", "bool", "Whether you want us to wrap your furniture"),
             field("customer_name", description="The name for the booking"),
             field("confirm", "confirm", "Confirm the booking")]},
        {"name": "Access", "kind": "task", "fields": [
            field("floor", "int", "Which floor it is on (1 for the ground floor)"),
            field("lift", "bool", "Whether there is a lift the porters can use"),
            field("parking", "Enum", "Where the van can stop", enum_values=[
                {"value": "Street", "description": "parking on the street"},
                {"value": "Yard", "description": "a private yard, lane or drive"}])]},
        {"name": "CancelRemoval", "kind": "task", "predicate": 'task == "Cancel Removal"', "api": "cancel_removal",
         "fields": [field("reference", description="The booking reference"), field("confirm", "confirm", "Confirm")]},
        {"name": "vans", "kind": "kb", "description": "Our vans and crews", "fields": VAN},
        {"name": "Van", "kind": "type", "fields": VAN},
    ],
    "apis": [{"name": "book_removal"}, {"name": "cancel_removal"}],
}

VANS = [
    {"id": "v1", "name": "Small Blue Van", "areas": ["Kingsbridge", "Eastfield"], "languages": ["English", "Polish"],
     "price_per_hour": 60.0, "notes": "Good with pianos and narrow stairs."},
    {"id": "v2", "name": "Big Red Lorry", "areas": ["Eastfield", "Harbor Point"], "languages": ["English"],
     "price_per_hour": 95.0, "notes": "Whole houses in one trip."},
    {"id": "v3", "name": "Green Eco Van", "areas": ["Kingsbridge"], "languages": ["English", "Urdu"],
     "price_per_hour": 70.0, "notes": "Electric van, quiet early starts."},
]


@pytest.fixture(scope="module")
def desk(tmp_path_factory) -> Agent:
    import json

    from storage.kb.importer import import_records
    root = tmp_path_factory.mktemp("removals")
    (root / "spec.json").write_text(json.dumps(DESK))
    import_records(root / "kb.sqlite", VANS, "vans", free_text=["notes"])
    return Agent.load(root)


def _holding(desk: Agent, values: str):
    """A session whose booking was opened with `values` (formal keyword arguments), nothing else said."""
    session = desk.new_session(parser="offline", today=TODAY)
    session.inject('main.task = "Book Removal"')
    session.inject(f"book_removal = BookRemoval({values})")
    return session


def _booked(desk: Agent, **more: str):
    """A session whose booking holds everything up to the van; `more` adds fields (formal literals)."""
    session = desk.new_session(parser="offline", today=TODAY)
    extra = "".join(f", {k}={v}" for k, v in more.items())
    session.inject('main.task = "Book Removal"')
    session.inject('book_removal = BookRemoval(pickup_address="1 A St", delivery_address="2 B St", size="One Room", '
                   f'removal_date="2024-07-12", van=answer("Green Eco Van"){extra})')
    return session


def _opened(result) -> str:
    return next(s for s in statements(result) if s.startswith("book_removal"))


def test_the_two_ends_of_a_move_said_together(desk):
    _s, (r1,) = talk(desk, "I'd like to book a removal from 14 Alder Rd, Kingsbridge to 3 Mill Lane in Eastfield "
                           "on the 12th")
    opened = _opened(r1)
    assert 'pickup_address="14 Alder Rd, Kingsbridge"' in opened
    assert 'delivery_address="3 Mill Lane, Eastfield"' in opened and 'removal_date="2024-07-12"' in opened
    assert "parking" not in opened and "answer(" not in opened  # "Lane" picks no option; the places no van


def test_at_one_place_going_to_another():
    from core_engine.parsers.offline.parts.addresses import journey_ends
    fields = [Field(name="pickup_address", type="str", description="The address we collect from"),
              Field(name="delivery_address", type="str", description="The address we deliver to")]
    assert journey_ends("I'm at 22 Birch Lane apt 3, Riverside, going to 9 Quay Street in Harbor Point. "
                        "it's a 2 room flat", fields) == {
        "pickup_address": ("22 Birch Lane apt 3, Riverside", "22 Birch Lane apt 3, Riverside"),
        "delivery_address": ("9 Quay Street, Harbor Point", "9 Quay Street in Harbor Point")}
    for text in ("open from 9 to 5", "from Monday to Friday please", "from the 3rd to the 5th"):
        assert journey_ends(text, fields) == {}
    assert journey_ends("from Leeds to York", fields[:1]) == {}  # one address field: no pair to fill


def test_a_number_names_an_option_only_beside_its_other_word(desk):
    size = desk.spec.worksheet("BookRemoval").field("size")
    assert best_enum(size, Bag.of("it's a 2 room place"))[0] == "Two Rooms"
    assert best_enum(size, Bag.of("a 3 room house"))[0] == "Three Rooms"
    assert best_enum(size, Bag.of("I'm at 12 Elm Road apt 2, it's one room"))[0] == "One Room"
    assert best_enum(size, Bag.of("a one room flat"))[0] == "One Room"  # not Two Rooms, whose description says flat
    assert best_enum(size, Bag.of("for 2 people")) is None


def test_a_bare_number_in_an_opening_is_no_floor(desk):
    _s, (r1,) = talk(desk, "a removal for my office, 8 desks, the van can park in the street")
    said = " ".join(statements(r1))
    assert 'parking="Street"' in said and "floor" not in said  # the 8 of "8 desks" is no floor


@pytest.mark.parametrize("answer, floor", [("it's on the second floor", 2), ("2nd flr", 2), ("ground floor", 1),
                                           ("first floor. no wait, sorry, it's the 2nd floor", 2)])
def test_a_floor_said_as_an_ordinal_or_as_the_description_teaches(desk, answer, floor):
    session = _booked(desk)
    assert session.current.last_acts[-1]["field"] == "floor"
    result = session.turn(answer)
    assert statements(result) == [f"access.floor = {floor}"], statements(result)


def test_there_is_a_lift_answers_the_lift_beside_the_floor(desk):
    session = _booked(desk)
    fork = session.fork()
    assert statements(session.turn("4th floor. there IS a lift but it's tiny")) == ["access.floor = 4",
                                                                                      "access.lift = True"]
    assert statements(fork.turn("4th floor, there's no lift")) == ["access.floor = 4", "access.lift = False"]


def test_there_is_never_respelled_three(desk):
    assert respelled("yes, there is a lift", desk.spec)[1] == []


def test_a_short_day_ending_the_turn_is_that_day():
    assert [d.value for d in find_dates("need a van sat", TODAY)] == ["2024-07-06"]
    for text in ("we sat", "then I sat down", "out in the sun"):
        assert find_dates(text, TODAY) == []
    assert find_dates("it's on the 2nd floor", TODAY) == []


def test_ok_then_no_to_the_flag_asked_is_a_no(desk):
    session = _booked(desk, access='Access(floor=1, lift=False, parking="Street")')
    assert session.current.last_acts[-1]["field"] == "wrapping"
    assert statements(session.turn("ok. no wrapping, thanks")) == ["book_removal.wrapping = False"]


def test_the_words_left_of_an_opening_search_only_what_the_kb_has(desk):
    _s, (r1,) = talk(desk, "I want to book a removal, my landlord sold the building")
    assert 'main.task = "Book Removal"' in statements(r1) and "answer(" not in " ".join(statements(r1))
    _s, (r2,) = talk(desk, "I want to book a removal with Polish speaking porters")
    assert "van=answer(" in _opened(r2)


def test_a_kb_place_inside_the_address_asked_is_no_search(desk):
    session = _holding(desk, 'removal_date="2024-07-12"')
    assert session.current.last_acts[-1]["field"] == "pickup_address"
    result = session.turn("18 elm st eastfield")
    assert statements(result) == ['book_removal.pickup_address = "18 Elm St Eastfield"'], statements(result)  # typed in lower case, written with capitals


def test_an_address_answer_then_a_question_for_the_kb(desk):
    session = _holding(desk, 'removal_date="2024-07-12"')
    result = session.turn("From 77 Canal Street, Kingsbridge. Before we go further, do you charge extra on weekends?")
    assert statements(result) == ['book_removal.pickup_address = "77 Canal Street, Kingsbridge"',
                                  'answer("Before we go further, do you charge extra on weekends?")']


@pytest.mark.parametrize("answer, value", [("to 402 fairview blvd", "402 Fairview Blvd"),
                                           ("ok, I can live with that. To 5 Lakeshore Drive in Lakeview.",
                                            "5 Lakeshore Drive, Lakeview")])
def test_an_address_led_in_or_in_a_later_sentence(desk, answer, value):
    session = _holding(desk, 'pickup_address="1 A St", removal_date="2024-07-12"')
    assert session.current.last_acts[-1]["field"] == "delivery_address"
    assert statements(session.turn(answer)) == [f'book_removal.delivery_address = "{value}"']


def test_a_story_and_a_question_about_what_you_have_is_asked_first(desk):
    _s, (r1,) = talk(desk, "Good afternoon. We are selling our house and moving nearer our daughter. Do you have "
                           "porters who speak Polish?")
    assert statements(r1) == ['answer("porters who speak Polish?")']
    _s, (r2,) = talk(desk, "We are moving in August. Can I get a removal booked for the 12th?")
    # "the 12th" of a turn that names August is 12 August (session 14, helper D: the one month a turn names)
    assert statements(r2) == ['main.task = "Book Removal"', 'book_removal = BookRemoval(removal_date="2024-08-12")']


def test_a_name_to_the_address_question_is_the_name(desk):
    session = _holding(desk, 'pickup_address="1 A St", removal_date="2024-07-12"')
    assert session.current.last_acts[-1]["field"] == "delivery_address"
    assert statements(session.turn("Aiko Tanaka")) == ['book_removal.customer_name = "Aiko Tanaka"']


def test_a_refusal_of_something_else_refuses_nothing_asked(desk):
    session = _holding(desk, 'pickup_address="1 A St", delivery_address="2 B St"')
    assert session.current.last_acts[-1]["field"] == "size"
    result = session.turn("I'd rather not give my number tbh")
    assert not any("NA" in s for s in statements(result))


def test_a_remark_after_a_question_answers_nothing(desk):
    session = _holding(desk, 'removal_date="2024-07-12"')
    result = session.turn("do you charge extra on weekends? I hate surprises")
    assert not any(s.startswith("book_removal.pickup_address") for s in statements(result))
    result = session.turn("From 77 Canal Street, Kingsbridge. Do you charge extra on weekends? the 12th is a friday")
    assert statements(result) == ['book_removal.pickup_address = "77 Canal Street, Kingsbridge"',
                                  'answer("Do you charge extra on weekends?")']


def test_the_noun_an_option_describes_and_a_price_asked_search_nothing(desk):
    _s, (r1,) = talk(desk, "I'd like to book a removal for a one room bedsit, from 14 Alder Rd, Kingsbridge to "
                           "3 Mill Lane in Eastfield")
    assert 'size="One Room"' in _opened(r1) and "answer(" not in _opened(r1)
    _s, (r2,) = talk(desk, "Can I get a price for moving a one room flat? Kingsbridge to the Harbor Point.")
    opened = _opened(r2)
    assert 'pickup_address="Kingsbridge"' in opened and 'delivery_address="Harbor Point"' in opened
    assert "answer(" not in opened  # "price" names a numeric column, but nothing filters on it
    _s, (r3,) = talk(desk, "I want to book a removal with a van under 65 an hour")
    assert "van=answer(" in _opened(r3)


def test_a_sigh_before_the_yes(desk):
    session = _booked(desk, access='Access(floor=1, lift=False, parking="Street")', wrapping="False",
                      customer_name='"Ana Ruiz"')
    assert session.current.last_acts[-1]["field"] == "confirm"
    assert statements(session.turn("ugh ok. yes book it")) == ["book_removal.confirm = True"]


def test_of_several_dates_the_one_that_would_suit(desk):
    session = _holding(desk, 'pickup_address="1 A St", delivery_address="2 B St", size="One Room"')
    assert session.current.last_acts[-1]["field"] == "removal_date"
    result = session.turn("We get the keys on the 30th of this month, so Monday the 2nd of September would suit us")
    assert statements(result) == ['book_removal.removal_date = "2024-09-02"']


def test_an_address_with_its_town_after_in(desk):
    session = _holding(desk, 'pickup_address="1 A St", removal_date="2024-07-12"')
    assert statements(session.turn("Flat 12, Willow Court, 7 Mill Street in Westhill.")) == [
        'book_removal.delivery_address = "Flat 12, Willow Court, 7 Mill Street, Westhill"']
