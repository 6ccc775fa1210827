"""A search asked again with one thing changed: "any A level chemistry tutors under £30?" ... "ok what about under 50
then", "rooms in Camden?" ... "and in Hackney?".

Right after the agent reported a search (and is not waiting for an answer other than a row), a turn that only says
"what about X" / "how about X" / "and in X?" is the same search with X in place of what it replaces:
- a price or number limit ("under 50") replaces the search's limit;
- a KB value ("Hackney") replaces the search's value of the same column ("Camden");
- anything else is added to the search's words.
The knowledge parser reads the new question as a whole, so every condition the user did not change is kept. A turn
that names a row of the KB ("what about Zoe Lin?") is a question about that row, left to the other rules.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..opening.tasks import literal
from ..words.match import stem

if TYPE_CHECKING:
    from ..parser import TurnReader

_FOLLOW = re.compile(r"^\W*(?:(?:ok(?:ay)?|so|and|hmm+|right|well|oh|then|ah)[,.!\s]+)*(?:(?:what|how)\s+about|"
                     r"and|(?:any|anything|anyone|any\s+ones?)\s+(?=(?:in|on|at|under|over|below|above|near|for)\b))"
                     r"\s+(?P<rest>[^?!.]+?)\s*(?:then|instead|though)?\s*[?!.]*\s*$", re.I)
_AND_PLACE = re.compile(r"^(?:in|on|at|for|with|under|over|below|above|near|around|less|more|cheaper|max|up\s+to)\b",
                        re.I)
_ANY = re.compile(r"\b(?:at|in|on|from|for)?\s*(?:any|all|every)\s+([a-z]+)", re.I)
_LIMIT = re.compile(r"\b(?:under|over|below|above|less\s+than|more\s+than|at\s+least|at\s+most|max(?:imum)?|"
                    r"min(?:imum)?|up\s+to|no\s+more\s+than|cheaper\s+than|within)\s+[£$€]?\s*\d+(?:[.,]\d+)?"
                    r"(?:\s*(?:k|pounds?|quid|dollars?|euros?))?", re.I)


def follow_up_search(reader: "TurnReader", text: str) -> bool:
    e = reader.expect
    if reader.ctx.kb is None or (e is not None and (e.act != "ask" or (reader.view.kind_of(e.field) != "row"
                                                                         and not reader.task_choice(e)))):
        return False  # an answer to the question asked, unless it asks for a row or what to do
    report = next((a for a in reversed(reader.acts) if a.get("act") == "report" and a.get("kind") == "kb"
                   and isinstance(a.get("query"), str)), None)
    m = _FOLLOW.match(text)
    if report is None or m is None:
        return False
    rest = m.group("rest").strip(" ,")
    if re.match(r"(?:which|what|who|where|when|how|why|is|are|do|does|did|can|could|will|would|have|has)\b", rest, re.I):
        return False  # "and which stations have got phones?": a question of its own
    if re.search(r"\bones?\b|\b(?:first|second|third|last|\d(?:st|nd|rd|th))\b", rest, re.I):
        return False  # "what about the 2nd one?": a row of the list, read by the rules for rows
    if text.lstrip(" .!,").lower().startswith("and") and " about " not in f" {text.lower()} " \
            and not _AND_PLACE.match(rest) and not reader.vocabulary.found_in(rest, reader.ctx.kb, plurals=True):
        return False  # "and how much per hour": a question about what was shown, read by the question rule
    from .change import named_row  # late: change imports the parser's helpers
    if not rest or named_row(reader, rest) is not None:
        return False
    previous = report["query"].strip().rstrip("?.! ")
    query = _changed(reader, previous, rest)
    if query is None:
        return False
    from ..words.negation import search_holder  # late: negation imports the parser's helpers
    target = search_holder(reader, report.get("var", ""))  # the row field waiting on that search takes the new one
    where = f"{target[0].var}.{target[1]} = " if target is not None else ""
    reader.emit("follow-up-search", m.group(0), f"{where}answer({literal(query)})",
                reason=f"the search {previous!r} with {rest!r} changed")
    return True


def _changed(reader: "TurnReader", previous: str, rest: str) -> str | None:
    """The last search with the follow-up's changes made: its limit, its values of the columns the follow-up names,
    a count of people; what is left of the follow-up is added. None when the follow-up changes nothing."""
    query, changed = previous, False
    new_limit, old_limit = _LIMIT.search(rest), _LIMIT.search(query)
    if new_limit and old_limit and _same_measure(rest[new_limit.end():], query[old_limit.end():],
                                                 new_limit.group(0), old_limit.group(0)):
        limit = new_limit.group(0)
        currency = re.search(r"[£$€]", old_limit.group(0))
        if currency and not re.search(r"[£$€]|pound|quid|dollar|euro", limit, re.I):
            limit = re.sub(r"(\d)", currency.group(0) + r"\1", limit, count=1)  # "under 50" after "under £30"
        query = query[:old_limit.start()] + limit + query[old_limit.end():]
        rest, changed = (rest[:new_limit.start()] + rest[new_limit.end():]).strip(" ,"), True
    new_count, old_count = _COUNT.search(rest), _COUNT.search(query)
    if new_count and old_count:  # "boats for 6 people" ... "what about for 4?", "and with just 2 of us?"
        g = "n" if old_count.group("n") else "n2"
        n = new_count.group("n") or new_count.group("n2")
        query = query[:old_count.start(g)] + n + query[old_count.end(g):]
        rest, changed = (rest[:new_count.start()] + rest[new_count.end():]).strip(" ,"), True
    kinds = reader.vocabulary.value_columns(reader.ctx.kb)
    held = reader.vocabulary.found_in(query, reader.ctx.kb, plurals=True)
    for m in _ANY.finditer(rest):  # "at any station": the search's station is dropped
        said_kind = stem(m.group(1))
        for value in [h for h in held if any(said_kind in stem(c.split(".")[-1]) for c in kinds.get(h, ()))]:
            query = re.sub(rf"\s*\b(?:at|in|on|from|for|near)?\s*{re.escape(value)}\b", "", query, count=1,
                           flags=re.I).strip()
            changed = True
        rest = rest.replace(m.group(0), " ").strip(" ,")
    said = reader.vocabulary.found_in(rest, reader.ctx.kb, plurals=True)
    said = sorted((v for v in said if not any(v != w and v in w for w in said)),  # "red velvet", not also "red"
                  key=rest.lower().find)  # in the order said (the vocabulary is a set)
    by_old: dict[str, list[str]] = {}
    for value in said:
        old = [h for h in held if h.lower() != value.lower() and kinds.get(h, frozenset()) & kinds.get(value, frozenset())]
        if len(old) == 1:
            by_old.setdefault(old[0], []).append(value)
    if _AS_WELL.search(rest):
        by_old = {}  # "and with a kitchen too?": added to what was asked, not in its place
    for old, values in by_old.items():  # "and at Euston and Paddington?": both, in place of the station before
        query = re.sub(rf"\b{re.escape(old)}(?:e?s)?\b", " or ".join(values), query, count=1, flags=re.I)
        for v in values:
            rest = re.sub(rf"\b(?:at|in|on|from|for)?\s*{re.escape(v)}\b", " ", rest, flags=re.I)
        rest, changed = re.sub(r"\b(?:and|or)\b", " ", rest).strip(" ,"), True
    if re.search(r"[a-z0-9]", rest.lower()) and (re.search(r"\b(?:cheaper|nearer|closer|bigger|smaller)\b", rest)
                                                  or reader.vocabulary.found_in(rest, reader.ctx.kb, plurals=True)):
        added = _AS_WELL.sub("", rest).strip(" ,")
        query, changed = (f"{query} and {added}" if _AS_WELL.search(rest) else f"{query} {rest}"), True
    return re.sub(r"\s+", " ", query).strip() if changed else None


_AS_WELL = re.compile(r"\b(?:too|as\s+well|also|plus|aswell)\b", re.I)
_COUNT = re.compile(r"\b(?:for|of)\s+(?P<n>\d{1,3})(?:\s+(?:people|persons?|of\s+us|guests|adults|players))?\b|"
                    r"\b(?P<n2>\d{1,3})\s+(?:people|persons?|of\s+us|guests)\b", re.I)


def _same_measure(after_new: str, after_old: str, new: str, old: str) -> bool:
    """Two limits measure the same thing: both money, or the same unit word after them ("under £60 an hour" and
    "under 50"; not "under £60" and "over 8 seats")."""
    unit = re.compile(r"^\s*([a-z]+)")
    money = re.compile(r"[£$€]|pound|quid|dollar|euro", re.I)
    new_unit, old_unit = unit.match(after_new), unit.match(after_old)
    if money.search(new) or money.search(old):
        return not (new_unit and new_unit.group(1) not in ("an", "a", "per", "each", "pp", "ph", "then", "instead")
                    and not money.search(new))
    return (new_unit.group(1) if new_unit else None) == (old_unit.group(1) if old_unit else None) or new_unit is None
