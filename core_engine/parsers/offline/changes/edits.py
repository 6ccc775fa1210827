"""Edits to values already given: changes of mind, "same as before", special requests.

These rules change the state the user has built rather than answer the question
asked: "can I change it to 1 pm" (the field is found by the value's type, or by
name: "change the grade type for CS 224N to letter"), "same time as before" (a
field copied from an earlier record of the same worksheet), "can you tell them
it's my birthday" (appended to the record's notes field).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ....spec.model import REFUSAL, Field, parse_type
from ....spec.values import coerce_scalar
from ....dialogue.state import TaskRecord, ref_target
from ..intents import addendum, change_marker, change_to, is_question, same_as, sentences, special_request
from ..words.match import HEDGES, Bag, content_stems, field_mention, field_stems, name_coverage, stem
from ..answering.slots import find_mentions, shape
from ..words.values import find_codes

if TYPE_CHECKING:
    from ..parser import TurnReader

_REQUEST_WORDS = {stem(w) for w in ("request", "special", "note", "notes", "comment", "instruction", "occasion",
                                    "extra", "additional")}


def same_as_rule(reader: "TurnReader", text: str) -> bool:
    """ "Same as the previous one", "same time as before": copy the value of an earlier record of the worksheet."""
    found = same_as(text)
    if not found:
        return False
    words, what, field_words = found
    if not field_words and _new_item_same_as(reader, text, words, what):
        return True
    targets = _same_as_targets(reader, field_words)
    for rec, f in targets:
        earlier = _earlier_values(reader, rec, f) or (_earlier_elsewhere(reader, rec, f) if what == "previous" else [])
        # (another task's record only for "as before", "as last time": "same as I said, HG5 8JP" gives the value)
        if what not in ("previous", "first"):
            key = re.sub(r"\W+", "", what.lower())
            named = [r for r in earlier if any(isinstance(v, str) and re.sub(r"\W+", "", v.lower()) == key
                                               for v in r.values.values())]
            earlier = named or earlier
        if earlier:
            source = earlier[0] if what == "first" else earlier[-1]
            reader.emit("same-as-previous", words, f"{rec.var}.{f.name} = {source.var}.{f.name}")
            return True
    if field_words and what == "previous" and len(targets) == 1:
        rec, f = targets[0]
        found_in = _named_elsewhere(reader, rec, f, field_words)
        if found_in is not None:  # "same name as before": the attendee's name of the class booked, for the visit
            reader.emit("same-as-previous", words, f"{rec.var}.{f.name} = {found_in[0].var}.{found_in[1]}")
            return True
    return False


def _new_item_same_as(reader: "TurnReader", text: str, words: str, what: str) -> bool:
    """ "SL 204 as well, same as the other one" while the next lesson's code is asked: the value said answers the
    question asked, and "same as ..." gives the record's other empty fields the values of the record before it of
    the same worksheet (the first one, for "same as the first"). Only a value with a shape (a code, a number, a date,
    an option) is taken for the answer; with none, the field asked is copied as before."""
    e = reader.expect
    if e is None or e.act != "ask" or not reader.view.unfilled(e.rec, e.field):
        return False
    rest = text.replace(words, " ", 1) if words in text else re.sub(re.escape(words), " ", text, count=1, flags=re.I)
    if reader.view.kind_of(e.field) == "str":
        said = [(c.text, c.value) for c in find_codes(rest)]  # a text field: only a code is sure to be its value
    else:
        said = [(m.matched, m.value) for m in find_mentions(rest, [(e.rec, e.field)], reader.view, reader.today)
                if m.field.name == e.field.name]
    earlier = [r for r in reader.state.of_worksheet(e.rec.worksheet) if r.var != e.rec.var
               and r.values.get(e.field.name) not in (None, REFUSAL)]
    if len(said) != 1 or not earlier or said[0][1] == earlier[-1].values.get(e.field.name):
        return False
    source = earlier[0] if what == "first" else earlier[-1]
    reader.assign("same-as-previous", said[0][0], e.rec, e.field, said[0][1])
    for f in reader.view.input_fields(e.rec):
        value = source.values.get(f.name)
        if f.name == e.field.name or reader.view.kind_of(f) in ("confirm", "task") \
                or not reader.view.unfilled(e.rec, f) or value in (None, REFUSAL) or ref_target(value) is not None:
            continue
        reader.assign("same-as-previous", words, e.rec, f, value)
    reader.answered = True
    return True


SAME_FIELDS = re.compile(r"(?:^|[,;.!?]|\band\b)\s*(?:the\s+)?same\s+(?P<words>(?!and\b)[\w']+(?:\s*(?:,|\band\b|&)\s*(?!and\b)[\w']+)*)"
                          r"\s*(?=[,;.!]|$|\s+but\b)", re.I)
"""A piece "same <field>" after a comma or a full stop, ending the sentence or before "but" ("and the cello too. same
teacher but 30 minutes")."""


def same_fields(reader: "TurnReader", text: str, rec: TaskRecord, taken: set[str]) -> set[str]:
    """ "the second one is CS 107, same grading, 4 units": a piece "same <field>" beside an answer about a record
    gives the record's unfilled field the value the record before it (of the same worksheet) holds."""
    done: set[str] = set()
    for m in SAME_FIELDS.finditer(text):
        for word in re.split(r"\s*(?:,|\band\b|&)\s*", m.group("words")):
            bag = Bag.of(word)
            fields = [f for f in reader.view.input_fields(rec) if f.name not in taken | done
                      and reader.view.kind_of(f) not in ("confirm", "task") and reader.view.unfilled(rec, f)
                      and field_mention(f, bag)[0] > 0]
            earlier = _earlier_values(reader, rec, fields[0]) if len(fields) == 1 else []
            if earlier:
                f = fields[0]
                reader.assign("same-as-previous", m.group(0).strip(" ,;"), rec, f, earlier[-1].values[f.name])
                done.add(f.name)
    return done


def _same_as_targets(reader: "TurnReader", field_words: str) -> list[tuple[TaskRecord, Field]]:
    """The field to copy: the one named ("same time as before"), else the one just asked."""
    e = reader.expect
    if field_words:
        bag = Bag.of(field_words)
        scored = [(field_mention(f, bag)[0], rec.var == reader.expect_var(), rec, f)
                  for rec in reader.view.live_records() for f in reader.view.input_fields(rec)
                  if reader.view.kind_of(f) not in ("confirm", "task")]
        scored = [x for x in scored if x[0] > 0]
        scored.sort(key=lambda x: (-x[0], not x[1]))
        if scored:
            return [(rec, f) for _s, _mine, rec, f in scored]
        said = set(content_stems(field_words))
        described = [(e.rec, f) for f in reader.view.input_fields(e.rec) if reader.view.unfilled(e.rec, f)
                     and said <= set(content_stems(f.description or ""))] if e is not None and said else []
        if len(described) == 1:
            return described  # "same number as before": the one empty field its description calls a number
    return [(e.rec, e.field)] if e is not None else []


def _earlier_values(reader: "TurnReader", rec: TaskRecord, f: Field) -> list[TaskRecord]:
    """Records of the same worksheet before `rec` whose field holds a plain value."""
    earlier = []
    for other in reader.state.of_worksheet(rec.worksheet):
        if other.var == rec.var:
            break
        value = other.values.get(f.name)
        if value not in (None, REFUSAL) and ref_target(value) is None:
            earlier.append(other)
    return earlier


def _earlier_elsewhere(reader: "TurnReader", rec: TaskRecord, f: Field) -> list[TaskRecord]:
    """Records of other worksheets, made before `rec`, whose field of the same name holds a plain value ("same
    number as before": the phone given for the aftercare question, now for the piercing booked after it)."""
    earlier = []
    for other in _records_before(reader, rec):
        value = other.values.get(f.name)
        ws = reader.view.worksheet(other)
        g = ws.field(f.name) if ws is not None else None
        if other.worksheet != rec.worksheet and value not in (None, REFUSAL) and ref_target(value) is None \
                and g is not None and same_meaning(f, g):
            earlier.append(other)
    return earlier


def _records_before(reader: "TurnReader", rec: TaskRecord) -> list[TaskRecord]:
    """The task records made before `rec`, in order (all of them when `rec` is not in the state)."""
    tasks = reader.state.tasks()
    at = next((i for i, r in enumerate(tasks) if r.var == rec.var), len(tasks))
    return tasks[:at]


_GENERIC = {stem(w) for w in ("name", "number", "your", "the", "a")}


def same_meaning(f: Field, g: Field) -> bool:
    """Two fields of one name in two worksheets that mean the same thing: the same description, or descriptions
    sharing a word beyond "name"/"number" ("A phone number we can text", "A phone number the team can call"); not
    "Your pet's name" and "Your full name"."""
    a, b = (f.description or "").strip().casefold(), (g.description or "").strip().casefold()
    if not a or not b or a == b:
        return True
    return bool((set(content_stems(a)) & set(content_stems(b))) - _GENERIC)


def _named_elsewhere(reader: "TurnReader", rec: TaskRecord, f: Field, field_words: str) -> tuple[TaskRecord, str] | None:
    """The latest earlier record of another worksheet with one field of `f`'s type that the words name and that
    holds a plain value ("same name" -> `attendee_name` of the class booked before the home visit)."""
    said = set(content_stems(field_words))
    if not said:
        return None
    for other in reversed(_records_before(reader, rec)):
        ws = reader.view.worksheet(other)
        if ws is None or other.worksheet == rec.worksheet:
            continue
        named = [g for g in ws.fields if g.type == f.type and said <= set(content_stems(g.name.replace("_", " ")))
                 and same_meaning(f, g)
                 and other.values.get(g.name) not in (None, REFUSAL) and ref_target(other.values.get(g.name)) is None]
        if len(named) == 1:
            return other, named[0].name
        if named:
            return None  # two of them ("boat name", "skipper name"): unclear
    return None


def option_unwanted(reader: "TurnReader", text: str) -> bool:
    """ "wait no I don't want to go fishing, we want to practise racing": the user rejects the option a filled
    field holds (a word of its value, negated) and the rest of the turn names another option of that field: the
    field changes to it. One filled option field only, and the other option read from the words left."""
    from ..words.negation import negations  # late: negation imports the parser's word helpers
    found = []
    for neg in negations(text):
        said = set(content_stems(neg.what))
        for rec in reader.view.live_records():
            for f in reader.view.input_fields(rec):
                value = rec.values.get(f.name)
                if reader.view.kind_of(f) == "Enum" and isinstance(value, str) and value != REFUSAL \
                        and said & set(content_stems(value)):
                    found.append((rec, f, neg))
    if len({(r.var, f.name) for r, f, _n in found}) != 1:
        return False
    rec, f, neg = found[0]
    predicates = [w.predicate for w in reader.spec.worksheets] + [x.predicate for w in reader.spec.worksheets
                                                                   for x in w.fields]
    if any(re.search(rf"\b{re.escape(f.name)}\b", p or "") for p in predicates):
        return False  # an option that opens a task or a field: leaving it is a switch of task, read elsewhere
    rest = (text[:neg.start] + " " + text[neg.end:]).strip()
    other = reader.enum_value(f, rest) if content_stems(rest) else None
    left = [ev.value for ev in f.enum_values if ev.value != rec.values.get(f.name)]
    if other == rec.values.get(f.name):
        other = None  # the rest's words still name the option rejected
    if other is None and len(left) == 1:
        other = left[0]  # "I don't want beginner, I've sailed for years": of two options, the other one
    if not isinstance(other, str):
        return False
    reader.assign("change-of-mind", rest, rec, f, other, reason="the option held is rejected and another named")
    reader.answered = True
    return True


def change_rule(reader: "TurnReader", text: str) -> bool:
    """ "Can I change it to 1 pm", "actually make it 7 people": new values for fields already filled."""
    if option_unwanted(reader, text):
        return True
    marker = change_marker(text)
    if not marker and ruled_out_change(reader, text):
        return True
    e = reader.expect
    confirming = e is not None and (e.act == "confirm" or reader.view.kind_of(e.field) == "confirm")
    if not marker and (is_question(text) or not (confirming or reader.answered)):
        return False
    if marker and re.search(r"\b(?:better|best)$", marker, re.I) and is_question(text):
        return False  # "would 8pm be better for the terrace?" asks; it changes nothing yet
    if not marker and confirming and (settled := _SETTLED_NUMBER.search(text)) and _SOME_OF.search(text[:settled.start()]) \
            and _numbers_after(reader, text, settled.group(0)) and _only_number(reader, text, settled.group(0)):
        return True  # "one of my aunts can't come now, so eleven": the count before is the reason
    found = False
    named = change_to(text)
    if named:
        found = _change_named(reader, *named)
    said = _plain_words(named[1]) if found and named else ""
    prefer = e.rec if e else None
    tail = _marked_clause(text, marker) if marker else None  # "the 1st is a sunday, let's do monday the 2nd instead"
    piece = _marker_piece(tail or text, marker) if marker else None  # "make it saturday, friday's gone mental"
    mentions = find_mentions(piece, reader.candidates(), reader.view, reader.today, prefer=prefer) if piece else []
    after = (tail or text)[(tail or text).find(piece) + len(piece):] if piece else ""
    if mentions and any(find_mentions(after, [(m.rec, m.field)], reader.view, reader.today) for m in mentions):
        tail = piece  # the remark after the change names another value of its field (the one replaced)
    else:
        mentions = find_mentions(tail, reader.candidates(), reader.view, reader.today, prefer=prefer) if tail else []
    if not mentions:
        mentions = find_mentions(text, reader.candidates(), reader.view, reader.today, prefer=prefer)
        later = _numbers_after(reader, text, marker) if marker and mentions else []
        if later:  # "2 people just dropped out so make it 9": the count before the change is its reason
            mentions = [m for m in mentions if m.span is not None and m.span.start >= later[0].start]
    if not found and marker and _CHOOSING.match(marker) and e is not None and e.act == "ask" \
            and reader.view.unfilled(e.rec, e.field) and mentions \
            and all(reader.view.unfilled(m.rec, m.field) for m in mentions):
        return False  # "ok sorry. AR 1102 from Reykjavik", "I'll take that one for a letter": nothing held changes;
        # the answer to the question, with values for other fields beside it
    for m in mentions:
        if marker:
            m = _held_elsewhere(reader, m)
        m = _dated_in_turn(reader, text, tail if tail and m.span is not None and m.span.text in tail else None, m)
        if m.rec.values.get(m.field.name) == m.value or (said and _plain_words(m.matched) in said):
            continue
        if m.span is not None and m.how.startswith("number") and \
                _counts_else(text, m.span.start, m.span.end, m.field):
            continue  # "switch to a 3 seater rowing boat": 3 seats, not 3 hours
        reader.assign("change-of-mind", f"{marker or ''} {m.matched}".strip(), m.rec, m.field, m.value)
        found = True
    if not found and marker and not mentions and not is_question(text) and _option_by_its_own_word(reader, tail or text):
        return True
    if marker and re.fullmatch(r"then|go\s+(?:with|for)", marker, re.I) and e is not None and e.act == "ask" and not confirming \
            and reader.view.unfilled(e.rec, e.field):
        return found  # "oh ok, 30 litre kegs then" to the container asked: the answer, not a new count of anything
    return found or bool(marker and _only_number(reader, text, marker))


_CHANGED_TO_WORD = re.compile(r"\b(?:make\s+(?:it|that|mine|ours)|switch\s+(?:it\s+)?to|change\s+(?:it\s+)?to|"
                              r"go\s+for|let'?s\s+do|can\s+we\s+do)\s+(?:a\s+|an\s+|the\s+)?([a-z]+)\b", re.I)
"""The word a change verb puts in place ("make it video"); a word said anywhere else in the turn ("we can't do video",
"his weight is fine now") chooses nothing."""
_GENERIC_OPTION_WORDS = frozenset(stem(w) for w in """call lesson session service option type plan package class
    appointment booking visit meeting standard basic other general""".split())


def _option_by_its_own_word(reader: "TurnReader", text: str) -> bool:
    """ "and make it video actually": a change to an option held, said by the one word of its name no other option
    of its field has ("video" of Video Call beside Phone Call). Only for a field already holding another option, and
    only when one option of one field has the word."""
    said = {stem(m.group(1)) for m in _CHANGED_TO_WORD.finditer(text)}
    hits = []
    for rec, f in reader.candidates():
        held = rec.values.get(f.name)
        if f.type != "Enum" or not isinstance(held, str) or reader.view.unfilled(rec, f):
            continue
        for ev in f.enum_values:
            others = {s for o in f.enum_values if o is not ev for s in content_stems(o.value)}
            own = {s for s in content_stems(ev.value) if len(s) >= 4} - others - _GENERIC_OPTION_WORDS
            if own & said and ev.value != held:
                hits.append((rec, f, ev.value, sorted(own & said)[0]))
    if len(hits) != 1:
        return False
    rec, f, value, word = hits[0]
    reader.assign("change-of-mind", word, rec, f, value, reason="the one word of the option's name no other option has")
    return True


_SOME_OF = re.compile(r"\b(?:\d+|one|two|three|four|five|a\s+couple|a\s+few)\s+(?:of\s+(?:us|them|my|our|the)|"
                      r"(?:people|guests|friends|kids|children|adults|pupils|players|riders|of\s+us))\b", re.I)
"""Some of the group ("one of my aunts", "2 people"), said before "so eleven": the reason for a new count. Numbers of
another kind ("on till 7 so 8", "the kids are 5 and 7 so two") are no such reason."""
_SETTLED_NUMBER = re.compile(r"\b(?:so|put)\s+(?:it\s+(?:down\s+)?(?:as|at|for|to)\s+|(?:us|me)\s+down\s+(?:as|for)\s+)?"
                             r"(?=(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\W*$)", re.I)
"""A bare number that ends the turn after its reason, to the summary ("one of them can't come now, so eleven",
"put 3"): the new value of the number held."""


_CHOOSING = re.compile(r"^(?:sorry|then|go\s+(?:with|for)|(?:let'?s|we'?ll|i'?ll)\s+(?:go\s+with|take|have))$", re.I)
"""Markers that also start a plain answer ("sorry, ...", "I'll take that one for a letter"), unlike "actually" or
"make that", which change a value given."""


def _held_elsewhere(reader: "TurnReader", m):
    """ "wait make that 2 hours" while the next lesson's code is asked: a change of mind changes a value given, so
    a value for a field that the record asked leaves empty (and does not ask) changes the latest record of the same
    worksheet that holds that field; the field asked itself ("make it 4" to "how many units?") is an answer."""
    e = reader.expect
    if not reader.view.unfilled(m.rec, m.field) or (e is not None and e.rec.var == m.rec.var
                                                    and e.field.name == m.field.name):
        return m
    held = [r for r in reader.view.live_records() if r.worksheet == m.rec.worksheet and r.var != m.rec.var
            and not reader.view.unfilled(r, m.field) and ref_target(r.values.get(m.field.name)) is None]
    return replace(m, rec=held[-1]) if held else m


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _dated_in_turn(reader: "TurnReader", text: str, tail: str | None, m):
    """A new date read with what the turn and the record already say: in the clause that makes the change, a day
    whose month another date of the turn names ("it was the 14th June, can it be the 21st instead": 21 June, not
    the next 21st), and "the tuesday" instead of a date held, the Tuesday of that date's week (never a past day)."""
    import datetime as dt
    from ....spec.model import past_field
    from ..words.values import find_dates

    if m.span is None or reader.view.kind_of(m.field) != "date" or not isinstance(m.value, str):
        return m
    value = m.value
    if tail is not None and (at := text.find(tail)) >= 0:
        whole = [d for d in find_dates(text, reader.today, past=past_field(m.field))
                 if d.start >= at and d.text == m.span.text and isinstance(d.value, str)]
        value = whole[0].value if whole else value
    held = m.rec.values.get(m.field.name)
    said = (tail if tail is not None else text)
    before = said[:said.find(m.span.text)] if m.span.text in said else ""
    said_day = m.span.text.lower().strip()
    if said_day in _WEEKDAYS and isinstance(held, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", held):
        anchor = dt.date.fromisoformat(held)
        if re.search(r"\bthe\s+$", before, re.I):  # "the tuesday instead": that day of the held date's week
            day = anchor + dt.timedelta(days=_WEEKDAYS.index(said_day) - anchor.weekday())
            if day >= reader.today and day != anchor:
                value = day.isoformat()
    return m if value == m.value else replace(m, value=value)


_RULED_OUT = re.compile(
    r"[^,;.!?]*?\b(?:(?:won'?t|will\s+not|doesn'?t|does\s+not|wouldn'?t|(?:is|are)n'?t\s+going\s+to|"
    r"(?:is|are)\s+not\s+going\s+to)\s+(?:work|do|suit)|(?:can'?t|cannot|couldn'?t)\s+(?:do|make))\b[^,;.!?]*", re.I)
"""A clause that rules a value out: "saturday won't work", "7 doesn't work for us", "can't do the 5th"."""


def ruled_out_change(reader: "TurnReader", text: str) -> bool:
    """ "oh shoot saturday won't work, sunday same time?": a clause rules out a value a field holds, and the rest
    of the turn offers another value for that field (a question or not): the offered value is a change of mind.
    The ruled-out clause names the field's current value (or no value at all: "that won't work, the 9th?"); a
    field not filled yet is left to the answer rules."""
    ruled = _RULED_OUT.search(text)
    if ruled is None:
        return False
    rest = text[:ruled.start()] + " " * len(ruled.group(0)) + text[ruled.end():]
    if not rest.strip(" ,;.!?"):
        return False
    fields = [(r, f) for r, f in reader.candidates() if not reader.view.unfilled(r, f)]
    prefer = reader.expect.rec if reader.expect else None
    offered = [m for m in find_mentions(rest, fields, reader.view, reader.today, prefer=prefer)
               if m.rec.values.get(m.field.name) != m.value]
    said = find_mentions(ruled.group(0), fields, reader.view, reader.today, prefer=prefer)
    if len(offered) != 1 or any((m.rec.var, m.field.name) != (offered[0].rec.var, offered[0].field.name)
                                or m.rec.values.get(m.field.name) != m.value for m in said):
        return False
    m = offered[0]
    reader.assign("change-of-mind", m.matched, m.rec, m.field, m.value, ruled_out=ruled.group(0).strip())
    return True


def _marker_piece(text: str, marker: str) -> str | None:
    """The change said from its marker to the next comma, when a remark follows ("actually make it saturday, friday's
    gone mental at work" -> "make it saturday"): the remark may name the value being replaced."""
    at = text.lower().find(marker.lower())
    if at < 0:
        return None
    comma = text.find(",", at + len(marker))
    if comma < 0 or not text[comma + 1:].strip():
        return None
    return text[at:comma].strip() or None


def _marked_clause(text: str, marker: str) -> str | None:
    """The clause that says the change and what follows it, when clauses come before it ("oh wait, the 1st is a
    sunday isn't it, let's do monday the 2nd instead" -> "let's do monday the 2nd instead"); None for one clause."""
    at = text.lower().find(marker.lower())
    if at <= 0:
        return None
    cut = max(text.rfind(p, 0, at) for p in (",", ";", ".", "!", "?", " but ", " so "))
    return text[cut + 1:].strip() if cut > 0 else None


_AFTER_ANY_NUMBER = frozenset({"instead", "please", "then", "thanks", "now", "and", "or", "not", "rather", "if", "so",
                               "but", "for", "of", "total", "altogether", "in", "at", "on", "is", "would", "will"})
"""Words that may follow the new number whatever the field counts ("make it 5 instead", "6 please")."""


def _counts_else(text: str, start: int, end: int, f: Field) -> bool:
    """The number at `start`-`end` describes a thing ("a 3 seater", "the 5 metre wall"): an article before it and
    a noun after it that is not the field's. "make it six packs" (no article) still counts the field."""
    after = re.match(r"[\s-]*([a-z]+)", text[end:].lower())
    before = re.search(r"\b(?:a|an|the)\s+$", text[:start].lower())
    return bool(after and before) and after.group(1) not in _AFTER_ANY_NUMBER \
        and stem(after.group(1)) not in field_stems(f) and not re.match(r"(?:am|pm|h|hrs?|mins?)$", after.group(1))


def _free_numbers(reader: "TurnReader", text: str) -> list:
    """The numbers of the turn that are no part of a date or a time."""
    from ..words.values import find_dates, find_numbers, find_times, free
    return free(find_numbers(text), find_dates(text, reader.today) + find_times(text))


def _numbers_after(reader: "TurnReader", text: str, marker: str, numbers: list | None = None) -> list:
    """The free numbers after the change marker, when a number comes before it too and all those after say one value
    ("we might be 3 actually, put 3", "one of my aunts can't come now, so eleven"); else []."""
    e = reader.expect
    if e is not None and e.act == "ask" and reader.view.kind_of(e.field) in ("int", "float") \
            and reader.view.unfilled(e.rec, e.field):
        return []  # "8, or actually make it 9" to the count asked: an answer settled on, read as one
    numbers = _free_numbers(reader, text) if numbers is None else numbers
    at = text.lower().rfind(marker.lower())
    later = [n for n in numbers if at >= 0 and n.start >= at]
    if any(n.text.lower() == "one" for n in later):
        return []  # "£40 an hour on top? yeah ok, let's have one": "one" there stands for the thing, not a count
    if not later or len(later) == len(numbers) or len({n.value for n in later}) != 1:
        return []
    if all(n.value == later[0].value for n in numbers):
        return []  # "we can only get 2 nights off, so make it 2": one number said twice
    return later


def _only_number(reader: "TurnReader", text: str, marker: str) -> bool:
    """ "actually make it six packs": one number, no field named, and one number field already filled in the
    record being worked on: that number changes."""
    said = _free_numbers(reader, text)
    numbers = _numbers_after(reader, text, marker, said)[-1:] or said  # the number after the reason for the change
    if len(numbers) > 1 and len({n.value for n in numbers}) == 1:
        numbers = numbers[-1:]  # "we might be 4 actually, put 4": one number said twice
    rec = reader.expect.rec if reader.expect else None
    if len(numbers) != 1 or rec is None:
        return False
    held_said = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) in ("int", "float", "str")
                 and rec.values.get(f.name) not in (None, REFUSAL)
                 and any(n is not numbers[0] and str(n.value) == str(rec.values.get(f.name)).strip() for n in said)]
    if len(held_said) == 1:  # "hmm 45 or 46... go with 46": the field holding the number said before it
        f = held_said[0]
        try:
            value = coerce_scalar(numbers[0].value, parse_type(f.type), f)
        except ValueError:
            return False  # 4.5 for a whole number held
        if rec.values.get(f.name) == value:
            return False
        reader.assign("change-of-mind", f"{marker} {numbers[0].text}", rec, f, value,
                      reason="the number replaces the one held that the turn says before it")
        return True
    from ..answering.slots import some_of  # late: slots imports this package's helpers
    if some_of(text, numbers[0].end):
        return False  # "sorry - one of the lads wears hearing aids": some of the group, not a new count
    from ..answering.slots import is_money, money_fields  # late: slots imports this package's helpers
    if is_money(text, numbers[0].start, numbers[0].end) and not money_fields(
            [(rec, f) for f in reader.view.input_fields(rec) if reader.view.kind_of(f) in ("int", "float")
             and not reader.view.unfilled(rec, f)]):
        return False  # "£40 an hour on top? yeah ok": a price said, not a new number of hours
    filled = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) in ("int", "float")
              and not reader.view.unfilled(rec, f)]
    last = _answered_last(reader, rec)
    if last is not None and reader.view.kind_of(last) == "time" and isinstance(numbers[0].value, (int, float)) \
            and float(numbers[0].value).is_integer() and 1 <= numbers[0].value <= 12 \
            and not re.search(rf"\b{re.escape(numbers[0].text)}\s*[a-z]", text[numbers[0].start:], re.I):
        # "ah actually make it 3, the tenant finishes work at 2" just after "2pm": the value said last is changed
        reader.assign("change-of-mind", f"{marker} {numbers[0].text}", rec, last, f"{int(numbers[0].value):02d}:00",
                      reason="a bare hour changes the time given just before")
        return True
    if len(filled) > 1 and last in filled:
        filled = [last]  # the number given just before is the one changed
    if len(filled) != 1 or rec.values.get(filled[0].name) == numbers[0].value:
        return False
    if _counts_else(text, numbers[0].start, numbers[0].end, filled[0]):
        return False  # "switch to a 3 seater rowing boat": the number says what it counts, and not this field
    value = numbers[0].value
    if reader.view.kind_of(filled[0]) == "int" and float(value).is_integer():
        value = int(value)
    reader.assign("change-of-mind", f"{marker} {numbers[0].text}", rec, filled[0], value)
    return True


def _answered_last(reader: "TurnReader", rec: Any) -> Field | None:
    """The field answered just before the one asked now: the filled input field nearest before it in the
    worksheet's order (the agent asks in that order), when the question asked is of the same record."""
    e = reader.expect
    if e is None or e.rec.var != rec.var:
        return None
    fields = reader.view.input_fields(rec)
    names = [f.name for f in fields]
    if e.field.name not in names:
        return None
    before = [f for f in fields[:names.index(e.field.name)] if not reader.view.unfilled(rec, f)]
    return before[-1] if before else None


def _change_named(reader: "TurnReader", what: str, value_text: str) -> bool:
    """ "change the grade type for CS 224N to credit/no credit": the named field, in the named record."""
    bag = Bag.of(what)
    scored = [(field_mention(f, bag)[0], rec, f) for rec, f in reader.candidates()]
    scored = [s for s in scored if s[0] >= 2]
    if not scored:
        return False
    top = max((s[0], name_coverage(s[2], bag)) for s in scored)
    options = [(rec, f) for score, rec, f in scored if (score, name_coverage(f, bag)) == top]
    key = re.sub(r"\W+", "", what.lower())
    mentioned = [(rec, f) for rec, f in options if any(
        isinstance(v, str) and len(v) > 2 and re.sub(r"\W+", "", v.lower()) in key for v in rec.values.values())]
    mine = [(rec, f) for rec, f in options if rec.var == reader.expect_var()]
    rec, f = (mentioned or mine or options)[-1]
    value = reader.value_for(f, value_text)
    if value is None or (isinstance(value, str) and not content_stems(value) and not re.search(r"\d", value)):
        return False  # "that's what the account is under": a function word is no new value
    reader.assign("change-of-mind", f"{what} to {value_text}", rec, f, value)
    return True


def special_request_rule(reader: "TurnReader", text: str) -> str | None:
    """ "Can you tell them it's my birthday": appended to the record's notes field (a special request). Returns the
    sentence that said it (None when no sentence did)."""
    targets = [(r, f) for r in reader.view.live_records() for f in reader.view.input_fields(r, include_dont_ask=True)
               if reader.view.kind_of(f) == "str" and (f.dont_ask or not f.required or shape(f) == "text")
               and field_stems(f) & _REQUEST_WORDS]
    targets.sort(key=lambda t: 0 if t[1].dont_ask or not t[1].required else 1)  # a notes-only field first
    if not targets:
        return None
    e = reader.expect
    told = e is not None and reader.view.kind_of(e.field) == "str" and shape(e.field) == "text"
    for sentence in sentences(text):
        found = special_request(sentence, reasons=not told)  # a reason told to a free-text question answers it
        if found and _values_asked_for(reader, found[1]):
            continue  # "could we do thursday 14th november, getting there about half 9?": the day and time, asked for
        if found:
            rec, f = targets[0]
            old = rec.values.get(f.name)
            value = f"{old}; {found[1]}" if isinstance(old, str) and old and old not in (REFUSAL, "none") else found[1]
            reader.assign("special-request", found[0], rec, f, value)
            return sentence
    notes = [(r, f) for r, f in targets if (f.dont_ask or not f.required) and reader.view.unfilled(r, f)
             and (field_stems(f) & _NOTE_WORDS or _ANYTHING_TO_KNOW.search(f.description or ""))]
    for sentence in (sentences(text)[1:] if notes and not told else []):  # a remark follows an answer
        added = addendum(sentence)
        if added is None or len(added[1].split()) < 3 or _names_values(reader, added[1]) or \
                _not_a_remark(reader, added[1]):
            continue
        rec, f = notes[0]  # "cash when i get there. oh and im allergic to latex": a remark for the notes
        reader.assign("special-request", sentence, rec, f, added[1], reason="a remark added to the answer")
        return sentence
    return None


_NOTE_WORDS = {stem(w) for w in ("note", "notes", "comment", "comments", "additional", "extra")}
_ANYTHING_TO_KNOW = re.compile(r"\banything\b.*\b(?:know|add|else|mention)\b", re.I)
"""A field for remarks: its name says notes or comments, or its description asks for anything else to know ("Anything
the artist should know"); not a delivery instruction or an occasion, which a remark is not."""
_INTRODUCED = re.compile(r"^(?i:i'?m|i\s+am|my\s+name(?:'s|\s+is)?|this\s+is)\s+[A-Z][a-z]+")
_NOT_REMARK = re.compile(r"^(?:no|nothing|none|not|nope|nah|that'?s|that\s+is|it'?s\s+(?:a|my|the))\b|@|"
                         r"\b(?:email|e-mail|phone|mobile|number|name)\b|"
                         r"\b(?:thanks?|thank\s+you|cheers|cancel|order|book|change|instead|want|need|like|one\s+more|"
                         r"another|extra|anything\s+else)\b|\d", re.I)
"""Not a remark: a no ("oh and no occasion"), a word on the answer ("that's a mobile number"), an introduction ("I'm Jo
Bloggs"), contact details, thanks, a request ("oh and cancel my coffee order", "I also want to order a latte"), a
count ("there'll be one more person"), a number."""


def _not_a_remark(reader: "TurnReader", said: str) -> bool:
    """The words decline, thank, ask for something or count, or name an option of a field of the live records
    ("oh and we'd like to sit outside"): an answer, a change or a request, not a remark for the notes."""
    if _NOT_REMARK.search(said) or _INTRODUCED.match(said):
        return True
    low = " " + " ".join(content_stems(said)) + " "
    return any(f" {' '.join(content_stems(ev.value))} " in low for r in reader.view.live_records()
               for f in reader.view.input_fields(r) for ev in f.enum_values if content_stems(ev.value))


def _names_values(reader: "TurnReader", said: str) -> bool:
    """The words give a value of some field of the live records other than free text ("oh and it's 3 bags not 2",
    "oh and I found my card, it's VN-31877"): a change or an answer, not a remark."""
    fields = [(r, f) for r in reader.view.live_records() for f in reader.view.input_fields(r)
              if shape(f) != "text" and reader.view.kind_of(f) not in ("confirm", "task")]
    return bool(find_mentions(said, fields, reader.view, reader.today)) or bool(find_codes(said))


AVOIDED = re.compile(r"\b(?:avoid|not|never|except|anything\s+but|other\s+than|rather\s+than|instead\s+of|"
                     r"(?:day|week|night|morning)\s+(?:after|before))\b|n't\b", re.I)
"""Words that make a value said the one not wanted, or a point from which the value is counted."""


def _values_asked_for(reader: "TurnReader", said: str) -> bool:
    """A request that is typed values (a date, a time, a count) for unfilled fields of the live records and little
    else: those fields are its point, no note."""
    if AVOIDED.search(said):
        return False  # "can we avoid 7pm", "the day after the 14th": not the value said
    from ..parts.elsewhere import TYPED_HOWS  # late: the parts import this module's rules
    open_fields = [(r, f) for r, f in reader.candidates() if reader.view.unfilled(r, f) and shape(f) != "text"]
    found = [m for m in find_mentions(said, open_fields, reader.view, reader.today) if m.how in TYPED_HOWS]
    if not found:
        return False
    rest = said
    for m in found:
        rest = rest.replace(str(m.matched), " ")
    return len([w for w in content_stems(rest) if w not in HEDGES]) <= 3


def _plain_words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "
