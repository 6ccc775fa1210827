"""Session 18: values said the way people give them beside other values.

An hour said without am/pm was always read the way a restaurant means it ("at 8" was 20:00), so a garage's "tomorrow
at 8 when you open?" booked the evening; "say 4?", "about 2?", "between 12 and 1" and "can be there for 3" gave no
time at all. A name given beside a phone number or a reference ("hannah whitfield, 07700 900333", "ref FX-11902,
name Priya Shah", "Hi it's Gareth Lloyd, I need to cancel ...") was dropped. An address typed in lower case was kept
so, and the words that led to a postcode taken out of it stayed at its end ("17 Cedar Grove, it's"). "n/a" to an
optional question was stored as the value "n/a". Pinned on a window cleaner's and a wine bar's specs written here
(not samples, not development agents); each test fails without its mechanism.
"""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.words.values import EVENING, find_times
from core_engine.spec.model import Spec, evening_hours
from tests.fakes.specs import agent_of, field, record_values, statements, talk, task_choice

CLEANER = {
    "name": "window cleaner", "description": "Sparkle Glass, a window cleaning round",
    "starting_prompt": "Hello, Sparkle Glass here.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Clean", "description": "book a window clean"},
                    {"value": "Cancel Clean", "description": "cancel a clean that is booked"}),
        {"name": "BookClean", "kind": "task", "predicate": 'task == "Book Clean"', "api": "book", "fields": [
            field("day", "date", "The day of the clean"),
            field("arrival", "time", "The time the cleaner should arrive"),
            field("address", description="The address of the house"),
            field("postcode", description="The postcode of the house"),
            field("phone", description="A phone number"),
            field("customer_name", description="Your full name"),
            field("gate_notes", description="How to get round the back, if there is anything to know",
                  required=False)]},
        {"name": "CancelClean", "kind": "task", "predicate": 'task == "Cancel Clean"', "api": "cancel", "fields": [
            field("booking_reference", description="The reference of the booking"),
            field("customer_name", description="The name the booking is under")]},
    ],
    "apis": [{"name": "book"}, {"name": "cancel"}],
}
BAR = {
    "name": "wine bar", "description": "Table bookings at the Corkscrew wine bar",
    "starting_prompt": "Hi, the Corkscrew.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Table", "description": "book a table"}),
        {"name": "BookTable", "kind": "task", "predicate": 'task == "Book Table"', "api": "book", "fields": [
            field("day", "date", "The day"), field("arrival", "time", "The time"),
            field("guests", "int", "How many people")]},
    ],
    "apis": [{"name": "book"}],
}


@pytest.fixture(scope="module")
def cleaner(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("cleaner"), CLEANER)


@pytest.fixture(scope="module")
def bar(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("bar"), BAR)


def _asked(cleaner, *turns):
    return talk(cleaner, "I'd like to book a window clean", *turns)


# ---------------------------------------------------------------- hours without am/pm


def test_the_trade_decides_how_an_hour_without_am_pm_is_read(cleaner, bar):
    assert not evening_hours(cleaner.spec) and evening_hours(bar.spec)
    _s, [*_, r] = _asked(cleaner, "monday at 8")
    assert r.trace["parse"]["statements"][-1] == 'book_clean.arrival = "08:00"', statements(r)
    _s, [*_, r] = talk(bar, "a table for 2 on friday at 8")
    assert 'arrival="20:00"' in statements(r)[-1], statements(r)


def test_the_setting_overrules_the_trade(tmp_path):
    spec = dict(CLEANER, settings=dict(CLEANER["settings"], bare_hours="evening"))
    agent = agent_of(tmp_path, spec)
    assert evening_hours(agent.spec)
    _s, [*_, r] = talk(agent, "I'd like to book a window clean", "monday at 8")
    assert statements(r)[-1] == 'book_clean.arrival = "20:00"', statements(r)
    assert Spec.model_validate(dict(BAR, settings={"bare_hours": "daytime"})).settings.bare_hours == "daytime"


@pytest.mark.parametrize("said, hour", [("tomorrow at 8 when you open?", "08:00"),
                                        ("half 7 before the school run", "07:30"),
                                        ("she can drop it at 8.30 on her way to work", "08:30"),
                                        ("friday after school, say 4?", "16:00"),
                                        ("wednesday afternoon, about 2?", "14:00"),
                                        ("monday, between 12 and 1 is best", "12:00")])
def test_a_part_of_the_day_or_a_lead_word_places_the_hour(said, hour):
    token = EVENING.set(False)
    try:
        assert [t.value for t in find_times(said)][:1] == [hour], said
    finally:
        EVENING.reset(token)


@pytest.mark.parametrize("said", ["about 12 kilos", "prob 2, maybe 3... say 3", "after 5 days", "about 20 of us"])
def test_numbers_that_are_no_time_stay_numbers(said):
    token = EVENING.set(False)
    try:
        assert find_times(said) == [], said
    finally:
        EVENING.reset(token)


def test_an_hour_after_for_or_after_answers_the_time_asked(cleaner):
    _s, [*_, r] = _asked(cleaner, "next monday")
    assert r.acts[-1]["field"] == "arrival"
    for said, want in (("ill come straight over, can be there for 3", "15:00"), ("any time after 5", "17:00"),
                       ("any time after 5, so 5.30?", "17:30")):
        _s, [*_, r] = _asked(cleaner, "next monday", said)
        assert statements(r) == [f'book_clean.arrival = "{want}"'], (said, statements(r))


# ---------------------------------------------------------------- names beside other values


def test_a_name_after_a_cue_beside_other_values_fills_the_name(cleaner):
    _s, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane",
                         "MF3 8PL. names Gareth Lloyd btw, mobile is 07723 456789")
    assert sorted(statements(r)) == ['book_clean.customer_name = "Gareth Lloyd"', 'book_clean.phone = "07723 456789"',
                                     'book_clean.postcode = "MF3 8PL"'], statements(r)


@pytest.mark.parametrize("said, name", [("hannah whitfield, 07700 900333", "Hannah Whitfield"),
                                        ("daz kowalski 07399 551204", "Daz Kowalski"),
                                        ("no thanks. Leon Carter 07400 118822", "Leon Carter")])
def test_a_name_typed_beside_a_phone_number_fills_the_name(cleaner, said, name):
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane", "MF3 8PL")
    assert r.acts[-1]["field"] == "phone"
    r = session.turn(said)
    assert record_values(session, "book_clean")["customer_name"] == name, statements(r)
    assert record_values(session, "book_clean")["phone"].replace(" ", "")[-6:] == said.replace(" ", "")[-6:]


def test_an_opening_that_introduces_the_caller_fills_the_name(cleaner):
    _s, [r] = talk(cleaner, "Hi it's Gareth Lloyd, I need to cancel the clean I booked for Thursday")
    assert 'cancel_clean = CancelClean(customer_name="Gareth Lloyd")' in statements(r), statements(r)
    _s, [r, r2] = talk(cleaner, "I need to cancel my window clean", "ref SG-11902, name Priya Shah")
    assert statements(r2) == ['cancel_clean.booking_reference = "SG-11902"', 'cancel_clean.customer_name = "Priya Shah"'], \
        statements(r2)


@pytest.mark.parametrize("said", ["great, I'll take 3 of those", "next tuesday after school, say half 4?",
                                  "Dover Road, 07700 900333"])
def test_words_of_a_sentence_or_a_street_are_no_name(cleaner, said):
    session, [*_, r] = _asked(cleaner, "next monday")
    r = session.turn(said)
    assert "customer_name" not in record_values(session, "book_clean"), statements(r)


# ---------------------------------------------------------------- addresses, n/a


def test_an_address_is_written_with_capitals_and_without_the_words_before_its_postcode(cleaner):
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "17 cedar grove, it's se23 1lt")
    values = record_values(session, "book_clean")
    assert (values["address"], values["postcode"]) == ("17 Cedar Grove", "se23 1lt"), statements(r)
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "Flat 3, 22 Corporation Road, postcode CF11 7AW")
    assert record_values(session, "book_clean")["address"] == "Flat 3, 22 Corporation Road", statements(r)


def test_n_a_declines_an_optional_question(cleaner):
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane", "MF3 8PL", "07700 900333", "Ann Lee")
    assert r.acts[-1]["field"] == "gate_notes"
    r = session.turn("n/a")
    assert record_values(session, "book_clean")["gate_notes"] == "NA", statements(r)


def test_a_name_field_by_whose_name_its_description_says(tmp_path):
    from core_engine.parsers.offline.answering.slots import shape
    from core_engine.spec.model import Field
    assert shape(Field(name="lead_passenger", description="Full name of the lead passenger")) == "name"
    assert shape(Field(name="hirer", description="The name the booking is under")) == "name"
    assert shape(Field(name="security_answer", description="Your mother's maiden name")) != "name"
    spec = dict(CLEANER, worksheets=[CLEANER["worksheets"][0], CLEANER["worksheets"][1], {
        "name": "CancelClean", "kind": "task", "predicate": 'task == "Cancel Clean"', "api": "cancel", "fields": [
            field("booking_reference", description="The reference of the booking"),
            field("lead", description="Full name of the lead customer on the booking")]}])
    _s, [_r, r] = talk(agent_of(tmp_path, spec), "I need to cancel my window clean", "SG-30977, its under sandra kowalski")
    assert statements(r) == ['cancel_clean.booking_reference = "SG-30977"', 'cancel_clean.lead = "Sandra Kowalski"'], \
        statements(r)


def test_the_person_named_first_in_an_answer_is_the_name(cleaner):
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane", "MF3 8PL", "07700 900333")
    assert r.acts[-1]["field"] == "customer_name"
    r = session.turn("Fiona Lindqvist, Lindqvist Accountancy")
    assert record_values(session, "book_clean")["customer_name"] == "Fiona Lindqvist", statements(r)
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane", "MF3 8PL", "07700 900333",
                              "Hughes Farm, ask for Rhys Hughes")
    assert record_values(session, "book_clean")["customer_name"] == "Rhys Hughes", statements(r)


# ---------------------------------------------------------------- a shop's question words search nothing

SHOP = {
    "name": "chemist", "description": "A high-street chemist",
    "starting_prompt": "Hello, the chemist.", "settings": {"today": "2024-07-01"},
    "worksheets": [
        {"name": "products", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="The product"),
            field("uses", "List[str]", "What the product is for"),
            field("price", "float", "The price in pounds"),
            field("description", description="About the product", free_text=True)]},
    ],
}
PRODUCTS = [
    {"id": "p1", "name": "Foot Cream", "uses": ["athlete's foot"], "price": 2.5,
     "description": "An antifungal cream to rub in twice a day."},
    {"id": "p2", "name": "Allergy Tablets", "uses": ["hay fever", "itching"], "price": 1.99,
     "description": "One a day, non-drowsy."},
    {"id": "p3", "name": "Eye Drops", "uses": ["hay fever"], "price": 4.2,
     "description": "Soothing drops for itchy eyes."},
]


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    from tests.fakes.specs import agent_with_kb
    yield from agent_with_kb(tmp_path_factory, "shop", SHOP, {"products": (PRODUCTS, ["description"])})


@pytest.mark.parametrize("question, ids", [("do you sell anything for athletes foot", ["p1"]),
                                           ("what've you got for hay fever", ["p2", "p3"]),
                                           ("whats the cheapest thing youve got for hay fever", ["p2"])])
def test_a_shops_verbs_and_contractions_typed_without_apostrophes_search_nothing(shop, question, ids):
    import json
    session = shop.new_session(parser="formal")
    r = session.turn(f"answer({json.dumps(question)})")
    kb = next(rec for rec in r.state["records"] if rec.get("kind") == "kb")
    assert sorted(row["id"] for row in kb["result"]) == ids, r.response


# ---------------------------------------------------------------- short weekdays, people listed


@pytest.mark.parametrize("said, day", [("thurs if poss", "2024-07-04"), ("tues if poss", "2024-07-02"),
                                       ("weds", "2024-07-03"), ("can we do fri instead", "2024-07-05")])
def test_a_weekday_typed_short_is_a_day_where_no_word_is_spelt_so(cleaner, said, day):
    _s, [*_, r] = _asked(cleaner, said)
    assert statements(r) == [f'book_clean.day = "{day}"'], statements(r)


@pytest.mark.parametrize("said", ["I sat down", "fried chicken"])
def test_a_short_weekday_that_is_a_word_stays_a_word(said):
    import datetime as dt
    from core_engine.parsers.offline.words.values import find_dates
    assert find_dates(said, dt.date(2024, 7, 1)) == []


def test_people_listed_one_by_one_count_for_any_number_asked(tmp_path):
    spec = {"name": "shows", "starting_prompt": "Hi", "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
            "worksheets": [task_choice({"value": "Buy Tickets", "description": "buy tickets for a show"}),
                           {"name": "BuyTickets", "kind": "task", "predicate": 'task == "Buy Tickets"', "api": "buy",
                            "fields": [field("tickets", "int", "How many tickets you need")]}],
            "apis": [{"name": "buy"}]}
    agent = agent_of(tmp_path, spec)
    for said, want in (("me, her and grandma", 3), ("just me", 1), ("just myself and my bike", 1)):
        _s, [*_, r] = talk(agent, "I'd like to buy tickets", said)
        assert statements(r) == [f"buy_tickets.tickets = {want}"], (said, statements(r))


# ---------------------------------------------------------------- a value offered with a question mark


@pytest.mark.parametrize("said, hour", [("late morning, 11?", "11:00"), ("whenever you open? 9?", "09:00"),
                                        ("8ish?", "08:00")])
def test_an_hour_offered_with_a_question_mark_answers_the_time_asked(cleaner, said, hour):
    _s, [*_, r] = _asked(cleaner, "next monday", said)
    assert statements(r) == [f'book_clean.arrival = "{hour}"'], statements(r)


@pytest.mark.parametrize("said, question", [("friday if poss?", None), ("the 20th?", None), ("open on sunday?", "?"),
                                            ("is there parking?", "is there"), ("what time?", "what")])
def test_a_value_offered_with_a_question_mark_is_no_question(said, question):
    from core_engine.parsers.offline.intents import is_question
    assert is_question(said) == question


def test_a_day_offered_with_a_question_mark_in_an_opening_is_no_search(cleaner):
    _s, [r] = talk(cleaner, "hiya, need to book a window clean at 14 Mill Lane. friday if poss?")
    assert not any(line.startswith("answer(") for line in statements(r)), statements(r)
    assert 'day="2024-07-05"' in " ".join(statements(r)), statements(r)


@pytest.mark.parametrize("said, hour", [("can she come at 3 instead of half 2", "15:00"),
                                        ("can we make it 4 rather than half 2", "16:00")])
def test_an_hour_instead_of_a_half_hour_held_moves_that_time(cleaner, said, hour):
    session, [*_, r] = _asked(cleaner, "next monday", "half 2")
    assert record_values(session, "book_clean")["arrival"] == "14:30"
    r = session.turn(said)
    assert statements(r) == [f'book_clean.arrival = "{hour}"'], statements(r)


def test_nothing_more_declines_an_optional_text_question(cleaner):
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane", "MF3 8PL", "07700 900333", "Ann Lee")
    assert r.acts[-1]["field"] == "gate_notes"
    r = session.turn("no that's everything")
    assert record_values(session, "book_clean")["gate_notes"] == "NA", statements(r)


@pytest.mark.parametrize("said, name", [("booking under Priya Nair", "Priya Nair"), ("same as before", None),
                                        ("dont need the email thing", None)])
def test_words_that_lead_to_a_name_or_say_no_name(said, name):
    from core_engine.parsers.offline.words.values import clean_name
    assert clean_name(said) == name


# ---------------------------------------------------------------- superlatives by the unit a column is measured in

SHOWS = [{"id": "s1", "title": "Hamlet", "running_time_minutes": 190, "noise_db": 70, "description": "A long play."},
         {"id": "s2", "title": "Gruffalo", "running_time_minutes": 55, "noise_db": 80, "description": "For little ones."},
         {"id": "s3", "title": "Cats", "running_time_minutes": 140, "noise_db": 65, "description": "A musical."}]
THEATRE = {"name": "theatre", "description": "A box office", "starting_prompt": "Hi", "settings": {"today": "2024-07-01"},
           "worksheets": [{"name": "shows", "kind": "kb", "fields": [
               field("id", primary_key=True), field("title"), field("running_time_minutes", "int"),
               field("noise_db", "int"), field("description", free_text=True)]}]}


@pytest.fixture(scope="module")
def theatre(tmp_path_factory):
    from tests.fakes.specs import agent_with_kb
    yield from agent_with_kb(tmp_path_factory, "theatre", THEATRE, {"shows": (SHOWS, ["description"])})


@pytest.mark.parametrize("question, first", [("which show runs the longest?", "s1"), ("the shortest show", "s2"),
                                             ("which one is the quietest", "s3")])
def test_a_superlative_reads_the_column_measured_in_its_unit(theatre, question, first):
    import json
    session = theatre.new_session(parser="formal")
    r = session.turn(f"answer({json.dumps(question)})")
    kb = next(rec for rec in r.state["records"] if rec.get("kind") == "kb")
    assert kb["result"] and kb["result"][0]["id"] == first, r.response


def test_a_sentence_before_the_name_is_no_name(cleaner):
    session, [*_, r] = _asked(cleaner, "next monday", "9am", "14 Mill Lane", "MF3 8PL", "07700 900333")
    r = session.turn("That will be me, Margaret Ellis")
    assert record_values(session, "book_clean")["customer_name"] == "Margaret Ellis", statements(r)


# ---------------------------------------------------------------- wrong values an attack pass found (each was one)


@pytest.mark.parametrize("said", ["Hi it's Greenacres Care Home, I'd like to book a window clean",
                                  "Hi it's Sarah Jones and Tom Baker, I'd like to book a window clean",
                                  "Hi, it's Sarah Jones, I'd like to book a window clean for my mum's house",
                                  "it's still under warranty, I'd like to book a window clean",
                                  "I'd like to book a window clean, names Mr and Mrs Patel",
                                  "I'd like to book a window clean, the dogs name is biscuit"])
def test_no_name_from_a_company_two_people_someone_elses_booking_or_a_pet(cleaner, said):
    session, [r] = talk(cleaner, said)
    assert "customer_name" not in record_values(session, "book_clean"), statements(r)


@pytest.mark.parametrize("said", ["14 mill lane, milton keynes, 07700 900333", "mums landline 01632 960001"])
def test_no_name_from_a_town_or_a_phones_words(cleaner, said):
    session, [*_, r] = _asked(cleaner, "next monday", "9am")
    r = session.turn(said)
    assert "customer_name" not in record_values(session, "book_clean"), statements(r)


@pytest.mark.parametrize("said", ["table on saturday for about 6 or 7 of us", "saturday, there'll be between 4 and 6 of us",
                                  "table on friday, say 4 or 5", "friday please, the kids are between 5 and 9 years old",
                                  "tomorrow, she's about 7 and has been limping", "between 12 and 14 august",
                                  "I'm at work from 9 on monday"])
def test_counts_ages_and_ranges_are_no_times(said):
    token = EVENING.set(False)
    try:
        assert find_times(said) == [], said
    finally:
        EVENING.reset(token)


@pytest.mark.parametrize("said", ["evening please, table for 4", "late as poss, there'll be 6",
                                  "any time in the morning, she's only 2", "late morning or after 2?", "9 or 10?"])
def test_a_count_or_a_choice_beside_the_time_asked_is_no_time(cleaner, said):
    session, [*_, r] = _asked(cleaner, "next monday")
    r = session.turn(said)
    assert "arrival" not in record_values(session, "book_clean"), statements(r)


def test_a_restaurant_by_its_table_bookings_reads_evening_hours():
    spec = Spec.model_validate({"name": "luigis", "description": "Table bookings at Luigi's, an Italian trattoria"})
    assert evening_hours(spec)
    for description in ("Greenfield Primary school office: absences and school dinners",
                        "Kitchen fitters: breakfast bars and worktops", "Restaurant equipment repairs"):
        assert not evening_hours(Spec.model_validate({"name": "x", "description": description})), description


@pytest.mark.parametrize("said, count", [("me, her and her 2 kids", 4), ("just me and Tom", None),
                                         ("me, her and her kids", None), ("only me and another couple", None)])
def test_a_list_of_people_counts_only_when_every_part_is_counted(said, count):
    from core_engine.parsers.offline.words.measures.counts import head_count
    assert head_count(said) == count


@pytest.mark.parametrize("said, minutes", [("half an hour to start with", 30), ("for 1 hr", 60), ("an hour pls", 60),
                                           ("45 mins is fine for a first go", 45), ("an hour and a half", 90),
                                           ("thirty minutes", 30)])
def test_a_length_of_time_answers_a_field_of_minutes(said, minutes):
    from core_engine.parsers.offline.words.measures.durations import converted_duration, field_unit
    assert field_unit("duration_minutes", "How long the lesson is") == "minute"
    assert converted_duration(said, "minute") == minutes
