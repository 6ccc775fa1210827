"""A yes/no field volunteered in the user's own statement: "and yes I'm an international student".

A bool field whose distinctive name words (`is_international_student` -> "international") are all said in a
first-person statement ("I'm ...", "I am ...", "yes ...") takes True, or False when that clause is negated
("I'm not international"). A question ("am I international?") or a clause about someone else says nothing.
A name word right after "with", "including" or "plus" ("for 4 nights, with breakfast") says True, after
"without" or "no" ("no breakfast") False: the thing itself is asked for or declined.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .words.match import STOPWORDS, Bag, field_stems

if TYPE_CHECKING:
    from ...dialogue.state import TaskRecord
    from ...spec.model import Field
    from .slots import Mention, StateView

_CLAUSES = re.compile(r"\s*(?:[,;.!]|\band\b|\bbut\b)\s*", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i'?m|i\s+am|i\s+was|i'?ve|i\s+have|i\s+do|yes|yeah|yep)\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b", re.I)
_WITH = re.compile(r"\b(?P<how>with|including|plus|without|no)\s+(?:the\s+|a\s+|an\s+)?(?P<word>[a-z]+)", re.I)


def _with_thing(clause: str, names: set[str]) -> bool | None:
    """True for "with breakfast", False for "without breakfast" / "no breakfast", None when no name word follows."""
    for m in _WITH.finditer(clause):
        if Bag.of(m.group("word")).hits(names):
            return m.group("how").lower() not in ("without", "no")
    return None


def bool_mentions(text: str, candidates: list[tuple["TaskRecord", "Field"]], view: "StateView",
                  used: set[tuple[str, str]]) -> list["Mention"]:
    from .slots import Mention  # late: slots imports this module

    out = []
    if "?" in text:
        return out
    clauses = [c for c in _CLAUSES.split(text) if c and c.strip()]
    for rec, f in candidates:
        if view.kind_of(f) != "bool" or (rec.var, f.name) in used:
            continue
        names = {s for s in field_stems(f, with_description=False) if s not in STOPWORDS and len(s) >= 4}
        if not names:
            continue
        for i, clause in enumerate(clauses):
            if len(Bag.of(clause).hits(names)) < len(names):
                continue
            lead = " ".join(clauses[max(0, i - 1): i + 1])  # "yes, I'm an international student"
            wanted = _with_thing(clause, names) if len(names) == 1 else None
            if wanted is not None:
                out.append(Mention(rec, f, wanted, clause.strip(), "bool by with"))
                used.add((rec.var, f.name))
                break
            if not _FIRST_PERSON.search(clause) and not _FIRST_PERSON.search(lead):
                continue
            out.append(Mention(rec, f, not _NEGATED.search(clause), clause.strip(), "bool by name"))
            used.add((rec.var, f.name))
            break
    return out
