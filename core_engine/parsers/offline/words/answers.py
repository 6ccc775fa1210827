"""Reading an answer as a value of a given field: typed values, shapes of text, several values at once.

The offline parser asks this module "what is this text, as a value of field
f?". The answer depends on the field's type (a number, a date, an enum value)
and, for text fields, on the field's *shape* read from its name: an e-mail
field takes the e-mail address in the text, an id field the digit string, a
name field the name without "my name is", a details field the whole sentence.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Callable, Sequence

from rapidfuzz import fuzz

from ....errors import StatementError
from ....spec.model import REFUSAL, Field, Spec, parse_type
from ....dialogue.state import TaskRecord
from ....spec.values import coerce_value, match_enum
from .measures.ordinals import ordinal_number, taught_number
from .measures.counts import head_count, people_sum, times_count
from .measures.durations import converted_duration, field_unit, said_in_other_unit
from .libvalues import NAME_INTRO, bare_yes_no, find_large_numbers, find_phones, is_phone_field, name_span, parse_date
from .match import STOPWORDS, Bag, best_enum, content_stems, initialism_enum, field_mention, field_stems, same_word, stem
from .measures.months import is_month_field, month_answer
from ..intents import waiting
from .thing_names import NAME_OF, only_capitalised, thing_name
from .measures.money import is_money, with_minor_units
from .negation import negations, without_negated
from ..answering.enum_lists import answered_options, is_enum_list
from ..parts.addresses import is_postcode_field
from ..parts.option_words import numbers_disagree
from ..answering.references import off_shape, reference_shapes, shaped_reference
from ..parts.addresses import is_address_field
from ..answering.slots import words_after
from ..answering.slots import PEOPLE_WORDS, UNIT_LINKS, UNIT_SHORT, StateView, number_of, code_value, find_mentions, past_field, shape
from .value_labels import labelled_choice
from .day_parts import day_part_option
from .measures.sizes import converted_size, field_size_unit
from .values import (PART_OF_DAY, TENS, UNITS, Span, bare_hour, clean_name, dotted_clocks, find_codes, find_dates, find_digit_strings, find_emails, find_postcodes,
                     find_numbers, find_times, free, free_text, normalise, strip_fillers, yes_no)

_QUOTED = re.compile(r"(?:^|(?<=[\s:(]))[\"“'‘](?P<q>[^\"“”‘’]{2,300}?)[\"”'’](?=[\s.,!?;:)]|$)")
_TO_WRITE = re.compile(r"^\W*(?:(?:just|please|ok|okay|yes|yeah|and|so|um|erm)[,.\s]+)*(?:(?:can|could|would)\s+"
                       r"(?:it|you|the\s+\w+)\s+(?:please\s+|just\s+)?)?(?:put|write|say|says|read|reads|have\s+it\s+say)"
                       r"\s*[:,-]?\s+(?P<m>.{2,300}?)[\s?]*$", re.I)
_MESSAGE_FIELD = re.compile(r"\b(?:message|card|wording|inscription|writing|dedication)\b", re.I)
_NOT_WORDS = re.compile(r"(?:it|them|her|his|their|him|something|anything|whatever|some|a|an|the|candles?|my|our|your|"
                        r"that|this|what)\b", re.I)
"""What follows "put" or "write" when it is no message: "put it in a box", "put her name on it", "write whatever"."""


def is_message_field(f: Field) -> bool:
    """A field that holds words to write (a card's message, a cake's writing)."""
    return bool(_MESSAGE_FIELD.search(f"{f.name.replace('_', ' ')} {f.description or ''}"))


def said_words(f: Field, text: str) -> str | None:
    """The words to write, for a field that holds a message: the one quoted text of the answer ("could it say
    'Happy 10 years x'"), or what follows "put", "write", "say" ("just put love from Sandra")."""
    if not _MESSAGE_FIELD.search(f"{f.name.replace('_', ' ')} {f.description or ''}"):
        return None
    quoted = [m.group("q").strip() for m in _QUOTED.finditer(text)]
    if len(quoted) == 1:
        return quoted[0]
    m = _TO_WRITE.match(text)
    if m is None or _NOT_WORDS.match(m.group("m")) or re.search(r",\s*(?:and|but|no|also)\b", m.group("m"), re.I):
        return None  # "say happy birthday mum, and can you put candles on it too": more than the words
    return m.group("m").strip()


_HOUR_LAST = re.compile(r"(?:^|[,.?!]\s*)(?:(?:ok(?:ay)?|right|fine|yes|yeah|erm|um|so|hmm)[,.\s]+)*"
                        r"(?:(?:say|about|around|like|at|maybe|let'?s\s+(?:say|do|go\s+for)|go\s+for|make\s+it|"
                        r"shall\s+we\s+say|how\s+about|what\s+about)\s+)?(1[0-2]|[1-9])\s*(?:ish)?"
                        r"(?:[\s,.!]*(?:then|please|is\s+fine|is\s+good|works|would\s+be\s+(?:good|great|best|fine)|"
                        r"if\s+(?:possible|you\s+can|that'?s\s+(?:ok|okay|free))))*\s*[?.!]*\s*$", re.I)
"""To "what time?", an hour that ends the answer: "late morning, 11?", "whenever you open? 9?", "10 then", "ok
let's say 3 please"."""
_PART_HOURS = {"morning": (5, 12), "afternoon": (1, 6), "evening": (4, 11), "tonight": (4, 11), "night": (6, 12)}
"""The hours said without am/pm that each part of the day holds ("late morning, 11?" yes; "morning ... 2" no)."""
_PLACES = {stem(w) for w in ("ticket", "place", "seat", "space", "spot", "pass", "admission", "passenger", "traveller",
                              "adult", "swimmer", "visitor", "attendee", "participant", "member")}
"""Counts of what each person takes or is (a ticket, a seat): a list of people answers them; a room count it does not."""
_KIN_WORDS = frozenset("""grandma grandad granddad grandpa granny gran nan nana nanna nanny auntie aunty aunt uncle mum
    mom dad mother father sis bro ta thanks cheers hi hello hey dear love mate sir madam""".split())
"""A relation or a courtesy before a name ("Grandma, Joyce", "Ta, Jo"): no surname said first."""
_DATE_WORDS_LEFT = re.compile(r"\b(?:from|on|for|at|the|by|until|till|starting|of|arriving|coming|in)\b", re.I)
"""The small words around a date said alone ("from friday 2nd august"): what is left is no other value."""
_SURNAME_FIRST = re.compile(r"\s*([A-Z][a-z'’-]+(?:-[A-Z][a-z'’-]+)?)\s*,\s*([A-Z][a-z'’-]+)\s*\.?\s*")
_PERSON_CUE = re.compile(r"\b(?:ask\s+for|speak\s+to|name|i'?m|it'?s|under|contact)\b", re.I)
"""Words that lead to a person's name later in an answer ("Hughes Farm, ask for Rhys Hughes")."""
_FOR_AN_HOUR = re.compile(r"\b(?:(?:be|get)\s+(?:there|here|in)\s+(?:for|at|by)|arrive\s+(?:for|at|by)|like|after)\s+(1[0-2]|[1-9])\b(?!\s*(?:people|persons|guests|of\s+us|"
                          r"adults?|kids|children|days?|weeks?|nights?|hours?|mins?|minutes?|years?|months?|[:.,/]\d))", re.I)
"""To "what time?", an hour after "be there for", "like" or "after": "can be there for 3" is 15:00, "any time after
5" 17:00 (for a time field only, and only when the turn names no clock: "a table for 3" is three people, and "after
5, so 5.30?" proposes 17:30)."""

PEOPLE_STEMS = {stem(w) for w in PEOPLE_WORDS}
SETTLED_BEFORE = re.compile(r"(?:\b(?:say|make\s+it|call\s+it|go\s+with|let'?s\s+(?:say|do|go\s+for)|so|making|sorry|"
                            r"put(?:\s+it\s+down\s+as|\s+down)?|"
                            r"i\s+mean|i\s+meant|oops|actually|no\s+wait)[,.!\s]*|"
                             r"\.\.\.?|…|=)\s*(?:£|\$|€)?$", re.I)
"""Words that settle on a number after others were floated: "2, maybe 3... say 3", "2 or 3, let's say 3", "three
boxes. no sorry, two"; a sum worked out ("the rail was about 900 and the hull maybe 1,500 so 2400ish", "= £2,400")."""
CHANGED_TO_BEFORE = re.compile(r"\b(?:up|down|going|gone|went|go|change[ds]?|changing|mov(?:e|es|ed|ing)|increas(?:e|ed|ing)|"
                               r"decreas(?:e|ed|ing)|drop(?:s|ped|ping)?|rais(?:e|ed|ing)|bump(?:ed|ing)?|"
                               r"cut(?:ting)?)\b[^.?!]*?\bfrom\s+(?:£|\$|€)?[\w.,]+\s+(?:up\s+|down\s+)?to\s+(?:£|\$|€)?$",
                               re.I)
"""A change from one number to another ("we're going up from 40 to 55", "dropped from 6 to 4"): the number after
"to" is the new value; the one after "from" is the old."""
TOTAL_AFTER = re.compile(r"\s+(?:in\s+)?(?:total|altogether|all\s+together|in\s+all)\b", re.I)


_DATEISH = re.compile(r"\d|\b(?:ago|last|yesterday|today|tonight|tomorrow|week|weeks|month|months|year|years|"
                      r"recently|while|early|late|mid|before|after|since|around|about|beginning|end|start|"
                      r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|day|days|"
                      r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|"
                      r"august|september|october|november|december|remember|know|sure)\b", re.I)
"""Words an answer about when something happened has ("a while ago", "not sure"); without any, it is no date."""
_JUST_THE_ONE = re.compile(r"^\W*(?:just|only)\s+the\s+(?P<one>one)(?:\s+(?:please|thanks))?(?:\W*$|\s*[,.;!]\s+(?=\w))",
                           re.I)
"""A count of one said as "just the one" (the number words read "the one" as a pointer, not a count), alone or as
the answer's first clause ("just the one, same day if you can") when no number follows."""
_MORE_PEOPLE = re.compile(r"\b(?:(?:for|with)\s+(?:me|us|my|our|him|her|them)\b|both|couple|pair|(?:two|three|four|five|six|"
                          r"seven|eight|nine|ten)\b|(?:me|us)\s+(?:and|&|n)\s)", re.I)
"""Words after "just the one" that count again ("just the one, for me and my partner"): not one."""
_BARE_HOUR_ISH = re.compile(r"\d{1,2}\s*-?\s*ish", re.I)
"""A number with "ish" and nothing that makes it a clock time ("12ish"): a count to a count question."""
_THE_ONE_THING = re.compile(r"^\W*(?:(?:just|only|oh|um+|er+|erm)[,\s]+)*the\s+(?P<one>one)\s+(?P<noun>[a-z]+)\b(?!\s+(?:with|that|"
                            r"which|who|where|in|on|at|from|near|and|plus|we)\b)", re.I)
"""A count of one said as "the one" and the thing counted ("just the one car I think, for mum and my brothers"),
when the field's name or description says that thing; "the one with the view" points at a row."""
_ONLY_THE_THING = re.compile(r"^\W*(?:just|only)\s+(?:the|my|our)\s+(?P<one>(?:[a-z]+\s+)?(?P<noun>[a-z]+))"
                            r"(?:\s+(?:please|thanks))?\W*$", re.I)
"""A count of one said by the one thing counted ("only the buggy", "just my backpack"); not a plural ("just the
suitcases"), a number or a pair ("just the two", "only the pair")."""
_TIME_WORD = re.compile(r"(?:week|weekend|fortnight|night|day|morning|afternoon|evening|month|year|hour|minute|"
                        r"summer|winter|spring|autumn|term|semester)$", re.I)
_NO_SINGLE = frozenset({"two", "three", "four", "five", "six", "both", "pair", "couple", "lot", "rest", "few", "family",
                        "kids", "children", "people", "group", "set", "bunch"})
_ASKS_WHEN = re.compile(r"^when\b|\bwhen\b|(?:^|_)time(?:_|$)|\btime\s+of\b", re.I)
"""A text field that asks when something happened ("When the test scores were submitted")."""
_MONTH_WORDS = (r"january|february|march|april|may(?!\s+(?:i|we|you|they|he|she|it|be|have)\b)|june|july|august|september|october|november|december|"
                r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_WHEN_SPAN = re.compile(
    r"\b(?:(?:early|mid|late|end\s+of|beginning\s+of|start\s+of|the\s+end\s+of)[\s-]+)?(?:" + _MONTH_WORDS + r")\b"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?\b)?(?:,?\s+\d{4})?|"
    r"\b(?:last|this\s+past|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter|semester|term|quarter)\b|"
    r"\b(?:in\s+)?(?:the\s+)?(?:spring|summer|autumn|fall|winter)(?:\s+of)?\s+\d{4}\b|"
    r"\b(?:\d+|a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?|years?)\s+ago\b",
    re.I)
"""The part of a long answer that says when: "mid-may", "last month", "three weeks ago" (kept as typed)."""



_CHATTER_TAIL = re.compile(r"(?:\s*,?\s*\b(?:as\s+well|too|also|lol|haha+|lmao|xx+|thanks|thank\s+you|cheers|pls|"
                           r"please|mate|obviously|of\s+course|i\s+think|i\s+guess|i\s+believe|i\s+reckon|tbh|"
                           r"probably|mostly|btw)\b)+[\s.!?]*$", re.I)
"""Words after a short answer that say nothing about it ("Leeds as well lol", "Ann Lee thanks"): left out of it."""
_REMARK_AFTER = re.compile(r"^\s*([^,;]{1,40}?)\s*[,;]\s*(?:it|he|she|they|that|this)(?:'s|'re|’s|’re|s|re|"
                           r"\s+(?:is|was|were|are))\b", re.I)
"""A short answer followed by a remark about it ("Bolacha, it was a cat", "Riverside, that's the old one", "velvet,
theyre really heavy": typed without the apostrophe too)."""


_SUITS = re.compile(r"\b(?:would|will|should|could|does|do|might)\s+(?:suit|work|be\s+(?:best|better|perfect|"
                    r"great|ideal|fine|good))|\b(?:suits?|works?)\s+(?:us|me|best|better)|\bprefer|\bideally\b|"
                    r"\blet'?s\s+(?:say|do|go\s+with)|\bhow\s+about\b|\bbest\s+for\s+(?:us|me)\b", re.I)


def _preferred(text: str, dates: list[Any]) -> list[Any]:
    """Of several dates, the one said in the clause that prefers it (the others were context), first."""
    if len(dates) < 2:
        return dates
    wanted = [d for d in dates if not _NOT_THE_DATE.search(text[:d.start])]
    if len(wanted) == 1:  # "we're here till the 24th, so maybe wednesday the 21st?", "we were due the 18th but it'll
        return wanted + [d for d in dates if d is not wanted[0]]  # be the 21st now": not the limit, not the day held
    clauses = [m for m in re.finditer(r"[^,;.!?]+", text) if _SUITS.search(m.group(0))]
    chosen = [d for d in dates if any(c.start() <= d.start < c.end() for c in clauses)]
    if not chosen or len(chosen) == len(dates):
        return dates
    best = max(chosen, key=lambda d: len(d.text))  # "Monday the 2nd of September": the date in full
    return [best] + [d for d in dates if d is not best]


_MONEY_SAID = re.compile(r"[£$€]\s?\d|\d\s?(?:pounds?|quid|dollars?|euros?|bucks)\b", re.I)
"""An amount of money in the turn: a length of time beside it is the amount's period ("£150 a week")."""


def _without_dates(text: str, today: Any) -> str:
    for span in sorted(find_dates(text, today), key=lambda d: -d.start):
        text = text[:span.start] + " " + text[span.end:]
    return text


_AGREE_STEMS = frozenset(stem(w) for w in """right correct good fine sure confirm confirmed perfect great ok okay
exactly absolutely definitely cool true please thanks that's it's is all everything""".split())
_ACTION_ONLY = re.compile(r"\W*(?:(?:ok(?:ay)?|yes|yeah|yep|yup|sure|right)[,\s]+)*(?:please\s+)?(?:submit|send|confirm|book|proceed|finish|done|cancel|"
                          r"stop|go\s+ahead|do\s+it)(?:\s+(?:it|that|this|them|now|please))*\W*", re.I)
_ACTION_ONLY = re.compile(_ACTION_ONLY.pattern + "$", re.I)
"""A turn that only says what to do ("send", "submit it now", "yes stop")."""
_ENOUGH = re.compile(r"^\W*(?:(?:eh|hmm+|um+|erm|ok(?:ay)?|no|nah|nope|actually|i\s+think)[\s,.!]+)*"
                     r"(?:that'?s\s+(?:it|all|enough|plenty)|thats\s+(?:it|all|enough|plenty)|"
                     r"(?:\w+|that|this)\s+(?:is|are|will\s+be|should\s+be)\s+(?:enough|plenty)|\w+'s\s+(?:enough|plenty)|"
                     r"(?:i'?m|we'?re)\s+done|enough|nothing\s+(?:else|more))"
                     r"(?:\s+(?:for\s+(?:now|me|us|this\s+(?:quarter|term|time|year))|thanks|thank\s+you|lol|really))*\W*$", re.I)
"""A turn that says what the user has is enough: "that's it for now", "that's plenty for me", "two is enough"."""
_MORE_NAME = re.compile(r"(?:^|_)(?:more|another|additional|extra|further)(?:_|$)", re.I)
_WANTS_MORE = re.compile(r"\bwants?\s+(?:to\s+(?:add|take|book|order|get|have)\s+)?(?:another|more\s+(?!than\b)[a-z]+|an?\s+(?:"
                         r"third|fourth|fifth|second|further|additional|extra))\b", re.I)
"""A yes/no field that asks whether the user wants one more of something: named so ("more_items") or described so
("Whether the guest wants another night"); not "... or you want more" water, "... 25 metres or more"."""


def enough_said(f: Field, text: str) -> bool:
    """ "that's it for now", "two's plenty lol" to a yes/no field asking whether one more is wanted: a no."""
    return _ENOUGH.match(text) is not None and (_MORE_NAME.search(f.name) is not None
                                                 or _WANTS_MORE.search(f.description or "") is not None)


_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def mashed(text: str, spec: Spec) -> bool:
    """ "asdfgh", "jkjkjk": a turn of one or two lower-case runs each typed along one row of the keyboard, none a word
    of English (the model's vocabulary): keys hit, no value. A run of six letters or more may skip up to two keys
    ("asdfjkl"), one of five none ("asdfg"); shorter runs are names and words ("asda", "dada", "tutu"), and "flask"
    and "typewriter" jump along their rows."""
    from ....embedding.semantic import model_words  # late: the word list loads with the model's folder
    words = text.strip(" .!?,;:").split()
    if not 1 <= len(words) <= 2 or not all(w.isalpha() and w.islower() and len(w) >= 4 for w in words):
        return False
    english = model_words(getattr(getattr(spec, "settings", None), "embedding_model", None))
    words = [w.rstrip(";:'") for w in words]  # "asdfjkl;;": the home row, semicolon and all
    return all(len(w) >= 5 and w not in english and any(
        set(w) <= set(row) and all(abs(row.index(a) - row.index(b)) <= (3 if len(w) >= 6 else 1) for a, b in zip(w, w[1:]))
        for row in _KEY_ROWS) for w in words)
_NOTHING_HEAD = r"(?:no|nope|nah|nothing|none|not\s+really|all\s+good|that'?s\s+(?:all|it|everything)|" \
    r"that\s+is\s+(?:all|it|everything))"
_NOTHING_MORE = re.compile(rf"\W*(?:(?:ok|okay|um+|erm|oh|well|so)[\s,.!]+)?{_NOTHING_HEAD}(?:[\s,.!]+(?:else|to\s+add|"
                           rf"more|at\s+all|really|for\s+now|thanks|thank\s+you|i\s+think|from\s+me|{_NOTHING_HEAD}|"
                           r"that'?s\s+(?:fine|ok|okay|alright|grand)|(?:i'?m|we'?re)\s+(?:good|fine|ok|okay|alright)))*"
                           r"[\s.!]*", re.I)
"""A whole answer that says there is nothing (more) to tell, to a free-text question."""
_NO_SUCH = re.compile(r"\W*(?:(?:ok|okay|um+|erm|oh|well|so|nope|nah)[\s,.!]+)?(?:no|nothing|none|not\s+any)\s+"
                      r"(?:more\s+|other\s+|further\s+|extra\s+|additional\s+|special\s+|particular\s+)?"
                      r"(?P<what>[a-z]+(?:\s+[a-z]+){0,3}?)"
                      r"(?:[\s,.!]+(?:thanks|thank\s+you|really|for\s+now|at\s+all))*[\s.!]*",
                      re.I)


def _no_such_thing(f: Field, text: str) -> bool:
    """ "no further comments", "no special requests", "no other notes" to a free-text question: "no" and what the
    field itself asks for (a word of its name or description) says there is nothing, as "nothing else" does."""
    m = _NO_SUCH.fullmatch(text.strip())
    said = set(content_stems(m.group("what"))) if m is not None else set()
    return bool(said) and said <= set(content_stems(f"{f.name.replace('_', ' ')} {f.description}"))


_YEAR_SAID = re.compile(r"\b(?:(?P<this>this)|last|the\s+previous|(?P<n>\d|one|two|three|four|five)\s+years?\s+ago|"
                        r"(?P<before>the\s+year\s+before\s+last))(?:\s+year)?\b", re.I)
_NUMBER_WORD = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _with_year(span: str, text: str, today: dt.date) -> str:
    """ "early March" said with "last year" (on 2024-07-01): "early March 2023". A month with no year of its own
    takes the year the answer says in words; nothing else is added."""
    if re.search(r"\d{4}", span) or not re.search(rf"\b(?:{_MONTH_WORDS})\b", span, re.I):
        return span
    rest = text.replace(span, " ", 1)
    m = next((m for m in _YEAR_SAID.finditer(rest) if "year" in m.group(0).lower()), None)
    if m is None:
        return span
    back = 0 if m.group("this") else 2 if m.group("before") else \
        (int(m.group("n")) if m.group("n").isdigit() else _NUMBER_WORD[m.group("n").lower()]) if m.group("n") else 1
    return f"{span} {today.year - back}"


_TIMEISH = re.compile(r"\b(?:ago|before|after|since|during|last|early|late|yesterday|today|tonight|tomorrow|week|weeks|"
                      r"month|months|year|years|day|days|semester|term|quarter|spring|summer|autumn|fall|winter|"
                      r"morning|afternoon|evening|night|recently|while|soon|\d{4}|\d{1,2}(?:st|nd|rd|th)|"
                      + _MONTH_WORDS + r")\b", re.I)
"""Any word that says when, in an answer to a field that asks when."""
_DECLINING = re.compile(r"^\W*(?:(?:hmm+|hm|um+|uh+|well|ok|okay|oh|ah)[,.!\s]+)*(?:no|nope|nah|not|nothing|none|never)\b(?!\.)",
                        re.I)
"""A turn that starts by declining ("no more of those", "nothing else", "not that one")."""

_NONE = re.compile(r"^\W*(?:(?:um+|erm|oh|well|ok|okay|ah|no|nope)[,.!\s]+)?"
                   r"(?P<none>none|zero|nil|nobody|no\s*one|not\s+any|no)"
                   r"(?:\s+(?P<noun>[a-z-]+))?(?:\s+(?:at\s+all|this\s+time|thanks|thank\s+you|please|needed|required|necessary))?\W*$", re.I)
_KIN = ({"kid", "child", "children"}, {"adult", "grown-up", "grownup"}, {"pet", "dog", "cat", "animal"})
"""Words that count the same kind of thing ("no kids" answers how many children)."""


_DIGIT_WORDS = "|".join(w for w, n in UNITS.items() if 1 <= n <= 9)
_TEEN_WORDS = "|".join(w for w, n in UNITS.items() if n >= 10)
_SPOKEN_YEAR = re.compile(
    rf"\b(?P<century>nineteen|twenty)[\s-]+(?:(?P<oh>oh|o)[\s-]+(?P<ounit>{_DIGIT_WORDS})|(?P<teen>{_TEEN_WORDS})|"
    rf"(?P<tens>{'|'.join(TENS)})(?:[\s-]+(?P<unit>{_DIGIT_WORDS}))?)\b|"
    rf"\btwo\s+thousand(?:\s+and)?(?:[\s-]+(?P<small>{_DIGIT_WORDS}|{_TEEN_WORDS}))?\b", re.I)


_JOINED_REF = re.compile(r"(?<![\w/.-])\w*\d\w*(?:[/-]\w*\d\w*)+(?![\w/-])")


_DASHED_REFERENCE = re.compile(r"(?<![\w-])[A-Za-z]{1,6}-\d{3,}(?![\w-])")
"""Letters, a dash and digits ("HB-55120", "fx-11902"): how booking references are written."""


def _joined_reference(text: str, today: dt.date) -> str | None:
    """The one token of digit groups joined by slashes or dashes ("22/40417/24", "2024-118-77"), with five digits or
    more and not a date: a reference number as a police force or a council writes it."""
    found = [m for m in _JOINED_REF.finditer(text) if sum(c.isdigit() for c in m.group(0)) >= 5
             and not find_dates(m.group(0), today)]
    return found[0].group(0) if len(found) == 1 else None


_SLIP = re.compile(r"\b(?:wait|hang\s+on|i\s+mean|scratch\s+that|oops|"
                   r"(?:my|an?|the)\s+(?:old|last|previous|wrong)\s+one|"
                   r"that'?s\s+(?:wrong|not\s+(?:it|right)))\b", re.I)


def _mended_in_turn(text: str) -> str | None:
    """Two numbers with a slip between them ("55120. wait no thats my old one, it's 55102", "5521, oops I mean
    5512"): the one said after the slip is the value; nothing when the words between say no slip."""
    from .values import find_digit_strings

    digits = find_digit_strings(text)
    if len(digits) < 2 or not _SLIP.search(text[digits[-2].end:digits[-1].start]):
        return None
    return digits[-1].value


def spoken_year(text: str) -> str | None:
    """The text with a year said in words written in digits ("the fourth of february nineteen fifty two" ->
    "... 1952", "two thousand and five" -> "2005"), or None when it says none."""
    def digits(m: re.Match[str]) -> str:
        def word(name: str) -> int:
            said = (m.group(name) or "").lower()
            return UNITS.get(said) or TENS.get(said) or 0

        if m.group("century") is None:
            return str(2000 + word("small"))
        base = 1900 if m.group("century").lower() == "nineteen" else 2000
        return str(base + word("ounit") + word("teen") + word("tens") + word("unit"))

    said = _SPOKEN_YEAR.sub(digits, text)
    return said if said != text else None


def none_clause(f: Field, text: str) -> str | None:
    """The clause before others that says none of what a count field counts, by its noun ("no cars needed" of "no
    cars needed, and maybe 30 people")."""
    clauses = re.split(r"[,;]|\band\b|\bbut\b", text)
    own = {stem(w) for w in f.name.lower().split("_")}
    for i, c in enumerate(clauses[:-1]):
        m = _NONE.match(c.strip())
        if m is None or not m.group("noun") or not said_none(f, c):
            continue
        kind = own | next((kin for kin in _KIN if own & {stem(w) for w in kin}), set())
        if stem(m.group("noun").lower()) not in own | {stem(w) for w in kind}:
            continue  # "no children, just 2 adults" to the guests: children are some of them, not the count
        later = " ".join(clauses[i + 1:])
        if any(stem(n.lower()) in own | {stem(w) for w in kind}
               for n in re.findall(r"\b(?:\d+|one|two|three|four|five|six|a|an)\s+([a-z]+)", later, re.I)):
            continue  # "no dogs, just 2 cats" to the pets: the count is said after
        return c.strip()
    return None


def said_none(f: Field, text: str) -> bool:
    """ "none", "zero", "no kids" to a count question ("How many children ...", a plural field name): zero.
    A noun after "no" must be the field's own ("no children") or its kind ("no kids"); "no idea" is not zero."""
    m = _NONE.match(text.strip())
    if m is None:
        return False
    desc = f.description.strip().lower()
    counts = desc.startswith("how many") or desc.startswith("number of") or f.name.lower().endswith("s")
    if not counts:
        return False
    noun = m.group("noun")
    if noun is None:
        return m.group("none").lower() != "no"  # a bare "no" to a count is no number (it may refuse or disagree)
    own = {stem(w) for w in f.name.lower().split("_")} | {stem(w) for w in re.findall(r"[a-z]+", desc)}
    said = stem(noun.lower())
    return said in own or any(said in kin and own & kin for kin in _KIN)


_NOT_THE_DATE = re.compile(r"\b(?:till|until|til|due(?:\s+(?:in|on|for))?|instead\s+of|rather\s+than)\s+"
                           r"(?:on\s+)?(?:the\s+|this\s+|next\s+)?\w*\W*$", re.I)
"""Words right before a date that make it no answer: a limit ("here till the 24th") or the day held ("we were due
the 18th", "instead of the 3rd")."""


_AGE_TOLD = re.compile(r"\b(?:we'?re\s+all|we\s+are\s+all|they'?re\s+(?:both|all)|they\s+are\s+(?:both|all)|"
                       r"(?:he|she)\s+is|(?:he|she)'s|i'?m|i\s+am)\s+$", re.I)
"""Words that tell an age with the number right after them ("we're all fourteen", "she's 9")."""


def not_a_name(value: str) -> bool:
    """A person's name has no weekday, month or common word of a sentence in it ("Friday'S Gone Mental At Work" was
    a remark, not a name), and five words at most."""
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", value)  # "Lucía" is one word, not "Luc" and "a"
    return len(words) > 5 or any(w.lower() in _SENTENCE_WORDS for w in words)


_SENTENCE_WORDS = frozenset("""monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight yesterday
january february march july september october november december friday's monday's
is are was were be been am have has had does did would can could should shall might must
at in on of to for from with by about into over after before than then that this these those there here it its it's
i i'm me my mine we us our you your he him his she her they them their what which who when where why how
and or but so if because not no yes just very really gone going get got work working please thanks the a
morning afternoon evening night late early noon midday midnight weekend weekday lunchtime teatime
road street avenue crescent
i'd i'll i've we'd we'll we're we've you'd you'll you're you've he'd he'll he's she'd she'll she's they'd they'll they're
they've that's there's it'll let's don't can't won't isn't aren't wasn't didn't doesn't haven't hasn't couldn't wouldn't
""".split())
"""Words of a sentence, never of a person's name (a title, a first or a family name)."""


_TITLES = frozenset("mr mrs ms miss mx dr prof rev sir dame lady lord captain sgt sergeant officer".split())


def _fuller_name(value: str, text: str) -> str:
    """ "it's under Fenwick, Alastair Fenwick": a one-word name said again at once in full, first name first ("Ford.
    As in Harrison Ford" says whose name it is like, and stays "Ford")."""
    from ..parts.given_name import not_a_name_word  # late: parts import this module
    if len(value.split()) != 1:
        return value
    fuller = re.search(rf"\b{re.escape(value)}\s*,\s*([A-Z][a-z][\w'’-]*)\s+{re.escape(value)}\b", text)
    if fuller is None or not_a_name_word(fuller.group(1)) or fuller.group(1).lower() in _SENTENCE_WORDS \
            or fuller.group(1).lower() in _TITLES:
        return value
    return f"{fuller.group(1)} {value}"


_SOMEONE_ELSE = re.compile(r"\b(?:for|is)\s+my\s+(?:son|daughter|husband|wife|partner|mum|mom|dad|mother|father|"
                          r"brother|sister|friend|neighbou?r|boss|nan|gran|grandma|grandad)\b|\b(?:my\s+)?"
                          r"(?:son|daughter|husband|wife|partner|mum|dad|mother|father|brother|sister|friend|neighbou?r)'s\b",
                          re.I)
_NAME_ASIDES = frozenset("""just only its it's it is my his her name names was is called lol haha sorry so ok okay yes
yeah thanks cheers please sgt mr mrs ms miss dr""".split())
"""Words a sentence that gives a name alone may have beside it ("his name was ...", "just ...", "... lol")."""


def sentence_name(text: str) -> str | None:
    """The one full name a turn of several sentences gives, said alone or led in by words, when its other
    sentences are remarks, places or a nickname: "Glenys Pritchard. I'll pick them up from Castle Street", "his
    name was Robert Ellison. Bob to everyone", "Sgt. Mike Doherty lol. just Mike Doherty". None when the turn
    has one sentence, no full name, or two different ones."""
    from ..parts.given_name import not_a_name_word  # late: parts import this module
    parts = [p for p in re.split(r"(?<=[.!?;])\s+", text.strip()) if p]
    if len(parts) < 2:
        return None
    if _SOMEONE_ELSE.search(text):
        return None  # "It's for my daughter. Lucy Grant. I'm just paying": whose name, the turn does not settle
    names = []
    for part in parts:
        words = (name_span(part) or "").split()
        while words and not_a_name_word(words[0]):
            words = words[1:]  # "And Tom Smith": a second person, led by a word of the sentence
        name = " ".join(words)
        if not name or any(w.lower() in _SENTENCE_WORDS or not_a_name_word(w) for w in name.split()):
            continue
        rest = re.sub(r"[^\w\s'’-]", " ", NAME_INTRO.sub(" ", part.replace(name, " ", 1))).split()
        if any(w.lower() not in _NAME_ASIDES for w in rest):
            continue  # "Owen Hughes recommended you", "Bought it from Pete Hale Cycles": a name in a sentence about else
        names.append(name)
    full = {n.casefold(): n for n in names if len(n.split()) >= 2}
    return next(iter(full.values())) if len(full) == 1 else None


def _remark(sentence: str) -> bool:
    """A sentence that is no name: two or more words no name has ("I've got my own kit"), none capitalised
    but "I"."""
    from ..parts.given_name import not_a_name_word  # late: parts import this module
    said = re.findall(r"[A-Za-z][\w'’-]*", sentence)
    return sum(bool(not_a_name_word(w)) for w in said) >= 2 and not any(
        w[:1].isupper() and w.lower() not in ("i", "i'm", "i've", "i'll", "i'd") and k > 0 for k, w in enumerate(said))


class AnswerReader:
    """Values of fields read from text; knows the spec and today, not the turn."""

    def __init__(self, spec: Spec, view: StateView, today: dt.date) -> None:
        self.spec = spec
        self.view = view
        self.today = today
        self.matched = ""
        self.note: Callable[..., None] = lambda rule, matched, **extra: None  # the turn's trace (set by the parser)

    def value_for(self, f: Field, text: str) -> Any:
        """The value of `text` for field `f`, or None when it does not hold one.

        `self.matched` is left holding the words the value came from (the whole text when
        the value is the text).
        """
        self.matched = text
        kind = self.view.kind_of(f)
        said_text = text
        if kind in ("int", "float", "date", "time", "datetime") and negations(text):
            text = without_negated(text)  # "not Friday, Saturday": the rejected value is not the answer
        if kind in ("bool", "confirm"):
            yn = yes_no(text)
            if kind == "bool" and enough_said(f, text):
                return False  # "that's plenty for me", "two is enough" to "another course?": no more
            if yn is None and kind == "bool" and NOTHING_OF_THE_KIND.match(text) \
                    and not NEGATIVE_QUESTION.search(f.description):
                return False  # "none", "nothing like that", "not that I know of" to "any allergies?"
            return yn[0] if yn else (flag_named(f, text) if kind == "bool" else None)
        if kind in ("int", "float"):
            unit = field_unit(f.name, f.description)
            if unit and _MONEY_SAID.search(text):
                unit = None  # "no more than £150 a week" to the weekly rent: 150 a week, not one week
            converted = converted_duration(text, unit) if unit else None
            if converted is not None:  # "a week" for a field of days
                return converted
            size_unit = field_size_unit(f.name, f.description) if not unit else None
            size = converted_size(text, size_unit) if size_unit else None
            if size is not None:  # "1m52" to a height in centimetres, "17 stone" to a weight in kg
                return size
            if unit and said_in_other_unit(text, unit):
                return None  # "six weeks" to a field of months: not 6 (the agent asks again)
            counted = (people_sum(text) or head_count(text)) if field_stems(f) & PEOPLE_STEMS else None
            if counted is None and kind == "int" and not find_numbers(text) and field_stems(f) & _PLACES:
                counted = head_count(text)  # "me, her and grandma" to "how many tickets?": 3 (a list of people)
            if counted is not None:  # "me and three friends" for a party size
                clauses = [c for c in re.split(r"\s*[,;.!]\s*(?:and\s+)?", text) if c.strip()]
                own = [c for c in clauses if (people_sum(c) or head_count(c)) == counted] if len(clauses) > 1 else []
                if own:
                    self.matched = own[0]  # "just me, no pets", "window, me and my 3 friends": the rest is read for
                    # the other fields
                return counted
            said = (ordinal_number(f, text) or taught_number(f, text)) if kind == "int" else None
            if said is not None:  # "the second floor", "ground floor" (described as 1)
                self.matched = said[1]
                return said[0]
            if kind == "int" and (clause := none_clause(f, said_text)):
                self.matched = clause
                return 0  # "no cars needed, and maybe 30 people" to "how many cars?": the clause that names them
            clocks = [t for t in find_times(text) if not _BARE_HOUR_ISH.fullmatch(t.text.strip())]  # "12ish" to
            # "how many children?" is a count, not a time
            spans = free(find_large_numbers(text) + find_numbers(text),
                         find_dates(text, self.today) + clocks + find_codes(text))
            if not spans and kind == "int" and (times := times_count(f.name, f.description, text, said_text)):
                self.matched = times[1]
                return times[0]  # "twice", "never taken it" to "how many times have you sat it?"
            if not spans and (single := _JUST_THE_ONE.match(text)) and \
                    not re.search(r"\d|\s{3,}", text[single.end():]) and not _MORE_PEOPLE.search(text[single.end():]):
                # "just the one" to "how many packs?"; "just the one, same day if you can"; a clause with a number
                # after it ("just the one. memb no 44120", the number maybe blanked out already for its own
                # field) is read in parts
                spans = [Span(1, single.start("one"), single.end("one"), "one")]
            if not spans and kind == "int" and (single := _THE_ONE_THING.match(text)) and \
                    stem(single.group("noun")) in {stem(w) for w in re.findall(r"[a-z]+", f"{f.name} {f.description}".lower())}:
                spans = [Span(1, single.start("one"), single.end("one"), "one")]  # "just the one car I think, for mum"
            if not spans and kind == "int" and not unit and (single := _ONLY_THE_THING.match(text)) \
                    and not single.group("noun").lower().endswith("s") and not _TIME_WORD.match(single.group("noun")) \
                    and not set(single.group("one").lower().split()) & _NO_SINGLE:  # "only the buggy": one
                spans = [Span(1, single.start("one"), single.end("one"), single.group("one"))]
            if not spans and kind == "int" and said_none(f, text):
                return 0  # "none", "no kids" to "how many children are coming?"
            totals = [s for s in spans if TOTAL_AFTER.match(text[s.end:])]  # "so 5 total": that one is the value
            settled = [s for s in spans[1:] if SETTLED_BEFORE.search(text[:s.start]) or CHANGED_TO_BEFORE.search(
                text[:s.start])]  # "going up from 40 to 55": the number it changes to
            spans = totals or settled[-1:] or spans  # "prob 2, maybe 3... say 3": the number settled on last
            if not spans:
                return None
            units = field_stems(f)
            near = [s for s in spans if (after := words_after(text, s.end, 2))
                    and after[0] not in UNIT_LINKS | {"to"} and {stem(UNIT_SHORT.get(w, w)) for w in after} & units]
            # "from 2 for 3 hrs": the number of the field's unit, not the one before "for"
            span = (near or spans)[0]
            if not near and _AGE_TOLD.search(text[:span.start]) and not {"age", "aged", "old"} & set(
                    re.findall(r"[a-z]+", f"{f.name} {f.description}".lower())):
                return None  # "lol no we're all fourteen" to "how many penguin aids?": an age, no count
            self.matched = span.text
            if kind == "float" and is_money(text, span.start, span.end):
                return with_minor_units(text, span.end, span.value, number_of)[0]  # "ninety two pounds forty"
            return int(span.value) if kind == "int" and float(span.value).is_integer() else span.value
        if kind in ("date", "time", "datetime"):
            dates, times = find_dates(text, self.today, past=past_field(f)), find_times(text)
            if kind == "date" and (said := spoken_year(text)) is not None:
                dates = find_dates(said, self.today, past=past_field(f)) or dates  # "nineteen fifty two"
            if not dates and kind != "time":
                dates = [d for d in [parse_date(text, self.today, past=past_field(f))] if d is not None]
            if kind == "time" and not times:
                times = dotted_clocks(text)  # "any time after 5, so 5.30?" to "what time?": 17:30, a proposal
            if kind == "time" and not times:
                bare = re.fullmatch(r"\W*(\d{1,2})\W*", text) or (None if re.search(r"\bor\b", text) else (
                    _FOR_AN_HOUR.search(text) or _HOUR_LAST.search(text)))  # "9 or 10?" asks which is free
                part = PART_OF_DAY.search(text)
                hour = int(bare.group(1)) if bare else 0
                if part and not _PART_HOURS[part.group(1).lower()][0] <= hour <= _PART_HOURS[part.group(1).lower()][1]:
                    return None  # "late morning or after 2": the part of the day is not this hour's
                return bare_hour(hour, part.group(1) if part else None) if bare else None
            dates = _preferred(text, dates)  # "keys on the 30th, so Monday the 2nd would suit us": the 2nd
            found = {"date": dates[:1], "time": times[:1], "datetime": dates[:1] + times[:1]}[kind]
            if not found or (kind == "datetime" and len(found) < 2):
                return None
            self.matched = " ".join(s.text for s in found)
            return "T".join(s.value for s in found)
        if kind == "Enum":
            return self.enum_value(f, text)
        if kind == "list":
            return self.list_value(f, text)
        if kind == "str":
            if shape(f) == "text" and (_NOTHING_MORE.fullmatch(text.strip()) or _no_such_thing(f, text)):
                # "nothing else", "no thanks" to "anything to add?": none, not those words; to an optional question
                # that is declining it ("NA"), to a required one the answer "none" (a refusal would block the task)
                return "none" if f.required else REFUSAL
            if bare_yes_no(text) and (shape(f) != "text" or yes_no(text)[0]):  # type: ignore[index]
                return None  # "yes" / "ok" is never a name or a value; a bare "no" to free text says "nothing"
            yn = yes_no(text)
            if shape(f) != "text" and yn is not None and yn[0] and not (set(content_stems(yn[2])) - _AGREE_STEMS):
                return None  # "yes is correct", "yes that's right": agreeing, never a name or a value
            if shape(f) in ("name", "short", "code") and _ACTION_ONLY.match(text):
                return None  # "send", "submit it", "go ahead": what to do, never a name or a code
            if mashed(text, self.spec):
                return None  # "asdfgh": keys hit by a cat or a child, not a value
            if shape(f) != "text" and _DECLINING.match(text):
                return None  # "no more courses", "nothing else": a no with words after it is not a name or a code
            value = self.str_value(f, text)
            if shape(f) != "text" and isinstance(value, str) and waiting(value):
                # "i don't know it offhand, hang on a sec": no value yet; "hang on let me find it... CX-4410": the
                # last sentence, said after looking, is the value
                last = [p for p in re.split(r"[.!?…]+\s*", text) if p.strip(" ,")]
                value = self.str_value(f, last[-1]) if len(last) > 1 and not waiting(last[-1]) else None
            return value
        return None

    def list_value(self, f: Field, text: str) -> list[Any] | None:
        """ "Thai, Italian and pizza" -> three items, each read as the list's item type."""
        item = parse_type(f.type).item
        if item is None or not item.is_primitive:
            return None
        if is_enum_list(f):  # "a charger and an adapter plug, and some paracetamol": each piece one option
            return answered_options(f, text, self.view.index(), self.value_for)
        one = f.model_copy(update={"type": str(item)})
        pieces = [p for p in re.split(r"\s*(?:,|;|\band\b|\bor\b|&)\s*", text) if p.strip(" .!?")]
        values = [self.value_for(one, p) for p in pieces]
        return values if values and all(v is not None for v in values) else None

    def enum_value(self, f: Field, text: str, *, spent: frozenset[str] = frozenset(),
                   strict: bool = False) -> str | None:
        """An enum value by name, spelling variant, description words or fuzzy match.

        `spent` words (those of the parent's enum value) do not count; `strict` accepts a value's
        name only (for a question, which mentions words of the options without choosing one).
        Rejected values ("not a letter grade") never win; rejecting one of two values picks the other.
        """
        value = self._enum_by_words(f, text, spent, strict)
        return None if value is not None and numbers_disagree(value, text) else value

    def _enum_by_words(self, f: Field, text: str, spent: frozenset[str], strict: bool) -> str | None:
        negs = negations(text)
        if not negs:
            return self._enum_words(f, text, spent, strict)
        rejected = {v for n in negs for v in [self._enum_words(f, n.what, frozenset(), False)] if v}
        kept = without_negated(text)
        value = self._enum_words(f, kept, spent, strict) if kept.strip(" ,.!?;") else None
        if value in rejected:
            value = None
        others = [v for v in f.enum_names if v not in rejected]
        if value is None and rejected and len(others) == 1:
            value = others[0]
        return value

    def _enum_words(self, f: Field, text: str, spent: frozenset[str], strict: bool) -> str | None:
        chosen = _CHOSEN_THEN.search(text)
        said = chosen and (chosen.group("v") or chosen.group("w"))
        if said and said != text:  # "ok private then, I'd be nervous in a group", "no, go with medium": the choice
            value = self._enum_words(f, said, spent, strict)
            if value is not None:
                return value
        body = strip_fillers(text).strip(" .!?")
        try:
            return match_enum(body, f)
        except ValueError:
            pass
        low = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
        named = [v for v in f.enum_names if f" {re.sub(r'[^a-z0-9]+', ' ', v.lower()).strip()} " in low]
        if len(named) == 1:
            return named[0]
        short = initialism_enum(f, text)
        if short is not None:  # "cr/nc" for Credit/No Credit, "p/f" for Pass/Fail
            return short
        if strict:
            return None
        part = day_part_option(f, text)
        if part is not None:  # "first thing ideally", "about 10am" to Morning / Afternoon / Any Time
            return part
        best = best_enum(f, Bag.of(text).without(spent), minimum=1)
        if best and not self.one_word_doubt(f, best[0], best[1], text):
            return best[0]
        if best:
            return None
        scored = sorted(((fuzz.token_set_ratio(body.lower(), v.lower()), v) for v in f.enum_names), reverse=True)
        if scored and scored[0][0] >= 85 and (len(scored) == 1 or scored[1][0] < scored[0][0]):
            return scored[0][1]
        return None

    def one_word_doubt(self, f: Field, value: str, matched: Sequence[str], text: str) -> bool:
        """One word of an option's description chose it, and the whole answer means another option: not taken
        (the trace says which), so the question is asked again rather than a wrong option stored."""
        if len(set(matched)) != 1 or set(matched) & set(content_stems(value)) or negations(text):
            return False  # a reading by meaning does not see "not": "I don't want a letter grade" means Letter
        from .semantic_index import meaning_prefers_other  # late: most turns never need the model

        other = meaning_prefers_other(self.view.index(), f, value, text)
        if other is not None:
            self.note("one-word-doubt", next(iter(matched)), **other,
                      reason="one word of an option's description chose it; the answer means another option")
        return other is not None

    def str_value(self, f: Field, text: str) -> str | None:
        kind = shape(f)
        if is_phone_field(f):
            phones = find_phones(text)
            return phones[0].value if phones else None
        if kind == "email":
            emails = find_emails(text)
            return emails[0].value if emails else None
        if kind in ("code", "short") and find_dates(text, self.today) and not _ASKS_WHEN.search(
                f"{f.name} {f.description}") and not _DATE_WORDS_LEFT.sub("", _without_dates(text, self.today)).strip(" ,.!?"):
            return None  # "September 12th, 1975" to a PIN question, "from friday 2nd august" to a pet's name: a date
        if kind in ("code", "short") and (laid_out := shaped_reference(f, text)):
            return laid_out  # "reg is LR68 KXT" for "like KT19 WRX", "account number is BL-302211"
        if kind in ("code", "short") and reference_shapes(f):  # "account number is BL-302211" for "like BL-482913"
            span = code_value(text)
            described = shaped_reference(f, text) or (span.value if span and not off_shape(f, span.value) else None)
            return described  # a number of another shape is not the reference: the agent asks again
        if kind == "code" and is_postcode_field(f):
            codes = find_postcodes(text)
            if len({c.value.upper() for c in codes}) == 1:  # "wf1 3hj", "M45 7QP. names ..., mobile is 07723 ..."
                return " ".join(codes[0].value.upper().split())
        if kind == "code":
            labelled = self.labelled_code(f, text)
            if labelled is not None:
                return labelled.value  # "acc 40817726, pin 2291": the value its label names
            span = code_value(text)
            if span is not None:
                return span.value
            if (joined := _joined_reference(text, self.today)) is not None:
                return joined  # "yeah the officer gave me 22/40417/24": one token of digit groups joined by / or -
            if (mended := _mended_in_turn(text)) is not None:
                return mended  # "55120, oops I mean 55102": the number said after the slip
            dashed = _DASHED_REFERENCE.findall(text)
            if len(set(dashed)) == 1:
                return dashed[0]  # "ref is HB-55120 i think": the one reference-shaped token, with no example to go by
            body = strip_fillers(text, f.name.split("_")).strip(" .!?")
            if body and len(body.split()) > 1:  # "tag 12", "its number 7" to the tag number: the field's own
                label = "|".join(re.escape(w) for w in f.name.lower().split("_") if len(w) > 1)  # words lead it
                led = re.fullmatch(rf"(?:(?:it'?s|its|it\s+is|the|that'?s)\s+)?(?:(?:{label}|no\.?|#)\s*)+"
                                   rf"(?P<v>[A-Za-z]?\d+[A-Za-z]?)", body, re.I) if label else None
                return led.group("v") if led else None
            return body if body else None
        if kind == "name":
            value = self._name_value(f, text)
            if value is None or not_a_name(value):
                return sentence_name(text) or value  # "Glenys Pritchard. I'll pick them up from Castle Street"
            return _fuller_name(value, text)
        if kind in ("text", "short") and (words := said_words(f, text)) is not None:
            return words  # "could it say 'Happy 10 years x'", "just put love from Sandra" for a card's message
        if kind == "text":
            return free_text(text)  # "I'm a senior, if that matters" -> "I'm a senior"
        if kind == "date":
            text = spoken_year(text) or text  # "the fourth of february nineteen fifty two"
            dates = find_dates(text, self.today, past=past_field(f)) or \
                [d for d in [parse_date(text, self.today, past=past_field(f))] if d is not None]
            if dates:
                return dates[0].value
            if not _DATEISH.search(text):
                return None  # "nobody answered" says no date: not the value of a date field
        if kind == "short" and is_month_field(f):
            return month_answer(f, text, self.today)  # "the June one, it was £184.50" -> "June"
        asks_when = kind == "short" and _ASKS_WHEN.search(f"{f.name} {f.description}")
        when = _WHEN_SPAN.search(text) if asks_when else None
        if when and len(text.split()) - len(when.group(0).split()) >= 3:  # "in March" stays whole
            return _with_year(when.group(0), text, self.today)  # "i had college board send them mid-may" -> "mid-may"
        if asks_when and not when and not _TIMEISH.search(text) and not find_dates(text, self.today) \
                and not find_times(text):
            return None  # "I took AP Calculus BC" to "when were they submitted?" says no time at all
        if kind == "short" and is_make_field(f) and (made := make_value(text)):
            return made  # "ford fiesta", "ok fine. it's a Nissan Qashqai", "BMW 3 series, black"
        if kind == "short" and (named := thing_name(f, text)):
            return named  # "Her name's Miso", "Thumper, he's 2" for the pet's name
        body = strip_fillers(text, [w for w in f.name.split("_")] + sorted(field_stems(f)))
        called = re.search(r"\b(?:called|named)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})", body)
        if called and kind == "short":
            return called.group(1)  # "a dog called Rex" -> "Rex"
        if kind == "short" and (tail := _CHATTER_TAIL.search(body)) and body[:tail.start()].strip(" ,"):
            body = body[:tail.start()].strip(" ,")  # "Sheffield as well lol": the value, then chatter about it
        remark = _REMARK_AFTER.match(body) if kind == "short" else None
        if remark and len(remark.group(1).split()) <= 4:
            return remark.group(1)  # "Bolacha, it was a cat": the answer, then a remark about it
        if kind == "short":
            span = code_value(body)
            if span is not None and not span.value.isdigit() and len(body.split()) > len(span.text.split()) \
                    and not is_address_field(f):  # "27 Kingsley Drive, CF14 3NW": the postcode is part of it
                return span.value
            if not re.match(r"The\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*\W*$", body):  # "The Velvet Tremors": a name
                body = re.sub(r"^(?:my|our|a|an|the)\s+(?=\S)", "", body, flags=re.I)  # "my desktop PC" -> "desktop PC"
            # "deliver to 400 Pine Ave": a lead-in of a few words ending in "to"/"at" before a street number
            body = re.sub(r"^(?:[a-z]+\s+){1,3}?(?:to|at)\s+(?=\d+\s+[A-Za-z])", "", body)
        return body or None


    def _name_value(self, f: Field, text: str) -> str | None:
        """A person's name asked for: the name span of the turn, not the sentence."""
        from ..parts.given_name import not_a_name_word  # late: parts import this module
        placed = PLACE_AFTER_NAME.search(text)
        if placed and not text[:placed.start()].strip(" ,").lower().removeprefix("it").strip(" 'ʼ’s"):
            return None  # "it's flat 2 kingfisher court" to the name: a place, no name
        who = clean_name(text[:placed.start()].strip(" ,")) if placed else None
        if who and 1 <= len(who.split()) <= 4 and not any(not_a_name_word(w) for w in who.split()[-2:]):
            text = text[:placed.start()]  # "Mrs Edith Kowalski at 14 Tanners Yard": the name, then where they live
            self.matched = text
        parts = [p for p in re.split(r"(?<=[.!?;])\s+", text.strip()) if p]
        while len(parts) > 1 and _remark(parts[-1]) and not _remark(parts[0]):
            parts = parts[:-1]  # "Ahmed Karimi, rescue diver. I've got my own kit": the name first, then a remark
            text = " ".join(parts)
        said = [n for n in (clean_name(p) for p in parts) if n]
        if len(said) > 1 and len(said[-1].split()) >= 2:
            return said[-1]  # "its kev. kevin marsh": the full name said last, not the nickname before it
        if len(parts) > 1 and len(said) == 1 and len(said[0].split()) >= 2 and clean_name(parts[-1]) == said[0]:
            return said[0]  # "ok fine. Its Hannah Okafor": the name is the last sentence, after its lead-in
        clauses = [c for c in re.split(r"\s*,\s*", text.strip(" .!?")) if c]
        first = clean_name(clauses[0]) if len(clauses) > 1 else None
        later = " ".join(clauses[1:])
        inverted = _SURNAME_FIRST.fullmatch(text)
        if inverted and not any(not_a_name_word(w) or w.lower() in _KIN_WORDS for w in inverted.groups()):
            return f"{inverted.group(2)} {inverted.group(1)}"  # "Patel, Raj": a form's order, the surname first
        if (beside := _name_beside_contacts(text)) is not None:
            return beside  # "hannah whitfield, 07700 900333", "Mehmet, 07555 010203": the name, the phone apart
        if first and first.lower() == clauses[0].lower() and re.fullmatch(r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){1,3}", first) \
                and not any(not_a_name_word(w) for w in first.split()) \
                and not NAME_INTRO.search(text) and not _PERSON_CUE.search(later):
            return first  # "Fiona Lindqvist, Lindqvist Accountancy": the person first, then whom they are with
        introduced = name_span(text) if NAME_INTRO.search(text) else None  # "His name is Tom Baker"
        plain = clean_name(text)
        if plain and re.match(r"[a-z]", plain) and not plain.islower():
            plain = name_span(text) or plain  # "the driver is Tom Baker": lower-case lead-in words, a name after
        said_name = introduced or plain or clean_name(strip_fillers(text, f.name.split("_"))) or name_span(text)
        if (said_name is None or sum(w[:1].islower() for w in said_name.split()) >= 2) and NAME_OF.search(f.description):
            # "her maiden name's Ferreira", "mum was an Okonkwo before she married" for a name of someone else
            # ("Your mother's maiden name"): a sentence, and the one capitalised name in it
            return only_capitalised(text) or said_name
        if said_name and all(not_a_name_word(w) for w in said_name.split()):
            return None  # "it's flat" once the address took "2 kingfisher court": no word of a name
        return said_name

    def labelled_code(self, f: Field, text: str) -> Span | None:
        """The value a label names among several ("account number 12345678, sort code 61-44-09"); None when the
        labels do not decide."""
        spans = find_codes(text)
        spans += free(find_digit_strings(text), spans)
        others = [g for ws in self.spec.worksheets if ws.kind != "kb" for g in ws.fields if g.name != f.name]
        # a lone value is never refused by its label: "my card number is 20418837" may well be the member id asked
        return labelled_choice(text, spans, f, others) if len(spans) > 1 else None

    def strong_value(self, f: Field, text: str) -> Any:
        """A value only when its shape is unmistakable: no free text, no bare numbers."""
        kind = self.view.kind_of(f)
        if kind in ("date", "time", "datetime"):
            return self.value_for(f, text)
        if kind in ("int", "float"):
            mentions = find_mentions(text, [(TaskRecord(var="_", worksheet=""), f)], self.view, self.today)
            return mentions[0].value if mentions else None
        if kind == "Enum":
            try:
                return match_enum(strip_fillers(text).strip(" .!?"), f)
            except ValueError:
                return None
        if kind == "str" and shape(f) == "email":
            return self.value_for(f, text)
        if kind == "str" and shape(f) in ("code", "short"):
            span = code_value(text)
            if span is None:
                return None
            return span.value if shape(f) == "code" or any(c.isalpha() for c in span.value) else None
        return None

    def multi_fill(self, text: str, rec: TaskRecord, asked: Field) -> list[tuple[Field, Any, str]]:
        """ "Tony, 6894536, tony@university.com": values for several fields of the asked record, by label or shape.

        All or nothing: every piece must find a field, and the asked field must be one of them.
        """
        pieces = [p.strip() for p in re.split(r"\s*(?:[,;]|\band\b|&|\s/\s)\s*", text) if p.strip(" .!")]
        if len(pieces) < 2:
            return []
        order = [f for f in self.view.input_fields(rec) if self.view.kind_of(f) in ("str", "int", "bool")
                 and (self.view.unfilled(rec, f) or f.name == asked.name)]
        start = next((i for i, f in enumerate(order) if f.name == asked.name), 0)
        order = order[start:]
        chosen: dict[str, tuple[Any, str]] = {}
        for piece in pieces:
            if not self._place_piece(piece, order, chosen):
                return []
        if asked.name not in chosen or len(chosen) < 2:
            return []
        return [(f, *chosen[f.name]) for f in order if f.name in chosen]

    def _place_piece(self, piece: str, order: list[Field], chosen: dict[str, tuple[Any, str]]) -> bool:
        open_fields = [f for f in order if f.name not in chosen]
        bag = Bag.of(piece)
        lead = set(re.findall(r"[a-z]+", piece.lower())[:2])
        labelled = [f for f in open_fields if field_mention(f, bag)[0] >= 2
                    or lead & (set(f.name.split("_")) - _OWNER_WORDS)]
        flags = [f for f in open_fields if self.view.kind_of(f) == "bool"]
        bare = yes_no(piece)
        if bare is not None and not bare[2].strip(" .!") and len(flags) == 1:
            chosen[flags[0].name] = (bare[0], piece)  # "Noor Khalil, 07700 900666, yes": the one yes/no field
            return True
        for f in labelled + open_fields:
            if self.view.kind_of(f) == "bool":
                said = _flag_said(f, piece, bag)  # "not international" for is_international_student
                if said is None:
                    continue
                chosen[f.name] = (said, piece)
                return True
            sh = shape(f) if self.view.kind_of(f) == "str" else "int"
            if f not in labelled and not _shape_fits(sh, piece):
                continue
            label_free = re.sub(r"^(?:my\s+)?(?:[\w-]+\s+){0,2}?(?:" + "|".join(
                re.escape(w) for w in f.name.split("_") if len(w) > 1) + r")(?:\s+(?:is|was|=|:))?\s+", "", piece,
                                flags=re.I) if f in labelled else piece
            try:
                value = self.value_for(f, label_free)
                value = None if value is None else coerce_value(value, f, self.spec)
            except StatementError:
                value = None
            if value is not None:
                chosen[f.name] = (value, piece)
                return True
        return False


_CHOSEN_THEN = re.compile(r"(?:^|[.!?,;]\s*)(?:(?:ok(?:ay)?|right|fine|alright|so|oh|well|yeah|hmm+|no)[\s,]+)*"
                          r"(?:(?:(?:a|an|the)\s+)?(?P<v>[a-z][\w'-]*(?:\s+[\w'-]+){0,3}?)\s+then\b|"
                          r"(?:just\s+)?(?:go\s+(?:with|for)|let'?s\s+(?:say|go\s+with|go\s+for))\s+(?:(?:a|an|the)\s+)?"
                          r"(?P<w>[a-z0-9][\w'-]*(?:\s+[\w'-]+){0,3}?))(?=\s*(?:$|[,.!;]))", re.I)
"""A choice settled on, "<option> then", before or after a reason that may name another option ("ok private then,
I'd be nervous in a group")."""


PLACE_AFTER_NAME = re.compile(
    r"(?:\s*,\s*|\s+)(?:(?:i'?m|we'?re|i\s+am|we\s+are|living|i\s+live|we\s+live)\s+)?(?:(?:at|on|in|of|from)\s+)?"
    r"(?:(?:flat|room|apartment|apt|unit)\s+\d+[a-z]?\b|\d{1,4}[a-z]?\s+(?:(?-i:[A-Z][a-z'-]+)|[a-z'-]+\s+(?:road|street|st|"
    r"lane|close|mews|yard|court|avenue|way|walk|row|drive|place|terrace|crescent|gardens|grove|square|gate)\b))|"
    r"(?:\s*,\s*|\s+)(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?(?:at|on)\s+(?:the\s+)?(?-i:[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s*$",
    re.I)
"""Where a person lives or trades, said after their name: a flat or room, a house number and street, or a capitalised
place after "at" or "on" ("Mrs Edith Kowalski at 14 Tanners Yard", "Marcus Reid, room 3 at ...", "Harold Pym, I'm on
Museum Gate")."""


_OWNER_WORDS = {"student", "customer", "user", "client", "person", "my", "your"}
"""Words of a field name that say whose value it is, not which value (an owner_id field is labelled by "id")."""


_NOT_FLAG = re.compile(r"^\W*(?:(?:i'?m|i\s+am|he'?s|she'?s|they'?re|we'?re|it'?s)\s+)?(?:not|no|non)\b[\s-]*(?:an?\s+)?",
                       re.I)
_FLAG_WORDS = {"is", "has", "have", "wants", "want", "needs", "need", "does", "will"}


def _flag_said(f: Field, piece: str, bag: Bag) -> bool | None:
    """A yes/no field told in a list of answers by its own name words: "international" -> True, "not
    international" -> False; None when the piece does not name the field, or says more than that."""
    name = {stem(w) for w in f.name.split("_") if w and w not in _OWNER_WORDS | _FLAG_WORDS}
    if not name or not bag.hits(name):
        return None
    yes = not _NOT_FLAG.match(piece)
    own = name | field_stems(f) | {stem(w) for w in _OWNER_WORDS | _FLAG_WORDS}
    extra = [w for w in content_stems(_NOT_FLAG.sub("", piece)) if not any(same_word(w, n) for n in own)]
    return None if extra else yes  # "international transfer": more than the field's own words


_THING_LEAD = re.compile(r"^\W*(?:a|an|the|some|this|that|these|those|my|our|your|his|her|their|its)\s", re.I)


def _shape_fits(sh: str, piece: str) -> bool:
    if sh == "email":
        return bool(find_emails(piece))
    if sh in ("code", "int"):
        return bool(re.fullmatch(r"[\w-]*\d[\w-]*", piece.strip(" .")))
    if sh == "name":  # "a red North Face duffel" is a thing with a brand, not a person's name
        return clean_name(piece) is not None and not any(c.isdigit() for c in piece) and "@" not in piece \
            and not _THING_LEAD.match(piece)
    return False


_NOT = re.compile(r"\b(?:not|no|never|without)\b|n'?t\b", re.I)
_NONE_OF = re.compile(r"\b(?:nobody|no\s+one|noone|none|nothing|neither)\b", re.I)
"""A quantifier that says there is none of the thing, before the flag's word in its clause ("nobody hurt"); after
it ("my husband was hurt, nothing serious") it says nothing of the flag."""


def flag_named(f: Field, text: str) -> bool | None:
    """A yes/no field answered by its own word instead of a yes or no: "heated please" is True and "not heated" /
    "doesn't need heat" False for `heated`; None when the answer names none of the field's distinctive words or
    asks something ("heated?")."""
    names = {s for s in field_stems(f, with_description=False) if s not in STOPWORDS and len(s) >= 4}
    if len(text.split()) > 8 and "?" not in text:
        text = re.split(r"[,.;!]|\s-\s", text)[0]  # "nobody hurt, we were all in the kitchen": the first clause
    if not names or "?" in text or not Bag.of(text).hits(names) or len(text.split()) > 8:
        return None
    clause = next((c for c in re.split(r"[,.;!]|\s-\s|\bbut\b", text) if Bag.of(c).hits(names)), text)
    word = next((m for m in re.finditer(r"[a-z]+", clause.lower()) if Bag.of(m.group(0)).hits(names)), None)
    none_before = word is not None and _NONE_OF.search(clause[:word.start()]) is not None
    return not (_NOT.search(text) or none_before)


_PRO_FORM = re.compile(
    r"^\W*(?:(?:oh|well|um+|erm|ah|so|sadly|unfortunately)[\s,.!]+)*(?:"
    r"(?P<no>there(?:'?s|\s+is|\s+are)\s+(?:no(?:ne|\s+one)?|not\s+(?:one|any))|there\s+(?:isn'?t|aren'?t|is\s+not|are\s+not)"
    r"(?:\s+(?:one|any))?|(?:it|we|they|he|she|i)\s+(?:hasn'?t|haven'?t|has\s+not|have\s+not|doesn'?t|don'?t|does\s+not|"
    r"do\s+not)\s+(?:got\s+|have\s+(?:got\s+)?)?(?:one|any))|"
    r"(?P<yes>there(?:'?s|\s+is|\s+are)\s+(?:one|some)|(?:it|we|they|he|she|i)(?:\s+has|\s+have|'s\s+got|'ve\s+got|"
    r"\s+has\s+got|\s+have\s+got)\s+(?:one|some)))\b"
    r"(?=\s*(?:$|[,.!;:-]|(?:but|and|though|already|yet|at\s+all|unfortunately|sadly|now|here|there)\b))", re.I)
"""A yes/no about having a thing answered with a pro-form for it: "there isn't one", "we don't have any",
"it's got one"."""


def pro_form_flag(text: str) -> tuple[bool, str, str] | None:
    """(answer, the words that said it, the rest) for "there isn't one but it's the ground floor" to "does the
    building have a lift?"; None when the turn does not open so, or asks something."""
    m = _PRO_FORM.match(normalise(text))
    if m is None or "?" in text:
        return None
    return m.group("yes") is not None, m.group(0).strip(" ,.!"), normalise(text)[m.end():].lstrip(" ,.!;:-")


_AUX_FAMILY = {"was": "past", "were": "past", "is": "now", "are": "now", "will": "will", "would": "will"}
_ASKED_AUX = re.compile(r"^\s*(?P<aux>was|were|is|are|will|would)\s+(?P<rest>[^?.!]+)", re.I)
_SAID_AUX = re.compile(r"^\W*(?:(?:yes|yeah|yep|yeh|yup|ya|oh|well|um|so|and)\b[\s,.!]*)*"
                       r"(?:it|they|he|she|we|i|everything|both|all)\s*(?P<aux>was|were|is|are|'s|'re|'ll|will)"
                       r"(?P<neg>\s*n'?t|\s+not|\s+never)?\s+(?:be\s+)?(?:(?:all|both|already|still|definitely|"
                       r"right)\s+)?(?P<word>[a-z]+)\b", re.I)


def echoed_flag(f: Field, text: str) -> bool | None:
    """ "It was out by half six" to "Was the bin out at the kerbside by 7am that day": a yes/no question the field's
    description asks, answered with its own verb and word ("was ... out") instead of a yes; True, or False when the
    verb is negated ("it wasn't out"). None when the description asks no such question or the answer does not
    echo it."""
    asked = _ASKED_AUX.match(f.description or "")
    said = _SAID_AUX.match(normalise(text))
    if asked is None or said is None or "?" in text:
        return None
    aux = said.group("aux").lower().replace("'s", "is").replace("'re", "are").replace("'ll", "will")
    if _AUX_FAMILY.get(aux) != _AUX_FAMILY[asked.group("aux").lower()]:
        return None
    words = [w for w in re.findall(r"[a-z]+", asked.group("rest").lower()) if w not in _ARTICLES]
    word = said.group("word").lower()
    if word in _ARTICLES or word not in words[1:4]:  # the word after the subject ("bin out", "items be outside")
        return None
    return not said.group("neg")


_ARTICLES = frozenset({"the", "a", "an", "your", "my", "this", "that", "these", "those", "be", "it", "they"})


def asks_when(f: Field) -> bool:
    """A short text field that asks when something happened ("When the test scores were submitted")."""
    return f.type == "str" and shape(f) == "short" and bool(_ASKS_WHEN.search(f"{f.name} {f.description}"))


def when_spans(text: str) -> list[Span]:
    """The parts of the text that say when ("in June", "mid-may", "last summer"), as typed."""
    return [Span(m.group(0), m.start(), m.end(), m.group(0)) for m in _WHEN_SPAN.finditer(text)]


_MAKE_WORDS = {"make", "model", "brand", "manufacturer", "marque"}
_MAKE_LEAD = re.compile(r"^(?:(?:ok(?:ay)?|fine|so|well|um|uh|yeah|yes|sure|right|it'?s|its|it\s+is|that'?s|thats|"
                        r"we\s+have|i\s+have|i'?ve\s+got|we'?ve\s+got|got|a|an|the|my|our|her|his|their)\b[\s,.]*)+",
                        re.I)


def is_make_field(f: Field) -> bool:
    """A field that holds a make or model ("The make and model of the car"): a proper name of a product."""
    said = set(re.findall(r"[a-z]+", f.description.lower())) - {"model"}  # "e.g. a laptop model": a kind of thing
    return bool((set(f.name.lower().split("_")) | said) & _MAKE_WORDS)


def make_value(text: str) -> str | None:
    """A make or model as a proper name: the last sentence, before any comma, without its lead-in, each word in
    lower case capitalised ("ford fiesta" -> "Ford Fiesta", "BMW 3 series, black" -> "BMW 3 Series")."""
    said = [p for p in re.split(r"(?<=[.!?])\s+|\.{2,}\s*", text.strip()) if p.strip(" .!?")]
    if not said:
        return None
    head = _MAKE_LEAD.sub("", said[-1].split(",")[0].strip(" .!?")).strip()
    words = head.split()
    if not 1 <= len(words) <= 4 or not any(re.search(r"[a-z]", w, re.I) for w in words):
        return None
    return " ".join(w.capitalize() if w.isalpha() and w.islower() else w for w in words)


_CONTACT_WORDS = frozenset("""whatsapp reception urgent asap anytime voicemail emergency contact landline text texts
    call ring work office home mobile daytime evenings weekdays weekends ta thanks cheers x xx please pls only best
    number details direct line switchboard extension ext""".split())
"""Words said beside a phone number about the number or the call, never a name ("reception, 0113 496 0000")."""
_CONTACT_LEAD = re.compile(r"^(?:and\s+)?(?:(?:my|the|our|his|her)\s+)?(?:mobile|mob|mobile\s+number|number|phone|"
                           r"phone\s+number|tel|cell|no\.?|email|e-mail|contact)(?:\s+(?:is|number|no\.?))?\s*[:-]?$",
                           re.I)
"""What leads a phone number or an e-mail address when the name comes first ("and my mobile is")."""


def _name_beside_contacts(text: str) -> str | None:
    """The person's name typed beside a phone number or an e-mail address, to a question for the name: the one
    clause left when the contact details and their lead-in are taken out is the name ("jess morrow, 07700 900123",
    "daz kowalski 07399 551204", "Oscar Reid, and my mobile is 07400 123987"). None when no contact detail is
    given, or when what is left is not one to four words a name is made of."""
    from ..parts.given_name import not_a_name_word  # late: parts import this module
    spans = [(s.start, s.end) for s in [*find_phones(text), *find_emails(text)]]
    if not spans:
        return None
    rest = text
    for start, end in sorted(spans, reverse=True):
        rest = rest[:start] + " ; " + rest[end:]
    clauses = [c.strip() for c in re.split(r"\s*[,;.!?\n]\s*|\s+-\s+", rest) if c.strip()]
    clauses = [c for c in clauses if not _CONTACT_LEAD.match(c)]
    if len(clauses) != 1:
        return None
    words = re.sub(r"\s+(?:and\s+)?(?:(?:my|the)\s+)?(?:mobile|mob|number|phone|tel|email)(?:\s+(?:is|number))?$",
                   "", clauses[0], flags=re.I).split()
    name = clean_name(" ".join(words)) if words else None
    if not name or not 1 <= len(name.split()) <= 4 or any(not_a_name_word(w) or w.lower() in _CONTACT_WORDS
                                                           for w in name.split()) \
            or not re.fullmatch(r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)*", name):
        return None
    if len(words) == 1 and not words[0][:1].isupper():
        return None  # "whatsapp 07700 900123", "x": one word typed in lower case is no name
    return name


NOTHING_OF_THE_KIND = re.compile(r"^\W*(?:none|nothing|nobody|no\s*one|not\s+that\s+i\s+know(?:\s+of)?|not\s+as\s+far\s+as\s+"
                                  r"i\s+know|not\s+really)(?:\s+(?:at\s+all|like\s+that|of\s+(?:those|them|that)|that\s+i\s+"
                                  r"know\s+of))?[\s,.!]*(?:thanks|thank\s+you|ta|cheers)?[\s.!]*$", re.I)
"""An answer that says there is none of what a yes/no question asks about ("none", "nothing like that", "not that I
know of"): no."""

NEGATIVE_QUESTION = re.compile(r"\b(?:no|not|none|nothing|nobody|without|free\s+(?:of|from)|empty|never|vacant|"
                               r"unoccupied)\b", re.I)
"""A yes/no question asked the negative way ("Confirm the parcel contains no dangerous goods", "Whether the property
will be empty"): "none" answers yes to it, so "none" is not read as no."""
