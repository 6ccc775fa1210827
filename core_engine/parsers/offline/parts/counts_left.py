"""Counts left over: a number said beside the rest of the turn ("hmm actually I'll try the Fogbank, 2 firkins", "it's
a bungalow, just the one flue", "we need the flues swept - 4 of them") that the rule which read the turn did not place.

After every rule has run, the numbers of the turn that no statement holds are read again for the empty count fields
(int or float) of the records the turn fills or opens, when no statement of the turn gave them a value:
`find_mentions` places each number as for an answer, and only a count whose own words name the field is kept (its
unit or noun is a word of the field's name, or it counts people for a field that counts them by its name). A small
number right before the option the turn gives or the record holds, at the end of its clause ("2 firkins", "the rye, 2
of them"), counts that option: it goes to the record's one field whose name only says it counts ("quantity").
"just the one flue" and "the flues ... 4 of them" count the field whose own name is the noun. None of these in a
question, a negation or a clause about the past. Numbers inside a knowledge question, codes ("KY 52"), dates, times and contacts are no counts; two
fields that fit one number, or two records of one worksheet, leave it unread (a wrong value is worse than none). A
turn that leaves or confirms a task gets nothing here. (Options said by name were tried too and dropped: "no clue
where the card is" is no payment by card.)
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from ....dialogue.state import TaskRecord
from ....spec.model import Worksheet, snake_case
from ..opening.tasks import literal
from ..answering.slots import find_mentions
from ..words.match import equalities, field_stems, stem
from ..words.values import find_numbers
from .proper_names import _constructed, focus_records, set_in_opening

if TYPE_CHECKING:
    from ..parser import TurnReader

_QUERY = re.compile(r'answer\("((?:[^"\\]|\\.)*)"\)')
_ANY_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple|"
                         r"(?:twen|thir|for|fif)ty)\b", re.I)
_CODE = re.compile(r"\b[A-Z]{1,3}[ -]?\d+[A-Z]?\b")
_LEAVING = re.compile(r"^(?:exitws|confirm)\(|\.confirm = ")


def counts_left(reader: "TurnReader", text: str) -> None:
    if not reader.lines or any(_LEAVING.search(line) for line in reader.lines):
        return
    text = _without_queries(reader, text)
    given = _given(reader)
    targets: list[tuple[TaskRecord, Worksheet, int | None]] = [
        (rec, reader.view.worksheet(rec), None) for rec in focus_records(reader)]
    for i, _line, _span, args, ws, _names in _constructed(reader):
        var = reader.lines[i].split(" = ", 1)[0].strip()
        if re.fullmatch(r"\w+", var) and reader.state.get(var) is None:
            targets.append((TaskRecord(var=var, worksheet=ws.name, values=_kwargs(args)), ws, i))
    bare = _bare_opening(reader)
    if bare is not None:
        targets.append((TaskRecord(var=reader.state.new_var(snake_case(bare.name)), worksheet=bare.name), bare, -1))
    sheets = [reader.view.worksheet(r).name for r in focus_records(reader)] + [ws.name for _r, ws, at in targets
                                                                                if at is not None]
    if len(sheets) != len(set(sheets)):
        return  # two items of one kind ("52 is 4 pieces" of two parts): which one a value is for is the rules' call
    text = _CODE.sub(lambda m: " " * len(m.group(0)), text)  # "KY 52": a code's number counts nothing
    for rec, ws, line_at in targets:
        if line_at is None and not reader.view.record_live(rec):
            continue
        done = given.get(rec.var, set()) | (set(_kwargs(reader.lines[line_at])) if line_at is not None and line_at >= 0
                                             else set())
        why = "a count the rest of the turn did not read, placed by the words it counts"
        for m in _counts(reader, text, rec, ws, done):
            if line_at == -1:
                reader.emit("count-left", str(m.matched), f"{rec.var} = {ws.name}({m.field.name}={literal(m.value)})",
                            worksheet=ws.name, field=m.field.name, reason=why)
                line_at = len(reader.lines) - 1
            elif line_at is None:
                reader.assign("count-left", str(m.matched), rec, m.field, m.value, reason=why)
            else:
                set_in_opening(reader, line_at, ws.name, m.field.name, m.value, "count-left", str(m.matched), reason=why)
            done.add(m.field.name)


def _counts(reader: "TurnReader", text: str, rec: TaskRecord, ws: Worksheet, done: set[str]) -> list[Any]:
    """The numbers no statement holds, for the record's empty count fields."""
    if not _ANY_NUMBER.search(text):
        return []
    counts = [(rec, f) for f in reader.view.input_fields(rec) if reader.view.kind_of(f) in ("int", "float")
              and f.name not in done and reader.view.unfilled(rec, f)]
    if not counts:
        return []
    free = _without_values(text, reader.lines)
    found = [m for m in find_mentions(free, counts, reader.view, reader.today, prefer=rec) if m.field.name not in done
             and _own_count(m)]
    return found or _counting_an_option(reader, free, rec, ws, counts) or _counted_by_name(free, counts)


def _own_count(m: Any) -> bool:
    """A count whose own words name the field ("2 hrs" the hours, "3 of us" the people, the tickets): not one read by
    meaning alone or by a word of the field's description, which among the few empty fields would have no rival ("8
    desks" is no floor, "for about 40 people" no number of trays that each feed ten people)."""
    from ..answering.slots import UNIT_SHORT, counts_people
    said = {stem(UNIT_SHORT.get(w, w)) for w in re.findall(r"[a-z]+", str(m.matched).lower())}
    said |= {stem(w + "s") for w in said}
    if field_stems(m.field, with_description=False) & said:
        return True
    return counts_people(m.field, by_name=True) and m.how in ("people summed", "head count", "number+unit")


class _Found:
    def __init__(self, f: Any, value: int, matched: str) -> None:
        self.field, self.value, self.matched = f, value, matched


def _bare_opening(reader: "TurnReader") -> Worksheet | None:
    """The one task worksheet the turn's statements chose by its value (`main.task = "Book Taster Class"`) with no
    record constructed and none active: its record is made here when a count is found for it."""
    chosen = [m.group(1) for line in reader.lines for m in [re.fullmatch(r'\w+\.\w+ = "(.+)"', line)] if m]
    built = {ws.name for _i, _l, _s, _a, ws, _n in _constructed(reader)}
    opened = [ws for ws in reader.spec.task_worksheets()
              if any(v in chosen for _p, v in equalities(ws.predicate)) and ws.name not in built
              and not any(r.status == "active" for r in reader.state.of_worksheet(ws.name))]
    return opened[0] if len(opened) == 1 else None


def _counting_an_option(reader: "TurnReader", text: str, rec: TaskRecord, ws: Worksheet,
                        counts: list[tuple[TaskRecord, Any]]) -> list[_Found]:
    """ "2 firkins", "3 sourdoughs actually", "the rye, 2 of them": a small number right before (or "N of them" after)
    the option this turn gives, or the record holds, at the end of its clause, counts that option; it goes to the
    record's one empty field whose name only says it counts ("quantity", "number"), never to a field that counts
    some other thing (high chairs, rolls of tape, months)."""
    counting = [f for _r, f in counts if reader.view.kind_of(f) == "int"
                and not set(f.name.lower().split("_")) - _COUNT_NAME_WORDS]
    if len(counting) != 1:
        return []
    held = {str(v).lower() for f in ws.fields if reader.view.kind_of(f) == "Enum"
            for v in [_held_option(reader, rec, f)] if v}
    options = {stem(w) for v in held for w in re.findall(r"[a-z]+", v) if len(w) > 2}
    if not options or len(find_numbers(text)) != 1:
        return []  # "2 black, no actually just 1": two numbers, the rules' call
    out = []
    for clause in _clauses(text):
        for span in find_numbers(clause):
            after = re.match(r"\s+([a-z]+)(?=\s*(?:$|(?:please|pls|thanks|actually|then|instead|too|each)\b))",
                             clause[span.end:], re.I)
            if after and stem(after.group(1).lower()) in options and _small_count(clause, span):
                out.append(_Found(counting[0], span.value, f"{span.text} {after.group(1)}"))
    for sentence in re.split(r"[.!?;]", text):  # "I'll take the rye, 2 of them": the option named before, counted
        for m in _OF_THEM.finditer(sentence):
            if not _NOT_SAID.search(sentence) and \
                    {stem(w) for w in re.findall(r"[a-z]+", sentence[:m.start()].lower())} & options:
                n = m.group("n")
                out.append(_Found(counting[0], int(n) if n.isdigit() else _WORDS[n.lower()], m.group(0)))
    return out if len(out) == 1 else []


_COUNT_NAME_WORDS = frozenset({"quantity", "qty", "count", "number", "amount", "how", "many", "total"})


def _held_option(reader: "TurnReader", rec: TaskRecord, f: Any) -> str | None:
    """The option this turn gives the field, else the one the record holds."""
    for line in reader.lines:
        m = re.search(rf'(?:\b{re.escape(rec.var)}\.{re.escape(f.name)} = |\b{re.escape(f.name)}=)"([^"]+)"', line)
        if m:
            return m.group(1)
    value = rec.values.get(f.name)
    return value if isinstance(value, str) else None


def _small_count(clause: str, span: Any) -> bool:
    """A count people order in: a whole number from 1 to 99, not a price ("£60"), a model's number ("Air Max 90") or
    part of a longer figure."""
    before = clause[:span.start]
    return isinstance(span.value, int) and 0 < span.value < 100 and not re.search(r"(?:£|\$|€)\s*$", before) \
        and not re.search(r"\b[A-Z][A-Za-z]+\s+$", before) and not re.search(r"[\d.,:/-]\s*$", before) \
        and not _LABEL_BEFORE.search(before)


_LABEL_BEFORE = re.compile(r"\b(?:code|ref|reference|number|no|order|room|table|flat|unit|size|page|model|version|"
                           r"save|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                           r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|the)\s*#?\s*$", re.I)
"""A word that makes the number after it a label, a code or a day ("code save 20", "june 2", "room 4")."""


def _clauses(text: str) -> list[str]:
    """The turn's clauses that state something: no question, no negation, no clause about the past or someone's
    other plans ("I had 2 black trainers last year", "not 2 black, just one")."""
    out = []
    for clause in re.split(r"[,;.!?]|\b(?:but|and|so)\b", text):
        sentence_end = text[text.find(clause) + len(clause):][:1] if clause else ""
        if not clause.strip() or sentence_end == "?" or _NOT_SAID.search(clause):
            continue
        out.append(clause)
    return out


_NOT_SAID = re.compile(r"\b(?:not|no|never|don'?t|didn'?t|doesn'?t|won'?t|can'?t|cancel|instead\s+of|had|was|were|"
                       r"last\s+(?:time|year|week|month)|usually|normally|used\s+to|is\s+it|are\s+there|elsewhere)\b|n't\b",
                       re.I)
_CLAUSE_END = r"(?=\s*(?:$|[,.;!?]|(?:please|pls|thanks|actually|then|instead|too|each|in\s+total)\b))"
_THE_ONE = re.compile(r"\b(?:just|only)\s+(?:the\s+)?one\s+(?:(?:big|small|large|little|tiny|huge|single|main|old|"
                      r"new|long|short|tall|wide)\s+){0,2}(?P<noun>[a-z]+)\b" + _CLAUSE_END, re.I)
"""A pronoun-like "one" with the field's own name word after it, maybe a size word between ("just the one big
pane")."""
_OF_THEM = re.compile(r"\b(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+of\s+(?:them|those)\b"
                      + _CLAUSE_END, re.I)
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _counted_by_name(text: str, counts: list[tuple[TaskRecord, Any]]) -> list[_Found]:
    """ "just the one flue" (a pronoun-like "one" with the field's own name word after it), "the flues ... 4 of
    them" (the plural the clause named before "of them"), each said to end its clause: the one count field whose
    own name has that word."""
    out = []
    for clause in _clauses(text):
        for m in _THE_ONE.finditer(clause):
            out += [(f, 1, m.group(0)) for _r, f in counts if _names(m.group("noun"), field_stems(f, with_description=False))]
    for sentence in re.split(r"[.!?;]", text):
        for m in _OF_THEM.finditer(sentence):
            if _NOT_SAID.search(sentence) or sentence.rstrip().endswith("?"):
                continue
            nouns = [w for w in re.findall(r"[a-z]+", sentence[:m.start()].lower()) if w.endswith("s") and len(w) > 3]
            if nouns:
                n = int(m.group("n")) if m.group("n").isdigit() else _WORDS[m.group("n").lower()]
                out += [(f, n, m.group(0)) for _r, f in counts if _names(nouns[-1], field_stems(f, with_description=False))]
    return [_Found(*out[0])] if len({(f.name, v) for f, v, _m in out}) == 1 else []


def _names(word: str, stems: set[str]) -> bool:
    """The word, singular or plural, is one of the stems ("flue" and "flues" stem apart)."""
    word = word.lower()
    return bool({stem(word), stem(word + "s"), stem(word.removesuffix("s"))} & stems)


def _without_queries(reader: "TurnReader", text: str) -> str:
    """The turn without the words of its knowledge questions: "any with 3 places left?" asks, it counts nothing."""
    for line in reader.lines:
        for q in _QUERY.finditer(line):
            words = q.group(1).replace('\\"', '"')
            at = text.find(words)
            if at >= 0:
                text = text[:at] + " " * len(words) + text[at + len(words):]
    return text


def _without_values(text: str, lines: list[str]) -> str:
    """The turn with the numbers the statements already hold blanked out, so none is read twice."""
    held = {m.group(1) for line in lines for m in re.finditer(r"(?<![\w.\"-])(\d+(?:\.\d+)?)(?![\w.\"-])",
                                                           _QUERY.sub("", line))}
    values = {float(n) for n in held}
    for span in reversed(find_numbers(text)):  # "for two nights": the two the nights hold, said in words too
        if isinstance(span.value, (int, float)) and float(span.value) in values:
            text = text[:span.start] + " " * (span.end - span.start) + text[span.end:]
    return text


def _given(reader: "TurnReader") -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for line in reader.lines:
        m = re.match(r"(\w+)\.(\w+) = ", line)
        if m:
            out.setdefault(m.group(1), set()).add(m.group(2))
    return out


def _kwargs(args: str) -> dict[str, Any]:
    """The literal keyword values of a constructor's arguments (others, such as references, as None)."""
    out: dict[str, Any] = {}
    for m in re.finditer(r"(\w+)=(\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|True|False)?", args):
        try:
            out[m.group(1)] = ast.literal_eval(m.group(2)) if m.group(2) else None
        except (ValueError, SyntaxError):
            out[m.group(1)] = None
    return out
