"""A field refused by naming it after "not": "I've only got the card number, not the account number" to the account
number question. The user says what they have instead of the thing asked; the thing asked is the one negated.

Read only when the negated words are the asked field's own name, all of it ("account number" for `account_number`,
"date of birth" for `date_of_birth`) and end the clause, and the turn holds no digit or "@" (a value beside the
negation, "1234, not the account number", is an answer or a correction, not a refusal).
"""

from __future__ import annotations

import re

from ....spec.model import Field
from ..words.match import same_word, stem
from ..words.values import normalise

_NOT_NAMED = re.compile(r"\bnot\s+(?:the|my|our|his|her|their|an?|any)\s+(?P<named>[a-z][a-z -]*?)\s*(?:[,.;!?]|$)",
                        re.I)
_LINKS = {"of", "the", "a", "an"}


def refused_by_name(text: str, f: Field) -> str | None:
    """The words "not the <field's name>" when they refuse the asked field `f` (module docstring); None otherwise."""
    said = normalise(text)
    if re.search(r"[\d@]", said):
        return None
    own = [stem(w) for w in f.name.lower().split("_") if w and w not in _LINKS]
    for m in _NOT_NAMED.finditer(said):
        named = [stem(w) for w in re.findall(r"[a-z]+", m.group("named").lower()) if w not in _LINKS]
        if own and len(named) == len(own) and all(same_word(a, b) for a, b in zip(named, own)):
            return m.group(0).strip(" ,.;!?")
    return None
