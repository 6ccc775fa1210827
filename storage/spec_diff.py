"""A structured diff of two specs: which worksheets, fields, enum values and attributes changed.

    diff_specs(old, new).changes  ->  [Change("changed", "worksheets.Main.fields.full_name.required", True, False), ...]

Items in named lists (worksheets, fields, enum values, APIs) are matched by
name, so an edit shows as "changed" and a reorder as "moved" rather than as a
cascade of index changes. A rename shows as one removal plus one addition (the
diff cannot know intent). "moved" is reported for the fewest items whose moves
explain the new order (the ones outside a longest increasing subsequence).
Values in a change are JSON-able, so a diff can be stored with its version.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from core_engine.spec.model import Spec

__all__ = ["Change", "SpecDiff", "diff_specs"]

Op = Literal["added", "removed", "changed", "moved"]


@dataclass(frozen=True)
class Change:
    """One difference: ``path`` is dotted (``worksheets.Main.fields.full_name.required``)."""

    op: Op
    path: str
    old: Any = None
    new: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "path": self.path, "old": self.old, "new": self.new}

    def describe(self) -> str:
        if self.op == "added":
            return f"+ {self.path}"
        if self.op == "removed":
            return f"- {self.path}"
        if self.op == "moved":
            return f"~ {self.path} moved from position {self.old + 1} to {self.new + 1}"
        return f"~ {self.path}: {_short(self.old)} -> {_short(self.new)}"


@dataclass
class SpecDiff:
    """The changes between two specs, in spec order; falsy when the specs are identical."""

    changes: list[Change] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def __iter__(self):
        return iter(self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {"changes": [c.to_dict() for c in self.changes], "summary": self.summary()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SpecDiff":
        return cls([Change(c["op"], c["path"], c.get("old"), c.get("new")) for c in data.get("changes", [])])

    def summary(self) -> str:
        """One line: counts of added/removed worksheets and fields, and changed attributes."""
        if not self.changes:
            return "no changes"
        counts: Counter[str] = Counter()
        for c in self.changes:
            counts[(c.op, _kind(c.path))] += 1
        parts = []
        for (op, kind), n in sorted(counts.items(), key=lambda kv: (_OP_ORDER.index(kv[0][0]), kv[0][1])):
            noun = kind if n == 1 else _plural(kind)
            parts.append(f"{n} {noun} {op}")
        return ", ".join(parts)

    def format(self) -> str:
        """One line per change, for terminals and the studio's diff view."""
        return "\n".join(c.describe() for c in self.changes) or "no changes"


_OP_ORDER = ("added", "removed", "changed", "moved")


def _kind(path: str) -> str:
    parts = path.split(".")
    if len(parts) == 2 and parts[0] in ("worksheets", "apis"):
        return "worksheet" if parts[0] == "worksheets" else "API"
    if len(parts) == 4 and parts[2] == "fields":
        return "field"
    if len(parts) >= 5 and parts[4] == "enum_values" and len(parts) == 6:
        return "enum value"
    return "attribute"


def _plural(kind: str) -> str:
    return {"API": "APIs", "attribute": "attributes"}.get(kind, kind + "s")


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- computing the diff ------------------------------------------------------------------


def diff_specs(old: Spec | dict[str, Any], new: Spec | dict[str, Any]) -> SpecDiff:
    """Every difference between ``old`` and ``new`` (specs, or their JSON dicts), in spec order."""
    a = old.model_dump(mode="json") if isinstance(old, Spec) else old
    b = new.model_dump(mode="json") if isinstance(new, Spec) else new
    changes: list[Change] = []
    for key in ("format_version", "name", "description", "starting_prompt"):
        if a.get(key) != b.get(key):
            changes.append(Change("changed", key, a.get(key), b.get(key)))
    changes += _named_list("worksheets", a["worksheets"], b["worksheets"], "name", _diff_worksheet)
    changes += _named_list("apis", a["apis"], b["apis"], "name", _diff_flat)
    changes += _diff_flat("settings", a["settings"], b["settings"])
    return SpecDiff(changes)


def _diff_worksheet(path: str, a: dict[str, Any], b: dict[str, Any]) -> list[Change]:
    changes = _diff_flat(path, a, b, skip=("fields",))
    changes += _named_list(f"{path}.fields", a["fields"], b["fields"], "name", _diff_field)
    return changes


def _diff_field(path: str, a: dict[str, Any], b: dict[str, Any]) -> list[Change]:
    changes = _diff_flat(path, a, b, skip=("enum_values",))
    changes += _named_list(f"{path}.enum_values", a["enum_values"], b["enum_values"], "value", _diff_flat)
    return changes


def _diff_flat(path: str, a: dict[str, Any], b: dict[str, Any], skip: tuple[str, ...] = ()) -> list[Change]:
    keys = list(a) + [k for k in b if k not in a]
    return [Change("changed", f"{path}.{k}", a.get(k), b.get(k)) for k in keys
            if k not in skip and a.get(k) != b.get(k)]


def _named_list(path: str, old: list[dict], new: list[dict], key: str, inner) -> list[Change]:
    """Match items by name: removed (old order), then per new item added / changed, then moves."""
    old_by = {item[key]: (i, item) for i, item in enumerate(old)}
    new_by = {item[key]: (i, item) for i, item in enumerate(new)}
    changes = [Change("removed", f"{path}.{name}", item, None) for name, (_, item) in old_by.items()
               if name not in new_by]
    for name, (_, item) in new_by.items():
        if name not in old_by:
            changes.append(Change("added", f"{path}.{name}", None, item))
        else:
            changes += inner(f"{path}.{name}", old_by[name][1], item)
    common_old = [n for n in old_by if n in new_by]
    common_new = [n for n in new_by if n in old_by]
    if common_old != common_new:
        rank = {n: i for i, n in enumerate(common_new)}
        keep = _longest_increasing([rank[n] for n in common_old])
        for n in common_new:
            if rank[n] not in keep:
                changes.append(Change("moved", f"{path}.{n}", old_by[n][0], new_by[n][0]))
    return changes


def _longest_increasing(seq: list[int]) -> set[int]:
    """Values of one longest strictly increasing subsequence (patience sorting, O(n log n))."""
    tails: list[int] = []
    tail_idx: list[int] = []
    prev = [-1] * len(seq)
    for i, v in enumerate(seq):
        pos = bisect.bisect_left(tails, v)
        if pos == len(tails):
            tails.append(v)
            tail_idx.append(i)
        else:
            tails[pos] = v
            tail_idx[pos] = i
        prev[i] = tail_idx[pos - 1] if pos else -1
    out: set[int] = set()
    i = tail_idx[-1] if tail_idx else -1
    while i >= 0:
        out.add(seq[i])
        i = prev[i]
    return out
