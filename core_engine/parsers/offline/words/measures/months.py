"""Fields that hold a month ("The month of the bill"): the answer is the month's name, not the sentence.

"the June one, it was £184.50" -> "June", "march's bill" -> "March", "last month" -> the month before today's.
A text field is a month field when its name or description says "month"; an answer that names no month gives no
value (the agent asks again rather than storing "today" as a month).
"""

from __future__ import annotations

import datetime as dt
import re

from .....spec.model import Field

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH = re.compile(r"\b(?P<m>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|"
                    r"may(?!\s+(?:i|we|you|they|he|she|it|be|have)\b)|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
                    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:'s)?\b", re.I)
_RELATIVE = re.compile(r"\b(?P<which>last|previous|this|current)\s+month(?:'s)?\b", re.I)


def is_month_field(f: Field) -> bool:
    words = set(re.findall(r"[a-z]+", f"{f.name.replace('_', ' ')} {f.description}".lower()))
    return "month" in words


def month_answer(f: Field, text: str, today: dt.date) -> str | None:
    """The one month the answer names, capitalised ("June"); None when it names none or several."""
    if not is_month_field(f):
        return None
    named = {_full(m.group("m")) for m in _MONTH.finditer(text)}
    if not named and (rel := _RELATIVE.search(text)):
        back = 1 if rel.group("which").lower() in ("last", "previous") else 0
        named = {MONTHS[(today.month - 1 - back) % 12]}
    return named.pop().capitalize() if len(named) == 1 else None


def _full(word: str) -> str:
    word = word.lower()
    return next(m for m in MONTHS if m.startswith(word[:3]))
