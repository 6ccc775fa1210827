"""Settings page in a real browser: test the connection to an OpenAI-compatible endpoint (scripted, local)."""

from conftest import click, fill, goto, wait_idle

from tests.fakes.openai_server import Reply, ScriptedOpenAIServer


def choose_llm(page, panel_title: str):
    # the innermost block holding the panel's title: the bordered container of that component
    panel = page.get_by_test_id("stVerticalBlock").filter(has=page.get_by_text(panel_title, exact=True)).last
    panel.get_by_text("llm", exact=True).click()
    wait_idle(page)
    return panel


def test_test_connection_succeeds_against_a_compatible_server(studio, page):
    with ScriptedOpenAIServer([Reply(content="OK")], models=["scripted-model"]) as server:
        goto(page, studio, "settings")
        page.get_by_text("Embedded default").wait_for()
        panel = choose_llm(page, "Semantic parser")
        fill(page, "Base URL", server.base_url)
        fill(page, "Model", "scripted-model")
        panel.get_by_role("button", name="Test connection").click()
        wait_idle(page)
        ok = page.get_by_test_id("stAlertContentSuccess").filter(has_text="connected to").first
        ok.wait_for()
        assert server.base_url in ok.inner_text() and "'OK'" in ok.inner_text()
        assert server.requests and server.requests[0]["model"] == "scripted-model"
        page.get_by_text("The Playground runs with an LLM for: semantic parser").wait_for()


def test_failing_endpoint_and_bad_url_are_reported(studio, page):
    with ScriptedOpenAIServer([Reply(status=500, content="boom")]) as server:
        goto(page, studio, "settings")
        panel = choose_llm(page, "Response generator")
        fill(page, "Base URL", server.base_url, nth=2)
        panel.get_by_role("button", name="Test connection").click()
        wait_idle(page)
        error = page.get_by_test_id("stAlertContentError").first
        error.wait_for()
        assert "500" in error.inner_text() or "server" in error.inner_text().lower()

    choose_llm(page, "Knowledge parser")  # a mistyped endpoint is explained at once
    fill(page, "Base URL", "localhost:8000", nth=1)
    bad = page.get_by_test_id("stAlertContentError").filter(has_text="http(s) URL").first
    bad.wait_for()
