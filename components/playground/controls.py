"""The playground's controls: conversations and backends, time travel, edit and inject,
replay, the graph overlay and saving as a test. Each widget acts on a
`components.playground.model.Playground` (the model) and the open project.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st
import streamlit.components.v1 as st_components

from core_engine import GenieError
from core_engine.policy.acts import describe
from core_engine.session.recording import ASSERTIONS

from components import session as ss
from components.agent.backends import CHOICES
from components.graph.model import build_graph
from components.graph.live_state import LEGEND, STATUS_STYLES, node_styles, why_asked
from components.graph.drawing import render_pyvis
from components.playground.model import Playground


def _guard(action, *args: Any) -> bool:
    """Run a model action; a GenieError becomes a message instead of a crash."""
    try:
        action(*args)
        return True
    except GenieError as exc:
        ss.flash(str(exc), "error")
        return False


def conversation_bar(pg: Playground, project: Any, agent: Any, settings: Any) -> None:
    """Pick a conversation (open ones and every one recorded in the project file, so a reload loses none);
    start a new one with the chosen parser and response generator."""
    cols = st.columns([4, 2, 2, 3], vertical_alignment="bottom")  # "New conversation" whole at 1280 px
    open_logs = {c.log_id for c in pg.conversations if c.log_id}
    recorded = [log for log in project.logs() if log.id not in open_logs and log.turns]
    options = [("open", i) for i in range(len(pg.conversations))] + [("log", log.id) for log in recorded]
    labels = {("open", i): c.title for i, c in enumerate(pg.conversations)}
    labels.update({("log", log.id): f"{log.title or log.id} · {log.turns} turn(s) · "
                                    f"{log.created.astimezone().strftime('%m-%d %H:%M')} (recorded)"
                   for log in recorded})
    if options:
        current = ("open", pg.active) if pg.conversations else options[0]
        chosen = cols[0].selectbox("Conversation", options, index=options.index(current),
                                   format_func=lambda o: labels[o], key=f"pg-conv-{len(options)}-{pg.active}")
        if chosen != current:
            if chosen[0] == "open":
                pg.switch(chosen[1])
            else:
                with st.spinner("Reopening the recorded conversation..."):
                    _guard(pg.reopen, project, agent, chosen[1], settings.session_options())
            st.rerun()
    parser = cols[1].selectbox("Parser", CHOICES["parser"], index=CHOICES["parser"].index(settings.parser),
                               key="pg-parser", help="Defaults come from Settings; applies to a new conversation")
    rg = cols[2].selectbox("Responses", CHOICES["rg"], index=CHOICES["rg"].index(settings.rg), key="pg-rg")
    if cols[3].button("New conversation", icon=":material/add_comment:", width="stretch") or not pg.conversations:
        try:
            pg.start(project, agent, parser=parser, rg=rg, options=settings.session_options())
        except GenieError as exc:  # e.g. an LLM backend without an endpoint: say so, do not loop
            st.error(f"Could not start a conversation with {parser}/{rg}: {exc}")
            return
        st.rerun()
    conv = pg.current
    version = agent.extras.get("spec_version")
    if conv is not None and version is not None and conv.spec_version not in (None, version):
        st.warning(f"The spec changed since this conversation started (version {conv.spec_version} → {version}). "
                   "Replay it against the current spec to see what changes.")


def time_travel_bar(pg: Playground, project: Any, k: int, n: int) -> None:
    # one row that wraps (not three columns): fewer elements per rerun, and a label is never cut short
    # keyed: a label that names the turn would otherwise make a new widget, built anew in the browser, every turn
    row = st.container(horizontal=True, gap="small")
    row.button(f"Rewind to turn {k}", icon=":material/history:", disabled=k >= n, key="pg-rewind",
               help="Forget the turns after this one and continue from here",
               on_click=_guard, args=(pg.rewind_to, project, k))
    row.button(f"Fork at turn {k}", icon=":material/call_split:", key="pg-fork",
               help="A new conversation that starts with turns 1..k; this one is kept",
               on_click=_guard, args=(pg.fork_at, project, k))
    if row.button("Graph overlay", icon=":material/hub:", key="pg-overlay",
                  help="The dependency graph with this turn's state drawn on it"):
        graph_dialog(pg, k)


def edit_panel(pg: Playground, project: Any, spec: Any) -> None:
    """Edit a field of the current state, or inject formal statements; the acts are recomputed."""
    conv = pg.current
    if conv is None:
        return
    state = conv.session.state
    tasks = [r for r in state["records"] if r.get("kind", "task") == "task"]
    st.markdown("**Edit a field** (at the current turn; typed and validated like any assignment)")
    if tasks:
        cols = st.columns([3, 3, 4, 2], vertical_alignment="bottom")
        var = cols[0].selectbox("Record", [r["var"] for r in tasks], key="pg-edit-var")
        rec = next(r for r in tasks if r["var"] == var)
        ws = spec.worksheet(rec["worksheet"])
        fields = [f.name for f in ws.fields] if ws else list(rec["values"])
        name = cols[1].selectbox("Field", fields, key=f"pg-edit-field-{var}")
        value = cols[2].text_input("New value", key="pg-edit-value",
                                   placeholder='text, number, 2024-07-06, True, NA (refused), empty = remove')
        if cols[3].button("Set", icon=":material/edit:", width="stretch", key="pg-edit-apply"):
            if _guard(pg.set_field, project, var, name, value if value.strip() else None):
                ss.flash(f"Set {var}.{name}; the acts were recomputed.")
            st.rerun()
    st.markdown("**Inject formal statements** (parsed and interpreted, never executed)")
    text = st.text_area("Statements", key="pg-inject-text", height=90, label_visibility="collapsed",
                        placeholder='book_restaurant.time = "19:00"\nanswer("cheap thai in Palo Alto")')
    if st.button("Inject", icon=":material/input:", key="pg-inject-apply", disabled=not text.strip()):
        if _guard(pg.inject, project, text):
            ss.flash("Injected; the acts were recomputed.")
        st.rerun()


def replay_panel(pg: Playground, project: Any, agent: Any, settings: Any) -> None:
    if st.button("Replay against the current spec", icon=":material/replay:", key="pg-replay",
                 disabled=pg.current is None or not pg.current.turns):
        with st.spinner("Replaying..."):
            _guard(pg.replay, agent, settings.session_options())
    report = pg.last_replay
    if report is None:
        st.caption("Replays this conversation's user turns (and edits) on a fresh session of the latest saved "
                   "spec and shows where the acts or responses changed.")
        return
    first = report.first_difference
    (st.success if first is None else st.warning)(report.summary())
    rows = [{"turn": t.index, "changed": "●" if t.changed else "",
             "acts before": "; ".join(describe(a) for a in t.expected_acts or []),
             "acts now": "; ".join(describe(a) for a in t.actual_acts),
             "response": "changed" if t.response_changed else "", "user": t.user} for t in report.turns]
    df = pd.DataFrame(rows)
    st.dataframe(df.style.apply(lambda r: ["background-color: #fff3bf" if r["changed"] else "" for _ in r],
                                axis=1), hide_index=True, width="stretch", key="pg-replay-table",
                 column_config={"turn": st.column_config.NumberColumn(width="small"),
                                "changed": st.column_config.TextColumn(width="small"),
                                "acts before": st.column_config.TextColumn(width="medium"),
                                "acts now": st.column_config.TextColumn(width="medium")})
    if first is not None and first.response_changed:
        c1, c2 = st.columns(2)
        c1.caption(f"Turn {first.index} response before")
        c1.code(first.expected_response or "", language=None, wrap_lines=True)
        c2.caption("now")
        c2.code(first.actual_response, language=None, wrap_lines=True)
    st.button("Continue from the replay", icon=":material/play_arrow:", key="pg-adopt",
              on_click=_guard, args=(pg.adopt_replay, project, agent))


@st.dialog("Save the conversation as a test", width="large")
def save_test_dialog(pg: Playground, project: Any) -> None:
    conv = pg.current
    if conv is None or not conv.turns:
        st.info("Chat first: there is nothing to save yet.")
        return
    name = st.text_input("Test name", key="pg-test-name", placeholder="book a pizza place")
    st.caption("Choose per turn what the test asserts: the acts, the field values the turn set, the response.")
    table = pd.DataFrame([{"turn": i, "user": t.user, "acts": True, "values": False, "response": False}
                          for i, t in enumerate(conv.turns, start=1)])
    edited = st.data_editor(table, hide_index=True, disabled=["turn", "user"], key="pg-test-choices",
                            width="stretch")
    exists = name.strip() in project.tests()
    overwrite = False
    if exists:
        st.warning(f"A test named '{name.strip()}' already exists. Choose another name, or replace it.",
                   icon=":material/warning:")
        overwrite = st.checkbox(f"Replace the existing test '{name.strip()}'", key="pg-test-overwrite")
    if st.button("Replace test" if exists else "Save test", type="primary", icon=":material/save:",
                 disabled=not name.strip() or (exists and not overwrite)):
        choices = {int(r["turn"]): {a for a in ASSERTIONS if r[a]} for r in edited.to_dict("records")}
        try:
            test = pg.to_test(name.strip(), choices, description=f"saved from the playground ({conv.title})")
            project.put_test(name.strip(), test)
        except GenieError as exc:
            st.error(str(exc))
            return
        ss.flash(f"Saved test '{name.strip()}' ({len(test['turns'])} turns). Run it on the Tests page.")
        st.rerun()


@st.dialog("The graph with the live state", width=1300)
def graph_dialog(pg: Playground, k: int) -> None:
    conv = pg.current
    if conv is None:
        return
    spec = conv.session.agent.spec
    state = pg.state_at(k)
    acts = conv.turns[k - 1].acts if k else []
    styles, focus = node_styles(spec, state, acts)
    for line in why_asked(spec, state, acts) or ["The agent asks nothing at this turn."]:
        st.markdown(line)
    st.markdown(" ".join(f"<span style='background:{STATUS_STYLES[s]['color']['background']};"
                         f"border:2px solid {STATUS_STYLES[s]['color']['border']};padding:1px 6px;"
                         f"border-radius:4px;font-size:0.8em'>{s}</span>" for s in LEGEND), unsafe_allow_html=True)
    html = render_pyvis(build_graph(spec), highlight=focus, node_styles=styles, height=620)
    st_components.html(html, height=640, scrolling=False)


__all__ = ["conversation_bar", "time_travel_bar", "edit_panel", "replay_panel", "save_test_dialog",
           "graph_dialog"]
