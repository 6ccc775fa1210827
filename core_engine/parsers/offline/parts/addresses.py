"""Street addresses in a turn, for a str field whose name or description speaks of an address.

"I live at 14 Alder Street" answers the home address with "14 Alder Street"; "Li Wei, 301 Cedar Boulevard"
gives the name asked and, beside it, the address. An address is a house number, one to four words and a
street-type word (English street types, not any agent's values); an e-mail address is never one."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from ....spec.model import Field
from ..words.values import Span, find_postcodes

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ..parser import TurnReader

_STREET_TYPES = (r"street|st|road|rd|avenue|ave|av|boulevard|blvd|lane|ln|court|ct|drive|dr|way|place|pl|"
                 r"terrace|ter|crescent|cres|close|highway|hwy|parkway|pkwy|square|sq|alley|circle|cir|"
                 r"plaza|row|walk|trail|grove|gardens|hill|park")
_FUNCTION_WORDS = {"and", "or", "the", "a", "an", "at", "in", "on", "for", "is", "to", "of", "my", "with", "but",
                   "it", "its", "it's", "are", "was", "by", "from", "not", "no", "please"}
_ADDRESS = re.compile(rf"(?<![\w@.-])(\d{{1,5}}[A-Za-z]?)\s+((?:[A-Za-z][\w'’.-]*\s+){{1,4}}?)({_STREET_TYPES})\b\.?",
                      re.I)


def is_address_field(f: Field) -> bool:
    """A str field for a postal or street address (not an e-mail address)."""
    words = set(f.name.lower().split("_")) | set(re.findall(r"[a-z-]+", f.description.lower()))
    return "address" in words and not words & {"email", "e-mail", "mail", "ip", "web", "url"}


def is_postcode_field(f: Field) -> bool:
    """A str field for a postcode or zip code ("postcode", "The postal code"): its value is that one code."""
    words = set(f.name.lower().split("_")) | set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & {"postcode", "postcodes", "zip", "zipcode"}) or \
        re.search(r"\bpostal[\s_]code\b", f"{f.name} {f.description}", re.I) is not None


def find_addresses(text: str) -> list[Span]:
    """Street addresses as typed ("14 Alder Street", "220 Harbor View Rd."), without a trailing full stop."""
    out = []
    for m in _ADDRESS.finditer(text):
        words = m.group(2).split()
        if any(w.lower() in _FUNCTION_WORDS for w in words):
            continue  # "7 and the place": words of a sentence, not a street's name
        raw = m.group(0)
        value = raw.rstrip(".")
        out.append(Span(value, m.start(), m.start() + len(value), value))
    return out


def _codes_after(text: str, end: int) -> list[Span]:
    """The postcodes said after a street that ends at `end`, with at most three words (its towns) between."""
    return [p for p in find_postcodes(text) if p.start >= end
            and re.fullmatch(r"[,\s]+(?:[A-Za-z][\w'-]*[,\s]+){0,3}", text[end:p.start])]


def addresses_with_postcodes(text: str) -> list[Span]:
    """A street address and the postcode said right after it ("7 Kiln Lane HX2 9PL", "7 Kiln Lane, Hexby, HX2 9PL"):
    one value, for a field that asks for the address with its postcode."""
    out = []
    for a in find_addresses(text):
        codes = _codes_after(text, a.end)
        if codes:
            out.append(Span(text[a.start:codes[0].end], a.start, codes[0].end, text[a.start:codes[0].end]))
    return out


def whole_addresses(text: str, with_code: bool) -> list[Span]:
    """Street addresses with what is written around them as one address: a flat, unit or building before the
    street ("Flat 3, 27 Cavendish Rd", "Lindqvist Marine Ltd, Unit 5 Dock Street") when it follows a lead-in
    ("at", "to", a colon) or starts the sentence, and the towns and the postcode after it ("..., Bristol BS6 7RL"; the
    postcode only `with_code`, when no field of its own takes it; towns only before a postcode). A name before the
    street is no part of it."""
    out = []
    for a in find_addresses(text):
        start, end = a.start, a.end
        stop = max(text.rfind(c, 0, a.start) for c in ".?!:;")
        lead = list(_HEAD_LEAD.finditer(text, max(stop + 1, 0), a.start))
        head_from = lead[-1].end() if lead else (stop + 1 if stop >= 0 else 0)
        head = text[head_from:a.start]
        if head.strip() and _BUILDING_HEAD.fullmatch(head) and (lead or stop >= 0 or head_from == 0):
            start = head_from + (len(head) - len(head.lstrip()))
        codes = _codes_after(text, a.end)
        if codes:  # the towns between the street and its postcode; without a postcode after it, a capitalised
            # word after a comma may be a day, an option or a name ("14 Elm Road, Leeds, Friday"): the street alone,
            # unless the turn is the address and nothing else ("Flat 2, 19 Station Road, Ashbury")
            end = codes[0].end if with_code else a.end + len(text[a.end:codes[0].start].rstrip(" ,"))
        else:
            towns = _TOWNS_AFTER.match(text, a.end)
            said = towns.group(0).strip(" ,")
            if said and not text[:start].strip(" ,.!") and not text[towns.end():].strip(" .!") \
                    and not _DAY_OR_MONTH.search(said) and len(re.findall(r"[A-Za-z']+", said)) <= 3:
                end = towns.end()
        value = text[start:end].strip(" ,;")
        out.append(Span(value, start, start + len(value), value) if value != a.value else a)
    return out


_DAY_OR_MONTH = re.compile(r"(?i)\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b|\b(?:jan|feb|mar|apr|"
                           r"may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(?:today|tomorrow|tonight)\b")
_HEAD_LEAD = re.compile(r"(?i)\b(?:at|to|is)\s+|:\s*")
_BUILDING_HEAD = re.compile(
    r"\s*(?:(?:(?i:flat|apartment|apt|unit|suite|room|floor)\s+\w{1,4}|(?:The\s+)?[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*){0,4}"
    r"\s+(?:Ltd|Limited|LLP|PLC|Plc|Inc|House|Cottage|Farm|Barn|Building|Centre|Center|Works|Chambers|Offices?)\.?|The\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}),?\s*)+(?:(?i:flat|apartment|apt|unit|suite)\s+)?")
"""What may be written before a street: a flat or unit ("Flat 3, "), a building or firm ("Lindqvist Marine Ltd, ",
"The Old Forge, ") and the unit word of the street's own number ("Unit 5 Dock Street"); not words that are also
surnames ("Amy Hall", "Sue Lodge", "Jenny Court"): a person's name before a street is no part of it."""


def address_answer(reader: "TurnReader", text: str, rec: "TaskRecord", f: Field) -> bool:
    """The asked address field takes the one street address in the answer, not the words around it ("I live
    at ..."); the rest of the turn may fill other fields of the record."""
    if "address" not in f.name.lower().split("_") or not is_address_field(f):
        return False  # a location "street address, intersection or landmark" takes the whole answer
    spans = find_addresses(text)
    if len(spans) != 1:
        return False
    start = spans[0].start
    whole = whole_addresses(text, with_code=True)
    if len(whole) == 1 and whole[0].start < start:
        start = whole[0].start  # "post it to me at Flat 3, 27 Cavendish Rd": the flat is part of it
    sentence_start = max(text.rfind(". ", 0, start), text.rfind("? ", 0, start), text.rfind("! ", 0, start))
    lead = text[sentence_start + 1 if sentence_start >= 0 else 0:start]
    if not _LEAD_IN.search(lead) and not (sentence_start >= 0 and not lead.strip()):
        return False  # "Unit 4, 18 Dockside Road" or "42 Orchard Lane, Millbrook": the answer as it is
    end = re.search(r"[.!?](?:\s|$)", text[spans[0].end:])
    value = text[start: spans[0].end + end.start() if end else len(text)].strip(" .!?")  # "..., Millbrook" stays
    value = with_town(value)
    code = _postcode_beside(reader, rec, f, value)
    if code is not None:  # "5 Mill Court, Hebden Bridge, HX7 8AB": the street and town here, the postcode there
        value = (value[:code[1].start] + value[code[1].end:]).strip(" ,;")
    reader.assign("answer-address", value, rec, f, value, type="str", shape="address")
    if code is not None:
        reader.assign("extra-value", code[1].text, rec, code[0], code[1].value)
    return True


def _postcode_beside(reader: "TurnReader", rec: "TaskRecord", f: Field, value: str) -> tuple[Field, Span] | None:
    """The one postcode at the end of an address, when the record keeps postcodes in a field of their own that
    is still unfilled."""
    codes = [g for g in reader.view.input_fields(rec) if g.name != f.name and reader.view.kind_of(g) == "str"
             and is_postcode_field(g) and reader.view.unfilled(rec, g)]
    spans = find_postcodes(value)
    if len(codes) != 1 or len(spans) != 1 or value[spans[0].end:].strip(" .!?"):
        return None
    return codes[0], spans[0]


_DANGLING = re.compile(r"[\s,;]+(?:(?:and\s+)?(?:the\s+)?(?:post\s?code|zip(?:\s?code)?)(?:\s+is)?|it'?s|it\s+is|its)[\s,;:]*$",
                       re.I)
"""Words left at the end of an address once the postcode said after them went to its own field ("22 Corporation
Road, postcode CF11 7AW", "17 Cedar Grove, it's SE23 1LT")."""


_NOT_AN_ADDRESS_WORD = frozenset("""its it's is with above behind below next near opposite round back one ask for my
    she's he's called door green red blue""".split())
"""Words of a remark beside an address ("14 mill lane, its the one with the green door"): such an answer is kept as
typed, not given capitals."""


def tidy_address(value: str) -> str:
    """An address as it is written: without the words that led to a postcode taken out of it, and with capitals
    when it was typed all in lower case ("14b marlow rd" -> "14b Marlow Rd", "bd7 1qs" -> "BD7 1QS")."""
    value = _DANGLING.sub("", value).strip(" ,;")
    for code in find_postcodes(value):  # "..., CB2 3DT. 2 of us, 2 bags": a new sentence after the postcode
        if re.match(r"\s*[.;!]\s+\S", value[code.end:]):
            value = value[:code.end]
            break
    if value.islower() and not set(re.findall(r"[a-z']+", value)) & _NOT_AN_ADDRESS_WORD:
        value = re.sub(r"(?<![\w'’])([a-z])", lambda m: m.group(1).upper(), value)
        for code in find_postcodes(value):  # "bd7 1qs" -> "BD7 1QS"
            value = value[:code.start] + code.text.upper() + value[code.end:]
    return value


def with_town(value: str) -> str:
    """ "5 Lakeshore Drive in Lakeview" written as an address is: "5 Lakeshore Drive, Lakeview"."""
    return re.sub(rf"(\b(?i:{_STREET_TYPES})\.?)\s+in\s+((?:[A-Z][\w'-]*\s*){{1,3}})$", r"\1, \2", value.strip()).strip()


_LEAD_IN = re.compile(r"^[^\d,]*\b(?:at|on|is|in|from|to|into)\s+$", re.I)
"""Words before the address that lead it in ("I live at ", "it's on ", "address is ", "To "), with no number; an
address that starts a later sentence of the answer needs none ("ok, I can live with that. 5 Lakeshore Drive")."""


def address_beside(reader: "TurnReader", text: str, rec: "TaskRecord", f: Field) -> str:
    """A street address beside the answer to another field ("Li Wei, 301 Cedar Boulevard" to the name) fills
    the record's unfilled address field; the rest of the turn is read as the answer."""
    if is_address_field(f):
        return text
    places = [g for g in reader.view.input_fields(rec) if reader.view.kind_of(g) == "str" and is_address_field(g)
              and reader.view.unfilled(rec, g)]
    spans = find_addresses(text)
    if len(places) != 1 or len(spans) != 1:
        return text
    span = spans[0]
    whole = [w for w in addresses_with_postcodes(text) if w.start == span.start]
    if whole and is_postcode_field(places[0]):  # "Mrs Eileen Cartwright, 112 Wells Road, Knowle, Bristol BS4 2AG"
        span = whole[0]
    else:
        town = _TOWNS_AFTER.match(text, span.end)  # "..., 112 Wells Road, Knowle, Bristol": the towns after it
        if town and town.group(0).strip(" ,"):
            span = Span(text[span.start:town.end()], span.start, town.end(), text[span.start:town.end()])
    rest = (text[:span.start] + text[span.end:]).strip(" ,;.")
    rest = re.sub(r"\s*(?:,|\band\b)?\s*(?:i\s+live|i'm|i\s+am|living|based)\s+(?:at|in|on)\s*$", "", rest, flags=re.I)
    if not rest.strip(" ,;."):
        return text
    reader.assign("extra-value", span.text, rec, places[0], with_town(span.value) if span is not spans[0] else span.value)
    return rest.strip(" ,;.")


def address_region(text: str) -> str | None:
    """The whole address said in a turn of other values: "it's Flat 2, 31 Redland Grove, Bristol BS6 6PR. I'm Priya
    ..." -> "Flat 2, 31 Redland Grove, Bristol BS6 6PR". From the start of the street's sentence (a house name or
    flat before it kept, "it's" dropped) to its postcode, or to the towns after it."""
    streets = find_addresses(text)
    if len(streets) != 1:
        return None
    a = streets[0]
    ends = [text.rfind(stop, 0, a.start) for stop in (". ", "? ", "! ")]
    start = max([e + 2 for e in ends if e >= 0], default=0)
    head = text[start:a.start]
    lead = _REGION_LEAD.match(head)
    head = head[lead.end():] if lead else head
    if head.strip() and not _HOUSE_BEFORE.fullmatch(head):
        head = ""  # words before the street that name no flat or house ("we need someone at")
    codes = _codes_after(text, a.end)
    end = codes[0].end if codes else (_TOWNS_AFTER.match(text, a.end).end())
    value = (head + text[a.start:end]).strip(" ,;.")
    return value or None


_REGION_LEAD = re.compile(r"^\W*(?:(?:it'?s|its|it\s+is|that'?s|the\s+address\s+is|address\s+is|we'?re\s+at|i'?m\s+at|"
                          r"i\s+live\s+at|we\s+live\s+at)\s*[:,]?\s*)", re.I)
_HOUSE_BEFORE = re.compile(r"\s*(?:(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}|(?i:flat|apartment|apt|unit|suite|room)\s+"
                           r"\w{1,4})\s*,?\s*")
"""What may come before the street in its own part: a house's name ("The Old Forge, ") or a flat ("Flat 2, ")."""
_TOWNS_AFTER = re.compile(r"(?:,\s*(?!(?:I|I'm|It|It's|Its|My|We|And|But|Please|Thanks)\b)[A-Z][\w'-]*(?:[\s-]+[A-Z][\w'-]*){0,2}"
                          r"(?=\s*(?:[,.;!?]|$))){0,3}")
"""The towns said after a street, each after a comma: ", Knowle, Bristol" (not ", I'm ..." or ", Thanks")."""


# ---------------------------------------------------------------- a move's two ends: "from X to Y"

_FROM_CUES = {"from", "out", "origin", "pickup", "pick", "current", "old", "leaving", "departure", "collection"}
_TO_CUES = {"to", "destination", "new", "delivery", "deliver", "drop", "dropoff", "arrival", "going"}
_WEEKDAYS_MONTHS = re.compile(r"(?i)^(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                              r"[a-z]*\b")
_END = r"(?=\s*(?:[.!?;]|,\s*(?:on|it'?s|it\s+is|and|we|i|i'm|by|next|this|please)\b|\s+(?:on|by|next|this|and|" \
       r"tomorrow|today|tonight|for|with|in\s+(?:the\s+)?(?:morning|afternoon|evening))\b|$))"
_FROM_TO = re.compile(r"\bfrom\s+(?P<a>[^.!?;]+?)\s+(?:to|into)\s+(?P<b>[^.!?;]+?)" + _END, re.I)
_AT_GOING = re.compile(r"\b(?:i'?m|i\s+am|we'?re|we\s+are|currently|live|living)\s+(?:at|in)\s+(?P<a>[^.!?;]+?)"
                       r"\s*,?\s+(?:and\s+)?(?:going|moving|headed|heading)\s+(?:to|into)\s+(?P<b>[^.!?;]+?)" + _END,
                       re.I)


_PLACE_TO_PLACE = re.compile(r"(?:^|[.!?]\s+)(?P<a>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})\s+to\s+(?:the\s+)?"
                             r"(?P<b>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})\s*(?=[.!?]|$)")
"""A sentence of two places alone: "Downtown to the University District." (both written as names)."""


def direction(f: Field) -> str | None:
    """Which end of a journey an address field is: "from" (moving out of, pickup) or "to" (new, delivery)."""
    if not is_address_field(f):
        return None
    name = set(f.name.lower().split("_"))
    desc = re.findall(r"[a-z]+", f.description.lower())
    for words in (name, set(desc)):
        if words & _FROM_CUES:
            return "from"
        if words & _TO_CUES:
            return "to"
    return None


def _postcode_direction(f: Field) -> str | None:
    """Which end of a journey a postcode field is ("from_postcode", "The postcode you are moving to")."""
    if not is_postcode_field(f):
        return None
    for words in (set(f.name.lower().split("_")), set(re.findall(r"[a-z]+", f.description.lower()))):
        if words & _FROM_CUES and not words & _TO_CUES:
            return "from"
        if words & _TO_CUES and not words & _FROM_CUES:
            return "to"
    return None


_POSTCODE_LINK = re.compile(r"^\s*,?\s*(?:-+>|=+>|>|→|(?i:to|into|then|and)|-|–)\s*(?:[A-Z][\w'’.-]*\s+){0,3}$")
"""What joins the two postcodes of a move: "->", "to", or "to Stroud" (the second town before its postcode)."""


def postcode_ends(text: str, fields: list[Field]) -> dict[str, tuple[str, str]]:
    """Field name -> (postcode, words) for the two ends of a move said as two postcodes: "SN1 4BJ -> GL50 3PR",
    "from GL1 2LR to GL5 1AA". Only for a record with one "from" and one "to" postcode field, and two postcodes
    joined by a word of going (to, ->, then)."""
    ends: dict[str, Field] = {}
    for f in fields:
        d = _postcode_direction(f)
        if d is not None:
            if d in ends:
                return {}
            ends[d] = f
    if set(ends) != {"from", "to"}:
        return {}
    codes = find_postcodes(text)
    if len(codes) != 2 or not _POSTCODE_LINK.match(text[codes[0].end:codes[1].start]):
        return {}
    return {ends["from"].name: (codes[0].value, codes[0].text), ends["to"].name: (codes[1].value, codes[1].text)}


def _place(chunk: str) -> str | None:
    """A chunk that can be an address or a place: a street address or capitalised place words, never a day,
    a month, a time or a bare number ("from 9 to 5", "from Monday to Friday")."""
    chunk = re.sub(r"(?i)^(?:the|my|our)\s+", "", chunk.strip(" ,"))
    if not chunk or _WEEKDAYS_MONTHS.match(chunk) or not re.search(r"[A-Za-z]{3}", chunk):
        return None
    street = find_addresses(chunk)
    if street and street[0].start == 0:
        rest = chunk[street[0].end:]
        town = re.fullmatch(r"\s+in\s+((?:[A-Z][\w'-]*\s*){1,3})", rest)
        return f"{street[0].value}, {town.group(1).strip()}" if town else chunk  # "55 Commerce Ave in Eastgate"
    if all(w[:1].isupper() or w.lower() in ("of", "on", "upon", "de", "la") for w in chunk.split()) \
            and len(chunk.split()) <= 4:
        return chunk  # "Fairview", "University District"
    return None


def journey_ends(text: str, fields: list[Field]) -> dict[str, tuple[str, str]]:
    """Field name -> (value, words said) for the two ends of a move said together: "from 14 Hill Rd, Westhill to
    88 Park Lane", "I'm at 22 Birch Lane, going to 9 Quay Street". Only for a record with one "from" and one
    "to" address field; both ends must read as places."""
    ends = {d: f for f in fields if (d := direction(f)) is not None}
    if set(ends) != {"from", "to"} or len([f for f in fields if direction(f)]) != 2:
        return {}
    for pattern in (_FROM_TO, _AT_GOING, _PLACE_TO_PLACE):
        m = pattern.search(text)
        if not m:
            continue
        a, b = _place(m.group("a")), _place(m.group("b"))
        if a and b:
            return {ends["from"].name: (a, m.group("a")), ends["to"].name: (b, m.group("b"))}
    return {}


# ---------------------------------------------------------------- an address kept in parts: street, town, postcode

_TOWN_WORDS = {"town", "city", "village", "locality", "suburb"}
_UNIT = r"(?:(?i:unit|flat|apartment|apt|suite|room)\s+(?:\d{1,4}[A-Za-z]?,?\s+(?=\d))?)?"
_STREET_START = re.compile(rf"(?<![\w@.-]){_UNIT}\d{{1,5}}[A-Za-z]?\s+[A-Z][A-Za-z'’.-]*(?!\w)(?:\s+[A-Z][A-Za-z'’.-]*(?!\w)){{0,4}}")
_PLACE_NAME = re.compile(r"[A-Z][\w'’.-]*(?:[\s-]+(?:[A-Z][\w'’.-]*|upon|on|le|in|by))*(?:\s+[A-Z][\w'’.-]*)?")
_PART_LEAD = re.compile(r"^(?:[^\d,]*\b(?:at|on|is|in|from|to|into)\s+|[^\d\w]*)$", re.I)


def address_role(f: Field) -> str | None:
    """Which part of an address a str field keeps: "postcode", "town" ("The town or city") or "street" ("The
    house number and street", a street address); None for any other field."""
    if is_postcode_field(f):
        return "postcode"
    name = set(f.name.lower().split("_"))
    desc = set(re.findall(r"[a-z]+", f.description.lower()))
    if name & _TOWN_WORDS or (not name & {"street", "address"} and len(desc & _TOWN_WORDS) and
                              not desc & {"street", "address", "house"}):
        return "town"
    if "street" in name | desc or is_address_field(f):
        return "street"
    return None


def address_roles(fields: list[Field], kind_of: Callable[[Field], str]) -> dict[str, Field | None]:
    """The address parts a worksheet keeps: role -> its str field, or None when two fields claim the part
    (which is which is not for the address rules to guess)."""
    roles: dict[str, Field | None] = {}
    for f in fields:
        role = address_role(f) if kind_of(f) == "str" else None
        if role is not None:
            roles[role] = None if role in roles else f
    return roles


_BUILDING_LEAD = re.compile(r"^(?:[^\d,]*,\s*)?(?P<building>(?:The\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}),\s*$")
"""A building's name before its street ("The Marlowe, 22 Quay Street"), after a request that ends with a comma ("send it
to my hotel pls, ")."""


def split_address(text: str, whole: bool = True, building: bool = False) -> dict[str, tuple[str, str]] | None:
    """An address written in one go, in parts: "9 Church View, Ripon, HG4 1DL", "Unit 6 Fairfield Business Park,
    Doncaster DN4 5HX", "22 Abbey Lane, S7 2QW" -> role -> (value, words said). The street starts with a house
    number (after "Unit 6", "Flat 2") and is written as a name; with `building` (the street field's description speaks
    of a name: "the name and street of your hotel"), a building's name before it is kept with it; the town is the capitalised words between the
    street and the postcode; the postcode has its own shape. With `whole`, the turn must be the address alone,
    after a lead-in ("from ", "it's coming from "): anything else after it and there is no reading."""
    codes = find_postcodes(text)
    if len(codes) > 1:
        return None
    streets = [m for m in _STREET_START.finditer(text)]
    streets = [m for m in streets if not codes or m.end() <= codes[0].start]
    if len(streets) != 1:
        return None
    street = streets[0]
    value = street.group(0)
    known = find_addresses(value)  # "22 Abbey Lane Sheffield": the street ends at its street-type word
    if known and known[0].start == 0:
        value = known[0].value
    lead = text[:street.start()]
    named = _BUILDING_LEAD.match(lead) if building and whole and not _PART_LEAD.match(lead) else None
    if whole and not _PART_LEAD.match(lead) and named is None:
        return None
    out = {"street": (value.strip(), value.strip())}
    if named is not None:  # "The street address, or the name and street of your hotel": the name stays with it
        out["street"] = (f"{named.group('building')}, {value.strip()}", f"{named.group('building')}, {value.strip()}")
    end = street.start() + len(value)
    code = codes[0] if codes else None
    between = text[end: code.start if code else len(text)]
    town = between.strip(" ,")
    if town:
        m = _PLACE_NAME.fullmatch(town)
        if m is None or len(town.split()) > 4:
            if whole or code is not None:
                return None
            town = ""
    if town:
        out["town"] = (town, town)
    if code is not None:
        out["postcode"] = (code.value, code.text)
        tail = text[code.end:]
    else:
        tail = text[end + len(between):] if town else between
    if whole and tail.strip(" .!?,"):
        return None
    return out


def address_parts(reader: "TurnReader", text: str, rec: "TaskRecord", f: Field) -> bool:
    """The address asked, when the record keeps it in parts (a street field, a town field, a postcode field):
    "from 9 Church View, Ripon, HG4 1DL" fills each part the answer gives, not the whole sentence in the street
    nor the postcode in the street. Only a part still unfilled (or the one asked) is filled."""
    roles = address_roles(reader.view.input_fields(rec), reader.view.kind_of)
    asked = address_role(f)
    if asked is None or len(roles) < 2 or None in roles.values() or roles.get(asked, f).name != f.name:
        return False
    street = roles.get("street")
    building = street is not None and "name" in re.findall(r"[a-z]+", street.description.lower())
    parts, rest = split_address(text, building=building), ""
    if not parts:
        head, rest = _address_then_more(text)
        parts = split_address(head, building=building) if rest else None
        if parts and "postcode" not in parts:
            parts = None
    if not parts or asked not in parts:
        return False
    if any(role not in roles for role in parts):
        return False  # "9 Rose Lane, Hollowby" with no town field: the street field keeps the town (other rules)
    for role, (value, said) in parts.items():
        g = roles[role]
        if g.name != f.name and not reader.view.unfilled(rec, g):
            continue
        reader.assign("address-part", said, rec, g, value, part=role)
    if rest:  # "..., BA1 5EX. its a house": the sentence after the address may fill the record's other fields
        reader._extras(rest, rec)
    return True


_AFTER_CODE = re.compile(r"^\s*(?:[.;!?]+|\s[-–—]+)\s+(?=\S)")


def _address_then_more(text: str) -> tuple[str, str]:
    """An address that ends at its postcode, then another sentence or a dashed clause ("3 Mill Row, Hexby, HX2 9PL.
    it's a bungalow", "... HX2 9PL - second floor"): (the address, the rest); ("", "") when the turn is not so."""
    codes = find_postcodes(text)
    if len(codes) != 1:
        return "", ""
    m = _AFTER_CODE.match(text[codes[0].end:])
    if m is None:
        return "", ""
    return text[:codes[0].end], text[codes[0].end + m.end():].strip()


_POSTCODE_LABEL = frozenset("""postcode postcode's post code zip the my it it's its is was should be sorry oh ah no not wrong
    actually correct right one new that's typo mistake i meant mean just noticed""".split())


_STREET_WORD = re.compile(r"\b(?:street|st|road|rd|lane|ln|avenue|ave|close|way|drive|dr|house|office|cottage|court|"
                          r"park|unit|flat|farm|place|square|terrace|crescent|grove|hall|building|estate)\b", re.I)


def new_postcode_in(held: Any, value: str) -> str | None:
    """The address held with its postcode swapped for the one new value gives, when the new value gives a
    postcode and nothing of a street (no other digits): "sorry postcode is TR11 2AD not AB"."""
    if not isinstance(held, str):
        return None
    old, new = find_postcodes(held), find_postcodes(value)
    if len(old) != 1 or len(new) != 1 or old[0].value == new[0].value:
        return None
    rest = value[:new[0].start] + value[new[0].end:]
    named = [w for w in re.findall(r"\b[A-Z][a-z']{2,}\b", rest) if w.lower() not in _POSTCODE_LABEL]
    if re.search(r"\d", rest) or named or _STREET_WORD.search(rest):
        return None  # "send it to my work instead: Harbour Office, ... TR11 3HT" is a new address, not a new postcode
    return held[:old[0].start] + str(new[0].value) + held[old[0].end:]


_PLACE_LEAD = re.compile(r"^(?:(?:i'?m|we'?re|i\s+am|we\s+are|living|i\s+live|we\s+live)\s+)?(?:(?:at|on|in|of|from)\s+)?",
                         re.I)


def place_after_name(reader: "TurnReader", text: str, rec: Any, name: str) -> None:
    """ "Dan Morris, 2 Hawthorn Mews", "it's Mrs Edith Kowalski at 14 Tanners Yard": the name asked for, then where the
    person lives. The place fills the record's one unfilled address field when it has a house or flat number (a
    place without one, "I'm on Museum Gate", may be a pitch or a stall, and is left)."""
    from ..words.answers import PLACE_AFTER_NAME  # late: the answers module imports this package
    m = PLACE_AFTER_NAME.search(text)
    if m is None or name.lower() not in text[:m.start()].lower():
        return
    place = _PLACE_LEAD.sub("", text[m.start():].strip(" ,.;")).strip(" ,.;")
    place = re.sub(r"\s+at\s+(?=\d)", ", ", place)  # "room 3 at 22 Friars Walk" -> "room 3, 22 Friars Walk"
    fields = [f for f in reader.view.input_fields(rec) if reader.view.kind_of(f) == "str" and is_address_field(f)
              and reader.view.unfilled(rec, f)]
    if len(fields) != 1 or not re.search(r"\d", place) or not re.search(r"[A-Za-z]{3}", place):
        return
    place = place[:1].upper() + place[1:] if re.match(r"(?:flat|room|apartment|unit)\b", place, re.I) else place
    reader.assign("extra-value", place, rec, fields[0], place, reason="where the person lives, said after their name")
