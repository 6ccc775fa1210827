"""A place said after the preposition its field's description ends with.

"The city or airport you flew in from" ends with "from": in "BW 417 from lisbon, landed this morning" the words after
"from" are that field's value, though it was not asked ("Lisbon"). The description must say the field holds a place
(city, town, airport, country, ...), and the words must look like a place's name: a run of capitalised words
("from Reykjavik", "from New York"), or one word typed in lower case that ends its clause ("frm dublin", "from
lisbon, landed ...") and is no common word of where or when ("from home", "from work", "from there"). Anything
else ("from the car park", "from my sister's") gives no value: the agent asks.
"""

from __future__ import annotations

import re

from ....spec.model import Field
from ..words.values import Span

_PREPOSITIONS = frozenset({"from", "in", "at", "to", "into", "near", "via"})
_PLACE_WORDS = frozenset({"city", "town", "village", "airport", "country", "station", "port", "harbour", "harbor",
                          "county", "state", "region", "place", "location", "where", "origin", "destination"})
_NOT_PLACES = frozenset({
    "home", "work", "school", "college", "uni", "university", "here", "there", "abroad", "overseas", "now", "then",
    "it", "them", "him", "her", "me", "us", "you", "everywhere", "somewhere", "anywhere", "nowhere", "scratch",
    "above", "below", "outside", "inside", "upstairs", "downstairs", "today", "yesterday", "tomorrow", "tonight",
    "morning", "afternoon", "evening", "night", "earlier", "before", "after", "behind", "memory", "heart", "time",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march",
    "april", "may", "june", "july", "august", "september", "october", "november", "december", "one", "ones",
    "what", "which", "where", "who", "that", "this", "these", "those", "all", "both", "none", "nothing", "something",
    "anything", "everything", "someone", "anyone", "nobody", "somebody", "mine", "yours", "ours", "theirs", "his",
    "hers", "a", "an", "the", "my", "our", "your", "their", "and", "or", "but", "so", "too", "again", "back", "away",
    "off", "out", "up", "down", "over", "on", "in", "at", "to", "by", "with", "for", "of", "from", "about",
})
_CALENDAR = re.compile(r"^(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?$|^(?:jan|feb|mar|apr|may|jun|jul|"
                       r"aug|sep|sept|oct|nov|dec)[a-z]*$", re.I)
_TAIL = r"[^\W\d_]*(?:['’-][^\W\d_]+)*"
_CAPS_RUN = re.compile(rf"[A-Z]{_TAIL}(?:\s+[A-Z]{_TAIL})*")
_LOWER_WORD = re.compile(r"[a-z][a-z'’-]*[a-z]")
_END_OF_CLAUSE = re.compile(r"\s*(?:[,.;!?)]|$)|\s+(?:today|yesterday|tonight|this|last|on|at|earlier|around|about|"
                            r"and|but|so|then|via)\b", re.I)


def place_preposition(f: Field) -> str | None:
    """The preposition a text field's description ends with, when the description says it holds a place
    ("The city or airport you flew in from": "from")."""
    if f.type != "str" or f.kind != "input":
        return None
    words = re.findall(r"[a-z]+", f.description.lower())
    if len(words) < 3 or words[-1] not in _PREPOSITIONS or not set(words) & _PLACE_WORDS:
        return None
    return words[-1]


def _typed_preposition(word: str) -> str:
    return r"(?:from|frm|fr)" if word == "from" else re.escape(word)


def place_spans(text: str, preposition: str) -> list[Span]:
    """The places said right after `preposition` in `text` (title-cased when typed in lower case)."""
    out = []
    for m in re.finditer(rf"\b{_typed_preposition(preposition)}\s+", text, re.I):
        at = m.end()
        run = _CAPS_RUN.match(text, at)
        if run:
            kept = []
            for w in run.group(0).split():
                bare = re.sub(r"['’]s$", "", w)
                if (w.isupper() and len(w) > 1) or _CALENDAR.match(bare) or bare.lower() in _NOT_PLACES or bare != w:
                    break  # "from BW ...", "from Monday", "from The ...": no place's name
                kept.append(w)
            if kept:
                said = text[at:at + run.group(0).index(kept[-1]) + len(kept[-1])]
                out.append(Span(said, at, at + len(said), said))
            continue
        low = _LOWER_WORD.match(text, at)
        if low is None or len(low.group(0)) < 3 or low.group(0) in _NOT_PLACES or _CALENDAR.match(low.group(0)) \
                or not _END_OF_CLAUSE.match(text, low.end()):
            continue  # "from the car park", "from home": no place's name
        said = low.group(0)
        out.append(Span(said.title(), at, low.end(), said))
    return out
