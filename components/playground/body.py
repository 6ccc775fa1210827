"""The playground's chat column and inspector, as one Streamlit fragment.

A chat turn, picking a turn to inspect or switching the view reruns only this part of the
page (issue 17: the sidebar, the title and the conversation picker are not re-sent and
redrawn for every turn). Whatever changes what the page draws outside it is checked at the
start of each fragment run and reruns the whole page instead (see `outside`).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from components import session as ss
from components.playground.act_trace import render_trace
from components.playground.chat import CHAT_CSS, chat_html, turn_label
from components.playground.controls import edit_panel, replay_panel, save_test_dialog, time_travel_bar
from components.playground.state_html import STATE_CSS
from components.playground.state_inspector import render_state
from core_engine import GenieError


PLAYGROUND_CSS = CHAT_CSS + STATE_CSS  # the chat's and the state's style, one style-only element on the page

VIEWS = ["State", "Trace", "Edit & inject", "Replay"]  # what the inspector shows, one at a time


def turn_picker(pg: Any, conv: Any, k: int, n: int) -> None:
    """Which turn the inspector shows: one picker (not a button per message, issue 17). Its key is the
    conversation's, so a chat turn updates the widget in the browser instead of replacing it (a new key per
    turn made the browser build a new one: about a tenth of a turn's time); the turn shown is set before it
    is drawn, so a new turn or a rewind shows the newest turn again."""
    if not n:
        return
    key = f"pg-inspect-{conv.log_id}"
    if st.session_state.get(key) != k:
        st.session_state[key] = k
    st.selectbox("Inspect", range(n + 1), key=key, format_func=lambda i: turn_label(i, conv.turns),
                 on_change=lambda: setattr(pg, "selected", st.session_state[key]),
                 help="Show the state, parse, KB queries and acts after this turn (the start = before any turn)")


def outside(pg: Any, project: Any) -> tuple:
    """What the page outside the fragment was drawn from: the conversation picker, flashes, and the
    spec and KB versions the agent was loaded for (a newer one means a new agent and a warning above)."""
    conv = pg.current
    return (pg.active, len(pg.conversations), conv.log_id if conv else None, ss.has_flashes(),
            project.head().number, project.schema_version())


@st.fragment
def chat_and_inspector(pg: Any, project: Any, agent: Any, settings: Any, drawn_from: tuple) -> None:
    """A chat turn, a turn picked for inspection, a tab switched: only this part reruns (the sidebar, the
    title and the conversation picker are not redrawn: issue 17, a turn near the framework's floor). An
    action that changes what is drawn outside it (a rewind, a fork, a flash message) reruns the page."""
    if outside(pg, project) != drawn_from:
        st.rerun(scope="app")
    conv = pg.current
    spec = conv.session.agent.spec
    chat_col, inspect_col = st.columns([5, 7], gap="medium")
    with chat_col:
        history = st.empty()
        text = st.chat_input("Say something to the agent", key="pg-chat-input")
        if text:
            try:
                pg.send(project, text, defer_log=True)  # logged just below, once the reply is drawn
            except GenieError as exc:
                st.error(str(exc))
        k, n = pg.selected_turn(), len(conv.turns)
        try:
            history.html(chat_html(conv.session.starting_prompt, conv.turns, selected=k))
        finally:  # also when the run is stopped or restarted mid-way: a played turn is always logged
            try:
                pg.save_unsaved(project)
            except GenieError as exc:
                st.error(f"This turn is not saved in the project file yet (it will be retried): {exc}")
        if st.button("Save as test", icon=":material/playlist_add_check:", disabled=not conv.turns, key="pg-save"):
            save_test_dialog(pg, project)

    with inspect_col:
        st.subheader(f"Turn {k} of {n}" if k else "The start")
        turn_picker(pg, conv, k, n)
        time_travel_bar(pg, project, k, n)
        # one segmented control, not st.tabs: tabs cost five elements and their styling on every chat turn
        # (issue 17); only the chosen view is drawn
        view = st.segmented_control("View", VIEWS, default=VIEWS[0], required=True, key="pg-inspect-view",
                                    label_visibility="collapsed")
        if view == "Trace":
            if k:
                render_trace(conv.turns[k - 1], key="pg-trace")
            else:
                st.caption("The conversation starts with the agent's starting prompt; pick a turn to see its trace.")
        elif view == "Edit & inject":
            if k < n:
                st.info(f"Edits apply to the current turn ({n}). To edit turn {k}, rewind to it first.")
            edit_panel(pg, project, spec)
        elif view == "Replay":
            replay_panel(pg, project, agent, settings)
        else:
            render_state(spec, pg.state_at(k), pg.state_at(k - 1) if k else None, turn=k)


__all__ = ["PLAYGROUND_CSS", "chat_and_inspector", "outside", "turn_picker"]
