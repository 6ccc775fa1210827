"""Heights, lengths and weights said in another unit than the field counts: "1m52" or "5ft 2" to a height in
centimetres, "17 stone" to a weight in kilograms, "40 feet" to a length in metres.

The field's unit comes from its name or description ("height_cm", "Rider's weight in kg"). Only a measure said
with its unit converts (a bare "1.52" to a field of centimetres is the one exception: no one is 1.52 cm tall); a
number in the field's own unit is left to the ordinary number reading.
"""

from __future__ import annotations

import re

_UNIT_WORDS = {"cm": r"(?:cm|cms|centimet(?:re|er)s?)", "kg": r"(?:kg|kgs|kilos?|kilograms?|kilogrammes?)",
               "m": r"(?<!')(?:m|metres?|meters?)"}
_FIELD_UNITS = tuple((unit, re.compile(rf"\b{words}\b", re.I)) for unit, words in _UNIT_WORDS.items())
_METRES_CM = re.compile(r"\b(?P<m>[12])\s*(?:m|metres?|meters?)\s*(?P<cm>\d{1,2})\b(?!\s*(?:kg|cm|%))"
                        r"|\b(?P<dec>[12][.,]\d{1,2})\s*(?:m|metres?|meters?)?\b(?![.,]?\d)", re.I)
_FEET = re.compile(r"\b(?P<ft>\d{1,2}(?:\.\d)?)\s*(?:ft|feet|foot|')\s*(?:(?P<inch>\d{1,2}(?:\.\d)?)\s*"
                   r"(?:in(?:ch(?:es)?)?\b|\"|'')?)?", re.I)
_STONE = re.compile(r"\b(?P<st>\d{1,2})\s*(?:st|stone)\b(?:\s*(?:and\s+)?(?P<lb>\d{1,2})\s*(?:lbs?|pounds?)?\b)?", re.I)
_POUNDS = re.compile(r"\b(?P<lb>\d{2,3})\s*(?:lbs?|pounds?)\b", re.I)


def field_size_unit(name: str, description: str) -> str | None:
    """cm, kg or m when the field's name or description says it counts in that unit."""
    said = f"{name.replace('_', ' ')} {description}"
    return next((unit for unit, cue in _FIELD_UNITS if cue.search(said)), None)


def converted_size(text: str, unit: str) -> int | float | None:
    """The one measure in `text` said in another unit, converted to `unit` (rounded to a whole number), or None.
    A number said in the field's own unit wins ("6 foot high and about 20 metres long" is 20 metres of hedge)."""
    own = _UNIT_WORDS.get(unit)
    if own and re.search(rf"\d\s*{own}\b(?!\s*\d)", text, re.I) and not (unit == "cm" and _METRES_CM.search(text)):
        return None
    if unit == "cm":
        found = list(_METRES_CM.finditer(text))
        if len(found) == 1:
            m = found[0]
            if m.group("dec"):
                return round(float(m.group("dec").replace(",", ".")) * 100)
            return int(m.group("m")) * 100 + int(m.group("cm").ljust(2, "0"))
        feet = list(_FEET.finditer(text))
        if len(feet) == 1:
            m = feet[0]
            inches = float(m.group("ft")) * 12 + float(m.group("inch") or 0)
            return round(inches * 2.54)
        return None
    if unit == "kg":
        found = list(_STONE.finditer(text))
        if len(found) == 1:
            m = found[0]
            return round((int(m.group("st")) * 14 + int(m.group("lb") or 0)) * 0.45359237)
        pounds = list(_POUNDS.finditer(text))
        if len(pounds) == 1 and not re.search(r"[£$€]", text):
            return round(int(pounds[0].group("lb")) * 0.45359237)
        return None
    if unit == "m":
        feet = [m for m in _FEET.finditer(text) if "'" not in m.group(0)]
        if len(feet) == 1:
            m = feet[0]
            return round((float(m.group("ft")) * 12 + float(m.group("inch") or 0)) * 0.0254)
        yards = re.findall(r"\b(\d{1,4})\s*(?:yards?|yds?)\b", text, re.I)
        if len(yards) == 1:
            return round(int(yards[0]) * 0.9144)
    return None
