"""Values said the way people say them: an e-mail address spelt out in words, a name after a title, a number
settled on after others were floated.

Pinned on a small choir-membership spec written here (not a sample, not a development agent).
"""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.words.values import clean_name, find_emails
from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "choir desk", "starting_prompt": "Hello, choir desk.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Join Choir", "description": "become a member of the choir"}),
        {"name": "JoinChoir", "kind": "task", "predicate": 'task == "Join Choir"', "api": "join", "fields": [
            field("member_name", description="Your full name"),
            field("email", description="An e-mail address for the newsletter"),
            field("guests", "int", "How many guests you will bring to the first rehearsal"),
            field("confirm", "confirm", "Confirm the membership")]},
    ],
    "apis": [{"name": "join"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("choir"), SPEC)


def test_an_email_spelt_out_in_words(agent):
    _, [*_, r] = talk(agent, "I'd like to join the choir", "Jo Lee", "mdunn at hotmail dot co dot uk")
    assert statements(r) == ['join_choir.email = "mdunn@hotmail.co.uk"']
    assert [s.value for s in find_emails("it's jo dot lee at gmail dot com thanks")] == ["jo.lee@gmail.com"]
    assert find_emails("I work at google dot com") == []  # where someone works, no address


def test_a_title_is_not_part_of_the_name(agent):
    _, [*_, r] = talk(agent, "I'd like to join the choir", "it's Mr Daniel Okafor")
    assert statements(r) == ['join_choir.member_name = "Daniel Okafor"']
    assert clean_name("Mr Smith") == "Mr Smith"  # a title and one name: left as said


def test_the_number_settled_on_after_others_were_floated(agent):
    opening = ("I'd like to join the choir", "Jo Lee", "jo@example.org")
    for said, want in (("prob 2, maybe 3... say 3", 3), ("2 or 3, let's say 3", 3), ("2, make it 4", 4),
                       ("2 adults, 3 children", 5), ("3", 3)):
        _, [*_, r] = talk(agent, *opening, said)
        assert statements(r) == [f"join_choir.guests = {want}"], said
