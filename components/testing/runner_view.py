"""Running a project's conversation tests and showing failures as readable diffs.

`run_tests(agent, tests, progress=...)` is the same `core_engine.evaluation.testing.run_test` the
CLI runs (`genie test` on the project file materialises the same tests), so the page and
the command give the same results. A failure shows its first differing turn: the user
text, what went wrong, expected vs actual acts side by side, expected vs actual values,
and the response.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pandas as pd
import streamlit as st

from components import session as ss
from components.safe_text import plain
from core_engine import Agent, GenieError
from core_engine.session.recording import act_rows
from core_engine.evaluation.testing import TestResult, run_test

from components.playground.state_inspector import show_value

BAD = "background-color: #fee2e2; color: #991b1b; font-weight: 600"
GOOD = "background-color: #f0fdf4"


def run_tests(agent: Agent, tests: dict[str, dict[str, Any]], *,
              progress: Callable[[int, int, TestResult], None] | None = None,
              session_options: dict[str, Any] | None = None) -> list[TestResult]:
    results = []
    for i, (name, test) in enumerate(tests.items(), start=1):
        result = run_test(agent, {"name": name, **test}, path=name, session_options=session_options)
        results.append(result)
        if progress:
            progress(i, len(tests), result)
    return results


def acts_frame(check: Any) -> pd.DataFrame:
    rows = act_rows(check.expected_acts, check.actual_acts, check.match)
    return pd.DataFrame([{"expected": r["expected"], "actual": r["actual"], "": "✓" if r["ok"] else "✗"}
                         for r in rows], columns=["expected", "actual", ""])


def values_frame(check: Any) -> pd.DataFrame:
    rows = []
    for path, want in (check.expected_values or {}).items():
        got = check.actual_values.get(path)
        rows.append({"field": path, "expected": show_value(want), "actual": show_value(got),
                     "": "✓" if got == want else "✗"})
    return pd.DataFrame(rows, columns=["field", "expected", "actual", ""])


def _mark(df: pd.DataFrame) -> Any:
    return df.style.apply(lambda row: [BAD if row[""] == "✗" else GOOD for _ in row], axis=1)


def render_failure(result: TestResult, key: str) -> None:
    if result.error:
        st.error(f"The test could not run: {plain(result.error)}")
        return
    check = result.first_failure
    if check is None:
        return
    st.markdown(f"**First differing turn: {check.index}** of {len(result.turns)} — user: {plain(check.user)}")
    for p in check.problems:
        st.markdown(f"- {plain(p)}")
    if check.expected_acts is not None:
        st.caption(f"Acts (expected vs actual, match: {check.match})")
        st.dataframe(_mark(acts_frame(check)), hide_index=True, width="stretch", key=f"{key}-acts")
    if check.expected_values:
        st.caption("Field values (expected vs actual)")
        st.dataframe(_mark(values_frame(check)), hide_index=True, width="stretch", key=f"{key}-values")
    if check.expected_response:
        st.caption("Response")
        st.markdown("expected to contain: " + "; ".join(plain(t) for t in check.expected_response))
        st.code(check.response or "", language=None, wrap_lines=True)
    later = [c.index for c in result.turns if c.problems and c.index != check.index]
    if later:
        st.caption(f"Later turns that also differ: {', '.join(map(str, later))}")


@st.dialog("Accept the new behaviour", width="large")
def accept_dialog(project: Any, tests: dict[str, dict[str, Any]], result: TestResult) -> None:
    """Show how the test's expectations would change, and update the test on "Accept"."""
    from components.testing.accept import accept_new_behaviour, changed_turns

    test = tests.get(result.name)
    if test is None:
        st.error(f"The test '{result.name}' no longer exists.")
        return
    try:
        new = accept_new_behaviour(test, result)
    except GenieError as exc:
        st.error(str(exc))
        return
    rows = changed_turns(test, new)
    st.markdown(f"Test **{result.name}**: the expectations of {len(rows)} turn(s) become what the agent does now.")
    st.dataframe(pd.DataFrame([{"turn": r["turn"], "user": r["user"], "expected now": _brief(r["before"]),
                                "expected after accepting": _brief(r["after"])} for r in rows]),
                 hide_index=True, width="stretch", key="accept-diff")
    if st.button("Accept and update the test", type="primary", icon=":material/done_all:", key="accept-yes"):
        project.put_test(result.name, new)
        ss.flash(f"Updated test '{result.name}' to the new behaviour; run it again to see it pass.")
        st.rerun()


def _brief(expect: dict[str, Any]) -> str:
    from core_engine.session.recording import _show

    parts = ["; ".join(_show(a) for a in expect.get("acts") or [])]
    if expect.get("values"):
        parts.append(", ".join(f"{k}={v!r}" for k, v in expect["values"].items()))
    return " · ".join(p for p in parts if p)


def render_results(results: list[TestResult], *, key: str = "results",
                   on_accept: Callable[[TestResult], None] | None = None) -> None:
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    (st.success if not failed else st.error)(f"{passed} passed, {failed} failed")
    for i, r in sorted(enumerate(results), key=lambda item: item[1].passed):  # failures first
        icon = ":material/check_circle:" if r.passed else ":material/cancel:"
        with st.expander(f"{'PASS' if r.passed else 'FAIL'} · {r.name} · {len(r.turns)} turn(s)", icon=icon,
                         expanded=not r.passed):
            if r.passed:
                st.caption("Every turn matched.")
            else:
                render_failure(r, f"{key}-{i}")
                if on_accept is not None and not r.error and st.button(
                        "Accept the new behaviour", icon=":material/published_with_changes:", key=f"{key}-{i}-accept",
                        help="Show how the expected acts change, then update the test"):
                    on_accept(r)
            with st.popover("Result as JSON"):
                st.code(json.dumps(r.to_dict(), indent=2, default=str)[:20000], language="json")


__all__ = ["run_tests", "render_results", "render_failure", "acts_frame", "values_frame"]
