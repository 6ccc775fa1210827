"""A digit string listed among other answers: "Ana Ruiz, 04417, ana@example.edu, and yes I'm a
member" to the name question. The name, the e-mail address and the yes find their fields by shape; the
bare number names no field, so it was lost. When it is a whole comma-separated part of the turn and the record has
exactly one unfilled field that takes a code (an id or reference number), it is that field's value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...dialogue.state import TaskRecord
    from ...spec.model import Field
    from ..parser import TurnReader

_DIGITS = re.compile(r"#?\s*(\d[\d -]{2,}\d)")


def listed_digits(reader: "TurnReader", text: str, rec: "TaskRecord",
                  candidates: list[tuple["TaskRecord", "Field"]], taken: set[str]) -> None:
    from .slots import shape  # late: slots imports the word helpers

    parts = [p.strip(" .!") for p in re.split(r"\s*[,;]\s*", text)]
    if len(parts) < 3:
        return  # a list of answers: three parts at least
    said = [m for p in parts for m in [_DIGITS.fullmatch(p)] if m]
    codes = [f for r, f in candidates if r.var == rec.var and f.name not in taken
             and reader.view.kind_of(f) == "str" and shape(f) == "code" and reader.view.unfilled(rec, f)]
    if len(said) != 1 or len(codes) != 1:
        return
    value = said[0].group(1)
    if any(value in line for line in reader.lines):
        return  # the number already answered something
    reader.assign("extra-value", value, rec, codes[0], value, how="a number listed among the answers")
