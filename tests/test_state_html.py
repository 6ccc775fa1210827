"""The playground's state inspector as one HTML element: every record and change shown, nothing from the
state or the user read as markup, the changed fields highlighted."""

from __future__ import annotations

from pathlib import Path

from components.playground.state_inspector import state_body
from core_engine import Agent

ROOT = Path(__file__).resolve().parents[1]


def _played(*texts):
    agent = Agent.load(ROOT / "sample_projects" / "restaurant_reservation")
    session = agent.new_session(parser="offline")
    return agent, session, [session.turn(t) for t in texts]


def test_records_fields_and_changes_are_in_the_html():
    agent, session, results = _played("I want to book a table at a pizza place in San Francisco with a patio",
                                      "the second one")
    html, warning = state_body(agent.spec, results[1].state, results[0].state, turn=2)
    assert warning is None
    for rec in results[1].state["records"]:
        assert f"<code>{rec['var']}</code>" in html
    assert "Changes in turn 2" in html
    assert '<tr class="changed"><td class="mark">●</td><td>restaurant</td>' in html
    assert "(row)" in html  # the chosen row by its name
    start, _ = state_body(agent.spec, session.initial.to_json(), None, turn=0)
    assert "The start" in start and "Changes in turn" not in start


def test_text_from_the_state_is_escaped():
    agent, session, results = _played("I want to book a table at a pizza place in San Francisco with a patio")
    state = results[0].state
    task = next(r for r in state["records"] if r.get("kind", "task") == "task" and r["values"] is not None)
    task["values"]["special_request_info"] = '<img src="http://x/p.png" onerror="alert(1)">'
    html, _ = state_body(agent.spec, state, None, turn=0)
    assert "<img" not in html
    assert "&lt;img src=&quot;http://x/p.png&quot;" in html.replace("<wbr>", "")  # may wrap after a dot


def test_long_names_may_wrap_after_underscores_and_dots():
    """A long snake_case field name or dotted path wraps in its cell instead of pushing the table wider
    than the inspector (the type column was cut at 1280 px)."""
    from components.playground.state_html import STATE_CSS, table_html

    html = table_html(["field", "value"], [{"field": "first_authentication_details", "value": "a.b_c <x>"}])
    assert "<td>first_<wbr>authentication_<wbr>details</td>" in html
    assert "<td>a.<wbr>b_<wbr>c &lt;x&gt;</td>" in html
    assert "<td>First<wbr>Authentication</td>" in table_html(["type"], [{"type": "FirstAuthentication"}])
    assert "overflow-wrap: anywhere" in STATE_CSS
