"""Values an opening tells about the record nested in the task it opens, when their shape is unmistakable.

"I'd like to give blood for the first time": a yes/no field of the nested donor whose name words are said in a
first-person clause ("first time"); "an exterior wash for the Yaris, reg BK66 LMN": a text field of the nested
vehicle whose example ("like KT19 WRX") the token fits. Only these: a nested record's free text or numbers are
left for the agent to ask, since the opening gives no question they answer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ....spec.model import Worksheet, parse_type
from ..answering.bool_mentions import bool_mentions
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
    return " ".join(read) or None
