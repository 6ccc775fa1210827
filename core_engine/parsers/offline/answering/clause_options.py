"""The other clauses of an answer may choose options of the task's other enum fields, by meaning:
"he's 11 and he's been limping since the weekend" answers the age asked and tells the visit's reason (Illness:
"the pet seems unwell: sick, limping, ..."); "for Max, my golden retriever" names the pet and its kind.

A clause is read only when it holds none of the answer's words; an option is taken only when it clearly wins for
its field (opening_options' score and margin), for unset enum fields of the asked record, the records it is nested
in and the records nested in those. Score and runner-up are in the trace.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ..opening.options import OPTION_MARGIN, OPTION_SCORE
from ..words.match import HEDGES, content_stems
from ..words.semantic_index import clean

if TYPE_CHECKING:
    from ..parser import TurnReader


def clause_options(reader: "TurnReader", text: str, rec: TaskRecord, spent: list[str]) -> None:
    clauses = [c.strip() for c in re.split(r"[,;]|\band\b|\bbut\b", text) if c.strip()]
    if len(clauses) < 2:
        return
    spent_l = [s.lower().strip() for s in spent if s and s.strip()]
    free = [c for c in clauses if not any(s in c.lower() or c.lower() in s for s in spent_l)
            and len(set(content_stems(c)) - HEDGES) >= 2]
    if not free:
        return
    fields = _unset_enums(reader, rec)
    for clause in free:
        said = clean(clause)
        for r, f in fields:
            if any(line.startswith(f"{r.var}.{f.name} =") for line in reader.lines):
                continue
            ranked = reader.view.index().rank(said, lambda e, r=r, f=f: e.kind == "enum" and e.worksheet == r.worksheet
                                              and e.field == f.name)
            if ranked.best is not None and ranked.decided(OPTION_SCORE, OPTION_MARGIN) \
                    and not _echo_of_short_text(ranked.text, clause):
                reader.assign("clause-option", clause, r, f, ranked.best.value, **ranked.trace())


def _echo_of_short_text(via: str, clause: str) -> bool:
    """The clause shares a word with a short text of the option but lacks the rest of it ("i'm working from the
    boat" and the example "after work"): the likeness is that one word, and the words it lacks ("after") are what the
    text means; no option is taken."""
    taught = re.findall(r"[a-z0-9']+", (via or "").lower())
    said = set(re.findall(r"[a-z0-9']+", clause.lower()))
    if not taught or len(taught) > 3:
        return False
    shared = set(content_stems(via)) & set(content_stems(clause))
    return bool(shared) and not all(w in said for w in taught)


def _unset_enums(reader: "TurnReader", rec: TaskRecord) -> list[tuple[TaskRecord, object]]:
    root = ([rec, *reader.state.ancestors(rec)])[-1].var
    tree = [r for r in reader.view.live_records()
            if r.var == root or root in {a.var for a in reader.state.ancestors(r)}]
    return [(r, f) for r in tree for f in reader.view.input_fields(r)
            if reader.view.kind_of(f) == "Enum" and f.enum_values and reader.view.unfilled(r, f)
            and not (reader.expect and reader.expect.rec is r and reader.expect.field.name == f.name)]
