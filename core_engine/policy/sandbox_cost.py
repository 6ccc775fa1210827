"""The cost of one operation in spec code, counted in items and characters (not only items).

A list holding one 1,000,000-character string 1,000 times is small in memory but
costs 10^9 character steps to print or compare, inside a single step of the
sandbox's walker, where the step and time budgets cannot interrupt it. These
guards refuse such an operation before it starts (docs/reliability.md "Limits").
"""

from __future__ import annotations

from typing import Any

from ..errors import SandboxError

MAX_ITEMS = 1_000_000  # largest str/list/tuple one operation may build, and the most one operation may handle


def weight(value: Any, limit: int = MAX_ITEMS) -> int:
    """Items and characters ``value`` holds at all levels, counted until ``limit`` is passed.

    A list holding one 1,000,000-character string 1,000 times weighs 10^9: what
    printing or comparing it costs, even though it is small in memory.
    """
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v)
        elif isinstance(v, (list, tuple, set, frozenset)):
            total += len(v) + 1
            stack.extend(v)
        elif isinstance(v, dict):
            total += 2 * len(v) + 1
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, int) and not isinstance(v, bool):
            total += v.bit_length() // 64 + 1
        else:
            total += 1
        if total > limit:
            return total
    return total


def _check_weight(value: Any, what: str) -> None:
    if isinstance(value, (list, tuple, set, frozenset, dict, int)) and weight(value) > MAX_ITEMS:
        raise SandboxError(f"{what} would handle more than {MAX_ITEMS:,} items and characters at once")


def safe_str(value: Any) -> str:
    """``str()`` for spec code: refused on values whose text would exceed MAX_ITEMS."""
    if isinstance(value, str):
        return value
    _check_weight(value, "str()")
    return str(value)


def _safe_repr(value: Any) -> str:
    if not isinstance(value, str):
        _check_weight(value, "repr()")
    return repr(value)


def _safe_ascii(value: Any) -> str:
    _check_weight(value, "ascii()")
    return ascii(value)


def _safe_sorted(iterable: Any, /, *, key: Any = None, reverse: bool = False) -> list[Any]:
    _check_weight(iterable, "sorted()")
    return sorted(iterable, key=key, reverse=reverse)


MAX_STRIP_COST = 100_000_000  # text length x distinct characters for one strip(chars)


def guarded_strip(name: str) -> Any:
    """``str.strip/lstrip/rstrip(chars)``: CPython scans ``chars`` for every character it looks at,
    so 1,000,000 characters against a 1,000,000-character set took 16 s in one step."""
    method = getattr(str, name)

    def strip(_runner: Any, text: str, chars: Any = None, /) -> str:
        if isinstance(chars, str):
            chars = "".join(dict.fromkeys(chars))  # the same set of characters, each once
            if len(text) * len(chars) > MAX_STRIP_COST:
                raise SandboxError(f"{name}() of {len(text):,} characters by {len(chars):,} different ones "
                                   f"would take more than {MAX_STRIP_COST:,} steps")
        return method(text, chars)

    return strip
