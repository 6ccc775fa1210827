"""Turn shapes from heldout19's sample conversations (session 13, helper D), pinned on a sailing club's spec written
here (not a sample, not a development agent). One test per mechanism; each fails without it.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from core_engine.parsers.offline.words.values import find_dates, find_numbers, yes_no

from tests.fakes.kbs import ask as kb_ask, kb_and_spec
from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk, task_choice

BOATS = [
    {"id": "bt1", "name": "Kestrel Dinghy", "kind": "Dinghy", "berths": 2, "price": "cheap",
     "description": "A two-person dinghy for the inner harbour, easy to rig."},
    {"id": "bt2", "name": "Grey Heron", "kind": "Keelboat", "berths": 6, "price": "moderate",
     "description": "A steady keelboat with a cabin, good for day trips along the coast."},
    {"id": "bt3", "name": "Sea Swallow Catamaran", "kind": "Catamaran", "berths": 8, "price": "expensive",
     "description": "A fast catamaran with a sun deck, popular for birthdays."},
]
LESSONS = [{"code": "SL 101", "title": "Knots and Ropes", "tutor": "Ines Hall"},
           {"code": "SL 204", "title": "Navigation", "tutor": "Owen Price"},
           {"code": "SL 310", "title": "Racing Tactics", "tutor": "Ines Hall"}]
SPEC = {
    "name": "sailing_club", "starting_prompt": "Hello, this is the sailing club.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Lost Card", "description": "report a lost or stolen club card"},
                    {"value": "Join Lessons", "description": "sign up for sailing lessons"},
                    {"value": "Book Boat", "description": "book one of the club's boats"}),
        {"name": "LostCard", "kind": "task", "predicate": 'task == "Lost Card"', "api": "block_card", "fields": [
            field("full_name", description="Your full name"),
            field("member_check", "MemberCheck", "Membership number and passcode"),
            field("identity", "IdentityCheck", "Date of birth and a security answer",
                  predicate='self.member_check is not None and self.member_check.member_number == "NA"'),
            field("what_happened", description="What happened: the details of the loss"),
            field("time_of_loss", description="When the card was lost"),
            field("confirm", "confirm", "Confirm the report")]},
        {"name": "MemberCheck", "kind": "task", "fields": [
            field("member_number", description="Your membership number"),
            field("passcode", description="The passcode of your membership",
                  predicate='self.member_number != "NA"')]},
        {"name": "IdentityCheck", "kind": "task", "fields": [
            field("date_of_birth", description="Your date of birth"),
            field("first_boat", description="The name of the first boat you sailed (security question)")]},
        {"name": "JoinLessons", "kind": "task", "predicate": 'task == "Join Lessons"', "api": "enrol", "fields": [
            field("lessons", "LessonList", "The lessons to join"),
            field("email", description="Your e-mail address"),
            field("comments", description="Any other comments for the instructor")]},
        {"name": "LessonList", "kind": "task", "description": "The lessons to join (two or three).", "fields": [
            field("lesson_0", "Lesson", "The first lesson"),
            field("lesson_1", "Lesson", "The second lesson"),
            field("more_lessons", "bool", "Whether you want a third lesson"),
            field("lesson_2", "Lesson", "The third lesson", predicate="self.more_lessons == True"),
            field("confirm", "confirm", "Confirm the list of lessons")]},
        {"name": "Lesson", "kind": "task", "fields": [
            field("lesson_name", description="The lesson code or title"),
            field("level", "Enum", "The level you sail at", enum_values=[
                {"value": "Beginner"}, {"value": "Improver"}]),
            field("hours", "int", "How many hours a week you sail for it")]},
        {"name": "BookBoat", "kind": "task", "predicate": 'task == "Book Boat"', "api": "book_boat", "fields": [
            field("boat", "Boat", "The boat to book"),
            field("date", "date", "The day of the trip"),
            field("time", "time", "The time you set off"),
            field("crew", "int", "How many people are sailing"),
            field("trip_kind", "Enum", "The kind of trip", enum_values=[
                {"value": "Day Sail"}, {"value": "Fishing Trip"}, {"value": "Sunset Cruise"},
                {"value": "Race Practice", "description": "practise racing round the buoys"}]),
            field("notes", description="Any special request for the harbour master", dont_ask=True),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "boats", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the boat"),
            field("kind", description="What kind of boat it is"), field("berths", "int", "How many it sleeps"),
            field("price", description="Price range"),
            field("description", description="About the boat", free_text=True)]},
        {"name": "Boat", "kind": "type", "fields": [
            field("id"), field("name", description="Name of the boat"), field("kind"), field("price")]},
        {"name": "lessons", "kind": "kb", "fields": [
            field("code", description="Lesson code", primary_key=True), field("title", description="Title"),
            field("tutor", description="Who teaches the lesson")]},
    ],
    "apis": [{"name": "block_card"}, {"name": "enrol"}, {"name": "book_boat"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "sailing", SPEC, {"boats": (BOATS, ["description"]), "lessons": (LESSONS, [])})


values = record_values


LOST = "I lost my club card"
JOIN = "I'd like to sign up for sailing lessons"


def test_a_story_after_a_dash_keeps_an_amount_with_a_thousands_comma(agent):
    for turn, story in (
            ("Hi, Dana Reyes here, member number 55123, passcode 8841 - there's a $1,250 charge for a mooring I "
             "never booked", "there's a $1,250 charge for a mooring I never booked"),
            ("Dana Reyes, member number 55123, passcode 8841 \u2013 someone spent \u20ac3,400 at the chandlery",
             "someone spent \u20ac3,400 at the chandlery"),
            ("member number 55123, passcode 8841, name Dana Reyes. My card was taken and 1,200 pounds went on fuel",
             "My card was taken and 1,200 pounds went on fuel")):
        session, [_, r] = talk(agent, LOST, turn)
        assert values(session, "member_check") == {"member_number": "55123", "passcode": "8841"}, turn
        assert values(session, "lost_card")["what_happened"] == story


def test_a_hyphenated_surname_is_one_name(agent):
    session, [*_, r] = talk(agent, LOST, "Mary Smith", "sorry, Mary Smith-Jones, the card is in my married name")
    assert statements(r) == ['lost_card.full_name = "Mary Smith-Jones"']
    session, [*_, r] = talk(agent, LOST, "it's Rosa Delgado-Mar\u00edn")
    assert values(session, "lost_card")["full_name"] == "Rosa Delgado-Mar\u00edn"
    session, [r] = talk(agent, "hi, Anna Lee-Chan here, I lost my club card")
    assert values(session, "lost_card")["full_name"] == "Anna Lee-Chan"


def test_a_date_written_with_dots_is_day_month_year():
    today = dt.date(2024, 7, 1)
    assert [s.value for s in find_dates("30.11.1988", today, past=True)] == ["1988-11-30"]
    assert [s.value for s in find_dates("born 1.2.1990.", today, past=True)] == ["1990-02-01"]
    assert find_dates("version 2.5.1990.3", today) == [] and find_dates("12.5", today) == []


def test_a_date_with_dots_answers_a_text_field_for_a_date(agent):
    session, [*_, r] = talk(agent, LOST, "Dana Reyes", "I don't know it", "07.03.1979")
    assert values(session, "identity_check")["date_of_birth"] == "1979-03-07"


def test_a_yes_in_another_language():
    for said in ("oui, yes", "ja, that's right", "s\u00ed, perfect", "sim"):
        assert yes_no(said)[0] is True, said
    assert yes_no("nein, no")[0] is False and yes_no("simon says") is None and yes_no("jam") is None


def test_make_that_changes_the_value_given_not_the_next_record(agent):
    session, [*_, r] = talk(agent, JOIN, "SL 101", "beginner, 3 hours", "wait make that 2 hours")
    assert statements(r) == ["lesson.hours = 2"]
    assert values(session, "lesson")["hours"] == 2 and "hours" not in values(session, "lesson_2")
    session, [*_, r] = talk(agent, JOIN, "SL 101", "beginner, 3 hours", "SL 204", "improver", "make it 4")
    assert statements(r) == ["lesson_2.hours = 4"]  # the field asked: an answer, not a change


def test_nothing_else_after_the_items_closes_the_list(agent):
    for end in ("nothing else", "that's enough", "no others", "nothing more thanks"):
        session, [_, r] = talk(agent, JOIN, f"SL 101 beginner 3 hours, and SL 204 improver 2 hours, {end}")
        assert values(session, "lesson_list").get("more_lessons") is False, end


def test_a_new_item_same_as_the_other_one(agent):
    session, [*_, r] = talk(agent, JOIN, "SL 101", "improver", "3", "SL 204 as well, same as the other one")
    assert values(session, "lesson_2") == {"lesson_name": "SL 204", "level": "Improver", "hours": 3}
    session, [*_, r] = talk(agent, JOIN, "SL 101", "improver", "3", "and SL 310, same as the first")
    assert values(session, "lesson_2") == {"lesson_name": "SL 310", "level": "Improver", "hours": 3}
    session, [*_, r] = talk(agent, JOIN, "SL 101", "improver", "3", "SL 204", "same as the other one")
    assert values(session, "lesson_2")["level"] == "Improver"  # no new value: the field asked is copied


def test_the_things_name_alone_says_nothing_of_wanting_one_more(agent):
    session, [r] = talk(agent, JOIN)
    assert "more_lessons" not in values(session, "lesson_list")  # "lessons" is not "more lessons"


def test_a_row_named_by_its_first_words_and_asked_for_in_a_question(agent):
    session, [_, r] = talk(agent, "what boats do you have?", "Sea Swallow looks nice, can we get a boat for saturday for 4?")
    assert values(session, "book_boat")["date"] == "2024-07-06" and values(session, "book_boat")["crew"] == 4
    assert next(x for x in session.state["records"] if x["var"] == "book_boat")["values"]["boat"]["id"] == "bt3"
    session, [_, r] = talk(agent, "what boats do you have?", "Sea Swallow looks nice, how big is it?")
    assert "book_boat" not in {x["var"] for x in session.state["records"]}  # a question about it: no booking


def test_a_row_named_then_the_values_of_its_task(agent):
    session, [r] = talk(agent, "Sea Swallow Catamaran then. saturday at half ten for six, could they bring a cake?")
    said = values(session, "book_boat")
    assert (said["date"], said["time"], said["crew"]) == ("2024-07-06", "10:30", 6)
    session, [r] = talk(agent, "is the Sea Swallow Catamaran free saturday at half ten for six?")
    assert "book_boat" not in {x["var"] for x in session.state["records"]}  # asked of the KB, not booked


VESSELS = [
    {"id": "v1", "name": "Kestrel", "kind": "Dinghy", "seats": 2, "price_per_day": 40.0, "skipper": "no",
     "description": "A small dinghy for the inner harbour."},
    {"id": "v2", "name": "Grey Heron", "kind": "Keelboat", "seats": 6, "price_per_day": 180.0, "skipper": "yes",
     "description": "A steady keelboat with a cabin for day trips."},
    {"id": "v3", "name": "Puffin", "kind": "Keelboat", "seats": 7, "price_per_day": 150.0, "skipper": "no",
     "description": "A family keelboat with a wide cockpit."},
    {"id": "v4", "name": "Sea Swallow", "kind": "Catamaran", "seats": 9, "price_per_day": 320.0, "skipper": "yes",
     "description": "A fast catamaran with a sun deck, popular for parties and stag days."},
    {"id": "v5", "name": "Tern", "kind": "Catamaran", "seats": 7, "price_per_day": 260.0, "skipper": "yes",
     "description": "A catamaran for groups, with a barbecue on deck."},
]
VESSEL_COLUMNS = {"id": "Boat id", "name": "Name of the boat", "kind": "Kind of boat (Dinghy, Keelboat, Catamaran)",
                  "seats": "Number of seats", "price_per_day": "Price per day in pounds",
                  "skipper": "Whether a skipper comes with it", "description": "What the boat is like"}


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, VESSELS, "boats", VESSEL_COLUMNS, name="fleet", description="",
                     table_description="The club's boats for hire.", free_text=["description"],
                     field_types={"seats": "int", "price_per_day": "float"}, today=None) as fixture:
        yield fixture


def ask(fixture, question):
    return kb_ask(fixture, question, ordered=True)


def test_most_and_least_expensive_rank_by_the_price(fleet):
    assert ask(fleet, "what's the most expensive boat you hire out?")[0] == ["v4"]
    assert ask(fleet, "the least expensive keelboat")[0] == ["v3"]


def test_a_number_and_seater_counts_the_seats(fleet):
    assert ask(fleet, "I need a 9 seater for a stag do")[0] == ["v4"]
    assert sorted(ask(fleet, "any 7-seater catamarans or keelboats?")[0]) == ["v3", "v5"]


def test_a_superlative_with_a_measure_verb_is_one_row(fleet):
    assert ask(fleet, "cheapest catamaran that seats 7")[0] == ["v5"]
    assert ask(fleet, "cheapest boats that seat 6 or more")[0][:2] == ["v3", "v2"]  # boats: a ranking, not one


def test_the_day_of_the_visit_is_no_search_term(fleet):
    rows, rules = ask(fleet, "and for the same night, a keelboat with a skipper?")
    assert rows == ["v2"]
    assert any(r["rule"] == "ignored" and "night" in r["words"] for r in rules)
    assert sorted(ask(fleet, "any catamarans free tonight?")[0]) == ["v4", "v5"]
    assert ask(fleet, "a keelboat for tomorrow morning")[0] in (["v2", "v3"], ["v3", "v2"])


def test_no_and_what_the_free_text_field_asks_for_is_none(agent):
    for said in ("no further comments", "nope, no other comments thanks", "no comments for the instructor"):
        session, [*_, r] = talk(agent, JOIN, "SL 101 beginner 3 hours, and SL 204 improver 2 hours, nothing else",
                                "yes", "ana@example.com", said)
        assert values(session, "join_lessons")["comments"] == "none", said
    session, [*_, r] = talk(agent, JOIN, "SL 101 beginner 3 hours, and SL 204 improver 2 hours, nothing else",
                            "yes", "ana@example.com", "no comments, but my knee is sore so go easy")
    assert values(session, "join_lessons")["comments"] != "none"



def test_a_title_for_a_field_that_asks_for_a_code_is_the_rows_code(agent):
    session, [*_, r] = talk(agent, JOIN, "put me down for navigation, improver, 2 hours")
    assert values(session, "lesson") == {"lesson_name": "SL 204", "level": "Improver", "hours": 2}
    session, [*_, r] = talk(agent, JOIN, "Knots and Ropes")
    assert values(session, "lesson")["lesson_name"] == "SL 101"


def test_an_option_held_rejected_and_another_named(agent):
    session, [*_, r] = talk(agent, "I'd like to book the Grey Heron for a fishing trip",
                            "wait no I don't want to go fishing, we want to practise racing round the buoys")
    assert statements(r) == ['book_boat.trip_kind = "Race Practice"']
    session, [*_, r] = talk(agent, JOIN, "SL 101", "beginner",
                            "no I don't want the beginner level, I've sailed for years")
    assert statements(r) == ['lesson.level = "Improver"']  # of two options, the other one
    session, [*_, r] = talk(agent, "I'd like to book the Grey Heron for a fishing trip", "I don't want to go fishing")
    assert values(session, "book_boat")["trip_kind"] == "Fishing Trip"  # no other option named: nothing changes


def test_a_month_with_the_year_said_in_words(agent):
    for said, when in (("I think it was sometime in early March last year", "early March 2023"),
                       ("back in May two years ago I reckon", "May 2022"),
                       ("around mid-june this year, not sure exactly", "mid-june 2024"),
                       ("sometime in late July I think, on the boat", "late July")):
        session, [*_, r] = talk(agent, LOST, "Dana Reyes", "55123", "8841", "it fell in the harbour", said)
        assert values(session, "lost_card")["time_of_loss"] == when, said



def test_can_i_then_how_it_goes_is_a_question_for_the_kb(agent):
    for turn in ("can I take sailing lessons in the winter? what's the process?",
                 "can I still sail if my club card was stolen? how does that work?"):
        session, [r] = talk(agent, turn)
        assert [s for s in statements(r) if s.startswith("answer(")] and "task" not in values(session, "main"), turn
    session, [r] = talk(agent, "I lost my club card yesterday. what's the process?")
    assert values(session, "main")["task"] == "Lost Card"  # told, not asked: the task


BOOKED = ("I'd like to book the Grey Heron on saturday at 10am for 4 people, a day sail", "yes")


def test_a_second_booking_takes_same_fields_from_the_first(agent):
    session, [*_, r] = talk(agent, *BOOKED, "anything for 6 or more people?", "Sea Swallow Catamaran at 3pm, same crew")
    assert values(session, "book_boat_2") == {"time": "15:00", "crew": 4}
    session, [*_, r] = talk(agent, *BOOKED, "what boats do you have?",
                            "Sea Swallow Catamaran at 3pm, same crew, same day")
    assert values(session, "book_boat_2") == {"time": "15:00", "crew": 4, "date": "2024-07-06"}


def test_one_after_describing_words_is_a_pronoun():
    assert [s.value for s in find_numbers("SL 204 the navigation theory one")] == [204]
    assert find_numbers("the big blue one") == []
    for said in ("a table for one", "book the boat for one", "the kids and one", "the whole family plus one"):
        assert [s.value for s in find_numbers(said)] == [1], said

