"""Answers told together or in the user's own order, pinned on a locksmith call-out spec written here (no
sample, no held-out agent).

Two security answers in one sentence, each led by words of its own field's description, go each to its field;
a long sentence that reads as another field (what happened) is not taken as the short answer asked; a "no ..."
answer is never a name or a code; a first name and a family name told apart make one name, and what is left of
a greeting is not part of the problem described; a yes/no field told among a list of answers by its own name
words ("not a member") is read with the rest; asking again for the task already in progress is understood.
"""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk

SPEC = {
    "name": "locksmith call-out", "starting_prompt": "Locksmith desk, how can I help?",
    "settings": {"start_worksheet": "CallOut", "today": "2024-07-01"},
    "worksheets": [
        {"name": "CallOut", "kind": "task", "description": "Send a locksmith to a customer locked out of their home",
         "api": "send_locksmith",
         "fields": [
             field("caller_name", description="Your full name"),
             field("account", "Account", "The customer's account"),
             field("checks", "Checks", "Identity checks"),
             field("what_happened", description="What happened: how you got locked out"),
             field("confirm", "confirm", "Confirm the call-out")]},
        {"name": "Account", "kind": "task", "description": "The customer's account",
         "fields": [
             field("member_code", description="Your membership code, e.g. AB12345"),
             field("email", description="Your e-mail address"),
             field("is_member", "bool", "Whether you are a premium member")]},
        {"name": "Checks", "kind": "task", "description": "Identity checks",
         "fields": [
             field("answer_1", description="The name of your first school (security question)"),
             field("answer_2", description="Your favourite teacher's surname (security question)")]},
    ],
    "apis": [{"name": "send_locksmith"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("locksmith"), SPEC)


def rules(result) -> list[str]:
    return [r["rule"] for r in result.trace["parse"]["rules"]]


OPENING = "I need a locksmith, I'm locked out of my home"


def _to_checks(agent, *more: str):
    return talk(agent, OPENING, "Ana Ruiz", "AB12345, ana@example.org, a premium member", *more)


def test_two_answers_in_one_sentence_go_each_to_the_field_its_words_describe(agent):
    _s, results = _to_checks(agent, "my first school was Hillcrest and my favourite teacher was called Okafor")
    assert results[-2].acts[-1]["field"] == "answer_1"
    assert sorted(statements(results[-1])) == ['checks.answer_1 = "Hillcrest"', 'checks.answer_2 = "Okafor"']


def test_a_story_to_a_short_question_is_not_taken_as_its_answer(agent):
    _s, results = _to_checks(agent, "the door slammed shut behind me while the keys were still inside the flat")
    assert results[-2].acts[-1]["field"] == "answer_1"
    assert not any(s.startswith("checks.answer_1") for s in statements(results[-1]))
    assert "value-doubtful" in rules(results[-1])


def test_a_right_answer_in_a_sentence_is_still_taken(agent):
    _s, results = _to_checks(agent, "it was a little village school called Hillcrest")
    assert statements(results[-1]) == ['checks.answer_1 = "Hillcrest"']


def test_a_no_with_words_after_it_is_never_a_name_or_a_code(agent):
    for answer in ("no more codes", "nothing else for now", "not that one either"):
        _s, results = talk(agent, OPENING, "Ana Ruiz", answer)
        assert results[-2].acts[-1]["field"] == "member_code"
        assert not any(s.startswith("account.member_code") for s in statements(results[-1])), answer


def test_first_and_family_name_told_apart_make_one_name_and_the_greeting_is_not_the_story(agent):
    _s, (r1,) = talk(agent, "Hi there. My name's Ana and my surname is Ruiz. I locked myself out of my flat")
    assert sorted(statements(r1)) == ['call_out.caller_name = "Ana Ruiz"',
                                      'call_out.what_happened = "I locked myself out of my flat"']


def test_a_yes_no_field_told_by_its_name_words_among_other_answers(agent):
    _s, results = talk(agent, OPENING, "Ana Ruiz", "AB12345, ana@example.org, not a premium member")
    assert sorted(statements(results[-1])) == ['account.email = "ana@example.org"', 'account.is_member = False',
                                               'account.member_code = "AB12345"']
    _s, results = talk(agent, OPENING, "Ana Ruiz", "AB12345, ana@example.org, premium member")
    assert 'account.is_member = True' in statements(results[-1])


def test_asking_for_the_task_already_in_progress_is_understood(agent):
    _s, (_r1, r2, r3) = talk(agent, OPENING, "Ana Ruiz", "please send a locksmith to my home")
    assert r2.acts[-1]["field"] == "member_code"
    assert "task-already-open" in rules(r3) and statements(r3) == []
    assert r3.acts == [r2.acts[-1]]  # the question again, with no "sorry, I didn't understand"


def test_a_cancel_with_a_plan_to_do_it_another_way_is_a_cancel(agent):
    _s, results = talk(agent, OPENING, "Ana Ruiz", "never mind, I'll call my landlord")
    assert "control-cancel" in rules(results[-1])
    assert "stop" in results[-1].response


FLAT = {
    "name": "flat repairs", "starting_prompt": "Repairs desk, hello!",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "description": "A repair request for a rented flat.", "api": "log_repair",
         "fields": [
             field("repair_kind", "Enum", "The kind of repair", enum_values=[
                 {"value": "Plumbing", "description": "leaks, taps, toilets"},
                 {"value": "Electrics", "description": "sockets, lights, fuses"}]),
             field("tenant_name", description="Your full name"),
             field("confirm", "confirm", "Confirm the repair request")]},
    ],
    "apis": [{"name": "log_repair"}],
}


@pytest.fixture(scope="module")
def flat(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("flat"), FLAT)


def test_an_introduction_while_an_option_is_asked_fills_the_name(flat):
    _s, (r1, r2) = talk(flat, "I need something repaired in my flat", "my name's Lucy Chen")
    assert r1.acts[-1]["field"] == "repair_kind"
    assert statements(r2) == ['main.tenant_name = "Lucy Chen"']


def test_a_start_task_with_a_generic_name_is_called_by_its_description(flat):
    _s, results = talk(flat, "my name's Lucy Chen", "forget it")
    assert "Do you want me to stop with this repair request for a rented flat?" in results[-1].response


def test_answers_separated_by_slashes(agent):
    _s, results = talk(agent, OPENING, "Ana Ruiz", "AB12345 / ana@example.org / not a premium member")
    assert sorted(statements(results[-1])) == ['account.email = "ana@example.org"', 'account.is_member = False',
                                               'account.member_code = "AB12345"']


def test_a_bare_yes_among_the_answers_is_the_records_one_flag(agent):
    _s, results = talk(agent, OPENING, "Ana Ruiz", "AB12345, ana@example.org, yes")
    assert 'account.is_member = True' in statements(results[-1])
