"""One turn's working context: the spec, the working state, backends and trace.

`Runtime` holds the rules every other stage shares: when a field is active
(its predicate), when it counts as filled, when a record is complete, how a
value is assigned (typed, with confirmation and refusal bookkeeping), and how
spec code runs in the sandbox with the built-ins `say`, `propose`, `exitws`
and the API functions.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from . import acts as A
from . import sandbox
from .apis import ApiRunner
from .errors import BackendError, GenieError, SandboxError, StatementError
from .spec import REFUSAL, Field, Spec, Worksheet, parse_type, snake_case
from .state import DialogueState, KBRecord, Proposal, TaskRecord, ref, ref_target
from .values import coerce_value, is_empty


class KnowledgeBackend(Protocol):
    """Executes a KB record: fills its sql, result, status and error."""

    def run(self, record: KBRecord, spec: Spec, trace: list[dict[str, Any]]) -> None: ...


class NoKnowledge:
    """The backend of a project without a knowledge base."""

    def run(self, record: KBRecord, spec: Spec, trace: list[dict[str, Any]]) -> None:
        record.status = "error"
        record.error = "this agent has no knowledge base to answer questions from"
        trace.append({"query": record.query, "error": record.error})


@dataclass
class Trace:
    """What happened in a turn, stage by stage; JSON-able."""

    events: list[dict[str, Any]] = field(default_factory=list)
    kb: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    # each distinct (predicate, record, outcome) once: what coverage and the graph overlay read
    predicates: list[dict[str, Any]] = field(default_factory=list)

    def event(self, kind: str, **data: Any) -> None:
        self.events.append({"event": kind, **data})

    def predicate(self, where: str, var: str | None, value: bool) -> None:
        """Record a predicate outcome; `where` is "Ws (ws_predicate)" or "Ws.field (predicate)"."""
        entry = {"where": where, "var": var, "value": value}
        if entry not in self.predicates:  # few distinct entries per turn; a scan is cheap
            self.predicates.append(entry)

    def error(self, stage: str, message: str, **data: Any) -> None:
        self.errors.append({"stage": stage, "error": message, **data})


class WorksheetToken:
    """What a worksheet name means inside spec code: an argument for propose()."""

    def __init__(self, name: str) -> None:
        self.name = name

    def sandbox_getattr(self, name: str) -> Any:
        raise SandboxError(f"worksheet {self.name} has no attribute '{name}'")

    def sandbox_setattr(self, name: str, value: Any) -> None:
        raise SandboxError(f"cannot set attributes of worksheet {self.name}")

    def sandbox_call_method(self, name: str, args: list, kwargs: dict) -> Any:
        raise SandboxError(f"worksheet {self.name} has no method '{name}'")


class RowProxy:
    """A KB row (e.g. a Restaurant) seen from spec code: read-only attributes."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row

    def sandbox_getattr(self, name: str) -> Any:
        if name in self.row:
            return self.row[name]
        raise SandboxError(f"this row has no column '{name}'")

    def sandbox_setattr(self, name: str, value: Any) -> None:
        raise SandboxError("knowledge-base rows are read-only")

    def sandbox_call_method(self, name: str, args: list, kwargs: dict) -> Any:
        raise SandboxError(f"rows have no method '{name}'")


class RecordProxy:
    """A task record seen from spec code: fields as attributes, typed writes."""

    def __init__(self, rt: "Runtime", record: TaskRecord) -> None:
        self.rt = rt
        self.record = record

    def sandbox_getattr(self, name: str) -> Any:
        ws = self.rt.worksheet_of(self.record)
        if ws.field(name) is not None:
            return self.rt.to_sandbox(self.record.values.get(name))
        if name == "result":
            return self.record.result
        raise SandboxError(f"{ws.name} has no field '{name}'", worksheet=ws.name, field=name)

    def sandbox_setattr(self, name: str, value: Any) -> None:
        self.rt.assign(self.record, name, self.rt.from_sandbox(value), source="action")

    def sandbox_call_method(self, name: str, args: list, kwargs: dict) -> Any:
        if name == "is_completed" and not args and not kwargs:
            return self.rt.is_complete(self.record)
        raise SandboxError(f"records have no method '{name}'")


ACTION_LIMIT = 100
"""Actions run per turn before the policy stops (a spec whose actions keep re-triggering)."""


class Runtime:
    def __init__(self, spec: Spec, state: DialogueState, *, apis: ApiRunner,
                 knowledge: KnowledgeBackend | None = None, today: dt.date | None = None) -> None:
        self.spec = spec
        self.state = state
        self.apis = apis
        self.knowledge = knowledge or NoKnowledge()
        self.today = today or dt.date.today()
        self.trace = Trace()
        self.acts: list[A.Act] = []
        self.actions_run = 0

    # ------------------------------------------------------------ spec access
    def worksheet_of(self, record: TaskRecord) -> Worksheet:
        return self.spec.require_worksheet(record.worksheet)

    def field_of(self, record: TaskRecord, name: str) -> Field:
        ws = self.worksheet_of(record)
        f = ws.field(name)
        if f is None:
            raise StatementError(f"{ws.name} has no field '{name}'", worksheet=ws.name, field=name)
        return f

    # ------------------------------------------------------------ sandbox bridge
    def to_sandbox(self, value: Any) -> Any:
        target = ref_target(value)
        if target is not None:
            rec = self.state.get(target)
            return RecordProxy(self, rec) if isinstance(rec, TaskRecord) else None
        if isinstance(value, dict):
            return RowProxy(value)
        if isinstance(value, list):
            return [self.to_sandbox(v) for v in value]
        return value

    def from_sandbox(self, value: Any) -> Any:
        if isinstance(value, RecordProxy):
            return ref(value.record.var)
        if isinstance(value, RowProxy):
            return dict(value.row)
        if isinstance(value, list):
            return [self.from_sandbox(v) for v in value]
        if isinstance(value, dict):
            return {k: self.from_sandbox(v) for k, v in value.items()}
        return value

    def names_for(self, record: TaskRecord | None) -> dict[str, Any]:
        """Names spec code sees, lowest priority first (DESIGN §4 name resolution)."""
        names: dict[str, Any] = {}
        for ws in self.spec.worksheets:
            names[ws.name] = WorksheetToken(ws.name)
        for rec in self.state.tasks():
            if rec.status == "abandoned":
                continue
            for f in self.worksheet_of(rec).fields:
                names.setdefault(f.name, self.to_sandbox(rec.values.get(f.name)))
        for rec in self.state.tasks():
            names[rec.var] = RecordProxy(self, rec)
        for api in self.spec.apis:
            names[api.name] = self._api_function(api.name)
        if record is not None:
            for scope in reversed([record, *self.state.ancestors(record)]):
                for f in self.worksheet_of(scope).fields:
                    names[f.name] = self.to_sandbox(scope.values.get(f.name))
            names["self"] = RecordProxy(self, record)
            names["say"] = self._say
            names["propose"] = lambda ws, values=None: self._propose(record, ws, values)
            names["exitws"] = lambda target=None: self._exit(
                target.record if isinstance(target, RecordProxy) else record)
        return names

    def _api_function(self, name: str) -> Callable[..., Any]:
        def call(**kwargs: Any) -> Any:
            params = {k: self.from_sandbox(v) for k, v in kwargs.items()}
            result = self.apis.call(name, params)
            self.trace.event("api", api=name, params=params, result=result)
            return result
        return call

    def _say(self, text: Any) -> None:
        self.acts.append(A.say(str(text)))

    def _propose(self, record: TaskRecord, ws: Any, values: Any) -> None:
        name = ws.name if isinstance(ws, WorksheetToken) else str(ws)
        target = self.spec.worksheet(name)
        if target is None or target.kind != "task":
            raise SandboxError(f"propose: '{name}' is not a task worksheet")
        vals = self.from_sandbox(values or {})
        if not isinstance(vals, dict):
            raise SandboxError("propose: values must be a dict of field: value")
        for key in vals:
            if target.field(key) is None:
                raise SandboxError(f"propose: {name} has no field '{key}'")
        if any(p.worksheet == name and p.values == vals for p in self.state.proposals):
            return
        self.state.proposals.append(Proposal(name, vals, by=record.var))
        self.acts.append(A.propose(name, _plain(vals, self.state)))

    def _exit(self, record: TaskRecord) -> None:
        record.status = "abandoned"
        for child in self.state.children(record):
            child.status = "abandoned"
        self.trace.event("exitws", var=record.var)

    def predicate(self, source: str, record: TaskRecord | None, *, what: str) -> bool:
        """Evaluate a predicate; a failing one counts as false and is traced."""
        if not source.strip():
            return True
        var = record.var if record is not None else None
        try:
            code = sandbox.check_expression(source)
            value = bool(sandbox.evaluate(code, self.names_for(record),
                                          timeout_s=self.spec.settings.action_timeout_s))
        except GenieError as exc:
            self.trace.error("predicate", str(exc), where=what, source=source)
            value = False
        self.trace.predicate(what, var, value)
        return value

    def run_code(self, source: str, record: TaskRecord, *, what: str, self_value: Any = None) -> bool:
        """Run an action block; a failure is a trace entry, not a crash.

        `self_value` replaces `self` (a type worksheet's actions see the KB row they belong to).
        """
        if not source.strip():
            return True
        self.actions_run += 1
        if self.actions_run > ACTION_LIMIT:
            self.trace.error("action", f"more than {ACTION_LIMIT} actions in one turn; stopped", where=what)
            return False
        try:
            code = sandbox.check_block(source)
            names = self.names_for(record)
            if self_value is not None:
                names["self"] = self_value
            sandbox.execute(code, names, timeout_s=self.spec.settings.action_timeout_s)
            self.trace.event("action", where=what, var=record.var)
            return True
        except GenieError as exc:
            self.trace.error("action", str(exc), where=what, var=record.var)
            return False

    # ------------------------------------------------------------ activity and completeness
    def record_active(self, record: TaskRecord) -> bool:
        if record.status == "abandoned":
            return False
        if record.parent:
            parent = self.state.get(record.parent)
            if not isinstance(parent, TaskRecord) or not self.record_active(parent):
                return False
            if record.parent_field and not self.field_active(parent, self.field_of(parent, record.parent_field)):
                return False
        if record.parent is None and record.initiator == "user":
            return True  # the WS predicate says when the agent opens it; the user may open it anyway
        ws = self.worksheet_of(record)
        return self.predicate(ws.predicate, record, what=f"{ws.name} (ws_predicate)")

    def field_active(self, record: TaskRecord, f: Field) -> bool:
        return self.predicate(f.predicate, record, what=f"{record.worksheet}.{f.name} (predicate)")

    def is_filled(self, record: TaskRecord, f: Field) -> bool:
        value = record.values.get(f.name)
        if is_empty(value):
            return False
        target = ref_target(value)
        if target is not None:
            child = self.state.get(target)
            if isinstance(child, TaskRecord):
                return self.is_complete(child)
            return False  # a KB record whose result has not been chosen yet
        return True

    def must_answer(self, record: TaskRecord, f: Field) -> bool:
        """Required input fields that are active: what completion waits for."""
        return f.kind == "input" and f.required and not f.dont_ask and self.field_active(record, f)

    def is_complete(self, record: TaskRecord) -> bool:
        ws = self.worksheet_of(record)
        return all(self.is_filled(record, f) for f in ws.fields if self.must_answer(record, f))

    def refused_required(self, record: TaskRecord) -> list[str]:
        ws = self.worksheet_of(record)
        return [f.name for f in ws.fields if f.name in record.refused and self.must_answer(record, f)]

    # ------------------------------------------------------------ assignment
    def assign(self, record: TaskRecord, name: str, value: Any, *, source: str) -> None:
        """Typed assignment with refusal, removal, confirmation and re-confirmation rules."""
        f = self.field_of(record, name)
        if record.status == "completed":
            raise StatementError(f"{record.var} was already completed; start a new {record.worksheet}",
                                 var=record.var, field=name)
        old = record.values.get(name)
        if value == REFUSAL:
            new: Any = REFUSAL
        elif ref_target(value) is not None or value is None:
            new = value
        else:
            new = coerce_value(value, f, self.spec, worksheet=record.worksheet)
        if new is None:
            record.values.pop(name, None)
        else:
            record.values[name] = new
        if new == REFUSAL:
            if name not in record.refused:
                record.refused.append(name)
        elif name in record.refused:
            record.refused.remove(name)
        if new != old:
            if record.outcome == "executed":
                record.outcome = None  # a changed value is a new completion: WS actions run again
            if name in record.confirmed:
                record.confirmed.remove(name)
            if name in record.actions_done:
                record.actions_done.remove(name)
            if parse_type(f.type).base != "confirm":
                self._reopen_confirmations(record)
            elif record.outcome == "declined":
                record.outcome = None  # the user changed their no
        self.trace.event("assign", var=record.var, field=name, value=new, old=old, source=source)

    def _reopen_confirmations(self, record: TaskRecord) -> None:
        """A changed value invalidates an earlier yes/no checkpoint of its record and ancestors."""
        for rec in [record, *self.state.ancestors(record)]:
            if rec.status == "completed":
                continue
            ws = self.worksheet_of(rec)
            for f in ws.fields:
                if parse_type(f.type).base == "confirm" and f.name in rec.values:
                    rec.values.pop(f.name)
                    if f.name in rec.actions_done:
                        rec.actions_done.remove(f.name)
                    self.trace.event("reopen", var=rec.var, field=f.name)
            if rec.outcome in ("declined", "blocked"):
                rec.outcome = None

    def instantiate_child(self, record: TaskRecord, f: Field, *, initiator: str) -> TaskRecord:
        target = parse_type(f.type).worksheet
        assert target is not None
        child = self.state.new_task(target, initiator=initiator, parent=record, parent_field=f.name)  # type: ignore[arg-type]
        record.values[f.name] = ref(child.var)
        self.trace.event("instantiate", var=child.var, worksheet=target, parent=record.var, field=f.name)
        return child

    def flatten(self, value: Any, depth: int = 0) -> Any:
        """Values with record references expanded, for API parameters and summaries."""
        return _plain(value, self.state, depth)

    def record_values(self, record: TaskRecord) -> dict[str, Any]:
        return {k: self.flatten(v) for k, v in record.values.items()}


def _plain(value: Any, state: DialogueState, depth: int = 0) -> Any:
    if depth > 20:
        return None
    target = ref_target(value)
    if target is not None:
        rec = state.get(target)
        if isinstance(rec, TaskRecord):
            return {k: _plain(v, state, depth + 1) for k, v in rec.values.items()}
        return {"$query": rec.query} if isinstance(rec, KBRecord) else None
    if isinstance(value, list):
        return [_plain(v, state, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, state, depth + 1) for k, v in value.items()}
    return value


__all__ = ["Runtime", "KnowledgeBackend", "NoKnowledge", "Trace", "RecordProxy", "RowProxy",
           "BackendError", "snake_case"]
