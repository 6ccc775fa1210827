"""Reported rows and proposals: "the second one", a restaurant by name, "yes" to a proposed booking.

A KB report puts rows in front of the user; these rules turn a choice among them
into a statement: the row path (`answer_2.result[1]`) for a field whose type is the
row's type, the row's label ("CS 231C") for a text field that names such rows, or
a new record of the task worksheet that takes such a row (a booking).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from ....spec.model import Field, parse_type, snake_case
from ....dialogue.state import TaskRecord, ref_target
from ..focus import row_focus_label
from ..intents import choice_index, is_question
from ..words.match import Bag, best_enum, equalities, field_stems, stem
from ..words.negation import negations, without_negated
from ..answering.slots import find_mentions, shape, some_of
from ..opening.tasks import kwargs_text, literal
from ..words.values import find_numbers, normalise
from .references import compared_row, valued_row

if TYPE_CHECKING:
    from ..parser import TurnReader


# ---------------------------------------------------------------- proposals

def accept_proposal(reader: "TurnReader", act: dict[str, Any], rest: str) -> None:
    """"Yes" to a Propose act: the proposed record, with rows referenced through their KB record."""
    ws = reader.spec.worksheet(act.get("worksheet", ""))
    if ws is None:
        reader.note("proposal-accepted", "", reason=f"unknown worksheet {act.get('worksheet')!r}")
        return
    values = dict(act.get("values") or {})
    for p in reversed(reader.state.proposals):
        if p.worksheet == ws.name:
            values = dict(p.values)
            break
    for path, value in equalities(ws.predicate):
        set_equality(reader, path, value)
    live = [r for r in reader.state.of_worksheet(ws.name) if r.status == "active" and r.parent is None]
    var = live[0].var if live else reader.state.new_var(snake_case(ws.name))
    kwargs: dict[str, str] = {}
    for name, value in values.items():
        if ws.field(name) is None:
            continue
        if isinstance(value, dict) and ref_target(value) is None:
            path = row_path(reader, value)
            if path:
                kwargs[name] = path
        elif ref_target(value) is None:
            kwargs[name] = literal(value)
    ghost = TaskRecord(var=var, worksheet=ws.name)
    candidates = [(ghost, f) for f in ws.fields if f.kind == "input" and f.name not in kwargs
                  and reader.view.kind_of(f) not in ("confirm", "task", "row", "list")]
    mentions = find_mentions(rest, candidates, reader.view, reader.today) if rest else []
    for m in mentions:
        kwargs[m.field.name] = literal(m.value)
    ints = [f for _r, f in candidates if reader.view.kind_of(f) == "int" and f.name not in kwargs]
    if (counted := count_of_shown(reader, ints, rest)) is not None:
        kwargs[counted[0].name] = literal(counted[1])  # "great, 8 of those then please": how many of the row
    numbers = find_numbers(rest) if rest and not reader.yes_words and not mentions else []  # a number read is spent
    if len(ints) == 1 and len(numbers) == 1:
        kwargs[ints[0].name] = literal(numbers[0].value)  # "four" in reply to the proposal: its one number
    reader.emit("proposal-accepted", reader.yes_words, f"{var} = {ws.name}({kwargs_text(kwargs)})")


def set_equality(reader: "TurnReader", path: tuple[str, ...], value: Any) -> None:
    """Make `user_info.user_task == "Book Restaurant"` true, if a live record holds that field."""
    name = path[-1]
    owner = reader.state.get(path[0]) if len(path) == 2 else None
    candidates = [owner] if isinstance(owner, TaskRecord) else [
        r for r in reader.view.live_records() if reader.view.worksheet(r).field(name) is not None]
    for rec in candidates[:1]:
        if rec.values.get(name) != value:
            reader.emit("predicate-of-proposal", f"{'.'.join(path)} == {value!r}",
                        f"{rec.var}.{name} = {literal(value)}")


def row_path(reader: "TurnReader", row: dict[str, Any]) -> str | None:
    for kb in reversed(reader.state.kb_records()):
        for i, r in enumerate(kb.result or []):
            if r == row:
                return f"{kb.var}.result[{i}]"
    return None


# ---------------------------------------------------------------- choosing among reported rows

def row_label(row: dict[str, Any]) -> str | None:
    named = [k for k in row if k.endswith("_name")]  # a "<thing>_name" column names its row
    for key in ("name", "title", "label", *named):
        if isinstance(row.get(key), str):
            return row[key]
    texts = [(k, v) for k, v in row.items() if isinstance(v, str) and 2 < len(v) < 60]
    return next((v for k, v in texts if k != "id" and not k.endswith("_id")), None) or next((v for _k, v in texts), None)
    # a car's "model" before its id "v13": the id labels a row only when no other text does


def choose_row(reader: "TurnReader", text: str) -> bool:
    """"2", "the second one" or a reported name picks a row of the last multi-row KB report."""
    reports = [a for a in reader.acts if a.get("act") == "report" and a.get("kind") == "kb"
               and isinstance(a.get("result"), list) and len(a["result"]) >= 1]
    if not reports:
        return False
    report = reports[-1]
    rows, kb_var = report["result"], report["var"]
    text = re.sub(r"\b(the\s+[A-Za-z][\w'-]*)\s+1\b", r"\1 one", text, flags=re.I)  # "the smaller 1"
    earlier = _earlier_report(reader, text, kb_var) if _the_word_one(text, rows) is None else None
    if earlier is not None:
        rows, kb_var = earlier  # "i'll go with the heat one" after a later answer showed only the spray
    expect = reader.expect
    text_slot = expect is not None and _names_rows(reader, expect.field, rows)
    if len(rows) == 1 and not text_slot:
        if _the_one_shown(reader, text, kb_var, rows[0]):
            return True
        if (expect is None or expect.rec.parent is None and reader.view.kind_of(expect.field) == "Enum") \
                and not reader.lines and (not is_question(text) or _named_then_requested(text)) \
                and _TAKEN.search(text) and not _TURNED_DOWN.search(text):
            named = _by_name(text, rows) or _by_short_name(text, rows) or _the_word_one(text, rows)
            if named is None and (sign := _SIGN_UP.search(text)) and _FOR_THAT.search(text):
                named = (0, sign.group(0))  # "sounds ideal tbh. sign me up for the 31st"
            if named is not None:  # "right let's do the Land Rover, for 10 days" after it alone was shown
                return _open_with_row(reader, rows[0], f"{kb_var}.result[0]", named[1])
        return False  # else it filled its field or was proposed
    row_expected = expect is None or reader.view.kind_of(expect.field) == "row" or text_slot
    requested = False
    fragment = None
    if is_question(text) and not re.fullmatch(r"\W*(?:\d{1,2}|the \w+ one)\W*", text, re.I):
        requested = _named_then_requested(text)
        fragment = _picking_clause(text, len(rows)) if requested else _named_then_values(text)
        # "the first one looks great, can we book her?"; "the first one's too pricey, can we book the second one?"
        requested = requested or fragment is not None
        if not requested:
            return False
    pick = choice_index(text, len(rows)) if len(rows) > 1 and not requested and earlier is None else None
    if fragment is not None and len(rows) > 1:
        pick = choice_index(fragment, len(rows))  # "the 2nd one looks good": the clause that names the row
    if pick is not None and not row_expected and re.fullmatch(r"\W*(?:the\s+)?\d{1,2}\W*", text):
        pick = None  # a bare number answers the question asked, not the list
    if pick is None:
        pick = _by_name(text, rows)
    if pick is None and len(rows) > 1:
        pick = _by_short_name(text, rows)
    if pick is None and len(rows) > 1:
        pick = _the_word_one(text, rows)
    if requested and (pick is None or expect is not None and expect.act == "ask"
                      and reader.view.kind_of(expect.field) not in ("row", "Enum")):
        return False
    if pick is None and len(rows) > 1:  # "the cheaper one", "the Ethiopian one": among the rows the user was shown
        shown = rows[:max(1, reader.spec.settings.report_rows or len(rows))]
        pick = compared_row(text, shown, reader.spec) or valued_row(text, shown, row_label)
    if pick is None:
        return False
    index, words = pick
    label = row_focus_label(rows[index])
    if text_slot and expect is not None and label and _fits_shape(expect.field, label):
        reader.emit("choose-result", words, f"{expect.rec.var}.{expect.field.name} = {literal(label)}",
                    row=f"{kb_var}.result[{index}]")
        return True
    target = _choice_target(reader, kb_var, rows[index])
    if target is not None:
        reader.emit("choose-result", words, f"{target} = {kb_var}.result[{index}]")
        if expect is not None and target == f"{expect.rec.var}.{expect.field.name}":
            rest = re.sub(re.escape(words), " ", text, count=1, flags=re.I)
            label = str(row_label(rows[index]) or "")
            _values_beside(reader, expect.rec, rest, label)
            open_fields = [f for f in reader.view.input_fields(expect.rec) if reader.view.unfilled(expect.rec, f)]
            for f, value in row_list_values(reader, open_fields, rest, rows[index]):
                reader.assign("extra-value", value, expect.rec, f, value)  # "the starry ones, in pink"
            _count_beside(reader, expect.rec, rest, label)
        return True
    return _open_with_row(reader, rows[index], f"{kb_var}.result[{index}]", words)


def _earlier_report(reader: "TurnReader", text: str, last: str) -> tuple[list[dict[str, Any]], str] | None:
    """(rows, variable) of the one earlier KB answer (of the last three) with a row that "the <word> one" names."""
    found = []
    for rec in [r for r in reader.state.kb_records() if r.var != last and r.status == "done"][-3:]:
        rows = list(rec.result or [])
        if len(rows) > 1 and _the_word_one(text, rows) is not None:
            found.append((rows, rec.var))
    return found[0] if len(found) == 1 else None


def _values_beside(reader: "TurnReader", rec: TaskRecord, rest: str, label: str) -> None:
    """ "the 2nd one looks good, can you book it for wednesday": a day, a time, an option said beside the row chosen
    are values of the record it fills (counts are `_count_beside`'s)."""
    if label:
        rest = re.sub(re.escape(label), " ", rest, flags=re.I)
    if negations(rest) or not _ASKED_FOR.search(rest) or re.search(r"\b(?:last|ago|saw|was|were|had|did)\b", rest, re.I):
        return  # "the 2nd one, my friend saw it last saturday", "not sure about saturday though": no value asked for
    candidates = [(rec, f) for f in reader.view.input_fields(rec) if reader.view.unfilled(rec, f)
                  and reader.view.kind_of(f) in ("date", "time", "Enum", "bool")]
    for m in find_mentions(rest, candidates, reader.view, reader.today) if candidates and rest.strip() else []:
        reader.assign("extra-value", m.matched, m.rec, m.field, m.value)


def row_list_values(reader: "TurnReader", fields: list[Field], text: str, row: dict[str, Any]) -> list[tuple[Field, str]]:
    """ "the starry ones, in pink": a text field named as one of the chosen row's list columns (`colour` beside
    `colours`) takes the one value of that list the turn says "in" ("in pink", not "we live in Stone") or names
    the thing by ("the grey one", "the sand colour"), as the row lists it; "my kettle is red" says no colour."""
    out: list[tuple[Field, str]] = []
    for f in fields:
        if reader.view.kind_of(f) != "str":
            continue
        mine = field_stems(f, with_description=False)
        for column, values in row.items():
            if not isinstance(values, list) or not {stem(w) for w in column.split("_") if w} & mine:
                continue
            said = {v for v in values if isinstance(v, str) and len(v) >= 3 and re.search(
                rf"(?<!\blive\s)(?<!\blives\s)(?<!\bliving\s)(?<!\bbased\s)\bin\s+(?:the\s+|a\s+)?{re.escape(v)}(?![\w-])|"
                rf"(?<![\w-]){re.escape(v)}\s+(?:one|ones|colou?r|finish|shade|version)\b", text, re.I)}
            if len(said) == 1:
                out.append((f, next(iter(said))))
                break
    return out


_ASKED_FOR = re.compile(r"\b(?:book|reserve|for|on|at|do|make\s+it|can\s+(?:you|we|i)|could\s+(?:you|we|i)|please|pls)\b", re.I)


_SHOWN_COUNT = re.compile(
    r"\b(?P<n>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:x\b|of\s+(?:them|those|these)\b)|"
    r"\b(?:take|have|get|grab|put|reserve|order|want|need|buy|hold|keep|set)\s+(?:me\s+|us\s+)?"
    r"(?P<v>one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
    r"(?=\s+(?:aside|back|by|please|pls|then|for\s+(?:me|us))\b|\s*[,.!]|\s*$)", re.I)
"""How many of the row just shown: "I'll take 2 of those", "8 of those then please", "put one aside for us"."""


def count_of_shown(reader: "TurnReader", ints: list[Field], text: str) -> tuple[Field, int] | None:
    """The count field (the one open whole-number field that counts: "quantity", "how many", never a driver's age) and
    the number a turn says of the row it takes; None when there is no such field or number, or the number says some of
    a group ("2 of them are kids")."""
    from ..opening.given_values import _COUNT_STEMS  # late: the opening rules import this package
    fields = [f for f in ints if field_stems(f) & _COUNT_STEMS or re.match(r"\s*how\s+many\b", f.description or "", re.I)]
    found = [m for m in _SHOWN_COUNT.finditer(text or "") if not some_of(text, m.end("n") if m.group("n") else m.end("v"))]
    if len(fields) != 1 or len(found) != 1:
        return None
    spans = find_numbers(found[0].group("n") or found[0].group("v"))
    if not spans or not float(spans[0].value).is_integer() or spans[0].value <= 0:
        return None
    return fields[0], int(spans[0].value)


def _count_beside(reader: "TurnReader", rec: TaskRecord, rest: str, label: str) -> None:
    """ "the standard ones are fine, 250 of them": the one number said beside the row chosen (not one of its name,
    not the one that chose it) is the record's one open count."""
    counts = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) == "int" and reader.view.unfilled(rec, f)]
    numbers = [n for n in find_numbers(rest) if n.text not in label and not re.search(r"(?:st|nd|rd|th)$", n.text)]
    if len(counts) != 1 or len(numbers) != 1 or not float(numbers[0].value).is_integer() or numbers[0].value <= 0:
        return
    after = rest[numbers[0].end:].lower().split()
    said_of = re.match(r"\s*(?:x\b|of\s+(?:them|those|these|it)\b)", rest[numbers[0].end:], re.I)
    if said_of or (after and stem(after[0].strip(",.!?")) in field_stems(counts[0])):
        reader.assign("extra-value", numbers[0].text, rec, counts[0], int(numbers[0].value))
        # "250 of them", "3 years please"; not "we've got 2 cats", "after 3 please" (the number says something else)


_POINTED = re.compile(r"^\W*(?:(?:ok|okay|yes|yeah|yep|right|fine|go\s+on|alright|great|lovely|perfect)[,.!\s]+)*"
                      r"(?:(?:with|book|get|have|take)\s+)?(?:her|him)(?:\s+(?:then|please|pls|thanks|ta))*\W*$|"
                      r"\b(?:that|this)\s+one\b|\b(?:of\s+)?(?:those|these|them)\b|"
                      r"\b(?:take|want|have|hold|reserve|book|get|keep)\s+(?:it|that)\b|"
                      r"(?<!\bto\s)(?<!n't\s)(?<!\bnot\s)\b(?:book|put|get|sign|see)\s+(?:me|us)\s+(?:in\s+|down\s+|up\s+)?"
                      r"(?:with|for)\s+(?:her|him|them|that|this|it)\b(?!\s+(?:is|was|are|were|to)\b)(?!\s+[a-z]+'s\b)"
                      r"(?!\s+(?:month|week|year|newsletter|list|mailing)\b)", re.I)
"""Words that point at the one row just shown: "great, that one", "I'll take 3 of those", "hold it for me",
"ok book me with her for a checkup", "book me in for that"."""


def _the_one_shown(reader: "TurnReader", text: str, kb_var: str, row: dict[str, Any]) -> bool:
    """ "great, that one" after a question answered with one row, while the field asked takes such rows and is still
    empty (the question was asked, not given as the field's answer): that row fills it, with a number said beside it
    for the record's one count ("I'll take 3 of those")."""
    e = reader.expect
    if e is None or e.act != "ask" or reader.view.kind_of(e.field) != "row" or not _awaits_row(reader, e.rec, e.field) \
            or not row_fits(reader, e.field, row) or is_question(text):
        return False
    if _TURNED_DOWN.search(text) or _SET_ASIDE.search(text) or re.search(r"\b(?:none|neither)\b", text, re.I):
        return False  # "none of those work for me", "that one is too small", "anything but the hawthorn one"
    m = _POINTED.search(text)
    if m is not None and re.search(r"n't\b|\bnot\b|\bnever\b|\bno\b", re.split(r"[,;.!?]", text[:m.start()])[-1], re.I):
        return False  # "I'd rather you didn't book me with her"
    valued = (valued_row(text, [row], row_label) or _the_word_one(text, [row])) if m is None else None
    # "the brixton one then": its site; "the hawthorn one": a word of its name
    if m is None and valued is None:
        return False
    reader.emit("choose-result", m.group(0) if m else valued[1], f"{e.rec.var}.{e.field.name} = {kb_var}.result[0]")
    if m is not None and m.start() > 0 or m is not None and m.end() < len(text):  # "book me with her for a checkup"
        _values_beside(reader, e.rec, text[:m.start()] + " " + text[m.end():], str(row_label(row) or ""))
    counts = [f for f in reader.view.input_fields(e.rec) if reader.view.kind_of(f) == "int"
              and reader.view.unfilled(e.rec, f)]
    numbers = find_numbers(text)
    if len(counts) == 1 and len(numbers) == 1:
        reader.assign("extra-value", numbers[0].text, e.rec, counts[0], int(numbers[0].value))
    return True


_NOT_FOR_A = r"(?!\s+(?:for|to|on)\s+(?:a|an|some|your|the\s+(?:mailing|waiting|news)\w*|(?:mailing|waiting)\b))"
"""Not a place on the thing shown: "put me down for a brochure", "sign me up to your newsletter"."""
_SIGNED_ON = r"(?:sign|put)\s+(?:me|us)\s+(?:up|down)\b" + _NOT_FOR_A
"""A place asked for: "sign me up", "put us down" (not "for a brochure")."""
_COMERS = r"(?:i|we|me\s+(?:n|and|&|\+)\s+(?:my|the)\s+\w+|my\s+\w+\s+and\s+(?:i|me)|(?:the\s+)?(?:two|three|four)\s+of\s+us)"
"""Who asks to come: "we", "me n my boyfriend", "the two of us"."""
_COME_ON = (r"(?:come|join(?:\s+(?:it|in))?|attend)\s+(?:(?:on|this|next|the)\s+){0,2}(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|"
            r"fri|sat(?:ur)?|sun)(?:day)?\b|\d{1,2}(?:st|nd|rd|th)?\b|tomorrow\b|tonight\b)")
"""Coming on a day ("come Thursday 22nd", "come this saturday"): a place asked for; "come and watch", "come with
our dog" or "come a bit late" ask something else."""
_TAKEN = re.compile(r"\b(?:let'?s\s+(?:do|go\s+(?:with|for)|book|get|have|take)|i'?ll\s+(?:take|have|go\s+(?:with|for))|"
                    + _SIGNED_ON + "|"
                    rf"(?:can|could|may)\s+{_COMERS}\s+(?:please\s+)?{_COME_ON}|"
                    r"(?:can|could)\s+(?:i|we)\s+(?:book|have|get|take|hire|rent|reserve)|book|reserve|hire|rent|go\s+with)\b",
                    re.I)
"""Words that take the row just shown: "let's do the Land Rover", "I'll go with that", "can we book it"."""
_SIGN_UP = re.compile(r"\b(?:sign|put)\s+(?:me|us|(?:the\s+)?(?:two|three|four)\s+of\s+us)\s+(?:up|down)\b" + _NOT_FOR_A, re.I)
"""A place asked for on the thing just shown: "sign me up for the 31st", "put me down for it"."""
_FOR_THAT = re.compile(r"\b(?:sounds|looks)\s+(?:\w+\s+)?(?:ideal|great|perfect|good|lovely|brilliant|fab|fun|spot\s+on|"
                       r"grand|ace)\b|\bfor\s+(?:it|that|this)\b", re.I)
"""Words that point at the one thing just shown: "sounds ideal", "put me down for it"."""


def _fits_shape(f: Field, label: str) -> bool:
    """A row's label can be the value of a text field only in the field's shape: a number, code or reference field
    ("certification_number") never takes a name with no digit ("Blue Cathedral")."""
    numbered = bool({w for w in f.name.lower().split("_")} & {"number", "code", "ref", "reference"})
    return not numbered or bool(re.search(r"\d", label))


def _awaits_row(reader: "TurnReader", rec: TaskRecord, f: Field) -> bool:
    """The row field is empty, or holds a search whose rows the agent asked the user to choose among."""
    if reader.view.unfilled(rec, f):
        return True
    target = ref_target(rec.values.get(f.name))
    return target is not None and reader.view.kb_record(target) is not None


def _names_rows(reader: "TurnReader", f: Field, rows: list[dict[str, Any]]) -> bool:
    """A text field that names rows of this kind (course_name for course rows): a choice fills it with the label."""
    if reader.view.kind_of(f) != "str" or shape(f) not in ("short", "code"):
        return False
    keys = {stem(w) for row in rows[:1] for k in row for w in k.split("_") if w}
    return bool(field_stems(f, with_description=False) & keys)


def _open_with_row(reader: "TurnReader", row: dict[str, Any], path: str, words: str) -> bool:
    """No record takes the row: open the task worksheet that has a field of its type (e.g. a booking)."""
    nested = reader.spec.nested_worksheet_names()
    for ws in reader.spec.task_worksheets():
        if ws.name in nested:
            continue
        f = next((f for f in ws.fields if reader.view.kind_of(f) == "row" and row_fits(reader, f, row)), None)
        if f is None:
            continue
        for eq_path, value in equalities(ws.predicate):
            set_equality(reader, eq_path, value)
        live = [r for r in reader.state.of_worksheet(ws.name) if r.status == "active" and r.parent is None]
        var = live[0].var if live else reader.state.new_var(snake_case(ws.name))
        kwargs = {f.name: path}
        from ..opening.tasks import count_after_verb  # late: the opening rules import this package
        from ..opening.given_values import count_of_rows
        count_of_rows(reader, ws, reader.text, kwargs)  # "book one for two wardrobes": the number before the name
        ghost = TaskRecord(var=var, worksheet=ws.name)
        candidates = [(ghost, x) for x in ws.fields if x.kind == "input" and x.name not in kwargs
                      and reader.view.kind_of(x) not in ("confirm", "task", "row", "list")]
        mentions = find_mentions(reader.text, candidates, reader.view, reader.today)
        for m in mentions:
            kwargs[m.field.name] = literal(m.value)  # "Tulsi, for Friday": the other values of the booking
        bag = Bag.of(without_negated(reader.text))
        for x in ws.fields:  # "the proace one, pick us up at stansted": an option its words describe, as when
            if x.kind == "input" and x.name not in kwargs and reader.view.kind_of(x) == "Enum":  # a task opens
                best = best_enum(x, bag)
                if best:
                    kwargs[x.name] = literal(best[0])
        listed = [x for x in ws.fields if x.kind == "input" and x.name not in kwargs]
        for x, value in row_list_values(reader, listed, reader.text, row):
            kwargs[x.name] = literal(value)  # "the velvet one, in mustard": a colour the row comes in
        count = count_after_verb(reader, ws, reader.text, kwargs, mentions)
        if count is not None:  # "reserve one peace lily": how many, said before the row's name
            kwargs[count[0].name] = literal(count[1])
        elif (counted := count_of_shown(reader, [x for x in ws.fields if x.kind == "input" and x.name not in kwargs
                                                 and reader.view.kind_of(x) == "int"], reader.text)) is not None:
            kwargs[counted[0].name] = literal(counted[1])  # "ooh the first one looks good, I'll take 2 of those"
        _same_as_last_time(reader, ws, reader.text, kwargs)  # "X at 3pm, same crew": the booking before's
        reader.emit("choose-result", words, f"{var} = {ws.name}({kwargs_text(kwargs)})")
        return True
    return False


_REQUESTED = re.compile(r"^(?:(?:so|and|then|ok|okay)[,\s]+)*(?:(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?"
                        r"(?:get|have|book|reserve|grab)|(?:can|could|would|will)\s+you\s+(?:please\s+)?"
                        rf"(?:book|reserve|get|grab)\s+(?:me|us)|(?:can|could|may)\s+{_COMERS}\s+(?:please\s+)?"
                        rf"{_COME_ON}|(?:please\s+)?{_SIGNED_ON})", re.I)


def _named_then_requested(text: str) -> bool:
    """ "Grey Heron looks nice, can we get it saturday for 4?": a question that only asks to have the thing
    (a clause after the first one that asks for it); the row is named in a clause that is no question."""
    clauses = [c.strip() for c in re.split(r"[,;.!]\s*|\s+-+\s+", normalise(text)) if c.strip(" ?")]
    return len(clauses) >= 2 and not is_question(clauses[0]) and \
        any(_REQUESTED.match(c) for c in clauses[1:]) and not _WH_WORD.search(text)


def _picking_clause(text: str, n: int) -> str | None:
    """The clause that picks the row: the last one that names a place in the list ("can we book the second one?"),
    else the first one when it does not turn the row down ("the first one's too pricey, ...")."""
    clauses = [c.strip() for c in re.split(r"[,;.!?]\s*|\s+-+\s+", normalise(text)) if c.strip(" ?")]
    for clause in reversed(clauses):
        if choice_index(clause, n) is not None:
            return None if clause is clauses[0] and len(clauses) > 1 and _TURNED_DOWN.search(clause) else clause
    return None


_TURNED_DOWN = re.compile(r"\b(?:too|not|isn'?t|doesn'?t|don'?t|out\s+of|over\s+(?:our|my)|can'?t|won'?t|no\s+good)\b",
                          re.I)


_ASKING = re.compile(r"^\W*(?:(?:so|and|then|ok|okay|oh)[,\s]+)*(?:what|which|when|where|who|whom|whose|why|how|is|are|"
                     r"am|was|were|do|does|did|can|could|will|would|should|shall|may|might|have|has|any)\b", re.I)


def _named_then_values(text: str) -> str | None:
    """ "the 2nd one looks good - court for 2 tomorrow at 7pm?": a row named in a first clause that is no question,
    then a clause of values typed with a question mark but asking nothing (no question word, no auxiliary verb in
    front: a request said with a rising tone). The first clause, to pick the row by."""
    clauses = [c.strip() for c in re.split(r"[,;.!]\s*|\s+-+\s+", normalise(text)) if c.strip(" ?")]
    if len(clauses) < 2 or is_question(clauses[0]) or _WH_WORD.search(text):
        return None
    later = clauses[1:]
    if not later[-1].endswith("?") or any(_ASKING.match(c) for c in later) or \
            not all(re.search(r"\d|\b(?:tomorrow|tonight|today|monday|tuesday|wednesday|thursday|friday|saturday|"
                              r"sunday)\b", c, re.I) for c in later):
        return None
    return clauses[0]


_WH_WORD = re.compile(r"\b(?:what|which|where|who|why|how|when|whether|if)\b", re.I)


def _by_short_name(text: str, rows: list[dict[str, Any]]) -> tuple[int, str] | None:
    """ "Grey Heron looks nice": the first two words (or more) of one reported row's name, which begin no other
    row's name, are that row."""
    low = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
    hits = []
    for i, row in enumerate(rows):
        label = row_label(row)
        words = re.sub(r"[^a-z0-9]+", " ", (label or "").lower()).split()
        if len(words) < 3:
            continue  # a two-word name said in part is one word: too weak
        head = " ".join(words[:2])
        others = [re.sub(r"[^a-z0-9]+", " ", (row_label(r) or "").lower()).strip()
                  for j, r in enumerate(rows) if j != i]
        if f" {head} " in low and not any(o.startswith(head) for o in others):
            hits.append((i, label))
    return hits[0] if len(hits) == 1 else None


_SET_ASIDE = re.compile(r"\b(?:but|rather\s+than|instead\s+of|other\s+than|except(?:\s+for)?|apart\s+from|"
                        r"not|never|had|already|before|hate|don'?t|no)\b", re.I)
"""Words before a row's word that set that row aside ("anything but a leather one", "I already rent the hawthorn one")."""
_CHOOSING_LEAD = re.compile(r"\W*(?:(?:just|yes|yeah|yep|ok(?:ay)?|erm|um|maybe|probably|i'?ll\s+(?:take|have|go\s+for)|"
                            r"i'?d\s+like|go\s+for|we'?ll\s+(?:take|have))\b[\s,]*)*", re.I)
"""What may lead a row said as "a <word> one": nothing, or words that choose."""
_THE_WORD_ONE = re.compile(r"\b(?:the|a|an)\s+([A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*)?)\s+ones?\b", re.I)


def _the_word_one(text: str, rows: list[dict[str, Any]]) -> tuple[int, str] | None:
    """ "the Hazel one at Millbrook then": a word (or two) of one reported row's name, said as "the <word> one", that
    no other row's name has, is that row."""
    hits = set()
    for m in _THE_WORD_ONE.finditer(text):
        clause = re.split(r"[,;.!?]|\s-+\s", text[m.start():])[0]
        before = re.split(r"[,;.!?]|\s-+\s", text[:m.start()])[-1]
        if _TURNED_DOWN.search(clause) or _TURNED_DOWN.search(before) or _SET_ASIDE.search(before) or \
                re.search(r"non-?$", before.strip(), re.I):
            continue  # "not the Hazel one", "the Hazel one is too small", "rather than the leather one": turned down
        if not m.group(0).lower().startswith("the") and not _CHOOSING_LEAD.fullmatch(before):
            continue  # "a leather one" only at the start of a clause ("just a normal pvc one"), not "I had a leather one"
        said = " " + re.sub(r"[^a-z0-9]+", " ", m.group(1).lower()).strip() + " "
        if said.strip() in ("first", "second", "third", "last", "other", "same", "cheaper", "cheapest", "next") or \
                said.split()[0] in ("non", "not", "no"):
            continue  # "the non-leather one" sets the leather one aside
        labels = [" " + re.sub(r"[^a-z0-9]+", " ", (row_label(row) or "").lower()).strip() + " " for row in rows]
        named = [i for i, label in enumerate(labels) if said in label]
        last = " " + said.split()[-1] + " "
        if not named and len(said.split()) == 2 and len(last.strip()) >= 3:
            named = [i for i, label in enumerate(labels) if last in label]  # "a normal pvc one": the PVC one
        if len(named) == 1:
            hits.add((named[0], row_label(rows[named[0]]) or m.group(0)))
    if not hits:
        for m in _THE_ONE_WITH.finditer(text):
            before = re.split(r"[,;.!?]|\s-+\s", text[:m.start()])[-1]
            if _TURNED_DOWN.search(before) or _SET_ASIDE.search(before):
                continue
            said = " " + re.sub(r"[^a-z0-9]+", " ", m.group("w").lower()).strip() + " "
            cells = [" ".join(" " + re.sub(r"[^a-z0-9]+", " ", str(v).lower()).strip() + " "
                              for k, v in row.items() if k != "id") for row in rows]
            named = [i for i, c in enumerate(cells) if said in c]
            if len(named) == 1:
                hits.add((named[0], row_label(rows[named[0]]) or m.group(0)))
    return hits.pop() if len(hits) == 1 else None


_THE_ONE_WITH = re.compile(r"\bthe\s+one\s+(?:in|at|from|with|near|on|by|based\s+in)\s+(?:the\s+)?"
                           r"(?P<w>[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*)??)(?=\s*(?:[,.!?;]|(?:please|then|thanks|pls|"
                           r"for|we|i|and|but|so)\b|$))", re.I)
"""A shown row picked by one of its values: "the one in Ashford please", "the one with the hot tub"."""


def _same_as_last_time(reader: "TurnReader", ws: Any, text: str, kwargs: dict[str, str]) -> None:
    """ "Sea Swallow Catamaran at 3pm, same crew" when a booking of this worksheet was made before: "same <field
    words>" gives the new record that field's value in the latest earlier record of the worksheet (one field per piece)."""
    from ..changes.edits import SAME_FIELDS  # late: edits imports the intents this module uses
    from ..words.match import Bag, field_mention
    earlier = [r for r in reader.state.of_worksheet(ws.name) if r.parent is None]
    if not earlier:
        return
    for m in SAME_FIELDS.finditer(text):
        for word in re.split(r"\s*(?:,|\band\b|&)\s*", m.group("words")):
            bag = Bag.of(word)
            fields = [f for f in ws.fields if f.kind == "input" and f.name not in kwargs
                      and reader.view.kind_of(f) not in ("confirm", "task", "row", "list")
                      and field_mention(f, bag)[0] > 0]
            held = [r.values.get(fields[0].name) for r in earlier] if len(fields) == 1 else []
            held = [v for v in held if v is not None and ref_target(v) is None and v != "NA"]
            if held:
                kwargs[fields[0].name] = literal(held[-1])


def _by_name(text: str, rows: list[dict[str, Any]]) -> tuple[int, str] | None:
    low = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
    hits = []
    for i, row in enumerate(rows):
        label = row_label(row)
        if not label:
            continue
        norm = re.sub(r"[^a-z0-9]+", " ", label.lower()).strip()
        if len(norm) >= 3 and (f" {norm} " in low or (len(norm) >= 5 and fuzz.partial_ratio(norm, low) >= 90)):
            hits.append((i, label))
    return hits[0] if len(hits) == 1 else None


def _choice_target(reader: "TurnReader", kb_var: str, row: dict[str, Any]) -> str | None:
    expect = reader.expect
    if expect is not None and reader.view.kind_of(expect.field) == "row":
        return f"{expect.rec.var}.{expect.field.name}"
    for rec in reader.state.tasks():
        for name, value in rec.values.items():
            if ref_target(value) == kb_var and rec.status == "active":
                return f"{rec.var}.{name}"
    for rec in reader.view.live_records():
        for f in reader.view.input_fields(rec):
            if reader.view.kind_of(f) == "row" and reader.view.unfilled(rec, f) and row_fits(reader, f, row):
                return f"{rec.var}.{f.name}"
    return None


def row_fits(reader: "TurnReader", f: Field, row: dict[str, Any]) -> bool:
    """Whether a KB row can be the value of row field `f`: it has the columns of the field's type, from its table."""
    ws = reader.spec.worksheet(parse_type(f.type).base)
    if ws is None or not ws.fields or not {x.name for x in ws.fields} <= set(row):
        return False
    label = row_label(row)
    if ws.kind == "kb" and reader.ctx.kb is not None and label:  # a clinic has a vet's columns and more: the table
        from .items import name_tables  # whose names hold the row's name says which it is
        tables = {t.lower() for t in name_tables(reader.vocabulary, reader.ctx.kb, label)}
        return not tables or ws.name.lower() in tables
    return True
