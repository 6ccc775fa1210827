"""A short answer that leads with the value asked and adds other fields' values after a comma:
"Drontal, just one pack" to the medicine asked gives "Drontal" (and one pack to the count).

Only the part before the first comma, when it holds none of the other values and is one to three words; any
other shape is left to the usual reading (a wrong value is worse than none)."""

from __future__ import annotations

import re

from ..words.values import Span

_LEAD_IN = re.compile(r"^(?:(?:it'?s|it\s+is|its|that'?s|the\s+\w+\s+is)\s+)?(?:an?\s+|the\s+)?", re.I)


def leading_part(text: str, spans: list[Span]) -> str | None:
    head, sep, _tail = text.partition(",")
    if not sep or any(s.start < len(head) for s in spans):
        return None
    value = _LEAD_IN.sub("", head.strip(" .!?")).strip()
    return value if 1 <= len(value.split()) <= 3 else None
