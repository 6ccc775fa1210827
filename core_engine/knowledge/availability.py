"""Rows asked for as free to take: "which plots are free", "half plots available at Riverside", "anything going
at Beacon Hill?", and their negation ("which cottages are not available").

The embedder does not put "free" near a status value such as "Vacant" (0.33, below "Full"), so the words are
English ones: what a user says (AVAILABLE_SAID) and what a status column's value says when a row can be had
(`vocab.CAN_BE_HAD`, gathered per KB file in `TableVocab.can_be_had`). The condition is made only when exactly
one value of the table is such a value, and only when the word stands alone as a state: "free wifi", "feel free",
"free of charge" and "available on Mondays" are left to the other rules.
"""

from __future__ import annotations

import re
from typing import Any

from .vocab import STOPWORDS, Token, TableVocab, stem

__all__ = ["availability"]

AVAILABLE_SAID = re.compile(r"(?<!feel\s)\b(?:available|free|vacant|spare|unoccupied|unlet|up\s+for\s+grabs|"
                            r"in\s+stock)\b|\b(?:anything|any|what's|whats|what\s+is)\s+(?P<going>going)\b", re.I)
_NOT = re.compile(r"\b(?:not|isn't|aren't|isnt|arent|no\s+longer)\s+(?:(?:yet|currently|presently|still)\s+)?$",
                  re.I)
_STANDS_IN = frozenset("anything something whatever whatevers what whats which one ones any".split())
"""Words before "free" that stand for the rows ("whatever's free"): the rows are free, not a thing free of them."""
_STATE_AFTER = frozenset("at in on for from now right today this these yet near by around".split())
"""Words after "free" that leave it a state of the row ("free at the moment", "free in Devon"), not an adjective
of a thing ("free wifi") or of a price ("free of charge": "of" is not here)."""


def availability(question: str, tokens: list[Token], used: set[int], vocab: TableVocab | None
                 ) -> tuple[str, Any, set[int], bool] | None:
    """(column, value, the tokens that said it, negated) when the question asks for rows that can (or cannot) be
    had and the table has one value that says so; None otherwise."""
    if vocab is None or len(vocab.can_be_had) != 1:
        return None
    entry, rows = vocab.can_be_had[0], rows_of(vocab)
    for m in AVAILABLE_SAID.finditer(question):
        start = m.start("going") if m.group("going") else m.start()
        said = {i for i, t in enumerate(tokens) if start <= t.start < m.end()}
        if not said or said & used:
            continue
        if m.group(0).lower() == "free" and _free_of_something(tokens, min(said), rows):
            continue  # "pet free", "smoke free", "parking is free", "play for free": free of a thing or of charge
        after = max(said) + 1
        if after < len(tokens) and tokens[after].norm not in _STATE_AFTER and stem(tokens[after].norm) not in rows \
                and (tokens[after].norm not in STOPWORDS or tokens[after].norm == "of"):
            continue  # "free wifi", "spare keys", "free of charge": the word describes something else; not
            # "available cottages": the rows themselves
        return entry.column, entry.value, said, bool(_NOT.search(question[:start]))
    return None


def rows_of(vocab: TableVocab) -> set[str]:
    """Stems of the table's name: the words for its rows."""
    return {stem(w) for w in re.split(r"[_\W]+", vocab.table.lower()) if w}


def _free_of_something(tokens: list[Token], i: int, rows: set[str]) -> bool:
    """ "free" after "for", or after a word that is not the rows' own noun (skipping is/are/still/currently):
    something is free of a thing or costs nothing, not a row that can be had."""
    k = i - 1
    if k >= 0 and tokens[k].norm == "for":
        return True
    while k >= 0 and tokens[k].norm in _BETWEEN:
        k -= 1
    if k < 0:
        return False
    word = tokens[k].norm
    return word not in STOPWORDS and word not in _STANDS_IN and stem(word) not in rows and not word[:1].isdigit() \
        and not tokens[k].capitalised


_BETWEEN = frozenset("is are still currently presently now all".split())
