"""Which items the list holds: "add X too", "swap X for Y", "make that Y instead", "drop the second one",
"just those two".

An added item goes to the next empty slot, switching on the yes/no that gates it ("yes, add X too" to
"another one?"); a swap renames the item named (or the one being filled) and keeps its options; a drop
switches off the yes/no of the last item's slot when the dropped item is the last one (an item whose slot
has no yes/no cannot be dropped: the agent keeps asking for it). A turn with no item name is left alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .records import Item, ItemList, by_ordinal, item_lists, list_of, literal_value, new_names, referenced

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ..parser import TurnReader

_ADD = re.compile(r"\b(?:add|too|also|as\s+well|plus|another|one\s+more|and\s+(?:the|a|an|some)|throw\s+in)\b", re.I)
_SWAP = re.compile(r"\b(?:swap|switch|replace|change|exchange|substitute|trade)\b(?P<old>.*?)\b(?:for|with|to|into)\b"
                   r"(?P<new>.+)$", re.I)
_INSTEAD_OF = re.compile(r"(?P<new>.+?)\binstead\s+of\b(?P<old>.+)$", re.I)
_INSTEAD = re.compile(r"\b(?:instead|rather|make\s+(?:that|it)|change\s+(?:that|it)\s+to|switch\s+to|"
                      r"actually\s+(?:i\s+want|let'?s\s+do))\b", re.I)
_MORE = re.compile(r"\b(?:one\s+(?:more|other)|another\s+one|one\s+extra)\b", re.I)
_SAME_AS_BEFORE = re.compile(r"\bsame\s+(?:options|settings|choices|details|again|as\s+(?:the\s+)?(?:other|first|last|"
                             r"previous|before))\b", re.I)
_DROP = re.compile(r"\b(?:drop|remove|delete|cancel|scratch|forget(?:\s+about)?|take\s+(?:off|out)|lose|skip|"
                   r"get\s+rid\s+of|don'?t\s+(?:want|need))\b", re.I)
_ENOUGH = re.compile(r"^\W*(?:(?:no|nope|nah|ok|okay)[,.!\s]+)?(?:(?:just|only)\s+(?:those|these|them|the)\s*"
                     r"(?:two|three|four|\d)?(?:\s+(?:ones?|of\s+them|please|thanks?))*|that'?s\s+(?:all|it|everything|"
                     r"enough)|no\s+more(?:\s+\w+)?|nothing\s+(?:else|more))\W*$", re.I)


def membership_rule(reader: "TurnReader", text: str) -> bool:
    lists = item_lists(reader)
    e = reader.expect
    lst = list_of(reader, e.rec) if e is not None and e.rec.parent is not None else None
    if lst is None:
        lst = next((l for l in lists if e is not None and l.rec.var == e.rec.var), None)
    if lst is None and len(lists) == 1:
        lst = lists[0]
    if lst is None:
        return False
    return _enough(reader, lst, text) or _named(reader, lst, text) or _swap(reader, lst, text) or \
        _drop(reader, lst, text) or _add(reader, lst, text) or _one_more(reader, lst, text)


_NOT_NOUNS = {"first", "second", "third", "fourth", "fifth", "details", "detail", "more", "add", "extra", "other",
              "next", "another", "item", "items", "choice"}
_ONE_MORE = re.compile(r"\b(?:add|another|one\s+more|a\s+(?:second|third|fourth|fifth)|an\s+extra)\b", re.I)


def _one_more(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "can I add one more course?" with no name: the yes/no of the next empty slot is set, and the agent asks
    for the item. The item's noun is a word of its worksheet's name or of the list's fields."""
    from ..words.match import stem

    if not _ONE_MORE.search(text) or new_names(reader, lst, text):
        return False
    head = re.findall(r"[A-Z][a-z]+|[a-z]+", lst.item_ws.name)[:1]  # DishOrder: "dish", not "order"
    nouns = {s for w in head for s in (stem(w.lower()), stem(w.lower() + "s"))}
    nouns |= {stem(w) for i in lst.items for w in i.slot.name.split("_") if len(w) > 2 and not w.isdigit()
              and w not in _NOT_NOUNS}
    after = [text[m.end():].split()[:3] for m in _ONE_MORE.finditer(text)]  # "one more course", "another dish"
    if not any(stem(re.sub(r"\W", "", w.lower())) in nouns for words in after for w in words):
        return False
    empty = next((i for i in lst.items if i.rec is None and i.gates), None)
    if empty is None or all(lst.rec.values.get(g) is True for g in empty.gates):
        return False
    for g in empty.gates:
        if lst.rec.values.get(g) is not True:
            reader.emit("list-add", text, f"{lst.rec.var}.{g} = True")
    reader.answered = True
    return True


def _named(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "Let's do X too, letter grade 4 units" to the asked name: the one name said, and the rest of the turn
    read as that item's options."""
    from ..kb_rows.items import item_options

    e = reader.expect
    if e is None or e.act != "ask" or e.rec.parent is None or e.field.name != lst.name_field.name \
            or e.rec.values.get(e.field.name) is not None or _SWAP.search(text) or _DROP.search(text):
        return False
    fresh = new_names(reader, lst, text)
    if len(fresh) != 1:
        return False
    _p, value, said = fresh[0]
    rest = _MORE.sub(" ", text.replace(said, " "))
    options = item_options(reader, lst.item_ws, rest, {lst.name_field.name})
    from ..changes.edits import SAME_FIELDS, same_fields  # late: edits imports the intents
    if not options and (not SAME_FIELDS.search(rest) or _SAME_AS_BEFORE.search(rest)):  # "same options": all of them
        return False  # the name alone: the answer rules read it as they always have
    reader.assign("answer-to-ask", said, e.rec, e.field, value)
    for name, v in options.items():
        f = lst.item_ws.field(name)
        if f is not None and e.rec.values.get(name) is None:
            reader.assign("extra-value", rest, e.rec, f, v)
    same_fields(reader, rest, e.rec, set(options))  # "CS 107, same grading, 4 units": the item before's grading
    reader.answered = True
    return True


def _gate_asked(reader: "TurnReader", lst: ItemList) -> str | None:
    e = reader.expect
    if lst.many is not None:  # "anything else?" of a List field
        return lst.many.name if e is not None and e.act == "more" and e.rec.var == lst.rec.var \
            and e.field.name == lst.many.name else None
    if e is None or e.rec.var != lst.rec.var or e.field.type != "bool":
        return None
    return e.field.name if any(e.field.name in i.gates for i in lst.items) else None


def _enough(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "just those two", "that's everything" to "another one?": no."""
    gate = _gate_asked(reader, lst)
    if gate is None or not _ENOUGH.match(text):
        return False
    done = f"confirm({lst.rec.var}.{gate})" if lst.many is not None else f"{lst.rec.var}.{gate} = False"
    reader.emit("list-enough", text, done)
    reader.answered = True
    return True


def _swap(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "swap X for Y", "Y instead of X", "make that Y instead": the item named (or being filled) is renamed."""
    fresh = new_names(reader, lst, text)
    if len(fresh) != 1:
        return False
    _p, value, _said = fresh[0]
    m = _SWAP.search(text) or _INSTEAD_OF.search(text)
    target: Item | None = None
    if m:
        old = referenced(lst, m.group("old")) + by_ordinal(lst, m.group("old"))
        if not old:  # "I don't want X any more, replace it with Y": "it" is the one item the turn names
            old = referenced(lst, text) + by_ordinal(lst, text)
        if len({id(i) for _p, i in old}) == 1:
            target = old[0][1]
        elif not old and _PRONOUN.fullmatch(m.group("old")):  # "swap that for Y": the item just told
            target = _last_told(reader, lst)
    elif _INSTEAD.search(text) and not _ADD.search(text):
        target = _last_told(reader, lst)
    if target is None:
        return False
    reader.emit("list-swap", text, f"{target.rec.var}.{lst.name_field.name} = {literal_value(value)}")
    reader.answered = True
    return True


_PRONOUN = re.compile(r"\s*(?:that|it|this)(?:\s+one)?\s*", re.I)


def _last_told(reader: "TurnReader", lst: ItemList) -> Item | None:
    """The item being filled, else the last item with a name."""
    e = reader.expect
    named = [i for i in lst.filled() if i.rec.values.get(lst.name_field.name)]
    return next((i for i in named if e is not None and i.rec.var == e.rec.var), None) or (named[-1] if named else None)


def _drop(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "drop the second one", "remove CS 148": the last item is switched off by its slot's yes/no."""
    m = _DROP.search(text)
    if not m:
        return False
    rest = re.split(r"[,;.]|\b(?:just|only|keep)\b", text[m.end():], flags=re.I)[0]  # "drop X, just Y": X
    named = referenced(lst, rest) + by_ordinal(lst, rest)
    dropped = {id(i): i for _p, i in named}
    if len(dropped) != 1:
        return False
    item = next(iter(dropped.values()))
    filled = lst.filled()
    last = filled[-1]
    if lst.many is not None or not last.gates:
        return False  # a slot with no yes/no must stay (the agent keeps asking for it); a List has no remove
    # the items after the dropped one move up a slot, each with all its values; the last slot is switched off
    at = filled.index(item)
    for here, after in zip(filled[at:], filled[at + 1:]):
        values = {k: v for k, v in after.rec.values.items() if v is not None and not isinstance(v, dict)}
        kwargs = ", ".join(f"{k}={literal_value(v)}" for k, v in values.items())
        reader.emit("list-drop", text, f"{lst.rec.var}.{here.slot.name} = {lst.item_ws.name}({kwargs})")
    reader.emit("list-drop", text, f"{lst.rec.var}.{last.slot.name} = None")  # not shown in the summary any more
    reader.emit("list-drop", text, f"{lst.rec.var}.{last.gates[-1]} = False")
    reader.answered = True
    return True


def _add(reader: "TurnReader", lst: ItemList, text: str) -> bool:
    """ "add X too", "yes, the nasi goreng", "oh and Y as well": new items in the next empty slots, each with
    the options said in its own piece of the turn."""
    from ..kb_rows.items import item_options, pieces_at, shared_options

    fresh = new_names(reader, lst, text)
    gate = _gate_asked(reader, lst)
    said_yes = gate is not None and any(l == f"{lst.rec.var}.{gate} = True" for l in reader.lines)
    e = reader.expect
    if not fresh or (e is not None and e.rec.parent is not None and e.field.name == lst.name_field.name
                     and e.rec.values.get(lst.name_field.name) is None):
        return False  # the name asked: the answer rules read it
    if not (_ADD.search(text) or said_yes or gate is not None):
        return False
    if lst.many is not None:  # a List field: each new item is appended
        blank = f"{lst.rec.var}.{lst.many.name}.append({lst.item_ws.name}())"  # the yes said "one more": it is this
        if blank in reader.lines:
            reader.lines.remove(blank)
            reader.rules = [r for r in reader.rules if r.get("statement") != blank]
        pieces = pieces_at(text, [p for p, _v, _s in fresh])
        for (pos, value, said), piece in zip(fresh, pieces):
            opts = item_options(reader, lst.item_ws, _MORE.sub(" ", piece.replace(said, " ")), {lst.name_field.name})
            kwargs = ", ".join(f"{k}={literal_value(v)}" for k, v in {lst.name_field.name: value, **opts}.items())
            reader.emit("list-add", said, f"{lst.rec.var}.{lst.many.name}.append({lst.item_ws.name}({kwargs}))")
        reader.answered = True
        return True
    empty = [i for i in lst.items if i.rec is None and lst.rec.values.get(i.slot.name) is None]
    if len(empty) < len(fresh):
        return False
    pieces = pieces_at(text, [p for p, _v, _s in fresh])
    shared = shared_options(reader, lst.item_ws, text, {lst.name_field.name}) if len(fresh) > 1 else {}
    on = {k for k, v in lst.rec.values.items() if v is True}
    for (pos, value, said), item, piece in zip(fresh, empty, pieces):
        for g in item.gates:
            if g not in on:
                reader.emit("list-add", text, f"{lst.rec.var}.{g} = True")
                on.add(g)
        piece = _MORE.sub(" ", piece.replace(said, " "))  # "one more: X" is no count of X
        opts = {**shared, **item_options(reader, lst.item_ws, piece, {lst.name_field.name})}
        if _SAME_AS_BEFORE.search(piece) and lst.filled():  # "X too, same options": the item before's options
            before = lst.filled()[-1].rec.values
            opts = {**{k: v for k, v in before.items() if k != lst.name_field.name and v is not None
                       and not isinstance(v, dict) and lst.item_ws.field(k) is not None}, **opts}
        kwargs = ", ".join(f"{k}={literal_value(v)}" for k, v in {lst.name_field.name: value, **opts}.items())
        reader.emit("list-add", said, f"{lst.rec.var}.{item.slot.name} = {lst.item_ws.name}({kwargs})")
    reader.answered = True
    return True


_ENOUGH_SAID = re.compile(r"\b(?:just|only)\s+(?:those|these|the)\s+(?:two|three|four|\d)\b|"
                          r"\b(?:just|only)\s+(?:two|three|four|\d)(?:\s+(?:ones?|of\s+them|[a-z]+s))?\s*[.!]*$|"
                          r"\bthat'?s\s+(?:all|it|everything|enough)\s*[.!]*$|\bno\s+more\b|"
                          r"\b(?:nothing|none|no\s+one)\s+(?:else|more)\s*(?:thanks?|please)?\s*[.!]*$|"
                          r"\bno\s+others?\s*[.!]*$", re.I)
"""An opening that names its items and says there are no others ("X for ..., and Y, ... Just those two.")."""


def enough_in_opening(reader: "TurnReader", text: str, first_rule: int) -> None:
    """After an opening that named the items: "just those two" says no to the next item, in the list record the
    opening made (its gate, the yes/no field another field's predicate tests, set to False in the statement)."""
    if not _ENOUGH_SAID.search(text):
        return
    for r in reader.rules[first_rule:]:
        line = r.get("statement") or ""
        for ws in reader.spec.task_worksheets():
            m = re.search(rf"\b{re.escape(ws.name)}\((?P<args>.*)\)", line)
            if m is None:
                continue
            given = set(re.findall(r"(\w+)=", m.group("args")))
            gates = [f.name for f in ws.fields if f.kind == "input" and f.type == "bool" and f.name not in given
                     and any(f.name in (g.predicate or "") for g in ws.fields)]
            if not gates:
                continue
            new = line[:m.end("args")] + f", {gates[0]}=False" + line[m.end("args"):]
            reader.lines = [new if x == line else x for x in reader.lines]
            r["statement"] = new
            reader.note("list-enough", _ENOUGH_SAID.search(text).group(0), field=gates[0],
                        reason="the opening named its items and said there are no others")
            return


def enough_after_items(reader: "TurnReader", text: str, parent: "TaskRecord") -> None:
    """ "X ..., and Y ..., nothing else" answering the first item of a list record already open: the list's next
    yes/no gate (a field another field's predicate tests) is a no."""
    m = _ENOUGH_SAID.search(text)
    if m is None:
        return
    ws = reader.view.worksheet(parent)
    gates = [f.name for f in ws.fields if f.kind == "input" and f.type == "bool" and reader.view.unfilled(parent, f)
             and any(re.search(rf"\b{re.escape(f.name)}\b", g.predicate or "") for g in ws.fields)]
    if gates:
        reader.emit("list-enough", m.group(0), f"{parent.var}.{gates[0]} = False")

