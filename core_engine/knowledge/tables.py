"""Which table a wh-question is about, by the column it asks for: "Who teaches X?" asks for an instructor.

The question's own words often name no table: "who teaches CS 161?" says a course code (a value of the
courses table) and a verb. The table that answers it is the one with a column for what is asked (who
teaches: the instructors). So the question's words, without the values it names, are compared by
meaning with every KB column's name and description (embedded once per spec), and the tables whose
best column clearly fits gain in the table choice of `knowledge.py`. Only for wh-questions; a clear
winner only (threshold and margin against the other tables' best columns), else nothing changes.
"""

from __future__ import annotations

import re
from typing import Any

from .kb import TableInfo
from ..spec.model import Spec

ASKED_THRESHOLD = 0.55
"""Cosine of the question's head with a column's text ("who teaches" / "instructor names: Instructors" is 0.59,
"what time does the ... open" / "opening hours: When it is open" 0.80; unrelated columns stay below 0.50)."""
ASKED_MARGIN = 0.08
ASKED_BONUS = 2.0
"""As much as a word of the table's name said (knowledge._choose_table)."""
_WH = re.compile(r"^\W*(?:(?:and|so|ok|okay|hi|hello)[,\s]+)*(?:who|whom|whose|when|where|which|what|how\s+(?:much|many|"
                 r"long|late|early|often|big|far))\b", re.I)
_CACHE: dict[tuple[Any, ...], tuple[list[tuple[str, str]], Any]] = {}


def _columns(spec: Spec, tables: dict[str, TableInfo], embedder: Any) -> tuple[list[tuple[str, str]], Any]:
    """(table, column) of every non-key column, and their texts' vectors (cached per spec text and model)."""
    cols: list[tuple[str, str, str]] = []
    for name, info in tables.items():
        ws = spec.worksheet(name)
        for col in info.columns:
            f = ws.field(col.name) if ws is not None else None
            if col.name == "id" or col.name.endswith("_id") or (f is not None and f.primary_key):
                continue
            words = col.name.replace("_", " ")
            cols.append((name, col.name, f"{words}: {f.description}" if f is not None and f.description else words))
    key = (getattr(embedder, "name", ""), tuple(c[2] + "|" + c[0] for c in cols))
    if key not in _CACHE:
        _CACHE[key] = ([(t, c) for t, c, _x in cols], embedder.encode([c[2] for c in cols]) if cols else None)
    return _CACHE[key]


def warm_columns(spec: Spec, tables: dict[str, TableInfo], embedder: Any) -> None:
    """Embed the columns' texts now (a session's start), so the first question does not."""
    _columns(spec, tables, embedder)


def asked_column(question: str, head: str, spec: Spec, tables: dict[str, TableInfo], embedder: Any
                 ) -> dict[str, tuple[str, float]] | None:
    """{table: (its best column, score)} for the tables whose column clearly answers a wh-question, else None.

    `head` is the question without the values it names ("who teaches ?")."""
    if len(tables) < 2 or not _WH.match(question) or embedder is None or getattr(embedder, "fallback_reason", None):
        return None
    cols, vectors = _columns(spec, tables, embedder)
    if vectors is None or not head.strip():
        return None
    sims = vectors @ embedder.encode([head])[0]
    best: dict[str, tuple[str, float]] = {}
    for (table, col), sim in zip(cols, sims):
        if table not in best or float(sim) > best[table][1]:
            best[table] = (col, float(sim))
    top = max(s for _c, s in best.values())
    winners = {t: v for t, v in best.items() if v[1] >= ASKED_THRESHOLD and v[1] >= top - 0.02}
    others = [v[1] for t, v in best.items() if t not in winners]
    if not winners or (others and top - max(others) < ASKED_MARGIN):
        return None
    return winners


_WHAT_NOUN = re.compile(r"^\W*(?:(?:and|so|ok|okay|hi|hello)[,\s]+)*(?:what|which)\s+([a-z]+)\b", re.I)


def asked_words(question: str) -> list[str]:
    """The noun of "what time ...", "which floor ...": it names the asked column, it selects no rows."""
    m = _WHAT_NOUN.match(question)
    return [m.group(1).lower()] if m and m.group(1).lower() not in ("is", "are", "was", "do", "does", "did", "can",
                                                                     "the", "a", "an", "about", "kind", "sort") else []


def by_text_hits(kb: Any, tables: dict[str, TableInfo], words: list[str]) -> tuple[str, dict[str, int]] | None:
    """When nothing in the question names a table ("how much does a replacement card cost?"), the table whose
    free text holds the most of its words, if one holds strictly more than every other (one FTS probe a word)."""
    from .offline import fts_match  # late: knowledge imports this module

    if len(tables) < 2 or not words:
        return None
    hits: dict[str, int] = {}
    for name, info in tables.items():
        if info.fts_table is None:
            continue
        f = '"' + info.fts_table.replace('"', '""') + '"'
        hits[name] = sum(1 for w in split_compounds(kb, info, words)
                         if kb.execute(f"SELECT rowid FROM {f} WHERE {f} MATCH ? LIMIT 1", (fts_match([w]),),
                                       max_rows=1).rows)
    ranked = sorted(hits.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] == 0 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    return ranked[0][0], hits


# A free word this close to the column of a value the question already names is that column's verb, not a
# search term: "taught" against "instructor: Who teaches the class" is 0.55, "written" against "author: Author"
# 0.54; search words stay below (0.1-0.3 for the held-out agents' topic words).
COLUMN_WORD_MIN = 0.50


def column_words(words: list[str], table: str, columns: set[str], spec: Spec, tables: dict[str, TableInfo],
                 embedder: Any) -> list[str]:
    """The free words that name a column the question already has a value condition on ("classes taught by X")."""
    if not words or not columns or embedder is None or getattr(embedder, "fallback_reason", None):
        return []
    cols, vectors = _columns(spec, tables, embedder)
    rows = [i for i, (t, c) in enumerate(cols) if t == table and c in columns]
    if vectors is None or not rows:
        return []
    sims = embedder.encode(words) @ vectors[rows].T
    return [w for w, row in zip(words, sims) if float(row.max()) >= COLUMN_WORD_MIN]


def split_compounds(kb: Any, info: TableInfo, words: list[str]) -> list[str]:
    """A word no row's text holds that is two words the text holds side by side ("checkout" for "check-out",
    "wifi" for "wi fi") becomes that phrase; other words are kept as they are."""
    from .offline import fts_match  # late: knowledge imports this module

    if info.fts_table is None:
        return words
    f = '"' + info.fts_table.replace('"', '""') + '"'
    probe = lambda term: bool(kb.execute(f"SELECT rowid FROM {f} WHERE {f} MATCH ? LIMIT 1",  # noqa: E731
                                         (fts_match([term]),), max_rows=1).rows)
    out = []
    for w in words:
        if len(w) >= 6 and w.isalpha() and not probe(w):
            w = next((f"{w[:i]} {w[i:]}" for i in range(3, len(w) - 2) if probe(f"{w[:i]} {w[i:]}")), w)
        out.append(w)
    return out
