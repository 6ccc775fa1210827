"""The Tests page's evaluation panel: the paper's four metrics, one column per parser.

The numbers come from `core_engine.evaluation.metrics.evaluate`, the function `genie eval` runs,
so the page and the command agree; this module only lays the result out.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core_engine.evaluation.metrics import table_rows


def eval_frame(result: dict[str, Any]) -> pd.DataFrame:
    """One row per metric, one column per parser ('right/n (pct%)', '-' when nothing was annotated)."""
    return pd.DataFrame(table_rows(result), columns=["metric", *result["parsers"]])


def goals_frame(result: dict[str, Any]) -> pd.DataFrame:
    """Per conversation with a goal: whether each parser reached it, and why not."""
    rows: dict[str, dict[str, str]] = {}
    for parser, col in result["parsers"].items():
        for test in col["tests"]:
            if "goal" in test:
                goal = test["goal"]
                row = rows.setdefault(test["name"], {"test": test["name"], "api": goal["api"]})
                row[parser] = "✓" if goal["reached"] else f"✗ {goal['detail']}"
    return pd.DataFrame(list(rows.values()), columns=["test", "api", *result["parsers"]])


def render_eval(result: dict[str, Any]) -> None:
    st.dataframe(eval_frame(result), hide_index=True, width="stretch", key="eval-table")
    st.caption("A turn counts in a metric only when the test annotates it (statements, values, acts); "
               "goal completion needs the expected API called with the expected values.")
    goals = goals_frame(result)
    if not goals.empty:
        with st.expander("Goals per conversation"):
            st.dataframe(goals, hide_index=True, width="stretch", key="eval-goals")
