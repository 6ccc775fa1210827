"""A yes/no field volunteered in other words than its name: "we can all swim", "not my first tattoo".

The lexical rules of `bool_mentions` need the field's own name words in a first-person clause. People say the
same thing in their own words, beside other values: "Boat is Puffin, we need shore power", "None of us are
under 16 and we can all swim". Each statement clause of the turn is ranked by meaning among the fields of the
record's worksheet, every task and every option (names, descriptions and the developer's examples: the spec's
semantic index). A clause whose best entry is an unfilled yes/no field, clearly ahead of the runner-up, answers
it: True, or False when the clause is negated ("none of us", "isn't", "no meds"). A clause closer to a task or an
option ("I'd like to book a photographer" to the task, not to "Whether you want a second photographer") is about
that.

Questions (with or without their question mark), hedges ("not sure if", "maybe"), clauses about whether
something is so ("if you have one"), troubles ("the page gives me an error"), someone else's things, the past
("were tubeless last year") and clauses that gave another field its value this turn say nothing; a clause
answers at most one field, and a field takes at most one clause (an attack pass in session 30 found the cases).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ....spec.model import Field
    from .slots import Mention, StateView

BOOL_MEANING_THRESHOLD = 0.5
BOOL_MEANING_MARGIN = 0.1
"""Calibrated on the development sets' agents (docs/offline_parser.md, session 30): of the clauses left to this
rule that scored at least 0.5 and 0.1 ahead of the runner-up, 15 answered the field and 3 were not annotated as
answering it; "we need shore power" scores 0.94 to `needs_shore_power`, clauses about something else that land
on a yes/no field mostly score below 0.5 or within a few hundredths of another field."""

_SPLIT = re.compile(r"\s*(?:[,;.!]+|\s-\s|\b(?:and|but|so|though|although|plus)\b)\s*", re.I)
_NEGATION = re.compile(r"\b(?:not|never|no|none|nobody|nothing|neither|nor|without|cannot|scrap|skip|drop|forget)\b|"
                       r"(?<=[a-z])n't\b|\b(?:dont|doesnt|didnt|isnt|arent|wasnt|werent|cant|wont|havent|hasnt|"
                       r"couldnt|wouldnt|shouldnt)\b", re.I)
_OWN = re.compile(r"\b(?:my|our|his|her|their)\s+own\b", re.I)
"""A clause that says no: negated, the thing dropped ("scrap the antifoul") or one's own brought instead ("we've
all got our own hats" to hiring hats)."""
_UNSURE = re.compile(r"\b(?:if|whether|maybe|perhaps|might|unsure|not\s+sure|no\s+idea|dunno|don'?t\s+know|"
                     r"probably|i\s+think|i\s+guess|hope|hoping|wonder\w*|thinking\s+(?:about|of))\b", re.I)
_TROUBLE = re.compile(r"\b(?:error\w*|broken|broke|crash\w*|fail\w*|stuck|glitch\w*|bug\w*|problems?|issues?|"
                      r"(?:won'?t|doesn'?t|isn'?t|not)\s+(?:work|working|load|loading|let\s+me))\b", re.I)
"""A clause that tells of a trouble ("the waitlist button just gives me an error") says what went wrong, not yes
or no to the field it is about."""
_ELSEWHERE = re.compile(r"\b(?:my|our|his|her|their)\s+(?:husband|wife|partner|neighbou?r|friend|mate|brother|sister|mum|"
                        r"mom|dad|mother|father|boss|colleague|old|other|previous|last)\b|"
                        r"\b(?:the|another)\s+(?:shop|place|firm|company|one)\s+(?:down|up|across|over|in|at|near)\b|"
                        r"\b(?:used\s+to|last\s+(?:year|time|week|month)|years?\s+ago|anymore|any\s+more|before|"
                        r"were|was|got\s+stolen|switched|started|starting|learning|trying)\b", re.I)
"""A clause about someone else's thing ("my husband rides an e-bike", "my neighbour's alarm"), another firm, or
the past or a beginning ("the tyres were tubeless last year", "he's just started swimming lessons"): it says
nothing of the booking's yes/no."""
_ASKING = re.compile(r"^\W*(?:(?:and|but|so|oh|also)\s+)?(?:do|does|did|can|could|will|would|is|are|have|has)\s+(?:you|u|they|it|he|she)\b|"
                     r"\b(?:do|don'?t|does|doesn'?t|can|can'?t|is|isn'?t|are|aren'?t)\s+(?:you|u|they|it|we)\s*\W*$", re.I)
"""A question without its question mark: "do you work on electric bikes", "you don't do tubeless setups do you"."""
_MIN_WORDS = 3


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in _SPLIT.split(text) if c and len(re.findall(r"[A-Za-z']+", c)) >= _MIN_WORDS]


def bools_by_meaning(text: str, flags: list[tuple["TaskRecord", "Field"]], view: "StateView",
                     used: set[tuple[str, str]]) -> list["Mention"]:
    """The yes/no fields among `flags` that a statement clause of `text` answers by meaning."""
    from .slots import Mention  # late: slots imports this module's neighbour

    flags = [(rec, f) for rec, f in flags if (rec.var, f.name) not in used]
    if not flags or "?" in text:
        return []
    clauses = [c for c in _clauses(text) if not _UNSURE.search(c) and not _TROUBLE.search(c)
               and not _ELSEWHERE.search(c) and not _ASKING.search(c)]
    if not clauses:
        return []
    index = view.index()
    out: list[Mention] = []
    worksheets = {rec.worksheet for rec, _f in flags}
    for ws in worksheets:
        mine = {f.name: (rec, f) for rec, f in flags if rec.worksheet == ws}
        given = {w for rec, _f in flags if rec.worksheet == ws for v in view.pending.get(rec.var, {}).values()
                 if isinstance(v, str) for w in re.findall(r"[a-z]{4,}", v.lower())}
        ranked = index.rank_each(clauses, lambda e, ws=ws: (e.kind == "field" and e.worksheet == ws)
                                 or e.kind in ("task", "enum"))
        taken: set[str] = set()
        for clause, rank in sorted(zip(clauses, ranked), key=lambda cr: -cr[1].score):
            if given & set(re.findall(r"[a-z]{4,}", clause.lower())):
                continue  # "he's in a wheelchair since his stroke" gave the option Wheelchair: no yes/no besides
            best = rank.best
            if best is None or best.kind != "field" or best.worksheet != ws or best.field not in mine \
                    or best.field in taken \
                    or not rank.decided(BOOL_MEANING_THRESHOLD, BOOL_MEANING_MARGIN):
                continue
            rec, f = mine[best.field]
            if (rec.var, f.name) in used:
                continue
            own = _OWN.search(clause) and "own" not in re.findall(r"[a-z]+", f"{f.name} {f.description}".lower())
            value = not (_NEGATION.search(clause) or own)
            out.append(Mention(rec, f, value, clause, "bool by meaning", extra=rank.trace()))
            view.by_meaning[(rec.var, f.name)] = value
            used.add((rec.var, f.name))
            taken.add(best.field)
    return out
