"""Several items with their own options in the turn that opens the list ("X (letter, 5 units) and Y for
credit, 3 units, and Z"): one item per code, each with the options of its own piece of the turn, in the
list's slots in order; a slot gated by a yes/no of the list ("self.more_items == True") gets that yes/no."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field, Worksheet
from ..words.values import find_codes
from .records import literal_value, slot_gates

if TYPE_CHECKING:
    from ..parser import TurnReader


def list_parts(reader: "TurnReader", ws: Worksheet, first: Field, item_ws: Worksheet, name: Field, text: str,
               codes: list[str], spans: list[tuple[int, str]] | None = None) -> list[str]:
    """`slot=Item(name=..., options...)` keyword texts (and `gate=True`) for the codes (or names) said, in slot
    order; `spans` are (position, words as said) of each, found as codes when not given."""
    from ..kb_rows.items import item_options, pieces_at, same_options, shared_options

    if spans is None:
        spans = [(c.start, c.text) for c in find_codes(text)]
    exact = len(spans) == len(codes)
    pieces = pieces_at(text, [p for p, _s in spans]) if exact else [""] * len(codes)
    if exact and pieces:  # "I need two classes, X ...": the first item's piece starts at the clause naming it
        cuts = [b.end() for b in _BOUNDARY.finditer(text, 0, spans[0][0])]
        pieces[0] = pieces[0][cuts[-1]:] if cuts else pieces[0]
    said = [s for _p, s in spans] if exact else codes
    shared = shared_options(reader, item_ws, text, {name.name}) or _every(reader, item_ws, text, name)
    names = [f.name for f in ws.fields]
    slots, gates = [first], []
    for f in ws.fields[names.index(first.name) + 1:]:
        if len(slots) >= len(codes):
            break
        if f.kind != "input" or f.type != first.type:
            continue
        need = slot_gates(ws, f)
        if need is None:
            break
        slots.append(f)
        gates += [g for g in need if g not in gates]
    by_index: dict[int, dict[str, Any]] = {}
    if exact and pieces:  # "X and Y, the first for a letter grade and the second pass/fail"
        by_index, pieces[-1] = ordinal_options(reader, item_ws, name, pieces[-1], len(codes))
    parts: list[str] = []
    before: dict[str, Any] = {}
    for i, (slot, code, piece, word) in enumerate(zip(slots, codes, pieces, said)):
        bare = piece.replace(word, " ")
        for c in find_codes(bare):  # "X (CS 229) for a letter grade": the code in brackets is no number of X
            bare = bare.replace(c.text, " ")
        own = before = same_options(bare, item_options(reader, item_ws, bare, {name.name}) if piece else {},
                                    before if i else None)  # "X for 4 units letter, and Y same"
        values = {name.name: code, **shared, **own, **by_index.get(i, {})}
        parts.append(f"{slot.name}={item_ws.name}({', '.join(f'{k}={literal_value(v)}' for k, v in values.items())})")
    return parts + [f"{g}=True" for g in gates]


_BOUNDARY = re.compile(r"[,;:]|\s[-\u2013\u2014]\s", re.I)
_ALL = re.compile(r"\b(?:both|all|each|every)\b", re.I)


def _every(reader: "TurnReader", item_ws: Worksheet, text: str, name: Field) -> dict[str, Any]:
    """ "X and Y, both for a letter grade" (no comma before "both"): the options after the last code."""
    from ..kb_rows.items import item_options
    spans = find_codes(text)
    m = _ALL.search(text, spans[-1].end if spans else 0)
    return item_options(reader, item_ws, text[m.start():], {name.name}) if m else {}


def named_items_opening(reader: "TurnReader", text: str, item_ws: Worksheet, name: Field) -> bool:
    """ "I'd like to take X and Y" when the task that holds the list is already open (the start worksheet): the
    items named by KB rows (or codes) go in the list's slots, as a code does before it is asked."""
    from ..opening.tasks import next_question
    from .records import ItemList, new_names

    chain = next_question(reader)
    if not chain or chain[0][0] is None or len(chain) < 3 or chain[-1][2].name != name.name \
            or chain[-1][1].name != item_ws.name:
        return False
    said = new_names(reader, ItemList(chain[0][0], chain[-2][1], item_ws, name, []), text)
    said = [s for i, s in enumerate(said) if not any(later[1] == s[1] for later in said[i + 1:])]
    # "machine learning, CS 229, for 4 units": a title and the code of the same row are one item (the last said,
    # which the options follow)
    if not said:
        return False
    _rec, ws2, f2 = chain[-2]
    parts = list_parts(reader, ws2, f2, item_ws, name, text, [v for _p, v, _s in said], [(p, s) for p, _v, s in said])
    statement = f"{ws2.name}({', '.join(parts)})"
    for _rec, ws, field in reversed(chain[1:-2]):
        statement = f"{ws.name}({field.name}={statement})"
    head_rec, _ws, head_field = chain[0]
    reader.emit("item-request", text, f"{head_rec.var}.{head_field.name} = {statement}",
                reason="a request that names items fills the list of the task already open")
    reader.answered = True
    return True


_CLAUSE = re.compile(r"\s*(?:[,;]|\band\b)\s*", re.I)
_ORDINAL = re.compile(r"\b(?:for\s+)?the\s+(first|second|third|fourth|last)(?:\s+one)?\b", re.I)
_INDEX = {"first": 0, "second": 1, "third": 2, "fourth": 3}


def ordinal_options(reader: "TurnReader", item_ws: Worksheet, name: Field, tail: str,
                    count: int) -> tuple[dict[int, dict[str, Any]], str]:
    """Options said of "the first", "the second" ... after the items ("the first for a letter grade", "3 units
    for the second"), by index; and the tail without those clauses."""
    from ..kb_rows.items import item_options
    out: dict[int, dict[str, Any]] = {}
    kept = []
    for clause in _CLAUSE.split(tail):
        found = list(_ORDINAL.finditer(clause))
        if len(found) != 1:
            kept.append(clause)
            continue
        word = found[0].group(1).lower()
        index = count - 1 if word == "last" else _INDEX[word]
        options = item_options(reader, item_ws, _ORDINAL.sub(" ", clause), {name.name})
        if index < count and options:
            out.setdefault(index, {}).update(options)
        else:
            kept.append(clause)
    return (out, " , ".join(kept)) if out else ({}, tail)
