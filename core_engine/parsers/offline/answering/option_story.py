"""An option, then what the matter is, in one turn: "it's not about a delivery, something else - I want to know if I
can get a refund" to "what is the complaint about?". The first part chooses the option; the part after the dash
(or colon, semicolon) tells the issue in the user's words, and the record has one free-text field for that ("A
description of the problem or question"), which the agent would ask next. It was lost and asked again.

Only when the first part alone gives the same option, the second part is a statement of four words or more with
the user as its subject ("I ...", "my ...", "we ...") and no question mark, and the record has exactly one
unfilled free-text field.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...dialogue.state import TaskRecord
    from ...spec.model import Field
    from ..parser import TurnReader

_SPLIT = re.compile(r"\s+[-\u2013\u2014]+\s+|:\s+|;\s+")
_TOLD = re.compile(r"^(?:i|i'm|i've|i'd|my|we|we're|our)\b", re.I)


def story_after_option(reader: "TurnReader", text: str, rec: "TaskRecord", f: "Field") -> None:
    """`rec.f`: the option asked, which the turn's statements set (else nothing is done)."""
    from .slots import shape  # late: slots imports the word helpers
    from ..words.values import free_text

    parts = _SPLIT.split(text, maxsplit=1)
    if len(parts) != 2 or reader.view.kind_of(f) != "Enum":
        return
    said = [line.split(" = ", 1)[1] for line in reader.lines if line.startswith(f"{rec.var}.{f.name} = ")]
    value = said[0].strip('"') if len(said) == 1 and said[0].startswith('"') else None
    if value is None:
        return
    head, tail = parts[0], parts[1].strip()
    if "?" in tail or len(tail.split()) < 4 or not _TOLD.match(tail) or reader.value_for(f, head) != value:
        return
    texts = [g for g in reader.view.input_fields(rec) if g.name != f.name and reader.view.kind_of(g) == "str"
             and shape(g) == "text" and reader.view.unfilled(rec, g)]
    if len(texts) != 1:
        return
    story = free_text(tail)
    if story:
        reader.assign("free-text", tail, rec, texts[0], story, after="the option chosen")
