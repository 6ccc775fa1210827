"""A number of people changed by how many come or drop out: "hmm actually 2 of them can't make it", "2 more are
coming now", "plus one more" while the booking holds how many people.

The count field is the one of a live record whose name or description counts people (party size, guests, adults)
and that holds a number. The new count is the held one less or more the number said, or the new total said beside
it ("3 of us can't make it, so 5 total"); a count that would fall below one is not changed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from ..words.answers import PEOPLE_STEMS
from ..words.match import field_stems
from ..words.values import UNITS

if TYPE_CHECKING:
    from ..parser import TurnReader

_N = r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple)"
_FEWER = [re.compile(p, re.I) for p in (
    rf"\b{_N}\s+(?:of\s+(?:us|them|the\s+\w+)\s+|people\s+|guests\s+|friends\s+|kids\s+|adults\s+)?"
    r"(?:can'?t|cannot|can\s+not|won'?t|will\s+not|wont|aren'?t|are\s+not|are\s+no\s+longer|couldn'?t|have\s+to)\s+"
    r"(?:make\s+it|come|coming|join|joining|drop\s+out|pull\s+out|be\s+there|able\s+to\s+(?:come|make\s+it))\b",
    rf"\b{_N}\s+(?:of\s+(?:us|them)\s+|people\s+|guests\s+)?(?:dropped|pulled)\s+out\b",
    rf"\b{_N}\s+(?:fewer|less)\b")]
_MORE = [re.compile(p, re.I) for p in (
    rf"\b{_N}\s+more\s+(?:people|guests|friends|adults|kids|of\s+us|coming|joining|are\s+coming)\b",
    rf"\bplus\s+{_N}\s+more\b", rf"\b(?:add|bring(?:ing)?)\s+{_N}\s+more\b")]
_NUM = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_TOTAL = [re.compile(p, re.I) for p in (
    rf"\b(?:so|making\s+(?:it|us)|that'?s|make\s+it|now\s+(?:we'?re|it'?s))\s+(?:just\s+|only\s+)?(?P<n>{_NUM})\b",
    rf"\b(?P<n>{_NUM})\s+(?:in\s+total|total|in\s+all|altogether)\b")]
"""A new total said beside the change ("so 5 total", "making it 6"): that total is the count."""


def _number(said: str) -> int | None:
    said = " ".join(said.lower().split())
    if said.isdigit():
        return int(said)
    return 2 if said == "a couple" else UNITS.get(said)


def head_count_change(reader: "TurnReader", text: str) -> bool:
    fewer = next((m for p in _FEWER if (m := p.search(text))), None)
    more = next((m for p in _MORE if (m := p.search(text))), None)
    if (fewer is None) == (more is None):
        return False
    total = next((m for p in _TOTAL if (m := p.search(text))), None)
    n = _number((fewer or more).group("n"))  # type: ignore[union-attr]
    if not n:
        return False
    for rec in reader.view.live_records():
        for f in reader.view.input_fields(rec):
            held = rec.values.get(f.name)
            if reader.view.kind_of(f) != "int" or not isinstance(held, int) or isinstance(held, bool) \
                    or not field_stems(f) & PEOPLE_STEMS:
                continue
            value = _number(total.group("n")) if total else held - n if fewer else held + n
            if not value or value < 1:
                return False
            said = (fewer or more).group(0).lower()  # type: ignore[union-attr]
            _drop(reader, lambda line: line.startswith(f"{rec.var}.{f.name} = ")  # "..., so 5 total" read as 3
                  or ("answer(" in line and said in line.lower()))  # no search for the row asked
            reader.assign("head-count-change", (fewer or more).group(0), rec, f, value,  # type: ignore[union-attr]
                          reason=f"{held} {'less' if fewer else 'and'} {n}")
            return True
    return False


def _drop(reader: "TurnReader", other: Callable[[str], bool]) -> None:
    """Drop what other rules read from the count's words: another number as the count, or a search of them."""
    for r in reader.rules:
        if r.get("statement") and other(r["statement"]):
            r["dropped"], r["statement"] = r["statement"], None
            r["reason"] = "the turn says how many come or drop out: the count is worked out from that"
    reader.lines = [line for line in reader.lines if not other(line)]
