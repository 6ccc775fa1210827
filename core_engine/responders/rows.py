"""KB rows in words for the template responder: the row's name, the columns the question asked about first, and the
passage of a free-text column that answers it.

A report that shows a row without the column the user asked about ("how much is the lounge", "what are the
prerequisites of CS 143") or without the text that holds the answer ("how do I drop a class") answers nothing.
The question is read with the KB's own stopwords and rough stems; no domain words.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..knowledge.vocab import STOPWORDS, stem

NAME_KEYS = ("name", "title", "topic")
MAX_DETAILS = 7
TEXT_MIN = 80  # a string this long is free text: quoted by its best passage, never listed whole
PASSAGE_CHARS = 320  # at most this much of a passage for a single row, a third of it per row of a list
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_WORD = re.compile(r"[A-Za-z0-9]+")
_CUES = {
    # question words that name a kind of column, not a value: "how much" asks for a price
    "price": ("price", "cost", "fee", "charge", "rate", "tariff"),
    "time": ("hour", "time", "open", "day", "when", "schedule", "start", "duration"),
    "place": ("address", "location", "where", "terminal", "zone", "floor", "area", "room", "town", "city", "region"),
}
_MONEY = re.compile(r"(?:^|_)(?:price|cost|fee|fare|amount|charge|total|rate|deposit|refund|rent|premium|value|worth|"
                    r"eur|gbp|usd|dollars?|pounds?|euros?)(?:_|$)", re.I)
"""A money column or field: its float is shown with two decimals (32.9 is "32.90", 270.0 is "270.00")."""


def money_text(key: str, value: Any) -> str | None:
    """`value` as money when `key` names an amount and it is a float of at most two decimals, else None: a rate
    of 0.0045 or a dose of 0.004 is never shown as 0.00 (an attack pass had a summary ask to confirm a value
    that was not the one stored)."""
    if not isinstance(value, float) or not _MONEY.search(key) or round(value, 2) != value:
        return None
    return f"{value:.2f}"
_WAY = re.compile(r"\b(?:get|go|come)\s+(?:there|to\s+it)\b|\bdirections?\b|\bhow\s+(?:do|can|would)\s+i\s+(?:get|find)\b",
                  re.I)
_CUE_WORDS = {"much": "price", "cost": "price", "costs": "price", "price": "price", "expensive": "price",
              "cheap": "price", "pay": "price", "when": "time", "open": "time", "close": "time", "hours": "time",
              "long": "time", "where": "place", "located": "place", "find": "place"}


def question_stems(question: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(question.lower()) if w not in STOPWORDS and len(w) > 2}


def render_row(row: dict[str, Any], numbered: int | None, render_value: Callable[[Any], str],
               question: str = "", single: bool = False) -> str:
    """One row: `1. Name (asked column: value; other columns...)` and, when the question's words are in a free-text
    column, the passage that has them on the next line."""
    name_key = _name_key(row)
    name = render_value(row[name_key]) if name_key else "result"
    asked = question_stems(question)
    cues = {_CUE_WORDS[w] for w in _WORD.findall(question.lower()) if w in _CUE_WORDS}
    if _WAY.search(question):
        cues.add("place")
    details: list[tuple[int, str]] = []
    texts: list[tuple[str, str]] = []
    for position, (key, value) in enumerate(row.items()):
        if key == name_key or value in (None, "", []) or _is_id(key):
            continue
        if isinstance(value, str) and len(value) >= TEXT_MIN:
            texts.append((key, value))
            continue
        if isinstance(value, list) and sum(len(str(v)) for v in value) >= 3 * TEXT_MIN:
            texts.append((key, " ".join(str(v) for v in value)))
            continue
        rank = 0 if _names_asked(key, asked, cues) else 1
        shown_value = money_text(key, value) or render_value(value)
        details.append((rank * 1000 + position, f"{key.replace('_', ' ')}: {shown_value}"))
    shown = [text for _, text in sorted(details)[:MAX_DETAILS]]
    prefix = f"{numbered}. " if numbered is not None else "- "
    line = f"{prefix}{name}" + (f" ({'; '.join(shown)})" if shown else "")
    text_keys = {key for key, _ in texts}
    told = {stem(w) for key, value in row.items() if key not in text_keys and key != name_key
            for w in _WORD.findall(render_value(value).lower())}  # what the row's columns already say
    passage = _passage(texts, asked, told, PASSAGE_CHARS if single else PASSAGE_CHARS // 2, opening=single)
    return f"{line}\n   {passage}" if passage else line


def _name_key(row: dict[str, Any]) -> str | None:
    for key in NAME_KEYS:
        if isinstance(row.get(key), str) and row[key].strip():
            return key
    for key, value in row.items():  # "course_title", "product_name"
        if isinstance(value, str) and value.strip() and key.rsplit("_", 1)[-1] in ("name", "title"):
            return key
    for key, value in row.items():  # else the first short text that is no id
        if isinstance(value, str) and 0 < len(value) < 60 and not _is_id(key):
            return key
    return "id" if "id" in row else None


def _is_id(key: str) -> bool:
    low = key.lower()
    return low in ("id", "rowid") or low.endswith("_id") or low.endswith("_index")


def _names_asked(key: str, asked: set[str], cues: set[str]) -> bool:
    words = {stem(w) for w in key.lower().split("_") if len(w) > 2}
    if words & asked:
        return True
    return any(any(c in key.lower() for c in _CUES[cue]) for cue in cues)


def _passage(texts: list[tuple[str, str]], asked: set[str], told: set[str], limit: int, opening: bool = False) -> str:
    """The sentence of the row's free text with most of the question's words (and the next one, room allowing). A
    word the row's other columns already show counts a quarter ("pizza in San Francisco with a patio": the patio
    sentence, not the one that repeats the cuisine and the city). With `opening` (the only row found), the text's
    first sentences when none has the question's words: the row was found for its text, so its text is the answer."""
    best: tuple[float, int, list[str], int] | None = None
    for _, text in texts:
        sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
        for i, sentence in enumerate(sentences):
            said = asked & {stem(w) for w in _WORD.findall(sentence.lower())}
            hits = sum(0.25 if w in told else 1.0 for w in said)
            if hits and (best is None or hits > best[0]):
                best = (hits, i, sentences, len(sentence))
    if best is None and opening and texts:
        first = [t.strip() for t in _SENTENCE.split(texts[0][1]) if t.strip()]
        best = (0, 0, first, 0) if first else None
    if best is None:
        return ""
    _, i, sentences, _ = best
    out = sentences[i]
    if i + 1 < len(sentences) and len(out) + len(sentences[i + 1]) < limit:
        out += " " + sentences[i + 1]
    if len(out) > limit:
        out = out[: limit - 1].rsplit(" ", 1)[0] + "…"
    return f"“{out}”"
