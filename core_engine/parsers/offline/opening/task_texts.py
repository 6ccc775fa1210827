"""The words the developer used to describe a task: what asks for the task, not what to search for.

"I wanna rent a convertible for the weekend" opens a reservation whose option is taught with "I'd like to
rent a car" and "I need a car for next weekend": "rent" and "weekend" say which task, so the row search
keeps "convertible" only. The texts are the worksheet's examples and those of the enum values its
predicate requires (`task == "Reserve Car"`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....spec.model import Worksheet
from ..words.match import content_stems, equalities

if TYPE_CHECKING:
    from ..parser import TurnReader


def task_text_stems(reader: "TurnReader", ws: Worksheet) -> set[str]:
    """Stems of the developer's examples of the worksheet and of the enum values that open it (the examples say
    how users ask for the task; descriptions also name the rows, "a table at a restaurant")."""
    texts = [*ws.examples] + [t for ev in _openers(reader, ws) for t in ev.examples]
    return {s for t in texts if t for s in content_stems(t)}


def opener_stems(reader: "TurnReader", ws: Worksheet) -> set[str]:
    """Stems of the descriptions and examples of the enum values that open the worksheet ("move or cancel a
    lesson that is already booked"): the words a user chose the task by."""
    texts = [t for ev in _openers(reader, ws) for t in (ev.description, *ev.examples)]
    return {s for t in texts if t for s in content_stems(t)}


def _openers(reader: "TurnReader", ws: Worksheet) -> list:
    wanted = {(path[-1], value) for path, value in equalities(ws.predicate) if isinstance(value, str)}
    return [ev for other in reader.spec.worksheets for f in other.fields for ev in f.enum_values
            if (f.name, ev.value) in wanted]
