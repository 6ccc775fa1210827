"""How many hours, told as a start and an end: "saturday 22nd march, 2 til 5", "7pm, we'd need to be out by 11",
"from 10 until 1".

A record with one whole-number (or decimal) field counted in hours and one time field: when the turn gives an end
time (after a start in "A til B", "A-B", "A to B", or as "out by B", "finish at B", "until B") and the start is said
in the same turn or already held, the hours field takes the difference, and the time field the start when it is
empty. A bare end hour is placed after the start ("7pm ... out by 11" is 23:00); a bare start hour is read as the
agent's trade reads one. Nothing is added when the hours are not a whole number for a whole-number field, when the
difference is not between 1 and 16 hours, or when the numbers are a date ("10-12 June")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..words.measures.durations import field_unit
from ..words.values import MONTHS, bare_hour

if TYPE_CHECKING:
    from ..parser import TurnReader

_CLOCK = r"(?:(?:half\s+)?\d{1,2}(?:[:.]\d{2})?(?:\s*(?:am|pm))?|noon|midday|midnight)"
_NOT_A_DATE = (r"(?![\w/])(?!\s*(?:st|nd|rd|th)\b)(?!\s+(?:" + "|".join(m[:3].lower() for m in MONTHS) + r"))"
               r"(?!\s*(?:people|persons?|kids|children|adults|guests|of\s+(?:us|them)|hours?|hrs?|days?|nights?|weeks?|"
               r"months?|years?|yrs?|year-olds?|mins?|minutes|seats|pounds|quid|k\b|players|men|women|boys|girls|"
               r"pupils|students|staff|tyres|items|bags|rooms|tables))")
"""After the end of a range: not a day ("3-5 April"), not a count ("6 to 8 people", "2-3 hours")."""
_NOT_A_START = re.compile(r"(?:\b(?:any\s*time|anytime|free|available|between|ages?|aged|"
                          + "|".join(m[:3].lower() for m in MONTHS) + r")[a-z]*\s*$)", re.I)
"""Before a range: a window the user is free in ("any time 1 to 4"), ages, a month ("April 3-5")."""
_CLOCK_LIKE = re.compile(r"am|pm|[:.]\d{2}|noon|midday|midnight|half", re.I)
_PER_PERIOD = re.compile(r"\b(?:per|a|each|every)\s+(?:week|month|day|fortnight)\b|\bweekly\b|\bmonthly\b|\bweek\b", re.I)
_RANGE = re.compile(rf"(?<![£$€\d/.:])\b(?:from\s+)?(?P<a>{_CLOCK})\s*(?:-|–|to|til+|'til+|until|till)\s*(?P<b>{_CLOCK}){_NOT_A_DATE}",
                    re.I)
_FROM = re.compile(rf"\b(?:from|starting(?:\s+at)?|start(?:ing)?\s+at)\s+(?P<a>{_CLOCK}){_NOT_A_DATE}", re.I)
"""A start said on its own before the end ("from 9 all day, so till 5")."""
_END = re.compile(rf"\b(?:(?:out|finish(?:ed)?|done|leave|gone|wrap(?:ped)?\s+up|end|over|back)\s+(?:by|at|around|about)"
                  rf"|until|till|til)\s+(?P<b>{_CLOCK}){_NOT_A_DATE}", re.I)


def hours_from_range(reader: "TurnReader", text: str) -> None:
    slot = _slot(reader)
    if slot is None:
        _in_opening(reader, text)  # "drum room tmrw 7-9pm": the record the turn opens
        _range_changed(reader, text)  # "wait can i do 8 till 10 instead": a held booking moved
        return
    rec, hours, clock = slot
    said_start = _assigned(reader, rec.var, clock.name)
    asked = reader.expect is not None and reader.expect.rec.var == rec.var and reader.expect.field.name in (
        clock.name, hours.name)
    m = _range(text, asked=asked, from_lead=True)
    end_m = None if m else _END.search(text)
    if m is None and end_m is None:
        return
    misread = _assigned_number(reader, rec.var, hours.name)
    if misread is not None:  # "6pm till 10": the 10 was read as the hours; the range says 4
        if misread not in _numbers((m or end_m).group(0)):
            return
        _drop(reader, rec.var, hours.name)
    lead = None if m else _FROM.search(text[:end_m.start()])  # "from 9 all day, so till 5"
    start = _start_of(m) if m else (said_start or _held(rec.values.get(clock.name)) or (
        _minutes(lead.group("a"), None) if lead else None))
    if start is None:
        return
    if m is None and said_start is None and lead is not None and not _held(rec.values.get(clock.name)):
        reader.assign("time-range", lead.group(0), rec, clock, _clock(start))
    end = _minutes((m or end_m).group("b"), start)
    if end is None or end <= start:
        return
    if m is not None and said_start is not None and said_start != start:
        if said_start != end % (24 * 60):
            return  # "the kids finish school at 3 so 4 to 6": two starts said; nothing is guessed
        _drop(reader, rec.var, clock.name)  # "half 7 to 11.30": the end was read as the start
        said_start = None
    value = _hours_between(start, end, reader.view.kind_of(hours), hours)
    if value is None:
        return
    words = (m or end_m).group(0)
    if said_start is None and m is not None and _held(rec.values.get(clock.name)) != start:
        reader.assign("time-range", words, rec, clock, _clock(start))  # "1 til 4": from 1
    reader.assign("time-range", words, rec, hours, value, reason="the hours between the start and the end said")


def _range_changed(reader: "TurnReader", text: str) -> None:
    """A new range for a record whose start and hours are both held, said as a change ("instead", "actually") or to
    the summary: the start (a bare hour read next to the one held: "8" for a 7 PM session is 20:00) and the hours
    that differ from those held are changed. Nothing when the turn read anything else."""
    from ..intents import change_marker  # late: intents imports the word helpers
    e = reader.expect
    if reader.lines or not (change_marker(text) or (e is not None and e.act == "confirm")):
        return
    m = _range(text, asked=True, from_lead=True)
    if m is None:
        return
    for rec in reader.view.live_records():
        pair = _pair(reader, reader.view.input_fields(rec))
        if pair is None or reader.view.unfilled(rec, pair[0]) or reader.view.unfilled(rec, pair[1]):
            continue
        hours, clock = pair
        held = _held(rec.values.get(clock.name))
        start = _near(m.group("a"), held)
        end = _minutes(m.group("b"), start) if start is not None else None
        value = _hours_between(start, end, reader.view.kind_of(hours), hours)
        if held is None or value is None:
            return
        if start != held:
            reader.assign("time-range", m.group(0), rec, clock, _clock(start), was=rec.values.get(clock.name))
        if value != rec.values.get(hours.name):
            reader.assign("time-range", m.group(0), rec, hours, value, reason="the hours between the new start and end")
        return


def _near(clock: str, held: int | None) -> int | None:
    """A start said again: a bare hour ("8") is placed the way that is nearest the start held (evening after an
    evening)."""
    if held is None or _CLOCK_LIKE.search(clock) or not clock.strip().isdigit() or int(clock) > 12:
        return _minutes(clock, None)
    hour = int(clock) % 12
    return min((hour * 60, (hour + 12) * 60), key=lambda t: abs(t - held))


def _opening_range(reader: "TurnReader", fields: list[Any], text: str) -> tuple[Any, Any, re.Match[str], int, Any] | None:
    """(hours field, time field, the range, its start in minutes, the hours) for a turn that opens a record of
    `fields` and says one range of clock times ("book it for next monday, 9 to 5"); None when there is none."""
    pair = _pair(reader, fields)
    m = _range(text, asked=False, from_lead=False, plain=True) if pair else None
    start = _start_of(m) if m else None
    end = _minutes(m.group("b"), start) if start is not None else None
    value = _hours_between(start, end, reader.view.kind_of(pair[0]), pair[0]) if pair and end is not None else None
    return (pair[0], pair[1], m, start, value) if value is not None else None


def range_fields(reader: "TurnReader", fields: list[Any], text: str) -> list[str]:
    """The two fields (a start time, a count of hours) that a range of clock times said in `text` fills, among
    `fields`; [] when there is no such pair or no such range ("today 2 till 4")."""
    found = _opening_range(reader, fields, text)
    return [found[1].name, found[0].name] if found else []


def _in_opening(reader: "TurnReader", text: str) -> None:
    """The same for a record the turn opens (`x = Ws(...)`): its constructor takes the start and the hours."""
    from .proper_names import _constructed, set_in_opening
    for i, _line, _span, args, ws, given in list(_constructed(reader)):
        fields = [f for f in ws.fields if f.kind == "input"]
        if _pair(reader, fields) is None:
            continue
        found = _opening_range(reader, fields, text)
        if found is None:
            return
        hours, clock, m, start, value = found
        end = _minutes(m.group("b"), start)
        given_hours = re.search(rf'\b{hours.name}=(\d+(?:\.\d+)?)\b', args)
        if hours.name in given and not (given_hours and float(given_hours.group(1)) in (value, *_numbers(m.group(0)))):
            return  # the hours were said apart from the range
        held = re.search(rf'\b{clock.name}="(\d\d):(\d\d)"', args)
        if held and int(held.group(1)) * 60 + int(held.group(2)) not in (start, end % (24 * 60)):
            return  # two starts that disagree: nothing is guessed
        set_in_opening(reader, i, ws.name, clock.name, _clock(start), "time-range", m.group(0))
        set_in_opening(reader, i, ws.name, hours.name, value, "time-range", m.group(0),
                       reason="the hours between the start and the end said")
        return


def _range(text: str, *, asked: bool, from_lead: bool, plain: bool = False) -> re.Match[str] | None:
    """The one range of clock times the turn says: said with "til"/"until" (or "from", `from_lead`), or with a
    clock's form on one side (am/pm, minutes, "half"), or to the time question asked, or as "A to B" in a turn that
    opens a booking (`plain`); never a window ("any time 1 to 4")."""
    found = [m for m in _RANGE.finditer(text) if not _NOT_A_START.search(text[:m.start()])]
    if len(found) != 1:
        return None
    m = found[0]
    joined = text[m.end("a"):m.start("b")].lower()
    if plain or re.search(r"til|until", joined) or (from_lead and re.match(r"\s*from\b", m.group(0), re.I)) or asked \
            or _CLOCK_LIKE.search(m.group("a")) or _CLOCK_LIKE.search(m.group("b")):
        return m
    return None


def _start_of(m: re.Match[str]) -> int | None:
    """The start of a range: a bare start takes the end's half of the day when that keeps it before the end ("7-11pm"
    is 19:00 to 23:00, not 07:00)."""
    start = _minutes(m.group("a"), None)
    b = m.group("b").lower()
    bare = m.group("a").strip().isdigit() and int(m.group("a")) <= 12
    if start is not None and bare and re.search(r"pm$", b.strip()):
        end = _minutes(m.group("b"), None)
        later = (int(m.group("a")) % 12 + 12) * 60
        if end is not None and later < end:
            return later
    return start


def _hours_between(start: int | None, end: int | None, kind: str, f: Any = None) -> Any:
    """The hours from `start` to `end` (minutes after midnight) for a field of `kind`: between 1 and 16, and whole
    for a whole-number field; in minutes for a field counted in minutes (`duration_minutes`); else None."""
    if start is None or end is None or end <= start:
        return None
    diff = (end - start) / 60
    if not 0.5 <= diff <= 16:
        return None
    if f is not None and field_unit(f.name, f.description) == "minute":
        return int(end - start) if kind == "int" else float(end - start)
    if diff < 1 or (kind == "int" and not diff.is_integer()):
        return None
    return int(diff) if kind == "int" else diff


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _pair(reader: "TurnReader", fields: list[Any]) -> tuple[Any, Any] | None:
    """(the one field counted in hours or minutes, not per week or month; the one time field) among `fields`, or
    None."""
    hours = [f for f in fields if reader.view.kind_of(f) in ("int", "float") and field_unit(f.name, f.description) in
             ("hour", "minute") and not _PER_PERIOD.search(f"{f.name.replace('_', ' ')} {f.description}")]
    clocks = [f for f in fields if reader.view.kind_of(f) == "time"]
    return (hours[0], clocks[0]) if len(hours) == 1 and len(clocks) == 1 else None


def _drop(reader: "TurnReader", var: str, name: str) -> None:
    """Take back a statement of the turn that gave `var.name` (read from the wrong words)."""
    prefix = f"{var}.{name} = "
    reader.lines = [line for line in reader.lines if not line.startswith(prefix)]
    reader.rules = [r for r in reader.rules if not (r.get("statement") or "").startswith(prefix)]


def _slot(reader: "TurnReader") -> tuple[Any, Any, Any] | None:
    """(record, hours field, time field) of the record asked about or filled this turn."""
    from .proper_names import focus_records
    for rec in focus_records(reader):
        pair = _pair(reader, reader.view.input_fields(rec))
        if pair is not None and (reader.view.unfilled(rec, pair[0]) or any(
                line.startswith(f"{rec.var}.{pair[0].name} = ") for line in reader.lines)):
            return rec, pair[0], pair[1]
    return None


def _assigned_number(reader: "TurnReader", var: str, name: str) -> float | None:
    """The number this turn has given `var.name`, if any."""
    for line in reader.lines:
        lm = re.fullmatch(rf'{re.escape(var)}\.{re.escape(name)} = (\d+(?:\.\d+)?)', line)
        if lm:
            return float(lm.group(1))
    return None


def _numbers(words: str) -> set[float]:
    return {float(n) for n in re.findall(r"\d+(?:\.\d+)?", words)}


def _assigned(reader: "TurnReader", var: str, name: str) -> int | None:
    for line in reader.lines:
        lm = re.fullmatch(rf'{re.escape(var)}\.{re.escape(name)} = "(\d\d):(\d\d)"', line)
        if lm:
            return int(lm.group(1)) * 60 + int(lm.group(2))
    return None


def _held(value: Any) -> int | None:
    lm = re.fullmatch(r"(\d\d):(\d\d)(?::\d\d)?", str(value or ""))
    return int(lm.group(1)) * 60 + int(lm.group(2)) if lm else None


def _minutes(clock: str, after: int | None) -> int | None:
    """Minutes after midnight of a clock said in the range; a bare hour placed after `after` (the start) when one is
    known, else as the trade reads it."""
    c = clock.lower().replace(".", ":").strip()
    half = c.startswith("half")
    if half:  # "half 7": half past seven
        c = c[4:].strip()
        if not c.isdigit():
            return None
        c = f"{c}:30"
    if c in ("noon", "midday"):
        return 12 * 60
    if c == "midnight":
        return 24 * 60
    lm = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(am|pm)?", c)
    if lm is None:
        return None
    hour, minute, ampm = int(lm.group(1)), int(lm.group(2) or 0), lm.group(3)
    if hour > 23 or minute > 59:
        return None
    if ampm:
        if hour > 12:
            return None
        return (hour % 12 + (12 if ampm == "pm" else 0)) * 60 + minute
    if hour > 12:
        return hour * 60 + minute
    if after is not None:
        for h in (hour, hour + 12, hour + 24 if hour == 12 else None):
            if h is not None and h * 60 + minute > after:
                return h * 60 + minute
        return None
    placed = bare_hour(hour)
    return int(placed[:2]) * 60 + minute if placed else None
