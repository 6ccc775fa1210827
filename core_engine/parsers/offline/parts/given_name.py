"""A person's name given beside other values: "names Gareth Lloyd btw, mobile is 07723 456789", "Leon Carter
07400 118822", "ref FX-11902, name Priya Shah", "Hi it's Gareth Lloyd, I need to cancel the fitting".

After the rest of the turn is read, the one record the turn fills, opens or was asked about whose worksheet has
exactly one unfilled person-name field takes the one name the turn gives:
- after a name cue ("name", "names", "name's", "its under", "booking's under", "under the name of"), in any case;
- after "it's", "I'm" or "this is" at the start of a clause, as two or three capitalised words, for the speaker's
  own name field only;
- as a clause of two or three words of its own right before or after a phone number or reference that the turn
  reads ("hannah whitfield, 07700 900333").
A name is never a KB value, a day or a month, a word of the spec's names and options, an organisation's or a house's
name, or made of the words a sentence is made of. Two names, or two name fields: nothing is added (a wrong value is worse than none).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from dataclasses import dataclass

from ..answering.slots import NAME_UNDER, shape
from ..words.match import content_stems, stem
from ..words.values import MONTHS, NO_NAME_WORDS, SENTENCE_WORDS, WEEKDAYS, YES_NO_WORDS
from .proper_names import _constructed, _in_kb, _replace, _spec_words, _with_value

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ....spec.model import Field
    from ..parser import TurnReader

_TOKEN = r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*"
_NAME_CUE = re.compile(r"(?:(?:^|(?<=[,.;!?])|\b(?:my|our|the|and|full|first|last|booking|your)\b)\s*(?:name(?:'?s|\s+is|\s*:)?|"
                       r"names|name\s+on\s+(?:it|the\s+\w+)(?:'?s|\s+is)?)|\b(?:booked|booking'?s?(?:\s+is)?|it'?s|its|it\s+is|put\s+(?:it|the\s+booking)|all|"
                       r"reservation'?s?(?:\s+is)?)\s+under(?:\s+the\s+name(?:\s+of)?)?|\bunder\s+the\s+name(?:\s+of)?)"
                       r"\s*[:-]?\s+", re.I)
"""A cue that a person's name follows: "name Rachel Adeyemi", "names Gareth Lloyd", "its under sandra kowalski",
"under the name of Patel"; not "the dog's name ..." (a pet's), not "under warranty", "under fives"."""
_SELF_CUE = re.compile(r"(?:^|[,.;!?]\s*|\b(?:hi|hello|hey|hiya|morning|afternoon|evening)\b[\s,]*)"
                       r"(?:it'?s|this\s+is|i'?m|i\s+am)\s+", re.I)
_SOMEONE_ELSES = re.compile(r"\b(?:my|our)\s+(?:mum|mom|dad|mother|father|wife|husband|partner|son|daughter|"
                            r"brother|sister|nan|gran|grandma|grandad|grandpa|boss|friend|neighbou?r|client)'?s\b", re.I)
"""The booking is someone else's ("I need to cancel my mum's appointment"): the speaker's name is not its name."""
_OWN_FIELD_WORDS = frozenset("customer caller contact client booker hirer applicant member tenant owner your".split())
_ORGANISATION = frozenset("""home farm rescue services service surgery cottage house ltd limited plc inc co company
    centre center school college hotel clinic practice group shop store garage motors cars estates estate hall church
    club trust council care dental medical pharmacy nursery academy university studio salon cafe pub bar
    inn lodge manor court park gardens office agency associates partners bosch""".split())
"""Words of an organisation's or a house's name ("Greenacres Care Home", "Ivy Cottage", "Mill Hill Surgery")."""
_TITLE_WORDS = frozenset("mr mrs ms miss mx dr prof sir".split())
_FILLER = re.compile(r"^(?:(?:ok(?:ay)?|no(?:\s+thanks?)?|yes|yeah|yep|sure|great|cool|lovely|right|fine|thanks|cheers|"
                     r"sorry|so|well|oh|and|also|then)\b[\s,!.]*)+", re.I)
_STOP = SENTENCE_WORDS | NO_NAME_WORDS | YES_NO_WORDS | frozenset("""
    a an the and or but to for of on in at with from by as be been he she his her its it's they them these those
    here then now so cool lovely not cheers btw just also again too after need want have has got get dont don't
    do does did could would should will shall any anything nothing none thing things number mobile phone tel
    telephone email mail address ref reference postcode code booking book booked name names under today tomorrow
    tonight morning afternoon evening night plus well oh road rd street st lane ln avenue ave close drive dr way
    crescent place court terrace flat house unit landline home work office daytime evenings weekends only mums
    dads mum dad husband wife partner son daughter landlord tenant neighbour
    """.split())
"""Words no person's name is made of: those `clean_name` knows (a sentence's, a yes's, a greeting's), the words of
giving contact details, street words (a two-word street is not a name) and relations."""
_CONTRACTION = re.compile(r"'(?:ll|d|ve|re|m|s)$|n't$")
"""I'll, we'd, they're, don't: words of a sentence, never of a name (O'Neill is kept)."""
_CALENDAR = {w.lower() for w in [*WEEKDAYS, *MONTHS]}


@dataclass
class _Slot:
    """The name field to fill: in a record that exists (`rec`), or in the constructor statement `opening` (line
    index, line, argument span, arguments, worksheet) of a record the turn opens."""

    field: "Field"
    rec: "TaskRecord | None" = None
    opening: tuple | None = None


def given_name(reader: "TurnReader", text: str) -> None:
    slot = _name_slot(reader)
    if slot is None:
        return
    names = {n for n in names_in(reader, text, slot.field) if not any(_read_as_value(n, line) for line in reader.lines)}
    if len(names) != 1:
        return
    said = names.pop()
    name = said.title() if said.islower() else said
    f = slot.field
    _out_of_stories(reader, said)
    if slot.rec is not None:
        reader.assign("value-for-other-field", name, slot.rec, f, name, how="a person's name given beside other values")
        return
    i, line, span, args, ws = slot.opening
    _replace(reader, i, line, _with_value(line, span, args, f.name, name), "given-name", name, ws.name, f.name,
             reason="a person's name given beside other values")


def _out_of_stories(reader: "TurnReader", name: str) -> None:
    """A story the turn's reading tells along with the name ("Name: Li Na Zhou... someone withdrew 800 dollars")
    loses the name and its cue: the name is a value of its own now."""
    said = re.compile(rf"(?:\b(?:my\s+)?name(?:'?s|\s+is)?\s*:?\s*|\b(?:it'?s|i'?m|this\s+is)\s+)?{re.escape(name)}"
                      rf"(?:\s+here)?\s*[,.;:!-]*\s*", re.I)
    for i, line in enumerate(reader.lines):
        for story in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
            if not said.search(story) or _read_as_value(name, f'"{story}"'):
                continue
            rest = said.sub(" ", story, count=1).strip(" ,.;:-")
            if len(rest.split()) >= 3:
                _replace(reader, i, line, line.replace(f'"{story}"', f'"{rest}"', 1), "name-out-of-story", name,
                         "", "", reason="the name is read as a value of its own")
            break


def _read_as_value(name: str, line: str) -> bool:
    """The turn's reading already holds the name as a value of its own ("Priya Shah" as another field's value); a
    story that only tells it along ("Name: Li Na Zhou... someone withdrew 800 dollars") does not."""
    low = name.lower()
    return any(low in v.lower() and len(v) <= 2 * len(name) + 10 for v in re.findall(r'"((?:[^"\\]|\\.)*)"', line)) \
        or (low in line.lower() and '"' not in line)


def _self_named_field(f: "Field") -> bool:
    """The name field is the speaker's own ("Your full name", a customer's, a caller's, the name a booking is under):
    "it's Gareth Lloyd" names the speaker, never a pupil or a patient."""
    words = set(re.findall(r"[a-z]+", f.description.lower())) | set(f.name.lower().split("_"))
    return bool(words & _OWN_FIELD_WORDS) or bool(NAME_UNDER.search(f.description))


def _name_fields(reader: "TurnReader", fields: list["Field"]) -> list["Field"]:
    return [f for f in fields if f.kind == "input" and reader.view.kind_of(f) == "str" and person_name_field(f)]


_PERSON_HINTS = frozenset("""passenger passengers caller patient customer client hirer holder member guest applicant
    contact parent guardian student learner pupil driver owner tenant booker buyer sender recipient resident visitor
    donor lead main person you your""".split())
_THING_HINTS = frozenset("""pet pets dog cat animal maiden security secret answer company business organisation
    organization school product item street road town city village building venue event team club brand model""".split())
"""Words of a description of some other name: a pet's, a company's, a security answer ("mother's maiden name")."""


def person_name_field(f: "Field") -> bool:
    """A field for a person's name: by its shape, or by a description that says whose name it is ("Full name of
    the lead passenger", "The name the booking is under"); never a thing's or a pet's name ("Your dog's name")."""
    if f.free_text or shape(f) not in ("name", "short"):
        return False
    if shape(f) == "name":
        return True
    desc = f.description.lower()
    if not re.search(r"\bnames?\b", desc) or re.search(r"'s\s+name\b", desc):
        return False
    words = set(re.findall(r"[a-z]+", desc)) | set(f.name.lower().split("_"))
    if words & _THING_HINTS:
        return False
    return bool(NAME_UNDER.search(desc)) or bool(words & _PERSON_HINTS)


def _name_slot(reader: "TurnReader") -> _Slot | None:
    """The one unfilled person-name field of the records the turn opens, fills or was asked about; else None."""
    opened = [_Slot(f, opening=(i, line, span, args, ws)) for i, line, span, args, ws, given in _constructed(reader)
              for f in _name_fields(reader, ws.fields) if f.name not in given]
    if opened:
        return opened[0] if len(opened) == 1 else None
    recs = {}
    for line in reader.lines:
        m = re.match(r"(\w+)\.\w+ = ", line)
        rec = reader.state.get(m.group(1)) if m else None
        if rec is not None and hasattr(rec, "values") and hasattr(rec, "worksheet"):
            recs[rec.var] = rec
    if reader.expect is not None:  # the record asked about, and the records it is part of (an address's booking)
        for rec in [reader.expect.rec, *reader.state.ancestors(reader.expect.rec)]:
            recs.setdefault(rec.var, rec)
    found = []
    for rec in recs.values():
        if not reader.view.record_live(rec):
            continue
        pending = reader.view.pending.get(rec.var, {})
        found += [_Slot(f, rec=rec) for f in _name_fields(reader, reader.view.input_fields(rec))
                  if reader.view.unfilled(rec, f) and f.name not in pending]
    return found[0] if len(found) == 1 else None


def names_in(reader: "TurnReader", text: str, field: "Field") -> list[str]:
    """The names the turn gives for the name field `field` (see the module's docstring)."""
    out = []
    for m in _NAME_CUE.finditer(text):
        name = _name_at(reader, text[m.end():], capitalised=False)
        if name:
            out.append(name)
    if (cue := _field_cue(field)) is not None:
        for m in cue.finditer(text):  # "student is Ruby Shah" for the student's name; not "the driver is Polish"
            name = _name_at(reader, text[m.end():], capitalised=not text.islower())
            after = text[m.end():].lstrip()[len(name or ""):]
            if name and len(name.split()) >= 2 and (not text.islower() or (len(name.split()) == 2 and
                                                                            re.match(r"\s*(?:$|[,.;!?])", after))):
                out.append(name)
    for m in _SELF_CUE.finditer(text) if _self_named_field(field) and not _SOMEONE_ELSES.search(text) else ():
        name = _name_at(reader, text[m.end():], capitalised=True)
        after = text[m.end():].lstrip()[len(name or ""):]
        if name and len(name.split()) >= 2 and not re.match(r"\s+(?:and|&)\s+[A-Z]", after):
            out.append(name)  # not "Hi it's Sarah Jones and Tom Baker": two people, no one name
    for m in _NAME_HERE.finditer(text) if _self_named_field(field) else ():  # "Derek O'Malley here, account ..."
        name = _name_at(reader, m.group("name"), capitalised=True)
        if name and name == m.group("name") and len(name.split()) >= 2 and all(w[0].isupper() for w in name.split()) \
                and not {w.lower() for w in name.split()} & (_ORGANISATION | _TRADE_WORDS):
            out.append(name)
    for m in _SUBJECT.finditer(text) if not _self_named_field(field) or _YOUR_KINS.search(field.description) else ():
        # "Noah Bennett won't be in today" for "Your child's full name"
        name = _name_at(reader, m.group("name"), capitalised=True)
        if name and name == m.group("name") and len(name.split()) >= 2 and all(w[0].isupper() for w in name.split()) \
                and not {w.lower() for w in name.split()} & (_ORGANISATION | _TRADE_WORDS) \
                and name.split()[0].lower().rstrip(".") not in _TITLES \
                and not re.search(r"\b(?:" + "|".join(_TITLES) + r")\.?\s*$", text[:m.start("name")], re.I):
            out.append(name)
    for m in _BEFORE_BIRTH.finditer(text):  # "Daniel Osei, DOB 14/02/1989": whose date of birth follows
        name = _name_at(reader, m.group("name"), capitalised=not text.islower())
        if name and len(name.split()) >= 2 and name == m.group("name") and \
                (text.islower() or all(w[0].isupper() for w in name.split())):
            out.append(name)
    asked = reader.expect.field if reader.expect is not None else None
    read = {re.sub(r"\W", "", v).lower() for v in re.findall(r'= "([^"]*\d[^"]*)"', " ".join(reader.lines))}
    beside = asked is not None and not person_name_field(asked)
    # a phone or a reference asked or read from the turn, and a name typed beside it (the name asked is the answer's)
    for clause in re.split(r"\s*(?:[,;!?\n]|\.(?=\s|$)|\s-\s|\band\b)\s*", text) if beside else ():
        words = _FILLER.sub("", clause).strip()
        m = re.match(rf"({_TOKEN}(?:\s+{_TOKEN}){{1,2}})(?=\s+(?:{_NUMBER.pattern}|{_EMAIL})|$)", words)
        whole = _name_at(reader, m.group(1), capitalised=False) if m else None
        typed = whole is not None and (all(w[0].isupper() for w in whole.split()) or text.islower())
        number = _by_a_number(text, words, whole) if typed and whole == m.group(1) else None
        if number and (shape(asked) == "code" or re.sub(r"\W", "", number).lower() in read) \
                and not _after_a_street(text, whole):
            out.append(whole)
    return out


_NAME_HERE = re.compile(rf"(?:^|(?<=[.!?,;])\s*)(?:(?:hi|hello|hey|morning|evening)[,!\s]+)?"
                        rf"(?P<name>{_TOKEN}(?:\s+{_TOKEN}){{1,2}})\s+here\b", re.I)
"""The speaker naming themselves as callers do: "Derek O'Malley here"."""
_TRADE_WORDS = frozenset("""accounts payable receivable billing sales support team department dept desk reception
    gas electric electricity water power energy control pest police fire ambulance council british national royal
    international global city county security maintenance facilities admin administration office hr payroll
    customer customers services service solutions systems management""".split())
"""Words of a department's or a company's name said as callers say their own ("Accounts Payable here", "British Gas
here"): no person's name."""
_SUBJECT = re.compile(rf"(?:^|(?<=[.!?;,])\s*)(?:(?:hi|hello|hey|hiya|morning|afternoon|evening)[,!\s]+)?"
                      rf"(?P<name>{_TOKEN}(?:\s+{_TOKEN}){{1,2}})\s+(?:won'?t\s+be\s+(?:in|coming|at|attending|able\s+to\s+"
                      r"(?:come|attend|make))|can'?t\s+(?:come|make\s+it|attend)|isn'?t\s+(?:well|coming|in)|is\s+(?:off|ill|"
                      r"sick|poorly|unwell|not\s+well)|(?:has|'s)\s+been\s+(?:sick|ill|poorly|unwell|off))\b", re.I)
"""A first and last name written with capitals as the subject of a clause that says the person is away or unwell
("Noah Bennett won't be in today", "Hi, Ava Price is off sick"): the name for a field that is not the speaker's own
(a pupil's, a patient's); "I" never says it. Not a name with a title ("Mrs Patel", a teacher's), and not what a
firm or a teacher "needs" or "has" (an attack pass: "Network Rail needs a fit note", "Mrs Ward needs the form")."""
_TITLES = tuple(sorted(_TITLE_WORDS | {"nurse", "dame", "rev", "coach", "teacher"}))
"""Titles before a name: staff ("Mrs Patel", "Nurse Kelly"), not the child or patient a turn is about."""
_YOUR_KINS = re.compile(r"\byour\s+[a-z]+(?:'|’)s\s", re.I)
"""A field for someone of the speaker's ("Your child's full name"): not the speaker's own name."""
_BEFORE_BIRTH = re.compile(rf"(?:^|(?<=[.,;!?])\s*)(?P<name>{_TOKEN}(?:\s+{_TOKEN}){{1,2}})\s*[,:-]?\s*"
                           r"(?:dob|d\.o\.b\.?|date\s+of\s+birth|born(?:\s+on)?)\b", re.I)
"""A clause of two or three words of its own right before a date of birth's label: the person it belongs to."""
_NOT_WHOSE = frozenset("name full first last given family sur your my the of".split())


def _field_cue(field: "Field") -> re.Pattern[str] | None:
    """ "student is Ruby Shah", "the lead passenger's name is ...": the words of the field's name that say whose
    name it holds, then "is" or a colon."""
    whose = [w for w in field.name.lower().split("_") if w not in _NOT_WHOSE and len(w) > 2]
    if not whose:
        return None
    words = r"\s+".join(re.escape(w) for w in whose)
    return re.compile(rf"\b(?:the\s+)?{words}(?:'?s\s+name)?\s*(?:is|:|-|=)\s+", re.I)


_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
"""An e-mail address, which a name is typed beside as it is beside a phone number ("Gary Firth gfirth62@...")."""
_NUMBER = re.compile(r"(?:\+?\d[\d ()-]{5,}\d|[A-Za-z]{1,4}-?\d{3,}[A-Za-z]{0,2})(?![\w-])")
"""A phone number or a reference ("07700 900333", "VH-11902"): what a name is typed beside."""


def _after_a_street(text: str, name: str) -> bool:
    """ "14 mill lane, milton keynes, 07700 900333": the words after a street are its town, not a name."""
    from .addresses import find_addresses  # late: addresses imports the opening helpers
    at = text.lower().find(name.lower())
    return any(a.end <= at and not text[a.end:at].strip(" ,") for a in find_addresses(text))


def _by_a_number(text: str, clause: str, name: str) -> str | None:
    """The phone number or reference right before or after the name ("hannah whitfield, 07700 900333", "Leon Carter
    07400 118822", "VH-11902, Amir Haddad"), or None."""
    at = text.find(name)
    if at < 0:
        return None
    after, before = text[at + len(name):], text[:at]
    m = re.match(r"\s*[,;]?\s*(" + _NUMBER.pattern + "|" + _EMAIL + ")", after)
    if m:
        return m.group(1)
    m = re.search("(" + _NUMBER.pattern + r")\s*[,;]\s*(?:(?:and|its|it's|name)\s+)?$", before, re.I)
    return m.group(1) if m else None


def _name_at(reader: "TurnReader", rest: str, *, capitalised: bool) -> str | None:
    """The one to three words `rest` starts with when they can be a person's name; None otherwise."""
    m = re.match(rf"\s*({_TOKEN}(?:\s+{_TOKEN}){{0,2}})(?![\w'’-])", rest)
    words = []
    for word in (m.group(1).split() if m else []):
        if not_a_name_word(word) or (capitalised and not word[0].isupper()):
            break
        words.append(word)
    if words and words[0].lower().rstrip(".") in _TITLE_WORDS:
        if len(words) < 2:
            return None  # "names Mr and Mrs Patel": two people
    name = " ".join(words)
    if not words or _spec_word(reader, name) or _in_kb(reader, name) or \
            {w.lower() for w in words} & _ORGANISATION:
        return None
    return name


def not_a_name_word(word: str) -> bool:
    """A word no person's name is made of: a sentence's ("That will be me"), a street's, a day's or a month's."""
    low = word.lower().replace("’", "'")
    return low in _STOP or low in _CALENDAR or bool(_CONTRACTION.search(low))


def _spec_word(reader: "TurnReader", name: str) -> bool:
    """A word of the spec's worksheet and field names or of its options: "Leeds" may be a name, "Cancel" is not.
    Worked out once per turn, and only for a turn that gives a name candidate."""
    cache = reader.view.memo.get("spec_name_words")
    if cache is None:
        options = [v.value for w in reader.spec.worksheets for f in w.fields for v in f.enum_values]
        cache = reader.view.memo["spec_name_words"] = _spec_words(reader) | {s for o in options for s in content_stems(o)}
    return any(stem(w.lower()) in cache for w in name.split())


_UNDER_ME = re.compile(r"\bunder\s+(?:me|my\s+name)\b(?!\s+(?:and|&)\b)", re.I)
"""The booking is put under the speaker: "book it under me as well", "and it's under my name"."""
_SELF_BEFORE = re.compile(r"(?:\b(?:it'?s|that'?(?:ll|d)\s+be|it'?ll\s+be|just)\s+me|\bi'?ll\s+be\s+the\s+one\b[^.;!?]*|"
                          r"^\W*me|\bi'?m|\bi\s+am|\bmyself)\s*[,:-]?\s*$", re.I)
"""The name given is the speaker's: "that'll be me, Anita Desai", "I'll be the one staying with them, Claire ..."."""
_NOT_UNDER = re.compile(r"\b(?:not|n't|never)\s+(?:\w+\s+){0,2}under\b|\balready\b", re.I)
_NAME_LINE = re.compile(r'^(\w+)\.(\w+) = "([^"]+)"$')


def name_under_me(reader: "TurnReader", text: str) -> None:
    """ "that'll be me, Anita Desai. and it's under my name": the name this turn gave one person's name field (the
    adult who comes) is also the name the booking is under, the record's one other empty name field that is the
    speaker's own ("The name the booking is under", a contact's). Only when the turn says the name is the
    speaker's ("that'll be me, ...", "I'm ..."): an attack pass found "Leo Marsh, put it under me, I'm paying" (the
    son's name) and "Tom Riley, under my name" (the teacher's) copied to the booker."""
    under = _UNDER_ME.search(text)
    if under is None or _NOT_UNDER.search(text):
        return
    given = [m for line in reader.lines if (m := _NAME_LINE.match(line))]
    if len(given) != 1:
        return
    var, name, value = given[0].groups()
    at = text.find(value)
    if at < 0 or not _SELF_BEFORE.search(text[:at]):
        return  # "my son Leo Marsh is driving, but book it under my name": the name given is someone else's
    rec = reader.state.get(var)
    if rec is None or not hasattr(rec, "worksheet"):
        return
    fields = reader.view.input_fields(rec)
    said = next((f for f in fields if f.name == name), None)
    if said is None or not person_name_field(said):
        return
    others = [f for f in fields if f.name != name and person_name_field(f) and reader.view.unfilled(rec, f)]
    own = [f for f in others if _self_named_field(f)]
    if len(others) == 1 and own:
        reader.assign("name-under-me", under.group(0), rec, own[0], value)
