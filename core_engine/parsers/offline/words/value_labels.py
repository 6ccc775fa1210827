"""Which field a number or code belongs to, from the word the user put right before it.

People label the values they type: "acc 40817726, pin 2291", "account number 12345678, sort code 61-44-09",
"my claim is CL-318842". The label is the one or two words just before the value in the same clause, with an
optional code noun ("number", "code", "ref") and an optional "is"/":" between. A label *names* a field when
its head word is one of the field's own name words, or a short abbreviation of one ("acc" for account,
"ref" for reference). A label names *something else* when its head names another field of the turn's
candidates, or when it is a head word plus a code noun that is not this field ("sort code": a code the spec
has no field for). A value labelled for something else is never this field's value.
"""

from __future__ import annotations

import re
from typing import Iterable

from ....spec.model import Field
from .match import same_word, stem

_CODE_NOUNS = frozenset({"number", "no", "num", "code", "ref", "reference", "id", "nr"})
_NOT_HEADS = frozenset({"my", "the", "your", "our", "his", "her", "their", "its", "it's", "it", "a", "an", "is",
                        "was", "and", "or", "with", "of", "for", "to", "at", "on", "in", "that", "this", "that's",
                        "new", "old", "same", "yes", "yeah", "yep", "no", "ok", "okay", "so", "oh", "sorry",
                        "right", "also", "then", "and", "but", "number", "here", "there", "be", "should", "would"})
_LABEL = re.compile(r"\b(?P<head>[a-z]+)(?:'s)?(?:\s+(?P<noun>number|no\.?|num|code|ref|reference|id|nr)(?:'s)?)?"
                    r"(?:\s*[:=#]|\s+(?:is|was))?\s*#?\s*$")


_ABBREVIATED = re.compile(r"\b(no|num|nr|ref|tel|mob|acc|acct|reg)\.(?=\s*#?\s*$|\s+(?:is|was)\s*$)", re.I)
"""A code noun shortened with a full stop right before the value ("card no. 5512-OW-2231"): no end of a clause."""


def _unstopped(before: str) -> str:
    """`before` with the full stop of a shortened code noun at its end made a space (same length)."""
    return _ABBREVIATED.sub(lambda m: m.group(1) + " ", before)


def label_of(text: str, start: int) -> tuple[str, bool] | None:
    """(head word, whether a code noun follows it) of the label right before position `start`, or None."""
    before = _unstopped(text[:start].lower())
    before = re.split(r"[,;.!?()\n]|\s-\s|\d", before)[-1]
    m = _LABEL.search(before)
    if m is None:
        return None
    head = m.group("head")
    if head in _NOT_HEADS:
        return None
    return head, m.group("noun") is not None


def label_start(text: str, start: int) -> int:
    """Where the label of the value at `start` begins (`start` itself when it has none)."""
    before = _unstopped(text[:start])
    clause = re.split(r"[,;.!?()\n]|\s-\s|\d", before.lower())[-1]
    m = _LABEL.search(clause)
    return start - (len(clause) - m.start()) if m is not None and label_of(text, start) is not None else start


def _name_words(f: Field) -> set[str]:
    """Every word of the field's name: as a label even a common one names it ("student id" for student_id)."""
    return {w for w in f.name.lower().split("_") if w and not w.isdigit() and w not in _CODE_NOUNS}


def head_names(head: str, f: Field) -> bool:
    """The label's head word is one of the field's name words, or a short abbreviation of one ("acc")."""
    for w in _name_words(f):
        if same_word(stem(head), stem(w)):
            return True
        if 3 <= len(head) < len(w) and head.isalpha() and (w.startswith(head) or (
                head[:2] == w[:2] and not re.search(r"[aeiouy]", head[2:]) and _in_order(head, w))):
            return True  # "acc", "ref", "memb": the word's start; "acct": its start and consonants after
    return False


def _said(g: Field) -> set[str]:
    """The stems of a field's description and name."""
    return {stem(w) for w in re.findall(r"[a-z]+", f"{g.description} {g.name.replace('_', ' ')}".lower())}


def _described_only_by(head: str, f: Field, others: Iterable[Field]) -> bool:
    """The label's head is a noun of the field's description that no other field's name or description has."""
    if len(head) < 4 or head in _CODE_NOUNS or stem(head) not in _said(f) or \
            stem(head) in {stem(w) for w in re.findall(r"[a-z]+", f.name.lower())}:
        return False
    return not any(stem(head) in _said(g) for g in others if g.name != f.name)


def _unmodified(text: str, start: int, head: str, f: Field) -> bool:
    """No word before the label's head that the field's description lacks: "my insurance certificate is PX-55120" is
    not "The number on your microchip certificate"."""
    typed = re.findall(r"[A-Za-z]+", re.split(r"[,;.!?()\n]|\s-\s|\d", _unstopped(text[:start]))[-1])
    before = [w.lower() for w in typed]
    k = max((i for i, w in enumerate(before) if w == head), default=-1)
    if k <= 0:
        return True
    word = before[k - 1]
    if typed[k - 1].isupper() and len(word) >= 3:
        return True  # "my CARN ticket is 40221187": the scheme's own name in capitals (not "ID card")
    return word in _NOT_HEADS or stem(word) in _said(f)


def _in_order(short: str, word: str) -> bool:
    """The letters of `short` appear in `word` in the same order (how words are shortened: "acct", "tel")."""
    it = iter(word)
    return all(c in it for c in short)


def label_kind(text: str, start: int, f: Field, others: Iterable[Field]) -> str:
    """'this' (the label names `f`), 'other' (it names another field), 'foreign' (a head word and a code noun
    that name neither: "sort code") or 'none'."""
    label = label_of(text, start)
    if label is None:
        return "none"
    head, with_noun = label
    if head_names(head, f):
        if not _unmodified(text, start, head, f):
            return "foreign"  # "my debit card is 4929...", "my ID card AB123456C" to `loyalty_card`: another card
        return "this"
    if any(head_names(head, g) for g in others if g.name != f.name):
        return "other"
    if _described_only_by(head, f, others) and _unmodified(text, start, head, f):
        return "this"  # "card RSC-00921" for "The number on the diver's certification card"
    return "foreign" if with_noun and head not in _CODE_NOUNS else "none"


def labelled_choice(text: str, spans: list, f: Field, others: Iterable[Field]):
    """The one span of `spans` that is `f`'s by its label: the one labelled for `f`, else the one unlabelled
    value beside values labelled for other things. None when the labels do not decide."""
    others = list(others)
    kinds = [label_kind(text, s.start, f, others) for s in spans]
    mine = [s for s, k in zip(spans, kinds) if k == "this"]
    if len(mine) == 1:
        return mine[0]
    if not mine and ("other" in kinds or "foreign" in kinds):
        free = [s for s, k in zip(spans, kinds) if k == "none"]
        if len(free) == 1:
            return free[0]
    return None
