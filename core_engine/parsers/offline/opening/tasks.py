"""Spec-driven readings of a whole turn: task descriptions and values given before they are asked.

These are the offline parser's larger rules. They build statements from the
spec's own data: a task description fills the enum fields whose values or
descriptions the user's words match, nesting into the worksheets those values
activate (and, from a deep value, back up through the predicates that lead to
it); a value with an unmistakable shape fills the field the agent would ask next.
Choosing reported rows and accepting proposals live in `offline_rows.py`.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field, Worksheet, parse_type, snake_case
from ....dialogue.state import TaskRecord, ref_target
from ..intents import asks_to, is_question, search_phrase
from ..words.match import (CATCH_ALL, GENERIC, HEDGES, STOPWORDS, Bag, best_enum, content_stems, enum_scores, equalities,
                           field_stems, holds, stem)
from ..words.negation import negations, without_negated
from ..answering.enum_lists import is_enum_list, opening_options
from ..answering.slots import column_mentions, find_mentions, said_texts, shape
from ..words.values import find_codes, find_postcodes
from ..parts.addresses import address_roles, find_addresses, is_address_field, is_postcode_field, split_address
from ..words.labels import mask_labels
from ..kb_rows.spans import inside_kb_name
from .task_texts import task_text_stems
from ..answering.references import laid_out, reference_shapes

if TYPE_CHECKING:
    from ..parser import TurnReader

BOOKING_WORDS = {stem(w) for w in ("table", "reservation", "booking", "book", "place", "spot", "appointment",
                                   "seat", "tonight", "please", "reserve", "one", "some")}
"""Everyday words that ask for a booking rather than say what to search for."""


_SMALL_TALK = {stem(w) for w in ("yes", "yeah", "yep", "yup", "sure", "ok", "okay",
                                  "good", "morning", "afternoon", "evening", "day", "thank", "thanks", "hello", "hi",
                                  "hey", "make", "new", "schedule", "set", "arrange", "ok", "okay")}
"""Greetings and request verbs: a turn left with only these asks for the task, it searches for nothing."""


def task_words(ws: Worksheet) -> set[str]:
    """Stems naming a task worksheet and what its row fields hold (the spec's own words): not search terms."""
    names = [ws.name] + [n for f in ws.fields if f.kind == "input" for n in (f.name, parse_type(f.type).base)
                         if parse_type(f.type).base[:1].isupper() and parse_type(f.type).base != "Enum"]
    return {s for n in names for s in content_stems(snake_case(n).replace("_", " "))}


def literal(value: Any) -> str:
    """A value as a formal-language literal; strings via JSON so quotes and backslashes are escaped."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "None"
    if isinstance(value, (list, tuple)):  # a list field's value ["Toiletries", "Clothing"], not its text
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def kwargs_text(kwargs: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in kwargs.items())


# ---------------------------------------------------------------- task descriptions

class Described:
    """Field name -> (formal literal, plain value for predicates, matched words)."""

    def __init__(self) -> None:
        self.items: dict[str, tuple[str, Any, list[str]]] = {}

    def plain(self) -> dict[str, Any]:
        return {k: v[1] for k, v in self.items.items()}


def match_worksheet(reader: "TurnReader", bag: Bag, ws: Worksheet, values: dict[str, Any],
                    scope: list[tuple[dict[str, Any], Worksheet]], rec: TaskRecord | None,
                    start: Field | None = None, depth: int = 0, spent: frozenset[str] = frozenset(),
                    hints: dict[str, tuple[str, list[str]]] | None = None) -> Described:
    """Enum fields of `ws` (and the worksheets they activate) that the user's words decide.

    Words of an enum value chosen higher up are spent: "leave of absence" picks the task
    Leave of Absence, and must not also pick its sub-issue "Status of Leave of Absence form".
    `hints` are values implied by a deeper match (see `leaf_hints`), used where the words
    alone decide nothing.
    """
    hints = hints or {}
    out = Described()
    if depth > 6:
        return out
    started = start is None
    for f in ws.fields:
        started = started or f.name == start.name  # type: ignore[union-attr]
        if not started or f.kind != "input":
            continue
        current = {**values, **out.plain()}
        existing = current.get(f.name)
        child = reader.state.get(ref_target(existing) or "")
        if existing is not None and not isinstance(child, TaskRecord):
            continue
        frame = [(current, ws), *scope]
        if holds(f.predicate, reader.view.lookup(rec, scope=frame)) is not True:
            continue
        kind = reader.view.kind_of(f)
        if kind == "Enum" and start is not None and f.name == start.name:
            asked = is_question(bag.text) is not None and not asks_to(bag.text, option_verbs(f))
            value = reader.enum_value(f, bag.text, spent=spent, strict=asked)
            if value is None and f.name in hints:
                value = hints[f.name][0]
            if value is not None:
                words = next((w for _s, v, w in enum_scores(f, bag) if v == value and w),
                             hints[f.name][1] if f.name in hints else [bag.text])
                out.items[f.name] = (literal(value), value, words)
        elif kind == "Enum":
            best = best_enum(f, bag.without(spent))
            if f.name in hints and (best is None or not _named_in(best[0], bag.text)):
                best = hints[f.name]  # the deeper reading wins unless the words name this value outright
            if best:
                out.items[f.name] = (literal(best[0]), best[0], best[1])
        elif kind == "list" and is_enum_list(f) and start is None:
            said = opening_options(f, bag.text, reader.view.index(),
                                   lambda one, piece: reader.enum_value(one, piece, spent=spent))
            if said:  # "I had to buy toiletries and a change of clothes": the options named, as a list
                out.items[f.name] = (literal(said[0]), said[0], said[1])
        elif kind == "task":
            if any(ws.field(k) is not None and ws.field(k).type == f.type for k in out.items):
                continue  # the words already went to an earlier field of this type (course_0 before course_1)
            sub = reader.spec.require_worksheet(parse_type(f.type).base)
            sub_values = dict(child.values) if isinstance(child, TaskRecord) else {}
            sub_frame = [(sub_values, sub), *frame]
            if holds(sub.predicate, reader.view.lookup(rec, scope=sub_frame)) is not True:
                continue
            chosen = {s for k, v in current.items() if isinstance(v, str) and ws.field(k) is not None
                      and reader.view.kind_of(ws.field(k)) == "Enum" for s in content_stems(v)}
            inner = match_worksheet(reader, bag, sub, sub_values, frame, rec, depth=depth + 1,
                                    spent=spent | chosen, hints=hints)
            if inner.items or sub.predicate.strip():
                _nested_slots(reader, bag, sub, sub_values, inner)
            elif sum(1 for g in ws.fields if g.type == f.type) == 1:  # an address record of its own: its parts
                _address_slots(reader, bag, sub, sub_values, inner)
            if inner.items:
                text = f"{sub.name}({kwargs_text({k: v[0] for k, v in inner.items.items()})})"
                words = sorted({w for v in inner.items.values() for w in v[2]})
                out.items[f.name] = (text, inner.plain(), words)
    return out


def option_verbs(f: Field) -> set[str]:
    """The first word of each option of an enum field and of its description, lower case ("hold" for "Hold a
    Record", "put" for "put plants aside to collect"): the verbs that ask for one of the tasks it chooses."""
    return {words[0].lower() for v in f.enum_values for text in (v.value, v.description or "")
            for words in [re.findall(r"[A-Za-z]+", text)] if words}


def task_verbs(spec: Any) -> set[str]:
    """The verbs of every enum field whose options choose a task (a task worksheet's predicate tests it)."""
    tasks = spec.task_worksheets()
    return {v for ws in tasks for f in ws.fields if f.type == "Enum" and f.enum_values
            and any(w is not ws and f.name in w.predicate for w in tasks) for v in option_verbs(f)}


def describe_task(reader: "TurnReader", text: str, rec: TaskRecord | None = None,
                  start: Field | None = None) -> bool:
    """Fill enum fields from a description of the task; open worksheets the new values activate.

    Rejected words ("not a leave of absence") are left out of the bag; the asked field reads the
    whole text itself (`enum_value` knows about negation).
    """
    negs = negations(text)
    words = mask_labels(text, reader.spec)  # "room 412" names a room number, not the task Book Room
    bag = Bag(Bag.of(without_negated(words)).stems, text) if negs else Bag(Bag.of(words).stems, text)
    roots = [rec] if rec is not None else [r for r in reader.view.live_records() if r.parent is None]
    overlay: dict[str, dict[str, Any]] = {}
    emitted = False
    for root in roots:
        spent = frozenset(s for a in reader.state.ancestors(root) for k, v in a.values.items()
                          if isinstance(v, str) and _is_enum(reader, a, k) for s in content_stems(v))
        ws = reader.view.worksheet(root)
        hints = leaf_hints(reader, bag.without(spent), ws)
        held = _without_finished_tasks(reader, root, ws) if rec is None else dict(root.values)
        found = match_worksheet(reader, bag, ws, held, [], root, start, spent=spent, hints=hints)
        found.items = {k: v for k, v in found.items.items() if literal(root.values.get(k)) != v[0]}
        if found.items:  # the words named an option; its meaning may name the one below it
            from ..words.semantic import deeper_hints  # late: the semantic rules import this module
            said = {**root.values, **found.plain(), **{k: v for k, (v, _w) in hints.items()}}
            deeper = deeper_hints(reader, ws, text, {root.var: said})
            if deeper and set(deeper) - set(said):
                found = match_worksheet(reader, bag, ws, dict(root.values), [], root, start, spent=spent,
                                        hints={**hints, **deeper})
        said = {w for _v, _p, ws_ in found.items.values() for w in ws_ if isinstance(w, str)}
        if start is not None and start.name in found.items and len(found.items[start.name][2]) == 1:
            value = found.items[start.name][1]  # the asked option, chosen by one word: the meaning may say otherwise
            if reader.answers.one_word_doubt(start, value, found.items[start.name][2], text):
                return False
        if found.items and len(said) == 1 and rec is None and not _asked_by_verb(found, text):
            from ..words.semantic import lexical_overruled, verb_task  # late: the semantic rules import this module
            by_verb = verb_task(reader, text)
            if by_verb is not None and not any(by_verb.lower() == re.sub(r"\W", "", str(v)).lower()
                                               for v in found.plain().values()):
                reader.note("lexical-overruled", next(iter(said)), reading=by_verb,
                            reason="one word chose a task; the turn says another task's verb")
                return False  # "can I reschedule my donation": "donation" names the booking, the verb the change
            overruled = lexical_overruled(reader, text, found.plain())
            if overruled is not None:  # one word chose the option; the whole turn clearly means another
                reader.note("lexical-overruled", next(iter(said)), **overruled)
                return False
        if found.items and len(said) == 1 and rec is None and \
                (by_row := _row_named_for_other_task(reader, text, found.plain())) is not None:
            reader.note("lexical-overruled", next(iter(said)), reading=by_row,
                        reason="one word chose a task; the turn names a KB row that another task's field takes")
            from ..kb_rows.requests import row_request  # late: the row rules import this module
            return row_request(reader, text)  # "I'd like to book A12 ... Boat is Puffin": the berth, not the service
        if found.items and rec is None and not _asked_by_verb(found, text):
            from ..words.semantic import requested_task  # late: the semantic rules import this module
            asked = requested_task(reader, text)
            if asked is not None and not _opens(reader, found.plain(), asked):
                reader.note("lexical-overruled", " ".join(sorted(said)), reading=asked,
                            reason="the turn asks with the verb of another task's name")
                return False  # "I'd like to hire 3 sets of chairs ... delivered to ...": Book Hire, not the delivery
        for name, (text_value, _plain, words) in found.items.items():
            rule = "answer-to-ask" if start is not None and name == start.name else "task-description"
            reader.emit(rule, " ".join(words), f"{root.var}.{name} = {text_value}")
            emitted = True
        overlay[root.var] = found.plain()
        reader.view.pending.setdefault(root.var, {}).update(found.plain())  # a flat's floor is live from here
    if not emitted:
        return False
    if negs:
        reader.note("negation", "; ".join(n.words for n in negs), negated=[n.what for n in negs])
    open_activated(reader, overlay, text, bag)
    return True



def _without_finished_tasks(reader: "TurnReader", root: TaskRecord, ws: Worksheet) -> dict[str, Any]:
    """The values of a root record with its task choices left open when the task chosen is finished and the root
    asks nothing more either (every field is filled: "I'd like to book a trip" after the eligibility check is
    answered chooses anew; a summary still to confirm keeps the choice)."""
    from ..words.semantic import _held_task_finished  # late: the semantic rules import this module
    values = dict(root.values)
    if any(reader.view.unfilled(root, f) and f.required and reader.view.kind_of(f) != "list"
           for f in reader.view.input_fields(root)):
        return values
    return {k: v for k, v in values.items()
            if not (ws.field(k) is not None and reader.view.kind_of(ws.field(k)) == "Enum"
                    and _held_task_chooses(reader, k, v) and _held_task_finished(reader, k, v))}


def _held_task_chooses(reader: "TurnReader", name: str, held: Any) -> bool:
    return held is not None and any(p[-1] == name and v == held for w in reader.spec.task_worksheets()
                                    for p, v in equalities(w.predicate))


def _row_named_for_other_task(reader: "TurnReader", text: str, values: dict[str, Any]) -> str | None:
    """The task whose row field takes a KB row the turn names by its name, when one word chose another task."""
    if reader.ctx.kb is None:
        return None
    from ..kb_rows.requests import row_task  # late: the row rules import this module
    ws = row_task(reader, text)
    if ws is None or _opens(reader, values, ws.name):
        return None
    from ..kb_rows.change import named_row  # late: row_change imports this module
    said = named_row(reader, text, whole_only=True)
    return ws.name if said is not None and said.lower() in text.lower() else None


def _opens(reader: "TurnReader", values: dict[str, Any], worksheet: str) -> bool:
    """Whether the option values read are those the worksheet's predicate asks for."""
    ws = reader.spec.worksheet(worksheet)
    pairs = equalities(ws.predicate) if ws is not None else []
    return bool(pairs) and all(values.get(p[-1], v) == v for p, v in pairs) \
        and any(p[-1] in values for p, _v in pairs)


def _asked_by_verb(found: Described, text: str) -> bool:
    """The turn asks for a chosen option by its first word, as a verb ("I'd like to book my son's iPad in",
    "can I book it", "wanna cancel"): a request in the spec's own word, which no reading by meaning overrules
    (unlike "a safety check", where the option's word is a noun)."""
    verbs = {v.split()[0].lower() for _lit, v, _w in found.items.values() if isinstance(v, str) and v.split()}
    return any(re.search(rf"\b(?:(?:like|want|need|have|wish|trying|looking|hoping|going)\s+to|"
                         rf"(?:can|could|may|would|will|shall)\s+(?:i|we|you|u)(?:\s+please)?(?:\s+just)?|"
                         rf"please|let\s+me|^)\s*{re.escape(v)}\b", text, re.I) for v in verbs if len(v) > 2)


def open_activated(reader: "TurnReader", overlay: dict[str, dict[str, Any]], text: str, bag: Bag,
                   rule: str = "task-description", hints: dict[str, tuple[str, list[str]]] | None = None
                   ) -> list[Worksheet]:
    """Top-level worksheets whose predicates the new values (`overlay`: var -> values) make true: opened."""
    nested = reader.spec.nested_worksheet_names()
    opened = []
    for ws in reader.spec.task_worksheets():
        if not ws.predicate.strip() or ws.name in nested:
            continue
        if any(r.status != "abandoned" for r in reader.state.of_worksheet(ws.name)):
            continue
        if holds(ws.predicate, reader.view.lookup(None, overlay)) is True:
            # the records that opened it are the scope of its nested worksheets' predicates (`task == ...`)
            scope = [({**r.values, **overlay.get(r.var, {})}, reader.view.worksheet(r))
                     for r in reader.view.live_records() if r.parent is None]
            if hints is None:  # the option below the one named, by meaning ("... never showed up": not posted)
                from ..words.semantic import deeper_hints  # late: the semantic rules import this module
                hints = deeper_hints(reader, ws, text, overlay)
            elif not {f.name for w in reachable(reader, ws) for f in w.fields} & set(hints):
                from ..words.semantic import inside_hints  # late: the semantic rules import this module
                hints = {**hints, **inside_hints(reader, ws, text, overlay)}  # "the gale tore the sails ..."
            open_worksheet(reader, ws, text, bag, rule=rule, hints=hints, scope=scope)
            opened.append(ws)
    return opened


def reachable(reader: "TurnReader", ws: Worksheet, depth: int = 0) -> list[Worksheet]:
    """Task worksheets nested (at any depth) under `ws`."""
    out: list[Worksheet] = []
    if depth > 6:
        return out
    for f in ws.fields:
        if f.kind == "input" and reader.view.kind_of(f) == "task":
            sub = reader.spec.require_worksheet(parse_type(f.type).base)
            if sub not in out:
                out += [sub] + [w for w in reachable(reader, sub, depth + 1) if w not in out]
    return out


def leaf_hints(reader: "TurnReader", bag: Bag, ws: Worksheet) -> dict[str, tuple[str, list[str]]]:
    """ "I need to drop CS 106A": a deep enum value the words name ("Drop a Course"), with the values its
    predicates require higher up (student_task, trouble_shoot_specific_issue).

    Each deep value is scored with the values on its path by the user's words they explain together:
    2 for a word a value's name says, 1 for a word only a description says. The value's own name must say a word the names on
    its path do not ("drop" for Drop a Course; not "leave" for "Status of Leave of Absence form", which
    "Leave of Absence" already says), and one that a top option off its path does not say as well ("my leave" names
    "Leave of Absence" as much as a test called "... Leaving Certificate"). Only a clear winner counts; a tie gives
    no hints.
    """
    fields = {f.name: f for w in [ws, *reachable(reader, ws)] for f in w.fields
              if f.kind == "input" and reader.view.kind_of(f) == "Enum"}
    tops = [((f.name, ev.value), set(bag.hits(content_stems(ev.value)))) for f in ws.fields
            if f.kind == "input" and reader.view.kind_of(f) == "Enum" for ev in f.enum_values]
    found = []
    for sub in reachable(reader, ws):
        for f in sub.fields:
            if f.kind != "input" or reader.view.kind_of(f) != "Enum":
                continue
            path = [(p[-1], v) for p, v in equalities(sub.predicate) + equalities(f.predicate)
                    if isinstance(v, str) and p[-1] in fields]
            if not path:
                continue
            path_words = {w for name, v in path for w in _explained(fields[name], v, bag)}
            path_names = {w for _name, v in path for w in bag.hits(content_stems(v))}
            for ev in f.enum_values:
                if CATCH_ALL.match(ev.value):
                    continue  # "I've got a class issue" names the words of Other Class Issues, not the option
                names = set(bag.hits(content_stems(ev.value)))
                if not any(len(w) >= 3 for w in names - path_names):
                    continue  # its own name must add a word the path's names do not say (not just "AP")
                if any(key not in path and names - path_names <= said for key, said in tops):
                    continue  # "my leave": a top option off its path ("Leave of Absence") names it as well
                words = path_words | set(_explained(f, ev.value, bag))
                named = names | path_names
                # a word a sibling option names outright ("quit" of Quit a Class) explains that option, not this
                # one, even when the path's description says it too ("joining, quitting or moving classes")
                siblings = {w for other in f.enum_values if other.value != ev.value
                            for w in bag.hits(content_stems(other.value))}
                first = content_stems(ev.value)[:1]
                found.append((2 * len(named) + len(words - named - siblings), f, ev.value, path, sorted(words),
                              bool(first) and first[0] in names))
    if not found:
        return {}
    found.sort(key=lambda x: -x[0])
    if len(found) > 1 and found[1][0] == found[0][0]:
        tied = [x for x in found if x[0] == found[0][0]]
        leading = [x for x in tied if x[5]]  # "I want to quit GX 210, the times don't work": the one option
        if len(leading) != 1:  # whose name's first word (its verb: Quit a Class) is said beats those whose later
            return {}  # word is ("times" of Move Times); none or several such: no hints
        found = leading
    _score, f, value, path, words, _first = found[0]
    hints = {name: (v, words) for name, v in path}
    hints[f.name] = (value, words)
    return hints


def _named_in(value: str, text: str) -> bool:
    return f" {re.sub(r'[^a-z0-9]+', ' ', value.lower()).strip()} " in f" {re.sub(r'[^a-z0-9]+', ' ', text.lower())} "


def _explained(f: Field, value: str, bag: Bag) -> list[str]:
    """The user's words that an enum value's name or description explains."""
    ev = next((e for e in f.enum_values if e.value == value), None)
    stems = set(content_stems(value)) | (set(content_stems(ev.description)) if ev else set())
    return bag.hits(stems)


_CODE_FIELD_WORDS = {stem(w) for w in ("code", "id", "number", "sku", "ref", "reference")}
"""A letters-and-number token ("AB 123") is a code: it fills only fields about codes, or the field that
names the worksheet's own subject (a `Thing` worksheet's `thing_name`, see `_codes_fit`)."""


def _codes_fit(ws_name: str, f: Field) -> bool:
    """True for code fields and for the identifier of the worksheet's subject (`Ticket.ticket_name`)."""
    stems = field_stems(f)
    return bool(stems & _CODE_FIELD_WORDS) or bool(reference_shapes(f)) or bool(stems & {stem(w) for w in snake_case(ws_name).split("_")})


_MONTH = re.compile(r"\b(?:january|february|march|april|may(?!\s+(?:i|we|you|they|he|she|it|be|have)\b)|june|july|"
                    r"august|september|october|november|december)\b", re.I)


def _address_slots(reader: "TurnReader", bag: Bag, sub: Worksheet, values: dict[str, Any], inner: Described) -> bool:
    """An address said in one go for a worksheet that keeps it in parts (a street, a town, a postcode field):
    "... from 3 Lister Street, Halifax HX1 5AS on monday" fills each part (`split_address`)."""
    roles = address_roles([f for f in sub.fields if f.kind == "input"], reader.view.kind_of)
    if roles.get("street") is None or len(roles) < 2:
        return False
    parts = split_address(bag.text, whole=False)
    if not parts or not all(roles.get(role) is not None for role in parts):
        return False
    for role, (value, said) in parts.items():
        f = roles[role]
        if f is not None and f.name not in values and f.name not in inner.items:
            inner.items[f.name] = (literal(value), value, [said])
    return True


def _nested_slots(reader: "TurnReader", bag: Bag, sub: Worksheet, values: dict[str, Any], inner: Described) -> None:
    """Values of a worksheet the description opens: a course-code-like token ("CS 106A") for its code field,
    labelled numbers ("3 units"), dates and times."""
    codes = find_codes(bag.text)
    if len(codes) == 1:
        postcode = [p.text for p in find_postcodes(codes[0].text)] == [codes[0].text]
        for f in sub.fields:
            if f.kind == "input" and reader.view.kind_of(f) == "str" and shape(f) in ("code", "short") \
                    and f.name not in values and f.name not in inner.items and not f.predicate.strip() \
                    and (_codes_fit(sub.name, f) or postcode) and is_postcode_field(f) == postcode:  # a postcode is no other code
                value = laid_out(f, bag.text) or codes[0].value  # all of "WB5512 Q" for "like WB2291 K"
                inner.items[f.name] = (literal(value), value, [codes[0].text])
                break
    places = [f for f in sub.fields if f.kind == "input" and reader.view.kind_of(f) == "str" and is_address_field(f)
              and not is_postcode_field(f) and f.name not in values and f.name not in inner.items]
    streets = find_addresses(bag.text)
    if not _address_slots(reader, bag, sub, values, inner) and len(places) == 1 and len(streets) == 1:  # "... from 22 Canal Street, M4 6HJ": the street for its field
        inner.items[places[0].name] = (literal(streets[0].value), streets[0].value, [streets[0].text])
    months = list(dict.fromkeys(m.group(0).capitalize() for m in _MONTH.finditer(bag.text)
                                if m.group(0) != "may" and not m.group(0).isupper()))  # "may I ...": a verb
    month_fields = [f for f in sub.fields if f.kind == "input" and reader.view.kind_of(f) == "str"
                    and "month" in f.name.split("_") and f.name not in values and f.name not in inner.items]
    if len(months) == 1 and len(month_fields) == 1:  # "twice in June" for `charge_month`: the one month named
        inner.items[month_fields[0].name] = (literal(months[0]), months[0], [months[0]])
    if not inner.items:
        return  # typed values alone do not say that this worksheet is meant
    ghost = TaskRecord(var="_", worksheet=sub.name)
    candidates = [(ghost, f) for f in sub.fields if f.kind == "input" and f.name not in values
                  and f.name not in inner.items and reader.view.kind_of(f) in ("int", "float", "date", "time")]
    for m in find_mentions(bag.text, candidates, reader.view, reader.today):
        if m.how not in ("number", "number+meaning") or m.span is None:  # a bare number ("a one bedroom flat",
            inner.items[m.field.name] = (literal(m.value), m.value, [m.matched])  # "8 desks") is no floor


def _is_enum(reader: "TurnReader", rec: TaskRecord, name: str) -> bool:
    f = reader.view.worksheet(rec).field(name)
    return f is not None and reader.view.kind_of(f) == "Enum"


def open_worksheet(reader: "TurnReader", ws: Worksheet, text: str, bag: Bag, rule: str = "task-description",
                   hints: dict[str, tuple[str, list[str]]] | None = None,
                   scope: list[tuple[dict[str, Any], Worksheet]] | None = None) -> None:
    """A worksheet the description activates: its enum values, slot values and a KB search, in one record.
    `hints` are enum values a reading by meaning implies (offline_semantic); `scope`, the values of the
    records that opened it, decides the predicates of the worksheets nested in it."""
    var = reader.state.new_var(snake_case(ws.name))
    from ..parts.addresses import journey_ends, postcode_ends  # late: parts import this module's helpers
    strs = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "str"]
    ends = journey_ends(text, strs) or postcode_ends(text, strs)
    for _value, said in ends.values():  # "from 14 Hill Rd to 88 Park Lane": no "park" for an option, no search
        bag = bag.without(content_stems(said))
        text = text.replace(said, " " * len(said))
    # the words of the option that opens it chose the task: "book a wash" opens Book Wash, not the Exterior Wash
    opening = frozenset(s for _p, v in equalities(ws.predicate) if isinstance(v, str) for s in content_stems(v))
    found = match_worksheet(reader, bag, ws, {}, scope or [], None, hints=hints, spent=opening)
    kwargs = {k: v[0] for k, v in found.items.items()}
    matched = [w for v in found.items.values() for w in v[2]]
    for name, (value, said) in ends.items():
        kwargs.setdefault(name, literal(value))
        matched.append(said)
    ghost = TaskRecord(var=var, worksheet=ws.name)
    candidates = [(ghost, f) for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) not in
                  ("confirm", "task", "row", "list") and f.name not in kwargs]
    mentions = find_mentions(text, candidates, reader.view, reader.today)
    mentions += [m for m in column_mentions(text, candidates, reader.vocabulary, reader.ctx.kb)
                 if m.field.name not in {n.field.name for n in mentions}]
    mentions = [m for m in mentions if not inside_kb_name(reader, text, m)]
    for m in mentions:
        kwargs[m.field.name] = literal(m.value)
        matched.append(m.matched)
    party = _party_of(reader, ws, text, kwargs, [m for m in mentions]) or \
        count_after_verb(reader, ws, text, kwargs, mentions)
    if party is not None:  # "a table for two tonight at 8": the count of people after "for"
        f, value, words = party
        kwargs[f.name] = literal(value)
        matched.append(words)
    from ..kb_rows.items import item_values
    from .given_values import opening_values, proposed_row  # late: they use this module's helpers

    names = opening_values(reader, ws, text, kwargs, matched)  # the names read are not words to search for
    item_values(reader, ws, text, kwargs, matched)  # "X for ... and Y as ...": items named by KB rows
    rows = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "row"]
    held = (pronoun_row(reader, text, ws) or proposed_row(reader, ws, rows[0].name, text)) if rows else None
    if held and reader.ctx.kb is not None:
        from ..kb_rows.change import named_row  # late: row_change imports this module
        said = named_row(reader, text)
        if said is not None and said.lower() not in str(_held_row(reader, held)).lower():
            held = None  # "reserve the Hilux" after another row was shown: the name said wins over the row shown
            kwargs[rows[0].name] = f"answer({literal(said)})"
            matched.append(said)
            rows = []
    if held:
        from ..kb_rows.choices import row_fits  # late: the row rules import this module
        row = _held_row(reader, held)
        fit = [f for f in rows if not isinstance(row, dict) or row_fits(reader, f, row)]
        if fit:  # "book me with her": the one row just reported, in the row field it fits (a clinic is no vet)
            kwargs[fit[0].name] = held
            matched.append(held)
            rows = []
        else:
            held = None
    if rows:
        spent = [w for v in found.items.values() for w in v[2] if isinstance(w, str)]
        spent += _heads_after(text, spent)  # "a one bedroom flat": the noun the option's words describe
        named = reader.vocabulary.found_in(text, reader.ctx.kb, plurals=True) if reader.ctx.kb is not None else []
        used = [w.lower() for w in said_texts(mentions) + names + spent]
        free_named = [t for t in named if not any(t.lower() in u for u in used)]  # "to Gatwick" went to the airport
        long_turn = len(text.split()) > 12 and named and len(mentions) >= 2  # a turn of many values
        # the agent's own description says what it is about ("dental" of a dental practice's assistant): those
        # words are no search terms, unless they are values of the KB ("Riverton" in it is a city)
        own = (set(content_stems(reader.spec.description)) | task_text_stems(reader, ws)) - \
            {stem(w) for t in named for w in t.split()}
        taught = bag.hits(task_text_stems(reader, ws) - {stem(w) for t in named for w in t.split()})
        asked = re.sub(r"(?i)\b(?:" + "|".join(map(re.escape, taught)) + r")\b", " ", text) if taught else text
        # the row field's own words ("a service for my bike" to a `service` field) name what is asked, not which
        row_words = {stem(w) for w in re.findall(r"[a-z]+", rows[0].name.lower())} | \
            {stem(w.lower()) for w in re.findall(r"[A-Z][a-z]+", parse_type(rows[0].type).base)}
        query = " ".join(sorted(named, key=text.lower().find)) if long_turn else \
            search_query(asked, said_texts(mentions) + spent + names,  # the task's taught words ask for the task
                         set(bag.hits(BOOKING_WORDS | task_words(ws) | own | row_words)))
        from ..kb_rows.change import named_row  # late: row_change imports this module
        whole = named_row(reader, text, whole_only=True) if reader.ctx.kb is not None and not long_turn else None
        if whole is None and reader.ctx.kb is not None and not long_turn:
            from ..kb_rows.change import row_named_by_phrase  # late: row_change imports this module
            whole = row_named_by_phrase(reader, text)  # "one of those solar screen ones": the name said in part
            if whole is not None and any(w in u for u in used for w in whole.lower().split() if len(w) >= 4):
                whole = None  # a word of the name went to another field
        if whole is not None and any(whole.lower() in u for u in used):
            whole = None  # "12 Pier Street, Eastby": the town went to the address, it names no row here
        if whole is not None:  # "2 pairs of curtains shortened", "order up QS/1/14 for my next visit": a row's
            query = whole  # whole name is what is searched
        if query and not long_turn and len(query.split()) >= 8 and named and not free_named:
            query = None  # the KB words the turn says all went to other fields ("a taxi to Gatwick, 3 adults ...")
        if query and (long_turn or (whole is not None and query == whole)
                      or _about_rows(reader, _REQUESTED_VERB.sub(r"\1", query), own | row_words)):
            query = _row_named_alone(reader, query) or query
            if whole is None and not long_turn:  # "the zip on my leather jacket": the KB's words another field took
                kept = [t for t in named if t not in free_named and t.lower() not in query.lower()]  # still narrow
                query = " ".join([query, *kept]) if kept else query  # the rows, said after the rest
            kwargs[rows[0].name] = f"answer({literal(query)})"
            matched.append(query)
        elif query:
            reader.note("no-search", query, reason="the words left say nothing about the KB's rows (no value or "
                                                   "column of it): the agent asks for the row instead")
    if not kwargs and ws.predicate and (conds := equalities(ws.predicate)) and all(
            any(line.endswith(f".{path[-1]} = {literal(value)}") for line in reader.lines) for path, value in conds):
        return  # `main.task = "Book Berth"` just said opens the record: an empty constructor beside it says nothing
    if kwargs or rule != "task-description":
        reader.emit(rule, " ".join(matched) or bag.text, f"{var} = {ws.name}({kwargs_text(kwargs)})")


_REQUESTED_VERB = re.compile(r"(?i)\b((?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?|(?:need|want)\s+you\s+to\s+)"
                             r"[a-z]+\b")
"""The verb of a request ("can you collect ...", "I need you to deliver ..."): what the agent is asked to do, no
word of the rows to search, even when a column's value shares its stem (a "collection" service)."""


_AUXILIARIES = frozenset({"can", "could", "would", "will", "shall", "should", "might", "must", "going", "gonna",
                          "every", "each", "literally", "really", "actually", "even", "still", "always", "never",
                          "very", "much", "many", "lot", "lots"})
"""Modal and auxiliary verbs ("Can you ...", "it's going to ...") and quantifiers and intensifiers ("literally every
night"): grammar, never what a search is about, even when a row's description has them ("can take large items")."""


_COMPARED = re.compile(r"\b(?:\w{3,}est|\w{3,}er\s+than|under|over|below|above|less|more|most|least|best|worst|top|"
                       r"at\s+least|at\s+most|max\w*|min\w*|\d)\b", re.I)
"""Words that filter on a number ("under 65", "the lowest", "at least 4", superlatives)."""


def _heads_after(text: str, said: list[str]) -> list[str]:
    """The noun right after the words that chose an option ("flat" of "a one bedroom flat", "apartment" of "a
    studio apartment"): the option's words describe it, so it is no word to search for."""
    out = []
    for w in said:
        if not w or not re.fullmatch(r"[\w'-]+", w):
            continue
        m = re.search(rf"(?i)\b{re.escape(w)}\s+([a-z][a-z'-]+)\b(?!\s+(?:of|in|with|near)\b)", text)
        if m and m.group(1).lower() not in STOPWORDS and m.group(1).lower() not in said:
            out.append(m.group(1))
    return out


def _row_named_alone(reader: "TurnReader", query: str) -> str | None:
    """ "my old fridge freezer taken away from ... if you can", "3 old mattresses to get rid of": the search words
    name one row in full (in the singular or plural) and no other value of the KB, so the search is that name."""
    from ..kb_rows.items import _words, row_names  # late: the row modules import this one

    if reader.ctx.kb is None:
        return None
    terms = [t.lower() for t in reader.vocabulary.found_in(query, reader.ctx.kb, plurals=True)]
    low = _words(query)
    names = {v for table in row_names(reader.vocabulary, reader.ctx.kb).values() for n, v in table.items()
             if v[:1].isupper() and not v.startswith("[") and _said_alone(n.strip(), low)}
    if len(names) != 1:
        return None
    name = next(iter(names))
    return name if all(t in name.lower() for t in terms) else None


def _said_alone(name: str, low: str) -> bool:
    """`name` as whole words of `low` (spaced words), in the singular or plural: plain string tests, as a regex per
    row name would be compiled again on every turn (a KB has more names than Python's regex cache holds)."""
    return any(f" {name}{end} " in low for end in ("", "s", "es"))


def _about_rows(reader: "TurnReader", query: str, own: set[str]) -> bool:
    """Whether the words left of an opening search the KB: beyond the words of the task and the agent themselves,
    they name one of its columns ("patio", "rating") or the KB has them ("pizza", "San Francisco", a word of a
    book's description)."""
    if reader.ctx.kb is None or reader.vocabulary.found_in(query, reader.ctx.kb):
        return True
    compared = _COMPARED.search(query) is not None  # "get a price for moving" asks for the task, "under $80" filters
    columns = {stem(w) for ws in reader.spec.worksheets if ws.kind == "kb" for f in ws.fields
               if compared or parse_type(f.type).base not in ("int", "float")
               for w in f.name.lower().split("_") if w not in STOPWORDS and w not in GENERIC and len(w) > 2}
    said = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", query) if w.lower() not in STOPWORDS
            and w.lower() not in HEDGES and w.lower() not in _AUXILIARIES and stem(w) not in own and len(w) > 2]
    if {stem(w) for w in said} & (columns - own):
        return True
    if not compared:  # "a price for moving": a numeric column's name with no filter on it searches nothing
        numeric = {stem(w) for ws in reader.spec.worksheets if ws.kind == "kb" for f in ws.fields
                   if parse_type(f.type).base in ("int", "float") for w in f.name.lower().split("_")}
        said = [w for w in said if stem(w) not in numeric]
    from ....knowledge.lexicon import telling_words  # late: the parser loads without a KB too
    said = [w for w in said if w.lower() not in _PRONOUNS]
    valued, rare = telling_words(reader.ctx.kb, said)
    # a word of a value ("suitcases") is searched; words only the rows' free text has are when two of them are, or
    # half the words left: "my little girl needs some help" is no search because one tutor's text says "needs"
    return bool(valued) or len(rare) >= 2 or (bool(rare) and 2 * len(rare) >= len(said))


_PRONOUNS = frozenset("""he she her hers him his they them their theirs we us our ours you your yours it its me my mine
i this that these those""".split())


_ROW_PRONOUN = re.compile(r"\b(?:with|see|book|choose|take|do|get|reserve)\s+(?:me\s+)?(?:her|him|them|it|that|this)"
                          r"(?:\s+one)?\b(?!\s+(?:is|was|are|for\s+me\s+to))|"
                          r"\b(?:for|on|into)\s+(?:that|this)\s+one\b|"  # "sign me up for that one"
                          r"\b(?:can|could|would|will)\s+(?:she|he)\s+(?:please\s+)?(?:come|do|see|look|visit|take|"
                          r"teach|fit|check|have\s+a\s+look)\b|"  # "could she come and look at our beech?"
                          r"(?<!\bto\s)(?<!n't\s)(?<!\bnot\s)\b(?:book|put|sign|get)\s+(?:me|us)\s+(?:in|down|up)\s+"
                          r"(?:for|on)\s+(?:that|this|it)\b(?!\s+(?:is|was|are|to)\b)(?!\s+[a-z]+'s\b)(?!\s+(?:month|week|"
                          r"year|newsletter|list|mailing)\b)", re.I)  # "great, book me in for that in edinburgh please"; not
# "I'll call back to book me in for that", not "sign me up for this month's newsletter"


_THERE = re.compile(r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)\bthere\b(?!\s*(?:is|are|was|were|'s|'re)\b)",
                    re.I)
"""A place just shown, pointed at: "reserve there for 4" (not "is there ...", "there are ...")."""


def _held_row(reader: "TurnReader", path: str) -> Any:
    """The row a path such as "answer_3.result[0]" points at (None when it points at nothing)."""
    m = re.fullmatch(r"([A-Za-z_]\w*)\.result\[(\d+)\]", path)
    kb = reader.state.get(m.group(1)) if m else None
    rows = getattr(kb, "result", None)
    return rows[int(m.group(2))] if m and isinstance(rows, list) and int(m.group(2)) < len(rows) else None


def pronoun_row(reader: "TurnReader", text: str, ws: Worksheet | None = None) -> str | None:
    """The path of the single row just reported, when the turn refers to it ("a cleaning with her", "a table
    there"), or names it as the object of a verb of the task being opened (`ws`, whose option says "have one of
    our approved marine mechanics sent out": "send them out please"), or "the <word> one" of the rows an answer of
    the last three showed ("ok i'll take the velvet box one")."""
    from ..kb_rows.choices import _the_word_one  # late: the row rules import this module
    for kb in list(reversed(reader.state.kb_records()))[:3]:
        rows = kb.result
        hit = _the_word_one(text, rows) if isinstance(rows, list) and rows else None
        if hit is not None:
            return f"{kb.var}.result[{hit[0]}]"
    if not _ROW_PRONOUN.search(text) and not _THERE.search(text) and not _task_verb_pronoun(reader, ws, text):
        return None
    from ..kb_rows.choices import row_fits  # late: the row rules import this module
    fields = [f for f in (ws.fields if ws is not None else ()) if reader.view.kind_of(f) == "row"]
    for kb in list(reversed(reader.state.kb_records()))[:2]:  # the last question, or the one before it
        rows = kb.result
        if isinstance(rows, list) and len(rows) == 1:
            if fields and not any(row_fits(reader, f, rows[0]) for f in fields):
                return None  # "book me in for that" after a clinic was shown: no vet of the task's
            return f"{kb.var}.result[0]"
    return None


_VERB_PRONOUN = re.compile(r"\b(?P<verb>[a-z]{3,})\s+(?:me\s+|us\s+)?"
                           r"(?:her|him|them|it|that\s+one|this\s+one|those|that\s+lot)"
                           r"\b(?!\s+(?:is|was|are|were)\b)", re.I)


def _task_verb_pronoun(reader: "TurnReader", ws: Worksheet | None, text: str) -> bool:
    """A pronoun after a verb that the task's own texts use ("send them out" for a task described "have one of our
    approved marine mechanics sent out", with the example "can you send an engineer")."""
    if ws is None:
        return False
    from ..words.semantic import _task_words  # late: the semantic rules import this module

    own = _task_words(reader, ws) | {s for t in ws.examples for s in content_stems(t)}
    return any(stem(m.group("verb").lower()) in own for m in _VERB_PRONOUN.finditer(text))


_FOR_COUNT = re.compile(r"\bfor\s+(?P<n>two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\b"
                        r"(?!\s*(?:[:.]\d|am\b|pm\b|o'?clock|hours?|nights?|days?|weeks?|months?|minutes?|years?|"
                        r"dollars?|euros?|pounds?|bucks|%|\$))", re.I)


def _party_of(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str],
              mentions: list[Any]) -> tuple[Field, int, str] | None:
    """ "for two" in an opening, when the worksheet has one unfilled count-of-people field (by its name and
    description words) and no value read so far took those words."""
    from ..words.answers import PEOPLE_STEMS
    from ..words.values import find_numbers
    people = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "int"
              and field_stems(f) & PEOPLE_STEMS and f.name not in kwargs]
    m = _FOR_COUNT.search(text)
    if len(people) != 1 or m is None or any(x.span is not None and x.span.start <= m.start("n") < x.span.end
                                            for x in mentions if getattr(x, "span", None) is not None):
        return None
    spans = find_numbers(m.group("n"))
    return (people[0], int(spans[0].value), m.group(0)) if spans else None


_VERB_COUNT = re.compile(r"\b(?P<v>[a-z]+)\s+(?:me\s+|us\s+)?(?P<n>one|two|three|four|five|six|seven|eight|nine|ten|"
                         r"eleven|twelve|\d{1,2})\b(?!\s*(?:[:.,]\d|am\b|pm\b|o'?clock|%|\$))", re.I)


def count_after_verb(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str],
                      mentions: list[Any]) -> tuple[Field, int, str] | None:
    """ "can you put two aside", "reserve one peace lily": a number right after the verb of a task option is how
    many, when the opened worksheet has one unfilled count field (its description asks "how many") and no
    value read so far took the number."""
    counts = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "int" and f.name not in kwargs
              and re.match(r"\s*how\s+many\b", f.description or "", re.I)]
    if len(counts) != 1:
        return None
    verbs = task_verbs(reader.spec)
    for m in _VERB_COUNT.finditer(text):
        if m.group("v").lower() not in verbs or any(
                x.span is not None and x.span.start <= m.start("n") < x.span.end for x in mentions
                if getattr(x, "span", None) is not None):
            continue
        from ..words.values import find_numbers
        spans = find_numbers(m.group("n"))
        if spans:
            return counts[0], int(spans[0].value), m.group(0)
    return None


_SEARCH_ARG = re.compile(r"(?:,\s*)?\b\w+=answer\(\"((?:[^\"\\]|\\.)*)\"\)")
"""A search an opening statement makes for a field: `, venue=answer("...")`."""


def without_searches(statement: str, drop=lambda query: True) -> str:
    """The opening statement without the field searches whose query `drop` says (all, by default)."""
    return _SEARCH_ARG.sub(lambda m: "" if drop(m.group(1)) else m.group(0), statement).replace("(, ", "(")


def search_query(text: str, drop: list[str], task_words: set[str]) -> str | None:
    """The search part of a request, without slot values; None when nothing is left to search for."""
    body = text
    for piece in sorted(drop, key=len, reverse=True):
        body = body.replace(piece, " ")
    body = re.sub(r"\b(?:actually|instead|rather|change\s+(?:it|that)\s+to|make\s+it|let'?s\s+do|"
                  r"how\s+about|what\s+about)\b[,]?", " ", body, flags=re.I)
    body = re.sub(r"\s+", " ", body)
    body = re.sub(r"\b(?:for|at|on|in|with)\s+(?=(?:for|at|on|in|with)\b)", "", body)
    body = re.sub(r"\b(?:for|at|on|in|with)(?:\s+(?:the|a|an|my|our))?\s*(?=[,.!?]|$)", "", body.strip()).strip(" ,.!?")
    phrase = search_phrase(body)
    phrase = re.sub(r"\s*\b(?:next|this|last|coming)\b(?=\s*(?:please|pls|thanks)?\s*[,.!?]*$)", "", phrase, flags=re.I)
    # "... for next week please" once the week went: "next" alone is no word to search for
    words = [w for w in content_stems(phrase) if w not in BOOKING_WORDS | _SMALL_TALK | HEDGES
             and w not in {stem(t) for t in task_words} and not _NUMBER_WORD.fullmatch(w)]
    return phrase if words else None


_NUMBER_WORD = re.compile(r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve", re.I)
"""A number left over is a value not placed, never the words to search for ("for two" names no row)."""


# ---------------------------------------------------------------- a value before its question

def next_question(reader: "TurnReader") -> list[tuple[TaskRecord | None, Worksheet, Field]] | None:
    """The field the agent would ask next, as a chain from a live record down through unopened worksheets."""
    roots = [r for r in reader.view.live_records() if r.parent is None]
    roots.sort(key=lambda r: 0 if r.initiator == "user" else 1)
    for rec in roots:
        chain = _ask_chain(reader, rec, reader.view.worksheet(rec), dict(rec.values), [], 0)
        if chain:
            return chain
    return None


def _ask_chain(reader: "TurnReader", rec: TaskRecord | None, ws: Worksheet, values: dict[str, Any],
               scope: list[tuple[dict[str, Any], Worksheet]], depth: int):
    if depth > 8:
        return None
    frame = [(values, ws), *scope]
    for f in ws.fields:
        if f.kind != "input" or f.dont_ask or not f.required:
            continue
        if holds(f.predicate, reader.view.lookup(rec, scope=frame if rec is None else None)) is False:
            continue
        value = values.get(f.name)
        child = reader.state.get(ref_target(value) or "")
        if isinstance(child, TaskRecord):
            inner = _ask_chain(reader, child, reader.view.worksheet(child), dict(child.values), [], depth + 1)
            if inner:
                return inner
            continue
        if value is not None:
            continue
        if reader.view.kind_of(f) == "task":
            sub = reader.spec.require_worksheet(parse_type(f.type).base)
            inner = _ask_chain(reader, None, sub, {}, frame, depth + 1)
            return [(rec, ws, f), *inner] if inner else [(rec, ws, f)]
        return [(rec, ws, f)]
    return None


def _code_list(reader: "TurnReader", text: str, ws_name: str, f: Field) -> list[str]:
    """Two or more codes for a code field of worksheet `ws_name` ("AB 221 and AB 229"), else []."""
    codes = [c.value for c in find_codes(text)]
    if len(codes) < 2 or reader.view.kind_of(f) != "str" or shape(f) not in ("code", "short") \
            or not _codes_fit(ws_name, f):
        return []
    return codes


def sibling_fields(reader: "TurnReader", ws: Worksheet, field: Field, values: dict[str, Any],
                   rec: TaskRecord | None) -> list[Field]:
    """Empty fields after `field` with its type whose predicate holds (course_1_details after course_0_details)."""
    lookup = reader.view.lookup(rec, scope=None if rec is not None else [(values, ws)])
    names = [f.name for f in ws.fields]
    return [f for f in ws.fields[names.index(field.name) + 1:] if f.kind == "input" and f.type == field.type
            and values.get(f.name) is None and holds(f.predicate, lookup) is True]


def several_codes(reader: "TurnReader", text: str, rec: TaskRecord, f: Field) -> bool:
    """ "CS 221 and CS 229" for the asked course: the first here, the others in the next sibling records, each
    with the options said in its own piece of the turn ("X for a letter grade and Y for 4 units")."""
    from ..kb_rows.items import item_options, shared_options
    codes = _code_list(reader, text, rec.worksheet, f)
    parent = reader.state.get(rec.parent or "")
    if not codes or not isinstance(parent, TaskRecord) or not rec.parent_field:
        return False
    pws = reader.view.worksheet(parent)
    slot = pws.field(rec.parent_field)
    if slot is None:
        return False
    from ..kb_rows.items import pieces_at  # late: offline_items uses this module's helpers

    ws = reader.view.worksheet(rec)
    spans = find_codes(text)
    pieces = pieces_at(text, [c.start for c in spans]) if len(spans) == len(codes) else [""] * len(codes)
    said = [c.text for c in spans] if len(spans) == len(codes) else codes
    shared = shared_options(reader, ws, text, {f.name})
    options = [{**shared, **item_options(reader, ws, piece.replace(c, " "), {f.name})} for piece, c in zip(pieces, said)]
    reader.emit("several-values", codes[0], f"{rec.var}.{f.name} = {literal(codes[0])}")
    for name, value in options[0].items():  # "CS 106B for a letter grade and ...": the first code's options
        if ws.field(name) is not None and reader.view.unfilled(rec, ws.field(name)):
            reader.emit("several-values", pieces[0], f"{rec.var}.{name} = {literal(value)}")
    for sib, code, opts in zip(sibling_fields(reader, pws, slot, parent.values, parent), codes[1:], options[1:]):
        kwargs = "".join(f", {k}={literal(v)}" for k, v in opts.items())
        reader.emit("several-values", code, f"{parent.var}.{sib.name} = {rec.worksheet}({f.name}={literal(code)}{kwargs})")
    from ..lists.membership import enough_after_items  # late: the lists package uses this module's helpers
    enough_after_items(reader, text, parent)  # "..., nothing else": no third item
    return True


def predicted_answer(reader: "TurnReader", text: str) -> bool:
    """A value with an unmistakable shape for the field the agent would ask next ("Let's enroll in CS448")."""
    chain = next_question(reader)
    if not chain or chain[0][0] is None:
        return False
    f = chain[-1][2]
    codes = _code_list(reader, text, chain[-1][1].name, f)
    if codes and len(chain) >= 3:
        _rec, ws2, f2 = chain[-2]
        item_ws = chain[-1][1]
        from ..lists.openings import list_parts  # late: the lists package uses this module's helpers
        parts = list_parts(reader, ws2, f2, item_ws, f, text, codes)
        statement = f"{ws2.name}({', '.join(parts)})"
        for _rec, ws, field in reversed(chain[1:-2]):
            statement = f"{ws.name}({field.name}={statement})"
        head_rec, _ws, head_field = chain[0]
        reader.emit("value-before-asked", text, f"{head_rec.var}.{head_field.name} = {statement}")
        return True
    value = reader.strong_value(f, text)
    if value is None:
        return False
    statement = literal(value)
    for _rec, ws, field in reversed(chain[1:]):
        statement = f"{ws.name}({field.name}={statement})"
    head_rec, _ws, head_field = chain[0]
    reader.emit("value-before-asked", text, f"{head_rec.var}.{head_field.name} = {statement}")
    return True
