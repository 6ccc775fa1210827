"""Values an opening tells about the record nested in the task it opens, when their shape is unmistakable.

"I'd like to give blood for the first time": a yes/no field of the nested donor whose name words are said in a
first-person clause ("first time"); "an exterior wash for the Yaris, reg BK66 LMN": a text field of the nested
vehicle whose example ("like KT19 WRX") the token fits; "... on the flight from Rome": a place after the preposition
the nested field's description ends with (`answering/places.py`); and (`nested_date`) the turn's one date for the one
date field of a nested record it gave other values to ("Flight MD 355 from Edinburgh last night"). Only these: a nested record's free text or numbers are
left for the agent to ask, since the opening gives no question they answer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ....spec.model import Worksheet, parse_type
from ..answering.bool_mentions import bool_mentions
from ..answering.places import place_preposition, place_spans
from ..answering.references import shaped_reference
from .nested_names import put_nested
from .tasks import literal

if TYPE_CHECKING:
    from ..parser import TurnReader


def nested_values(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """Write such values into the nested records' constructors in `kwargs`; return the words read."""
    read = []
    for holder in ws.fields:
        sub = reader.spec.worksheet(parse_type(holder.type).worksheet or "") if holder.kind == "input" else None
        if sub is None or sub.kind != "task" or sub.name == ws.name:
            continue
        said = kwargs.get(holder.name, "")
        if said and not said.startswith(f"{sub.name}("):
            continue  # the holder already has another value (a row, a reference)
        todo = [f for f in sub.fields if f.kind == "input" and not re.search(rf"\b{re.escape(f.name)}=", said)]
        ghost = TaskRecord(var="_", worksheet=sub.name)
        flags = [(ghost, f) for f in todo if reader.view.kind_of(f) == "bool"]
        for m in bool_mentions(text, flags, reader.view, set()) if flags else []:
            put_nested(kwargs, holder.name, sub, m.field.name, literal(m.value))
            read.append(m.matched)
        for f in todo:
            value = shaped_reference(f, text) if reader.view.kind_of(f) == "str" else None
            if value:
                put_nested(kwargs, holder.name, sub, f.name, literal(value))
                read.append(value)
        places = [(f, word) for f in todo if reader.view.kind_of(f) == "str" and (word := place_preposition(f))]
        for f, word in places if len({w for _f, w in places}) == len(places) else []:
            said = place_spans(text, word)
            if len(said) == 1:  # "my luggage didn't arrive on the flight from Rome": "The city ... you flew in from"
                put_nested(kwargs, holder.name, sub, f.name, literal(said[0].value))
                read.append(said[0].text)
    return " ".join(read) or None


_BARE_WEEKDAY = re.compile(r"^(?:on\s+|this\s+|next\s+|last\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)"
                           r"(?:day)?$", re.I)


def nested_date(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """ "Flight MD 355 from Edinburgh last night": the one date of the turn for the one date field of the nested record
    the turn already gave values to, when the task itself has no date field. Not a weekday alone ("on Saturday": the
    last one or the next?), and not when the turn says several dates."""
    from ..words.values import find_dates  # late: a rare path
    from ....spec.model import past_field
    if any(f.kind == "input" and reader.view.kind_of(f) in ("date", "datetime") for f in ws.fields):
        return None
    for holder in ws.fields:
        sub = reader.spec.worksheet(parse_type(holder.type).worksheet or "") if holder.kind == "input" else None
        said = kwargs.get(holder.name, "")
        if sub is None or sub.kind != "task" or not said.startswith(f"{sub.name}(") or said == f"{sub.name}()":
            continue
        dates = [f for f in sub.fields if f.kind == "input" and reader.view.kind_of(f) == "date"]
        if len(dates) != 1 or re.search(rf"\b{re.escape(dates[0].name)}=", said):
            continue
        found = find_dates(text, reader.today, past=past_field(dates[0]))
        if len(found) == 1 and not _BARE_WEEKDAY.match(found[0].text.strip()):
            put_nested(kwargs, holder.name, sub, dates[0].name, literal(found[0].value))
            return found[0].text
    return None
