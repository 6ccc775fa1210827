"""Look-up tables over a spec that every check shares, built once per lint run.

Built tolerantly: a spec with duplicate names or junk types still gets an index
(first definition wins, unparsable types are treated as opaque), because the
linter must report every problem rather than stop at the first.
"""

from __future__ import annotations

import difflib
from functools import cached_property
from typing import Iterable

from ..errors import SpecError
from ..spec.model import Field, Spec, TypeRef, Worksheet, parse_type, snake_case


def safe_type(text: str) -> TypeRef | None:
    """The parsed type, or None when it is not a type expression (reported elsewhere)."""
    try:
        return parse_type(text)
    except SpecError:
        return None


def closest(name: str, candidates: Iterable[str], cutoff: float = 0.7) -> str | None:
    """The candidate most like `name`, ignoring case, for "did you mean" hints."""
    by_fold: dict[str, str] = {}
    for c in sorted(set(candidates)):
        by_fold.setdefault(c.casefold(), c)
    found = difflib.get_close_matches(name.casefold(), list(by_fold), n=1, cutoff=cutoff)
    return by_fold[found[0]] if found else None


def base_of(ref: TypeRef) -> TypeRef:
    """The innermost item type: `List[List[Course]]` -> `Course`."""
    while ref.is_list and ref.item is not None:
        ref = ref.item
    return ref


class SpecIndex:
    """Name tables for one spec: worksheets, fields, nesting, record variables, APIs."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.worksheets: dict[str, Worksheet] = {}
        for ws in spec.worksheets:
            self.worksheets.setdefault(ws.name, ws)
        self.api_names = {api.name for api in spec.apis}
        self._fields: dict[str, dict[str, Field]] = {}
        self._ancestors: dict[str, list[str]] = {}

    def fields(self, ws_name: str) -> dict[str, Field]:
        """Field name -> field of a worksheet (first definition wins); {} for unknown names."""
        if ws_name not in self._fields:
            ws = self.worksheets.get(ws_name)
            out: dict[str, Field] = {}
            for f in ws.fields if ws is not None else []:
                out.setdefault(f.name, f)
            self._fields[ws_name] = out
        return self._fields[ws_name]

    def nested_target(self, field: Field) -> str | None:
        """The worksheet a field's value is a record of (`restaurant: Restaurant`), not lists."""
        ref = safe_type(field.type)
        if ref is None or ref.is_list:
            return None
        name = ref.worksheet
        return name if name in self.worksheets else None

    def nesting_target(self, field: Field) -> str | None:
        """The worksheet a field nests, also through `List[...]` (for cycles and reachability)."""
        ref = safe_type(field.type)
        if ref is None:
            return None
        name = ref.worksheet
        return name if name in self.worksheets else None

    @cached_property
    def children(self) -> dict[str, list[tuple[str, str]]]:
        """worksheet -> [(field, nested worksheet)] in field order."""
        out: dict[str, list[tuple[str, str]]] = {}
        for name, ws in self.worksheets.items():
            out[name] = [(f.name, t) for f in ws.fields if (t := self.nesting_target(f))]
        return out

    @cached_property
    def parents(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {name: set() for name in self.worksheets}
        for parent, kids in self.children.items():
            for _, child in kids:
                out[child].add(parent)
        return out

    def ancestors(self, ws_name: str) -> list[str]:
        """Every worksheet that contains `ws_name`, nearest first (cycle-safe)."""
        if ws_name not in self._ancestors:
            self._ancestors[ws_name] = self._find_ancestors(ws_name)
        return self._ancestors[ws_name]

    def _find_ancestors(self, ws_name: str) -> list[str]:
        seen: list[str] = []
        frontier = sorted(self.parents.get(ws_name, ()))
        while frontier:
            nxt: list[str] = []
            for p in frontier:
                if p not in seen and p != ws_name:
                    seen.append(p)
                    nxt.extend(sorted(self.parents.get(p, ())))
            frontier = nxt
        return seen

    @cached_property
    def record_vars(self) -> dict[str, str]:
        """Record variable name -> worksheet (`book_restaurant` -> `BookRestaurant`)."""
        out: dict[str, str] = {}
        for name, ws in self.worksheets.items():
            if ws.kind in ("task", "type"):
                out.setdefault(snake_case(name), name)
        return out

    @cached_property
    def task_fields(self) -> dict[str, list[tuple[str, Field]]]:
        """Field name -> [(task worksheet, field)]: the runtime's global field look-up."""
        out: dict[str, list[tuple[str, Field]]] = {}
        for name, ws in self.worksheets.items():
            if ws.kind == "task":
                for f in self.fields(name).values():
                    out.setdefault(f.name, []).append((name, f))
        return out

    @cached_property
    def nested(self) -> set[str]:
        """Worksheets some field has as its type (also through `List[...]`)."""
        return {child for kids in self.children.values() for _, child in kids}

    def start_worksheet(self) -> Worksheet | None:
        """`Spec.start_worksheet()`, but tolerant of unparsable field types."""
        named = self.spec.settings.start_worksheet
        return self.worksheets.get(named) if named else self.default_start()

    def default_start(self) -> Worksheet | None:
        """The first task worksheet (the reference implementation's rule, as `Spec.start_worksheet`)."""
        for ws in self.spec.worksheets:
            if ws.kind == "task":
                return ws
        return None
