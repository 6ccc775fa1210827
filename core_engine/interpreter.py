"""Applying formal statements to the working state, checked against the spec.

Each statement either applies completely or is rejected with a reason in the
trace; a rejected statement never stops the others (DESIGN §4).
"""

from __future__ import annotations

from typing import Any

from .errors import GenieError, StatementError
from .runtime import Runtime
from .spec import Field, parse_type
from .state import KBRecord, TaskRecord, ref, ref_target
from .statements import (Ask, Assign, ConfirmValue, Const, Construct, Exit, ListValue, PathPart, PathRef,
                         Statement, AnswerQuery, Value, format_path)


def apply_statements(rt: Runtime, statements: list[Statement]) -> tuple[list[dict], list[dict]]:
    """Apply statements in order; return (applied, rejected) summaries for the trace."""
    applied: list[dict] = []
    rejected: list[dict] = []
    for st in statements:
        try:
            _apply(rt, st)
            applied.append({"source": st.source, "line": st.line})
        except GenieError as exc:
            rejected.append({"source": st.source, "line": st.line, "error": str(exc)})
    return applied, rejected


def _apply(rt: Runtime, st: Statement) -> None:
    if isinstance(st, Ask):
        rec = rt.state.new_kb(st.query)
        rt.trace.event("question", var=rec.var, query=st.query)
    elif isinstance(st, Assign):
        _assign(rt, st)
    elif isinstance(st, ConfirmValue):
        record, f = _resolve_field(rt, st.target, create=False)
        if st.yes:
            if f.name not in record.values:
                raise StatementError(f"{format_path(st.target)} has no value to confirm")
            if f.name not in record.confirmed:
                record.confirmed.append(f.name)
            rt.trace.event("confirmed", var=record.var, field=f.name)
        else:
            rt.assign(record, f.name, None, source="confirm(no)")
    elif isinstance(st, Exit):
        rec = rt.state.get(st.var)
        if not isinstance(rec, TaskRecord):
            raise StatementError(f"no task record named '{st.var}'")
        rt._exit(rec)


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
            record = rt.state.new_task(ws.name, initiator="user", var=var)
            rt.trace.event("instantiate", var=record.var, worksheet=ws.name, initiator="user")
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
    return None


def _construct_into(rt: Runtime, record: TaskRecord, value: Construct) -> None:
    for name, sub in value.kwargs:
        _set_field(rt, record, rt.field_of(record, name), sub, source=f"{value.worksheet}({name}=...)")


def _resolve_field(rt: Runtime, parts: tuple[PathPart, ...], *, create: bool) -> tuple[TaskRecord, Field]:
    """`main.courses_to_take.course_0_details.grade_type` -> (course record, grade_type field)."""
    head = parts[0]
    record = rt.state.get(str(head)) if isinstance(head, str) else None
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


def _implicit_record(rt: Runtime, var: str) -> TaskRecord | None:
    """`book.date = ...` before `book` exists: the user starts that worksheet (by its variable name)."""
    from .spec import snake_case
    for ws in rt.spec.task_worksheets():
        if snake_case(ws.name) == var:
            nested = _nested_slot(rt, ws.name)
            if nested is not None:
                return nested
            rec = rt.state.new_task(ws.name, initiator="user", var=var)
            rt.trace.event("instantiate", var=rec.var, worksheet=ws.name, initiator="user")
            return rec
    return None


def _record_holding(rt: Runtime, field_name: str) -> TaskRecord | None:
    """An LLM may write `course_2_details.course_name`: find the record that has that field."""
    for rec in rt.state.tasks():
        if rec.status == "active" and rt.worksheet_of(rec).field(field_name) is not None:
            return rec
    return None


def _set_field(rt: Runtime, record: TaskRecord, f: Field, value: Value, *, source: str) -> None:
    tref = parse_type(f.type)
    target_ws = rt.spec.worksheet(tref.worksheet) if tref.worksheet else None
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
    rt.assign(record, f.name, _evaluate(rt, value, f), source=source)


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
