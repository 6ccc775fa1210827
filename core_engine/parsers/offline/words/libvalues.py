"""Values read through well-kept libraries: phone numbers, dates the patterns miss, number words, names.

`phonenumbers` finds phone numbers as typed; `dateparser` reads relative dates the regular
patterns of `offline_values` do not ("on the 3rd of next month"), and its reading is kept only
when it agrees with what the words say (a named weekday must be that day; a booking date is
not in the past); `word2number` reads large number words ("one hundred and twenty").
A person's name is the name span, not the sentence, and a bare yes/no/ok is never a value.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ....spec.model import Field
from .values import TITLE, WEEKDAYS, Span, normalise, yes_no

PHONE_WORDS = frozenset({"phone", "telephone", "mobile", "cell", "cellphone", "tel", "contact"})
_DEFAULT_REGION = "US"


def is_phone_field(f: Field) -> bool:
    """A str field whose name or description says it holds a phone number."""
    name_words = set(f.name.lower().split("_"))
    desc_words = set(re.findall(r"[a-z]+", f.description.lower()))
    if name_words & {"name", "email", "address"}:
        return False  # contact_name, contact_email: the contact's name or address, not a number
    return bool(name_words & PHONE_WORDS or desc_words & (PHONE_WORDS - {"contact"}))


def find_phones(text: str) -> list[Span]:
    """Phone numbers as the user typed them ("(555) 880-1200", "+44 20 7946 0958")."""
    import phonenumbers

    out = []
    for m in phonenumbers.PhoneNumberMatcher(text, _DEFAULT_REGION, leniency=phonenumbers.Leniency.POSSIBLE):
        if sum(c.isdigit() for c in m.raw_string) >= 7 and not _inside_token(text, m.start, m.end):
            out.append(Span(m.raw_string, m.start, m.end, m.raw_string))
    if not out:  # "07700 900123": a national number outside the default region, with its trunk prefix 0
        out = [Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _TRUNK_NUMBER.finditer(text)
               if 8 <= sum(c.isdigit() for c in m.group(0)) <= 12]
    return out


def _inside_token(text: str, start: int, end: int) -> bool:
    """Digits that are part of a longer token: a reference's number ("PN-4471982", "22/40417/24") is no phone."""
    before, after = text[max(0, start - 2):start], text[end:end + 2]
    return bool(re.fullmatch(r"\w[-/]", before) or re.match(r"[-/]\w", after) or re.search(r"\w$", before)
                or re.match(r"\w", after))


_TRUNK_NUMBER = re.compile(r"(?<![\w+/.-])(?:\(0\d{1,4}\)|0\d{1,4})(?:[ -]?\d{2,4}){1,3}(?![\w/-])(?!\.\d)")
"""A number dialled within its country: a leading 0 (in brackets or not), then groups of digits; a full stop after
it ends the sentence ("07700 900118. no email thanks"), one before a digit makes it a decimal."""


def bare_yes_no(text: str) -> bool:
    """ "yes", "ok", "no thanks": an answer to a yes/no question, never a name or a text value."""
    yn = yes_no(normalise(text))
    return yn is not None and not yn[2].strip(" ,.!?;")


_DATE_HINT = re.compile(r"\b(?:next|this|coming|last|week|month|day|days|weeks|months|from|after|before|"
                        r"mon|tue|wed|thu|fri|sat|sun|\d{1,2}(?:st|nd|rd|th))\b", re.I)


_WARM = False


def warm_up() -> None:
    """dateparser's first call loads its language data (about 0.3 s) and phonenumbers' import its metadata:
    paid once, with the model, not mid-turn."""
    global _WARM
    if not _WARM:
        _WARM = True
        parse_date("next tuesday the 9th", dt.date(2024, 7, 1))
        find_phones("call (555) 880-1200")


_DURATION = re.compile(r"^(?:a|an|one|a\s+couple\s+of|a\s+few|several|\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:days?|weeks?|months?|years?|nights?)$", re.I)
_FROM_NOW = re.compile(r"^\s*(?:from\s+(?:now|today)|later|ago|after|hence)\b", re.I)
_ORDINAL_POSITION = re.compile(r"^(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\s+(?:one|ones|option|choice|result|row|item|entry)\b",
                               re.I)


def not_a_date(text: str, words: str) -> bool:
    """English that dateparser reads as a date but that says something else: a length of time ("6 days",
    "a week" - a date only with "in ..." or "... from now") or a position in a list ("the 2nd one")."""
    words = words.strip()
    if _ORDINAL_POSITION.match(words):
        return True
    if not _DURATION.match(words):
        return False
    start = text.find(words)
    before, after = text[:max(start, 0)], text[max(start, 0) + len(words):]
    return not re.search(r"\b(?:in|within|after)\s*$", before, re.I) and not _FROM_NOW.match(after)


def parse_date(text: str, today: dt.date, *, past: bool = False) -> Span | None:
    """A date `dateparser` finds in the text, kept only when it agrees with the words."""
    if not _DATE_HINT.search(text):
        return None
    from dateparser.search import search_dates

    base = dt.datetime.combine(today, dt.time(12))
    settings: dict[str, Any] = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past" if past else "future",
                                "RETURN_AS_TIMEZONE_AWARE": False, "REQUIRE_PARTS": ["day"]}
    try:
        found = search_dates(text, languages=["en"], settings=settings) or []
    except Exception:  # noqa: BLE001 - a library failure means no date, never a crash
        return None
    for words, when in found:
        d = when.date()
        if not_a_date(text, words):
            continue
        named = [WEEKDAYS[w] for w in re.findall(r"[a-z]+", words.lower()) if w in WEEKDAYS]
        if named and d.weekday() != named[0]:
            continue  # "friday the 12th" read as another day: not trusted
        if (d < today and not past) or (d > today and past) or abs((d - today).days) > 366:
            continue
        start = text.find(words)
        return Span(d.isoformat(), max(start, 0), max(start, 0) + len(words), words)
    return None


_NUMBER_WORDS = re.compile(r"\b(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
                           r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
                           r"seventy|eighty|ninety|hundred|thousand|million|and|-)\s*)+\b", re.I)


def find_large_numbers(text: str) -> list[Span]:
    """Number words with "hundred", "thousand" or "million" ("two hundred and fifty") via word2number."""
    from word2number import w2n

    out = []
    for m in _NUMBER_WORDS.finditer(text):
        words = m.group(0).strip(" -")
        if not re.search(r"hundred|thousand|million", words, re.I):
            continue
        words = re.sub(r"^(?:and\s+)+|(?:\s+and)+$", "", words, flags=re.I)
        start = m.start()
        article = re.search(r"\b(?:a|an|one)\s+$", text[:start], re.I)
        if re.match(r"(?:hundred|thousand|million)\b", words, re.I):  # "a hundred and twenty" is 120, not 2000
            words = "one " + words
            start = article.start() if article else start
        try:
            end = m.start() + len(m.group(0).rstrip())
            out.append(Span(w2n.word_to_num(words), start, end, text[start:end].strip(" -")))
        except ValueError:
            continue
    return out


NAME_INTRO = re.compile(r"\b(?:(?:my|his|her|their|the\s+patient'?s?|the|our|your)\s+(?:full\s+|first\s+|last\s+)?"
                         r"name(?:\s+is|\s+was|\s?'s)|^name(?:'s|\s*:)|(?:he|she|they)\s+(?:is|are)\s+called|(?:is\s+)?called|named|"
                         r"(?:it'?s|it\s+is|this\s+is)\s+for(?:\s+(?:my|our)\s+\w+)?|for\s+(?:my|our)\s+\w+|"
                         r"i\s+am|i'?m|this\s+is|call\s+me|under)\s+", re.I)
_UP, _LOW, _ANY = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ", "a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ", "A-Za-zÀ-ÖØ-öø-ÿĀ-ſ"  # letters with accents too ("Tomás", "Zoë Ødegaard")
_CAP_RUN = re.compile(rf"\b([{_UP}][{_ANY}'’-]*[{_LOW}](?:\s+(?:[{_UP}][{_ANY}'’-]*[{_LOW}]|[{_UP}]\.|[A-HJ-ZÀ-ÖØ-Þ](?=\s+[{_UP}][{_LOW}])))*)")
"""A run of capitalised words, with an initial ("J.") or a one-letter particle ("Ó" of "Éamonn Ó Súilleabháin")."""
_NOT_NAMES = frozenset({"I", "Hi", "Hello", "Hey", "Yes", "No", "Ok", "Okay", "Sure", "Thanks", "Thank", "Please",
                        "Dr", "Mr", "Mrs", "Ms", "The", "My", "It", "This", "That", "Monday", "Tuesday", "Wednesday",
                        "Thursday", "Friday", "Saturday", "Sunday"})


_NOT_NAME_TAIL = frozenset("""and but is was off up out away back down over about in on at to for by with from it that
this the a an now then""".split())
"""Words after an intro that show it is a verb, not a name ("the party's been called off", "I'm in", "I'm off")."""


def name_span(text: str) -> str | None:
    """The person's name in a sentence: "His name is Tom Baker" -> "Tom Baker", "it's for my son Leo Park"."""
    body = TITLE.sub("", normalise(text).strip())
    intros = list(NAME_INTRO.finditer(body))
    if not body.islower():  # typed with capitals: the name is the capitalised run right after an intro
        for intro in reversed(intros):
            run = _CAP_RUN.match(body[intro.end():])
            if run and run.group(1).split()[0] not in _NOT_NAMES:
                return run.group(1)
    m = intros[-1] if intros else None
    if m and not body.islower() and not _CAP_RUN.match(body[m.end():]):
        m = None  # "..., and I'm not international": the intro leads to no name; look elsewhere
    tail = body[m.end():] if m else body
    words = re.findall(rf"[{_ANY}][{_ANY}'’.-]*", tail)
    if m and 1 <= len(words) <= 4 and not any(w.lower() in _NOT_NAME_TAIL for w in words):
        name = " ".join(words).strip(".")
        return name.title() if name.islower() else name
    runs = [r.group(1) for r in _CAP_RUN.finditer(tail) if r.group(1).split()[0] not in _NOT_NAMES]
    runs = [r for r in runs if len(r.split()) >= 2 or m is not None]
    if not runs and m is not None:  # "Priya Raman, I'm 34": the intro leads to another value, the name is before it
        runs = [r.group(1) for r in _CAP_RUN.finditer(body[:m.start()])
                if r.group(1).split()[0] not in _NOT_NAMES and len(r.group(1).split()) >= 2]
    return runs[-1] if runs else None
