"""A make or model said by its proper name while a record is opened: "it's a Gazelle e-bike", "for my mountain
bike, a Specialized".

A record opened in this turn whose worksheet has one unfilled short text field described by capitalised examples
("The make of the bike, e.g. Trek or Brompton") takes the one capitalised name the turn gives after "a", "an",
"it's a" or "my" (not the first word of a sentence, not a value of the KB, not a day or a month). The name is put in
the opening statement itself, as the record's variable is not known before it is made. No such field, or two
candidate names: nothing is added (a wrong value is worse than none).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator

from ....spec.model import Field

from ....spec.model import snake_case
from ..answering.slots import shape
from ..words.match import content_stems
from ..opening.tasks import literal, without_searches
from ..words.values import MONTHS, WEEKDAYS

if TYPE_CHECKING:
    from ..parser import TurnReader

_NAMED = re.compile(r"\b(?:it'?s\s+an?|its\s+an?|an?|my)\s+(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][\w'À-ÿ-]*(?:\s+(?:&\s+)?(?!I\b|I'[a-z])[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][\w'À-ÿ-]*)*)")
_CALENDAR = {w.lower() for w in [*WEEKDAYS, *MONTHS]}
_EXAMPLES = re.compile(r"\b(?:e\.g\.?|eg|for\s+example|such\s+as|like)\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][A-Za-zÀ-ÿ'-]*\b(?![\d-])")
"""A description that gives names as its examples ("The make of the bike, e.g. Trek or Brompton"); not a code
with digits ("The number plate, like KT19 WRX")."""


def proper_name_in_opening(reader: "TurnReader", text: str) -> None:
    if not reader.lines:
        return
    names = [m for m in _NAMED.finditer(text) if m.group("name").lower() not in _CALENDAR
             and m.group("name") not in ("I", "I'm") and not _in_kb(reader, m.group("name"))]
    if len(names) != 1:
        return
    said, name = names[0].group(0), names[0].group("name")
    if any(name in _without_queries(line) for line in reader.lines):
        return  # already read as some value
    from ..words.answers import is_make_field  # late: answers imports the slot helpers
    wanted = lambda f: reader.view.kind_of(f) == "str" and shape(f) == "short" and (  # noqa: E731
        bool(_EXAMPLES.search(f.description)) or is_make_field(f))  # "The make and model of the car" too
    slot = _constructor_slot(reader, wanted) or _nested_slot(reader, wanted)
    if slot is None:
        return
    i, line, span, args, ws, f = slot
    if isinstance(f, _Holder):
        item = f"{f.name}={f.sub}({f.field}={literal(name)})"
        new = line[:span[0]] + (f"{args}, {item}" if args.strip() else item) + line[span[1]:]
    else:
        new = _with_value(line, span, args, f.name, name)
    new = re.sub(r'answer\("((?:[^"\\]|\\.)*)"\)', lambda q: _query_without(q, said), new)
    spec_words = _spec_words(reader)  # "service for my bike" searches nothing once the make is out of it
    new = without_searches(new, lambda query: not [w for w in content_stems(query) if w not in spec_words])
    _replace(reader, i, line, new, "proper-name", name, ws.name, f.name,
             reason="a capitalised name for the field whose description gives names as examples")


def _constructed(reader: "TurnReader") -> Iterator[tuple[int, str, tuple[int, int], str, Any, set[str]]]:
    """(line index, line, argument span, arguments, worksheet, names given) of each record the turn's
    statements construct."""
    for i, line in enumerate(reader.lines):
        for ws in reader.spec.task_worksheets():
            span = _args_span(line, ws.name)
            if span is not None:
                args = line[span[0]:span[1]]
                yield i, line, span, args, ws, set(re.findall(r"(\w+)=", args))


def _constructor_slot(reader: "TurnReader", wanted: Any) -> tuple[int, str, tuple[int, int], str, Any, Field] | None:
    """(line index, line, argument span, arguments, worksheet, field) of the first record the turn's statements
    construct whose worksheet has exactly one field `wanted` accepts that the constructor does not give yet."""
    for i, line, span, args, ws, given in _constructed(reader):
        fields = [f for f in ws.fields if f.kind == "input" and f.name not in given and wanted(f)]
        if len(fields) == 1:
            return i, line, span, args, ws, fields[0]
    return None


def _nested_slot(reader: "TurnReader", wanted: Any) -> tuple[int, str, tuple[int, int], str, Any, Field] | None:
    """Like `_constructor_slot`, for a record nested in a constructed one and not constructed yet ("a wash for a
    Toyota Yaris": the vehicle of the wash): the slot is the holder field, which takes `Sub(field=...)`."""
    from ....spec.model import parse_type
    for i, line, span, args, ws, given in _constructed(reader):
        for holder in ws.fields:
            sub = reader.spec.worksheet(parse_type(holder.type).worksheet or "") if holder.kind == "input" else None
            if sub is None or sub.kind != "task" or holder.name in given or sub.name == ws.name:
                continue
            fields = [f for f in sub.fields if f.kind == "input" and wanted(f)]
            if len(fields) == 1:
                return i, line, span, args, sub, _Holder(holder.name, sub.name, fields[0].name)
    return None


class _Holder:
    """A nested record's field reached through its holder: written `holder=Sub(field=value)`."""

    def __init__(self, holder: str, sub: str, field: str) -> None:
        self.name, self.sub, self.field = holder, sub, field


def set_in_opening(reader: "TurnReader", i: int, ws: str, name: str, value: Any, rule: str, words: str,
                   **extra: Any) -> None:
    """Give the record that statement `i` constructs (`x = Ws(...)`) the keyword `name=value`, in place of the one it
    has (`name="..."` or a number), and say why in the trace."""
    line = reader.lines[i]
    span = _args_span(line, ws)
    if span is None:
        return
    args = line[span[0]:span[1]]
    held = re.search(rf'(?<![\w.]){re.escape(name)}=(?:"(?:[^"\\]|\\.)*"|-?[\d.]+|True|False)', args)
    if held:
        args = args[:held.start()] + f"{name}={literal(value)}" + args[held.end():]
        new = line[:span[0]] + args + line[span[1]:]
    else:
        new = _with_value(line, span, args, name, value)
    if new != line:
        _replace(reader, i, line, new, rule, words, ws, name, **extra)


def filled_record(reader: "TurnReader", *, asked_alone: bool = True) -> Any:
    """The live record the turn fills (the first one its statements name) or, else, the one the agent asked about
    (only when the turn read something, unless `asked_alone`); None when there is neither."""
    from ....dialogue.state import TaskRecord
    for line in reader.lines:
        m = re.match(r"(\w+)\.\w+ = ", line)
        rec = reader.state.get(m.group(1)) if m else None
        if isinstance(rec, TaskRecord) and reader.view.record_live(rec):
            return rec
    e = reader.expect
    if e is not None and reader.view.record_live(e.rec) and (asked_alone or reader.lines):
        return e.rec
    return None


def focus_records(reader: "TurnReader") -> list[Any]:
    """The live records the turn is about: the one asked about first, then those its statements fill, in order."""
    from ....dialogue.state import TaskRecord
    recs = [reader.expect.rec] if reader.expect is not None else []
    for line in reader.lines:
        m = re.match(r"(\w+)\.\w+ = ", line)
        rec = reader.state.get(m.group(1)) if m else None
        if isinstance(rec, TaskRecord) and rec not in recs:
            recs.append(rec)
    return [r for r in recs if reader.view.record_live(r)]


def _with_value(line: str, span: tuple[int, int], args: str, name: str, value: Any) -> str:
    item = f"{name}={literal(value)}"
    return line[:span[0]] + (f"{args}, {item}" if args.strip() else item) + line[span[1]:]


def _spec_words(reader: "TurnReader") -> set[str]:
    """Stems of the spec's worksheet and field names, and the everyday words of asking for a booking."""
    from ..opening.tasks import BOOKING_WORDS
    names = [w.name for w in reader.spec.worksheets] + [f.name for w in reader.spec.worksheets for f in w.fields]
    return {s for n in names for s in content_stems(snake_case(n).replace("_", " "))} | set(BOOKING_WORDS)


def _without_queries(line: str) -> str:
    return re.sub(r'answer\("(?:[^"\\]|\\.)*"\)', "", line)


def _query_without(q: re.Match, said: str) -> str:
    """The search's words without the name given to the field ("battery check please, it's a Gazelle e-bike" ->
    "battery check please, e-bike")."""
    words = re.sub(r"\s*,?\s*" + re.escape(said), "", q.group(1), flags=re.I)
    words = re.sub(r"\s+", " ", words).strip(" ,.")
    return f'answer("{words}")' if words else q.group(0)


def _in_kb(reader: "TurnReader", words: str) -> bool:
    return reader.ctx.kb is not None and bool(reader.vocabulary.found_in(words, reader.ctx.kb))


def _replace(reader: "TurnReader", i: int, old: str, new: str, rule: str, words: str, ws: str, field: str,
             **extra: Any) -> None:
    """Put the statement with the added value in place of the old one, and say why in the trace."""
    reader.lines[i] = new
    for r in reader.rules:
        if r.get("statement") == old:
            r["statement"] = new
            break
    reader.note(rule, words, worksheet=ws, field=field, **extra)


def proper_name_answer(reader: "TurnReader", text: str, f: Field) -> str | None:
    """The one capitalised name in a longer answer to a field whose description gives names as examples
    ("great, it's a city bike, a Brompton" to "the make of the bike, e.g. Trek or Brompton")."""
    if not _EXAMPLES.search(f.description) or len(text.split()) < 3:
        return None
    names = [m.group("name") for m in _NAMED.finditer(text) if m.group("name").lower() not in _CALENDAR
             and m.group("name") not in ("I", "I'm") and not _in_kb(reader, m.group("name"))]
    return names[0] if len(names) == 1 else None


def when_in_opening(reader: "TurnReader", text: str) -> None:
    """ "my AP scores were sent in June" while the opening builds a record with a field asking when: the part
    that says when goes in that record's constructor (one such field, one such part, not already read)."""
    from ..words.answers import asks_when, when_spans  # late: answers imports the slot helpers

    spans = when_spans(text)
    said = len(spans) == 1 and not any(spans[0].text in _without_queries(line) for line in reader.lines)
    slot = _constructor_slot(reader, asks_when) if said else None
    if slot is None:
        _date_in_opening(reader, text)
        return
    i, line, span, args, ws, f = slot
    _replace(reader, i, line, _with_value(line, span, args, f.name, spans[0].text), "when-in-opening", spans[0].text,
             ws.name, f.name)


def _date_in_opening(reader: "TurnReader", text: str) -> None:
    """ "it was delivered by the courier on june 3rd": a whole date said in an opening, for the one text field of a
    constructed record that holds a date ("When the form was submitted"), written as a date is (ISO), read
    backwards for a field about the past."""
    from ....spec.model import past_field
    from ..words.values import find_dates

    slot = _constructor_slot(reader, lambda f: f.type == "str" and shape(f) == "date")
    if slot is None:
        return
    i, line, span, args, ws, f = slot
    dates = find_dates(text, reader.today, past=past_field(f))
    if len(dates) != 1 or any(dates[0].value in line for line in reader.lines):
        return
    _replace(reader, i, line, _with_value(line, span, args, f.name, dates[0].value), "date-in-opening",
             dates[0].text, ws.name, f.name)


def _args_span(line: str, worksheet: str) -> tuple[int, int] | None:
    """(start, end) of the arguments of `worksheet(...)` in a statement, brackets inside quoted values ignored."""
    m = re.search(rf"\b{re.escape(worksheet)}\(", line)
    if m is None:
        return None
    depth, quoted, i = 1, False, m.end()
    while i < len(line):
        c = line[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return m.end(), i
        i += 1
    return None
