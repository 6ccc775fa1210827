"""An opening that tells what is wrong ("my dog has been throwing up since yesterday") also chooses the option of
the opened task's other enum fields that it means ("Illness: the pet seems unwell: sick, ..."), by meaning.

The words of the values the opening already gave ("do you fix electric bikes": the bike's kind) are left out, so they
choose no other option by meaning. The turn is read without its short comma clauses; only when one option clearly wins (score and margin below, set on the session-7 held-out agents: the readings
taken score 0.40-0.53 with margins of 0.14 or more; "I'm locked out of my account" scores 0.35 for an urgency option, not taken); otherwise the field is
asked, since a wrong value is worse than none. The score and runner-up are in the trace.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from ....spec.model import Field, Worksheet
from .task_texts import opener_stems, task_text_stems
from .tasks import BOOKING_WORDS, literal, task_words
from ..words.match import HEDGES, Unknown, content_stems, holds, silent_e, stem
from ..words.negation import negations
from ..words.semantic_index import clean, words_of

if TYPE_CHECKING:
    from ..parser import TurnReader

OPTION_SCORE = 0.38
OPTION_MARGIN = 0.12


def _said(text: str) -> str:
    kept = [c for c in re.split(r"[,;]", text) if len(c.split()) >= 3]  # ", he's 9": another value, not the story
    return clean(", ".join(kept) or text)


def _without_codes(text: str) -> str:
    from ..words.values import find_codes  # late: keeps this module's imports as they were
    for c in sorted(find_codes(text), key=lambda c: -c.start):
        text = text[:c.start] + " " + text[c.end:]
    return re.sub(r"\b[A-Za-z]*\d[\w-]*", " ", text)


def ruled_out(f: Field, kwargs: dict[str, str], rows: dict[str, dict] | None = None) -> bool:
    """The field's predicate is false by the values the turn already gives (`current_certification` asked only
    `if self.course in ("Advanced Open Water", ...)`, the course read as Discover Scuba), or by the KB row it
    chooses (`rows`: field -> row; a curtain lining asked only when `self.product.category == "Curtains"`, a Roman
    blind chosen): no option of it is chosen. Not `StateView.lookup`: it reads a field not given as None, and an
    unknown value must leave the predicate undecided here."""
    if not (f.predicate or "").strip():
        return False

    def lookup(path: tuple[str, ...]):
        if len(path) >= 2 and path[0] == "self" and path[1] in (rows or {}):
            value: object = rows[path[1]]
            for key in path[2:]:
                if not isinstance(value, dict) or key not in value:
                    raise Unknown(".".join(path))
                value = value[key]
            return value
        if len(path) == 2 and path[0] == "self" and path[1] in kwargs:
            try:
                return ast.literal_eval(kwargs[path[1]])
            except (ValueError, SyntaxError):
                raise Unknown(path[1]) from None
        raise Unknown(".".join(path))

    return holds(f.predicate, lookup) is False


def options_by_meaning(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """Fill `kwargs` with the clearly meant option of each unset enum field of `ws`; return the words read."""
    fields = [f for f in ws.fields if f.kind == "input" and not f.dont_ask and reader.view.kind_of(f) == "Enum"
              and f.name not in kwargs and f.enum_values and not ruled_out(f, kwargs)]
    from ..words.semantic import without_values  # late: semantic imports the opening rules
    agent_words = set(content_stems(reader.spec.description or ""))  # "a courier": what the agent is, not a story
    told = set(content_stems(without_values(reader, _without_codes(text)))) - HEDGES - BOOKING_WORDS - task_words(ws) \
        - task_text_stems(reader, ws) - agent_words  # "... for GB55 KRT": a reference tells no story
    if not fields or len(told) < 2:
        return None  # "hi, I'd like to book a room please" names the task and tells nothing more
    if any(line.startswith("exitws(") for line in reader.lines):
        return None  # a change of task ("forget the appointment, I'd rather reorder her tablets") tells no story
    given = {w.rstrip("s") for value in kwargs.values() for q in re.findall(r'"([^"]+)"', str(value))
             for w in re.findall(r"[a-z]+", q.lower())}  # "electric bikes" chose the bike's kind: no other option
    rest = " ".join(w for w in text.split() if re.sub(r"\W", "", w.lower()).rstrip("s") not in given)
    rest_told = set(content_stems(without_values(reader, rest))) - HEDGES - BOOKING_WORDS - task_words(ws) \
        - task_text_stems(reader, ws) - agent_words
    readings = [_said(text)] + ([_said(rest)] if given and rest != text else [])
    if len(readings) > 1 and len(rest_told) < 2:
        return None  # "do you fix electric bikes": without the bike's kind, nothing is told
    named = {stem(w) for w in words_of(ws.name).lower().split()}  # the words of the task's name: the option must
    plain = " ".join(w for w in text.split() if stem(re.sub(r"\W", "", w.lower())) not in named)  # win without
    if plain and plain != text:  # them too ("do you do gift vouchers?": "e-voucher" is no reason to choose Email)
        readings.append(_said(plain))
    for f in fields:
        ranks = [reader.view.index().rank(said, lambda e: e.kind == "enum" and e.worksheet == ws.name
                                          and e.field == f.name) for said in readings]
        if any(r.best is None or not r.decided(OPTION_SCORE, OPTION_MARGIN) for r in ranks) or \
                len({r.best.value for r in ranks}) > 1:
            worded = _option_by_words(reader, ws, f, rest if given else text)
            if worded is not None:  # "the gears keep slipping": a word only that option's description has
                kwargs[f.name] = literal(worded[0])
                reader.note("option-by-words", text, field=f.name, words=sorted(worded[1]))
            continue  # nothing clear (with and without the words of the values given): the field is asked
        value = ranks[0].best.value
        said_not = {w for n in negations(text) for w in content_stems(n.what)}
        if said_not & set(content_stems(value)):  # "..., it's not about a form": not the option about the form
            others = [ev.value for ev in f.enum_values if not said_not & set(content_stems(ev.value))]
            if len(others) != 1:
                continue
            reader.note("negation", text, field=f.name, rejected=value, kept=others[0])
            value = others[0]
        kwargs[f.name] = literal(value)
        reader.note("option-by-meaning", text, field=f.name, **ranks[0].trace())
    return None



def option_by_task_verb(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> None:
    """ "I'd like to move my lesson" opens the task described as "move or cancel a lesson" and also chooses its
    option "move the lesson to another day": the task's texts name two or more options of an unset enum field by
    words only that option has, and the turn says the words of exactly one. Nothing is chosen when the word is
    negated ("not cancel, move it"), or when words of two options are said."""
    chose = opener_stems(reader, ws)
    if not chose:
        return
    chose -= set(content_stems(f"{words_of(ws.name)} {ws.description}")) | {
        s for g in ws.fields for s in content_stems(f"{words_of(g.name)} {g.description}")
        if reader.view.kind_of(g) != "Enum"}  # "bike" also names the bike field: it says no option
    chose = silent_e(chose)
    said = silent_e(set(content_stems(text))) & chose
    said -= silent_e({w for n in negations(text) for w in content_stems(n.what)})
    for f in ws.fields:
        if f.kind != "input" or f.name in kwargs or reader.view.kind_of(f) != "Enum" or len(f.enum_values) < 2 \
                or ruled_out(f, kwargs):
            continue
        words = {ev.value: silent_e(set(content_stems(f"{ev.value} {ev.description}"))) for ev in f.enum_values}
        own = {value: mine - set().union(*(w for v, w in words.items() if v != value)) for value, mine in words.items()}
        if sum(bool(mine & chose) for mine in own.values()) < 2:
            continue  # the task's texts do not list this field's options ("move or cancel"): its words choose none
        hits = {value: said & mine for value, mine in own.items() if said & mine}
        if len(hits) == 1:
            value, found = next(iter(hits.items()))
            kwargs[f.name] = literal(value)
            reader.note("option-by-task-verb", text, field=f.name, words=sorted(found))


_PLACE_BEFORE = re.compile(r"\b(?:at|in|on|inside|outside|around|near|from|to|into)\s+(?:(?:my|our|your|his|her|their|the|a)\s+)?$",
                           re.I)
"""A noun after a place preposition ("the power's gone off at my house") says where, not what is wrong."""


_PLACE_WORDS = re.compile(r"\b(?:around|near|between|behind|beside|next\s+to|opposite|along|streets?|area|quarter)\b",
                          re.I)


def _options_are_places(f) -> bool:
    """The field's options are described as places ("beside the lighthouse and the lifeboat station", "behind the
    lock gates"): most of their descriptions say where."""
    described = [ev.description for ev in f.enum_values if ev.description]
    return len(described) >= 3 and sum(bool(_PLACE_WORDS.search(d)) for d in described) * 2 > len(f.enum_values)


def _option_by_words(reader: "TurnReader", ws: Worksheet, f, text: str) -> tuple[str, set[str]] | None:
    """The one option of `f` whose value or description has a word of the turn that no other option of the field,
    no other field's description and no task text has ("gears" of "brakes and gears adjusted, ..." for "the gears
    keep slipping"); None when no option or several are named so, the word says where ("at my house"), or the
    turn negates anything."""
    if negations(text):
        return None
    places = _options_are_places(f)  # "near the lighthouse" says where, and the options are where
    said = {stem(m.group(0)) for m in re.finditer(r"[A-Za-z]+", text)
            if places or not _PLACE_BEFORE.search(text[:m.start()])}
    said = said & set(content_stems(text)) - HEDGES - BOOKING_WORDS
    words = {ev.value: set(content_stems(f"{ev.value} {ev.description}")) for ev in f.enum_values}
    common = task_words(ws) | task_text_stems(reader, ws) | set(content_stems(f"{ws.name} {ws.description}")) | {
        s for g in ws.fields if g.name != f.name for s in content_stems(g.description)} | set(
        content_stems(f.description))
    hits = {}
    for value, mine in words.items():
        others = set().union(*(w for v, w in words.items() if v != value))
        found = said & (mine - others - common)
        if found:
            hits[value] = found
    return next(iter(hits.items())) if len(hits) == 1 else None
