"""An option volunteered in part, named by a phrase of two words or more: "little motor cruiser" for Motor Boat
(taught "a motor cruiser"), "the street food please" for Street Food Buffet.

The exact value and taught phrases said as a clause are read in `slots._enum_mentions`; this reads the rest, for a
field that was not asked and holds no value, from phrases of one option only:
- a taught example that names a thing ("a motor cruiser"), without its article, inside a longer phrase;
- two or more words in a row of an option's value of three words or more ("street food" of Street Food Buffet).
One word alone chooses nothing: an attack pass found "a small problem", "my flight lands at seven", "good morning",
"Forest Road" and "no beach please" each read as an option by their one word.
Not after a word that rejects or drops it ("no", "skip", "too ... for"), in a question, after a number ("2 week"),
before a street word ("Station Road") or in a clause about the past. A field whose phrases point at two options, or a
phrase two fields share, gives nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from ....dialogue.state import TaskRecord
from ....spec.model import Field
from ..words.match import STOPWORDS, stem

_DETERMINERS = frozenset("a an the some my our any".split())
_PLAIN = frozenset("one ones thing things kind sort type".split())
"""Words a phrase may hold that say nothing of which option: "the town one" needs more than "town one"."""
_AGAINST = frozenset("""skip skipping drop dropping scrap forget ditch lose cancel remove without instead no not nothing
never hate hates hated bored sick tired too than rather except scared afraid worried nervous don won didn doesn isn
wouldn shouldn already parents mum dad wife husband partner friend sister brother""".split())
"""Words before a phrase that reject or drop what it names ("we'll skip the video", "no street food", "I don't want
a family canoe": "don" of "don't"), or give it to someone else ("the family membership is for my parents")."""
_NUMBER_WORDS = frozenset("a one two three four five six seven eight nine ten couple few several".split())
_STREET = frozenset("""road rd street st lane ln way avenue ave close drive dr crescent place terrace grove house hotel
inn hall court ltd limited""".split())
"""Words after a phrase that make it a place or a firm's name ("Gluten Free House", "Direct Debit Ltd")."""
_PAST = re.compile(r"\b(?:ago|last\s+(?:year|time|week|month|summer)|used\s+to|previously|before|once|ever|was|were|"
                   r"did|went|had)\b")
"""A clause about what was ("we took a canoe out once"): what is wanted now is not told there."""
_IF = re.compile(r"\b(?:if|unless|whether|in\s+case)\b")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@lru_cache(maxsize=4096)
def _cues(values: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(phrase words, option value) for one field's options: taught things without their article, and runs of two
    words or more of a long value; a phrase two options share is no cue."""
    cues: list[tuple[tuple[str, ...], str]] = []
    for value, examples in values:
        for example in examples:
            words = _words(example)
            if not words or words[0] not in _DETERMINERS:
                continue  # "before lunch" said inside "i am out before lunch" is no preference: only a thing named
            while words and words[0] in _DETERMINERS:
                words = words[1:]
            if len([w for w in words if w not in _PLAIN and w not in STOPWORDS]) >= 2:
                cues.append((tuple(words), value))
        words = _words(value)
        if len(words) >= 3:
            for n in range(2, len(words)):
                for i in range(len(words) - n + 1):
                    run = words[i:i + n]
                    if len([w for w in run if w not in STOPWORDS]) >= 2 and run[0] not in STOPWORDS \
                            and run[-1] not in STOPWORDS:
                        cues.append((tuple(run), value))
    by_cue: dict[tuple[str, ...], set[str]] = {}
    for words, value in cues:
        by_cue.setdefault(words, set()).add(value)
    return tuple((words, value) for words, value in cues if len(by_cue[words]) == 1)


def _said_at(words: tuple[str, ...], said: list[str]) -> int | None:
    """Where the cue's words stand in the turn's words (a plural counts: "motor cruisers")."""
    n = len(words)
    for i in range(len(said) - n + 1):
        if all(a in (b, b + "s", b + "es") for a, b in zip(said[i:i + n], words)):  # not "posted" for Post
            return i
    return None


def _capitalised(words: tuple[str, ...], text: str) -> bool:
    """The phrase is written with capitals inside a turn that is not all capitals or capitals at every word."""
    m = re.search(r"\b" + r"\W+".join(map(re.escape, words)), text, re.I)
    if m is None or m.start() == 0:
        return False
    said = m.group(0).split()
    shouting = sum(w[:1].isupper() for w in text.split()) > len(text.split()) // 2
    return not shouting and all(w[:1].isupper() for w in said)


def _clause_before(said: list[str], at: int) -> list[str]:
    """The words of the phrase's clause before it."""
    start = max((i + 1 for i, w in enumerate(said[:at]) if w == ","), default=0)
    return said[start:at]


def option_cues(text: str, fits: list[tuple[TaskRecord, Field]], used: set[tuple[str, str]], pick: Callable
                ) -> list[tuple[TaskRecord, Field, str, str]]:
    """(record, field, option, words said) for each field with phrases of exactly one option in the turn."""
    kept = [c for c in re.split(r"[,.;!]|\bbut\b", text.lower()) if not _PAST.search(c) and "?" not in c
            and not _IF.search(c)]  # "if the full access is cheap I'll take it": not chosen yet
    said = [w for c in kept for w in [*_words(c), ","]]  # a clause asked ("does the electric one cost more?") chooses nothing
    found: dict[tuple[str, ...], list[tuple[TaskRecord, Field, str]]] = {}
    for rec, f in fits:
        if (rec.var, f.name) in used or not f.enum_values or rec.values.get(f.name) is not None:
            continue  # a value held is changed by plainer words than a cue
        hits = []
        for words, value in _cues(tuple((ev.value, tuple(ev.examples)) for ev in f.enum_values)):
            at = _said_at(words, said)
            if at is None or set(_clause_before(said, at)) & _AGAINST:
                continue  # "we'll skip the open canoe", "no street food", "too small for a family canoe"
            if at > 0 and (said[at - 1].isdigit() or said[at - 1] in _NUMBER_WORDS - {"a"}):
                continue  # "two motor cruisers" counts them
            if at + len(words) < len(said) and said[at + len(words)] in _STREET:
                continue  # "12 Motor Yacht Close" is an address
            if _capitalised(words, text):
                continue  # "the Garden Terrace Hotel": a name
            hits.append((words, value, (at, at + len(words))))
        hits = [h for h in hits if not any(o[2][0] <= h[2][0] and h[2][1] <= o[2][1] and o[2] != h[2]
                                           for o in hits)]  # the longer phrase over one inside it
        if len({value for _w, value, _s in hits}) != 1:
            continue
        words, value, _span = max(hits, key=lambda h: len(h[0]))
        found.setdefault(words, []).append((rec, f, value))
    out = []
    for words, options in sorted(found.items(), key=lambda kv: -len(kv[0])):
        target = pick([(r, f) for r, f, _v in options])
        if target is None or (target[0].var, target[1].name) in used:
            continue
        value = next(v for r, f, v in options if r.var == target[0].var and f.name == target[1].name)
        out.append((target[0], target[1], value, " ".join(words)))
        used.add((target[0].var, target[1].name))
    return out
