"""One constructor per record a turn opens: two rules that each open the same record ("ok, book the Medicated
Bath for my dog Rocky" is a proposal accepted and a task described) give one statement with the values of both.

Two statements `x = W(...)` for the same `x` and `W` were read as two records, and the turn's reading was counted
wrong though each value was right. The later statement's value wins where both give a field.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..parser import TurnReader

_CONSTRUCTOR = re.compile(r"^(?P<target>[\w.\[\]]+) = (?P<ws>[A-Z]\w*)\((?P<args>.*)\)$", re.S)


def _kwargs(args: str) -> dict[str, str] | None:
    """`a="x, y", b=W(c=1)` as {"a": '"x, y"', "b": "W(c=1)"}; None when the text is not such a list."""
    out: dict[str, str] = {}
    depth, quote, start, escaped = 0, "", 0, False
    parts = []
    for i, ch in enumerate(args):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(args[start:i])
            start = i + 1
    parts.append(args[start:])
    for part in (p.strip() for p in parts):
        if not part:
            continue
        m = re.match(r"^(\w+)=(.+)$", part, re.S)
        if m is None:
            return None
        out[m.group(1)] = m.group(2)
    return out


def one_constructor(reader: "TurnReader") -> None:
    first: dict[tuple[str, str], int] = {}
    for i, line in enumerate(list(reader.lines)):
        m = _CONSTRUCTOR.match(line)
        if m is None:
            continue
        key = (m.group("target"), m.group("ws"))
        if key not in first:
            first[key] = i
            continue
        j = first[key]
        earlier = _CONSTRUCTOR.match(reader.lines[j])
        old, new = _kwargs(earlier.group("args")) if earlier else None, _kwargs(m.group("args"))
        if old is None or new is None:
            continue
        merged = {**old, **new}
        joined = f"{key[0]} = {key[1]}({', '.join(f'{k}={v}' for k, v in merged.items())})"
        _restate(reader, reader.lines[j], joined, line)
        reader.lines[j] = joined
        reader.lines[i] = ""
    reader.lines = [line for line in reader.lines if line]


def _restate(reader: "TurnReader", kept: str, joined: str, dropped: str) -> None:
    for r in reader.rules:
        if r.get("statement") == kept:
            r["statement"] = joined
        elif r.get("statement") == dropped:
            r["statement"] = None
            r["merged"] = "its values went into the statement that opens the same record"
