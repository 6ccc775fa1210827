"""A name and a phone number given in one answer to the name question (session 15, a blind-set writer's turn
"Euan MacLeod 07834 112233"): the phone went to its field and the name field kept the digits too.

On a choir's spec written here (not a sample, not a test agent).
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "choir_desk", "starting_prompt": "Hello, this is the choir's membership desk.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Join Choir", "description": "join the choir as a singer"}),
        {"name": "JoinChoir", "kind": "task", "predicate": 'task == "Join Choir"', "api": "join_choir", "fields": [
            field("voice", "Enum", "Your voice part", enum_values=[{"value": v} for v in
                                                                  ("Soprano", "Alto", "Tenor", "Bass")]),
            field("singer", description="Full name of the singer"),
            field("mobile", description="A mobile number for rehearsal changes"),
            field("confirm", "confirm", "Confirm the sign-up")]},
    ],
    "apis": [{"name": "join_choir"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("choir"), SPEC)


@pytest.mark.parametrize("said, name", [("Euan MacLeod 07834 112233", "Euan MacLeod"),
                                        ("Ana Lucia Costa, 07700 900123", "Ana Lucia Costa")])
def test_a_name_and_a_phone_in_one_answer_are_split(agent, said, name):
    _, results = talk(agent, "I'd like to join the choir", "alto", said)
    got = statements(results[-1])
    assert f'join_choir.singer = "{name}"' in got, got
    assert any(s.startswith("join_choir.mobile = ") and s.split("= ")[1].strip('"')[:5].isdigit() for s in got), got


def test_a_name_with_a_number_that_is_no_other_field_is_kept_whole(agent):
    _, results = talk(agent, "I'd like to join the choir", "alto", "Henry the 8th")
    assert not any(s.startswith("join_choir.mobile") for s in statements(results[-1]))
