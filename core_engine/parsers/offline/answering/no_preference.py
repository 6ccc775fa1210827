"""No preference said for the option or KB row asked: "dont mind who", "doesn't matter, anyone is fine",
"whichever", "whenever, we're both in all day". An option of the field that says as much ("Any Time", "Anyone", "No Preference") is chosen; else an
optional field is declined ("NA"). A required field with no such option is left to be asked again, and a
criterion said with it ("whoever's cheapest") is a search, read elsewhere: every clause must be a don't-care.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....spec.model import REFUSAL

if TYPE_CHECKING:
    from ..parser import TurnReader

_DONT_CARE = re.compile(
    r"(?:(?:oh|um+|erm|hmm+|well|honestly|tbh|ok(?:ay)?|no|nah|really|i\s+guess|to\s+be\s+honest|then|thanks)\s+)*"
    r"(?:i\s+(?:really\s+|honestly\s+|genuinely\s+|truly\s+)?)?(?:(?:do\s*n'?t|dont|do\s+not)\s+(?:mind|care)(?:\s+(?:who|which|what|when|really|at\s+all|either\s+way))*|"
    r"(?:it\s+)?(?:does\s*n'?t|doesnt|does\s+not)\s+matter(?:\s+(?:who|which|what|really|to\s+me))*|"
    r"no\s+(?:real\s+)?preference|(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?not\s+(?:fussed|bothered|fussy|picky)"
    r"(?:\s+(?:who|which|really))*|"
    r"(?:any(?:one|body|thing)?|either(?:\s+one)?)(?:'s|\s+is|\s+will\s+do|\s+would\s+be)?(?:\s+(?:fine|ok|okay|good|great))?|"
    r"who(?:m)?ever|whichever|whatever|whenever(?:\s+(?:suits(?:\s+you)?|works|is\s+(?:fine|good|easiest)))?|"
    r"any\s*time(?:\s+(?:is\s+fine|works|suits))?|(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:both\s+|all\s+)?"
    r"(?:in|home|at\s+home|around|about|free|flexible|easy)(?:\s+all\s+day)?|up\s+to\s+you|surprise\s+me|any\s+of\s+them|happy\s+with\s+any(?:one)?|"
    r"open\s+to\s+anything)"
    r"(?:\s+(?:really|honestly|tbh|thanks|then|is\s+fine|to\s+be\s+honest))*", re.I)
_ANY_OPTION = re.compile(r"^(?:any(?:one|body|\s+\w+)?|no\s+preference|either|whoever'?s?\s+free|first\s+available)$",
                         re.I)


def no_preference(reader: "TurnReader") -> bool:
    e = reader.expect
    if e is None or e.act != "ask":
        return False
    kind = reader.view.kind_of(e.field)
    if kind not in ("row", "Enum"):
        return False
    if kind == "Enum" and any(v.value.lower() == reader.text.strip(" .!?").lower() for v in e.field.enum_values):
        return False  # "either" to a field with an Either option: the option itself, read as one
    clauses = [c.strip() for c in re.split(r"[,.;!?]+|\s+-\s+", reader.text) if c.strip()]
    if not clauses or not all(_DONT_CARE.fullmatch(c) for c in clauses):
        return False
    options = [v.value for v in e.field.enum_values if _ANY_OPTION.match(v.value.strip())] if kind == "Enum" else []
    if len(options) == 1:
        reader.assign("no-preference", reader.text, e.rec, e.field, options[0],
                      reason="no preference said: the option that says as much")
        return True
    if e.field.required or options:
        return False
    reader.assign("no-preference", reader.text, e.rec, e.field, REFUSAL,
                  reason="no preference said for an optional choice: declined")
    return True
