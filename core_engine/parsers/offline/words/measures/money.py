"""Amounts of money: "£184.50", "76 pounds", "ninety two pounds forty".

A number written with a currency sign or followed by a currency word is an amount: it goes to the one number
field whose name or description is about money ("The amount on the bill, in pounds"), and "N pounds M" is N.M.
"""

from __future__ import annotations

import re
from typing import Any

from ..match import field_stems, stem

_SIGN_BEFORE = re.compile(r"[£$€]\s*$")
_UNIT_AFTER = re.compile(r"\s*(?:pounds?|quid|dollars?|bucks|euros?|eur|usd|gbp)\b", re.I)
_MINOR_AFTER = re.compile(r"\s*(?:pounds?|dollars?|euros?)\s+(?:and\s+)?(?P<minor>\d{1,2}|[a-z]+(?:[\s-][a-z]+)?)"
                          r"(?:\s*(?:p|pence|cents?))?\b", re.I)
MONEY_STEMS = frozenset(stem(w) for w in ("amount", "price", "cost", "fee", "charge", "pound", "dollar", "euro",
                                          "paid", "payment", "total", "sum", "refund"))


def is_money(text: str, start: int, end: int) -> bool:
    """True when the number at text[start:end] is written as money ("£76", "76 pounds")."""
    return bool(_SIGN_BEFORE.search(text[:start]) or _UNIT_AFTER.match(text[end:]))


def money_fields(fields: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    return [(r, f) for r, f in fields if field_stems(f) & MONEY_STEMS]


def with_minor_units(text: str, end: int, value: float, number_of: Any) -> tuple[float, int]:
    """ "ninety two pounds forty": the pence after the currency word are the decimals (92.40); also where the
    words of the amount end (the pence are no number of their own)."""
    m = _MINOR_AFTER.match(text[end:])
    if m is None:
        return value, end
    minor = m.group("minor")
    cents = int(minor) if minor.isdigit() else number_of(minor)
    if not isinstance(cents, int) or not 0 < cents < 100:
        return value, end
    return round(value + cents / 100, 2), end + m.end()
