"""Another KB row named while the row field is already filled: "the fiat 500", "can I switch to the golf instead?".

The record's row field takes the named row (as a search for it, which the policy resolves to that row) when
exactly one live record holds a row, exactly one row is named (by its whole name, or by a word of its name
that no other row's name has), and the turn either says a change ("instead", "switch", "rather", "actually")
or says little else. A question about the row ("how much is the fiat 500?") is left to the question rule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..intents import is_question
from .items import _words, row_names
from ..opening.tasks import literal
from ..words.match import HEDGES, STOPWORDS, words
from ..words.values import MONTHS, WEEKDAYS

if TYPE_CHECKING:
    from ..parser import TurnReader

_CHANGE = re.compile(r"\b(?:instead|switch|swap|change|rather|actually|prefer)\b", re.I)
_CHANGE_WORDS = {"instead", "switch", "swap", "change", "rather", "actually", "prefer", "pls", "hmm", "to", "can",
                 "take", "go", "with", "let", "lets", "let's", "i'll", "ill", "want", "ok", "okay", "oh"}


_SWITCH_TO = re.compile(r"\b(?:switch|swap|change|move)\s+(?:it\s+|that\s+)?(?:over\s+)?(?:to|for)\s+"
                        r"(?P<what>[^,.;!?]+?)\s*(?:\binstead\b|[,.;!?]|$)", re.I)
"""A change to another thing described ("switch to a 3 seater rowing boat instead"): the words after "to"."""
_CALENDAR_WORDS = frozenset([*WEEKDAYS, *MONTHS, "today", "tomorrow", "tonight", "weekend", "noon", "midnight",
                             "morning", "afternoon", "evening", "night"])
"""Words of a date or time: said alone, they are the date or time, not a word of a row's name."""


def named_row(reader: "TurnReader", text: str, *, whole_only: bool = False) -> str | None:
    """The one row name the turn says, whole or (unless `whole_only`) by a word only its name has."""
    names = {n: v for table in row_names(reader.vocabulary, reader.ctx.kb).values() for n, v in table.items()
             if not v.startswith("[") and v[:1].isupper()}  # names as typed ("Fiat 500"), not lists or free text
    low = _words(text)  # " the fiat 500 " (spaced at both ends, as the names are)
    whole = {v for n, v in names.items() if f" {n.strip()} " in low}
    if len(whole) == 1:
        return next(iter(whole))
    if whole or whole_only:
        return None
    said = {re.sub(r"['’]s$", "", w) for w in words(text)} - STOPWORDS - _CALENDAR_WORDS  # "let's do monday instead"
    # names no "Cafe Monday"; "St Peter's" is said as the name's words are kept ("st peter s church")
    owners: dict[str, set[str]] = {}
    for n, v in names.items():
        for w in n.split():
            if len(w) >= 4 and w not in STOPWORDS:
                owners.setdefault(w, set()).add(v)
    found = {next(iter(vs)) for w, vs in owners.items() if w in said and len(vs) == 1}
    return next(iter(found)) if len(found) == 1 else None


def row_named_by_phrase(reader: "TurnReader", text: str) -> str | None:
    """The one row whose name has two of its words said together, in its order, one of them a word no other row's
    name has, said as "the ... one(s)" ("those solar screen ones" of "Solar Screen Roller"): a name said in part, as
    people shorten one. "a dining table", "a sofa bed" name a kind of thing, not the row whose name says it. Not when
    the phrase is in two rows' names ("oak effect" of "Oak Effect Venetian" and "Oak Effect Vertical")."""
    names = {n: v for table in row_names(reader.vocabulary, reader.ctx.kb).values() for n, v in table.items()
             if not v.startswith("[") and v[:1].isupper()}
    low = _words(text)
    owners: dict[str, set[str]] = {}
    for n, v in names.items():
        for w in n.split():
            owners.setdefault(w, set()).add(v)
    found: set[str] = set()
    for n, v in names.items():
        parts = n.split()
        for i in range(len(parts) - 1):
            run = parts[i:i + 2]
            if any(w in STOPWORDS or w in _CALENDAR_WORDS or not w.isalpha() for w in run) or \
                    max(len(w) for w in run) < 4 or not any(len(owners[w]) == 1 for w in run):
                continue  # "a piano tuning" of "Standard Piano Tuning": words many rows' names have name none
            if re.search(rf" {' '.join(run)} (?:one|ones) ", low):  # "those solar screen ones", not "a dining table"
                phrase = " ".join(run)
                if any(f" {phrase} " in f" {m} " for m, u in names.items() if u != v):
                    continue  # the words are in another row's name too
                found.add(v)
    return next(iter(found)) if len(found) == 1 else None


def _same_table(reader: "TurnReader", name: str, held: dict) -> bool:
    """Whether the row named and the row held can be of one table: no table names both apart."""
    from .items import name_tables
    found = name_tables(reader.vocabulary, reader.ctx.kb, name)
    held_in = {t for v in held.values() if isinstance(v, str) for t in name_tables(reader.vocabulary, reader.ctx.kb, v)}
    return not found or not held_in or bool(found & held_in)


def row_change(reader: "TurnReader", text: str) -> bool:
    if reader.ctx.kb is None or is_question(text) and not _CHANGE.search(text):
        return False
    held = [(rec, f) for rec in reader.view.live_records() for f in reader.view.input_fields(rec)
            if reader.view.kind_of(f) == "row" and not reader.view.unfilled(rec, f)]
    if len(held) != 1:
        return False
    rec, f = held[0]
    e = reader.expect
    if e is not None and e.act == "ask" and (e.rec.var, e.field.name) == (rec.var, f.name):
        return False  # the row is what is asked: the answer rule reads it
    switched = _SWITCH_TO.search(text)
    if switched and named_row(reader, text) is None and \
            reader.vocabulary.found_in(switched.group("what"), reader.ctx.kb):
        # "can we switch to a 3 seater rowing boat instead": another row described by the KB's words, searched for
        reader.emit("row-change", switched.group("what"),
                    f"{rec.var}.{f.name} = answer({literal(switched.group('what').strip())})")
        return True
    if e is not None and e.act == "ask" and reader.value_for(e.field, text) is not None:
        return False  # "Sunday" answers the question asked
    name = named_row(reader, text)
    if name is None:
        return False
    current = rec.values.get(f.name)
    if isinstance(current, dict) and any(isinstance(v, str) and v.lower() == name.lower() for v in current.values()):
        return False  # the row it already holds
    if isinstance(current, dict) and not _same_table(reader, name, current):
        return False  # "Pier Head" (a mooring) while an instructor is held: a row of another table, not a change
    rest = [w for w in words(text) if w not in STOPWORDS | HEDGES | _CHANGE_WORDS and w not in _words(name).split()]
    if not _CHANGE.search(text) and len(rest) > 1:
        return False
    reader.emit("row-change", text, f"{rec.var}.{f.name} = answer({literal(name)})")
    return True
