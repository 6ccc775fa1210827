"""Words that belong to a KB value the turn names are not values of other fields.

"the Toyota RAV4 from the airport": "RAV4" has the shape of a code, but it is part of a row's name the
turn says; reading it as a flight number or an order code would store a wrong value (a wrong value is
worse than none). A str value whose words are part of a longer named KB value is dropped; a value that
is a whole KB value ("red" of a colours column) stays.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..parser import TurnReader


def kb_name_spans(reader: "TurnReader", text: str) -> list[tuple[int, int]]:
    """Character spans of the KB's short values said in the turn (case-insensitive, on word boundaries)."""
    if reader.ctx.kb is None:
        return []
    spans = []
    for term in reader.vocabulary.found_in(text, reader.ctx.kb):
        words = [re.escape(w) for w in re.findall(r"[a-z0-9]+", term.lower())]
        if not words:
            continue
        for m in re.finditer(r"\b" + r"[^a-z0-9]+".join(words) + r"\b", text.lower()):
            spans.append((m.start(), m.end()))
    return spans


def inside_kb_name(reader: "TurnReader", text: str, mention: Any) -> bool:
    """True for a str mention whose matched words lie inside a KB value the turn names."""
    if not isinstance(mention.value, str) or reader.view.kind_of(mention.field) != "str":
        return False
    return said_inside_kb_name(reader, text, str(mention.matched or ""))


def said_inside_kb_name(reader: "TurnReader", text: str, said: str) -> bool:
    """True when the words `said` (a code, a value's words) are part of a longer KB value the turn names."""
    said = said.lower()
    at = text.lower().find(said) if said else -1
    return at >= 0 and any(a <= at and at + len(said) <= b and b - a > len(said.strip())
                           for a, b in kb_name_spans(reader, text))  # a part of a longer value: not "red" itself
