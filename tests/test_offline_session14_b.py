"""Turn shapes from heldout22's sample conversations and KB questions (session 14, helper B), pinned on a leisure
centre's spec written here (tests/data/session14_b_leisure.json: not a sample, not a development agent). One test
per mechanism; each fails without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.parsers.offline.words.values import clean_name, find_numbers, normalise, yes_no
from core_engine.session.agent import Agent

from tests.fakes.specs import agent_with_kb, record_values, statements, talk

DATA = json.loads((Path(__file__).parent / "data" / "session14_b_leisure.json").read_text())


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "leisure", DATA["spec"], {"venues": (DATA["venues"], ["description"]), "classes": (DATA["classes"], [])})


values = record_values


LOST = "I've lost my membership card"
CLASS = "I have a problem with my classes"
COURT = "I'd like to book a court"


def test_a_question_in_lower_case_is_no_name(agent):
    assert clean_name("is my card safe though") is None and clean_name("can you help") is None
    assert clean_name("sara okafor") == "Sara Okafor" and clean_name("Ana de la Cruz") == "Ana de la Cruz"
    session, [_, r] = talk(agent, LOST, "is my card safe though")
    assert "full_name" not in values(session, "lost_card")


def test_a_thumbs_up_is_a_yes():
    # alone it says ok; beside words it is dropped (session 20: "Ann Lee \U0001F44D" had stored the name "Ann Lee ok")
    assert normalise("\U0001F44D yes") == "yes" and yes_no(normalise("\U0001F44D"))[0] is True
    assert normalise("great \U0001F60A thanks") == "great thanks"


def test_not_typing_my_pin_refuses_it(agent):
    session, [*_, r] = talk(agent, LOST, "Sara Okafor", "55123", "I'm not typing my PIN in here, no chance")
    assert statements(r) == ['member_check.pin = "NA"']


def test_a_year_said_not_another_corrects_the_date(agent):
    session, [*_, r] = talk(agent, LOST, "Sara Okafor", "I don't know it", "12 August 1990",
                             "oops, 1991 not 1990")
    assert statements(r) == ['identity_check.date_of_birth = "1991-08-12"']


def test_a_name_spelt_with_a_letter_more(agent):
    session, [*_, r] = talk(agent, LOST, "Sara Okafor", "sorry it's Sarah with an h")
    assert statements(r) == ['lost_card.full_name = "Sarah Okafor"']
    session, [*_, r] = talk(agent, LOST, "Sarah Okafor", "sorry, Sara without an h")
    assert statements(r) == ['lost_card.full_name = "Sara Okafor"']


def test_a_things_name_said_last_or_before_a_bracket(agent):
    start = (LOST, "Sara Okafor", "I don't know it", "12 August 1990", "Mr Hughes")
    session, [*_, r] = talk(agent, *start, "ha, that'd be our tortoise, Shelby")
    assert statements(r) == ['identity_check.security_answer_2 = "Shelby"']
    session, [*_, r] = talk(agent, *start, "Mango (the parrot)")
    assert statements(r) == ['identity_check.security_answer_2 = "Mango"']


def test_a_value_with_its_hedge_after_it(agent):
    session, [*_, r] = talk(agent, "I want to quit a class", "umm not sure about that yet. GX 210 maybe?")
    assert values(session, "class_change").get("class_code") == "GX 210"


def test_the_option_whose_first_word_is_said_breaks_a_tie(agent):
    session, [r] = talk(agent, "I want to quit GX 210, the times don't work with my shifts")
    said = values(session, "class_change")
    assert (said["change_type"], said["class_code"]) == ("Quit a Class", "GX 210")


def test_a_vague_problem_opens_no_option_for_the_rest(agent):
    for said in ("hi I have a class problem", "hi, I've got a class issue"):
        session, [r] = talk(agent, said)
        assert values(session, "main") == {"task": "Class Problems"}
        assert "change_type" not in values(session, "class_change"), said


def test_another_option_said_with_the_old_one_named(agent):
    session, [*_, r] = talk(agent, COURT, "Hillside Sports Hall", "squash",
                            "sorry - soccer is the one I want, squash was last time")
    assert statements(r) == ['book_court.sport = "Football"']


def test_there_will_be_n_counts_the_people(agent):
    start = (COURT, "Riverbank Courts", "squash", "no", "friday", "8pm", "3 of us")
    session, [*_, r] = talk(agent, *start, "make it quarter past 8 and there'll be 4 now, my brother's coming")
    assert values(session, "book_court")["time"] == "20:15" and values(session, "book_court")["players"] == 4
    session, [*_, r] = talk(agent, *start, "no, we'll be there at 9pm")
    assert values(session, "book_court")["players"] == 3
    session, [*_, r] = talk(agent, *start, "we're 2 minutes away, there will be 5")
    assert values(session, "book_court")["players"] == 5


def test_a_numbered_one_is_a_pronoun():
    assert [s.value for s in find_numbers("the 2nd one looks nice - court for 2")] == [2]


def test_a_row_picked_then_values_typed_with_a_question_mark(agent):
    session, [_, r] = talk(agent, "what venues do you have in Ashcombe?",
                           "the 2nd one looks good - court for 2 tomorrow at 7pm?")
    said = values(session, "book_court")
    assert (said["date"], said["time"], said["players"]) == ("2024-07-02", "19:00", 2)
    shown = next(a for a in r.trace["parse"]["rules"] if a["rule"] == "choose-result")
    assert "result[1]" in shown["statement"]  # the second row reported


def ask(agent, question):
    from core_engine.knowledge.kb import SQLiteKB
    from core_engine.knowledge.offline import OfflineKnowledgeParser
    with SQLiteKB(agent.kb_path) as kb:
        query, rules = OfflineKnowledgeParser().parse(question, kb, agent.spec)
        return sorted(r["id"] for r in kb.execute(query.sql()).rows), rules


def test_money_per_hour_is_a_rate_not_a_length_of_time(agent):
    rows, rules = ask(agent, "venues under £5 an hour")
    assert rows == ["v2", "v3", "v5"]
    assert [r["column"] for r in rules if r["rule"] == "compare"] == ["fee_per_hour"]
    assert ask(agent, "venues I can book for under 3 hours")[0] == ["v2", "v3", "v5"]  # a length of time still is


def test_with_a_counted_thing_is_at_least_one(agent):
    rows, rules = ask(agent, "venues in Ashcombe with floodlit courts")
    assert rows == ["v1", "v2"]
    assert ask(agent, "venues with floodlit courts under £7 an hour")[0] == ["v1", "v2"]


def test_free_before_the_rows_noun_is_no_charge(agent):
    assert ask(agent, "are there any free venues?")[0] == ["v3"]
    rows, rules = ask(agent, "venues with free wifi")
    assert not any(r["rule"] == "compare" for r in rules)  # free wifi says nothing of the fee
    rows, rules = ask(agent, "can I cancel for free?")
    assert not any(r["rule"] == "compare" for r in rules)


@pytest.fixture(scope="module")
def enrol(tmp_path_factory):
    root = tmp_path_factory.mktemp("enrol")
    (root / "spec.json").write_text(json.dumps(DATA["enrol_spec"]))
    return Agent.load(root)


def test_an_introduction_builds_the_details_not_opened_yet(enrol):
    session, [r] = talk(enrol, "Hello! I'm Ana Ruiz, member number 0412. I want to join GX 210 at beginner level")
    assert values(session, "member_details") == {"member_name": "Ana Ruiz", "member_number": "0412"}
    assert values(session, "class_booking") == {"class_code": "GX 210", "level": "Beginner"}
    for said in ("Hi, I'm Looking to join GX 210", "Hi, I'm Beginner, I want to join GX 210"):
        session, [r] = talk(enrol, said)
        assert "member_name" not in values(session, "member_details"), said  # one word after "I'm": no name


def test_a_labelled_number_then_a_full_stop_then_the_story(agent):
    session, [*_, r] = talk(agent, LOST, "Sara Okafor here, member number 55123. I think it fell out of my bag at the pool")
    assert values(session, "member_check") == {"member_number": "55123"}
    assert values(session, "lost_card")["what_happened"] == "I think it fell out of my bag at the pool"


def test_a_question_with_no_kb_beside_a_story_keeps_the_story(tmp_path):
    (tmp_path / "spec.json").write_text(json.dumps(DATA["report_spec"]))
    desk = Agent.load(tmp_path)
    session, [r] = talk(desk, "is this the right desk?? my card was taken from a locker at the pool")
    assert values(session, "main") == {"what_happened": "my card was taken from a locker at the pool"}
    session, [r] = talk(desk, "is this the right desk??")
    assert values(session, "main") == {}


def test_a_code_typed_whole_is_not_given_its_letters_twice(agent):
    session, [r] = talk(agent, "what's GX 115L about?")
    assert statements(r) == ['answer("what\'s GX 115L about?")']
    session, [r] = talk(agent, "who teaches 115L?")
    assert statements(r) == ['answer("who teaches GX 115L?")']


def test_a_request_then_why_tells_the_story(agent):
    session, [r] = talk(agent, "I need to quit GX 210 because I moved house last month")
    assert values(session, "class_change")["issue_description"] == "I moved house last month"
    session, [r] = talk(agent, "I want to quit GX 210, the times don't work with my shifts")
    assert values(session, "class_change")["issue_description"] == "the times don't work with my shifts"
    session, [r] = talk(agent, "I want to quit GX 210 please")
    assert "issue_description" not in values(session, "class_change")
