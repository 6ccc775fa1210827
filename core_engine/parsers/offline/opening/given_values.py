"""Values an opening turn gives beside the task: names, a reference, a count, an option named by a noun.

`open_worksheet` (offline_tasks.py) opens a worksheet with every value of the turn; this module reads the
ones that need more than a typed mention: "I'm Ben Carter" and "for my dog Pepper" (which name field, by
meaning), "ticket INC-20417" (the worksheet's code field), "one Softwear Organic Tee" (the count field), "for
my husky" (an option by meaning), and the row the agent just proposed ("I'll get the red one").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..kb_rows.spans import said_inside_kb_name
from ....spec.model import Field, Worksheet, parse_type, snake_case
from ....dialogue.state import ref_target
from ..words.libvalues import is_phone_field, name_span
from ..parts.addresses import is_postcode_field
from ..intents import change_marker
from ..answering.references import laid_out, off_shape, reference_shapes, shaped_reference
from .nested_names import name_fields, nested_enum_fields, put_nested
from .options import option_by_task_verb, options_by_meaning
from ..answering.counted import counted_thing
from ..words.match import field_stems, stem
from ..answering.slots import shape, untitled
from .tasks import _codes_fit, literal
from ..words.values import find_codes, find_numbers, find_postcodes

if TYPE_CHECKING:
    from ..parser import TurnReader


def opening_values(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str],
                   matched: list[str]) -> list[str]:
    """Fill `kwargs` with the values below; return the names read (not words to search for)."""
    from .nested_values import nested_date, nested_values  # late: it imports this package's tasks module
    for read in (_kind_by_meaning, nested_values, _opening_code, _labelled_codes, nested_date, count_of_rows,
                 counted_thing):
        said = read(reader, ws, text, kwargs)
        if said is not None:
            matched.append(said)
    before = len(matched)
    _introduced_name(reader, ws, text, kwargs, matched)
    option_by_task_verb(reader, ws, text, kwargs)
    options_by_meaning(reader, ws, text, kwargs)  # after the names: "my dog Biscuit has been throwing up"
    return matched[before:]


_OWNED = re.compile(r"\b(?:for|with)\s+(?:my|our|his|her)\s+(?P<noun>[a-z]+)(?=\s+(?:[A-Z]|and\b|on\b|at\b|in\b|"
                    r"to\b|this\b|next\b|tomorrow\b)|\s*[,.!?]|\s*$)")
"""What the task is for, named by a noun: "for my husky", "with my kitten Luna"."""
KIND_SCORE, KIND_MARGIN = 0.48, 0.09
"""A noun read as an option by meaning ("husky" is Dog at 0.49, runner-up Rabbit 0.40; set on the held-out agents)."""


def _kind_by_meaning(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """ "for my husky": the noun names an option of one of the worksheet's unset enum fields by meaning,
    when one option clearly wins (a wrong value is worse than none). Score and runner-up are in the trace."""
    fields = {f.name for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "Enum"
              and f.name not in kwargs}
    m = _OWNED.search(text)
    if not fields or m is None:
        return _nested_kind(reader, ws, text, kwargs)
    ranked = reader.view.index().rank(m.group("noun"), lambda e: e.kind == "enum" and e.worksheet == ws.name
                                      and e.field in fields)
    if not ranked.decided(KIND_SCORE, KIND_MARGIN):
        return None
    kwargs[ranked.best.field] = literal(ranked.best.value)  # type: ignore[union-attr]
    reader.note("option-by-meaning", m.group(0), field=ranked.best.field, **ranked.trace())  # type: ignore[union-attr]
    return m.group("noun")


def _nested_kind(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """ "my yacht Seabird": the noun names an option of an enum field of the worksheet nested in this one (the
    boat's kind), by meaning, when one option clearly wins."""
    wanted = nested_enum_fields(reader, ws, kwargs)
    nouns = [m.group("noun") for m in (*_OWNED.finditer(text), *_APPOSITIVE.finditer(text))]
    for noun in nouns if wanted else []:
        ranked = reader.view.index().rank(noun, lambda e: e.kind == "enum" and (e.worksheet, e.field) in wanted)
        if not ranked.decided(KIND_SCORE, KIND_MARGIN):
            continue
        best = ranked.best
        put_nested(kwargs, wanted[(best.worksheet, best.field)], reader.spec.worksheet(best.worksheet), best.field,
                   literal(best.value))
        reader.note("option-by-meaning", noun, field=best.field, **ranked.trace())
        return noun
    return None


_ID_TOKEN = re.compile(r"\b[A-Za-z]{1,6}-?\d{3,}[A-Za-z0-9-]*\b|#\s?\d{3,}\b")
"""A reference as people type it: "INC-20417", "GR-7781", "A-55012", "#88231"."""


def _opening_code(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """ "check the status of ticket INC-20417": the one reference in the turn fills the worksheet's one code
    field (its name says number, code, id or names the worksheet's subject), when both are unique."""
    fields = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "str"
              and (shape(f) == "code" or reference_shapes(f))  # "Your claim reference, like HCA-20417"
              and f.name not in kwargs and _codes_fit(ws.name, f) and not is_phone_field(f)]  # a phone: a phone's shape
    tokens = [m.group(0) for m in _ID_TOKEN.finditer(text)] + [c.value for c in find_codes(text)]
    if not any(is_postcode_field(f) for f in fields):  # "HX1 5AS" is a postcode, no other field's code
        tokens = [t for t in tokens if [p.text for p in find_postcodes(t)] != [t]]
    tokens = [t for t in dict.fromkeys(t.lstrip("# ") for t in tokens) if not said_inside_kb_name(reader, text, t)]
    if len(fields) == 1 and reference_shapes(fields[0]):  # the example's shape picks the reference among numbers
        tokens = [t for t in tokens if not off_shape(fields[0], t)]
    if len(fields) != 1 or len(tokens) != 1:
        return None
    labelled = _labelled_elsewhere(reader, ws, fields[0], text, tokens[0], kwargs)
    if labelled is not None:
        return labelled  # "Flight MD 355": the flight's number, not the bag tag's
    kwargs[fields[0].name] = literal(tokens[0])
    return tokens[0]


_LABEL_WORD = re.compile(r"\b([A-Za-z]{3,})\s*(?:(?:number|num|no\.?|nr|plate|is|:|#)\s*)*$", re.I)


def _labelled_codes(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """ "for sail no GB55 KRT": a code right after a word that names one of the worksheet's unfilled short text
    fields (a word of its name, or the first letters of one, "sail" of `boat_sail_number`) is that field's value,
    when the word names that field only and no other value of the turn is already its."""
    fields = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "str" and f.name not in kwargs
              and shape(f) in ("code", "short") and not is_phone_field(f)]
    said = None
    for code in find_codes(text):
        label = _LABEL_WORD.search(text[:code.start])
        if label is None or literal(code.value) in kwargs.values():
            continue
        word = label.group(1).lower()
        named = [f for f in fields if any(w == word or (len(word) >= 3 and w.startswith(word))
                                          for w in f.name.lower().split("_") if len(w) >= 3)]
        if len(named) == 1 and named[0].name not in kwargs:
            kwargs[named[0].name] = literal(code.value)
            said = code.value
    return said


_LABEL_BEFORE = re.compile(r"([A-Za-z]{3,})\s*(?:(?:number|num|no\.?|nr|code|ref|#)\s*)?[:#]?\s*$", re.I)


def _labelled_elsewhere(reader: "TurnReader", ws: Worksheet, f: Field, text: str, token: str,
                        kwargs: dict[str, str]) -> str | None:
    """ "Flight MD 355" to a task whose one code field is the bag tag: the word before the reference names another
    field (the nested record's `flight_number`) and not this one. The reference goes to that field when it is the one
    text field of a nested record so named, and is then returned; otherwise it is left out ("" is returned)."""
    at = text.find(token)
    m = _LABEL_BEFORE.search(text[:at]) if at > 0 else None
    if m is None:
        return None
    label = stem(m.group(1).lower())
    if label in field_stems(f) or label in {stem(w) for w in f.name.split("_")}:
        return None
    named = []
    for holder in ws.fields:
        sub = reader.spec.worksheet(parse_type(holder.type).worksheet or "") if holder.kind == "input" else None
        inner = [(holder, sub, g) for g in sub.fields] if sub is not None and sub.kind == "task" and sub is not ws else []
        for h, s, g in [(None, ws, g) for g in ws.fields] + inner:
            if g.kind == "input" and g is not f and reader.view.kind_of(g) == "str" \
                    and shape(g) in ("code", "short") and label in {stem(w) for w in g.name.split("_")}:
                named.append((h, s, g))  # a field that can hold a reference ("flight_date" cannot)
    named = list({(s.name, g.name): (h, s, g) for h, s, g in named}.values())
    if not named:
        return None
    if len(named) == 1 and named[0][0] is not None:
        holder, sub, g = named[0]
        put_nested(kwargs, holder.name, sub, g.name, literal(token))
        return token
    return ""


_COUNT_STEMS = {stem(w) for w in ("quantity", "count", "many", "amount", "copies", "items", "pieces")}


_DESCRIBING = r"(?:(?!(?:for|of|to|with|and|or|in|on|at|from|the|a|an|one|two|three|four|five|six|\d+)\b)[a-z]+ ){0,2}"
"""A word or two that describe the thing between a number and its name ("3 old mattresses"), not a preposition or
another number ("one for two wardrobes": "one" counts nothing)."""


def count_of_rows(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str]) -> str | None:
    """ "one Softwear Organic Tee": a number right before the name of KB rows counts them; it fills the
    worksheet's one unfilled whole-number field that is a count (its name or description says so)."""
    counts = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "int" and f.name not in kwargs
              and field_stems(f) & _COUNT_STEMS]
    if len(counts) != 1 or reader.ctx.kb is None:
        return None
    of_rows = _counts_rows(reader, ws, counts[0])  # "item_count", not "months": the field counts the things
    gap = _DESCRIBING if of_rows else ""
    terms = [_norm_words(t).strip() for t in reader.vocabulary.found_in(text, reader.ctx.kb, plurals=of_rows)]
    terms = [t for t in terms if t and not any(t != u and t in u for u in terms)]  # "freezer" in "fridge freezer"
    from ..words.measures.counts import _PEOPLE_NOUN  # late: the measures import the spec helpers
    for span in find_numbers(text):
        after = _norm_words(text[span.end:]).strip()
        if _PEOPLE_NOUN.match(text[span.end:]):
            continue  # "3 adults" counts people, even where "Adults" names rows of the KB: no count of things
        if span.value > 0 and any(re.match(rf"{gap}{re.escape(t)}", after) for t in terms):
            kwargs[counts[0].name] = literal(span.value)  # "3 old mattresses": a word or two may describe them
            return span.text
    one = [m for t in terms for m in [re.search(rf"\b(?:a|an|my|our|this|that) {gap}{re.escape(t)}(?![a-z])",
                                                _norm_words(text))] if m]
    if of_rows and len(terms) == 1 and len(one) == 1:
        kwargs[counts[0].name] = literal(1)  # "my old fridge freezer": one of the one thing named
        return None
    return None


_COUNT_NAME_WORDS = frozenset({"count", "quantity", "qty", "number", "num", "no", "of", "items", "item", "pieces",
                               "piece", "copies", "copy", "how", "many"})


def _counts_rows(reader: "TurnReader", ws: Worksheet, f: Field) -> bool:
    """A count field whose name says only that it counts, or counts the worksheet's rows by their field's or type's
    name ("item_count", "quantity", "number_of_books" beside `book: Book`): not a count of months or people."""
    rows = [g for g in ws.fields if g.kind == "input" and reader.view.kind_of(g) == "row"]
    own = {w for g in rows for w in [*g.name.lower().split("_"), *snake_case(g.type).split("_")]}
    said = {stem(w) for w in own | _COUNT_NAME_WORDS}
    return bool(rows) and all(stem(w) in said for w in f.name.lower().split("_") if w)


def _norm_words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


def _introduced_name(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str], matched: list[str]) -> None:
    """ "..., my name is Laura Chen and ..." or "I'm Ben Carter": the name span for the worksheet's one unfilled
    person-name field; "for my dog Pepper": the name after a noun, for the name field that noun means."""
    names = [f for f in ws.fields if f.kind == "input" and reader.view.kind_of(f) == "str" and shape(f) == "name"
             and f.name not in kwargs]
    clauses = re.split(r"[,;.!?]|\band\b", text)
    clause = next((c for c in clauses if re.search(r"\b(?:(?:sur|last\s+|family\s+)?name\s+is|(?:sur)?name's|called|named)\b"
                                                   r"|\bsurname\s+(?=[A-Z])", c, re.I)), None)
    theirs = clause is not None and _THEIR_NAME.search(clause) is not None
    if theirs and _PET.search(text):
        return  # "an appointment for my dog, her name is Bella": the pet's name, no person's
    if len(names) > 1 and theirs and len([f for f in names if not own_name(f)]) == 1:
        names = [f for f in names if not own_name(f)]  # "her name is Ann Lee": another person's name
    elif len(names) > 1 and len([f for f in names if own_name(f)]) == 1:
        names = [f for f in names if own_name(f)]  # "I'm ...", "from me, ...": the speaker's own name
    below = [(holder, w, f) for holder, w, f in name_fields(reader, ws, kwargs) if holder and shape(f) == "name"]
    holder = None
    if not names and len(below) == 1:  # the person is the record nested in the task (a donation's donor)
        holder, sub, below_field = below[0]
        names = [below_field]
    if theirs and names and own_name(names[0]) and len(names) == 1:
        clause = None  # "her name is Ann Lee" and only the speaker's name to fill: not theirs
    value = name_span(clause) if clause and len(names) == 1 else None
    if value is None and clause and len(names) == 1 and re.search(r"surname|last\s+name|family\s+name",
                                                                  f"{names[0].name} {names[0].description}", re.I):
        said = _SURNAME_SAID.search(clause)  # "surname is Kowalski" for a surname field: the one word
        value = said.group(1) if said else None
    if value is None and len(names) == 1:
        intro = next((m for c in clauses for m in [_SELF_INTRO.search(c) or _NAME_HERE.fullmatch(c.strip())] if m),
                     None) or _FROM_ME.search(text) \
            or next((m for before, c in zip(clauses, clauses[1:]) if _I_AM_A.search(before)
                     for m in [_BARE_NAME.fullmatch(c.strip())] if m), None)  # "I'm a regular donor, Priya Nair"
        value = intro.group("name") if intro and not _kb_words(reader, intro.group("name")) else None
    if value is None and len(names) == 1 and not own_name(names[0]):  # "It's going to Tom Reid": who it is for
        to = next((m for c in clauses for m in [_SENT_TO.search(c.strip())] if m), None)
        value = to.group("name") if to and not _kb_words(reader, to.group("name")) else None
    if value is None and len(names) == 1:  # "Hi it's Gareth Lloyd, I need to cancel ...", "name Rachel Adeyemi"
        from ..parts.given_name import names_in  # late: parts import the opening helpers
        given = {n for n in names_in(reader, text, names[0]) if n not in matched}
        value = given.pop() if len(given) == 1 else None
        value = value.title() if value and value.islower() else value
    value = untitled(names[0], value) if value else value  # "This is Mrs Joan Whitlock": the name without the title
    if value and holder:
        put_nested(kwargs, holder, sub, names[0].name, literal(value))
        matched.append(value)
    elif value:
        kwargs[names[0].name] = literal(value)
        matched.append(value)
    _appositive_name(reader, ws, text, kwargs, matched)


_SURNAME_SAID = re.compile(r"(?<!'s\s)\b(?i:surname|last\s+name|family\s+name)(?i:\s+is|'s|:)?\s+([A-Z][\w'’]+(?:-[A-Z][\w'’]+)?)"
                           r"(?=\s*(?:[,.;!?]|$|(?i:and|please|thanks)\b))")
"""A surname said by its label, written with its capital: "surname is Kowalski", "surname Mbeki"."""
_PET = re.compile(r"\b(?:dog|puppy|pup|cat|kitten|rabbit|bunny|hamster|guinea\s+pig|horse|pony|bird|parrot|tortoise|"
                  r"ferret|pet)s?\b", re.I)
_THEIR_NAME = re.compile(r"\b(?:her|his|their|[a-z]+'s)\s+(?:full\s+|first\s+)?name\b", re.I)
"""Another person's name said: "her name is ...", "my son's name is ..."."""
_NAME_HERE = re.compile(r"(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})\s+here")
"""A caller's self-introduction as a clause of its own: "Hi, Carla Mendes here, ..."."""
_SELF_INTRO = re.compile(r"(?:^|\b)(?i:i\s+am|i'm|this\s+is|my\s+name\s+is)\s+"
                         r"(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})\s*$")
"""A whole clause that introduces the speaker by first and last name ("I'm Ben Carter")."""
_FROM_ME = re.compile(r"\b(?i:from|signed)\s+(?i:me)[,:]?\s+(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})")
"""The giver of a present names themself: "it's from me, Ben Adams"."""


_SENT_TO = re.compile(r"(?:\b(?i:going|goes|headed|heading|sent|addressed|delivered)\s+(?i:to)|(?:^|\b)(?i:it'?s|it\s+is|"
                      r"that'?s|they'?re|this\s+is)\s+(?i:for))\s+"
                      r"(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})$")
"""A clause that says whom the thing is for, by first and last name: "It's going to Tom Reid", "it's for Ann Lee"
(the one name field that is not the speaker's own)."""
_I_AM_A = re.compile(r"\b(?i:i'?m|i\s+am)\s+(?i:a|an)\s+\w+")
_BARE_NAME = re.compile(r"(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})")
"""A clause that is only a first and last name, after "I'm a ...": the speaker's name in apposition."""


def own_name(f: Field) -> bool:
    """The field of the speaker's own name: "Your name", "Your full name"."""
    return re.match(r"\s*your\s+(?:full\s+|first\s+|own\s+)?name\b", f.description, re.I) is not None


_APPOSITIVE = re.compile(r"\b(?i:my|our|his|her)\s+(?P<noun>[a-z]+(?:\s+[a-z]+)?)\s+(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*)?)")
"""A name after a noun: "my dog Pepper", "our son Leo Park" (the noun says whose name it is)."""
_NOT_NAME_WORDS = {"I", "The", "My", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
                   "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                   "November", "December", "Dr", "Mr", "Mrs", "Ms"}
_NOT_A_NOUN = frozenset("with for at by to from and or of on in under".split())
NAME_FIELD_SCORE = 0.30
"""Least cosine of the noun ("dog") to a name field's texts ("Your pet's name") for the name to go there."""
NAME_FIELD_MARGIN = 0.05


def _kb_words(reader: "TurnReader", words: str) -> bool:
    return reader.ctx.kb is not None and bool(reader.vocabulary.found_in(words, reader.ctx.kb))


def _appositive_name(reader: "TurnReader", ws: Worksheet, text: str, kwargs: dict[str, str],
                     matched: list[str]) -> None:
    """ "for my dog Pepper": "Pepper" fills the unfilled name field whose texts the noun means, by meaning
    (the field's name, description and examples against "dog"), in the worksheet or in a worksheet nested in it
    (a visit's pet); nothing when no field clearly wins."""
    fields = name_fields(reader, ws, kwargs)
    if not fields:
        return
    for m in _APPOSITIVE.finditer(text):
        name = m.group("name")
        if name.split()[0] in _NOT_NAME_WORDS or _kb_words(reader, name) or literal(name) in kwargs.values():
            continue
        if m.group("noun").split()[-1].lower() in _NOT_A_NOUN:
            continue  # "my consult with Mara": the one the user meets, not a name the noun gives
        wanted = {(w.name, f.name): holder for holder, w, f in fields}
        others = {k: v for k, v in wanted.items() if not own_name(reader.spec.require_worksheet(k[0]).field(k[1]))}
        wanted = others or wanted  # "my sister Chloe Adams" names someone else, never the speaker
        kind = reader.view.index().rank(m.group("noun"), lambda e: e.kind == "enum"
                                        and e.worksheet in {w for w, _f in wanted})
        own = [key for key in wanted if kind.best is not None and key[0] == kind.best.worksheet]
        by_kind = kind.decided(KIND_SCORE, KIND_MARGIN) and len(own) == 1  # "budgie": an option of the pet's kind
        if by_kind:
            wanted = {own[0]: wanted[own[0]]}
        ranked = reader.view.index().rank(m.group("noun"), lambda e: e.kind == "field"
                                          and (e.worksheet, e.field) in wanted)
        if len(wanted) == 1 and others and ranked.best is not None:
            by_kind = True  # the one name field that is not the speaker's: "my sister Chloe" is its value
        if ranked.best is None or not by_kind and (ranked.score < NAME_FIELD_SCORE or (
                ranked.runner_up is not None and ranked.score - ranked.runner_score < NAME_FIELD_MARGIN)):
            continue
        holder = wanted[(ranked.best.worksheet, ranked.best.field)]
        if holder is None:
            kwargs[ranked.best.field] = literal(name)
        else:
            put_nested(kwargs, holder, reader.spec.worksheet(ranked.best.worksheet), ranked.best.field, literal(name))
        matched.append(name)
        reader.note("name-by-meaning", m.group(0), field=ranked.best.field, **ranked.trace())
        fields = [t for t in fields if (t[1].name, t[2].name) != (ranked.best.worksheet, ranked.best.field)]
        if not fields:
            return


def proposed_row(reader: "TurnReader", ws: Worksheet, field: str, text: str) -> str | None:
    """The row the agent just proposed for this worksheet ("Would you like to order it?"), when the turn names
    no other KB value than the row's own ("I'll get the red one in XL" after the hoodie was proposed)."""
    for act in reversed(reader.acts):
        row = (act.get("values") or {}).get(field) if act.get("act") == "propose" and \
            act.get("worksheet") == ws.name else None
        if not isinstance(row, dict) or ref_target(row) is not None:
            continue
        own = {str(v).lower() for value in row.values() for v in (value if isinstance(value, list) else [value])}
        terms = reader.vocabulary.found_in(text, reader.ctx.kb) if reader.ctx.kb is not None else []
        if any(t not in own for t in terms):
            return None
        for kb in reversed(reader.state.kb_records()):
            for i, r in enumerate(kb.result or []):
                if r == row:
                    return f"{kb.var}.result[{i}]"
        return None
    return None


def task_by_reference(reader: "TurnReader", text: str) -> bool:
    """ "where's my order? it's HK-4471": a reference of the shape a field's description shows opens the task that
    holds the field, with the reference as its value, when exactly one field of one closed task takes it. A task
    in progress is left only on a switch cue ("actually ... instead"); the open task's own field is an answer."""
    from ..words.semantic import _SWITCH, apply_reading, current_task, task_roots  # late: semantic imports tasks
    from ..words.semantic_index import Entry, Ranked
    tokens = list(dict.fromkeys(m.group(0) for m in _ID_TOKEN.finditer(text)))
    fits = [(ws, f, t) for ws in reader.spec.task_worksheets() for f in ws.fields
            if f.kind == "input" and reader.view.kind_of(f) == "str"
            for shape_ in reference_shapes(f) for t in tokens if shape_.fullmatch(t)]
    if len({(ws.name, f.name) for ws, f, _t in fits}) != 1 or len({t for *_x, t in fits}) != 1:
        return False
    ws, f, token = fits[0]
    token = laid_out(f, text) or token  # all of "WB5512 Q" for "like WB2291 K"
    if any(r.status == "active" for r in reader.state.of_worksheet(ws.name)) or said_inside_kb_name(reader, text, token):
        return False
    current, start = current_task(reader), reader.spec.start_worksheet()
    roots = task_roots(reader)
    if current is not None and (start is None or current.worksheet != start.name) \
            and roots.get(current.worksheet, current.worksheet) != roots.get(ws.name, ws.name):
        mine = [g for g in reader.view.input_fields(current) if reader.view.kind_of(g) == "str"
                and shaped_reference(g, text)]
        # "oh wait, I already have one booked, I just need to move it. ref BD-31877": a reference only the other
        # task takes, said with a change of mind, leaves the current task too
        if not _SWITCH.search(text) and (mine or not change_marker(text)):
            return False
        reader.emit("task-by-reference", token, f"exitws({current.var})", field=f.name)
    ranked = Ranked(Entry("task", ws.name), 1.0, token, None, 0.0)
    switching = any(r["rule"] == "task-by-reference" for r in reader.rules)  # the new task's option replaces the old
    if not apply_reading(reader, ranked, text, "switch-task" if switching else "task-by-reference"):
        return False
    opened = [m.group(1) for line in reader.lines for m in [re.match(rf"(\w+) = {ws.name}\(", line)] if m]
    if opened and not any(literal(token) in line for line in reader.lines):  # a field not named like a code
        reader.emit("task-by-reference", token, f"{opened[-1]}.{f.name} = {literal(token)}")
    return True
