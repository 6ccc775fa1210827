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
from typing import TYPE_CHECKING, Any

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


_WANTS = re.compile(r"\b(?:i'?d\s+like|i\s+would\s+like|i\s+want|we\s+want|i\s+need|we\s+need|can\s+(?:i|we|you)|"
                    r"could\s+(?:i|we|you)|please)\b", re.I)
_VALUE_SHAPED = re.compile(r"\d{3,}|@|\b[A-Za-z]{1,6}-?\d+[A-Za-z]*\b")
"""A reference, an id or an address given in the clause: a value for another field, not the story."""


def _said_on(predicate: str, given: Any) -> bool:
    """The fields a predicate tests are all given in the opening: a card's message waits until a card is asked for
    ("self.add_card == True" with no add_card said), a fault's description does not once the repair is chosen."""
    names = set(re.findall(r"\bself\.(\w+)", predicate)) or set(re.findall(r"\b([a-z_]\w*)\s*(?:==|!=|\bin\b)", predicate))
    return names <= set(given)


def flagged_story(reader: "TurnReader", text: str) -> None:
    """The story an opening tells, for the record it opens when the developer marked that record's one required
    free-text field `free_text` ("What happened, in your own words"): the clauses that tell something, without the
    greeting, the request for the task, the clauses that give references or numbers, and those made only of the
    task's own words ("I was overcharged", an example of the task). An optional free-text field ("anything else we should know") asks
    for more than the opening said, and is asked."""
    if not reader.lines or reader.expect is not None or is_question(text):
        return
    slots = [(i, line, span, args, ws, texts[0]) for i, line, span, args, ws, given in _constructed(reader)
             for texts in [[f for f in ws.fields if f.kind == "input" and f.name not in given and f.type == "str"
                            and f.free_text and f.required and not f.dont_ask
                            and _said_on(f.predicate, given)]] if len(texts) == 1]
    if len(slots) != 1:
        return
    i, line, span, args, ws, f = slots[0]
    from ..opening.task_texts import opener_stems, task_text_stems  # late: the opening modules import parts
    from ..words.match import HEDGES, content_stems
    own = opener_stems(reader, ws) | task_text_stems(reader, ws) | set(content_stems(
        f"{ws.name} {ws.description}")) | HEDGES
    kept = []
    for sentence in sentences(_GREETING.sub("", text)):
        for clause in re.split(r"\s*(?:;|,(?!\d{3}\b))\s*", sentence.strip(" .!")):  # "£1,850" is one amount
            words = clause.split()
            if len(words) < 3 or plea(clause) or request_only(clause) or _WANTS.search(clause) or \
                    _VALUE_SHAPED.search(clause) or not set(content_stems(clause)) - own:
                continue
            kept.append(clause)
    told = ", ".join(kept)
    if len(told.split()) < 5:
        return
    _replace(reader, i, line, _with_value(line, span, args, f.name, told), "story-in-opening", told, ws.name, f.name,
             reason="the story the opening tells, for the record's free-text field")
