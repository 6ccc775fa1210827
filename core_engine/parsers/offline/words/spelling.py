"""The spec's own words with two letters swapped, or one missing or added ("cancle", "standrd", "provisonal").

Why: users type fast, and a task or an option missed because of one slip costs the whole conversation. A word of the turn
that is not itself a word of the spec, and is one slip (a swap of neighbours, a letter missing or added, one vowel for another inside a word of six letters or more) from
exactly one word of at least five letters of the spec's worksheet names, field names, option values and option
descriptions ("gutiar" for the "guitar" of "a guitar, violin, cello or other instrument"), is read as that word. A word that is a spec word with one more letter at its end, or one fewer, is that word inflected
("change" beside "Plans Changed"), not a slip, and is left alone. Shorter words, words close to two spec words and
changed letters ("stars" is not "start") are left alone, and so is a word of English as the embedding model's
vocabulary lists it ("though" is no slip of "through"). Month and weekday names are read the same way in every
agent ("Febuary", "wensday").

A word of three to five letters, no word of English, that starts a word at least three letters longer of an option of
two words or more, with the option's word before or after it said beside it, is that word clipped ("French Bac" for
"French Baccalaureate", "wedding anniv" for "Wedding Anniversary"). A clipped word alone is left as typed: "Orla" is
no "Orlando", "perf" no "Performance", "my chem lab" keeps the user's word.
"""

from __future__ import annotations

import re
from typing import Any

from ....embedding.semantic import model_words
from ....spec.model import snake_case
from .match import STOPWORDS
from .values import misspelt_weekdays

_WORD = re.compile(r"[A-Za-z]+")
_NAME_BESIDE = re.compile(r"\b[A-Z][a-z]+\s+$")
_TITLE_BEFORE = re.compile(r"\b(?:mr|mrs|ms|miss|mx|dr)\.?\s+$", re.I)
_CAPITAL_AFTER = re.compile(r"\s+[A-Z][a-z]")
_NUMBER_BEFORE = re.compile(r"\d(?:st|nd|rd|th)?(?:\s+of)?\s+$|\b(?:first|second|third|[a-z]+(?:th|st|nd|rd))\s+of\s+$", re.I)
_NUMBER_AFTER = re.compile(r"\s+(?:the\s+)?\d")
# Month and weekday names are every agent's words: "the 2nd of Febuary" is February, not "the 2nd" of this month.
_MONTH_WORDS = frozenset("january february march april august september october november december".split())
_CALENDAR = frozenset("monday tuesday wednesday thursday friday saturday sunday".split()) | _MONTH_WORDS


def _named_beside(text: str, start: int, end: int, typed: str) -> bool:
    """The word is part of a person's or a firm's name: a capitalised word before or after a capitalised one, or a
    word after a title ("Sarah Munday", "Sundy Patel", "mrs munday")."""
    return bool(_TITLE_BEFORE.search(text[:start])) or typed[0].isupper() and bool(
        _NAME_BESIDE.search(text[:start]) or _CAPITAL_AFTER.match(text, end))


_CLIPPED = re.compile(r"(?<![A-Za-z'-])[A-Za-z]{3,5}(?![A-Za-z'-])")


def spec_words(spec: Any) -> frozenset[str]:
    """Lower-case words of the spec's worksheet names, field names, option values and descriptions (5+ letters)."""
    cached = getattr(spec, "_genie_spelling_words", None)
    if cached is not None:
        return cached
    words: set[str] = set()
    for ws in spec.worksheets:
        words.update(snake_case(ws.name).split("_"))
        for f in ws.fields:
            words.update(f.name.lower().split("_"))
            for v in f.enum_values:  # an option's name, and the things its description names ("a guitar, violin")
                words.update(w.lower() for w in _WORD.findall(f"{v.value} {v.description or ''}"))
    out = frozenset(w for w in words if len(w) >= 5 and w.isalpha())
    try:
        object.__setattr__(spec, "_genie_spelling_words", out)
    except (AttributeError, TypeError, ValueError):
        pass
    return out


_VOWELS = frozenset("aeiou")


def _one_slip(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):  # two neighbours swapped; a changed letter is too often another word ("stars", "start")
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(diff) == 1 and len(a) >= 6 and a[diff[0]] in _VOWELS and b[diff[0]] in _VOWELS and 0 < diff[0]:
            return True  # one vowel for another inside a long word ("survay", "calender", "independant")
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _inflected(a: str, b: str) -> bool:
    """One word is the other with a letter added at the end: an ending, not a slip ("change" and "changed",
    "hire" and "hired", "boat" and "boats")."""
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return long_[:-1] == short or a.rstrip("s") == b.rstrip("s")


_HYPHENED = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")


def joined_words(spec: Any) -> dict[str, str]:
    """The spec's hyphenated words (option values, their descriptions, field descriptions) by their joined
    lower-case spelling: {"ebike": "e-bike", "dropoff": "drop-off"}."""
    cached = getattr(spec, "_genie_joined_words", None)
    if cached is not None:
        return cached
    out: dict[str, str] = {}
    for ws in spec.worksheets:
        for f in ws.fields:
            for text in (f.description, *(t for v in f.enum_values for t in (v.value, v.description))):
                for m in _HYPHENED.finditer(text or ""):
                    out.setdefault(m.group(0).replace("-", "").lower(), m.group(0).lower())
    try:
        object.__setattr__(spec, "_genie_joined_words", out)
    except (AttributeError, TypeError, ValueError):
        pass
    return out


def kb_words(kb: Any) -> frozenset[str]:
    """Words of 5+ letters of the KB's short text and list values ("student" of "US Student Visa"), read once per KB
    file version: a slip of one of them ("studnet") is read as it, as a spec word's is."""
    if kb is None:
        return frozenset()
    from ....knowledge.vocab import vocabulary_for  # late: the parser loads without a KB too
    try:
        vocab = vocabulary_for(kb)
    except Exception:  # noqa: BLE001 - a KB without a readable vocabulary corrects nothing
        return frozenset()
    cached = getattr(vocab, "_genie_spelling_words", None)
    if cached is None:
        cached = frozenset(w for t in vocab.tables.values() for w in t.by_word if len(w) >= 5 and w.isalpha())
        vocab._genie_spelling_words = cached  # type: ignore[attr-defined]
    return cached


def _in_address(m: re.Match[str]) -> bool:
    """The word is part of an e-mail or web address ("msg.sue@blake.net")."""
    around = m.string[max(0, m.start() - 1):m.start()] + m.string[m.end():m.end() + 1]
    return any(ch in ".@/" for ch in around)


def respelled(text: str, spec: Any, extra: frozenset[str] = frozenset()) -> tuple[str, list[tuple[str, str]]]:
    """The text with each slipped spec word written right, and the (typed, read) pairs; a hyphenated word of the
    spec typed as one word ("my ebike" for "an e-bike ...") is read hyphenated."""
    fixes: list[tuple[str, str]] = []
    for m, day in reversed(misspelt_weekdays(text)):  # "wensday if poss": the weekday, for an option as for a date
        typed = m.group(2)
        if _named_beside(text, m.start(2), m.end(2), typed):
            continue  # "Sarah Munday", "mrs munday", "Sundy Patel": a name, not a day
        fixes.append((typed, day))
        text = text[:m.start(2)] + (day if typed.islower() else day.capitalize()) + text[m.end(2):]
    joined = joined_words(spec)
    if joined:
        def hyphened(m: re.Match[str]) -> str:
            low = m.group(0).lower()
            word = joined.get(low) or (joined.get(low[:-1]) + "s" if low.endswith("s") and low[:-1] in joined else None)
            if word is None:
                return m.group(0)
            fixes.append((m.group(0), word))
            return word
        text = _WORD.sub(hyphened, text)
    vocab = spec_words(spec) | _MONTH_WORDS
    if not vocab and not extra:
        return text, fixes
    english = model_words(getattr(getattr(spec, "settings", None), "embedding_model", None))

    def fix(m: re.Match[str]) -> str:
        typed = m.group(0)
        low = typed.lower()
        if len(low) < 5 or low in vocab or low in STOPWORDS or low in english:
            return typed  # "there", "though" are words of their own, not "three", "through" typed with a slip
        near = [w for w in vocab if w[0] == low[0] and _one_slip(low, w) and not _inflected(low, w)]
        if not near and extra and typed.islower() and not _in_address(m):  # a KB word only as typed in lower case:
            near = [w for w in extra if w[0] == low[0] and _one_slip(low, w) and not _inflected(low, w)]  # not "Lutton"
        if len(near) != 1:
            return typed
        if near[0] in _CALENDAR and _named_beside(m.string, m.start(), m.end(), typed):
            return typed  # "Sarah Munday", "mrs munday": a surname, whatever day the spec lists
        if near[0] in _MONTH_WORDS and near[0] not in spec_words(spec) and not (
                _NUMBER_BEFORE.search(m.string[:m.start()]) or _NUMBER_AFTER.match(m.string, m.end())):
            return typed  # "Octobre Bakes": a month is read from a slip only beside its day ("the 2nd of Febuary")
        fixes.append((typed, near[0]))
        return near[0] if typed.islower() else near[0].capitalize()

    text = _WORD.sub(fix, text)
    phrases = spec_phrases(spec)

    def unclipped(m: re.Match[str]) -> str:
        typed = m.group(0)
        low = typed.lower()
        if not 3 <= len(low) <= 5 or typed.isupper() or low in vocab or low in STOPWORDS or low in english \
                or _in_address(m):
            return typed
        before = [w.lower() for w in re.findall(r"[A-Za-z]+", m.string[:m.start()])]
        after = [w.lower() for w in re.findall(r"[A-Za-z]+", m.string[m.end():])]
        said = {phrase[i] for phrase in phrases for i, w in enumerate(phrase)
                if w.startswith(low) and len(w) >= len(low) + 3
                and (i == 0 or before[-i:] == phrase[:i]) and after[:len(phrase) - i - 1] == phrase[i + 1:]}
        if len(said) != 1:
            return typed  # "French Bac": the word before it is the option's word before "Baccalaureate"; "Orla Byrne",
            # "perf", "my chem lab" complete no phrase of the spec
        word = said.pop()
        fixes.append((typed, word))
        return word if typed.islower() else word.capitalize()

    return _CLIPPED.sub(unclipped, text), fixes


def spec_phrases(spec: Any) -> list[list[str]]:
    """The spec's option values of two words or more, as lower-case word lists ("french baccalaureate")."""
    cached = getattr(spec, "_genie_spelling_phrases", None)
    if cached is not None:
        return cached
    out = [words for ws in spec.worksheets for f in ws.fields for v in f.enum_values
           if len(words := [w.lower() for w in _WORD.findall(v.value)]) >= 2]
    try:
        object.__setattr__(spec, "_genie_spelling_phrases", out)
    except (AttributeError, TypeError, ValueError):
        pass
    return out
