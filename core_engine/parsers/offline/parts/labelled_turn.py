"""A turn of labelled values, perhaps with the story after it: "Account 77120934, PIN 4821, name Marcus
Whitfield. Someone withdrew 500 dollars from an ATM last night".

Each comma part starts with a word of one field's own name ("account", "PIN", "name") and the rest of the part
is a value of that field's type. The fields are those of the live records and of the worksheets they hold that
are not opened yet (a part for such a field opens it with its values, as `x.f = Sub(a=..., b=...)`). Sentences
with no label go to the root's unfilled free-text field (what happened), when it has one. Two labelled parts at
least, each naming exactly one field, and every part placed: else nothing is read here (a wrong value is worse
than none) and the other rules read the turn.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....dialogue.state import TaskRecord
from ....errors import StatementError
from ....spec.model import Field, parse_type, snake_case
from ....spec.values import coerce_value
from ..answering.slots import shape, short_label
from ..opening.tasks import kwargs_text, literal
from ..words.values import PERSON_NAME

if TYPE_CHECKING:
    from ..parser import TurnReader

_KINDS = ("str", "int", "float", "date", "time")
_NOT_LABELS = {"my", "your", "the", "a", "an", "is", "of", "number", "no", "details", "info", "id", "student",
               "customer", "user", "client", "person", "full", "first", "second", "and"}
_INTRODUCED = re.compile(r"^(?:i\s+am|i'?m|this\s+is|it'?s|my\s+name\s+is|name'?s)\s+", re.I)
_SEP = re.compile(r"\s*;\s*|\s*,(?!(?<=\d,)\d{3}\b)\s*|\s+[-\u2013\u2014]+\s+|(?<=[a-z0-9]{2})\.\s+(?=[A-Za-z])|(?<=\d)\.\s+")
"""Parts end at a comma (not one inside an amount: "$1,250"), a semicolon, a dash with spaces round it ("passcode
8841 - there's a charge ..."), a full stop after a word or a number ("member 55123. someone took it", "fraud on my
account. acct no 5512")."""


def labelled_turn(reader: "TurnReader", text: str) -> bool:
    if "," not in text and ";" not in text and not re.search(r"\d\.\s", text):
        return False
    fields = _candidates(reader)
    parts = [p.strip(" .!") for p in _SEP.split(text) if p.strip(" .!")]
    if len(parts) < 2:
        return False
    placed: list[tuple[TaskRecord, Field, Any, str]] = []
    story: list[str] = []
    labelled = 0
    from ..intents import chit_chat  # late: intents imports word helpers
    while parts and chit_chat(parts[0]):
        parts = parts[1:]  # "Good evening, I am ..., my account is ...": the greeting places nothing
    for part in parts:
        found = _labelled(reader, part, fields, [(r.var, f.name) for r, f, _v, _p in placed])
        if found is None:
            found = _bare_name(reader, part, fields, [(r.var, f.name) for r, f, _v, _p in placed])
        else:
            labelled += 1
        if found is not None:
            placed.append(found)
        elif story or len(part.split()) >= 4:
            story.append(part)  # the sentences after the values: what happened
        else:
            return False
    one_number = len(placed) == 1 and labelled and story and re.fullmatch(r"[\d -]{4,}", str(placed[0][2]))
    if (len(placed) < 2 and not one_number) or not labelled:
        return False  # one label alone is read only for a number with the story after it ("my account is 881...")
    from ..intents import chit_chat, closing, is_question, plea, request_only  # late: intents imports word helpers
    story = [p for p in story if not plea(p) and not request_only(p) and not chit_chat(p, after_answer=True)
             and not closing(p) and not is_question(p)]
    text_field = _story_field(reader) if story else None
    if story and text_field is None:
        return False
    nested: dict[str, tuple[TaskRecord, str, dict[str, str]]] = {}
    for rec, f, value, part in placed:
        if rec.var.startswith("_"):  # a field of a worksheet not opened yet
            owner, slot = rec.parent or "", rec.parent_field or ""
            entry = nested.setdefault(f"{owner}.{slot}", (rec, part, {}))
            entry[2][f.name] = literal(value)
        else:
            reader.assign("labelled-value", part, rec, f, value)
    for target, (ghost, part, kwargs) in nested.items():
        reader.emit("labelled-value", part, f"{target} = {ghost.worksheet}({kwargs_text(kwargs)})")
    if text_field is not None:
        rec, f = text_field
        told = _as_typed(text, story)
        reader.assign("problem-description", told, rec, f, told)
    reader.answered = True
    return True


def _as_typed(text: str, story: list[str]) -> str:
    """The story as the user typed it (its commas kept) when its parts run on to the end of the turn, else joined."""
    start, end = text.find(story[0]), text.rfind(story[-1])
    if start < 0 or end < start or text[end + len(story[-1]):].strip(" .!"):
        return " ".join(story)
    return text[start:end + len(story[-1])].strip()


def _candidates(reader: "TurnReader") -> list[tuple[TaskRecord, Field]]:
    out = []
    for rec in reader.view.live_records():
        for f in reader.view.input_fields(rec):
            kind = reader.view.kind_of(f)
            if kind in _KINDS and reader.view.unfilled(rec, f):
                out.append((rec, f))
            elif kind == "task" and reader.view.unfilled(rec, f):
                sub = reader.spec.worksheet(parse_type(f.type).base)
                if sub is None:
                    continue
                ghost = TaskRecord(var="_" + snake_case(sub.name), worksheet=sub.name, parent=rec.var,
                                   parent_field=f.name)
                out += [(ghost, sf) for sf in sub.fields if sf.kind == "input" and reader.view.kind_of(sf) in _KINDS]
    return out


def _labelled(reader: "TurnReader", part: str, fields: list[tuple[TaskRecord, Field]],
              taken: list[tuple[str, str]]) -> tuple[TaskRecord, Field, Any, str] | None:
    """(record, field, value, part) when the part's first word (or second, after "my"/"the") is a name word of
    exactly one field and the rest of the part is a value of its type."""
    words = part.split()
    if len(words) < 2:
        return None
    lead = [w.lower().strip(":") for w in words[:4]]
    if lead[0] in ("my", "the", "your", "our"):
        lead = lead[1:]
    scored = []
    for r, f in fields:
        if (r.var, f.name) in taken:
            continue
        name = set(f.name.lower().split("_")) - _NOT_LABELS
        n = 0
        while n < min(3, len(lead) - 1) and (lead[n] in name or short_label(lead[n], name)):
            n += 1  # "acct no 55120934": account said short
        if n:
            scored.append((n, r, f))
    if not scored:
        return None
    best = max(n for n, _r, _f in scored)
    fits = [(r, f) for n, r, f in scored if n == best]
    if len({(r.var, f.name) for r, f in fits}) != 1:
        return None  # "member" of member_code and member_name: the label must name one field
    rec, f = fits[0]
    label = r"\s+".join(re.escape(w) for w in lead[:best])
    rest = re.sub(rf"^(?:(?:my|the|your|our)\s+)?{label}\w*(?:\s+(?:number|no\.?|is|was|:|=))*\s*[:=]?\s*",
                  "", part, flags=re.I).strip()
    if not rest:
        return None
    try:
        value = reader.answers.value_for(f, rest)
        value = None if value is None else coerce_value(value, f, reader.spec)
    except StatementError:
        return None
    if value is None or (reader.view.kind_of(f) == "str" and shape(f) in ("short", "text") and len(rest.split()) > 4):
        return None
    return rec, f, value, part


def _bare_name(reader: "TurnReader", part: str, fields: list[tuple[TaskRecord, Field]],
               taken: list[tuple[str, str]]) -> tuple[TaskRecord, Field, Any, str] | None:
    """ "Liam Byrne, account 60451238", "I am Tran Van Minh, my account is 88120045": a part that is a person's
    name written as one (after "I am" perhaps), for the one unfilled name field (beside a labelled part)."""
    part = _INTRODUCED.sub("", part.strip())  # "I am Tran Van Minh", "this is Ana Ruiz"
    if not PERSON_NAME.fullmatch(part):
        return None
    names = [(r, f) for r, f in fields if (r.var, f.name) not in taken and reader.view.kind_of(f) == "str"
             and shape(f) == "name" and not r.var.startswith("_")]
    if len(names) != 1:
        return None
    return names[0][0], names[0][1], part.strip(), part


def name_sentence(reader: "TurnReader", sentence: str) -> tuple[TaskRecord, Field, str] | None:
    """(record, field, name) when a sentence of an opening is only a person's name ("Dolores Mbeki. My purse was
    stolen ..."), for the one unfilled name field of the live records."""
    from ..words.values import clean_name  # late: a rare path
    from ..intents import chit_chat  # late: intents imports word helpers
    if clean_name(sentence) is None or chit_chat(sentence):
        return None  # "Thank You.", "Good Morning": capitalised words of a greeting name nobody
    found = _bare_name(reader, sentence.strip(" .!,;"), _candidates(reader), [])
    return (found[0], found[1], found[2]) if found is not None else None


def _story_field(reader: "TurnReader") -> tuple[TaskRecord, Field] | None:
    for rec in reader.view.live_records():
        if rec.parent is not None:
            continue
        for f in reader.view.worksheet(rec).fields:
            if f.kind == "input" and not f.dont_ask and reader.view.kind_of(f) == "str" and shape(f) == "text" \
                    and reader.view.unfilled(rec, f):
                return rec, f
    return None
