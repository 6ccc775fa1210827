"""Which field a value belongs to: the state as the offline parser sees it, and slot mentions.

`StateView` answers questions about the previous state without running the
engine (which records are live, which fields a predicate lets the agent ask),
and `find_mentions` finds typed values in an utterance together with the field
they fit: "7 people" fits `number_of_people`, "1 pm" the only `time` field,
"my pin ... 0314" the field named `pin`.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field as dc_field, replace
from functools import lru_cache
from typing import Any, Callable, Iterator

from ....errors import KnowledgeError
from ....spec.model import Field, Spec, Worksheet, parse_type, past_field  # noqa: F401 - past_field: read here too
from ....dialogue.state import DialogueState, KBRecord, TaskRecord, ref_target
from ....spec.values import is_empty
from .nothing_more import nothing_more
from .option_cues import option_cues
from .bool_mentions import bool_mentions
from ..words.measures.durations import converted_duration, field_unit, worded_duration
from ..words.measures.counts import couple_plus_span, head_count, joined_span, me_plus_span, party_span, people_sum_span
from ..words.negation import without_negated, without_unable
from ..words.match import (Bag, Lookup, Unknown, capital_initialism, field_mention, field_stems, holds, initialism_enum,
                           stem)
from ..kb_rows.items import field_row_names
from ..words.countries import countries_for, is_country_field
from ..parts.addresses import addresses_with_postcodes, is_address_field, is_postcode_field, whole_addresses
from ..parts.colours import describes_brand, find_colours, is_colour_field
from .places import place_preposition, place_spans
from ..words.libvalues import find_phones, is_phone_field
from ..words.measures.money import is_money, money_fields, with_minor_units
from ..words.value_labels import label_kind, label_of
from ..words.measures.dimensions import measure_of, measures, size_spans
from ..words.values import (TITLE, Span, find_codes, find_dates, find_digit_strings, find_emails, find_numbers, find_postcodes,
                             find_times, free, normalise)

_SOME_OF_US = re.compile(r"\s+of\s+(?:us|them|you|(?:the|my|our|his|her|their)\s+\w+)\s+(?:is|are|was|were|uses?|has|have|needs?|can'?t|cannot|"
                         r"will|won'?t|would|don'?t|doesn'?t|isn'?t|aren'?t|gets?|eats?|wants?|prefers?|might|may|must|"
                         r"likes?|hates?|wears?|brings?|takes?|does|do|'s|'re|'ll)\b", re.I)
"""A number that says some of the party ("one of us is gluten free"): what they need, not how many come."""


def some_of(text: str, end: int) -> bool:
    """Whether the number ending at `end` says some of a group ("one of the lads wears ..."), not a count."""
    return _SOME_OF_US.match(text, end) is not None
_KB_MARK = object()  # a field that points at a KB query: not None, not a value


class StateView:
    """Read-only questions about the previous state, answered from spec data."""

    def __init__(self, spec: Spec, state: DialogueState) -> None:
        self.spec = spec
        self.state = state
        self._live: list[TaskRecord] | None = None
        self._index: Any = None
        self.memo: dict[str, Any] = {}
        """Values a rule derives from the spec once per turn (the spec's name words for `parts/given_name.py`)."""
        self.pending: dict[str, dict[str, Any]] = {}
        """Values this turn has assigned so far, per record variable: a field behind a predicate on one of them is
        live (or dead) as the turn leaves it ("a flat, 2nd floor": the floor of a flat is asked once it is a flat)."""
        self.by_meaning: dict[tuple[str, str], bool] = {}
        """Yes/no values read by meaning this turn (`bool_meaning.py`), per (record variable, field): a rule that reads
        the same field from the words themselves wins over them."""

    def worksheet(self, rec: TaskRecord) -> Worksheet:
        return self.spec.require_worksheet(rec.worksheet)

    def lookup(self, rec: TaskRecord | None, overlay: dict[str, dict[str, Any]] | None = None,
               scope: list[tuple[dict[str, Any], Worksheet]] | None = None) -> Lookup:
        """Name resolution for predicates: self, the record and its ancestors, record variables, any field.

        `overlay` holds hypothetical values per record variable; `scope` hypothetical
        records that do not exist yet (innermost first), searched before `rec`.
        """
        overlay = overlay or {}

        def values(r: TaskRecord) -> dict[str, Any]:
            return {**r.values, **overlay.get(r.var, {})}

        def deref(value: Any) -> Any:
            target = ref_target(value)
            if target is None:
                return value
            r = self.state.get(target)
            return values(r) if isinstance(r, TaskRecord) else _KB_MARK

        chain = list(scope or [])
        if rec is not None:
            chain += [(values(r), self.worksheet(r)) for r in [rec, *self.state.ancestors(rec)]]

        def walk(obj: Any, rest: tuple[str, ...]) -> Any:
            for name in rest:
                obj = deref(obj)
                if not isinstance(obj, dict):
                    raise Unknown(name)
                obj = obj.get(name)
            return deref(obj)

        def resolve(path: tuple[str, ...]) -> Any:
            head, rest = path[0], path[1:]
            if head == "self" and chain:
                return walk(chain[0][0], rest)
            for scope_values, ws in chain:
                if head in scope_values or ws.field(head) is not None:
                    return walk(scope_values.get(head), rest)
            named = self.state.get(head)
            if isinstance(named, TaskRecord):
                return walk(values(named), rest)
            for r in self.state.tasks():
                if r.status != "abandoned" and self.worksheet(r).field(head) is not None:
                    return walk(values(r).get(head), rest)
            raise Unknown(head)

        return resolve

    def record_live(self, rec: TaskRecord) -> bool:
        if rec.status != "active":
            return False
        for r in [rec, *self.state.ancestors(rec)]:  # a part of a completed or abandoned task is not live
            if r.status != "active" or holds(self.worksheet(r).predicate, self.lookup(r)) is False:
                return False
            if r.parent and r.parent_field:
                parent = self.state.get(r.parent)
                if isinstance(parent, TaskRecord):
                    pf = self.worksheet(parent).field(r.parent_field)
                    if pf is not None and holds(pf.predicate, self.lookup(parent)) is False:
                        return False
        return True

    def field_live(self, rec: TaskRecord, f: Field) -> bool:
        return holds(f.predicate, self.lookup(rec, overlay=self.pending)) is not False

    def index(self) -> Any:
        """The spec's semantic index, looked up once per turn (the lookup hashes every text of the spec)."""
        if self._index is None:
            from ..words.semantic_index import index_for  # late: most turns never need it
            self._index = index_for(self.spec)
        return self._index

    def live_records(self) -> list[TaskRecord]:
        """Active records whose worksheet (and parent field) predicates hold; computed once per turn."""
        if self._live is None:
            self._live = [r for r in self.state.tasks() if self.record_live(r)]
        return list(self._live)

    def input_fields(self, rec: TaskRecord, *, include_dont_ask: bool = False) -> list[Field]:
        return [f for f in self.worksheet(rec).fields if f.kind == "input"
                and (include_dont_ask or not f.dont_ask) and self.field_live(rec, f)]

    def unfilled(self, rec: TaskRecord, f: Field) -> bool:
        return is_empty(rec.values.get(f.name))

    def kb_record(self, var: str) -> KBRecord | None:
        r = self.state.get(var)
        return r if isinstance(r, KBRecord) else None

    def kind_of(self, f: Field) -> str:
        """primitive base type, 'task', 'row' (a type/kb worksheet) or 'list'."""
        ref = parse_type(f.type)
        if ref.is_list:
            return "list"
        if ref.is_primitive:
            return ref.base
        ws = self.spec.worksheet(ref.base)
        return "task" if ws is not None and ws.kind == "task" else "row"


# ---------------------------------------------------------------- field shapes

_PERSON_WORDS = {"full", "first", "last", "given", "family", "middle", "sur", "nick", "legal", "preferred", "my",
                 "your", "student", "customer", "patient", "user", "client", "person", "contact", "owner", "holder",
                 "account", "guest", "passenger", "employee", "member", "applicant", "caller", "requester",
                 "driver", "learner", "donor", "sender", "swimmer", "pupil", "attendee", "visitor",
                 "tenant", "buyer", "parent", "child", "organiser", "organizer", "lead", "booker", "resident",
                 "traveller", "traveler", "rider", "player", "participant", "candidate"}
"""Words of a `*_name` field that say it is a person's name (anything else names a thing)."""
_PERSON_NAME_DESC = re.compile(r"\b(?:full|first|last|given|family|legal|maiden)\s+names?\b|\bsurnames?\b|"
                               r"^\s*your\s+(?:own\s+)?name\b|^\s*(?:who|whom)\b", re.I)
"""A description that speaks of a person's name (things have names, only people have full or first names, and
"Your name" or "Who the voucher is for" speak of a person)."""
_WHOSE_NAME = re.compile(r"\s*(?:the\s+|your\s+)?(?:full\s+name\s+of\s+(?:the|your)\b|name\s+of\s+the\s+person\b|"
                         r"name\s+(?:the|your)\s+\w+\s+(?:is|should\s+be|will\s+be)\s+(?:under|in)\b)", re.I)
"""A description that says whose name the field holds, whatever the field's name: "Full name of the lead passenger",
"The name the booking is under"."""
NAME_UNDER = re.compile(r"\bname\s+(?:the|your|this|that)\s+\w+\s+is\s+(?:under|in|booked\s+under)\b", re.I)
"""Said anywhere in a description, the name a booking or a tenancy is under: the speaker's own, as a rule."""
_EMAIL_WORDS = {"email", "mail", "e-mail"}
_CODE_WORDS = {"id", "number", "num", "account", "pin", "code", "phone", "zip", "ssn", "routing", "postcode", "reference", "ref"}
_TEXT_WORDS = {"details", "detail", "description", "describe", "notes", "note", "request", "comment",
               "comments", "reason", "explain", "explanation", "happened", "message", "summary"}
_DATE_WORDS = {"date", "birth", "dob", "birthday", "when"}


def shape(f: Field) -> str:
    """How a str field's answers look: email, code, name, date, text (free prose) or short."""
    name_words = set(f.name.lower().split("_"))
    desc_words = set(re.findall(r"[a-z-]+", f.description.lower()))
    if f.free_text:
        return "text"  # the spec marks the field as free text (the paper's `free_text` kind): prose, whatever its name
    if name_words & _EMAIL_WORDS:
        return "email"
    if name_words & _CODE_WORDS == {"account"} and (_PERSON_NAME_DESC.search(f.description)
                                                    or re.search(r"'s\s+(?:full\s+)?name\b", f.description)):
        return "name"  # account_holder, "The account holder's full name": a person, though "account" numbers things
    if name_words & _CODE_WORDS:
        return "code"  # before the description: "The order number from the confirmation email" is a number
    if "name" in name_words and name_words - {"name"} <= _PERSON_WORDS:  # full_name yes, product_name no
        return "name"
    if name_words & _ONE_WORD_NAMES:  # "surname": "its under Okafor" is Okafor
        return "name"
    if "name" in name_words and _PERSON_NAME_DESC.search(f.description):
        return "name"  # driver_name, "The main driver's full name": a person's name by the description's words
    if _WHOSE_NAME.match(f.description):
        return "name"  # lead_passenger "Full name of the lead passenger", "The name the booking is under"
    if name_words & _DATE_WORDS:
        return "date"
    if desc_words & {"email", "e-mail"}:
        return "email"
    if name_words & _TEXT_WORDS or desc_words & _TEXT_WORDS:
        return "text"
    return "short"


_ONE_WORD_NAMES = frozenset({"surname", "forename", "forenames", "firstname", "lastname", "fullname", "lastnames"})
"""Field names that are a person's name in one word."""
_WE_WILL_BE = re.compile(r"\b(?:there'?ll\s+be|there\s+will\s+be|there'?s\s+going\s+to\s+be|we'?ll\s+be|"
                         r"we\s+will\s+be|we'?re|we\s+are)\s+(?:now\s+|just\s+|only\s+|actually\s+)?$", re.I)
"""A number said as how many will come ("there'll be 4 now", "we'll be 5"): a count of people."""
_PEOPLE_AFTER = frozenset({"now", "then", "of", "us", "people", "persons", "guests", "adults", "total", "altogether",
                           "in", "including", "with", "instead", "actually", "please", "thanks"})
"""What may follow the number of "there'll be 6 now": nothing, or words that say no unit ("6 minutes" is no head count)."""

PEOPLE_WORDS = {"people", "guest", "person", "party", "size", "diner", "seat", "passenger", "traveller", "traveler",
                "attendee", "visitor", "player", "participant", "delegate"}
UNIT_SHORT = {"hr": "hours", "hrs": "hours", "h": "hours", "min": "minutes", "mins": "minutes", "wk": "weeks",
               "wks": "weeks", "yr": "years", "yrs": "years", "pcs": "pieces", "qty": "quantity"}
"""Units typed short after a number, read as the words a field's name uses."""
UNIT_LINKS = frozenset({"for", "til", "till", "until", "at", "from", "on"})
"""Words after a number that lead to the next value ("from 2 for 3 hrs"): the unit after them is not this number's
("2 to 3 hours" is read as a range elsewhere; the answer to a question adds "to", `words/answers.py`)."""
_PEOPLE_UNITS = {"ppl", "pax", "people", "persons", "adults", "adult", "guests", "heads", "kids", "children",
                 "passengers", "travellers", "players"}
"""Words after a number that count people, for a field that counts them ("4 ppl")."""


# ---------------------------------------------------------------- mentions

ADDRESSEE = re.compile(r"\b(?:recipient|addressee|deliver(?:ed|y)?\s+to|sent\s+to|send\s+to|addressed|receiving|"
                        r"(?:guest|person)\s+of\s+honou?r|print(?:ed)?|engrav(?:e|ed)|written\s+on|"
                        r"on\s+the\s+(?:card|voucher|certificate|label|cake|plaque))\b", re.I)
"""A name field for whom something is sent or addressed, or who is honoured: the name is written as it will be on the
card, the label or the table, title and all. Any other person's name (the caller's, a patient's, a hirer's) is kept without the title, as the
blind writers kept it in 37 of the 41 such turns."""

@dataclass
class Mention:
    """A typed value in the utterance and the field it fits."""

    rec: TaskRecord
    field: Field
    value: Any
    matched: str
    how: str
    span: Span | None = None
    extra: dict[str, Any] = dc_field(default_factory=dict)


_TIME_UNIT = re.compile(r"(hour|day|night|week|fortnight|month|year)s?")


def counts_people(f: Field, *, by_name: bool = False) -> bool:
    """Whether an int field counts people (applicants, guests, passengers, ...), by its name or description (by its
    name alone with `by_name`); a description that says they are coming counts people too ("How many climbers are
    coming": things do not come)."""
    if {"age", "ages", "youngest", "oldest"} & set(f.name.lower().split("_")):
        return False  # `youngest_rider_age`: a rider's age, not how many ride
    return bool(field_stems(f, with_description=not by_name) & ({stem(w) for w in PEOPLE_WORDS}
                                                                 | {stem(w) for w in _PEOPLE_PLACES})) \
        or (not by_name and _COMING.search(f.description or "") is not None)


_COMING = re.compile(r"^\s*how\s+many\s+\w+\s+(?:are|will\s+be)\s+(?:coming|attending|joining|taking\s+part)\b", re.I)


_PEOPLE_PLACES = ("tickets", "seats", "places", "performers", "participants", "attendees", "applicants", "riders")
"""Counts of one per person: "just her" to "how many tickets?" is one."""


def _short_for(after: list[str], f: Field, rest: str = "") -> bool:
    """The word after a number is the head of a compound the field's name is: "3 bed" for `bedrooms`,
    "2 bath" for `bathrooms` (three letters at least, a whole first part of the name word)."""
    if not after or len(after[0]) < 3 or not after[0].isalpha():
        return False
    word = after[0].lower()
    nxt = re.match(r"\s*[A-Za-z]+\s*(?P<n>[A-Za-z]+)?", rest)
    if nxt and nxt.group("n") and nxt.group("n").lower() not in _AFTER_COMPOUND:
        return False  # "2 bath mats", "3 bed sheets": the word is part of another noun
    return any(len(n) > len(word) + 2 and n.startswith(word) and n[len(word):] in _COMPOUND_TAILS
               for n in (w.lower() for w in f.name.split("_")))


_AFTER_COMPOUND = frozenset("""and house flat semi home property apartment bungalow cottage townhouse detached terrace
terraced maisonette place one unit with please so but or the a it its this that in on at for""".split())
"""Words that may follow "3 bed" in a count of rooms ("a 3 bed 2 bath house", "3 bed, 2 bath")."""


_COMPOUND_TAILS = frozenset({"room", "rooms", "s", "es", "space", "spaces", "place", "places"})


def _by_whose(text: str, span: Span, fits: list[tuple[TaskRecord, Field]]) -> list[tuple[TaskRecord, Field]]:
    """Of two fields of one kind, one the user's own (`buyer_email`, "Your own email address") and one another
    person's (`recipient_email`): the one whose the value's clause says it is ("her email is ...", "mine is ...")."""
    start = max([text.rfind(c, 0, span.start) for c in ",.;!?"] + [text.lower().rfind(" and ", 0, span.start), 0])
    clause = text[start:span.start].lower()
    if _OTHERS.search(clause):
        whose = False
    elif _MINE.search(clause):
        whose = True
    else:
        return []
    return [c for c in fits if own_field(c[1]) == whose]


_OTHERS = re.compile(r"\b(?:her|his|their|hers|theirs)\b|\b(?:mum|mom|dad|mother|father|wife|husband|partner|son|daughter|"
                     r"friend|sister|brother|boss|tenant|gran|grandma|grandad|nan|aunt|uncle|colleague|client)'s\b")
_MINE = re.compile(r"\b(?:my|mine|me|i'?m|i\s+am)\b")


def own_field(f: Field) -> bool:
    """Whether a field holds the user's own details ("Your own email address", `customer_phone`)."""
    name = set(f.name.lower().split("_"))
    return bool(name & {"own", "my", "your", "customer", "buyer", "contact", "booker", "caller", "client"}
                or re.search(r"\b(?:your|yours|you)\b", f.description.lower()))


def _counts_in(f: Field, said: str) -> bool:
    """Whether a number said with the unit `said` ("six weeks") can be the value of `f`: a field counting no unit of
    time takes it as said, one counting another unit only when it converts to a whole number of that unit."""
    unit = field_unit(f.name, f.description)
    if unit is None or unit == said or {unit, said} == {"day", "night"}:
        return True
    return converted_duration(f"1 {said}", unit) is not None


_NEW_FIELD = re.compile(r"(?:new|preferred|changed)_", re.I)
_FROM_BEFORE = re.compile(r"\b(?:move|moving|change|changing|switch|swap|shift|reschedule|push|bring)\s+(?:[\w']+\s+){0,3}?"
                          r"from\s+(?:the\s+|this\s+|next\s+|on\s+)?$", re.I)
_TO_BEFORE = re.compile(r"\b(?:to|till|until)\s+(?:the\s+|this\s+|next\s+|on\s+)?$", re.I)
"""A change of day said "move my lesson from saturday to sunday": for a field of the new day, the day after "to"
(not "we now need him boarded from friday to sunday", a new range)."""
_WANTED_AFTER = re.compile(r"\s*(?:instead|then|please|pls)\b", re.I)
"""After a date, words that make it the day wanted ("so my appointment is on Friday instead")."""
_HELD_DATE = re.compile(r"\b(?:(?:my|our|the|an?)\s+(?:appointment|booking|reservation|slot|lesson|visit|session|class)"
                        r"(?:\s+(?:is|was)|'s)?|"
                        r"(?:booked|scheduled|down)\s+(?:in\s+)?|currently|originally)\s+(?:(?:on|for)\s+)?(?:the\s+)?$", re.I)
"""How the day already booked is said ("my appointment is on", "booked for"): not the value of a field for the new day."""


def words_after(text: str, end: int, n: int = 3) -> list[str]:
    """The words after a value ending at `end`, up to the end of its sentence ("for 4 nights. Boat is Puffin": not
    "boat") and not past a comma before another number ("lagoon 40, 12.2 metres")."""
    rest = re.split(r"[.!?;](?:\s|$)|,\s*(?=[^a-z]*\d)", text[end:].lower(), maxsplit=1)[0]
    return re.findall(r"[a-z]+", rest)[:n]


def _after_words(text: str, span: Span, n: int = 3) -> list[str]:
    return words_after(text, span.end, n)


def _before_words(text: str, span: Span, n: int = 3) -> list[str]:
    return re.findall(r"[a-z]+", re.split(r"[.!?;]\s", text[: span.start].lower())[-1])[-n:]


_NOT_A_START = re.compile(r"\b(?:until|till|til|back|return\w*|finish\w*|by|before|since|after|fallback|backup|lands?|"
                          r"starts?|show|test|birthday|ago|last|was|were|had|hurt|broke|happened|sent|another|also|"
                          r"second|instead|rather|if|or|incident|accident|funeral|discharged|died|i'?m\s+\d+|"
                          r"turns?\s+\d+)\b", re.I)
"""Words of a clause whose date is no first day: an end, a return, a deadline, a fallback or a past event."""


def find_mentions(text: str, candidates: list[tuple[TaskRecord, Field]], view: StateView, today: dt.date,
                  *, prefer: TaskRecord | None = None) -> list[Mention]:
    """Typed values in `text` with the candidate field each fits; one value per field, one field per value.

    Rejected phrases ("not 7 people") and what the user cannot make ("I can't do thursday") hold no values.
    """
    said = normalise(text)
    text = without_unable(without_negated(said))  # "not 7 people", "I can't do thursday": values not wanted
    bag = Bag.of(text)
    taken: list[Span] = []
    out: list[Mention] = []
    used: set[tuple[str, str]] = set()

    def first_required_date(pool: list[tuple[TaskRecord, Field]], span: Span) -> bool:
        """The one required field of several a date fits is the record's first date field, all of them empty, and
        the value's clause says nothing of an end, a return, a deadline or the past ("back on monday", "till
        friday", "my test is on the 30th", "hurt his arm on saturday")."""
        required = [c for c in pool if c[1].required]
        if len({c[1].name for c in required}) != 1 or any(c[0].values.get(c[1].name) is not None for c in pool):
            return False
        rec, f = required[0]
        if view.kind_of(f) != "date":
            return False
        order = [g.name for g in view.input_fields(rec) if view.kind_of(g) == "date"]
        if not order or order[0] != f.name:
            return False
        start = max([text.rfind(c, 0, span.start) for c in ",.;!?"] + [-1]) + 1
        ends = [text.find(c, span.end) for c in ",.;!?" if text.find(c, span.end) >= 0]
        clause = text[start:min(ends, default=len(text))]
        from ..intents import is_question  # late: intents imports the word readers
        return not is_question(clause) and not _NOT_A_START.search(clause)

    def pick(fits: list[tuple[TaskRecord, Field]], span: Span | None = None) -> tuple[TaskRecord, Field] | None:
        fits = [c for c in fits if (c[0].var, c[1].name) not in used]
        if not fits:
            return None
        named = [c for c in fits if field_mention(c[1], bag)[0] > 0]
        pool = named or fits
        if len({c[1].name for c in pool}) > 1 and named:
            best = max(field_mention(c[1], bag)[0] for c in named)
            pool = [c for c in named if field_mention(c[1], bag)[0] == best]
        if len({c[1].name for c in pool}) > 1 and not named and span is not None and first_required_date(pool, span):
            pool = [c for c in pool if c[1].required]  # "won't be in on friday": the first day away, not the
            # optional day back, when no words name either
        if len({c[1].name for c in pool}) > 1:
            return None
        mine = [c for c in pool if prefer is not None and c[0].var == prefer.var]
        return (mine or pool)[-1] if len(pool) > 1 else pool[0]

    def local(span: Span, fits: list[tuple[TaskRecord, Field]]) -> tuple[TaskRecord, Field] | None:
        """The one field the value's own clause names ("collected on the Friday": the collection date)."""
        start = max([text.rfind(c, 0, span.start) for c in ",.;!?"] + [0])
        near = Bag.of(text[start:span.end])
        named = [c for c in fits if (c[0].var, c[1].name) not in used and field_mention(c[1], near)[0] > 0]
        return named[0] if len({c[1].name for c in named}) == 1 else None

    def add(spans: list[Span], fits: list[tuple[TaskRecord, Field]], how: str, convert=lambda s: s.value) -> None:
        todo = free(spans, taken)
        if len(todo) > 1 and len(fits) > 1:  # two dates for two date fields: each by the words of its own clause
            placed = {id(span): local(span, fits) for span in todo}
            claimed = {(c[0].var, c[1].name) for c in placed.values() if c is not None}
            if claimed:
                for span in todo:
                    target = placed[id(span)] or pick([c for c in fits if (c[0].var, c[1].name) not in claimed])
                    if target is None or (target[0].var, target[1].name) in used:
                        continue
                    out.append(Mention(target[0], target[1], convert(span), span.text, how, span))
                    used.add((target[0].var, target[1].name))
                    taken.append(span)
                return
        for span in todo:
            target = pick(fits, span) or pick(_by_whose(text, span, fits))
            if target is None:
                return
            out.append(Mention(target[0], target[1], convert(span), span.text, how, span))
            used.add((target[0].var, target[1].name))
            taken.append(span)

    kinds = {(r.var, f.name): view.kind_of(f) for r, f in candidates}
    of_kind = lambda *ks: [(r, f) for r, f in candidates if kinds[(r.var, f.name)] in ks]  # noqa: E731
    strs = [(r, f) for r, f in candidates if kinds[(r.var, f.name)] == "str"]

    sized = of_kind("int", "float")
    for rec, f, value, span in measures(text, sized, {f.name: kinds[(r.var, f.name)] for r, f in sized}):
        out.append(Mention(rec, f, value, span.text, "measure", span))  # "92cm wide by 140 drop"
        used.add((rec.var, f.name))
        taken.append(span)
    if any(measure_of(f) for _r, f in sized):
        taken.extend(size_spans(text))  # "a statue 2 foot wide": a size, whoever's, is no count

    add(find_emails(text), [c for c in strs if shape(c[1]) == "email"], "email")
    phones = [c for c in strs if is_phone_field(c[1])]
    if phones:
        add(find_phones(text), phones, "phone")  # as typed: "(555) 880-1200"
        strs = [c for c in strs if c not in phones]
    whole = [c for c in strs if is_postcode_field(c[1]) and is_address_field(c[1])
             and not set(c[1].name.lower().split("_")) & {"postcode", "zip", "zipcode", "postal"}]  # "postcode":
    # "The postcode of the collection address" is the code alone
    if whole:  # "7 Kiln Lane HX2 9PL" for "Your home address, with the postcode": the street and its postcode, one value
        add(addresses_with_postcodes(text), whole, "address")
    postcodes = [c for c in strs if is_postcode_field(c[1])]
    if postcodes:  # "18 Hollins Lane, SK4 2LW": the postcode for its own field, beside the street
        add(find_postcodes(text), postcodes, "postcode")
        strs = [c for c in strs if c not in postcodes]
    nations = [c for c in strs if is_country_field(c[1]) and not is_address_field(c[1])]
    for nation in nations:  # "an apostille for a bank in Germany": the country the documents are for
        add(countries_for(text, nation[1])[:1], [nation], "country")
    places = [c for c in strs if is_address_field(c[1])]
    if places:
        add(whole_addresses(text, with_code=not postcodes), places, "address")  # "301 Cedar Boulevard" beside the
        # name asked; "Flat 3, 27 Cavendish Rd, Bristol BS6 7RL" whole
    tints = [c for c in strs if is_colour_field(c[1])]
    if tints:
        add(find_colours(text, with_brand=all(describes_brand(f) for _r, f in tints)), tints,
            "colour")  # "black Ford Focus": the colour beside the model; "a green Osprey rucksack": colour and brand
    kin = [c for c in strs if "relation" in c[1].name.lower()]
    if kin:  # "I'm his daughter, Karen Doyle": how the speaker is related, beside the name
        from .gated_record import kin_spans  # late: gated_record imports this module
        add(kin_spans(text), kin, "kin")
    for word in sorted({w for _r, f in strs if shape(f) == "short" and (w := place_preposition(f))}):
        add(place_spans(text, word), [c for c in strs if shape(c[1]) == "short" and place_preposition(c[1]) == word],
            "place")  # "BW 417 from lisbon": "The city or airport you flew in from"
    past = bool(of_kind("date")) and all(past_field(f) for _r, f in of_kind("date"))  # "the day it was read"
    dates, times = find_dates(text, today, past=past), find_times(text)
    coming = [f for _r, f in of_kind("date") if not past_field(f)]
    if coming and all(_NEW_FIELD.match(f.name) for f in coming):
        moved = [d for d in dates if _FROM_BEFORE.search(text[:d.start]) and any(
            e.start > d.end and _TO_BEFORE.search(text[:e.start]) for e in dates)]  # "from saturday to sunday"
        dates = [d for d in dates if d not in moved and (not _HELD_DATE.search(text[:d.start])
                                                         or _WANTED_AFTER.match(text, d.end))]
        # "my appt is on tuesday but I can't make
        # it": the day booked now, not the new day asked for
    ahead = [c for c in of_kind("date") if not past_field(c[1])]
    behind = [c for c in of_kind("date") if past_field(c[1])]
    if ahead and behind:  # "can it be the tuesday instead" beside a date of birth: a day to come is not a past date
        told_past = {(d.start, d.end): d for d in find_dates(text, today, past=True)
                     if _PAST_CUE.search(re.split(r"[,.;!?]", text[:d.start])[-1])}
        # "yes, last booster was 20th November": a day told in the past tense is the last such day, for a past field
        add([d for d in dates if isinstance(d.value, str) and d.value > today.isoformat()
             and (d.start, d.end) not in told_past], ahead, "date")
        add([told_past.get((d.start, d.end), d) for d in dates if isinstance(d.value, str) and (
            d.value < today.isoformat() or (d.start, d.end) in told_past)], behind, "date")
    add(dates, ahead if ahead and behind else of_kind("date"), "date")  # "from the 10th to the 12th": no day
    # to come for a past field
    add(dates, [c for c in strs if shape(c[1]) == "date" and field_mention(c[1], bag)[0] > 0], "date",
        lambda s: s.value)
    add(times, of_kind("time"), "time")
    from ..words.answers import asks_when, when_spans  # late: answers imports this module
    whens = [c for c in strs if asks_when(c[1])]
    if whens:  # "my AP scores were sent in June": the part that says when, for the one field asking when
        add(when_spans(text), whens, "when")
    taken.extend(dates + times + find_codes(text))
    group = people_sum_span(text, free(find_numbers(text), taken)) or party_span(text) or \
        couple_plus_span(text, free(find_numbers(text), taken)) or joined_span(text) or me_plus_span(text)  # "my wife and I plus our 3 kids"
    crowd = [(r, f) for r, f in of_kind("int") if field_stems(f) & {stem(w) for w in PEOPLE_WORDS}
             or _COMING.search(f.description or "")]
    crowd = [c for c in crowd if counts_people(c[1], by_name=True)] or crowd  # "the youngest person's age" counts none
    crowd = [c for c in crowd if not _SERVES.search(c[1].description)]  # nor do trays that each feed ten people
    if group and len(crowd) == 1:  # "for 2 adults and 2 kids": one party of 4
        out.append(Mention(crowd[0][0], crowd[0][1], group[0], text[group[1]:group[2]], "people summed",
                           Span(group[0], group[1], group[2], text[group[1]:group[2]])))  # its words are spent
        used.add((crowd[0][0].var, crowd[0][1].name))
        taken.append(Span(group[0], group[1], group[2], text[group[1]:group[2]]))
    spent_upto = -1
    for span in free(find_numbers(text), taken):
        if span.start < spent_upto:
            continue  # the pence of "ninety two pounds forty"
        if re.fullmatch(r"0\d{6,}", span.text):
            continue  # "07788990": a long identifier written with its leading zero (a meter may show "04512")
        if re.search(r"(?<![\w-])(?=[A-Z0-9]*[A-Z])[A-Z][A-Z0-9]{1,2}\s$", text[:span.start]) and len(span.text) >= 3:
            continue  # "flight U2 2206", "BA 117": the number of a code whose letters come first, not a count
        if _SOME_OF_US.match(text, span.end):
            continue  # "one of us uses a wheelchair", "3 of us are gluten free": some of the party, not its size
        after = _after_words(text, span, 2)
        increment = bool(after) and after[0] in _INCREMENT
        near = {stem(UNIT_SHORT.get(w, w)) for w in after}  # "3 hrs": hours
        if after and after[0] in UNIT_LINKS:
            near = set()  # "from 6 for 3 hrs": the unit after "for" is the next number's, not this one's
        fits = [(r, f) for r, f in of_kind("int", "float") if near & field_stems(f) or _short_for(after, f, text[span.end:])]
        if fits and is_money(text, span.start, span.end):  # "£40 an hour": a rate, not 40 hours
            fits = [c for c in fits if c in money_fields(fits)]
        if after and after[0] in _PEOPLE_UNITS:  # "for 40 people": not the trays whose description says each serves ten
            fits = [(r, f) for r, f in fits if not _SERVES.search(f.description)]
        if after and after[0] in _PEOPLE_UNITS and not {stem(after[0])} & {s for _r, f in fits for s in field_stems(f)}:
            fits = []  # "3 adults 4 suitcases": the word right after the number counts people, not the suitcases
        if len(fits) > 1 and after:  # "10 days, driver ...": the unit right after the number decides
            fits = [(r, f) for r, f in fits if stem(after[0]) in field_stems(f)] or fits
        before = _before_words(text, span, 2)
        if not fits and after and after[0] in _PEOPLE_UNITS:  # "4 ppl": a count of people
            fits = [(r, f) for r, f in of_kind("int") if field_stems(f) & {stem(w) for w in PEOPLE_WORDS}
                    and not _SERVES.search(f.description)]
        if not fits and before:  # "age 29": a field's own name word labels the number before it
            fits = [(r, f) for r, f in of_kind("int", "float")
                    if stem(before[-1]) in field_stems(f, with_description=False)]
        if not fits and after and after[0] in ("total", "altogether"):  # "so 8 total": the field the turn names
            fits = [(r, f) for r, f in of_kind("int", "float") if field_mention(f, bag)[0] > 0]
        child = not fits and bool(_CHILD_AGE_SAID.search(text[:span.start]))
        if not fits and (child or _AGE_SAID.search(text[:span.start])) and age_after(text, span, after, child=child):
            # "I'm 34", "my son is 11": a person's age, in plain English
            third = not child and _THIRD_PERSON.search(text[:span.start]) is not None
            fits = [(r, f) for r, f in of_kind("int") if _age_field(f, child=child)
                    or (third and "age" in f.name.lower().split("_"))]  # "she's 6" may be a pet's age; "I'm 30" not
        hedged = bool(before) and before[-1] in _ROUGHLY
        lead = before[-1:] if not hedged else _group_lead(text, span)  # "a pack of about 20", not "a budget of about 150"
        if not fits and ((lead and lead[-1] in ("for", "of")) or after[:2] == ["of", "us"]):  # "3 of us"
            fits = [(r, f) for r, f in of_kind("int") if counts_people(f)]  # people, or tickets: one each
            named = [(r, f) for r, f in fits if counts_people(f, by_name=True)]  # not "the youngest person's age"
            fits = named if hedged else named or fits
        if not fits and _WE_WILL_BE.search(text[:span.start]) and (not after or after[0] in _PEOPLE_AFTER):
            fits = [(r, f) for r, f in of_kind("int") if field_stems(f) & {stem(w) for w in PEOPLE_WORDS}]
        how, meaning = "number+unit", {}
        money = is_money(text, span.start, span.end)
        if not fits and money:  # "£76", "76 pounds": the field about money
            fits, how = money_fields(of_kind("int", "float")), "money"
        if not fits and any(_short_for(after, f) and not _short_for(after, f, text[span.end:]) for _r, f in
                            of_kind("int", "float")):
            continue  # "2 bath mats": the head of a field's compound name is part of another noun here
        if not fits and len(of_kind("int", "float")) > 0 and not money:  # a price counts no hours or people
            counted = [c for c in of_kind("int", "float") if not (after and after[0] in _PEOPLE_UNITS
                                                                  and _SERVES.search(c[1].description))]
            fits, meaning = _number_by_meaning(text, span, counted, view) if counted else ([], {})  # "40 people": no
            # trays that each feed ten
            how = "number+meaning" if fits else how
        said_unit = _TIME_UNIT.fullmatch(UNIT_SHORT.get(after[0], after[0])) if after else None
        if said_unit and not fits and not (len(after) > 1 and after[1] in ("old", "ago", "since", "running")) \
                and not (before and before[-1] in ("every", "each", "per", "past", "last")) \
                and not re.search(r"\d[.,]$", text[:span.start]) and not re.match(r"\s*[a-z]+\s*\d", text[span.end:], re.I):
            # not "1.5 hours" (read elsewhere as a whole) nor "2 hours 30 minutes", "1 hr 15" (two parts)
            # "for 1 hr" to `duration_minutes`: the one field counted in a unit of time (not "10 years old")
            timed = [(r, f) for r, f in of_kind("int", "float") if field_unit(f.name, f.description) is not None
                     and (r.var, f.name) not in used and _counts_in(f, said_unit.group(1))]
            fits = timed if len({f.name for _r, f in timed}) == 1 else []
        if said_unit:  # "two years" to a field of months: converted, or no value for a field of another unit
            fits = [(r, f) for r, f in fits if _counts_in(f, said_unit.group(1))]
        target = pick(fits)
        if target is not None and _not_a_count(text, span, target[1], money):
            continue  # "Room 12 please", "installed in 2015", "for 120 a night", "14 Elm Road": no count
        if target is not None and increment and target[0].values.get(target[1].name) is not None \
                and not says_more(target[1]):
            continue  # "two more people are coming" to a filled count: a difference, not the value
        if target is not None:
            unit = re.match(r"\s+(?:of\s+us|people|persons|guests|units?|[a-z]+)\b", text[span.end:], re.I)
            words = span.text
            lead = re.search(r"(?:\b(?:a\s+)?(?:party|group|table)\s+)?\b(?:for|of)\s+$", text[: span.start], re.I)
            if lead and not near & field_stems(target[1]):
                words = text[lead.start(): span.end]  # "a party of six": all of it names the party size
            if unit and (stem(unit.group(0).split()[-1]) in field_stems(target[1]) | {stem(w) for w in PEOPLE_WORDS}
                         or unit.group(0).strip().lower() == "of us" or _short_for(after, target[1], text[span.end:])):
                words = text[span.start: span.end + unit.end()]
            value = span.value
            if view.kind_of(target[1]) == "int" and not float(value).is_integer():
                continue  # "12.30" is no count of people: an int field never takes a fraction
            unit_of = field_unit(target[1].name, target[1].description) if said_unit else None
            if unit_of and unit_of != said_unit.group(1):
                value = converted_duration(text[span.start:], unit_of)
                words = text[span.start: span.end] + " " + after[0]
                if value is None:
                    continue
            if money and view.kind_of(target[1]) == "float":
                value, spent_upto = with_minor_units(text, span.end, value, number_of)
            out.append(Mention(target[0], target[1], value, words, how, span,
                               extra=meaning))
            used.add((target[0].var, target[1].name))
            taken.append(span)
    for r, f, value, span in _ordinal_counts(text, [(r, f) for r, f in of_kind("int") if (r.var, f.name) not in used]):
        if free([span], taken):  # "2nd floor", "ground floor": the number of a floor-like field
            out.append(Mention(r, f, value, span.text, "ordinal+unit", span))
            used.add((r.var, f.name))
            taken.append(span)
    timed = [(r, f, u) for r, f in of_kind("int") if (r.var, f.name) not in used
             and (u := field_unit(f.name, f.description)) in ("day", "night", "week", "month", "year")]
    if len({f.name for _r, f, _u in timed}) == 1:  # "Saturday 31st for a week": 7 nights, said in words only
        worded = worded_duration(text, timed[0][2])
        if worded is not None and free([Span(worded[0], worded[1], worded[2], text[worded[1]:worded[2]])], taken):
            r, f, _u = timed[0]
            out.append(Mention(r, f, worded[0], text[worded[1]:worded[2]].strip(), "duration in words"))
            used.add((r.var, f.name))
    people = [(r, f) for r, f in of_kind("int") if (r.var, f.name) not in used
              and (field_stems(f) & {stem(w) for w in PEOPLE_WORDS} or counts_people(f, by_name=True))]  # riders
    # (by its name: "How many pets are coming" counts no one that "me and my son" says)
    people = [c for c in people if counts_people(c[1], by_name=True)] or people
    people = [c for c in people if not _SERVES.search(c[1].description)]
    counted = head_count(text) if len(people) == 1 and not any(m.how == "people summed" for m in out) else None
    if counted is not None:  # "a room for me and my husband": the group said with the speaker in it
        out.append(Mention(people[0][0], people[0][1], counted, text, "head count"))
        used.add((people[0][0].var, people[0][1].name))
    _enum_mentions(text, of_kind("Enum"), out, used, pick)
    _named_codes(text, strs, bag, taken, out, used)
    _short_labelled(text, strs, taken, out, used)
    _name_phrase(text, strs, taken, out, used)
    _room_mention(text, strs, taken, out, used)
    out += bool_mentions(said, candidates, view, used)  # "yes I'm an international student"
    out += nothing_more(said, candidates, view, used)  # "Maya Cohen 07123 456789, nothing else he needs to know"
    return [_untitled(m) for m in out]


def _untitled(m: Mention) -> Mention:
    value = untitled(m.field, m.value)
    return m if value is m.value else replace(m, value=value)


def untitled(f: Field, value: Any) -> Any:
    """A person's name without the title said before it ("This is Mrs Joan Whitlock": Joan Whitlock), unless the
    field names an addressee, whose name is written as it will appear (`ADDRESSEE`)."""
    if isinstance(value, str) and shape(f) == "name" and TITLE.match(value) \
            and not ADDRESSEE.search(f"{f.name.replace('_', ' ')} {f.description}"):
        return TITLE.sub("", value, count=1)
    return value


_ORDINAL_NUMBERS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                    "eighth": 8, "ninth": 9, "tenth": 10}
_ORDINAL = re.compile(r"\b(?:(\d{1,3})(?:st|nd|rd|th)|(" + "|".join(_ORDINAL_NUMBERS) + r"))\s+([a-z]+)\b", re.I)
_ORDINAL_AFTER = re.compile(r"\b(?P<unit>[a-z]+)\s*\(\s*(?:(?P<n>\d{1,3})(?:st|nd|rd|th)|(?P<w>"
                            + "|".join(_ORDINAL_NUMBERS) + r"))\s*\)", re.I)
"""An ordinal in brackets after the unit word: "top floor (3rd)"."""
_DESCRIBED_NUMBER = re.compile(r"\b(\d{1,3})\s+(?:for|=|means)\s+(?:the\s+|a\s+|an\s+)?([a-z]+(?:\s+[a-z]+){0,2})", re.I)


def _ordinal_counts(text: str, ints: list[tuple[TaskRecord, Field]]) -> list[tuple[TaskRecord, Field, int, Span]]:
    """An int field counted by an ordinal before its own name word: "the 2nd floor", "third floor" -> 2, 3 for
    `floor`; and a phrase its description gives a number ("Which floor (0 for the ground floor)": "ground floor"
    -> 0). Only when the unit word names exactly one int field (by its name, not its description)."""
    out = []
    said = [(m.group(1), m.group(2), m.group(3), m) for m in _ORDINAL.finditer(text)]
    said += [(m.group("n"), m.group("w"), m.group("unit"), m) for m in _ORDINAL_AFTER.finditer(text)]
    for digits, word, unit, m in said:
        fits = [(r, f) for r, f in ints if stem(unit.lower()) in field_stems(f, with_description=False)]
        if len(fits) == 1 and not any(o[1].name == fits[0][1].name for o in out):
            value = int(digits) if digits else _ORDINAL_NUMBERS[word.lower()]
            out.append((*fits[0], value, Span(value, m.start(), m.end(), m.group(0))))
    for r, f in ints:
        for d in _DESCRIBED_NUMBER.finditer(f.description):
            phrase = d.group(2).lower()
            at = re.search(rf"\b{re.escape(phrase)}\b", text, re.I)
            if at and len(phrase.split()) >= 2 and not any(o[1].name == f.name for o in out):
                out.append((r, f, int(d.group(1)), Span(int(d.group(1)), at.start(), at.end(), at.group(0))))
    return out


_INCREMENT = frozenset({"more", "extra", "additional", "fewer", "less"})
"""Words after a number that make it a difference ("two more"), not the value."""
def says_more(f: Field) -> bool:
    """A count field that is itself a difference ("How many more days you want to keep the car")."""
    return re.search(r"\b(?:more|extra|additional)\b", f.name.replace("_", " ") + " " + f.description, re.I) is not None


_GROUP_OF = re.compile(r"\b(?:a|an|our|the|my)\s+(?:[a-z]+\s+){0,2}?(?:group|party|pack|class|team|troop|club|crowd|bunch|family|gang|choir|"
                       r"coach(?:load)?|busload|squad|band|unit|year\s+group|cohort)\s+of\s+(?:about|around|roughly|"
                       r"approximately|approx|maybe|perhaps|nearly|almost|some)\s+$", re.I)
"""A group said with a guess at its size ("a pack of about 20"): a count of people when nothing but its end follows."""


def _group_lead(text: str, span: Span) -> list[str]:
    """["of"] for a hedged number that sizes a group of people and ends its clause, else []."""
    if _GROUP_OF.search(text[:span.start]) and re.match(r"\s*(?:$|[,.;!?]|(?:of\s+us|people|kids|children|adults|"
                                                          r"please|pls|or\s+so|ish)\b)", text[span.end:], re.I):
        return ["of"]
    return []


_LABELS = frozenset("room table flat unit page order no number code ref platform gate pitch berth plot seat bay door "
                    "house apartment apt suite locker stand stall aisle row bus route".split())
"""Words that make the number after them a name or a label ("Room 12", "table 9"), not a count."""
_STREET = re.compile(r"\s+(?:[A-Z][a-z]+\s+){1,2}(?:Road|Rd|Street|St|Lane|Ln|Avenue|Ave|Close|Drive|Dr|Way|Crescent|"
                     r"Place|Court|Terrace|Grove|Gardens|Hill|Row|Walk|Mews|Square|Park)\b")
_RATE = re.compile(r"\s*(?:a|an|per|each|every)\s+(?:night|hour|hr|day|week|month|head|person|pp|session|visit|lesson|"
                   r"class|item|piece|tray|unit)\b", re.I)


def _not_a_count(text: str, span: Span, f: Field, money: bool) -> bool:
    """The number names or labels something, or says a year, a rate or a house on a street: a count field takes none
    of them, unless its own name is the label or says a year ("room 12" for a `room_number`)."""
    words = set(f.name.lower().split("_"))
    label = re.search(r"\b([a-z]+)\s*#?\s*$", text[:span.start].lower())  # "room 12", not "a flat, 2 movers"
    if label and label.group(1) in _LABELS and label.group(1) not in words:
        return True
    if isinstance(span.value, int) and 1900 <= span.value <= 2100 and len(span.text) == 4 and not words & {"year", "yr"} \
            and re.search(r"\b(?:in|since|from|during|year|circa|c\.)\s*$", text[:span.start], re.I) \
            and not re.match(r"\s*[a-z]", text[span.end:], re.I):
        return True  # "installed in 2015", not "2000 litres"
    if _RATE.match(text, span.end) and not money and not words & {"rate", "price", "cost", "fee", "per"}:
        return True
    return bool(_STREET.match(text, span.end))


_SERVES = re.compile(r"\b(?:feeds?|serves?|seats?|sleeps?|per\s+(?:person|head)|for\s+every)\b", re.I)
"""A count field's description that says how many people each counted thing is for ("one tray feeds ten people"):
it counts the things, never the people."""
_ROUGHLY = frozenset({"about", "around", "roughly", "approximately", "approx", "maybe", "perhaps", "like", "some",
                      "nearly", "almost", "just", "only"})
"""Words of a guess or a limit between "of"/"for" and the number ("a pack of about 20", "for maybe 6")."""
_AGE_AFTER = frozenset({"and", "but", "so", "years", "year", "yrs", "now", "btw", "if", "tho", "though", "lol", "is"})
_AGE_SAID = re.compile(r"\b(?i:i'?m|i\s+am|he'?s|she'?s|he\s+is|she\s+is|aged)\s*$|"
                       r"\b(?i:i'?m|i\s+am|this\s+is|it'?s|name'?s|my\s+name\s+is)\s+[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2}\s*,\s*$")
"""A bare number right after "I'm" or "she's" is an age ("I'm 34"), or right after the name the speaker gives ("I'm
Hannah Lee, 27"), for a field whose name says age."""
_MY_CHILD = r"(?:my|our|his|her)\s+(?:[a-z]+\s+)?(?:son|daughter|girl|boy|kid|child|grandson|granddaughter|nephew|niece)"
_CHILD_AGE_SAID = re.compile(rf"\b(?:{_MY_CHILD}|he|she)\s+(?:turns|turned|turning|will\s+be)\s*$|"
                             rf"\b{_MY_CHILD}\s+(?:is|'s)\s*$", re.I)
"""A child's age: "my son is 11", "my little girl turns 6 in january", "she turned 9 on sunday"."""
_CHILD_AGE_AFTER = _AGE_AFTER | {"in", "on", "this", "next"}
_THIRD_PERSON = re.compile(r"\b(?:he|she)(?:'s|\s+is)\s*$", re.I)
"""An age said of "he" or "she", who may be a pet ("she's 6")."""
_ANIMAL_WORDS = frozenset({"pet", "animal", "dog", "cat", "horse", "pony", "rabbit", "puppy", "kitten", "bird"})


def _age_field(f: Field, *, child: bool) -> bool:
    """A field a person's age said in words goes to: its name says age, it is no pet's age, and a child's age goes
    to no field of the speaker's own age ("Your age")."""
    if "age" not in f.name.lower().split("_") or field_stems(f) & {stem(w) for w in _ANIMAL_WORDS}:
        return False
    return not child or not re.search(r"\b(?:your|you)\b", f.description or "", re.I) or bool(
        set(f.name.lower().split("_")) - {"age"})


def age_after(text: str, span: Span, after: list[str], *, child: bool) -> bool:
    """What follows a number said as an age lets it be one: nothing, a word of `_AGE_AFTER` ("I'm 34 and ..."), a
    stop or a dash before words ("she's 15 - is that ok?", not "12 - 13 kilos"); "years" only as "years old" after a
    child's ("my son is 2 years into piano" is no age)."""
    if child and after and after[0] in ("years", "year", "yrs") and after[1:2] not in ([], ["old"]):
        return False
    return not after or after[0] in (_CHILD_AGE_AFTER if child else _AGE_AFTER) \
        or re.match(r"\s*(?:[,.;!?]|-\s+(?!\d))", text[span.end:]) is not None


NUMBER_FIELD_SCORE = 0.40
"""Least cosine of a number's context words ("weighs about ... kilos") to a numeric field's texts."""
NUMBER_FIELD_MARGIN = 0.08
"""Least lead of that field over every other numeric field the number could fill."""
_CONTEXT_STOP = {"and", "but", "or", "the", "a", "an", "is", "s", "it", "he", "she", "they", "we", "i", "my", "our",
                 "his", "her", "their", "at", "on", "for", "of", "to", "in", "with", "just", "only", "about",
                 "around", "roughly", "maybe", "like", "make", "that", "this", "please", "actually"}


def _number_by_meaning(text: str, span: Span, fits: list[tuple[TaskRecord, Field]], view: StateView
                       ) -> tuple[list[tuple[TaskRecord, Field]], dict[str, Any]]:
    """The numeric field a number's own words mean ("weighs about 7 kilos" -> the weight in kilograms),
    ranked by the spec index over the fields' names, descriptions and examples. Words of the same clause
    only; nothing when there are none or no field clearly wins (a wrong value is worse than none)."""
    clause_before = re.split(r"[,;.!?]|\band\b|\bbut\b", text[: span.start])[-1]
    clause_after = re.split(r"[,;.!?]|\band\b|\bbut\b|\d", text[span.end:])[0]
    words = [w for w in re.findall(r"[a-z]+", clause_before.lower())[-3:] + re.findall(r"[a-z]+",
             clause_after.lower())[:3] if w not in _CONTEXT_STOP]
    if not words:
        return [], {}
    wanted = {(view.worksheet(r).name, f.name) for r, f in fits}
    ranked = view.index().rank(" ".join(words), lambda e: e.kind == "field" and (e.worksheet, e.field)
                                       in wanted)
    if ranked.best is None or ranked.score < NUMBER_FIELD_SCORE or \
            (ranked.runner_up is not None and ranked.score - ranked.runner_score < NUMBER_FIELD_MARGIN):
        return [], {}
    chosen = [(r, f) for r, f in fits if (view.worksheet(r).name, f.name) == (ranked.best.worksheet, ranked.best.field)]
    return chosen, ranked.trace()


_NEGATED_OPTION = (r"\b(?:no|not|without|without\s+an?|without\s+the|don'?t\s+have\s+an?|won'?t\s+have\s+an?|"
                   r"not\s+bringing\s+an?|not\s+taking\s+an?|no\s+need\s+for\s+an?)")
"""Words right before an option that rule it out: "so no car", "without a cabin"."""


def _none_option(f: Field) -> str | None:
    """The option of an enum that means none of the others ("No Vehicle", "None", "Without cabin")."""
    found = [ev.value for ev in f.enum_values if re.match(r"(?:no|none|without)\b", ev.value.strip(), re.I)]
    return found[0] if len(found) == 1 else None


_PREFERRED = re.compile(r"\b(?:best|better|prefer(?:red|ably)?|ideally|suits?|works?\s+(?:best|better|for)|please|pls|"
                        r"rather|good\s+for)\b", re.I)


def _clauses(text: str) -> list[str]:
    """The turn's clauses in lower case, cut at punctuation and "but"."""
    return [c for c in re.split(r"[,.;!?]|\bbut\b", text.lower()) if c.strip()]


def _two_options_of_one_field(text: str, by_value: dict[str, list[tuple[TaskRecord, Field, str]]],
                              how: dict[str, str]) -> None:
    """Two options of one field said in one turn ("Mornings are best, I go swimming in the afternoons"): the one whose
    clause says it is preferred, when only one clause does; else neither (a wrong option is worse than asking).
    Drops the keys of the options not kept from `by_value`. A name inside a longer one ("car" of "car and caravan")
    and a negated option are not a second option."""
    clauses = _clauses(text)
    fields: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for key, options in by_value.items():
        if how.get(key) == "enum value negated":
            continue
        for rec, f, value in options:
            fields.setdefault((rec.var, f.name), []).append((key, value))
    owners = {k: {(r.var, f.name) for r, f, _v in opts} for k, opts in by_value.items()}
    for pairs in fields.values():
        keys = [k for k, _v in pairs]
        if any(len(owners[k]) > 1 for k in keys):
            continue  # "german to english" for a source and a target language: two fields, one option each
        own = [(k, v) for k, v in pairs if not any(k != o and k.strip() in o for o in keys)]
        if len({v for _k, v in own}) < 2:
            continue
        liked = {v for k, v in own for c in clauses if f" {k.strip()} " in _norm_words(c) and _PREFERRED.search(c)}
        low = _norm_words(text)
        to = {v for k, v in own for o, _w in own if o != k and f" {o.strip()} to {k.strip()} " in low}
        keep = next(iter(to)) if len(to) == 1 else next(iter(liked)) if len(liked) == 1 else None
        # "Portuguese to English", "from the morning to the afternoon": the one it goes to
        for k, v in own:
            if v != keep and k in by_value:
                by_value[k] = [o for o in by_value[k] if o[2] != v]
    for k in [k for k, opts in by_value.items() if not opts]:
        del by_value[k]


def _norm_words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


_CLAUSE_LEAD = frozenset("call ring phone text me us come do make it i'd id i would like prefer best is please ideally "
                         "preferably can you could so".split())
"""Words a preference may open with before the taught phrase ("call me first thing", "ideally before lunch")."""


def _said_as_clause(phrase: str, text: str) -> bool:
    """The phrase is a clause of the turn, or ends one that only leads into it ("call me first thing"); not "i am out
    before lunch" or "anytime but after lunch"."""
    for clause in _clauses(text):
        if clause == phrase or (clause.endswith(" " + phrase)
                                and all(w in _CLAUSE_LEAD for w in clause[:-len(phrase)].split())):
            return True
    return False


def _clauses(text: str) -> set[str]:
    """The turn's clauses, each as its plain words without a trailing "please" or a leading "ideally" ("Saturday week,
    first thing please" has "first thing"); "but" does not split one ("anytime but after lunch")."""
    out = set()
    for part in re.split(r"[,;.!?()]|\s-\s|\band\b|\bor\b", text.lower()):
        words = _norm_words(part).split()
        while words and words[-1] in ("please", "pls", "ideally", "preferably", "thanks", "if", "possible"):
            words = words[:-1]
        while words and words[0] in ("ideally", "preferably", "maybe", "say", "like", "just", "so"):
            words = words[1:]
        if words:
            out.add(" ".join(words))
    return out




def _enum_mentions(text: str, fits: list[tuple[TaskRecord, Field]], out: list[Mention],
                   used: set[tuple[str, str]], pick) -> None:
    low = _norm_words(text)
    by_value: dict[str, list[tuple[TaskRecord, Field, str]]] = {}
    how: dict[str, str] = {}
    for rec, f in fits:
        for ev in f.enum_values:
            key = _norm_words(ev.value)
            if len(key.strip()) >= 3 and key in low:
                negated = re.search(_NEGATED_OPTION + r"\s+" + r"\W+".join(map(re.escape, key.split())) + r"\b",
                                    text, re.I)
                if negated:  # "so no car": not that option; the field's own "none" option if it has one
                    none = _none_option(f)
                    if none is None or none == ev.value:
                        continue
                    key = _norm_words(negated.group(0))
                    by_value.setdefault(key, []).append((rec, f, none))
                    how[key] = "enum value negated"
                    continue
                by_value.setdefault(key, []).append((rec, f, ev.value))
            for example in ev.examples:  # "Saturday week, first thing": a phrase the developer taught the option,
                key = _norm_words(example)  # said as a clause of its own (not "i am out before lunch")
                if 2 <= len(key.split()) <= 4 and key in low and _said_as_clause(key.strip(), text):
                    by_value.setdefault(key, []).append((rec, f, ev.value))
                    how[key] = "enum example"
    _two_options_of_one_field(text, by_value, how)
    for key in sorted(by_value, key=len, reverse=True):  # the longest first: "no car" before "car"
        options = by_value[key]
        target = pick([(r, f) for r, f, _ in options])
        if target is None:
            continue
        value = next(v for r, f, v in options if r.var == target[0].var and f.name == target[1].name)
        out.append(Mention(target[0], target[1], value, key.strip(), how.get(key, "enum value")))
        used.add((target[0].var, target[1].name))
    _options_by_short_form(text, fits, by_value, out, used, pick, _slashed_form)  # "cr/nc": Credit/No Credit
    _options_by_short_form(text, fits, by_value, out, used, pick, capital_initialism, skip_used=True)  # "..., OW, ..."
    _verb_options(text, fits, out, used, pick)
    _variant_options(text, fits, out, used, pick)
    for rec, f, value, words in option_cues(text, fits, used, pick):
        out.append(Mention(rec, f, value, words, "enum cue"))  # "little motor cruiser": Motor Boat


_VERB_ON_IT = re.compile(r"\b([a-z]+)\s+(?:it|my|our|this|that|the\s+(?:booking|appointment|reservation|visit|lesson|"
                         r"session|order|slot|date|time|day))\b")
"""A verb and its object when the object is the thing held ("move my booking", "change it")."""
_MIND_CHANGED = re.compile(r"\bchang(?:ed|e|ing)\s+(?:my|our)\s+minds?\b", re.I)


def _variant_options(text: str, fits: list[tuple[TaskRecord, Field]], out: list[Mention],
                     used: set[tuple[str, str]], pick) -> None:
    """A one-word option said in another form: "varifocals" for Varifocal, "matt" for Matte. Only when the word fits
    one option of the field and is not already another field's value."""
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4]
    spans = [m.span for m in out if m.span is not None]
    by_value: dict[str, list[tuple[TaskRecord, Field, str]]] = {}
    for rec, f in fits:
        if (rec.var, f.name) in used:
            continue
        hits = {}
        for ev in f.enum_values:
            v = ev.value.lower()
            if not re.fullmatch(r"[a-z]{4,}", v):
                continue
            for w in words:
                if w != v and (w in (v + "s", v + "es") or (v.endswith("e") and w == v[:-1])):
                    hits[ev.value] = w
        if len(hits) > 1:  # "Mornings are best, I go swimming in the afternoons": the one said to be preferred
            clauses = _clauses(text)
            liked = {v: w for v, w in hits.items() for c in clauses if re.search(rf"\b{w}\b", c) and _PREFERRED.search(c)}
            hits = liked if len(liked) == 1 else {}
        if len(hits) == 1:
            value, word = next(iter(hits.items()))
            at = re.search(rf"\b{word}\b", text.lower())
            if at and not any(sp.start <= at.start() < sp.end for sp in spans):
                by_value.setdefault(value, []).append((rec, f, word))
    for value, options in by_value.items():
        target = pick([(r, f) for r, f, _w in options])
        if target is not None and (target[0].var, target[1].name) not in used:
            word = next(w for r, f, w in options if r.var == target[0].var and f.name == target[1].name)
            out.append(Mention(target[0], target[1], value, word, "enum variant"))
            used.add((target[0].var, target[1].name))


def _verb_options(text: str, fits: list[tuple[TaskRecord, Field]], out: list[Mention],
                  used: set[tuple[str, str]], pick) -> None:
    """An option named by a verb ("Change", "Cancel") said in everyday words: "I need to move my appointment" is
    Change. Only when the turn's words fit exactly one of the field's verb options and name no option outright."""
    from ..words.semantic import VERB_STEMS  # late: the semantic rules import this module
    if _MIND_CHANGED.search(text):
        return  # "I've changed my mind, I want to cancel it": no verb of the option
    said = {stem(m.group(1)) for m in _VERB_ON_IT.finditer(text.lower())}  # "move my booking", "reschedule it";
    # not "the car won't move", "the removal men can move everything"
    by_value: dict[str, list[tuple[TaskRecord, Field]]] = {}
    for rec, f in fits:
        if (rec.var, f.name) in used:
            continue
        verbs = {ev.value: VERB_STEMS.get(stem(ev.value.lower())) for ev in f.enum_values}
        hits = [v for v, words in verbs.items() if words and said & words]
        if len(hits) == 1:
            by_value.setdefault(hits[0], []).append((rec, f))
    for value, options in by_value.items():
        target = pick(options)
        if target is not None and (target[0].var, target[1].name) not in used:
            word = next(w for w in re.findall(r"[a-z]+", text.lower()) if stem(w) in VERB_STEMS[stem(value.lower())])
            out.append(Mention(target[0], target[1], value, word, "enum verb"))
            used.add((target[0].var, target[1].name))


def _slashed_form(f: Field, text: str) -> tuple[str, str] | None:
    """(option, the words said) for a slashed short form of one option ("cr/nc" for Credit/No Credit)."""
    value = initialism_enum(f, text)
    if value is None:
        return None
    return value, next(m for m in re.findall(r"[a-z]+(?:/[a-z]+)+", text.lower()) if initialism_enum(f, m))


def _options_by_short_form(text: str, fits: list[tuple[TaskRecord, Field]], by_value: dict[str, Any],
                           out: list[Mention], used: set[tuple[str, str]], pick: Callable[..., Any],
                           find: Callable[[Field, str], tuple[str, str] | None], *, skip_used: bool = False) -> None:
    """An option said by a short form (`find`): a slashed one or capitalised initials, names it as its full name
    would; one field of the options that have it is chosen as for the full name."""
    options: dict[str, list[tuple[TaskRecord, Field]]] = {}
    said: dict[str, str] = {}
    for rec, f in fits:
        found = None if skip_used and (rec.var, f.name) in used else find(f, text)
        if found is not None and _norm_words(found[0]) not in by_value:
            options.setdefault(found[0], []).append((rec, f))
            said.setdefault(found[0], found[1])
    for value, holders in options.items():
        target = pick(holders)
        if target is not None and (target[0].var, target[1].name) not in used:
            out.append(Mention(target[0], target[1], value, said[value], "enum short form"))
            used.add((target[0].var, target[1].name))


def _named_codes(text: str, strs: list[tuple[TaskRecord, Field]], bag: Bag, taken: list[Span],
                 out: list[Mention], used: set[tuple[str, str]]) -> None:
    """A code-shaped field named in the text with a digit string near it: "my pin is 0314"; a short text field only
    with the number right after its own name ("CARN ticket is 40221187" for `reader_ticket`)."""
    named_only = free([Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _HYPHEN_CODE.finditer(text)], taken)
    named_only += free([Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _LETTERED_NUMBER.finditer(text)],
                       taken + named_only)  # "passport E12345678": like a hyphened code, only after its field's name
    mixed = free([Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _MIXED_REF.finditer(text)],
                 taken + named_only)
    digits = free(find_digit_strings(text), taken + mixed)  # "card 3391-AOW-0412": one reference, not "3391"
    codes = sorted(digits + named_only + mixed, key=lambda c: c.start)
    others = [g for _r, g in strs]
    for rec, f in strs:
        if shape(f) not in ("code", "short") or (rec.var, f.name) in used or not codes:
            continue
        score, hits = field_mention(f, bag)
        kinds = [label_kind(text, c.start, f, others) for c in codes]
        if shape(f) == "short" and (kinds.count("this") != 1 or not _bare_code(text, codes[kinds.index("this")])):
            continue  # `reader_ticket`: "my ticket is 40221187", a number only right after the field's own name
        if "this" in kinds:  # "acc 40817726, pin 2291": the digits right after the field's own (short) name
            span = codes.pop(kinds.index("this"))
            hits = hits or [label_of(text, span.start)[0]]  # type: ignore[index]
        elif score >= 2 and "none" in kinds and codes[kinds.index("none")] not in named_only:
            # never a value labelled for another field; a hyphened or lettered code only right after the field's own name
            span = codes.pop(kinds.index("none"))
        else:
            continue
        out.append(Mention(rec, f, span.value, f"{' '.join(hits)} ... {span.text}", "named field", span))
        used.add((rec.var, f.name))
        taken.append(span)


_CODE_ENDS = re.compile(r"\s*(?:$|[,.;!?)]|(?:and|please|pls|thanks|ta|btw|if|x+)\b)", re.I)


def _bare_code(text: str, span: Span) -> bool:
    """A number that is a reference, not an amount: four digits or more, said with "is" or ":" (not "was"), and
    nothing after it but the turn's end, a stop or "and"/"please" ("my wristband is 300 yards away", "the voucher
    was 200 quid" are no references)."""
    digits = re.sub(r"\D", "", span.text)
    if len(digits) < 4 or re.search(r"\bwas\s*$", text[:span.start], re.I):
        return False
    return _CODE_ENDS.match(text, span.end) is not None


def _short_labelled(text: str, strs: list[tuple[TaskRecord, Field]], taken: list[Span], out: list[Mention],
                    used: set[tuple[str, str]]) -> None:
    """A code after a field's name said short: "reg RV15 GHT" for `registration`, "acct no 55120934" for
    `account_number`. The label is a name word's first three letters or more ("reg"), or a usual short form
    ("acct", "ref", "tel", "mob"); the value has a digit, and is the field's only one."""
    for rec, f in strs:
        if (rec.var, f.name) in used or shape(f) == "date":  # "DOB 3rd June 85": a date, not the code "3rd"
            continue
        pattern = _short_label_pattern(f.name)
        if pattern is None:
            continue
        found = list(pattern.finditer(text))
        found = [m for m in found if m.group("lab").strip() or not _english_word(m.group(0).split()[0])]
        # "member 10 years", "the app 12 days ago": a word of English before a number labels nothing
        if len(found) != 1:
            continue
        m = found[0]
        span = Span(m.group("v").upper() if re.search(r"[a-z]", m.group("v")) and " " in m.group("v") else m.group("v"),
                    m.start("v"), m.end("v"), m.group("v"))
        if any(o.span is not None and o.span.start < span.end and span.start < o.span.end for o in out):
            continue  # the value of another field (a span only put aside, as a plate is, is free to take)
        out.append(Mention(rec, f, span.value, m.group(0), "short label", span))
        used.add((rec.var, f.name))
        taken.append(span)


def short_label(word: str, names: set[str]) -> bool:
    """Whether `word` is one of the field-name words `names` said short: "reg" for registration, "acct" for
    account (the first three letters or more of a name word of five or more, or a usual short form)."""
    return word.lower().strip(".:") in _short_forms(frozenset(names))


@lru_cache(maxsize=1024)
def _short_forms(names: frozenset[str]) -> frozenset[str]:
    """Every short form of the name words `names`: their first 3 to n-2 letters (words of five letters or more, not
    "number" or "details") and the usual short forms of `_SHORT_FORMS`."""
    words = [w for w in names if len(w) >= 5 and w not in ("number", "details")]
    return frozenset({w[:n] for w in words for n in range(3, len(w) - 1)} |
                     {a for a, full in _SHORT_FORMS.items() if full in words})


@lru_cache(maxsize=1024)
def _short_label_pattern(field_name: str) -> re.Pattern[str] | None:
    """The pattern of a code after the field's name said short (built once per field name, not per turn)."""
    shorts = _short_forms(frozenset(field_name.lower().split("_")))
    if not shorts:
        return None
    label = "|".join(sorted(map(re.escape, shorts), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?i:{label})\.?(?P<lab>(?:\s+(?i:no\.?|num|number|is|:))*\s*[:=#]?)\s*"
                      rf"(?P<v>(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{{2,}}(?:[ -][A-Z0-9]{{2,4}}(?![\w-]))?)(?!\s+[a-z])")


def _name_phrase(text: str, strs: list[tuple[TaskRecord, Field]], taken: list[Span], out: list[Mention],
                 used: set[tuple[str, str]]) -> None:
    """A person's name said the way a booking is named: "booked under Dave Hughes", "name on it is Lucy Hart", "in
    the name of Ann Lee": the one name field open (of several, the user's own)."""
    m = _UNDER_NAME.search(text)
    if m is None:
        _for_name(text, strs, out, used, taken)
        return
    g = "name" if m.group("name") else "name2"
    if m.group(g).split()[0] in ("The", "My", "Our", "This", "That") or any(
            o.span is not None and o.span.start < m.end(g) and m.start(g) < o.span.end for o in out):
        return
    names = [(r, f) for r, f in strs if shape(f) == "name" and (r.var, f.name) not in used]
    if len(names) > 1:
        names = [c for c in names if own_field(c[1])]
    if len(names) != 1:
        return
    span = Span(m.group(g), m.start(g), m.end(g), m.group(g))
    out.append(Mention(names[0][0], names[0][1], span.value, m.group(0), "name phrase", span))
    used.add((names[0][0].var, names[0][1].name))
    taken.append(span)


def _room_mention(text: str, strs: list[tuple[TaskRecord, Field]], taken: list[Span], out: list[Mention],
                  used: set[tuple[str, str]]) -> None:
    """ "the radiator in my room at Ashby Hall (flat 3 room 12)": "Flat 3, Room 12" for the one open field whose name
    says it holds a room."""
    from ..parts.rooms import room_fields, room_span  # late: the parts import this module
    fits = [(r, f) for r, f in strs if (r.var, f.name) not in used and f in room_fields([f])]
    found = room_span(text) if len({f.name for _r, f in fits}) == 1 else None
    if found is None:
        return
    span = Span(found[0], found[1], found[2], text[found[1]:found[2]])
    if not free([span], taken) or any(o.span is not None and o.span.overlaps(span) for o in out):
        return
    out.append(Mention(fits[0][0], fits[0][1], found[0], span.text, "room", span))
    used.add((fits[0][0].var, fits[0][1].name))
    taken.append(span)


def _for_name(text: str, strs: list[tuple[TaskRecord, Field]], out: list[Mention], used: set[tuple[str, str]],
              taken: list[Span]) -> None:
    """ "it's for Margaret Ellis": the one open name field of someone other than the user that a thing is for
    ("The name of the person the voucher is for")."""
    m = _FOR_NAME.search(text)
    if m is not None and (re.search(r"'s\b|’s\b", m.group("name")) or m.group("name").split()[-1].lower() in _NOT_PEOPLE
                          or re.match(r"\s+(?:on|in|at|near)\s+[A-Z]", text[m.end("name"):])):
        return  # "it's for Mother's Day", "it's for Boxing Day", "it's for Sue Blake's birthday"
    if m is None or m.group("name").split()[0] in ("The", "My", "Our", "This", "That") or any(
            o.span is not None and o.span.start < m.end("name") and m.start("name") < o.span.end for o in out):
        return
    names = [(r, f) for r, f in strs if shape(f) == "name" and (r.var, f.name) not in used and not own_field(f)
             and re.search(r"\bfor\b|\brecipient|\bgift", f"{f.name.replace('_', ' ')} {f.description}", re.I)]
    if len(names) != 1:
        return
    span = Span(m.group("name"), m.start("name"), m.end("name"), m.group("name"))
    out.append(Mention(names[0][0], names[0][1], span.value, m.group(0), "name phrase", span))
    used.add((names[0][0].var, names[0][1].name))
    taken.append(span)


_NOT_PEOPLE = frozenset("""day eve night weekend party class classes fitness aerobics birthday christmas easter
anniversary wedding hall centre center club shop school team office parlour salon cafe ltd limited""".split())
"""Last words of what a thing is for that no person's name ends with."""
_FOR_NAME = re.compile(r"\b(?i:it'?s|its|it\s+is|this\s+is|that'?s|it'?ll\s+be)\s+(?i:a\s+\w+\s+)?(?i:for)\s+"
                       r"(?P<name>[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){1,2})\b")
_UNDER_NAME = re.compile(r"(?:\b(?i:booked|it'?s|its|it\s+is|it\s+was|all|reserved|that'?s)\s+)?\b(?i:under)\s+(?i:the\s+name\s+(?:of\s+)?)?"
                         r"(?P<name>[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){1,2})\b|"
                         r"\b(?i:name\s+on\s+(?:it|the\s+\w+)\s+is|in\s+the\s+name\s+of)\s+(?P<name2>[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2})\b")
"""How a booking's name is said: "Under Dave Hughes", "name on it is Lucy Hart", "in the name of Ann Lee"."""


def _english_word(word: str) -> bool:
    from ....embedding.semantic import model_words  # late: the embedding package is heavy to import
    return word.lower().strip(".:") in model_words(None) and word.lower().strip(".:") not in _SHORT_FORMS


_SHORT_FORMS = {"acct": "account", "acc": "account", "ref": "reference", "tel": "telephone", "mob": "mobile",
                "reg": "registration", "dob": "birth", "ph": "phone", "tkt": "ticket", "memb": "membership"}
"""Short forms users type for the words of field names."""


_HYPHEN_CODE = re.compile(r"(?<![\w-])[A-Z]{1,5}-\d{3,10}(?![\w-])")
"""A reference of capitals, a hyphen and digits ("Policy HP-3318740"), read only right after its field's name."""


def said_texts(mentions: list[Mention]) -> list[str]:
    """The words each mention used up ("4 people", "7 pm"), to leave out of a search phrase."""
    return [m.matched if m.how == "number+unit" else m.span.text for m in mentions if m.span is not None]


_LETTERED_NUMBER = re.compile(r"(?<![\w-])[A-Za-z]{1,2}\d{5,10}[A-Za-z]?(?![\w-])")
"""A number with a letter or two before it ("E12345678", "AB123456C"), read only right after its field's name."""
_MIXED_REF = re.compile(r"(?<![\w-])(?=(?:[A-Za-z-]*\d){4})(?=[A-Za-z0-9-]*[A-Za-z])"
                        r"(?:[A-Za-z0-9]{2,}(?:-[A-Za-z0-9]{2,})+|\d{2,}[A-Za-z]{1,4}\d{2,})(?![\w-])")
"""A reference of digit groups and letters in one token ("3391-AOW-0412", "5512-OW-2231", "2304OW1187")."""


def code_value(text: str) -> Span | None:
    """The one id-like token of an answer: a mixed reference ("3391-AOW-0412"), a digit string, else a code such as
    CS147 or "CS 221"."""
    found = _code_value(text)
    mixed = list(_MIXED_REF.finditer(text))
    if found is not None and len(mixed) == 1 and mixed[0].start() <= found.start < mixed[0].end():
        return Span(mixed[0].group(0), mixed[0].start(), mixed[0].end(), mixed[0].group(0))  # not just its "3391"
    return found


def _code_value(text: str) -> Span | None:
    codes = find_codes(text)
    digits = free(find_digit_strings(text), codes)
    if len(digits) == 1 and not codes:
        return digits[0]
    if len(codes) == 1 and not digits:
        return codes[0]
    if not digits and not codes and (spelled := _SPELLED_DIGITS.search(text)):  # "one two three four" -> 1234
        value = "".join(str(_DIGIT_WORD[w]) for w in re.findall(r"[a-z]+", spelled.group(0).lower()))
        return Span(value, spelled.start(), spelled.end(), spelled.group(0))
    return digits[0] if len(digits) == 1 else None


_DIGIT_WORD = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9}
_SPELLED_DIGITS = re.compile(r"\b(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[\s,-]+){2,}"
                             r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b", re.I)
"""Three or more digits spelled one word each, as a PIN or a number is read out."""


# ---------------------------------------------------------------- the KB's own words

def _short_text_columns(kb: Any, *, limit: int) -> Iterator[tuple[Any, Any, list[Any]]]:
    """(table info, column, distinct values) of each short text or list column that is not an id;
    a column the KB cannot list is simply not vocabulary."""
    for table, info in kb.tables().items():
        for col in info.columns:
            if col.free_text or col.type not in ("text", "list", "str") or col.name == "id" \
                    or col.name.endswith("_id"):
                continue
            try:
                values = kb.distinct_values(table, col.name, limit=limit)
            except KnowledgeError:
                continue
            yield info, col, values


class KBVocabulary:
    """Short values of the KB's text and list columns ("Thai", "Palo Alto", "Ragazza"), read once per KB.

    A turn that names one of them is about the KB even without a question word.
    """

    MAX_WORDS = 4

    def __init__(self) -> None:
        self._cache: dict[tuple[int, str], frozenset[str]] = {}
        self._columns: dict[tuple[int, str], dict[str, frozenset[str]]] = {}
        self._normed: dict[tuple[int, str], tuple[tuple[str, str], ...]] = {}

    def terms(self, kb: Any) -> frozenset[str]:
        if kb is None:
            return frozenset()
        key = (id(kb), str(getattr(kb, "path", "")))
        if key not in self._cache:
            self._cache[key] = frozenset(self.value_columns(kb))
        return self._cache[key]

    def value_columns(self, kb: Any) -> dict[str, frozenset[str]]:
        """Each short value (lower case) -> the columns ("table.column") that hold it: the KB's vocabulary, and which
        values of a question are of one kind ("Camden" and "Hackney" are both areas)."""
        if kb is None:
            return {}
        key = (id(kb), "value_columns:" + str(getattr(kb, "path", "")))
        if key not in self._columns:
            out: dict[str, set[str]] = {}
            for info, col, values in _short_text_columns(kb, limit=300):
                for v in values:
                    for item in _items(v):
                        if 3 <= len(item) <= 40 and len(item.split()) <= self.MAX_WORDS:
                            out.setdefault(item.lower(), set()).add(f"{info.name}.{col.name}")
            self._columns[key] = {k: frozenset(v) for k, v in out.items()}  # type: ignore[assignment]
        return self._columns[key]  # type: ignore[return-value]

    def column_values(self, kb: Any) -> dict[str, frozenset[str]]:
        """Stem of each short text or list column's name ("color" for `colors`) -> its values, lower case."""
        if kb is None:
            return {}
        key = (id(kb), "columns:" + str(getattr(kb, "path", "")))
        if key not in self._columns:
            out: dict[str, set[str]] = {}
            for info, col, values in _short_text_columns(kb, limit=60):
                items = {i.lower() for v in values for i in _items(v) if 3 <= len(i) <= 25 and len(i.split()) <= 2}
                if items and len(values) < 60 and len(values) * 2 <= info.row_count:
                    # a closed list whose values repeat across rows (colours), not the names of the rows
                    out.setdefault(stem(col.name.split("_")[-1]), set()).update(items)
            self._columns[key] = {k: frozenset(v) for k, v in out.items()}
        return self._columns[key]

    def found_in(self, text: str, kb: Any, *, plurals: bool = False) -> list[str]:
        """The KB's short values the text says; with `plurals`, also said with a plural ending ("wardrobes")."""
        low = _norm_words(text)
        key = (id(kb), "normed:" + str(getattr(kb, "path", "")))
        if key not in self._normed:
            self._normed[key] = tuple((t, _norm_words(t)) for t in sorted(self.terms(kb)) if _norm_words(t) != "  ")
        return [t for t, normed in self._normed[key] if normed in low
                or (plurals and (normed[:-1] + "s " in low or normed[:-1] + "es " in low))]


_PAST_CUE = re.compile(r"\b(?:was|were|had|did|got|last|ago|since|given|done)\b", re.I)
"""Words before a date that tell it in the past ("his booster was the 3rd of Feb")."""


def column_mentions(text: str, candidates: list[tuple[TaskRecord, Field]], vocabulary: KBVocabulary, kb: Any
                    ) -> list[Mention]:
    """A short text field named like a KB column ("color" and the column `colors`) takes the one value of that
    column the turn says ("in pink"): the KB's own closed list of values for it."""
    if kb is None:
        return []
    columns = vocabulary.column_values(kb)
    low = _norm_words(text)
    out = []
    for rec, f in candidates:
        if f.type != "str" or shape(f) not in ("short",):
            continue
        values = columns.get(stem(f.name.split("_")[-1]))
        said = [v for v in values or () if _norm_words(v) in low]
        if len(said) == 1:
            out.append(Mention(rec, f, said[0], said[0], "kb column value"))
            continue
        named = [v for normed, v in field_row_names(vocabulary, kb, f).items() if normed in low]
        if len(named) == 1:  # "Aqua Fit" for `class_name`, the table `classes` named by its `name` column
            out.append(Mention(rec, f, named[0], named[0], "kb row name"))
    return out


def _items(value: Any) -> list[str]:
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    if isinstance(value, str) and value.startswith("["):
        try:
            parsed = json.loads(value)
        except ValueError:
            return [value]
        return [v for v in parsed if isinstance(v, str)] if isinstance(parsed, list) else [value]
    return [value] if isinstance(value, str) else []


def number_of(words: str) -> int | None:
    """A small number said in words ("forty"), or None."""
    spans = find_numbers(words)
    return int(spans[0].value) if len(spans) == 1 and float(spans[0].value).is_integer() else None
