"""Mechanisms found by grouping a development set's failures by kind, pinned on a boat-hire spec written here.

Nothing here uses that set's words: a word shared by two enum options decides neither, a `*_name` field whose
description speaks of a full name holds a person's name span, and a length of time or a position in a list is
never read as a date.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from core_engine.parsers.offline.words.libvalues import not_a_date, parse_date
from core_engine.parsers.offline.words.match import Bag, best_enum
from core_engine.parsers.offline.words.values import find_dates
from core_engine.session.agent import Agent
from core_engine.spec.model import Field

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

TODAY = dt.date(2024, 7, 1)  # a Monday


SPEC = {
    "name": "boat hire", "starting_prompt": "Ahoy! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Hire Boat", "description": "take out a boat for a few hours"},
            {"value": "Refund Payment", "description": "money back for a trip that was cancelled"}),
        {"name": "HireBoat", "kind": "task", "predicate": 'task == "Hire Boat"', "api": "hire_boat", "fields": [
            field("hours", "int", "For how many hours you need the boat"),
            field("skipper_name", description="The skipper's full name"),
            field("skipper_age", "int", "The skipper's age in years"),
            field("skipper_email", description="The skipper's email address"),
            field("is_licensed_skipper", "bool", "Whether the skipper holds a boating licence"),
            field("day", "date", "The day of the trip"),
            field("confirm", "confirm", "Confirm the hire")]},
        {"name": "RefundPayment", "kind": "task", "predicate": 'task == "Refund Payment"', "api": "refund",
         "fields": [field("receipt_code", description="The code on the receipt")]},
    ],
    "apis": [{"name": "hire_boat"}, {"name": "refund"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("boats"), SPEC)


def test_a_word_shared_by_two_options_decides_neither():
    values = [{"value": "Extend Booking", "description": "more nights on a stay"},
              {"value": "New Stay", "description": "a booking for some nights"}]
    plain = Field.model_validate({"name": "task", "type": "Enum", "enum_values": values})
    assert best_enum(plain, Bag.of("I'd like a booking"), minimum=1)[0] == "Extend Booking"  # its name says it
    values[1]["examples"] = ["I'd like a booking for two nights"]
    taught = Field.model_validate({"name": "task", "type": "Enum", "enum_values": values})
    assert best_enum(taught, Bag.of("I'd like a booking"), minimum=1) is None  # the developer taught it for the other
    assert best_enum(taught, Bag.of("extend my booking please"))[0] == "Extend Booking"  # "extend" is its own


def test_a_person_name_field_takes_the_name_span(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "3 hours", "Sam Ortiz, I'm 41")
    assert 'hire_boat.skipper_name = "Sam Ortiz"' in statements(results[-1])
    _s, results = talk(agent, "I'd like to hire a boat", "3", "My name's Ruth Abebe")
    assert statements(results[-1]) == ['hire_boat.skipper_name = "Ruth Abebe"']


def test_a_length_of_time_or_a_list_position_is_no_date():
    assert parse_date("6 days", TODAY) is None and parse_date("a week", TODAY) is None
    assert parse_date("in 6 days", TODAY).value == "2024-07-07"
    assert parse_date("3 days from now", TODAY).value == "2024-07-04"
    assert parse_date("next week", TODAY) is not None  # "next" is no number of weeks
    assert find_dates("let's take the 2nd one", TODAY) == [] and not_a_date("the 2nd one", "the 2nd one")
    assert [d.value for d in find_dates("on the 2nd", TODAY)] == ["2024-07-02"]


def test_a_duration_answer_does_not_fill_a_date(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "4 hours. I'm Lea Moss")
    said = " ".join(statements(results[-1]))
    assert "day=" not in said and "hire_boat.day" not in said



KB_SPEC = {
    "name": "bike shop", "starting_prompt": "Hi! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Rent Bike", "description": "ride one of our bikes for a day",
                 "examples": ["I'd like to hire a bike for the afternoon"]}),
        {"name": "RentBike", "kind": "task", "predicate": 'task == "Rent Bike"', "api": "rent_bike", "fields": [
            field("bike", "Bike", "The bike you want"),
            field("rider_name", description="The rider's full name"),
            field("voucher_code", description="The code on your discount voucher", required=False),
            field("helmet_size", description="Your helmet size, if you want to borrow one", required=False),
            field("confirm", "confirm", "Confirm the rental")]},
        {"name": "bikes", "kind": "kb", "fields": [
            field("id", primary_key=True), field("model"), field("style"), field("price", "float")]},
        {"name": "Bike", "kind": "type", "fields": [
            field("id", primary_key=True), field("model"), field("style"), field("price", "float")]},
    ],
    "apis": [{"name": "rent_bike"}],
}
BIKES = [{"id": "b1", "model": "Trek X500", "style": "mountain", "price": 30.0},
         {"id": "b2", "model": "Gazelle Ultimate", "style": "city", "price": 25.0},
         {"id": "b3", "model": "Brompton C2", "style": "folding", "price": 28.0}]


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("bikes")
    (root / "spec.json").write_text(json.dumps(KB_SPEC))
    (root / "data").mkdir()
    (root / "data" / "bikes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in BIKES))
    return Agent.load(Path(root))


def test_a_code_inside_a_named_row_is_no_code_value(shop):
    _s, [r] = talk(shop, "I'd like to rent the Trek X500 please")
    said = " ".join(statements(r))
    assert "bike=answer(" in said and "X500" not in said.split("bike=answer(")[0] and "voucher_code" not in said
    _s, [r] = talk(shop, "I'd like to rent the Trek X500, voucher SPRING24")
    assert 'voucher_code="SPRING24"' in " ".join(statements(r))


def test_a_name_after_lower_case_lead_in_words_is_the_span(shop):
    s, results = talk(shop, "I'd like to rent the Gazelle Ultimate")
    assert results[0].acts[-1]["field"] == "rider_name"
    r = s.turn("the rider is Tom Baker")
    assert 'rent_bike.rider_name = "Tom Baker"' in statements(r)


def test_a_length_of_time_in_another_unit_is_converted_to_the_fields_unit(agent):
    from core_engine.parsers.offline.words.measures.durations import converted_duration, field_unit
    assert field_unit("stay_nights", "") == "night" and field_unit("hours", "For how many hours you need the boat") == "hour"
    assert converted_duration("two weeks", "day") == 14 and converted_duration("a week", "night") == 7
    assert converted_duration("3 days", "day") is None  # its own unit: the ordinary number reading
    assert converted_duration("a week or two weeks", "day") is None  # two lengths: no guess
    _s, results = talk(agent, "I'd like to hire a boat", "a day")
    assert results[0].acts[-1]["field"] == "hours" and statements(results[-1]) == ["hire_boat.hours = 24"]


def test_an_optional_question_is_declined_by_negating_its_own_word(shop):
    s, results = talk(shop, "I'd like to rent the Gazelle Ultimate", "Tom Baker")
    assert results[-1].acts[-1]["field"] == "voucher_code"
    r = s.turn("no voucher, sorry")
    assert statements(r) == ['rent_bike.voucher_code = "NA"'] and r.acts[-1]["field"] == "helmet_size"
    r = s.turn("I don't have a helmet size")  # "helmet": the field's own word, negated
    assert statements(r) == ['rent_bike.helmet_size = "NA"']


def test_a_request_with_the_subject_left_out_opens_the_row_task(shop):
    _s, [r] = talk(shop, "Need a folding bike please")
    said = statements(r)
    assert said[0] == 'main.task = "Rent Bike"' and any("bike=answer(" in x for x in said)


def test_hedges_alone_name_no_task_and_search_for_nothing(shop):
    _s, [r] = talk(shop, "around the 12th")
    assert not any(x.startswith("main.task") for x in statements(r))
    s, results = talk(shop, "I'd like to rent a bike")
    assert results[-1].acts[-1]["field"] == "bike"
    r = s.turn("um maybe")
    assert not any("answer(" in x for x in statements(r))


def test_the_unit_right_after_a_number_and_a_label_before_it_choose_the_field(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "3 hours, skipper age 41")
    assert results[0].acts[-1]["field"] == "hours"
    assert set(statements(results[-1])) >= {"hire_boat.hours = 3", "hire_boat.skipper_age = 41"}


def test_make_it_with_a_value_of_the_current_task_is_no_switch(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "3 hours", "hold on, make it 5 hours instead")
    assert statements(results[-1]) == ["hire_boat.hours = 5"]


def test_the_tasks_taught_words_are_no_search_words(shop):
    _s, [r] = talk(shop, "I wanna hire a folding bike for the afternoon")
    said = " ".join(statements(r))
    assert 'bike=answer("folding bike")' in said or 'bike=answer("folding")' in said, said


def test_a_row_without_a_name_column_is_in_focus_by_its_first_short_text(shop):
    s, results = talk(shop, "what's your cheapest bike?")
    assert len(results[0].acts[0]["result"]) == 1
    r = s.turn("is it a folding one?")
    assert statements(r) == ['answer("is Gazelle Ultimate a folding one?")']


def test_which_ones_narrows_the_rows_just_shown(shop):
    s, results = talk(shop, "which bikes cost under 35?")
    assert len(results[0].acts[0]["result"]) == 3
    r = s.turn("which ones are folding?")
    assert any(x["rule"] == "focus" for x in rules(r)) and "under 35" in statements(r)[0]


def test_book_that_one_opens_the_row_task_with_the_row_just_shown(shop):
    s, results = talk(shop, "what's your cheapest bike?")
    r = s.turn("ok book that one for me")
    assert statements(r)[0] == 'main.task = "Rent Bike"' and "bike=answer.result[0]" in statements(r)[1]


def rules(result) -> list[dict]:
    return result.trace["parse"]["rules"]


def test_me_and_n_others_counts_the_speaker():
    from core_engine.parsers.offline.words.measures.counts import head_count
    assert head_count("me and three friends") == 4 and head_count("me plus 2 colleagues") == 3
    assert head_count("my sister and I") == 2 and head_count("4") is None and head_count("me and my friend") == 2
    assert head_count("me and my friend and her kids") is None  # the list goes on past one person


def test_there_points_at_the_place_just_shown_but_is_there_does_not():
    from core_engine.parsers.offline import focus
    from core_engine.parsers.offline.opening import tasks
    assert tasks._THERE.search("ok I'd like to reserve there for 4")
    assert not tasks._THERE.search("is there a table for 4") and not tasks._THERE.search("there are four of us")
    assert focus._THERE.search("what's good to order there?") and not focus._THERE.search("there is a problem")


def test_a_typo_correction_replaces_the_one_value_of_its_shape(shop):
    s, results = talk(shop, "I'd like to rent the Gazelle Ultimate", "Tom Baker", "SPRING24")
    assert s.current.get("rent_bike").values["voucher_code"] == "SPRING24"
    r = s.turn("oops, typo, it should be SPRING42")
    assert statements(r) == ['rent_bike.voucher_code = "SPRING42"']
    r = s.turn("oops, it should be 7")  # no filled value of that shape: nothing is guessed
    assert not any("voucher_code" in x for x in statements(r))


def test_a_yes_no_field_is_volunteered_by_its_own_word_in_a_first_person_statement(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "3", "Sam Ortiz", "41")
    assert results[-1].acts[-1]["field"] == "skipper_email"
    s = _s
    r = s.turn("it's sam@example.org and yes I'm a licensed skipper")
    assert set(statements(r)) == {'hire_boat.skipper_email = "sam@example.org"', "hire_boat.is_licensed_skipper = True"}
    _s, results = talk(agent, "I'd like to hire a boat", "3", "Sam Ortiz", "41", "sam@example.org, I'm not a licensed skipper")
    assert "hire_boat.is_licensed_skipper = False" in statements(results[-1])
    _s, results = talk(agent, "I'd like to hire a boat", "3", "Sam Ortiz", "41", "sam@example.org, do I need to be a licensed skipper?")
    assert not any("is_licensed_skipper" in x for x in statements(results[-1]))


def test_the_name_is_the_capitalised_run_after_an_introduction():
    from core_engine.parsers.offline.words.libvalues import name_span
    assert name_span("Name's Ann Lee, ID 0042, and I'm not local") == "Ann Lee"
    assert name_span("I am not sure") is None and name_span("my name is jane doe") == "Jane Doe"


def test_im_and_a_number_is_an_age(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "3", "Sam Ortiz, I'm 41")
    assert set(statements(results[-1])) == {'hire_boat.skipper_name = "Sam Ortiz"', "hire_boat.skipper_age = 41"}


def test_another_row_named_while_one_is_held_replaces_it(shop):
    s, results = talk(shop, "I'd like to rent the Gazelle Ultimate")
    assert s.current.get("rent_bike").values["bike"]["id"] == "b2"
    r = s.turn("hmm actually can I switch to the brompton instead?")
    assert statements(r) == ['rent_bike.bike = answer("Brompton C2")']
    assert s.current.get("rent_bike").values["bike"]["id"] == "b3"
    r = s.turn("how much is the Trek X500?")  # a question about another row changes nothing
    assert not any(x.startswith("rent_bike.bike") for x in statements(r))


def test_so_n_total_changes_the_count_and_n_more_alone_does_not(agent):
    _s, results = talk(agent, "I'd like to hire a boat", "two more than last time, so 5 total")
    assert statements(results[-1]) == ["hire_boat.hours = 5"]
    s, results = talk(agent, "I'd like to hire a boat", "3 hours")
    r = s.turn("oh wait, two more hours")
    assert not any(x == "hire_boat.hours = 2" for x in statements(r))


def test_dates_as_people_type_them():
    assert [d.value for d in find_dates("at the station tmrw", TODAY)] == ["2024-07-02"]
    assert [d.value for d in find_dates("2nite at 8", TODAY)] == ["2024-07-01"]


def test_a_row_named_in_the_request_wins_over_the_row_just_shown(tmp_path):
    spec = json.loads(json.dumps(KB_SPEC))
    bike_type = next(w for w in spec["worksheets"] if w["name"] == "Bike")
    bike_type["actions"] = 'if task != "Rent Bike":\n    propose(RentBike, {"bike": self})'  # the row shown is proposed
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bikes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in BIKES))
    s, results = talk(Agent.load(tmp_path), "what's your cheapest bike?")
    assert results[0].acts[0]["result"][0]["id"] == "b2"
    r = s.turn("I'd like to rent the Brompton please")
    assert 'bike=answer("Brompton C2")' in " ".join(statements(r))
    assert s.current.get("rent_bike").values["bike"]["id"] == "b3"
