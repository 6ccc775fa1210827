"""A head count said with the speaker included: "me and three friends" is 4, "my wife and I" is 2.

Only for a whole-number field that counts people (its name or description says people, guests, party...);
the number said counts the others, and the speaker adds one ("just me and my wife": one other, so 2).
"""

from __future__ import annotations

import re

from ..values import Span, find_numbers

_ME_AND = re.compile(r"\b(?:me|myself|i)\s+(?:and|plus|\+|with)\s+(?P<rest>.{1,30})", re.I)
_ONE_OTHER = re.compile(r"my\s+(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|mum|mom|dad|mother|"
                        r"father|son|daughter|brother|sister|friend|mate|pal|buddy|colleague|flatmate|neighbou?r)\b"
                        r"(?!'s|\s*,?\s*(?:and|plus|with|\+|&)(?!\w)(?!\s+(?:no|not|nothing|none|never)\b))", re.I)
"""One person named by a relation in the singular ("me and my wife", "just me and my mate"); "my friend and her
kids" goes on past it, so it is not counted ("me and my girlfriend, and no pets" does not: what follows is no one)."""
_AND_ME = re.compile(r"\b(?:my|a|one)\s+[a-z]+\s+and\s+(?:me|i|myself)\b", re.I)


_RELATION = (r"(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|mum|mom|dad|mother|father|son|"
             r"daughter|brother|sister|friend|colleague|boss|grandma|grandmother|grandpa|grandfather|aunt|uncle|"
             r"niece|nephew|cousin|baby|kid|child|boy|girl|mate|flatmate|roommate|neighbou?r)")
_PERSON = re.compile(r"(?:just\s+)?(?:(?P<me>me|myself|i)|him|her(?!\s+(?:\d|two|three|four|five|six|seven|eight|nine|ten)\b)|(?:grand)?(?:ma|mum|mom|nan|nanna|gran|granny|pa|dad|"
                     r"grandad|grandpa)|(?:my|our)\s+(?:little\s+|older\s+|younger\s+|best\s+)?"
                     + _RELATION + r"|(?:(?:the|our|my|their|his|her)\s+)?(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|"
                     r"nine|ten)\s+(?:little\s+|young\s+)?(?:kids|children|boys|girls|friends|adults|teens|"
                     r"teenagers|grandkids|grandchildren|colleagues|mates|sons|daughters|others|of\s+them))"
                     r"(?![\w'-])", re.I)
_LIST_ENDS = re.compile(r"\s*(?:$|[,.;!?]|(?:please|thanks|on|at|for|tonight|tomorrow|this|next|in|going|coming|"
                        r"travelling|traveling|then)\b)", re.I)
_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|plus\s+)?|\s+and\s+|\s+plus\s+|\s*&\s*|\s*\+\s*)", re.I)
_WORD_NUMBER = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


_JOINED = re.compile(r"\b(?:com(?:e|es|ing)|join(?:s|ing)?(?:\s+(?:us|me))?|tag(?:s|ging)?\s+along)(?:\s+along)?"
                     r"(?:\s+(?:too|as\s+well|also|now|after\s+all))?[\s,-]+(?:so|which\s+makes|that\s+makes|"
                     r"making\s+(?:it|that|us))\s+(?:it'?s\s+|that'?s\s+|we'?re\s+|we\s+are\s+|make\s+it\s+|"
                     r"it'?ll\s+be\s+|there'?ll\s+be\s+)?(?:a\s+total\s+of\s+)?(?P<n>\d{1,2}|two|three|four|five|six|"
                     r"seven|eight|nine|ten)\b(?!\s*(?:am|pm|:|\.\d|o'?clock|h\b))", re.I)


def joined_span(text: str) -> tuple[int, int, int] | None:
    """ "my sister's coming too so 5": someone more comes along, and the number after "so" is the new head count.
    (the count, start, end of the number), else None."""
    m = _JOINED.search(text)
    if m is None:
        return None
    n = m.group("n")
    return (int(n) if n.isdigit() else _WORD_NUMBER[n.lower()]), m.start("n"), m.end("n")


def party_span(text: str) -> tuple[int, int, int] | None:
    """ "me, my wife and the 3 kids" is 5: a list of three or more people said one by one, the speaker among
    them: "me" or "I" is one, "my wife" (a relation, singular) one, "the 3 kids" three. (the sum, start, end),
    else None; every part of the list must be such a person (a part that is not stops the list)."""
    for start in re.finditer(r"\b(?:just\s+)?(?:me|myself|i|my|our)\b", text, re.I):
        at, total, parts, speaker, end = start.start(), 0, 0, False, start.start()
        while True:
            m = _PERSON.match(text, at)
            if m is None:
                break
            speaker = speaker or bool(m.group("me"))
            number = m.group("n")
            total += (int(number) if number.isdigit() else _WORD_NUMBER[number.lower()]) if number else 1
            parts, end = parts + 1, m.end()
            join = _JOIN.match(text, end)
            if join is None:
                break
            at = join.end()
        if parts >= 3 and speaker and _LIST_ENDS.match(text, end):
            return total, start.start(), end  # not "me, her and her kids": the list goes on in words not counted
    return None


_MY_COUNTED = re.compile(r"\b(?:me|myself|i)\s+(?:and|plus|\+|with)\s+(?:my|our|the)\s+(?P<n>\d{1,2}|two|three|four|five|six|"
                         r"seven|eight|nine|ten)(?=" + r"\s*(?:(?:little|young|older|small)\s+)?(?:kids|children|girls|boys|"
                         r"sons|daughters|friends|mates|grandchildren|grandkids|nieces|nephews|cousins|sisters|brothers|"
                         r"lads|pals)\b)", re.I)
"""The speaker and a counted group of their own ("me and my two kids"): the group and one more."""


_NOT_NOW = re.compile(r"\b(?:last|usually|normally|used\s+to|was|were|had|not|never)\b|n't\b", re.I)
_GROUP_ENDS = re.compile(r"\s*(?:$|[,.;!?(]\s*(?!and\b|plus\b)|(?:please|pls|thanks|for|on|at|this|next|tomorrow|today|"
                         r"tonight|in|to|then|too)\b)", re.I)


def me_plus_span(text: str) -> tuple[int, int, int] | None:
    """(the group with the speaker, start, end) for "me and my two kids" (3), else None."""
    m = _MY_COUNTED.search(text)
    if m is None or _NOT_NOW.search(re.split(r"[,.;!?]", text[:m.start()])[-1]):
        return None  # "last time it was me and my two kids": not the group now
    n = m.group("n")
    noun = _PEOPLE_NOUN.match(text[m.end():])
    if noun is None or not _GROUP_ENDS.match(text[m.end() + noun.end():]):
        return None  # "me and my two kids and their dad", "me and my two kids' father", "... can't come"
    return (int(n) if n.isdigit() else _WORD_NUMBER[n.lower()]) + 1, m.start(), m.end() + (noun.end() if noun else 0)


def head_count(text: str) -> int | None:
    """The size of a group that includes the speaker, or None when the words do not say one."""
    party = party_span(text)
    if party is not None:
        return party[0]  # "me, my wife and the 3 kids"
    mine = me_plus_span(text)
    if mine is not None:
        return mine[0]  # "me and my two kids"
    m = _ME_AND.search(text)
    if m:
        found = find_numbers(m.group("rest"))
        if found and found[0].start <= 1 and float(found[0].value).is_integer():
            return int(found[0].value) + 1
        if (not found or found[0].start > 1) and _ONE_OTHER.match(m.group("rest")):
            return 2  # "just me and my wife": one other person, named by a singular noun
        return 1 if _JUST_ME.search(text) else None  # "just me and my bike": the bike is no one
    if _AND_ME.search(text) and not find_numbers(text):
        return 2  # "my wife and I"
    if _THEY_TWO.search(text) and not find_numbers(text):
        return 2  # "her and her friend have both had a few lessons": two people, neither the speaker
    return 1 if _JUST_ME.search(text) else None


_THEY_TWO = re.compile(r"^\W*(?:him|her|he|she)\s+and\s+(?:his|her)\s+(?:friend|mate|brother|sister|cousin|"
                       r"boyfriend|girlfriend|partner|pal)\b(?!'s|\s*,?\s*(?:and|plus|with|&)\s)", re.I)
"""Two people the booking is for, said as a pair at the start of the turn ("her and her friend have both ...")."""
_JUST_ME = re.compile(r"\b(?:(?:it'?d|it\s+would|it'?ll|it\s+will|it'?s|it\s+is)\s+)?(?:just|only)\s+(?:be\s+)?(?:me|myself)\b(?=\s*(?:$|[.!?,;]|(?:and|with|plus)\s+(?:my|the|a|our)\s+"
                      r"(?:bike|bicycle|car|van|motorbike|dog|cat|bags?|luggage|suitcase|stuff|kit|tools?)\b))", re.I)
"""The speaker alone ("just me", "only myself and my bike"): one person, when what comes with them is no person."""


_PEOPLE_NOUN = re.compile(r"\s*(?:(?:little|young|older|small|extra|more)\s+)?(?:adults?|kids?|children|child|people|persons?|"
                          r"guests?|bab(?:y|ies)|toddlers?|teens?|teenagers?|seniors?|friends?|infants?|grown-?ups?|"
                          r"parents?|staff|teachers?|helpers?|carers?|students?|pupils?|members?|leaders?|volunteers?|"
                          r"grandparents?|boys|girls|lads|men|women|ladies)\b", re.I)
_ONE_PERSON = re.compile(r"\b(?:and|plus|with|\+)\s+(?P<one>an?)(?=\s+(?:(?:little|young|small)\s+)?(?:toddler|baby|child|kid|"
                         r"infant|teen|teenager|adult|grown-?up)(?=\s*(?:$|[,.;!?()]|(?:who|that|and|aged|too|as\s+well|"
                         r"please|pls)\b)))", re.I)
"""One more person said with "a" after a count ("3 adults plus a toddler", "two adults and a baby")."""
_PART_OF = re.compile(r"\b(?:including|incl|inc|of\s+which|of\s+whom|out\s+of|among\s+them|amongst\s+them)\b", re.I)
_TOTAL_NOUN = re.compile(r"\s*(?:people|persons?|guests?|of\s+us|in\s+total|total)\b", re.I)
_LINKED = re.compile(r"^\s*(?:,|\+|&|and|plus|with|,\s*(?:and|plus))?\s*$", re.I)
"""What joins the counts of a sum: "9 kids and 7 parents", "28 kids plus 4 adults", "30 kids + 6 parents"."""


def people_sum(text: str) -> int | None:
    """ "2 adults and 1 kid" is 3: two or more numbers, each said with a kind of person, and no other number."""
    found = people_sum_span(text)
    return found[0] if found else None


def people_sum_span(text: str, numbers: list | None = None) -> tuple[int, int, int] | None:
    """(the sum, start, end of the words that said it) for "2 adults and 1 kid"; `numbers`, the turn's numbers
    that are not parts of dates or times (all of them by default)."""
    numbers = find_numbers(text) if numbers is None else numbers
    if numbers:  # "two adults and a toddler": the toddler is one more
        numbers = sorted(numbers + [Span(1, m.start("one"), m.end("one"), m.group("one")) for m in _ONE_PERSON.finditer(text)
                                    if not any(n.start <= m.start("one") < n.end for n in numbers)], key=lambda n: n.start)
    counted = [(n, _PEOPLE_NOUN.match(text[n.end:])) for n in numbers]
    if any(_PART_OF.search(text[a.end:b.start]) for a, b in zip(numbers, numbers[1:])):
        return None  # "8 people including 2 staff": the others are part of the first count, not added to it
    if len(numbers) >= 3 and counted[0][1] is not None and _TOTAL_NOUN.match(text[numbers[0].end:]) \
            and sum(n.value for n in numbers[1:]) == numbers[0].value:
        return None  # "7 people, 3 adults and 4 children": a total, then what it is made of (read as the total)
    if len(numbers) >= 2 and all(m for _n, m in counted) and all(float(n.value).is_integer() for n in numbers):
        last, noun = counted[-1]
        return int(sum(n.value for n in numbers)), numbers[0].start, last.end + noun.end()  # type: ignore[union-attr]
    # other numbers beside (a date, a time): one run of counts of people joined by "and", "plus", "+"
    runs: list[list[tuple]] = []
    for n, m in counted:
        if m is None or not float(n.value).is_integer():
            runs.append([])
            continue
        if runs and runs[-1] and _LINKED.match(text[runs[-1][-1][0].end + runs[-1][-1][1].end():n.start]):
            runs[-1].append((n, m))
        else:
            runs.append([(n, m)])
    runs = [r for r in runs if len(r) >= 2]
    if len(runs) != 1 or sum(1 for _n, m in counted if m is not None) != len(runs[0]):
        return None
    run = runs[0]
    last, noun = run[-1]
    return int(sum(n.value for n, _m in run)), run[0][0].start, last.end + noun.end()


_PLUS_OTHERS = re.compile(r"\s+(?:plus|and|with|\+|&)\s+(?:our|my|the|their)?\s*$", re.I)


def couple_plus_span(text: str, numbers: list | None = None) -> tuple[int, int, int] | None:
    """ "my wife and I plus our 3 kids" is 5: two people named with the speaker, then one number of people added
    after them; (the sum, start, end of the words that said it), else None."""
    pair = _AND_ME.search(text)
    if pair is None:
        return None
    numbers = find_numbers(text) if numbers is None else numbers
    after = [n for n in numbers if n.start >= pair.end()]
    if len(after) != 1 or not float(after[0].value).is_integer():
        return None
    n = after[0]
    noun = _PEOPLE_NOUN.match(text[n.end:])
    if noun is None or not _PLUS_OTHERS.search(text[pair.end():n.start]):
        return None
    return 2 + int(n.value), pair.start(), n.end + noun.end()


_TIMES_FIELD = re.compile(r"\bhow\s+(?:many|often)\s+times\b|\bnumber\s+of\s+(?:times|attempts|tries|goes)\b|"
                          r"\b(?:attempts|tries|retakes|resits)\b", re.I)
"""A whole-number field that counts times something was done ("How many times you have sat it",
`previous_attempts`)."""
_EARLIER = re.compile(r"\b(?:already|previous(?:ly)?|before|prior|past|so\s+far|ever)\b", re.I)
"""A count of times that lie before now: "my first time" is none of them."""
_TIMES_WORD = re.compile(r"\b(?P<w>once|twice|thrice)\b(?!\s+(?:i|you|he|she|we|they|it|the|that|this|my|your|his|"
                         r"her|our|their|more|again|upon)\b)", re.I)
"""A number of times said in one word ("once I've paid" is a time, not a count)."""
_TIMES_VALUE = {"once": 1, "twice": 2, "thrice": 3}
_NEVER = re.compile(r"\b(?:never(?!\s+mind)|not\s+(?:yet|ever|once))\b|^\W*(?:none|zero|nil)\b", re.I)
_FIRST_TIME = re.compile(r"\b(?:(?:my|his|her|their|our|the|a|it'?s|be)\s+)?first\s+(?:time|attempt|try|go)\b", re.I)


def times_field(name: str, description: str) -> bool:
    """Whether a whole-number field counts times something was done."""
    return bool(_TIMES_FIELD.search(f"{name.replace('_', ' ')} {description}"))


def times_count(name: str, description: str, text: str, said: str | None = None) -> tuple[int, str] | None:
    """(the count, the words that said it) for a count of times said in words: "twice" is 2, "he's tried once" 1,
    "never taken it" 0, and to a count of earlier times "none, first time" 0; None for any other field, when the
    words say two counts ("once or twice") or none. `text` is the turn without its negated words, `said` the turn
    as said (where "never" is)."""
    if not times_field(name, description):
        return None
    said = text if said is None else said
    words = {_TIMES_VALUE[m.group("w").lower()]: m.group("w") for m in _TIMES_WORD.finditer(text)}
    if len(words) == 1:
        return next(iter(words.items()))
    if words or find_numbers(said):
        return None
    zero = _NEVER.search(said) or (_EARLIER.search(description) and _FIRST_TIME.search(said))
    return (0, zero.group(0)) if zero else None
