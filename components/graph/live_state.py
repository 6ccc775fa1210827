"""The live dialogue state drawn on the dependency graph: "why is the agent asking this?".

`field_activity(spec, state)` evaluates, for every task record, whether the record and
each of its fields are active (their predicates, in the sandbox, against that state:
read-only, nothing is run but predicate expressions). `node_styles(...)` turns that and
the turn's acts into vis.js styles keyed by the node ids of `components.graph.model`:

    filled     green            asked now   amber, thick border (and focused)
    confirmed  dark green       refused     red
    inactive   grey, dashed     (a predicate is false)
    missing    white            (active, not filled yet)

No Streamlit here, so the overlay can be tested without a browser.
"""

from __future__ import annotations

from typing import Any

from core_engine.policy.apis import ApiRunner
from core_engine.policy.runtime import Runtime
from core_engine.spec.model import REFUSAL, Spec
from core_engine.dialogue.state import DialogueState, TaskRecord, ref_target
from core_engine.spec.values import is_empty

from components.graph.model import field_id, worksheet_id

STATUS_STYLES: dict[str, dict[str, Any]] = {
    "filled": {"color": {"background": "#86efac", "border": "#15803d"}, "borderWidth": 2},
    "confirmed": {"color": {"background": "#16a34a", "border": "#14532d"}, "borderWidth": 3},
    "refused": {"color": {"background": "#fca5a5", "border": "#b91c1c"}, "borderWidth": 2},
    "missing": {"color": {"background": "#ffffff", "border": "#475569"}, "borderWidth": 2},
    "inactive": {"color": {"background": "#f1f5f9", "border": "#cbd5e1"}, "borderWidth": 1,
                 "shapeProperties": {"borderDashes": [4, 4]}, "font": {"color": "#94a3b8"}},
    "asked": {"color": {"background": "#fde68a", "border": "#d97706"}, "borderWidth": 5, "size": 16},
    "completed": {"color": {"background": "#bbf7d0", "border": "#15803d"}, "borderWidth": 3},
    "open": {"color": {"background": "#bfdbfe", "border": "#1d4ed8"}, "borderWidth": 3},
    "not started": {"color": {"background": "#f8fafc", "border": "#cbd5e1"}, "borderWidth": 1,
                    "font": {"color": "#94a3b8"}},
}
for _style in STATUS_STYLES.values():  # a selected (focused) node keeps its state colour
    _style["color"]["highlight"] = {"background": _style["color"]["background"], "border": "#111827"}
LEGEND = ("asked", "filled", "confirmed", "refused", "missing", "inactive", "open", "completed", "not started")


def field_activity(spec: Spec, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{var: {"active": bool, "fields": {name: status}}} for the task records of `state`.

    A field's status is one of filled, confirmed, refused, missing, inactive, dont_ask.
    """
    ds = DialogueState.from_json(state)
    rt = Runtime(spec, ds, apis=ApiRunner(spec))
    out: dict[str, dict[str, Any]] = {}
    for rec in ds.tasks():
        ws = spec.worksheet(rec.worksheet)
        if ws is None:
            continue
        active = rec.status == "completed" or rt.record_active(rec)
        fields: dict[str, str] = {}
        for f in ws.fields:
            fields[f.name] = _field_status(rt, rec, f, active)
        out[rec.var] = {"active": active, "worksheet": rec.worksheet, "status": rec.status, "fields": fields}
    return out


def _field_status(rt: Runtime, rec: TaskRecord, f: Any, record_active: bool) -> str:
    value = rec.values.get(f.name)
    if value == REFUSAL or f.name in rec.refused:
        return "refused"
    if not is_empty(value):
        target = ref_target(value)
        if target is not None and not isinstance(rt.state.get(target), TaskRecord):
            return "missing"  # a KB question whose row has not been chosen
        return "confirmed" if f.name in rec.confirmed or value is True and f.type == "confirm" else "filled"
    if not record_active or not rt.field_active(rec, f):
        return "inactive"
    if f.dont_ask or f.kind != "input":
        return "dont_ask"
    return "missing"


_RANK = {"asked": 7, "refused": 6, "confirmed": 5, "filled": 4, "missing": 3, "dont_ask": 2, "inactive": 1}


def node_styles(spec: Spec, state: dict[str, Any], acts: list[dict[str, Any]] | None = None
                ) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """(styles by node id, nodes to focus: the fields the agent asks about in `acts`)."""
    activity = field_activity(spec, state)
    field_status: dict[str, str] = {}
    ws_status: dict[str, str] = {}
    for info in activity.values():
        ws = spec.worksheet(info["worksheet"])
        if ws is None:
            continue
        wid = worksheet_id(ws)
        status = "completed" if info["status"] == "completed" else ("open" if info["active"] else "inactive")
        if _ws_rank(status) > _ws_rank(ws_status.get(wid)):
            ws_status[wid] = status
        for name, st_ in info["fields"].items():
            node = field_id(ws.name, name)
            if _RANK.get(st_, 0) > _RANK.get(field_status.get(node, ""), 0):
                field_status[node] = st_
    focus: list[str] = []
    for act in acts or []:
        if act.get("act") in ("ask", "confirm") and act.get("worksheet") and act.get("field"):
            node = field_id(act["worksheet"], act["field"])
            field_status[node] = "asked"
            focus.append(node)
    styles: dict[str, dict[str, Any]] = {}
    for ws in spec.worksheets:
        if ws.kind == "task":
            wid = worksheet_id(ws)
            styles[wid] = STATUS_STYLES[ws_status.get(wid, "not started")]
    for node, status in field_status.items():
        if status in STATUS_STYLES:
            styles[node] = STATUS_STYLES[status]
    return styles, focus


def why_asked(spec: Spec, state: dict[str, Any], acts: list[dict[str, Any]] | None) -> list[str]:
    """For each question in `acts`, the reasons the policy asked it, in words."""
    activity = field_activity(spec, state)
    records = {r.get("var"): r for r in state.get("records") or []}
    out: list[str] = []
    for act in acts or []:
        if act.get("act") not in ("ask", "confirm"):
            continue
        var, name = act.get("var"), act.get("field")
        ws = spec.worksheet(act.get("worksheet") or "")
        f = ws.field(name) if ws else None
        rec = records.get(var) or {}
        if ws is None or f is None:
            continue
        if act["act"] == "confirm":
            reasons = [f"`{name}` has a value that must be confirmed (its confirm flag is set)"]
        elif isinstance(rec.get("values", {}).get(name), dict):
            reasons = [f"`{name}` holds a knowledge-base question with several rows: the user must choose one"]
        else:
            reasons = [f"`{name}` is {'required' if f.required else 'optional'}, asked ({f.kind}, not dont_ask) "
                       "and still empty"]
        reasons.append(f"its predicate `{f.predicate}` is true" if f.predicate.strip() else "it has no predicate")
        if rec.get("parent"):
            reasons.append(f"`{var}` is nested in `{rec['parent']}.{rec.get('parent_field')}`")
        elif ws.predicate.strip():
            reasons.append(f"`{var}` is open: the WS predicate `{ws.predicate}` is true"
                           if rec.get("initiator") == "agent" else f"`{var}` was started by the user")
        else:
            reasons.append(f"`{var}` is open ({ws.name} has no WS predicate)")
        names = [x.name for x in ws.fields]
        before = names[:names.index(name)]
        statuses = activity.get(var, {}).get("fields", {})
        settled = [n for n in before if statuses.get(n) in ("filled", "confirmed", "refused")]
        skipped = [n for n in before if statuses.get(n) in ("inactive", "dont_ask")]
        if before:
            reasons.append("the fields before it are answered" + (f" ({', '.join(settled)})" if settled else "")
                           + (f"; skipped: {', '.join(skipped)}" if skipped else ""))
        out.append(f"**{act['act'].capitalize()} {var}.{name}** because " + "; ".join(reasons) + ".")
    return out


def _ws_rank(status: str | None) -> int:
    return {"completed": 3, "open": 2, "inactive": 1}.get(status or "", 0)


__all__ = ["field_activity", "node_styles", "why_asked", "STATUS_STYLES", "LEGEND"]
