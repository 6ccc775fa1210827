"""A task the user tells as already done is not the task asked for.

"any news on my bag?? I reported it missing yesterday" reads nearest Report Bag by meaning (0.62), but "I reported
it" says that task was done: the user wants another one (checking the report). The verb of each task option (the
first word of "Report Bag", "Check Claim Status", ...) said in the past by the user ("I reported", "we've already
booked", "reported it 2 days ago" at the start of a clause), or its thing said as had already ("we already have a
booking there", "I already have nutcracker tickets"), not negated, leaves that task and its options out of
the reading by meaning; the best other reading is taken at the usual thresholds. When a clause asks for something
("I just want to claim back what I bought"), the reading is that clause's: the clause that tells what was done names
the old task's words, not the new one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..kb_rows.requests import TAKING
from ..words.semantic_index import Entry, Ranked

if TYPE_CHECKING:
    from ..parser import TurnReader

_WANTS = re.compile(r"\b(?:need|want|would\s+like|'d\s+like|looking\s+for|(?:can|could|may)\s+(?:i|we|you)|any\s+news|"
                    r"what'?s\s+happening|where'?s|where\s+is|has\s+it|have\s+you)\b", re.I)
_CLAUSES = re.compile(r"[.,;!?]+\s*|\s+(?:but|so)\s+", re.I)


def _past(verb: str) -> str:
    """ "report" -> "reported", "file" -> "filed", "stop" -> "stopped" (as a pattern: both doublings allowed)."""
    if verb.endswith("e"):
        return re.escape(verb) + "d"
    if re.search(r"[^aeiou][aeiou][bdgklmnprt]$", verb):
        return re.escape(verb) + verb[-1] + "?ed"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return re.escape(verb[:-1]) + "ied"
    return re.escape(verb) + "ed"


def done_tasks(reader: "TurnReader") -> dict[str, str]:
    """start option -> the pattern of its verb told as done ("I (already) reported", a clause that starts with it)."""
    start = reader.spec.start_worksheet()
    out: dict[str, str] = {}
    if start is None:
        return out
    for f in start.fields:
        if f.kind != "input" or f.type != "Enum":
            continue
        for ev in f.enum_values:
            words = re.findall(r"[A-Za-z]+", ev.value)
            if words and len(words[0]) >= 3:
                verb = words[0].lower()
                out[ev.value] = (rf"(?:(?:^|[.!?,;]\s*)(?:and\s+|but\s+|already\s+)?|\b(?:i|we)\s+(?:have\s+|'ve\s+|had\s+|"
                                 rf"'d\s+)?(?:already\s+|just\s+)?|\balready\s+){_past(verb)}\b")
                if verb in TAKING:  # "we already have a booking there, I just need to change the time of it", "I
                    # already have nutcracker tickets, I need to refund them"; never for an option that acts on a thing
                    # held ("Move Booking"), and only with a word of changing it (`_CHANGING`): "we already have a
                    # booking for friday, I'd like another table for sunday" asks for another booking
                    things = [re.escape(verb[:-1] if verb.endswith("e") else verb) + "ing"]
                    things += [re.escape(w.lower()) for w in words[1:] if len(w) >= 4]
                    out[ev.value] = (rf"(?:{out[ev.value]}|\b(?:i|we)\s*(?:'ve\s+got|\s+have|\s+had)?\s*already\s+"
                                     rf"(?:have|got|had|made|placed)\s+(?:[\w']+\s+){{0,3}}?(?:{'|'.join(things)})s?\b|"
                                     rf"\b(?:i|we)(?:'ve|\s+have)?\s+(?:already\s+)?got\s+(?:[\w']+\s+){{0,2}}?"
                                     rf"{_past(verb)}\b)")  # "I've already got one booked, I just need to move it"
    return out


_CHANGING = re.compile(r"\b(?:change|changing|move|moving|cancel|reschedule|rearrange|amend|refund|swap|switch|update|fix|"
                       r"correct|sooner|earlier|later|add|remove|extend|shorten|instead\s+of)\b", re.I)
_HAD_ALREADY = re.compile(r"\balready\s+(?:have|got|had|made|placed)\b|\bgot\s+(?:[\w']+\s+){0,2}?\w+ed\b", re.I)


def told_done(reader: "TurnReader", text: str) -> set[str]:
    """The start options whose verb the turn tells as done (never under a negation: "I haven't reported it")."""
    said = set()
    for value, pattern in done_tasks(reader).items():
        for m in re.finditer(pattern, text, re.I):
            if _HAD_ALREADY.search(m.group(0)) and not _CHANGING.search(text[m.end():]):
                continue  # "we already have a booking for friday, I'd like another table": no change of it asked
            if not re.search(r"\b(?:not|never)\s+(?:\w+\s+)?$|n't\s+(?:\w+\s+)?$", text[:m.end()].rsplit(" ", 1)[0] + " ",
                             re.I):
                said.add(value)
    return said


def _option_field(reader: "TurnReader", done: set[str]):
    start = reader.spec.start_worksheet()
    if start is None:
        return None, None
    return start, next((f for f in start.fields if f.type == "Enum" and any(ev.value in done for ev in f.enum_values)),
                       None)


_BEFORE = re.compile(r"\b(?:already|existing|earlier|previous|previously|before)\b", re.I)


def other_task(reader: "TurnReader", text: str, done: set[str]) -> tuple[str, str] | None:
    """(the start option meant instead, how): the one other option whose verb a clause that asks for something says
    ("I just want to claim back what I bought": "claim" of Claim Expenses); else, when no clause asks for another
    option's verb, the one other option whose texts speak of the done task's thing as done before ("check on a
    baggage report that was already filed" after "I reported it"). None when not exactly one."""
    from ..words.match import content_stems, stem  # late: keeps this module's imports light
    start, field = _option_field(reader, done)
    if field is None:
        return None
    patterns = done_tasks(reader)
    clauses = [c for c in _CLAUSES.split(text) if c.strip()]
    asking = [c for c in clauses if _WANTS.search(c) and not any(re.search(patterns[v], c, re.I) for v in done)]
    others = [ev for ev in field.enum_values if ev.value not in done]
    verbs = {ev.value: stem(re.findall(r"[A-Za-z]+", ev.value)[0].lower()) for ev in others
             if re.findall(r"[A-Za-z]+", ev.value)}
    said = {v for c in asking for v, verb in verbs.items() if verb in set(content_stems(c))}
    if len(said) == 1:
        return said.pop(), "verb asked"
    if said:
        return None
    done_verbs = {stem(re.findall(r"[A-Za-z]+", v)[0].lower()) for v in done}
    follow = [ev.value for ev in others
              for texts in [" ".join([ev.description or "", *ev.examples])]
              if _BEFORE.search(texts) and done_verbs & {stem(w) for w in re.findall(r"[a-z]+", texts.lower())}]
    meant = _asked_by_meaning(reader, " ".join(asking), field, done) if asking else None
    if meant is not None and (not follow or meant[0] in follow or _CHANGING.search(" ".join(asking))):
        return meant  # "I've already got one booked, I just need to change the time of it": what the clause asks,
        # by meaning (Move Booking), over the one option whose text speaks of a booking made before (Cancel Booking)
    if len(follow) == 1:
        return follow[0], "follows the task done"
    return None


def _asked_by_meaning(reader: "TurnReader", asked: str, field, done: set[str]) -> tuple[str, str] | None:
    """ "I already dropped it off last week, I just want to know if it's done yet": no other option's verb is said,
    so the clauses that ask are read by meaning among the other options. The task told as done is out already, so
    a weaker reading is taken when no other comes near it (0.25, with twice the usual margin)."""
    from ..words.semantic import index  # late: semantic imports the opening modules
    from ..words.semantic_index import TASK_MARGIN
    ranked = index(reader).rank(asked, lambda e: e.kind == "enum" and e.field == field.name and e.value not in done)
    if ranked.best is None or not ranked.decided(_ASKED_THRESHOLD, 2 * TASK_MARGIN):
        return None
    return str(ranked.best.value), "asked by meaning"


_ASKED_THRESHOLD = 0.25


def told_done_task(reader: "TurnReader", text: str, current_option: str | None = None) -> bool:
    """Open the other task when the turn tells a task as done: in an opening, or, with `current_option` (the option
    of the task in progress) among those told done, as a switch away from it ("oh wait no, I already reported it
    last night, I just want to claim back what I bought": exitws of the report, then Claim Expenses)."""
    from ..words.semantic import apply_reading, current_task  # late: semantic imports the opening modules
    done = told_done(reader, text)
    if not done or (current_option is not None and current_option not in done):
        return False
    found = other_task(reader, text, done)
    start, field = _option_field(reader, done)
    if found is None or field is None:
        return False
    value, how = found
    lines, rules = list(reader.lines), list(reader.rules)
    if current_option is not None:
        current = current_task(reader)
        if current is None:
            return False
        reader.emit("switch-task", text, f"exitws({current.var})", done=sorted(done), how=how)
    ranked = Ranked(Entry("enum", start.name, field.name, value), 1.0, how, None, 0.0)
    if not apply_reading(reader, ranked, text, "switch-task" if current_option is not None else "task-told-done"):
        reader.lines, reader.rules = lines, rules
        return False
    empty = [i for i, r in enumerate(reader.rules) if i >= len(rules) and r.get("statement")
             and re.fullmatch(r"\w+ = \w+\(\)", r["statement"])]
    if empty:  # the option opens its task through the predicate: no empty record, as a task named in words
        reader.rules = [r for i, r in enumerate(reader.rules) if i not in empty]
        reader.lines = [r["statement"] for r in reader.rules if r.get("statement")]
    reader.note("task-told-done", text, done=sorted(done), reading=value, how=how,
                reason="the task told as done is not the one asked for")
    return True
