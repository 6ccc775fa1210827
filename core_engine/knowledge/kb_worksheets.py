"""Deriving worksheets from a knowledge-base table: the `kb` schema and a `type` for its rows.

Column types map to field types; a short text column with few distinct values
becomes an Enum with those values; free-text columns are flagged, and left out
of the row type (reviews are searched, not shown as fields of a Restaurant).
"""

from __future__ import annotations

from typing import Any, Callable

from .kb import TableInfo
from ..spec.model import EnumValue, Field, Worksheet

FIELD_TYPES = {"int": "int", "float": "float", "bool": "bool", "date": "date", "text": "str", "list": "List[str]"}
ENUM_MAX_VALUES = 12


def derive_worksheets(table: TableInfo, *, type_name: str | None = None,
                      distinct: Callable[[str], list[Any]] | None = None,
                      enum_max: int = ENUM_MAX_VALUES) -> tuple[Worksheet, Worksheet | None]:
    """The `kb` worksheet for `table`, and a `type` worksheet named `type_name` if given."""
    fields = []
    for col in table.columns:
        ftype = FIELD_TYPES.get(col.type, "str")
        enum: list[EnumValue] = []
        if ftype == "str" and not col.free_text and distinct is not None:
            values = [v for v in distinct(col.name) if isinstance(v, str) and v]
            if 1 < len(values) <= enum_max and len(values) < max(2, table.row_count // 2):
                ftype, enum = "Enum", [EnumValue(value=v) for v in sorted(values)]
        fields.append(Field(name=col.name, type=ftype, enum_values=enum, free_text=col.free_text,
                            description=col.name.replace("_", " ").capitalize(),
                            primary_key=col.name in ("id", f"{table.name.rstrip('s')}_id")))
    kb = Worksheet(name=table.name, kind="kb", description=f"The {table.name} table", fields=fields)
    row_type = None
    if type_name:
        row_type = Worksheet(name=type_name, kind="type", description=f"A row of {table.name}",
                             fields=[f.model_copy() for f in fields if not (f.free_text and f.type.startswith("List"))])
    return kb, row_type
