"""Turn shapes from session 28's reading of the development agents' misreadings, pinned on a climbing wall spec
written here (not a sample, not a development agent), and two list openings on the course sample. One test per
mechanism; each fails without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk

ROOT = Path(__file__).resolve().parents[1]
SPEC = {
    "name": "climbing_wall", "starting_prompt": "Hi, Cragside Climbing Wall here.",
    "description": "An indoor climbing wall with coached sessions.",
    "settings": {"start_worksheet": "Main", "date_order": "day_first"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Session", "description": "book a coached climbing session"},
            {"value": "Move Session", "description": "move a booked session to another day"},
            {"value": "Cancel Session", "description": "cancel a booked session"},
            {"value": "Report Incident", "description": "tell us about a fall or an accident at the wall"},
        ])]},
        {"name": "BookSession", "kind": "task", "predicate": 'task == "Book Session"', "api": "book_session",
         "description": "A coached climbing session.", "fields": [
            field("coach", "Coach", "The coach you would like, if you have a preference", required=False),
            field("session_date", "date", "The day of the session"),
            field("arrival", "Enum", "When you will come", enum_values=[
                {"value": "Morning", "description": "between 9 and 12"},
                {"value": "Afternoon", "description": "between 12 and 5"},
                {"value": "Any Time", "description": "no preference"}]),
            field("height_cm", "int", "The climber's height in centimetres"),
            field("weight_kg", "int", "The climber's weight in kg"),
            field("wall_metres", "int", "Roughly how many metres of wall you want to climb"),
            field("shoe_hire", "bool", "Should we put climbing shoes aside for you?"),
            field("climber_name", "str", "The climber's full name"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "MoveSession", "kind": "task", "predicate": 'task == "Move Session"', "api": "move_session",
         "description": "Moving a booked session to another day.", "fields": [
            field("booking_reference", "str", "Your booking reference, like CW-1234"),
            field("climber_name", "str", "The climber's full name"),
            field("new_date", "date", "The new day"),
            field("confirm", "confirm", "Confirm the move")]},
        {"name": "CancelSession", "kind": "task", "predicate": 'task == "Cancel Session"', "api": "cancel_session",
         "description": "Cancelling a booked session.", "fields": [
            field("booking_reference", "str", "Your booking reference, like CW-1234"),
            field("climber_name", "str", "The climber's full name"),
            field("confirm", "confirm", "Confirm the cancellation")]},
        {"name": "ReportIncident", "kind": "task", "predicate": 'task == "Report Incident"', "api": "report_incident",
         "description": "A fall or an accident at the wall.", "fields": [
            field("anyone_hurt", "bool", "Was anyone hurt?"),
            field("what_happened", "str", "What happened", free_text=True)]},
        {"name": "Coach", "kind": "kb", "fields": [field("id", primary_key=True), field("name"), field("description")]},
    ],
    "apis": [{"name": "book_session"}, {"name": "move_session"}, {"name": "cancel_session"},
             {"name": "report_incident"}],
}
COACHES = [{"id": "c1", "name": "Maya Lindqvist", "description": "patient with nervous beginners"},
           {"id": "c2", "name": "Tobias Reed", "description": "lead climbing and competition training"},
           {"id": "c3", "name": "Priya Nair", "description": "bouldering technique for teenagers"}]
BOOK = "I'd like to book a climbing session"
DATED = [BOOK, "anyone, I don't mind", "the 14th"]


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "climbing", SPEC, {"Coach": (COACHES, ["description"])})


values = record_values


def asked(result) -> str | None:
    return next((a.get("field") for a in result.acts if a.get("act") == "ask"), None)


def test_a_no_then_leave_it_to_a_yes_no_asked_answers_it_and_does_not_stop_the_task(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "20",
                          "nah leave it, I always bring my own")
    assert asked(turns[-2]) == "shoe_hire"
    assert values(session, "book_session").get("shoe_hire") is False
    assert not any(a.get("control") for a in turns[-1].acts)


@pytest.mark.parametrize("said, want", [("whenever, we're both free all day", "Any Time"),
                                        ("first thing ideally", "Morning"), ("about 2pm", "Afternoon"),
                                        ("early please", "Morning")])
def test_a_time_or_a_day_part_said_chooses_the_option_named_after_that_part_of_the_day(agent, said, want):
    session, turns = talk(agent, *DATED, said)
    assert asked(turns[-2]) == "arrival"
    assert values(session, "book_session").get("arrival") == want


def test_no_preference_said_with_an_adverb_declines_an_optional_row(agent):
    session, turns = talk(agent, BOOK, "anyone, I really don't mind")
    assert asked(turns[0]) == "coach"
    assert values(session, "book_session").get("coach") == "NA"


@pytest.mark.parametrize("field_name, before, said, want", [
    ("height_cm", [], "shes about 1m52", 152), ("height_cm", [], "5ft 2", 157),
    ("weight_kg", ["170"], "about 11 stone", 70), ("wall_metres", ["170", "65"], "maybe 40 feet", 12)])
def test_a_measure_said_in_another_unit_is_converted_to_the_fields_unit(agent, field_name, before, said, want):
    session, turns = talk(agent, *DATED, "morning", *before, said)
    assert asked(turns[-2]) == field_name
    assert values(session, "book_session").get(field_name) == want


@pytest.mark.parametrize("said", ["nobody hurt, we were all in the cafe thank god", "nobody hurt"])
def test_nobody_before_the_flags_word_is_a_no(agent, said):
    session, turns = talk(agent, "someone has just had a fall off the top rope", said)
    assert asked(turns[0]) == "anyone_hurt"
    assert values(session, "report_incident").get("anyone_hurt") is False


def test_a_required_number_declined_then_given_at_the_summary_fills_it(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "no idea", "yes", "Sam Okoro")
    assert turns[-1].acts[-1].get("missing") == ["wall_metres"]
    session.turn("oh hubby reckons 15")
    assert values(session, "book_session").get("wall_metres") == 15


def test_can_i_book_after_another_task_is_done_opens_the_booking_not_the_other_task(agent):
    session, turns = talk(agent, "I need to cancel my session", "CW-5521", "Sam Okoro", "yes",
                          "thanks. can i book him in for saturday instead?")
    assert values(session, "main").get("task") == "Book Session"
    assert values(session, "book_session").get("session_date") == "2024-07-06"
    assert not any(s.startswith("exitws(main)") for s in statements(turns[-1]))


def test_a_row_just_shown_asked_for_on_a_day_opens_the_task_with_it(agent):
    session, turns = talk(agent, "who is good with nervous beginners?", "great, could we climb with her saturday?")
    assert "answer(" in " ".join(statements(turns[0]))
    assert values(session, "book_session").get("session_date") == "2024-07-06"
    assert any("coach=answer.result[0]" in s for s in statements(turns[1]))


@pytest.fixture(scope="module")
def courses():
    from core_engine.session.agent import Agent
    return Agent.load(ROOT / "sample_projects" / "course_enrollment")


def _course_fields(session) -> list[dict]:
    state = session.state
    return [r["values"] for r in state["records"] if r.get("worksheet") == "Course" and r["values"].get("course_name")]


def test_all_at_the_start_of_a_clause_gives_its_options_to_every_item(courses):
    session, _ = talk(courses, "enroll me in cs 161, cs 107 and cs 110 please, all letter grades, 5 units each")
    got = _course_fields(session)
    assert len(got) == 3 and all(c.get("grade_type") == "Letter" and c.get("course_num_units") == 5 for c in got)


def test_a_title_and_the_code_of_the_same_row_are_one_item(courses):
    session, _ = talk(courses, "I'd like to take machine learning, CS 229, for 4 units with a letter grade")
    got = _course_fields(session)
    assert len(got) == 1 and got[0].get("course_name") == "CS 229" and got[0].get("course_num_units") == 4


@pytest.mark.parametrize("said, today, want", [("tuesday 21 at half 9", "2025-01-13", "2025-01-21"),
                                               ("would a week tomorrow work?", "2025-03-04", "2025-03-12"),
                                               ("a fortnight today", "2025-03-04", "2025-03-18")])
def test_a_weekday_with_a_bare_day_number_and_a_week_after_a_relative_day(said, today, want):
    import datetime as dt
    from core_engine.parsers.offline.words.values import find_dates
    assert [s.value for s in find_dates(said, dt.date.fromisoformat(today))] == [want]


def test_a_day_apart_from_another_is_not_the_one_set_aside(agent):
    session, turns = talk(agent, BOOK, "anyone, I don't mind", "any day apart from wednesday. thursday?")
    assert values(session, "book_session").get("session_date") == "2024-07-04"


def test_could_she_come_after_one_row_shown_takes_that_row(agent):
    session, turns = talk(agent, "who is good with nervous beginners?",
                          "lovely. could she come and teach my son? he's never climbed")
    assert any("coach=answer.result[0]" in s for s in statements(turns[1]))


def test_change_it_to_a_value_at_the_summary_of_a_booking_changes_the_booking_not_the_task(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "20", "no", "Sam Okoro",
                          "actually can you change it to the 15th, sorry")
    assert asked(turns[-2]) == "confirm"
    assert values(session, "main").get("task") == "Book Session"
    assert values(session, "book_session").get("session_date") == "2024-07-15"


def test_a_yes_to_a_summary_that_lacks_a_declined_field_is_no_answer_to_that_field(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "no idea", "yes", "Sam Okoro", "yes")
    assert turns[-2].acts[-1].get("missing") == ["wall_metres"]
    assert values(session, "book_session").get("wall_metres") == "NA"
    assert not any("Sorry, I didn't understand" in a.get("text", "") for a in turns[-1].acts)


@pytest.fixture(scope="module")
def restaurants():
    from core_engine.session.agent import Agent
    return Agent.load(ROOT / "sample_projects" / "restaurant_reservation")


@pytest.mark.parametrize("said, want", [("hmm actually 2 of them can't make it", 6), ("2 more are coming now", 10),
                                        ("actually 3 of us can't make it, so 5 total", 5)])
def test_people_who_drop_out_or_join_change_the_count_held(restaurants, said, want):
    session, _ = talk(restaurants, "want to book Frascati for my wife's birthday, saturday, 8 people, around 8", said)
    assert values(session, "book_restaurant").get("number_of_people") == want


# Near misses from the attack pass: each of these was read wrong by a first version of the rules above.

def test_no_leave_it_with_a_plan_to_come_back_still_stops_the_task(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "20", "no, leave it, I'll call back")
    assert any(a.get("control") for a in turns[-1].acts)
    assert "shoe_hire" not in values(session, "book_session")


@pytest.mark.parametrize("said", ["not before lunch", "I can't do 10am", "I'm at the dentist at 10am",
                                  "early next week would be better"])
def test_a_part_of_the_day_refused_or_a_busy_time_chooses_no_option(agent, said):
    session, turns = talk(agent, *DATED, said)
    assert asked(turns[-2]) == "arrival"
    assert values(session, "book_session").get("arrival") != "Morning"


def test_a_measure_in_the_fields_own_unit_wins_over_another_dimension(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "6 foot high and about 20 metres long")
    assert values(session, "book_session").get("wall_metres") == 20


@pytest.mark.parametrize("said", ["my husband was hurt, nothing serious though", "my son was hurt, none of the others"])
def test_none_after_the_flags_word_says_nothing_of_the_flag(agent, said):
    session, turns = talk(agent, "someone has just had a fall off the top rope", said)
    assert values(session, "report_incident").get("anyone_hurt") is True


def test_a_number_of_minutes_at_a_summary_lacking_a_number_is_no_answer(agent):
    session, turns = talk(agent, *DATED, "morning", "170", "65", "no idea", "yes", "Sam Okoro",
                          "I'll have to check, give me 10 minutes")
    assert values(session, "book_session").get("wall_metres") == "NA"


def test_an_account_holders_full_name_is_a_name_not_a_code(tmp_path):
    from tests.fakes.specs import agent_of
    spec = {"name": "phone_shop", "starting_prompt": "Hi.", "description": "A phone network's help desk.",
            "worksheets": [{"name": "ChangePlan", "kind": "task", "api": "change_plan", "description": "Change plan.",
                            "fields": [field("account_holder", "str", "The account holder's full name"),
                                       field("confirm", "confirm", "Confirm")]}],
            "apis": [{"name": "change_plan"}]}
    session, turns = talk(agent_of(tmp_path, spec), "I want to change my plan", "Joanna Pike")
    assert values(session, "change_plan").get("account_holder") == "Joanna Pike"


def test_not_fussy_declines_an_optional_row(agent):
    session, turns = talk(agent, BOOK, "nah we're not fussy")
    assert values(session, "book_session").get("coach") == "NA"


def test_a_change_of_head_count_while_a_row_is_asked_is_no_search(restaurants):
    session, turns = talk(restaurants, "I'd like a table for 8 people this saturday at 7pm",
                          "hmm actually 2 of them can't make it")
    assert values(session, "book_restaurant").get("number_of_people") == 6
    assert not any("answer(" in s for s in statements(turns[-1]))
