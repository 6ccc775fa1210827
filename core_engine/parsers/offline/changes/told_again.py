"""A part of a story put right: "it was the harbour launch I was waiting for, not the ferry" while the record's
free-text field holds "... and I was waiting for the ferry".

The words after "not" are found, as said, in exactly one filled free-text value of the live records; the words
before it (without "it was" and without the words that already lead up to the old part in the story, "I was
waiting for") take their place. Nothing when the old words are in no story or in several.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..answering.slots import shape

if TYPE_CHECKING:
    from ..parser import TurnReader

_SAID = re.compile(r"^\W*(?:(?:wait|sorry|oh|oops|no|actually|hmm+|ah)\b[\s,.!]*)*(?:(?:it\s+was|it'?s|it\s+is|that\s+was)\s+)?(?P<new>.+?)[\s,;]+not\s+(?P<old>[^,.;!?]+?)"
                   r"[\s.!]*$", re.I)


def story_told_again(reader: "TurnReader", text: str) -> bool:
    found = told_again(reader, text)
    if found is None:
        return False
    rec, f, changed, value = found
    reader.assign("story-told-again", text, rec, f, changed, was=value)
    reader.answered = True
    return True


def told_again(reader: "TurnReader", text: str):
    """(record, field, new value, old value) of the story the turn puts right, or None."""
    m = _SAID.match(text.strip())
    if m is None:
        return None
    new, old = m.group("new").strip(" ,-"), m.group("old").strip()
    if len(old.split()) > 6 or not new:
        return None
    pattern = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)", re.I)
    holders = [(r, f) for r in reader.view.live_records() for f in reader.view.input_fields(r)
               if reader.view.kind_of(f) == "str" and shape(f) == "text"
               and isinstance(v := r.values.get(f.name), str) and len(pattern.findall(v)) == 1]
    if len(holders) != 1:
        return None
    rec, f = holders[0]
    value = rec.values[f.name]
    at = pattern.search(value)
    lead = value[:at.start()].split()
    new = re.split(r"\s+(?:that|who|which)\s+", new, maxsplit=1)[0]  # "the harbour office that charged me"
    words = new.split()
    said = " " + " ".join(value.lower().split()) + " "
    for n in range(len(words) - 1, 0, -1):  # "... launch I was waiting for": words the story already has
        if (n >= 2 or [w.lower() for w in words[-n:]] == [w.lower() for w in lead[-n:]]) and \
                f" {' '.join(words[-n:]).lower()} " in said:
            words = words[:-n]
            break
    return rec, f, value[:at.start()] + " ".join(words) + value[at.end():], value
