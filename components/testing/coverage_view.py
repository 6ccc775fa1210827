"""Coverage of the spec by a test run, per worksheet, untouched parts highlighted.

Shows `core_engine.evaluation.coverage.Coverage` (the same object `genie test --coverage` prints):
a summary line of covered/total per kind of part, then per worksheet its fields
(asked, filled, confirmed, refused), predicates (seen true / false), actions and API
calls, with every untouched part in red.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core_engine.evaluation.coverage import Coverage, WorksheetCoverage

UNTOUCHED = "background-color: #fee2e2; color: #991b1b"


def _md(text: str) -> str:
    """Spec text inside :red[...] markdown: brackets escaped."""
    return text.replace("[", "\\[").replace("]", "\\]")


def fields_frame(w: WorksheetCoverage) -> pd.DataFrame:
    rows = []
    for f in w.fields:
        expected = f.askable or f.required
        rows.append({"field": f.name, "asked": f.asked, "filled": f.filled, "confirmed": f.confirmed,
                     "refused": f.refused, "untouched": "untouched" if expected and not f.touched else ""})
    return pd.DataFrame(rows, columns=["field", "asked", "filled", "confirmed", "refused", "untouched"])


def predicates_frame(w: WorksheetCoverage) -> pd.DataFrame:
    rows = [{"predicate of": p.label, "expression": p.source, "seen true": p.seen_true, "seen false": p.seen_false,
             "untouched": "" if p.seen_true and p.seen_false else
             ("never true" if not p.seen_true and p.seen_false else
              "never false" if p.seen_true else "never evaluated")} for p in w.predicates]
    return pd.DataFrame(rows, columns=["predicate of", "expression", "seen true", "seen false", "untouched"])


def _red(df: pd.DataFrame):
    return df.style.apply(lambda row: [UNTOUCHED if row["untouched"] else "" for _ in row], axis=1)


def render_coverage(cov: Coverage, *, key: str = "coverage") -> None:
    summary = cov.summary()
    st.caption(f"{cov.conversations} conversation(s), {cov.turns} turn(s)")
    cols = st.columns(len(summary))
    for col, (label, (a, b)) in zip(cols, summary.items()):
        col.metric(label, f"{a}/{b}")
    st.markdown("Act kinds: " + ", ".join(f"{'**' if n else ':red['}{kind} {n}{'**' if n else ']'}"
                                           for kind, n in cov.act_kinds.items()))
    for w in cov.worksheets:
        missing = w.untouched()
        label = f"{w.name} ({w.kind})" + (f" · {len(missing)} untouched" if missing else " · all covered")
        with st.expander(label, expanded=bool(missing) and w.kind == "task"):
            if w.kind == "task":
                st.caption(f"started in {w.instantiated}/{cov.conversations}, "
                           f"completed in {w.completed}/{cov.conversations}")
                if w.fields:
                    st.dataframe(_red(fields_frame(w)), hide_index=True, width="stretch",
                                 key=f"{key}-{w.name}-fields")
            elif w.kind == "kb":
                used = [f.name for f in w.fields if f.queried]
                st.caption(f"queried in {w.queried}/{cov.conversations}; columns in conditions: "
                           f"{', '.join(used) or 'none'}")
            if w.predicates:
                st.dataframe(_red(predicates_frame(w)), hide_index=True, width="stretch",
                             key=f"{key}-{w.name}-preds")
            for label_, runs in w.actions.items():
                failed = w.action_failures.get(label_, 0)
                text = f"actions of {label_}: ran in {runs} conversation(s)" + (f", failed in {failed}" if failed
                                                                                  else "")
                st.markdown(f":red[{text}]" if not runs else text)
            if w.api:
                text = f"API {w.api}: called in {w.api_calls} conversation(s)"
                st.markdown(f":red[{text}]" if not w.api_calls else text)
            if missing:
                st.markdown("**Untouched:**\n" + "\n".join(f"- :red[{_md(m)}]" for m in missing))
    rest = [u for u in cov.untouched() if u.startswith(("API ", "act "))]
    if rest:
        st.markdown("**Also untouched:** " + "; ".join(rest))


__all__ = ["render_coverage", "fields_frame", "predicates_frame"]
