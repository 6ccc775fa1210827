"""Several items with their own options in the turn that opens the list ("X (letter, 5 units) and Y for
credit, 3 units, and Z"): one item per code, each with the options of its own piece of the turn, in the
list's slots in order; a slot gated by a yes/no of the list ("self.more_items == True") gets that yes/no."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field, Worksheet
from ..words.values import find_codes
from .records import literal_value, slot_gates

if TYPE_CHECKING:
    from ..parser import TurnReader


def list_parts(reader: "TurnReader", ws: Worksheet, first: Field, item_ws: Worksheet, name: Field, text: str,
               codes: list[str]) -> list[str]:
    """`slot=Item(name=..., options...)` keyword texts (and `gate=True`) for the codes said, in slot order."""
    from ..kb_rows.items import item_options, pieces_at, shared_options

    spans = find_codes(text)
    exact = len(spans) == len(codes)
    pieces = pieces_at(text, [c.start for c in spans]) if exact else [""] * len(codes)
    said = [c.text for c in spans] if exact else codes
    shared = shared_options(reader, item_ws, text, {name.name}) or _every(reader, item_ws, text, name)
    names = [f.name for f in ws.fields]
    slots, gates = [first], []
    for f in ws.fields[names.index(first.name) + 1:]:
        if len(slots) >= len(codes):
            break
        if f.kind != "input" or f.type != first.type:
            continue
        need = slot_gates(ws, f)
        if need is None:
            break
        slots.append(f)
        gates += [g for g in need if g not in gates]
    parts = []
    for slot, code, piece, word in zip(slots, codes, pieces, said):
        own = item_options(reader, item_ws, piece.replace(word, " "), {name.name}) if piece else {}
        values = {name.name: code, **shared, **own}
        parts.append(f"{slot.name}={item_ws.name}({', '.join(f'{k}={literal_value(v)}' for k, v in values.items())})")
    return parts + [f"{g}=True" for g in gates]


_ALL = re.compile(r"\b(?:both|all|each|every)\b", re.I)


def _every(reader: "TurnReader", item_ws: Worksheet, text: str, name: Field) -> dict[str, Any]:
    """ "X and Y, both for a letter grade" (no comma before "both"): the options after the last code."""
    from ..kb_rows.items import item_options
    spans = find_codes(text)
    m = _ALL.search(text, spans[-1].end if spans else 0)
    return item_options(reader, item_ws, text[m.start():], {name.name}) if m else {}
