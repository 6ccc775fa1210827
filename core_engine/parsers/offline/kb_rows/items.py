"""Text fields that name KB rows, and several such items with their options in one sentence.

A spec may hold the thing a user picks from the KB as plain text rather than as a row: `class_name: str`
in a worksheet `ClassSlot`, with a KB table `classes` whose `name` column lists them. The field's own name
says so (a word of it is the table's name, another the column's), so a row name said anywhere in the turn
is that field's value ("can you book me into Aqua Fit?"), read from the KB, never from built-in words.

When an opening names several of them, each with its options ("X for the whole term and Y as a single
session"), the turn is cut at the names: each piece is one item, and its options (enum values, numbers)
are read in that piece only, so they never cross over to another item. The items fill the first empty
field of their worksheet type and its siblings; a sibling that is gated by a yes/no of the same record
("self.more_items == True") gets that yes/no too, since naming a second item says yes to it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field, Worksheet, parse_type
from ..words.match import initialism_enum, Bag, best_enum, equalities, stem

if TYPE_CHECKING:
    from ..parser import TurnReader
    from ..answering.slots import KBVocabulary

_ASKS_FOR = re.compile(
    r"\b(?:book|reserve|order|enrol+|register|sign\s+(?:me|us)\s+up|put\s+(?:me|us)\s+(?:down|in)|"
    r"(?:get|fit|squeeze)\s+(?:me|us)\s+(?:into|in)|i'?ll\s+(?:take|get|have|go\s+with)|"
    r"(?:can|could|may)\s+(?:i|we)\s+(?:get|have|join|do)|(?:i|we)\s*(?:'d|would)\s+like|(?:i|we)\s+(?:want|need|wish)|"
    r"(?:i|we)\s+(?:plan|hope|intend)\s+to\s+take|sign\s+up\s+for|i'?ll\s+take)\b",
    re.I)
_WH = re.compile(r"^\W*(?:(?:hi|hello|hey|so|and|ok|okay)[,\s]+)*(?:what|which|where|who|whom|whose|why|how|when|"
                 r"is\s+there|are\s+there|does|tell\s+me)\b", re.I)


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def row_names(vocabulary: "KBVocabulary", kb: Any) -> dict[tuple[str, str], dict[str, str]]:
    """(table stem, column stem) -> {normalised name: name as stored} for the KB's naming columns: short text
    columns whose values are (nearly) all different, so each names one row. Read once per KB."""
    cache = vocabulary.__dict__.setdefault("_row_names", {})
    key = (id(kb), str(getattr(kb, "path", "")))
    if key not in cache:
        out: dict[tuple[str, str], dict[str, str]] = {}
        for table, info in kb.tables().items():
            for col in info.columns:
                if col.free_text or col.type not in ("text", "str") or col.name == "id" or col.name.endswith("_id"):
                    continue
                try:
                    values = [v for v in kb.distinct_values(table, col.name, limit=500) if isinstance(v, str)]
                except Exception:  # noqa: BLE001 - a column the KB cannot list is simply not a name column
                    continue
                if values and len(values) * 4 >= info.row_count * 3 and all(len(v.split()) <= 10 for v in values):
                    # "name" and "latin_name" share a key: both columns' names are kept, not the last one's only
                    out.setdefault((stem(table), stem(col.name.split("_")[-1])), {}).update(
                        {_words(v): v for v in values if len(v) >= 3 or re.fullmatch(r"[A-Za-z]\d|\d[A-Za-z]", v)})
                    # a two-character name is a name only as a letter and a digit ("M2", a berth), never a word
                    tables = vocabulary.__dict__.setdefault("_name_tables", {}).setdefault(key, {})
                    for v in values:
                        tables.setdefault(v, set()).add(table)
        cache[key] = out
    return cache[key]


def name_tables(vocabulary: "KBVocabulary", kb: Any, name: str) -> set[str]:
    """The KB tables whose naming column holds `name` (read with `row_names`, once per KB)."""
    row_names(vocabulary, kb)
    key = (id(kb), str(getattr(kb, "path", "")))
    return set(vocabulary.__dict__.get("_name_tables", {}).get(key, {}).get(name, set()))


def names_for(reader: "TurnReader", f: Field) -> dict[str, str]:
    """The row names a text field takes: its name holds a table's word and that table's naming column's word."""
    return field_row_names(reader.vocabulary, reader.ctx.kb, f)


def field_row_names(vocabulary: "KBVocabulary", kb: Any, f: Field) -> dict[str, str]:
    if kb is None or f.type != "str":
        return {}
    words = {s for w in f.name.split("_") if w for s in (stem(w), stem(w + "s"))}  # "course" names "courses"
    said = {stem(w) for w in re.findall(r"[a-z]+", f.description.lower())}  # "The course code or title"
    out: dict[str, str] = {}
    for (table, column), names in row_names(vocabulary, kb).items():
        if table in words and (column in words or column in said) and table != column:
            out.update(names)
    return out


def code_of_named(reader: "TurnReader", f: Field, name: str) -> str:
    """ "put me down for navigation" to "the lesson code or title?": a field whose description asks for a code takes
    the code of the one row the name names (the row's code column, as a choice among reported rows does), not the
    title; any doubt (no code, several rows) and the name as said."""
    from ..focus import row_focus_label  # late: focus imports the parser's helpers
    kb = reader.ctx.kb
    if kb is None or "code" not in re.findall(r"[a-z]+", f"{f.name} {f.description}".lower()):
        return name
    rows = []
    for table, info in kb.tables().items():
        for col in info.columns:
            if col.type in ("text", "str") and not col.free_text:
                try:
                    rows += kb.execute(f'SELECT * FROM "{table}" WHERE "{col.name}" = ? LIMIT 2', (name,)).rows
                except Exception:  # noqa: BLE001 - a column that cannot be read names nothing
                    continue
    codes = {label for row in rows if any("code" in k for k in row) and (label := row_focus_label(row))}
    return codes.pop() if len(rows) == 1 and len(codes) == 1 else name


def said_names(reader: "TurnReader", f: Field, text: str) -> list[tuple[int, str]]:
    """(position, name) of each row name for `f` in the text, in order, longest first where they overlap."""
    low = _words(text)
    found: list[tuple[int, int, str]] = []
    names = names_for(reader, f)
    for normed, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        at = low.find(normed)
        if at >= 0 and not any(s <= at < e or at <= s < at + len(normed) - 1 for s, e, _n in found):
            found.append((at, at + len(normed) - 1, name))  # names next to each other share the space between
    if not found:
        found = misspelt_names(low, names)
    return [(s, n) for s, _e, n in sorted(found)]


def misspelt_names(low: str, names: dict[str, str]) -> list[tuple[int, int, str]]:
    """Row names typed with a slip in each word ("chiken tika masala"): every word of the name close to the
    word said (one edit in four letters), for names of two words or more, and only one name per place."""
    from difflib import SequenceMatcher
    words = [(m.start(), m.group(0)) for m in re.finditer(r"[a-z0-9]+", low)]
    found: list[tuple[int, int, str]] = []
    for normed, name in names.items():
        target = normed.split()
        n = len(target)
        if n < 2:
            continue
        for i in range(len(words) - n + 1):
            window = [w for _p, w in words[i:i + n]]
            if any(a[0] != b[0] or abs(len(a) - len(b)) > 2 for a, b in zip(window, target)):
                continue  # a slip keeps a word's first letter and about its length: most places end here
            ratios = [SequenceMatcher(None, a, b).ratio() for a, b in zip(window, target)]
            if min(ratios) >= 0.75 and window != target and sum(a == b for a, b in zip(window, target)) + \
                    sum(r >= 0.85 for r in ratios) >= n:
                start = words[i][0]
                end = words[i + n - 1][0] + len(words[i + n - 1][1])
                if not any(s < end and start < e for s, e, _n in found):
                    found.append((start, end, name))
    return found


def name_field(reader: "TurnReader", ws: Worksheet) -> Field | None:
    """The one text field of `ws` that names KB rows."""
    found = [f for f in ws.fields if f.kind == "input" and names_for(reader, f)]
    return found[0] if len(found) == 1 else None


def named_answer(reader: "TurnReader", text: str, rec: Any, f: Field) -> bool:
    """ "X, a drop-in session for one person" to the asked name field: the one row name said, and the rest of
    the turn read as the record's other options."""
    named = said_names(reader, f, text)
    if len(named) != 1:
        return False
    name = named[0][1]
    reader.assign("answer-to-ask", name, rec, f, code_of_named(reader, f, name), type="str", shape="kb row name")
    rest = re.sub(re.escape(name), " ", text, flags=re.I)
    ws = reader.view.worksheet(rec)
    taken = {f.name}
    for other, value in item_options(reader, ws, rest, {f.name}).items():
        field = ws.field(other)
        if field is not None and reader.view.unfilled(rec, field):
            reader.assign("extra-value", rest, rec, field, value)
            taken.add(other)
    from ..changes.edits import SAME_FIELDS, same_fields  # late: edits imports the intents this module uses
    if SAME_FIELDS.search(rest):  # "CS 178, the digital photography one, same grading and units"
        same_fields(reader, rest, rec, taken)
    return True


def item_task(reader: "TurnReader") -> tuple[Worksheet, Field, Worksheet] | None:
    """(task worksheet, its field of the item type, the item worksheet) when exactly one task worksheet holds
    items whose name field names KB rows."""
    from ..lists.records import item_slots  # late: the lists package imports this module
    found = []
    nested = {parse_type(f.type).worksheet for w in reader.spec.task_worksheets() for f in w.fields}
    for ws in reader.spec.task_worksheets():
        if ws.name in nested:
            continue  # a worksheet held by another (a list of items) is opened through it
        for f in ws.fields:
            sub = reader.spec.worksheet(parse_type(f.type).worksheet or "") if f.kind == "input" else None
            if sub is None or sub.kind != "task":
                continue
            inner = item_slots(reader, sub) if name_field(reader, sub) is None else (sub, [])
            if inner is not None and name_field(reader, inner[0]) is not None:  # the items, or a list of them
                found.append((ws, f, inner[0]))
                break
    return found[0] if len(found) == 1 else None


def item_request(reader: "TurnReader", text: str) -> bool:
    """ "Can you book me into X?", "I'd like X for ... and Y as ...": the task that holds such items, opened
    with them (only when nothing but the choice of task is pending, and the turn asks for something)."""
    from ..words.semantic import apply_reading  # late: offline_semantic imports the task rules
    from ..words.semantic_index import Entry, Ranked

    if reader.ctx.kb is None or reader.lines:
        return False
    e = reader.expect
    if e is not None and (e.act != "ask" or e.rec.parent is not None or reader.view.kind_of(e.field) != "Enum"):
        return False
    if _WH.match(text) or not (_ASKS_FOR.search(text) or _counted(text)):
        return False
    found = item_task(reader)
    if found is None:
        return False
    ws, _slot, sub = found
    if any(r.status == "active" for r in reader.state.of_worksheet(ws.name)):
        from ..lists.membership import enough_in_opening
        from ..lists.openings import named_items_opening  # late: the lists package imports this module
        before = len(reader.rules)
        done = e is None and named_items_opening(reader, text, sub, name_field(reader, sub))
        if done:
            enough_in_opening(reader, text, before)
        return done
    names = said_names(reader, name_field(reader, sub), text)
    if not names:
        return False
    ranked = Ranked(Entry("task", ws.name), 1.0, ", ".join(n for _p, n in names), None, 0.0)
    before = len(reader.rules)
    if not apply_reading(reader, ranked, text, "item-request"):
        return False
    from ..lists.membership import enough_in_opening  # late: the lists package imports this module
    enough_in_opening(reader, text, before)
    for r in reader.rules[before:]:
        if r.get("rule") == "item-request":
            r.pop("score", None), r.pop("runner_up", None), r.pop("runner_up_score", None)
            r["reason"] = "a request that names KB rows opens the task whose items are named by them"
    return True


def _counted(text: str) -> bool:
    """ "3 trays of X and 2 of Y": a statement that counts the items is a request for them, with no verb."""
    from ..intents import is_question
    from ..words.values import find_numbers
    return not is_question(text) and bool(find_numbers(text))


def item_values(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str], matched: list[str]) -> None:
    """Fill `kwargs` (the opening of `ws`) with one item record per row name said, each with its own options."""
    from ..opening.tasks import literal

    for slot in ws.fields:
        many = parse_type(slot.type).base == "List"  # `dishes: List[DishOrder]`: every item in one list
        sub = reader.spec.worksheet(parse_type(slot.type).worksheet or "") if slot.kind == "input" else None
        nf = name_field(reader, sub) if sub is not None and sub.kind == "task" else None
        if many and nf is not None:
            names = said_names(reader, nf, text)
            if names:
                kwargs[slot.name] = "[" + ", ".join(_items(reader, sub, nf, names, text, matched)) + "]"
                return
            continue
        if nf is None and sub is not None and sub.kind == "task" and _list_of_items(reader, sub):
            inner: dict[str, str] = {}  # a list worksheet of such items ("dishes: DishList"): its items
            item_values(reader, sub, text, inner, matched)
            if inner:
                kwargs[slot.name] = f"{sub.name}({', '.join(f'{k}={v}' for k, v in inner.items())})"
                return
            continue
        if nf is None or f"{nf.name}=" in str(kwargs.get(slot.name, "")):
            continue  # not an item, or already named: the items read here replace what the words gave it
        names = said_names(reader, nf, text)
        if not names:
            return
        values: dict[str, Any] = {}
        slots = [slot]
        for _ in names[1:]:
            nxt = _next_slot(reader, ws, slots[-1], values)
            if nxt is None:
                break
            slots.append(nxt)
        for s, item in zip(slots, _items(reader, sub, nf, names, text, matched)):
            kwargs[s.name] = item
        for gate in values:
            kwargs.setdefault(gate, "True")
        return


def _items(reader: "TurnReader", sub: Worksheet, nf: Field, names: list[tuple[int, str]], text: str,
           matched: list[str]) -> list[str]:
    """`Item(name=..., options...)` texts, one per name said, each with the options of its own piece."""
    from ..opening.tasks import literal

    from ..lists.openings import ordinal_options  # late: the lists package imports this module

    pieces = _pieces(_words(text), [p for p, _n in names])
    pieces[0] = _own_clause(text, names[0][1], pieces[0])
    by_index, pieces[-1] = ordinal_options(reader, sub, nf, pieces[-1], len(names))  # "..., the first large"
    shared = shared_options(reader, sub, text, {nf.name})
    out: list[str] = []
    before: dict[str, Any] = {}
    for i, (piece, (_pos, name)) in enumerate(zip(pieces, names)):
        item = {nf.name: literal(name)}
        rest = piece.replace(_words(name).strip(), " ")
        own = before = same_options(rest, item_options(reader, sub, rest, {nf.name}), before if i else None)
        item.update({k: literal(v) for k, v in {**shared, **own, **by_index.get(i, {})}.items()})
        out.append(f"{sub.name}({', '.join(f'{k}={v}' for k, v in item.items())})")
        matched.append(name)
    return out


_SAME = re.compile(r"^\W*(?:(?:and|also|plus|then)\W+)?(?:the\s+)?(?:same|ditto|likewise)(?:\s+(?:again|too|here|"
                   r"as\s+well|for\s+(?:it|that|this|that\s+one|this\s+one)))?\W*$", re.I)
"""An item's own words that say it takes the options of the item before it: "..., and BK 210 same"."""


def same_options(rest: str, own: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """An item's options: its own, or, when its words only say "same" ("..., and BK 210 same"), those of the item
    before it (`before`, None for the first item)."""
    return dict(before) if not own and before and _SAME.match(rest) else own


_BOUNDARY = re.compile(r"[,;:]|\s[-\u2013\u2014]\s|\band\b", re.I)


def _own_clause(text: str, first: str, piece: str) -> str:
    """The first item's piece from the clause that names it: "catering for 40 people - X" leaves "40 people"
    to the opening, not to X."""
    m = re.search(r"\W+".join(map(re.escape, re.findall(r"[a-z0-9]+", first.lower()))), text, re.I)
    cuts = [b.end() for b in _BOUNDARY.finditer(text, 0, m.start())] if m else []
    head = _words(text[:cuts[-1]]).strip() if cuts else ""
    body = piece.strip()
    return " " + body[len(head):].strip() + " " if head and body.startswith(head) else piece


def _list_of_items(reader: "TurnReader", ws: Worksheet) -> bool:
    from ..lists.records import item_slots
    inner = item_slots(reader, ws)
    return inner is not None and name_field(reader, inner[0]) is not None


_TIMES = re.compile(r"(?<![\w-])[x\u00d7]\s?(\d{1,3})\b|\b(\d{1,3})\s?[x\u00d7](?![\w-])", re.I)


_THOSE_N = re.compile(r"\b(?:just|only)\s+(?:those|these|the)\s+(?:two|three|four|\d)\b|"
                      r"\b(?:just|only)\s+(?:two|three|four)\s*[.!]*$", re.I)


def without_codes(piece: str, turn: str) -> str:
    """`piece` without the code-like tokens it says ("CS 178") and without bare numbers that are the number of a
    code the turn says ("CS 161 and CS 154? letter grade for 161"): they name rows, they count nothing. Only numbers
    of three digits or more, which no count of items shares."""
    from ..words.values import find_codes, find_postcodes

    def codes(text: str) -> list:  # course-like codes with a number of three digits or more; no postcodes ("M4 6HJ")
        posts = find_postcodes(text)  # and no "GU10", whose number a count may share ("10 GU10 spotlights")
        return [c for c in find_codes(text) if re.search(r"\d{3}", c.text)
                and not any(p.start < c.end and c.start < p.end for p in posts)]
    numbers = {m.group(0) for c in codes(turn) for m in re.finditer(r"\d{3,}", c.text)}
    for c in sorted(codes(piece), key=lambda c: -c.start):
        piece = piece[:c.start] + " " * (c.end - c.start) + piece[c.end:]
    for n in numbers:
        piece = re.sub(rf"(?<![\w.,]){n}(?![\w.,])", " " * len(n), piece)
    return piece


def item_options(reader: "TurnReader", sub: Worksheet, piece: str, skip: set[str]) -> dict[str, Any]:
    """The options one item's words give: enum values by their names or descriptions ("a drop-in session"),
    dates, times and labelled numbers, and a lone number for the item's one number field ("for two people")."""
    from ..answering.slots import find_mentions
    from ..words.values import find_numbers
    from ....dialogue.state import TaskRecord

    out: dict[str, Any] = {}
    piece = without_codes(piece, reader.text)  # "CS 178, same grading": the code's number is no count of units
    piece = _THOSE_N.sub(" ", piece)  # "just those two": how many items there are, not an option of one
    piece = _TIMES.sub(lambda m: f" {m.group(1) or m.group(2)} ", piece)  # "X x2", "2x X": a count
    bag = Bag.of(piece)
    for f in sub.fields:
        if f.kind == "input" and f.name not in skip and reader.view.kind_of(f) == "Enum":
            best = best_enum(f, bag)
            short = None if best else initialism_enum(f, piece)  # "cr/nc"
            if short is not None:
                out[f.name] = short
                piece = re.sub(r"[A-Za-z]+(?:/[A-Za-z]+)+", " ", piece)
            if best:
                out[f.name] = best[0]
                for word in re.findall(r"[a-z]+", best[0].lower()):  # "a single session" is no number
                    piece = re.sub(rf"\b{word}\b", " ", piece, flags=re.I)
    ghost = TaskRecord(var="_", worksheet=sub.name)
    others = [(ghost, f) for f in sub.fields if f.kind == "input" and f.name not in out and f.name not in skip
              and reader.view.kind_of(f) in ("int", "float", "date", "time")]
    for m in find_mentions(piece, others, reader.view, reader.today):
        out[m.field.name] = m.value
    counts = [f for _g, f in others if reader.view.kind_of(f) == "int" and f.name not in out]
    numbers = find_numbers(piece)
    if len(counts) == 1 and len(numbers) == 1 and not any(reader.view.kind_of(f) == "int" and f.name in out
                                                          for f in sub.fields):
        out[counts[0].name] = int(numbers[0].value)
    return out


_EVERY = re.compile(r"\b(?:each|both|all\s+of\s+them|for\s+all|for\s+both)\b|"
                    r"^\s*(?:and\s+)?all\b(?!\s+(?:day|week|night|morning|afternoon|evening|year|term)\b)", re.I)
"""A clause for every item: "..., 3 units each", "both for a letter grade", "all letter grades"."""


def shared_options(reader: "TurnReader", sub: Worksheet, text: str, skip: set[str]) -> dict[str, Any]:
    """ "..., 3 units each": the options of the clauses that say each, both or all go to every item."""
    every = [c for c in re.split(r"[,;]", text)[1:] if _EVERY.search(c)]
    out: dict[str, Any] = {}
    for clause in every:  # "..., both for the whole term, 2 places each": every such clause
        out.update(item_options(reader, sub, clause, skip))
    return out


_CLAUSE = re.compile(r"[\s,](?:and|plus|then|also|as\s+well\s+as)\s", re.I)


def pieces_at(text: str, starts: list[int]) -> list[str]:
    """`text` cut into one piece per item starting at `starts` (see `_pieces`)."""
    return _pieces(text, starts)


def _pieces(low: str, starts: list[int]) -> list[str]:
    """The turn cut into one piece per item: at the "and" (or "plus", "then") before each name after the
    first, so options said before a name ("one place in Y") stay with it."""
    cuts = [0]
    for start in starts[1:]:
        joins = [m.start() for m in _CLAUSE.finditer(low, cuts[-1], start + 1)]
        cuts.append(joins[-1] if joins else start)
    cuts.append(len(low))
    return [low[a:b] for a, b in zip(cuts, cuts[1:])]


def _next_slot(reader: "TurnReader", ws: Worksheet, after: Field, values: dict[str, Any]) -> Field | None:
    """The next field of the same type after `after`; a yes/no of `ws` its predicate requires is set in `values`."""
    names = [f.name for f in ws.fields]
    for f in ws.fields[names.index(after.name) + 1:]:
        if f.kind != "input" or f.type != after.type:
            continue
        gates = equalities(f.predicate)
        if all(len(path) == 2 and path[0] == "self" and value is True and ws.field(path[1]) is not None
               and ws.field(path[1]).type == "bool" for path, value in gates):
            for path, _v in gates:
                values[path[1]] = True
            return f
    return None
