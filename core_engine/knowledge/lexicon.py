"""Which of a turn's words the KB knows: a word of one of its short values (as such or by its rough stem), or a
word its free-text index holds.

The offline parser asks this before it sends the words left over from a task request to the KB as a search: "a
book about baking bread" and "a jacket for hiking in rain" are searches (the KB has those words), "a one bedroom
flat" or a story about a landlord is not, and the agent asks for the row instead of showing rows that match
nothing the user wanted. Answers are cached per KB file version and word.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from .kb import KnowledgeError, quote_identifier
from .match import same_stem
from .vocab import file_key, fold, vocabulary_for

_CACHE: OrderedDict[tuple[Any, ...], bool] = OrderedDict()
_LOCK = threading.Lock()
_MAX = 20_000


def known_words(kb: Any, words: list[str]) -> list[str]:
    """The words the KB has anywhere a question could find them."""
    if kb is None or not hasattr(kb, "tables"):
        return []
    try:
        key = file_key(kb)
    except (OSError, AttributeError):
        return []
    return [w for w in words if _knows(kb, key, fold(w))]


def _knows(kb: Any, key: tuple[Any, ...], word: str) -> bool:
    with _LOCK:
        found = _CACHE.get((key, word))
    if found is not None:
        return found
    vocab = vocabulary_for(kb)
    found = any(word in v.by_word or same_stem(v, word) for v in vocab.tables.values())
    if not found and word.isalpha() and len(word) >= 3:
        for info in kb.tables().values():
            if info.fts_table is None:
                continue
            fts = quote_identifier(info.fts_table)
            try:
                hit = kb.execute(f"SELECT 1 FROM {fts} WHERE {fts} MATCH ? LIMIT 1", ['"' + word + '"'], max_rows=1)
            except KnowledgeError:
                continue
            if hit.rows:
                found = True
                break
    with _LOCK:
        _CACHE[(key, word)] = found
        while len(_CACHE) > _MAX:
            _CACHE.popitem(last=False)
    return found


_SHARES: OrderedDict[tuple[Any, ...], float] = OrderedDict()


def telling_words(kb: Any, words: list[str], share: float = 0.3) -> tuple[list[str], list[str]]:
    """The known words that pick out rows: (words of a short value, free-text words that fewer than `share` of a
    table's rows have). "hiking" in two jackets' descriptions picks rows; "help" in half the tutors' does not."""
    known = known_words(kb, words)
    if not known:
        return [], []
    key = file_key(kb)
    vocab = vocabulary_for(kb)
    valued, rare = [], []
    for w in known:
        word = fold(w)
        if any(word in v.by_word or same_stem(v, word) for v in vocab.tables.values()):
            valued.append(w)
        elif _share(kb, key, word) < share:
            rare.append(w)
    return valued, rare


def _share(kb: Any, key: tuple[Any, ...], word: str) -> float:
    """The largest share of a table's rows whose free text has the word (1.0 when it cannot be counted)."""
    with _LOCK:
        found = _SHARES.get((key, word))
    if found is not None:
        return found
    found = 0.0
    for info in kb.tables().values():
        if info.fts_table is None or not info.row_count:
            continue
        fts = quote_identifier(info.fts_table)
        try:
            hit = kb.execute(f"SELECT count(*) FROM {fts} WHERE {fts} MATCH ?", ['"' + word + '"'], max_rows=1)
        except KnowledgeError:
            return 1.0
        count = hit.rows[0][0] if hit.rows and isinstance(hit.rows[0], (list, tuple)) else \
            next(iter(hit.rows[0].values())) if hit.rows else 0
        found = max(found, count / info.row_count)
    with _LOCK:
        _SHARES[(key, word)] = found
        while len(_SHARES) > _MAX:
            _SHARES.popitem(last=False)
    return found
