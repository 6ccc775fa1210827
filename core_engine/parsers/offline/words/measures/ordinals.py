"""Numbers said as an ordinal of the field's own noun ("the second floor", "4th flr") or as a word its description
teaches ("Which floor the new home is on (1 for the ground floor)": "ground floor" is 1)."""

from __future__ import annotations

import functools
import re

from .....spec.model import Field
from ..match import STOPWORDS, content_stems, field_stems, stem

_ORDINAL_WORDS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), start=1)}
_ORDINAL = re.compile(r"\b(?:(\d{1,3})(?:st|nd|rd|th)|(" + "|".join(_ORDINAL_WORDS) + r"))\s+([a-z]+)", re.I)
_ABBREVIATIONS = {"flr": "floor", "fl": "floor", "lvl": "level", "rm": "room"}
_TAUGHT = re.compile(r"(?:^|[(,;])\s*(\d{1,4})\s*(?:for|=|means|is)\s+([^(),;.]{3,40})", re.I)
_TAUGHT_AFTER = re.compile(r"(?:^|[(,;])\s*([A-Za-z][^(),;.=]{2,40}?)\s*=\s*(\d{1,4})\b")


def ordinal_number(f: Field, text: str) -> tuple[int, str] | None:
    """ "the second floor", "4th floor", "2nd flr": the ordinal right before a word of the field's name (the
    number and the words that said it)."""
    nouns = field_stems(f, with_description=False)
    found = []
    for m in _ORDINAL.finditer(text):
        noun = _ABBREVIATIONS.get(m.group(3).lower(), m.group(3))
        if stem(noun) in nouns:
            found.append((int(m.group(1)) if m.group(1) else _ORDINAL_WORDS[m.group(2).lower()], m.group(0)))
    return found[-1] if found else None  # "first floor, no wait, the 2nd floor": the last one said


@functools.lru_cache(maxsize=1024)
def _taught(description: str) -> tuple[tuple[tuple[str, ...], int], ...]:
    """(content stems of a phrase, number) pairs a description teaches: "(1 for the ground floor)",
    "(0 = a studio or single room)"."""
    out = []
    pairs = [(m.group(1), m.group(2)) for m in _TAUGHT.finditer(description)] + \
        [(m.group(2), m.group(1)) for m in _TAUGHT_AFTER.finditer(description)]
    for number, phrase in pairs:
        for part in re.split(r"\s+or\s+|/", phrase):
            stems = tuple(s for s in content_stems(part) if s not in STOPWORDS)
            if stems:
                out.append((stems, int(number)))
    return tuple(out)


def taught_number(f: Field, text: str) -> tuple[int, str] | None:
    """The number whose taught phrase the answer says in full ("ground floor, it's a house" -> 1), if one does,
    with the answer's words that said it."""
    said = set(content_stems(text))
    hits = {(n, stems) for stems, n in _taught(f.description) if set(stems) <= said}
    if len({n for n, _s in hits}) != 1:
        return None
    n, stems = hits.pop()
    words = [w for w in re.findall(r"[A-Za-z]+", text) if stem(w.lower()) in stems]
    return n, " ".join(words)
