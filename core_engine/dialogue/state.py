"""The formal dialogue state: an ordered list of task and KB records.

A `DialogueState` is the whole memory of a conversation. It is plain data with a
lossless JSON form (`to_json`/`from_json`), so rewinding, forking, replaying and
testing are copies of snapshots. The engine never mutates a snapshot it was
given: a turn works on `state.copy()` and returns the new one.

Record values are JSON-native. A field that holds another record holds
`{"$ref": var}`; a field whose value is a KB row holds the row dict.

A turn costs what changed, not the size of the conversation: `copy` shares settled
records whole (a KB query that ran; a completed task whose actions all ran), frozen so
that changing one is refused, and clones the others' small mutable parts while still
sharing KB result rows (rows are read-only everywhere; a new query assigns a new list).
Each record keeps its last JSON and returns it again while the record still equals it.
Snapshot JSON is therefore shared between turns: treat `to_json()` output as read-only.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

from ..errors import StatementError
from ..spec.model import snake_case

Initiator = Literal["user", "agent"]
REF_KEY = "$ref"


def ref(var: str) -> dict[str, str]:
    return {REF_KEY: var}


def ref_target(value: Any) -> str | None:
    """The variable a `{"$ref": var}` value points to, else None."""
    if isinstance(value, dict) and set(value) == {REF_KEY}:
        return value[REF_KEY]
    return None


def json_copy(value: Any) -> Any:
    """A copy of JSON-native data (dicts and lists copied, leaves shared): deepcopy without its memo."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def _share(value: Any) -> Any:
    return value


def _list(value: Any) -> Any:
    return list(value) if isinstance(value, list) else json_copy(value)


def _values(value: Any) -> Any:
    """Field values: a new dict and new lists; rows and `$ref`s inside are read-only, so shared."""
    if not isinstance(value, dict):
        return json_copy(value)
    return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}


class FrozenDict(dict):
    """The values of a record shared between snapshots: reading works, changing is refused."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise StatementError(f"record '{getattr(self, 'owner', '?')}' was already completed and cannot change")

    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refuse


class FrozenList(list):
    """A list field of a record shared between snapshots."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise StatementError(f"record '{getattr(self, 'owner', '?')}' was already completed and cannot change")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class _CachedJson:
    """Mixin: a record's JSON is built once and reused while the record still equals it.

    `_copiers` says how each container field is copied (by clone and into the JSON); a
    field copied by `_share` (KB result rows) is kept by reference and checked by identity,
    every other field is compared by value. Fields not listed are scalars.
    """

    _copiers: dict[str, Any] = {}
    _names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        d = self.__dict__
        cached = d.get("_json")
        if cached is not None and (d.get("_frozen") or self._json_current(cached)):
            return cached
        out = {"var": self.var, "kind": self.kind}  # type: ignore[attr-defined]
        for name in self._names:
            copier = self._copiers.get(name)
            out[name] = copier(d[name]) if copier is not None else d[name]
        d["_json"] = out
        return out

    def _json_current(self, cached: dict[str, Any]) -> bool:
        d = self.__dict__
        for name in self._names:
            value, old = d[name], cached[name]
            if self._copiers.get(name) is _share:
                if old is not value:
                    return False
            elif old is not value and (old != value or type(old) is not type(value)):
                return False
        return True

    def clone(self):  # type: ignore[no-untyped-def]
        """A copy the next turn may change: shared fields by reference, the rest copied."""
        other = object.__new__(type(self))
        d = self.__dict__.copy()
        d.pop("_frozen", None)
        for name, copier in self._copiers.items():
            d[name] = copier(d[name])
        other.__dict__.update(d)
        return other


@dataclass
class TaskRecord(_CachedJson):
    var: str
    worksheet: str
    initiator: Initiator = "user"
    status: Literal["active", "completed", "abandoned"] = "active"
    values: dict[str, Any] = field(default_factory=dict)
    confirmed: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    result: Any = None
    parent: str | None = None
    parent_field: str | None = None
    # policy bookkeeping: fields whose actions ran for their current value,
    # and what became of the worksheet's completion (None, executed, declined, blocked)
    actions_done: list[str] = field(default_factory=list)
    outcome: str | None = None
    kind: Literal["task"] = "task"

    def settled(self) -> bool:
        """Completed, executed, and every value's actions ran: nothing in a turn changes it any more
        (an assignment is refused), so snapshots share it instead of copying it."""
        return self.status == "completed" and self.outcome is not None and self.values.keys() <= set(self.actions_done)

    def freeze(self) -> None:
        d = self.__dict__
        for name in ("confirmed", "refused", "actions_done"):
            d[name] = FrozenList(d[name])
            d[name].owner = self.var
        d["values"] = FrozenDict(d["values"])
        d["values"].owner = self.var
        d["_frozen"] = True

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise StatementError(f"{self.var} was already completed; start a new {self.worksheet}", var=self.var)
        object.__setattr__(self, name, value)

    # `result` (the API's answer) is replaced, never changed in place; spec code reads a copy
    _copiers = {"values": _values, "confirmed": _list, "refused": _list, "actions_done": _list,
                "result": _share}


@dataclass
class KBRecord(_CachedJson):
    var: str
    query: str
    sql: str | None = None
    result: list[dict[str, Any]] | None = None
    status: Literal["pending", "done", "error"] = "pending"
    error: str | None = None
    note: str | None = None  # e.g. which condition to drop when nothing matched
    initiator: Initiator = "user"
    # where the result goes when the query is the value of a field (composition)
    target_var: str | None = None
    target_field: str | None = None
    kind: Literal["kb"] = "kb"

    _copiers = {"result": _share}  # rows are read-only; a new query assigns a new list

    def settled(self) -> bool:
        """A query that ran: nothing changes it again, so snapshots share it instead of copying."""
        return self.status != "pending"

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise RuntimeError(f"KB record '{self.var}' is settled and shared between snapshots; "
                               "clone() it to change it")
        object.__setattr__(self, name, value)


Record = TaskRecord | KBRecord
for _cls in (TaskRecord, KBRecord):
    _cls._names = tuple(f.name for f in fields(_cls) if f.name not in ("var", "kind"))


@dataclass
class Proposal:
    worksheet: str
    values: dict[str, Any]
    by: str | None = None


@dataclass
class DialogueState:
    records: list[Record] = field(default_factory=list)
    turn: int = 0
    last_acts: list[dict[str, Any]] = field(default_factory=list)
    last_response: str = ""
    proposals: list[Proposal] = field(default_factory=list)

    # ------------------------------------------------------------ lookup
    def get(self, var: str) -> Record | None:
        index = self.__dict__.get("_by_var")  # (list, count indexed, var -> record); records only grow
        records = self.records
        if index is None or index[0] is not records or index[1] > len(records):
            index = [records, 0, {}]
            self.__dict__["_by_var"] = index
        if index[1] < len(records):
            by_var = index[2]
            for r in records[index[1]:]:
                by_var.setdefault(r.var, r)  # the first of a repeated name, like a scan
            index[1] = len(records)
        return index[2].get(var)

    def task(self, var: str) -> TaskRecord:
        r = self.get(var)
        if not isinstance(r, TaskRecord):
            raise StatementError(f"no task record named '{var}'", var=var)
        return r

    def tasks(self) -> list[TaskRecord]:
        """The task records, in order (a new list; the scan is cached while the records only grow)."""
        cache = self.__dict__.get("_tasks")  # (list, count scanned, tasks); records only grow
        records = self.records
        if cache is None or cache[0] is not records or cache[1] > len(records):
            cache = [records, 0, []]
            self.__dict__["_tasks"] = cache
        if cache[1] < len(records):
            cache[2] += [r for r in records[cache[1]:] if isinstance(r, TaskRecord)]
            cache[1] = len(records)
        return list(cache[2])

    def kb_records(self) -> list[KBRecord]:
        return [r for r in self.records if isinstance(r, KBRecord)]

    def open_records(self) -> list[Record]:
        """The records a turn may still change (not frozen), in order: a long conversation's
        settled records are skipped without being visited (`copy` hands the index on)."""
        records = self.records
        return [records[i] for i in self.open_indices()]

    def open_indices(self) -> list[int]:
        """Positions of the records that are not frozen (a new list)."""
        cache = self.__dict__.get("_open")  # (list, count scanned, open indices); records only grow
        records = self.records
        if cache is None or cache[0] is not records or cache[1] > len(records):
            cache = [records, 0, []]
            self.__dict__["_open"] = cache
        if cache[1] < len(records):
            cache[2] += [i for i in range(cache[1], len(records)) if not records[i].__dict__.get("_frozen")]
            cache[1] = len(records)
        return list(cache[2])

    def open_tasks(self) -> list[TaskRecord]:
        return [r for r in self.open_records() if isinstance(r, TaskRecord)]

    def of_worksheet(self, worksheet: str) -> list[TaskRecord]:
        return [r for r in self.tasks() if r.worksheet == worksheet]

    def children(self, record: TaskRecord) -> list[TaskRecord]:
        return [r for r in self.tasks() if r.parent == record.var]

    def ancestors(self, record: TaskRecord) -> list[TaskRecord]:
        out: list[TaskRecord] = []
        seen = {record.var}
        cur = record
        while cur.parent and cur.parent not in seen:
            parent = self.get(cur.parent)
            if not isinstance(parent, TaskRecord):
                break
            out.append(parent)
            seen.add(parent.var)
            cur = parent
        return out

    def new_var(self, base: str) -> str:
        """`book_restaurant`, then `book_restaurant_2`, ... (DESIGN §4)."""
        taken = {r.var for r in self.records}
        if base not in taken:
            return base
        n = 2
        while f"{base}_{n}" in taken:
            n += 1
        return f"{base}_{n}"

    def new_task(self, worksheet: str, *, initiator: Initiator, parent: TaskRecord | None = None,
                 parent_field: str | None = None, var: str | None = None) -> TaskRecord:
        rec = TaskRecord(
            var=var or self.new_var(snake_case(worksheet)),
            worksheet=worksheet,
            initiator=initiator,
            parent=parent.var if parent else None,
            parent_field=parent_field,
        )
        self.records.append(rec)
        return rec

    def new_kb(self, query: str, *, initiator: Initiator = "user", var: str | None = None) -> KBRecord:
        rec = KBRecord(var=var or self.new_var("answer"), query=query, initiator=initiator)
        self.records.append(rec)
        return rec

    def thaw(self, record: Record) -> Record:
        """This state's own copy of a record shared (frozen) with earlier snapshots, put in its place."""
        if not record.__dict__.get("_frozen"):
            return record
        for i, r in enumerate(self.records):
            if r is record:
                self.records[i] = record = record.clone()
                for cache in ("_by_var", "_tasks", "_open", "_json"):
                    self.__dict__.pop(cache, None)
                break
        return record

    # ------------------------------------------------------------ snapshots
    def copy(self) -> "DialogueState":
        """An independent state: records cloned (KB rows shared), settled records (a query that ran, a
        completed task whose actions all ran) shared whole and frozen; acts and proposals copied.

        Only the open records are visited: frozen ones are shared by the list copy, and the
        lookup, open-record and JSON caches are handed on, patched where a record was cloned."""
        open_indices = self.open_indices()
        n = len(self.records)
        records = list(self.records)
        by_var = self.__dict__.get("_by_var")
        by_var = dict(by_var[2]) if by_var is not None and by_var[0] is self.records and by_var[1] == n else None
        still_open: list[int] = []
        for i in open_indices:
            r = records[i]
            if r.settled() or self._done_under_settled_parent(r):
                if isinstance(r, TaskRecord):
                    r.freeze()
                else:
                    r.__dict__["_frozen"] = True
                continue
            records[i] = clone = r.clone()
            still_open.append(i)
            if by_var is not None and by_var.get(r.var) is r:
                by_var[r.var] = clone
        new = DialogueState(records=records, turn=self.turn,
                            last_acts=copy.deepcopy(self.last_acts), last_response=self.last_response,
                            proposals=[Proposal(p.worksheet, json_copy(p.values), p.by) for p in self.proposals])
        d = new.__dict__
        d["_open"] = [records, n, still_open]
        if by_var is not None:
            d["_by_var"] = [records, n, by_var]
        json_list = self.__dict__.get("_json")
        if json_list is not None and json_list[0] is self.records and json_list[1] == n:
            d["_json"] = [records, n, list(json_list[2]), list(still_open)]
        return new

    def _done_under_settled_parent(self, r: Record) -> bool:
        """A nested record whose completion ran, inside a task that is settled: the task was carried
        out, so nothing changes its parts any more either (they are shared and frozen like it)."""
        if not isinstance(r, TaskRecord) or r.parent is None or r.outcome is None \
                or not r.values.keys() <= set(r.actions_done):
            return False
        parent = self.get(r.parent)
        return parent is not None and bool(parent.__dict__.get("_frozen"))

    def records_json(self) -> list[dict[str, Any]]:
        """Every record's JSON; a copy's frozen records reuse the JSON its source had built."""
        cache = self.__dict__.get("_json")  # (list, count, JSON per record, indices to rebuild)
        records = self.records
        if cache is None or cache[0] is not records or cache[1] > len(records):
            out = [r.to_json() for r in records]
        else:
            out = cache[2]
            for i in cache[3]:
                out[i] = records[i].to_json()
            out += [r.to_json() for r in records[cache[1]:]]
        self.__dict__["_json"] = [records, len(records), out, self.open_indices()]
        return list(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "records": self.records_json(),
            "turn": self.turn,
            "last_acts": copy.deepcopy(self.last_acts),
            "last_response": self.last_response,
            "proposals": [asdict(p) for p in self.proposals],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "DialogueState":
        records: list[Record] = []
        for i, raw in enumerate(data.get("records", [])):
            raw = dict(raw)
            kind = raw.pop("kind", "task")
            try:
                records.append(TaskRecord(**raw) if kind == "task" else KBRecord(**raw))
            except TypeError as exc:
                raise StatementError(f"records[{i}] is not a valid {kind} record: {exc}", index=i) from exc
        return cls(
            records=records,
            turn=int(data.get("turn", 0)),
            last_acts=list(data.get("last_acts", [])),
            last_response=str(data.get("last_response", "")),
            proposals=[Proposal(**p) for p in data.get("proposals", [])],
        )
