"""The studio's pages without a browser (streamlit.testing AppTest): they render and their buttons work.

The browser tests in e2e_tests/ drive the same pages in Chromium, including the
AgGrid and pyvis frames that AppTest cannot click into.
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from storage import Workspace

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "studio" / "app.py")
SAMPLES = ROOT / "sample_projects"


@pytest.fixture
def workspace(tmp_path, monkeypatch) -> Workspace:
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("GENIE_NO_SAMPLES", "1")
    ws = Workspace(tmp_path / "ws")
    ws.from_sample(SAMPLES / "restaurant_reservation", "rr").close()
    return ws


def app(page: str | None = None, project: str | None = "rr") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if project:
        at.query_params["project"] = project
    at.run()
    if page:
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def test_projects_page_lists_and_opens(workspace):
    at = app(project=None)
    assert at.selectbox[0].options == ["rr"]
    at.button(key="projects.open").click().run()
    assert not at.exception
    assert any("Opened rr." in s.value for s in at.success)
    assert at.session_state["genie.project"] == "rr"
    at.switch_page("pages/worksheets.py").run()
    assert any(t.value == "Worksheets · rr" for t in at.title)


def test_pages_need_an_open_project(workspace):
    for page in ("worksheets", "graph", "knowledge"):
        at = app(page, project=None)
        assert any("No project is open" in i.value for i in at.info), page


def test_worksheets_toolbar_edits_the_draft_and_saves_a_version(workspace):
    at = app("worksheets")
    assert [m.value for m in at.markdown if "Editing from version" in m.value] == [
        "Editing from version **1** · no unsaved edits"]
    at.button(key="grid.Add worksheet").click().run()
    assert not at.exception
    assert any("unsaved: 1 worksheet added" in m.value for m in at.markdown)
    assert any("Selected: **worksheet NewWorksheet**" in c.value for c in at.caption)
    at.button(key="grid.Undo").click().run()
    assert any("no unsaved edits" in m.value for m in at.markdown)
    at.button(key="grid.Add worksheet").click().run()
    at.text_input(key="worksheets.save.message").input("a new worksheet")
    at.button(key="FormSubmitter:worksheets.save-Save version").click().run()
    assert not at.exception
    project = workspace.open("rr")
    assert project.head().number == 2 and project.head().message == "a new worksheet"
    assert project.spec().worksheet("NewWorksheet") is not None
    # the new worksheet has no fields and no predicate can activate it: lint says so, beside the grid
    assert any("NewWorksheet" in m.value for m in at.markdown if "warning" in m.value or ":material" in m.value)


def test_graph_page_picks_a_node(workspace):
    at = app("graph")
    picker = next(s for s in at.selectbox if s.label == "Find a node")
    picker.select("f:BookRestaurant.date").run()
    assert not at.exception
    assert at.json and at.json[0].value  # the attribute panel
    assert '"worksheet": "BookRestaurant"' in at.json[0].proto.body or "BookRestaurant" in str(at.json[0].value)


def test_knowledge_page_queries_the_kb(workspace):
    at = app("knowledge")
    overview = at.table[0].value  # a static table: its column types wrap instead of being cut at the grid's edge
    assert overview.loc["restaurants", "Rows"] > 0 and "cuisines:list" in overview.loc["restaurants", "Column types"]
    at.text_area(key="knowledge.sql.restaurants").input("SELECT count(*) AS n FROM restaurants").run()
    at.button(key="knowledge.run").click().run()
    assert not at.exception
    assert any("1 row(s) in" in s.value for s in at.success)
    at.text_area(key="knowledge.sql.restaurants").input("DROP TABLE restaurants").run()
    at.button(key="knowledge.run").click().run()
    assert any("Query failed" in e.value for e in at.error)
    assert workspace.open("rr").kb_tables() == ["restaurants"]


def test_settings_page_switches_backends(workspace):
    at = app("settings", project=None)
    assert any("Embedded default" in s.value for s in at.success)
    at.radio(key="settings.rg.backend").set_value("llm").run()
    assert any("response generator" in i.value for i in at.info)
    at.text_input(key="settings.rg.base_url").input("not a url").run()
    assert any("http(s) URL" in e.value for e in at.error)


def test_version_history_restores_an_old_version(workspace):
    project = workspace.open("rr")
    first = project.spec()
    changed = first.model_copy(deep=True)
    changed.worksheet("BookRestaurant").description = "changed"
    project.save_spec(changed, "change the description")
    at = app("worksheets")
    assert at.selectbox(key="versions.b").value == 2 and at.selectbox(key="versions.a").value == 1
    assert any(not df.value.empty and "worksheets.BookRestaurant.description" in set(df.value["Where"])
               for df in at.dataframe if "Where" in df.value.columns)
    assert at.button(key="versions.restore").disabled  # the newest version is the current one
    at.selectbox(key="versions.b").select(1).run()
    at.button(key="versions.restore").click().run()
    assert project.head().number == 3 and project.spec() == first
    assert any("Restored version 1 as version 3." in s.value for s in at.success)


def test_playground_chat_is_one_element_and_the_picker_selects_a_turn(workspace):
    """The chat history is one HTML element at any length (issue 17), and the inspector's picker replaces
    the per-message buttons: picking a turn shows its state."""
    at = app("playground")
    at.chat_input(key="pg-chat-input").set_value("I want to book a table at a pizza place in San Francisco").run()
    at.chat_input(key="pg-chat-input").set_value("the second one").run()
    assert not at.exception, at.exception
    chats = [h.proto.body for h in at.get("html") if 'class="genie-chat"' in h.proto.body]
    assert len(chats) == 1, "the conversation is one element"
    assert chats[0].count('data-role="user"') == 2 and chats[0].count('data-role="agent"') == 3
    assert "I want to book a table at a pizza place in San Francisco" in chats[0]
    assert any(s.value == "Turn 2 of 2" for s in at.subheader)
    picker = next(s for s in at.selectbox if s.label == "Inspect")
    assert picker.options[0] == "start" and picker.options[1].startswith("turn 1 · ")
    picker.set_value(1).run()
    assert not at.exception, at.exception
    assert any(s.value == "Turn 1 of 2" for s in at.subheader)
    chats = [h.proto.body for h in at.get("html") if 'class="genie-chat"' in h.proto.body]
    assert chats[0].count('class="msg agent selected"') == 1
    # the picker keeps its key over the conversation (issue 17: one widget updated, not a new one per turn),
    # and a new turn shows the newest turn again
    keys = {s.key for s in at.selectbox if s.label == "Inspect"}
    at.chat_input(key="pg-chat-input").set_value("July 6 2024").run()
    assert not at.exception, at.exception
    assert any(s.value == "Turn 3 of 3" for s in at.subheader)
    picker = next(s for s in at.selectbox if s.label == "Inspect")
    assert picker.key in keys and picker.value == 3
