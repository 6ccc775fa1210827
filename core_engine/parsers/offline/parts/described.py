"""Several short text fields of one record told in one sentence, each part led by words of its own field's
name or description ("mother's maiden name is Walsh and my first pet was a cat named Pepper", to the first of
two security questions: Walsh to the one about the maiden name, Pepper to the one about the pet).

A part reads "<label> is|was|: <value>" or "<label> ... named|called <value>". Its label must name one field
more strongly than any other (`field_mention`: name words 2, description words 1), every part a different
unfilled field of the record asked (or the asked field itself), the value at most four words. When a part
cannot be placed, nothing is read from the parts: a wrong value is worse than none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field
from ..answering.slots import shape
from ..words.match import Bag, field_mention

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ..parser import TurnReader

_SPLIT = re.compile(r"\s*(?:[;,]\s*(?:and\s+)?|\band\s+(?=(?:my|the|his|her|our|their|your)\b))", re.I)
_NAMED = re.compile(r"^(?P<label>.*?)\b(?:named|called)\s+(?P<value>.+)$", re.I)
_COPULA = re.compile(r"^(?P<label>.*?)\s+(?:is|was|=|:)\s+(?P<value>.+)$", re.I)
_MAX_VALUE_WORDS = 4


def _split_part(part: str) -> tuple[str, str] | None:
    """(label, value) of "my first pet was a cat named Pepper" -> ("my first pet was a cat", "Pepper")."""
    m = _NAMED.match(part) or _COPULA.match(part)
    if m is None:
        return None
    value = m.group("value").strip(" .!?\"'")
    label = m.group("label").strip()
    if not label or not value or len(value.split()) > _MAX_VALUE_WORDS:
        return None
    return label, value


def described_parts(reader: "TurnReader", text: str, rec: "TaskRecord", asked: Field) -> list[tuple[Field, Any, str]]:
    """(field, value, words) for each part of the turn, or [] unless two or more parts all find their field."""
    view = reader.view
    fields = [g for g in view.input_fields(rec) if view.kind_of(g) == "str" and shape(g) in ("short", "name")
              and (g.name == asked.name or view.unfilled(rec, g))]
    if len(fields) < 2:
        return []
    parts = [p.strip(" .!?") for p in _SPLIT.split(text) if p.strip(" .!?")]
    if len(parts) < 2:
        return []
    out: list[tuple[Field, Any, str]] = []
    for part in parts:
        split = _split_part(part)
        if split is None:
            return []
        label, value = split
        bag = Bag.of(label)
        scored = sorted(((field_mention(g, bag)[0], g) for g in fields), key=lambda sg: -sg[0])
        if scored[0][0] <= 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            return []  # the label names no field, or two equally
        out.append((scored[0][1], value, part))
    names = [f.name for f, _v, _p in out]
    if len(set(names)) != len(names) or asked.name not in names:
        return []
    return out
