"""Turn shapes every agent meets (session 7, helper F): a yes/no question about the agent's world ("do any of
your ... ?") is a question for the KB, not a task; a cancel said after its reason ("... never mind, cancel it"),
and "yes, cancel" to the agent's "do you want to stop?"; corrections of one word of a value ("71 not 17") and of
the one number given ("sorry it was 5"); an answer that leads with the value asked ("a hedge trimmer, for 3
days"); "ok yes, that's it" to a summary."""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "tool hire", "starting_prompt": "Tool hire desk, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Hire Tool", "description": "rent a power tool or a ladder for some days"},
                    {"value": "Report Damage", "description": "a hired tool broke or was damaged"}),
        {"name": "HireTool", "kind": "task", "predicate": 'task == "Hire Tool"', "api": "hire", "fields": [
            field("tool", description="The tool you want"), field("days", "int", "For how many days"),
            field("delivery_address", description="Where to deliver it, e.g. 14 Mill Lane"),
            field("confirm", "confirm", "Confirm the hire")]},
        {"name": "ReportDamage", "kind": "task", "predicate": 'task == "Report Damage"', "api": "damage",
         "fields": [field("what_happened", description="What happened to the tool")]},
        {"name": "tools", "kind": "kb", "description": "The tools for hire", "fields": [
            field("id", primary_key=True), field("name"), field("category"), field("day_rate", "float")]},
    ],
    "apis": [{"name": "hire"}, {"name": "damage"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("tools"), SPEC)


@pytest.mark.parametrize("question", ["do any of your tools break often?",
                                      "are any of your ladders for rent?"])
def test_a_yes_no_question_about_the_agents_world_is_a_question_not_a_task(agent, question):
    _s, results = talk(agent, question)
    said = statements(results[0])
    assert said and all(s.startswith("answer(") for s in said)


def test_a_cancel_after_its_reason_asks_to_stop_and_yes_cancel_stops(agent):
    s, results = talk(agent, "I'd like to hire a tool", "a hedge trimmer")
    assert results[1].acts[-1]["field"] == "days"
    r = s.turn("oh hang on, my neighbour has one I can borrow. never mind, cancel it")
    assert statements(r) == [] and "stop" in r.response.lower()
    r = s.turn("yes, cancel")
    assert statements(r)[0] == "exitws(hire_tool)"
    s, _results = talk(agent, "I'd like to hire a tool", "a hedge trimmer")
    r = s.turn("the hedge is taller than I thought. can you tell me the day rate?")  # a question: no cancel
    assert "stop" not in r.response.lower()


def test_corrections_of_a_word_of_a_value_and_of_the_one_number_given(agent):
    s, _results = talk(agent, "I'd like to hire a tool", "a hedge trimmer", "4 days", "17 Bramble Way")
    r = s.turn("wait, the house number is 71 not 17")
    assert statements(r) == ['hire_tool.delivery_address = "71 Bramble Way"']
    s, results = talk(agent, "I'd like to hire a tool", "a hedge trimmer", "4 days")
    assert results[-1].acts[-1]["field"] == "delivery_address"
    assert statements(s.turn("sorry it was 5, not thinking")) == ["hire_tool.days = 5"]


def test_an_answer_leading_with_the_value_asked_and_ok_yes_to_the_summary(agent):
    s, results = talk(agent, "I'd like to hire a tool", "a hedge trimmer, for 3 days")
    assert statements(results[1]) == ['hire_tool.tool = "hedge trimmer"', "hire_tool.days = 3"]
    s.turn("17 Bramble Way")
    assert statements(s.turn("ok yes that's it")) == ["hire_tool.confirm = True"]
