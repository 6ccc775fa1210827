"""The LLM response generator, with the real openai client against the scripted server.

The prompt carries the acts, the state, the template draft and only the last turn;
the model's words are used when usable, and the template text (with the reason in
the trace) when the endpoint fails or the answer drops an API's reference number.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from core_engine import Agent
from core_engine.llm.client import LLMConfig, ScriptedClient
from core_engine.responders.llm import LLMResponder, missing_identifiers
from core_engine.responders.template import TemplateResponder
from tests.fakes.openai_server import Reply, ScriptedOpenAIServer

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_projects"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GENIE_UPDATE_GOLDEN") == "1"

TICKET_TURNS = [
    'main.student_task = "External Test Credits"\nmain.external_test_credits = ExternalTestCredits('
    'specific_issue="Missing or Incorrect Record", test_issues="Credit not posted", '
    'test_type="Advanced Placement (AP) Scores")',
    'external_test_credits.time_of_test_score_submission = "May 2024"',
    'main.extra_details = "They were for AP psychology"',
    'main.full_name = "Jane Doe"',
]


pytestmark = pytest.mark.usefixtures("no_llm_env")


@pytest.fixture(scope="module")
def ticket() -> Agent:
    return Agent.load(SAMPLES / "ticket_submission")


def session(agent: Agent, server: ScriptedOpenAIServer, **overrides):
    cfg = LLMConfig(**{"base_url": server.base_url, "model": "scripted-model", "timeout_s": 5.0, **overrides})
    return agent.new_session(parser="formal", rg="llm", llm_config=cfg)


def test_response_is_the_models_words_and_the_prompt_has_acts_draft_and_last_turn(ticket, scripted_server):
    s = session(ticket, scripted_server)
    scripted_server.push(Reply("When did you send your AP scores?"), Reply("Assistant: Anything else to add?"))
    first = s.turn(TICKET_TURNS[0])
    assert first.response == "When did you send your AP scores?"
    second = s.turn(TICKET_TURNS[1])
    assert second.response == "Anything else to add?"  # a speaker label is stripped
    system, user = (m["content"] for m in scripted_server.requests[-1]["messages"])
    assert "Say exactly what the acts say" in system and "Invent nothing" in system
    assert "Ask(main, extra_details)  # asks: Any other details you would like to add" in user
    assert "Draft:\nCould you tell me any other details you would like to add?" in user
    assert "Agent: When did you send your AP scores?" in user  # the last agent utterance
    assert f"User: {TICKET_TURNS[1]}" in user
    assert TICKET_TURNS[0] not in user  # no earlier turns
    assert 'time_of_test_score_submission="May 2024"' in user  # the state
    call = second.trace["rg"]["llm_calls"][0]
    assert call["component"] == "rg" and call["completion"] == "Assistant: Anything else to add?"
    assert call["prompt_tokens"] > 0 and second.trace["rg"]["fallback"] is None
    assert second.trace["llm"]["calls"] == {"parser": 0, "knowledge": 0, "rg": 1}


def test_rg_prompt_golden(ticket):
    client = ScriptedClient(["Please check the details. Shall I submit?"] * len(TICKET_TURNS))
    s = ticket.new_session(parser="formal", rg="llm", client=client)
    for turn in TICKET_TURNS:
        s.turn(turn)
    text = "\n".join(f"### {m['role']}\n{m['content']}" for m in client.calls[-1].messages)
    path = GOLDEN / "rg_ticket_submission_confirm.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), "regenerate with GENIE_UPDATE_GOLDEN=1 if intended"


def test_endpoint_failure_falls_back_to_the_template_text(ticket, scripted_server):
    s = session(ticket, scripted_server, max_retries=0)
    scripted_server.push(Reply(status=503))
    result = s.turn(TICKET_TURNS[0])
    template = TemplateResponder().respond(result.acts, s.current, ticket.spec)
    assert result.ok and result.response == template
    assert "HTTP 503" in result.trace["rg"]["fallback"]
    assert result.trace["rg"]["llm_calls"][0]["error"] and result.trace["llm"]["errors"]


def test_empty_completion_falls_back(ticket, scripted_server):
    s = session(ticket, scripted_server, max_retries=0)
    scripted_server.push(Reply(""))
    result = s.turn(TICKET_TURNS[0])
    assert result.response.startswith("Could you tell me") and "empty" in result.trace["rg"]["fallback"]


def test_an_answer_that_drops_the_ticket_number_is_not_used(ticket):
    client = ScriptedClient(["ok"] * 4 + ["Your ticket is submitted!"])
    s = ticket.new_session(parser="formal", rg="llm", client=client)
    for turn in TICKET_TURNS:
        s.turn(turn)
    result = s.turn("main.confirm = True")
    report = next(a for a in result.acts if a["act"] == "report")
    ticket_id = report["result"]["transaction_id"]
    assert ticket_id in result.response and "Your ticket is submitted!" not in result.response
    assert ticket_id in result.trace["rg"]["fallback"]


def test_an_answer_with_the_ticket_number_is_used(ticket):
    s = ticket.new_session(parser="formal", rg="llm", client=ScriptedClient(lambda messages: _echo_ids(messages)))
    for turn in TICKET_TURNS:
        s.turn(turn)
    result = s.turn("main.confirm = True")
    assert result.response.startswith("Done! Reference:") and result.trace["rg"]["fallback"] is None


def _echo_ids(messages: list[dict]) -> str:
    """A well-behaved model: repeats the transaction id it is given."""
    user = messages[-1]["content"]
    marker = '"transaction_id": "'
    if marker not in user:
        return "Sure."
    start = user.index(marker) + len(marker)
    return "Done! Reference: " + user[start:user.index('"', start)]


def test_missing_identifiers():
    acts = [{"act": "report", "kind": "api", "result": {"status": "success", "transaction_id": "TX-48213"}}]
    assert missing_identifiers("All set.", acts) == ["TX-48213"]
    assert missing_identifiers("All set, TX-48213.", acts) == []
    assert missing_identifiers("Hi", [{"act": "say", "text": "x"}]) == []


def test_project_rg_prompt_override(tmp_path, scripted_server):
    project = tmp_path / "tickets"
    shutil.copytree(SAMPLES / "ticket_submission", project, ignore=shutil.ignore_patterns("tests", "kb.sqlite"))
    (project / "prompts").mkdir()
    (project / "prompts" / "rg_system.jinja2").write_text("Talk like a friendly librarian.\n", encoding="utf-8")
    s = session(Agent.load(project), scripted_server)
    scripted_server.push(Reply("Hello, dear reader."))
    result = s.turn(TICKET_TURNS[0])
    assert scripted_server.requests[-1]["messages"][0]["content"] == "Talk like a friendly librarian.\n"
    assert result.response == "Hello, dear reader."


def test_responder_alone_records_its_calls():
    client = ScriptedClient(["Hello!"])
    agent = Agent.load(SAMPLES / "bank_fraud")
    rg = LLMResponder(client)
    state = agent.new_session().current
    text = rg.respond([{"act": "ask", "var": "main", "worksheet": "Main", "field": "full_name"}], state, agent.spec)
    assert text == "Hello!" and rg.last_calls[0]["completion"] == "Hello!" and rg.last_fallback is None
