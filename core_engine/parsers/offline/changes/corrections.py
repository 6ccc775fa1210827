"""Corrections of a value already given: "CS 144, not 142", "I gave you the wrong PIN, it's 1375".

Why its own rule, before the answer to the question asked: otherwise the correction is read as
that answer ("Sorry, I meant CS 144, not 142" became the next course's name) and the wrong value
stays. The field is found from the state, not from built-in words: the value said after "not" is
the one a filled field holds (whole, or as its end: "142" of "CS 142"), or the words after
"wrong" name a filled field. The new value is read for that field's type; a wrong value is worse
than none, so when the field or the new value is not clear the rule does nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field
from ....dialogue.state import TaskRecord
from ..words.match import Bag, field_mention, stem
from ..words.values import find_times

if TYPE_CHECKING:
    from ..parser import TurnReader

_LEAD = re.compile(r"^(?:(?:sorry|oops|wait|no|actually|hmm|oh|ah|um+|er+m?|ok(?:ay)?|(?:hold|hang)\s+on|"
                   r"one\s+(?:sec(?:ond)?|moment)|just\s+a\s+(?:sec(?:ond)?|moment))[,!.\s]+)*"
                   r"(?:i\s+meant|i\s+mean|i\s+said|it'?s|it\s+is|it\s+was|that\s+was|it\s+should\s+be|should\s+be|make\s+it|"
                   r"change\s+it\s+to|(?:(?:the|my)\s+[a-z ]{1,30}?|it)(?:'s|\s+is)\s+(?:spelt|spelled)|"
                   r"(?:the|my)\s+[a-z ]{1,30}?\s+(?:is|was|should\s+be))?\s*", re.I)
_NEW_NOT_OLD = re.compile(r"^(?P<new>[^;]+?)\s*,?\s+not\s+(?P<old>[^,;!?]+?)[\s.!]*$", re.I)
_NOT_OLD_NEW = re.compile(r"^(?:(?:sorry|wait|no|actually)[,!.\s]+)*not\s+(?P<old>[^,;]+?)\s*(?:,|;|but|\s[-–—]+\s)\s*"
                          r"(?P<new>[^,;!?]+?)(?:[\s,;.!-]+(?:that'?s|that\s+is|it'?s|it\s+is|this\s+is)\s+the\s+"
                          r"(?:one|right\s+one|correct\s+one)\b[^;!?]*)?[\s.!]*$", re.I)
""""not hydro - grooming, that's the one I want to see": the new value and a remark that points at it."""
_WRONG = re.compile(r"\bwrong\s+(?P<what>[a-z][a-z ]{1,30}?)\s*[,.;:!-]*\s*(?:it'?s|it\s+is|it\s+should\s+be|"
                    r"the\s+right\s+one\s+is|the\s+correct\s+one\s+is|should\s+be)\s+(?P<new>[^,;!?]+?)[\s.!]*$",
                    re.I)
_RESTATED = re.compile(r"^(?:(?:sorry|oh|well|actually|and|also|wait|no)[,!.\s]+)*(?:my|the|our)\s+"
                       r"(?P<what>[a-z][a-z' ]{1,40}?)\s+(?:is|should\s+be|'s)\s+(?:actually\s+|really\s+)?"
                       r"(?P<new>[^,;!?]+?)[\s.!]*$", re.I)
_PLAIN = ("str", "int", "float", "date", "time", "Enum")


_INSTEAD = re.compile(r"^(?P<new>[^;]*?\b\d{1,2})\s+(?:instead\s+of|rather\s+than|not)\s+(?P<old>(?:half\s+(?:past\s+)?)?"
                      r"\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\.?)?)(?:\s*[,;]\s+[^\d]*)?[\s.!?]*$", re.I)
"""Two bare hours: "sorry can we do 3 instead of 2", "can we make it 8 rather than half 7" move a clock time given
before."""
_OLD_CLOCK = re.compile(r"(?P<half>half\s+(?:past\s+)?)?(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?(?:\s*[ap]\.?m\.?)?", re.I)


def _nearest_hour(new: int, was: int) -> int:
    """A clock hour 1-12 said without am/pm, on the side of noon nearest the hour held (0-23)."""
    return min((new % 12, new % 12 + 12), key=lambda h: abs(h - was))


def _hours(reader: "TurnReader", said: str) -> bool:
    """ "can we do 3 instead of 2" after 14:00: the one filled time whose hour is the old number (and whose minutes
    are the old ones, when said: "half 2" is 14:30) moves to the new hour nearest the old one (15:00; "12 instead of 11" after 11:00 is 12:00)."""
    m = _INSTEAD.match(said)
    if m is None:
        return False
    said_old = _OLD_CLOCK.fullmatch(m.group("old").strip())
    if said_old is None:
        return False
    old, new = int(said_old.group("h")), int(re.findall(r"\d{1,2}", m.group("new"))[-1])
    minutes = 30 if said_old.group("half") else int(said_old.group("m")) if said_old.group("m") else None
    if not (1 <= old <= 12 and 1 <= new <= 12):
        return False
    fits = [(r, f, v) for r, f, v in _filled(reader) if reader.view.kind_of(f) == "time" and isinstance(v, str)
            and re.fullmatch(r"\d{2}:\d{2}", v) and (int(v[:2]) % 12 or 12) == old
            and (minutes is None or int(v[3:]) == minutes)]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    told = [t for t in find_times(m.group("new")) if isinstance(t.value, str) and not t.text.strip().isdigit()]
    if told and int(told[-1].value[:2]) % 12 == new % 12:  # "should be half 2 not 2": the time said, 14:30
        reader.assign("correction", said, rec, f, told[-1].value, was=current, how="hours")
        return True
    hour = _nearest_hour(new, int(current[:2]))  # "12 instead of 11" after 11:00 is noon
    kept = current[3:] if minutes is None else "00"  # "3 instead of half 2": 15:00, not 15:30
    reader.assign("correction", said, rec, f, f"{hour:02d}:{kept}", was=current, how="hours")
    return True


_HOUR_INSTEAD = re.compile(r"\b(?P<lead>do|make\s+it|say|at|how\s+about|move\s+it\s+to|change\s+it\s+to|it\s+be)\s+(?P<h>1[0-2]|[1-9])"
                           r"(?:\s*o'?clock)?\s+instead\b(?!\s+of)|"
                           r"\b(?P<lead2>make\s+it|move\s+it\s+to|change\s+it\s+to|push\s+it\s+to)\s+(?P<h2>1[0-2]|[1-9])(?:\s*o'?clock)?"
                           r"(?=\s*(?:[,.;!]|$|then\b|please\b|instead\b))(?!\s*instead\s+of)", re.I)
"""A bare hour said instead ("actually can we do 11 instead, he's got physio at 10") when one time is held."""


def _hour_instead(reader: "TurnReader", said: str) -> bool:
    """ "can we do 11 instead" after 10:00: the one filled time moves to the hour nearest it, when that is at most
    three hours away (a count held beside it is not what a clock hour changes)."""
    m = _HOUR_INSTEAD.search(said)
    if m is None:
        return False
    e = reader.expect
    if e is not None and e.act == "ask" and reader.view.kind_of(e.field) == "int" and re.search(r"\d", said[:m.start()]):
        return False  # "8, or actually make it 9, Dave's coming" to "how many people?": the count asked, settled on
    fits = [(r, f, v) for r, f, v in _filled(reader) if reader.view.kind_of(f) == "time" and isinstance(v, str)
            and re.fullmatch(r"\d{2}:\d{2}", v)]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    lead, said_hour = (m.group("lead") or m.group("lead2")).lower(), m.group("h") or m.group("h2")
    if (lead in ("do", "say", "how about") or lead.endswith("be") or m.group("lead2")) and any(
            reader.view.kind_of(g) == "int" and isinstance(v, int) and 0 < v <= 20 for r, g, v in _filled(reader)
            if r is rec):
        return False  # "can we do 6 instead, my cousins are coming": a small count held beside the time may be what
        # changes (an age of 78 is not what "do 11 instead" changes)
    new, was = int(said_hour), int(current[:2])
    hour = _nearest_hour(new, was)
    if hour == was or abs(hour - was) > 3:
        return False
    reader.assign("correction", m.group(0), rec, f, f"{hour:02d}:00", was=current, how="hours")
    return True


_TRAILING_APOLOGY = re.compile(r"(?:[\s,.!-]+(?:sorry|soz|my\s+bad|oops|whoops|my\s+mistake|typo|lol|please|pls|"
                               r"thanks|thank\s+you|ta))+[\s.!]*$", re.I)
""""1500 not 1000 sorry": an apology or thanks after the correction is not part of the value it replaces."""


def correction_rule(reader: "TurnReader", text: str) -> bool:
    said = _TRAILING_APOLOGY.sub("", text.strip()) or text.strip()
    if _hours(reader, said) or _hour_instead(reader, said):
        return True
    m = _NEW_NOT_OLD.match(said) or _NOT_OLD_NEW.match(said)
    if m and re.search(r"[.!?]\s+\S", m.group("new")):
        m = None  # "jo@x.com. oh and it's 4 rooms not 3": the other sentence answers; the clause corrects
    if m:
        new = m.group("new")
        if "," in new and re.fullmatch(r"[\w'’-]+", m.group("old").strip()):
            last = _IT_IS.sub("", new.rsplit(",", 1)[1].strip())  # "sorry, I spelled my surname wrong before, it's
            if re.fullmatch(r"[\w'’-]+", last):  # Riley not Reilly": the last clause says the new word
                new = last
        return _by_old_value(reader, new, m.group("old"), said)
    if _new_surname(reader, said):
        return True
    m = _WRONG.search(said)
    if m:
        return _by_field_words(reader, m.group("what"), m.group("new"), said)
    m = _RESTATED.match(said)
    if m:
        return _restated(reader, m.group("what"), m.group("new"), said)
    if _CUE.search(said) and _same_shape(reader, said):
        return True
    return _near_value(reader, said) or _sorry_name(reader, said) or _spelled_letter(reader, said) or \
        _option_over_named(reader, said) or \
        _sorry_number(reader, said) or \
        clause_correction(reader, said)


_CLAUSE_NOT = re.compile(r"^(?:(?:and|also|oh|plus)[,!.\s]+)*(?P<new>[^,;]*?\w)\s+not\s+(?P<old>[\w£$€.:/-]+(?:\s+[\w.:/-]+)?)"
                         r"[\s.!]*$", re.I)
"""One clause of a longer turn that corrects a value: "wait the flight was CJ 218 not 208" (", sorry, baby brain"),
"oh and it's 3 bags not 2" (after the e-mail asked for)."""


def clause_correction(reader: "TurnReader", text: str, *, after_answer: bool = False) -> bool:
    """A correction said in one clause of a longer turn ("X not Y" between commas or sentence ends). Before the answer
    to the question asked, only when no other clause holds a value of any field (they are chatter: "sorry, baby
    brain"); after it, for a field this turn has not set. One such clause, one filled field, else nothing."""
    from ..intents import sentences  # late: intents imports the word helpers this module uses
    from ..answering.slots import find_mentions
    clauses = [c.strip(" .!") for sentence in sentences(text) for c in re.split(r"\s*[,;]\s*|\s+but\s+", sentence)]
    clauses = [c for c in clauses if c]
    found = [(c, m) for c in clauses if re.search(r"\bnot\b", c, re.I) for m in [_CLAUSE_NOT.match(c)] if m]
    if len(found) != 1 or len(clauses) < 2:
        return False
    clause, m = found[0]
    if not after_answer:
        others = " , ".join(c for c in clauses if c != clause)
        if find_mentions(others, reader.candidates(), reader.view, reader.today):
            return False
    set_now = {line.split(" = ")[0] for line in reader.lines}
    before = len(reader.lines)
    if not _by_old_value(reader, m.group("new"), m.group("old"), clause):
        return False
    if after_answer and reader.lines[-1].split(" = ")[0] in set_now:
        del reader.lines[before:]
        reader.rules = [r for r in reader.rules if r.get("statement") in reader.lines or r.get("statement") is None]
        return False
    return True


_IT_IS = re.compile(r"^(?:it'?s|its|it\s+is)\s+", re.I)
_SURNAME_NOW = re.compile(
    r"\b(?:(?:my\s+)?(?:sur|last|family|married)\s*name(?:\s+on\s+(?:the|my)\s+\w+)?\s+(?:is|'s)\s+(?:now\s+)?|"
    r"(?:it'?s|its|it\s+is)\s+(?=[A-Z][\w'’]*(?:-[A-Z][\w'’]*)*\s+now\b))"
    r"(?P<name>[A-Z][\w'’]*(?:-[A-Z][\w'’]*)*)(?![\w'’-])")
"""A new surname for the name held ("my surname on the account is O'Rourke-Byrne since I got married", "sorry its
Whitfield-Moore now, just got married"): the last word of the name changes."""


def _new_surname(reader: "TurnReader", said: str) -> bool:
    from ..answering.slots import shape  # late: slots imports the word helpers this module uses
    m = _SURNAME_NOW.search(said)
    if m is None or (not re.search(r"surname|last\s*name|family\s*name|married\s*name", m.group(0), re.I)
                     and not re.search(r"\bmarried\b|\bmaiden\b|\bwedding\b", said, re.I)):
        return False  # "it's X now" is a new surname only beside a marriage
    fits = [(rec, f, v) for rec, f, v in _filled(reader) if reader.view.kind_of(f) == "str" and shape(f) == "name"
            and isinstance(v, str) and len(v.split()) >= 2]
    if len(fits) != 1:
        return False
    rec, f, old = fits[0]
    new = " ".join([*old.split()[:-1], m.group("name")])
    if new == old:
        return False
    reader.assign("correction", m.group(0), rec, f, new, how="a new surname", was=old)
    return True


_SORRY_NAME = re.compile(r"^(?:(?:sorry|oops|wait|no|actually|oh|i\s+meant|(?:i\s+)?should\s*(?:'ve|\s+have)\s+said)[,!.\s]+)+(?:(?:it'?s|its|it\s+is|i'?m|"
                         r"i\s+am|my\s+name\s+is|the\s+name\s+is)\s+)?(?:(?:spelt|spelled|spelt\s+as|spelled\s+as)\s+)?(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})\b")


def _shares_word(words: set[str], old: str) -> bool:
    """The new name shares a word with the old one, or begins with the old one-word name ("Rob" -> "Robert")."""
    before = {w.lower() for w in old.split()}
    return bool(words & before) or (len(before) == 1 and any(w.startswith(b) for w in words for b in before
                                                            if len(b) >= 3))


def _sorry_name(reader: "TurnReader", said: str) -> bool:
    """ "sorry, it's Jonathan Petersen" after "Jon Petersen": a person's name said again in full after a cue, for
    the one filled name field whose value shares a word with it (the surname); any doubt and nothing changes."""
    from ..answering.slots import shape  # late: slots imports the word helpers this module uses

    m = _SORRY_NAME.match(said)
    if m is None:
        return False
    new = m.group("name")
    words = {w.lower() for w in new.split() if len(w) >= 3}
    fits = [(rec, f, v) for rec, f, v in _filled(reader) if reader.view.kind_of(f) == "str" and shape(f) == "name"
            and isinstance(v, str) and v != new and _shares_word(words, v)]
    if len(fits) != 1:
        return False
    rec, f, old = fits[0]
    reader.assign("correction", m.group(0), rec, f, new, how="name said again", was=old)
    return True


_SORRY_NUMBER = re.compile(r"^(?:(?:sorry|oops|actually|wait|no|oh)[,!.\s]+)+(?:it\s+was|it'?s|it\s+is|i\s+meant)\s+"
                           r"(?P<num>[£$€]?\d[\d,]*(?:\.\d+)?)(?![\w.-])(?P<rest>.*)$", re.I)


def _sorry_number(reader: "TurnReader", said: str) -> bool:
    """ "sorry it was 126, I just checked" while another question is asked: the number corrects the one filled
    number field of the live records (the amount said before); with none or several, nothing changes."""
    m = _SORRY_NUMBER.match(said)
    if m is None or re.search(r"\d", m.group("rest")):
        return False
    fits = [(rec, f, v) for rec, f, v in _filled(reader) if reader.view.kind_of(f) in ("int", "float")]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    value = reader.value_for(f, m.group("num"))
    if value is None or value == current:
        return False
    reader.assign("correction", m.group(0), rec, f, value, was=current, how="a number said again")
    return True


_CUE = re.compile(r"\b(?:typo|oops|i\s+meant|should\s+(?:be|have\s+been)|correction|mistyped|misspelled)\b", re.I)
_TOKEN = re.compile(r"\b[A-Za-z]*\d[\w-]*\b")


def _shape(value: Any) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"\d", "9", str(value).lower()))


def _same_shape(reader: "TurnReader", said: str) -> bool:
    """ "oops, typo, it should be 77340021": a correction that names neither the field nor the old value. The
    one new token replaces the one filled value of exactly its shape (eight digits for eight digits); any
    doubt (no token, several, no filled value or several of that shape) and the rule does nothing."""
    tokens = _TOKEN.findall(said)
    if len(tokens) != 1:
        return False
    new = tokens[0]
    fits = [(rec, f, v) for rec, f, v in _filled(reader) if isinstance(v, str) and _shape(v) == _shape(new)]
    if len(fits) != 1 or _norm(fits[0][2]) == _norm(new):
        return False
    rec, f, current = fits[0]
    reader.assign("correction", said, rec, f, new, was=current, how="same shape")
    return True


_SOFT_CUE = re.compile(r"\b(?:wait|sorry|oops|actually|no|digits?|number\s+is\s+wrong|i\s+meant|typo|correction|"
                       r"mixed\s+up|swapped)\b", re.I)


def _near_value(reader: "TurnReader", said: str) -> bool:
    """ "wait, it's 552011876, the last digit is a six" after 552011873, while the PIN is asked: a number that is a
    filled value with a digit or two changed corrects that value (one edit with no cue, two after "wait", "sorry",
    "digit"...), not the answer to the question asked. Only long values (5+ characters), and only when exactly one
    filled value is that close: any doubt and the rule does nothing."""
    from rapidfuzz.distance import Levenshtein

    tokens = _TOKEN.findall(re.sub(r"(?<=\d)[ -](?=\d)", "", said))  # "3391 0057 2284" is one number
    if len(tokens) != 1 or len(_norm(tokens[0])) < 5:
        return False
    new, allowed = _norm(tokens[0]), 2 if _SOFT_CUE.search(said) else 1
    fits = [(rec, f, v) for rec, f, v in _filled(reader) if isinstance(v, str) and len(_norm(v)) >= 5
            and _norm(v) != new and Levenshtein.distance(_norm(v), new) <= allowed]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    reader.assign("correction", said, rec, f, _as_typed(said, tokens[0], current), was=current,
                  how="nearly the value given")
    return True


def _as_typed(said: str, joined: str, current: str) -> str:
    """The new value written as the old one was: "07700 900416" after "07700 900461", "LS6 1DB" after "LS6 1DR"
    (the groups as the user typed them); joined up when the old value had no spaces or hyphens."""
    if not re.search(r"[ -]", current):
        return joined
    typed = re.search(r"[ -]?".join(re.escape(c) for c in joined), said)
    return typed.group(0) if typed else joined


_WHOSE = re.compile(r"^(?:(?:my|our|the)\s+)?(?P<who>[a-z]+(?:\s+[a-z]+)?)(?:'s|s')\s", re.I)
"""Whose value a sentence names when it is someone else's: "(my) mom's maiden name", "husband's number"."""


def _restated(reader: "TurnReader", what: str, new_text: str, said: str) -> bool:
    """ "my legal name is Benjamin Carter" after a name was given: a value said again for a filled field that
    the sentence names replaces it, with no "not" or "wrong". The named field must be filled and named more
    strongly (name words) than every other field of the live records, the asked one included, so an answer
    to the question asked ("my membership number is ..." when it is asked) is never taken for it."""
    bag = Bag.of(what)
    head = Bag.of(re.split(r"\s+(?:on|of|for|under|in|at|with|from)\s+", what, maxsplit=1)[0])  # "name" of "name on ..."
    scored = sorted((((len(head.hits(_name_stems(f))), len(bag.hits(_name_stems(f))), field_mention(f, bag)[0]),
                      rec, f)
                     for rec in reader.view.live_records() for f in reader.view.input_fields(rec)),
                    key=lambda x: x[0], reverse=True)
    if not scored or scored[0][0][0] < 1:
        return False
    tied = [(rec, f) for score, rec, f in scored if score == scored[0][0] and _may_hold(reader, f, new_text)]
    if len(tied) != 1:
        return False
    rec, f = tied[0]
    current = rec.values.get(f.name)
    if reader.view.kind_of(f) not in _PLAIN or not isinstance(current, (str, int, float)) or current == "NA":
        return False
    whose = _WHOSE.search(what)
    if whose is not None and not ({stem(w) for w in re.findall(r"[a-z]+", whose.group("who").lower())}
                                  & {stem(w) for w in re.findall(r"[a-z]+", f"{f.name} {f.description}".lower())}):
        return False  # "my mom's maiden name is Delgado": someone else's name, not a new value of the caller's own
    value = _new_value(reader, f, new_text.strip(" ,"), current, None, rec)
    if value is None:
        return False
    if _norm(value) == _norm(current):
        reader.note("restated", said, reason=f"{rec.var}.{f.name} already holds this value")
        return True
    reader.assign("correction", said, rec, f, value, was=current, how="restated")
    return True


def _norm(value: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "", str(value).lower())


def _filled(reader: "TurnReader") -> list[tuple[TaskRecord, Field, Any]]:
    out = []
    for rec in reader.view.live_records():
        for f in reader.view.input_fields(rec):
            value = rec.values.get(f.name)
            if reader.view.kind_of(f) in _PLAIN and isinstance(value, (str, int, float)) and value != "NA":
                out.append((rec, f, value))
    return out


def _by_old_value(reader: "TurnReader", new_text: str, old_text: str, said: str) -> bool:
    old = _norm(old_text)
    if not old:
        return False
    filled = _filled(reader)
    whole = [(r, f, v) for r, f, v in filled if _norm(v) == old]
    tail = [(r, f, v) for r, f, v in filled if _norm(v).endswith(old) and _norm(v) != old]
    short = old[:-1] if old.endswith("s") else old  # "not hydros" after "Hydrotherapy": the word cut short
    cut = [(r, f, v) for r, f, v in filled if isinstance(v, str) and len(short) >= 4 and short.isalpha()
           and v.strip().isalpha() and _norm(v).startswith(short) and _norm(v) != old] if not (whole or tail) else []
    found = whole or tail or cut or _same_day(reader, old_text, filled)
    new_text = _LEAD.sub("", new_text.strip(" ,")).strip(" ,")
    if cut and new_text.islower() and cut[0][2][:1].isupper() and len(new_text.split()) <= 3:
        new_text = new_text.title()  # "grooming" for the value "Hydrotherapy": written as the value it replaces
    if not found:
        return _inside_value(reader, new_text, old_text, filled, said)
    if len({(r.var, f.name) for r, f, _v in found}) != 1:
        return False  # several fields hold it: not clear which one is corrected
    rec, f, current = found[0]
    from ..parts.addresses import new_postcode_in  # late: the address parts import the correction helpers
    value = new_postcode_in(current, new_text) or _new_value(reader, f, new_text, current, old_text, rec)
    if value is None and reader.view.kind_of(f) != "str":  # "my brother just bailed so it's 5 not 6": the words
        close = _LEAD.sub("", _LAST_CLAUSE.split(new_text)[-1].strip(" ,")).strip(" ,")  # just before the "not"
        value = _new_value(reader, f, close, current, old_text, rec) if close != new_text else None
    if value is None or _norm(value) == _norm(current):
        return False
    reader.assign("correction", said, rec, f, value, was=current)
    return True


_LAST_CLAUSE = re.compile(r"[,;:]|\.\s|\b(?:so|now|then|and)\b", re.I)
_DAY_SAID = re.compile(r"^\W*(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)?\W*$", re.I)


def _same_day(reader: "TurnReader", old_text: str, filled: list[tuple[TaskRecord, Field, Any]]) -> list[Any]:
    """ "the 22nd not the 20th": the one filled date field on that day of the month."""
    m = _DAY_SAID.match(old_text)
    if m is None:
        return []
    day = int(m.group("day"))
    return [(r, f, v) for r, f, v in filled if reader.view.kind_of(f) in ("date", "str") and isinstance(v, str)
            and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) and int(v[8:10]) == day]  # a date kept as text, too


def _inside_value(reader: "TurnReader", new: str, old: str, filled: list[tuple[TaskRecord, Field, Any]],
                  said: str) -> bool:
    """ "the house number is 71 not 17" after "17 Bramble Way": the old token is one word of one filled text value
    (a house number in an address); the new token of the same kind takes its place there. Nothing on any doubt."""
    if not re.fullmatch(r"\w+", old.strip()) or not re.fullmatch(r"\w+", new) or _shape(new) != _shape(old.strip()):
        return False
    if re.fullmatch(r"\d{4}", new) and _year_of_date(reader, new, old.strip(), filled, said):
        return True
    word = re.compile(rf"(?<![\w-]){re.escape(old.strip())}(?![\w-])", re.I)
    fits = [(r, f, v) for r, f, v in filled if reader.view.kind_of(f) == "str" and isinstance(v, str)
            and len(word.findall(v)) == 1]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    reader.assign("correction", said, rec, f, word.sub(new, current), was=current, how="a word of the value")
    return True


_ISO_DATE = re.compile(r"(\d{4})(-\d{2}-\d{2}(?:T[\d:]+)?)")


def _year_of_date(reader: "TurnReader", new: str, old: str, filled: list[tuple[TaskRecord, Field, Any]],
                  said: str) -> bool:
    """ "oops, 1991 not 1990" after a date of birth of 1990-08-12: a year said "not" another is the year of the one
    filled date whose year that is; the day and month stay. Nothing when no date or several dates hold that year."""
    fits = [(r, f, v) for r, f, v in filled if isinstance(v, str) and (m := _ISO_DATE.fullmatch(v)) and m.group(1) == old]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    reader.assign("correction", said, rec, f, new + current[4:], was=current, how="the year of a date")
    return True


_WITH_LETTER = re.compile(r"^(?:(?:sorry|oops|wait|no|actually|oh|sorry\s+it'?s)[,!.\s]+)*(?:it'?s\s+|its\s+|it\s+is\s+)?"
                          r"(?P<word>[A-Za-z][a-z'-]+)[,\s]+(?P<with>with|without)\s+(?:an?\s+|the\s+)?"
                          r"(?P<letter>[a-z])\b(?:\s+(?:in\s+it|at\s+the\s+end|on\s+the\s+end))?[\s.!]*$", re.I)


def _spelled_letter(reader: "TurnReader", said: str) -> bool:
    """ "sorry it's Sarah with an h" after "Sara Okafor" (or "Sara without an h" after "Sarah"): the one word of one
    filled name that is the word said less (or plus) that letter is spelt as said now; the other words stay."""
    from ..answering.slots import shape  # late: slots imports the word helpers this module uses

    m = _WITH_LETTER.match(said.strip())
    if m is None:
        return False
    word, letter, adds = m.group("word"), m.group("letter").lower(), m.group("with").lower() == "with"

    def was(w: str) -> bool:  # the word in the value is the word said with the letter taken out (or put in)
        short, long_ = (w.lower(), word.lower()) if adds else (word.lower(), w.lower())
        return len(long_) == len(short) + 1 and any(long_[:i] + long_[i + 1:] == short
                                                    for i, c in enumerate(long_) if c == letter)
    fits = [(rec, f, v, w) for rec, f, v in _filled(reader) if reader.view.kind_of(f) == "str" and shape(f) == "name"
            and isinstance(v, str) for w in v.split() if was(w)]
    if len(fits) != 1:
        return False
    rec, f, current, w = fits[0]
    new = word[0].upper() + word[1:] if w[:1].isupper() else word
    value = re.sub(rf"(?<!\S){re.escape(w)}(?!\S)", new, current, count=1)
    reader.assign("correction", said, rec, f, value, was=current, how="a letter spelt out")
    return True


_CUE_LEAD = re.compile(r"^(?:sorry|oops|actually|wait|no|my\s+(?:mistake|bad)|correction|i\s+meant)\b[\s,!.:-]*", re.I)


def _option_over_named(reader: "TurnReader", said: str) -> bool:
    """ "sorry - soccer is the one I want, squash was last time" after Squash was chosen: a turn that starts
    with a correction cue and names the option a filled choice holds, with another clause naming another option of
    that field, changes the choice. The old option must be named (so an answer to the question asked is never
    taken for it), by exactly one filled choice field; the new one is read from the clauses that do not name it."""
    from ..words.match import content_stems  # late: match is imported by the word helpers this module uses

    m = _CUE_LEAD.match(said)
    if m is None:
        return False
    body = said[m.end():]
    clauses = [c.strip(" .!") for c in re.split(r"\s*[,;]\s*|\s+-+\s+|(?<=[.!?])\s+|\s+but\s+", body) if c.strip(" .!")]
    if len(clauses) < 2:
        return False
    said_stems = set(content_stems(body))
    fits = [(rec, f, v) for rec, f, v in _filled(reader) if reader.view.kind_of(f) == "Enum" and isinstance(v, str)
            and set(content_stems(v)) and set(content_stems(v)) <= said_stems]
    if len(fits) != 1:
        return False
    rec, f, current = fits[0]
    old = set(content_stems(current))
    rest = [c for c in clauses if not old <= set(content_stems(c))]
    if len(rest) != 1 or len(rest) == len(clauses):
        return False
    value = _new_value(reader, f, rest[0], current, None, rec)
    if value is None or value == current:
        return False
    reader.assign("correction", said, rec, f, value, was=current, how="another option, the old one named")
    return True


def _by_field_words(reader: "TurnReader", what: str, new_text: str, said: str) -> bool:
    bag = Bag.of(what)
    scored = sorted(((field_mention(f, bag)[0], rec, f, v) for rec, f, v in _filled(reader)), key=lambda x: -x[0])
    if scored and scored[0][0] <= 0:  # "the wrong number": a common word of a name, said of one filled field only
        scored = sorted(((len(bag.hits(_name_stems(f))), rec, f, v) for rec, f, v in _filled(reader)),
                        key=lambda x: -x[0])
    if not scored or scored[0][0] <= 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return False
    _score, rec, f, current = scored[0]
    value = _new_value(reader, f, new_text.strip(" ,"), current, None, rec)
    if value is None or _norm(value) == _norm(current):
        return False
    reader.assign("correction", said, rec, f, value, was=current)
    return True


def _may_hold(reader: "TurnReader", f: Field, new_text: str) -> bool:
    """A field whose values are KB row names (offline_items) can only be given a row name."""
    from ..kb_rows.items import names_for, said_names  # late: offline_items imports the slot helpers

    return not names_for(reader, f) or bool(said_names(reader, f, new_text))


def _name_stems(f: Field) -> set[str]:
    """Every word of a field's name, the common ones too ("name" of `full_name`, "number" of `member_number`)."""
    return {stem(w) for w in f.name.split("_") if w and not w.isdigit()}


def _new_value(reader: "TurnReader", f: Field, new_text: str, current: Any, old_text: str | None,
               rec: TaskRecord | None = None) -> Any:
    """The corrected value for `f`: read for its type; for text, the words said, with the kept part of
    the old value when only its end was corrected ("144" for "CS 142" -> "CS 144")."""
    if not new_text or len(new_text.split()) > 6:
        return None
    kind = reader.view.kind_of(f)
    if kind == "Enum":
        value = reader.value_for(f, new_text)
        if value is None:  # "it's maths, not physics": the option in other words, read by meaning as an answer is
            from ..words.semantic import semantic_enum  # late: the semantic rules import this module's neighbours
            found = semantic_enum(reader, f, new_text, rec.worksheet if rec is not None else None)
            value = found[0] if found is not None else None
        return value
    if kind != "str":
        return reader.value_for(f, new_text)
    if isinstance(current, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", current):  # a date kept as text: a date
        from ....spec.model import past_field
        from ..words.values import find_dates
        from ..words.values import MONTHS
        day = re.search(r"\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b", new_text, re.I)
        if day and not any(w.lower() in MONTHS for w in re.findall(r"[A-Za-z]+", new_text)):
            try:  # "i sent it on the 22nd not the 20th": no month said, so the month of the date corrected
                return dt.date.fromisoformat(current).replace(day=int(day.group(1))).isoformat()
            except ValueError:
                return None
        dates = find_dates(new_text, reader.today, past=past_field(f))
        return dates[-1].value if dates else None
    if isinstance(current, str) and old_text is not None and len(new_text.split()) > 1 and \
            re.fullmatch(r"[\w-]+", old_text.strip()) and any(c.isdigit() for c in old_text):
        same = [w for w in re.findall(r"[\w-]+", new_text) if _shape(w) == _shape(old_text.strip())]
        if len(same) != 1:
            return None  # "the account number ends 9867": only the word shaped like the old one is the new value
        new_text = same[0]
    if isinstance(current, str) and old_text is not None:
        head = current[: len(current) - len(old_text.strip())] if _norm(current).endswith(_norm(old_text)) else ""
        if head and _norm(current) != _norm(old_text) and not _norm(new_text).startswith(_norm(head)):
            return head + new_text  # "not 106L, 106B": the course letters kept
    return new_text
