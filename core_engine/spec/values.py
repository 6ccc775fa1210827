"""Typed coercion of field values: what a value assigned to a field becomes.

The state holds JSON-native values only (dates as ISO strings, times as HH:MM),
so a state snapshot serialises as it is. Coercion is where enum values are
normalised to their canonical spelling and "3" becomes 3.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from rapidfuzz import fuzz

from ..errors import StatementError
from ..jsonsafe import MAX_INT, check_value
from .model import REFUSAL, Field, Spec, TypeRef, parse_type

_TRUE = {"true", "yes", "y", "yeah", "yep", "correct", "right", "sure", "ok", "okay", "1"}
_FALSE = {"false", "no", "n", "nope", "incorrect", "wrong", "0"}


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.casefold()).strip()


def coerce_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        v = _norm(value)
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
    raise ValueError(f"{_short(value)} is not yes/no")


def coerce_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a whole number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, str) and len(value) <= 40 and re.fullmatch(r"\s*[-+]?\d+(\.0+)?\s*", value):
        value = int(value.strip().split(".")[0])
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ValueError(f"the number is too large (the limit is ±{MAX_INT:,})")
        return value
    raise ValueError(f"{_short(value)} is not a whole number")


def _short(value: Any) -> str:
    """repr for messages, cut short (and safe for ints too long to print)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return "a very large number"
    if isinstance(value, (str, list, tuple)) and len(value) > 80:
        value = value[:80]
    text = repr(value) if not isinstance(value, dict) or len(value) < 10 else "a dict"
    return text if len(text) <= 80 else text[:77] + "..."


def coerce_float(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    number: float | None = None
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ValueError(f"the number is too large (the limit is ±{MAX_INT:,})")
        number = float(value)
    elif isinstance(value, float):
        number = value
    elif isinstance(value, str) and len(value) <= 100:
        try:
            number = float(value.strip())
        except ValueError:
            pass
    if number is None:
        raise ValueError(f"{_short(value)} is not a number")
    if not math.isfinite(number):
        raise ValueError(f"{_short(value)} is not a finite number")
    return number


_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y", "%B %d %Y", "%b %d %Y", "%d %B %Y", "%B %d, %Y", "%b %d, %Y")


def coerce_date(value: Any) -> str:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        text = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", value.strip())
        for fmt in _DATE_FORMATS:
            try:
                return dt.datetime.strptime(text, fmt).date().isoformat()
            except ValueError:
                continue
    raise ValueError(f"{_short(value)} is not a date (use YYYY-MM-DD)")


_TIME_RE = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*m?\.?\s*$", re.I)


def coerce_time(value: Any) -> str:
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    if isinstance(value, str):
        v = value.strip().lower()
        if v in ("noon", "midday"):
            return "12:00"
        if v == "midnight":
            return "00:00"
        m = _TIME_RE.match(v)
        if m:
            hour, minute, half = int(m.group(1)), int(m.group(2) or 0), m.group(3)
            if half == "p" and hour < 12:
                hour += 12
            if half == "a" and hour == 12:
                hour = 0
            if 0 <= hour < 24 and 0 <= minute < 60 and (half or m.group(2) is not None):
                return f"{hour:02d}:{minute:02d}"
    raise ValueError(f"{_short(value)} is not a time (use HH:MM)")


def coerce_datetime(value: Any) -> str:
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value.strip()).isoformat(timespec="minutes")
        except ValueError:
            pass
    raise ValueError(f"{_short(value)} is not a date and time (use YYYY-MM-DDTHH:MM)")


def match_enum(value: Any, field: Field) -> str:
    """Normalise `value` to one of the field's enum values, or raise ValueError."""
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise ValueError(f"{_short(value)} is not one of {field.enum_names}")
    text = str(value)
    names = field.enum_names
    for name in names:
        if name == text:
            return name
    target = _norm(text)
    for name in names:
        if _norm(name) == target:
            return name
    for ev in field.enum_values:
        if ev.description and _norm(ev.description) == target:
            return ev.value
    scored = sorted(((fuzz.ratio(_norm(n), target), n) for n in names), reverse=True)
    if scored and scored[0][0] >= 90 and (len(scored) == 1 or scored[1][0] < scored[0][0]):
        return scored[0][1]
    options = ", ".join(repr(n) for n in names)
    raise ValueError(f"{text!r} is not one of {options}")


def coerce_scalar(value: Any, ref: TypeRef, field: Field) -> Any:
    base = ref.base
    if base == "str":
        if isinstance(value, str):
            return value  # length and surrogates: check_value in coerce_value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(coerce_float(value) if isinstance(value, float) else coerce_int(value))
        if isinstance(value, bool):
            return "yes" if value else "no"
        raise ValueError(f"{_short(value)} is not text")
    if base == "int":
        return coerce_int(value)
    if base == "float":
        return coerce_float(value)
    if base in ("bool", "confirm"):
        return coerce_bool(value)
    if base == "date":
        return coerce_date(value)
    if base == "time":
        return coerce_time(value)
    if base == "datetime":
        return coerce_datetime(value)
    if base == "Enum":
        return match_enum(value, field)
    raise ValueError(f"cannot coerce to {base}")


def coerce_value(value: Any, field: Field, spec: Spec, *, worksheet: str = "") -> Any:
    """Coerce a plain (non-record) value for `field`; raise StatementError when it does not fit.

    Record references and KB rows are handled by the interpreter, not here;
    for a type-worksheet field a dict (a KB row) is accepted and kept as it is.
    """
    if value is None or value == REFUSAL:
        return value
    ref = parse_type(field.type)
    try:
        return check_value(_coerce(value, ref, field, spec), "the value")
    except ValueError as exc:
        raise StatementError(
            f"{worksheet}.{field.name}: {exc}", worksheet=worksheet, field=field.name, type=field.type
        ) from exc


def _coerce(value: Any, ref: TypeRef, field: Field, spec: Spec) -> Any:
    if ref.is_list:
        items = value if isinstance(value, (list, tuple)) else [value]
        assert ref.item is not None
        if ref.item.is_primitive:
            return [coerce_scalar(v, ref.item, field) for v in items]
        return list(items)
    if ref.is_primitive:
        return coerce_scalar(value, ref, field)
    target = spec.worksheet(ref.base)
    if target is not None and target.kind in ("type", "kb") and isinstance(value, dict):
        return dict(value)
    raise ValueError(f"{_short(value)} is not a {ref.base} (expected a record or a knowledge-base row)")


def is_empty(value: Any) -> bool:
    return value is None or value == "" or value == []
