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
from components.playground.state_html import state_html

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


def record_rows(spec: Spec, record: dict[str, Any], state: dict[str, Any], statuses: dict[str, str],
                changed: set[str]) -> list[dict[str, str]]:
    """One row per field of the record's worksheet (then any value the worksheet does not declare)."""
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
    return rows


def record_table(spec: Spec, record: dict[str, Any], state: dict[str, Any], statuses: dict[str, str],
                 changed: set[str]) -> pd.DataFrame:
    return pd.DataFrame(record_rows(spec, record, state, statuses, changed),
                        columns=["changed", "field", "value", "status", "type"])


def state_body(spec: Spec, state: dict[str, Any], previous: dict[str, Any] | None, *,
               turn: int) -> tuple[str, str | None]:
    """(the inspector's HTML, a warning or None) for the state after `turn`; no Streamlit, so the
    page can cache it per turn (a recorded turn's state never changes)."""
    changes = diff_states(previous, state) if previous is not None else []
    changed_by_var: dict[str, set[str]] = {}
    for c in changes:
        if c["field"] and not c["field"].startswith("["):
            changed_by_var.setdefault(c["var"], set()).add(c["field"])
    new_records = {c["var"] for c in changes if c["field"] is None and c["op"] == "added"}
    warning = None
    try:
        activity = field_activity(spec, state)
    except GenieError as exc:  # a state the (edited) spec no longer fits is still shown, with the reason
        warning = f"Could not evaluate predicates on this state: {exc}"
        activity = {}
    records = state.get("records") or []
    tables: dict[str, list[dict[str, Any]]] = {}
    statuses: dict[str, str] = {}
    for rec in records:
        if rec.get("kind") == "kb":
            continue
        var = rec.get("var", "?")
        info = activity.get(var, {})
        status = rec.get("status")
        if status == "active" and not info.get("active", True):
            status = "inactive (a predicate is false)"
        statuses[var] = str(status)
        tables[var] = record_rows(spec, rec, state, info.get("fields", {}), changed_by_var.get(var, set()))
    diff = [{"record": c["var"], "field": c["field"] or "(record)", "change": c["op"],
             "before": show_value(c["old"], previous), "after": show_value(c["new"], state)} for c in changes]
    return state_html(records, tables, statuses, new_records, diff if turn else None, turn), warning


def render_state(spec: Spec, state: dict[str, Any], previous: dict[str, Any] | None, *, turn: int,
                 key: str = "state", body: tuple[str, str | None] | None = None) -> None:
    """The state after `turn`, with what changed since `previous` (the state before it): one HTML
    element (components/playground/state_html.py; its style, STATE_CSS, is drawn once by the page's
    fragment with the chat's), then the raw JSON on request. `body` is a cached
    `state_body(...)` for the same arguments."""
    html, warning = body or state_body(spec, state, previous, turn=turn)
    if warning:
        st.warning(warning)
    st.html(html)
    # a toggle, not an expander: an expander's body is sent on every rerun, and the state JSON carries
    # every KB row of the conversation (hundreds of KB after a long session)
    if st.toggle("State as JSON", key=f"{key}-json"):
        st.json(state, expanded=False)


__all__ = ["render_state", "state_body", "record_rows", "record_table", "show_value"]
