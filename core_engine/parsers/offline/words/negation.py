"""Negation: "not Thai", "I don't want a letter grade", "anything but pizza".

Negated words never vote for an enum value or a task; a choice between two
enum values where the user rejects one is the other; and a rejection of part of
the last search ("no, I don't want Thai") searches again without it. Everything
here only finds the negated phrases; the parser decides what they mean.
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ....dialogue.state import TaskRecord
from .match import content_stems, stem
from .values import normalise

if TYPE_CHECKING:
    from ..parser import TurnReader

_NEGATION = re.compile(
    r"\b(?P<neg>not|isn't|aren't|wasn't|never|(?:i\s+|we\s+)?(?:don't|do\s+not|didn't|did\s+not|doesn't|does\s+not)\s+(?:want|need|like|"
    r"mean|feel\s+like|use|do)|rather\s+than|instead\s+of|other\s+than|except(?:\s+for)?|apart\s+from|anything\s+but|"
    r"(?:nicer|better|easier|quicker|faster|simpler|safer|handier|more\s+(?:personal|useful|convenient))\s+than|"
    r"nothing\s+(?:with|like))\s+"
    r"(?:(?:interested\s+in|in\s+the\s+mood\s+for|a\s+fan\s+of|into|about|for|to\s+(?:have|get|take|do)|"
    r"a|an|the|any|some|more)\s+)*"
    r"(?P<what>[^,.;!?]+?)(?=\s*(?:[,.;!?]|\bbut\b|\bit'?s\b|\bit\s+is\b|\bi\b|\bwe\b|\bjust\b|\bplease\b|"
    r"\binstead\b|\bthough\b|$))", re.I)
_NOT_AN_OBJECT = frozenset("""able sure working showing posted there getting going seeing enrolled really yet too very so
that quite have know remember recall see find view receive received heard showing listed appearing appear right
correct showed shown show shows arrived arrive came come appeared got went worked work updated changed happened
loaded load opened replied answered responded processed reached turned made""".split())
"""Words after "not" that make it part of a statement ("not able to view", "not posted", "never showed up"),
not a rejection: what did not happen is the problem told."""


_BE_NOT = re.compile(r"not|isn't|aren't|wasn't|never", re.I)
_PARTICIPLE = re.compile(r"[a-z]{4,}ed", re.I)
"""A past participle right after "wasn't", "not" ("collected", "emptied"): a statement, as in `_NOT_AN_OBJECT`."""


OPTIONS_SAID_WITH_NOT: ContextVar[frozenset[str]] = ContextVar("options_said_with_not", default=frozenset())
"""The spec's options whose own words open with a negation ("Never Ridden", "Not Sure"), as plain lower-case words:
saying one names the option, it rejects nothing. Set by the parser for the spec it reads."""


def options_said_with_not(spec: Any) -> frozenset[str]:
    """`OPTIONS_SAID_WITH_NOT` for a spec."""
    out = set()
    for ws in spec.worksheets:
        for f in ws.fields:
            for ev in f.enum_values:
                words = " ".join(re.findall(r"[a-z0-9']+", ev.value.lower()))
                if _NEGATION_WORD.match(words) and " " in words:
                    out.add(words)
    return frozenset(out)


_NEGATION_WORD = re.compile(r"(?:not|never|no)\b")


def _names_an_option(said: str) -> bool:
    """The negated phrase is the option itself, perhaps with "before" or "yet" ("never ridden before"); not "never
    ridden in a forest trek", whose forest trek is still rejected."""
    words = " ".join(re.findall(r"[a-z0-9']+", said.lower()))
    words = re.sub(r"\s+(?:before|yet|at\s+all)$", "", words)
    return words in OPTIONS_SAID_WITH_NOT.get()


@dataclass(frozen=True)
class Negated:
    words: str     # the whole negated phrase, e.g. "don't want Thai"
    what: str      # what is rejected, e.g. "Thai"
    start: int
    end: int


def negations(text: str) -> list[Negated]:
    """The rejected things in the text, in order."""
    body = normalise(text)
    out = []
    for m in _NEGATION.finditer(body):
        what = m.group("what").strip()
        first = what.split()[0].lower() if what.split() else ""
        if not what or first in _NOT_AN_OBJECT or stem(first) in _NOT_AN_OBJECT or not content_stems(what):
            continue
        if _BE_NOT.fullmatch(m.group("neg")) and _PARTICIPLE.fullmatch(first) \
                and body[m.end("neg"):].split()[0].lower() == first:  # not "isn't the heated one"
            continue  # "it wasn't collected this morning", "the bin isn't emptied": what did not happen, told
        if _names_an_option(m.group(0)):
            continue  # "never ridden, he's 6": the option Never Ridden, not a rejection of riding
        out.append(Negated(m.group(0), what, m.start(), m.end()))
    return out


def without_negated(text: str) -> str:
    """The text with its rejected phrases blanked out (same length, so spans still line up)."""
    body = normalise(text)
    for n in negations(body):
        body = body[: n.start] + " " * (n.end - n.start) + body[n.end:]
    return body


_UNABLE = re.compile(r"\b(?:can'?t|cannot|can\s+not|couldn'?t|won'?t\s+be\s+able\s+to|not\s+able\s+to|"
                     r"unable\s+to)\s+(?:make|do|come|attend|go|manage|get\s+to)\b[^,.;!?]*", re.I)
"""What the user cannot make ("I can't do my lesson on thursday"): the old value, never the one wanted."""
_NO_GOOD = re.compile(r"[^,.;!?]*?(?:'s|\bis|\bare|\bwas)\s+(?:no|not(?:\s+any)?)\s+good\b(?:[^,.;!?-]|-(?=\w))*|"
                      r"[^,.;!?]*?\b(?:isn'?t|aren'?t)(?:\s+any)?\s+good\b(?:[^,.;!?-]|-(?=\w))*", re.I)
"""A value ruled out before it is replaced ("tomorrow's no good after all - can we do thursday"): the old value."""


def without_unable(text: str) -> str:
    """The text with the clauses of what the user cannot make blanked out (same length)."""
    text = _UNABLE.sub(lambda m: " " * len(m.group(0)), text)
    return _NO_GOOD.sub(lambda m: " " * len(m.group(0)), text)


_LEFTOVER = {stem(w) for w in """no nope nah something somewhere anything else place food option
    options one ones other another different want like prefer please thanks mean actually maybe how about what""".split()}


def refine_search(reader: "TurnReader", text: str) -> bool:
    """ "No, I don't want Thai" after a search: the same search, without Thai."""
    found = negations(text)
    if not found:
        return False
    report = next((a for a in reversed(reader.acts) if a.get("act") == "report" and a.get("kind") == "kb"
                   and isinstance(a.get("query"), str)), None)
    if report is None:
        return False
    left = [w for w in content_stems(without_negated(text)) if w not in _LEFTOVER]
    if left:
        return False  # the turn also says what the user does want: read as a new search elsewhere
    query = report["query"].rstrip(" ?.!")
    for n in found:
        query = re.sub(rf"\b{re.escape(n.what)}\b\s*", "", query, flags=re.I).strip()
    query = f"{query} not {' and not '.join(n.what for n in found)}".strip()
    target = search_holder(reader, report.get("var", ""))
    words = "; ".join(n.words for n in found)
    if target is not None:
        rec, name = target
        reader.emit("refine-search", words, f"{rec.var}.{name} = answer({_quote(query)})")
    else:
        reader.emit("refine-search", words, f"answer({_quote(query)})")
    return True


def search_holder(reader: "TurnReader", kb_var: str) -> tuple[TaskRecord, str] | None:
    """The field waiting on that search: the row field asked, or the field that holds the KB record."""
    e = reader.expect
    if e is not None and reader.view.kind_of(e.field) == "row":
        return e.rec, e.field.name
    for rec in reader.view.live_records():
        for name, value in rec.values.items():
            if isinstance(value, dict) and value.get("$ref") == kb_var:
                return rec, name
    return None


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # the same escaping as every other string literal
