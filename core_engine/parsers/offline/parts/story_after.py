"""The rest of an answer told as a sentence of its own, for the one free-text field still open: "Chris Palmer. found
a cheaper cleaner to be honest" to "the name on the booking?" gives the name and the reason. Left unread, the agent
asks for the reason next and the user, who has given it, answers something else.

Only when the asked value was read from the first sentence, the rest is a statement of three words or more (no
question, no thanks), no other value of the turn came from it, and the record has exactly one unfilled free-text
field other than the one asked.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..answering.slots import shape
from ..intents import chit_chat, is_question, sentences

if TYPE_CHECKING:
    from ..parser import Expect, TurnReader

_TRAILING_HEDGE = re.compile(r"[\s,]*(?:to\s+be\s+honest|tbh|if\s+i'?m\s+honest|really|i'?m\s+afraid|sadly|"
                             r"unfortunately|i\s+guess)[\s.!]*$", re.I)


_ABOUT_THE_CALL = re.compile(r"\b(?:calling|ringing|phoning|texting|messaging|line|phone|mobile|number|email|"
                             r"signal|booking\s+(?:is|was)|(?:made|booked|arranged)\s+(?:the|it|this|that)|on\s+behalf)\b|^(?:i'?m|i\s+am)\s+the\b|"
                             r"^(?:sorry|apologies)\b", re.I)
"""A sentence about the call or the caller ("I'm calling from my work phone", "my husband made the booking"), not a
reason."""


def story_after(reader: "TurnReader", text: str, e: "Expect", value: str) -> None:
    parts = sentences(text)
    if len(parts) != 2 or value.lower() not in parts[0].lower() or value.lower() in parts[1].lower():
        return
    rest = parts[1].strip(" .!")
    if len(rest.split()) < 3 or is_question(rest) or chit_chat(rest, after_answer=True) or re.search(r"\d", rest) \
            or _ABOUT_THE_CALL.search(rest):
        return  # "I'm calling from my work phone", "sorry, bit of a noisy line": about the call, no reason
    if any(st.get("statement") and st.get("rule") != "answer-to-ask" for st in reader.rules):
        return  # another value came from the turn: the rest may be its words
    texts = [f for f in reader.view.input_fields(e.rec) if f.name != e.field.name
             and reader.view.kind_of(f) == "str" and shape(f) == "text" and reader.view.unfilled(e.rec, f)]
    if len(texts) != 1:
        return
    story = _TRAILING_HEDGE.sub("", rest).strip(" ,.")
    if story:
        reader.assign("story-after-answer", rest, e.rec, texts[0], story)
