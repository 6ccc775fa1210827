"""Values for other fields than the one asked, said instead of its answer.

"friday at 5:30pm" to "what make is the bike?", "Priya Nair" or "standard" to "which instructor?", "could she be
picked up from 14 Elm Grove?", "Noor Khalil, 07700 900666, yes": the words are typed values (a date, a time, a phone
number, an e-mail, an address), a person's name written as one, an option's name or a bare yes, and they fit
unfilled fields of the live records, so they fill those, never the field asked (a wrong value is worse than none).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....spec.model import REFUSAL
from ..answering.slots import find_mentions, shape
from ..words.match import HEDGES, Bag, field_mention, stem
from ..words.values import PERSON_NAME, yes_no

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ....spec.model import Field
    from ..parser import Expect, TurnReader
    from ..answering.slots import Mention

_LABEL_BEFORE = re.compile(r"(?:\b(?:my|the|our|his|her)\s+)?(?:\b(?:phone|mobile|cell|contact|e-?mail|tel|telephone)\s*)?"
                           r"(?:\b(?:number|address|no\.?)\s*)?(?:\b(?:is|:|=)\s*)?$", re.I)
"""The words that label a typed value right before it ("my number is", "email:"): not words of another answer
("it's a phone, my email is ..." keeps "phone")."""


def _unlabelled(text: str, mentions: list["Mention"]) -> str:
    for m in sorted((m for m in mentions if m.span is not None), key=lambda m: -m.span.start):
        head = text[:m.span.start]
        label = _LABEL_BEFORE.search(head)
        if label is not None and label.group(0).strip():
            text = head[:label.start()] + " " + text[m.span.start:]
    return text
TYPED_HOWS = {"date", "time", "phone", "email", "people summed"}
AGREEING = frozenset(stem(w) for w in """right correct good fine sure confirm confirmed ahead perfect great sound
sounds okay ok exactly thanks thank absolutely definitely cool works go book do please that's it's its here
there well""".split())
"""Words after a yes that only agree ("yep that's right", "yes, go ahead")."""


_OUR_REQUEST = re.compile(r"\b(?:can|could|would|will|may)\s+(?:we|i|you|u|it)\b", re.I)


_FLAG_ASKED = re.compile(r"\b(?:can|could|would|will)\s+(?:u|you)\s+(?:please\s+)?(?:mark|make|set|flag|put)\s+(?:it|this|that|"
                         r"me|us|him|her|them|the\s+\w+)\s+(?:down\s+)?(?:as\s+)?(?:an?\s+)?(?P<word>[a-z][a-z-]+)\b", re.I)
"""A yes/no field asked for by its word: "can u mark it urgent?", "could you put me down as a member?"."""


def requested_values(reader: "TurnReader", text: str) -> bool:
    """Typed values (a date, a time, an address, a phone number, an e-mail) for unfilled fields of the live
    records, said in a request phrased as a question; they fill those fields."""
    flag = _FLAG_ASKED.search(text)
    if flag is not None:  # "can u mark it urgent?": the yes/no field the word names, set
        flags = [(r, f) for r, f in reader.candidates() if reader.view.kind_of(f) == "bool" and r.values.get(f.name) is not True
                 and stem(flag.group("word").lower()) in {stem(w) for w in f.name.lower().split("_")}]
        if len(flags) == 1:
            reader.assign("requested-value", flag.group(0), flags[0][0], flags[0][1], True, how="flag asked for")
            reader.answered = True
            return True
    open_fields = [(r, f) for r, f in reader.candidates() if reader.view.unfilled(r, f)]
    mentions = [m for m in find_mentions(text, open_fields, reader.view, reader.today,
                                         prefer=reader.expect.rec if reader.expect else None)
                if m.how in TYPED_HOWS | {"address"}]
    if not mentions and _OUR_REQUEST.search(text):  # "ah wait can we start at half 5?": a held value the request
        # names by its field's word, changed (not "can the performers start warming up at 6?")
        bag = Bag.of(text)
        held = [(r, f) for r, f in reader.candidates() if not reader.view.unfilled(r, f)
                and field_mention(f, bag)[0] >= 2]
        mentions = [m for m in find_mentions(text, held, reader.view, reader.today)
                    if m.how in TYPED_HOWS and m.rec.values.get(m.field.name) != m.value]
    for m in mentions:
        reader.assign("requested-value", m.matched, m.rec, m.field, m.value, how=m.how)
    if mentions:
        reader.answered = True
    return bool(mentions)

def bare_flag(reader: "TurnReader", text: str, rec: "TaskRecord", taken: set[str]) -> None:
    """ "Noor Khalil, 07700 900666, yes": a bare yes or no among the answers is the record's one unfilled
    yes/no field (not the first part, which answered the question)."""
    flags = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) == "bool" and f.name not in taken
             and reader.view.unfilled(rec, f) and not (reader.expect and f.name == reader.expect.field.name)]
    pieces = [yes_no(p) for p in re.split(r"\s*[,;]\s*", text)[1:]]
    bare = [p for p in pieces if p is not None and not p[2].strip(" .!")]
    if len(flags) == 1 and len(bare) == 1:
        reader.assign("extra-value", bare[0][1], rec, flags[0], bare[0][0])

def typed_elsewhere(reader: "TurnReader", text: str, e: "Expect") -> bool:
    """ "friday at 5:30pm" to "what brand is the bike?": every word is a date, a time, a phone number or an
    e-mail for other unfilled fields of the live records, so it fills those, never the short text asked."""
    from ..parser import _leftover  # late: the parser imports this module
    open_fields = [(r, f) for r, f in reader.candidates() if (r.var, f.name) != (e.rec.var, e.field.name)
                   and (reader.view.unfilled(r, f) or r.values.get(f.name) == REFUSAL)]  # refused, then given
    mentions = find_mentions(text, open_fields, reader.view, reader.today, prefer=e.rec)
    if not mentions or any(m.how not in TYPED_HOWS for m in mentions):
        return False
    named = None
    if [w for w in _leftover(_unlabelled(text, mentions), mentions) if w not in AGREEING and w not in HEDGES]:
        named = name_beside(reader, text, mentions, open_fields)  # "Jonas Berg, 0701234567"
        if named is None:
            return False
    if named is not None:
        rec, f, name = named
        reader.assign("value-for-other-field", name, rec, f, name, how="a person's name",
                    reason=f"a person's name beside other values, not an answer to {e.field.name}")
    for m in mentions:
        reader.assign("value-for-other-field", m.matched, m.rec, m.field, m.value, how=m.how,
                    reason=f"the words are {m.how} values, not an answer to {e.field.name}")
    return True

def name_beside(reader: "TurnReader", text: str, mentions: list["Mention"],
                open_fields: list[tuple["TaskRecord", "Field"]]) -> tuple["TaskRecord", "Field", str] | None:
    """The words beside typed values, when they are a person's name written as one and the live records
    have one unfilled name field (not the one asked)."""
    body = text
    for m in mentions:
        body = body.replace(m.span.text if m.span is not None else m.matched, " ")
    m = PERSON_NAME.fullmatch(re.sub(r"\s+", " ", body).strip(" ,.;!&/"))
    names = [(r, f) for r, f in open_fields if reader.view.kind_of(f) == "str" and shape(f) == "name"]
    if m is None or len(names) != 1:
        return None
    return names[0][0], names[0][1], m.group(0)

def option_elsewhere(reader: "TurnReader", text: str) -> bool:
    """ "standard" to "which instructor?": the whole turn is the name of one option of one unfilled option
    field of the live records (no KB value), so it sets that option rather than searching the KB."""
    if len(text.split()) > 4 or (reader.ctx.kb is not None and reader.vocabulary.found_in(text, reader.ctx.kb)):
        return False
    fits = [(r, f, v) for r, f in reader.candidates() if reader.view.kind_of(f) == "Enum" and reader.view.unfilled(r, f)
            for v in [reader.enum_value(f, text, strict=True)] if v is not None]
    if len(fits) != 1:
        return False
    rec, f, value = fits[0]
    reader.assign("value-for-other-field", text, rec, f, value, how="option named",
                reason="the turn names an option of another field, not a row to search for")
    return True

def name_elsewhere(reader: "TurnReader", text: str) -> bool:
    """ "Priya Nair" to "which service?": a person's name that is no KB value fills the one unfilled name
    field of the live records, not a search for the row asked."""
    m = PERSON_NAME.fullmatch(text.strip(" .!"))
    if m is None or (reader.ctx.kb is not None and reader.vocabulary.found_in(text, reader.ctx.kb)):
        return False  # written as a name (capitals), and no value of the KB
    name = m.group(0)
    targets = [(r, f) for r, f in reader.candidates() if reader.view.kind_of(f) == "str" and shape(f) == "name"
               and reader.view.unfilled(r, f)]
    if len(targets) != 1:
        return False
    rec, f = targets[0]
    reader.assign("value-for-other-field", text, rec, f, name, how="a person's name",
                reason="a person's name that names no row of the KB")
    return True
