"""One turn's working context: the spec, the working state, backends and trace.

`Runtime` holds the rules every other stage shares: when a field is active
(its predicate), when it counts as filled, when a record is complete, how a
value is assigned (typed, with confirmation and refusal bookkeeping), and how
spec code runs in the sandbox with the built-ins `say`, `propose`, `exitws`
and the API functions.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

from . import acts as A
from . import sandbox
from .apis import ApiRunner
from ..errors import BackendError, GenieError, SandboxError, SandboxTimeout, StatementError
from ..spec.model import REFUSAL, Field, Spec, Worksheet, parse_type, snake_case
from ..jsonsafe import check_value
from ..spec.index import ActivationGroup, SpecIndex, WorksheetToken, spec_index
from ..dialogue.state import DialogueState, KBRecord, Proposal, TaskRecord, REF_KEY, json_copy, ref, ref_target
from ..spec.values import coerce_value, is_empty


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
    _seen: set[tuple[str, str | None, bool]] = field(default_factory=set, repr=False, compare=False)
    # outcomes of grouped WS predicates, as (group, true positions, live worksheets): listed
    # in `predicates` only when the turn's trace is read (all_predicates), not at every policy step
    _pending: list[tuple[Any, frozenset[int], frozenset[str]]] = field(default_factory=list, repr=False,
                                                                        compare=False)
    _pending_keys: set[tuple] = field(default_factory=set, repr=False, compare=False)

    def event(self, kind: str, **data: Any) -> None:
        self.events.append({"event": kind, **data})

    def predicate(self, where: str, var: str | None, value: bool) -> None:
        """Record a predicate outcome; `where` is "Ws (ws_predicate)" or "Ws.field (predicate)"."""
        key = (where, var, value)
        if key not in self._seen:  # a set: a large spec evaluates thousands of predicates a turn
            self._seen.add(key)
            self.predicates.append({"where": where, "var": var, "value": value})

    def error(self, stage: str, message: str, **data: Any) -> None:
        self.errors.append({"stage": stage, "error": message, **data})

    def grouped(self, group: Any, true: tuple[int, ...], live: frozenset[str]) -> None:
        """Outcomes of a group of WS predicates (true: the positions that hold), listed on reading."""
        key = (id(group), true, live)
        if key not in self._pending_keys:  # the same outcomes at the next policy step
            self._pending_keys.add(key)
            self._pending.append((group, frozenset(true), live))

    def all_predicates(self) -> list[dict[str, Any]]:
        """`predicates`, with the grouped WS predicate outcomes of the turn added."""
        for group, true, live in self._pending:
            keys, entries = group.trace_entries(true, live)
            if self._seen.isdisjoint(keys):  # the usual case: added in bulk (the entries are shared, read-only)
                self._seen.update(keys)
                self.predicates.extend(entries)
            else:
                fresh = set(keys) - self._seen
                self._seen |= fresh
                self.predicates.extend(e for e, k in zip(entries, keys) if k in fresh)
        self._pending.clear()
        return self.predicates


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
            return json_copy(self.record.result)  # snapshots share it: spec code gets its own copy
        raise SandboxError(f"{ws.name} has no field '{name}'", worksheet=ws.name, field=name)

    def sandbox_setattr(self, name: str, value: Any) -> None:
        self.rt.assign(self.record, name, self.rt.from_sandbox(value), source="action")

    def sandbox_field_confirmed(self, name: str) -> bool | None:
        """`record.field.confirmed` in spec code: whether that field's value was confirmed.

        None when `.confirmed` means something else (the field holds a record, which is read
        as usual); the sandbox then reads the attribute normally.
        """
        ws = self.rt.worksheet_of(self.record)
        if ws.field(name) is None or ref_target(self.record.values.get(name)) is not None:
            return None
        return name in self.record.confirmed

    def sandbox_call_method(self, name: str, args: list, kwargs: dict) -> Any:
        if name == "is_completed" and not args and not kwargs:
            return self.rt.is_complete(self.record)
        raise SandboxError(f"records have no method '{name}'")


ACTION_LIMIT = 100
TURN_CODE_FACTOR = 2  # all spec code of one turn: 2 x action_timeout_s (each run: 1 x)
"""Actions run per turn before the policy stops (a spec whose actions keep re-triggering)."""
MAX_SAY_ACTS = 50
"""say() calls of spec code in one turn (each is an act the user reads)."""
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
        self.said = 0
        self.actions_run = 0
        self.code_seconds = 0.0  # spec code run so far this turn (predicates and actions)
        # (var, field) changed this turn: confirming it in the same turn would confirm a value
        # the agent never showed (interpreter).
        self.changed: set[tuple[str, str]] = set()
        # records with a value changed this turn that was already filled (and so shown in a summary)
        self.changed_shown: set[str] = set()
        self._index: SpecIndex | None = None

    # ------------------------------------------------------------ spec access
    @property
    def index(self) -> SpecIndex:
        """Name lookups over the spec, built once per spec (not per predicate)."""
        if self._index is None:
            self._index = spec_index(self.spec)
        return self._index

    def worksheet_of(self, record: TaskRecord) -> Worksheet:
        ws = self.index.worksheets.get(record.worksheet)
        return ws if ws is not None else self.spec.require_worksheet(record.worksheet)

    def field_of(self, record: TaskRecord, name: str) -> Field:
        ws = self.worksheet_of(record)
        f = self.index.fields.get(ws.name, {}).get(name) or ws.field(name)
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
            if REF_KEY in value:
                raise SandboxError(f"'{REF_KEY}' is a reserved key; assign a record itself to refer to it")
            return {k: self.from_sandbox(v) for k, v in value.items()}
        return value

    def names_for(self, record: TaskRecord | None, only: frozenset[str] | None = None) -> dict[str, Any]:
        """Names spec code sees, lowest priority first (DESIGN §4 name resolution).

        `only` (the free names of an expression) builds just those: a predicate reads a few
        names, and a large spec has thousands.
        """
        index = self.index
        keep = (lambda n: True) if only is None else only.__contains__
        names: dict[str, Any] = dict(index.tokens) if only is None else \
            {n: index.tokens[n] for n in only if n in index.tokens}
        tasks = self.state.tasks()
        if only is None:
            for rec in tasks:
                if rec.status == "abandoned":
                    continue
                for f in self.worksheet_of(rec).fields:
                    if f.name not in names:
                        names[f.name] = self.to_sandbox(rec.values.get(f.name))
        else:
            wanted = [n for n in only if n in index.field_names and n not in names]
            for rec in tasks if wanted else ():
                if rec.status == "abandoned":
                    continue
                fields = index.fields.get(rec.worksheet)
                if fields is None:
                    fields = {f.name: f for f in self.worksheet_of(rec).fields}
                for n in wanted:
                    if n in fields and n not in names:
                        names[n] = self.to_sandbox(rec.values.get(n))
                if all(n in names for n in wanted):
                    break  # the first record holding a name gives it: later ones are not read
        if only is None or len(only) * 4 > len(tasks):
            for rec in tasks:
                if keep(rec.var):
                    names[rec.var] = RecordProxy(self, rec)
        else:  # a few names: look them up instead of walking every record
            for n in only:
                rec = self.state.get(n)
                if isinstance(rec, TaskRecord):
                    names[n] = RecordProxy(self, rec)
        for api in self.spec.apis:
            if keep(api.name):
                names[api.name] = self._api_function(api.name)
        if record is not None:
            for scope in reversed([record, *self.state.ancestors(record)]):
                for f in self.worksheet_of(scope).fields:
                    if keep(f.name):
                        names[f.name] = self.to_sandbox(scope.values.get(f.name))
            names["self"] = RecordProxy(self, record)
            names["say"] = self._say
            names["propose"] = lambda ws, values=None: self._propose(record, ws, values)
            names["exitws"] = lambda target=None: self._exit(
                target.record if isinstance(target, RecordProxy) else record)
        return names

    def _api_function(self, name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            # positional arguments (the reference's `@api(self, main.x)`) take the declared names
            api = self.spec.api(name)
            names = [p.name for p in api.parameters] if api is not None else []
            given = {(names[i] if i < len(names) else f"arg{i + 1}"): v for i, v in enumerate(args)}
            params = {k: self.flatten(self.from_sandbox(v)) for k, v in {**given, **kwargs}.items()}
            result = self.apis.call(name, params)
            self.trace.event("api", api=name, params=params, result=result)
            return result
        return call

    def _say(self, text: Any) -> None:
        self.said += 1
        if self.said > MAX_SAY_ACTS:
            raise SandboxError(f"spec code said more than {MAX_SAY_ACTS} things in one turn")
        self.acts.append(A.say(sandbox.safe_str(text)))

    def _propose(self, record: TaskRecord, ws: Any, values: Any) -> None:
        name = ws.name if isinstance(ws, WorksheetToken) else str(ws)
        target = self.spec.worksheet(name)
        if target is None or target.kind != "task":
            raise SandboxError(f"propose: '{name}' is not a task worksheet")
        vals = self.from_sandbox(values or {})
        if not isinstance(vals, dict):
            raise SandboxError("propose: values must be a dict of field: value")
        try:
            check_value(vals, f"propose({name})")
        except ValueError as exc:
            raise SandboxError(str(exc)) from exc
        for key in vals:
            if target.field(key) is None:
                raise SandboxError(f"propose: {name} has no field '{key}'")
        if any(p.worksheet == name and p.values == vals for p in self.state.proposals):
            return
        self.state.proposals.append(Proposal(name, vals, by=record.var))
        self.acts.append(A.propose(name, _plain(vals, self.state)))

    def _exit(self, record: TaskRecord) -> None:
        record = self.state.thaw(record)  # a completed record is shared with earlier states
        record.status = "abandoned"
        for child in self.state.children(record):
            self.state.thaw(child).status = "abandoned"
        self.trace.event("exitws", var=record.var)

    def predicate(self, source: str, record: TaskRecord | None, *, what: str) -> bool:
        """Evaluate a predicate; a failing one counts as false and is traced."""
        return bool(self.predicate_outcome(source, record, what=what))

    def predicate_outcome(self, source: str, record: TaskRecord | None, *, what: str) -> bool | None:
        """True/False, or None when the predicate failed (traced): gates treat None as closed."""
        if not source.strip():
            return True
        var = record.var if record is not None else None
        value: bool | None
        try:
            code = sandbox.check_expression(source)
            names = self.names_for(record, code.names)
            key = self.index.memo_key(source, names, code.names)
            memo = self.index.memo.get(key) if key is not None else None
            if memo is not None:
                value = memo
            else:
                with self._timed_code() as timeout_s:
                    value = bool(sandbox.evaluate(code, names, timeout_s=timeout_s))
                if key is not None:
                    self.index.remember(key, value)
        except GenieError as exc:
            self.trace.error("predicate", str(exc), where=what, source=source)
            value = None
        self.trace.predicate(what, var, bool(value))
        return value

    # ------------------------------------------------------------ worksheets the agent opens
    def activation_candidates(self) -> Iterator[Worksheet]:
        """Top-level task worksheets whose WS predicate is true and that have no live record, in spec
        order, each judged on the state as it is when it is reached (the caller opens one before the
        next is looked for).

        Predicates reading the same names are judged as a group: the names are looked up once, and
        when they hold plain values the group's outcome is remembered per values (SpecIndex), so a
        1,000-worksheet spec costs the worksheets that are true, not all of them.
        """
        entries = self.index.activation
        start = 0
        while start < len(entries):
            live = frozenset({r.worksheet for r in self.state.tasks() if r.status != "abandoned"})
            true = [p for group in self.index.groups if group.positions[-1] >= start
                    for p in self._group_true(group, start, live)]
            following = [p for p in true if p >= start and entries[p].worksheet.name not in live]
            if not following:
                return
            position = min(following)
            yield entries[position].worksheet
            start = position + 1

    def _group_true(self, group: ActivationGroup, start: int, live: frozenset[str]) -> list[int]:
        entries = self.index.activation
        if group.names is not None:
            names = self.names_for(None, group.names)
            key = self.index.memo_key("", names, group.names)
            if key is not None:
                key = (id(group), key)
                true = self.index.group_memo.get(key)
                if true is None and group.equals is not None:
                    (value,) = (names.get(n) for n in group.names)
                    true = tuple(group.equals.get(value, ())) if isinstance(value, str) else ()
                if true is None:
                    true = self._evaluate_group(group, names)
                    if true is not None:
                        self.index.remember_group(key, true)
                if true is not None:
                    self.trace.grouped(group, true, live)
                    return list(true)
        # inputs that are records, rows or functions, or a predicate that fails: one by one, traced
        return [p for p in group.positions if p >= start and entries[p].worksheet.name not in live
                and self.predicate(entries[p].source, None, what=entries[p].where)]

    def _evaluate_group(self, group: ActivationGroup, names: dict[str, Any]) -> tuple[int, ...] | None:
        """The positions of the group whose predicate is true on `names`; None if one fails (the
        one-by-one path then traces its error)."""
        true = []
        for p in group.positions:
            entry = self.index.activation[p]
            assert entry.code is not None
            try:
                with self._timed_code() as timeout_s:
                    hit = sandbox.evaluate(entry.code, names, timeout_s=timeout_s)
                if hit:
                    true.append(p)
            except GenieError:
                return None
        return tuple(true)

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
            with self._timed_code() as timeout_s:
                sandbox.execute(code, names, timeout_s=timeout_s)
            self.trace.event("action", where=what, var=record.var)
            return True
        except GenieError as exc:
            self.trace.error("action", str(exc), where=what, var=record.var)
            return False

    @contextlib.contextmanager
    def _timed_code(self) -> Iterator[float]:
        """One run of spec code: its own limit, within what is left of the turn's (many 0.4 s predicates
        made a 17 s turn)."""
        limit = self.spec.settings.action_timeout_s
        left = TURN_CODE_FACTOR * limit - self.code_seconds
        if left <= 0:
            raise SandboxTimeout(f"spec code used all its time for this turn ({TURN_CODE_FACTOR * limit:g} s)")
        started = time.perf_counter()
        try:
            yield min(limit, left)
        finally:
            self.code_seconds += time.perf_counter() - started

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

    def is_record_list(self, f: Field) -> bool:
        """A `List[Worksheet]` field: its items are records or rows, and the user ends the list."""
        tref = parse_type(f.type)
        return tref.is_list and tref.worksheet is not None and self.spec.worksheet(tref.worksheet) is not None

    def is_filled(self, record: TaskRecord, f: Field) -> bool:
        value = record.values.get(f.name)
        if is_empty(value):
            return False
        if isinstance(value, list) and self.is_record_list(f):
            # every item complete, and the user said that is all ("anything else?" - "no")
            items = [self.state.get(ref_target(v) or "") for v in value]
            return f.name in record.confirmed and all(
                self.is_complete(r) for r in items if isinstance(r, TaskRecord) and r.status != "abandoned")
        target = ref_target(value)
        if target is not None:
            child = self.state.get(target)
            if isinstance(child, TaskRecord):
                return self.is_complete(child)
            return False  # a KB record whose result has not been chosen yet
        return True

    def must_answer(self, record: TaskRecord, f: Field) -> bool:
        """Required input fields that are active: a refusal of one blocks the task's API."""
        return f.required and self.askable(record, f)

    def askable(self, record: TaskRecord, f: Field) -> bool:
        """Active input fields that are not dont_ask: asked in order, required or not (paper §2)."""
        return f.kind == "input" and not f.dont_ask and self.field_active(record, f)

    def is_complete(self, record: TaskRecord) -> bool:
        """Every askable field answered or refused, its confirmation given, nested records complete.

        A field predicate that fails is a closed gate: the record is not complete (an
        error never lets an API through), and the trace says why.
        """
        ws = self.worksheet_of(record)
        for f in ws.fields:
            if f.kind != "input" or f.dont_ask:
                continue
            active = self.predicate_outcome(f.predicate, record, what=f"{record.worksheet}.{f.name} (predicate)")
            if active is None:
                entry = {"event": "gate_closed", "var": record.var, "field": f.name,
                         "reason": "its predicate failed; the record waits"}
                if entry not in self.trace.events:
                    self.trace.events.append(entry)
                return False
            if not active:
                continue
            if not self.is_filled(record, f):
                return False
            if f.confirm and f.name not in record.confirmed and record.values.get(f.name) != REFUSAL:
                return False
        return True

    def refused_required(self, record: TaskRecord) -> list[str]:
        ws = self.worksheet_of(record)
        return [f.name for f in ws.fields if f.name in record.refused and self.must_answer(record, f)]

    # ------------------------------------------------------------ assignment
    def assign(self, record: TaskRecord, name: str, value: Any, *, source: str) -> None:
        """Typed assignment with refusal, removal, confirmation and re-confirmation rules."""
        f = self.field_of(record, name)
        if record.status == "completed" and f.kind != "output":
            raise StatementError(f"{record.var} was already completed; start a new {record.worksheet}",
                                 var=record.var, field=name)
        old = record.values.get(name)
        if value == REFUSAL:
            new: Any = REFUSAL
        elif ref_target(value) is not None:
            target = ref_target(value)
            if target == record.var or any(a.var == target for a in self.state.ancestors(record)):
                raise StatementError(f"{record.var}.{name} cannot refer to {target}, which holds it",
                                     var=record.var, field=name)
            new = value
        elif value is None:
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
        if new != old and f.kind != "output":  # an output is the agent's report, not a new answer
            if record.outcome == "executed":
                record.outcome = None  # a changed value is a new completion: WS actions run again
            if name in record.confirmed:
                record.confirmed.remove(name)
            if name in record.actions_done:
                record.actions_done.remove(name)
            if parse_type(f.type).base != "confirm":
                self.changed.add((record.var, name))
                if old is not None:  # a value the last summary showed: a yes this turn did not see the new one
                    self.changed_shown.add(record.var)
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
                    for done in (rec.actions_done, rec.confirmed):  # confirmed: a no said when asked
                        if f.name in done:
                            done.remove(f.name)
                    self.trace.event("reopen", var=rec.var, field=f.name)
            if rec.outcome in ("declined", "blocked"):
                rec.outcome = None

    def instantiate_child(self, record: TaskRecord, f: Field, *, initiator: str) -> TaskRecord:
        target = parse_type(f.type).worksheet
        assert target is not None
        orphan = self.orphan(target)
        if orphan is not None:  # values the user gave for it before it had a place: they go where the form sends
            orphan = self.state.thaw(orphan)
            orphan.parent, orphan.parent_field = record.var, f.name
            record.values[f.name] = ref(orphan.var)
            self.trace.event("adopt", var=orphan.var, worksheet=target, parent=record.var, field=f.name)
            return orphan
        child = self.state.new_task(target, initiator=initiator, parent=record, parent_field=f.name)  # type: ignore[arg-type]
        record.values[f.name] = ref(child.var)
        self.trace.event("instantiate", var=child.var, worksheet=target, parent=record.var, field=f.name)
        return child

    def orphan(self, worksheet: str) -> TaskRecord | None:
        """A live record of a nested-only worksheet that a user's statement made with no parent (its task was not
        open yet): the first slot made for that worksheet takes it, so its values are asked and sent with the task
        instead of beside it."""
        if worksheet not in self.index.nested:
            return None
        for rec in self.state.open_tasks():
            if rec.worksheet == worksheet and rec.parent is None and rec.status == "active" \
                    and rec.initiator == "user" and rec.outcome is None:
                return rec
        return None

    def flatten(self, value: Any, depth: int = 0) -> Any:
        """Values with record references expanded, for API parameters and summaries."""
        return _plain(value, self.state, depth)

    def record_values(self, record: TaskRecord) -> dict[str, Any]:
        return {k: self.flatten(v) for k, v in record.values.items()}

    def active_values(self, record: TaskRecord, depth: int = 0) -> dict[str, Any]:
        """The values an API is sent: those of fields whose predicate holds now, nested records likewise.
        A value given while its field was active stays in the state (the user may turn the predicate back),
        but a hidden field is not submitted, as a form does not send its hidden inputs."""
        hidden = set(self._hidden_names(record))
        out: dict[str, Any] = {}
        for name, value in record.values.items():
            if name in hidden:
                continue
            child = self.state.get(ref_target(value) or "") if depth < 20 else None
            out[name] = self.active_values(child, depth + 1) if isinstance(child, TaskRecord) else self.flatten(value)
        return out

    def inactive_fields(self, record: TaskRecord, depth: int = 0) -> list[str]:
        """`var.field` of every filled field whose predicate is false now, in `record` and the records under its
        active fields: the summary leaves them out, so what the user confirms is what the API is sent."""
        out = [f"{record.var}.{name}" for name in self._hidden_names(record)]
        for name, value in record.values.items():
            child = self.state.get(ref_target(value) or "")
            if f"{record.var}.{name}" not in out and isinstance(child, TaskRecord) and depth < 20:
                out += self.inactive_fields(child, depth + 1)
        return out

    def _hidden_names(self, record: TaskRecord) -> list[str]:
        ws = self.spec.worksheet(record.worksheet)
        if ws is None:
            return []
        return [f.name for f in ws.fields
                if f.name in record.values and f.predicate.strip() and not self.field_active(record, f)]


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
