"""Where a spec keeps a list of items: a worksheet with several fields of one item worksheet type.

`CoursesToTake(course_0_details: Course, course_1_details: Course, more_courses_2: bool,
course_2_details: Course [self.more_courses_2 == True], ...)` is such a list: its slots are the fields of the
item type, in order, and a slot gated by a yes/no of the list record is switched on by that yes/no. Nothing
here knows a worksheet's name: the shape (several fields of one task worksheet type) says it is a list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ....spec.model import REFUSAL, Field, Worksheet, parse_type
from ....dialogue.state import TaskRecord, ref_target
from ..words.match import equalities
from ..words.values import find_codes

if TYPE_CHECKING:
    from ..parser import TurnReader


@dataclass
class Item:
    """One slot of a list record and the item record in it (None while the slot is empty)."""

    slot: Field
    rec: TaskRecord | None
    gates: list[str]  # the list record's yes/no fields that switch the slot on


@dataclass
class ItemList:
    rec: TaskRecord
    ws: Worksheet
    item_ws: Worksheet
    name_field: Field
    items: list[Item]
    many: Field | None = None  # a `List[Item]` field holds the items (no slots: one more is appended)

    def filled(self) -> list[Item]:
        return [i for i in self.items if i.rec is not None and i.rec.status != "abandoned"]


def slot_gates(ws: Worksheet, slot: Field) -> list[str] | None:
    """The yes/no fields of `ws` that the slot's predicate needs True ([] when it has no predicate; None when
    it needs something else)."""
    if not slot.predicate.strip():
        return []
    gates = equalities(slot.predicate)
    if gates and all(len(p) == 2 and p[0] == "self" and v is True and ws.field(p[1]) is not None
                     and ws.field(p[1]).type == "bool" for p, v in gates):
        return [p[1] for p, _v in gates]
    return None


def item_slots(reader: "TurnReader", ws: Worksheet) -> tuple[Worksheet, list[Field]] | None:
    """(item worksheet, its slots) when `ws` holds two or more input fields of one task worksheet type."""
    by_type: dict[str, list[Field]] = {}
    for f in ws.fields:
        sub = reader.spec.worksheet(f.type) if f.kind == "input" else None
        if sub is not None and sub.kind == "task":
            by_type.setdefault(sub.name, []).append(f)
    found = [(reader.spec.worksheet(t), fs) for t, fs in by_type.items() if len(fs) >= 2
             and len({_slot_stem(f.name) for f in fs}) == 1]
    return found[0] if len(found) == 1 else None


_ORDINAL_WORDS = {"first", "second", "third", "fourth", "fifth", "sixth", "next", "another", "other", "extra", "more"}


def _slot_stem(name: str) -> str:
    """A slot's name without its number, letter or ordinal: `dish_1`/`dish_2` and `first_class`/`second_class` are slots of
    one list; `pickup_stop` and `dropoff_stop` are two roles, not a list."""
    return "_".join(w for w in re.split(r"_+|(?<=[a-z])(?=\d)", name.lower())
                    if len(w) > 1 and not w.isdigit() and w not in _ORDINAL_WORDS)  # `module_a`, `module_b`


def name_field(reader: "TurnReader", item_ws: Worksheet) -> Field | None:
    """The field that names an item: the one text field whose values are KB row names, else the first
    required text field."""
    from ..kb_rows.items import name_field as kb_name_field  # late: kb_rows imports the slot helpers

    named = kb_name_field(reader, item_ws)
    if named is not None:
        return named
    return next((f for f in item_ws.fields if f.kind == "input" and f.type == "str" and f.required
                 and not f.predicate.strip()), None)


def item_lists(reader: "TurnReader") -> list[ItemList]:
    """The live list records of the state, each with its slots and item records (read once per turn)."""
    cache = reader.__dict__.setdefault("_item_lists", {})
    if id(reader.state) not in cache:
        cache[id(reader.state)] = _item_lists(reader)
    return cache[id(reader.state)]


def _item_lists(reader: "TurnReader") -> list[ItemList]:
    out = []
    for rec in reader.view.live_records():
        ws = reader.view.worksheet(rec)
        for f in ws.fields:  # `dishes: List[DishOrder]`
            t = parse_type(f.type)
            sub = reader.spec.worksheet(t.worksheet or "") if f.kind == "input" and t.base == "List" else None
            nf = name_field(reader, sub) if sub is not None and sub.kind == "task" else None
            if nf is not None:
                refs = rec.values.get(f.name) if isinstance(rec.values.get(f.name), list) else []
                kids = [reader.state.get(ref_target(r) or "") for r in refs]
                out.append(ItemList(rec, ws, sub, nf, [Item(f, k, []) for k in kids if isinstance(k, TaskRecord)], f))
        found = item_slots(reader, ws)
        if found is None:
            continue
        item_ws, slots = found
        nf = name_field(reader, item_ws)
        if nf is None:
            continue
        items = []
        for slot in slots:
            gates = slot_gates(ws, slot)
            if gates is None:
                break
            child = reader.state.get(ref_target(rec.values.get(slot.name)) or "")
            items.append(Item(slot, child if isinstance(child, TaskRecord) else None, gates))
        out.append(ItemList(rec, ws, item_ws, nf, items))
    return out


def list_of(reader: "TurnReader", rec: TaskRecord) -> ItemList | None:
    """The list an item record belongs to."""
    for lst in item_lists(reader):
        if any(i.rec is not None and i.rec.var == rec.var for i in lst.items):
            return lst
    return None


def _norm(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def referenced(lst: ItemList, text: str) -> list[tuple[int, Item]]:
    """(position, item) of each existing item the text names by its value: the whole name ("CS 224N"), the
    number of a code ("231N"), or a word of the name that no other item has ("the lasagne")."""
    low = _norm(text)
    found: list[tuple[int, Item]] = []
    names = {id(i): str(i.rec.values.get(lst.name_field.name) or "") for i in lst.filled()}
    for item in lst.filled():
        name = names[id(item)]
        if not name or name == REFUSAL:
            continue
        keys = [_norm(name)]
        code = re.fullmatch(r"\s*[A-Za-z]+\s*(\d+[A-Za-z]*)\s*", name)
        if code:
            keys.append(f" {code.group(1).lower()} ")
        others = " ".join(_norm(n) for k, n in names.items() if k != id(item))
        keys += [f" {w} " for w in _norm(name).split() if len(w) >= 4 and f" {w} " not in others]
        at = min((low.find(k) for k in keys if k in low), default=-1)
        if at >= 0:
            found.append((at, item))
    return sorted(found, key=lambda x: x[0])


_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
             "fifth": 4, "5th": 4}
ORDINAL = re.compile(r"\b(?:the\s+)?(" + "|".join(_ORDINALS) + r"|last)(?:\s+(?:one|item|choice))?\b", re.I)


def by_ordinal(lst: ItemList, text: str) -> list[tuple[int, Item]]:
    """(position, item) of "the first", "the second one", "the last one" in the text."""
    filled = lst.filled()
    out = []
    for m in ORDINAL.finditer(text):
        word = m.group(1).lower()
        index = len(filled) - 1 if word == "last" else _ORDINALS[word]
        if 0 <= index < len(filled):
            out.append((m.start(), filled[index]))
    return out


def new_names(reader: "TurnReader", lst: ItemList, text: str) -> list[tuple[int, str, str]]:
    """(position, value, as said) of item names in the text that no item holds yet: codes for a code-like
    name field, KB row names for a name field the KB names."""
    cache = reader.__dict__.setdefault("_new_names", {})
    key = (lst.rec.var, lst.name_field.name, text)
    if key not in cache:
        cache[key] = _new_names(reader, lst, text)
    return cache[key]


def _new_names(reader: "TurnReader", lst: ItemList, text: str) -> list[tuple[int, str, str]]:
    from ..kb_rows.items import code_of_named, names_for, said_names
    held = {_norm(str(i.rec.values.get(lst.name_field.name) or "")) for i in lst.filled()}
    found: list[tuple[int, str, str]] = []
    if names_for(reader, lst.name_field):
        tokens = list(re.finditer(r"[a-z0-9]+", text.lower()))
        for p, name in said_names(reader, lst.name_field, text):
            first = len(_norm(text)[:p].split())  # said_names counts in the normalised text: its token index
            last = first + len(name.split()) - 1
            if last < len(tokens):
                found.append((tokens[first].start(), code_of_named(reader, lst.name_field, name),
                              text[tokens[first].start():tokens[last].end()]))
    taken = [(p, p + len(said)) for p, _v, said in found]  # a code that is part of a name said is not a code,
    found += [(c.start, c.value, c.text) for c in find_codes(text)  # nor one in brackets after it: "X (CS 229)"
              if not any(a <= c.start < b or re.fullmatch(r"\s*\(\s*", text[b:c.start]) for a, b in taken)]
    found.sort()
    return [(p, v, s) for p, v, s in found if _norm(v) not in held]


def literal_value(value: Any) -> str:
    from ..opening.tasks import literal
    return literal(value)
