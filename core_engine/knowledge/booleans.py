"""Yes/no columns named in a question: "organic whites" -> organic = 1, "trails that don't allow dogs" ->
dogs_allowed = 0.

A bool column has no values to match (its values are 0 and 1), so the question names it by the words of
its own name. The column is read from the schema, not from a list: a question word whose stem is a word of
a bool column's name selects the column. Verbs of permission or possession in a name ("allowed", "accepts",
"has") only name the column together with its other words ("can I bring my dog" names dogs_allowed by
"dog"; "is camping allowed" does not name it); a name of several such content words needs them all
("accepting new patients", not "patients"), unless a word of its description or an approving word is said
beside one of them ("safe for cats" for pet_safe, "Not toxic to cats and dogs"; "ok with pets"). A negation before the word ("don't allow dogs", "not
organic", "non-organic") or right after it ("dogs aren't allowed", "dogs not allowed") makes the value 0.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from .kb import TableInfo
from .match import NEGATIONS, VERB_NEGATIONS, negated_before
from .vocab import STOPWORDS, Token, stem, tokenize

__all__ = ["BoolCondition", "bool_conditions", "described_bools"]

LINKING = frozenset(stem(w) for w in """allowed allow allows permitted permit accepts accept accepting accepted has
    have having is are can includes include included offers offer offered with available supports support
    supported friendly welcome welcomed ok okay required require requires involve involves involved involving
    mandatory compulsory""".split())
"""Verbs of permission, possession, requirement or state, and "friendly"/"welcome" ("dog friendly"): grammar words
of column names or said next to a column's word, not what a column is about ("which visas involve an interview" names
`interview_required` by "interview"). "need" is not one: "do I need to bring a carer" names `escort_needed` by it."""
_AFTER_NEGATION = re.compile(r"^\W*(?:(?:is|are|was|were|be)\s+)?(?:not|never|no|isn't|aren't|wasn't|weren't|"
                             r"don't|doesn't|can't|cannot|won't)\b", re.I)
_NON = re.compile(r"\bnon[- ]?$", re.I)
_OUT_OF = re.compile(r"\bout\s+of\s+$", re.I)  # "out of stock"


@dataclass
class BoolCondition:
    column: str
    value: bool
    words: str
    tokens: set[int]
    how: str = "name"  # or "description": the column's description said


def _name_words(column: str) -> tuple[list[str], list[str]]:
    """(content stems, linking stems) of a column's name."""
    split = [p for p in re.split(r"[_\W]+", column.lower()) if p]
    parts = [p for p in split if p not in STOPWORDS] or [p for p in split if len(p) > 2] or split  # "in_stock"
    stems = [stem(p) for p in parts]
    content = [s for s in stems if s not in LINKING]
    return (content, [s for s in stems if s in LINKING]) if content else (stems, [])


def names_in_full(tokens: list[Token], info: TableInfo) -> list[set[int]]:
    """The token spans that say all the content words of a yes/no column's name of two or more, adjacent and in
    order ("child seat" for `child_seat`): the column's name, even where one of its words is also a value."""
    spans = []
    for col in info.columns:
        content, _linking = _name_words(col.name) if col.type == "bool" else ([], [])
        if len(content) < 2:
            continue
        for i in range(len(tokens) - len(content) + 1):
            if all(stem(tokens[i + k].norm) == s for k, s in enumerate(content)):
                spans.append(set(range(i, i + len(content))))
    return spans


def bool_conditions(question: str, tokens: list[Token], used: set[int], info: TableInfo,
                    descriptions: dict[str, str] | None = None) -> list[BoolCondition]:
    """One condition per bool column of the table that the question names; its tokens (and the column's
    linking words said next to them, or words of its description: "taking" for "Whether the dentist takes
    new patients") are used up by the caller."""
    found = []
    for col in info.columns:
        if col.type != "bool":
            continue
        content, linking = _name_words(col.name)
        described = {stem(t.norm) for t in tokenize((descriptions or {}).get(col.name, ""))
                     if t.norm not in STOPWORDS and len(t.norm) >= 3}
        linking = linking + sorted(described - set(content))
        if not content:
            continue
        hits = {s: [i for i, t in enumerate(tokens) if i not in used and _same_word(stem(t.norm), s)
                    and not _superlative_of(t.norm, s)] or _measure_hits(tokens, used, s)
                or _day_hits(tokens, used, s) for s in content}
        if not all(hits.values()):
            hits = _shortened(tokens, used, hits)
        if not all(hits.values()):
            hits = _partly_named(tokens, used, hits, described - set(content) - _other_names(info, col.name))
            if not hits:
                continue
        said = sorted(i for idx in hits.values() for i in idx)
        near = [i for i, t in enumerate(tokens) if i not in used and i not in said and (
            stem(t.norm) in linking and min(abs(i - j) for j in said) <= 3
            or stem(t.norm) in LINKING and min(abs(i - j) for j in said) == 1)]  # "dog friendly"
        before = min(said) - 1
        if before >= 0 and before not in used and tokens[before].raw.lower() == "non":
            near.append(before)  # "non hardy": the negation's word is the condition's too
        first, last = min(said + near), max(said + near)
        start, end = tokens[first].start, tokens[last].end
        negated = _negated_before(question, tokens[said[0]].start) or _negated_before(question, start) or bool(
            _AFTER_NEGATION.match(question[tokens[max(said)].end:])) or (
            max(said) + 1 < len(tokens) and tokens[max(said) + 1].norm == "free" and "free" not in content)
        # "pet free", "smoke free": free of the thing the column allows
        found.append(BoolCondition(col.name, not negated, question[start:end], set(said + near)))
    return found


_MEASURE = re.compile(r"(\d+)([a-z]{1,3})")
_UNIT_WORDS = frozenset("hour hours hr hrs day days minute minutes min mins week weeks month months year years "
                        "km mile miles metre metres meter meters".split())


def _measure_hits(tokens: list[Token], used: set[int], part: str) -> list[int]:
    """A name's number-and-unit word said as a number and a unit ("24 hour" or "24-hour" for the `24h` of
    `open_24h`): [the number's index, the unit's index], or []. English units only."""
    m = _MEASURE.fullmatch(part)
    if not m:
        return []
    for i in range(len(tokens) - 1):
        unit = tokens[i + 1].norm
        if i not in used and i + 1 not in used and tokens[i].norm == m.group(1) and unit in _UNIT_WORDS \
                and unit.startswith(m.group(2)[0]):
            return [i, i + 1]
    return []


_DAYS_OF = {"weekend": frozenset("saturday sunday".split()),
            "weekday": frozenset("monday tuesday wednesday thursday friday".split())}


def _day_hits(tokens: list[Token], used: set[int], part: str) -> list[int]:
    """A day of the week said for a name's "weekend"/"weekday" ("open on a saturday" for `open_weekends`):
    [the day's index], or []. The English calendar, no KB's words."""
    days = _DAYS_OF.get(part)
    return next(([i] for i, t in enumerate(tokens) if i not in used and stem(t.norm) in days), []) if days else []


APPROVING = frozenset("ok okay safe fine suitable friendly".split())
"""Words that say a thing is all right for something ("ok with pets", "safe for cats"): beside one word of a
column's two-word name they name the column. English, no KB's words."""


def _other_names(info: TableInfo, column: str) -> set[str]:
    """Stems of the table's name and of its other columns' names: a description word that is one of them
    ("dentist" in "Whether the dentist takes new patients") says nothing about this column."""
    parts = [info.name] + [c.name for c in info.columns if c.name != column]
    return {stem(w) for part in parts for w in re.split(r"[_\W]+", part.lower()) if w}


def _shortened(tokens: list[Token], used: set[int], hits: dict[str, list[int]]) -> dict[str, list[int]]:
    """A word of the column's name said short right after or before another of its words ("air con" for
    `air_conditioned`): three letters or more that begin the name's word."""
    said = [i for idx in hits.values() for i in idx]
    out = dict(hits)
    for s, idx in hits.items():
        if idx:
            continue
        out[s] = [i for i, t in enumerate(tokens) if i not in used and i not in said and len(t.norm) >= 3
                  and t.norm.isalpha() and s.startswith(t.norm) and len(s) - len(t.norm) >= 3  # not "spa"
                  and any(abs(i - j) == 1 for j in said)]
    return out


def _partly_named(tokens: list[Token], used: set[int], hits: dict[str, list[int]], described: set[str]
                  ) -> dict[str, list[int]]:
    """One word of a column's name of two or more words, with a word of its own description or an approving
    word at most three words away: "safe for cats" names pet_safe ("Not toxic to cats and dogs"), "ok with
    pets" too; "patients" alone does not name accepts_new_patients. {} when the column is not named."""
    said = [i for idx in hits.values() for i in idx]
    if not said or len(hits) < 2:
        return {}
    support = [i for i, t in enumerate(tokens) if i not in used and i not in said
               and (stem(t.norm) in described or t.norm in APPROVING) and min(abs(i - j) for j in said) <= 3]
    return {s: idx for s, idx in hits.items() if idx} if support else {}


_WINDOW = 8  # words within which a description's words are said together
_DESCRIPTION_VERBS = frozenset("work works working serve serves serving sell sells offer offers accept accepts "
                               "carry carries stock stocks provide provides speak speaks".split())
"""Stopwords in a question that are a description's verb ("Whether the engineer works weekends"): said with the
description's other words ("engineers who work weekends") they name the column; alone they are still no value."""
_DESCRIPTION_NEGATION = re.compile(r"^\s*(?:not|no|never|without)\b", re.I)


DESCRIBED_MIN = 0.65  # cosine of a question word to the one description word not said ("poison" - "toxic" 0.70)
_NEGATED_VERB = re.compile(r"\b(?:won't|wont|doesn't|doesnt|can't|cant|wouldn't|never|will\s+not|does\s+not|"
                           r"cannot)\s+(?:\w+\s+)?$", re.I)


def described_bools(question: str, tokens: list[Token], info: TableInfo, descriptions: dict[str, str] | None,
                    used: set[int] | None = None, embedder: Any = None) -> list[BoolCondition]:
    """A yes/no column whose description's content words (two or more) are all said close together: "trees that
    keep their leaves in winter" names evergreen ("Keeps its leaves in winter"), even where one of the words is
    also a value elsewhere ("winter"). A description that is itself negated ("Not toxic to cats and dogs") makes
    the question's words mean no."""
    found = []
    for col in info.columns:
        text = (descriptions or {}).get(col.name, "")
        if col.type != "bool" or not text:
            continue
        own = _other_names(info, col.name) | {"whether"}
        words = tokenize(text)
        spelt = {stem(t.norm): t.norm for t in words
                 if (t.norm not in STOPWORDS or t.norm in _DESCRIPTION_VERBS) and len(t.norm) >= 3
                 and stem(t.norm) not in own}
        if len(spelt) < 2:
            continue
        # words joined by "and"/"or" ("cats and dogs") are one group: any of them says it
        groups: dict[str, str] = {st: st for st in spelt}
        for k, (a, link, b) in enumerate(zip(words, words[1:], words[2:])):
            if link.norm in ("and", "or") and b.norm == "other" and k + 3 < len(words):
                b = words[k + 3]  # "Dogs and other pets": a dog is one of the pets
            if link.norm in ("and", "or") and stem(a.norm) in spelt and stem(b.norm) in spelt:
                groups[stem(b.norm)] = groups[stem(a.norm)]
        said_stems = {st: [i for i, t in enumerate(tokens) if _same_word(stem(t.norm), st)] for st in spelt}
        hits = {g: sorted({i for st, idx in said_stems.items() if groups[st] == g for i in idx})
                for g in set(groups.values())}
        missing = [g for g in hits if not hits[g]]
        if len(missing) == 1 and len(hits) >= 2 and missing[0] in LINKING:  # "dog friendly" for "... are welcome"
            hits[missing[0]] = _approving(tokens, hits, used or set())
        elif len(missing) == 1 and len(hits) >= 2 and embedder is not None and \
                not getattr(embedder, "fallback_reason", None):
            hits[missing[0]] = _by_meaning(spelt[missing[0]], tokens, hits, used or set(), embedder)
        if len(hits) < 2 or not all(hits.values()):
            continue
        said = sorted({min(idx) for idx in hits.values()})
        if said[-1] - said[0] > _WINDOW:
            continue
        start, end = tokens[said[0]].start, tokens[said[-1]].end
        negated = _negated_before(question, start) or bool(_NEGATED_VERB.search(question[:start])) or any(
            tokens[i].raw.lower().replace("\u2019", "'") in NEGATIONS + VERB_NEGATIONS
            for i in range(said[0], said[-1]))  # "dogs are not allowed"
        value = negated if _DESCRIPTION_NEGATION.match(text) else not negated
        found.append(BoolCondition(col.name, value, question[start:end], set(range(said[0], said[-1] + 1)),
                                   "description"))
    return found


def _approving(tokens: list[Token], hits: dict[str, list[int]], used: set[int]) -> list[int]:
    """When the description's missing word is one of permission ("welcome", "allowed"), a word of permission or
    approval right beside the said words stands for it ("dog friendly", "dogs ok"), as [its index], or []."""
    said = [i for idx in hits.values() for i in idx]

    def beside(i: int) -> bool:  # next to a said word, or with only small words between ("dogs are not allowed")
        return any(0 < abs(i - j) <= 3 and all(tokens[k].norm in STOPWORDS for k in range(min(i, j) + 1, max(i, j)))
                   for j in said)

    near = [i for i, t in enumerate(tokens) if i not in used and i not in said and beside(i)
            and (stem(t.norm) in LINKING - _VERBS_OF_BEING or t.norm in APPROVING or t.norm in _BRINGING)]
    return near[:1]


_VERBS_OF_BEING = frozenset(stem(w) for w in "is are has have having can with".split())
"""Linking words too common to stand for a description's word of permission ("cottages with dogs")."""
_BRINGING = frozenset("bring bringing brought".split())
"""Bringing a thing to a place asks whether it is allowed there ("can I bring my dog")."""


def _by_meaning(word: str, tokens: list[Token], hits: dict[str, list[int]], used: set[int], embedder: Any
                ) -> list[int]:
    """The one question word near the said description words that means the description's missing word
    ("won't poison my dog" for "Not toxic to cats and dogs"), as [its index], or []."""
    said = [i for idx in hits.values() for i in idx]
    near = [i for i, t in enumerate(tokens) if i not in used and i not in said and t.norm not in STOPWORDS
            and len(t.norm) >= 3 and t.norm.isalpha() and min(abs(i - j) for j in said) <= 3]
    if not said or not near:
        return []
    vectors = embedder.encode([word] + [tokens[i].norm for i in near])
    sims = [float(vectors[0] @ v) for v in vectors[1:]]
    best = max(range(len(near)), key=lambda k: sims[k])
    return [near[best]] if sims[best] >= DESCRIBED_MIN else []


def _superlative_of(said: str, name: str) -> bool:
    """"lightest" is no form of `lights_included`: a superlative orders by a measure (numbers.superlatives)."""
    return said.endswith("est") and not name.endswith("est") and said != name


def _same_word(said: str, name: str) -> bool:
    """The same stem, or one word derived from the other by a short ending ("renew" - "renewable",
    "access" - "accessible"): five letters in common and at most four more; or one compound said another way
    ("floodlights" - "floodlit"): seven letters in common and at most three more on either side."""
    if said == name:
        return True
    short, long_ = sorted((said, name), key=len)
    if len(short) >= 5 and long_.startswith(short) and len(long_) - len(short) <= 4:
        return True
    common = len(os.path.commonprefix([said, name]))
    return common >= 7 and len(said) - common <= 3 and len(name) - common <= 3


def _negated_before(text: str, start: int) -> bool:
    if _NON.search(text[:start]) or _OUT_OF.search(text[:start]):
        return True
    return negated_before(text, start)


def apply(query: Any, found: list[BoolCondition], used: set[int], rules: list[dict[str, Any]]) -> None:
    """WHERE conditions for the named bool columns, each with its words in the trace."""
    from .kb import quote_identifier

    for b in found:
        query.conditions.append(f"t.{quote_identifier(b.column)} = {1 if b.value else 0}")
        rules.append({"rule": "yes/no column", "words": b.words, "column": b.column, "value": b.value,
                      "why": ("the words of its description" if b.how == "description" else "a word of the column's name")
                      + (", negated" if not b.value else "")})
        used |= b.tokens
