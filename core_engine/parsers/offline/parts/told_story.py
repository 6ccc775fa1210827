"""A trouble told in the opening, for the record it opens: "the courier dropped my cake and the box was broken"
opens the complaint and its delivery record (the courier) and says what went wrong; that record's free-text
field for the problem ("A description of the problem or question") takes the words, as a top-level record's does
(`TurnReader._problem`). It was asked again, and the user's next answer went to the wrong field.

Only when the turn tells a trouble (something that does not work, keeps happening, fails or is missing: not "I want
to quit X" alone, a request; with a reason after it, "I want to quit X, I'm over my limit this term", the reason is
the story), the constructed record is nested in another one the turn opens and has exactly one unfilled
free-text field, and the turn asks nothing. A top-level record's story stays `_problem`'s, which reads it only when
the turn holds nothing else (an IT desk's "the vpn won't connect since this morning" opens the ticket with its
category; the agent asks what happened).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..answering.slots import shape
from ..intents import is_question, plea, request_only, sentences
from .proper_names import _constructed, _replace, _with_value

if TYPE_CHECKING:
    from ..parser import TurnReader

_TROUBLE = re.compile(r"\b(?:won'?t|doesn'?t|does\s+not|didn'?t|isn'?t|can'?t|cannot|couldn'?t|wouldn'?t|never|"
                      r"keeps?|kept|fail(?:s|ed|ing)?|error|broken|stuck|missing|wrong|not\s+working)\b", re.I)
_GREETING = re.compile(r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?[,.!\s]+", re.I)


_WHY = re.compile(r"^(?:i\s+)?(?:really\s+)?(?:need|want|have|got|would\s+like|'d\s+like)\s+to\s+[^,;]+?"
                  r"(?:\s*[,;]\s*(?:because\s+|since\s+|as\s+|cos\s+)?|\s+(?:because|since|as|cos)\s+)(?P<why>[^,;].*)$", re.I)
"""A request, then why ("need to quit GX 210, I'm over my limit this term"): the reason is the story told."""


def story_in_opening(reader: "TurnReader", text: str) -> None:
    if not reader.lines or is_question(text):
        return
    kept = [s for s in sentences(_GREETING.sub("", text)) if not plea(s) and not request_only(s)]
    told = " ".join(kept).strip()
    if not _TROUBLE.search(text):
        why = _WHY.match(told)
        if why is None or len(why.group("why").split()) < 4 or is_question(why.group("why")):
            return
        told = why.group("why").strip(" .!")
    if len(told.split()) < 5:
        return
    slots = [(i, line, span, args, ws, texts[0]) for i, line, span, args, ws, given in _constructed(reader)
             if "(" in line[:span[0] - len(ws.name) - 1]  # nested: a top-level record's story is `_problem`'s
             for texts in [[f for f in ws.fields if f.kind == "input" and f.name not in given and f.type == "str"
                            and shape(f) == "text" and not f.dont_ask]] if len(texts) == 1]
    if len(slots) != 1:
        return
    i, line, span, args, ws, f = slots[0]
    _replace(reader, i, line, _with_value(line, span, args, f.name, told), "story-in-opening", told, ws.name, f.name,
             reason="the trouble the opening tells, for the record it opens")
