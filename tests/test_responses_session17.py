"""Session 17: two slips in the agent's own words, found by a blind-set writer.

An API report printed the example a field's description gives beside the real value ("Your application reference,
like AL-20931: AL-21790"), and a refused required field was named with a capital in mid-sentence ("I can't go ahead
without A phone number"). Both on an allotments office's spec written here.
"""

from __future__ import annotations

import pytest

from core_engine.spec.model import inside_sentence
from tests.fakes.specs import agent_of, field, task_choice

SPEC = {
    "name": "allotments", "starting_prompt": "Hello, the allotments office.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Apply For Plot", "description": "apply for a vacant plot"}),
        {"name": "ApplyForPlot", "kind": "task", "predicate": 'task == "Apply For Plot"', "api": "apply",
         "fields": [
             field("full_name", "str", "Your full name"),
             field("phone", "str", "A phone number we can reach you on"),
             field("reference", "str", "Your application reference, like AL-20931", kind="output")]},
    ],
    "apis": [{"name": "apply", "kind": "mock", "mock_result": {"reference": "AL-21790"}}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("allotments"), SPEC)


def _formal(agent, *turns):
    session = agent.new_session(parser="formal")
    return [session.turn(t) for t in turns]


def test_a_report_of_an_output_leaves_out_the_example_its_description_gives(agent):
    *_, r = _formal(agent, 'main.task = "Apply For Plot"', 'apply_for_plot.full_name = "Ada Bell"',
                    'apply_for_plot.phone = "07700 900111"')
    report = [a for a in r.acts if a.get("act") == "report"]
    assert report, r.response
    assert "- Your application reference: AL-21790" in r.response, r.response
    assert "like AL-20931" not in r.response


def test_a_refused_field_is_named_in_lower_case_inside_the_sentence(agent):
    *_, r = _formal(agent, 'main.task = "Apply For Plot"', 'apply_for_plot.full_name = "Ada Bell"',
                    'apply_for_plot.phone = "NA"')
    assert "I can't go ahead without a phone number we can reach you on." in r.response, r.response


def test_a_label_keeps_an_acronym_or_a_brand_at_its_start():
    assert inside_sentence("A phone number") == "a phone number"
    assert inside_sentence("Your full name") == "your full name"
    assert inside_sentence("PIN of the card") == "PIN of the card"
    assert inside_sentence("iPhone model") == "iPhone model"
