"""An option named by a preposition and another field's value: "a taxi to Gatwick" is "To the Airport", "picking me
up from Heathrow" is "From the Airport", when the record's airport field holds Gatwick or Heathrow.

An option field whose options are a preposition and a noun ("To the Airport", "From the Airport", "At the Venue")
where the noun names another field of the record: the turn that says one of those prepositions right before that
field's value (given in the turn or held) chooses the option, even over another reading of the turn ("pick up 4:45am
from 12 Orchard Close" says "from" of an address, not of the airport). Two options said so, or none: nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..words.match import stem
from .proper_names import _constructed, set_in_opening

if TYPE_CHECKING:
    from ..parser import TurnReader

_OPTION = re.compile(r"^(to|from|at|into|in|on|off|out\s+of)\s+(?:the\s+|a\s+|an\s+|my\s+|your\s+|our\s+)?([a-z]+)$", re.I)


def options_by_preposition(reader: "TurnReader", text: str) -> None:
    for i, _line, _span, args, ws, _given in list(_constructed(reader)):
        given = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', args))
        for f, value in _chosen(ws, given, text):
            if given.get(f.name) != value:
                set_in_opening(reader, i, ws.name, f.name, value, "option-by-preposition", value,
                               reason="the preposition said before the value of the field the option names")
    e = reader.expect
    if e is None or not reader.view.record_live(e.rec):
        return
    ws = reader.view.worksheet(e.rec)
    given = {k: str(v) for k, v in e.rec.values.items() if isinstance(v, str)}
    for line in reader.lines:
        m = re.match(rf'{re.escape(e.rec.var)}\.(\w+) = "((?:[^"\\]|\\.)*)"$', line)
        if m:
            given[m.group(1)] = m.group(2)
    for f, value in _chosen(ws, given, text):
        if given.get(f.name) != value and not any(line.startswith(f"{e.rec.var}.{f.name} = ") for line in reader.lines):
            reader.assign("option-by-preposition", value, e.rec, f, value)


def _chosen(ws: Any, given: dict[str, str], text: str) -> list[tuple[Any, str]]:
    out = []
    for f in ws.fields:
        if f.kind != "input" or f.type != "Enum" or len(f.enum_values) < 2:
            continue
        parsed = [(ev.value, _OPTION.match(ev.value.strip())) for ev in f.enum_values]
        if not all(m for _v, m in parsed) or len({m.group(1).lower() for _v, m in parsed}) < 2:
            continue
        said = []
        for value, m in parsed:
            noun = stem(m.group(2).lower())
            names = [g for g in ws.fields if g is not f and noun in {stem(w) for w in g.name.lower().split("_")}]
            values = [given[g.name] for g in names if given.get(g.name)]
            if not values:
                continue
            prep = r"\s+".join(m.group(1).lower().split())
            things = "|".join(re.escape(v) for v in values)
            if re.search(rf"\b{prep}\s+(?:the\s+)?(?:{things})\b", text, re.I):
                said.append(value)
        if len(said) == 1:
            out.append((f, said[0]))
    return out
