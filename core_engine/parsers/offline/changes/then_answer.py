"""A correction of one field, then the answer to the question asked, in one turn: "sorry, Joanna Baker,
that's the name on my card. number is 07700 900123" to "your phone number?" after "Jo Baker". The correction rules
read the first part and used to end the turn there, so the answer was lost and asked again.

The words the corrections did not use are read as the answer to the question asked, only for a field whose value
has a shape that cannot be mistaken for the corrected words: a number, a date, a time, or a code, phone or e-mail
address (a text or name field would take any words left over).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import REFUSAL

if TYPE_CHECKING:
    from ..parser import TurnReader

_SHAPED = ("code", "phone", "email")


def answer_after_correction(reader: "TurnReader", text: str, made: list[dict[str, Any]]) -> None:
    """`made`: the rule entries of the corrections just read from `text`."""
    from ..answering.slots import shape  # late: slots imports the word helpers

    e = reader.expect
    if e is None or e.act != "ask" or reader.answered or not made:
        return
    target = f"{e.rec.var}.{e.field.name} ="
    if any((r.get("statement") or "").startswith(target) for r in reader.rules):
        return  # the correction was of the field asked
    kind = reader.view.kind_of(e.field)
    if not (kind in ("int", "float", "date", "time") or (kind == "str" and shape(e.field) in _SHAPED)):
        return
    rest = text
    for r in made:
        words = (r.get("matched") or "").strip()
        at = rest.lower().find(words.lower()) if words else -1
        if at >= 0:
            rest = rest[:at] + " " + rest[at + len(words):]
    if not re.search(r"\d|@", rest):
        return
    value = reader.value_for(e.field, rest)
    if value is None or value == REFUSAL:
        return
    reader.assign("answer-to-ask", reader.answers.matched, e.rec, e.field, value, after="a correction")
    reader.answered = True
