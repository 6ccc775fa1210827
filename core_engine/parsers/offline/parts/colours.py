"""Colour words, for a str field whose name or description is about a colour ("The colour of the vehicle").

"black Ford Focus" to the make and model gives the colour field "black" and the asked field "Ford Focus".
The colours are the basic colour terms of English, not any agent's values."""
from __future__ import annotations

import re

from ....spec.model import Field
from ..words.values import Span

_COLOURS = ("black|white|grey|gray|silver|red|blue|green|yellow|orange|brown|beige|purple|gold|golden|maroon|"
            "navy|pink|tan|bronze|burgundy|teal|turquoise|cream|violet")
_COLOUR = re.compile(rf"\b(?:(?:dark|light|pale|bright|metallic)\s+)?(?:{_COLOURS})\b", re.I)


def is_colour_field(f: Field) -> bool:
    words = set(f.name.lower().split("_")) | set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & {"color", "colour"})


def describes_brand(f: Field) -> bool:
    """A colour field that also keeps the brand ("The colour, brand and anything distinctive about the bag")."""
    return bool(set(re.findall(r"[a-z]+", f.description.lower())) & {"brand", "make", "maker", "label"})


_BRAND_AFTER = re.compile(r"(?:\s+(?-i:[A-Z])[\w'’&-]*){1,3}")


def find_colours(text: str, *, with_brand: bool = False) -> list[Span]:
    """Colour words; `with_brand`, with the capitalised name right after one ("a green Osprey rucksack": "green
    Osprey")."""
    out = []
    for m in _COLOUR.finditer(text):
        end = m.end()
        brand = _BRAND_AFTER.match(text, end) if with_brand else None
        if brand is not None:
            end = brand.end()
        out.append(Span(text[m.start():end], m.start(), end, text[m.start():end]))
    return out


def rest_of_answer(text: str, spans: list[Span]) -> str | None:
    """What is left of a short answer once the other fields' values are taken out, without the words that
    lead it in ("its a", "it's a"): "Toyota Prius, white" -> "Toyota Prius". None when several parts are
    left (the answer is not read in pieces) or nothing is."""
    body = text
    for s in sorted(spans, key=lambda s: -s.start):
        body = body[:s.start] + " " + body[s.end:]
    parts = [p.strip() for p in re.split(r"\s*(?:[,;]|\band\b)\s*", body) if p.strip(" .!?")]
    if len(parts) != 1:
        return None
    rest = re.sub(r"^(?:(?:it'?s|it\s+is|its|the\s+\w+\s+is|that'?s)\s+)?(?:an?\s+)?", "", parts[0].strip(" .!?"),
                  flags=re.I)
    return rest.strip() or None
