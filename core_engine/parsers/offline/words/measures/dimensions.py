"""Sizes for measure fields: "92cm wide by 140 drop", "130 x 160", "2m 40 wide and a drop of 2.2m".

Beside `sizes.py`, which converts one height, length or weight said in another unit for the field asked ("5ft 2"
to centimetres); this module places sizes said with their measure words among a record's width, height and drop.

A number field is a measure when the last word of its name before a unit says which ("width_cm", "boat_length_m";
not "drop_points", a count). A number is a measure's when a word of that measure closes the phrase beside it ("92cm
wide", "drop of 140", "width: 60"; not "2 long weeks"), or when two numbers are said as a size ("130 x 160", "90 by
120") and the record has a width and one other measure: the first is the width, as sizes are said width first. A
unit said ("2.2m", "2m 40", "36 inches", "4 foot 6") is turned into the field's own unit when the field names one
(in its name or description). A size said of a person or of another thing ("he's 6 foot tall", "the door is 80cm
wide" for a room) is the field's only when the turn gives it no other; a size that does not fit the field (92.5 for
whole centimetres, "20m2") is not read.
"""

from __future__ import annotations

import re
from typing import Any

from .....dialogue.state import TaskRecord
from .....spec.model import Field
from ..values import Span

_FIELD_MEASURES = {"width": "width", "height": "height", "drop": "drop", "length": "length", "depth": "depth",
                   "thickness": "thickness"}
"""The nouns a measure field is named by, as the last word of its name before a unit ("width_cm", "boat_length_m";
not "drop_points" or "high_value_items", which count things)."""

_UNIT_WORDS = frozenset({"mm", "cm", "m", "in", "inches", "ft", "metres", "meters", "centimetres", "millimetres"})

_SAID_MEASURES = {"wide": "width", "width": "width", "across": "width", "w": "width",
                  "high": "height", "height": "height", "tall": "height", "h": "height",
                  "drop": "drop", "long": "length", "length": "length", "deep": "depth", "depth": "depth",
                  "thick": "thickness", "thickness": "thickness"}
"""The words a user says a measure by."""

_STAND_INS = {"drop": ("height", "length"), "height": ("drop",), "length": ("drop", "height"), "depth": ("thickness",),
              "thickness": ("depth",)}
"""A measure said of a record that has no field for it is the field that plays its part: a curtain's "drop" is
its height or length, "long" of a curtain is its drop."""

_UNIT_MM = {"mm": 1.0, "millimetre": 1.0, "millimeter": 1.0, "cm": 10.0, "centimetre": 10.0, "centimeter": 10.0,
            "m": 1000.0, "metre": 1000.0, "meter": 1000.0, "in": 25.4, "inch": 25.4, '"': 25.4, "ft": 304.8,
            "feet": 304.8, "foot": 304.8, "'": 304.8}

_UNIT = r"(?:mm|cm|m|millimet(?:re|er)s?|centimet(?:re|er)s?|met(?:re|er)s?|inch(?:es)?|ft|feet|foot|\"|')"


def _number(n: str, u: str, c: str) -> str:
    """A number with its unit, if any; "2m 40" and "2m40" are 2.40 metres."""
    return (rf"(?P<{n}>\d+(?:\.\d+)?)(?:\s*(?P<{u}>{_UNIT})(?:\s*(?P<{c}>\d{{1,2}})(?!\s*(?:mm|cm|\d|\.\d)))?)?(?![²]|\s*sq)"
            r"(?![\w.]\d)(?!\w)")


_ONE = re.compile(_number("n", "u", "c"), re.I)
_VERB_BEFORE = re.compile(r"\b(?:i|we|you|they|he|she|can|could|will|would|ll|to|then|just|please)\s*$", re.I)
"""Words before "drop" that make it the verb ("I can drop 2 photos over", "we'll drop 3 off")."""
_SIZE = re.compile(_number("n1", "u1", "c1") + r"\s*(?:x|×|by|\*)\s*" + _number("n2", "u2", "c2") +
                   r"(?=\s*(?:$|[,.;:!?)]|(?:and|please|pls|then|thanks|for|in|with|if|but|or)\b))", re.I)
"""Two numbers said as a size ("130 x 160", "90 by 120 please"), not a count of things ("a 3 x 5 day job")."""
_WORD = r"(?P<w>wide|width|across|high|height|tall|drop|long|length|deep|depth|thick|thickness|w|h)"
_AFTER = re.compile(r"\s*(?:\(|-\s*)?" + _WORD + r"\b(?=\s*(?:$|[,.;:!?)]|(?:and|by|x|with|please|pls|then|drop|"
                    r"high|wide|long|deep|tall|so|but|though|because|if|or|which|that)\b|×|\d))", re.I)
"""A measure word right after the number, ending its phrase ("92cm wide by 140 drop"), not an adjective before a
noun ("2 long weeks")."""
_BEFORE = re.compile(r"(?P<w>width|height|drop|length|depth|thickness)\s*(?P<link>(?:(?:is|of|=|:|about|around|approx\.?|"
                     r"roughly|maybe|them|it|to\s+be|to)\s*){0,2})$", re.I)
"""A measure's noun right before the number ("width 60", "a drop of 140", "drop them 2.2m")."""

_OTHER_SUBJECT = re.compile(r"(?:\b(?:the|my|our|your|his|her|their|a|an)\s+(?P<what>(?:[a-z]+\s+){0,2}?[a-z]+)"
                            r"(?:\s+(?:is|are|was|were|measures)|'s|’s)|\b(?P<who>he|she|i|we|they)(?:'s|’s|'m|’m|'re|’re|\s+is|"
                            r"\s+am|\s+are|\s+was)?)\s+(?:about|around|roughly|approx\.?|only|just|nearly|almost|over|"
                            r"under)?\s*$", re.I)
"""What the measure is said of: "the door is 80cm wide", "my kitchen is 4m long", "he's 6 foot tall"."""


def measure_of(f: Field) -> str | None:
    """Which measure a number field holds, by the last word of its name before a unit ("drop_cm": drop)."""
    words = [w for w in f.name.lower().split("_") if w and w not in _UNIT_WORDS]
    return _FIELD_MEASURES.get(words[-1]) if words else None


def unit_mm(f: Field) -> float | None:
    """How many millimetres one of the field's units is, when its name or description names the unit."""
    named = {"mm": 1.0, "cm": 10.0, "m": 1000.0, "in": 25.4, "inches": 25.4, "ft": 304.8}
    for w in f.name.lower().split("_"):
        if w in named:
            return named[w]
    found = {_UNIT_MM[_unit_key(m.group(0))] for m in re.finditer(
        r"\b(?:millimet(?:re|er)s?|centimet(?:re|er)s?|met(?:re|er)s?|inch(?:es)?|mm|cm)\b", f.description or "", re.I)}
    return next(iter(found)) if len(found) == 1 else None


def _unit_key(unit: str) -> str:
    u = unit.lower()
    for key in ("millimet", "centimet", "met", "inch"):
        if u.startswith(key):
            return {"millimet": "mm", "centimet": "cm", "met": "m", "inch": "in"}[key]
    return u


def _value(number: str, unit: str | None, extra: str | None, f: Field, kind: str) -> Any:
    """The number in the field's unit; None when it does not fit the field."""
    value = float(number)
    if unit and extra and _unit_key(unit) == "m" and len(extra) == 1:
        return None  # "20m2" is an area; "2m 4" is unclear
    if unit and extra:  # "2m 40": metres and centimetres
        value += float(extra) / (100 if _unit_key(unit) == "m" else 12 if _unit_key(unit) in ("ft", "feet", "foot", "'")
                                 else 1)
    mine = unit_mm(f)
    converted = bool(unit and mine and _UNIT_MM[_unit_key(unit)] != mine)
    if unit and mine:
        value = value * _UNIT_MM[_unit_key(unit)] / mine
    elif unit is None and mine and mine >= 1000 and value >= 20:
        return None  # "140" for a field in metres: no unit said, and no such size in metres
    if kind == "int":
        if (abs(value - round(value)) > 1e-6 and not converted) or round(value) <= 0:
            return None  # "92.5" for whole centimetres; "36 inches" is 91 of them
        return int(round(value))
    return round(value, 3) if value > 0 else None


def _said_of_another(before: str, target: tuple[TaskRecord, Field]) -> bool:
    """The clause says the size of a person ("he's 6 foot tall") or of a thing the field is not about ("the door is
    80cm wide" for a room's width): the words of the field, its description and its task name what it is about. "a
    statue that's 2 foot wide" describes the thing asked about."""
    clause = re.split(r"[,.;!?]|\b(?:but|and|so)\b", before)[-1]
    m = _OTHER_SUBJECT.search(clause)
    if m is None:
        return False
    if m.group("who"):
        return True
    if re.search(r"\b(?:that|which)$", m.group("what"), re.I):
        return False
    f, rec = target[1], target[0]
    about = {w.rstrip("s") for w in re.findall(r"[a-z]+", " ".join([f.name.replace("_", " "), f.description or "",
                                                                     re.sub(r"(?<=[a-z])(?=[A-Z])", " ", rec.worksheet)]).lower())}
    said = {w.rstrip("s") for w in m.group("what").lower().split()}
    return not said & about


def _field_for(said: str, fields: list[tuple[TaskRecord, Field]]) -> tuple[TaskRecord, Field] | None:
    """The one field of the measure said, or of its stand-in when no field holds that measure."""
    for measure in (said, *_STAND_INS.get(said, ())):
        found = [c for c in fields if measure_of(c[1]) == measure]
        if len({c[1].name for c in found}) == 1:
            return found[0]
        if found:
            return None
    return None


def measures(text: str, fields: list[tuple[TaskRecord, Field]], kinds: dict[str, str], *,
             asked: Field | None = None) -> list[tuple[TaskRecord, Field, Any, Span]]:
    """(record, field, value, span) of each measure said, for the measure fields among `fields`; the one number
    said with a unit and no measure word ("about 2 metres") is the `asked` field's. A size said of a person is no
    field's; one said of another thing ("the door is 80cm wide") is a field's only when the turn gives it no other."""
    fields = [c for c in fields if measure_of(c[1]) is not None]
    if not fields:
        return []
    found: list[tuple[int, int, tuple[TaskRecord, Field], re.Match, tuple[str, str, str]]] = []

    def said_of(before: str, target: tuple[TaskRecord, Field]) -> int | None:
        """0: the field's own size; 2: said of another thing or a person ("he's 6 foot tall")."""
        return 2 if _said_of_another(before, target) else 0

    for m in _ONE.finditer(text):  # "92cm wide", "drop of 140"
        after = _AFTER.match(text, m.end())
        before = _BEFORE.search(text[:m.start()])
        if before is not None and not after and before.group("w").lower() == "drop" and not m.group("u") \
                and not before.group("link").strip() and _VERB_BEFORE.search(text[:before.start()]):
            before = None  # "I can drop 2 photos over": the verb, not a drop of 2
        word = after.group("w") if after else before.group("w") if before else None
        if word is not None and (len(word) > 1 or m.group("u")):  # "w"/"h" only after a unit: "90cm w"
            target = _field_for(_SAID_MEASURES[word.lower()], fields)
            rank = said_of(text[:m.start()], target) if target is not None else None
            if rank == 2 and measure_of(target[1]) != _SAID_MEASURES[word.lower()]:
                rank = None  # "the radiator underneath is 60 high": another thing's height is no blind's drop
            if rank == 2 and re.search(r"(?<![\w.])\d+(?![\w.]*\d)", text[:m.start()]):
                rank = None  # "180, my kitchen is 4m long": the number said first answers
            if target is not None and rank is not None:
                found.append((rank, m.start(), target, m, ("n", "u", "c")))
    width = [c for c in fields if measure_of(c[1]) == "width"]
    others = [c for c in fields if measure_of(c[1]) not in ("width", None)]
    if len(width) == 1 and len({c[1].name for c in others}) == 1:
        for m in _SIZE.finditer(text):  # "130 x 160": width first; "12 foot by 14": both in feet
            rank = said_of(text[:m.start()], width[0])
            if not _AFTER.match(text, m.end()) and rank is not None:
                found.append((rank, m.start(), width[0], m, ("n1", "u1", "c1")))
                found.append((rank, m.start() + 1, others[0], m, ("n2", "u2" if m.group("u2") else "u1", "c2")))
    if asked is not None:
        target = next((c for c in fields if c[1].name == asked.name), None)
        bare = [m for m in _ONE.finditer(text) if m.group("u") and not _AFTER.match(text, m.end())
                and not _BEFORE.search(text[:m.start()])]
        if target is not None and len(bare) == 1 and said_of(text[:bare[0].start()], target) == 0:
            found.append((1, bare[0].start(), target, bare[0], ("n", "u", "c")))  # after a worded size
            # of its own, before one of another thing ("my tape says 3.2m but the door is 80cm wide")
    out: list[tuple[TaskRecord, Field, Any, Span]] = []
    done: set[str] = set()
    spans: list[Span] = []
    for _rank, _at, target, m, (n, u, c) in sorted(found, key=lambda x: (x[0], x[1])):
        if target[1].name in done:
            continue
        value = _value(m.group(n), m.group(u), m.group(c), target[1], kinds.get(target[1].name, "int"))
        end = m.end(c) if m.group(c) else m.end(u) if m.group(u) else m.end(n)
        span = Span(value, m.start(n), end, text[m.start(n):end])
        if value is None or any(span.overlaps(x) for x in spans):
            continue
        out.append((target[0], target[1], value, span))
        done.add(target[1].name)
        spans.append(span)
    return out


def size_spans(text: str) -> list[Span]:
    """Every number said as a size with its measure word ("2 foot wide"), whoever's: no count or other number."""
    return [Span(None, m.start(), m.end(), m.group(0)) for m in _ONE.finditer(text) if _AFTER.match(text, m.end())]
