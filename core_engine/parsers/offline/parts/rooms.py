"""A room, flat or block said after the row it is in: "queens wharf, flat 12 room 3" to "which residence?" is the
residence Queen's Wharf and, for the one open field named by those words (`room_number`), "Flat 12, Room 3". Left in
the search, the words found no row and the room was asked again.

Only a part after a comma, made of label words (flat, room, block, unit, apartment) each with its number or letter,
and only when exactly one open text field of the record has one of those label words in its name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..answering.slots import shape

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ....spec.model import Field
    from ..parser import TurnReader

_LABELS = ("flat", "room", "block", "unit", "apartment", "apt", "floor")
_GROUP = re.compile(r"\b(?P<label>flat|room|block|unit|apartment|apt)(?!s\b)\s*(?:no\.?\s*)?(?P<value>[0-9]+[a-z]?|[a-z]\b|[0-9]*[a-z][0-9]+)",
                    re.I)
_PART = re.compile(r"^(?P<head>[^,]+?)\s*,\s*(?P<tail>(?:(?:its|it's|in|and)\s+)?(?:(?:\d+(?:st|nd|rd|th)\s+floor|"
                   r"(?:flat|room|block|unit|apartment|apt)(?!s\b)\s*(?:no\.?\s*)?(?:[0-9]+[a-z]?|[a-z]\b|[0-9]*[a-z][0-9]+))"
                   r"[\s,]*)+)[.!]?$", re.I)


def room_after_row(reader: "TurnReader", text: str, rec: "TaskRecord", asked: "Field") -> str:
    """`text` without the room part when it went to its field (assigned here), else `text` unchanged."""
    m = _PART.match(text.strip())
    if m is None:
        return text
    groups = list(_GROUP.finditer(m.group("tail")))
    if not groups:
        return text
    said = {g.group("label").lower() for g in groups}
    fields = [f for f in reader.view.input_fields(rec) if f.name != asked.name and reader.view.kind_of(f) == "str"
              and shape(f) != "text" and reader.view.unfilled(rec, f)
              and set(f.name.lower().split("_")) & set(_LABELS) & (said | {"room", "flat"})]
    if len(fields) != 1:
        return text
    value = ", ".join(f"{g.group('label').capitalize()} {g.group('value').upper()}" for g in groups)
    reader.assign("room-after-row", m.group("tail").strip(" ,."), rec, fields[0], value)
    return m.group("head")


def room_fields(fields: list["Field"]) -> list["Field"]:
    """Fields whose name says they hold a room, flat or block ("room_number", "current_room")."""
    return [f for f in fields if set(f.name.lower().split("_")) & {"room", "flat", "block", "unit", "apartment"}]


def room_span(text: str) -> tuple[str, int, int] | None:
    """("Flat 3, Room 12", start, end) for the one run of labelled rooms in `text` ("(flat 3 room 12)", "room 5")."""
    groups = list(_GROUP.finditer(text))
    if not groups:
        return None
    runs: list[list[re.Match[str]]] = [[groups[0]]]
    for g in groups[1:]:
        if re.fullmatch(r"[\s,]*", text[runs[-1][-1].end():g.start()]):
            runs[-1].append(g)
        else:
            runs.append([g])
    if len(runs) != 1:
        return None
    run = runs[0]
    return (", ".join(f"{g.group('label').capitalize()} {g.group('value').upper()}" for g in run),
            run[0].start(), run[-1].end())
