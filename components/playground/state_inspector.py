"""The formal dialogue state of one turn, readable: a table per record, changes highlighted.

Each task record is a table of its worksheet's fields (value, and whether it is filled,
confirmed, refused, missing or inactive because a predicate is false); fields changed in
the inspected turn are highlighted, and a diff against the previous turn lists every
change (old -> new). KB records show their query, SQL and rows. The raw JSON is one
click away.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from core_engine.errors import GenieError
from core_engine.session.replay import diff_states
from core_engine.spec.model import Spec

from components.graph.live_state import field_activity

HIGHLIGHT = "background-color: #fff3bf; font-weight: 600"
STATUS_ICONS = {"filled": "✓ filled", "confirmed": "✓✓ confirmed", "refused": "✗ refused (NA)",
                "missing": "… missing", "inactive": "— inactive (predicate false)", "dont_ask": "not asked"}


def show_value(value: Any, state: dict[str, Any] | None = None) -> str:
    """A value as one readable line: references by name, KB rows by their name or id."""
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            target = next((r for r in (state or {}).get("records") or [] if r.get("var") == value["$ref"]), None)
            if target and target.get("kind") == "kb":
                return f"→ {value['$ref']} (choose a row of answer({target.get('query')!r}))"
            return f"→ {value['$ref']}"
        label = value.get("name") or value.get("title") or value.get("id")
        if label is not None:
            return f"{label} (row)"
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, list):
        return ", ".join(show_value(v, state) for v in value)
    if value is None:
        return ""
    return str(value)


def record_table(spec: Spec, record: dict[str, Any], state: dict[str, Any], statuses: dict[str, str],
                 changed: set[str]) -> pd.DataFrame:
    ws = spec.worksheet(record.get("worksheet", ""))
    values = record.get("values") or {}
    names = [f.name for f in ws.fields] if ws else list(values)
    rows = []
    for name in names + [n for n in values if n not in names]:
        f = ws.field(name) if ws else None
        rows.append({"changed": "●" if name in changed else "", "field": name,
                     "value": show_value(values.get(name), state),
                     "status": STATUS_ICONS.get(statuses.get(name, ""), statuses.get(name, "")),
                     "type": f.type if f else "?"})
    return pd.DataFrame(rows, columns=["changed", "field", "value", "status", "type"])


def _styled(df: pd.DataFrame) -> Any:
    """Changed rows highlighted; a table with none is shown plain (a pandas Styler costs a few ms
    per table on every rerun, most records do not change in a turn)."""
    changed = (df["changed"] != "").to_numpy()
    if not changed.any():
        return df
    styles = [[HIGHLIGHT if flag else ""] * len(df.columns) for flag in changed]
    return df.style.apply(lambda _: pd.DataFrame(styles, index=df.index, columns=df.columns), axis=None)


def render_state(spec: Spec, state: dict[str, Any], previous: dict[str, Any] | None, *, turn: int,
                 key: str = "state") -> None:
    """The state after `turn`, with what changed since `previous` (the state before it)."""
    changes = diff_states(previous, state) if previous is not None else []
    changed_by_var: dict[str, set[str]] = {}
    for c in changes:
        if c["field"] and not c["field"].startswith("["):
            changed_by_var.setdefault(c["var"], set()).add(c["field"])
    new_records = {c["var"] for c in changes if c["field"] is None and c["op"] == "added"}
    try:
        activity = field_activity(spec, state)
    except GenieError as exc:  # a state the (edited) spec no longer fits is still shown, with the reason
        st.warning(f"Could not evaluate predicates on this state: {exc}")
        activity = {}
    records = state.get("records") or []
    if not records:
        st.caption("No records yet.")
    for rec in records:
        var = rec.get("var", "?")
        badge = " :orange-badge[new]" if var in new_records else ""
        if rec.get("kind") == "kb":
            _render_kb(rec, badge)
            continue
        info = activity.get(var, {})
        status = rec.get("status")
        if status == "active" and not info.get("active", True):
            status = "inactive (a predicate is false)"
        parent = f" · in {rec['parent']}.{rec.get('parent_field')}" if rec.get("parent") else ""
        st.markdown(f"**`{var}`** · {rec.get('worksheet')} · {status} · started by {rec.get('initiator')}"
                    f"{parent}{badge}")
        df = record_table(spec, rec, state, info.get("fields", {}), changed_by_var.get(var, set()))
        # keys stable across turns: the browser updates the same table in place instead of mounting a new one
        st.dataframe(_styled(df), hide_index=True, width="stretch", key=f"{key}-{var}",
                     column_config={"changed": st.column_config.TextColumn("", width=28,
                                                                           help="changed in this turn"),
                                    "value": st.column_config.TextColumn(width="medium")})
        if rec.get("result") is not None:
            st.caption("API result")
            st.json(rec["result"], expanded=False)
    st.markdown(f"**Changes in turn {turn}**" if turn else "**The start**")
    if turn and changes:
        st.dataframe(pd.DataFrame([{"record": c["var"], "field": c["field"] or "(record)", "change": c["op"],
                                    "before": show_value(c["old"], previous), "after": show_value(c["new"], state)}
                                   for c in changes]), hide_index=True, width="stretch", key=f"{key}-diff")
    elif turn:
        st.caption("Nothing changed in the state.")
    # a toggle, not an expander: an expander's body is sent on every rerun, and the state JSON carries
    # every KB row of the conversation (hundreds of KB after a long session)
    if st.toggle("State as JSON", key=f"{key}-json"):
        st.json(state, expanded=False)


def _render_kb(rec: dict[str, Any], badge: str) -> None:
    rows = rec.get("result") or []
    st.markdown(f"**`{rec.get('var')}`** · KB query · {rec.get('status')} · {len(rows)} row(s){badge}")
    st.caption(f"answer({rec.get('query')!r})")
    if rec.get("error"):
        st.error(rec["error"])
    if rec.get("note"):
        st.caption(rec["note"])


__all__ = ["render_state", "record_table", "show_value"]
