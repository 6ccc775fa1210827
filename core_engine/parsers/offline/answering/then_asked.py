"""An answer to the text field asked, then a question for the KB, in separate sentences: "From 77 Canal Street,
Downtown. Before we go further, do you charge extra on weekends? the 27th is a saturday". The same for a number,
date or time asked ("also 3. how many hours a week does it take?": 3, then the question).

The sentences before the first question answer the field (through the reader's own text-answer rules); the
questions are asked of the KB; sentences after the first question are remarks and answer nothing. A turn that
starts with a question ("do you charge extra? I hate surprises") is left to the other rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..intents import is_question, plea, sentences

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
    if not first:  # no question, or the turn starts with one
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
