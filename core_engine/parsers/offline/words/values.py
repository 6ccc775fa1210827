"""Value recognisers for the offline parser: numbers, dates, times, e-mails, yes/no, names.

Each recogniser finds values *in* free text and says where (a `Span`), so the
parser can tell which words explained a statement and keep one value from
being read twice ("7/5/24 at 2 pm" holds a date and a time, not three numbers).
Everything is deterministic and relative to the `today` the turn gives.
"""

from __future__ import annotations

import datetime as dt
from contextvars import ContextVar
import re
from dataclasses import dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class Span:
    """A value found in the text, with the characters it came from."""

    value: Any
    start: int
    end: int
    text: str

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end


def normalise(text: str) -> str:
    """Typographic quotes and dashes to ASCII, whitespace collapsed."""
    table = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
             "\u00a0": " "}
    for a, b in table.items():
        text = text.replace(a, b)
    if _AGREEING_SIGNS.search(text):  # a thumbs-up alone says ok; beside words it only sets their mood
        text = _AGREEING_SIGNS.sub(" ", text) if _AGREEING_SIGNS.sub("", text).strip(" .,!") else " ok "
    text = _PICTOGRAPHS.sub(" ", text) if _PICTOGRAPHS.search(text) else text
    return re.sub(r"\s+", " ", text).strip()


_AGREEING_SIGNS = re.compile("[\U0001F44D\U0001F44C\u2705\u2714\u2611](?:[\U0001F3FB-\U0001F3FF]|\ufe0f)*")
"""A thumbs-up, an OK hand or a tick typed as the whole answer says ok; beside words ("Ann Lee \U0001F44D", "perfect
\U0001F44D") it is dropped, so it is never part of a value."""
_PICTOGRAPHS = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\ufe0f\u200d]+")
"""Other emoji (faces, hearts, hands) carry mood, not values: a space, so "great \U0001F60A" reads as "great"."""


def free(spans: Iterable[Span], taken: Iterable[Span]) -> list[Span]:
    """The spans that do not overlap any already-taken span."""
    taken = list(taken)
    return [s for s in spans if not any(s.overlaps(t) for t in taken)]


# ---------------------------------------------------------------- numbers

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
         "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
IDIOMS = {"a couple of": 2, "a couple": 2, "couple of": 2, "a pair of": 2, "a dozen": 12, "dozen": 12,
          "a single": 1, "just me": 1, "only me": 1, "just myself": 1, "only myself": 1, "by myself": 1, "both of us": 2, "the two of us": 2,
          "just the two of us": 2}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
            "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10}

_WORD_NUM = "|".join(sorted([*UNITS, *TENS], key=len, reverse=True))
_WORD_NUMBER_RE = re.compile(rf"\b(?:(?P<tens>{'|'.join(TENS)})(?:[\s-](?P<unit>{'|'.join(UNITS)}))?"
                             rf"|(?P<single>{_WORD_NUM}))\b", re.I)
MAX_NUMBER_DIGITS = 18  # longer digit runs are not read as numbers (a value's int is 64-bit)
_DIGIT_NUMBER_RE = re.compile(r"(?<![\w.@/:-])\$?(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?"
                              r"(?P<suffix>(?P<k>k(?![a-z])|\s+grand\b)?(?:ish\b)?)"
                              r"(?=(?i:kgs?|kilos?|lbs?|km|cm|mm|ml|oz|ft|kph|mph|m|metres?|meters?|litres?|liters?|ltrs?)\b|(?![\w@/:]|\.\d))")
"""A number as digits; a unit of measure may be written on to it ("12kg", "5km"): the number is still read. "2k" and
"3 grand" are thousands, "2400ish" a hedged 2400."""
_PRONOUN_ONE = re.compile(r"\b(?:the|this|that|previous|last|other|same|which|another|each|every|any|no|new|next|"
                          r"first|second|third|fourth|fifth|former|latter|right|wrong|cheaper|better|cheapest|best|"
                          r"closest|nearest|highest|lowest|\d+(?:st|nd|rd|th))\s+$", re.I)
_DET_WORD = re.compile(r"\b(?:the|this|that|a)\s+[A-Za-z][\w'-]*\s+$|"
                       r"\b(?:the|this|that)\s+(?:[A-Za-z][\w'-]*\s+){1,2}(?!(?:for|of|to|at|with|by|in|and|or|is|are|"
                       r"was|just|only|plus|than|minus|about|under|over)\s)[A-Za-z][\w'-]*\s+$", re.I)
"""Describing words between a determiner and "one" ("the red one", "the navigation theory one"): a pronoun; "the
table for one" or "the kids and one" is a number."""
_CLAUSE_END = re.compile(r"\s*(?:[,.;!?)]|$|(?:and|or|please|too|instead|then)\b)", re.I)
_IDIOM_RE = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in sorted(IDIOMS, key=len, reverse=True)) + r")\b",
                       re.I)


_AND_OTHERS = re.compile(r"\s*(?:and|plus|with|\+)\b", re.I)


def find_numbers(text: str) -> list[Span]:
    """Whole numbers and decimals written as digits, words ("twenty one") or idioms ("a couple")."""
    spans: list[Span] = []
    for m in _IDIOM_RE.finditer(text):
        if IDIOMS[m.group(0).lower()] == 1 and _AND_OTHERS.match(text[m.end():]):
            continue  # "just me and my kids": not one person; the others are counted elsewhere or asked
        spans.append(Span(IDIOMS[m.group(0).lower()], m.start(), m.end(), m.group(0)))
    for m in _DIGIT_NUMBER_RE.finditer(text):
        raw = m.group("num").replace(",", "")
        if len(raw) > MAX_NUMBER_DIGITS:
            continue  # not a number anyone means (and past what a value may hold): left as text
        value: Any = float(raw + m.group("frac")) if m.group("frac") else int(raw)
        if m.group("k"):  # "2k", "1.5k", "3 grand": thousands as people say them
            value = value * 1000
            value = int(value) if float(value).is_integer() else value
        spans.append(Span(value, m.start(), m.end(), m.group(0)))
    for m in _WORD_NUMBER_RE.finditer(text):
        if m.group(0).lower() == "one" and _PRONOUN_ONE.search(text[: m.start()]):
            continue  # "the previous one", "this one", "the second one": a pronoun, not a number
        if m.group(0).lower() == "one" and _DET_WORD.search(text[: m.start()]) and _CLAUSE_END.match(text[m.end():]):
            continue  # "the lab one, 115L", "the red one please": a pronoun after a describing word
        if m.group("single"):
            value = UNITS.get(m.group("single").lower(), TENS.get(m.group("single").lower()))
        else:
            value = TENS[m.group("tens").lower()] + (UNITS[m.group("unit").lower()] if m.group("unit") else 0)
        spans.append(Span(value, m.start(), m.end(), m.group(0)))
    spans.sort(key=lambda s: (s.start, -(s.end - s.start)))
    out: list[Span] = []
    for s in spans:
        if not any(s.overlaps(o) for o in out):
            out.append(s)
    return out


# ---------------------------------------------------------------- dates

MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
          "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3,
          "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_ISO_RE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DASHED_DMY_RE = re.compile(r"(?<![\d.-])(\d{1,2})([-.])(\d{1,2})\2(\d{4})(?![\d-]|\.\d)")
"""A date written day-month-year with dashes or dots ("09-12-1990", "30.11.1988"): ISO puts the year first, US
dates use slashes."""
_SLASH_RE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])")
_MONTH_DAY_RE = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}|'\d{{2}})\b)?", re.I)
_DAY_MONTH_RE = re.compile(rf"\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\b\.?"
                           rf"(?:,?\s+(\d{{4}}|'\d{{2}})\b)?",
                           re.I)
_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                  "eighth": 8, "ninth": 9}
ORDINAL_DAYS = {**_ORDINAL_UNITS, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
                "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
                "twentieth": 20, "thirtieth": 30,
                **{f"twenty {w}": 20 + n for w, n in _ORDINAL_UNITS.items()}, "thirty first": 31}
"""Days of the month said as ordinal words ("the fourth", "twenty-first")."""
_ORDINAL_WORD = "|".join(sorted((k.replace(" ", r"[\s-]") for k in ORDINAL_DAYS), key=len, reverse=True))


def _ordinal_key(raw: str) -> str:
    return re.sub(r"[\s-]+", " ", raw.lower())


_RELATIVE_RE = re.compile(r"\b(the day after tomorrow|day after tomorrow|tomorrow|today|tonight|yesterday|"
                          r"this\s+morning|this\s+afternoon|this\s+evening|last\s+night|"
                          r"tmrw|tmr|tomorow|tommorow|tommorrow|2moro|2morrow|tdy|2day|2nite|tonite)\b", re.I)
_WORD_DAY_MONTH_RE = re.compile(rf"\b(?:the\s+)?({_ORDINAL_WORD})\s+(?:of\s+)?({_MONTH})\b\.?"
                                rf"(?:,?\s+(\d{{4}}|'\d{{2}})\b)?", re.I)
_MONTH_WORD_DAY_RE = re.compile(rf"\b({_MONTH})\.?\s+(?:the\s+)?({_ORDINAL_WORD})\b(?:,?\s+(\d{{4}}|'\d{{2}})\b)?",
                                re.I)
WEEKDAY_ABBREVIATIONS = {"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
                           "thu": "thursday", "thur": "thursday", "thurs": "thursday", "fri": "friday",
                           "sat": "saturday", "sun": "sunday", "weds": "wednesday"}
"""Typed short forms; "sat", "sun", "wed" are words too, so a short form is a day only after "next", "this", "on"
... or as the whole answer ("fri"); the forms no English word has are a day anywhere ("thurs if poss")."""
_ONLY_A_DAY = frozenset({"tue", "tues", "thu", "thur", "thurs", "fri", "weds"})
_NOT_A_DAY_BEFORE = re.compile(r"(?:^|\b(?:i|we|he|she|they|you|it|who|the|a|an|in|and|just|had|have|has|was|"
                               r"were|then|always|never|once|on\s+the)\s+)$", re.I)
"""A short form that ends the turn is a day ("need movers sat"), unless a word before it makes it a word ("we sat",
"out in the sun")."""
_DAY_THEN_TIME = re.compile(r"\s*(?:at\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\b|ish\b|o'?clock\b)|"
                            r"(?:morning|afternoon|evening|night|lunch|dinner|brunch|noon)\b|at\s+\d)", re.I)
_WEEKDAY_RE = re.compile(rf"\b(?:(next|this|coming|this coming|on|last|past)\s+)?"
                         rf"({'|'.join([*WEEKDAYS, *sorted(WEEKDAY_ABBREVIATIONS, key=len, reverse=True)])})\.?\b",
                         re.I)
_IN_DAYS_RE = re.compile(r"\bin\s+(\d{1,5}|" + "|".join(UNITS) + r")\s+days?\b", re.I)
_WEEK_AFTER_RE = re.compile(r"\ba\s+(week|fortnight)\s+(tomorrow|today|tmrw|tonight)\b", re.I)
"""A week (or two) after a day named relative to today: "a week tomorrow" is eight days ahead."""
_AGO_RE = re.compile(r"\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(day|week|fortnight)s?\s+ago\b",
                     re.I)
"""A day counted back from today: "two weeks ago", "3 days ago", "a fortnight ago" (months ago is no one day)."""
_AGO_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
               "nine": 9, "ten": 10}
_AGO_DAYS = {"day": 1, "week": 7, "fortnight": 14}
_RELATIVE_DAYS = {"today": 0, "tonight": 0, "tomorrow": 1, "day after tomorrow": 2, "the day after tomorrow": 2,
                  "yesterday": -1, "this morning": 0, "this afternoon": 0, "this evening": 0, "last night": -1,
                  # as people type them
                  **{w: 1 for w in ("tmrw", "tmr", "tomorow", "tommorow", "tommorrow", "2moro", "2morrow")},
                  **{w: 0 for w in ("tdy", "2day", "2nite", "tonite")}}


_SHORT_YEAR = re.compile(r",?\s+(\d{2})\b(?![:.]?\s*\d)(?!\s*(?:am|pm|a\.m|p\.m|o'?clock|people|of\b|guests?|mins?|minutes?|hours?))",
                         re.I)
"""A year said with two digits after a day and month ("12th November 62"), read only for a date in the past."""


def _year(raw: str | None, today: dt.date) -> int | None:
    if raw is None:
        return None
    y = int(raw.lstrip("'"))  # "'90": a year typed with two digits
    if y < 100:
        y += 2000 if 2000 + y <= today.year + 10 else 1900
    return y


def _make(year: int | None, month: int, day: int, today: dt.date, past: bool = False) -> dt.date | None:
    """A calendar date; with no year, the next such day on or after today (the last one up to today if `past`)."""
    try:
        if year is not None:
            return dt.date(year, month, day)
        d = dt.date(today.year, month, day)
        if past:
            return d if d <= today else dt.date(today.year - 1, month, day)
        return d if d >= today else dt.date(today.year + 1, month, day)
    except ValueError:
        return None


_NEXT_MONTH = re.compile(r"\s+(?:of\s+)?(?:next|this|the\s+following)\s+month\b|\s+of\s+(?:each|every)\s+month\b", re.I)
DATE_HELD: ContextVar["dt.date | tuple[dt.date, str] | None"] = ContextVar("date_held", default=None)
"""Set by the offline parser for each turn: the date the record being filled already holds (or None). A day of the
month said alone ("the 17th") is the one nearest it (a correction: "make it the 9th" instead of 2 June is 9 June); a
date of another field of the record comes as (date, "after"), and the day said is the first such day on or after it
(after an event on 16 May, "collect on the 17th" is 17 May, not the next 17th after today)."""
DAY_FIRST: ContextVar[bool] = ContextVar("day_first", default=False)
"""Set by the offline parser for each turn from the spec (`spec.model.day_first`): 3/9/47 is 3 September."""


_NAMED_MONTH_RES: tuple = ()


def find_dates(text: str, today: dt.date, *, past: bool = False) -> list[Span]:
    """Calendar dates as ISO strings: 7/5/24 (US order), 2024-07-05, July 6th, tomorrow, next Friday.

    A date without a year, or a bare weekday, is the next one (a booking); with `past` it is the last
    one (when a form was submitted): "June 24th" said on 2024-07-01 is 2024-06-24, "on Friday" 2024-06-28.
    """
    found: list[Span] = []

    def add(d: dt.date | None, m: re.Match[str]) -> None:
        if d is None:
            return
        end = m.end()
        if past and m.re in _NAMED_MONTH_RES and m.group(3) is None \
                and (y := _SHORT_YEAR.match(text[end:])) is not None:  # "12th November 62", "nov 2nd 88": born then
            year = _year(y.group(1), today)
            d = _make(year, d.month, d.day, today) if year is not None and year <= today.year else d
            end += y.end() if d is not None and d.year == year else 0
        if d is not None:
            found.append(Span(d.isoformat(), m.start(), end, text[m.start():end]))

    def add_span(d: dt.date, start: int, end: int) -> None:
        found.append(Span(d.isoformat(), start, end, text[start:end]))

    for m in _ISO_RE.finditer(text):
        add(_make(int(m.group(1)), int(m.group(2)), int(m.group(3)), today), m)
    day_first = DAY_FIRST.get()
    for m in _SLASH_RE.finditer(text):  # US order unless the spec is British or European; a number over 12 is the day
        first, second = int(m.group(1)), int(m.group(2))
        if day_first:
            month, day = (first, second) if second > 12 >= first else (second, first)
        else:
            month, day = (second, first) if first > 12 >= second else (first, second)
        add(_make(_year(m.group(3), today), month, day, today, past), m)
    for m in _DASHED_DMY_RE.finditer(text):  # "09-12-1990": day, month, year, the European way with dashes
        add(_make(int(m.group(4)), int(m.group(3)), int(m.group(1)), today), m)
    for m in _MONTH_DAY_RE.finditer(text):
        add(_make(_year(m.group(3), today), MONTHS[m.group(1).lower()], int(m.group(2)), today, past), m)
    for m in _DAY_MONTH_RE.finditer(text):
        add(_make(_year(m.group(3), today), MONTHS[m.group(2).lower()], int(m.group(1)), today, past), m)
    for m in _WORD_DAY_MONTH_RE.finditer(text):  # "the fourth of february 1987"
        add(_make(_year(m.group(3), today), MONTHS[m.group(2).lower()], ORDINAL_DAYS[_ordinal_key(m.group(1))],
                  today, past), m)
    for m in _MONTH_WORD_DAY_RE.finditer(text):  # "february the fourth", "March twenty-first, 1990"
        if m.group(1) in ("may", "march"):
            continue  # "you may first ...": a verb in lower case, not the month
        add(_make(_year(m.group(3), today), MONTHS[m.group(1).lower()], ORDINAL_DAYS[_ordinal_key(m.group(2))],
                  today, past), m)
    for m in _RELATIVE_RE.finditer(text):
        add(today + dt.timedelta(days=_RELATIVE_DAYS[" ".join(m.group(1).lower().split())]), m)
    for m in _WEEK_AFTER_RE.finditer(text) if not past else ():  # "would a week tomorrow work?"
        add(today + dt.timedelta(days=(7 if m.group(1).lower() == "week" else 14)
                                 + _RELATIVE_DAYS[m.group(2).lower()]), m)
    for m in _AGO_RE.finditer(text):
        count = int(m.group(1)) if m.group(1).isdigit() else _AGO_COUNTS.get(m.group(1).lower(), 0)
        if 0 < count <= 60:
            add(today - dt.timedelta(days=count * _AGO_DAYS[m.group(2).lower()]), m)
    for m in _WEEKDAY_RE.finditer(text):
        lead = (m.group(1) or "").lower()
        day = m.group(2).lower()
        if day in WEEKDAY_ABBREVIATIONS:
            closing = not text[m.end():].strip(" .!?") and not _NOT_A_DAY_BEFORE.search(text[:m.start()])
            if not lead and text.strip(" .!?,").lower() != day and not _DAY_THEN_TIME.match(text[m.end():]) \
                    and not closing and day not in _ONLY_A_DAY:
                continue  # "I sat down": a word, not Saturday ("sat 8pm", "fri night", "need movers sat" are days)
            day = WEEKDAY_ABBREVIATIONS[day]
        add(_weekday_date(day, lead, today, past), m)
    for m, day in misspelt_weekdays(text):  # "wedensday", "thurday": a weekday typed with a slip
        add(_weekday_date(day, (m.group(1) or "").lower(), today, past), m)
        week = _NEXT_WEEK_AFTER.match(text, m.end()) if not past else None
        if week is not None:  # "wensday next week"
            monday = today - dt.timedelta(days=today.weekday())
            add_span(monday + dt.timedelta(days=7 + WEEKDAYS[day]), m.start(), week.end())
    for m in _AFTER_NEXT_RE.finditer(text) if not past else ():  # "the monday after next": a week after the coming one
        ahead = (WEEKDAYS[m.group(1).lower()] - today.weekday()) % 7 or 7
        add(today + dt.timedelta(days=ahead + 7), m)
    for m in _WEEK_PART_RE.finditer(text) if not past else ():  # "end of next week": its Friday; "start of": Monday
        monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7 if m.group("which") == "next" else 0)
        d = monday + dt.timedelta(days=4 if m.group("part").lower() == "end" else 0)
        add(d if d >= today else None, m)
    for m in _WEEKDAY_NEXT_WEEK_RE.finditer(text) if not past else ():  # "thursday next week": in next week
        day = (m.group(1) or m.group(2)).lower()
        monday = today - dt.timedelta(days=today.weekday())
        add(monday + dt.timedelta(days=7 + WEEKDAYS[day]), m)
    last_week = []
    for m in _WEEKDAY_LAST_WEEK_RE.finditer(text):  # "monday last week": in the week before this one
        day = (m.group(1) or m.group(2)).lower()
        monday = today - dt.timedelta(days=today.weekday())
        add(monday - dt.timedelta(days=7) + dt.timedelta(days=WEEKDAYS[day]), m)
        last_week.append(found[-1])
    for m in _WEEKDAY_WEEK_RE.finditer(text) if not past else ():  # "friday week": a week after the coming Friday
        day = (m.group(1) or m.group(2)).lower()
        add(today + dt.timedelta(days=(WEEKDAYS[day] - today.weekday()) % 7 + 7), m)
    for m in _WEEKEND_RE.finditer(text) if not past else ():
        add(today + dt.timedelta(days=max(5 - today.weekday(), 0)), m)  # Saturday, or today on a Sunday
    for m in _IN_DAYS_RE.finditer(text):
        n = int(m.group(1)) if m.group(1).isdigit() else UNITS[m.group(1).lower()]
        add(today + dt.timedelta(days=n), m)
    for m in _IN_WEEKS_RE.finditer(text):
        raw = (m.group(1) or m.group(2) or "a").lower()
        n = 1 if raw in ("a", "one") else int(raw) if raw.isdigit() else UNITS.get(raw, 0)
        if n:
            add(today + dt.timedelta(days=7 * n), m)
    for m in _NTH_WEEKDAY_RE.finditer(text) if not past else ():  # "the first tuesday in may"
        add(_nth_weekday(m, today), m)
    slips = []
    named = {MONTHS[w.lower()] for w in _NAMED_MONTH_RE.findall(text) if w not in ("may", "march")}
    for m in _LAST_WEEKDAY_ORDINAL_RE.finditer(text):  # "last monday, the 4th": that past day, if it is a monday
        add(_day_of_month(int(m.group(2)), m.group(1), today, True), m)
    for m in _WEEKDAY_BARE_DAY_RE.finditer(text):  # "tuesday 21 at half 9": the 21st, if it is a tuesday
        add(_day_of_month(int(m.group(2)), m.group(1), today, past), m)
    for m in _ORDINAL_DAY_RE.finditer(text):
        if _of_a_month_slip(text, m.end()):
            continue  # "the 3rd of Juy": some month, typed too badly to read; this month would be a guess
        back = past or bool(m.group(1)) and m.group(0).lower().startswith(("last", "past"))  # "last monday, the 4th"
        d = _day_of_month(int(m.group(2)), m.group(1), today, back, month=next(iter(named)) if len(named) == 1 else None)
        held = DATE_HELD.get()
        if held is not None and not back and not named and not m.group(1) and not _NEXT_MONTH.match(text, m.end()):
            if isinstance(held, tuple):  # the return after a pickup on 10 Aug: "the 2nd" is 2 Sep, not 2 Aug
                d = day_near(held[0], int(m.group(2)), max(today, held[0])) or d
            else:
                d = day_near(held, int(m.group(2)), today) or d
        add(d, m)
        if d is None and m.group(1):
            slips.append(Span(None, m.start(), m.end(), m.group(0)))
    if not past and last_week and any(s not in last_week and not any(s.overlaps(x) for x in last_week) for s in found):
        found = [s for s in found if s not in last_week]  # "monday last week was cancelled so next monday": the booking
    if not past:  # "limping since the weekend": when something began, never the day of what is booked
        found = [s for s in found if not _SINCE_RE.search(text[:s.start])
                 and not (_STARTING_RE.search(text[:s.start]) and str(s.value) < today.isoformat())]
    return _following(text, _weekday_with_date(text, _longest_first([s for s in found
                                                                       if not any(s.overlaps(x) for x in slips)])))


_OF_WORD = re.compile(r"\s+of\s+([A-Za-z]{3,9})\b")


def _of_a_month_slip(text: str, end: int) -> bool:
    """ "the 3rd of Juy", "the 2nd of Agst": the day is followed by "of" and a word that is not a month but reads
    like one (rapidfuzz ratio at least 70 to a month's name), so which month is meant is not known."""
    from rapidfuzz.fuzz import ratio

    m = _OF_WORD.match(text, end)
    if m is None or (word := m.group(1).lower()) in MONTHS:
        return False
    return any(ratio(word, month) >= 70 for month in MONTHS if len(month) > 3)


_ANY_BEFORE = re.compile(r"\b(?:some|any|one|a)\s+$", re.I)
_FOLLOWING = re.compile(r"\b(?:the\s+)?following\s+$", re.I)


def _following(text: str, spans: list[Span]) -> list[Span]:
    """A weekday said as "the following Saturday" is the first one after the date said before it in the turn
    ("on Saturday the 26th ... till the following Saturday" is a week later), not the coming one; "some friday"
    or "any monday" is no day at all."""
    out = []
    for s in spans:
        day = str(s.text).strip().lower()
        if day in WEEKDAYS and _ANY_BEFORE.search(text[:s.start]):
            continue  # "some friday in november": no one day
        earlier = [x for x in spans if x.end <= s.start and isinstance(x.value, str)]
        if day in WEEKDAYS and earlier and _FOLLOWING.search(text[:s.start]):
            base = dt.date.fromisoformat(str(earlier[-1].value))
            s = Span((base + dt.timedelta(days=(WEEKDAYS[day] - base.weekday()) % 7 or 7)).isoformat(), s.start, s.end,
                     s.text)
        out.append(s)
    return out


_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}
_NTH_WEEKDAY_RE = re.compile(rf"\b(?:the\s+)?({'|'.join(_NTH)})\s+({'|'.join(WEEKDAYS)})\s+(?:in|of)\s+"
                             rf"(?:(?P<month>{_MONTH})|(?P<which>this|next|the)\s+month)\b", re.I)
"""A weekday counted in a month: "the first tuesday in may", "the last friday of next month"."""


def _nth_weekday(m: re.Match[str], today: dt.date) -> dt.date | None:
    """The date `_NTH_WEEKDAY_RE` names: in the named month (the next one that has not passed) or this/next month."""
    nth, day = _NTH[m.group(1).lower()], WEEKDAYS[m.group(2).lower()]
    if m.group("month"):
        month, year = MONTHS[m.group("month").lower()], today.year
        tries = [(year, month), (year + 1, month)]
    else:
        ahead = 1 if m.group("which").lower() == "next" else 0
        y, mo = today.year + (today.month - 1 + ahead) // 12, (today.month - 1 + ahead) % 12 + 1
        tries = [(y, mo)]
    for year, month in tries:
        days = [dt.date(year, month, d) for d in range(1, 32) if _valid(year, month, d)
                and dt.date(year, month, d).weekday() == day]
        found = days[nth - 1] if nth > 0 and nth <= len(days) else days[-1] if nth < 0 and days else None
        if found is not None and found >= today:
            return found
    return None


def _valid(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


def _weekday_date(day: str, lead: str, today: dt.date, past: bool) -> dt.date:
    """The date a weekday names: the last one for a past field or after "last" ("last monday"), else the coming one
    (today's weekday is today, or a week on after "next")."""
    if (past and lead not in ("next", "this coming", "coming")) or lead in ("last", "past"):
        return today - dt.timedelta(days=(today.weekday() - WEEKDAYS[day]) % 7 or 7)
    ahead = (WEEKDAYS[day] - today.weekday()) % 7
    return today + dt.timedelta(days=7 if lead == "next" and ahead == 0 else ahead)


_DAYISH = re.compile(r"\b(?:(next|this|coming|this coming|on|last|past)\s+)?([a-z]{2,8}(?:day|dy|dya))\b", re.I)


def misspelt_weekdays(text: str) -> list[tuple[re.Match[str], str]]:
    """Words one slip from a weekday's name ("wedensday", "thurday", "saterday"): same first letter, most of its
    letters in order (rapidfuzz ratio at least 82); real words ending in "day" ("someday", "weekday") are not."""
    from rapidfuzz.fuzz import ratio

    out = []
    for m in _DAYISH.finditer(text):
        word = m.group(2).lower()
        if word in WEEKDAYS or word in _NOT_WEEKDAYS:
            continue
        best = max(WEEKDAYS, key=lambda d: ratio(word, d))
        if best[0] == word[0] and ratio(word, best) >= 82:
            out.append((m, best))
    return out


_NOT_WEEKDAYS = frozenset("""someday weekday midday birthday holiday heyday doomsday payday mayday noonday
everyday workday schoolday washday yesterday today""".split())
_WEEKDAY_LEAD = r"(?:on\s+|(?:this\s+)?coming\s+|this\s+|next\s+)"
_WEEKDAY_ONLY = re.compile(rf"{_WEEKDAY_LEAD}?(?:{'|'.join([*WEEKDAYS, *WEEKDAY_ABBREVIATIONS])})\.?", re.I)


def _weekday_with_date(text: str, spans: list[Span]) -> list[Span]:
    """ "monday 9 sept", "Fri, the 13th": a weekday said right before a date names that date, not the next such
    weekday: the weekday's own span is dropped. So is a weekday said a few words from a date of the same
    sentence that falls on it ("the saturday instead, the 13th", "the 13th, a saturday"): one day said twice."""
    out = []
    for i, s in enumerate(spans):
        nxt = spans[i + 1] if i + 1 < len(spans) else None
        if nxt is not None and _WEEKDAY_ONLY.fullmatch(s.text.strip()) and \
                re.fullmatch(r"[\s,]*(?:the\s+)?", text[s.end:nxt.start], re.I):
            continue
        if _WEEKDAY_ONLY.fullmatch(s.text.strip()) and any(_same_day_said(text, s, d) for d in spans if d is not s):
            continue
        out.append(s)
    return out


def _same_day_said(text: str, weekday: Span, date: Span) -> bool:
    """A date of the same sentence, at most four words from the weekday, that falls on that weekday."""
    if _WEEKDAY_ONLY.fullmatch(date.text.strip()) or not isinstance(date.value, str):
        return False
    gap = text[min(weekday.end, date.end):max(weekday.start, date.start)]
    if re.search(r"\b(?:or|and|either|else|then|otherwise|if\s+not|failing)\b", gap, re.I) or len(gap.split()) > 4:
        return False  # "monday or the 9th", "is monday free? if not, the 9th": two days to choose from
    if re.search(r"[.!?;]", gap) and (date.start < weekday.start or text[date.end:].strip(" .!?,")):
        return False  # "is next thursday free? the 22nd": a date said after a sentence only if it is all that follows
    name = re.sub(rf"^{_WEEKDAY_LEAD}|\.$", "", " ".join(weekday.text.strip().lower().split()))
    name = WEEKDAY_ABBREVIATIONS.get(name, name)
    try:
        return name in WEEKDAYS and dt.date.fromisoformat(date.value).weekday() == WEEKDAYS[name]
    except ValueError:
        return False


_SINCE_RE = re.compile(r"\b(?:since|ever\s+since|started|began|begun)\s+(?:(?:on|last|this|the)\s+)?$", re.I)
_STARTING_RE = re.compile(r"\bstarting\s+(?:(?:on|from|last|this|the)\s+)*$", re.I)
"""A date after "starting" began something only when it is past ("starting yesterday"); "starting 2nd of april" is
when what is booked begins."""
_WEEKDAY_NEXT_WEEK_RE = re.compile(rf"\b({'|'.join(WEEKDAYS)})\s+(?:of\s+|in\s+)?next\s+week\b|"
                                   rf"\bnext\s+week\s*,?\s+(?:on\s+)?(?:the\s+)?({'|'.join(WEEKDAYS)})\b", re.I)
"""A weekday of the coming calendar week ("thursday next week", "next week on friday"): that week's day, which on a
Wednesday is eight days on for a Thursday, never this week's."""
_WEEKDAY_LAST_WEEK_RE = re.compile(rf"\b({'|'.join(WEEKDAYS)})\s+(?:of\s+|in\s+)?(?:last|the\s+previous)\s+week\b|"
                                   rf"\b(?:last|the\s+previous)\s+week\s+(?:on\s+)?(?:the\s+)?"
                                   rf"({'|'.join(WEEKDAYS)})\b", re.I)
"""A weekday of the calendar week before this one ("monday last week", "last week on tuesday"): that week's day,
which on a Wednesday is nine days back for a Monday, never this week's Monday."""
_NEXT_WEEK_AFTER = re.compile(r"\s+(?:of\s+|in\s+)?next\s+week\b", re.I)
_AFTER_NEXT_RE = re.compile(rf"\b(?:the\s+)?({'|'.join(WEEKDAYS)})\s+after\s+next\b", re.I)
""""the monday after next": the Monday a week after the coming one."""
_WEEK_PART_RE = re.compile(r"\b(?:the\s+)?(?P<part>end|start|beginning)\s+of\s+(?P<which>next|this|the)\s+week\b",
                           re.I)
"""The end of a week is its Friday (a working week), its start or beginning its Monday."""
_WEEKDAY_WEEK_RE = re.compile(rf"\b({'|'.join(WEEKDAYS)})\s+week\b|\ba\s+week\s+(?:on|from)\s+({'|'.join(WEEKDAYS)})\b",
                              re.I)
"""The British "Friday week", "a week on Friday": the Friday a week after the coming one (the 23rd, said on
Wednesday the 14th)."""
_WEEKEND_RE = re.compile(r"\b(?:the|this(?:\s+coming)?|coming)\s+weekend\b", re.I)
"""A stay or an event "for the weekend": it starts on the coming Saturday (today when the weekend has begun).
"next weekend" is left alone: people mean this one or the one after."""
POSITION_NOUNS = r"(?:one|ones|option|options|choice|result|results|row|item|entry|on\s+the\s+list)\b"
"""After an ordinal, these make it a position in a list ("the 2nd one"), not a day of the month."""
_COUNTED_NOUNS = (r"(?:floors?|flr|fl|storey|stor(?:y|ies)|levels?|times?|attempts?|try|tries|seats?|rooms?|"
                  r"bedrooms?|grades?|years?|places?|gates?|terminals?|platforms?|doors?|houses?|buildings?|"
                  r"streets?|avenues?|editions?|rounds?|semesters?|quarters?|weeks?|child|kids?|payments?)\b")
"""After an ordinal, these make it the rank of a thing ("the 2nd floor", "my 3rd attempt"), not a day."""
_IN_WEEKS_RE = re.compile(r"\bin\s+(a|\d+|" + "|".join(UNITS) + r")\s+weeks?\b|"
                          r"\b(a|\d+|" + "|".join(UNITS) + r")\s+weeks?\s+from\s+(?:now|today)\b", re.I)
_LAST_WEEKDAY_ORDINAL_RE = re.compile(rf"\b(?:last|past)\s+({'|'.join(WEEKDAYS)})\s*,?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)\b",
                                      re.I)
_WEEKDAY_BARE_DAY_RE = re.compile(rf"\b({'|'.join(WEEKDAYS)})\s+(?:the\s+)?(1[3-9]|2\d|3[01])\b"
                                  r"(?!\s*(?:[:.]\d|am\b|pm\b|a\.m|p\.m|h\b|hrs?\b|hours?\b|mins?\b|minutes?\b|"
                                  r"o'?clock|%|people|guests|of\s+us|adults|kids|children|nights?|days?|weeks?))", re.I)
"""A weekday and a day of the month said without its ordinal ("tuesday 21 at half 9"): past 12 it is no hour."""
_ORDINAL_DAY_RE = re.compile(rf"\b(?:(?:on\s+|last\s+|past\s+)?({'|'.join([*WEEKDAYS, *sorted(WEEKDAY_ABBREVIATIONS, key=len, reverse=True)])})"
                             rf"\.?\s+(?:the\s+)?|the\s+)(\d{{1,2}})(?:st|nd|rd|th)\b"
                             rf"(?!\s+(?:of\s+)?(?:{_MONTH})\b)(?!\s+{POSITION_NOUNS})(?!\s+{_COUNTED_NOUNS})", re.I)


_NAMED_MONTH_RE = re.compile(r"\b(january|february|march|april|may|june|july|august|september|october|november|"
                             r"december)\b", re.I)
"""A month said by its full name: the one month a turn names is the month of a bare "the 21st" in it ("it was the
14th June, can it be the 21st instead", "first week of july. the 5th?")."""


def _day_of_month(day: int, weekday: str | None, today: dt.date, past: bool, month: int | None = None
                  ) -> dt.date | None:
    """ "the 14th" / "friday the 12th": the next (or, for `past`, the last) such day; the weekday must agree. With
    `month` (the one month the turn names), that day of that month, the next (or last) one."""
    if month is not None:
        for year in ((today.year, today.year - 1) if past else (today.year, today.year + 1)):
            try:
                d = dt.date(year, month, day)
            except ValueError:
                return None
            if d <= today if past else d >= today:
                day_name = WEEKDAY_ABBREVIATIONS.get(weekday.lower(), weekday.lower()) if weekday else None
                return d if day_name is None or d.weekday() == WEEKDAYS[day_name] else None
        return None
    year, month = today.year, today.month
    for _ in range(12):
        try:
            d = dt.date(year, month, day)
        except ValueError:
            d = None
        if d is not None and (d <= today if past else d >= today):
            # "saturday the 12th" when the coming 12th is a Friday: a slip, so no date rather than a guess
            day_name = WEEKDAY_ABBREVIATIONS.get(weekday.lower(), weekday.lower()) if weekday else None
            return d if day_name is None or d.weekday() == WEEKDAYS[day_name] else None
        month += -1 if past else 1
        if month == 0:
            year, month = year - 1, 12
        elif month == 13:
            year, month = year + 1, 1
    return None


def day_near(held: dt.date, day: int, today: dt.date) -> dt.date | None:
    """The date on that day of the month nearest the date held ("the 9th" instead of 2 June is 9 June), never
    before today."""
    found = []
    for shift in (-1, 0, 1):
        year, month = held.year + (held.month - 1 + shift) // 12, (held.month - 1 + shift) % 12 + 1
        if _valid(year, month, day) and dt.date(year, month, day) >= today:
            found.append(dt.date(year, month, day))
    return min(found, key=lambda d: abs((d - held).days)) if found else None


def _longest_first(spans: list[Span]) -> list[Span]:
    spans.sort(key=lambda s: (-(s.end - s.start), s.start))
    out: list[Span] = []
    for s in spans:
        if not any(s.overlaps(o) for o in out):
            out.append(s)
    return sorted(out, key=lambda s: s.start)


# ---------------------------------------------------------------- times

_AMPM_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z])", re.I)
_CLOCK_RE = re.compile(r"(?<![\d/:])([01]?\d|2[0-3]):([0-5]\d)(?![\d/:])")
_DOT_CLOCK_RE = re.compile(r"(?<![\d.$€£])(1[3-9]|2[0-3])\.([0-5]\d)(?![\d.%])")
_DOT12_RE = re.compile(r"(?<![\d.$€£])\b(1[0-2]|0?[1-9])\.([0-5]\d)(?![\d.%]|\s*(?:[ap]\.?\s?m\b|pounds?|euros?|dollars?))",
                       re.I)
"""A 12-hour clock written with a dot ("9.30"), read only beside a part of the day or after "at"."""
_HOUR_WORDS = r"\d{1,2}|" + "|".join(list(UNITS)[1:13])
_ISH_RE = re.compile(r"\b(?:(?P<half>half)\s+(?P<hour>" + _HOUR_WORDS + r")(?:\s*-?ish)?\b(?!\s*(?:past|to|an?\b|hours?|people|of|"
                     r"[:.]\d))(?:\s*(?P<ampm>[ap])\.?\s?m\b\.?)?(?:\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|"
                     r"evening|tonight|night))?|(?P<hour2>" + _HOUR_WORDS + r")\s*-?ish\b)", re.I)
_A_DAY = re.compile(rf"\b(?:{'|'.join([*WEEKDAYS, *WEEKDAY_ABBREVIATIONS])}|today|tomorrow|tmrw|tonight)\b", re.I)
_NAMED_TIME_RE = re.compile(r"\b(?:(?:12|twelve)\s+(?=noon|midday|midnight))?(noon|midday|midnight)(?:ish)?\b", re.I)
_BARE_HOUR_RE = re.compile(r"\b(?:at|around|by|(?P<loose>about|say|between))\s+(\d{1,2}|" + "|".join(list(UNITS)[1:13]) + r")"
                           r"(?:\s+o'?clock)?(?:\s+(?:in the\s+)?(morning|afternoon|evening|tonight|night))?\b"
                           r"(?!\s*(?:people|persons|guests|units|of us|days?|weeks?|months?|years?|hours?|hrs?|"
                           r"mins?|minutes?|miles?|%|dollars|pounds?|quid|euros?|[ap]\.?\s?m\b|[:.,]\d|/|-?\s*\d))"
                           r"(?!\s+(?!(?:is|was|this|thanks|thx|pls|plz|as|works|suits|does|sounds|seems|always|perhaps|"
                           r"yes|us|its|it's|his|hers|theirs|tuesdays?|thursdays?)\b)[a-z]{2,}s\b)"  # "look at two trees"
                           r"(?(loose)(?=\s*(?:$|[?!.,;]|(?:o'?clock|ish|then|please|if|is|would|works|suits|tomorrow|today|"
                           r"tonight|in\s+the|and\s+(?:1[0-2]|[1-9])\s*(?:$|[?!.,;]|is|would|works|suits|o'?clock|[ap]m))\b)))",
                           re.I)
_OCLOCK_RE = re.compile(r"(?<![:.])\b(\d{1,2}|" + "|".join(list(UNITS)[1:13]) + r")(?:\s+o'?clock\b|"
                        r"\s+(?:in the\s+)?(morning|afternoon|evening|tonight)\b)", re.I)


_NOT_AN_HOUR = r"(?!\s*(?:people|persons|guests|of\s+us|days?|weeks?|months?|years?|hours?|hrs?|mins?|minutes?|%|[ap]\.?\s?m\b|[:.,]\d|/|-?\s*\d))"
_HOUR_END = r"\b(?=\s*(?:$|[?!.,;]|(?:o'?clock|ish|then|please|pls|is|would|works|suits|if|or\s+so|at\s+the\s+latest|tomorrow|today)\b))"
"""What may follow an hour said by its shape: the clause's end, or words that go with a time ("is best", "if poss")."""
_HOUR_SHAPES = re.compile(
    rf"(?<!\bage\s)(?<!\baged\s)(?<!\bages\s)\bbetween\s+(?P<between>{_HOUR_WORDS})\s+and\s+"
    rf"(?:1[0-2]|0?[1-9]|{'|'.join(list(UNITS)[1:13])}){_HOUR_END}"
    rf"|\b(?:any\s*time|some\s*time|whenever|from)\s+(?:after|from)\s+(?P<after>{_HOUR_WORDS}){_HOUR_END}"
    rf"|\bfrom\s+(?P<start>{_HOUR_WORDS})\s+(?=for\s+(?:\d+|an?|one|two|three|four|five|six)\s*(?:hours?|hrs?|h)\b)"
    rf"|\b(?:be|get|come|arrive|pop\s+in|drop\s+(?:it\s+)?(?:in|off))\s+(?:there\s+|in\s+|over\s+|round\s+|down\s+)?"
    rf"for\s+(?P<for>{_HOUR_WORDS}){_HOUR_END}", re.I)
"""An hour said by the shape of the words around it, with no "at" and no day: "between 12 and 1", "any time
after 5", "from 6 for 3 hrs", "can be there for 3" (British: at 3)."""


def bare_hour(hour: int, part: str | None = None) -> str | None:
    """An hour said without am/pm, placed by the part of the day when one is said, else by the agent's trade
    (`EVENING`): for a restaurant or a theatre 1-8 are the afternoon or evening and 9-11 the morning ("at 7" is a
    dinner's 19:00); for everyone else 7-11 are the morning and 12-6 the afternoon (a garage's "at 8" opens the
    day, "say 4" is 16:00)."""
    if not 0 <= hour <= 23:
        return None
    part = (part or "").lower()
    if hour <= 12 and part in ("afternoon", "evening", "tonight", "night") and hour != 12:
        hour += 12
    elif hour <= 12 and part == "morning":
        hour = 0 if hour == 12 else hour
    elif 1 <= hour <= (8 if EVENING.get() else 6):
        hour += 12
    return f"{hour:02d}:00"


EVENING: ContextVar[bool] = ContextVar("evening", default=True)
"""Set by the offline parser for each turn from the spec (`spec.model.evening_hours`): an hour said without am/pm
is read the way an evening trade says it. Outside a turn (a helper called alone) the evening reading holds."""


def _hour_value(raw: str) -> int:
    return int(raw) if raw.isdigit() else UNITS[raw.lower()]


_HALF_RE = re.compile(r"\b(?:a\s+)?(half|quarter|\d{1,2}|" + "|".join(list(TENS)[:2] + list(UNITS)[1:20]) + r")\s+"
                      r"(past|after|to|before)\s+(\d{1,2}|" + "|".join(list(UNITS)[1:13]) + r")\b"
                      r"(?:\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z]))?"
                      r"(?:\s+(?:in\s+the\s+)?(?:morning|afternoon|evening|tonight|night)\b)?", re.I)
PART_OF_DAY = re.compile(r"\b(morning|afternoon|evening|tonight|night)\b", re.I)
_FIRST_THING = re.compile(r"\b(?:first\s+thing|early\s+doors|before\s+(?:work|school|the\s+school\s+run)|"
                          r"on\s+(?:my|her|his|their|our|the)\s+way\s+(?:in\s+)?to\s+work|when\s+you\s+open|"
                          r"as\s+early\s+as)\b", re.I)
"""Said for the morning: "first thing, like 8.30?", "drop it at 8.30 on her way to work", "at 8 when you open"."""
_AFTER_WORK = re.compile(r"\b(?:after\s+(?:work|school)|home\s+from\s+(?:work|school))\b", re.I)
"""Said for the afternoon or evening: "friday after school, say 4?"."""
_SPOKEN_MINUTES = r"(?:(?:twenty|thirty|forty|fifty)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|" \
                  r"fifteen|ten|oh[\s-](?:one|two|three|four|five|six|seven|eight|nine))"
_SPOKEN_CLOCK_RE = re.compile(
    r"(?:(?P<lead>\b(?:at|around|about|by|for|say)\s+)|\b)(?P<hour>" + "|".join(list(UNITS)[1:13]) + r")[\s-]+"
    r"(?P<min>" + _SPOKEN_MINUTES + r")\b(?!\s+(?:people|persons|guests|of\s+us|dollars?|euros?|pounds?|minutes?))"
    r"(?:\s*(?P<ampm>a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z]))?"
    r"(?:\s+(?:in\s+the\s+)?(?:morning|afternoon|evening|tonight|night)\b)?", re.I)
"""A clock time said in words: "seven thirty pm", "at eight fifteen", "nine oh five in the morning"."""


def _spoken_minutes(raw: str) -> int:
    parts = re.split(r"[\s-]+", raw.lower())
    if parts[0] == "oh":
        return UNITS[parts[1]]
    return sum(TENS.get(p, UNITS.get(p, 0)) for p in parts)


_AFTER_A_DAY = re.compile(rf"(?:(?:\b(?:{_MONTH}|{'|'.join(WEEKDAYS)}|tomorrow|today)\.?|\d(?:st|nd|rd|th))[,\s]+|^\s*,\s*)$",
                          re.I)
"""The day just before a clock; or a day already read and blanked out of the turn (spaces, then the comma)."""


_NOT_A_CLOCK_BEFORE = re.compile(r"\b(?:costs?|price[ds]?|paid|pay|charged?|fees?|owe|only|just|"
                                 r"after|before|until|till|between|than)\s+$", re.I)
"""A price word or a bound before a dotted number: "it cost 9.30", "anything after 5.30?" propose no time."""
_CLOCK_LAST = re.compile(r"[\s,.!?]*(?:(?:please|then|maybe|perhaps|ok|okay|instead|ish|"
                         r"if\s+(?:possible|you\s+can|that'?s\s+(?:ok|okay|alright|free)))[\s,.!?]*)*", re.I)


def dotted_clocks(text: str) -> list[Span]:
    """ "any time after 5, so 5.30?" to a question that asks a time: a 12-hour clock written with a dot and no time
    cue ("it cost 9.30" is money, so `find_times` reads one only beside a cue), when it ends the turn (a proposal:
    "what about 4.45?"), never after a price word, a currency sign or a bound ("anything after 5.30?" asks)."""
    found = []
    for m in _DOT12_RE.finditer(text):
        if _NOT_A_CLOCK_BEFORE.search(text[:m.start()]) or not _CLOCK_LAST.fullmatch(text[m.end():]):
            continue
        value = bare_hour(int(m.group(1)))
        if value:
            found.append(Span(f"{value[:2]}:{m.group(2)}", m.start(), m.end(), m.group(0)))
    return found


def find_times(text: str) -> list[Span]:
    """Clock times as HH:MM: 2 pm, 19:30, noon, "at 7" (read as 19:00), 8 o'clock, half past nine.

    A part of the day said anywhere in the turn ("in the morning around 9") places a bare hour.
    """
    part_of_day = PART_OF_DAY.search(text)
    day_part = part_of_day.group(1) if part_of_day else "morning" if _FIRST_THING.search(text) else \
        "afternoon" if _AFTER_WORK.search(text) else None
    found: list[Span] = []
    for m in _HALF_RE.finditer(text):
        raw = m.group(1).lower()
        minutes = 30 if raw == "half" else 15 if raw == "quarter" else int(raw) if raw.isdigit() \
            else TENS.get(raw, UNITS.get(raw, 0))
        if (raw.isdigit() and int(raw) % 5) or re.match(r"[:.]\d", text[m.end(3):]):
            continue  # "half 7 to 11.30", "7 to 11": a range of hours, not seven minutes to eleven
        if raw.isdigit() and m.group(2).lower() == "to" and (
                (int(raw) <= 12 and m.group(3).isdigit() and int(raw) < int(m.group(3)))
                or re.search(r"\b(?:from|between)\s+$", text[:m.start()], re.I)):
            continue  # "10 to 12", "free from 10 to 4": from one hour to another, not ten minutes to twelve
        hour = _hour_value(m.group(3))
        if m.group(2).lower() in ("to", "before"):
            hour, minutes = hour - 1 or 12, 60 - minutes
        if not 0 < minutes < 60 or not 1 <= hour <= 12:
            continue
        if m.group(4):
            hour = hour % 12 + (12 if m.group(4).lower().startswith("p") else 0)
            value = f"{hour:02d}:{minutes:02d}"
        else:
            value = (bare_hour(hour, day_part) or "")[:3] + f"{minutes:02d}"
        found.append(Span(value, m.start(), m.end(), m.group(0)))
    for m in _SPOKEN_CLOCK_RE.finditer(text):  # said in words: needs "at ..." before it, am/pm, or to be the turn
        whole = not text[:m.start()].strip(" ,.!?") and not text[m.end():].strip(" ,.!?")
        if not (m.group("lead") or m.group("ampm") or day_part or whole):
            continue
        hour, minutes = UNITS[m.group("hour").lower()], _spoken_minutes(m.group("min"))
        if not 0 < minutes < 60:
            continue
        if m.group("ampm"):
            value = f"{hour % 12 + (12 if m.group('ampm').lower().startswith('p') else 0):02d}:{minutes:02d}"
        else:
            value = (bare_hour(hour, day_part) or "")[:3] + f"{minutes:02d}"
        if len(value) == 5:
            start = m.start("hour")
            found.append(Span(value, start, m.end(), text[start:m.end()]))
    for m in _AMPM_RE.finditer(text):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        pm = m.group(3).lower().startswith("p")
        if 1 <= hour <= 12 and minute < 60:
            hour = (hour % 12) + (12 if pm else 0)
            found.append(Span(f"{hour:02d}:{minute:02d}", m.start(), m.end(), m.group(0)))
    for m in _CLOCK_RE.finditer(text):  # "7:30 in the evening": the part of the day places a 12-hour clock
        hour = int(m.group(1))
        if day_part and day_part.lower() != "morning" and 1 <= hour < 12:
            hour += 12
        elif day_part and day_part.lower() == "morning" and hour == 12:
            hour = 0
        elif not day_part and 1 <= hour <= (8 if EVENING.get() else 6) and len(m.group(1)) == 1:
            hour += 12  # "6:45" with no am/pm: read as "at 6" and "half 6" are (a restaurant's "7:30" is 19:30); "06:45"
            # is a 24-hour clock
        found.append(Span(f"{hour:02d}:{m.group(2)}", m.start(), m.end(), m.group(0)))
    for m in _DOT_CLOCK_RE.finditer(text):  # "19.30": a 24-hour clock written with a dot (not "12.50", money)
        found.append(Span(f"{int(m.group(1)):02d}:{m.group(2)}", m.start(), m.end(), m.group(0)))
    for m in _DOT12_RE.finditer(text):  # "tomorrow morning, 9.30", "at 7.45": a clock only with a time cue
        hour = int(m.group(1))
        if day_part is None and not re.search(r"\b(?:at|around|about|by|from|like|say)\s+$", text[:m.start()], re.I) \
                and not _AFTER_A_DAY.search(text[:m.start()]) and not _MEAL.search(text):
            continue  # "26 sept, 12.30": a clock right after the day it is on
        value = bare_hour(hour, day_part)
        if value:
            found.append(Span(f"{value[:2]}:{m.group(2)}", m.start(), m.end(), m.group(0)))
    for m in _ISH_RE.finditer(text):  # "8ish", "half 7" (British: 7:30)
        hour = _hour_value(m.group("hour") or m.group("hour2"))
        if m.group("ampm") and 1 <= hour <= 12:
            value: str | None = f"{hour % 12 + (12 if m.group('ampm').lower() == 'p' else 0):02d}:00"
        else:
            value = bare_hour(hour, m.group("part") or day_part) if 1 <= hour <= 12 else None
        if value:
            found.append(Span(value[:3] + ("30" if m.group("half") else "00"), m.start(), m.end(), m.group(0)))
    shaped = []
    for m in _HOUR_SHAPES.finditer(text):
        raw = next(g for g in (m.group("between"), m.group("after"), m.group("start"), m.group("for")) if g)
        value = bare_hour(_hour_value(raw), day_part) if 1 <= _hour_value(raw) <= 12 else None
        if value:
            at = m.start([k for k in ("between", "after", "start", "for") if m.group(k)][0])
            shaped.append(Span(value, m.start(), at + len(raw), text[m.start():at + len(raw)]))
    for m in _NAMED_TIME_RE.finditer(text):
        found.append(Span("00:00" if m.group(1).lower() == "midnight" else "12:00", m.start(), m.end(), m.group(0)))
    for m in _OCLOCK_RE.finditer(text):
        value = bare_hour(_hour_value(m.group(1)), m.group(2) or day_part)
        if value:
            found.append(Span(value, m.start(), m.end(), m.group(0)))
    for m in _BARE_HOUR_RE.finditer(text):
        if m.group("loose") and not (day_part or _A_DAY.search(text)) or m.group("loose") and \
                re.search(r"\b(?:from|she'?s|he'?s|it'?s|they'?re|aged?)\s+$", text[:m.start()], re.I):
            continue  # "prob 2, maybe 3... say 3" settles a count, "she's about 7" is an age, "from about 6" a past
            # hour; "friday after school, say 4?", "monday, between 12 and 1 is best" are times
        value = bare_hour(_hour_value(m.group(2)), m.group(3) or day_part)
        if value:
            found.append(Span(value, m.start(), m.end(), m.group(0)))
    if shaped and not found and not _A_CLOCK.search(text):
        found = shaped  # only when no clock is said: "any time after 5, so 5.30?" settles on 5.30
    return _longest_first(found)


_MEAL = re.compile(r"\b(?:lunch(?:time)?|dinner|supper|brunch|breakfast)\b", re.I)
"""A meal said in the turn: a time cue for a dotted clock ("tomorrow lunch, 12.30")."""
_A_CLOCK = re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*[ap]\.?m\b", re.I)


# ---------------------------------------------------------------- e-mail, codes

_EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_DIGITS_RE = re.compile(r"(?<![\w.@/:$£€-])(?<!\d,)\d(?:[\d -]*\d)?(?![\w@/:])(?!,\d{3}\b)")
"""A run of digits that is no part of an amount ("£1,850": neither "1" nor "850" is a reference)."""
_CODE_RE = re.compile(r"\b([A-Z]{2,8}\s?|[A-Za-z]{2,8})(\d{1,4}[A-Za-z]{0,2})\b")


_SPOKEN_EMAIL_RE = re.compile(
    r"(?<![\w@.])(?P<user>[A-Za-z0-9_%+-]+(?:\s+dot\s+[A-Za-z0-9_%+-]+)*)\s+(?:at|\(at\)|\[at\])\s+"
    r"(?P<domain>[A-Za-z0-9-]+(?:\s+dot\s+[A-Za-z0-9-]+)*\s+dot\s+[A-Za-z]{2,6})\b", re.I)
"""An address said as it is spoken: "mdunn at hotmail dot co dot uk", "jo dot lee at gmail dot com"."""
_SUBJECTS = frozenset("i we you they he she it who".split())


def find_emails(text: str) -> list[Span]:
    found = [Span(m.group(0).rstrip("."), m.start(), m.end(), m.group(0)) for m in _EMAIL_RE.finditer(text)]
    for m in _SPOKEN_EMAIL_RE.finditer(text):
        before = text[:m.start()].split()[-1:]
        if before and before[0].lower() in _SUBJECTS:
            continue  # "I work at google dot com" says where, it gives no address
        if not any(sp.start < m.end() and m.start() < sp.end for sp in found):
            user, domain = (re.sub(r"\s+dot\s+", ".", m.group(g), flags=re.I) for g in ("user", "domain"))
            found.append(Span(f"{user}@{domain}".lower(), m.start(), m.end(), m.group(0)))
    return sorted(found, key=lambda sp: sp.start)


def find_digit_strings(text: str) -> list[Span]:
    """Runs of digits (account numbers, PINs, student ids); leading zeros kept, spaces and dashes dropped."""
    out = []
    for m in _DIGITS_RE.finditer(text):
        digits = re.sub(r"[ -]", "", m.group(0))
        if len(digits) >= 3:
            out.append(Span(digits, m.start(), m.end(), m.group(0)))
    return out


_POSTCODE_RE = re.compile(r"(?<![\w@.-])([A-Za-z]{1,2}\d[A-Za-z\d]?)\s?(\d[A-Za-z]{2})(?![\w@-])")
"""A postcode written as the post writes it: an outward part ("M4", "CF14", "SW1A") and an inward one ("6HJ"),
the space optional; typed in any case ("bd7 1qs")."""
_NOT_INWARD = {"am", "pm", "st", "nd", "rd", "th"}


def find_postcodes(text: str) -> list[Span]:
    """Postcodes in a turn ("22 Canal Street, M4 6HJ" -> "M4 6HJ"), kept as typed: one code of two parts, where
    the letters-then-digits rule would keep only the first part ("CF14")."""
    shouted = not re.search(r"[a-z]", text)  # a turn typed in capitals tells no postcode by its capitals
    return [Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _POSTCODE_RE.finditer(text)
            if not _ordinal_or_hour(m.group(2), shouted) and not m.group(1).isalpha()]


def _ordinal_or_hour(inward: str, shouted: bool = False) -> bool:
    """ "3rd", "4th", "5pm": a day or an hour after a code-like word, not a postcode's inward part. A part typed in
    capitals that no ordinal has ("KM12 4RD": 4th, not 4rd) is the postcode's."""
    suffix = inward[1:].lower()
    if suffix in ("am", "pm"):
        return True
    if suffix not in _NOT_INWARD:
        return False
    return shouted or not inward.isupper() or suffix == {"1": "st", "2": "nd", "3": "rd"}.get(inward[0], "th")


def find_codes(text: str) -> list[Span]:
    """Course-code-like tokens: letters then digits ("CS 224N", "CS147"), kept as typed; a postcode is one code."""
    out = find_postcodes(text)
    mails = [(m.start(), m.end()) for m in _EMAIL_RE.finditer(text)] if "@" in text else []
    for m in _CODE_RE.finditer(text):
        if any(p.start < m.end() and m.start() < p.end for p in out):
            continue  # "CF14" of "CF14 3NW": the postcode is the code
        if any(a < m.end() and m.start() < b for a, b in mails):
            continue  # "gfirth62" of "gfirth62@hotmail.co.uk": part of an e-mail address
        letters = m.group(1).strip()
        if letters.lower() in MONTHS or letters.lower() in ("at", "for", "is", "the", "and", "of", "id", "pin", "am",
                                                             "pm", "in", "on", "to", "by", "my", "me", "us"):
            continue
        tail = _CODE_TAIL.match(text, m.end())
        if tail and m.group(1).isupper() and " " not in m.group(0) and tail.group(1) not in _CAPS_WORDS:
            m_end = tail.end()  # "GB55 KRT": a code of two groups typed in capitals is one code, as a postcode is
            out.append(Span(text[m.start():m_end], m.start(), m_end, text[m.start():m_end]))
            continue
        out.append(Span(m.group(0), m.start(), m.end(), m.group(0)))
    for m in _DESIGNATOR_RE.finditer(text):  # "U2 2206": an airline's letter and digit, then the flight's number
        if not any(p.start < m.end() and m.start() < p.end for p in out):
            out.append(Span(m.group(0), m.start(), m.end(), m.group(0)))
    return sorted(out, key=lambda s: s.start)


_DESIGNATOR_RE = re.compile(r"(?<![\w-])(?:[A-Z]\d|\d[A-Z])\s?\d{2,4}[A-Z]?(?![\w-])")
"""A code that starts with a capital and a digit ("U2 2206", "W6 1234"): the letters-then-digits pattern misses it."""


_CODE_TAIL = re.compile(r" ([A-Z]{3})(?![\w@'-])")
"""A second group of three capitals after a letters-then-digits code, as registration plates are written."""
_CAPS_WORDS = frozenset({"AND", "THE", "FOR", "BUT", "NOT", "YES", "ARE", "WAS", "HAS", "HAD", "CAN", "ALL", "ANY",
                         "NOW", "OUT", "TOO", "WHO", "WHY", "HOW", "YOU", "HIS", "HER", "ITS", "OUR", "OFF", "PLS",
                         "THX", "LOL", "AKA", "ETC", "ASAP"})
"""Words a turn typed in capitals may put after a code ("CS106 AND CS107"): never a code's second group."""


# ---------------------------------------------------------------- yes / no

YES_PHRASES = ("go on then", "yes please", "yes", "yeah", "yea", "yep", "yup", "ya", "yh", "ye", "yas", "yess", "yesss", "sure", "correct", "that's correct",
               "that is correct", "that's right", "that is right", "right", "absolutely", "definitely",
               "of course", "ok", "okay", "sounds good", "go ahead", "please do", "confirm", "confirmed", "true",
               "affirmative", "looks good", "looks right", "perfect", "exactly", "indeed", "i do", "i am",
               "i would", "it is", "do it", "great", "alright", "all right", "fine", "yes it is", "that works",
               "works for me", "certainly", "please", "book it", "submit it", "yes i am", "yes i do", "go for it",
               "it's right", "it is right", "it's correct", "it is correct", "now it's right", "now it is right",
               "all good", "everything is correct", "everything's correct", "everything is right",
               "that's all correct", "thats all correct", "that is all correct", "thats correct", "thats right",
               "all correct", "all looks good", "looks great", "looks fine", "everything looks good",
               "everything looks right", "everything's right", "lovely", "brilliant", "cool", "awesome", "nice one",
               "it does", "it did", "they do", "they did", "yes it does", "yes they do", "good", "all set",
               "i think so", "think so", "i believe so", "i guess so", "i suppose so", "i reckon so", "pretty sure",
               "i'm pretty sure", "im pretty sure",
               "ys",
               "oui", "ja", "sí", "si", "sim")
"""(The last ones: a yes in the other languages a customer may slip into, "oui, yes", "ja, passt".)"""
WEAK_YES = frozenset({"please", "i do", "i am", "i would", "it is", "right", "fine", "great", "perfect", "true",
                      "exactly", "indeed", "alright", "all right", "ok", "okay", "it's right", "it is right",
                      "it's correct", "it is correct", "now it's right", "now it is right", "all good", "lovely",
                      "brilliant", "cool", "awesome", "nice one", "good", "all set", "i think so", "think so",
                      "i believe so", "i guess so", "i suppose so", "i reckon so", "pretty sure", "i'm pretty sure",
                      "im pretty sure"})
"""Yes-words that also begin ordinary sentences ("please add ...", "I am a senior"): a yes only when they end
the clause."""
NO_PHRASES = ("no", "nope", "nah", "not really", "no thanks", "no thank you", "incorrect", "wrong",
              "that's wrong", "that is wrong", "that's not right", "that is not right", "not quite", "negative",
              "i don't", "i do not", "i'm not", "i am not", "not at all", "false", "never", "no way",
              "that's not correct", "that is not correct", "i would not", "i wouldn't", "don't", "do not",
              "it does not", "it doesn't", "it did not", "it didn't", "they do not", "they don't", "they did not",
              "they didn't", "nein")
_INTERJECTIONS = re.compile(r"^(?:(?:ah|oh|um|uh|hmm+|well|so|hm|er|actually|wait|sorry|ugh|argh|meh|phew|sigh)\b[\s,.!]*)+(?=\S)", re.I)


def _lead_phrase(text: str, phrases: Iterable[str]) -> str | None:
    low = text.lower()
    for p in sorted(phrases, key=len, reverse=True):
        if low.startswith(p) and (len(low) == len(p) or not low[len(p)].isalnum()):
            return p
    return None


_HEDGED_YES = frozenset({"i think so", "think so", "i believe so", "i guess so", "i suppose so", "i reckon so",
                         "pretty sure", "i'm pretty sure", "im pretty sure"})


_RIGHT_NOW = re.compile(r"\W*(?:(?:ok(?:ay)?|yes|yep|yeah|right|great)[\s,.!]+)*(?:(?:it'?s|its|that'?s|thats|it\s+is|"
                        r"everything'?s|everything\s+is|all|looks|looking)\s+)?(?:good|right|correct|fine|better|perfect)"
                        r"\s+now(?:[\s,.!]+(?:yes|thanks|thank\s+you|go\s+ahead|submit(?:\s+it)?|send(?:\s+it)?))*\W*|"
                        r"\W*(?:ok(?:ay)?[\s,.!]+)?now\s+(?:yes|(?:it'?s|its|it\s+is|that'?s)\s+(?:right|correct|good|fine))\W*",
                        re.I)
"""A yes said as the summary being right after a change: "good now", "ok now yes", "ok now its right" (to a
confirmation only: "fine now" to "are you still in pain?" is a no)."""


def right_now(text: str) -> bool:
    return _RIGHT_NOW.fullmatch(_INTERJECTIONS.sub("", normalise(text))) is not None


def yes_no(text: str) -> tuple[bool, str, str] | None:
    """(answer, the words that said it, the rest of the utterance) when the text opens with yes or no."""
    body = _INTERJECTIONS.sub("", normalise(text))
    yes, no = _lead_phrase(body, YES_PHRASES), _lead_phrase(body, NO_PHRASES)
    if yes is None and no is None:
        return None
    value, phrase = (True, yes) if no is None or (yes is not None and len(yes) > len(no)) else (False, no)
    assert phrase is not None
    after = body[len(phrase):]
    if value and phrase in ("perfect", "great", "exactly", "all good", "lovely", "brilliant", "awesome") and \
            re.fullmatch(r"\s*(?:thanks|thank\s+you|thx|ty|ta|cheers)[\s.!]*", after):
        return True, body[:len(phrase)], ""  # "perfect thanks": the yes and a thank-you ("ok thanks" stays small talk)
    if value and phrase in _HEDGED_YES and re.match(r"\s*\?", after):
        after = after.replace("?", ".", 1)  # "i think so? it said waitlist available": a hedged yes, not a question
    if value and phrase in WEAK_YES and after.strip() and not re.match(r"\s*[,.!;:-]", after):
        again = yes_no(after)  # "ok now it's right", "perfect yes": a word that agrees, then the yes itself
        if again is None or not again[0] or (phrase not in ("ok", "okay") and again[1] in WEAK_YES
                                             and (again[1] not in ("ok", "okay") or again[2].strip(" ,.!"))):
            return None  # "perfect ok" (a thumbs-up after it, read as ok) agrees; "fine good" is not sure
        rest = again[2].strip(" .!")  # "ok yes, that's it": the rest is read on its own
        return True, (body[:len(body) - len(again[2])] if rest else body).rstrip(" ,"), again[2] if rest else ""
    rest = after.lstrip(" ,.!;:-")
    if not value and (re.match(r"(?:know|remember|recall|sure|certain|have\s+(?:it|one|that))\b", rest, re.I) or
                      (phrase in ("no", "not at all") and re.match(r"(?:idea|clue)\b", rest, re.I))):
        return None  # "I don't know", "I'm not sure", "no clue honestly": a refusal, not a no
    if rest.lower().startswith(("and ", "but ")):
        rest = rest.split(" ", 1)[1]
    return value, body[:len(phrase)], rest


# ---------------------------------------------------------------- names and free text

PERSON_NAME = re.compile(r"[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*|de|van|von|da|di|le|la)){1,3}")
"""A person's name as typed with capitals: "Priya Nair", "Ana de la Cruz" (two to four words)."""

_NAME_LEAD = re.compile(r"^(?:(?:my|the)\s+(?:full\s+|first\s+|last\s+)?name\s+is|my\s+name'?s|name\s*:|name\s+is|"
                        r"i\s+am|i'm|it's|its|it\s+is|this\s+is|call\s+me|you\s+can\s+call\s+me|it's\s+under|"
                        r"(?:the\s+)?booking(?:'s|\s+is)?\s+under|(?:put|book)\s+(?:it|the\s+booking|us|me)\s+under|"
                        r"under\s+the\s+name(?:\s+of)?|under)\s+", re.I)
NO_NAME_WORDS = frozenset({"yes", "yeah", "yep", "no", "nope", "nah", "ok", "okay", "please", "cancel", "stop",
                            "sure", "thanks", "thank", "you", "sorry", "hi", "hello", "hey", "fine", "great", "go",
                            "ahead", "it", "that", "this", "all", "done", "right", "correct"})
"""Words of a yes, a no, a greeting or a cancel: a turn made of them only ("yes please cancel") names nobody."""
SENTENCE_WORDS = frozenset({"is", "are", "am", "was", "were", "my", "your", "our", "their", "me", "we", "us", "you",
                             "i", "do", "does", "did", "can", "could", "would", "should", "what", "how", "why",
                             "where", "when", "who", "which", "though", "not", "if", "it", "that", "this", "there",
                             "same", "as", "before", "the", "need", "dont", "don't", "thing", "already", "said"})
"""English function words a sentence has and a person's name typed in lower case does not ("de", "van" are kept)."""
YES_NO_WORDS = frozenset({"yes", "yeah", "yep", "yup", "no", "nope", "nah", "ok", "okay", "sure"})
_NAME_RE = re.compile(r"^[^\W\d_](?:[^\W\d_]|['.-])*(?:\s+[^\W\d_](?:[^\W\d_]|['.-])*){0,4}$")
"""One to five words of letters (any alphabet's: "Lucía Moreno", "Zoë Brontë"), apostrophes, dots and hyphens."""


TITLE = re.compile(r"\b(?:mr|mrs|ms|miss|mx|dr|prof|rev|revd|fr|sir|dame|lady|lord|captain|capt|sgt|sergeant|officer|pc|cllr|councillor)\b\.?\s+(?=[A-Za-z][\w'’-]*\s+[A-Za-z])", re.I)
"""A title before a first and last name ("it's Mr Daniel Okafor"): how to address the person, not part of the
name. A title and one name ("Mr Smith") is left as said."""


_AFFILIATION = re.compile(r"^(?P<name>[^\W\d_][\w'’-]*\s+[^\W\d_][\w'’-]*)(?:\s*,)?\s+(?:from|at|of|with|here\s+at)\s+"
                          r"(?:the\s+)?[^\W\d_][\w'’&.-]*(?:\s+[\w'’&.-]+){0,3}$", re.I)
"""Whom a two-word name is with, after it: "Dan Hughes at Northlight"; the name is the two words."""


def clean_name(text: str) -> str | None:
    """A person's name from "My name is Roger Corman", "Jane Doe", "i'm jane" (title-cased when all lower)."""
    body = normalise(text).strip(" .,!?;:\"")
    for _ in range(2):  # "it's under Jane Doe": two lead-ins
        body = _NAME_LEAD.sub("", body).strip(" .,!?;:\"")
    body = re.sub(r"[\s,]+(?:thanks|thank you|please)$", "", body, flags=re.I)
    body = re.sub(r"(?<=\w)\s+here$", "", body, flags=re.I)  # "Carla Mendes here"
    body = TITLE.sub("", body, count=1) if TITLE.match(body) else body  # "Mr Daniel Okafor"
    body = _AFFILIATION.sub(r"\g<name>", body)  # "Dan Hughes at Northlight", "tom okafor, from okafors cafe"
    if not body or not _NAME_RE.match(body) or all(w in NO_NAME_WORDS for w in body.lower().split()):
        return None  # "yes please cancel" is no name
    if body.split()[0].lower() in ("please", "pls", "plz"):
        return None  # "please hurry": a plea, not a name
    if body.islower() and body.split()[0] in YES_NO_WORDS and len(body.split()) > 1:
        return None  # "yes submit", "no wait": a yes or a no and what to do, typed in lower case, names nobody
    if (body.islower() or text.rstrip().endswith("?")) and set(body.lower().split()) & SENTENCE_WORDS:
        return None  # "is my money safe though": a question or a sentence, with words no name is made of
    return body.title() if body.islower() else body


_FILLERS = re.compile(r"^(?:(?:it's|it\s+is|it\s+was|its|they\s+were|they\s+are|they'?re|that's|thats|that\s+is|that\s+was|"
                      r"i\s+think|i\s+guess|i\s+believe|probably|maybe|um|uh|well|so|i'd\s+say|i\s+would\s+say|"
                      r"let's\s+say|say|about|around|just|i'll\s+(?:take|do|go\s+with)|i\s+will\s+(?:take|do)|"
                      r"(?:let's|let\s+us)(?:\s+also)?\s+(?:take|do|go\s+with)|i'd\s+like|i\s+want|go\s+with)\b[\s,]*|"
                      r"(?:ok|okay|good|great|cool|right|sure|fine|perfect|lovely|nice|yes|yeah|yep)[.!]+\s+(?=\w))+", re.I)
"""Lead-ins before a value: "it's", "I think", "I'll go with", and a word of agreement that ends its own sentence ("good. its
wool")."""


_HEDGE_AFTER = re.compile(r"[\s,;.-]*\b(?:just\s+)?(?:if|in\s+case)\s+(?:that|it|this)(?:'s|\s+is|\s+was)?\s+(?:helps?|"
                          r"matters?|useful|relevant|important|counts?|makes\s+(?:a|any)\s+difference|of\s+(?:any\s+)?use)"
                          r"[\s.!]*$", re.I)
_TEXT_LEAD = re.compile(r"^(?i:it's|it\s+is|its|they're|they\s+are)\s+(?=(?!I\b|I')[A-Z])")


_STORY_LEAD = re.compile(r"^(?:(?:help|please\s+help(?:\s+me)?|(?:yes\s+|yeah\s+)?(?:hi|hello|hey)(?:\s+there)?|"
                         r"oh\s+(?:no|god|dear))\b[\s,.!]*(?=\S))?"
                         r"(?:(?:ok(?:ay)?|right|well|so)(?:\s+(?:good|then|fine))?\s*[.,!]\s+)?"
                         r"(?:(?:like|as)\s+i\s+(?:said|mentioned|told\s+you)(?:\s+(?:before|earlier))?\s*[,.:;-]?\s+)?"
                         r"(?:(?:so\s+)?what\s+happened\s+(?:was|is)(?:\s+that)?\s*[,:]?\s+)?", re.I)
"""Words that lead into a story without being part of it: a cry for help or a greeting ("HELP someone just emptied
my account", "yes hi, somebody's been using my card"), an acknowledgement ("ok good."), "like I said,", "what
happened was"."""


def free_text(text: str) -> str:
    """A free-text answer as the user meant it: without a hedge after it ("I'm a senior, if that matters", "my ID is
    06112233 if that helps") and without "it's" before a name or title it only introduces ("It's AP Calc BC and AP
    Physics C"; "it's my birthday" is kept whole: there "it" says something)."""
    body = text.strip()
    body = _HEDGE_AFTER.sub("", body).strip() or body
    body = _STORY_LEAD.sub("", body).strip() or body  # "like I said, the wash from the ferry slammed us ..."
    return _TEXT_LEAD.sub("", body) or body


def strip_fillers(text: str, field_words: Iterable[str] = ()) -> str:
    """The answer without lead-ins: "it's May 2024" -> "May 2024", "my pet's name was Buddy" -> "Buddy"."""
    body = normalise(text).strip()
    words = [w for w in field_words if len(w) > 2]
    if words:
        alt = "|".join(re.escape(w) for w in words)
        # "my pet's name was Buddy", and with no "my" too: "mum's maiden name is Chaudhry" (the field's words)
        body = re.sub(rf"^(?:(?:my|the|our|her|his|their|its)\s+)?(?:[\w']+\s+){{0,4}}?(?:{alt})(?:'s)?(?:\s+[\w']+){{0,2}}?\s+"
                      rf"(?:is|was|are|were|=|:)\s+", "", body, flags=re.I)
    body = _FILLERS.sub("", body)
    return body.strip(" .!;,\"") or normalise(text).strip(" .!;,\"")


_NAMED_MONTH_RES = (_MONTH_DAY_RE, _DAY_MONTH_RE, _WORD_DAY_MONTH_RE, _MONTH_WORD_DAY_RE)
"""The date patterns that name the month: after them, a bare two-digit number can be the year (`_SHORT_YEAR`)."""
