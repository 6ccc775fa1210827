"""A name said after a noun ("my dog Biscuit") for a name field of a worksheet nested in the task being opened.

`openings._appositive_name` ranks the noun against the opened worksheet's name fields; a task whose subject is a
nested record (a visit's pet, a rental's driver) keeps that subject's name one level down. These helpers list the
name fields of both levels and write a value into the nested record's constructor text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....spec.model import Field, Worksheet, parse_type

if TYPE_CHECKING:
    from ..parser import TurnReader


def name_fields(reader: "TurnReader", ws: Worksheet, kwargs: dict[str, str]) -> list[tuple[str | None, Worksheet, Field]]:
    """(nesting field or None, worksheet, field) of every unfilled str field named "..._name" of `ws` and of the
    task worksheets its fields hold (one level down)."""
    out: list[tuple[str | None, Worksheet, Field]] = [
        (None, ws, f) for f in ws.fields if _is_name(reader, f) and f.name not in kwargs]
    for holder in ws.fields:
        sub = reader.spec.worksheet(parse_type(holder.type).worksheet or "") if holder.kind == "input" else None
        if sub is None or sub.kind != "task" or sub.name == ws.name:
            continue
        said = kwargs.get(holder.name, "")
        out += [(holder.name, sub, f) for f in sub.fields
                if _is_name(reader, f) and not re.search(rf"\b{re.escape(f.name)}=", said)]
    return out


def _is_name(reader: "TurnReader", f: Field) -> bool:
    return f.kind == "input" and reader.view.kind_of(f) == "str" and "name" in f.name.lower().split("_")


def put_nested(kwargs: dict[str, str], holder: str, sub: Worksheet, field: str, value: str) -> None:
    """kwargs[holder] = 'Sub(a=1)' becomes 'Sub(a=1, field=value)' (or 'Sub(field=value)' when it was unset)."""
    said = kwargs.get(holder)
    if not said or not said.startswith(f"{sub.name}(") or not said.endswith(")"):
        kwargs[holder] = f"{sub.name}({field}={value})"
        return
    inner = said[len(sub.name) + 1:-1].strip()
    kwargs[holder] = f"{sub.name}({field}={value}{', ' + inner if inner else ''})"


def nested_enum_fields(reader: "TurnReader", ws: Worksheet, kwargs: dict[str, str]) -> dict[tuple[str, str], str]:
    """(nested worksheet, enum field) -> the nesting field, for the unset enum fields one level down."""
    out: dict[tuple[str, str], str] = {}
    for holder in ws.fields:
        sub = reader.spec.worksheet(parse_type(holder.type).worksheet or "") if holder.kind == "input" else None
        if sub is None or sub.kind != "task" or sub.name == ws.name:
            continue
        said = kwargs.get(holder.name, "")
        for f in sub.fields:
            if f.kind == "input" and reader.view.kind_of(f) == "Enum" and \
                    not re.search(rf"\b{re.escape(f.name)}=", said):
                out[(sub.name, f.name)] = holder.name
    return out
