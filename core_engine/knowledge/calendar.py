"""Months, times of day and the parts of the week, on the KB's date, time and day-name columns.

"serviced since June", "classes starting in October": a month after a preposition is compared with the one date
column the words name (or the only one), in the year whose month the column's dates reach ("in October" on dates
of 2024 is October 2024; several or none: the one nearest the agent's today). "after 7pm", "before 18:30": a time
of day (with am/pm or written with a colon) is compared with a time column, one whose values are all written
"HH:MM" (zero-padded, so the text compares in order). "weekend classes", "on weekdays": the day names of a column
whose values are day names. "open on a Sunday": the rows whose opening-hours text ("Mon-Sat 9:00-17:00, Sun 10:00-16:00",
"Open 24 hours") covers that day. English calendar words only; the columns and their values come from the KB.
"""

from __future__ import annotations

import calendar as _cal
import datetime as _dt
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["DateCondition", "months", "times_of_day", "week_parts", "DAY_NAMES", "is_time_value", "schedule_days",
           "day_named", "when_words"]

MONTHS = {name.lower(): i for i, name in enumerate(_cal.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(_cal.month_abbr) if name})
MONTHS["sept"] = 9
MONTHS.pop("may", None)  # "may" alone is a verb: the month is read only after a preposition (the pattern below)
_MONTH_ALT = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH = re.compile(rf"(?:\b([a-z]+)\s+)?\b(since|from|after|before|until|till|by|in|during)\s+"
                    rf"(?:(?:the\s+)?(?:month\s+of\s+))?\b({_MONTH_ALT}|may)\b\.?(?:\s+(\d{{4}}))?")
_MONTH_OPS = {"since": ">=", "from": ">=", "after": ">", "before": "<", "until": "<=", "till": "<=", "by": "<=",
              "in": "in", "during": "in"}

_TIME = re.compile(r"(?:\b(after|past|later\s+than|from|since|before|earlier\s+than|until|till|by|at)\s+)?"
                   r"(?<![\d:.])(\d{1,2})(?:(?::|\.)(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])|"
                   r"(?:\b(after|past|later\s+than|from|since|before|earlier\s+than|until|till|by|at)\s+)?"
                   r"(?<![\d:.])(\d{1,2}):(\d{2})(?![\d:])")
_TIME_OPS = {"after": ">", "past": ">", "later than": ">", "from": ">=", "since": ">=", "before": "<",
             "earlier than": "<", "until": "<=", "till": "<=", "by": "<=", "at": "=", None: "="}
_HHMM = re.compile(r"^\d{2}:\d{2}(?::\d{2})?$")

DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEK_PARTS = {"weekend": DAY_NAMES[5:], "weekends": DAY_NAMES[5:], "weekday": DAY_NAMES[:5],
               "weekdays": DAY_NAMES[:5], "weeknight": DAY_NAMES[:5], "weeknights": DAY_NAMES[:5]}


@dataclass
class DateCondition:
    column: str
    sql: str  # the condition on alias t
    words: str
    start: int
    end: int
    op: str
    value: Any


def is_time_value(value: Any) -> bool:
    return isinstance(value, str) and bool(_HHMM.match(value))


def _quote(column: str) -> str:
    return '"' + column.replace('"', '""') + '"'


def months(text: str, columns: dict[str, list[str]], date_ranges: dict[str, tuple[str, str]], today: _dt.date,
           choose: Any) -> list[DateCondition]:
    """`since June`, `in October`, `before March 2025` on a date column (ISO dates as text)."""
    found = []
    low = text.lower()
    for m in _MONTH.finditer(low):
        before, prep, month, year = m.groups()
        column, named = _date_column(before, columns, choose)
        if column is None:
            continue
        number = MONTHS.get(month, 5)
        y = int(year) if year else _year(number, date_ranges.get(column), today)
        first = _dt.date(y, number, 1)
        last = _dt.date(y, number, _cal.monthrange(y, number)[1])
        op = _MONTH_OPS[prep]
        col = "t." + _quote(column)
        if op == "in":
            sql, value = f"{col} BETWEEN '{first}' AND '{last}'", [str(first), str(last)]
        elif op in (">=", "<"):
            sql, value = f"{col} {op} '{first}'", str(first)
        else:  # "after June": from July; "until June": to its end
            sql, value = f"{col} {'>' if op == '>' else '<='} '{last}'", str(last)
        start = m.start() if named else m.start(2)  # "serviced since June": the word that named the column
        found.append(DateCondition(column, sql, low[start:m.end()].strip(), start, m.end(), op, value))
    return found


def _date_column(before: str | None, columns: dict[str, list[str]], choose: Any) -> tuple[str | None, bool]:
    """The date column the word before the preposition names ("serviced since June"), else the only one; and
    whether the word named it."""
    if before and columns:
        chosen = choose([before], columns)
        if chosen:
            return chosen[0], True
    return (next(iter(columns)) if len(columns) == 1 else None), False


def _year(month: int, span: tuple[str, str] | None, today: _dt.date) -> int:
    """The year whose month the column's dates reach; several or none: the one nearest today."""
    years = (today.year - 1, today.year, today.year + 1)
    if span:
        low, high = span[0][:7], span[1][:7]
        reached = [y for y in years if low <= f"{y:04d}-{month:02d}" <= high]
        if len(reached) == 1:
            return reached[0]
    return min(years, key=lambda y: abs((_dt.date(y, month, 15) - today).days))


def times_of_day(text: str, columns: list[str]) -> list[DateCondition]:
    """`after 7pm`, `before 6.30pm`, `at 19:00` on the one time column ("HH:MM" values)."""
    if len(columns) != 1:
        return []
    column = columns[0]
    found = []
    low = text.lower()
    for m in _TIME.finditer(low):
        if m.group(2) is not None:
            prep, hour, minute, half = m.group(1), int(m.group(2)), int(m.group(3) or 0), m.group(4)
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if half.startswith("p") else 0)
        else:
            prep, hour, minute = m.group(5), int(m.group(6)), int(m.group(7))
        if hour > 23 or minute > 59:
            continue
        prep = re.sub(r"\s+", " ", prep) if prep else None
        op = _TIME_OPS[prep]
        value = f"{hour:02d}:{minute:02d}"
        found.append(DateCondition(column, f"t.{_quote(column)} {op} '{value}'", m.group(0).strip(), m.start(),
                                   m.end(), op, value))
    return found


def week_parts(words: list[tuple[int, str]], day_columns: dict[str, list[str]]) -> list[tuple[int, str, list[str]]]:
    """`weekend`, `weekdays`, `weeknights`: (token index, column, its day-name values in that part of the week),
    on the one column whose values are day names."""
    if len(day_columns) != 1:
        return []
    column, values = next(iter(day_columns.items()))
    out = []
    for i, w in words:
        part = _WEEK_PARTS.get(w)
        if part:
            chosen = [v for v in values if v.lower() in part]
            if chosen:
                out.append((i, column, chosen))
    return out


_DAY = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?:day|nesday|urday|sday)?s?\.?"
_DAY_RANGE = re.compile(rf"\b({_DAY})(?:\s*(?:-|\u2013|to|through|thru)\s*({_DAY}))?(?![a-z])")
_ALL_DAYS = re.compile(r"\b(?:open\s+)?(?:24\s*(?:hours?|hrs?|/\s*7)|daily|every\s+day|7\s+days(?:\s+a\s+week)?|"
                       r"round\s+the\s+clock|all\s+day)\b")
_HOURS_LEFT = re.compile(r"^(?:[\s,;:&+/.\-\u2013]|\d|am|pm|noon|midnight|to|and|till|until|from|open|closed|hours?|hrs?|"
                         r"late|(?<=\s)h\b)*$")


def _day_index(word: str) -> int:
    w = word.lower().rstrip(".")
    return next(i for i, d in enumerate(DAY_NAMES) if d.startswith(w[:3]))


def schedule_days(value: str) -> frozenset[int] | None:
    """The days of the week (0 = Monday) an opening-hours text covers ("Mon-Fri 7:00-20:00, Sat 8:00-16:00",
    "Open 24 hours", "Mon-Sun 9-5", "Sat closed"); None when the text is not only days and hours."""
    low = value.lower().strip()
    if not low:
        return None
    days: set[int] = set()
    named = False
    for part in re.split(r"[,;\n]|\band\b(?=\s*[a-z]{3})", low):
        rest = _ALL_DAYS.sub(" ", part)
        every = rest != part
        found = list(_DAY_RANGE.finditer(rest))
        if found:
            named = True
        span: set[int] = set(range(7)) if every and not found else set()
        for m in found:
            a = _day_index(m.group(1))
            b = _day_index(m.group(2)) if m.group(2) else a
            span |= {(a + k) % 7 for k in range((b - a) % 7 + 1)}
        rest = _DAY_RANGE.sub(" ", rest)
        if not _HOURS_LEFT.match(rest):
            return None
        if "closed" in part:
            days -= span
        else:
            days |= span
        named = named or every
    return frozenset(days) if named else None


def day_named(word: str) -> int | None:
    """Monday..Sunday (or their plurals: "open sundays") as a day index."""
    w = word.lower()
    w = w[:-1] if w.endswith("s") else w
    return DAY_NAMES.index(w) if w in DAY_NAMES else None


_WHEN = re.compile(r"\b(?:(?:the\s+)?(?:same|that|next|following)\s+(?:day|night|evening)|today|tonight|tomorrow|"
                   r"tmrw|(?:this|next|on)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
                   r"(?:this|tomorrow)\s+(?:morning|afternoon|evening|night))\b", re.I)


def when_words(question: str, tokens: list[Any], used: set[int], table_vocab: Any, rules: list[dict[str, Any]]
               ) -> set[int]:
    """The tokens of the day the asker means to go ("and for the same day, a keelboat", "tonight", "this friday"),
    when no date, day-name or opening-hours column of the table takes them: when, not what the rows say, so no
    search term. English calendar words only."""
    if table_vocab is None or table_vocab.date_ranges or table_vocab.day_columns or table_vocab.schedules:
        return set()
    when = {i for m in _WHEN.finditer(question) for i, t in enumerate(tokens)
            if i not in used and t.start < m.end() and m.start() < t.end}
    if when:
        rules.append({"rule": "ignored", "words": [tokens[i].raw.lower() for i in sorted(when)],
                      "why": "the day the asker means to go: no column of these rows says it"})
    return when

