"""Several options of a `List[Enum]` field, each named in the user's own words.

"a charger and an adapter plug, and some paracetamol" to "What did you have to buy?" (options Toiletries, ...,
Chargers and Adapters: "a phone charger, cables or a plug adapter", Medication: "medicine or prescriptions from a
pharmacy") is read piece by piece: each piece between commas and "and"/"or" is one option, by the option's name or
its description's words, else by meaning (the enum thresholds of the semantic index); the same option named twice
("nappies and formula") is listed once. As an answer the reading is all or nothing: a piece that names no option
leaves the field unread and the agent asks again.

An opening ("I had to buy toiletries and a change of clothes, can I get that money back?") lists only the options its
pieces name by words (as an answer reads them) when the reading by meaning of the piece agrees among the options
other than the catch-all; the catch-all option ("Other: anything else") is never read from an opening, where "the
other one" names no purchase.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ....spec.model import Field
from ..words.semantic_index import ENUM_MARGIN, ENUM_THRESHOLD

_PIECES = re.compile(r"\s*(?:,|;|\band\b|\bor\b|\bplus\b|&|[.!?](?:\s|$))\s*", re.I)
_CATCH_ALL = re.compile(r"^\s*(?:other|others|something\s+else|anything\s+else|misc\w*)\b", re.I)


def is_enum_list(f: Field) -> bool:
    return f.type.replace(" ", "") == "List[Enum]" and bool(f.enum_values)


def pieces(text: str) -> list[str]:
    return [p.strip(" .!?") for p in _PIECES.split(text) if p.strip(" .!?")]


def _catch_all(f: Field, value: str) -> bool:
    option = next((v for v in f.enum_values if v.value == value), None)
    return bool(_CATCH_ALL.match(value) or (option is not None and _CATCH_ALL.match(option.description or "")))


def _by_meaning(index: Any, f: Field, piece: str) -> tuple[str, Any] | None:
    """The option `piece` means, when one clearly wins at the enum thresholds; None without a model."""
    if index is None or index.matrix is None or index.fallback_reason:
        return None
    names = set(f.enum_names)
    ranked = index.rank(piece, lambda e: e.kind == "enum" and e.field == f.name and e.value in names,
                        same=lambda a, b: a.value == b.value)
    return (ranked.best.value, ranked) if ranked.decided(ENUM_THRESHOLD, ENUM_MARGIN) else None


def _meaning_agrees(index: Any, f: Field, piece: str, value: str) -> bool:
    """The piece means `value` more than any other option but the catch-all (whose "anything else that broke" is
    near every story of damage); True without a model, where the words alone decide."""
    if index is None or index.matrix is None or index.fallback_reason:
        return True
    names = {v for v in f.enum_names if not _catch_all(f, v)}
    ranked = index.rank(piece, lambda e: e.kind == "enum" and e.field == f.name and e.value in names,
                        same=lambda a, b: a.value == b.value)
    return ranked.best is not None and ranked.best.value == value


def answered_options(f: Field, text: str, index: Any, read_one: Callable[[Field, str], Any]) -> list[str] | None:
    """The options an answer to the list question names, in the order said; None when a piece names none."""
    one = f.model_copy(update={"type": "Enum"})
    found: list[str] = []
    for piece in pieces(text):
        value = read_one(one, piece)
        if value is None:
            meant = _by_meaning(index, f, piece)
            value = meant[0] if meant else None
        if value is None:
            return None
        if value not in found:
            found.append(value)
    return found or None


_ITEM = re.compile(r"^(?:a|an|the|some|my|our|his|her|their|two|three|four|five|\d+)\s+\S", re.I)
"""A piece that names a thing ("the laptop", "some plates"), not a clause ("can I claim for them")."""


def opening_options(f: Field, text: str, index: Any, read_one: Callable[[Field, str], Any]
                    ) -> tuple[list[str], list[str]] | None:
    """The options an opening's pieces name by words that the meaning agrees with, and the pieces that named them.
    None when a short piece that names a thing ("and the laptop") names no option: the list would be cut short."""
    one = f.model_copy(update={"type": "Enum", "enum_values": [v for v in f.enum_values if not _catch_all(f, v.value)]})
    found: list[str] = []
    words: list[str] = []
    unread = False
    for piece in pieces(text):
        value = read_one(one, piece)
        if value is None or not _meaning_agrees(index, f, piece, value):
            unread = unread or bool(_ITEM.match(piece) and len(piece.split()) <= 4)
            continue  # "my phone died" names no charger bought: the meaning of the piece says another option
        if value not in found:
            found.append(value)
            words.append(piece)
    return (found, words) if found and not unread else None
