"""Optional fields declined in passing, by name: "07700 900118. no email thanks, just text me", "marta@kowal.studio,
nothing to set up", "Hannah Cole, hannah@x.com. dont need anything set up".

The declined words must name an optional, unfilled input field of the record the turn answers or fills (a word of
the field's name, or the first words of its description); that field is declined ("NA", as a refusal of an
optional question is). A required field is never declined this way (the agent still needs it), and a field the turn
already gave a value is left alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import REFUSAL
from ..words.match import content_stems, field_stems, stem

if TYPE_CHECKING:
    from ..parser import TurnReader

_DECLINED = re.compile(
    r"\b(?:no|nothing|none|(?:i\s+)?(?:don'?t|do\s+not|won'?t)\s+need\s+(?:any(?:thing)?|a|an|the)?|"
    r"no\s+need\s+(?:for|to)(?:\s+(?:a|an|any|the))?|not\s+(?:bothered|fussed)\s+about(?:\s+(?:a|an|any|the))?|"
    r"skip\s+the)\s+(?:to\s+)?(?P<what>[a-z]+(?:[\s-]+[a-z]+)?)", re.I)


def declined_optional(reader: "TurnReader", text: str) -> None:
    if not reader.lines:
        return  # only beside something the turn gave: alone, "no email" answers a question and is read there
    from ..parts.proper_names import focus_records  # late: parts import the answering rules
    for rec in focus_records(reader):
        taken = {line.split(" = ")[0].split(".", 1)[1] for line in reader.lines if line.startswith(f"{rec.var}.")}
        fields = [f for f in reader.view.input_fields(rec) if not f.required and f.name not in taken
                  and reader.view.kind_of(f) in ("str", "list") and reader.view.unfilled(rec, f)]
        for m in _DECLINED.finditer(text):
            said = content_stems(m.group("what").replace("-", " "))
            if not said:
                continue
            named = [f for f in fields if _names(f, said)]
            if len(named) == 1:
                reader.assign("declined-optional", m.group(0), rec, named[0], REFUSAL,
                              reason="an optional field declined by name beside the answer")
                fields.remove(named[0])


def _names(f: Any, said: list[str]) -> bool:
    """The declined words name the field: its name's words ("email"), or its description's first words ("set up"
    for "Anything we should set up")."""
    name = {stem(w) for w in f.name.split("_") if w}
    joined = stem("".join(f.name.split("_")))
    if said[0] in name or stem("".join(said)) in name | {joined}:
        return True
    return bool(set(said) & field_stems(f, with_description=False)) or (
        len(said) >= 1 and said[0] in set(content_stems(" ".join(f.description.split()[:6]))))
