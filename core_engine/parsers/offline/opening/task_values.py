"""A task told by its values alone: "my wife and I plus our 3 kids want to eat at X on thursday the 22nd".

No task is named, and no other rule read the turn, but the values said fit two or more typed fields (a date, a
time, a count, an amount) of exactly one top-level task worksheet that is not in progress: that task is opened
with them, as if it had been named (the rest of the turn is read by the task's own opening: a KB row said, a
search). One field, or two worksheets that fit as well, is not enough: the turn is not guessed at. A request put as a
question ("could i have rivet on the 21st at 2pm, for an hour?") counts too: it asks for the task, not about the KB.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ..intents import is_question
from .tasks import without_searches
from ..answering.slots import find_mentions
from ..parts.time_range import range_fields

if TYPE_CHECKING:
    from ..parser import TurnReader

_TYPED = ("date", "time", "datetime", "int", "float")


def task_by_values(reader: "TurnReader", text: str, *, request: bool = False) -> bool:
    """`request`: the turn is a request put as a question ("can i grab the boardroom tmrw from 10 for 2 hrs?"),
    which may open a task by its values as a statement does."""
    from ..words.semantic import apply_reading, current_task  # late: semantic imports the task rules
    from ..words.semantic_index import Entry, Ranked

    if reader.lines or (is_question(text) and not request):
        return False
    current = current_task(reader)
    start = reader.spec.start_worksheet()
    if current is not None and (start is None or current.worksheet != start.name):
        return False  # a task is in progress: its own rules read its values
    nested = reader.spec.nested_worksheet_names()
    fits = []
    for ws in reader.spec.task_worksheets():
        if ws.name in nested or (start is not None and ws.name == start.name) \
                or any(r.status == "active" for r in reader.state.of_worksheet(ws.name)):
            continue
        ghost = TaskRecord(var="_", worksheet=ws.name)
        candidates = [(ghost, f) for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) in _TYPED]
        said = {m.field.name for m in find_mentions(text, candidates, reader.view, reader.today)}
        said |= set(range_fields(reader, [f for f in ws.fields if f.kind == "input"], text))  # "2 till 4"
        if len(said) >= 2:
            fits.append((ws, sorted(said)))
    if len(fits) != 1:
        return False
    ws, said = fits[0]
    before = len(reader.rules)
    if not apply_reading(reader, Ranked(Entry("task", ws.name), 1.0, ", ".join(said), None, 0.0), text,
                         "task-by-values"):
        return False
    named_kb = bool(reader.ctx.kb is not None and reader.vocabulary.found_in(text, reader.ctx.kb))
    for r in reader.rules[before:]:
        for key in ("score", "runner_up", "runner_up_score"):
            r.pop(key, None)
        r["reason"] = f"no task was named, but the values said fit {ws.name}'s fields: {', '.join(said)}"
        if r.get("statement") and not named_kb:  # "we're organising a team lunch" names nothing to search for
            r["statement"] = without_searches(r["statement"])
    reader.lines = [r["statement"] for r in reader.rules if r.get("statement")]
    return True

