"""A question answered by saying the thing it asks about was never done: "oh right, no I haven't sent anything"
to "the code of the photos you sent us", "we never called the police" to "the harbour police incident number".

The user refuses the field without a refusal's words ("I don't know", "I'd rather not"): a first-person negation
("haven't", "didn't", "not ... yet", "never") in the same sentence as a word of the field's own name or description.
Read only for a code or short text field asked, when the turn holds no code, number or reference of its own (a
value said beside the negation is the answer, not a refusal) and is no question; the field takes "NA".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....spec.model import REFUSAL
from ..intents import is_question, sentences, waiting
from ..words.match import content_stems, field_stems, same_word

if TYPE_CHECKING:
    from ..parser import TurnReader

_NOT_DONE = re.compile(r"\b(?:haven'?t|have\s+not|hasn'?t|has\s+not|didn'?t|did\s+not|never|not(?=\s+(?:\w+\s+){0,3}"
                       r"yet\b)|not\s+(?:been|got|had|taken|done|made|given))\b", re.I)
"""A negation of something done: "haven't", "didn't", "never", "not taken any yet", "not been given one"."""


def not_done_refusal(reader: "TurnReader", text: str) -> bool:
    """Refuse the field asked when the turn says its thing was never done (module docstring)."""
    from .slots import code_value, shape  # late: slots imports the parser's helpers
    from .references import shaped_reference

    e = reader.expect
    if e is None or e.act != "ask" or reader.answered or reader.view.kind_of(e.field) != "str" \
            or shape(e.field) not in ("code", "short"):
        return False
    if is_question(text) or waiting(text) or re.search(r"\d", text) or shaped_reference(e.field, text) \
            or code_value(text) is not None:
        return False
    own = field_stems(e.field)
    for sentence in sentences(text):
        neg = _NOT_DONE.search(sentence)
        if neg is None:
            continue
        said = [s for s in content_stems(sentence) if any(same_word(s, w) for w in own)]
        if said:
            reader.assign("refusal", neg.group(0), e.rec, e.field, REFUSAL, how="not done",
                          reason=f"says the {said[0]} was never done: nothing to give")
            reader.answered = True
            return True
    return False
