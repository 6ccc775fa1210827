"""Contact details left over: "ill collect it. Gary Firth gfirth62@hotmail.co.uk 07811 223344" to the delivery
question gives the option, and the e-mail address and the phone number to their fields.

After the rest of the turn is read, an e-mail address or a phone number no statement holds goes to the one unfilled
e-mail field or phone field of the record the turn fills or was asked about. (A name typed beside them is then read by
`given_name`.) Two such fields, or two addresses: nothing is added.
"""

from __future__ import annotations

import re

from typing import TYPE_CHECKING

from ..answering.slots import shape
from ..words.libvalues import find_phones, is_phone_field
from ..words.values import find_emails
from .proper_names import filled_record

if TYPE_CHECKING:
    from ..parser import TurnReader


def contacts_left(reader: "TurnReader", text: str) -> None:
    if not any(ch.isdigit() or ch == "@" for ch in text):
        return  # no number and no address: the phone matcher is not run on every turn
    rec = filled_record(reader, asked_alone=False)
    if rec is None:
        return
    said = " ".join(reader.lines)
    fields = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) == "str"
              and reader.view.unfilled(rec, f) and not any(line.startswith(f"{rec.var}.{f.name} = ")
                                                           for line in reader.lines)]
    for found, wanted in ((find_emails(text), lambda f: shape(f) == "email"), (find_phones(text), is_phone_field)):
        left = [s for s in found if str(s.value) not in said and not (  # "401 023 2137" read as the code asked
            re.sub(r"\D", "", str(s.value)) and re.sub(r"\D", "", str(s.value)) in re.sub(r"[^\d\n]", "", "\n".join(reader.lines)))]
        slots = [f for f in fields if wanted(f)]
        if len(left) == 1 and len(slots) == 1 and len(found) == 1:
            reader.assign("extra-value", left[0].text, rec, slots[0], left[0].value,
                          reason="contact details left over after the rest of the turn was read")
