"""Rows of the last report picked by what they hold: "the cheaper one", "the highest rated", "the Ethiopian one".

A comparative or superlative ("cheaper", "cheapest", "shorter", "best rated") names a direction on a numeric
(or ordered enum) column whose name says what the adjective is about (price, duration, rating, reviews), or an
ordered enum column has the adjective as a value ("the more <value> one": its end by the value's place); the row
with the extreme value is meant, and a tie picks nothing. A value said with "one" ("the vegan one", "the one in
Palo Alto") that exactly one reported row holds in a short text or list column picks that row. Nothing here
names a domain: the columns come from the rows, the order of an enum column from the spec.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..words.match import stem

if TYPE_CHECKING:
    from ....spec.model import Spec

_PRICE = frozenset({"price", "cost", "fee", "fare", "rate", "amount"})
_LENGTH = frozenset({"duration", "length", "hour", "minute", "time", "long"})
_RATING = frozenset({"rating", "star", "score"})
_COUNT = frozenset({"review", "num"})
_SIZE = frozenset({"size", "capacity", "seat", "area", "sqm"})
_DISTANCE = frozenset({"distance", "km", "mile"})
_ADJECTIVES: dict[str, tuple[frozenset[str], int]] = {
    "cheaper": (_PRICE, -1), "cheapest": (_PRICE, -1), "inexpensive": (_PRICE, -1), "pricier": (_PRICE, 1), "priciest": (_PRICE, 1), "dearer": (_PRICE, 1),
    "short": (_LENGTH, -1), "shorter": (_LENGTH, -1), "shortest": (_LENGTH, -1), "quicker": (_LENGTH, -1),
    "quickest": (_LENGTH, -1), "longer": (_LENGTH, 1), "longest": (_LENGTH, 1),
    "rated": (_RATING, 1), "popular": (_COUNT, 1), "bigger": (_SIZE, 1), "biggest": (_SIZE, 1),
    "larger": (_SIZE, 1), "largest": (_SIZE, 1), "smaller": (_SIZE, -1), "smallest": (_SIZE, -1),
    "closer": (_DISTANCE, -1), "closest": (_DISTANCE, -1), "nearer": (_DISTANCE, -1), "nearest": (_DISTANCE, -1),
}
_COMPARED = re.compile(r"\b(?:the\s+)?(?:(?P<more>more|most|less|least|higher|highest|better|best|lower|lowest|top)"
                       r"[\s-]+)?(?P<adj>[a-z]+)\s+(?:one|option|place|choice|of\s+the)\b|"
                       r"\bthe\s+(?:(?P<more2>more|most|less|least|higher|highest|better|best|lower|lowest|top)"
                       r"[\s-]+)?(?P<adj2>[a-z]+est)\b", re.I)
_FLIP = {"less", "least", "lower", "lowest"}
_ONE_WITH = re.compile(r"\bthe\s+one\s+(?:in|with|at|on|that\s+(?:has|does|serves|is))\s+"
                       r"(?P<after>[\w'&-]+(?:\s+[\w'&-]+)?)|\b(?:the\s+)?(?P<before>[\w'&-]+(?:\s+[\w'&-]+)?)\s+one\b",
                       re.I)
_NOT_VALUES = frozenset({"the", "that", "this", "other", "first", "second", "third", "last", "same", "next", "which",
                         "a", "an", "any", "every", "each", "for", "one", "another"})


def compared_row(text: str, rows: list[dict[str, Any]], spec: "Spec | None" = None) -> tuple[int, str] | None:
    """(row index, words) for "the cheaper one" / "the cheapest": the row at the end the adjective points to."""
    for m in _COMPARED.finditer(text.lower()):
        adj, more = (m.group("adj") or m.group("adj2") or ""), (m.group("more") or m.group("more2") or "")
        if adj in _ADJECTIVES:
            words, direction = _ADJECTIVES[adj]
            column = _column(rows, words)
        else:  # "the more expensive one": a value of an ordered enum column, its end by its place in the order
            column, direction = _enum_end(adj, rows, spec)
        if more.lower() in _FLIP:
            direction = -direction
        if column is None:
            continue
        keyed = [(_order(row.get(column), column, spec), i) for i, row in enumerate(rows)]
        if any(k is None for k, _ in keyed):
            continue
        best = max(k for k, _ in keyed) if direction > 0 else min(k for k, _ in keyed)
        winners = [i for k, i in keyed if k == best]
        if len(winners) == 1:
            return winners[0], m.group(0)
    return None


def _enum_end(word: str, rows: list[dict[str, Any]], spec: "Spec | None") -> tuple[str | None, int]:
    """The enum column of the rows that has `word` as a value, and +1 when it is in the upper half of the order."""
    for ws in spec.worksheets if spec is not None else []:
        if ws.kind != "kb":
            continue
        for f in ws.fields:
            values = [e.value.lower() for e in f.enum_values]
            if word in values and f.name in rows[0]:
                return f.name, (1 if values.index(word) >= len(values) / 2 else -1)
    return None, 0


def _column(rows: list[dict[str, Any]], words: frozenset[str]) -> str | None:
    names = [k for k in rows[0] if {stem(w) for w in k.lower().split("_") if w} & {stem(w) for w in words}]
    if len(names) > 1:  # "size" and "area_sqm" both say how big: the measure in numbers orders the rows
        names = [k for k in names if all(isinstance(r.get(k), (int, float)) and not isinstance(r.get(k), bool)
                                         for r in rows) and re.search(r"area|sqm|sq_?m|capacity|seats", k)]
    return names[0] if len(names) == 1 else None


def _order(value: Any, column: str, spec: "Spec | None") -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and spec is not None:  # an ordered enum column ("cheap" < "moderate" < ...)
        for ws in spec.worksheets:
            f = ws.field(column) if ws.kind == "kb" else None
            values = [e.value.lower() for e in (f.enum_values if f is not None else [])]
            if value.lower() in values:
                return float(values.index(value.lower()))
    return None


def valued_row(text: str, rows: list[dict[str, Any]], label_of) -> tuple[int, str] | None:
    """(row index, words) for "the Ethiopian one" / "the one in Palo Alto": a value exactly one row holds."""
    for m in _ONE_WITH.finditer(text):
        said = (m.group("before") or m.group("after") or "").strip()
        words = [w for w in said.lower().split() if w not in _NOT_VALUES]
        if not words:
            continue
        for n in (len(words), 1) if len(words) > 1 else (1,):
            phrase = " ".join(words[:n] if m.group("after") else words[-n:])  # "the one in X ...", "the ... X one"
            holders = [i for i, row in enumerate(rows) if _holds(row, phrase, label_of(row))]
            if len(holders) == 1:
                return holders[0], m.group(0)
            if holders:
                break
    return None


def _holds(row: dict[str, Any], phrase: str, label: str | None) -> bool:
    for key, value in row.items():
        items = value if isinstance(value, list) else [value]
        for v in items:
            if isinstance(v, str) and v != label and len(v) <= 40 and v.lower() == phrase:
                return True
    return False
