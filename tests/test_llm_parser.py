"""The LLM contextual semantic parser, with the real openai client against the scripted server.

Checks what the prompt holds (and what it must not: earlier turns), golden files of
rendered prompts (regenerate with GENIE_UPDATE_GOLDEN=1), how completions become
statements, a natural-language H.1.5 conversation that reaches the formal acts,
project prompt overrides, and the few-shot files of the samples.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from core_engine import Agent
from core_engine.errors import SpecError
from core_engine.llm.client import LLMConfig, ScriptedClient
from core_engine.parsers.llm import LLMParser, extract_statements, guard_statements
from core_engine.spec.model import snake_case
from core_engine.dialogue.statements import Assign, Construct, parse_statements
from tests.fakes.openai_server import Reply, ScriptedOpenAIServer

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_projects"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GENIE_UPDATE_GOLDEN") == "1"


pytestmark = pytest.mark.usefixtures("no_llm_env")


@pytest.fixture(scope="module")
def agents() -> dict[str, Agent]:
    return {}


def load(agents: dict[str, Agent], name: str) -> Agent:
    if name not in agents:
        agents[name] = Agent.load(SAMPLES / name)
    return agents[name]


def fenced(code: str) -> str:
    """How a model typically answers: a line of plan, then the code block."""
    return f"# The user answered the question.\n```python\n{code}\n```"


def config(server: ScriptedOpenAIServer, **overrides) -> LLMConfig:
    return LLMConfig(**{"base_url": server.base_url, "model": "scripted-model", "timeout_s": 5.0, **overrides})


def prompt_text(body: dict) -> str:
    return "\n".join(f"### {m['role']}\n{m['content']}" for m in body["messages"])


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"missing golden file {path}; run with GENIE_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), (
        f"rendered prompt differs from {path.name}; if the change is intended, regenerate with GENIE_UPDATE_GOLDEN=1")


# H.1.5 (Genie paper App. H.1.5) in natural language, with the statements a model would write.
H15 = json.loads((SAMPLES / "restaurant_reservation" / "tests" / "h15_book_pizza_formal.json").read_text())
H15_WORDS = [
    "I want to have dinner in San Francisco",
    "Can you book a pizza place there with a patio?",
    "The second one looks good",
    "On July 6th",
    "7 pm",
    "4 people",
    "Actually we will be 5, and we'd like a table on the patio",
    "Yes, please book it",
]


# -- prompt contents -------------------------------------------------------------------


def test_prompt_holds_signatures_date_state_acts_last_turn_and_few_shots(agents, scripted_server):
    agent = load(agents, "ticket_submission")
    session = agent.new_session(parser="llm", llm_config=config(scripted_server))
    scripted_server.push(Reply(fenced('main.student_task = "External Test Credits"')))
    session.turn("I have a problem with my test credits")
    body = scripted_server.requests[-1]
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    assert body["messages"][0]["role"] == "system" and body["messages"][1]["role"] == "user"
    # worksheet signatures with enum values and descriptions; internal fields would be left out
    assert "class ExternalTestCredits:" in system
    assert '"Advanced Placement (AP) Scores"' in system and "AP, IB or international test credits" in system
    assert "Today is Monday, 2024-07-01." in system
    assert "services_general_info" in system  # the KB tables answer(...) can ask
    # the project's few-shot examples
    assert "My IB scores never showed up on my transcript." in system
    assert "main = Main()" in user
    assert "User: I have a problem with my test credits" in user
    assert f"Agent: {agent.spec.starting_prompt}" in user


def test_prompt_has_only_the_last_turn_and_latest_kb_record(agents, scripted_server):
    agent = load(agents, "restaurant_reservation")
    session = agent.new_session(parser="llm", llm_config=config(scripted_server))
    statements = [t["user"] for t in H15["turns"]]
    responses: list[str] = []
    for i, (words, code) in enumerate(zip(H15_WORDS, statements)):
        scripted_server.push(Reply(fenced(code)))
        result = session.turn(words)
        assert result.ok
        prompt = prompt_text(scripted_server.requests[-1])
        assert f"User: {words}" in prompt
        for earlier in H15_WORDS[:i]:
            assert f"User: {earlier}" not in prompt
        if responses:
            assert f"Agent: {responses[-1]}" in prompt  # the last agent utterance, and no other
            for older in responses[:-1]:
                if older != responses[-1]:
                    assert older not in prompt
        if i >= 2:  # a second question was asked: the first KB record is no longer shown
            assert 'answer = answer("I want to have dinner in San Francisco")' not in prompt
            assert 'answer_2 = answer("pizza in San Francisco with a patio")' in prompt
        responses.append(result.response)


@pytest.mark.parametrize("sample", ["restaurant_reservation", "course_enrollment", "ticket_submission", "bank_fraud"])
def test_parser_prompt_golden_at_start(agents, sample):
    agent = load(agents, sample)
    client = ScriptedClient(["# chit-chat"])
    session = agent.new_session(parser="llm", client=client)
    session.turn("Hello there!")
    check_golden(f"parser_{sample}_start.txt", prompt_text({"messages": client.calls[0].messages}))


def test_parser_prompt_golden_mid_conversation(agents):
    """H.1.5 after the user picked a restaurant: state with a row value, the latest KB record, last acts."""
    agent = load(agents, "restaurant_reservation")
    client = ScriptedClient([fenced(t["user"]) for t in H15["turns"][:4]])
    session = agent.new_session(parser="llm", client=client)
    for words in H15_WORDS[:4]:
        session.turn(words)
    check_golden("parser_restaurant_reservation_h15_turn4.txt", prompt_text({"messages": client.calls[-1].messages}))


# -- completions to statements --------------------------------------------------------


@pytest.mark.parametrize("completion, expected", [
    ('```python\nmain.full_name = "Jane"\n```', 'main.full_name = "Jane"'),
    ('Plan: the user gives a name.\n```\nmain.full_name = "Jane"\n```\nDone!', 'main.full_name = "Jane"'),
    ('main.full_name = "Jane"', 'main.full_name = "Jane"'),
    ('Sure! Here you go:\nmain.full_name = "Jane"\nHope that helps.', 'main.full_name = "Jane"'),
    ('Statements:\nmain.x = Main(\n    a=1,\n    b=2)\nthanks', "main.x = Main(\n    a=1,\n    b=2)"),
    ("# chit-chat", "# chit-chat"),
])
def test_extract_statements_keeps_code_and_drops_prose(completion, expected):
    code, _ = extract_statements(completion)
    assert code == expected


def test_extract_statements_keeps_disallowed_code_so_it_is_rejected_visibly():
    code, dropped = extract_statements("__import__('os').system('touch /tmp/x')\nwhat a nice day")
    assert code == "__import__('os').system('touch /tmp/x')"
    assert dropped == ["what a nice day"]
    parsed = parse_statements(code)
    assert parsed.statements == [] and len(parsed.rejected) == 1


def test_garbage_completion_is_a_parse_error_with_no_statements(agents):
    agent = load(agents, "bank_fraud")
    session = agent.new_session(parser="llm", client=ScriptedClient(["I'm sorry, as an AI model I cannot do that."]))
    before = session.state["records"]
    result = session.turn("Katarina Miller")
    assert result.ok
    assert result.trace["parse"]["error"] and result.trace["parse"]["statements"] == []
    assert result.state["records"] == before
    assert result.acts[0]["act"] == "say" and "nothing was changed" in result.acts[0]["text"]
    assert result.acts[1] == {"act": "ask", "var": "main", "worksheet": "Main", "field": "full_name"}


def test_chit_chat_comment_is_not_an_error(agents):
    agent = load(agents, "bank_fraud")
    session = agent.new_session(parser="llm", client=ScriptedClient(["```python\n# chit-chat\n```"]))
    result = session.turn("Thanks!")
    assert result.trace["parse"]["error"] is None
    assert result.acts == [{"act": "ask", "var": "main", "worksheet": "Main", "field": "full_name"}]


def test_empty_utterance_makes_no_llm_call(agents):
    agent = load(agents, "bank_fraud")
    client = ScriptedClient([])
    result = agent.new_session(parser="llm", client=client).turn("   ")
    assert client.calls == [] and result.ok and result.trace["llm"]["calls"]["parser"] == 0


def test_guard_refuses_internal_fields_and_unasked_confirmations(agents):
    agent = load(agents, "bank_fraud")
    session = agent.new_session(parser="formal")
    state = session.current
    code, rules = guard_statements('main.full_name = "Eve"\nmain.authentication_complete = True', state, agent.spec)
    assert code == 'main.full_name = "Eve"'
    assert rules[0]["source"] == "main.authentication_complete = True" and "set by the agent" in rules[0]["error"]
    code, rules = guard_statements("main = Main(authentication_complete=True)", state, agent.spec)
    assert code == "" and len(rules) == 1
    ticket = load(agents, "ticket_submission")
    fresh = ticket.new_session(parser="formal").current
    code, rules = guard_statements("main.confirm = True\nmain.confirm = False", fresh, ticket.spec)
    assert code == "main.confirm = False" and "has not asked" in rules[0]["error"]


# -- a conversation: natural language reaches the formal acts -------------------------


def test_h15_in_natural_language_reaches_the_formal_acts_and_api_call(agents, scripted_server):
    agent = load(agents, "restaurant_reservation")
    formal = agent.new_session(parser="formal")
    llm = agent.new_session(parser="llm", llm_config=config(scripted_server))
    for words, turn in zip(H15_WORDS, H15["turns"]):
        scripted_server.push(Reply(fenced(turn["user"])))
        want = formal.turn(turn["user"])
        got = llm.turn(words)
        assert got.ok and got.trace["parse"]["rejected"] == []
        assert _without_ids(got.acts) == _without_ids(want.acts), words
        assert got.trace["llm"]["calls"] == {"parser": 1, "knowledge": 0, "rg": 0}
        call = got.trace["parse"]["llm_calls"][0]
        assert call["completion"] == fenced(turn["user"]) and call["prompt_tokens"] > 0
        assert call["latency_ms"] >= 0 and call["messages"][1]["content"].endswith(f"User: {words}\nStatements:\n")
    final = llm.current.get("book_restaurant")
    assert final.status == "completed" and final.values["number_of_people"] == 5
    assert final.values["restaurant"]["name"] == formal.current.get("book_restaurant").values["restaurant"]["name"]
    assert any(a["act"] == "report" and a["kind"] == "api" for a in got.acts)


def _without_ids(acts: list[dict]) -> list[dict]:
    """API results carry generated transaction ids; everything else must be equal."""
    out = []
    for act in acts:
        if act["act"] == "report" and act["kind"] == "api":
            act = {**act, "result": sorted(act["result"])}
        out.append(act)
    return out


def test_streaming_completions_work_the_same(agents, scripted_server):
    agent = load(agents, "bank_fraud")
    session = agent.new_session(parser="llm", llm_config=config(scripted_server, stream=True))
    scripted_server.push(Reply(fenced('main.full_name = "Katarina Miller"')))
    result = session.turn("I'm Katarina Miller")
    assert scripted_server.requests[-1]["stream"] is True
    assert session.current.get("main").values["full_name"] == "Katarina Miller"
    assert result.acts[-1]["field"] == "account_number"


# -- prompts a project overrides ---------------------------------------------------------


def test_project_prompt_override_is_used(tmp_path, scripted_server):
    project = tmp_path / "bank"
    shutil.copytree(SAMPLES / "bank_fraud", project, ignore=shutil.ignore_patterns("tests"))
    (project / "prompts").mkdir()
    (project / "prompts" / "parser_system.jinja2").write_text(
        '{% extends "builtin/parser_system.jinja2" %}\n', encoding="utf-8")  # the shipped one, reachable
    (project / "prompts" / "parser_user.jinja2").write_text(
        "BANK OVERRIDE\nCustomer said: {{ user_utterance }}\nState:\n{{ state }}\n", encoding="utf-8")
    agent = Agent.load(project)
    session = agent.new_session(parser="llm", llm_config=config(scripted_server))
    scripted_server.push(Reply(fenced('main.full_name = "Katarina Miller"')))
    result = session.turn("Katarina Miller")
    user = scripted_server.requests[-1]["messages"][1]["content"]
    assert user.startswith("BANK OVERRIDE\nCustomer said: Katarina Miller")
    assert "You are the semantic parser" in scripted_server.requests[-1]["messages"][0]["content"]
    assert result.trace["parse"]["rules"][0]["prompts"] == {"parser_system.jinja2": "project",
                                                           "parser_user.jinja2": "project"}


def test_broken_project_prompt_is_a_clear_parse_error(tmp_path):
    project = tmp_path / "bank"
    shutil.copytree(SAMPLES / "bank_fraud", project, ignore=shutil.ignore_patterns("tests"))
    (project / "prompts").mkdir()
    (project / "prompts" / "parser_user.jinja2").write_text("{{ no_such_variable }}", encoding="utf-8")
    client = ScriptedClient([])
    result = Agent.load(project).new_session(parser="llm", client=client).turn("hi")
    assert client.calls == [] and result.ok
    assert "parser_user.jinja2" in result.trace["parse"]["error"]
    assert "no_such_variable" in result.trace["parse"]["error"]


# -- few-shot examples of the samples ----------------------------------------------------


@pytest.mark.parametrize("sample", ["restaurant_reservation", "course_enrollment", "ticket_submission", "bank_fraud"])
def test_sample_few_shots_are_valid_statements_for_their_spec(agents, sample):
    agent = load(agents, sample)
    assert 3 <= len(agent.few_shots) <= 6
    names = {f.name for ws in agent.spec.worksheets for f in ws.fields}
    for example in agent.few_shots:
        parsed = parse_statements(example["statements"])
        assert parsed.rejected == [], example["user"]
        for st in parsed.statements:
            if isinstance(st, Assign):
                assert str(st.target[-1]) in names or snake_case(str(st.target[0])) == st.target[0]
                values = [st.value]
                while values:
                    v = values.pop()
                    if isinstance(v, Construct):
                        assert agent.spec.worksheet(v.worksheet) is not None, v.worksheet
                        assert all(k in names for k, _ in v.kwargs)
                        values += [sub for _, sub in v.kwargs]
    LLMParser(ScriptedClient([]), few_shots=agent.few_shots)  # accepted by the parser


def test_malformed_few_shots_fail_at_session_start(tmp_path):
    project = tmp_path / "bank"
    shutil.copytree(SAMPLES / "bank_fraud", project, ignore=shutil.ignore_patterns("tests"))
    (project / "few_shots.json").write_text(json.dumps([{"user": "hi"}]), encoding="utf-8")
    with pytest.raises(SpecError, match="few-shot example 1"):
        Agent.load(project).new_session(parser="llm", client=ScriptedClient([]))


def test_rejected_statements_never_stop_the_others(agents):
    agent = load(agents, "bank_fraud")
    client = ScriptedClient([fenced('main.full_name = "Katarina Miller"\nmain.no_such_field = 3\nimport os')])
    result = agent.new_session(parser="llm", client=client).turn("Katarina Miller")
    assert result.trace["parse"]["statements"] == ['main.full_name = "Katarina Miller"', "main.no_such_field = 3"]
    sources = [r["source"] for r in result.trace["parse"]["rejected"]]
    assert "import os" in sources and "main.no_such_field = 3" in sources
    assert result.acts[-1]["field"] == "account_number"


# -- the command line ------------------------------------------------------------------------


def test_cli_chat_with_llm_parser_and_responder(tmp_path, scripted_server, monkeypatch):
    import io

    from core_engine import cli
    script = tmp_path / "turns.txt"
    script.write_text("I'm Katarina Miller\n", encoding="utf-8")
    scripted_server.push(Reply(fenced('main.full_name = "Katarina Miller"')), Reply("What is your account number?"))
    out = io.StringIO()
    code = cli.main(["chat", str(SAMPLES / "bank_fraud"), "--parser", "llm", "--rg", "llm", "--llm-base-url",
                     scripted_server.base_url, "--llm-model", "scripted-model", "--script", str(script), "--jsonl"],
                    out=out)
    assert code == 0
    turn = json.loads(out.getvalue().splitlines()[0])
    assert turn["response"] == "What is your account number?"
    assert turn["acts"] == [{"act": "ask", "var": "first_authentication", "worksheet": "FirstAuthentication",
                             "field": "account_number"}]
    assert turn["trace"]["llm"]["calls"] == {"parser": 1, "knowledge": 0, "rg": 1}
    assert [r["model"] for r in scripted_server.requests] == ["scripted-model", "scripted-model"]

    # the endpoint from the environment instead of options
    monkeypatch.setenv("GENIE_LLM_BASE_URL", scripted_server.base_url)
    monkeypatch.setenv("GENIE_LLM_MODEL", "env-model")
    scripted_server.push(Reply(fenced('main.full_name = "Katarina Miller"')))
    out = io.StringIO()
    assert cli.main(["chat", str(SAMPLES / "bank_fraud"), "--parser", "llm", "--script", str(script)], out=out) == 0
    assert scripted_server.requests[-1]["model"] == "env-model"
    assert "account number" in out.getvalue().splitlines()[-1]


# -- options: per-component settings, cache -----------------------------------------------------


def test_config_layers_environment_session_and_component(monkeypatch):
    from core_engine.errors import BackendError
    from core_engine.llm.client import ResponseCache
    from core_engine.llm.options import client_for, config_for
    monkeypatch.setenv("GENIE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("GENIE_LLM_MODEL", "env-model")
    assert config_for("parser", {}).model == "env-model"
    options = {"llm_config": LLMConfig(model="shared", temperature=0.3),
               "llm_configs": {"rg": {"model": "writer", "max_tokens": 200}}}
    parser, rg = config_for("parser", options), config_for("rg", options)
    assert (parser.model, parser.temperature, parser.base_url) == ("shared", 0.3, "http://127.0.0.1:9/v1")
    assert (rg.model, rg.temperature, rg.max_tokens) == ("writer", 0.3, 200)
    with pytest.raises(BackendError, match="invalid LLM settings: temperature"):
        config_for("parser", {"llm_config": {"temperature": 7}})
    with pytest.raises(BackendError, match="cache must be a ResponseCache"):
        client_for("parser", {"cache": "cache.json"})
    scripted = ScriptedClient([])
    assert client_for("knowledge", {"clients": {"knowledge": scripted}}) is scripted
    assert client_for("rg", {"client": scripted, "cache": ResponseCache()}) is scripted


def test_response_cache_serves_a_repeated_prompt(agents, scripted_server, tmp_path):
    from core_engine.llm.client import ResponseCache
    agent = load(agents, "bank_fraud")
    cache = ResponseCache(tmp_path / "cache.json")
    scripted_server.push(Reply(fenced('main.full_name = "Katarina Miller"')))
    first = agent.new_session(parser="llm", llm_config=config(scripted_server), cache=cache).turn("Katarina Miller")
    again = agent.new_session(parser="llm", llm_config=config(scripted_server), cache=cache).turn("Katarina Miller")
    assert len(scripted_server.requests) == 1
    assert again.trace["parse"]["llm_calls"][0]["cached"] is True and again.acts == first.acts
    assert len(ResponseCache(tmp_path / "cache.json")) == 1
