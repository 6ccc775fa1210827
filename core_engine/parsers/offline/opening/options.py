"""An opening that tells what is wrong ("my dog has been throwing up since yesterday") also chooses the option of
the opened task's other enum fields that it means ("Illness: the pet seems unwell: sick, ..."), by meaning.

The turn is read without its short comma clauses; only when one option clearly wins (score and margin below, set on the session-7 held-out agents: the readings
taken score 0.40-0.53 with margins of 0.14 or more; "I'm locked out of my account" scores 0.35 for an urgency option, not taken); otherwise the field is
asked, since a wrong value is worse than none. The score and runner-up are in the trace.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....spec.model import Worksheet
from .task_texts import task_text_stems
from .tasks import BOOKING_WORDS, literal, task_words
from ..words.match import HEDGES, content_stems
from ..words.semantic_index import clean

if TYPE_CHECKING:
    from ..parser import TurnReader

OPTION_SCORE = 0.38
OPTION_MARGIN = 0.12


def options_by_meaning(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """Fill `kwargs` with the clearly meant option of each unset enum field of `ws`; return the words read."""
    fields = [f for f in ws.fields if f.kind == "input" and not f.dont_ask and reader.view.kind_of(f) == "Enum"
              and f.name not in kwargs and f.enum_values]
    told = set(content_stems(text)) - HEDGES - BOOKING_WORDS - task_words(ws) - task_text_stems(reader, ws)
    if not fields or len(told) < 2:
        return None  # "hi, I'd like to book a room please" names the task and tells nothing more
    if any(line.startswith("exitws(") for line in reader.lines):
        return None  # a change of task ("forget the appointment, I'd rather reorder her tablets") tells no story
    kept = [c for c in re.split(r"[,;]", text) if len(c.split()) >= 3]  # ", he's 9": another value, not the story
    said = clean(", ".join(kept) or text)
    for f in fields:
        ranked = reader.view.index().rank(said, lambda e: e.kind == "enum" and e.worksheet == ws.name
                                          and e.field == f.name)
        if ranked.best is None or not ranked.decided(OPTION_SCORE, OPTION_MARGIN):
            continue  # nothing clear: the field is asked
        kwargs[f.name] = literal(ranked.best.value)
        reader.note("option-by-meaning", text, field=f.name, **ranked.trace())
    return None
