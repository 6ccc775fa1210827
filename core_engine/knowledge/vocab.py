"""The words of a knowledge base, built once per KB file and version and shared by every session.

The offline knowledge parser grounds a question in the KB's own values (DESIGN §5):
the distinct values of its short text and list columns. Reading and indexing them
is the costly part of a first question, so it happens once per file version
(resolved path, size, modification time) in a module-level cache that all sessions
and threads share, and the index is one combined matcher: a dictionary from
normalised token tuples to values (a phrase trie flattened into a dict), scanned
longest phrase first, instead of one regex per value.

Columns are classed from the data, not from their names:
- *name-like*: short text with mostly distinct values (a row's name or title);
  matched by the whole name or by a capitalised part of it ("Garcia");
- *enum-like*: few distinct values (a specialty, a city, list elements such as
  languages); matched exactly, by a word only one value has, fuzzily (typos)
  and by meaning with the embedder.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .calendar import DAY_NAMES, is_time_value, schedule_days
from .kb import SQLiteKB, TableInfo, quote_identifier

__all__ = ["KBVocabulary", "TableVocab", "ValueEntry", "Token", "tokenize", "fold", "vocabulary_for",
           "STOPWORDS", "TITLES"]

STOPWORDS = frozenset("""
    a about above after again all also am an and any anyone anything are as at available be been before being below
    best between both but by can could did do does doing down during each few find for from further get give good
    got great had has have having he her here hers him his how i if in into is it its itself just know least less
    like looking list me more most my need near nice no nor not of off on once only or other our out over own
    place places please recommend same she should show so some someone something somewhere spot spots suggest
    than that the their them then there these they this those through to too top under until up very want was
    we were what when where which while who whom why will with without would you your tell wants let us one ones
    highest lowest many much number hi hello hey thanks thank ok okay yes sure maybe really
    speak speaks speaking spoken offer offers offering serve serves serving provide provides accept accepts
    carry carries stock stocks
    work works working kind type sort e g etc town area around nearby local anywhere
    use using used make makes made come comes came go goes going see seeing look looks set put puts putting
    does doing done did something anything everything someone anyone
    don't dont doesn't isn't aren't won't can't cannot wasn't weren't doesnt isnt arent wont cant wasnt werent
    never whose enough
    i've you've we've they've i'm i'd i'll you'd you'll we'd we'll it's that's there's what's here's let's who's
    what've ive youve weve theyve youre whats thats theres heres whos u ur ya
    sell buy purchase per
    stuff thing things still ever even actually bit lot lots vibe vibes craving crave craves
    today tonight tomorrow tmrw
""".split())
"""(Contractions, also typed without the apostrophe ("what've you got", "anything youve got"), the verbs of a shop's
question ("do you sell anything for ...") and fillers: "tallest tree you've got", "electronic stuff", "still in mint
condition". The last line: when the user means to go, which a search for rows does not hold; a booking takes it.)"""
TITLES = frozenset("dr doctor mr mrs ms miss mx prof professor sir madam dame st jr sr".split())
_TOKEN = re.compile(r"\d+(?:\.\d+)?[A-Za-z]*|[A-Za-z0-9]+(?:'[A-Za-z]+)?|\$")
_MAX_DISTINCT = 500  # columns with more distinct values are not vocabulary (searched as text instead)
_MAX_SEMANTIC = 150  # enum-like columns embedded for meaning matches have at most this many values
_FILES = 16  # KB versions kept in the process-wide cache


@dataclass(frozen=True)
class Token:
    """A word of a question: folded form, as typed, and its place in the question."""

    norm: str
    raw: str
    start: int
    end: int

    @property
    def capitalised(self) -> bool:
        return self.raw[:1].isupper()


def fold(word: str) -> str:
    """Lower case, possessive and plural removed: `Dentists'` -> `dentist`, `cities` -> `city`."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    w = w.replace("'", "")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def tokenize(text: str) -> list[Token]:
    return [Token(fold(m.group(0)), m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def stem(word: str) -> str:
    """A rough stem for comparing a word with schema names (`rated` ~ `rating`)."""
    w = fold(word)
    for suffix in ("ings", "ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


@dataclass(frozen=True)
class ValueEntry:
    """One distinct value of a column, with the normalised words that spell it."""

    table: str
    column: str
    ctype: str
    value: Any
    words: tuple[str, ...]
    position: int  # the column's place in the table: earlier columns win ties
    name_like: bool


@dataclass
class TableVocab:
    """The combined matcher of one table: phrases, per-column word index, fuzzy word list."""

    table: str
    phrases: dict[tuple[str, ...], list[ValueEntry]] = field(default_factory=dict)
    max_words: int = 1
    by_word: dict[str, dict[str, list[ValueEntry]]] = field(default_factory=dict)  # word -> column -> values
    name_columns: set[str] = field(default_factory=set)
    semantic: list[ValueEntry] = field(default_factory=list)  # values of enum-like columns, embedded lazily
    compact: dict[str, list[ValueEntry]] = field(default_factory=dict)  # codes typed without their space
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # numeric column -> (min, max)
    date_ranges: dict[str, tuple[str, str]] = field(default_factory=dict)  # date column -> (first, last)
    time_columns: list[str] = field(default_factory=list)  # text columns whose values are all "HH:MM"
    day_columns: dict[str, list[str]] = field(default_factory=dict)  # columns whose values are day names
    schedules: dict[str, dict[str, frozenset[int]]] = field(default_factory=dict)  # opening-hours column -> value -> days
    stems: dict[str, list[str]] | None = None  # rough stem -> words, built on first use (knowledge_match)
    sorted_words: list[str] | None = None  # the alphabetic words, sorted, built on first use (a clipped word)
    covers_all: dict[str, ValueEntry] = field(default_factory=dict)  # column -> its "Both"/"Any" value
    can_be_had: list[ValueEntry] = field(default_factory=list)  # status values like "Vacant", "In stock"
    labelled: dict[str, dict[str, ValueEntry]] = field(default_factory=dict)  # column -> short value -> entry
    """Values too short to be words ("B", "D", "2"): matched only right beside their column's name ("pontoon B")."""

    def add(self, entry: ValueEntry) -> None:
        self.phrases.setdefault(entry.words, []).append(entry)
        self.max_words = max(self.max_words, len(entry.words))
        for w in set(entry.words):
            self.by_word.setdefault(w, {}).setdefault(entry.column, []).append(entry)
        if len(entry.words) > 1:  # `cs101`, `wifi`, `ecommerce` for their spaced or hyphenated forms
            self.compact.setdefault("".join(entry.words), []).append(entry)

    @property
    def words(self) -> list[str]:
        return list(self.by_word)


class KBVocabulary:
    """All tables' vocabularies of one KB file version, and their lazily built value vectors."""

    def __init__(self, key: tuple[Any, ...], tables: dict[str, TableVocab]) -> None:
        self.key = key
        self.tables = tables
        self._vectors: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()

    def value_vectors(self, table: str, embedder: Any) -> tuple[list[ValueEntry], Any]:
        """The enum-like values of a table and their embeddings (computed once per embedder)."""
        vocab = self.tables[table]
        cache_key = (table, embedder.name)
        with self._lock:
            found = self._vectors.get(cache_key)
        if found is None:
            texts = [str(e.value) for e in vocab.semantic]
            found = embedder.encode(texts) if texts else None
            with self._lock:
                self._vectors[cache_key] = found
        return vocab.semantic, found


_CACHE: OrderedDict[tuple[Any, ...], KBVocabulary] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_BUILDING: dict[tuple[Any, ...], threading.Lock] = {}


def file_key(kb: SQLiteKB) -> tuple[Any, ...]:
    """(path, size, mtime): a new import or an edited file is a new version."""
    path = kb.path.resolve()
    st = path.stat()
    return (str(path), st.st_size, st.st_mtime_ns)


def vocabulary_for(kb: SQLiteKB) -> KBVocabulary:
    """The vocabulary of a KB file version, built on first use and shared process-wide."""
    key = file_key(kb)
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
        building = _BUILDING.setdefault(key, threading.Lock())
    with building:  # one thread builds; the others wait for it instead of building too
        with _CACHE_LOCK:
            found = _CACHE.get(key)
        if found is None:
            found = KBVocabulary(key, {name: _table_vocab(kb, info) for name, info in kb.tables().items()})
            with _CACHE_LOCK:
                _CACHE[key] = found
                _BUILDING.pop(key, None)
                while len(_CACHE) > _FILES:
                    _CACHE.popitem(last=False)
    return found


COVERS_ALL = frozenset({"both", "either", "any", "all"})
"""A column value that stands for every other value of the column ("Both" beside "Manual" and "Automatic")."""
CAN_BE_HAD = frozenset({"vacant", "available", "free", "unoccupied", "unlet", "to let", "not let", "in stock",
                        "available now", "open"})
"""A status value that says a row can be had now (English): what "free" or "available" asks for (availability.py)."""


def is_identifier(column: str) -> bool:
    return column == "id" or column.endswith(("_id", "_url", "_path"))


def value_words(value: str) -> tuple[str, ...]:
    """A value's words as a question would contain them; titles and stopwords alone do not count."""
    words = tuple(t.norm for t in tokenize(value) if t.norm not in TITLES and t.raw != "$")
    if not words or all(w in STOPWORDS or len(w) < 2 for w in words):
        return words if is_code(value) else ()  # "US", "UK": matched only as typed, in capitals
    return words


def is_code(value: Any) -> bool:
    """A short code in capitals ("US", "UK", "IT"): a value even when its letters spell a stopword."""
    return isinstance(value, str) and 2 <= len(value) <= 4 and value.isalpha() and value.isupper()


def _table_vocab(kb: SQLiteKB, info: TableInfo) -> TableVocab:
    vocab = TableVocab(info.name)
    vocab.ranges, vocab.date_ranges = _ranges(kb, info)
    for position, col in enumerate(info.columns):
        if col.type == "bool" and " ".join(w for w in re.split(r"[_\W]+", col.name.lower()) if w) in CAN_BE_HAD:
            # a yes/no column named as a status ("vacant", "available", "in_stock"): True is what "free" asks for
            vocab.can_be_had.append(ValueEntry(info.name, col.name, col.type, True, (col.name.lower(),), position,
                                               False))
            continue
        if col.free_text or col.type not in ("text", "list") or is_identifier(col.name):
            continue
        distinct = kb.distinct_values(info.name, col.name, limit=_MAX_DISTINCT + 1)
        if len(distinct) > _MAX_DISTINCT or not distinct:
            continue
        texts = [v for v in distinct if isinstance(v, str)]
        if col.type == "text" and texts and len(texts) == len(distinct):
            if all(is_time_value(v) for v in texts):  # "19:30": compared as times of day (calendar.py)
                vocab.time_columns.append(col.name)
            elif all(v.lower() in DAY_NAMES for v in texts):
                vocab.day_columns[col.name] = sorted(texts, key=lambda v: DAY_NAMES.index(v.lower()))
            elif len(texts) >= 2:  # "Mon-Sat 9:00-17:00, Sun 10:00-16:00": the days each value covers
                days = {v: schedule_days(v) for v in texts}
                if all(d is not None for d in days.values()) and len(set(days.values())) >= 2:
                    vocab.schedules[col.name] = {v: d for v, d in days.items() if d is not None}
        mean_words = sum(len(v.split()) for v in texts) / max(1, len(texts))
        if mean_words > 8:
            continue  # sentences: free text, not vocabulary
        name_like = col.type == "text" and info.row_count >= 8 and len(distinct) >= 0.6 * info.row_count
        if name_like:
            vocab.name_columns.add(col.name)
        enum_like = not name_like and len(distinct) <= _MAX_SEMANTIC
        for value in texts:
            words = value_words(value)
            if value.strip().lower() in COVERS_ALL and col.type == "text":
                vocab.covers_all[col.name] = ValueEntry(info.name, col.name, col.type, value, (value.lower(),),
                                                        position, False)
            if value.strip().lower() in CAN_BE_HAD and col.type == "text" and not name_like:
                vocab.can_be_had.append(ValueEntry(info.name, col.name, col.type, value, (value.lower(),), position,
                                                   False))
            if not words:
                if col.type == "text" and not name_like and re.fullmatch(r"[A-Za-z0-9]{1,2}", value.strip()):
                    vocab.labelled.setdefault(col.name, {})[value.strip().lower()] = ValueEntry(
                        info.name, col.name, col.type, value, (value.strip().lower(),), position, False)
                continue
            entry = ValueEntry(info.name, col.name, col.type, value, words, position, name_like)
            vocab.add(entry)
            if enum_like and not any(ch.isdigit() for ch in value):
                vocab.semantic.append(entry)
    return vocab


def _ranges(kb: SQLiteKB, info: TableInfo) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[str, str]]]:
    """Each numeric column's smallest and largest value: a bare number ("in 2022") names the column
    whose range holds it (knowledge_numbers.by_range); and each date column's first and last date (a month
    said without its year is the year the dates reach, calendar.months)."""
    numeric = [c.name for c in info.columns if c.type in ("int", "float") and not is_identifier(c.name)]
    dates = [c.name for c in info.columns if c.type == "date" and not is_identifier(c.name)]
    if not (numeric or dates) or not info.row_count:
        return {}, {}
    t = quote_identifier(info.name)
    parts = ", ".join(f"min({quote_identifier(c)}), max({quote_identifier(c)})" for c in numeric + dates)
    row = list(kb.execute(f"SELECT {parts} FROM {t}", max_rows=1).rows[0].values())
    out, spans = {}, {}
    for i, name in enumerate(numeric + dates):
        low, high = row[2 * i], row[2 * i + 1]
        if name in dates and isinstance(low, str) and isinstance(high, str):
            spans[name] = (low, high)
        elif isinstance(low, (int, float)) and isinstance(high, (int, float)):
            out[name] = (float(low), float(high))
    return out, spans
