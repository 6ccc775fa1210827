"""A doubt, then a value floated after it: "umm not sure yet... maybe BK 210?", "no idea, probably
around 3?". The doubt ("not sure", "don't know", "no idea") would read as a refusal and store "NA", a wrong value:
the user did give one. A hedge ("maybe", "perhaps", "probably", "I think", "I guess") that opens a later clause
of the turn offers the value; the clause after it is read as the answer to the question asked, through the
reader's own answer rules. When that clause gives no value of the field asked, the doubt is a refusal as before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...dialogue.state import TaskRecord
    from ...spec.model import Field
    from ..parser import TurnReader

_HEDGE = re.compile(r"(?:^|[,.;:!?]+\s*|\s+-+\s+|\s+(?:but|so)\s+)(?:(?:but|so|then|and)\s+)?"
                    r"(?:maybe|perhaps|probably|prob|possibly|i\s+think|i\s+guess|i'd\s+guess|i'd\s+say)"
                    r"(?:\s+(?:it's|its|it\s+is|it\s+was))?[\s,]+(?P<value>\S.*)$", re.I)

_HEDGE_AFTER = re.compile(r"(?:^|[,.;:!?]+\s*|\s+-+\s+|\s+(?:but|so)\s+)(?:(?:but|so|then|and)\s+)?"
                          r"(?P<value>\S[^,.;:!?]*?)[\s,]+(?:maybe|perhaps|probably|possibly|i\s+think|i\s+guess|"
                          r"i\s+suppose)[\s?!.]*$", re.I)
"""The value floated with its hedge after it: "not sure about that yet. GX 210 maybe?"."""

_NO_VALUE = re.compile(r"(?:you|i|we|they|he|she|it|ask|check|call|look|let|later|another|next|some\s+other)\b", re.I)
"""What follows a hedge that is no value: "maybe you can tell me", "maybe later", "maybe ask my wife"."""


def hedged_value(reader: "TurnReader", text: str, words: str, rec: "TaskRecord", f: "Field") -> bool:
    """The value floated after a doubt answers the field asked (`rec.f`, the refusal's target); False when
    nothing after the doubt reads as that field's value (the reader's state is then as it was)."""
    e = reader.expect
    if e is None or e.act != "ask" or (e.rec, e.field) != (rec, f) or reader.answered:
        return False
    at = text.lower().find(words.lower())
    if at < 0:
        return False
    m = _HEDGE.search(text[at + len(words):]) or _HEDGE_AFTER.search(text[at + len(words):])
    if m is None:
        return False
    value = m.group("value").strip().rstrip("?!. ").strip()
    if not value or len(value.split()) > 6 or _NO_VALUE.match(value):
        return False
    if reader.view.kind_of(f) == "str" and not re.search(r"[\dA-Z@]", value):
        return False  # a text field takes a floated value only with a shape: a code, a number, a capitalised name
    lines, rules = list(reader.lines), list(reader.rules)
    if (reader._typed_answer(value) or reader._str_answer(value)) and \
            any(r.get("statement") for r in reader.rules[len(rules):]):
        reader.note("hedged-value", text, reason="a value floated after a doubt answers the question asked",
                    doubt=words, value=value)
        return True
    reader.lines[:], reader.rules[:] = lines, rules
    reader.answered = False
    return False


def floated_range(reader: "TurnReader", text: str, words: str, rec: "TaskRecord", f: "Field") -> bool:
    """A doubt, then two or more numbers for the number field asked, none settled on ("no idea, could be 3 grand,
    could be 6" to the repair cost, "no idea, 200 or 300"): no value and no refusal (the user did guess); the
    agent asks again."""
    from ..words.answers import SETTLED_BEFORE, TOTAL_AFTER  # late: answers imports the parser's helpers
    from ..words.values import find_numbers

    e = reader.expect
    if e is None or e.act != "ask" or (e.rec, e.field) != (rec, f) or reader.answered \
            or reader.view.kind_of(f) not in ("int", "float"):
        return False
    at = text.lower().find(words.lower())
    after = text[at + len(words):] if at >= 0 else ""
    numbers = find_numbers(after)
    if len(numbers) < 2 or any(SETTLED_BEFORE.search(after[:n.start]) for n in numbers[1:]) \
            or any(TOTAL_AFTER.match(after[n.end:]) for n in numbers):
        return False
    reader.note("hedged-range", text, doubt=words, values=[n.value for n in numbers],
                reason="several guesses after a doubt: no value is taken; the question is asked again")
    reader.answered = True
    return True
