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
from ..words.values import Span
from .bool_meaning import bools_by_meaning

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


_OWN_KIT = re.compile(r"\b(?:(?:i|we)(?:'ve|\s+have)(?:\s+got)?|(?:i|we)(?:'ll|\s+will)?\s+bring(?:ing)?|bringing|"
                      r"(?:i|we)'?m\s+bringing|(?:i|we)\s+use)\s+(?:my|our)\s+own\b", re.I)
_KIT_WORDS = frozenset({"gear", "kit", "equipment", "stuff", "set", "one", "ones"})
_BORROWING = frozenset({"rent", "rental", "hire", "borrow", "loan", "lend"})
"""A yes/no of taking the firm's things (`rent_equipment`, `hire_kit`) is answered no by "I've got my own gear"."""


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


_ALONG_FIELD = re.compile(r"\b(?:travel|come|go|attend|join|be)\w*\s+(?:along\s+)?with\b|\baccompan|\bescort", re.I)
"""A yes/no field about someone going along with another: "Whether a carer will travel with the patient"."""
_ALONG_SAID = re.compile(
    r"\b(?:come|comes|coming|came|go|goes|going|went|travel\w*|be|tag\w*|ride|riding)\s+(?:along\s+)?"
    r"(?:with\s+(?:me|him|her|them|us)\b|too\b|as\s+well\b)|\baccompany(?:ing)?\s+(?:me|him|her|them|us)\b", re.I)
"""Someone going along: "I'll be coming with him", "she'd come with me after all", "my sister's coming too"."""
_ALONE = re.compile(r"\b(?:alone|on\s+(?:my|his|her|their|our)\s+own|by\s+(?:myself|himself|herself|themselves))\b"
                    r"|\b(?:nobody|no\s*-?\s*one)\b", re.I)


def along_flag(f: "Field", text: str) -> bool | None:
    """For a yes/no field about someone going along (`_ALONG_FIELD` in its description or name): True when the turn
    says someone comes along ("my daughter said she'd come with me after all"), False when it says nobody does or
    the person goes alone or the going along is negated; None when it says neither, or asks."""
    if "?" in text or not (_ALONG_FIELD.search(f.description or "") or _ALONG_FIELD.search(f.name.replace("_", " "))):
        return None
    said = _ALONG_SAID.search(text)
    if _ALONE.search(text) and not (said and _ALONE.search(text).start() > said.end()):
        return False if said or re.search(r"\b(?:go|going|come|coming|travel\w*|be|on\s+\w+\s+own)\b", text, re.I) \
            else None
    if said is None:
        return None
    return not _NEGATED.search(text[max(0, text.rfind(",", 0, said.start()) + 1):said.start()])


_MORE_WORDS = frozenset({"more", "another", "other", "extra", "additional", "further"})
"""Words of a yes/no field's name that ask for one more thing ("more_lessons"): the thing's name alone is no answer."""


_DECLINED = re.compile(r"^(?:(?:and|but|oh|also|plus)\s+)*(?:no|without|(?:we|i)\s+(?:don'?t|do\s+not)\s+need)\s+"
                       r"(?:a\s+|an\s+|any\s+|the\s+)?(?P<thing>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2}?)"
                       r"(?:\s+(?:thanks|thank\s+you|ta|cheers|please|pls|with\s+us|needed|either|for\s+us))*[\s.!]*$", re.I)
"""A clause that only declines a thing ("no kids", "and no alignment thanks", "we don't need a ramp")."""
_NEGATIVE_FIELD = re.compile(r"\b(?:no|not|non|without|avoid\w*|free|allerg\w*|intoleran\w*|dietary|restrict\w*)\b",
                             re.I)
"""A yes/no field asked in negative words ("step-free access", "gluten free", "without stairs") or about what
someone must not have (an allergy): a "no stairs" or "no shellfish" would be its yes, or says nothing of it."""
_NEED_WORDS = re.compile(r"\b(?:allerg\w*|intoleran\w*|dietary|restrictions?|needs?)\b", re.I)
"""A thing that is the need a field asks about ("no allergies", "no dietary needs"), not a food to avoid."""
_IDIOMS = frozenset("problem problems worries worry bother rush hurry idea clue way thanks thank need needed "
                    "difference matter".split())
"""Things a "no" declines in set phrases only ("no problem", "no rush", "no idea"): no field's thing."""


def _clipped_of(word: str, stems: set[str] | frozenset[str]) -> bool:
    """A word of a field, or its clipped form ("meds" of "medication", "vax" no, "physio" of "physiotherapy")."""
    return word in stems or (len(word) >= 3 and any(len(s) > len(word) + 1 and s.startswith(word) for s in stems))


def _declined(clauses: list[str], flags: list[tuple["TaskRecord", "Field"]], clipped: bool = False
              ) -> tuple[int, "TaskRecord", "Field"] | None:
    """The one yes/no field a clause declines by a word of its name or description ("no allergies" to "Whether
    anyone eating the cake has an allergy or dietary need"), with the clause's index; None when no clause declines
    exactly one field."""
    for i, clause in enumerate(clauses):
        m = _DECLINED.match(clause.strip())
        if m is None:
            continue
        thing = re.sub(r"\bkids?\b", "child", m.group("thing"), flags=re.I)  # "no kids" declines child seats
        if {w.lower() for w in thing.split()} & _IDIOMS:
            continue
        bag = Bag.of(thing)
        said_need = bool(_NEED_WORDS.search(thing))  # "no allergies" to "has an allergy": the need itself, no
        fits = [(rec, f) for rec, f in flags if bag.stems and (
                    all(_clipped_of(w, field_stems(f)) for w in bag.stems) if clipped
                    else len(bag.hits(field_stems(f))) == len(bag.stems))
                and (said_need or not _NEGATIVE_FIELD.search(f"{f.name.replace('_', ' ')} {f.description or ''}"))]
        # every word of the thing is the field's ("no kids menu" is no high chair)
        if len(fits) == 1:
            return i, fits[0][0], fits[0][1]
    return None


_TAIL_START = re.compile(r"(?:[.;!]|,)\s*(?:and\s+)?|\s+and\s+", re.I)
_PRONOUN_NEED = re.compile(r"^(?:(?:and|but|oh|also|plus)\s+)*no[,\s]+(?:she|he|they|it)\s+(?:doesn'?t|does\s+not|don'?t|do\s+not)"
                           r"\s+(?:need|take|have)\s+", re.I)


_TAKEN_BACK = re.compile(r"\b(?:actually|wait|hang\s+on|hold\s+on|sorry|scratch\s+that|i\s+mean)\b", re.I)
"""Words that take back what was just said ("no meds. oh wait actually he has eye drops")."""


def declined_tail(text: str, flags: list[tuple["TaskRecord", "Field"]]) -> tuple[int, "TaskRecord", "Field"] | None:
    """Where a free-text answer ends and a clause declining one yes/no field begins ("2 scoops of his kibble, I'll
    bring a bag. No meds, he's fit as a fiddle": the feeding notes, then no medication), with that field. The
    clause is a later one, and only declines: "no", the thing, and thanks or the like."""
    for m in _TAIL_START.finditer(text):
        if m.start() == 0:
            continue
        rest = text[m.end():]
        clause = _PRONOUN_NEED.sub("no ", re.split(r"[,.;!]", rest, maxsplit=1)[0]).strip()
        found = _declined([clause], flags, clipped=True) if clause else None
        if found is not None and not _TAKEN_BACK.search(rest):
            return m.start(), found[1], found[2]
    return None


def bool_mentions(text: str, candidates: list[tuple["TaskRecord", "Field"]], view: "StateView",
                  used: set[tuple[str, str]]) -> list["Mention"]:
    from .slots import Mention  # late: slots imports this module

    out = []
    if "?" in text:
        return out
    clauses = [c for c in _CLAUSES.split(text) if c and c.strip()]
    flags = [(rec, f) for rec, f in candidates if view.kind_of(f) == "bool" and (rec.var, f.name) not in used]
    after_answer = len(clauses) == 1 and re.match(r"\s*[,;.!]", text) is not None  # ", no pets" once "just me"
    # answered the question and was blanked out
    declined = _declined(clauses, flags) if len(clauses) > 1 or after_answer else None
    if declined is not None:  # "saturday morning, 9:30. and no alignment thanks": a value, then a thing declined
        i, rec, f = declined
        said = clauses[i].strip()
        at = text.find(said)
        span = Span(False, at, at + len(said), said) if at >= 0 else None  # left out of a search in the same turn
        out.append(Mention(rec, f, False, said, "bool declined by name", span))
        used.add((rec.var, f.name))
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
        own = _OWN_KIT.search(text) if set(f.name.lower().split("_")) & _BORROWING else None
        thing = re.match(r"\s*([a-z]+)", text[own.end():].lower()) if own else None
        if own and thing and (thing.group(1) in _KIT_WORDS or Bag.of(thing.group(1)).hits(field_stems(f))) and \
                not re.search(r"\b(?:yes|yeah|yep|but|broke|broken|lost|forgot)\b", text[own.end():], re.I) and \
                not re.search(r"\b(?:usually|normally|broke|broken)\b", text[:own.start()], re.I):
            out.append(Mention(rec, f, False, own.group(0), "bool by own kit"))
            used.add((rec.var, f.name))  # "I've got my own gear" to whether to rent equipment: no
            continue
        along = along_flag(f, text)
        if along is not None:  # "oh hold on, my daughter said she'd come with me after all"
            out.append(Mention(rec, f, along, text.strip(), "bool by going along"))
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
    out += bools_by_meaning(text, [(rec, f) for rec, f in candidates if view.kind_of(f) == "bool"], view, used)
    return out


SECOND_FLAG_THRESHOLD = 0.35
SECOND_FLAG_MARGIN = 0.08
"""A clause after the yes/no to the question asked reads as another yes/no field of the same record when its
best field, among all of that record's fields, is that yes/no field at this score at least and this far ahead
(0.40 for "it doesn't clash with my other plans" to a field that asks whether there is a schedule conflict,
0.27-0.29 for unrelated clauses and other fields)."""


_ASIDE = re.compile(r"^\W*(?:(?:and|but|also|plus|oh|so)\b[\s,]*)*(?:before\s+you\s+ask|by\s+the\s+way|btw|fyi|"
                    r"just\s+so\s+you\s+know|in\s+case\s+you\s+(?:ask|wonder(?:ed)?))?[\s,:-]*", re.I)
"""What leads a volunteered answer in ("and before you ask, it doesn't clash"): no part of it."""
_ECHO = re.compile(r"^\W*(?:it|they|he|she|we|i|there)\s*(?P<aux>does|do|did|is|are|was|were|will|'s|'re|'ll)"
                   r"(?P<neg>\s*n'?t|\s+not|\s+never)?\s+(?P<verb>[a-z]+)\b", re.I)
_ASKS = re.compile(r"^\s*(?:does|do|did|is|are|was|were|will|would|can)\s+(?:the\s+|a\s+|an\s+|your\s+|it\s+|they\s+)?"
                   r"[a-z']+\s+(?P<verb>[a-z]+)\b", re.I)
ECHO_WORD_SIMILARITY = 0.55
"""How close the verb said must be to the verb the field's question asks ("clash" to "conflict" is 0.62; "come"
to "travel", "have" to "conflict" are below 0.3)."""


def _echoed_by_meaning(reader: "TurnReader", flags: list["Field"], clause: str) -> tuple["Field", bool] | None:
    """ "it doesn't clash with anything" to a record with the yes/no field "Does the course conflict with the
    student's schedule": a clause about it with the verb the field's question asks, or a word close to it in
    meaning; True, or False when the verb is negated. Exactly one field must fit."""
    from ..words.semantic import index  # late: the semantic rules import this module's neighbours

    said = _ECHO.match(clause)
    if said is None:
        return None
    asked = [(f, m.group("verb").lower()) for f in flags if (m := _ASKS.match(f.description or ""))]
    if not asked:
        return None
    verb = said.group("verb").lower()
    vectors = index(reader).embedder.encode([verb] + [v for _f, v in asked])
    fits = [f for (f, v), vec in zip(asked, vectors[1:]) if v == verb or float(vec @ vectors[0]) >= ECHO_WORD_SIMILARITY]
    return (fits[0], not said.group("neg")) if len(fits) == 1 else None


def second_flag(reader: "TurnReader", rec: "TaskRecord", answered: "Field", said: str) -> str:
    """ "yes it has a waitlist, and no, it doesn't clash with my other classes": after the yes to the first
    question, a later clause answers the record's other yes/no field, found by meaning (or by the verb its question
    asks: "and before you ask it doesn't clash with anything"); the rest of the turn is returned without it (all
    of it when no such field is clear)."""
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
    pieces = [rest] + [p for p in re.split(r"(?<=[.;!])\s+", rest) if p.strip()][1:]
    for piece in pieces:  # the whole rest first, then each sentence after its first ("it says 12 on it. and ...")
        body = _ASIDE.sub("", piece, count=1).strip(" .!")
        if not body:
            continue
        left = said[:said.rfind(piece)] if piece != rest else ""
        ranked = index(reader).rank(clean(body), lambda e: e.kind == "field" and e.worksheet == rec.worksheet)
        best = ranked.best
        if best is not None and best.field in {f.name for f in flags} and ranked.score >= SECOND_FLAG_THRESHOLD \
                and ranked.score - ranked.runner_score >= SECOND_FLAG_MARGIN:
            f = next(f for f in flags if f.name == best.field)
            yn = yes_no(body)  # "no, it doesn't clash" is a no; "yes, it does" a yes; otherwise the clause's negation
            value = (yn is None or yn[0]) and not _NEGATED.search(yn[2] if yn is not None else body)
            reader.assign("second-yes-no", body, rec, f, value, **ranked.trace())
            return left
        echoed = _echoed_by_meaning(reader, flags, body)
        if echoed is not None:
            reader.assign("second-yes-no", body, rec, echoed[0], echoed[1], how="the verb its question asks")
            return left
    return said
