"""Turn shapes from session 22's blind agents (heldout53-55: pest control, coworking desk, tailor), pinned on a music
house's spec written here (tests/data/session22_music.json: not a sample, not a development agent). One test per
mechanism; each fails without it.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from core_engine.evaluation.metrics import statements_equal
from core_engine.evaluation.testing import same_value
from core_engine.parsers.offline.words.libvalues import find_phones
from core_engine.parsers.offline.words.values import clean_name, find_dates

from tests.fakes.specs import agent_with_kb, record_values, statements, talk

DATA = json.loads((Path(__file__).parent / "data" / "session22_music.json").read_text())
ROOM = "i need a practice room"
JOIN = "i want to buy a pass"
REPAIR = "i want to leave an instrument for repair"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "music", DATA["spec"], {"rooms": (DATA["rooms"], ["description"])})


values = record_values


def test_values_compare_without_letter_case_or_float_zeros():
    assert same_value("jordan blake", "Jordan Blake") and same_value("88b  kingsway", "88b Kingsway")
    assert not same_value("Jordan Blake", "Jordan Black") and same_value(4, 4.0)
    assert statements_equal(['x.name = "tom okafor"', "x.hours = 4"], ['x.name = "Tom Okafor"', "x.hours = 4.0"])
    assert not statements_equal(['x.name = "tom okafor"'], ['x.name = "tom okafo"'])


def test_a_phone_number_ending_a_sentence():
    assert [p.value for p in find_phones("07700 900118. no email thanks")] == ["07700 900118"]
    assert find_phones("it costs 0113.5") == []


def test_a_name_with_whom_they_are_with():
    assert clean_name("Dan Hughes at Northlight") == "Dan Hughes"
    assert clean_name("tom okafor, from okafors cafe") == "Tom Okafor"
    assert clean_name("Ana de la Cruz") == "Ana de la Cruz"


def test_dates_of_weeks_said_in_words():
    today = dt.date(2025, 3, 12)  # a Wednesday
    said = {t: [d.value for d in find_dates(t, today)] for t in
            ("end of next week", "the end of the week", "the monday after next", "wensday next week",
             "beginning of next week")}
    assert said == {"end of next week": ["2025-03-21"], "the end of the week": ["2025-03-14"],
                    "the monday after next": ["2025-03-24"], "wensday next week": ["2025-03-19"],
                    "beginning of next week": ["2025-03-17"]}


def test_a_short_answer_without_its_remark(agent):
    session, [*_, r] = talk(agent, REPAIR, "cello, theyre really heavy to carry")
    assert values(session, "repair")["instrument"] == "cello"
    session, [*_, r] = talk(agent, REPAIR, "good. its a viola")
    assert values(session, "repair")["instrument"] == "viola"
    session, [*_, r] = talk(agent, REPAIR, "its a banjo obviously lol")
    assert values(session, "repair")["instrument"] == "banjo"


def test_optional_fields_declined_by_name_beside_an_answer(agent):
    start = (ROOM, "Willow", "3rd July", "10am", "2", "Ann Lee")
    session, [*_, r] = talk(agent, *start, "ann@lee.org, nothing to set up")
    assert statements(r) == ['book_room.email = "ann@lee.org"', 'book_room.notes = "NA"']
    session, [*_, r] = talk(agent, *start, "ann@lee.org")
    session.turn("no thats fine")
    assert values(session, "book_room")["notes"] == "NA"


def test_a_required_field_is_not_declined_in_passing(agent):
    session, [*_, r] = talk(agent, JOIN, "adult monthly pass", "Ann Lee", "07700 900118, no phone calls after 6 though")
    assert values(session, "join")["phone"] == "07700 900118"


def test_the_hours_of_a_range_replace_its_end_read_as_hours(agent):
    session, [*_, r] = talk(agent, ROOM, "Oak Studio", "3rd July", "6pm till 10")
    assert values(session, "book_room")["start_time"] == "18:00" and values(session, "book_room")["hours"] == 4
    session, [*_, r] = talk(agent, ROOM, "Oak Studio", "3rd July", "from 9 all day, so till 5")
    assert values(session, "book_room")["start_time"] == "09:00" and values(session, "book_room")["hours"] == 8


def test_a_request_put_as_a_question_opens_the_task_by_its_values(agent):
    session, [r] = talk(agent, "hiya can i grab the oak studio tmrw from 10ish for 2 hrs?")
    got = values(session, "book_room")
    assert values(session, "main")["task"] == "Book Room"
    assert (got["date"], got["start_time"], got["hours"]) == ("2024-07-02", "10:00", 2)


def test_two_words_of_one_option_in_the_tasks_example_choose_it(agent):
    session, [r] = talk(agent, "sign me up for a student monthly pass please")
    assert values(session, "join")["plan"] == "Student Monthly Pass"


def test_a_greeting_by_the_part_of_the_day_is_no_option(agent):
    session, [r] = talk(agent, "morning! lovely weather for it eh")
    assert statements(r) == [] and values(session, "main").get("task") is None
    session, [*_, r] = talk(agent, REPAIR, "my cello", "evening, after work")
    assert values(session, "repair")["callback_time"] == "Evening"


def test_the_first_name_said_again_with_the_family_name(agent):
    session, [*_, r] = talk(agent, JOIN, "adult monthly pass", "I'm Jo, Jo Malik")
    assert values(session, "join")["full_name"] == "Jo Malik"


def test_forget_it_for_now_after_a_remark_is_a_cancel(agent):
    session, [*_, r] = talk(agent, JOIN, "adult monthly pass", "hmm so 60 quid, more than i thought. forget it for now")
    assert r.acts and r.acts[-1].get("control") == "cancel" or "stop" in r.response.lower()
    r = session.turn("yes stop")
    assert 'exitws(join)' in statements(r)


def test_a_question_after_out_of_curiosity(agent):
    session, [r] = talk(agent, "out of curiosity whats the cheapest room you have")
    assert statements(r)[0].startswith("answer(")


def test_the_number_before_not_corrects_the_value_it_names(agent):
    session, [*_, r] = talk(agent, ROOM, "Oak Studio", "3rd July", "10am", "3",
                             "actually my drummer just bailed so it's 2 not 3")
    assert statements(r) == ["book_room.hours = 2"]


def test_a_day_of_the_month_corrects_the_date_in_its_month(agent):
    session, [*_, r] = talk(agent, ROOM, "Oak Studio", "20 July", "10am", "hmm actually the 22nd not the 20th")
    assert statements(r) == ['book_room.date = "2024-07-22"']


def test_some_of_the_party_is_no_count(agent):
    session, [*_, r] = talk(agent, ROOM, "Oak Studio", "3rd July", "10am", "2",
                             "Ann Lee", "ann@lee.org", "one of us uses a wheelchair")
    assert values(session, "book_room")["hours"] == 2


def test_a_row_named_whole_is_what_the_opening_searches(agent):
    session, [r] = talk(agent, "need the oak studio booked for the band")
    assert any("answer(\"Oak Studio\")" in s or "Oak Studio" in s for s in statements(r))


def test_the_word_one_picks_a_row_of_an_earlier_answer(agent):
    session, [*_, r] = talk(agent, "which piano rooms do you have?", "how much is the vocal booth?",
                             "ok i'll go with the birch one i think")
    assert values(session, "main")["task"] == "Book Room"
    assert any("result[" in s for s in statements(r))


def test_a_kind_of_what_a_yes_no_question_asks_about_is_a_yes(agent):
    start = (ROOM, "Willow", "3rd July", "10am", "2", "Ann Lee", "ann@lee.org", "no thats fine")
    session, [*_, r] = talk(agent, *start, "two kids, both very well behaved")
    assert statements(r) == ["book_room.children = True"]
    session, [*_, r] = talk(agent, *start, "we'll need extra chairs")
    assert "book_room.children = True" not in statements(r)


def test_a_reference_offered_with_a_doubt_is_no_question():
    from core_engine.parsers.offline.intents import proposal
    assert proposal("uh its PC-55120 i think?") and proposal("hb-2231 maybe?")
    assert not proposal("is PC-55120 ready yet?") and not proposal("what is PC-55120?")


def test_a_question_about_things_that_dont_have_something_is_no_refusal(agent):
    session, [r] = talk(agent, "and which rooms dont have a piano")
    assert statements(r)[0].startswith("answer(") and values(session, "main").get("task") is None


def test_a_new_range_moves_a_held_booking(agent):
    start = (ROOM, "Oak Studio", "3rd July", "7pm", "2", "Ann Lee", "ann@lee.org", "no thats fine", "no")
    session, [*_, r] = talk(agent, *start, "wait can i do 8 till 10 instead")
    assert statements(r) == ['book_room.start_time = "20:00"'] and "no-match" not in [x["rule"] for x in r.trace["parse"]["rules"]]
    session, [*_, r] = talk(agent, *start, "actually make it 6 till 9")
    assert statements(r) == ['book_room.start_time = "18:00"', "book_room.hours = 3"]


def test_the_code_after_a_yes_fills_the_field_the_yes_opens(agent):
    session, [*_, r] = talk(agent, JOIN, "adult monthly pass", "Ann Lee", "07700 900118", "yep, STU-55120")
    assert statements(r) == ["join.is_student = True", 'join.student_card = "STU-55120"']
    session, [*_, r] = talk(agent, JOIN, "adult monthly pass", "Ann Lee", "07700 900118", "yes i am, 2nd year")
    assert statements(r) == ["join.is_student = True"]


def test_an_options_taught_phrase_said_beside_an_answer(agent):
    session, [*_, r] = talk(agent, REPAIR, "my cello, call me first thing")
    assert values(session, "repair")["callback_time"] == "Morning"
    session, [*_, r] = talk(agent, REPAIR, "my cello, but not first thing")
    assert values(session, "repair").get("callback_time") != "Morning"


def test_a_taught_phrase_inside_another_clause_is_no_option(agent):
    for said in ("my cello, i am out before lunch", "my cello, anytime but before lunch"):
        session, [*_, r] = talk(agent, REPAIR, said)
        assert values(session, "repair").get("callback_time") != "Morning", said


def test_a_request_to_have_something_opens_a_task_not_any_question_with_a_time(agent):
    for said in ("can i get a refund for the session on the 3rd at 10?", "will you be open on sunday at 10?",
                 "can i move my booking from friday at 10 to saturday at 10?"):
        session, [r] = talk(agent, said)
        assert values(session, "main").get("task") is None, said


def test_a_range_whose_end_says_pm_starts_in_the_afternoon_too(agent):
    session, [*_, r] = talk(agent, ROOM, "Oak Studio", "3rd July", "7-11pm")
    assert values(session, "book_room")["start_time"] == "19:00" and values(session, "book_room")["hours"] == 4


def test_things_named_that_stay_away_are_no_yes(agent):
    start = (ROOM, "Willow", "3rd July", "10am", "2", "Ann Lee", "ann@lee.org", "no thats fine")
    session, [*_, r] = talk(agent, *start, "two kids but they will stay at home")
    assert "book_room.children = True" not in statements(r)
