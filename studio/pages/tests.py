"""Tests: the project's conversation tests, run one or all, failures as diffs, coverage.

The same tests `genie test PROJECT.genieproj` runs, with the same engine function.
"""

import pandas as pd
import streamlit as st

from components import session as ss
from components.confirm import confirm
from components.testing.coverage_view import render_coverage
from components.testing.eval_view import render_eval
from core_engine.errors import GenieError
from core_engine.evaluation.metrics import evaluate
from components.testing.runner_view import accept_dialog, render_results, run_tests
from core_engine.evaluation.coverage import coverage

project = ss.require_project()
agent = ss.agent_for(project)
settings = ss.backend_settings()

st.title("Tests")
ss.show_flashes()
tests = project.tests()
if not tests:
    st.info("No conversation tests yet. Chat in the Playground and use “Save as test”.")
    st.page_link("pages/playground.py", label="Go to the Playground", icon=":material/forum:")
    st.stop()

st.dataframe(pd.DataFrame([{"test": name, "parser": t.get("parser", "formal"), "turns": len(t.get("turns", [])),
                            "description": t.get("description", "")} for name, t in tests.items()]),
             hide_index=True, width="stretch", key="tests-list", height=min(36 + 35 * len(tests), 240))
cols = st.columns([4, 2, 2, 2], vertical_alignment="bottom")
one = cols[0].selectbox("Test", list(tests), key="tests-pick")
run_one = cols[1].button("Run this test", icon=":material/play_arrow:", width="stretch", key="tests-run-one")
run_all = cols[2].button("Run all tests", icon=":material/playlist_play:", type="primary", width="stretch",
                         key="tests-run-all")
if cols[3].button("Delete this test", icon=":material/delete:", width="stretch", key="tests-delete"):
    confirm(f"Delete test '{one}'?", f"The test **{one}** ({len(tests[one].get('turns', []))} turn(s)) is removed "
            "from the project. This cannot be undone.", "delete", lambda: project.delete_test(one),
            done=f"Deleted test '{one}'.")

if run_one or run_all:
    chosen = tests if run_all else {one: tests[one]}
    bar = st.progress(0.0, text=f"Running {len(chosen)} test(s)...")

    def progress(i, total, result):
        bar.progress(i / total, text=f"{i}/{total} · {'passed' if result.passed else 'FAILED'}: {result.name}")

    llm_clients = {k: v for k, v in settings.session_options().items() if k.endswith("_llm")}
    results = run_tests(agent, chosen, progress=progress, session_options=llm_clients or None)
    ss.set_last_test_run(project.name, {"results": results, "version": project.head().number,
                                        "coverage": coverage(agent.spec, [r.outputs for r in results])})
    bar.empty()

with st.expander("Evaluate: the paper's metrics per parser", icon=":material/analytics:"):
    parsers = st.multiselect("Parsers", ["offline", "llm"], default=["offline"], key="tests-eval-parsers")
    gold = st.toggle("Also judge each turn from the state its test expects before it (gold context)",
                     key="tests-eval-gold", help="Then one misread turn does not fail the turns after it: a second "
                                                 "column per parser shows how well it reads each turn on its own.")
    if st.button("Evaluate", key="tests-eval-run", disabled=not parsers):
        opts = {k: v for k, v in settings.session_options().items() if k.endswith("_llm")}
        try:
            with st.spinner("Evaluating..."):
                ss.select("tests.eval", (project.name, evaluate(agent, parsers, tests=tests,
                                                                session_options=opts or None,
                                                                contexts=("own", "gold") if gold else ("own",))))
        except GenieError as exc:
            st.error(f"Cannot evaluate: {exc}")
    if (ss.selected("tests.eval") or (None,))[0] == project.name:
        render_eval(ss.selected("tests.eval")[1])

run = ss.last_test_run(project.name)
if run is None:
    st.caption("Run the tests to see results and coverage.")
    st.stop()
if run["version"] != project.head().number:
    st.warning(f"These results are for spec version {run['version']}; the spec is now at version "
               f"{project.head().number}. Run the tests again.")
results_tab, coverage_tab = st.tabs(["Results", "Coverage"])
with results_tab:
    render_results(run["results"], on_accept=lambda result: accept_dialog(project, tests, result))
with coverage_tab:
    render_coverage(run["coverage"])
