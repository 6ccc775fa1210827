"""An answer to the text field asked, then a question for the KB, in separate sentences: "From 77 Canal Street,
Downtown. Before we go further, do you charge extra on weekends? the 27th is a saturday". The same for a number,
date or time asked ("also 3. how many hours a week does it take?": 3, then the question).

The sentences before the first question answer the field (through the reader's own text-answer rules); the
questions are asked of the KB; sentences after the first question are remarks and answer nothing. A turn that
starts with a question ("do you charge extra? I hate surprises") is left to the other rules, except a check on
the question asked followed by the value itself ("is that the number on the front of the documents? HP-9034418"):
the value, in an unmistakable shape for the field asked, answers it, and the check needs no reply.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from ..intents import is_question, plea, sentences
from .references import shaped_reference

if TYPE_CHECKING:
    from ..parser import TurnReader


def answer_then_question(reader: "TurnReader", text: str, answer: Callable[[str], bool],
                         ask: Callable[[str], bool]) -> bool:
    """`answer`: the reader's rules for an answer to the field asked; `ask`: its rule for questions."""
    e = reader.expect
    if e is None or e.act != "ask" or reader.answered or \
            reader.view.kind_of(e.field) not in ("str", "int", "float", "date", "time"):
        return False
    parts = sentences(text)
    first = next((i for i, p in enumerate(parts) if is_question(p)), None)
    dashed = re.match(r"\s*(?P<told>[^?]+?)\s+[-–—]+\s+(?P<asked>.+)$", parts[0]) if first == 0 else None
    if dashed and re.match(r"\W*(?:no|nope|wait|sorry|oops|actually|hang\s+on|hold\s+on|scratch|not)\b", dashed.group("asked"), re.I):
        dashed = None  # "07700 900123 - no wait, that's my old number": taken back
    if dashed and reader.answers.strong_value(e.field, dashed.group("told")) is not None:
        parts, first = [dashed.group("told"), dashed.group("asked"), *parts[1:]], 1  # "07912 345678 - will someone
        # come out today?": the value asked for, then a question after a dash
    if first == 0:
        return _checked_then_given(reader, parts, answer)
    if not first:  # no question
        return False
    told = parts[:first]
    asked = [p for p in parts[first:] if is_question(p)]
    if not asked or any(plea(p) for p in asked):
        return False
    before = len(reader.lines)
    if not answer(" ".join(told)) or len(reader.lines) == before:
        reader.answered = False
        return False
    ask(" ".join(asked))
    return True


_CHECK = re.compile(r"^\W*(?:(?:oh|um+|hmm+|so|ok(?:ay)?|sorry)[,\s]+)*(?:is|was|do\s+you\s+mean|you\s+mean|does\s+that\s+mean|"
                    r"is\s+that|would\s+that\s+be|the\s+one)\b.*\b(?:that|it|this|one)\b", re.I)
"""A yes/no check on what is asked ("is that the number on the front?", "do you mean the long one?")."""


def _checked_then_given(reader: "TurnReader", parts: list[str], answer: Callable[[str], bool]) -> bool:
    """A check on the question asked, then the value itself in the last sentence: the value answers."""
    e = reader.expect
    if len(parts) != 2 or not _CHECK.match(parts[0]) or is_question(parts[1]) or e is None \
            or reader.view.kind_of(e.field) != "str" or (reader.answers.strong_value(e.field, parts[1]) is None
                                                          and not shaped_reference(e.field, parts[1])):
        return False
    before = len(reader.lines)
    if not answer(parts[1]) or len(reader.lines) == before:
        reader.answered = False
        return False
    return True
