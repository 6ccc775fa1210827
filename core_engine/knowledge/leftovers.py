"""Question words no condition took: which of them still search the text.

Beside structured conditions some leftover words select nothing: the rows' own noun in other words
("birdwatching walks by the lake" in a trails table) and the verb whose object a condition took ("where I
can bring my dog"). Searching them would empty a result the conditions answer, so they are set aside, each
with a rule in the trace. Other leftover words still search, and finding nothing is then said.
"""

from __future__ import annotations

import re
from typing import Any

from .kb import TableInfo
from .match import is_content
from .vocab import Token, fold

__all__ = ["ROW_NOUN_MIN", "ROW_NOUN_BESIDE", "governing_verbs", "beside_conditions", "row_nouns", "value_suffixes"]

SUFFIXES = frozenset("loving lover lovers tolerant resistant proof friendly happy suited".split())
"""Words that make a value a property ("shade loving ferns", "frost tolerant"): English, no KB's words."""


def value_suffixes(tokens: list[Token], used: set[int]) -> list[int]:
    """Unused words of SUFFIXES right after a word a condition took: they say no more than the condition."""
    return [i for i in range(1, len(tokens)) if i not in used and i - 1 in used and tokens[i].raw.lower() in SUFFIXES]

ROW_NOUN_MIN = 0.68  # cosine of a leftover word to the table's name for the word to name its rows
ROW_NOUN_BESIDE = 0.48  # ... when conditions already select the rows ("walks" 0.50 to trails; "beach" 0.42)


_DETERMINERS = frozenset("my our your his her their a an the some".split())
_SUBJECTS = frozenset("i we you to".split())
"""Words before a verb: its subject ("can I buy"), or "to" ("somewhere to eat")."""
_OBJECTS = frozenset("it them something anything stuff things".split())
"""Pronouns that stand for the object of a verb whose condition follows: "send something abroad", "post it overseas"."""


def governing_verbs(tokens: list[Token], used: set[int], taken: set[int]) -> list[int]:
    """Unused words followed by a determiner and then a word a condition took: "bring my dog", "take the
    kids" - the verb whose object the condition already holds; or followed by a pronoun object and then the
    condition's word: "send something abroad", "ship it overseas"; or a verb after its subject or "to", right
    before the condition's word: "where can I buy sourdough", "somewhere to eat noodles"."""
    return [i for i in range(len(tokens) - 1) if i not in used and is_content(tokens[i])
            and ((i + 2 < len(tokens) and tokens[i + 1].raw.lower() in _DETERMINERS | _OBJECTS and i + 2 in taken)
                 or (i + 1 in taken and i >= 1 and tokens[i - 1].raw.lower() in _SUBJECTS))]


def beside_conditions(words: list[str], near: dict[str, tuple[float, float]], rules: list[dict[str, Any]],
                       table: str) -> list[str]:
    """Beside structured conditions, which already select the rows, a leftover word that is the rows' own
    noun in other words ("birdwatching walks by the lake", "hard hikes": cosine to the table's name >=
    ROW_NOUN_BESIDE) is no filter: a row's text that happens to say "walk" is no better an answer. Other
    words stay, and finding nothing is then said (`SQLKnowledge._suggest_relaxation`)."""
    nouns = [w for w in words if near.get(w, (0.0, 0.0))[1] >= ROW_NOUN_BESIDE]
    if nouns:
        rules.append({"rule": "ignored", "words": nouns, "scores": {w: round(near[w][1], 3) for w in nouns},
                      "why": f"beside the conditions they name the {table} rows themselves"})
    return [w for w in words if w not in nouns]


def row_nouns(words: list[str], info: TableInfo, embedder: Any) -> dict[str, tuple[float, float]]:
    """Each word's cosine to the table's name, and to its name or singular (the closer): at ROW_NOUN_MIN
    for the first a word means the rows themselves ("orthodonist" is near "dentist", not "dentists"); the
    second is for words beside conditions (ROW_NOUN_BESIDE)."""
    if embedder.fallback_reason or not words:
        return {}
    parts = [w for w in re.split(r"[_\W]+", info.name) if w]
    names = [" ".join(parts), " ".join(fold(w) for w in parts)]
    vectors = embedder.encode(names + words)
    return {w: (float(vectors[0] @ v), max(float(vectors[0] @ v), float(vectors[1] @ v)))
            for w, v in zip(words, vectors[2:])}
