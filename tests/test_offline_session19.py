"""Session 19: what the conversation before a turn already said, and values said inside sentences.

A booking opened right after questions to the KB lost what the questions named ("any grade 5 piano teachers
online?" ... "book her" asked the instrument again); "what about under £40 then" searched for "under 40 then";
"and how much per hour" found nothing; "the first one's too pricey, can we book the second one?" and "the Willow one"
picked no row. "2 til 5" gave no hours, "7 to 11" was 10:53, "9 kids and 7 parents" beside a date was no count,
"none" to "any allergies?" was not understood, "jess morrow, 07700 900123" to the name question kept only the
phone, "mum was an Okonkwo before she married" was stored whole, "not got it on me" refused nothing, "sorry, put
Samantha Lowe" changed no name, and "can I cancel my hall booking" opened a booking. Pinned on a party hall's, a
music school's and a building society's specs written here (not samples, not development agents), with the wrong
values an attack pass found on the first version of these rules.
"""

from __future__ import annotations

import json

import pytest

from tests.fakes.specs import agent_of, field, record_values, statements, talk, task_choice

HALL = {
    "name": "party hall", "description": "Bookings of the Oak Room, a hall for children's parties",
    "starting_prompt": "Hello, the Oak Room.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01", "bare_hours": "daytime"},
    "worksheets": [
        task_choice({"value": "Book Hall", "description": "book the hall for a party"},
                    {"value": "Cancel Booking", "description": "cancel a party that is booked"}),
        {"name": "BookHall", "kind": "task", "predicate": 'task == "Book Hall"', "api": "book", "fields": [
            field("day", "date", "The day of the party"),
            field("start_time", "time", "The time the party starts"),
            field("hours", "int", "How many hours you need the hall for"),
            field("children", "int", "How many people are coming, children and grown-ups"),
            field("allergies", "bool", "Whether any child has a food allergy"),
            field("no_confetti", "bool", "Confirm there will be no confetti or glitter"),
            field("booker_name", description="Your full name"),
            field("phone", description="A contact phone number")]},
        {"name": "CancelBooking", "kind": "task", "predicate": 'task == "Cancel Booking"', "api": "cancel",
         "fields": [field("reference", description="The booking reference")]},
    ],
    "apis": [{"name": "book"}, {"name": "cancel"}],
}


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("hall"), HALL)


def _booking(hall, *turns):
    return talk(hall, "I'd like to book the hall", *turns)


# ---------------------------------------------------------------- hours from a start and an end


@pytest.mark.parametrize("said, start, hours", [("saturday the 6th, 2 til 5", "14:00", 3),
                                                 ("saturday the 6th from 10 until 1", "10:00", 3)])
def test_a_start_and_an_end_give_the_hours(hall, said, start, hours):
    session, [*_, r] = _booking(hall, said)
    values = record_values(session, "book_hall")
    assert (values.get("start_time"), values.get("hours")) == (start, hours), statements(r)


def test_an_end_said_after_the_start_gives_the_hours(hall):
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm, we'd need to be out by 6")
    assert (record_values(session, "book_hall")["start_time"], record_values(session, "book_hall")["hours"]) == \
        ("14:00", 4), statements(r)


@pytest.mark.parametrize("said", ["saturday the 6th please, 10-15 kids", "saturday the 6th, 6 to 8 of us",
                                  "any day in july 3-5 works", "saturday the 6th, any time 1 to 4 is fine"])
def test_counts_days_and_windows_are_no_hours(hall, said):
    session, [*_, r] = _booking(hall, said)
    values = record_values(session, "book_hall")
    assert "hours" not in values and "start_time" not in values, statements(r)


def test_hours_said_as_a_range_are_not_read_again_from_it(hall):
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm", "probably 2 to 3 hours")
    assert record_values(session, "book_hall").get("hours") != 1, statements(r)


@pytest.mark.parametrize("said, times", [("7 to 11", []), ("10 to 12", []), ("free from 10 to 4", []),
                                         ("quarter to 8", ["07:45"]), ("20 to 8", ["07:40"])])
def test_two_hours_joined_by_to_are_a_range_not_minutes_to(said, times):
    from core_engine.parsers.offline.words.values import EVENING, find_times
    token = EVENING.set(False)
    try:
        assert [t.value for t in find_times(said)] == times
    finally:
        EVENING.reset(token)


# ---------------------------------------------------------------- counts, none, names beside phones


def test_a_sum_of_people_is_read_beside_a_date(hall):
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm", "3 hours", "the 6th, we'd be 9 kids and 7 parents")
    assert record_values(session, "book_hall")["children"] == 16, statements(r)


@pytest.mark.parametrize("said, count", [("8 people including 2 helpers", 8), ("7 people, 3 adults and 4 children", 7)])
def test_a_total_and_what_it_is_made_of_is_the_total(said, count):
    from core_engine.parsers.offline.words.measures.counts import people_sum
    assert people_sum(said) in (None, count)


def _to_allergies(hall):
    return _booking(hall, "saturday the 6th", "2pm", "3 hours", "12")


@pytest.mark.parametrize("said", ["none", "nothing like that", "not that I know of"])
def test_none_to_a_yes_no_question_about_any_is_no(hall, said):
    session, [*_, r] = _to_allergies(hall)
    assert r.acts[-1]["field"] == "allergies"
    r = session.turn(said)
    assert record_values(session, "book_hall")["allergies"] is False, statements(r)


def test_none_to_a_question_asked_the_negative_way_is_not_no(hall):
    session, [*_, r] = _to_allergies(hall)
    session.turn("no")
    r = session.turn("none")
    assert r.acts  # the turn was read or asked again, never stored as "there will be confetti"
    assert record_values(session, "book_hall").get("no_confetti") is not False, statements(r)


def _to_name(hall):
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm", "3 hours", "12", "no", "yes")
    assert r.acts[-1]["field"] == "booker_name", r.response
    return session


@pytest.mark.parametrize("said, name", [("jess morrow, 07700 900123", "Jess Morrow"), ("Mehmet, 07555 010203", "Mehmet"),
                                        ("daz kowalski 07399 551204", "Daz Kowalski")])
def test_a_name_typed_beside_a_phone_number_is_the_name_asked(hall, said, name):
    session = _to_name(hall)
    r = session.turn(said)
    values = record_values(session, "book_hall")
    assert (values.get("booker_name"), bool(values.get("phone"))) == (name, True), statements(r)


@pytest.mark.parametrize("said", ["whatsapp 07700 900123", "reception, 0113 496 0000", "asap please, 07700 900123",
                                  "07700 900123 anytime", "voicemail 07700 900123"])
def test_words_about_the_phone_are_no_name(hall, said):
    session = _to_name(hall)
    r = session.turn(said)
    assert "booker_name" not in record_values(session, "book_hall"), statements(r)


def test_a_task_verb_said_chooses_the_task_that_does_it(hall):
    _s, [r] = talk(hall, "hi i want to cancel my hall booking")
    assert statements(r)[0] == 'main.task = "Cancel Booking"', statements(r)


def test_the_same_again_copies_the_numbers_of_the_booking_before(hall):
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm", "3 hours", "12", "no", "yes", "Jess Morrow",
                                "07700 900123", "yes")
    assert "anything else" in r.response, r.response
    r = session.turn("can I book the hall again for saturday the 13th, same deal")
    values = record_values(session, "book_hall_2")
    assert (values.get("hours"), values.get("children")) == (3, 12), statements(r)
    assert "booker_name" not in values and "day" in values


# ---------------------------------------------------------------- a music school: what the questions named

MUSIC = {
    "name": "music school", "description": "Lessons with the teachers of a music school",
    "starting_prompt": "Hello, the music school.", "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Lesson", "description": "book a trial lesson with a teacher"}),
        {"name": "BookLesson", "kind": "task", "predicate": 'task == "Book Lesson"', "api": "book", "fields": [
            field("teacher", "Teacher", "The teacher"),
            field("instrument", "Enum", "The instrument", enum_values=[
                {"value": "Piano"}, {"value": "Guitar"}, {"value": "Violin"}, {"value": "Drums"}]),
            field("level", "Enum", "The level of the learner", enum_values=[
                {"value": "Beginner"}, {"value": "Grade 5"}, {"value": "Adult"}]),
            field("lesson_format", "Enum", "Online or in person", enum_values=[
                {"value": "Online"}, {"value": "In person"}]),
            field("student_name", description="The name of the student")]},
        {"name": "teachers", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="The teacher"),
            field("instruments", "List[str]", "What they teach"), field("levels", "List[str]", "Levels taught"),
            field("lesson_format", description="Online, in person or both"),
            field("hourly_rate", "float", "Price per hour in pounds"),
            field("about", description="About the teacher", free_text=True)]},
        {"name": "Teacher", "kind": "type", "description": "A teacher (a row of the teachers table).", "fields": [
            field("id", primary_key=True), field("name"), field("instruments", "List[str]"), field("levels", "List[str]"),
            field("lesson_format"), field("hourly_rate", "float"), field("about")]},
    ],
    "apis": [{"name": "book"}],
}
TEACHERS = [
    {"id": "t1", "name": "Ada Willow", "instruments": ["Piano"], "levels": ["Beginner", "Grade 5"],
     "lesson_format": "Online", "hourly_rate": 35.0, "about": "Patient piano teacher for children."},
    {"id": "t2", "name": "Ben Hart", "instruments": ["Piano", "Guitar"], "levels": ["Grade 5", "Adult"],
     "lesson_format": "Online", "hourly_rate": 45.0, "about": "Jazz pianist and guitarist."},
    {"id": "t3", "name": "Cara Stone", "instruments": ["Violin"], "levels": ["Beginner", "Adult"],
     "lesson_format": "In person", "hourly_rate": 38.0, "about": "Orchestral violinist."},
    {"id": "t4", "name": "Dev Patel", "instruments": ["Drums"], "levels": ["Beginner", "Adult"],
     "lesson_format": "In person", "hourly_rate": 30.0, "about": "Rock drummer, loud and fun."},
]


@pytest.fixture(scope="module")
def music(tmp_path_factory):
    from tests.fakes.specs import agent_with_kb
    yield from agent_with_kb(tmp_path_factory, "music", MUSIC, {"teachers": (TEACHERS, ["about"])})


def _ask(music, *questions):
    from core_engine.evaluation.testing import ExpectedStatements
    session = music.new_session(parser="offline")
    for q in questions:
        session.turn(q, parser=ExpectedStatements([f"answer({json.dumps(q)})"]))
    return session


def test_a_booking_after_questions_takes_the_options_they_named(music):
    session = _ask(music, "any grade 5 piano teachers online?")
    r = session.turn("the first one looks great, can we book her?")
    values = record_values(session, "book_lesson")
    assert (values.get("instrument"), values.get("level"), values.get("lesson_format")) == \
        ("Piano", "Grade 5", "Online"), statements(r)


def test_an_option_the_chosen_row_does_not_have_is_not_carried(music):
    session = _ask(music, "any violin teachers?", "what about Dev Patel?")
    r = session.turn("ok book Dev please")
    assert "instrument" not in record_values(session, "book_lesson"), statements(r)


def test_options_asked_about_another_person_are_not_carried(music):
    session = _ask(music, "does Ben Hart teach guitar to adults?")
    r = session.turn("ok can we book him for my daughter")
    assert "level" not in record_values(session, "book_lesson"), statements(r)


def test_what_about_a_new_limit_searches_again_with_the_rest_kept(music):
    session = _ask(music, "piano teachers under £40 an hour")
    r = session.turn("ok what about under 50 then")
    assert statements(r) == ['answer("piano teachers under £50 an hour")'], statements(r)
    r = session.turn("what about over 2 instruments?")
    assert statements(r) != ['answer("piano teachers under £2 an hour")'], statements(r)


def test_a_follow_up_with_too_adds_to_the_search(music):
    session = _ask(music, "teachers who teach piano")
    r = session.turn("and guitar too?")
    assert statements(r) and "piano" in statements(r)[0].lower() and "guitar" in statements(r)[0].lower(), \
        statements(r)


def test_a_value_question_after_one_row_is_about_that_row(music):
    session = _ask(music, "tell me about Cara Stone")
    r = session.turn("and how much per hour")
    assert "Cara Stone" in statements(r)[0] and "38" in r.response, (statements(r), r.response)


def test_a_question_with_no_question_mark_after_a_maybe_is_a_question(music):
    session = _ask(music, "tell me about Cara Stone")
    r = session.turn("maybe. is she online or in person")
    assert statements(r) and statements(r)[0].startswith("answer("), statements(r)


@pytest.mark.parametrize("said, teacher", [("the first one's too pricey, can we book the second one?", "t2"),
                                           ("the Willow one please", "t1")])
def test_the_row_picked_is_the_one_the_request_names(music, said, teacher):
    session = _ask(music, "piano teachers")
    r = session.turn(said)
    rec = next(x for x in r.state["records"] if x["var"] == "book_lesson")
    assert rec["values"]["teacher"]["id"] == teacher, statements(r)


def test_a_row_turned_down_by_name_is_not_picked(music):
    session = _ask(music, "piano teachers")
    r = session.turn("not the Willow one, the other one please")
    rec = next((x for x in r.state["records"] if x["var"] == "book_lesson"), None)
    assert rec is None or rec["values"].get("teacher", {}).get("id") != "t1", statements(r)


# ---------------------------------------------------------------- a building society: values inside sentences

SOCIETY = {
    "name": "building society", "description": "Reporting a lost card to a building society",
    "starting_prompt": "Hello.", "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "api": "report", "fields": [
            field("full_name", description="Your full name"),
            field("account_number", description="Your account number"),
            field("date_of_birth", "date", "Your date of birth"),
            field("maiden_name", description="Your mother's maiden name"),
            field("first_pet", description="The name of your first pet")]},
    ],
    "apis": [{"name": "report"}],
}


@pytest.fixture(scope="module")
def society(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("society"), SOCIETY)


def _society_to(society, field_name, *turns):
    session, results = talk(society, "hello", *turns)
    assert results[-1].acts[-1]["field"] == field_name, results[-1].response
    return session


@pytest.mark.parametrize("said, want", [("mum was an Okonkwo before she married", "Okonkwo"),
                                        ("her maiden name's Ferreira", "Ferreira"), ("mum's maiden name... Liu", "Liu")])
def test_the_one_name_in_a_sentence_is_the_answer(society, said, want):
    session = _society_to(society, "maiden_name", "Tom Hughes", "not got it on me", "12th November 62")
    r = session.turn(said)
    assert record_values(session, "main")["maiden_name"] == want, statements(r)


def test_a_pets_name_in_a_sentence_is_the_answer(society):
    session = _society_to(society, "first_pet", "Tom Hughes", "not got it on me", "12th November 62", "Smith")
    r = session.turn("oh that would be Rufus, our old spaniel")
    assert record_values(session, "main")["first_pet"] == "Rufus", statements(r)


@pytest.mark.parametrize("said", ["not got it on me", "I've forgotten it, sorry", "oh I wouldn't know that"])
def test_a_thing_not_at_hand_is_refused(society, said):
    session = _society_to(society, "account_number", "Tom Hughes")
    r = session.turn(said)
    assert record_values(session, "main")["account_number"] == "NA", statements(r)


@pytest.mark.parametrize("said, born", [("12th November 62", "1962-11-12"), ("nov 2nd 88", "1988-11-02")])
def test_a_birthday_with_a_two_digit_year(society, said, born):
    session = _society_to(society, "date_of_birth", "Tom Hughes", "not got it on me")
    r = session.turn(said)
    assert record_values(session, "main")["date_of_birth"] == born, statements(r)


def test_a_name_put_right_replaces_the_name(society):
    session = _society_to(society, "account_number", "Sam Lowe")
    r = session.turn("sorry, put Samantha Lowe, that's what's on the account")
    assert record_values(session, "main")["full_name"] == "Samantha Lowe", statements(r)
    assert r.acts[-1]["field"] == "account_number"


def test_a_plea_is_no_name(society):
    _s, [r] = talk(society, "please hurry")
    assert not statements(r), statements(r)


# ---------------------------------------------------------------- a station shuttle: openings that say it all

SHUTTLE = {
    "name": "station shuttle", "description": "A minibus between the town's hotels and its railway stations",
    "starting_prompt": "Hello, the shuttle desk.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01", "bare_hours": "daytime"},
    "worksheets": [
        task_choice({"value": "Book Ride", "description": "book a seat on the shuttle"}),
        {"name": "BookRide", "kind": "task", "predicate": 'task == "Book Ride"', "api": "book", "fields": [
            field("direction", "Enum", "Whether you are going to the station or being picked up from it", enum_values=[
                {"value": "To the Station"}, {"value": "From the Station"}]),
            field("station", "Enum", "Which station", enum_values=[{"value": "Central"}, {"value": "Riverside"}]),
            field("date", "date", "The day of the ride"),
            field("time", "time", "The pickup time"),
            field("passengers", "int", "How many passengers are travelling"),
            field("bags", "int", "How many large bags you are bringing"),
            field("full_name", description="Your full name"),
            field("email", description="Your e-mail address"),
            field("phone", description="A mobile number")]},
    ],
    "apis": [{"name": "book"}],
}


@pytest.fixture(scope="module")
def shuttle(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("shuttle"), SHUTTLE)


@pytest.mark.parametrize("said, direction", [("can I book the shuttle to Riverside on friday", "To the Station"),
                                             ("I need picking up from Central tomorrow", "From the Station")])
def test_a_preposition_before_another_fields_value_chooses_the_option(shuttle, said, direction):
    session, [r] = talk(shuttle, said)
    assert record_values(session, "book_ride").get("direction") == direction, statements(r)


def test_a_preposition_before_something_else_chooses_nothing(shuttle):
    session, [r] = talk(shuttle, "book the shuttle for friday, pick me up at 9 from the Grand Hotel")
    assert "direction" not in record_values(session, "book_ride"), statements(r)


def test_the_word_after_a_number_says_what_it_counts(shuttle):
    session, [r] = talk(shuttle, "book the shuttle to Central on friday at 9, 3 adults 4 bags")
    values = record_values(session, "book_ride")
    assert (values.get("passengers"), values.get("bags")) == (3, 4), statements(r)


def test_contact_details_left_over_go_to_their_fields(shuttle):
    session, [*_, r] = talk(shuttle, "book the shuttle to Central on friday at 9", "2", "1")
    assert r.acts[-1]["field"] == "full_name", r.response
    r = session.turn("ok. Gary Firth gfirth62@example.com 07811 223344")
    values = record_values(session, "book_ride")
    assert (values.get("full_name"), values.get("email"), values.get("phone")) == \
        ("Gary Firth", "gfirth62@example.com", "07811 223344"), statements(r)


def test_hours_in_an_opening(hall):
    session, [r] = talk(hall, "can I book the hall for saturday the 6th, 2pm-5pm")
    values = record_values(session, "book_hall")
    assert (values.get("start_time"), values.get("hours")) == ("14:00", 3), statements(r)


def test_half_a_postcode_is_no_correction_of_a_code(tmp_path):
    from core_engine.parsers.offline.changes.shaped import shaped_correction  # noqa: F401 - the rule under test
    spec = {"name": "signs", "starting_prompt": "Hi", "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
            "worksheets": [task_choice({"value": "Order Sign", "description": "order a printed sign"}),
                           {"name": "OrderSign", "kind": "task", "predicate": 'task == "Order Sign"', "api": "order",
                            "fields": [field("size", description="The sheet size, like A4 or A3"),
                                       field("address", description="The delivery address with the postcode"),
                                       field("email", description="Your e-mail address")]}],
            "apis": [{"name": "order"}]}
    agent = agent_of(tmp_path, spec)
    session, [*_, r] = talk(agent, "I'd like to order a sign", "A3")
    r = session.turn("9 Foundry Lane, Sheffield S3 8AX")
    assert record_values(session, "order_sign")["size"] == "A3", statements(r)


def test_a_flight_code_is_no_count(shuttle):
    from core_engine.parsers.offline.words.values import find_codes
    assert [c.value for c in find_codes("flight U2 2206 lands at 23:15")] == ["U2 2206"]
    session, [r] = talk(shuttle, "book the shuttle from Central on friday, train BA 117 gets in at 9")
    assert record_values(session, "book_ride").get("passengers") not in (117, 2206), statements(r)


def test_an_address_ends_with_its_postcode_when_a_new_sentence_follows():
    from core_engine.parsers.offline.parts.addresses import tidy_address
    assert tidy_address("Hilton Cambridge, Downing St, CB2 3DT. 2 of us, 2 bags") == "Hilton Cambridge, Downing St, CB2 3DT"
    assert tidy_address("9 Foundry Lane, Sheffield S3 8AX") == "9 Foundry Lane, Sheffield S3 8AX"


def test_a_unit_typed_short_and_a_unit_after_for(hall):
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm")
    assert r.acts[-1]["field"] == "hours"
    r = session.turn("for 3 hrs")
    assert record_values(session, "book_hall")["hours"] == 3, statements(r)
    session, [*_, r] = _booking(hall, "saturday the 6th", "2pm")
    r = session.turn("the 6th, from 2 for 3 hrs")
    assert record_values(session, "book_hall").get("hours") == 3, statements(r)


def test_a_yes_no_question_about_the_row_shown_is_a_question(music):
    session = _ask(music, "tell me about Cara Stone")
    r = session.turn("does she do beginners")
    assert statements(r) and statements(r)[0].startswith("answer("), statements(r)


def test_a_follow_up_while_a_row_is_asked_goes_to_the_field_that_waits_for_it(music):
    session, [*_, r] = talk(music, "I'd like to book a trial lesson", "piano teachers under £50 an hour")
    assert r.acts[-1].get("field") == "teacher", r.response
    r = session.turn("ok what about under 40 then")
    assert statements(r) == ['book_lesson.teacher = answer("piano teachers under £40 an hour")'], statements(r)
