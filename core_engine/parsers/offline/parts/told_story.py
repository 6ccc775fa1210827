"""A trouble told in the opening, for the record it opens: "the courier dropped my cake and the box was broken"
opens the complaint and its delivery record (the courier) and says what went wrong; that record's free-text
field for the problem ("A description of the problem or question") takes the words, as a top-level record's does
(`TurnReader._problem`). It was asked again, and the user's next answer went to the wrong field.

Only when the turn tells a trouble (something that does not work, keeps happening, fails, is missing or is full:
not "I want to quit X" alone, a request; with a reason after it, "I want to quit X, I'm over my limit this term", the
reason is the story), the constructed record is nested in another one the turn opens and has exactly one unfilled
free-text field, and the turn asks nothing but the task itself, at its end ("..., can I get on the waitlist?"). A top-level record's story stays `_problem`'s, which reads it only when
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
                      r"keeps?|kept|fail(?:s|ed|ing)?|error|broken|stuck|missing|wrong|not\s+working|"
                      r"(?:is|are|was|'s)\s+(?:already\s+)?(?:full|closed|blocked))\b", re.I)
_ASKED_LAST = re.compile(r"(?:^|[,.;!?]\s*|\s+(?:so|and)\s+)(?:(?:so|and|but)\s+)?(?:(?:can|could|would|will)\s+(?:i|you|we|u)|"
                         r"how\s+(?:do|can|would)\s+i)\b[^,.;!?]*[?.!]*\s*$", re.I)
"""The request the opening ends with, put as a question ("..., can I get on the waitlist?"): the task it asks for,
which the rest of the turn explains."""
_GREETING = re.compile(r"^(?:(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?|ugh|so|ok(?:ay)?|well|"
                       r"um+|right)(?:[,.!\s]+(?:(?:ugh|so|ok(?:ay)?|well|um+)\b[,.!\s]*)*|$)", re.I)


_WHY = re.compile(r"^(?:i\s+)?(?:really\s+)?(?:need|want|have|got|would\s+like|'d\s+like)\s+to\s+[^,;]+?"
                  r"(?:\s*[,;]\s*(?:because\s+|since\s+|as\s+|cos\s+)?|\s+(?:because|since|as|cos)\s+)(?P<why>[^,;].*)$", re.I)
"""A request, then why ("need to quit GX 210, I'm over my limit this term"): the reason is the story told."""


def story_in_opening(reader: "TurnReader", text: str) -> None:
    if not reader.lines:
        return
    text = _ASKED_LAST.sub("", text).strip()  # "CS 161 is full and I need it to graduate, can I get on the waitlist?"
    if not text or is_question(text):
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


_OWN_WORDS = re.compile(r"\bin\s+(?:your|their|his|her|the\s+\w+'s)\s+own\s+words\b|^\s*(?:what\s+(?:happened|"
                        r"is\s+wrong|went\s+wrong|the\s+problem\s+is)|why\s+you)\b", re.I)
"""A field described as the user's story ("What happened, in your own words", "Why you would like to move"): free
text whether or not the developer marked it so. "What happens" (an IT desk's symptoms) is not: the agent asks for the
symptoms in full after an opening that names the fault."""


def _without_values(clause: str, args: str) -> str:
    """The clause without the values the constructor gave other fields ("flat 2 weavers yard": the room and the
    residence, no story)."""
    for value in re.findall(r'"([^"]{2,80})"', args):
        clause = re.sub(re.escape(value), " ", clause, flags=re.I)
    return re.sub(r"\s+", " ", clause).strip(" ,.!")


def _told_values_only(clause: str, args: str, own: set[str]) -> bool:
    """A clause that holds values the constructor gave and little else: "flat 2 weavers yard" (the room and the
    residence), "my parcel turned up damaged" (the problem type): fewer than three words or two words of its own
    are left without them. Checked for a field only described as the user's story; one the developer marked
    free text takes the clauses as they are ("left on the train into Newcastle on Saturday")."""
    from ..words.match import content_stems  # late: keeps this module's imports light
    rest = _without_values(clause, args)
    if rest == clause.strip(" ,.!"):
        return False
    return len(rest.split()) < 3 or len(set(content_stems(rest)) - own) < 2


def _asks_only_the_task(text: str) -> bool:
    """ "my accordion wheezes when you squeeze it, can you lot fix that?": the only question asks for the task."""
    from ..intents import task_request  # late: intents imports the parts
    asked = [s for s in sentences(text) if is_question(s)]
    return bool(asked) and all(task_request(s) or plea(s) for s in asked)


def flagged_story(reader: "TurnReader", text: str) -> None:
    """The story an opening tells, for the record it opens when that record's one required free-text field is
    marked `free_text` or described as the user's own words ("What happened, in your own words"): the clauses that tell something, without the
    greeting, the request for the task, the clauses that give references or numbers, and those made only of the
    task's own words ("I was overcharged", an example of the task). An optional free-text field ("anything else we should know") asks
    for more than the opening said, and is asked."""
    if not reader.lines or reader.expect is not None or (is_question(text) and not _asks_only_the_task(text)):
        return
    slots = [(i, line, span, args, ws, texts[0]) for i, line, span, args, ws, given in _constructed(reader)
             for texts in [_story_fields(ws, given)] if len(texts) == 1]
    if not slots and not list(_constructed(reader)):
        _story_for_a_bare_opening(reader, text)  # "I want to report a problem, the glaze came out all bubbly"
        return
    if len(slots) != 1:
        return
    i, line, span, args, ws, f = slots[0]
    told = _story(reader, text, ws, f, args)
    if told is None:
        return
    _replace(reader, i, line, _with_value(line, span, args, f.name, told), "story-in-opening", told, ws.name, f.name,
             reason="the story the opening tells, for the record's free-text field")


def _story_fields(ws: Any, given: Any) -> list[Any]:
    return [f for f in ws.fields if f.kind == "input" and f.name not in given and f.type == "str"
            and (f.free_text or _OWN_WORDS.search(f.description)) and f.required and not f.dont_ask
            and _said_on(f.predicate, given)]


def _story_for_a_bare_opening(reader: "TurnReader", text: str) -> None:
    """The turn only chose the task (`main.task = "Report Problem"`, no values): the record it opens is constructed
    with the story, when it has one story field."""
    from ....spec.model import snake_case
    from ..words.match import equalities
    chosen = [m.group(1) for line in reader.lines for m in [re.fullmatch(r'\w+\.\w+ = "(.+)"', line)] if m]
    opened = [ws for ws in reader.spec.task_worksheets()
              if any(v in chosen for _p, v in equalities(ws.predicate))
              and not any(r.status == "active" for r in reader.state.of_worksheet(ws.name))]
    if len(opened) != 1 or len(fields := _story_fields(opened[0], set())) != 1:
        return
    ws, f = opened[0], fields[0]
    told = _story(reader, text, ws, f, "")
    if told is None:
        return
    var = reader.state.new_var(snake_case(ws.name))
    from ..opening.tasks import literal  # late: the opening modules import parts
    reader.emit("story-in-opening", told, f"{var} = {ws.name}({f.name}={literal(told)})", worksheet=ws.name,
                field=f.name, reason="the story the opening tells, for the record's free-text field")


def _story(reader: "TurnReader", text: str, ws: Any, f: Any, args: str) -> str | None:
    """The clauses of the opening that tell the story, or None when they are fewer than five words."""
    from ..opening.task_texts import opener_stems, task_text_stems  # late: the opening modules import parts
    from ..words.match import HEDGES, content_stems
    own = opener_stems(reader, ws) | task_text_stems(reader, ws) | set(content_stems(
        f"{ws.name} {ws.description}")) | HEDGES
    kept = []
    for sentence in sentences(_GREETING.sub("", text)):
        for clause in re.split(r"\s*(?:;|,(?!\d{3}\b))\s*", sentence.strip(" .!")):  # "£1,850" is one amount
            words = clause.split()
            if len(words) < 3 or plea(clause) or request_only(clause) or _WANTS.search(clause) or \
                    (not f.free_text and _ABOUT_THE_CALL.match(clause)) or \
                    _VALUE_SHAPED.search(clause) or not set(content_stems(clause)) - own or \
                    (not f.free_text and _told_values_only(clause, args, own)):
                continue
            kept.append(clause)
    told = ", ".join(kept)
    if not f.free_text and not (_TROUBLE.search(told) or _WENT_WRONG.search(told)):
        return None  # a field only described as the user's story takes a trouble told, not "I'm not happy at all"
    return told if len(told.split()) >= 5 else None


_ABOUT_THE_CALL = re.compile(r"^\W*(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:calling|ringing|phoning|writing|contacting|"
                             r"getting\s+in\s+touch|here)\b|^\W*(?:my|our)\s+name\b|\btold\s+me\s+to\b", re.I)
"""A clause about the call itself ("I'm calling to report damage", "my name is Jo Baxter", "my doctor told me to
ring"): no part of the story."""
_WENT_WRONG = re.compile(r"\b(?:damaged?|broke|ripped|torn|stained|cracked|dented|scratched|late|rude|stolen|lost|"
                         r"leak(?:s|ed|ing)?|cold|freezing|noisy|noise|mould|smell(?:s|y)?|flooded|dead|sleep|party|"
                         r"parties|mice|rats|pests?|wheezes|squeaks?|rattles?|bubbly|faulty|fault|overcharged|twice)\b",
                         re.I)
"""Words of something gone wrong beyond `_TROUBLE`'s ("stone cold", "my flatmates party every night")."""
