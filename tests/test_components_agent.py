"""The Agent page and its model: settings and APIs saved as versions, "Try it", the rendered prompt."""

import pytest
from streamlit.testing.v1 import AppTest

from components.agent import model as am
from core_engine.errors import GenieError, SpecError
from storage import Workspace
from tests.test_components_pages import APP, SAMPLES


@pytest.fixture
def workspace(tmp_path, monkeypatch) -> Workspace:
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("GENIE_NO_SAMPLES", "1")
    ws = Workspace(tmp_path / "ws")
    ws.from_sample(SAMPLES / "restaurant_reservation", "rr").close()
    return ws


def test_api_model_declares_renames_and_guards_secrets(workspace, monkeypatch):
    spec = workspace.open("rr").spec()
    spec = am.upsert_api(spec, {"name": "book_it", "kind": "mock", "parameters": [{"name": "day", "type": "date"}],
                                "mock_result": {"status": "ok", "day": "{day}"}})
    assert spec.api("book_it").parameters[0].type == "date"
    task = spec.task_worksheets()[0]
    task.api = "book_it"
    renamed = am.upsert_api(spec, {"name": "book2", "kind": "mock"}, old_name="book_it")
    assert am.try_api(spec, "book_it", {"day": "2024-07-06"}) == {"status": "ok", "day": "2024-07-06"}
    assert renamed.worksheet(task.name).api == "book2" and renamed.api("book_it") is None
    with pytest.raises(SpecError, match="environment reference"):
        am.upsert_api(spec, {"name": "h", "kind": "http", "url": "https://x.test", "headers": {"Authorization": "abc"}})
    ok = am.upsert_api(spec, {"name": "h", "kind": "http", "url": "https://x.test",
                              "headers": {"Authorization": "Bearer ${env:TOK}"}})
    assert ok.api("h").headers == {"Authorization": "Bearer ${env:TOK}"}  # the spec keeps the reference
    monkeypatch.setenv("TOK", "s3cret")
    sent = {}
    with pytest.raises(GenieError, match="GENIE_API_ENV=TOK"):  # the user has not allowed agents to read TOK
        am.try_api(ok, "h", {"a": 1}, post=lambda url, payload, headers, t: {"ok": 1})
    monkeypatch.setenv("GENIE_API_ENV", "OTHER, TOK")
    assert am.try_api(ok, "h", {"a": 1}, post=lambda url, payload, headers, t: sent.update(headers) or {"ok": 1}) \
        == {"ok": 1}
    assert sent == {"Authorization": "Bearer s3cret"}
    monkeypatch.delenv("TOK")
    with pytest.raises(GenieError, match="TOK, which is not set"):
        am.try_api(ok, "h", {"a": 1}, post=lambda url, payload, headers, t: {"ok": 1})
    with pytest.raises(SpecError, match="today"):
        am.apply_settings(spec, name="a", description="", starting_prompt="hi", start_worksheet=None, today="soon")
    with pytest.raises(SpecError, match="date order must be one of auto, day_first, month_first, not 'dmy'"):
        am.apply_settings(spec, name="a", description="", starting_prompt="hi", start_worksheet=None, today=None,
                          date_order="dmy")
    with pytest.raises(SpecError, match="hours without am/pm must be one of auto, daytime, evening, not 'night'"):
        am.apply_settings(spec, name="a", description="", starting_prompt="hi", start_worksheet=None, today=None,
                          bare_hours="night")


def test_rendered_prompt_uses_the_override_and_examples(workspace):
    spec = workspace.open("rr").spec()
    files = {"prompts/parser_system.jinja2": "OVERRIDE for {{ agent_name }}",
             "few_shots.json": '[{"user": "hi there", "statements": "answer(\\"x\\")"}]'}
    messages = am.render_parser_prompt(spec, files)
    assert messages[0]["content"].startswith(f"OVERRIDE for {spec.name}")


def test_agent_page_saves_settings_and_an_api_as_versions(workspace):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["project"] = "rr"
    at.run()
    at.switch_page("pages/agent.py").run()
    assert not at.exception, at.exception
    before = workspace.open("rr").head().number
    at.text_area(key="agent.prompt").set_value("Hi! I book tables.")
    at.text_input(key="agent.today").set_value("2024-07-06")
    at.selectbox(key="agent.date_order").set_value("day_first")
    assert at.selectbox(key="agent.bare_hours").value == "auto"
    at.selectbox(key="agent.bare_hours").set_value("daytime")
    at.button(key="FormSubmitter:agent.settings-Save agent settings").click().run()
    assert not at.exception, at.exception
    project = workspace.open("rr")
    assert project.head().number == before + 1
    assert project.spec().starting_prompt == "Hi! I book tables." and project.spec().settings.today == "2024-07-06"
    assert project.spec().settings.date_order == "day_first" and project.spec().settings.bare_hours == "daytime"
    at.text_input(key="agent.api.new.name").set_value("notify_guest")
    at.button(key="agent.api.new.save").click().run()
    assert not at.exception, at.exception
    spec = workspace.open("rr").spec()
    assert spec.api("notify_guest") is not None and spec.starting_prompt == "Hi! I book tables."


def test_inspector_edits_every_attribute_of_a_field(workspace):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["project"] = "rr"
    at.run()
    at.switch_page("pages/worksheets.py").run()
    at.session_state["genie.selected"] = {"grid.selected": "w1.f1"}
    at.run()
    assert not at.exception, at.exception
    name = next(t for t in at.text_input if t.label == "Field name")
    assert name.value == at.session_state["genie.draft"]["spec"].worksheets[1].fields[1].name
    next(c for c in at.checkbox if c.label == "Primary key").check()
    next(t for t in at.text_area if t.label.startswith("Examples")).set_value("next friday\ntomorrow")
    next(b for b in at.button if b.label == "Apply to the draft").click().run()
    assert not at.exception, at.exception
    f = at.session_state["genie.draft"]["spec"].worksheets[1].fields[1]
    assert f.primary_key and f.examples == ["next friday", "tomorrow"]


def test_python_code_trust_is_used_only_when_the_project_offers_it(workspace):
    from components.agent.view import _trust_api

    assert _trust_api(object()) is None  # no trust API: python APIs stay read-only

    class Stub:
        trusted = False

        def code_trusted(self):
            return self.trusted

        def trust_code(self, digest=None):
            self.trusted = True

        def files(self):
            return {"api.py": "def f():\n    return 1\n"}

    stub = Stub()
    actions = _trust_api(stub)
    assert not actions["is_trusted"](stub)
    actions["trust"](stub)
    assert actions["is_trusted"](stub)
