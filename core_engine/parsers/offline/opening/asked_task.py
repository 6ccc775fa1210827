"""A question the KB cannot answer that names a task: "how do I pay the deposit?" to an agent with a Pay Deposit task
and a KB of bands, "has my order been cleaned yet?" to one with Track Order. Read as a KB question it finds nothing or
the wrong rows; the user is asking how to do the task, so the task is opened (by meaning, the usual threshold).

Only for a question that asks to do something ("how do I", "can I", "do you do", "has my ...") and is not a
hypothetical, only a question ("want to know before I come in"), a question the parser's task rules kept for the KB
(`TurnReader.kb_first`: "what's the process?") or one pointing at rows just shown; and when no word of it is the KB's
(its tables' names, a value, a column name, a word of its rows' text, by `_about_rows`) beyond the words of the agent
and its tasks.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import snake_case
from ..words.match import content_stems, equalities, stem
from .task_texts import _openers, opener_stems, task_text_stems
from .tasks import BOOKING_WORDS

if TYPE_CHECKING:
    from ..parser import TurnReader


def _name_words(name: str) -> list[str]:
    """The words of a worksheet's name ("BookDayCare": book, day, care)."""
    return [w for w in snake_case(name).split("_") if w]


def _own_words(reader: "TurnReader") -> set[str]:
    """Stems of what the agent and its tasks are called and described as."""
    own = set(content_stems(reader.spec.description or ""))
    for ws in reader.spec.task_worksheets():
        own |= task_text_stems(reader, ws) | opener_stems(reader, ws)
        own |= {stem(w) for w in _name_words(ws.name)}
    return own


def _table_words(reader: "TurnReader") -> set[str]:
    """Stems of the names of the KB's tables and of the types of their rows ("bikes", "Bike")."""
    names = [ws.name for ws in reader.spec.worksheets if ws.kind in ("kb", "type")]
    return {stem(w) for n in names for w in _name_words(n)
            if len(w) > 2}


_TO_DO = re.compile(r"^\W*(?:(?:hi+|hiya|hello|hey|so|and|also|oh|ok(?:ay)?|right|um+|erm+)[,!.\s]+)*(?:"
                   r"how\s+(?:do|can|could|would|should)\s+(?:i|we)|(?:can|could|may)\s+(?:i|we|you|u|someone|somebody)|"
                   r"do\s+(?:you|u)(?:\s+guys)?\s+(?:do|offer|run|rent|hire|sell|need|take|organi[sz]e|arrange)|"
                   r"is\s+(?:that|this|it)\s+something\s+you)\b", re.I)
"""A question that asks to do something rather than what the KB holds."""
_JUST_ASKING = re.compile(r"\b(?:want(?:ed)?\s+to\s+know|wondering|just\s+asking|out\s+of\s+interest|curious|"
                          r"deciding|before\s+I\s+\w+)\b", re.I)
"""The user says the question is only a question ("want to know before I come in")."""
_PRONOUN = re.compile(r"\b(?:it|its|they|them|that\s+one|this\s+one|one\s+of\s+(?:them|those))\b", re.I)


def asked_task(reader: "TurnReader", query: str, text: str) -> bool:
    """Open the task a question names when the KB has none of its words; False (nothing read) otherwise."""
    from ..parser import _HYPOTHETICAL, question_sentences  # late: the parser imports this module
    from ..words.semantic import semantic_task  # late: semantic imports the parser's modules
    from .tasks import _about_rows  # noqa: PLC0415
    asked = [c for q in question_sentences(text) or [text] if (c := _asking_clause(q))]
    if reader.ctx.kb is None or _HYPOTHETICAL.match(text) or _JUST_ASKING.search(text) or not asked:
        return False  # "if I pause my membership do I lose my place?": what would follow, asked of the KB
    shown = any(a.get("act") == "report" and a.get("kind") == "kb" for a in reader.acts)
    if shown and any(_PRONOUN.search(q) for q in asked):
        return False  # "how big is it?" after boats were shown: a question about one of them
    if len(asked) == 1 and asked[0] != query.strip():
        query = asked[0]  # "she's pony mad, do you do birthday parties?": what is asked, not the story before it
    if {stem(w) for w in re.findall(r"[a-z]+", query.lower())} & _table_words(reader):
        return False  # "can I take my dog on any of your bikes?" to a KB of bikes: what the business has
    if _about_rows(reader, query, _own_words(reader)):
        return False
    lines, rules = len(reader.lines), len(reader.rules)
    if not semantic_task(reader, text):
        return False
    opened = [ws for line in reader.lines[lines:] for ws in reader.spec.task_worksheets() if _opens(ws, line)]
    said = {stem(w) for w in re.findall(r"[a-z]+", text.lower())} - _GENERIC - _table_words(reader)
    if opened and said & _task_words(reader, opened[0]):
        return True
    del reader.lines[lines:], reader.rules[rules:]  # "can I pay by card?" to a takeaway: an option's word, no task's
    return False


_CLAUSE_BREAK = re.compile(r"\s*(?:[,;]|\s-\s|\.{2,})\s*(?:(?:and|so|but)\s+)?|\s+(?:and|so|but)\s+", re.I)


def _asking_clause(sentence: str) -> str | None:
    """The sentence when it asks to do something, else its last clause when that does ("my little girl turns 6 in
    january and she's pony mad, do you do birthday parties?": "do you do birthday parties?"); None otherwise."""
    if _TO_DO.match(sentence):
        return sentence
    last = _CLAUSE_BREAK.split(sentence.strip())[-1]
    return last if last != sentence.strip() and _TO_DO.match(last) else None


_GENERIC = {stem(w) for w in """book booking order make get request need want go do have take arrange set up new help
start sign""".split()} | BOOKING_WORDS
"""Words any task may be asked for with: the question must share another with the task's own texts."""


def _task_words(reader: "TurnReader", ws: Any) -> set[str]:
    """Stems of what the task is called (its name, the option that opens it, each also as one word: "daycare" of
    Book Day Care) and of the developer's examples of asking for it; not its description ("fix" in "get your bike
    fixed" is no request in "how do I fix a flat tyre?") nor its fields' options ("card" is no word of Order
    Takeaway)."""
    names = [" ".join(_name_words(ws.name))] + [ev.value for ev in _openers(reader, ws)]
    words = set()
    for name in names:
        parts = re.findall(r"[a-z]+", name.lower())
        words |= {stem(w) for w in parts} | {stem(a + b) for a, b in zip(parts, parts[1:])}
    return words | task_text_stems(reader, ws)


def _opens(ws: Any, line: str) -> bool:
    """The statement chooses the worksheet: its constructor, or the value its predicate asks for
    (`main.task = "Book Day Care"`)."""
    if re.match(rf"\w+ = {re.escape(ws.name)}\(", line):
        return True
    said = re.fullmatch(r'\w+\.\w+ = "(.+)"', line)
    return said is not None and any(value == said.group(1) for _path, value in equalities(ws.predicate or ""))
