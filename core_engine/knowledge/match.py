"""Question words to KB values: exact phrases, name parts, typos and meaning.

Used by the offline knowledge parser. Each match remembers how it was found
(`exact`, `name`, `word`, `fuzzy`, `semantic`), its score and its runner-up, so
the trace can show why a condition is in the SQL. Order of trust: a whole value
spelled out wins, then a capitalised part of a row's name, then a word that only
one value of a column has, then a near spelling, then the embedder.
"""

from __future__ import annotations

import bisect
import re

from dataclasses import dataclass, field
from typing import Any

from .vocab import STOPWORDS, TITLES, TableVocab, Token, ValueEntry, is_code, stem

__all__ = ["Match", "lexical_matches", "semantic_matches", "content_runs"]

NEGATIONS = ("not", "no", "except", "without", "excluding", "but not", "other than", "isn't", "aren't", "don't",
             "isnt", "arent", "dont")
VERB_NEGATIONS = ("doesn't", "doesnt", "can't", "cant", "cannot", "won't", "wont", "wasn't", "weren't", "never")
"""Negations of a verb: they negate a value only right before it or before the verb that takes it ("designs that
can't be delivered", "rooms that don't have a piano"), never across other words ("I can't find a Spanish
translator", "I've never been to Cornwall", "my wife can't manage stairs, step free cottages")."""
_TAKING_VERBS = frozenset("be have has get do allow allows take takes include includes come offer offers use uses "
                          "using contain contains need needs".split())
_GOVERNING = _TAKING_VERBS | frozenset("accept accepts permit permits want need like based located situated moored "
                                       "kept stored parked found held hosted taught run".split())
"""Verbs a negation reaches a value through ("don't allow dogs", "not based in Leeds"); a noun stops it ("no
stairs in Cornwall" does not negate Cornwall)."""
FUZZY_MIN = 85.0  # rapidfuzz ratio for a typo ("spansih" -> "spanish")
SEMANTIC_MIN = 0.6  # cosine for a phrase to mean a value ("kids dentist" -> the pediatric specialty)
SEMANTIC_MARGIN = 0.1  # over the runner-up value, or the reading is too uncertain to filter on
_MAX_NAME_VALUES = 5
SCHEMA_LIFT = 0.05  # a phrase with a word naming the table ("books published") must mean the value more than that word alone
SCALE_MIN = 0.5  # cosine of a phrase to a value's column name for the phrase to name the column's scale ...
SCALE_MARGIN = 0.1  # ... unless it means the value this much more ("easiest" 0.79 Easy, 0.61 "difficulty")
_NOT_BY_MEANING = frozenset("not no non never without un any all every".split())
"""A value with one of these words says a polarity or "whatever kind" ("Not Collected", "any colour"): an embedding
puts it next to the words it negates or generalises ("collecting", "green"), so it is matched by its words only."""
MAX_SPANS = 12  # phrases embedded per question (the embedding is most of a question's time)


@dataclass
class Match:
    """Question tokens [first, last] read as one or more values of one column."""

    first: int
    last: int
    entries: list[ValueEntry]
    words: str
    kind: str
    score: float = 1.0
    runner_up: Any = None
    negated: bool = False
    start: int = 0
    end: int = 0

    @property
    def column(self) -> str:
        return self.entries[0].column

    def span(self) -> set[int]:
        return set(range(self.first, self.last + 1))


@dataclass
class _Scan:
    tokens: list[Token]
    text: str
    used: set[int] = field(default_factory=set)
    found: list[Match] = field(default_factory=list)

    def add(self, first: int, last: int, entries: list[ValueEntry], kind: str, score: float = 1.0,
            runner_up: Any = None) -> None:
        start, end = self.tokens[first].start, self.tokens[last].end
        m = Match(first, last, entries, self.text[start:end], kind, round(score, 3), runner_up,
                  _negated(self.text, start), start, end)
        self.found.append(m)
        self.used.update(range(first, last + 1))


def _negated(text: str, start: int) -> bool:
    if re.search(r"\bnon[- ]?$", text[:start], re.I):  # "non electric", "non-fiction": the value is excluded
        return True
    return negated_before(text, start)


def negated_before(text: str, start: int) -> bool:
    """Whether a negation governs the words at `start`: one of NEGATIONS in the three words before them, in the
    same clause, or one of VERB_NEGATIONS right before them or before the verb that takes them."""
    before = re.split(r"[,;.!?]", text[:start].lower().replace("\u2019", "'"))[-1].split()
    for k in range(max(0, len(before) - 3), len(before)):
        pair = " ".join(before[k:k + 2])
        n = 2 if pair in NEGATIONS else 1 if before[k] in NEGATIONS else 0
        if n and all(w in STOPWORDS or w in _GOVERNING for w in before[k + n:]):  # "not in Cornwall", "don't
            return True  # allow dogs", "not based in Leeds"; not "no stairs in Cornwall"
    if len(before) >= 3 and before[-3] in VERB_NEGATIONS and before[-2] == "be" and before[-1] in _PARTICIPLES:
        return True  # "which alterations can't be done express"
    while before and before[-1] in ("a", "an", "the", "any"):
        before = before[:-1]  # "rooms that doesnt have a piano"
    return bool(before) and (before[-1] in VERB_NEGATIONS or (
        len(before) >= 2 and before[-2] in VERB_NEGATIONS and before[-1] in _TAKING_VERBS))


_PARTICIPLES = frozenset("done made had booked ordered delivered sent collected taken used fitted".split())
"""A passive verb between "can't be" and the value ("can't be done express")."""


def is_content(token: Token, schema: set[str] | None = None) -> bool:
    w = token.norm
    return (w not in STOPWORDS and token.raw.lower() not in STOPWORDS and w not in TITLES and token.raw != "$" and not w[:1].isdigit()
            and len(w) >= 2 and (schema is None or (w not in schema and stem(w) not in schema
                                                    and w + "ly" not in schema)))  # "per hour": the hourly column


def _first_column(entries: list[ValueEntry], typed: str = "") -> list[ValueEntry]:
    """A phrase several columns have goes to the one whose value is spelt as typed ("blues" is the genre Blues,
    not the title "Blue"), else to the earliest of them."""
    spelt = [e for e in entries if typed and _letters(str(e.value)) == _letters(typed)]
    if spelt and len({e.column for e in spelt}) < len({e.column for e in entries}):
        entries = spelt
    best = min(e.position for e in entries)
    return [e for e in entries if e.position == best]


def lexical_matches(tokens: list[Token], text: str, vocab: TableVocab, schema: set[str],
                    skip: set[int] | None = None) -> tuple[list[Match], set[int]]:
    """Exact phrases (longest first), compact codes, name parts, one-value words and typos."""
    scan = _Scan(tokens, text, set(skip or ()))
    n = len(tokens)
    i = 0
    while i < n:  # whole values, longest phrase first, left to right
        hit = None
        for length in range(min(vocab.max_words, n - i), 0, -1):
            if any(j in scan.used for j in range(i, i + length)):
                continue
            phrase = tuple(t.norm for t in tokens[i:i + length])
            entries = vocab.phrases.get(phrase) or (vocab.compact.get(phrase[0]) if length == 1 else None)
            if entries and length == 1 and not is_content(tokens[i]):  # "the US": a code only as typed
                entries = [e for e in entries if is_code(e.value) and e.value == tokens[i].raw] or \
                    (entries if phrase[0][:1].isdigit() else None)
            if entries:
                hit = (length, entries)
                break
        if hit:
            scan.add(i, i + hit[0] - 1, _first_column(hit[1], text[tokens[i].start:tokens[i + hit[0] - 1].end]),
                     "exact")
            i += hit[0]
        else:
            i += 1
    _labelled_short(scan, vocab)
    _abbreviations(scan, vocab, schema)
    _proper_prefixes(scan, vocab)
    _value_runs(scan, vocab, schema)
    _name_parts(scan, vocab, schema)
    _first_and_more_of_a_name(scan, vocab, schema)
    from .names import name_runs  # late: names builds on this module's scan

    name_runs(scan, vocab)
    for i, token in enumerate(tokens):
        if i not in scan.used and is_content(token, schema):
            if not _one_value_word(scan, vocab, i, token.norm, "word", 1.0) and token.norm not in vocab.by_word:
                for word in same_stem(vocab, token.norm) or _clipped(vocab, token.norm):
                    # "park" for "Parking", "inspection" for "inspected", "physio" for "Physiotherapy"
                    if _one_value_word(scan, vocab, i, word, "stem", 0.95):
                        break
    for i, token in enumerate(tokens):
        if i not in scan.used and is_content(token, schema):
            _shared_head(scan, vocab, i, token.norm)
    _fuzzy(scan, vocab, schema)
    return [_with_both(m, vocab, text) for m in _drop_weaker(scan)], scan.used


_ONLY = re.compile(r"\b(?:only|just|exclusively|specifically)\s+(?:\w+\s+){0,2}$", re.I)


def _with_both(m: Match, vocab: TableVocab, text: str = "") -> Match:
    """A value asked for also finds the rows whose column says "Both"/"Either"/"Any"/"All": an instructor who
    teaches both gearboxes teaches automatic (three rows of a test agent's answer were missing). Not after "only"
    ("services only for short hair": the rows for short hair alone)."""
    if m.negated or len(m.entries) != 1 or m.entries[0].ctype == "list" or m.column in vocab.name_columns:
        return m
    if m.start and _ONLY.search(text[:m.start]):
        return m
    extra = [e for e in [vocab.covers_all.get(m.column)] if e is not None and e.value != m.entries[0].value]
    if extra:
        m.entries = m.entries + extra[:1]
    return m


def _labelled_short(scan: _Scan, vocab: TableVocab) -> None:
    """ "alongside berths on D pontoon", "pontoon B with wifi": a value of one or two letters or digits, typed
    right before or after its column's name word (the column `pontoon`, singular or plural)."""
    tokens = scan.tokens
    for column, values in vocab.labelled.items():
        names = {w for w in column.lower().split("_") if len(w) >= 3}
        names |= {f"{w}s" for w in names}
        for i, token in enumerate(tokens):
            entry = values.get(token.raw.lower())
            if entry is None or i in scan.used or token.raw in ("a", "i", "A", "I") and (
                    i + 1 < len(tokens) and tokens[i + 1].norm in names):
                continue  # "a pontoon with power": the article, before the column's word, is no value
            beside = [tokens[j].norm for j in (i - 1, i + 1) if 0 <= j < len(tokens)]
            if any(b in names for b in beside):
                scan.add(i, i, [entry], "exact")


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _abbreviations(scan: _Scan, vocab: TableVocab, schema: set[str]) -> None:
    """A word whose first letters are a value of a column of abbreviations ("Mondays" for "Mon" where the column
    holds "Mon", "Tue", ...): a column all of whose values are one short word of 3-4 letters."""
    for i, token in enumerate(scan.tokens):
        w = token.norm
        if i in scan.used or len(w) < 4 or not w.isalpha() or not is_content(token, schema):
            continue
        for k in (4, 3):
            entries = [e for e in vocab.phrases.get((w[:k],), []) if _abbreviation_column(vocab, e.column)]
            if entries and k < len(w):
                scan.add(i, i, _first_column(entries), "abbreviation", 0.9)
                break


def _value_runs(scan: _Scan, vocab: TableVocab, schema: set[str]) -> None:
    """Two or three adjacent words, numbers included, that only one value of an enum-like column holds together,
    its other words shared by other values of the column: "7 inches" for "7-inch single" beside "12-inch single"
    (each word alone is in several values, or is a number)."""
    tokens, n = scan.tokens, len(scan.tokens)
    for i in range(n):
        for length in (3, 2):
            span = range(i, i + length)
            if i + length > n or any(j in scan.used for j in span):
                continue
            if not any(is_content(tokens[j], schema) for j in span) or \
                    any(tokens[j].norm in STOPWORDS for j in span):
                continue
            words = [tokens[j].norm for j in span]
            found = None
            for column, entries in vocab.by_word.get(words[0], {}).items():
                if column in vocab.name_columns:
                    continue
                values = {e.value: e for e in entries if all(w in e.words for w in words)}
                if len(values) == 1 and (names_value(vocab, next(iter(values.values())), set(words))
                                         or _inner_phrase(vocab, next(iter(values.values())), words)):
                    found = next(iter(values.values()))
                    break
            if found is not None:
                scan.add(i, i + length - 1, [found], "words", 0.95)
                break


def _inner_phrase(vocab: TableVocab, entry: ValueEntry, words: list[str]) -> bool:
    """Words said together as they stand inside one value, one of them in no other value of the column: "the night
    market" for "Riverside Night Market" (its other words need not be said). Not an item of a list column: "vitamin D"
    inside the symptom "low vitamin D" is what the rows' text says too, and the search keeps its sense."""
    k = len(words)
    return entry.ctype != "list" and any(list(entry.words[j:j + k]) == words for j in range(len(entry.words) - k + 1)) \
        and any(len({e.value for e in vocab.by_word.get(w, {}).get(entry.column, [])}) == 1 for w in words)


def _abbreviation_column(vocab: TableVocab, column: str) -> bool:
    values = {e.value for cols in vocab.by_word.values() for e in cols.get(column, [])}
    return len(values) >= 3 and all(isinstance(v, str) and v.isalpha() and 3 <= len(v) <= 4 for v in values)


def _drop_weaker(scan: _Scan) -> list[Match]:
    """A word-part or typo reading of a column that the user also named exactly is dropped (its words
    go back to the free-text search): "wifi password" is the Wi-Fi category, not also the password one."""
    exact = {m.column for m in scan.found if m.kind in ("exact", "name")}
    kept = []
    for m in scan.found:
        if m.kind in ("word", "fuzzy") and m.column in exact and not _or_joined(scan, m):
            scan.used -= m.span()
        else:
            kept.append(m)
    return sorted(kept, key=lambda m: m.first)


def _or_joined(scan: _Scan, m: Match) -> bool:
    """A reading joined by "or" to an exact value of its own column ("cheap or moderately priced"): a second
    value the user offers, not a word part of the first."""
    tokens = scan.tokens
    for o in scan.found:
        if o is m or o.column != m.column or o.kind not in ("exact", "name"):
            continue
        if (o.last + 2 == m.first and tokens[o.last + 1].norm == "or") or \
                (m.last + 2 == o.first and tokens[m.last + 1].norm == "or"):
            return True
    return False


def _name_parts(scan: _Scan, vocab: TableVocab, schema: set[str]) -> None:
    """A run of capitalised words all found in a few names ("Garcia", "Grace Garcia") selects those rows."""
    if not vocab.name_columns:
        return
    tokens, i = scan.tokens, 0
    named = {w for w, cols in vocab.by_word.items() if any(c in vocab.name_columns for c in cols)}

    def part(k: int) -> bool:  # "the Go Plus": a capitalised small word inside the run counts when a name has it
        return is_content(tokens[k], schema) or (k > i and tokens[k].norm in named and k + 1 < len(tokens)
                                                 and tokens[k + 1].capitalised and is_content(tokens[k + 1], schema))

    while i < len(tokens):
        j = i
        if i + 1 < len(tokens) and tokens[i].capitalised and tokens[i].norm in named and i not in scan.used and \
                not part(i) and tokens[i].norm not in ("i", "a") and part(i + 1) and tokens[i + 1].capitalised:
            j = i + 1  # "Go" opening the run "Go Plus": kept when the next capitalised word is a name's
        while j < len(tokens) and j not in scan.used and tokens[j].capitalised and part(j):
            j += 1
        if j == i or not any(is_content(tokens[k], schema) for k in range(i, j)):
            i = max(j, i + 1)  # a small word alone ("The") names nothing
            continue
        for first in dict.fromkeys([i, *(k for k in range(i, j) if is_content(tokens[k], schema))][:2]):
            # "The Kelbrook one": when no name has the small word too, the run without it
            words = [t.norm for t in tokens[first:j]]
            if _named_by_run(scan, vocab, first, j, words):
                break
        i = j


def _named_by_run(scan: _Scan, vocab: TableVocab, i: int, j: int, words: list[str]) -> bool:
    for column in sorted(vocab.name_columns):
        sets = [{e.value: e for e in vocab.by_word.get(w, {}).get(column, [])} for w in words]
        common = set(sets[0]).intersection(*sets[1:]) if sets else set()
        if 0 < len(common) <= _MAX_NAME_VALUES:
            place = _one_other_value(vocab, words) if len(common) >= 2 else None
            if place is not None:  # "clinics at Northgate": two names and the site "Northgate Community Hospital"
                scan.add(i, j - 1, [place], "word")
                return True
            scan.add(i, j - 1, [sets[0][v] for v in sorted(common, key=str)], "name")
            return True
    return False


def _one_other_value(vocab: TableVocab, words: list[str]) -> ValueEntry | None:
    """The one value of a text column, not a name, that has the single word said: a word several names share is
    then where or what those rows are (the names say it too), not one of them."""
    if len(words) != 1:
        return None
    values = {(e.column, e.value): e for c, es in vocab.by_word.get(words[0], {}).items()
              if c not in vocab.name_columns for e in es if e.ctype == "text"}
    return next(iter(values.values())) if len(values) == 1 else None


def _first_and_more_of_a_name(scan: _Scan, vocab: TableVocab, schema: set[str]) -> None:
    """The first word of one row's name, which no other name has, said with another word of that name after it
    ("just the standard tuning" for "Standard Piano Tuning"): that row. A first word alone ("password" of "Password
    Reset") is a topic, and stays one."""
    if not vocab.name_columns:
        return
    said = [t.norm for t in scan.tokens]
    for i, token in enumerate(scan.tokens):
        if i in scan.used or not is_content(token, schema):
            continue
        for column in sorted(vocab.name_columns):
            entries = {e.value: e for e in vocab.by_word.get(token.norm, {}).get(column, [])}
            if len(entries) != 1:
                continue
            entry = next(iter(entries.values()))
            if len(entry.words) < 2 or entry.words[0] != token.norm or not set(entry.words[1:]) & set(said[i + 1:]):
                continue
            scan.add(i, i, [entry], "name")
            break


def _one_value_word(scan: _Scan, vocab: TableVocab, i: int, word: str, kind: str, score: float) -> bool:
    """A word that exactly one value of an enum-like column contains ("pediatric")."""
    by_column = vocab.by_word.get(word, {})
    said = {t.norm for t in scan.tokens}
    for column, entries in sorted(by_column.items(), key=lambda kv: kv[1][0].position):
        if column in vocab.name_columns or len({e.value for e in entries}) != 1:
            continue
        # the value's other words must be said too, or be shared by other values of the column
        # ("pediatric" names "Pediatric Dentistry"; "password" does not name "Password Reset")
        # a head said with a modifier of its own is another kind ("wheelchair access" is not "24 hour access")
        before = scan.tokens[i - 1].norm if i > 0 else ""
        modified = i > 0 and is_content(scan.tokens[i - 1]) and before not in entries[0].words \
            and i - 1 not in scan.used \
            and not before.endswith("est")  # "the cheapest bouquet" still names it
        if names_value(vocab, entries[0], said | {word}) or _modifier(vocab, entries[0], word, kind != "fuzzy") \
                or (kind == "word" and _proper_first_word(vocab, entries[0], scan.tokens[i])) \
                or (kind == "word" and not modified
                    and _kind_head(vocab, entries[0], word, i > 0 and scan.tokens[i].capitalised)):
            scan.add(i, i, entries[:1], kind, score)
            return True
    return False


def _kind_head(vocab: TableVocab, entry: ValueEntry, word: str, proper: bool = False) -> bool:
    """The last word of a two-word value of a text column (a kind: not a list's feature, not "Closed for Winter"),
    which no other value has, names it: "pods" for "Camping Pod", "huts" for "Shepherd's Hut" (the noun of a
    kind; a first word, "password" of "Password Reset", does not). A capitalised word said inside the question
    ("play in Spanish" for "available in Spanish") names any value it ends. Not the rows' own noun ("pitch" among
    pitches: "Grass Pitch"), nor a word other columns' values have too ("hall" of "Main Hall" and of "Hollowell Town
    Hall")."""
    own = {stem(w) for w in re.split(r"[_\W]+", vocab.table.lower()) if w}
    return (proper or len(str(entry.value).split()) == 2 and entry.ctype == "text") \
        and entry.words[-1] == word and len(word) >= 3 and stem(word) not in own \
        and set(vocab.by_word.get(word, {})) == {entry.column} \
        and word not in STOPWORDS and not any(ch.isdigit() for ch in str(entry.value)) \
        and entry.column not in vocab.schedules  # "Sat closed" ends a timetable, it is no kind


def _proper_prefixes(scan: _Scan, vocab: TableVocab) -> None:
    """Two or more capitalised words that begin exactly one value of one column, and no other value: "the Old
    Mill" for "Old Mill Studios" (a place said by the first part of its name)."""
    tokens, i = scan.tokens, 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and j not in scan.used and tokens[j].capitalised and not tokens[j].raw.isupper():
            j += 1
        if j - i >= 2:
            words = tuple(t.norm for t in tokens[i:j])
            hits = {(e.column, e.value): e for w in words[:1] for es in vocab.by_word.get(w, {}).values() for e in es
                    if e.words[:len(words)] == words and len(e.words) > len(words)}
            if len(hits) == 1 and not any(w in STOPWORDS for w in words):
                scan.add(i, j - 1, list(hits.values()), "prefix", 0.95)
        i = max(j, i + 1)


def _proper_first_word(vocab: TableVocab, entry: ValueEntry, token: Token) -> bool:
    """A capitalised word that begins one value of one column and no other value anywhere names it: "Riverside"
    for "Riverside Community Hospital" (a place is said by its first name; "password" would not name
    "Password Reset", but users do not capitalise it)."""
    word = token.norm
    return token.capitalised and not token.raw.isupper() and len(word) >= 4 and word not in STOPWORDS \
        and len(entry.words) >= 2 and entry.words[0] == word and set(vocab.by_word.get(word, {})) == {entry.column}


_POSSESSIVES = frozenset("my our his her their".split())


def _shared_head(scan: _Scan, vocab: TableVocab, i: int, word: str) -> None:
    """A word that ends a few values of one enum-like column ("tours" for "Boat Tour" and "Walking Tour",
    "fleece" for two fleeces) means any of them, unless another value of that column is named or the word is
    the user's own thing ("so my bike doesn't get stolen" asks for a lock, not a bike)."""
    if i > 0 and scan.tokens[i - 1].norm in _POSSESSIVES:
        return
    for column, entries in sorted(vocab.by_word.get(word, {}).items(), key=lambda kv: kv[1][0].position):
        values = {e.value: e for e in entries}
        if column in vocab.name_columns or not 2 <= len(values) <= _MAX_NAME_VALUES:
            continue
        if any(m.column == column for m in scan.found) or not all(e.words[-1] == word for e in values.values()):
            continue
        scan.add(i, i, [values[v] for v in sorted(values, key=str)], "head", 0.9)
        return


STEM_MIN = 4  # letters of a shared stem ("rated" and "rats" share only "rat")


def same_stem(vocab: TableVocab, word: str) -> list[str]:
    """The vocabulary's words with the same rough stem as a question word, for a word no value has as such."""
    st = stem(word)
    if len(st) < STEM_MIN:
        return []
    if vocab.stems is None:
        index: dict[str, list[str]] = {}
        for w in vocab.by_word:
            if w.isalpha() and len(stem(w)) >= STEM_MIN:
                index.setdefault(stem(w), []).append(w)
        vocab.stems = index
    return sorted(vocab.stems.get(st, []))


CLIPPED_MIN = 5  # letters of a word said as the clipped front of a longer one ("physio", "chemo")


def _clipped(vocab: TableVocab, word: str) -> list[str]:
    """The one word of the vocabulary that a word begins, at least three letters longer: a clipped word
    ("physio" for "physiotherapy"); none when several words begin so."""
    if len(word) < CLIPPED_MIN or not word.isalpha():
        return []
    if vocab.sorted_words is None:
        vocab.sorted_words = sorted(w for w in vocab.by_word if w.isalpha())
    words, found = vocab.sorted_words, []
    k = bisect.bisect_left(words, word)
    while k < len(words) and words[k].startswith(word) and len(found) < 2:
        if len(words[k]) >= len(word) + 3:
            found.append(words[k])
        k += 1
    return found if len(found) == 1 else []


def _modifier(vocab: TableVocab, entry: ValueEntry, word: str, said_as_such: bool = True) -> bool:
    """A value's first word said alone names it when no other column's values have that word: "coastal" for
    "Coastal Cliffs" (the head "Cliffs" unsaid), "dog" for the list item "dog friendly" (a list item's first word
    may be short: items are things a row has). A word other columns share stays ambiguous."""
    short = 3 if entry.ctype == "list" and said_as_such else 5  # a respelled word ("train" as "rain") stays long
    return len(entry.words) == 2 and entry.words[0] == word and len(word) >= short \
        and set(vocab.by_word.get(word, {})) == {entry.column}


def names_value(vocab: TableVocab, entry: ValueEntry, said: set[str]) -> bool:
    """Whether the words said name a value whose other words are generic in its column."""
    rest = [w for w in entry.words if w not in said]
    return all(len({e.value for e in vocab.by_word.get(w, {}).get(entry.column, [])}) >= 2 for w in rest)


def _fuzzy(scan: _Scan, vocab: TableVocab, schema: set[str]) -> None:
    from rapidfuzz import fuzz, process

    words = [w for w in vocab.words if len(w) >= 4 and not w[:1].isdigit()]
    if not words:
        return
    for i, token in enumerate(scan.tokens):
        if i in scan.used or len(token.norm) < 5 or not is_content(token, schema):
            continue
        best = process.extractOne(token.norm, words, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN)
        if best is None:
            continue
        word, score = best[0], best[1] / 100
        whole = vocab.phrases.get((word,))
        if whole:
            scan.add(i, i, _first_column(whole), "fuzzy", score, word)
        else:
            _one_value_word(scan, vocab, i, word, "fuzzy", score)


def content_runs(tokens: list[Token], used: set[int], schema: set[str]) -> list[tuple[int, int]]:
    """Spans of 1-2 adjacent unused words with at least one content word outside the schema."""
    spans = []
    for i in range(len(tokens)):
        for length in (2, 1):
            idx = range(i, i + length)
            if i + length > len(tokens) or any(j in used for j in idx):
                continue
            if not all(is_content(tokens[j]) for j in idx):
                continue
            if any(is_content(tokens[j], schema) for j in idx):
                spans.append((i, i + length - 1))
    return spans


def semantic_matches(tokens: list[Token], text: str, used: set[int], schema: set[str],
                     entries: list[ValueEntry], vectors: Any, embedder: Any, prefetch: Any = (),
                     vocab: TableVocab | None = None) -> list[Match]:
    """Phrases that mean a value (cosine >= SEMANTIC_MIN, clear of the runner-up), best first."""
    spans = content_runs(tokens, used, schema)[:MAX_SPANS]
    if not spans or vectors is None or not entries:
        return []
    import numpy as np

    phrases = [text[tokens[a].start:tokens[b].end] for a, b in spans]
    # the words of a span that name the schema ("books" in a books table) are embedded alone too: a span
    # whose meaning comes from them ("books published" -> Paperback) says nothing about a value
    schema_part = {k: " ".join(tokens[j].raw for j in range(a, b + 1) if not is_content(tokens[j], schema))
                   for k, (a, b) in enumerate(spans) if b > a}
    schema_texts = sorted({t for t in schema_part.values() if t})
    extra = [p for p in list(prefetch) if p]
    columns = sorted({e.column for e in entries})
    encoded = embedder.encode(phrases + schema_texts + extra + [c.replace("_", " ") for c in columns])
    sims = encoded[: len(phrases)] @ vectors.T
    schema_sims = dict(zip(schema_texts, encoded[len(phrases): len(phrases) + len(schema_texts)] @ vectors.T))
    column_sims = encoded[: len(phrases)] @ encoded[len(encoded) - len(columns):].T
    candidates = []
    for k, (a, b) in enumerate(spans):
        order = [int(j) for j in np.argsort(-sims[k])]
        best = order[0]
        if _NOT_BY_MEANING & set(entries[best].words):
            continue
        second = next((j for j in order[1:] if entries[j].value != entries[best].value), None)
        s1 = float(sims[k, best])
        s2 = float(sims[k, second]) if second is not None else 0.0
        span_words = {tokens[j].norm for j in range(a, b + 1)}
        partial = span_words < set(entries[best].words)  # a part of the value's own words, said alone
        if partial and vocab is not None and not names_value(vocab, entries[best], {t.norm for t in tokens}):
            continue
        alone = schema_sims.get(schema_part.get(k, ""))
        if alone is not None and s1 - float(alone[best]) < SCHEMA_LIFT:
            continue
        scale = float(column_sims[k, columns.index(entries[best].column)])
        if scale >= SCALE_MIN and s1 - scale < SCALE_MARGIN:
            continue  # "hard" (0.72 to Easy, 0.67 to "difficulty") names the scale, and which end is not told
        if s1 >= SEMANTIC_MIN and s1 - s2 >= SEMANTIC_MARGIN:
            candidates.append((s1, a, b, entries[best], None if second is None else entries[second].value, s2))
    scan = _Scan(tokens, text, set(used))
    for s1, a, b, entry, runner, s2 in sorted(candidates, key=lambda c: (-c[0], c[1])):
        if any(j in scan.used for j in range(a, b + 1)):
            continue
        scan.add(a, b, [entry], "semantic", s1, {"value": runner, "score": round(s2, 3)})
    return scan.found
