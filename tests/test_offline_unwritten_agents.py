"""Turns of agents the offline parser was never written for (session 8, helper H): references shaped like an
example with runs of letters and digits ("like PL40 XRT"), and such a reference beating a "don't know" said beside
it."""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "boat moorings", "starting_prompt": "Harbour office, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-03-05"},
    "worksheets": [
        task_choice({"value": "Rent Mooring", "description": "a berth in the harbour for a boat, by the night"},
                    {"value": "Order Fuel", "description": "diesel delivered to a moored boat"}),
        {"name": "RentMooring", "kind": "task", "predicate": 'task == "Rent Mooring"', "api": "rent", "fields": [
            field("hull_number", description="The hull number painted on the bow, like PL40 XRT"),
            field("arrival_date", "date", "The day you arrive"), field("arrival_time", "time", "When you arrive"),
            field("nights", "int", "How many nights"),
            field("skipper_name", description="Your name"),
            field("mobile", description="A mobile the harbour master can text", required=False),
            field("confirm", "confirm", "Confirm the mooring")]},
        {"name": "OrderFuel", "kind": "task", "predicate": 'task == "Order Fuel"', "api": "fuel",
         "fields": [field("litres", "int", "How many litres")]},
        {"name": "berths", "kind": "kb", "description": "The berths", "fields": [
            field("id", primary_key=True), field("name"), field("length_m", "float")]},
    ],
    "apis": [{"name": "rent"}, {"name": "fuel"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("moorings"), SPEC)


@pytest.mark.parametrize("answer, value", [("PL52 KDM", "PL52 KDM"), ("its pl52kdm", "PL52 KDM"),
                                           ("hang on... ok it's TR07 WNA", "TR07 WNA"),
                                           ("dont know it by heart, it's on the bow... GH19 LOP", "GH19 LOP")])
def test_a_reference_shaped_like_an_example_of_letter_and_digit_runs(agent, answer, value):
    s, results = talk(agent, "I'd like to rent a mooring")
    assert results[0].acts[-1]["field"] == "hull_number"
    assert statements(s.turn(answer)) == [f'rent_mooring.hull_number = "{value}"']


@pytest.mark.parametrize("said, value", [("drop it off at 9", "09:00"), ("next monday around 10", "10:00"),
                                         ("at 7", "19:00"), ("8 o'clock", "20:00"), ("at 10 tonight", "22:00"),
                                         ("half 10", "10:30")])
def test_a_bare_hour_of_nine_or_ten_is_a_morning(said, value):
    from core_engine.parsers.offline.words.values import find_times
    assert [t.value for t in find_times(said)][:1] == [value]


@pytest.mark.parametrize("said, day", [("14/07/88", "1988-07-14"), ("great. 30/01/2007", "2007-01-30"),
                                       ("fine, 09-12-1990", "1990-12-09"), ("7/5/24", "2024-07-05"),
                                       ("thursday 19th at 2pm", "2024-09-19"), ("fri 20th at 5pm", "2024-09-20")])
def test_day_first_numeric_dates_and_a_weekday_before_a_bare_ordinal(said, day):
    import datetime as dt
    from core_engine.parsers.offline.words.values import find_dates
    assert [d.value for d in find_dates(said, dt.date(2024, 9, 10))] == [day]


def test_a_dotted_clock_right_after_the_day_is_a_time():
    from core_engine.parsers.offline.words.values import find_times
    assert [t.value for t in find_times("26 sept, 12.30")] == ["12:30"]
    assert [t.value for t in find_times("it was 12.30")] == []  # no day, no "at": maybe money or a score


def test_a_time_after_a_comma_beside_the_day_asked_and_a_date_beside_small_talk(agent):
    s, _results = talk(agent, "I'd like to rent a mooring", "PL52 KDM")
    assert statements(s.turn("26 sept, 12.30")) == ['rent_mooring.arrival_date = "2024-09-26"',
                                                    'rent_mooring.arrival_time = "12:30"']
    s, _results = talk(agent, "I'd like to rent a mooring", "PL52 KDM")
    assert statements(s.turn("great. 14/07/2024")) == ['rent_mooring.arrival_date = "2024-07-14"']


def _at_the_mobile(agent):
    s, results = talk(agent, "I'd like to rent a mooring", "PL52 KDM", "26 sept, 12.30", "3 nights", "Ann Lee")
    assert results[-1].acts[-1]["field"] == "mobile"
    return s


def test_no_thanks_to_an_optional_question_declines_it_and_lovely_yes_confirms(agent):
    s = _at_the_mobile(agent)
    assert statements(s.turn("no thanks")) == ['rent_mooring.mobile = "NA"']
    assert statements(s.turn("lovely, yes")) == ["rent_mooring.confirm = True"]


@pytest.mark.parametrize("said", ["you know what, forget it, I'll leave it for now",
                                  "oh ok, never mind then, I'll come back in a few months"])
def test_a_cancel_with_then_or_a_plan_to_leave_it_asks_to_stop(agent, said):
    s, _results = talk(agent, "I'd like to rent a mooring", "PL52 KDM")
    r = s.turn(said)
    assert statements(r) == [] and "stop" in r.response.lower()
    assert statements(s.turn("yes"))[0] == "exitws(rent_mooring)"


SPENT = {
    "name": "bakery", "starting_prompt": "Bakery counter, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-03-05"},
    "worksheets": [
        task_choice({"value": "Order Cake", "description": "a celebration cake baked to order"},
                    {"value": "Give Feedback", "description": "tell us about something you bought"}),
        {"name": "OrderCake", "kind": "task", "predicate": 'task == "Order Cake"', "api": "cake", "fields": [
            field("cake", "Enum", "Which cake", enum_values=[
                {"value": "Sponge Cake", "description": "a light vanilla sponge with jam"},
                {"value": "Fruit Loaf", "description": "a rich loaf with dried fruit and brandy"},
                {"value": "Chocolate Fudge", "description": "dark chocolate layers with fudge icing"}]),
            field("servings", "int", "How many people it feeds")]},
        {"name": "GiveFeedback", "kind": "task", "predicate": 'task == "Give Feedback"', "api": "feedback",
         "fields": [field("comments", description="What you want to tell us")]},
    ],
    "apis": [{"name": "cake"}, {"name": "feedback"}],
}


@pytest.fixture(scope="module")
def bakery(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("bakery"), SPENT)


def test_the_words_that_open_a_task_choose_no_option_in_it(bakery):
    _s, results = talk(bakery, "order a cake please")
    assert statements(results[0]) == ['main.task = "Order Cake"']
    _s, results = talk(bakery, "I'd like to order a cake, the fruit loaf")
    assert 'order_cake.cake = "Fruit Loaf"' in statements(results[0]) or \
        any('cake="Fruit Loaf"' in s for s in statements(results[0]))



LOCKERS = {
    "name": "bike lockers", "starting_prompt": "Bike locker desk, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-03-05"},
    "worksheets": [
        task_choice({"value": "Rent Locker", "description": "a locked box to keep a bicycle in at the station"},
                    {"value": "Report Theft", "description": "a bike was stolen from a locker"}),
        {"name": "RentLocker", "kind": "task", "predicate": 'task == "Rent Locker"', "api": "locker", "fields": [
            field("bike", "BikeDetails", "Your bike"), field("weeks", "int", "For how many weeks")]},
        {"name": "BikeDetails", "kind": "task", "predicate": 'task == "Rent Locker"', "fields": [
            field("frame_number", description="The number stamped under the frame, like WB2291 K"),
            field("first_rental", "bool", "Whether this is your first rental with us")]},
        {"name": "ReportTheft", "kind": "task", "predicate": 'task == "Report Theft"', "api": "theft",
         "fields": [field("locker_number", "int", "The locker's number")]},
    ],
    "apis": [{"name": "locker"}, {"name": "theft"}],
}


@pytest.fixture(scope="module")
def lockers(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("lockers"), LOCKERS)


def test_an_opening_tells_the_nested_records_flag_by_its_name_and_its_shaped_reference(lockers):
    _s, results = talk(lockers, "I'm new here, this is my first rental. I'd like to rent a locker, frame WB5512 Q")
    said = " ".join(statements(results[0]))
    assert 'first_rental=True' in said and 'frame_number="WB5512 Q"' in said
    assert results[0].acts[-1]["field"] == "weeks"


def test_a_request_phrased_as_a_question_opens_the_task_and_a_hedged_clock_answers(agent):
    _s, results = talk(agent, "hi there, can i get my boat booked in for 3 nights?")
    assert statements(results[0])[0] == 'main.task = "Rent Mooring"'
    s, _results = talk(agent, "I'd like to rent a mooring", "PL52 KDM", "tomorrow")
    assert statements(s.turn("first thing, like 8.30?")) == ['rent_mooring.arrival_time = "08:30"']


@pytest.mark.parametrize("said, value", [("ford fiesta", "Ford Fiesta"), ("ok fine. it's a Nissan Qashqai", "Nissan Qashqai"),
                                         ("BMW 3 series, black", "BMW 3 Series"), ("a brompton", "Brompton")])
def test_a_make_or_model_is_a_proper_name_without_its_lead_in(said, value):
    from core_engine.parsers.offline.words.answers import is_make_field, make_value
    from core_engine.spec.model import Field
    assert is_make_field(Field(name="bike", type="str", description="The make and model of your bike"))
    assert not is_make_field(Field(name="notes", type="str", description="Anything else we should know"))
    assert not is_make_field(Field(name="device", type="str", description="The device, e.g. a laptop model"))
    assert make_value(said) == value


KEYS = {
    "name": "key cutting", "starting_prompt": "Key desk, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-03-05"},
    "worksheets": [
        task_choice({"value": "Cut Key", "description": "a copy of a house or car key"},
                    {"value": "Collect Order", "description": "pick up keys that were ordered earlier"}),
        {"name": "CutKey", "kind": "task", "predicate": 'task == "Cut Key"', "api": "cut", "fields": [
            field("copies", "int", "How many copies"), field("customer_name", description="Your name")]},
        {"name": "CollectOrder", "kind": "task", "predicate": 'task == "Collect Order"', "api": "collect", "fields": [
            field("order_ref", description="The order reference, like KC-40417"),
            field("pickup_day", "date", "When you come in"),
            field("confirm", "confirm", "Confirm the pickup")]},
    ],
    "apis": [{"name": "cut"}, {"name": "collect"}],
}


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("keys"), KEYS)


def test_a_reference_only_the_other_task_takes_said_with_a_change_of_mind_switches(keys):
    s, _results = talk(keys, "I need a key cut")
    said = statements(s.turn("oh wait sorry, I already ordered them, I just need to pick them up. ref KC-31877"))
    assert said[:2] == ["exitws(cut_key)", 'main.task = "Collect Order"'] and 'KC-31877' in said[-1]


def test_a_switch_cue_with_the_other_tasks_name_word_switches(tmp_path):
    spec = {**KEYS, "worksheets": [
        task_choice({"value": "Book Fitting", "description": "an appointment to have a lock fitted"},
                    {"value": "Change Fitting", "description": "move or reschedule an appointment you already have"}),
        {"name": "BookFitting", "kind": "task", "predicate": 'task == "Book Fitting"', "api": "cut",
         "fields": [field("customer_name", description="Your name")]},
        {"name": "ChangeFitting", "kind": "task", "predicate": 'task == "Change Fitting"', "api": "collect",
         "fields": [field("fitting_ref", description="The reference, like LF-40417")]}]}
    s, _results = talk(agent_of(tmp_path, spec), "can I reschedule my fitting")
    said = statements(s.turn("i don't have the reference, i lost the email. can i just book a new one instead?"))
    assert said[:2] == ["exitws(change_fitting)", 'main.task = "Book Fitting"']


def test_a_value_of_a_fields_shape_at_the_summary_replaces_it(keys):
    s, results = talk(keys, "I want to collect my order", "KC-55190", "tomorrow")
    assert results[-1].acts[-1]["field"] == "confirm"
    assert statements(s.turn("sorry, the ref is KC-55109, I mixed up the numbers")) == [
        'collect_order.order_ref = "KC-55109"']


def test_a_name_after_my_relation_is_someone_elses_and_from_me_names_the_speaker(tmp_path):
    spec = {**KEYS, "worksheets": [
        task_choice({"value": "Send Flowers", "description": "a bouquet delivered to someone"},
                    {"value": "Track Delivery", "description": "where is a bouquet that was sent"}),
        {"name": "SendFlowers", "kind": "task", "predicate": 'task == "Send Flowers"', "api": "cut", "fields": [
            field("recipient_name", description="Who the flowers are for"),
            field("sender_name", description="Your name"), field("card_message", description="What the card says")]},
        {"name": "TrackDelivery", "kind": "task", "predicate": 'task == "Track Delivery"', "api": "collect",
         "fields": [field("order_ref", description="The order reference, like FL-40417")]}]}
    _s, results = talk(agent_of(tmp_path, spec), "can I send flowers to my mum Rosa Diaz? they're from me, Tom Diaz")
    said = " ".join(statements(results[0]))
    assert 'recipient_name="Rosa Diaz"' in said and 'sender_name="Tom Diaz"' in said


def test_an_option_said_after_nicer_than_is_rejected():
    from core_engine.parsers.offline.words.negation import negations
    assert [n.what for n in negations("could you post it? a card would be nicer than an email")] == ["email"]


def test_two_bare_hours_move_the_clock_time_given_before(agent):
    s, _results = talk(agent, "I'd like to rent a mooring", "PL52 KDM", "friday at 2pm")
    assert statements(s.turn("sorry can we do 3 instead of 2")) == ['rent_mooring.arrival_time = "15:00"']


def test_an_opening_names_the_make_of_the_nested_record(tmp_path):
    import copy
    spec = copy.deepcopy(LOCKERS)
    spec["worksheets"][2]["fields"].append(field("bike_make", description="The make and model of the bike"))
    _s, results = talk(agent_of(tmp_path, spec), "I'd like to rent a locker for 3 weeks, I've got a Brompton Electric")
    assert 'bike=BikeDetails(bike_make="Brompton Electric")' in " ".join(statements(results[0]))


def test_a_first_field_is_no_when_the_speaker_did_it_before_and_the_nested_person_is_introduced(tmp_path):
    spec = {**KEYS, "worksheets": [
        task_choice({"value": "Book Class", "description": "a place on a pottery class"},
                    {"value": "Buy Clay", "description": "a bag of clay to take home"}),
        {"name": "BookClass", "kind": "task", "predicate": 'task == "Book Class"', "api": "cut", "fields": [
            field("student", "Student", "Who comes to the class"), field("weeks", "int", "How many weeks")]},
        {"name": "Student", "kind": "task", "predicate": 'task == "Book Class"', "fields": [
            field("full_name", description="Your full name"),
            field("first_class", "bool", "Whether this is your first class with us")]},
        {"name": "BuyClay", "kind": "task", "predicate": 'task == "Buy Clay"', "api": "collect",
         "fields": [field("kilos", "int", "How many kilos")]}]}
    agent = agent_of(tmp_path, spec)
    _s, results = talk(agent, "Hi there, I'm a regular student, Mia Clarke, can I book a class for 4 weeks please")
    said = " ".join(statements(results[0]))
    assert 'full_name="Mia Clarke"' in said and "first_class=False" in said
    s, results = talk(agent, "can I book a class please")
    assert results[0].acts[-1]["field"] == "full_name"
    assert "student.first_class = False" in statements(s.turn("Tom Hart, I've been here before"))


def test_a_question_about_the_question_and_a_bare_eh_are_answered_honestly(agent):
    s, _results = talk(agent, "I'd like to rent a mooring")
    r = s.turn("why do you need that?")
    assert statements(r) == [] and "hull number painted on the bow" in r.response
    assert r.acts[-1]["field"] == "hull_number"
    r = s.turn("eh?")
    assert statements(r) == [] and "understand" in r.response and r.acts[-1]["field"] == "hull_number"


def test_an_answer_of_another_fields_shape_or_kind_goes_there_not_to_the_make_asked(tmp_path):
    import copy
    spec = copy.deepcopy(LOCKERS)
    spec["worksheets"][2]["fields"][:0] = [
        field("bike_make", description="The make and model of the bike"),
        field("frame_size", "Enum", "The size of the bike", enum_values=[
            {"value": "Small Frame", "description": "a folding or children's bike"},
            {"value": "Large Frame", "description": "a road, touring or mountain bike for an adult"}])]
    s, results = talk(agent_of(tmp_path, spec), "I'd like to rent a locker")
    assert results[0].acts[-1]["field"] == "bike_make"
    assert statements(s.turn("its a folding one")) == ['bike_details.frame_size = "Small Frame"']
    assert statements(s.turn("the frame says WB5512 Q")) == ['bike_details.frame_number = "WB5512 Q"']
    assert statements(s.turn("brompton c line")) == ['bike_details.bike_make = "Brompton C Line"']


def test_a_phrase_of_an_options_description_said_word_for_word_chooses_it():
    from core_engine.parsers.offline.words.match import Bag, best_enum
    from core_engine.spec.model import EnumValue, Field
    f = Field(name="clean", type="Enum", description="Which clean", enum_values=[
        EnumValue(value="Deep Interior Clean", description="only the inside: seats and carpets shampooed"),
        EnumValue(value="Complete Valet", description="inside and out: vacuum, windows and a hand wash")])
    assert best_enum(f, Bag.of("it needs a proper clean inside and out"))[0] == "Complete Valet"
