"""Another task asked for once the one before it is over: "now I'd like to dispute a fee" after a fault report went
through, or "right, the visitor berth now" after leaving it for something else and finishing that.

The start worksheet's task option still holds the finished task, so the opening readings (which fill only empty
fields) find nothing to set. When no task below the start worksheet is active (each is completed or abandoned), the
turn is read as an opening against the start record with its task options cleared: the option it names is set
again (`main.task = "..."`), with the values the turn gives, and the engine opens that task's record.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord, ref_target
from ..words.values import WEAK_YES, yes_no
from .tasks import describe_task

if TYPE_CHECKING:
    from ..parser import TurnReader


def next_task(reader: "TurnReader", text: str) -> bool:
    """Read the turn as a new task when the one before is over; True when it named one."""
    start = reader.spec.start_worksheet()
    yn = yes_no(text)
    if reader.expect is not None or start is None or yn is not None and yn[0] and yn[1].lower() not in WEAK_YES:
        return False  # "yes please" once it is done agrees with what was done; "right, ..." only leads the turn in
    roots = [r for r in reader.state.tasks() if r.parent is None and r.worksheet == start.name and r.status == "active"]
    if len(roots) != 1:
        return False
    root = roots[0]
    others = [r for r in reader.state.tasks() if r is not root]
    if not others or any(r.status == "active" for r in others):
        return False  # nothing finished yet, or a task still in progress: the other readings are for that
    options = {k for k, v in root.values.items() if isinstance(v, str) and ref_target(v) is None
               and (f := start.field(k)) is not None and reader.view.kind_of(f) == "Enum"}
    if not options:
        return False
    cleared = TaskRecord(var=root.var, worksheet=root.worksheet,
                         values={k: v for k, v in root.values.items() if k not in options})
    lines, rules = list(reader.lines), list(reader.rules)
    if not describe_task(reader, text, rec=cleared):
        return False
    said = [line for line in reader.lines[len(lines):] if line.startswith(f"{root.var}.")]
    if not said or all(any(line == f'{root.var}.{k} = "{root.values[k]}"' for k in options) for line in said):
        reader.lines[:], reader.rules[:] = lines, rules  # the same task again: the new-task rule's (a second record)
        return False
    return True
