"""The playground's model without a browser: recorded turns, rewind and fork logs, replay,
saving as a test, and the live state drawn on the graph."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from components.graph.live_state import field_activity, node_styles, why_asked
from components.playground.model import Playground
from core_engine import GenieError
from core_engine.evaluation.testing import run_test
from storage import Workspace

ROOT = Path(__file__).resolve().parents[1]
TURNS = ["I want to book a table at a pizza place in San Francisco with a patio", "the second one",
         "July 6 2024", "7pm"]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    ws = Workspace(tmp_path_factory.mktemp("ws"))
    p = ws.from_sample(ROOT / "sample_projects" / "restaurant_reservation", "rr")
    return p


@pytest.fixture
def played(project):
    pg = Playground(project.name)
    agent = project.agent()
    pg.start(project, agent, parser="offline", rg="template")
    for text in TURNS:
        pg.send(project, text)
    return pg, agent


def test_every_turn_is_recorded_in_the_log(project, played):
    pg, _ = played
    log = project.open_log(pg.current.log_id)
    turns = log.turns()
    assert [t["user"] for t in turns] == TURNS
    assert turns[0]["trace"]["kb"][0]["rows"] == 5


def test_rewind_keeps_the_old_log_and_starts_a_new_one(project, played):
    pg, _ = played
    old = pg.current.log_id
    pg.rewind_to(project, 2)
    assert len(pg.current.turns) == 2 and pg.current.log_id != old
    assert len(project.open_log(old).turns()) == 4
    pg.set_field(project, "book_restaurant", "date", "2024-07-10")
    pg.send(project, "8pm")
    new_log = project.open_log(pg.current.log_id).turns()
    assert [t["user"] for t in new_log][:2] == TURNS[:2]
    assert new_log[2]["trace"]["input"] == "edit" and len(new_log) == 4
    with pytest.raises(GenieError):
        pg.rewind_to(project, 9)


def test_fork_keeps_the_original(project, played):
    pg, _ = played
    pg.fork_at(project, 1)
    assert len(pg.conversations) == 2 and len(pg.current.turns) == 1
    assert "fork of #1 at turn 1" in pg.current.title
    pg.inject(project, 'book_restaurant.restaurant = answer.result[2]')
    assert len(pg.conversations[0].turns) == 4
    pg.switch(0)
    assert pg.current is pg.conversations[0]


def test_replay_against_an_edited_spec_and_adopt(project, played):
    pg, agent = played
    spec = agent.spec.model_copy(deep=True)
    spec.worksheet("BookRestaurant").field("time").dont_ask = True  # no longer asked (optional alone still is)
    report = pg.replay(dataclasses.replace(agent, spec=spec))
    assert report.changed_turns[0] == 3
    pg.adopt_replay(project, agent)
    assert "replay of #1" in pg.current.title and len(pg.current.turns) == 4


def test_saved_test_passes_then_fails_after_the_spec_breaks(project, played):
    pg, agent = played
    test = pg.to_test("pizza", {1: {"acts"}, 2: {"acts", "values"}, 3: {"acts"}, 4: {"acts", "response"}})
    project.put_test("pizza", test)
    assert run_test(agent, project.tests()["pizza"]).passed
    spec = agent.spec.model_copy(deep=True)
    spec.worksheet("BookRestaurant").field("time").dont_ask = True  # no longer asked (optional alone still is)
    result = run_test(dataclasses.replace(agent, spec=spec), test)
    assert not result.passed and result.first_failure.index == 3


def test_graph_state_marks_asked_filled_and_inactive(project, played):
    pg, agent = played
    state, acts = pg.current.turns[-1].state, pg.current.turns[-1].acts
    activity = field_activity(agent.spec, state)
    assert activity["book_restaurant"]["fields"]["restaurant"] == "filled"
    assert activity["book_restaurant"]["fields"]["special_request_info"] == "dont_ask"
    styles, focus = node_styles(agent.spec, state, acts)
    assert focus == ["f:BookRestaurant.number_of_people"]
    assert styles["f:BookRestaurant.number_of_people"]["borderWidth"] == 5
    assert styles["f:BookRestaurant.date"]["color"]["background"] == "#86efac"
    assert styles["ws:BookRestaurant"]["color"]["border"] == "#1d4ed8"
    why = why_asked(agent.spec, state, acts)
    assert why and "number_of_people" in why[0] and "restaurant, date, time" in why[0]
    start = pg.state_at(0)
    styles0, _ = node_styles(agent.spec, start, [])
    assert styles0["ws:BookRestaurant"]["font"]["color"] == "#94a3b8"  # not started yet


def _draw_trace(turn_json):
    from core_engine import TurnResult
    from components.playground.act_trace import render_trace
    turn = TurnResult(**{k: turn_json[k] for k in ("user", "response", "acts", "state", "trace")})
    render_trace(turn, key="t")


def test_llm_stage_prompt_completion_and_tokens_are_shown(scripted_server, scripted_llm_config):
    from streamlit.testing.v1 import AppTest

    from components.agent.backends import BackendSettings
    from core_engine import Agent
    from tests.fakes.openai_server import Reply

    agent = Agent.load(ROOT / "sample_projects" / "bank_fraud")
    settings = BackendSettings(parser="llm").with_config("parser", scripted_llm_config)
    session = agent.new_session(**settings.session_options())
    scripted_server.push(Reply('main.full_name = "Katarina Miller"', prompt_tokens=321, completion_tokens=9))
    result = session.turn("I'm Katarina Miller")
    assert result.trace["parse"]["llm_calls"], result.trace
    at = AppTest.from_function(_draw_trace, args=(result.to_json(1),), default_timeout=30)
    at.session_state["t-tabs"] = "LLM"
    at.run()
    assert not at.exception
    expander = next(e for e in at.expander if e.label.startswith("parser ·"))
    assert "321 + 9 tokens" in expander.label and "scripted-model" in expander.label
    codes = [c.value.strip() for c in at.code]
    assert 'main.full_name = "Katarina Miller"' in codes  # the completion, verbatim
    sent = [m["content"] for m in scripted_server.requests[0]["messages"]]
    assert all(m.strip() in codes for m in sent)  # the exact prompt the parser sent, message by message


def test_a_recorded_conversation_reopens_with_every_turn(project, played):
    pg, agent = played
    log_id = pg.current.log_id
    fresh = Playground(project.name)  # a reload: a new browser session, the log is in the file
    conv = fresh.reopen(project, agent, log_id)
    assert [t.user for t in conv.turns] == TURNS and conv.log_id == log_id
    values = lambda state: {r["var"]: r.get("values") for r in state["records"]}  # noqa: E731
    assert values(fresh.state_at(4)) == values(pg.current.turns[3].state)
    assert fresh.reopen(project, agent, log_id) is conv and len(fresh.conversations) == 1  # switched, not twice
    fresh.rewind_to(project, 2)  # time travel works on the reopened conversation (a new log keeps turns 1-2)
    assert len(fresh.current.turns) == 2 and fresh.current.log_id != log_id
    assert len(fresh.reopen(project, agent, log_id).turns) == 4 and len(fresh.conversations) == 2


def test_accepting_the_new_behaviour_makes_the_failing_test_pass(project, played):
    from components.testing.accept import accept_new_behaviour, changed_turns

    pg, agent = played
    test = pg.to_test("pizza2", {1: {"acts"}, 2: {"acts", "values"}, 3: {"acts"}, 4: {"acts"}})
    spec = agent.spec.model_copy(deep=True)
    spec.worksheet("BookRestaurant").field("time").dont_ask = True
    changed = dataclasses.replace(agent, spec=spec)
    result = run_test(changed, test)
    assert not result.passed
    new = accept_new_behaviour(test, result)
    assert [c["turn"] for c in changed_turns(test, new)][0] == 3
    assert run_test(changed, new).passed and not run_test(agent, new).passed


def test_a_deferred_turn_is_logged_by_save_unsaved_in_order(project):
    pg = Playground(project.name)
    pg.start(project, project.agent(), parser="offline", rg="template")
    log_id = pg.current.log_id
    pg.send(project, TURNS[0], defer_log=True)
    pg.send(project, TURNS[1], defer_log=True)
    assert project.open_log(log_id).turns() == []  # drawn first, written after
    pg.save_unsaved(project)
    assert pg.unsaved == []
    turns = project.open_log(log_id).turns()
    assert [t["user"] for t in turns] == TURNS[:2]
    assert turns[1]["state"]["records"] == pg.current.turns[1].state["records"]


def test_a_turn_whose_write_fails_stays_unsaved_and_is_written_later(project):
    pg = Playground(project.name)
    pg.start(project, project.agent(), parser="offline", rg="template")
    log_id = pg.current.log_id

    class Failing:
        def open_log(self, _):
            raise GenieError("disk full")

    pg.send(project, TURNS[0], defer_log=True)
    with pytest.raises(GenieError):
        pg.save_unsaved(Failing())
    assert len(pg.unsaved) == 1
    pg.send(project, TURNS[1])  # not deferred: writes everything pending, in order
    assert [t["user"] for t in project.open_log(log_id).turns()] == TURNS[:2]


def test_a_log_handle_rereads_after_another_handle_appended(project):
    pg = Playground(project.name)
    pg.start(project, project.agent(), parser="offline", rg="template")
    log_id = pg.current.log_id
    pg.send(project, TURNS[0])
    other = Playground(project.name)
    other.reopen(project, project.agent(), log_id)  # another tab continues the same log
    other.send(project, TURNS[1])
    pg.send(project, TURNS[2])  # this tab's handle last stored turn 1; turn 2 came from the other one
    turns = project.open_log(log_id).turns()
    assert [t["user"] for t in turns] == TURNS[:3]
    assert turns[2]["state"]["records"] == pg.current.turns[-1].state["records"]
