"""Spec-driven readings of a whole turn: task descriptions, proposals, choosing reported rows.

These are the offline parser's larger rules. They build statements from the
spec's own data: a task description fills the enum fields whose values or
descriptions the user's words match, nesting into the worksheets those values
activate; a proposal accepted with "yes" becomes the proposed record; "the
second one" picks a row of the last reported KB result.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from ..spec import Field, Worksheet, parse_type, snake_case
from ..state import TaskRecord, ref_target
from .offline_intents import choice_index, is_question, search_phrase
from .offline_match import Bag, best_enum, content_stems, enum_scores, equalities, holds, stem
from .offline_slots import find_mentions

if TYPE_CHECKING:
    from .offline import TurnReader

BOOKING_WORDS = {stem(w) for w in ("table", "reservation", "booking", "book", "restaurant", "place", "spot",
                                   "seat", "tonight", "please", "reserve", "course", "class", "one", "some")}


def literal(value: Any) -> str:
    """A value as a formal-language literal; strings via JSON so quotes and backslashes are escaped."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "None"
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
                    start: Field | None = None, depth: int = 0, spent: frozenset[str] = frozenset()) -> Described:
    """Enum fields of `ws` (and the worksheets they activate) that the user's words decide.

    Words of an enum value chosen higher up are spent: "leave of absence" picks the task
    Leave of Absence, and must not also pick its sub-issue "Status of Leave of Absence form".
    """
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
            value = reader.enum_value(f, bag.text, spent=spent, strict=is_question(bag.text) is not None)
            if value is not None:
                words = next((w for _s, v, w in enum_scores(f, bag) if v == value and w), [bag.text])
                out.items[f.name] = (literal(value), value, words)
        elif kind == "Enum":
            best = best_enum(f, bag.without(spent))
            if best:
                out.items[f.name] = (literal(best[0]), best[0], best[1])
        elif kind == "task":
            sub = reader.spec.require_worksheet(parse_type(f.type).base)
            sub_values = dict(child.values) if isinstance(child, TaskRecord) else {}
            sub_frame = [(sub_values, sub), *frame]
            if holds(sub.predicate, reader.view.lookup(rec, scope=sub_frame)) is not True:
                continue
            chosen = {s for k, v in current.items() if isinstance(v, str) and ws.field(k) is not None
                      and reader.view.kind_of(ws.field(k)) == "Enum" for s in content_stems(v)}
            inner = match_worksheet(reader, bag, sub, sub_values, frame, rec, depth=depth + 1,
                                    spent=spent | chosen)
            if inner.items:
                text = f"{sub.name}({kwargs_text({k: v[0] for k, v in inner.items.items()})})"
                words = sorted({w for v in inner.items.values() for w in v[2]})
                out.items[f.name] = (text, inner.plain(), words)
    return out


def describe_task(reader: "TurnReader", text: str, rec: TaskRecord | None = None,
                  start: Field | None = None) -> bool:
    """Fill enum fields from a description of the task; open worksheets the new values activate."""
    bag = Bag.of(text)
    roots = [rec] if rec is not None else [r for r in reader.view.live_records() if r.parent is None]
    overlay: dict[str, dict[str, Any]] = {}
    emitted = False
    for root in roots:
        spent = frozenset(s for a in reader.state.ancestors(root) for k, v in a.values.items()
                          if isinstance(v, str) and _is_enum(reader, a, k) for s in content_stems(v))
        found = match_worksheet(reader, bag, reader.view.worksheet(root), dict(root.values), [], root, start,
                                spent=spent)
        for name, (text_value, _plain, words) in found.items.items():
            rule = "answer-to-ask" if start is not None and name == start.name else "task-description"
            reader.emit(rule, " ".join(words), f"{root.var}.{name} = {text_value}")
            emitted = True
        overlay[root.var] = found.plain()
    if not emitted:
        return False
    nested = reader.spec.nested_worksheet_names()
    for ws in reader.spec.task_worksheets():
        if not ws.predicate.strip() or ws.name in nested:
            continue
        if any(r.status != "abandoned" for r in reader.state.of_worksheet(ws.name)):
            continue
        if holds(ws.predicate, reader.view.lookup(None, overlay)) is True:
            open_worksheet(reader, ws, text, bag)
    return True


def _is_enum(reader: "TurnReader", rec: TaskRecord, name: str) -> bool:
    f = reader.view.worksheet(rec).field(name)
    return f is not None and reader.view.kind_of(f) == "Enum"


def open_worksheet(reader: "TurnReader", ws: Worksheet, text: str, bag: Bag) -> None:
    """A worksheet the description activates: its enum values, slot values and a KB search, in one record."""
    var = reader.state.new_var(snake_case(ws.name))
    found = match_worksheet(reader, bag, ws, {}, [], None)
    kwargs = {k: v[0] for k, v in found.items.items()}
    matched = [w for v in found.items.values() for w in v[2]]
    ghost = TaskRecord(var=var, worksheet=ws.name)
    candidates = [(ghost, f) for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) not in
                  ("confirm", "task", "row", "list") and f.name not in kwargs]
    mentions = find_mentions(text, candidates, reader.view, reader.today)
    for m in mentions:
        kwargs[m.field.name] = literal(m.value)
        matched.append(m.matched)
    rows = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "row"]
    if rows:
        query = search_query(text, [m.span.text for m in mentions if m.span], set(bag.hits(BOOKING_WORDS)))
        if query:
            kwargs[rows[0].name] = f"answer({literal(query)})"
            matched.append(query)
    if kwargs:
        reader.emit("task-description", " ".join(matched), f"{var} = {ws.name}({kwargs_text(kwargs)})")


def search_query(text: str, drop: list[str], task_words: set[str]) -> str | None:
    """The search part of a request, without slot values; None when nothing is left to search for."""
    body = text
    for piece in sorted(drop, key=len, reverse=True):
        body = body.replace(piece, " ")
    body = re.sub(r"\b(?:actually|instead|rather|change\s+(?:it|that)\s+to|make\s+it|let'?s\s+do|"
                  r"how\s+about|what\s+about)\b[,]?", " ", body, flags=re.I)
    body = re.sub(r"\s+", " ", body)
    body = re.sub(r"\b(?:for|at|on|in|with)\s+(?=(?:for|at|on|in|with)\b)", "", body)
    body = re.sub(r"\b(?:for|at|on|in|with)\s*(?=[,.!?]|$)", "", body.strip()).strip(" ,.!?")
    phrase = search_phrase(body)
    words = [w for w in content_stems(phrase) if w not in BOOKING_WORDS and w not in {stem(t) for t in task_words}]
    return phrase if words else None


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
    for m in find_mentions(rest, candidates, reader.view, reader.today) if rest else []:
        kwargs[m.field.name] = literal(m.value)
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
    for key in ("name", "title", "course_name", "label"):
        if isinstance(row.get(key), str):
            return row[key]
    return next((v for v in row.values() if isinstance(v, str) and 2 < len(v) < 60), None)


def choose_row(reader: "TurnReader", text: str) -> bool:
    """"2", "the second one" or a reported name picks a row of the last multi-row KB report."""
    reports = [a for a in reader.acts if a.get("act") == "report" and a.get("kind") == "kb"
               and isinstance(a.get("result"), list) and len(a["result"]) >= 2]
    if not reports:
        return False
    report = reports[-1]
    rows, kb_var = report["result"], report["var"]
    expect = reader.expect
    row_expected = expect is None or reader.view.kind_of(expect.field) == "row"
    if is_question(text) and not re.fullmatch(r"\W*(?:\d{1,2}|the \w+ one)\W*", text, re.I):
        return False
    pick = choice_index(text, len(rows))
    if pick is not None and not row_expected and re.fullmatch(r"\W*(?:the\s+)?\d{1,2}\W*", text):
        pick = None  # a bare number answers the question asked, not the list
    if pick is None:
        pick = _by_name(text, rows)
    if pick is None:
        return False
    index, words = pick
    target = _choice_target(reader, kb_var, rows[index])
    if target is not None:
        reader.emit("choose-result", words, f"{target} = {kb_var}.result[{index}]")
        return True
    return _open_with_row(reader, rows[index], f"{kb_var}.result[{index}]", words)


def _open_with_row(reader: "TurnReader", row: dict[str, Any], path: str, words: str) -> bool:
    """No record takes the row: open the task worksheet that has a field of its type (e.g. a booking)."""
    nested = reader.spec.nested_worksheet_names()
    for ws in reader.spec.task_worksheets():
        if ws.name in nested:
            continue
        f = next((f for f in ws.fields if reader.view.kind_of(f) == "row" and _fits(reader, f, row)), None)
        if f is None:
            continue
        for eq_path, value in equalities(ws.predicate):
            set_equality(reader, eq_path, value)
        live = [r for r in reader.state.of_worksheet(ws.name) if r.status == "active" and r.parent is None]
        var = live[0].var if live else reader.state.new_var(snake_case(ws.name))
        reader.emit("choose-result", words, f"{var} = {ws.name}({f.name}={path})")
        return True
    return False


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
            if reader.view.kind_of(f) == "row" and reader.view.unfilled(rec, f) and _fits(reader, f, row):
                return f"{rec.var}.{f.name}"
    return None


def _fits(reader: "TurnReader", f: Field, row: dict[str, Any]) -> bool:
    ws = reader.spec.worksheet(parse_type(f.type).base)
    return ws is not None and bool(ws.fields) and {x.name for x in ws.fields} <= set(row)


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


def predicted_answer(reader: "TurnReader", text: str) -> bool:
    """A value with an unmistakable shape for the field the agent would ask next ("Let's enroll in CS448")."""
    chain = next_question(reader)
    if not chain or chain[0][0] is None:
        return False
    f = chain[-1][2]
    value = reader.strong_value(f, text)
    if value is None:
        return False
    statement = literal(value)
    for _rec, ws, field in reversed(chain[1:]):
        statement = f"{ws.name}({field.name}={statement})"
    head_rec, _ws, head_field = chain[0]
    reader.emit("value-before-asked", text, f"{head_rec.var}.{head_field.name} = {statement}")
    return True
