"""A schedule said in one turn: the dates and times of a record's start and end ("tmrw 8am til fri",
"this friday 10am to sunday 5pm", "saturday 8am, back same day 6pm").

A record with a start and an end (pick-up and return, check-in and check-out, from and until) has pairs of date and
time fields. The rules that read one value at a time give each date or time to the question asked or to the first
empty field of its type, so a range lands in the wrong fields ("saturday 8am, back same day 6pm" set the return
time to 08:00 and the pick-up time to 18:00: wrong values) or in none. This pass reads the turn's moments in order:
a moment is a date and/or a time said together; a range word between two moments ("to", "til", "until", "back",
"return") makes the second one the end. Moments go to the record's date/time pairs: an end moment to a pair whose
field names or descriptions say end/return/back/until, the others to the remaining pairs in spec order. "same day"
and "same time" repeat the other moment's value. The pass runs after the rules and replaces what they gave the
record's date and time fields this turn; it does nothing for a record without both a start pair and an end pair,
or for a turn with a single date or time (the rules read those).
"""

from __future__ import annotations

import ast
import datetime as dt
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ....dialogue.state import TaskRecord
from ....spec.model import Field, Worksheet, past_field, snake_case
from ..words.values import Span, find_dates, find_times

if TYPE_CHECKING:
    from ..parser import TurnReader

_END_WORDS = frozenset("end ends ending return returned returning back until till drop off finish finishing last "
                       "out checkout departure leaving".split())
"""Words of a field's name or description that make its pair the end of a range ("return_date", "check_out_time",
"The day you bring the van back")."""
_RANGE = re.compile(r"\b(?:til+|until|till|through|thru|back|return(?:ing)?|drop(?:ping)?\s+(?:it\s+|them\s+)?off|"
                    r"bring(?:ing)?\s+(?:it|them)\s+back)\b", re.I)
_BETWEEN = re.compile(r"^[\s,]*(?:to|-|–|—|and)[\s,]*$", re.I)
"""Only the word between two moments: "friday 10am to sunday 5pm" ("to" anywhere else is "I want to ...")."""
_SAME = re.compile(r"\bsame\s+(day|date|time)\b", re.I)
_DAY_OF_MONTH = re.compile(r"^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?$", re.I)
_MONTHS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
           r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_SHARED_MONTH = re.compile(rf"\b(?P<a>\d{{1,2}}(?:st|nd|rd|th)?)(?P<to>\s*(?:-|–|to|till|til|until)\s*)"
                           rf"(?P<b>\d{{1,2}}(?:st|nd|rd|th)?)\s+(?:of\s+)?(?P<m>{_MONTHS})\b", re.I)
"""Two days sharing one month ("18th to 20th July", "4-11 August"): the first day is that month's too."""


def _with_month(m: re.Match[str]) -> str:
    """ "18th to 20th July" -> "18th July to 20th July" (lengths change; the moments are read from the new text)."""
    return f"{m.group('a')} {m.group('m')}{m.group('to')}{m.group('b')} {m.group('m')}"


@dataclass
class _Moment:
    date: Span | None = None
    time: Span | None = None
    end: bool = False
    same_day: bool = False
    same_time: bool = False

    def has(self, kind: str) -> bool:
        return (self.date is not None or self.same_day) if kind == "date" else (self.time is not None or self.same_time)


@dataclass
class _Pair:
    date: Field | None
    time: Field | None
    end: bool
    values: dict[str, Any] = field(default_factory=dict)


def schedule_pass(reader: "TurnReader", text: str) -> None:
    target = _target(reader)
    if target is None:
        return
    var, ws, rec = target
    pairs = _pairs(ws)
    if not any(p.end for p in pairs) or all(p.end for p in pairs):
        return
    dated = [p for p in pairs if p.date is not None]
    past = bool(dated) and all(past_field(p.date) for p in dated)  # a booster's date does not make a stay's past
    moments = _moments(_SHARED_MONTH.sub(_with_month, text), reader.today, past)
    said = sum(m.has("date") + m.has("time") for m in moments)
    if len(moments) < 2 and said < 2 and not (moments and (moments[0].same_day or moments[0].same_time)):
        return  # one date or one time: the rules read it ("same time" alone repeats the other pair's)
    chosen = _assign(reader, moments, pairs, rec)
    if not chosen:
        return
    _replace(reader, var, chosen, pairs)


def _target(reader: "TurnReader") -> tuple[str, Worksheet, TaskRecord | None] | None:
    """The record the turn's schedule is for: one the turn's statements name or open, else the record asked about
    (or the task above it), else a live task; the first with a start and an end pair."""
    seen: list[tuple[str, Worksheet, TaskRecord | None]] = []

    def consider(var: str, ws: Worksheet | None, rec: TaskRecord | None) -> None:
        if ws is not None and ws.kind == "task" and all(var != v for v, _, _ in seen):
            seen.append((var, ws, rec))

    for line in reader.lines:
        m = re.match(r"^(\w+)\s*=\s*(\w+)\(", line)
        if m:
            rec = reader.state.get(m.group(1))
            consider(m.group(1), reader.spec.worksheet(m.group(2)), rec if isinstance(rec, TaskRecord) else None)
            continue
        m = re.match(r"^(\w+)\.\w+\s*=\s*\"([^\"]*)\"", line)
        if m:
            rec = reader.state.get(m.group(1))
            if isinstance(rec, TaskRecord):
                consider(rec.var, reader.spec.worksheet(rec.worksheet), rec)
            for ws in reader.spec.task_worksheets():  # `main.task = "Hire Van"` opens the task it names
                if ws.predicate and re.search(rf"==\s*[\"']{re.escape(m.group(2))}[\"']", ws.predicate):
                    live = [r for r in reader.state.of_worksheet(ws.name) if r.status == "active" and r.outcome is None]
                    consider(live[-1].var if live else reader.state.new_var(snake_case(ws.name)), ws,
                             live[-1] if live else None)
    if reader.expect is not None:
        for rec in [reader.expect.rec, *reader.state.ancestors(reader.expect.rec)]:
            consider(rec.var, reader.spec.worksheet(rec.worksheet), rec)
    for rec in reversed(reader.view.live_records()):
        consider(rec.var, reader.spec.worksheet(rec.worksheet), rec)
    for var, ws, rec in seen:
        pairs = _pairs(ws)
        if any(p.end for p in pairs) and not all(p.end for p in pairs):
            return var, ws, rec
    return None


def _pairs(ws: Worksheet) -> list[_Pair]:
    """The worksheet's date fields, each with the time field whose name shares its stem, then lone time fields."""
    def kind(f: Field) -> str:
        return f.type.strip().lower()

    def stem(f: Field) -> str:
        return re.sub(r"_?(?:date|time|day|hour)_?", "_", f.name.lower()).strip("_")

    def says_end(*fs: Field | None) -> bool:
        words = set()
        for f in fs:
            if f is not None:
                words |= set(re.findall(r"[a-z]+", f"{f.name.replace('_', ' ')} {f.description}".lower()))
        return bool(words & _END_WORDS)

    usable = [f for f in ws.fields if f.kind == "input" and not f.dont_ask and kind(f) in ("date", "time")]
    dates = [f for f in usable if kind(f) == "date" and not past_field(f)]  # "The day you were last out on the
    # water" is when something happened, never the end of what is booked ("last" and "out" say end elsewhere)
    times = [f for f in usable if kind(f) == "time"]
    pairs: list[_Pair] = []
    for d in dates:
        t = next((t for t in times if stem(t) == stem(d)), None)
        if t is None and len(dates) == len(times):
            t = times[dates.index(d)]
        if t is not None:
            times.remove(t)
        pairs.append(_Pair(d, t, says_end(d, t)))
    pairs += [_Pair(None, t, says_end(t)) for t in times]
    return pairs


def _moments(text: str, today: dt.date, past: bool) -> list[_Moment]:
    dates = find_dates(text, today, past=past)
    times = [t for t in find_times(text) if not any(t.overlaps(d) for d in dates)]
    same = [Span(m.group(1).lower(), m.start(), m.end(), m.group(0)) for m in _SAME.finditer(text)]
    spans = sorted([("date", s) for s in dates] + [("time", s) for s in times] +
                   [("same_" + ("time" if s.value == "time" else "day"), s) for s in same], key=lambda x: x[1].start)
    moments: list[_Moment] = []
    cur: _Moment | None = None
    last_end = 0
    for kind, span in spans:
        between = text[last_end:span.start]
        ranged = bool(_RANGE.search(between)) or (cur is not None and bool(_BETWEEN.match(between)))
        base = "date" if kind in ("date", "same_day") else "time"
        if cur is None or ranged or cur.has(base):
            cur = _Moment(end=ranged and (cur is not None or bool(_RANGE.search(between))))
            moments.append(cur)
        if kind == "date":
            cur.date = span
        elif kind == "time":
            cur.time = span
        elif kind == "same_day":
            cur.same_day = True
        else:
            cur.same_time = True
        last_end = span.end
    return moments


def _assign(reader: "TurnReader", moments: list[_Moment], pairs: list[_Pair],
            rec: TaskRecord | None) -> dict[str, Any]:
    expected = reader.expect.field.name if reader.expect is not None else None
    used: list[_Pair] = []
    chosen: dict[str, Any] = {}
    last_date: str | None = None
    start_date: str | None = None
    for m in moments:
        pair = None
        if len(moments) == 1 and not m.end:  # one moment: the pair asked about, else the first empty start
            pair = next((p for p in pairs if expected in (getattr(p.date, "name", None), getattr(p.time, "name", None))),
                        None)
        if pair is None:
            wanted = [p for p in pairs if p not in used and p.end == m.end] or [p for p in pairs if p not in used]
            if len(moments) == 1:
                wanted = [p for p in wanted if _empty(p, rec)] or wanted
            pair = wanted[0] if wanted else None
        if pair is None:
            return {}
        used.append(pair)
        date = m.date.value if m.date is not None else None
        if m.same_day:
            date = last_date or _other(pairs, pair, rec, chosen, "date")
        if date is not None and start_date is not None and m.date is not None and date < start_date \
                and _DAY_OF_MONTH.match(m.date.text.strip()):
            date = _after(start_date, int(_DAY_OF_MONTH.match(m.date.text.strip()).group(1)))
        time = m.time.value if m.time is not None else None
        if m.same_time:
            time = _other(pairs, pair, rec, chosen, "time")
        if date is not None and pair.date is not None:
            chosen[pair.date.name] = date
            if not m.end and start_date is None:
                start_date = date
            last_date = date
        if time is not None and pair.time is not None:
            chosen[pair.time.name] = time
        if (date is not None and pair.date is None) or (time is not None and pair.time is None):
            return {}  # a moment with more than the pair holds: not this shape
    return chosen


def _empty(pair: _Pair, rec: TaskRecord | None) -> bool:
    values = rec.values if rec is not None else {}
    return any(f is not None and values.get(f.name) in (None, "") for f in (pair.date, pair.time))


def _other(pairs: list[_Pair], pair: _Pair, rec: TaskRecord | None, chosen: dict[str, Any], kind: str) -> Any:
    """The value "same day" / "same time" repeats: the other pair's, said this turn or already held."""
    values = rec.values if rec is not None else {}
    for p in pairs:
        f = p.date if kind == "date" else p.time
        if p is pair or f is None:
            continue
        value = chosen.get(f.name, values.get(f.name))
        if value not in (None, "", "NA"):
            return value
    return None


def _after(start: str, day: int) -> str | None:
    """"20 dec ... back on the 28th": the day of the month that follows the start, in its month or the next."""
    try:
        base = dt.date.fromisoformat(start)
        cand = base.replace(day=day)
    except ValueError:
        return None
    if cand < base:
        month = base.month % 12 + 1
        try:
            cand = cand.replace(year=base.year + (month == 1), month=month)
        except ValueError:
            return None
    return cand.isoformat()


def _replace(reader: "TurnReader", var: str, chosen: dict[str, Any], pairs: list[_Pair]) -> None:
    """Drop what the rules gave the record's date and time fields this turn, then say the schedule's values."""
    names = {f.name for p in pairs for f in (p.date, p.time) if f is not None}
    taken = set(chosen.values())
    for i, rule in enumerate(list(reader.rules)):
        line = rule.get("statement")
        if not line:
            continue
        new = _without(line, var, names, chosen, taken)
        if new == line:
            continue
        reader.rules[i] = {**rule, "statement": new, "replaced_by": "schedule"} if new else \
            {**rule, "statement": None, "dropped_by": "schedule", "was": line}
    reader.lines = [r["statement"] for r in reader.rules if r.get("statement")]
    rec = reader.state.get(var)
    ws_rec = rec if isinstance(rec, TaskRecord) else None
    for name, value in chosen.items():
        f = next(f for p in pairs for f in (p.date, p.time) if f is not None and f.name == name)
        statement_rec = ws_rec or TaskRecord(var=var, worksheet="", initiator="user")
        reader.assign("schedule", f"{name}", statement_rec, f, value)


def _without(line: str, var: str, names: set[str], chosen: dict[str, Any], taken: set[Any]) -> str:
    """The statement without its assignments to the schedule's fields of `var` that the schedule decides or whose
    value it gives to another field ("" when nothing is left)."""
    try:
        node = ast.parse(line).body[0]
    except (SyntaxError, IndexError):
        return line
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return line
    target, value = node.targets[0], node.value

    def dropped(name: str, v: ast.expr) -> bool:
        if name not in names:
            return False
        literal = v.value if isinstance(v, ast.Constant) else None
        return name in chosen or literal in taken

    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == var:
        return "" if dropped(target.attr, value) else line
    if isinstance(target, ast.Name) and target.id == var and isinstance(value, ast.Call):
        kept = [k for k in value.keywords if k.arg is None or not dropped(k.arg, k.value)]
        if len(kept) == len(value.keywords):
            return line
        args = ", ".join(f"{k.arg}={ast.get_source_segment(line, k.value)}" for k in kept)
        return f"{var} = {ast.get_source_segment(line, value.func)}({args})"
    return line
