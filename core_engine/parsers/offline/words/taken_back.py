"""A value put right as it is typed: "the pin is 7713, no wait, 7731", "30 seconds - sorry I mean 40", "7pm, or
rather 7.30".

Why: every later rule reads the values of a turn by their place and the words around them, and the first of two
values of one kind beside a correction is the one they found ("plays = 10" for "10 times, no wait, 12"). A wrong value
is worse than none, so the turn is rewritten before it is read: the value taken back, the words of the correction and
the new value become the new value alone, in the old one's place ("the pin is 7731", "40 seconds"). Only two values
of the same kind (two dates, two times, two numbers, two runs of digits, two e-mail addresses) with nothing between
them but the correction words (and the old value's unit, "10 times, no wait, 12") are read so; "2 of them, actually 3
of them are kids" (a part of a group after the number) is left alone.
"""

from __future__ import annotations

import datetime as dt
import re

from .values import Span, find_dates, find_digit_strings, find_emails, find_numbers, find_times, free

_CUE = (r"(?:no\s+wait|wait|no\s+sorry|sorry|no\s+actually|actually|oops|i\s+mean|i\s+meant|or\s+rather|rather|"
        r"scratch\s+that|correction|make\s+(?:that|it)|hang\s+on|hold\s+on|no)")
_BETWEEN = re.compile(rf"(?P<unit>(?:\s*[A-Za-z]+){{0,2}}?)\s*[,.;:!-]*\s*(?:{_CUE}[\s,.;:!-]*)+"
                      r"(?:(?:it'?s|its|it\s+is|the)\s+)?$", re.I)
_STRONG = re.compile(r"\b(?:wait|sorry|actually|oops|mean|meant|rather|scratch|correction|make|hang|hold)\b|^\W*no\b",
                     re.I)
_PART_OF = re.compile(r"\s+(?:of|out\s+of|more|less|fewer|extra|others?|each)\b", re.I)
_HALF = re.compile(r"\s*(?:am|pm|a\.m\.?|p\.m\.?)$", re.I)
_SETTLED = re.compile(r"\s*(?:$|[,.!?;)]|-|(?:please|pls|then|instead|thanks|thank\s+you|if\s+\w+|ok|okay|and|but|"
                      r"for\s+(?:me|us|sure)|i\s+think|sorry)\b)", re.I)
"""What may follow a bare number that puts the one before it right: the end of the clause, or a word of politeness;
a noun after it counts something else ("9am, actually 2 tyres")."""
_LEAD = re.compile(r"(?:at|by|for|on|from|around|about|before|after|until|till)\s+", re.I)
_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"]
_MONTH_WORD = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.I)
_WEEKDAY_WORD = re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(?:today|tomorrow|tonight|next|this)\b", re.I)
_BARE_ORDINAL = re.compile(r"\b([12]?\d|3[01])(?:st|nd|rd|th)\b", re.I)
_UNIT = re.compile(r"\s+([A-Za-z]+(?:\s+[A-Za-z]+)?)")


def taken_back(text: str, today: dt.date) -> tuple[str, list[tuple[str, str]]]:
    """The text with each value taken back replaced by the one put in its place, and the (taken back, new) pairs."""
    pairs: list[tuple[str, str]] = []
    for _ in range(3):  # "10, no 11, sorry 12": one correction at a time, the text read again after each
        found = _first_correction(text, today)
        if found is None:
            break
        old, new, unit = found
        tail = text[new.end:]
        keep_unit = unit and not tail.lower().lstrip().startswith(unit.lower())
        half = _HALF.search(old.text) if isinstance(old.value, str) and ":" in old.value else None
        said = new.text + (half.group(0).strip() if half and not _HALF.search(new.text) and
                           not re.match(r"\s*(?:am|pm|a\.m|p\.m|in\s+the|at\s+night|o'?clock)", tail, re.I) else "")
        said = _with_month(old, new) or said  # "the 2nd of August, actually the 3rd": the 3rd of August
        lead = _LEAD.match(old.text)
        if lead and not _LEAD.match(said):
            said = lead.group(0) + said  # "friday at 9, no 10": "friday at 10", still a time
        text = text[:old.start] + said + (" " + unit if keep_unit else "") + tail
        pairs.append((old.text, new.text))
    return text, pairs


def _kinds(text: str, today: dt.date) -> list[list[Span]]:
    dates, times, emails = find_dates(text, today), find_times(text), find_emails(text)
    days = [Span(f"day:{int(m.group(1))}", m.start(), m.end(), m.group(0)) for m in _BARE_ORDINAL.finditer(text)
            if not any(d.start <= m.start() < d.end for d in dates)]  # "3rd August, sorry 10th": a day alone
    dates = sorted(dates + days, key=lambda sp: sp.start)
    digits = free(find_digit_strings(text), dates + times + emails)
    numbers = free(find_numbers(text), dates + times + emails + [d for d in digits if len(d.value) >= 5])
    clocks = sorted(times + [n for n in numbers if _clock_like(n.value) and not any(n.overlaps(t) for t in times)],
                    key=lambda sp: sp.start)  # "7pm, or rather 7.30": a time put right by a bare clock
    return [dates, clocks, emails, [d for d in digits if len(d.value) >= 5], numbers]


def _with_month(old: Span, new: Span) -> str | None:
    """The new day in the old date's month (and year, when one was said) when only the day was said again."""
    if not (isinstance(old.value, str) and isinstance(new.value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", old.value)
            and re.fullmatch(r"\d{4}-\d\d-\d\d|day:\d+", new.value)):
        return None
    if not _MONTH_WORD.search(old.text) or _MONTH_WORD.search(new.text) or re.search(r"[/-]|\d{4}", new.text) \
            or _WEEKDAY_WORD.search(new.text):
        return None
    year = re.search(r"\b(\d{4})\b", old.text)
    day = int(new.value[4:]) if new.value.startswith("day:") else int(new.value[8:10])
    return f"{day} {_MONTH_NAMES[int(old.value[5:7]) - 1]}" + (f" {year.group(1)}" if year else "")


def _clock_like(value: object) -> bool:
    """A number that reads as a clock once a time was said before it: 8, 7.30, 10.15."""
    if isinstance(value, int):
        return 1 <= value <= 12
    return isinstance(value, float) and 1 <= int(value) <= 12 and round(value * 100) % 100 < 60


def _first_correction(text: str, today: dt.date) -> tuple[Span, Span, str] | None:
    kinds = _kinds(text, today)
    for spans in kinds:
        for old, new in zip(spans, spans[1:]):
            between = text[old.end:new.start]
            m = _BETWEEN.fullmatch(between)
            if m is None or not _STRONG.search(between[len(m.group("unit")):]) or _PART_OF.match(text, new.end):
                continue
            unit = m.group("unit").strip()
            if unit and (u := _UNIT.match(text, new.end)) is not None and u.group(1).lower() != unit.lower() \
                    and not u.group(1).lower().startswith(("and", "please", "then", "instead", "thanks")):
                continue  # "2 adults, actually 3 kids": another thing counted, not the same one put right
            if old.value == new.value or (spans is kinds[1] and not isinstance(old.value, str)):
                continue  # a bare number is put right as a clock only after a time
            if spans is kinds[0] and (str(old.value).startswith("day:") or str(new.value).startswith("day:")
                                      and _with_month(old, new) is None):
                continue  # a day alone puts right only a date said with its month
            bare = spans is kinds[4] or (spans is kinds[1] and not isinstance(new.value, str))
            if bare and not _SETTLED.match(text, new.end) and not (unit and text[new.end:].lower().lstrip()
                                                                   .startswith(unit.lower())):
                continue  # "9am, actually 2 tyres", "3. Actually, one question": a number of something else
            return old, new, unit
    return None
