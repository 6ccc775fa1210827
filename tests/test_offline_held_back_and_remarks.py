"""Turns that hold a summary back, answer with a remark, or tell values around a greeting, pinned on specs written
here (the gym card desk and dance studio of test_offline_told_in_full, and a sign-up desk): no sample, no held-out
agent.

"hold on, don't book it yet" is a no to the confirmation; "ok 4" answers the count (a number is never small talk);
"I am a pensioner" after several values answers the yes/no beside them; "Riverside, it was tiny back then" is
"Riverside"; a number with spaces and two digits swapped corrects the value given; a greeting, "I am ...", one
labelled number and the story after it are all read, the story with its commas.
"""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk
from tests.test_offline_told_in_full import DESK, STUDIO

SIGNUP = {
    "name": "sign-up desk", "starting_prompt": "Welcome! What's your name?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [{"name": "Main", "kind": "task", "api": "sign_up", "fields": [
        field("full_name", description="Your full name"),
        field("member_number", description="Your member number"),
        field("email", description="Your e-mail address"),
        field("is_pensioner", "bool", "Whether you are a pensioner"),
        field("home_town", description="The town you grew up in"),
        field("confirm", "confirm", "Confirm the sign-up")]}],
    "apis": [{"name": "sign_up"}],
}


@pytest.fixture(scope="module")
def desk(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("desk"), DESK)


@pytest.fixture(scope="module")
def studio(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("studio"), STUDIO)


@pytest.fixture(scope="module")
def signup(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("signup"), SIGNUP)


BOOKED = ("I want to book a dance class", "the 22nd", "6pm")


def test_dont_book_it_yet_is_a_no_to_the_summary(studio):
    _s, results = talk(studio, *BOOKED, "2", "hmm hold on, don't book it yet")
    assert results[-2].acts[-1]["field"] == "confirm"
    assert statements(results[-1]) == ["book_class.confirm = False"]
    assert not any(a["act"] == "report" for a in results[-1].acts)


def test_ok_and_a_number_answers_the_count(studio):
    _s, results = talk(studio, *BOOKED, "ok 4")
    assert results[-2].acts[-1]["field"] == "dancers"
    assert statements(results[-1]) == ["book_class.dancers = 4"]


def test_a_yes_no_said_after_several_values(signup):
    _s, (_r0, r1) = talk(signup, "hi", "Mei Lin Chen, member number 06011987, meilin@example.org. I am a pensioner.")
    assert sorted(statements(r1)) == sorted(['main.full_name = "Mei Lin Chen"', 'main.member_number = "06011987"',
                                             'main.email = "meilin@example.org"', "main.is_pensioner = True"])


def test_a_short_answer_then_a_remark_about_it(signup):
    session = signup.new_session(parser="offline")
    session.inject('main.full_name = "Ana Ruiz"\nmain.member_number = "1234"\nmain.email = "a@b.org"\n'
                   "main.is_pensioner = False")
    assert session.current.last_acts[-1]["field"] == "home_town"
    assert statements(session.turn("Riverside, it was tiny back then")) == ['main.home_town = "Riverside"']


def test_a_spaced_number_with_two_digits_swapped_corrects_the_value(desk):
    _s, results = talk(desk, "hello", "Ana Ruiz", "member code 552011873",
                       "wait sorry, I mixed up the last digits, it's 5520 1183 7")
    assert results[-2].acts[-1]["field"] == "passcode"
    assert statements(results[-1]) == ['login.member_code = "552011837"']


def test_a_greeting_an_introduction_one_labelled_number_and_the_story(desk):
    _s, (r1,) = talk(desk, "Good evening, I am Ana Ruiz, my member code is 88120934. Someone used my card at a gym "
                           "in Leeds, twice, 40 pounds")
    assert sorted(statements(r1)) == sorted([
        'main.member_name = "Ana Ruiz"', 'main.login_details = Login(member_code="88120934")',
        'main.what_happened = "Someone used my card at a gym in Leeds, twice, 40 pounds"'])


def test_can_you_check_on_it_asks_for_help_not_the_kb():
    from pathlib import Path

    from core_engine.parsers.offline.intents import plea
    assert plea("Can you check on it?") and plea("could you look into it for me?")
    assert not plea("can you check the opening hours?")
    agent = Agent.load(Path(__file__).resolve().parents[1] / "sample_projects" / "ticket_submission")
    _s, (r1,) = talk(agent, "Hello. I emailed my leave of absence form on June 3 and I still haven't heard anything "
                            "back. Can you check on it?")
    assert statements(r1) and not any("answer(" in s for s in statements(r1))


def test_a_nickname_then_the_full_name_is_the_full_name(signup):
    _s, (_r0, r1) = talk(signup, "hi", "its kev. kevin marsh")
    assert statements(r1) == ['main.full_name = "Kevin Marsh"']
