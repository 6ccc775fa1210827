"""Lookups by name over a spec, built once per spec object instead of per predicate.

A turn asks "which worksheet is this record", "what does name X mean in spec code"
hundreds of times; over a 1,000-worksheet spec a linear scan or a fresh token per
worksheet at every predicate made a turn quadratic in the spec size. Specs are
edited by copying (`model_copy`), so an index keyed by the spec object stays valid;
a cheap fingerprint (names, field lists) catches an in-place edit anyway.

The index also memoises predicate outcomes by their inputs: a predicate is a pure
expression over the values of its free names, so the same source with the same plain
input values has the same outcome (inputs that are records, rows, lists or functions
are never memoised).
"""

from __future__ import annotations

from typing import Any

import ast
from dataclasses import dataclass, field

from ..errors import SandboxViolation
from ..policy.sandbox import SAFE_BUILTINS, Code, check_expression
from .model import Field, Spec, Worksheet

_MEMO_LIMIT = 50_000
_PLAIN = (str, int, float, bool, type(None))


class WorksheetToken:
    """What a worksheet name means inside spec code: an argument for propose()."""

    def __init__(self, name: str) -> None:
        self.name = name

    def sandbox_getattr(self, name: str) -> Any:
        from ..errors import SandboxError
        raise SandboxError(f"worksheet {self.name} has no attribute '{name}'")

    def sandbox_setattr(self, name: str, value: Any) -> None:
        from ..errors import SandboxError
        raise SandboxError(f"cannot set attributes of worksheet {self.name}")

    def sandbox_call_method(self, name: str, args: list, kwargs: dict) -> Any:
        from ..errors import SandboxError
        raise SandboxError(f"worksheet {self.name} has no method '{name}'")


@dataclass
class ActivationGroup:
    """Top-level task worksheets whose WS predicates read the same free names (often just the
    start worksheet's `user_task`): their outcomes depend on those names' values only."""

    names: frozenset[str] | None  # None: predicates that do not compile, evaluated one by one
    positions: list[int] = field(default_factory=list)  # into SpecIndex.activation, in spec order
    labels: list[tuple[str, str]] = field(default_factory=list)  # (trace "where", worksheet) per position
    # when every predicate is `name == "text"` (a start worksheet's task choice): text -> positions
    equals: dict[str, list[int]] | None = None
    # true positions -> the trace entries they make, built once (read-only), and their dedupe keys
    traced: dict[frozenset[int], tuple[list[dict[str, Any]], list[tuple]]] = field(default_factory=dict)
    where_of: dict[str, int] = field(default_factory=dict)  # worksheet -> its index in `labels`

    def trace_entries(self, true: frozenset[int], live: frozenset[str]) -> tuple[list[tuple], list[dict[str, Any]]]:
        """The trace entries of these outcomes, without the worksheets that have a live record
        (they were not judged); copied by slices around those few, in C."""
        hit = self.traced.get(true)
        if hit is None:
            entries = [{"where": where, "var": None, "value": p in true}
                       for p, (where, _) in zip(self.positions, self.labels)]
            hit = (entries, [(e["where"], None, e["value"]) for e in entries])
            if len(self.traced) >= 64:
                self.traced.clear()
            self.traced[true] = hit
        entries, keys = hit
        if len(self.where_of) != len(self.labels):
            self.where_of = {worksheet: i for i, (_, worksheet) in enumerate(self.labels)}
        cut = sorted(self.where_of[w] for w in live if w in self.where_of)
        if len(cut) > 8:  # many live records of this group: filter one by one
            keep = [i for i in range(len(entries)) if self.labels[i][1] not in live]
            return [keys[i] for i in keep], [entries[i] for i in keep]
        out_entries: list[dict[str, Any]] = []
        out_keys: list[tuple] = []
        start = 0
        for i in cut:
            out_entries += entries[start:i]
            out_keys += keys[start:i]
            start = i + 1
        out_entries += entries[start:]
        out_keys += keys[start:]
        return out_keys, out_entries


@dataclass
class Activation:
    worksheet: Worksheet
    source: str
    code: Code | None
    where: str  # how the trace names it: "Ws (ws_predicate)"


class SpecIndex:
    def __init__(self, spec: Spec) -> None:
        self.fingerprint = _fingerprint(spec)
        self.worksheets: dict[str, Worksheet] = {}
        for ws in spec.worksheets:
            self.worksheets.setdefault(ws.name, ws)  # the first of a duplicated name, like Spec.worksheet
        self.tokens = {name: WorksheetToken(name) for name in self.worksheets}
        self.fields: dict[str, dict[str, Field]] = {}
        for name, ws in self.worksheets.items():
            by_name: dict[str, Field] = {}
            for f in ws.fields:
                by_name.setdefault(f.name, f)
            self.fields[name] = by_name
        self.field_names = frozenset(n for fs in self.fields.values() for n in fs)
        self.api_names = frozenset(api.name for api in spec.apis)
        self.nested = frozenset(spec.nested_worksheet_names())
        self.memo: dict[tuple, bool] = {}
        # the worksheets the agent opens by their WS predicate, grouped by the names the predicates read
        self.activation: list[Activation] = []
        groups: dict[frozenset[str] | None, ActivationGroup] = {}
        for ws in spec.task_worksheets():
            if not ws.predicate.strip() or ws.name in self.nested:
                continue
            try:
                code: Code | None = check_expression(ws.predicate)
            except SandboxViolation:
                code = None
            names = code.names if code is not None else None
            group = groups.setdefault(names, ActivationGroup(names))
            group.positions.append(len(self.activation))
            group.labels.append((f"{ws.name} (ws_predicate)", ws.name))
            self.activation.append(Activation(ws, ws.predicate, code, f"{ws.name} (ws_predicate)"))
        self.groups = list(groups.values())
        for group in self.groups:
            group.equals = _equality_index(group, self.activation)
        self.group_memo: dict[tuple, tuple[int, ...]] = {}

    def memo_key(self, source: str, names: dict[str, Any], wanted: frozenset[str]) -> tuple | None:
        """The memo key of a predicate over these inputs, or None when an input is not plain data."""
        parts: list[Any] = [source]
        for n in sorted(wanted):
            if n not in names:
                if n in SAFE_BUILTINS:
                    continue  # len, min, ...: pure functions
                return None
            v = names[n]
            if isinstance(v, WorksheetToken):
                parts.append((n, "$ws", v.name))
            elif isinstance(v, _PLAIN):
                parts.append((n, type(v).__name__, v))
            else:
                return None
        return tuple(parts)

    def remember(self, key: tuple, value: bool) -> None:
        if len(self.memo) >= _MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = value

    def remember_group(self, key: tuple, true: tuple[int, ...]) -> None:
        if len(self.group_memo) >= _MEMO_LIMIT:
            self.group_memo.clear()
        self.group_memo[key] = true


def _equality_index(group: ActivationGroup, entries: list[Activation]) -> dict[str, list[int]] | None:
    """text -> positions, when each predicate of the group is `name == "text"` on the group's one name."""
    if group.names is None or len(group.names) != 1:
        return None
    index: dict[str, list[int]] = {}
    for p in group.positions:
        code = entries[p].code
        body = getattr(code.tree, "body", None) if code is not None else None
        if not (isinstance(body, ast.Compare) and len(body.ops) == 1 and isinstance(body.ops[0], ast.Eq)
                and isinstance(body.left, ast.Name) and isinstance(body.comparators[0], ast.Constant)
                and isinstance(body.comparators[0].value, str)):
            return None
        index.setdefault(body.comparators[0].value, []).append(p)
    return index


def _fingerprint(spec: Spec) -> tuple:
    """Which worksheet objects the spec holds (C-level: cheap at 1,000 worksheets). The studio edits
    specs by copying (`model_copy`), which makes new objects; an edit in place of one worksheet's
    attributes is not seen, so code that edits in place must build a new Spec."""
    return (id(spec.worksheets), id(spec.apis), len(spec.apis), tuple(map(id, spec.worksheets)))


_CACHE: dict[int, tuple[Spec, SpecIndex]] = {}


def spec_index(spec: Spec) -> SpecIndex:
    """The index of this spec object (built on first use, rebuilt if the spec was edited in place)."""
    hit = _CACHE.get(id(spec))
    if hit is not None and hit[0] is spec and hit[1].fingerprint == _fingerprint(spec):
        return hit[1]
    if len(_CACHE) >= 64:
        _CACHE.clear()
    index = SpecIndex(spec)
    _CACHE[id(spec)] = (spec, index)
    return index
