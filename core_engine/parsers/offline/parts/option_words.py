"""An answer that says words only one option's description has ("3 months is enough" to an option described
as "valid for three months", "twelve months" to one "valid for twelve months"): that option.

Numbers typed as digits are read as the number words descriptions use. Words that two options share decide
nothing; a word of a second option makes the answer ambiguous, and nothing is chosen."""
from __future__ import annotations

import re

from ....spec.model import Field
from ..words.match import content_stems

_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty").split()


def spell_numbers(text: str) -> str:
    """ "3 months" -> "three months": small whole numbers as words."""
    return re.sub(r"(?<![\w.])(\d{1,2})(?![\w.]|\.\d)",
                  lambda m: _NUMBER_WORDS[int(m.group(1))] if int(m.group(1)) <= 20 else m.group(1), text)


_NUMBERS = frozenset(_NUMBER_WORDS)


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+|\d+", spell_numbers(text.lower()))) & _NUMBERS


def numbers_disagree(value: str, text: str) -> bool:
    """The option names a number and the answer says only other numbers ("every 4 weeks" is not "Every 8 Weeks")."""
    own = _numbers(value)
    said = _numbers(text)
    return bool(own and said and not own & said)


def described_option(f: Field, text: str, max_words: int = 6) -> str | None:
    """The one enum value whose own words (value and description) the short answer says, or None."""
    if len(f.enum_values) < 2 or len(text.split()) > max_words:
        return None
    said = set(content_stems(spell_numbers(text)))
    own = {ev.value: set(content_stems(f"{ev.value} {ev.description or ''}")) for ev in f.enum_values}
    hits = []
    for value, words in own.items():
        others = set().union(*(w for v, w in own.items() if v != value))
        if said & (words - others):
            hits.append(value)
    return hits[0] if len(hits) == 1 else None
