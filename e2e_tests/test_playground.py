"""Playground in a real browser: chat, inspect, time travel, save as test, graph overlay.

The first test is the issue's flow end to end: chat with the restaurant sample, see a KB
query and its rows in the trace, rewind two turns, change a field, continue, save the
conversation as a test, break the spec on the Worksheets page, and see that test fail on
the Tests page with a readable diff.
"""

import io
import re
import time

from conftest import click, edit_grid_cell, ensure_project, fill, frame_with, goto, grid_frame, wait_idle

from playwright.sync_api import expect

from core_engine.cli import main as genie

START = "Hello! I'm the restaurant assistant"
PIZZA = "I want to book a table at a pizza place in San Francisco with a patio"


CHAT_MESSAGES = ".genie-chat .msg"  # the chat is one HTML element (components/playground/chat.py)


def messages(page):
    return page.locator(CHAT_MESSAGES)


def say(page, text: str) -> str:
    """Send one chat turn; returns the agent's reply text."""
    expected = messages(page).count() + 2
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    box.press("Enter")
    page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length >= n",
                           arg=[CHAT_MESSAGES, expected])
    wait_idle(page)
    return messages(page).nth(expected - 1).inner_text()


def nav(page, title: str) -> None:
    """Go to another page through the sidebar (the browser session, and the open project, stay)."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=title).click()
    wait_idle(page)


def select_turn(page, k: int) -> None:
    """Pick turn k in the inspector's "Inspect" picker (its options read "turn k · acts")."""
    page.get_by_test_id("stSelectbox").filter(has_text="Inspect").first.click()
    page.get_by_role("option", name=re.compile(rf"^turn {k} ·")).first.click()
    wait_idle(page)
    page.get_by_role("heading", name=f"Turn {k} of", exact=False).wait_for()


def tab(page, name: str) -> None:
    """Switch the inspector's view (a segmented control: State, Trace, Edit & inject, Replay) or a trace tab."""
    if name in ("State", "Trace", "Edit & inject", "Replay"):
        page.get_by_test_id("stButtonGroup").get_by_text(name, exact=True).first.click()
    else:
        page.get_by_role("tab", name=name, exact=True).first.click()
    wait_idle(page)


def choose(page, label: str, option: str) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_idle(page)


def selected_option(page, label: str, expected: str | None = None, timeout_s: float = 15) -> str:
    """The option a selectbox shows; with `expected`, wait (a rerun may still be on its way) for it."""
    box = page.get_by_test_id("stSelectbox").filter(has_text=label).first
    deadline = time.monotonic() + timeout_s
    while True:
        value = box.evaluate("e => { const i = e.querySelector('input'); return (i && i.value) || e.innerText; }"
                             ).replace(label, "").strip()
        if expected is None or value == expected or time.monotonic() > deadline:
            return value
        page.wait_for_timeout(200)


def table_cell(page, text: str):
    """A cell of an st.dataframe (drawn on a canvas; its accessible table holds the text)."""
    return page.locator('[data-testid="stDataFrame"] td', has_text=text).first


def state_cell(page, text: str):
    """A cell of the state inspector's tables (one HTML element, components/playground/state_html.py)."""
    return page.locator(".genie-state td", has_text=text).first


def open_playground(page, studio, project: str) -> None:
    ensure_project(studio, project, "restaurant_reservation")
    goto(page, studio, "playground", f"project={project}")
    page.get_by_text(START).first.wait_for()


def test_issue_flow_chat_inspect_rewind_edit_save_break_and_fail(studio, page):
    project = "e2e_pg_flow"
    open_playground(page, studio, project)
    assert "Ragazza" in say(page, PIZZA)
    assert "date" in say(page, "the second one")
    assert "time" in say(page, "July 6 2024")
    assert "how many people" in say(page, "7pm")

    # the KB query of turn 1, its SQL and its rows
    select_turn(page, 1)
    tab(page, "Trace")
    tab(page, "KB queries")
    page.get_by_text("'pizza place in San Francisco with a patio' · 5 row(s)").wait_for()
    assert 'FROM "restaurants"' in page.locator('[data-testid="stCode"]', has_text="SELECT").first.inner_text()
    table_cell(page, "Tomatina Pizza Co.").wait_for(state="attached")

    # rewind two turns, change a field, continue
    select_turn(page, 2)
    click(page, "Rewind to turn 2")
    page.get_by_role("heading", name="Turn 2 of 2").wait_for()
    assert messages(page).count() == 5
    tab(page, "Edit & inject")
    choose(page, "Record", "book_restaurant")
    choose(page, "Field", "date")
    fill(page, "New value", "2024-07-10")
    click(page, "Set")
    page.get_by_text("Set book_restaurant.date; the acts were recomputed.").wait_for()
    expect(messages(page).nth(5)).to_contain_text('book_restaurant.date = "2024-07-10"')
    expect(messages(page).nth(6)).to_contain_text("time of the reservation")
    assert "how many people" in say(page, "8pm")
    reply = say(page, "4 people")
    assert "July 10, 2024" in reply and "8 PM" in reply

    # save the conversation as a test
    click(page, "Save as test")
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Test name").fill("pizza flow")
    dialog.get_by_label("Test name").press("Tab")
    wait_idle(page)
    dialog.get_by_role("button", name="Save test").click()
    wait_idle(page)
    page.get_by_text("Saved test 'pizza flow' (5 turns)").wait_for()
    saved = studio.open_workspace().open(project).tests()["pizza flow"]
    assert [t.get("parser") for t in saved["turns"]] == [None, None, "formal", None, None]
    assert saved["turns"][2]["acts"] == [{"act": "ask", "var": "book_restaurant", "worksheet": "BookRestaurant",
                                          "field": "time"}]
    logs = studio.open_workspace().open(project).logs()
    assert {log.turns for log in logs} >= {4, 5}  # the conversation before the rewind is kept

    # break the spec on the Worksheets page: rename BookRestaurant.time
    nav(page, "Worksheets")
    frame = grid_frame(page)
    edit_grid_cell(page, frame, "w1.f2", "name", "time_of_day")
    click(page, "Save version")
    page.get_by_text("Saved version").first.wait_for()
    assert studio.open_workspace().open(project).spec().worksheet("BookRestaurant").field("time_of_day")

    # the test fails on the Tests page with the first differing turn, expected vs actual
    nav(page, "Tests")
    choose(page, "Test", "pizza flow")
    click(page, "Run this test")
    page.get_by_text("0 passed, 1 failed").wait_for()
    page.get_by_text("First differing turn: 3").wait_for()
    page.get_by_text("acts differ").first.wait_for()
    table_cell(page, "Ask(book_restaurant, time)").wait_for(state="attached")
    table_cell(page, "Ask(book_restaurant, time_of_day)").wait_for(state="attached")

    # the CLI runs the same tests on the project file and agrees
    out = io.StringIO()
    path = studio.open_workspace().open(project).path
    assert genie(["test", str(path)], out=out) == 1
    assert "FAIL pizza flow" in out.getvalue() and "turn 3" in out.getvalue()


def test_fork_and_inject(studio, page):
    open_playground(page, studio, "e2e_pg_fork")
    say(page, PIZZA)
    say(page, "the second one")
    select_turn(page, 1)
    click(page, "Fork at turn 1")
    page.get_by_role("heading", name="Turn 1 of 1").wait_for()
    assert selected_option(page, "Conversation", "#2 fork of #1 at turn 1") == "#2 fork of #1 at turn 1"
    assert messages(page).count() == 3

    tab(page, "Edit & inject")
    fill(page, "Statements", "book_restaurant.restaurant = answer.result[2]")
    click(page, "Inject")
    page.get_by_text("Injected; the acts were recomputed.").wait_for()
    expect(messages(page).nth(3)).to_contain_text("answer.result[2]")
    expect(messages(page).nth(4)).to_contain_text("date of the reservation")
    tab(page, "State")
    state_cell(page, "Ragazza (row)").wait_for()

    tab(page, "Edit & inject")
    fill(page, "Statements", "import os")
    click(page, "Inject")
    page.get_by_text("not applied").first.wait_for()
    assert messages(page).count() == 5  # nothing recorded

    choose(page, "Conversation", "#1 offline/template")
    page.get_by_role("heading", name="Turn 2 of 2").wait_for()


def test_replay_against_an_edited_spec_and_graph_overlay(studio, page):
    project = "e2e_pg_replay"
    open_playground(page, studio, project)
    say(page, PIZZA)
    say(page, "the second one")
    say(page, "July 6 2024")

    pf = studio.open_workspace().open(project)
    spec = pf.spec()
    spec.worksheet("BookRestaurant").field("time").dont_ask = True
    pf.save_spec(spec, "time is optional")
    tab(page, "Replay")
    click(page, "Replay against the current spec")
    page.get_by_text("1 of 3 turns changed; the first is turn 3").wait_for()
    table_cell(page, "Ask(book_restaurant, number_of_people)").wait_for(state="attached")
    page.get_by_text("Could you tell me how many people the table is for?").first.wait_for()

    click(page, "Graph overlay")
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("Ask book_restaurant.time").wait_for()
    frame = frame_with(page, "nodes,")
    frame.wait_for_function("() => document.body.getAttribute('data-graph-ready') === '1'")
    styled = frame.evaluate("() => window.genieNodes.get('f:BookRestaurant.time').borderWidth")
    assert styled == 5  # the asked field is drawn as asked


def test_formal_backend_per_conversation_and_rejected_statements(studio, page):
    open_playground(page, studio, "e2e_pg_formal")
    choose(page, "Parser", "formal")
    click(page, "New conversation")
    page.get_by_role("heading", name="The start").wait_for()
    assert selected_option(page, "Conversation", "#2 formal/template") == "#2 formal/template"
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill('user_info.user_task = "Book Restaurant"\nimport os')
    box.press("Enter")
    wait_idle(page)
    expect(messages(page).nth(2)).to_contain_text("restaurant")
    tab(page, "Trace")
    tab(page, "Parse")
    page.get_by_text("Parser: formal").wait_for()
    page.get_by_text("Import statements are not part of the statement language").first.wait_for()
    tab(page, "Acts")
    page.get_by_text("Ask(book_restaurant, restaurant)").first.wait_for()
