"""A name given before, put right: "sorry, put Samantha Lowe, that's what's on the account", "actually put Jon Price",
"oops, I typed my name wrong, it's Olufunmilayo Adebayo", "sorry, it'll be under Jonathan Pryce".

When nothing else in the turn was read, the turn says it puts something right ("sorry", "actually", "oops",
"wrong", "instead", "on the account", "rather") and gives one person's name after "put", "under", "make it",
"change it to", "should be" or "it's", the one person-name field that already holds a value takes the new name.
Two filled name fields, or a name equal to the one held: nothing changes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .given_name import _name_at, person_name_field

if TYPE_CHECKING:
    from ..parser import TurnReader

_PUT_RIGHT = re.compile(r"\b(?:sorry|actually|oops|whoops|wrong|mistake|typo|instead|rather|on\s+the\s+(?:account|card|"
                        r"booking)|should\s+(?:be|have\s+been)|meant)\b", re.I)
_LEAD = re.compile(r"\b(?:put|under|make\s+it|change\s+(?:it|that|my\s+name)\s+to|should\s+be|it'?s|its|it\s+is|"
                   r"it'?ll\s+be(?:\s+under)?|name\s+is|name'?s)\s+(?:the\s+name\s+)?", re.I)


def name_corrected(reader: "TurnReader", text: str) -> None:
    if reader.lines or not _PUT_RIGHT.search(text):
        return
    filled = [(rec, f) for rec in reader.view.live_records() for f in reader.view.input_fields(rec)
              if reader.view.kind_of(f) == "str" and person_name_field(f) and not reader.view.unfilled(rec, f)]
    if len(filled) != 1:
        return
    rec, f = filled[0]
    names = set()
    for m in _LEAD.finditer(text):
        name = _name_at(reader, text[m.end():], capitalised=not text.islower())
        if name and len(name.split()) >= 2:
            names.add(name.title() if name.islower() else name)
    if len(names) != 1:
        return
    name = names.pop()
    if str(rec.values.get(f.name) or "").lower() == name.lower():
        return
    reader.rules = [r for r in reader.rules if r["rule"] != "no-match"]  # understood after all
    reader.assign("name-corrected", name, rec, f, name, reason="a name given before, put right")
