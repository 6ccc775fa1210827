"""A task told by the one option it leads to, named in full: "I did A levels in the UK, can I get units for them?"

No reading by meaning was clear ("units" is also near a course's Change Units), but the turn names an option of a
field nested deep in one task ("General Certificate of Education A levels" of the international test, which only
the unit-award issue asks): that option, the options its predicates need on the way to it, and its task are the
reading (`apply_reading` sets the path). An option counts as named when two of its own words are said ("the Abitur
in Germany": German Abitur) or two of its words side by side ("A levels"); one word is not enough, and neither is
an option of the task menu itself, which the reading by meaning already weighed. Only when exactly one option of
all the task worksheets is named so, no task is in progress, the user speaks of their own case ("I did ...",
"my A levels") and asks for something ("can I get ...", "I'd like ..."): "do A levels count for anything here?" asks
about the rules and "is my petrol mower ready?" about the user's thing, not for the task.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..words.match import Bag, content_stems, words
from .said_option import task_options

if TYPE_CHECKING:
    from ..parser import TurnReader
    from ..words.semantic_index import Entry


_OWN_CASE = re.compile(r"\b(?:i|i'm|i've|i'd|im|ive|my|we|we've|our)\b", re.I)
_ASKS_FOR = re.compile(r"\b(?:(?:can|could|may)\s+(?:i|we|you)\s+(?!tell\b|say\b|check\b)\w+|"
                       r"(?:i|we)\s*(?:'d|would)\s+like|(?:i|we)\s+(?:want|need)\s+(?!to\s+(?:know|check|ask|find\s+out)\b)|"
                       r"how\s+(?:do|can)\s+(?:i|we)\s+(?:get|claim|apply|sign|book)|please)\b", re.I)
"""A request ("can I get units for them?", "I'd like ...", "how do I claim ..."): what the option leads to is asked
for. "is my petrol mower ready?" and "I want to know when it will be ready" ask about the user's thing, not for
the task its option belongs to."""


def _side_by_side(value: str, said: str) -> bool:
    """Two words of the option in a row, as the turn says them, one of them a word of four letters or more."""
    own = words(value)
    return any(len(max(a, b, key=len)) >= 4 and f" {a} {b} " in said for a, b in zip(own, own[1:]))


def named_deep_option(reader: "TurnReader", text: str) -> "Entry | None":
    """The one option of a nested task field the turn names in full, else None."""
    from ..words.semantic import task_roots  # late: semantic imports the opening rules
    from ..words.semantic_index import Entry

    start = reader.spec.start_worksheet()
    if not _OWN_CASE.search(text) or not _ASKS_FOR.search(text) or any(r.status == "active" and (start is None or r.worksheet != start.name) for r in reader.state.tasks()):
        return None
    bag, said = Bag.of(text), " " + " ".join(words(text)) + " "
    roots = task_roots(reader)
    found: list[Entry] = []
    for ws, f, ev in task_options(reader):
        own = len(set(bag.hits(set(content_stems(ev.value)))))  # its own words, not its description's
        if own >= 2 or own >= 1 and _side_by_side(ev.value, said):
            found.append(Entry("enum", ws.name, f.name, ev.value))
    if len(found) != 1 or roots.get(found[0].worksheet, found[0].worksheet) == found[0].worksheet:
        return None  # none, several, or an option of a task's own first field (the reading by meaning weighed it)
    return found[0]
