"""Values of imported KB data: type inference, conversion to stored values, text chunking.

Works a column of a batch at a time, so the common case (a CSV column whose
strings all fit) runs in C loops (``map``) rather than per-value Python; a
batch with nulls, odd types or a bad value takes the per-value path, which is
also the one that finds the exact bad value for the error message.

Stored forms: int and float as numbers, bool as 0/1, date as ``YYYY-MM-DD``
text, list as JSON array text, text as is; empty or blank strings are NULL.
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from core_engine.knowledge.kb import Column

__all__ = ["ColumnGuess", "Unfit", "chunk_text", "convert_column", "convert_sampled", "describe_type", "guess_columns"]

FREE_TEXT_MIN_CHARS = 80  # average length above which a text column is searched as free text
FREE_TEXT_MIN_ELEMENT_CHARS = 40  # the same, for the strings of a list column (reviews)
INT_RANGE = (-(2**63), 2**63)  # what SQLite's INTEGER holds

_CANDIDATES = ("bool", "int", "float", "date", "list")  # in order of preference; "text" fits anything
_FITS = {  # which kinds of value each candidate type accepts
    "bool": {"bool"}, "int": {"int"}, "float": {"int", "float"}, "date": {"date"}, "list": {"list"},
}
_INFER_INT = re.compile(r"[+-]?(?:0|[1-9]\d{0,17})")  # no leading zeros: zip code "02139" stays text
_INFER_FLOAT = re.compile(r"[+-]?(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SPACE = re.compile(r"\s")
# the same rules over a batch joined by newlines (one match per batch; no value holds a newline)
_INFER_INTS = re.compile(rf"(?:{_INFER_INT.pattern}\n)*")
_INFER_FLOATS = re.compile(rf"(?:{_INFER_FLOAT.pattern}\n)*")
_DATES = re.compile(rf"(?:{_DATE.pattern}\n)*")
_BRACKETED = re.compile(r"(?:\[[^\n]*\]\n)*")  # each value starts with [ and ends with ]
_BOOL_WORDS = {"true", "false", "yes", "no"}  # what inference accepts as a boolean column
_BOOL_VALUES = {"true": 1, "yes": 1, "y": 1, "t": 1, "1": 1, "false": 0, "no": 0, "n": 0, "f": 0, "0": 0}
_WHAT = {
    "int": "an int", "float": "a float", "bool": "a boolean (true/false/yes/no)",
    "date": "a date (YYYY-MM-DD)", "text": "text", "list": "a JSON array",
}


class Unfit(ValueError):
    """The value at ``index`` of a column batch does not fit the column's type."""

    def __init__(self, index: int, value: Any) -> None:
        super().__init__(f"value {index} does not fit")
        self.index = index
        self.value = value


def describe_type(typ: str) -> str:
    """How an error message names a type: 'a float', 'a date (YYYY-MM-DD)'."""
    return _WHAT[typ]


# -- inference ------------------------------------------------------------------


class ColumnGuess:
    """What the values of one column have looked like so far, enough to choose its type."""

    def __init__(self) -> None:
        self.candidates = list(_CANDIDATES)
        self.present = 0  # non-null values seen
        self.text_chars = self.texts = 0
        self.element_chars = self.elements = self.other_elements = 0

    def add_batch(self, values: list[Any]) -> None:
        if _all_str(values):
            self.text_chars += sum(map(len, values))
            self.texts += sum(1 for v in values if v)
            present = [s for s in map(str.strip, values) if s]
            self.present += len(present)
            if present and self.candidates:
                self.candidates = [c for c in self.candidates if self._strings_fit(c, present)]
            return
        kinds = set()
        for value in values:
            if isinstance(value, str):
                self.text_chars += len(value)
                self.texts += bool(value)
            if self.candidates:
                kind, parsed = _kind(value)
                if kind != "null":
                    kinds.add(kind)
                    self.present += 1
                if parsed is not None:
                    self._count_elements(parsed)
        self.candidates = [c for c in self.candidates if kinds <= _FITS[c]]

    def _strings_fit(self, candidate: str, present: list[str]) -> bool:
        if candidate == "bool":
            return set(map(str.lower, present)) <= _BOOL_WORDS
        if candidate == "int":
            return all(map(_INFER_INT.fullmatch, present))
        if candidate == "float":
            return all(map(_INFER_FLOAT.fullmatch, present))
        if candidate == "date":
            return all(map(_DATE.fullmatch, present)) and all(map(_is_date, present))
        # list
        if not all(s[0] == "[" and s[-1] == "]" for s in present):
            return False
        parsed = [_json_list(s) for s in present]
        if any(p is None for p in parsed):
            return False
        for items in parsed:
            self._count_elements(items)
        return True

    def _count_elements(self, items: list[Any]) -> None:
        for element in items:
            if isinstance(element, str):
                self.element_chars += len(element)
                self.elements += 1
            else:
                self.other_elements += 1

    def column(self, name: str) -> Column:
        typ = self.candidates[0] if self.present and self.candidates else "text"
        if typ == "list":
            free = self.elements > self.other_elements and self.element_chars / self.elements > FREE_TEXT_MIN_ELEMENT_CHARS
        else:
            free = typ == "text" and self.texts > 0 and self.text_chars / self.texts > FREE_TEXT_MIN_CHARS
        return Column(name, typ, free)


def guess_columns(batches: Iterable[list[dict[str, Any]]]) -> tuple[list[Column], int]:
    """Columns (in first-seen order) inferred from batches of records, and the number of records."""
    guesses: dict[str, ColumnGuess] = {}
    count = 0
    for batch in batches:
        count += len(batch)
        last_keys = None
        for record in batch:
            if record.keys() != last_keys:
                for name in record:
                    if name not in guesses:
                        guesses[name] = ColumnGuess()
                last_keys = record.keys()
        for name, guess in guesses.items():
            guess.add_batch([r.get(name) for r in batch])
    return [g.column(name) for name, g in guesses.items()], count


def _kind(value: Any) -> tuple[str, list[Any] | None]:
    """The type one value suggests, and for lists the list itself."""
    if value is None:
        return "null", None
    if isinstance(value, bool):
        return "bool", None
    if isinstance(value, int):
        return ("int" if INT_RANGE[0] <= value < INT_RANGE[1] else "text"), None
    if isinstance(value, float):
        return ("float" if math.isfinite(value) else "text"), None
    if isinstance(value, list):
        return "list", value
    if not isinstance(value, str):
        return "text", None
    s = value.strip()
    if not s:
        return "null", None
    if _INFER_INT.fullmatch(s):
        return "int", None
    if _INFER_FLOAT.fullmatch(s):
        return "float", None
    if s.lower() in _BOOL_WORDS:
        return "bool", None
    if _DATE.fullmatch(s) and _is_date(s):
        return "date", None
    if s[0] == "[" and s[-1] == "]":
        parsed = _json_list(s)
        if parsed is not None:
            return "list", parsed
    return "text", None


def _is_date(s: str) -> bool:
    try:
        datetime.date.fromisoformat(s)
    except ValueError:
        return False
    return True


def _json_list(s: str) -> list[Any] | None:
    try:
        value = json.loads(s)
    except ValueError:
        return None
    return value if isinstance(value, list) else None


# -- conversion -------------------------------------------------------------------


def convert_column(values: list[Any], typ: str, *, checked: bool = False) -> list[Any]:
    """The stored form of each value; raises Unfit for the first value that does not fit.

    ``checked``: inference already saw every one of these values fit ``typ``,
    so strings whose stored form is the string itself (date, list) skip re-parsing.
    """
    if _all_str(values):
        fast = [v.strip() or None for v in values] if checked and typ in ("date", "list") else _FAST[typ](values)
        if fast is not None:
            return fast
    convert = _CONVERTERS[typ]
    out = []
    for index, value in enumerate(values):
        if value is None or (isinstance(value, str) and not value.strip()):
            out.append(None)
            continue
        try:
            out.append(convert(value))
        except (ValueError, TypeError, OverflowError):
            raise Unfit(index, value) from None
    return out


def convert_sampled(values: list[Any], typ: str, *, strings: bool = False) -> list[Any] | None:
    """The stored forms of a batch typed from an earlier sample, when every value is a non-blank
    string that fits ``typ`` by the rules of inference (all in C loops); else None, and the
    caller checks the batch value by value. List cells are parsed as one JSON array of the batch.

    ``strings``: the caller knows every value is a str (a CSV batch). A batch is checked with one
    regex match over its values joined by newlines, not one match per value."""
    if not strings and not _all_str(values):
        return None
    if typ == "text":
        return values if all(values) and not any(map(str.isspace, values)) else _fast_text(values)
    if not all(values):
        return None  # blanks (nulls) take the careful path
    if typ == "bool":
        lowered = list(map(str.lower, values))
        return list(map(_BOOL_VALUES.__getitem__, lowered)) if set(lowered) <= _BOOL_WORDS else None
    joined = "\n".join(values) + "\n"
    if joined.count("\n") != len(values):
        return None  # a value with a line break in it: the per-value path
    if typ == "int":
        return list(map(int, values)) if _INFER_INTS.fullmatch(joined) else None
    if typ == "float":
        if not _INFER_FLOATS.fullmatch(joined):
            return None
        out = list(map(float, values))
        return out if all(map(math.isfinite, out)) else None
    if typ == "date":
        if not _DATES.fullmatch(joined):
            return None
        try:
            list(map(datetime.date.fromisoformat, values))
        except ValueError:
            return None
        return values
    if typ == "list":
        if not _BRACKETED.fullmatch(joined):
            return None
        try:  # the whole batch parsed as one JSON array of arrays: one C call, not one per cell
            parsed = json.loads("[" + ",".join(values) + "]")
        except ValueError:
            return None
        return values if len(parsed) == len(values) and all(isinstance(v, list) for v in parsed) else None
    return None


def _all_str(values: list[Any]) -> bool:
    """True when every value is exactly a str: the CSV case, converted in C loops."""
    return set(map(type, values)) == {str}


def _fast_text(values: list[str]) -> list[Any]:
    return [v if v and not v.isspace() else None for v in values]


def _fast_int(values: list[str]) -> list[Any] | None:
    if not all(map(_INT.fullmatch, values)):
        return None
    out = list(map(int, values))
    return out if out and INT_RANGE[0] <= min(out) and max(out) < INT_RANGE[1] else None


def _fast_float(values: list[str]) -> list[Any] | None:
    if not all(map(_FLOAT.fullmatch, values)):
        return None
    out = list(map(float, values))
    return out if all(map(math.isfinite, out)) else None


def _fast_bool(values: list[str]) -> list[Any] | None:
    out = list(map(_BOOL_VALUES.get, map(str.lower, values)))
    return None if None in out else out


def _fast_date(values: list[str]) -> list[Any] | None:
    return values if all(map(_DATE.fullmatch, values)) and all(map(_is_date, values)) else None


def _fast_list(values: list[str]) -> list[Any] | None:
    parsed = [_json_list(v) for v in values]
    return None if any(p is None for p in parsed) else values  # valid JSON arrays are stored as written


_FAST: dict[str, Callable[[list[str]], list[Any] | None]] = {
    "text": _fast_text, "int": _fast_int, "float": _fast_float, "bool": _fast_bool, "date": _fast_date, "list": _fast_list,
}


def _to_int(v: Any) -> int:
    if isinstance(v, bool):
        raise TypeError
    if isinstance(v, float):
        if not v.is_integer():
            raise ValueError
        v = int(v)
    if isinstance(v, str):
        if not _INT.fullmatch(v.strip()):
            raise ValueError
        v = int(v)
    if not isinstance(v, int) or not INT_RANGE[0] <= v < INT_RANGE[1]:
        raise ValueError
    return v


def _to_float(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise TypeError
    if isinstance(v, str) and not _FLOAT.fullmatch(v.strip()):
        raise ValueError
    f = float(v)
    if not math.isfinite(f):
        raise ValueError
    return f


def _to_bool(v: Any) -> int:
    if isinstance(v, bool) or (isinstance(v, int) and v in (0, 1)):
        return int(v)
    if isinstance(v, str) and v.strip().lower() in _BOOL_VALUES:
        return _BOOL_VALUES[v.strip().lower()]
    raise ValueError


def _to_date(v: Any) -> str:
    if isinstance(v, datetime.date) and not isinstance(v, datetime.datetime):
        return v.isoformat()
    if isinstance(v, str) and _DATE.fullmatch(v.strip()) and _is_date(v.strip()):
        return v.strip()
    raise ValueError


def _to_text(v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def _to_list(v: Any) -> str:
    if isinstance(v, str):
        v = _json_list(v)
    if not isinstance(v, list):
        raise ValueError
    return json.dumps(v, ensure_ascii=False)


_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "int": _to_int, "float": _to_float, "bool": _to_bool, "date": _to_date, "text": _to_text, "list": _to_list,
}


# -- documents ---------------------------------------------------------------------


def chunk_text(text: str, chunk_chars: int = 800, overlap: int = 100) -> list[str]:
    """Split text into pieces of at most ``chunk_chars``, cut at paragraph, sentence or word ends.

    Each piece after the first starts about ``overlap`` characters before the
    previous one ended (at a word start), so a fact split by a cut is whole in one piece.
    """
    text = text.strip()
    chunks: list[str] = []
    start, n = 0, len(text)
    while start < n:
        end = min(start + chunk_chars, n)
        if end < n:
            end = _cut_point(text, start + chunk_chars // 2, end)
        piece = text[start:end].strip()
        if piece:
            chunks.append(piece)
        if end >= n:
            break
        nxt = max(end - overlap, start + 1)
        if nxt < end and not text[nxt - 1].isspace():
            space = _SPACE.search(text, nxt, end)
            nxt = space.end() if space else nxt
        start = nxt
    return chunks


def _cut_point(text: str, lo: int, hi: int) -> int:
    """Where to end a chunk that may end anywhere in [lo, hi]: a paragraph, sentence or word end."""
    window = text[lo : hi + 1]  # text[hi] being a space makes hi itself a clean cut
    for separator in ("\n\n", ". ", "! ", "? ", "\n", " "):
        at = window.rfind(separator)
        if at >= 0:
            return lo + at + len(separator)
    return hi
