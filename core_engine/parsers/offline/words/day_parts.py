"""A part of the day chosen by a clock time or a phrase: "about 10am", "first thing", "after lunch" to a field whose
options are Morning / Afternoon / Evening. The option must name the part of the day ("Morning", "Evening (5-8pm)");
a time outside every option's part, or two parts said, chooses nothing."""

from __future__ import annotations

import re

from ....spec.model import Field
from .values import find_times

_PARTS = ("morning", "afternoon", "evening", "night")
_SAID = (
    ("morning", re.compile(r"\b(?:first\s+thing|early(?!\s+(?:next|this|in|on\s+\w+day|that|the|march|april|may|june|"
                           r"july|august|september|october|november|december|january|february|week|month))"
                           r"(?:\s+(?:on|doors|as\s+possible|start))?|before\s+(?:lunch|noon|"
                           r"midday|work|school)|when\s+you\s+open|a\.?m\.?)\b", re.I)),
    ("afternoon", re.compile(r"\b(?:after\s+lunch|lunch\s*time|p\.?m\.?|after\s+school)\b", re.I)),
    ("evening", re.compile(r"\b(?:after\s+work|after\s+dinner|after\s+tea|tea\s*time)\b", re.I)),
)


_NOT_THEN = re.compile(r"\b(?:not|never|can'?t|cannot|can\s+not|won'?t|but|except|apart|busy|until|till|unless)\b|"
                       r"n't\b", re.I)
_SHORT = 4
"""At most this many words for a clock time to choose a part of the day ("about 10am", "around 2pm?"); in a longer
sentence the time may say when the user is busy ("I'm at the dentist at 10am")."""


def _part_of(hhmm: str) -> str:
    hour = int(hhmm[:2])
    return "morning" if hour < 12 else "afternoon" if hour < 17 else "evening" if hour < 21 else "night"


_HOUR = r"(\d{1,2})(?:[:.]\d\d)?\s*(am|pm|noon|midday)?"
_RANGE = re.compile(rf"(?:between\s+|from\s+)?{_HOUR}\s*(?:-|–|to|and|until|till)\s*{_HOUR}", re.I)


def _hour(n: str, half: str | None) -> int:
    hour = int(n)
    if half and half.lower() == "pm" and hour < 12:
        return hour + 12
    return hour + 12 if not half and 1 <= hour < 8 else hour  # "between 12 and 4": the afternoon's 4


def _ranges(f: Field) -> dict[str, tuple[int, int]]:
    """{option: (first hour, hour it ends)} from the options' descriptions ("8am to 12 noon", "between 12 and 4")."""
    out = {}
    for ev in f.enum_values:
        m = _RANGE.search(ev.description or "")
        if m:
            out[ev.value] = (_hour(m.group(1), m.group(2)), _hour(m.group(3), m.group(4)))
    return out


def _taught(f: Field, text: str) -> bool:
    """The developer's example of an option is in the text: that option is read by its examples, not here."""
    low = text.lower()
    return any(ex and ex.lower() in low for ev in f.enum_values for ex in (getattr(ev, "examples", None) or []))


def day_part_option(f: Field, text: str) -> str | None:
    """The option of `f` named after the part of the day the text says, or None. A clock time falls in the
    option whose description gives the hours it covers, when the descriptions give them."""
    if _taught(f, text) or _NOT_THEN.search(text):
        return None  # "not before lunch", "I can't do 10am", "anything but first thing": not the part said
    options = {}
    for name in f.enum_names:
        parts = [p for p in _PARTS if re.search(rf"\b{p}s?\b", name, re.I)]
        if len(parts) == 1:
            options.setdefault(parts[0], []).append(name)
    low = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
    if len(options) < 2 or any(re.search(rf" {re.escape(re.sub(r'[^a-z0-9]+', ' ', n.lower()).strip())}s? ", low)
                               for n in f.enum_names) or re.search(r"\b(?:morning|afternoon|evening|night)s?\b", low):
        return None  # an option or a part of the day named ("mornings only, away by 1") is read by its name elsewhere
    times = find_times(text) if len(text.split()) <= _SHORT else []
    ranges = _ranges(f)
    if times and ranges:
        fits = {name for t in times for name, (a, b) in ranges.items() if a <= int(t.value[:2]) < b}
        return next(iter(fits)) if len(fits) == 1 else None
    said = {_part_of(t.value) for t in times}
    if not said:
        said = {part for part, cue in _SAID if cue.search(text)}
    if said == {"afternoon"} and "afternoon" not in options and re.search(r"\bafter\s+school\b", text, re.I):
        said = {"evening"}
    if said == {"night"} and "night" not in options:
        said = {"evening"}
    if len(said) != 1:
        return None
    found = options.get(next(iter(said)), [])
    return found[0] if len(found) == 1 else None
