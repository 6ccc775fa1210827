"""Options said for several items at once, or for an item named in the turn.

"both medium", "3 units each", "all three for a letter grade": the options go to every item of the list.
"three units for the first, four for the second", "pass/fail for 231N", "make the butter chicken 4 trays":
each clause's options go to the item it names (by ordinal or by its name). "same for this one", "same for
129": every option the other item has goes to the item asked. "4 and 3" to the first of two items' units: one value
each, in the items' order. Options are read as the items' own options
(enum values by name or description, labelled numbers, a lone number for the one number field).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import REFUSAL
from ..words.match import Bag, field_stems
from .records import ORDINAL, Item, ItemList, by_ordinal, item_lists, list_of, literal_value, new_names, referenced

if TYPE_CHECKING:
    from ..parser import TurnReader

_EVERY = re.compile(r"\b(?:both(?:\s+of\s+them)?|each(?:\s+of\s+them|\s+one)?|every\s+one|all\s+of\s+them|"
                    r"all(?:\s+(?:two|three|four|five))?|the\s+(?:two|three|four|\d)\s+of\s+them|for\s+all)\b", re.I)
_SAME = re.compile(r"\b(?:same|ditto)(?:\s+(?:again|options?|thing|settings?|deal))?\s+(?:for|with)\b|"
                   r"\bsame\s+(?:options|settings|choices|details|again)\b", re.I)
# "same for this one", "same with <item>": the whole item; "the same", "same as before" answer only the field
# asked (the same-as rule)
_CHANGE = re.compile(r"\b(?:make|change|switch|set|actually|instead|rather)\b", re.I)
_OTHER = re.compile(r"\bthe\s+other\b|\bthe\s+rest\b", re.I)  # "the other one", "the other <item>"
_CLAUSES = re.compile(r"\s*(?:[,;]|\band\b|\bbut\b|\bwhile\b|\.\s)\s*", re.I)


def spread_rule(reader: "TurnReader", text: str) -> bool:
    lists = item_lists(reader)
    lst = _asked_list(reader, lists)
    if lst is None:
        return False
    if len(lst.filled()) < 2:
        return _own_options(reader, lst, text)
    return _same_for(reader, lst, text) or _every(reader, lst, text) or _per_item(reader, lst, text) or \
        _in_order(reader, lst, text) or _own_options(reader, lst, text)


_IN_ORDER = re.compile(r"^\s*(?:ok(?:ay)?[,\s]+|um+[,\s]+)?([^,;]+?)(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+)([^,;]+?))+\s*"
                       r"(?:respectively)?[.!]?\s*$", re.I)


def _in_order(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "4 and 3" to the units of the first of two items that both lack them: one bare value a clause, in the items'
    order, from the item asked on. Each clause is a value of the asked field and nothing else, the turn names no
    item, and there are as many values as items still without one; otherwise nothing is guessed."""
    e = reader.expect
    if e is None or e.act != "ask" or e.rec.parent is None or not _IN_ORDER.match(text) \
            or referenced(lst, text) or by_ordinal(lst, text) or _EVERY.search(text):
        return False
    pending = [i for i in lst.filled() if i.rec.values.get(e.field.name) is None]
    if len(pending) < 2 or pending[0].rec.var != e.rec.var:
        return False
    clauses = [c for c in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.sub(r"(?i)^\s*(?:ok(?:ay)?|um+)[,\s]+|"
                                                                            r"\s*respectively[.!]?\s*$", "", text))
               if c.strip(" .!")]
    values = [_options(reader, lst, c.strip(" .!")) for c in clauses]
    if len(values) != len(pending) or any(set(v) != {e.field.name} for v in values):
        return False
    n = sum(_set(reader, "list-in-order", c, item, v, overwrite=False) for c, item, v in zip(clauses, pending, values))
    reader.answered = reader.answered or n > 0
    return n > 0


def _own_options(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "letter, 4" to an item's option: the answer and the item's other options said beside it (a lone number
    for its one number field), when the turn names no item."""
    e = reader.expect
    if e is None or e.act != "ask" or e.rec.parent is None or reader.view.kind_of(e.field) != "Enum" \
            or referenced(lst, text) or by_ordinal(lst, text) or _EVERY.search(text):
        return False
    item = next((i for i in lst.filled() if i.rec.var == e.rec.var), None)
    options = _options(reader, lst, text) if item is not None else {}
    if e.field.name not in options or len(options) < 2 or item.rec.values.get(e.field.name) is not None:
        return False
    reader.assign("answer-to-ask", text, item.rec, e.field, options.pop(e.field.name))
    _set(reader, "extra-value", text, item, options, overwrite=False)
    reader.answered = True
    return True


def _asked_list(reader: "TurnReader", lists: list[ItemList]) -> ItemList | None:
    e = reader.expect
    if e is not None and e.rec.parent is not None:
        found = list_of(reader, e.rec)
        if found is not None:
            return found
    return lists[0] if len(lists) == 1 else None


def _options(reader: "TurnReader", lst: ItemList, piece: str) -> dict[str, Any]:
    from ..kb_rows.items import item_options
    piece = _EVERY.sub(" ", piece)
    return item_options(reader, lst.item_ws, piece, {lst.name_field.name})


def _set(reader: "TurnReader", rule: str, words: str, item: Item, values: dict[str, Any], overwrite: bool) -> int:
    n = 0
    for name, value in values.items():
        f = lst_field = reader.view.worksheet(item.rec).field(name)
        if lst_field is None or f.kind != "input":
            continue
        current = item.rec.values.get(name)
        if current is not None and (not overwrite or current == value):
            continue
        reader.emit(rule, words, f"{item.rec.var}.{name} = {literal_value(value)}")
        n += 1
    return n


def _every(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "both medium", "2 trays each": the options of the clause that says each, both or all go to every item."""
    clauses = [c for c in _CLAUSES.split(text) if _EVERY.search(c)]
    if not clauses or referenced(lst, text) or by_ordinal(lst, text):
        return False
    values = {}
    for clause in clauses:
        values.update(_options(reader, lst, clause))
    if not values:
        return False
    filled = lst.filled()
    if re.search(r"\bboth\b", text, re.I) and len(filled) != 2:
        reader.note("list-every-unclear", clauses[0], reason=f"'both' said of {len(filled)} items: nothing is changed")
        return True  # a wrong value is worse than none: the question is asked again
    change = bool(_CHANGE.search(text))
    n = sum(_set(reader, "list-every", clauses[0], item, values, overwrite=change) for item in filled)
    reader.answered = reader.answered or n > 0
    return n > 0


def _per_item(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """Clauses that name an item (by ordinal or name) give that item their options; a clause naming none
    answers the question asked."""
    e = reader.expect
    if e is not None and e.act == "ask" and reader.view.kind_of(e.field) == "str" and list_of(reader, e.rec) is None \
            and not _CHANGE.search(text):
        return False  # "4 Garlic Lane" to an address names no item: a text answer takes its words as they are
    pointed = 0
    last: Item | None = None
    plan: list[tuple[str, Item | None, dict[str, Any], bool]] = []
    bare: list[tuple[str, list[Item]]] = []  # clauses that only name items: "5 units for 106A and 109"
    told: dict[str, Any] | None = None  # the options of the clause before, when it named its item
    for clause in _CLAUSES.split(text):
        if not clause.strip():
            continue
        named = referenced(lst, clause) + by_ordinal(lst, clause)
        targets = {id(i.rec): i for _p, i in named}
        options = _options(reader, lst, _strip_names(lst, clause))
        if not options:
            if targets and not re.sub(r"\b(?:the|a|an|for|to|with|too|also|as\s+well)\b", " ",
                                      _strip_names(lst, clause), flags=re.I).strip(" .!"):
                bare.append((clause, list(targets.values())))  # the item alone shares the options beside it
                if told is not None:
                    pointed += 1
                    plan += [(clause, item, told, True) for item in bare.pop()[1]]
            continue
        told = options if targets else None
        if targets and bare:  # "106A and 109 for 5 units": names before the clause that says their options
            pointed += len(bare)
            plan += [(c, item, options, True) for c, items in bare for item in items]
            bare = []
        if not targets and _OTHER.search(clause):
            plan.append((clause, None, options, True))  # "the other one": resolved below
            continue
        if not targets and last is not None and not _EVERY.search(clause):
            targets = {id(last.rec): last}  # "letter for X, and 4 units": the clause goes on about X
        if len(targets) == 1:
            pointed += 1
            last = next(iter(targets.values()))
            plan.append((clause, last, options, True))
        elif not targets and _EVERY.search(clause) and not re.search(r"\bboth\b", clause, re.I) or \
                not targets and re.search(r"\bboth\b", clause, re.I) and len(lst.filled()) == 2:
            plan += [(clause, item, options, False) for item in lst.filled()]  # "both letter, X is 4 units"
        elif not targets and e is not None and e.rec.parent is not None:
            asked = next((i for i in lst.filled() if i.rec.var == e.rec.var), None)
            if asked is not None:
                plan.append((clause, asked, options, False))
    if not pointed:
        return False
    named = {id(item.rec) for _c, item, _o, own in plan if own and item is not None}
    others = [i for i in lst.filled() if id(i.rec) not in named]
    if any(item is None for _c, item, _o, _own in plan):
        if len(others) != 1:
            return False  # "the other one" of three items, or of none: nothing is guessed
        plan = [(c, others[0] if item is None else item, o, own) for c, item, o, own in plan]
    done: set[tuple[str, str]] = set()
    n = 0
    for clause, item, opts, own in sorted(plan, key=lambda p: not p[3]):  # an item named wins over the one asked
        opts = {k: v for k, v in opts.items() if (item.rec.var, k) not in done}
        n += _set(reader, "list-item-options", clause, item, opts, overwrite=own)
        done |= {(item.rec.var, k) for k in opts}
    reader.answered = reader.answered or n > 0
    return n > 0


def _strip_names(lst: ItemList, clause: str) -> str:
    """The clause without the items' names, so a code's number is not read as an option ("231N", "CS 230")."""
    out = ORDINAL.sub(" ", clause)
    for item in lst.filled():
        name = str(item.rec.values.get(lst.name_field.name) or "")
        if name:
            out = re.sub(re.escape(name), " ", out, flags=re.I)
            code = re.fullmatch(r"\s*[A-Za-z]+\s*(\d+[A-Za-z]*)\s*", name)
            if code:
                out = re.sub(rf"\b{re.escape(code.group(1))}\b", " ", out, flags=re.I)
    return out


def _same_for(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "same for this one", "same for 129", "same again": the asked item gets every option another item has
    (the one named, else the one before it). A field named ("same spice") is left to the same-as rule."""
    e = reader.expect
    if e is None or e.rec.parent is None or not _SAME.search(text):
        return False
    bag = Bag.of(text)
    if any(field_stems(f) & set(bag.stems) for f in lst.item_ws.fields if f.name != lst.name_field.name):
        return False
    filled = lst.filled()
    target = next((i for i in filled if i.rec.var == e.rec.var), None)
    if target is None:
        return False
    named = [i for _p, i in referenced(lst, text) if i.rec.var != target.rec.var]
    before = [i for i in filled[:filled.index(target)] if _has_options(lst, i)]
    source = named[0] if named else (before[-1] if before else None)
    if source is None:
        return False
    values = {k: v for k, v in source.rec.values.items() if k != lst.name_field.name and v is not None
              and v != REFUSAL and not isinstance(v, dict)}
    if e.field.name == lst.name_field.name and target.rec.values.get(e.field.name) is None:
        fresh = new_names(reader, lst, text)  # "Y, same options": the name asked, and the options of the other
        if len(fresh) != 1:
            return False
        values = {e.field.name: fresh[0][1], **values}
    n = _set(reader, "list-same-options", text, target, values, overwrite=False)
    reader.answered = reader.answered or n > 0
    return n > 0


def _has_options(lst: ItemList, item: Item) -> bool:
    return any(v is not None for k, v in item.rec.values.items() if k != lst.name_field.name)
