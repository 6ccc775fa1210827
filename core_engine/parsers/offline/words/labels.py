"""A word that labels a code or number ("room 412", "order 5521", "table #7") names that value, not a task.

"the shower in room 412 has no hot water" to a hotel desk whose tasks are Book Room and Report Problem: "room"
there is the label of the room number (a field named `room_number`), and reading it as the task's word opens a
room booking. A word is a label when a code-shaped field of the spec has it in its name (`room_number`,
`order_id`) and the word is followed at once by a number or code; such words are masked before the task
is read from the words (the value itself is still read from the whole text).
"""

from __future__ import annotations

import re

from ....spec.model import Spec
from .match import stem

_LABELLED = re.compile(r"\b(?P<word>[A-Za-z]+)\s+(?:(?:no\.?|number|#)\s*)?#?(?P<value>[A-Za-z]{0,3}-?\d[\w-]*)\b")
_CODE_NAME_WORDS = frozenset({"number", "id", "code", "ref", "reference", "no"})


def label_words(spec: Spec) -> frozenset[str]:
    """Stems of the words that name code fields: `room_number` -> "room" (not "number" itself)."""
    out = set()
    for ws in spec.worksheets:
        if ws.kind == "kb":
            continue
        for f in ws.fields:
            words = [w for w in f.name.lower().split("_") if w]
            if f.kind == "input" and str(f.type) in ("str", "int") and len(words) > 1 and words[-1] in _CODE_NAME_WORDS:
                out |= {stem(w) for w in words[:-1] if w not in _CODE_NAME_WORDS and len(w) >= 3}
    return frozenset(out)


def mask_labels(text: str, spec: Spec) -> str:
    """`text` with every label word of a code field that is followed by its value blanked out."""
    labels = label_words(spec)
    if not labels:
        return text
    return _LABELLED.sub(lambda m: (" " * len(m.group("word")) + m.group(0)[len(m.group("word")):])
                         if stem(m.group("word").lower()) in labels else m.group(0), text)
