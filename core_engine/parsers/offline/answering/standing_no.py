"""A go-ahead after the user held a summary back: "hmm don't book it yet, I need to ask my
partner" answered the summary no; the agent said it had not done it. A later "ok he's happy, go ahead" or "ok fine,
submit it anyway" is a yes to that summary (the one the user saw: the interpreter takes a yes to a standing no).
The turn must say to do it (`_DO_IT` in its last clause: "go ahead", "submit it", "book it"); a bare "yes" is not
enough here, since nothing was asked. Exactly one live record holds such a no; nothing in the turn negates,
asks or gives a value of the live records.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..intents import is_question, sentences
from ..words.negation import negations

if TYPE_CHECKING:
    from ..parser import TurnReader


def go_ahead_after_no(reader: "TurnReader", text: str) -> bool:
    from ..parser import _DO_IT  # late: the parser imports this module

    if reader.expect is not None or reader.answered or negations(text) or is_question(text):
        return False
    held = [(rec, f) for rec in reader.view.live_records() for f in reader.view.input_fields(rec)
            if reader.view.kind_of(f) == "confirm" and rec.values.get(f.name) is False and f.name in rec.confirmed]
    if len(held) != 1:
        return False
    parts = sentences(text) or [text]
    clauses = [c for c in re.split(r"\s*[,;]\s*|\s+-+\s+", parts[-1]) if c.strip(" .!")]
    if not clauses or not _DO_IT.match(clauses[-1]) or reader.would_change(text):
        return False
    rec, f = held[0]
    reader.assign("confirm-after-no", clauses[-1], rec, f, True, confirm_field=True,
                  reason="the summary the user held back, now to be done")
    reader.answered = True
    return True
