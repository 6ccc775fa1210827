"""The formal dialogue state: an ordered list of task and KB records.

A `DialogueState` is the whole memory of a conversation. It is plain data with a
lossless JSON form (`to_json`/`from_json`), so rewinding, forking, replaying and
testing are copies of snapshots. The engine never mutates a snapshot it was
given: a turn works on `state.copy()` and returns the new one.

Record values are JSON-native. A field that holds another record holds
`{"$ref": var}`; a field whose value is a KB row holds the row dict.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from .errors import StatementError
from .spec import snake_case

Initiator = Literal["user", "agent"]
REF_KEY = "$ref"


def ref(var: str) -> dict[str, str]:
    return {REF_KEY: var}


def ref_target(value: Any) -> str | None:
    """The variable a `{"$ref": var}` value points to, else None."""
    if isinstance(value, dict) and set(value) == {REF_KEY}:
        return value[REF_KEY]
    return None


@dataclass
class TaskRecord:
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

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        return {"var": d.pop("var"), "kind": d.pop("kind"), **d}


@dataclass
class KBRecord:
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

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        return {"var": d.pop("var"), "kind": d.pop("kind"), **d}


Record = TaskRecord | KBRecord


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
        for r in self.records:
            if r.var == var:
                return r
        return None

    def task(self, var: str) -> TaskRecord:
        r = self.get(var)
        if not isinstance(r, TaskRecord):
            raise StatementError(f"no task record named '{var}'", var=var)
        return r

    def tasks(self) -> list[TaskRecord]:
        return [r for r in self.records if isinstance(r, TaskRecord)]

    def kb_records(self) -> list[KBRecord]:
        return [r for r in self.records if isinstance(r, KBRecord)]

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

    # ------------------------------------------------------------ snapshots
    def copy(self) -> "DialogueState":
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "records": [r.to_json() for r in self.records],
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
