"""Three-way merge of specs: my edits (from version `base`) replayed onto a newer version (`theirs`).

    result = merge_specs(base, theirs, mine)
    result.conflicts   -> [Conflict("worksheets.Main.fields.age.type", base="int", theirs="str", mine="float")]
    merge_specs(base, theirs, mine, choices={"worksheets.Main.fields.age.type": "mine"}).spec

Why: two people (or the studio and the CLI) save the same project; a save must
never silently drop the other side's work. Every spec is flattened to one value
per attribute, keyed by a path of names (worksheets, fields and APIs are matched
by name, like `spec_diff`), plus the order of each named list. A path changed on
one side only takes that side; changed on both sides to different values is a
conflict. Attributes the grid cannot show (APIs, prompt, description, settings)
are merged like any other, so a grid save never drops them. Unresolved conflicts
keep "theirs" (the saved version) until a choice is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from core_engine.spec.model import Spec

__all__ = ["Conflict", "MergeResult", "merge_specs"]

Side = Literal["theirs", "mine"]
_MISSING = object()  # a path absent on one side (the item was removed or not there yet)
_ITEM = object()  # the value at an item's own path: "this worksheet / field / API exists"
_TOP_LISTS = ("worksheets", "apis")  # named lists (worksheets also hold "fields")


@dataclass(frozen=True)
class Conflict:
    """Both sides changed `path` differently; None means "not there" (removed on that side)."""

    path: str
    base: Any
    theirs: Any
    mine: Any


@dataclass
class MergeResult:
    spec: Spec
    conflicts: list[Conflict] = field(default_factory=list)
    choices: dict[str, Side] = field(default_factory=dict)
    merged: list[str] = field(default_factory=list)  # paths where my edit was applied onto theirs

    @property
    def unresolved(self) -> list[Conflict]:
        return [c for c in self.conflicts if c.path not in self.choices]


def _data(spec: Spec | dict) -> dict[str, Any]:
    return spec.model_dump(mode="json") if isinstance(spec, Spec) else spec


def _keys(items: list[dict]) -> list[str]:
    """Item names, with `#2`, `#3` added to repeated names so every item has its own key."""
    seen: dict[str, int] = {}
    out = []
    for item in items:
        name = str(item.get("name", ""))
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def _flatten(obj: dict[str, Any], prefix: tuple, lists: tuple[str, ...], values: dict, orders: dict) -> None:
    for key, value in obj.items():
        if key in lists and isinstance(value, list):
            names = _keys(value)
            orders[prefix + (key,)] = names
            inner = ("fields",) if key == "worksheets" else ()
            for name, item in zip(names, value):
                path = prefix + (key, name)
                values[path] = _ITEM
                _flatten(item, path, inner, values, orders)
        elif key == "settings" and not prefix and isinstance(value, dict):
            for k, v in value.items():
                values[("settings", k)] = v
        else:
            values[prefix + (key,)] = value


def flatten(spec: Spec | dict) -> tuple[dict[tuple, Any], dict[tuple, list[str]]]:
    """(attribute values by path, order of each named list by path)."""
    values: dict[tuple, Any] = {}
    orders: dict[tuple, list[str]] = {}
    _flatten(_data(spec), (), _TOP_LISTS, values, orders)
    return values, orders


def _merge_order(base: list[str], theirs: list[str], mine: list[str]) -> list[str]:
    if theirs == base:
        return list(mine)
    if mine == base:
        return list(theirs)
    out = list(theirs)
    for i, name in enumerate(mine):  # my new items go after the item they follow in my order
        if name not in out and name not in base:
            before = mine[i - 1] if i else None
            out.insert(out.index(before) + 1 if before in out else len(out), name)
    return out


def _build(values: dict[tuple, Any], orders: dict[tuple, list[str]], prefix: tuple = ()) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for path, value in values.items():
        if len(path) == len(prefix) + 1 and path[: len(prefix)] == prefix and path[0] != "settings" \
                and value is not _ITEM:
            obj[path[-1]] = value
    for path, names in orders.items():
        if len(path) == len(prefix) + 1 and path[: len(prefix)] == prefix:
            obj[path[-1]] = [_build(values, orders, path + (n,)) for n in names if values.get(path + (n,)) is _ITEM]
    return obj


def _removed_and_edited(bv: dict, tv: dict, mv: dict) -> list[tuple]:
    """Items (worksheets, fields, APIs) removed on one side and edited on the other: one conflict each."""
    out = []
    for item, marker in bv.items():
        if marker is not _ITEM or (item in tv) == (item in mv) or any(item == o[: len(item)] for o in out):
            continue
        kept = tv if item in tv else mv
        if any(p[: len(item)] == item and kept.get(p, _MISSING) != bv.get(p, _MISSING)
               for p in {*kept, *bv} if len(p) > len(item)):
            out.append(item)
    return out


def _show(value: Any) -> Any:
    return None if value is _MISSING else "(present)" if value is _ITEM else value


def merge_specs(base: Spec | dict, theirs: Spec | dict, mine: Spec | dict,
                choices: dict[str, Side] | None = None) -> MergeResult:
    """Merge my edits (base -> mine) onto theirs (base -> theirs); see the module doc."""
    choices = dict(choices or {})
    bv, bo = flatten(base)
    tv, to = flatten(theirs)
    mv, mo = flatten(mine)
    out: dict[tuple, Any] = {}
    conflicts: list[Conflict] = []
    merged: list[tuple] = []
    owners = _removed_and_edited(bv, tv, mv)
    for item in owners:
        dotted = ".".join(item)
        conflicts.append(Conflict(dotted, "present", "removed" if item not in tv else "edited",
                                  "removed" if item not in mv else "edited"))
    for path in list(dict.fromkeys([*tv, *mv, *bv])):
        b, t, m = bv.get(path, _MISSING), tv.get(path, _MISSING), mv.get(path, _MISSING)
        owner = next((o for o in owners if path[: len(o)] == o), None)
        if owner is not None:  # the whole item follows the side chosen for it
            value = m if choices.get(".".join(owner)) == "mine" else t
        elif t == m or m == b:
            value = t
        elif t == b:
            value = m
            if not any(path[: len(p)] == p for p in merged):
                merged.append(path)
        else:
            dotted = ".".join(path)
            conflicts.append(Conflict(dotted, _show(b), _show(t), _show(m)))
            value = m if choices.get(dotted) == "mine" else t
        if value is not _MISSING:
            out[path] = value
    orders: dict[tuple, list[str]] = {}
    for path in list(dict.fromkeys([*to, *mo])):
        names = _merge_order(bo.get(path, []), to.get(path, []), mo.get(path, []))
        for source in (to.get(path, []), mo.get(path, [])):  # items kept by a choice but not in the order
            for i, name in enumerate(source):
                if name not in names and out.get(path + (name,)) is _ITEM:
                    before = source[i - 1] if i else None
                    names.insert(names.index(before) + 1 if before in names else 0, name)
        orders[path] = names
    data = _build(out, orders)
    settings = {k[1]: v for k, v in out.items() if len(k) == 2 and k[0] == "settings"}
    data["settings"] = settings
    spec = Spec.model_validate(data)
    return MergeResult(spec, conflicts, {k: v for k, v in choices.items() if any(c.path == k for c in conflicts)},
                       [".".join(p) for p in merged])
