"""A further item taken back while it is being filled: "actually scrap the third, two is plenty", "just the two".

A record opened by a yes/no field (its place in the parent holds a predicate `self.<flag> == True`, and the parent
holds that flag True) is taken back when the turn drops it by the ordinal its place's description gives ("The third
course to take": "scrap the third", "forget the third one") or keeps only the items before it ("just the two", "two
is plenty"): the flag becomes False, and the engine leaves the record. The turn must ask nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ..words.measures.ordinals import _ORDINAL_WORDS

if TYPE_CHECKING:
    from ..parser import TurnReader

_COUNT_WORDS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten".split(), start=1)}
_DROP = r"(?:scrap|drop|forget(?:\s+about)?|cancel|skip|remove|ditch|lose|leave\s+out|leave\s+off|never\s*mind|" \
        r"don'?t\s+(?:want|need)|do\s+not\s+(?:want|need)|no\s+(?:need\s+for|to))"


def _flag_of(reader: "TurnReader", rec: TaskRecord) -> tuple[TaskRecord, str, int] | None:
    """(parent record, the yes/no field that opened `rec`, the ordinal of `rec`'s place) or None."""
    parent = reader.state.get(rec.parent or "")
    if not isinstance(parent, TaskRecord) or not rec.parent_field:
        return None
    place = reader.view.worksheet(parent).field(rec.parent_field)
    m = re.fullmatch(r"\s*self\.(\w+)\s*==\s*True\s*", (place.predicate or "") if place else "")
    if m is None or parent.values.get(m.group(1)) is not True:
        return None
    ordinals = [n for w, n in _ORDINAL_WORDS.items() if re.search(rf"\b{w}\b", place.description or "", re.I)]
    return (parent, m.group(1), ordinals[0]) if len(ordinals) == 1 and ordinals[0] >= 2 else None


def item_withdrawn(reader: "TurnReader", text: str) -> bool:
    e = reader.expect
    if e is None or "?" in text:
        return False
    found = _flag_of(reader, e.rec)
    if found is None:
        return False
    parent, flag, nth = found
    ordinal = next(w for w, n in _ORDINAL_WORDS.items() if n == nth)
    keep = [w for w, n in _COUNT_WORDS.items() if n == nth - 1] + [str(nth - 1)]
    keep_words = "|".join(keep)
    counted = reader.view.kind_of(e.field) in ("int", "float")  # "just one" to "how many places?" is the answer
    said = re.search(rf"\b{_DROP}\s+(?:the|that|this)\s+(?:{ordinal}|{nth}(?:st|nd|rd|th)|last|new|extra)\b", text, re.I)
    if said is None and not counted:
        said = re.search(rf"\b(?:just|only)\s+(?:the\s+)?(?:{keep_words})\b(?!\s*(?:more|extra|other))", text, re.I) \
            or re.search(rf"\b(?:{keep_words})\s+(?:is|are|'s|will\s+be|would\s+be)\s+(?:plenty|enough|fine|sufficient)\b",
                         text, re.I)
    if said is None:
        return False
    reader.assign("item-withdrawn", said.group(0), parent, reader.view.worksheet(parent).field(flag), False)
    reader.answered = True
    return True
