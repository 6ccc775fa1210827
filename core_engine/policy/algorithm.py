"""The agent policy: the paper's Algorithm 1, deterministic and bounded.

Given the state before the turn and the working state after the parse, the
policy, in this order: activates worksheets whose WS predicate became true;
executes new KB records and Reports them; handles newly assigned fields
(Confirm, or run their actions); executes completed task records (API, WS
actions, Report); and finally Asks the first unfilled askable required field,
user initiatives first. At most one question (Ask/Confirm) is asked per turn.
"""

from __future__ import annotations

from typing import Any

from . import acts as A
from ..errors import BackendError, GenieError, PolicyError
from .apis import shape_mock_reference
from .runtime import RowProxy, Runtime
from ..spec.model import REFUSAL, Field, inside_sentence, parse_type
from ..dialogue.state import DialogueState, KBRecord, TaskRecord, ref, ref_target
from ..spec.values import is_empty


def run_policy(rt: Runtime, prev: DialogueState) -> list[A.Act]:
    budget = rt.spec.settings.max_policy_steps
    for step in range(budget):
        changed = _activate_worksheets(rt)
        changed |= _execute_kb_records(rt)
        changed |= _handle_assigned_fields(rt, prev)
        changed |= _execute_completed(rt)
        if not changed:
            break
    else:
        raise PolicyError(f"the policy did not settle within {budget} steps; check actions that keep "
                          "re-assigning fields", steps=budget)
    if not any(A.is_question(a) for a in rt.acts) and not any(a["act"] == "propose" for a in rt.acts):
        question = _next_question(rt)
        if question is not None:
            rt.acts.append(question)
    if not rt.acts:
        rt.acts.extend(_still_pending(rt, prev))
    return rt.acts


def _still_pending(rt: Runtime, prev: DialogueState) -> list[A.Act]:
    """A turn that changed nothing and left the agent nothing to say: a task the user said no to at its summary,
    still open, is said to be unsent (only while the agent said nothing else since the no: not after another task
    was sent or asked about). An unanswered stop question is asked again by the turn (`session/turn.py`), which
    knows whether the parser read the answer."""
    said = prev.last_acts or []
    if said and all(a.get("act") == "say" for a in said) and any(
            r.status == "active" and r.outcome == "declined" for r in rt.state.open_tasks()):
        return [A.say(STILL_NOT_SUBMITTED)]
    return []


# ---------------------------------------------------------------- line 0: activation

def _activate_worksheets(rt: Runtime) -> bool:
    """Instantiate top-level task worksheets whose WS predicate became true (agent initiative).

    The candidates (not nested, no live record, predicate true) come in spec order from
    `Runtime.activation_candidates`, which judges predicates by group and remembers outcomes."""
    changed = False
    for ws in rt.activation_candidates():
        rec = rt.state.new_task(ws.name, initiator="agent")
        rt.trace.event("instantiate", var=rec.var, worksheet=ws.name, initiator="agent",
                       reason="ws_predicate")
        changed = True
    return _adopt_orphans(rt) or changed


def _adopt_orphans(rt: Runtime) -> bool:
    """A record of a nested-only worksheet that the user started before any task had a place for it goes into the
    first live record with an empty, active field of its type (`Runtime.instantiate_child` takes the orphan)."""
    changed = False
    for orphan in [r for r in rt.state.open_tasks() if r.parent is None and r.worksheet in rt.index.nested
                   and r.status == "active"]:
        if rt.orphan(orphan.worksheet) is not orphan:
            continue
        for rec in rt.state.open_tasks():
            if rec is orphan or rec.status != "active" or rec.outcome is not None:
                continue
            slot = next((f for f in rt.worksheet_of(rec).fields if parse_type(f.type).worksheet == orphan.worksheet
                         and not parse_type(f.type).is_list and rec.values.get(f.name) is None
                         and rt.field_active(rec, f)), None)
            if slot is not None:
                rt.instantiate_child(rec, slot, initiator="user")
                changed = True
                break
    return changed


# ---------------------------------------------------------------- lines 4-11: KB records

def _execute_kb_records(rt: Runtime) -> bool:
    changed = False
    for rec in rt.state.open_records():
        if not isinstance(rec, KBRecord) or rec.status != "pending":
            continue
        rt.knowledge.run(rec, rt.spec, rt.trace.kb)
        changed = True
        if rec.target_var:
            _compose(rt, rec)
        else:
            rt.acts.append(_kb_report(rec, _report_rows(rt, rec)))
            _run_type_actions(rt, rec)
    return changed


def _report_rows(rt: Runtime, rec: KBRecord) -> list[dict[str, Any]]:
    return list(rec.result or [])[: rt.spec.settings.report_rows]


def _compose(rt: Runtime, rec: KBRecord) -> None:
    """A KB answer as a field value: one row fills it, several are offered, none is said."""
    owner = rt.state.get(rec.target_var or "")
    if not isinstance(owner, TaskRecord) or rec.target_field is None:
        return
    rows = rec.result or []
    if rec.status == "done" and len(rows) == 1:
        rt.assign(owner, rec.target_field, rows[0], source=f"{rec.var} (single result)")
        rt.acts.append(A.report(rec.var, "kb", rows, query=rec.query))
        return
    if rec.status == "done" and rows:
        rt.acts.append(A.report(rec.var, "kb", _report_rows(rt, rec), query=rec.query))
        return  # the Ask step asks the user to choose (the field still points at the query)
    rt.assign(owner, rec.target_field, None, source=f"{rec.var} (no result)")
    rt.acts.append(_kb_report(rec, []))


def _kb_report(rec: KBRecord, rows: list[dict[str, Any]]) -> A.Act:
    extra = {k: v for k, v in (("error", rec.error), ("note", rec.note)) if v}
    return A.report(rec.var, "kb", rows, query=rec.query, **extra)


def _run_type_actions(rt: Runtime, rec: KBRecord) -> None:
    """A single row of a `type` worksheet's table runs that type's WS actions (e.g. propose a booking)."""
    rows = rec.result or []
    if rec.status != "done" or len(rows) != 1:
        return
    row_type = _row_type(rt, rec)
    if row_type is None or not row_type.actions.strip():
        return
    holder = TaskRecord(var=rec.var, worksheet=row_type.name,  # the row seen as a record of its type
                        values={f.name: rows[0].get(f.name) for f in row_type.fields})
    rt.run_code(row_type.actions, holder, what=f"{row_type.name} (ws_actions)", self_value=RowProxy(rows[0]))


def _row_type(rt: Runtime, rec: KBRecord):
    """The `type` worksheet whose fields match the columns of the KB rows, if any."""
    rows = rec.result or []
    if not rows:
        return None
    cols = set(rows[0])
    for ws in rt.spec.worksheets:
        if ws.kind == "type" and ws.fields and {f.name for f in ws.fields} <= cols:
            return ws
    return None


# ---------------------------------------------------------------- lines 12-19: assigned fields

def _handle_assigned_fields(rt: Runtime, prev: DialogueState) -> bool:
    changed = False
    for rec in rt.state.open_tasks():  # a frozen record is settled: every value's actions ran
        if rec.status == "abandoned" or rec.values.keys() <= set(rec.actions_done):
            continue  # (the second: every value's actions ran; nothing below applies)
        before = prev.get(rec.var)
        old_values = before.values if isinstance(before, TaskRecord) else {}
        for f in rt.worksheet_of(rec).fields:
            if f.name not in rec.values or f.name in rec.actions_done:
                continue
            value = rec.values[f.name]
            if (ref_target(value) is not None or rt.is_record_list(f)) and not rt.is_filled(rec, f):
                continue
            newly = old_values.get(f.name) != value
            if f.confirm and f.name not in rec.confirmed:
                if newly and not any(A.is_question(a) for a in rt.acts):
                    rt.acts.append(A.confirm(rec.var, rec.worksheet, f.name, rt.flatten(value)))
                continue
            rec.actions_done.append(f.name)
            if f.actions.strip():
                rt.run_code(f.actions, rec, what=f"{rec.worksheet}.{f.name} (actions)")
                changed = True
    return changed


# ---------------------------------------------------------------- lines 20-23: completed records

def _depth(rt: Runtime, rec: TaskRecord) -> int:
    return len(rt.state.ancestors(rec))


NOT_SUBMITTED = "OK, I haven't submitted it. Tell me what to change, or say stop to leave it."
"""A no to the summary with no words of the spec's own for it: the agent said nothing and the template fell back to
"Is there anything else I can help you with?", as if the task were over (a blind-set writer's note); it is still
open, and a changed value shows the summary again."""

STILL_NOT_SUBMITTED = "It isn't submitted yet. Tell me what to change, say send it to submit it as it is, or say stop to leave it."
"""The same, for a later turn that changed nothing: the template's "anything else?" read as if the task were over."""


def _execute_completed(rt: Runtime) -> bool:
    changed = False
    waiting = [r for r in rt.state.open_tasks() if r.status == "active" and r.outcome is None]
    for rec in sorted(waiting, key=lambda r: -_depth(rt, r)):
        if rec.status != "active" or rec.outcome is not None:
            continue
        if not rt.record_active(rec) or not rt.is_complete(rec):
            continue
        if _pending_confirmation(rt, rec):
            continue
        ws = rt.worksheet_of(rec)
        declined = [f.name for f in ws.fields if parse_type(f.type).base == "confirm"
                    and rec.values.get(f.name) is False]
        if declined:
            rec.outcome = "declined"
            rt.trace.event("declined", var=rec.var, field=declined[0])
            if not any(a.get("act") == "say" for a in rt.acts):  # the spec's own words for a no, if it has them
                rt.acts.append(A.say(NOT_SUBMITTED))
            changed = True
            continue
        refused = rt.refused_required(rec)
        if refused and ws.api:
            rec.outcome = "blocked"
            names = ", ".join(_label(rt, rec, n) for n in refused)
            rt.acts.append(A.say(f"I can't go ahead without {names}. "
                                 "You can give it now, or tell me to stop."))
            rt.trace.event("blocked", var=rec.var, refused=refused)
            changed = True
            continue
        if ws.api:
            params = _api_params(rt, rec, ws.api)
            try:
                rec.result = rt.apis.call(ws.api, params)
                rt.trace.event("api", api=ws.api, params=params, result=rec.result)
            except BackendError as exc:
                rt.trace.error("api", str(exc), api=ws.api, var=rec.var)
                rt.acts.append(A.say(f"Sorry, I could not complete this request: {exc.message}. "
                                     "Please try again later."))
                rec.outcome = "blocked"
                for f in ws.fields:  # a failed call is retryable: its yes/no checkpoint is asked again
                    if parse_type(f.type).base == "confirm" and f.name in rec.values:
                        rec.values.pop(f.name)
                        if f.name in rec.actions_done:
                            rec.actions_done.remove(f.name)
                        rec.outcome = None
                changed = True
                continue
            _fill_outputs(rt, rec, rec.result)
            report = A.report(rec.var, "api", rec.result, api=ws.api)
            rt.acts.append(report)
            rec.status = "completed"
        else:
            report = None
        rec.outcome = "executed"
        if ws.actions.strip():
            rt.run_code(ws.actions, rec, what=f"{ws.name} (ws_actions)")
        _report_outputs(rt, rec, report)
        changed = True
    return changed


def _output_fields(rt: Runtime, rec: TaskRecord) -> list[Field]:
    return [f for f in rt.worksheet_of(rec).fields if f.kind == "output"]


def _fill_outputs(rt: Runtime, rec: TaskRecord, result: Any) -> None:
    """`output` fields take their value from the API result: the key of their name, or the
    whole result when the worksheet has a single output field and no such key."""
    outputs = _output_fields(rt, rec)
    for f in outputs:
        if isinstance(result, dict) and f.name in result:
            value = result[f.name]
        elif len(outputs) == 1 and result is not None:
            value = result
        else:
            continue
        api = rt.spec.api(rt.worksheet_of(rec).api or "")
        if api is not None and api.kind == "mock":
            value = shape_mock_reference(value, f.description)
        try:
            rt.assign(rec, f.name, value, source=f"{_api_label(rt, rec)} result")
        except GenieError as exc:
            rt.trace.error("output", str(exc), var=rec.var, field=f.name)


def _api_label(rt: Runtime, rec: TaskRecord) -> str:
    return rt.worksheet_of(rec).api or rec.worksheet


def _report_outputs(rt: Runtime, rec: TaskRecord, report: A.Act | None) -> None:
    """Report the output fields (from the API, or set by the WS actions) with the API report."""
    values = {f.name: rt.flatten(rec.values[f.name]) for f in _output_fields(rt, rec) if f.name in rec.values}
    if not values:
        return
    if report is None:
        report = A.report(rec.var, "api", None)
        rt.acts.append(report)
    report["outputs"] = values


def _pending_confirmation(rt: Runtime, rec: TaskRecord) -> bool:
    ws = rt.worksheet_of(rec)
    return any(f.confirm and f.name in rec.values and f.name not in rec.confirmed for f in ws.fields)


def _api_params(rt: Runtime, rec: TaskRecord, api_name: str) -> dict[str, Any]:
    api = rt.spec.api(api_name)
    values = rt.active_values(rec)
    if api is not None and api.parameters:
        return {p.name: values.get(p.name) for p in api.parameters}
    return values


def _label(rt: Runtime, rec: TaskRecord, field_name: str) -> str:
    f = rt.worksheet_of(rec).field(field_name)
    text = (f.description or field_name.replace("_", " ")).rstrip(".") if f else field_name
    return inside_sentence(text)


# ---------------------------------------------------------------- lines 24-28: ask

def _next_question(rt: Runtime) -> A.Act | None:
    roots = [r for r in rt.state.tasks() if r.parent is None and r.status == "active"]
    roots.sort(key=lambda r: 0 if r.initiator == "user" else 1)
    for rec in roots:
        act = _ask_in(rt, rec, depth=0)
        if act is not None:
            return act
    return None


def _ask_in(rt: Runtime, rec: TaskRecord, depth: int) -> A.Act | None:
    if depth > 20 or rec.status != "active" or not rt.record_active(rec):
        return None
    for f in rt.worksheet_of(rec).fields:
        if f.kind != "input" or f.dont_ask or not rt.field_active(rec, f):
            continue
        value = rec.values.get(f.name)
        if rt.is_record_list(f) and value != REFUSAL:
            act = _ask_list(rt, rec, f, value, depth)
            if act is not None:
                return act
            continue
        if f.confirm and not is_empty(value) and f.name not in rec.confirmed and ref_target(value) is None:
            return A.confirm(rec.var, rec.worksheet, f.name, rt.flatten(value))
        act = _ask_field(rt, rec, f, value, depth)
        if act is not None:
            return act
    return None


def _ask_list(rt: Runtime, rec: TaskRecord, f: Field, value: Any, depth: int) -> A.Act | None:
    """A list of records: fill each item in order, then ask "anything else?" until the user says no."""
    items = value if isinstance(value, list) else []
    for item in items:
        child = rt.state.get(ref_target(item) or "")
        if isinstance(child, TaskRecord) and child.status == "active":
            act = _ask_in(rt, child, depth + 1)
            if act is not None:
                return act
    if f.name in rec.confirmed:
        return None
    item_ws = rt.spec.worksheet(parse_type(f.type).worksheet or "")
    if not items and item_ws is not None and item_ws.kind == "task":
        child = rt.state.new_task(item_ws.name, initiator="agent", parent=rec, parent_field=f.name)
        rec.values[f.name] = [ref(child.var)]  # the first item, asked field by field
        rt.trace.event("instantiate", var=child.var, worksheet=item_ws.name, parent=rec.var, field=f.name)
        act = _ask_in(rt, child, depth + 1)
        if act is not None:
            return act
    if not items:
        return A.ask(rec.var, rec.worksheet, f.name)
    if f.confirm:
        return A.confirm(rec.var, rec.worksheet, f.name, rt.flatten(items))
    return {**A.ask(rec.var, rec.worksheet, f.name), "more": True}


def _ask_field(rt: Runtime, rec: TaskRecord, f: Field, value: Any, depth: int) -> A.Act | None:
    target = ref_target(value)
    if target is not None:
        child = rt.state.get(target)
        if isinstance(child, TaskRecord):
            return _ask_in(rt, child, depth + 1)
        return A.ask(rec.var, rec.worksheet, f.name)  # choose among the reported rows
    if not is_empty(value):
        return None
    ws_name = parse_type(f.type).worksheet
    ws = rt.spec.worksheet(ws_name) if ws_name else None
    if ws is not None and ws.kind == "task" and not parse_type(f.type).is_list:
        child = rt.instantiate_child(rec, f, initiator="agent")
        act = _ask_in(rt, child, depth + 1)
        if act is not None:
            return act
    act = A.ask(rec.var, rec.worksheet, f.name)
    if parse_type(f.type).base == "confirm":  # the summary shows what will be sent: no hidden field
        hidden = rt.inactive_fields(rec)
        if hidden:
            act["inactive"] = hidden
        missing = rt.refused_required(rec) if rt.worksheet_of(rec).api else []
        if missing:  # the API will not run without them: the summary says so instead of offering to submit
            act["missing"] = missing
    return act
