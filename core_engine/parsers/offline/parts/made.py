"""The make of a thing said beside its colour, in a turn that answers another field of the same record.

"WQ12 ZRT, a green kawasaki ninja" to the registration asked: the colour word goes to the colour field and the
words right after it ("kawasaki ninja") name the thing, so they go to the record's make-and-model field; "Honda
Monkey 125 in yellow" names it before "in <colour>". Only a record that has both a colour field and an unfilled
make field (`is_make_field`: its name or description says make, model, brand ...) is read so, and only a name
of two words or more, or one written with a capital or a digit: a single plain word beside a colour ("a red
one", "a blue car") is a kind of thing, not its make.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..answering.slots import shape
from ..words.answers import is_make_field, make_value
from .colours import find_colours, is_colour_field

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ..parser import TurnReader

_STOP = re.compile(r"[,;.!?()]|\s(?:and|but|with|reg|registration|plate|number|in|it'?s|its|which|that)\b|$", re.I)
_IN_COLOUR = re.compile(r"\s+in\s+$", re.I)
_GENERIC = {"one", "ones", "thing", "colour", "color", "shade", "paint"}
_NOT_NAME = re.compile(r"^(?:a|an|the|my|our|is|was|it|its|it's|i|we|and|or|but|so|in|on|at|with|for|of|to|"
                       r"very|really|quite|pretty|kind|sort|ish|please|thanks?)$", re.I)


def _name_like(words: list[str]) -> bool:
    if not 1 <= len(words) <= 4 or any(_NOT_NAME.match(w) for w in words) or words[-1].lower() in _GENERIC:
        return False
    return len(words) >= 2 or words[0][:1].isupper() or any(c.isdigit() for c in words[0])


def _beside(text: str, start: int, end: int, taken: list[tuple[int, int]]) -> str | None:
    """The words right after the colour (to the next comma, label or taken value), else the words before
    "in <colour>" (back to the last comma)."""
    limits = [s for s, _e in taken if s >= end]
    after = text[end:min(limits)] if limits else text[end:]
    stop = _STOP.search(after)
    words = after[:stop.start()].split() if stop else after.split()
    if _name_like(words):
        return " ".join(words)
    before = text[:start]
    if _IN_COLOUR.search(before):
        head = before[:_IN_COLOUR.search(before).start()]
        ends = [e for _s, e in taken if e <= len(head)]
        head = head[max(ends):] if ends else head
        head = re.split(r"[,;.!?()]", head)[-1]
        words = re.sub(r"^\s*(?:it'?s|its|it\s+is)?\s*(?:an?|the|my|our)?\s+", " ", head, flags=re.I).split()
        if _name_like(words):
            return " ".join(words)
    return None


def make_beside_colour(reader: "TurnReader", text: str, rec: "TaskRecord", taken: list[tuple[int, int]],
                       filled: set[str]) -> bool:
    """Assign the make named beside the turn's one colour word; True when it did. `taken` are the spans of the
    values the turn already gave (the code asked for), `filled` the names of the fields they went to."""
    view = reader.view
    fields = [g for g in view.input_fields(rec) if view.kind_of(g) == "str"]
    tints = [g for g in fields if is_colour_field(g)]
    makes = [g for g in fields if is_make_field(g) and not is_colour_field(g) and shape(g) == "short"
             and g.name not in filled and view.unfilled(rec, g)]
    colours = find_colours(text)
    if len(tints) != 1 or len(makes) != 1 or len(colours) != 1:
        return False
    c = colours[0]
    said = _beside(text, c.start, c.end, [t for t in taken if not (t[0] <= c.start < t[1])])
    value = make_value(said) if said else None
    if not value:
        return False
    reader.assign("make-beside-colour", said, rec, makes[0], value)
    return True
