"""A yes/no field volunteered in the user's own statement: "and yes I'm an international student".

A bool field whose distinctive name words (`is_international_student` -> "international") are all said in a
first-person statement ("I'm ...", "I am ...", "yes ...") or one of what there is ("there IS an elevator") takes True, or False when that clause is negated
("I'm not international"). A question ("am I international?") or a clause about someone else says nothing.
A name word right after "with", "including" or "plus" ("for 4 nights, with breakfast") says True, after
"without" or "no" ("no breakfast") False: the thing itself is asked for or declined.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..words.match import STOPWORDS, Bag, field_stems

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ....spec.model import Field
    from .slots import Mention, StateView
    from ..parser import TurnReader

_CLAUSES = re.compile(r"\s*(?:[,;.!]|\band\b|\bbut\b)\s*", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i'?m|i\s+am|i\s+was|i'?ve|i\s+have|i\s+do|i'?d|i\s+would|i\s+(?:never|always|usually)|yes|yeah|yep|"
                           r"(?:i|we)\s+(?:need|want)\s+(?:a|an|the|it|one|them)\b|"
                           r"there\s+(?:is|are|was|isn'?t|aren'?t|wasn'?t)|there'?s|we\s+have|we'?ve\s+got|"
                           r"it\s+has|it\s+hasn'?t|it\s+doesn'?t\s+have)\b", re.I)
"""A statement of the user's own: first person, a yes, what there is ("there IS an elevator", "there's no
lift", "it has a garden") or what is wanted ("I need a heated small unit")."""
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b", re.I)
_WITH = re.compile(r"\b(?P<how>with|including|plus|without|no)\s+(?:the\s+|a\s+|an\s+)?(?P<word>[a-z]+)", re.I)


def _with_thing(clause: str, names: set[str]) -> bool | None:
    """True for "with breakfast", False for "without breakfast" / "no breakfast", None when no name word follows."""
    for m in _WITH.finditer(clause):
        if Bag.of(m.group("word")).hits(names):
            return m.group("how").lower() not in ("without", "no")
    return None


_DONE_BEFORE = re.compile(r"\b(?:before|again|regular(?:ly)?|returning|usual|already|for\s+years|many\s+times|"
                          r"(?:a\s+)?(?:few|couple\s+of|lot\s+of|lots\s+of|loads\s+of)\s+times)\b", re.I)
"""A first person who has done it before: "I've donated before", "I'm a regular donor" (not a first time)."""


def _first_time(clause: str, lead: str) -> bool | None:
    """For a field named "first ..." (first_time, first_visit): False when the speaker says they did it before,
    True when they say they never did it before; None when the clause says neither."""
    if not _DONE_BEFORE.search(clause) or not (_FIRST_PERSON.search(clause) or _FIRST_PERSON.search(lead)):
        return None
    return bool(_NEGATED.search(clause))


_MORE_WORDS = frozenset({"more", "another", "other", "extra", "additional", "further"})
"""Words of a yes/no field's name that ask for one more thing ("more_lessons"): the thing's name alone is no answer."""


def bool_mentions(text: str, candidates: list[tuple["TaskRecord", "Field"]], view: "StateView",
                  used: set[tuple[str, str]]) -> list["Mention"]:
    from .slots import Mention  # late: slots imports this module

    out = []
    if "?" in text:
        return out
    clauses = [c for c in _CLAUSES.split(text) if c and c.strip()]
    for rec, f in candidates:
        if view.kind_of(f) != "bool" or (rec.var, f.name) in used:
            continue
        if "first" in f.name.lower().split("_"):
            said = next(((c, v) for i, c in enumerate(clauses)
                         for v in [_first_time(c, " ".join(clauses[max(0, i - 1): i + 1]))] if v is not None), None)
            if said is not None:
                out.append(Mention(rec, f, said[1], said[0].strip(), "bool by first time"))
                used.add((rec.var, f.name))
                continue
        names = {s for s in field_stems(f, with_description=False) if s not in STOPWORDS and len(s) >= 4}
        if not names:
            continue
        more = _MORE_WORDS & set(f.name.lower().split("_"))
        for i, clause in enumerate(clauses):
            if len(Bag.of(clause).hits(names)) < len(names):
                continue
            if more and not re.search(rf"\b(?:{'|'.join(more)})\b", clause, re.I):
                continue  # "sign me up for sailing lessons" says nothing of more_lessons: one more is not asked
            lead = " ".join(clauses[max(0, i - 1): i + 1])  # "yes, I'm an international student"
            wanted = _with_thing(clause, names) if len(names) == 1 else None
            if wanted is not None:
                out.append(Mention(rec, f, wanted, clause.strip(), "bool by with"))
                used.add((rec.var, f.name))
                break
            if not _FIRST_PERSON.search(clause) and not _FIRST_PERSON.search(lead):
                continue
            out.append(Mention(rec, f, not _NEGATED.search(clause), clause.strip(), "bool by name"))
            used.add((rec.var, f.name))
            break
    return out


SECOND_FLAG_THRESHOLD = 0.35
SECOND_FLAG_MARGIN = 0.08
"""A clause after the yes/no to the question asked reads as another yes/no field of the same record when its
best field, among all of that record's fields, is that yes/no field at this score at least and this far ahead
(0.40 for "it doesn't clash with my other plans" to a field that asks whether there is a schedule conflict,
0.27-0.29 for unrelated clauses and other fields)."""


def second_flag(reader: "TurnReader", rec: "TaskRecord", answered: "Field", said: str) -> str:
    """ "yes it has a waitlist, and no, it doesn't clash with my other classes": after the yes to the first
    question, the second clause answers the record's other yes/no field, found by meaning; the rest of the turn
    is returned without it (all of it when no such field is clear)."""
    from ..words.semantic import clean, index  # late: the semantic rules import this module's neighbours
    from ..words.values import yes_no

    flags = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) == "bool"
             and f.name != answered.name and reader.view.unfilled(rec, f)]
    if not flags or reader.view.kind_of(answered) != "bool":
        return said
    rest = said
    if re.match(r"^\W*(?:and|but|also|plus)\b", rest, flags=re.I) is None:
        # "it has a waitlist, and no, it doesn't clash": the first clause still answers the question
        parts = re.split(r"\s*(?:[,;.]\s*(?:and|but|also)?|\s(?:and|but)\s)\s*", rest, maxsplit=1, flags=re.I)
        rest = parts[1] if len(parts) == 2 else ""
    body = re.sub(r"^\W*(?:and|but|also|plus)\b\W*", "", rest, flags=re.I).strip()
    if not body:
        return said
    ranked = index(reader).rank(clean(body), lambda e: e.kind == "field" and e.worksheet == rec.worksheet)
    best = ranked.best
    if best is None or best.field not in {f.name for f in flags} or ranked.score < SECOND_FLAG_THRESHOLD \
            or ranked.score - ranked.runner_score < SECOND_FLAG_MARGIN:
        return said
    f = next(f for f in flags if f.name == best.field)
    yn = yes_no(body)  # "no, it doesn't clash" is a no; "yes, it does" a yes; otherwise the clause's negation decides
    value = (yn is None or yn[0]) and not _NEGATED.search(yn[2] if yn is not None else body)
    reader.assign("second-yes-no", body, rec, f, value, **ranked.trace())
    return ""
