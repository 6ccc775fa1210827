"""An "anything else?" field declined before it is asked: "Maya Cohen 07123 456789, nothing else he needs to know".

A record's text field whose description asks for anything else ("Anything the tutor should know", "Any special
instructions") is refused ("NA") by a clause of a longer turn that says there is nothing more ("nothing else to
add", "nothing else to tell the mechanic"), when no other clause says what the field asks for ("the gate code is 4412"), when exactly one such field of the
candidates is open. A turn made only of that clause is the answer to a question, read where questions are answered.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..words.match import Bag, field_stems
from ..words.values import Span

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ....spec.model import Field
    from .slots import Mention, StateView

_ANYTHING_ELSE = re.compile(r"^\W*(?:anything|any\s+(?:other|special|extra|further|more)|other\s+notes|notes\s+for)\b",
                            re.I)
"""The description of a field that collects whatever else the user wants to say."""
_NOTHING_MORE = re.compile(
    r"^(?:(?:and|but|oh|also|plus)\s+)*(?:there'?s\s+|there\s+is\s+|i'?ve\s+got\s+|i\s+have\s+)?nothing\s+"
    r"(?:else|more|further)\s*"
    r"(?:to\s+(?:add|say|mention|tell|report|note)\b.*|(?:that\s+)?(?:he|she|they|you|we|the\s+\w+)\s+needs?\s+to\s+know.*|"
    r"for\s+(?:the|him|her|them)\b.*)?$", re.I)
_CLAUSES = re.compile(r"\s*[,;.!]\s*")


def nothing_more(text: str, candidates: list[tuple["TaskRecord", "Field"]], view: "StateView",
                 used: set[tuple[str, str]]) -> list["Mention"]:
    from .slots import Mention  # late: slots imports this module

    clauses = [c.strip() for c in _CLAUSES.split(text) if c and c.strip()]
    if len(clauses) < 2 or "?" in text:
        return []
    said = next((c for c in clauses if _NOTHING_MORE.match(c)), None)
    if said is None:
        return []
    fields = [(r, f) for r, f in candidates if view.kind_of(f) == "str" and (r.var, f.name) not in used
              and _ANYTHING_ELSE.match(f.description or "")]
    if len(fields) != 1:
        return []
    rec, f = fields[0]
    if any(Bag.of(c).hits(field_stems(f) - set(field_stems(f, with_description=False))) for c in clauses if c is not said):
        return []  # "the gate code is 4412, nothing else to add": the other clauses give what the field asks for
    at = text.find(said)
    used.add((rec.var, f.name))
    return [Mention(rec, f, "NA", said, "nothing more to say", Span("NA", at, at + len(said), said) if at >= 0 else None)]
