"""Where the user is, told in an opening: "I'm on the hard shoulder of the M5 just past junction 19".

A record the opening builds may have a text field for a place that is not a postal address: its name says
"location" or "place", or its description asks where ("Where the car is right now, such as a road, a town or a
postcode"). The phrase after "I'm / we're / stuck / parked" + "at / on / in / outside / near", or after "at" in a
clause that tells something happening there ("... driven into the back of me at the roundabout on Bath Road"), up to
the end of its clause, is that field's value: one such field, one such phrase, not read already by another rule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..answering.slots import shape
from .proper_names import _constructor_slot, _replace, _with_value, _without_queries

if TYPE_CHECKING:
    from ....spec.model import Field
    from ..parser import TurnReader

_AT = re.compile(r"\b(?:(?:i'?m|i\s+am|we'?re|we\s+are|i'?ve\s+been|stuck|parked|broken\s+down|stopped|sat|sitting|"
                 r"waiting)\s+(?:just\s+|currently\s+|now\s+)?(?:at|on|in|outside|near|by)|"
                 r"(?:me|us|it)\s+(?:at|on)(?=\s+the\b))\s+(?P<place>(?:the|a|an)\s+[^.;!?]{2,80}?)"
                 r"(?=\s*(?:[.;!?]|,\s*(?:and|but|so|the|it|it'?s|its|i|i'?m|we|we'?re|can|could|please|my|our|his|"
                 r"her|their|he|she|they|you|there|no|not|just|about|around|for|with)\b|\s+(?:and|but|so)\s+|$))", re.I)
_NOT_A_PLACE = re.compile(r"(?:the|a|an)\s+(?:(?:end|middle|process|midst|mood|habit|dark|loop|way|course|hands|"
                          r"middle|position|state|business|market|queue|hospital\s+bed)\s+of\b|(?:aa|rac|army|navy|"
                          r"habit|mood|process|loop|dark|know|wrong|right|same\s+boat|hospital|trouble)\b|"
                          r"[^,]*\b(?:my|your)\s+(?:tether|mind|head|way))", re.I)
"""Phrases after "I'm in/at" that are no place: "the end of my tether", "the process of moving", "the AA"."""
_PLACE_WORDS = re.compile(r"\b(?:location|place|whereabouts)\b", re.I)
_WHERE = re.compile(r"^\s*where\b", re.I)


def place_field(f: "Field") -> bool:
    """A text field for a place that is not a postal address (see the module docstring)."""
    if f.type != "str" or shape(f) not in ("text", "short"):
        return False
    name = f.name.replace("_", " ")
    return bool(_PLACE_WORDS.search(name) or _WHERE.match(f.description or "")) and "address" not in name


def place_in_opening(reader: "TurnReader", text: str) -> None:
    """Fill the one place field of a record the opening builds with the one place phrase the turn says."""
    if not reader.lines:
        return
    found = [m.group("place").strip() for m in _AT.finditer(text) if not _NOT_A_PLACE.match(m.group("place"))]
    if len(found) != 1 or any(found[0] in _without_queries(line) for line in reader.lines):
        return
    slot = _constructor_slot(reader, place_field)
    if slot is None:
        return
    i, line, span, args, ws, f = slot
    _replace(reader, i, line, _with_value(line, span, args, f.name, found[0]), "place-in-opening", found[0], ws.name,
             f.name, reason="where the user is, told in the opening")
