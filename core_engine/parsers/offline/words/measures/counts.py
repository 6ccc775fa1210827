"""A head count said with the speaker included: "me and three friends" is 4, "my wife and I" is 2.

Only for a whole-number field that counts people (its name or description says people, guests, party...);
the number said counts the others, and the speaker adds one ("just me and my wife": one other, so 2).
"""

from __future__ import annotations

import re

from ..values import find_numbers

_ME_AND = re.compile(r"\b(?:me|myself|i)\s+(?:and|plus|\+|with)\s+(?P<rest>.{1,30})", re.I)
_ONE_OTHER = re.compile(r"my\s+(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|mum|mom|dad|mother|"
                        r"father|son|daughter|brother|sister)\b(?!'s|\s+(?:and|plus|with|\+|&)\b)", re.I)
"""One person named by a family relation ("me and my wife"); "my friend" may bring others, so it is not counted."""
_AND_ME = re.compile(r"\b(?:my|a|one)\s+[a-z]+\s+and\s+(?:me|i|myself)\b", re.I)


def head_count(text: str) -> int | None:
    """The size of a group that includes the speaker, or None when the words do not say one."""
    m = _ME_AND.search(text)
    if m:
        found = find_numbers(m.group("rest"))
        if found and found[0].start <= 1 and float(found[0].value).is_integer():
            return int(found[0].value) + 1
        if (not found or found[0].start > 1) and _ONE_OTHER.match(m.group("rest")):
            return 2  # "just me and my wife": one other person, named by a singular noun
        return None
    if _AND_ME.search(text) and not find_numbers(text):
        return 2  # "my wife and I"
    return None


_PEOPLE_NOUN = re.compile(r"\s*(?:adults?|kids?|children|child|people|persons?|guests?|bab(?:y|ies)|toddlers?|"
                          r"teens?|teenagers?|seniors?|friends?|infants?|grown-?ups?)\b", re.I)


def people_sum(text: str) -> int | None:
    """ "2 adults and 1 kid" is 3: two or more numbers, each said with a kind of person, and no other number."""
    found = people_sum_span(text)
    return found[0] if found else None


def people_sum_span(text: str, numbers: list | None = None) -> tuple[int, int, int] | None:
    """(the sum, start, end of the words that said it) for "2 adults and 1 kid"; `numbers`, the turn's numbers
    that are not parts of dates or times (all of them by default)."""
    numbers = find_numbers(text) if numbers is None else numbers
    counted = [(n, _PEOPLE_NOUN.match(text[n.end:])) for n in numbers]
    if len(numbers) < 2 or not all(m for _n, m in counted) or not all(float(n.value).is_integer() for n in numbers):
        return None
    last, noun = counted[-1]
    return int(sum(n.value for n in numbers)), numbers[0].start, last.end + noun.end()  # type: ignore[union-attr]


_PLUS_OTHERS = re.compile(r"\s+(?:plus|and|with|\+|&)\s+(?:our|my|the|their)?\s*$", re.I)


def couple_plus_span(text: str, numbers: list | None = None) -> tuple[int, int, int] | None:
    """ "my wife and I plus our 3 kids" is 5: two people named with the speaker, then one number of people added
    after them; (the sum, start, end of the words that said it), else None."""
    pair = _AND_ME.search(text)
    if pair is None:
        return None
    numbers = find_numbers(text) if numbers is None else numbers
    after = [n for n in numbers if n.start >= pair.end()]
    if len(after) != 1 or not float(after[0].value).is_integer():
        return None
    n = after[0]
    noun = _PEOPLE_NOUN.match(text[n.end:])
    if noun is None or not _PLUS_OTHERS.search(text[pair.end():n.start]):
        return None
    return 2 + int(n.value), pair.start(), n.end + noun.end()

