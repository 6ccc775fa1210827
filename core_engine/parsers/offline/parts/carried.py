"""Options said in the questions that led to a task: "any A level chemistry tutors under £50?" ... "the first one
looks great, can we book her?" books A-Level Chemistry; "do any of your meeting rooms have a hearing loop?" ... "the
Hazel one then" books a meeting.

When the agent's last reply answered a question from the KB and this turn opens a record, each option field of the
record that the turn leaves unfilled takes the option the questions asked since the last task named word for word
(the newest question first). The option must be said whole ("a level" for A-Level, "online" for Online), be the only
option of its field said so in that question, and not be cut short ("english lit" is not English: English
Literature starts the same way). A question that negates anything ("not online") carries nothing, nor does an option
the row booked does not have (a tutor who teaches no physics), nor a question about another person than the booking
("my older one" ... "for my younger one"). The turn's own values always win: only fields it leaves empty are filled.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import KBRecord, TaskRecord
from ..words.match import stem
from ..words.negation import negations
from .proper_names import _constructed, set_in_opening

if TYPE_CHECKING:
    from ....spec.model import Field
    from ..parser import TurnReader

_LOOKBACK = 4
"""At most this many questions back: the conversation that led to the booking, not the whole session."""


def carried_from_questions(reader: "TurnReader", text: str) -> None:
    if not any(a.get("act") == "report" and a.get("kind") == "kb" for a in reader.acts):
        return
    queries = _recent_queries(reader)
    if not queries:
        return
    mine, theirs = _people(text), set().union(*(_people(q) for q in queries))
    if mine and theirs and not mine & theirs:
        return  # asked for "my older one" or "adults", booked "for my daughter": another person's options
    from ..opening.options import ruled_out  # late: the opening rules import the parts
    for i, _line, _span, args, ws, given in list(_constructed(reader)):
        said_of_row = _row_words(reader, args)
        chosen = _chosen_rows(reader, args)
        for f in ws.fields:
            if f.kind != "input" or f.name in given or reader.view.kind_of(f) != "Enum" or f.dont_ask:
                continue
            if chosen and ruled_out(f, {}, chosen):
                continue  # "blackout roman blinds?" ... "the velvet one": a lining is asked of curtains only
            found = _option_in(f, queries)
            if found is None:
                continue
            options = {ev.value.lower() for ev in f.enum_values}
            if said_of_row & options and found[0].lower() not in said_of_row:
                continue  # "any GCSE physics tutors?" ... "book Hazel": Hazel teaches no physics
            set_in_opening(reader, i, ws.name, f.name, found[0], "carried-from-question", found[1],
                           reason="an option the question before the task named")


_PERSON = re.compile(r"\b(?:(?:my|our|his|her|the)\s+(?:(?:older|younger|eldest|youngest|little|big)\s+)?(son|daughter|"
                     r"kid|child|boy|girl|lad|wife|husband|partner|mum|mom|dad|brother|sister|one|grandson|granddaughter)|"
                     r"(adults?|myself|grown-?ups?)|for\s+(me))\b", re.I)


def _people(text: str) -> set[str]:
    """Who the words are about ("my older one", "adults", "for me"), so a question about one person does not fill
    a booking for another."""
    out = set()
    for m in _PERSON.finditer(text):
        word = (m.group(1) or m.group(2) or m.group(3) or "").lower()
        lead = re.match(r"(?:my|our|his|her|the)\s+((?:older|younger|eldest|youngest)\s+)?", m.group(0), re.I)
        word = f"{lead.group(1) or ''}{word}".strip() if lead else word
        out.add({"adult": "me", "adults": "me", "myself": "me", "grown-up": "me", "grown-ups": "me",
                 "grownup": "me", "grownups": "me"}.get(word, word))
    return out


def _row_words(reader: "TurnReader", args: str) -> set[str]:
    """The values (lower case, lists split) of the KB row the opening chooses (`tutor=answer_2.result[0]`)."""
    row = next(iter(_chosen_rows(reader, args).values()), None)
    if row is None and (q := re.search(r'answer\("((?:[^"\\]|\\.)*)"\)', args)):
        row = _named_row_shown(reader, q.group(1))  # "ok book Dev please": the row shown whose name says Dev
    if not isinstance(row, dict):
        return set()
    out: set[str] = set()
    for value in row.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                out |= {p.strip().lower() for p in re.split(r",|\band\b", item) if p.strip()} | {item.strip().lower()}
    return out


def _chosen_rows(reader: "TurnReader", args: str) -> dict[str, dict]:
    """field -> KB row, for each field the constructor fills with a row of a search shown (`product=answer.result[0]`)."""
    out: dict[str, dict] = {}
    for m in re.finditer(r"\b(\w+)=(\w+)\.result\[(\d+)\]", args):
        rec = reader.state.get(m.group(2))
        rows = getattr(rec, "result", None) if isinstance(rec, KBRecord) else None
        if rows and int(m.group(3)) < len(rows) and isinstance(rows[int(m.group(3))], dict):
            out[m.group(1)] = rows[int(m.group(3))]
    return out


def _named_row_shown(reader: "TurnReader", words: str) -> dict | None:
    """The one row of the searches shown since the last task whose name has a word the search words say."""
    from ..kb_rows.choices import row_label  # late: the row rules import the parts
    said = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", words)}
    found = []
    for rec in reversed(reader.state.records):
        if isinstance(rec, TaskRecord):
            break
        for row in (rec.result or []) if isinstance(rec, KBRecord) else []:
            label = row_label(row) if isinstance(row, dict) else None
            if label and said & {w.lower() for w in re.findall(r"[A-Za-z]{3,}", label)} and row not in found:
                found.append(row)
    return found[0] if len(found) == 1 else None


def _recent_queries(reader: "TurnReader") -> list[str]:
    """The user's KB questions since the last task record was made, newest first (at most `_LOOKBACK`)."""
    out: list[str] = []
    for rec in reversed(reader.state.records):
        if isinstance(rec, TaskRecord):
            break
        if isinstance(rec, KBRecord) and rec.initiator == "user" and rec.target_var is None and rec.query:
            out.append(rec.query)
            if len(out) >= _LOOKBACK:
                break
    return out


def _tokens(text: str) -> list[str]:
    return [stem(w) for w in re.findall(r"[a-z0-9+]+", text.lower().replace("-", " "))]


def _option_in(f: "Field", queries: list[str]) -> tuple[str, str] | None:
    """(option, question) for the newest question that names exactly one option of `f` whole; None when the
    newest question naming any option names several, cuts one short, or negates."""
    options = [(ev.value, _tokens(ev.value)) for ev in f.enum_values]
    for query in queries:
        said = _tokens(query)
        hits = []
        for value, words in options:
            if not words:
                continue
            for at in range(len(said) - len(words) + 1):
                if said[at:at + len(words)] == words:
                    hits.append((value, words, at))
                    break
        if not hits:
            continue
        if negations(query):
            return None
        # "english literature" says English too: the longer option said there wins
        hits = [h for h in hits if not any(o is not h and len(o[1]) > len(h[1]) and o[2] <= h[2]
                                           and h[2] + len(h[1]) <= o[2] + len(o[1]) for o in hits)]
        if len(hits) != 1:
            return None
        value, words, at = hits[0]
        after = said[at + len(words)] if at + len(words) < len(said) else ""
        if after and any(len(w) > len(words) and w[:len(words)] == words and w[len(words)].startswith(after)
                         and len(after) >= 2 for _, w in options):
            return None  # "english lit": English Literature cut short, not English
        return value, query
    return None
