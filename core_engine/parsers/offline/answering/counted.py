"""What a count counts: "3 packs of Apoquel" gives the count field (its words say "packs") the number and the
thing counted ("Apoquel") to the worksheet's one text field that says what is ordered.

The thing goes only to an unfilled short text field that is not a name, code, email, phone, address or date of
someone (slots.shape and the field's words), and only when there is exactly one such field; the count's unit must be
a word of the count field's own name or description, so "3 of us" or "2 nights in March" are not read here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....spec.model import Worksheet
from .slots import shape
from ..opening.tasks import literal
from ..words.answers import said_none
from ..words.match import field_stems, stem

if TYPE_CHECKING:
    from ..parser import TurnReader

_COUNT_OF = re.compile(r"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple|a\s+few)\s+"
                       r"(?P<unit>[a-z]+)\s+of\s+(?:the\s+)?(?P<thing>[A-Za-z][\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,2})", re.I)


def counted_thing(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    m = _COUNT_OF.search(text)
    if m is None:
        return None
    unit = stem(m.group("unit").lower())
    counts = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "int" and unit in field_stems(f)]
    things = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "str" and f.name not in kwargs
              and shape(f) == "short" and "name" not in f.name.lower().split("_") and not _about_place_or_contact(f)]
    if len(counts) != 1 or len(things) != 1:
        return None
    thing = m.group("thing")
    kwargs[things[0].name] = literal(thing)
    reader.note("counted-thing", m.group(0), field=things[0].name, count_field=counts[0].name)
    return thing


def _about_place_or_contact(f) -> bool:
    words = set(f.name.lower().split("_")) | set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & {"address", "street", "phone", "mobile", "email", "where", "when", "colour", "color"})


_NO_CLAUSE = re.compile(r"\b(?:no|zero|without(?:\s+any)?)\s+[a-z-]+", re.I)


def zero_counts(reader: "TurnReader", text: str, rec: object, asked_name: str) -> None:
    """ "me and my partner, no kids" to "how many adults?": 2 adults, and 0 children for the record's unfilled
    count of children (the words after "no" name that field or its kind, as `said_none` reads them)."""
    for m in _NO_CLAUSE.finditer(text):
        for f in reader.view.input_fields(rec):  # type: ignore[arg-type]
            if f.name != asked_name and reader.view.kind_of(f) == "int" and reader.view.unfilled(rec, f) \
                    and said_none(f, m.group(0)):
                reader.assign("extra-value", m.group(0), rec, f, 0, how="no ... (zero)")  # type: ignore[arg-type]
