"""A code the user could not give, given later: "don't have the ref to hand" (the field holds "NA"), then "oh wait
it's in my emails, TY-58213". The one code-shaped token of the turn goes to the one declined code field; a turn
with two such tokens, or two declined code fields, is left to the other rules."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..answering.references import shaped_reference
from ..answering.slots import shape
from ..words.negation import negations

if TYPE_CHECKING:
    from ..parser import TurnReader

_CODE = re.compile(r"(?<![\w@.-])(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*"
                   r"(?![\w@-])")
"""A token of letters and digits that starts with a letter ("TY-58213", "REF4471"): a booking's or claim's code, not a
count or a time (those start with a digit) and not an e-mail."""


NAMED_THINGS = frozenset("flight train bus reg plate postcode zip phone mobile tel order invoice model serial vin "
                         "room seat gate platform policy transit van car".split())
"""Words that say a code is the number of some other thing ("my flight is BA2491", "it's a Ford Transit T350")."""
_FOUND = re.compile(r"\b(?:found\s+it|here\s+it\s+is|got\s+it\s+(?:here|now)|just\s+found|it'?s\s+in\s+my\s+(?:e-?mails?|inbox)|"
                    r"(?:it'?s\s+)?on\s+(?:the|my)\s+(?:app|phone|card|email|letter|booking)|oh\s+wait|hang\s+on|"
                    r"(?:just\s+)?remembered)\b",
                    re.I)
"""Words that say the code declined before has been found."""


def names_another_thing(text: str, token: str) -> bool:
    """The words just before the code name another thing ("my flight is BA2490", "a Ford Transit T350", "seat A104")."""
    before = [w for w in re.findall(r"[a-z]+", text[:text.find(token)].lower())[-3:] if w not in ("is", "was", "no", "number", "num")]
    return bool(before) and before[-1] in NAMED_THINGS


def code_tokens(text: str) -> list[str]:
    """The code-shaped tokens of a turn: a letter first, three digits or more ("TY-58213", "KB-REF-7781")."""
    return [m.group(0) for m in _CODE.finditer(text) if len(re.sub(r"\D", "", m.group(0))) >= 3]


def _digits_found(text: str) -> list[str]:
    """A number of 6-12 digits as the whole answer's last word, after a cue that it was found, in a turn that asks
    nothing and says no other number ("oh wait, it's on the app! 40031457"); never a phone number ("call me on
    07700900123 instead"), a date or a count ("250000 units")."""
    m = re.search(r"(?<![\w-])(\d{6,12})[\s.!]*$", text)
    if m is None or "?" in text or len(re.findall(r"\d+", text)) != 1 or not _FOUND.search(text[:m.start()]):
        return []
    if m.group(1).startswith("0") or _CALL_ME.search(text):
        return []
    return [m.group(1)]


_CALL_ME = re.compile(r"\b(?:call|ring|text|phone|mobile|number\s+is|reach\s+me)\b", re.I)


def found_later(reader: "TurnReader", text: str) -> tuple[Any, Any, str] | None:
    """(record, field, code) when the turn gives the code of the one declined code field, else None."""
    codes = code_tokens(text) or _digits_found(text)  # "oh wait, it's on the app! 40031457"
    if len(codes) != 1 or negations(text):
        return None  # "the invoice said INV2291 but I don't think that's it": not the code
    if names_another_thing(text, codes[0]):
        return None  # "my flight is BA2490": the code of another thing
    declined = [(r, f) for r in reader.view.live_records() for f in reader.view.input_fields(r)
                if reader.view.kind_of(f) == "str" and shape(f) == "code" and r.values.get(f.name) == "NA"]
    if len(declined) != 1:
        return None
    if not _FOUND.search(text) and not shaped_reference(declined[0][1], codes[0]):
        return None  # only a code said to be found, or shaped like the field's example ("like HV-5521")
    e = reader.expect
    if e is not None and e.act == "ask" and e.field.name != declined[0][1].name and \
            reader.view.kind_of(e.field) not in ("bool", "confirm") and not (
                shape(e.field) == "text" and (_FOUND.search(text) or shaped_reference(declined[0][1], codes[0]))):
        return None  # a value asked for now ("and the policy number?"): the code is more likely its answer; not when
        # the question asks for prose and the turn says the code was found ("ah found it in my emails, HC-66104")
    return declined[0][0], declined[0][1], codes[0]


def give_found_code(reader: "TurnReader", text: str) -> bool:
    found = found_later(reader, text)
    if found is None:
        return False
    rec, f, code = found
    reader.assign("found-later", code, rec, f, code, reason="the code declined before, given now")
    reader.answered = True
    return True
