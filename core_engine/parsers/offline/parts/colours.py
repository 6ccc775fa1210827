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


def find_colours(text: str) -> list[Span]:
    return [Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _COLOUR.finditer(text)]


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
