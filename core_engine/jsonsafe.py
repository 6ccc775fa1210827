"""JSON-safe values and depth-limited JSON reading (docs/reliability.md "Limits").

A value that enters the dialogue state must serialise as strict JSON and read
back the same, or a turn could crash recording or wedge a session. One checker,
``check_value``, is called where parsers, actions and KB rows assign values;
``loads`` is the JSON reader for files that come from a bundle or project file.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

__all__ = ["MAX_CHARS", "MAX_DEPTH", "MAX_INT", "MAX_TEXT", "MAX_ITEMS", "JSON_MAX_DEPTH", "check_value", "loads",
           "json_depth"]

MAX_INT = 2 ** 63 - 1
"""Largest magnitude of an int value (SQLite's int64): bigger ints are refused, not stored."""
MAX_TEXT = 100_000
"""Characters in one string inside a value."""
MAX_ITEMS = 10_000
"""Items (list entries plus dict keys, all levels) in one value."""
MAX_CHARS = 1_000_000
"""Characters of all strings and keys in one value: a list growing by 100 kB a turn is stopped at 1 MB."""
MAX_DEPTH = 20
"""Nesting of lists/dicts inside one value."""
JSON_MAX_DEPTH = 100
"""Nesting of any JSON document read from a file, a bundle or an LLM."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def check_value(value: Any, where: str = "value", *, max_chars: int | None = MAX_CHARS) -> Any:
    """Return ``value`` unchanged when it is strict, bounded JSON; raise ValueError naming ``where``.

    Accepted: None, bool, int within ±MAX_INT, finite float, str without lone
    surrogates (≤ MAX_TEXT), list and dict with str keys, nested ≤ MAX_DEPTH,
    ≤ MAX_ITEMS items and ≤ ``max_chars`` characters in all. Tuples are refused (they would come back as lists).
    """
    items = chars = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:
                raise ValueError(f"{where}: the number is too large (the limit is ±{MAX_INT:,})")
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                raise ValueError(f"{where}: {v!r} is not a finite number")
            continue
        if isinstance(v, str):
            _check_text(v, where)
            chars += len(v)
            if max_chars is not None and chars > max_chars:
                raise ValueError(f"{where}: the value has more than {max_chars:,} characters in all")
            continue
        if isinstance(v, (list, dict)):
            if depth >= MAX_DEPTH:
                raise ValueError(f"{where}: the value is nested more than {MAX_DEPTH} levels deep")
            items += len(v)
            if items > MAX_ITEMS:
                raise ValueError(f"{where}: the value has more than {MAX_ITEMS:,} items")
            if isinstance(v, dict):
                for key, sub in v.items():
                    if not isinstance(key, str):
                        raise ValueError(f"{where}: a key {_short(key)} is not text (JSON keys are text)")
                    _check_text(key, where)
                    chars += len(key)
                    stack.append((sub, depth + 1))
            else:
                stack.extend((sub, depth + 1) for sub in v)
            continue
        raise ValueError(f"{where}: a {type(v).__name__} is not a JSON value")
    return value


def _check_text(text: str, where: str) -> None:
    if len(text) > MAX_TEXT:
        raise ValueError(f"{where}: the text has {len(text):,} characters (the limit is {MAX_TEXT:,})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{where}: the text contains a lone surrogate (not valid Unicode)") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def json_depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= 1:
        return text.count("[") + text.count("{")
    brackets = _NOT_BRACKET.sub("", _STRINGS.sub("", text))
    if not brackets:
        return 0
    return max(accumulate(1 if ch in "[{" else -1 for ch in brackets))


def loads(text: str | bytes, *, max_depth: int = JSON_MAX_DEPTH, what: str = "JSON") -> Any:
    """``json.loads`` with a nesting limit and strict numbers (NaN/Infinity refused): ValueError otherwise."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    if text.count("[") + text.count("{") > max_depth and json_depth(text) > max_depth:
        raise ValueError(f"{what} is nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
