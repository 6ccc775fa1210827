"""The same again: "and CS 221 as well, same deal", "cs 234 then, same as the first one", "ditto for Maisie".

When the turn fills or is asked about a record and says it is like the one before ("same deal", "same again",
"same as before / the first / the other one / last time", "ditto"), the record's options, numbers and yes/no fields
that the turn leaves empty take the values of the latest earlier record of the same worksheet. Names, codes, dates
and free text are never copied: they are what makes the new record another one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....dialogue.state import ref_target
from ....spec.model import REFUSAL
from .proper_names import _constructed, filled_record, set_in_opening

if TYPE_CHECKING:
    from ..parser import TurnReader

SAME_DEAL = re.compile(r"\b(?:same\s+(?:deal|again|details|for\s+(?:that|this|it|them|him|her)(?:\s+one)?|"
                       r"as\s+(?:before|last\s+time|(?:the\s+)?(?:first|other|last|previous)(?:\s+one)?|that(?:\s+one)?))|"
                       r"ditto)\b", re.I)
_COPIED = ("Enum", "int", "float", "bool")


def same_deal(reader: "TurnReader", text: str) -> None:
    said = SAME_DEAL.search(text)
    if said is None or any(re.search(r"= \w+\.\w+$", line) for line in reader.lines) \
            or not re.search(r"[a-z0-9]", (text[:said.start()] + text[said.end():]).lower().replace("and", "")):
        return  # "same as the first" alone answers the question asked (read as that record's value of it)
    rec = filled_record(reader)
    if rec is None:
        _into_opening(reader, text, said)  # "book the hall again for the 13th, same deal": the record it opens
        return
    earlier = [r for r in reader.state.of_worksheet(rec.worksheet) if r.var != rec.var and r.values
               and reader.state.records.index(r) < reader.state.records.index(rec)]
    if not earlier:
        return
    source = _source(reader, earlier, text)
    assigned = {m.group(1) for line in reader.lines for m in [re.match(rf"{re.escape(rec.var)}\.(\w+) = ", line)] if m}
    for f in reader.view.input_fields(rec):
        value = source.values.get(f.name)
        if f.name in assigned or not reader.view.unfilled(rec, f) or not _copied(reader, f, value):
            continue
        reader.assign("same-as-before", said.group(0), rec, f, value,
                      reason=f"the value {source.var} holds")


def _source(reader: "TurnReader", earlier: list[Any], text: str) -> Any:
    named = [r for r in earlier if any(isinstance(v, str) and len(v) >= 3 and re.search(rf"\b{re.escape(v)}\b", text, re.I)
                                       for v in r.values.values())]
    return named[-1] if named else earlier[-1]  # "same deal as CS 101": the record that holds CS 101


def _copied(reader: "TurnReader", f: Any, value: Any) -> bool:
    return reader.view.kind_of(f) in _COPIED and value is not None and value != REFUSAL \
        and ref_target(value) is None and not isinstance(value, dict)


def _into_opening(reader: "TurnReader", text: str, said: re.Match[str]) -> None:
    for i, _line, _span, _args, ws, given in list(_constructed(reader)):
        earlier = [r for r in reader.state.of_worksheet(ws.name) if r.values]
        if not earlier:
            continue
        source = _source(reader, earlier, text)
        for f in ws.fields:
            value = source.values.get(f.name)
            if f.kind == "input" and f.name not in given and _copied(reader, f, value):
                set_in_opening(reader, i, ws.name, f.name, value, "same-as-before", said.group(0),
                               reason=f"the value {source.var} holds")
        return
