"""Lengths of time in the unit a field counts: "a week" is 7 for a field of days, "two weeks" 14.

A whole-number field whose name or description says the unit it counts ("For how many days you need
the car", `nights`, `hours`, "How many months you want the unit for") takes a length of time said in another
unit, converted ("a year" is 12 months); a number with the field's own unit, or a bare number, is left to the
ordinary number reading, except "an hour" or "a couple of days" in the field's own unit (1 and 2: no number for
that reading to see).
"""

from __future__ import annotations

import re

_UNIT_DAYS = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1, "night": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365}
_IN_MONTHS = {"month": 1, "year": 12}
"""Months and years convert exactly ("two years" is 24 months), days do not (a month is no fixed number of days)."""
_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2}
_DURATION = re.compile(r"\b(?P<n>\d+(?:\.\d+)?|a\s+couple\s+of|couple\s+of|an?|one|two|three|four|five|six|seven|eight|nine|"
                       r"ten|eleven|twelve|fifteen|twenty|thirty|forty(?:\s+|-)five|forty|ninety)\s*"
                       r"(?P<unit>hours?|hrs?|minutes?|mins?|days?|nights?|weeks?|fortnights?|months?|years?)\b"
                       r"|\b(?P<half>half\s+an?\s+(?:day|week|hour))\b", re.I)
_MORE_PARTS = re.compile(r"\s*(?:and\s+)?(?P<m>[0-5]?\d)(?:\s*(?:minutes?|mins?|m))?\s*(?:[,.;!?]|$)", re.I)
"""The minutes said after the hours of one length ("2 hours 30 minutes", "1 hr 15")."""
_SHORT_UNITS = {"hr": "hour", "min": "minute"}
_MINUTE_WORDS = {"fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty five": 45, "forty-five": 45,
                 "ninety": 90}
_MORE = re.compile(r"\s*(?:and\s+a\s+half|and\s+a\s+bit|or\s+(?:two|so|more)|or\s+\d)\b", re.I)
"""Words after "an hour" that make it more than one ("an hour and a half", "an hour or two")."""
_AND_A_HALF = re.compile(r"\s+and\s+a\s+half\b", re.I)
_FIELD_UNIT = re.compile(r"\b(minutes?|mins?|hours?|days?|nights?|weeks?|months?|years?)\b", re.I)


def field_unit(name: str, description: str) -> str | None:
    """The unit a count field counts, from its name or description ("rental_days" -> "day")."""
    m = _FIELD_UNIT.search(name.replace("_", " ")) or _FIELD_UNIT.search(description)
    unit = m.group(1).lower().rstrip("s") if m else None
    return _SHORT_UNITS.get(unit, unit) if unit else None


def converted_duration(text: str, unit: str) -> int | None:
    """The one length of time in `text` said in another unit than `unit`, as a whole number of `unit`s."""
    if unit not in _UNIT_DAYS:
        return None
    found = list(_DURATION.finditer(text))
    if len(found) == 2 and unit == "minute" and found[0].group("unit") and found[1].group("unit") and \
            found[0].group("unit").lower().startswith("h") and found[1].group("unit").lower().startswith("m") and \
            re.fullmatch(r"\s*(?:and\s+)?", text[found[0].end():found[1].start()]) and found[0].group("n").isdigit() \
            and found[1].group("n").isdigit():
        return int(found[0].group("n")) * 60 + int(found[1].group("n"))  # "2 hours 30 minutes"
    if len(found) != 1:
        return None
    m = found[0]
    if m.group("half"):
        return 30 if unit == "minute" and m.group("half").lower().endswith("hour") else None  # "half an hour"
    said_unit = m.group("unit").lower().rstrip("s")
    said_unit = _SHORT_UNITS.get(said_unit, said_unit)
    raw = re.sub(r"\s+", " ", m.group("n").lower())
    if unit == "minute" and said_unit == "minute":  # "45 mins is fine", "thirty minutes": said in the field's unit
        n = int(raw) if raw.isdigit() else _MINUTE_WORDS.get(raw, _COUNT.get(raw))
        return n if n and n < 1000 else None
    if said_unit == unit or (said_unit, unit) in (("night", "day"), ("day", "night")):
        # the field's own unit: the ordinary number reading, except "an hour" and "a couple of days", which
        # carry no number the number reading sees
        return _COUNT[raw] if raw in ("a", "an", "a couple of", "couple of") and not _MORE.match(text[m.end():]) \
            else None
    n = int(raw) if raw.isdigit() else float(raw) if re.fullmatch(r"\d+\.\d+", raw) else \
        _COUNT.get(raw, _MINUTE_WORDS.get(raw))  # "1.5 hours" is 90 minutes, not 5 hours' worth
    if n is None:
        return None
    more = _MORE_PARTS.match(text, m.end())
    if more and unit == "minute" and said_unit == "hour":  # "2 hours 30 minutes", "1 hr 15": both parts
        return int(round(n * 60)) + int(more.group("m"))
    if _AND_A_HALF.match(text, m.end()):
        n += 0.5  # "a year and a half" is 18 months
    if said_unit in _IN_MONTHS and unit in _IN_MONTHS:  # "a year" is 12 months, not 365/30 of them
        value = n * _IN_MONTHS[said_unit] / _IN_MONTHS[unit]
    else:
        value = n * _UNIT_DAYS[said_unit] / _UNIT_DAYS[unit]
    return int(round(value)) if value >= 1 and abs(value - round(value)) < 1e-9 else None


def said_in_other_unit(text: str, unit: str) -> bool:
    """True when `text` gives a length of time in another unit than the field's ("six weeks" to a field of months):
    when it does not convert to a whole number of the field's units, its number is not the value."""
    for m in _DURATION.finditer(text):
        said = (m.group("unit") or "day").lower().rstrip("s")
        said = _SHORT_UNITS.get(said, said)
        if said != unit and (said, unit) not in (("night", "day"), ("day", "night")):
            return True
    return False


_WORDED = re.compile(r"(?:\bfor\s+|^\W*(?:just\s+)?)(?P<all>(?:the|a)\s+whole\s+|the\s+)?(?P<n>an?|one|two|three|four|five|six|"
                     r"seven|eight|nine|ten|a\s+couple\s+of|couple\s+of)?\s*(?P<unit>weeks?|fortnights?|months?|years?|nights?|days?)\b",
                     re.I)
"""A length said in words after "for" (or as the whole answer): "for a week", "for the whole fortnight", "two nights"."""


_THEN_WHEN = re.compile(r"\s+(?:today|tomorrow|tonight|on|from|after|before|next|this|last|ago|time|"
                        r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)
"""Words after "a week" that make it a day ("a week tomorrow", "a fortnight on Saturday"), not a length."""


def worded_duration(text: str, unit: str) -> tuple[int, int, int] | None:
    """(value in `unit`s, start, end) of the one length of time `text` says in words only ("Saturday 31st for a
    week" is 7 nights), else None. A length said with digits is the number readings' (they convert it)."""
    if unit not in _UNIT_DAYS:
        return None
    found = [m for m in _WORDED.finditer(text) if (m.group("n") or m.group("all")) and not _THEN_WHEN.match(text, m.end())]
    if len(found) != 1:
        return None
    m = found[0]
    raw = re.sub(r"\s+", " ", (m.group("n") or "one").lower())
    n = _COUNT.get(raw)
    said = m.group("unit").lower().rstrip("s")
    if n is None:
        return None
    if said == unit or (said, unit) in (("night", "day"), ("day", "night")):
        value: float = n  # "just the one night", "two nights": the field's own unit, in words
    elif said in _IN_MONTHS and unit in _IN_MONTHS:
        value = n * _IN_MONTHS[said] / _IN_MONTHS[unit]
    else:
        value = n * _UNIT_DAYS[said] / _UNIT_DAYS[unit]
    if value < 1 or abs(value - round(value)) > 1e-9:
        return None
    return int(round(value)), m.start(), m.end()

