"""Fault injection in whole conversations: the fault hits at turn k, the conversation goes on.

- An `http` API that hangs past its timeout, answers HTTP 500, or answers garbage: the
  user is told why, nothing is marked done, and once the service is back a new "yes"
  completes the task with the same payload.
- A KB query that times out (the read-only SQLiteKB's time limit, for a fast query
  under a tiny limit and for a runaway query an LLM wrote): the user is told, the
  task records are untouched, and the next question is answered.
- The LLM endpoint (real openai client, scripted local server) timing out, failing
  with 500 or 429, or answering garbage, nothing or a truncated statement, at every
  turn k of the sample conversations: turn k keeps the last good state and says so;
  repeating turn k then gives exactly the final state of the conversation run without
  faults. The same for the LLM response generator, whose faults fall back to the
  template text without touching the state.
(Endpoint behaviour of single LLM calls is in tests/test_llm.py and test_llm_faults.py.)
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from core_engine import Agent, Spec
from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.offline import OfflineKnowledgeParser, SQLKnowledge
from core_engine.knowledge.llm import LLMKnowledge, LLMKnowledgeParser
from core_engine.llm.client import LLMConfig, OpenAIClient
from core_engine.evaluation.testing import load_test
from core_engine.session.turn import PARSE_FAILED
from tests.fakes.openai_server import Reply, ScriptedOpenAIServer
from tests.robustness import SAMPLES_DIR, assert_turn_sound

# -- an http API that misbehaves ------------------------------------------------------------


class FlakyService(BaseHTTPRequestHandler):
    mode = "ok"
    received: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).received.append(body)
        if self.mode == "hang":
            time.sleep(1.0)
            return
        if self.mode == "error":
            self.send_response(500)
            self.end_headers()
            return
        payload = b"<html>oops" if self.mode == "garbage" else json.dumps({"ticket": "T-42", "got": body}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def service() -> Iterator[str]:
    FlakyService.mode, FlakyService.received = "ok", []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FlakyService)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/tickets"
    server.shutdown()
    server.server_close()


def ticket_agent(url: str) -> Agent:
    return Agent(spec=Spec.model_validate({
        "name": "helpdesk",
        "worksheets": [{"name": "Main", "api": "open_ticket", "fields": [
            {"name": "full_name", "description": "Your full name"},
            {"name": "issue", "description": "What went wrong"},
            {"name": "confirm", "type": "confirm", "description": "Open the ticket?"}]}],
        "apis": [{"name": "open_ticket", "kind": "http", "url": url, "timeout_s": 0.3}]}))


@pytest.mark.parametrize("mode,told", [("hang", "failed"), ("error", "HTTP 500"), ("garbage", "did not return JSON")])
def test_http_api_fault_at_the_last_turn_then_recovery(service: str, mode: str, told: str) -> None:
    session = ticket_agent(service).new_session(parser="formal")
    session.turn('main.full_name = "Ada Lovelace"')
    asked = session.turn('main.issue = "printer on fire"')
    assert asked.acts == [{"act": "ask", "var": "main", "worksheet": "Main", "field": "confirm"}]

    FlakyService.mode = mode
    failed = session.turn("main.confirm = True")
    assert_turn_sound(failed)
    assert failed.acts[0]["act"] == "say" and told in failed.acts[0]["text"]
    assert "try again" in failed.response
    assert failed.acts[1:] == asked.acts  # the summary is asked again, so a new yes retries
    main = session.current.get("main")
    assert main.status == "active" and main.result is None
    assert main.values == {"full_name": "Ada Lovelace", "issue": "printer on fire"}

    FlakyService.mode = "ok"
    done = session.turn("main.confirm = True")
    assert_turn_sound(done)
    assert done.acts[0]["act"] == "report" and done.acts[0]["result"]["ticket"] == "T-42"
    assert session.current.get("main").status == "completed"
    assert FlakyService.received[-1] == {"full_name": "Ada Lovelace", "issue": "printer on fire", "confirm": True}
    assert len(FlakyService.received) == 2  # one failed call, one good one: no hidden retries


def test_http_api_fault_in_natural_language(service: str) -> None:
    session = ticket_agent(service).new_session(parser="offline")
    FlakyService.mode = "error"
    for text in ("hello", "Ada Lovelace", "my printer is on fire"):
        session.turn(text)
    failed = session.turn("yes")
    assert_turn_sound(failed)
    assert "HTTP 500" in failed.response and session.current.get("main").status == "active"
    FlakyService.mode = "ok"
    done = session.turn("yes please")
    assert done.acts[0]["act"] == "report" and session.current.get("main").status == "completed"


# -- a knowledge-base query that times out -----------------------------------------------------


def test_kb_time_limit_mid_conversation_then_recovery() -> None:
    agent = Agent.load(SAMPLES_DIR / "restaurant_reservation")
    slow = SQLiteKB(agent.kb_path, timeout_s=1e-9)  # every query trips the time limit
    session = agent.new_session(parser="offline", knowledge=SQLKnowledge(slow, OfflineKnowledgeParser()))
    first = session.turn("I'd like to book a table")
    before = [r for r in first.state["records"] if r["kind"] == "task"]

    result = session.turn("a pizza place in San Francisco")
    assert_turn_sound(result)
    assert "timed out" in result.response
    kb = [r for r in result.state["records"] if r["kind"] == "kb"]
    assert kb and all(r["status"] == "error" and "timed out" in r["error"] for r in kb)
    tasks = [r for r in result.state["records"] if r["kind"] == "task"]
    assert [(t["var"], {k: v for k, v in t["values"].items() if k != "restaurant"}) for t in tasks] == \
        [(t["var"], t["values"]) for t in before]
    assert result.acts[-1]["act"] == "ask"  # the agent still asks for what it needs

    session.backends.knowledge = SQLKnowledge(SQLiteKB(agent.kb_path), OfflineKnowledgeParser())
    again = session.turn("a pizza place in San Francisco")
    assert_turn_sound(again)
    report = next(a for a in again.acts if a["act"] == "report")
    assert report["result"] and "error" not in report
    slow.close()


RUNAWAY = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) AS c FROM n"


def test_runaway_llm_sql_is_stopped_by_the_time_limit(scripted_server: ScriptedOpenAIServer) -> None:
    agent = Agent.load(SAMPLES_DIR / "restaurant_reservation")
    client = OpenAIClient(LLMConfig(base_url=scripted_server.base_url, model="m", timeout_s=5, max_retries=0))
    kb = SQLiteKB(agent.kb_path, timeout_s=0.2)
    knowledge = LLMKnowledge(kb, LLMKnowledgeParser(client, max_repairs=0))
    session = agent.new_session(parser="formal", knowledge=knowledge)
    before = session.state

    scripted_server.push(Reply(f"```sql\n{RUNAWAY}\n```"))
    result = session.turn('answer("how many restaurants are there, counting forever")')
    assert_turn_sound(result)
    record = next(r for r in result.state["records"] if r["kind"] == "kb")
    assert record["status"] == "error" and record["error"] in result.response  # told in plain words
    assert "timed out" in json.dumps(result.trace["kb"])  # and the trace says why
    assert [r for r in result.state["records"] if r["kind"] == "task"] == before["records"]

    scripted_server.push(Reply("```sql\nSELECT name FROM restaurants ORDER BY name LIMIT 3\n```"))
    good = session.turn('answer("three restaurants")')
    assert_turn_sound(good)
    assert len(next(a for a in good.acts if a["act"] == "report")["result"]) == 3
    kb.close()


# -- the LLM endpoint failing at turn k of whole conversations ---------------------------------------

FAULTS = {
    "timeout": Reply("x = 1", delay_s=1.0),
    "http500": Reply(status=500),
    "rate_limited": Reply(status=429, retry_after=0),
    "garbage": Reply(garbage=True),
    "wrong_shape": Reply(raw=b'{"choices": []}'),
    "empty": Reply(""),
    "prose": Reply("Of course! I have noted everything you said."),
    "truncated": Reply('```python\nmain.full_name = "Ana'),
}
CONVERSATIONS = {
    "bank_fraud": "account_and_pin_formal.json",
    "ticket_submission": "h13_ap_credits_formal.json",
    "restaurant_reservation": "h15_book_pizza_formal.json",
}


def statements(sample: str) -> list[str]:
    return [t["user"] for t in load_test(SAMPLES_DIR / sample / "tests" / CONVERSATIONS[sample])["turns"]]


def llm_session(agent: Agent, server: ScriptedOpenAIServer, **kw: object):
    config = LLMConfig(base_url=server.base_url, model="scripted-model", timeout_s=0.25, max_retries=0)
    return agent.new_session(llm_config=config, **kw)


def fenced(code: str) -> str:
    return f"```python\n{code}\n```"


@pytest.mark.parametrize("sample", sorted(CONVERSATIONS))
def test_parser_endpoint_faults_at_every_turn_keep_the_last_good_state(
        sample: str, scripted_server: ScriptedOpenAIServer) -> None:
    agent = Agent.load(SAMPLES_DIR / sample)
    turns = statements(sample)
    reference = agent.new_session(parser="formal")
    for text in turns:
        reference.turn(text)

    session = llm_session(agent, scripted_server, parser="llm")
    faults = list(FAULTS.items())
    for k, text in enumerate(turns):
        name, fault = faults[k % len(faults)]
        before = session.state
        scripted_server.push(fault)
        failed = session.turn(f"(turn {k}, with a {name} fault)")
        assert_turn_sound(failed)
        assert failed.state["records"] == before["records"], f"{name} at turn {k} changed the state"
        assert session.state["records"] == before["records"]
        assert failed.response.startswith(PARSE_FAILED), (name, failed.response)
        assert failed.trace["parse"]["error"], name
        scripted_server.push(Reply(fenced(text)))
        good = session.turn(f"(turn {k}, said again)")
        assert_turn_sound(good)
        assert good.trace["parse"]["error"] is None, good.trace["parse"]
    assert session.state["records"] == reference.state["records"]
    assert scripted_server.remaining == 0


def test_responder_endpoint_faults_fall_back_to_the_template(scripted_server: ScriptedOpenAIServer) -> None:
    agent = Agent.load(SAMPLES_DIR / "ticket_submission")
    turns = statements("ticket_submission")
    reference = agent.new_session(parser="formal")
    expected = [reference.turn(text).response for text in turns]

    session = llm_session(agent, scripted_server, parser="formal", rg="llm")
    faults = [FAULTS[n] for n in ("timeout", "http500", "rate_limited", "garbage", "empty")]
    for k, text in enumerate(turns):
        scripted_server.push(faults[k % len(faults)])
        result = session.turn(text)
        assert_turn_sound(result)
        assert result.response == expected[k]  # the template's words
        assert result.trace["rg"]["fallback"]
        assert result.state["records"] == reference.turns[k].state["records"]
    assert session.current.get("main").status == "completed"
