"""Enum values of task and type fields checked against the KB columns of the same name.

A field `price: Enum{cheap, moderate}` next to a KB column `restaurants.price`
only finds rows when its values are spelled as the column's values. The
column's values come from its own enum values when the KB worksheet declares
them, otherwise from `kb_values(table, column)` (the project's SQLite KB).
"""

from __future__ import annotations

from typing import Any, Callable

from .. import jsonsafe
from ..errors import KnowledgeError
from ..spec.model import Field
from .diagnostic import Diagnostic, warning
from .index import SpecIndex, base_of, safe_type

KbValues = Callable[[str, str], "list | None"]


def _is_enum(f: Field) -> bool:
    ref = safe_type(f.type)
    return ref is not None and base_of(ref).base == "Enum"


def _flatten(values: list[Any]) -> set[str]:
    """Distinct values, casefolded; list cells (or JSON-encoded lists) count per item."""
    out: set[str] = set()
    for v in values:
        if isinstance(v, str) and v.lstrip().startswith("["):
            try:
                v = jsonsafe.loads(v, what="a list cell")
            except ValueError:
                pass
        items = v if isinstance(v, (list, tuple)) else [v]
        out.update(str(x).strip().casefold() for x in items if x is not None)
    return out


def check_kb_enums(index: SpecIndex, kb_values: KbValues | None) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    kbs = [ws for name, ws in index.worksheets.items() if ws.kind == "kb"]
    if not kbs:
        return diags
    cache: dict[tuple[str, str], set[str] | None] = {}

    def column_values(table: str, column: Field) -> set[str] | None:
        key = (table, column.name)
        if key not in cache:
            if _is_enum(column) and column.enum_values:
                cache[key] = _flatten(column.enum_names)
            elif kb_values is None:
                cache[key] = None
            else:
                try:
                    found = kb_values(table, column.name)
                except KnowledgeError as exc:
                    diags.append(warning("kb-values-unavailable", f"Could not read the values of KB "
                                         f"column {table}.{column.name} to check enum values: "
                                         f"{exc.message}.", table, column.name, "enum_values"))
                    found = None
                cache[key] = _flatten(found) if found else None  # no data yet: nothing to compare
        return cache[key]

    for ws in index.spec.worksheets:
        if ws.kind == "kb" or index.worksheets.get(ws.name) is not ws:
            continue
        for f in ws.fields:
            if not (_is_enum(f) and f.enum_values):
                continue
            for kb in kbs:
                column = index.fields(kb.name).get(f.name)
                if column is None:
                    continue
                known = column_values(kb.name, column)
                if known is None:
                    continue
                for value in f.enum_names:
                    if value.strip().casefold() not in known:
                        diags.append(warning(
                            "enum-kb-mismatch",
                            f"Enum value '{value}' of {ws.name}.{f.name} does not occur in KB column "
                            f"{kb.name}.{f.name}, so queries with it find no rows. Use the column's "
                            "spelling.", ws.name, f.name, "enum_values"))
    return diags
