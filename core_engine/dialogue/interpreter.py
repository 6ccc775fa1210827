"""Applying formal statements to the working state, checked against the spec.

Each statement either applies completely or is rejected with a reason in the
trace; a rejected statement never stops the others (DESIGN §4). "Completely" is
enforced as a transaction: a statement runs against the working state, and if
any part of it is rejected (say the third keyword of a constructor names no
field) the state and the trace are put back as they were before it.
"""

from __future__ import annotations

from typing import Any

from ..errors import GenieError, StatementError
from ..policy import acts as A, sandbox
from ..policy.runtime import Runtime
from ..spec.model import REFUSAL, Field, Worksheet, parse_type
from .state import KBRecord, TaskRecord, ref, ref_target
from .statements import (Append, Ask, Assign, ConfirmValue, Const, Construct, Exit, ListValue, PathPart,
                         PathRef, Statement, AnswerQuery, Value, format_path)
from ..spec.values import coerce_bool, coerce_value


def apply_statements(rt: Runtime, statements: list[Statement]) -> tuple[list[dict], list[dict]]:
    """Apply statements in order; return (applied, rejected) summaries for the trace."""
    applied: list[dict] = []
    rejected: list[dict] = []
    for st in statements:
        saved = _Savepoint(rt)
        try:
            _apply(rt, st)
            applied.append({"source": st.source, "line": st.line})
        except GenieError as exc:
            saved.restore(rt)
            rejected.append({"source": st.source, "line": st.line, "error": str(exc)})
    return applied, rejected


class _Savepoint:
    """The working state and trace before a statement, to undo a statement rejected halfway."""

    def __init__(self, rt: Runtime) -> None:
        self.state = rt.state.copy()
        self.events = len(rt.trace.events)

    def restore(self, rt: Runtime) -> None:
        live = vars(rt.state)  # in place: the turn holds this very state object
        live.clear()
        live.update(vars(self.state))
        del rt.trace.events[self.events:]


def _apply(rt: Runtime, st: Statement) -> None:
    if isinstance(st, Ask):
        rec = rt.state.new_kb(st.query)
        rt.trace.event("question", var=rec.var, query=st.query)
    elif isinstance(st, Assign):
        _assign(rt, st)
    elif isinstance(st, ConfirmValue):
        record, f = _resolve_field(rt, st.target, create=False)
        if st.yes:
            if f.confirm and (not _agent_asked(rt, "confirm", record, f) or (record.var, f.name) in rt.changed):
                raise StatementError(f"{record.worksheet}.{f.name} can only be confirmed right after the agent "
                                     "asks the user to confirm it", worksheet=record.worksheet, field=f.name)
            if f.name not in record.values:
                raise StatementError(f"{format_path(st.target)} has no value to confirm")
            if f.name not in record.confirmed:
                record.confirmed.append(f.name)
            rt.trace.event("confirmed", var=record.var, field=f.name)
        else:
            rt.assign(record, f.name, None, source="confirm(no)")
    elif isinstance(st, Append):
        record, f = _resolve_field(rt, st.target, create=True)
        _append(rt, record, f, st.value, source=st.source)
    elif isinstance(st, Exit):
        rec = rt.state.get(st.var)
        if not isinstance(rec, TaskRecord):
            raise StatementError(f"no task record named '{st.var}'")
        was_open = rec.status == "active" and rec.outcome != "executed"  # blocked or declined: nothing was sent
        rt._exit(rec)
        _clear_opening_choice(rt, rec)
        if was_open and rec.parent is None:  # said before the next question, so the user knows it stopped
            rt.acts.append(A.say("OK, I've stopped that. Nothing was submitted."))


def _clear_opening_choice(rt: Runtime, exited: TaskRecord) -> None:
    """The user left a task that a choice opened (`task == "Book Repair"`): the choice is taken back too.

    Otherwise the WS predicate is still true and the policy opens a new copy of the task the user just
    left, in the same turn ("cancel it" -> "What would you like to have collected?"). The choice is a
    field of a live top-level record whose value the predicate names as a literal.
    """
    if exited.parent is not None:
        return
    source = rt.worksheet_of(exited).predicate or ""
    if not source.strip():
        return
    try:
        names = set(sandbox.check_expression(source).names)
    except GenieError:
        return
    for rec in rt.state.tasks():
        if rec is exited or rec.parent is not None or rec.status != "active":
            continue
        for name, value in list(rec.values.items()):
            if name in names and isinstance(value, str) and (f'"{value}"' in source or f"'{value}'" in source):
                rt.assign(rec, name, None, source=f"exitws({exited.var})")


def _assign(rt: Runtime, st: Assign) -> None:
    if len(st.target) == 1:
        _assign_variable(rt, str(st.target[0]), st.value)
        return
    record, f = _resolve_field(rt, st.target, create=True)
    _set_field(rt, record, f, st.value, source=st.source)


def _assign_variable(rt: Runtime, var: str, value: Value) -> None:
    existing = rt.state.get(var)
    if isinstance(value, AnswerQuery):
        if existing is not None:
            raise StatementError(f"'{var}' already exists; ask with answer(\"...\") instead")
        rt.state.new_kb(value.query, var=var)
        return
    if not isinstance(value, Construct):
        raise StatementError(f"'{var}' is a record; assign one of its fields, e.g. {var}.field = value")
    ws = rt.spec.worksheet(value.worksheet)
    if ws is None or ws.kind != "task":
        raise StatementError(f"'{value.worksheet}' is not a task worksheet", worksheet=value.worksheet)
    if isinstance(existing, TaskRecord):
        if existing.worksheet != ws.name:
            raise StatementError(f"'{var}' is a {existing.worksheet}, not a {ws.name}")
        record = existing
    elif existing is not None:
        raise StatementError(f"'{var}' is a knowledge query, not a {ws.name}")
    else:
        record = _nested_slot(rt, ws.name) or _empty_root(rt, ws.name)
        if record is None:
            record = _start_task(rt, ws.name, var)
    rt.state.proposals = [p for p in rt.state.proposals if p.worksheet != ws.name]
    _construct_into(rt, record, value)


def _empty_root(rt: Runtime, worksheet: str) -> TaskRecord | None:
    for r in rt.state.of_worksheet(worksheet):
        if r.parent is None and r.status == "active" and not r.values:
            return r
    return None


def _nested_slot(rt: Runtime, worksheet: str) -> TaskRecord | None:
    """`first_authentication = FirstAuthentication(...)` fills the parent field that expects one.

    The record already in that field is reused; an empty field gets a new child.
    """
    if worksheet not in rt.spec.nested_worksheet_names():
        return None
    for rec in rt.state.tasks():
        if rec.status != "active":
            continue
        for f in rt.worksheet_of(rec).fields:
            tref = parse_type(f.type)
            if tref.is_list or tref.worksheet != worksheet:
                continue
            target = ref_target(rec.values.get(f.name))
            child = rt.state.get(target) if target else None
            if isinstance(child, TaskRecord) and child.status == "active":
                return child
            if target is None and rec.values.get(f.name) is None:
                return rt.instantiate_child(rec, f, initiator="user")
    return _deeper_slot(rt, worksheet)


def _deeper_slot(rt: Runtime, worksheet: str, depth: int = 3) -> TaskRecord | None:
    """`course.course_name = "Compilers"` on the first turn: no live record has a Course field yet, but Main's
    empty `courses_to_take` holds a CoursesToTake whose first field is a Course. The records on the way are
    made (as the policy would make them when asking), so the course is the one the form needs, not a loose
    record beside it that the policy would ask about first and the API would never see."""

    def always_there(f: Field) -> str | None:
        """The worksheet a field always holds (a list item or a conditional course is not "the" one)."""
        tref = parse_type(f.type)
        return None if tref.is_list or f.predicate.strip() else tref.worksheet

    def path_to(ws_name: str, left: int) -> list[Field] | None:
        ws = rt.spec.worksheet(ws_name)
        if ws is None or left == 0:
            return None
        for f in ws.fields:
            held = always_there(f)
            if held == worksheet:
                return [f]
            below = path_to(held, left - 1) if held else None
            if below is not None:
                return [f, *below]
        return None

    for rec in rt.state.tasks():
        if rec.status != "active":
            continue
        for f in rt.worksheet_of(rec).fields:
            held = always_there(f)
            if held is None or held == worksheet or rec.values.get(f.name) is not None:
                continue
            below = path_to(held, depth)
            if below is None:
                continue
            child = rt.instantiate_child(rec, f, initiator="user")
            for g in below:
                child = rt.instantiate_child(child, g, initiator="user")
            return child
    return None


def _construct_into(rt: Runtime, record: TaskRecord, value: Construct) -> None:
    for name, sub in value.kwargs:
        _set_field(rt, record, rt.field_of(record, name), sub, source=f"{value.worksheet}({name}=...)")


def _resolve_field(rt: Runtime, parts: tuple[PathPart, ...], *, create: bool) -> tuple[TaskRecord, Field]:
    """`main.courses_to_take.course_0_details.grade_type` -> (course record, grade_type field)."""
    head = parts[0]
    record = rt.state.get(str(head)) if isinstance(head, str) else None
    if create and isinstance(record, TaskRecord) and record.status == "abandoned":
        record = _live_copy(rt, record)
    rest = list(parts[1:])
    if record is None and isinstance(head, str):
        record = _implicit_record(rt, head) if create else None
    if record is None and isinstance(head, str):
        record = _record_holding(rt, head)
        if record is not None:
            rest = [head, *rest]
    if record is None:
        raise StatementError(f"no record named '{head}'", path=format_path(parts))
    if isinstance(record, KBRecord):
        raise StatementError(f"'{record.var}' is a knowledge query; its result cannot be assigned")
    while len(rest) > 1:
        name = rest.pop(0)
        if not isinstance(name, str):
            raise StatementError(f"cannot index into {record.var}", path=format_path(parts))
        f = rt.field_of(record, name)
        if isinstance(rest[0], int):
            record = _list_item_record(rt, record, name, rest.pop(0))
            continue
        target = ref_target(record.values.get(name))
        child = rt.state.get(target) if target else None
        if isinstance(child, TaskRecord):
            record = child
            continue
        ws_name = parse_type(f.type).worksheet
        ws = rt.spec.worksheet(ws_name) if ws_name else None
        if not create or ws is None or ws.kind != "task":
            raise StatementError(f"{record.var}.{name} does not hold a record", path=format_path(parts))
        record = rt.instantiate_child(record, f, initiator="user")
    last = rest[0] if rest else None
    if not isinstance(last, str):
        raise StatementError(f"expected a field name after '{record.var}'", path=format_path(parts))
    return record, rt.field_of(record, last)


def _list_item_record(rt: Runtime, record: TaskRecord, name: str, index: int) -> TaskRecord:
    """`main.funds[1]` in a path: the record that is that item of the list."""
    items = record.values.get(name)
    if not isinstance(items, list):
        raise StatementError(f"{record.var}.{name} is not a list", worksheet=record.worksheet, field=name)
    try:
        item = items[index]
    except IndexError:
        raise StatementError(f"{record.var}.{name} has {len(items)} items; there is no [{index}]") from None
    child = rt.state.get(ref_target(item) or "")
    if not isinstance(child, TaskRecord):
        raise StatementError(f"{record.var}.{name}[{index}] is a value, not a record; replace the list instead")
    return child


def _live_copy(rt: Runtime, abandoned: TaskRecord) -> TaskRecord:
    """A value for a record the user left (`book.item = ...` after cancelling `book` and asking again)
    goes to the live copy of its worksheet, made now if there is none yet, as the policy would make it;
    written into the abandoned record it would be lost while the new one asks for it again."""
    live = [r for r in rt.state.of_worksheet(abandoned.worksheet) if r.status == "active"]
    if live:
        return live[-1]
    if abandoned.parent is not None:
        slot = _nested_slot(rt, abandoned.worksheet) or _deeper_slot(rt, abandoned.worksheet)
        if slot is not None:
            return slot
        raise StatementError(f"'{abandoned.var}' was left by the user and its task is not open again",
                             worksheet=abandoned.worksheet)
    return _start_task(rt, abandoned.worksheet, instead_of=abandoned.var)


def _start_task(rt: Runtime, worksheet: str, var: str | None = None, **trace: Any) -> TaskRecord:
    """A top-level record the user's statement starts (traced as the user's initiative)."""
    rec = rt.state.new_task(worksheet, initiator="user", var=var)
    rt.trace.event("instantiate", var=rec.var, worksheet=worksheet, initiator="user", **trace)
    return rec


def _implicit_record(rt: Runtime, var: str) -> TaskRecord | None:
    """`book.date = ...` before `book` exists: the user starts that worksheet (by its variable name);
    `book_2.date = ...` names the next copy of it, the name the policy would give it this turn."""
    from ..spec.model import snake_case
    for ws in rt.spec.task_worksheets():
        base = snake_case(ws.name)
        if var != base and var.startswith(base + "_") and var == rt.state.new_var(base):
            if ws.name not in rt.spec.nested_worksheet_names():
                return _start_task(rt, ws.name, var)
            slot = _next_nested_slot(rt, ws.name)
            if slot is not None:
                return slot
        if base == var:
            nested = _nested_slot(rt, ws.name)
            if nested is None and ws.name in rt.spec.nested_worksheet_names():
                nested = _slot_in_activated(rt, ws.name)
            if nested is not None:
                return nested
            return _start_task(rt, ws.name, var)
    return None


def _next_nested_slot(rt: Runtime, worksheet: str) -> TaskRecord | None:
    """`more_courses_2 = True` then `course_3.course_name = "CS 41"` in one turn: the next copy of a nested
    worksheet, named as the policy would name it, fills the first empty field of that type whose predicate holds
    now (the one the statement before it opened). It was rejected ("no record named 'course_3'")."""
    for rec in rt.state.tasks():
        if rec.status != "active":
            continue
        for f in rt.worksheet_of(rec).fields:
            tref = parse_type(f.type)
            if tref.is_list or tref.worksheet != worksheet or rec.values.get(f.name) is not None:
                continue
            if rt.field_active(rec, f):
                return rt.instantiate_child(rec, f, initiator="user")
    return None


def _slot_in_activated(rt: Runtime, worksheet: str) -> TaskRecord | None:
    """`main.task = "Claim Refund"` then `journey.station = "York"` in one turn: the claim that holds the journey
    is opened by the policy after the statements, so no record has a slot for it yet, and a loose journey record
    would be asked beside the claim's own empty one and never sent (a value lost). The task worksheets whose WS
    predicate the turn has made true are opened now, as the policy would open them, and the slot is looked for
    in them."""
    opened = False
    for ws in rt.activation_candidates():
        rec = rt.state.new_task(ws.name, initiator="agent")
        rt.trace.event("instantiate", var=rec.var, worksheet=ws.name, initiator="agent", reason="ws_predicate",
                       early=f"a {worksheet} value came before its task was opened")
        opened = True
    return _nested_slot(rt, worksheet) if opened else None


def _record_holding(rt: Runtime, field_name: str) -> TaskRecord | None:
    """An LLM may write `course_2_details.course_name`: find the record that has that field."""
    for rec in rt.state.tasks():
        if rec.status == "active" and rt.worksheet_of(rec).field(field_name) is not None:
            return rec
    return None


def _set_field(rt: Runtime, record: TaskRecord, f: Field, value: Value, *, source: str) -> None:
    if f.kind == "output":
        raise StatementError(f"{record.worksheet}.{f.name} is an output: the agent fills it from the result",
                             worksheet=record.worksheet, field=f.name)
    tref = parse_type(f.type)
    target_ws = rt.spec.worksheet(tref.worksheet) if tref.worksheet else None
    if tref.is_list and target_ws is not None and not isinstance(value, AnswerQuery) \
            and not (isinstance(value, Const) and value.value in (None, REFUSAL)):
        items = value.items if isinstance(value, ListValue) else (value,)
        _drop_list_records(rt, record, f)
        rt.assign(record, f.name, [_list_item(rt, record, f, target_ws, v) for v in items], source=source)
        return
    if isinstance(value, Construct):
        if target_ws is None or target_ws.name != value.worksheet or tref.is_list:
            raise StatementError(f"{record.worksheet}.{f.name} has type {f.type}, not {value.worksheet}",
                                 worksheet=record.worksheet, field=f.name)
        if target_ws.kind != "task":
            raise StatementError(f"{value.worksheet} is a {target_ws.kind}; give a row, e.g. answer(\"...\")")
        existing = rt.state.get(ref_target(record.values.get(f.name)) or "")
        child = existing if isinstance(existing, TaskRecord) and existing.worksheet == value.worksheet \
            else rt.instantiate_child(record, f, initiator="user")
        _construct_into(rt, child, value)
        return
    if isinstance(value, AnswerQuery):
        if target_ws is None or target_ws.kind == "task":
            raise StatementError(f"{record.worksheet}.{f.name} ({f.type}) cannot hold a knowledge-base answer",
                                 worksheet=record.worksheet, field=f.name)
        kb = rt.state.new_kb(value.query)
        kb.target_var, kb.target_field = record.var, f.name
        rt.assign(record, f.name, ref(kb.var), source=source)
        rt.trace.event("question", var=kb.var, query=value.query, target=f"{record.var}.{f.name}")
        return
    new = _evaluate(rt, value, f)
    asked = tref.base == "confirm" and _agent_asked(rt, "ask", record, f)
    if tref.base == "confirm" and _is_yes(new) and not asked and not _standing_no(record, f):
        raise StatementError(f"{record.worksheet}.{f.name} can only be answered yes in the turn right after the "
                             "agent asks it", worksheet=record.worksheet, field=f.name)
    if tref.base == "confirm" and _is_yes(new) and _summary_changed(rt, record):
        raise StatementError(f"{record.worksheet}.{f.name}: a value of the summary changed in this turn, so this yes "
                             "did not see it; the agent shows the new summary first", worksheet=record.worksheet,
                             field=f.name)
    rt.assign(record, f.name, new, source=source)
    if asked and not _is_yes(new) and f.name in record.values and f.name not in record.confirmed:
        record.confirmed.append(f.name)  # a no said to the summary the agent showed (see _standing_no)


def _standing_no(record: TaskRecord, f: Field) -> bool:
    """The user said no to this yes/no checkpoint when the agent asked it, and nothing changed since (a changed
    value clears the no and the agent shows the summary again): a later yes is to the summary the user saw."""
    return record.values.get(f.name) is False and f.name in record.confirmed


def _is_yes(value: Any) -> bool:
    try:
        return coerce_bool(value)
    except ValueError:
        return False


def _summary_changed(rt: Runtime, record: TaskRecord) -> bool:
    """True when this turn changed a value the record's summary showed (in it or a nested record)."""
    if not rt.changed_shown:
        return False
    for var in rt.changed_shown:
        changed = rt.state.get(var)
        if changed is record or (isinstance(changed, TaskRecord) and record in rt.state.ancestors(changed)):
            return True
    return False


def _agent_asked(rt: Runtime, act: str, record: TaskRecord, f: Field) -> bool:
    """The confirmation rule (same for every parser): a yes counts only right after the agent asked for it."""
    return any(a.get("act") == act and a.get("worksheet") == record.worksheet and a.get("field") == f.name
               and a.get("var", record.var) == record.var for a in rt.state.last_acts)


# ---------------------------------------------------------------- list fields


def _append(rt: Runtime, record: TaskRecord, f: Field, value: Value, *, source: str) -> None:
    tref = parse_type(f.type)
    if not tref.is_list:
        raise StatementError(f"{record.worksheet}.{f.name} is a {f.type}, not a list; assign it instead",
                             worksheet=record.worksheet, field=f.name)
    current = record.values.get(f.name)
    items = list(current) if isinstance(current, list) else []
    target_ws = rt.spec.worksheet(tref.worksheet) if tref.worksheet else None
    item = _list_item(rt, record, f, target_ws, value) if target_ws is not None else _evaluate(rt, value, f)
    rt.assign(record, f.name, [*items, item], source=source)


def _list_item(rt: Runtime, record: TaskRecord, f: Field, ws: Worksheet, value: Value) -> Any:
    """One item of a List[Worksheet] field: a new child record, or a row of a type/kb worksheet."""
    where = f"{record.worksheet}.{f.name}"
    if isinstance(value, Construct):
        if value.worksheet != ws.name:
            raise StatementError(f"{where} holds {ws.name} items, not {value.worksheet}",
                                 worksheet=record.worksheet, field=f.name)
        if ws.kind == "task":
            child = rt.state.new_task(ws.name, initiator="user", parent=record, parent_field=f.name)
            rt.trace.event("instantiate", var=child.var, worksheet=ws.name, parent=record.var, field=f.name)
            _construct_into(rt, child, value)
            return ref(child.var)
        row: dict[str, Any] = {}
        for name, sub in value.kwargs:
            col = ws.field(name)
            if col is None:
                raise StatementError(f"{ws.name} has no field '{name}'", worksheet=ws.name, field=name)
            row[name] = coerce_value(_evaluate(rt, sub, col), col, rt.spec, worksheet=ws.name)
        return row
    if isinstance(value, PathRef):
        item = _read_path(rt, value.parts, f)
        target = rt.state.get(ref_target(item) or "")
        if isinstance(target, TaskRecord) and target.worksheet == ws.name:
            return item
        if isinstance(item, dict) and ref_target(item) is None and ws.kind != "task":
            return item
        raise StatementError(f"{value} is not a {ws.name}", worksheet=record.worksheet, field=f.name)
    raise StatementError(f"{where} holds {ws.name} items; give each as {ws.name}(field=value, ...)"
                         + ("" if ws.kind == "task" else " or a reported row, e.g. answer.result[0]"),
                         worksheet=record.worksheet, field=f.name)


def _drop_list_records(rt: Runtime, record: TaskRecord, f: Field) -> None:
    """A list assigned anew replaces its items: the records of the old items are abandoned."""
    for item in record.values.get(f.name) or []:
        child = rt.state.get(ref_target(item) or "")
        if isinstance(child, TaskRecord) and child.parent == record.var:
            child.status = "abandoned"


def _evaluate(rt: Runtime, value: Value, f: Field) -> Any:
    if isinstance(value, Const):
        return value.value
    if isinstance(value, ListValue):
        return [_evaluate(rt, v, f) for v in value.items]
    if isinstance(value, PathRef):
        return _read_path(rt, value.parts, f)
    raise StatementError(f"unsupported value {value!r}")


def _read_path(rt: Runtime, parts: tuple[PathPart, ...], f: Field) -> Any:
    """`answer.result[1]` -> that row; `course.grade_type` -> its value; `course` -> a reference."""
    head = rt.state.get(str(parts[0]))
    if head is None:
        raise StatementError(f"no record named '{parts[0]}'; to give text, quote it: \"{parts[0]}\"")
    if isinstance(head, KBRecord):
        rows = head.result or []
        if len(parts) == 1:
            if len(rows) != 1:
                raise StatementError(f"'{head.var}' has {len(rows)} results; pick one, e.g. {head.var}.result[0]")
            return rows[0]
        if parts[1] != "result" or len(parts) != 3 or not isinstance(parts[2], int):
            raise StatementError(f"use {head.var}.result[i] to pick a row")
        try:
            return rows[parts[2]]
        except IndexError:
            raise StatementError(f"{head.var} has {len(rows)} results; there is no result[{parts[2]}]") from None
    value: Any = ref(head.var)
    for name in parts[1:]:
        if isinstance(name, int) and isinstance(value, list):
            if not -len(value) <= name < len(value):
                raise StatementError(f"{format_path(parts)}: the list has {len(value)} items")
            value = value[name]
            continue
        target = ref_target(value)
        rec = rt.state.get(target) if target else None
        if not isinstance(rec, TaskRecord) or not isinstance(name, str):
            raise StatementError(f"cannot read {format_path(parts)}")
        rt.field_of(rec, name)
        value = rec.values.get(name)
    target = ref_target(value)
    if target is not None:
        rec = rt.state.get(target)
        if isinstance(rec, TaskRecord) and parse_type(f.type).worksheet != rec.worksheet:
            raise StatementError(f"{format_path(parts)} is a {rec.worksheet}, not a {f.type}")
    return value
