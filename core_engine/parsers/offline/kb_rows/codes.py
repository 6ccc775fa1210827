"""Codes typed loosely in lower case ("cs161", "cs 168") written as the KB stores them ("CS 161"); a code's
number said alone ("115L", "(210)") written as the one code that ends with it.

A KB column whose values are codes (letters then a number: "CS 161", "EF-52090" is not one) tells how a code
is spelt. A token that is the same code but for case and spacing is rewritten to that spelling before the
turn is read, so every rule sees the code as the KB has it. A code the KB does not hold is left as typed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..answering.slots import KBVocabulary

_CODE = re.compile(r"^([A-Za-z]{2,8})\s?(\d{1,4}[A-Za-z]{0,2})$")
_SAID = re.compile(r"\b([A-Za-z]{2,8})\s?(\d{1,4}[A-Za-z]{0,2})\b")
_NUMBER_ONLY = re.compile(r"(?<![\w.,/#-])(?<!flat )(?<!unit )(?<!room )(?<!apt )(\d{1,4}[A-Za-z]{1,2})(?![\w/-])|"
                          r"\((\d{2,4})\)(?![\s.-]*\d)|"
                          r"(?:(?<=\bme up for )|(?<=\bme down for )|(?<=\bme in ))"
                          r"(\d{2,4})(?=\s*(?:[,.;!?]|$|and\b|too\b|as\s+well\b))", re.I)
"""A code's number said without its letters: with a letter after it ("115L"), alone in brackets ("the pastry
class (210)") or alone as what a request signs the user up for ("ok sign me up for 229, letter grade", "put me down
for 230", "enrol me in 106"); any other bare number ("210") is left alone, as it may count or time anything, and so
are a flat or room number ("flat 12B") and a phone's area code ("(555) 880-1200")."""


def kb_codes(vocabulary: "KBVocabulary", kb: Any) -> dict[str, str]:
    """{code without case or spaces: the code as stored} for the KB's short text and list columns. Read once."""
    cache = vocabulary.__dict__.setdefault("_kb_codes", {})
    key = (id(kb), str(getattr(kb, "path", "")))
    if key not in cache:
        out: dict[str, str] = {}
        for table, info in kb.tables().items():
            for col in info.columns:
                if col.free_text or col.type not in ("text", "str", "list"):
                    continue
                try:
                    values = kb.distinct_values(table, col.name, limit=2000)
                except Exception:  # noqa: BLE001 - a column the KB cannot list holds no codes to learn
                    continue
                for v in values:
                    m = _CODE.match(v) if isinstance(v, str) else None
                    if m:
                        out.setdefault((m.group(1) + m.group(2)).lower(), v)
        cache[key] = out
    return cache[key]


def _by_number(codes: dict[str, str]) -> dict[str, list[str]]:
    """{the number part of a stored code, lower case: the codes that end with it}."""
    out: dict[str, list[str]] = {}
    for stored in codes.values():
        m = _CODE.match(stored)
        if m:
            out.setdefault(m.group(2).lower(), []).append(stored)
    return out


def as_stored(text: str, vocabulary: "KBVocabulary", kb: Any) -> str:
    """The text with each code the KB holds written as the KB writes it."""
    if kb is None or not (_SAID.search(text) or _NUMBER_ONLY.search(text)):
        return text
    codes = kb_codes(vocabulary, kb)
    if not codes:
        return text

    def fix(m: re.Match) -> str:
        if not m.group(1).islower():
            return m.group(0)  # "CS124" was typed with care: the user's spelling stays (and a query keeps it)
        stored = codes.get((m.group(1) + m.group(2)).lower())
        return stored if stored is not None else m.group(0)
    text = _SAID.sub(fix, text)
    numbers = _by_number(codes)

    def whole(m: re.Match) -> str:
        said = next(g for g in m.groups() if g)
        found = numbers.get(said.lower(), [])
        if len(found) != 1:
            return m.group(0)  # no code, or several departments end with it: as typed
        letters = _CODE.match(found[0]).group(1)  # type: ignore[union-attr]
        if re.search(rf"\b{re.escape(letters)}\s?$", m.string[:m.start()], re.I):
            return m.group(0)  # "XY 115L": the code was typed whole, its letters before the number
        return f"({found[0]})" if m.group(2) else found[0]
    return _NUMBER_ONLY.sub(whole, text)
