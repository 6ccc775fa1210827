"""What a question is about: pronouns resolved to the thing in focus, and questions about the state itself.

A KB question is sent on its own to the knowledge parser, so "when is it
offered?" must name what "it" is. The focus is, in order: the one row the agent
just reported, the row held by the record being filled (the restaurant being
booked), the single course-code-like token of the last KB question, the row of
the most recent record that holds one. Questions about the user's own
conversation ("what am I enrolled in?") are not KB questions at all: the state
answers them, so they produce no statement.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...dialogue.state import TaskRecord, ref_target
from .words.match import content_stems, stem
from .words.values import find_codes

if TYPE_CHECKING:
    from .parser import TurnReader

_NOT_A_THING = frozenset("""is was are were be been being does do did will would can could should may might must
    work works worked mean means meant look looks seem seems sound sounds feel feels right true wrong ok okay good
    fine great bad better best much many more less kind sort type time times way ways year years week weeks month
    months day days morning afternoon evening night weekend moment point case and or but for to of in on at with
    about if then so monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat sun
    january february march april may june july august september october november december spring summer autumn
    fall winter term semester season""".split())
"""Words after "this"/"that" that do not name a thing ("this weekend", "that is", "this way")."""
_POINTING = re.compile(r"\b(?:this|that|the\s+same)\s+([a-z]+)\b", re.I)


def _replace_pointing(question: str, label: str) -> str:
    """ "How does this class compare ..." -> "How does <label> compare ...": the first "this <noun>"."""
    for m in _POINTING.finditer(question):
        if m.group(1).lower() not in _NOT_A_THING:
            return question[:m.start()] + label + question[m.end():]
    return question
_POSSESSIVE = re.compile(r"\b(?:its|their|his|her(?=\s+(?!and\b|or\b|for\b|on\b|at\b|in\b|to\b|please\b)[a-z]))\b",
                         re.I)
_THERE = re.compile(r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!^)\bthere\b"
                    r"(?!\s*(?:is|are|was|were|'s|'re)\b)", re.I)
"""A place in focus pointed at ("what's good to order there?"); not "is there", "there are", or a leading "there"."""
_THAT_SUBJECT = re.compile(r"\b(does|is|can|will|would|did|was|has)\s+(?:that|this)\b(?!\s+(?:one|[a-z]+s?\s+(?:have|has|is|are)))",
                           re.I)
_SUBJECT = re.compile(r"\b(?:it|they|them|he|she|him|her)\b", re.I)

_STATE_QUESTION = re.compile(
    r"\bwhat\s+(?:[a-z]+\s+)?"
    r"(?:(?:am|have|did|do|was|were)\s+(?:i|we)|(?:i|we)(?:'m|'ve|\s+am|\s+have|\s+did|\s+was|\s+were)?)\b"
    r".*\b(?:enrolled|enrolling|registered|signed\s+up|booked|booking|chosen|chose|picked|selected|"
    r"told\s+you|given\s+you|said|so\s+far|currently\s+(?:taking|enrolled|booked))\b|"
    r"\bwhat(?:'s|\s+is|\s+are)\s+(?:my|our)\s+(?:current\s+)?[a-z]+\s*(?:so\s+far)?\s*[?.!]*$|"
    r"\b(?:remind\s+me|can\s+you\s+repeat|read\s+back|summari[sz]e)\b.*\b(?:what\s+i|my|so\s+far|details)\b",
    re.I)

_REQUEST_STEMS = {stem(w) for w in """recommendation recommendations suggestion suggestions option options idea ideas
    help advice something anything more good ones one there have some any give suggest recommend list show""".split()}


def state_question(text: str) -> str | None:
    """The words of a question about the conversation itself ("what am I currently enrolled in?")."""
    m = _STATE_QUESTION.search(text)
    return m.group(0) if m else None


def is_bare_request(question: str) -> bool:
    """ "Can you give me some recommendations?" names nothing to search for by itself."""
    return not [w for w in content_stems(question) if w not in _REQUEST_STEMS]


def row_focus_label(row: dict[str, Any]) -> str | None:
    """A short name for a reported row: its name, else its (first) code, else its title, else its first short
    capitalised text (a `model` column)."""
    if isinstance(row.get("name"), str):
        return row["name"]
    for key, value in row.items():
        if "code" in key.lower():
            if isinstance(value, list) and value and isinstance(value[0], str):
                return value[0]
            if isinstance(value, str) and value:
                return value
    named = [k for k in row if k.endswith(("_name", "_title", "_label"))]  # "course_title" names its row
    for key in ("title", "label", *named):
        if isinstance(row.get(key), str):
            return row[key]
    for key, value in row.items():  # else the first short text after the key ("model": "Kia Picanto")
        if key.lower() != "id" and not key.lower().endswith("_id") and isinstance(value, str) \
                and 1 <= len(value.split()) <= 5 and any(c.isalpha() for c in value) and not value.islower() \
                and "," not in value:  # "Monday, Wednesday" lists days; it names no row
            return value
    return None


def _pointed_row(reader: "TurnReader", question: str) -> tuple[str, str] | None:
    """(the words, the row's name) when the question points at a row of the last multi-row report by its
    place ("the first one", "the 2nd one", "the last one")."""
    from .intents import choice_index  # late: intents imports this module's neighbours
    reports = [a for a in reader.acts if a.get("act") == "report" and a.get("kind") == "kb"
               and isinstance(a.get("result"), list) and len(a["result"]) >= 2]
    if not reports or not _PLACE.search(question) or _names_a_column(reader, question, _PLACE.search(question)):
        return None
    rows = reports[-1]["result"]
    pick = choice_index(_PLACE.search(question).group(0), len(rows))
    label = row_focus_label(rows[pick[0]]) if pick is not None else None
    return (_PLACE.search(question).group(0), label) if label else None


def _names_a_column(reader: "TurnReader", question: str, place: re.Match[str]) -> bool:
    """ "which one is the first pressing?": the place word and the word after it are a KB column's name
    (first_pressing), so they name the column, not the first row shown."""
    if place.group(0).lower().endswith(" one"):
        return False
    after = re.match(r"[\s-]+([a-z]+)", question[place.end():], re.I)
    if after is None:
        return False
    pair = (place.group(0).split()[-1].lower(), after.group(1).lower())
    for ws in reader.spec.kb_worksheets():
        for f in ws.fields:
            words = [w for w in f.name.lower().split("_") if w]
            if any((words[k], words[k + 1][:4]) == (pair[0], pair[1][:4]) for k in range(len(words) - 1)):
                return True
    return False


def _only_column_words(reader: "TurnReader", question: str) -> bool:
    """The question's words are only grammar and words of KB column names ("how many do you have in stock?",
    "what's the price?"): it asks about a column of the row in focus, and names no rows itself."""
    from ...knowledge.vocab import STOPWORDS, stem
    columns = {stem(w) for ws in reader.spec.kb_worksheets() for f in ws.fields for w in f.name.lower().split("_") if w}
    said = re.findall(r"[a-z][a-z']*", question.lower())
    words = [w for w in said if w not in STOPWORDS and len(w) > 2]

    def column(w: str) -> bool:  # "hour" of hourly_rate, "price" of price_gbp
        s = stem(w)
        return s in columns or (len(s) >= 4 and any(c.startswith(s) or s.startswith(c) for c in columns if len(c) >= 4))
    return all(column(w) or w in _ASKING_ABOUT for w in words) and any(column(w) for w in said if len(w) > 2)


_ASKING_ABOUT = frozenset("""much many long big old far often early late cost costs charge charges price prices rate
    rates per pay fee fees""".split())
"""Words that ask for a value of the row in focus ("and how much per hour"), not for other rows."""


_PRONOUN = re.compile(r"\b(?:it|its|it's|this|that|they|them|their)\b", re.I)


_PLACE = re.compile(r"\bthe\s+(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)(?:\s+one)?\b", re.I)


def focus(reader: "TurnReader") -> tuple[str, str] | None:
    """(what "it" refers to, where that came from) or None when nothing is clearly in focus."""
    for act in reversed(reader.acts):
        if act.get("act") == "report" and act.get("kind") == "kb":
            rows = act.get("result")
            if isinstance(rows, list) and len(rows) == 1 and isinstance(rows[0], dict):
                label = row_focus_label(rows[0])
                if label:
                    return label, f"the row reported by {act.get('var')}"
            break
    if reader.expect is not None:
        label = _held_row(reader, reader.expect.rec)
        if label:
            return label, f"{reader.expect.rec.var}'s row"
    kbs = reader.state.kb_records()
    if kbs:
        codes = {c.value.upper().replace(" ", "") : c.value for c in find_codes(kbs[-1].query)}
        if len(codes) == 1:
            return next(iter(codes.values())), f"the question of {kbs[-1].var}"
    for rec in reversed(reader.state.tasks()):
        label = _held_row(reader, rec)
        if label:
            return label, f"{rec.var}'s row"
    return None


def asked_code(reader: "TurnReader") -> tuple[str, str] | None:
    """(the one code, where it came from) the user's last KB question said, when the agent's last reply answered
    it ("who teaches CS 155?"): what "I'll take it" names in the user's own words."""
    kbs = reader.state.kb_records()
    reported = {a.get("var") for a in reader.acts if a.get("act") == "report" and a.get("kind") == "kb"}
    if not kbs or kbs[-1].var not in reported:
        return None
    codes = {c.value.upper().replace(" ", ""): c.value for c in find_codes(kbs[-1].query)}
    if len(codes) != 1:
        return None
    key = next(iter(codes))
    shown = [a.get("result") for a in reader.acts if a.get("act") == "report" and a.get("var") == kbs[-1].var]
    rows = shown[0] if shown and isinstance(shown[0], list) else []
    shown_codes = {c.value.upper().replace(" ", "") for row in rows if isinstance(row, dict) for v in row.values()
                   for c in find_codes(" ".join(map(str, v)) if isinstance(v, list) else str(v))}
    if shown_codes and key not in shown_codes:
        return None  # "courses by Dana Kirby other than CS 101": the row shown is another course
    return codes[key], f"the question of {kbs[-1].var}"


def _held_row(reader: "TurnReader", rec: TaskRecord) -> str | None:
    for value in rec.values.values():
        if isinstance(value, dict) and ref_target(value) is None:
            label = row_focus_label(value)
            if label:
                return label
    return None


def decontextualise(reader: "TurnReader", question: str) -> str:
    """Replace "it", "its", "this course" with the thing in focus, so the question stands alone."""
    pointed = _pointed_row(reader, question)
    if pointed is not None:  # "does the first one have a patio?": the first row the user was shown, by name
        words, label = pointed
        reader.note("focus", label, reason=f"'{words}' points at a row of the last search")
        return question.replace(words, label, 1)
    found = focus(reader)
    if found is None:
        return question
    label, source = found
    if label.lower() in question.lower():
        return question
    if reader.ctx.kb is not None and _PRONOUN.search(question):
        from .kb_rows.change import named_row  # late: the row rules import this module
        other = named_row(reader, question)
        if other is not None and other.lower() != label.lower():
            # "what about rosemary, is it hardy?": "it" is the row the question names, not the one before
            reader.note("focus", other, reason="the question names another row; the pronoun is that row")
            return question
    out = _replace_pointing(question, label)
    if out == question:
        out = _POSSESSIVE.sub(f"{label}'s", question, count=1)
    if out == question:
        out = _SUBJECT.sub(label, question, count=1)
    if out == question:  # "does that work for city bikes?": "that" as the subject of the question
        out = _THAT_SUBJECT.sub(lambda m: f"{m.group(1)} {label}", question, count=1)
    if out == question:
        out = _THERE.sub(f"at {label}", question, count=1)  # "what's good to order there?"
    if out == question and _only_column_words(reader, question):
        out = f"{label}: {question}"  # "how many do you have in stock?": of the row in focus
    if out != question:
        reader.note("focus", label, reason=f"the pronoun refers to {source}")
    return out


_OF_THOSE = re.compile(r"\b(?:any|some|which|one|all|each)?\s*(?:of|among(?:st)?)\s+(?:those|them|these)\b|"
                       r"^\W*(?:and\s+|so\s+)?which\s+ones?(?:'s|\s+is|\s+are|\s+has|\s+have)?\b", re.I)


_WHICH_MORE = re.compile(r"^\W*(?:(?:and|so|ok|okay|hmm|then)[,\s]+)*which(?:\s+one)?\s+(?:is|are|'s|would\s+be)\s+"
                         r"(?:the\s+)?(more\s+[a-z]+|less\s+[a-z]+|better|worse|[a-z]{3,}er)"
                         r"\W*(?:(?:of\s+(?:the\s+two|them|those|these)|than\s+the\s+others?)\W*)?$", re.I)
_IRREGULAR = {"better": "best", "worse": "worst"}
_WHICH_ONE = re.compile(r"^\W*(?:(?:and|so|ok|okay|hmm|then)[,\s]+)*which\s+one(?:'s|\s+is|\s+has)\b", re.I)
_RANKING = re.compile(r"\b(?:better|worse|best|worst|most|fewest|least|highest|lowest|[a-z]{3,}est)\b", re.I)
"""A question for one row of several shown ("which one has better reviews"): the knowledge parser is asked for
the one row that ranks first, not a ranking of all of them."""


def _superlative(comparative: str) -> str:
    """cheaper -> cheapest, better -> best, more expensive -> most expensive."""
    low = comparative.lower()
    if low.startswith(("more ", "less ")):
        return ("most " if low.startswith("more") else "least ") + low.split(None, 1)[1]
    return _IRREGULAR.get(low, low[:-2] + "est")


def narrow_previous(reader: "TurnReader", text: str) -> str:
    """ "which of those are in Fairview?": the rows of the last search, narrowed; the question becomes that
    search's words and the new ones, so the knowledge parser keeps every condition. "which is cheaper?" over
    several rows shown asks for the cheapest of them."""
    kbs = reader.state.kb_records()
    more = _WHICH_MORE.match(text)
    if more is not None and kbs and isinstance(kbs[-1].result, list) and len(kbs[-1].result) >= 2:
        previous = kbs[-1].query.strip().rstrip("?.!")
        reader.note("focus", more.group(0).strip(), reason=f"the {_superlative(more.group(1))} of the rows of "
                                                           f"{kbs[-1].var}: {previous!r}")
        return f"{_superlative(more.group(1))} {previous}"
    m = _OF_THOSE.search(text)
    if m is None or not kbs or not isinstance(kbs[-1].result, list) or len(kbs[-1].result) < 2:
        return text
    rest = (text[:m.start()] + " " + text[m.end():]).strip()
    previous = kbs[-1].query.strip().rstrip("?.!")
    reader.note("focus", m.group(0), reason=f"narrows the rows of {kbs[-1].var}: {previous!r}")
    if _WHICH_ONE.match(text) and _RANKING.search(rest):
        return f"which one of {previous} has {rest}"  # "which one has better reviews": one row asked for
    return f"{previous}, {rest}"

