"""A new value for a filled field, told by its example's shape: "sorry, the reference is BD-55109, I mixed up the
numbers" at the summary replaces the reference ("like BD-48213") given before. Only when the shape fits exactly one
filled field of the live records and the value differs; a field being asked is an answer, read elsewhere. A field the
user could not give ("NA") takes it too: "ok got it!! HCA-30551" after "I don't have the reference" is the value found
later, unprompted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..answering.references import shaped_reference
from ..words.values import find_postcodes

if TYPE_CHECKING:
    from ..parser import TurnReader


def shaped_correction(reader: "TurnReader", text: str) -> bool:
    asked = (reader.expect.rec.var, reader.expect.field.name) if reader.expect and reader.expect.act == "ask" else None
    found = [(rec, f, value) for rec in reader.view.live_records() for f in reader.view.input_fields(rec)
             if reader.view.kind_of(f) == "str" and isinstance(rec.values.get(f.name), str)
             and (rec.var, f.name) != asked
             for value in [shaped_reference(f, text)] if value]
    if len(found) != 1 or found[0][2] == found[0][0].values.get(found[0][1].name):
        return False
    e = reader.expect
    if e is not None and e.act == "ask" and e.rec.var != found[0][0].var and any(
            reader.view.kind_of(g) == "str" and reader.view.unfilled(e.rec, g) and shaped_reference(g, text)
            for g in reader.view.input_fields(e.rec)):
        return False  # the second address's postcode, while that address is asked: its own field, not a correction
    rec, f, value = found[0]
    if any(str(value).replace(" ", "").upper() in str(p.value).replace(" ", "").upper() for p in find_postcodes(text)):
        return False  # "Sheffield S3 8AX": the half of a postcode, not a size like "A5"
    reader.assign("correction-shaped", value, rec, f, value, **({"was": "NA"} if rec.values.get(f.name) == "NA" else {}))
    reader.answered = True
    return True
