"""A task asked for the thing just asked about: "I'm thinking of taking next quarter off, what's the process?" is
answered from the KB and the agent asks which request it is; "ok, can you open a ticket for that" says which: the
one the question was about. The question's words are read by meaning against the options of the field asked (the
task choice), as an answer to it would be (`semantic_enum`: the calibrated threshold and margin); the whole
question and each of its clauses are tried, and all those that decide must agree on one option.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..parser import TurnReader

_FOR_THAT = re.compile(r"\b(?:open|start|file|raise|log|make|create|submit|put\s+in|do|book|set\s+up)\b[\w\s']{0,30}?"
                       r"\b(?:for|about)\s+(?:that|this|it)\b|\b(?:help\s+me\s+with|do)\s+(?:that|this|it)\s+for\s+me\b",
                       re.I)


def task_for_that(reader: "TurnReader", text: str) -> bool:
    from ..words.semantic import semantic_enum  # late: the semantic rules import the opening modules

    e = reader.expect
    if e is None or e.act != "ask" or reader.answered or reader.view.kind_of(e.field) != "Enum" \
            or not _FOR_THAT.search(text):
        return False
    if not any(a.get("act") == "report" and a.get("kind") == "kb" for a in reader.acts):
        return False  # "that" is the question the agent just answered
    kbs = reader.state.kb_records()
    asked = kbs[-1].query if kbs else ""
    parts = [asked] + [p for p in re.split(r"\s*[,;?!.]\s*", asked) if len(p.split()) >= 3]
    found = {found[0]: (part, found[1]) for part in dict.fromkeys(parts) if part.strip()
             for found in [semantic_enum(reader, e.field, part)] if found is not None}
    reader.rules = [r for r in reader.rules if r["rule"] != "enum-uncertain"]
    if len(found) != 1:
        return False
    value, (part, ranked) = next(iter(found.items()))
    reader.assign("task-for-that", text, e.rec, e.field, value, about=part, **ranked.trace())
    reader.answered = True
    return True
