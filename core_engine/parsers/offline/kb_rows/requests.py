"""A request for a KB row together with the task that takes it: "I'd like a teeth cleaning with X on Friday".

A turn that names rows of the KB and asks for something ("I'd like", "can I book", "I'll take",
"find me ... and book it") is not a search to report: it asks for the task whose worksheet has a
field of the row's type (the spec says which: `BookX.thing: Thing`). That worksheet is opened with
the search as the row field's value, and with every other value the turn gives (dates, times,
enum values, a name), exactly as a task description opens it. Wh-questions ("how much is X?")
stay searches, and nothing is guessed when several task worksheets take rows.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ....spec.model import Worksheet, snake_case
from ..words.match import equalities, stem
from ..words.semantic_index import Entry, Ranked

if TYPE_CHECKING:
    from ..parser import TurnReader

_ASKS_FOR = re.compile(
    r"\b(?:book|reserve|order|buy|purchase|schedule|sign\s+(?:me|us)\s+up|i'?ll\s+(?:take|get|have|go\s+with)|"
    r"let\s+me\s+(?:get|have)|(?:can|could|may)\s+(?:i|we)\s+(?:get|have|borrow|rent|hire)|"
    r"(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:get|find|grab|set)\s+(?:me|us)\s+up\b|"
    r"(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:get|grab)\s+(?:me|us)\b|"
    r"put\s+(?:[\w'.-]+\s+){1,6}?on\s+hold|"
    r"(?:i|we)\s*(?:'d|would)\s+like|(?:i|we)\s+(?:want|need)|"
    r"(?:\band|,)\s+(?:want|need|would\s+like)\s+(?:a|an|the|to)\b|"
    # the subject left out, as people type: "Need a van for Monday", "looking to book ...", "looking for a room",
    # "we're 3 and want a canoe on sunday"
    r"^\W*(?:(?:hi|hello|hey)\W+)*(?:need|want|looking\s+(?:for|to))|(?:i'?m|we'?re)\s+looking\s+(?:for|to))\b",
    re.I)
_NOT_ASKING = re.compile(r"\b(?:don'?t|do\s+not|never|no\s+need\s+to)\s+(?:want\s+to\s+)?(?:book|order|buy)\b", re.I)
_WH = re.compile(r"^\W*(?:(?:hi|hello|hey|so|and|ok|okay)[,\s]+)*(?:what|which|where|who|whom|whose|why|how|when|"
                 r"is\s+there|are\s+there|do\s+you|does|tell\s+me)\b", re.I)


_PLEASE = re.compile(r"\bplease\b|\b(?:the|that|this)\s+(?:[\w'-]+\s+){0,4}?one\s+(?:then|for\s+me)\b", re.I)
_ABOUT_IT = re.compile(r"\b(?:price|prices|cost|costs|how\s+much|info|information|details?|tell|know|more|explain|"
                       r"describe|compare|difference|send\s+me|email\s+me|directions?|hours|opening|open|menu|number|phone|"
                       r"address|length|width|height|size|weight|capacity|reviews?|photos?|pictures?|website|parking|"
                       r"location|where|when|what|which|list|options)\b", re.I)
"""Words of a turn that asks about a row rather than for it ("the price of the Deluxe please")."""


def _please(text: str) -> bool:
    """ "the Carpet Revive one please", "4 of those please", "the heated one then": a row asked for with no verb,
    in a turn that is no question and asks nothing about the row."""
    from ..intents import is_question  # late: intents imports the word helpers this module's callers use
    from ..words.negation import negations  # late: as above
    return bool(_PLEASE.search(text)) and not is_question(text) and not _ABOUT_IT.search(text) \
        and not negations(text) and not re.search(r"\b(?:not|but)\b", text, re.I)


_ASKED_TO = re.compile(r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:come\s+and\s+)?(?P<verb>[a-z]+)", re.I)


def _asked_to_do(reader: "TurnReader", ws: Worksheet, text: str) -> bool:
    """ "can you collect them on the 2nd of April?": the agent is asked to do what the row task is about, its verb
    a word (or the start of a word) of the task's own texts: its name, description, and the description of the
    option that opens it ("book a collection of ...")."""
    texts = [snake_case(ws.name).replace("_", " "), ws.description]
    for path, value in equalities(ws.predicate):
        for other in reader.spec.task_worksheets():
            f = other.field(path[-1])
            texts += [ev.description for ev in (f.enum_values if f is not None else []) if ev.value == value]
    words = {stem(w) for t in texts for w in re.findall(r"[a-z]+", t.lower()) if len(w) >= 4}
    for m in _ASKED_TO.finditer(text):
        verb = stem(m.group("verb").lower())
        if len(verb) >= 4 and any(w.startswith(verb) for w in words):
            return True
    return False


def _named_with_values(reader: "TurnReader", ws: Worksheet, text: str) -> bool:
    """ "Sea Swallow Catamaran then. saturday at half ten for six": a row named by its name in a first sentence that
    is no question, and two values or more for the fields of the task that takes it (a day, a time, how many): the
    values ask for the task as a verb would."""
    from ..answering.slots import find_mentions  # late: slots imports the word helpers this module's callers use
    from ..intents import is_question, sentences
    from .items import _words, row_names

    first = (sentences(text) or [text])[0]
    if is_question(first):
        return False
    low = _words(first)
    names = {n for table in row_names(reader.vocabulary, reader.ctx.kb).values() for n in table}
    if not any(n in low for n in names if len(n.split()) >= 2):
        return False
    ghost = TaskRecord(var="_", worksheet=ws.name)
    fields = [(ghost, f) for f in ws.fields if f.kind == "input"
              and reader.view.kind_of(f) in ("date", "time", "int", "float", "Enum")]
    return len(find_mentions(text, fields, reader.view, reader.today)) >= 2


_CAN_I_IT = re.compile(r"\b(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?(?:just\s+)?(?P<verb>[a-z]+)(?:\s+(?:in|out|up|round|over))?\s+"
                       r"(?:(?:with|to|at|on)\s+)?(?:it|there|her|him|them|that(?:\s+one)?|this(?:\s+one)?)\b", re.I)


def _asked_with_when(reader: "TurnReader", text: str) -> bool:
    """ "could i see it saturday at 10?", "can i go there friday morning?": a row just shown, asked for on a day or at
    a time; the day or the time makes it a request to do the task with it, not a question about it."""
    from ..words.values import find_dates, find_times  # late: values is heavy and most turns never get here
    return bool(_CAN_I_IT.search(text)) and bool(find_dates(text, reader.today) or find_times(text))


TAKING = frozenset("book reserve order buy purchase hire rent enrol enroll register join schedule".split())
"""First words of task names that take something for the user (a booking, an order), unlike "cancel", "report"."""


def row_task(reader: "TurnReader", text: str = "") -> Worksheet | None:
    """The task worksheet with a field that holds a KB row: the only one, else the one whose name's verb the turn
    says ("can we book Woodpecker again": Book Stay, not Report Problem), else, when the turn says no task's verb,
    the only one whose name takes a row for the user ("the Carpet Revive one please")."""
    found = [ws for ws in reader.spec.task_worksheets()
             if any(f.kind == "input" and reader.view.kind_of(f) == "row" for f in ws.fields)]
    if len(found) <= 1:
        return found[0] if found else None
    said = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    verb = {ws.name: stem(snake_case(ws.name).split("_")[0]) for ws in found}
    named = [ws for ws in found if verb[ws.name] in said]
    if named:
        return named[0] if len(named) == 1 else None
    if any(stem(snake_case(ws.name).split("_")[0]) in said for ws in reader.spec.task_worksheets()):
        return None  # the turn names another task's verb ("cancel", "move")
    taking = [ws for ws in found if snake_case(ws.name).split("_")[0] in TAKING]
    return taking[0] if len(taking) == 1 else None


def _named_in_full(text: str, name: str) -> str:
    """ "can I book the mid-term please" -> "can I book the Mid-term Inspection please": the words of the row's name
    that the turn says, replaced by the whole name."""
    words = [w for w in re.findall(r"[\w'-]+", name) if len(w) >= 4]
    for w in sorted(words, key=len, reverse=True):
        m = re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.I)
        if m:
            return text[:m.start()] + name + text[m.end():]
    return text


def _reachable_from_start(reader: "TurnReader", ws: Worksheet) -> bool:
    """The worksheet is opened by values of a live top-level record (its predicate's equalities name them)."""
    names = {path[-1] for path, _v in equalities(ws.predicate)}
    if not names:
        return ws.name not in reader.spec.nested_worksheet_names()
    return any(reader.view.worksheet(r).field(n) is not None for r in reader.view.live_records()
               if r.parent is None for n in names)


def _option_of_other_task(reader: "TurnReader", ws: Worksheet, text: str) -> bool:
    """ "can i book a tragus at old town": "Old Town" is a branch in the KB, but "tragus" and "Old Town" are options
    of the piercing's fields, word for word; the task they belong to is read by the task rules, not this one. Only
    when every KB term of the turn is such an option."""
    from ..opening.said_option import said_option  # late: the opening rules import this module indirectly
    from ..words.semantic import root_of, task_roots  # late, as above

    told = said_option(reader, text)
    if told is None:
        return False
    roots = task_roots(reader)
    mine = root_of(reader, roots, told)
    if mine == roots.get(ws.name, ws.name) or reader.state.of_worksheet(mine):
        return False
    options = {ev.value.casefold() for w in reader.spec.task_worksheets() if roots.get(w.name, w.name) == mine
               for f in w.fields for ev in f.enum_values}
    terms = reader.vocabulary.found_in(text, reader.ctx.kb, plurals=True)
    return bool(terms) and all(t.casefold() in options for t in terms)  # "Old Town" is a branch option there too;
    # "take Otter out" names a craft that no option explains: the row's task stands


def row_request(reader: "TurnReader", text: str) -> bool:
    """Open the row-taking task for a request that names KB rows (see the module docstring)."""
    if reader.ctx.kb is None or reader.lines:
        return False
    e = reader.expect
    if e is not None and (e.act != "ask" or e.rec.parent is not None or reader.view.kind_of(e.field) != "Enum"):
        return False  # only when nothing is asked, or the top-level choice of task
    if _NOT_ASKING.search(text) or _WH.match(text):
        return False
    ws = row_task(reader, text)
    if ws is None or any(r.status == "active" for r in reader.state.of_worksheet(ws.name)):
        return False
    if _option_of_other_task(reader, ws, text):
        return False
    asked_by = _ASKS_FOR.search(text) or _asked_to_do(reader, ws, text) or _named_with_values(reader, ws, text) \
        or _please(text)
    if not (asked_by or _asked_with_when(reader, text)) or not _reachable_from_start(reader, ws):
        return False
    if not asked_by and (m := _CAN_I_IT.search(text)):  # "could I ride with him on saturday?": the verb chooses no
        text = text[:m.start("verb")] + " " * len(m.group("verb")) + text[m.end("verb"):]  # option ("can ride but ...")
    terms = reader.vocabulary.found_in(text, reader.ctx.kb, plurals=True)
    if not terms and (_asked_to_do(reader, ws, text) or _ASKS_FOR.search(text)):
        from .change import named_row  # late: change imports the task rules
        said = named_row(reader, text)  # "can I book the Golf please": a word only one row's name has
        terms = [said] if said else []
        if said and said.lower() not in text.lower():
            text = _named_in_full(text, said)  # the task opens on the row's whole name, which its search finds
    if not terms:
        from ..opening.tasks import pronoun_row  # late: tasks imports this module's helpers indirectly
        held = pronoun_row(reader, text)  # "ok book that one for me": the one row just reported
        if held is None:
            return False
        from ..opening.tasks import _held_row  # late, as above
        from .choices import row_fits  # late, as above
        row = _held_row(reader, held)
        if isinstance(row, dict) and not any(row_fits(reader, f, row) for f in ws.fields
                                             if reader.view.kind_of(f) == "row"):
            return False  # "can you book me in for that" after a class was shown: no cake order's bakery
        terms = [held]
    from ..words.semantic import apply_reading  # a late import: offline_semantic imports the task rules

    ranked = Ranked(Entry("task", ws.name), 1.0, ", ".join(sorted(terms)), None, 0.0)
    before = len(reader.rules)
    if not apply_reading(reader, ranked, text, "row-request"):
        return False
    for r in reader.rules[before:]:
        if r.get("rule") != "row-request":
            continue
        r.pop("score", None), r.pop("runner_up", None), r.pop("runner_up_score", None)
        r["reason"] = "a request that names KB rows opens the task whose field holds such a row"
    return True
