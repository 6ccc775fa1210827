"""Turn shapes every agent meets (session 7, helper F): a yes/no question about the agent's world ("do any of
your ... ?") is a question for the KB, not a task; a cancel said after its reason ("... never mind, cancel it"),
and "yes, cancel" to the agent's "do you want to stop?"."""

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
