"""The task told by an option the turn names word for word: "can i get my septum done this weekend".

The reading by meaning weighs whole sentences, and a rare word ("septum", "tragus") moves a sentence embedding
less than a common phrase does ("get it done", an example of another task's option). When the turn says, as whole
words, the value of an option (or a short example the developer gave for it) of one top-level task only, and that
option's words are in no other task's texts, the option tells the task: the reading by meaning goes to it unless
the turn also says that reading's own words or a verb of another task ("cancel my septum appointment").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator

from ....spec.model import Field, Worksheet
from ..words.match import content_stems, equalities, words
from ..words.semantic_index import Entry, words_of

if TYPE_CHECKING:
    from ..parser import TurnReader

_REQUEST = re.compile(r"\b(?:(?:can|could|may)\s+(?:i|we|you|u)|(?:i|we)\s*(?:'d|would)\s+like|"
                      r"wants?|wanna|please|pls|book|booking)\b", re.I)
"""A request in the turn: without one, a question that names an option asks about it ("is a septum painful?").
"need" is not one: "do I need to bring cash?", "my son needs a junior size" ask for no option."""
_OBJECT = re.compile(r"^(?:\s+(?:a|an|the|my|her|his|our|their|some|to|get|have|book|order|do|me|us|in|for|one|"
                     r"booked|done|another|also|just|please|pls)\b){0,4}\s+$", re.I)
"""Between the request and the option, only the words of asking for a thing ("can i get my", "can i book a", "wants
her"): "i want to complain about the other staff member", "i need to pay cash at the door" name no thing asked for."""
_YES_NO_CLAUSE = re.compile(r"(?:^|[.;!?]\s*|,\s*)(?:(?:hi|hello|hey|oh|so|ok|okay|and|also)[,\s]+)*"
                            r"(?:do|does|did|is|are|am|was|were|will|should|would|have|has)(?:\s+[\w']+){1,3}\s*$", re.I)
"""A yes/no question the request is part of ("do you want a ...", "do I need to book a bikini wax in advance?")."""
_NEGATED = re.compile(r"(?:n't|\bnot|\bnever)\s*$", re.I)
_WH = frozenset({"what", "which", "when", "where", "who", "whom", "whose", "why", "how"})
_WHEN_WORDS = frozenset("""morning mornings afternoon afternoons evening evenings night nights day days weekday weekdays
weekend weekends lunchtime daytime am pm early late anytime monday tuesday wednesday thursday friday saturday sunday
today tomorrow week month""".split())
"""An option that only says when ("Morning" of a slot) tells no task: "take Otter out next Tuesday morning"."""
_SHORT_EXAMPLE = 3
"""Examples of at most this many words are other names for their option ("nose stud" of Nostril); longer ones are
sentences, which the reading by meaning weighs."""


_CLAUSE_BREAK = re.compile(r"[.;!?]|,\s|\b(?:and|but|so|because|cos|as|since)\b", re.I)


def _asked_for_at(text: str, name: str) -> bool:
    """The name's words, in a row, as whole words of the turn (a plural s allowed), after a request in the same
    clause ("can i get my septum done"; not "we're moving away and need somewhere to keep our yacht")."""
    own = words(name)
    if len("".join(own)) < 4:
        return False
    pattern = r"(?<![\w'-])" + r"[\s-]+".join(map(re.escape, own)) + r"s?(?![\w'-])"
    for hit in re.finditer(pattern, text, re.I):
        for req in _REQUEST.finditer(text[:hit.start()]):
            before = re.search(r"(\w+)\W*$", text[:req.start()])
            if before is not None and before.group(1).lower() in _WH:
                continue  # "where can i charge my electric car": a question, not a request
            if _YES_NO_CLAUSE.search(text[:req.start()]) or _NEGATED.search(text[:req.start()]):
                continue  # "do you want a ...", "I don't want a mocha"
            if _OBJECT.match(" " + text[req.end():hit.start()] + " ") and \
                    not _CLAUSE_BREAK.search(text[req.end():hit.start()]):
                return True
    return False


def _inside_row_name(reader: "TurnReader", text: str, name: str) -> bool:
    """The option's words are part of a longer KB name the turn says ("the guitar basics workshop")."""
    if reader.ctx.kb is None:
        return False
    low = " ".join(words(name))
    return any(low in " ".join(words(term)) and len(words(term)) > len(words(name))
               for term in reader.vocabulary.found_in(text, reader.ctx.kb))


def task_options(reader: "TurnReader") -> Iterator[tuple[Worksheet, Field, Any]]:
    """(worksheet, field, option) for every option of an input field of the task worksheets, the task menu's
    worksheet apart."""
    start = reader.spec.start_worksheet()
    for ws in reader.spec.task_worksheets():
        if start is not None and ws.name == start.name:
            continue
        for f in ws.fields:
            if f.kind == "input":
                for ev in f.enum_values:
                    yield ws, f, ev


def root_texts(reader: "TurnReader", roots: dict[str, str]) -> dict[str, set[str]]:
    """Content stems of each top-level task's texts: its worksheets' names and descriptions, their fields' names,
    descriptions and options, and the options of the task menu that open it."""
    start = reader.spec.start_worksheet()
    out: dict[str, set[str]] = {}
    menu = {(p[-1], v): ws.name for ws in reader.spec.task_worksheets() for p, v in equalities(ws.predicate)}
    for ws in reader.spec.task_worksheets():
        if start is not None and ws.name == start.name:
            continue
        texts = [words_of(ws.name), ws.description or ""]
        for f in ws.fields:
            texts += [words_of(f.name), f.description or ""]
            texts += [" ".join([ev.value, ev.description or "", *ev.examples]) for ev in f.enum_values]
        out.setdefault(roots.get(ws.name, ws.name), set()).update(s for t in texts for s in content_stems(t))
    for f in start.fields if start is not None else []:
        for ev in f.enum_values:
            opened = menu.get((f.name, ev.value))
            if opened is not None:
                root = roots.get(opened, opened)
                out.setdefault(root, set()).update(content_stems(" ".join([ev.value, ev.description or "", *ev.examples])))
    return out


def said_option(reader: "TurnReader", text: str) -> Entry | None:
    """The option of one top-level task's field that the turn names word for word, when its words belong to that
    task's texts only and the turn asks for something; None otherwise (none named, or options of two tasks)."""
    from ..words.semantic import root_of, task_roots  # late: semantic imports the opening rules

    text = text.replace("’", "'")
    if not _REQUEST.search(text):
        return None
    roots = task_roots(reader)
    found: list[Entry] = []
    for ws, f, ev in task_options(reader):
        names = [ev.value, *(x for x in ev.examples if len(x.split()) <= _SHORT_EXAMPLE)]
        if any(_asked_for_at(text, n) and not _inside_row_name(reader, text, n) for n in names):
            found.append(Entry("enum", ws.name, f.name, ev.value))
    if not found:
        return None
    texts = root_texts(reader, roots)

    def distinctive(e: Entry) -> bool:
        owner = root_of(reader, roots, e)
        return not any(set(content_stems(e.value)) & stems for r, stems in texts.items() if r != owner)
    found = [e for e in found if distinctive(e) and not set(words(e.value)) <= _WHEN_WORDS]
    if len({root_of(reader, roots, e) for e in found}) != 1:
        return None  # none left, or options of two tasks
    return found[0]
