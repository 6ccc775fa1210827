"""User initiatives: what the user says beyond the answer to the question just asked.

- `introduction`: "my name is Maria Garcia and someone stole my card" fills the name field
  and leaves the rest of the turn to the other rules;
- `other_fields`: "four units" while the grade type is asked fills the units of that course;
- `unopened_fields`: "my account number is 1234 and my PIN is 0314" while the name is asked
  fills the nested worksheet that will hold them, before the agent opens it;
- `new_task`: after a task is done, describing it again ("book another table at Frascati",
  "I also need a leave of absence") opens a second record of its worksheet.

Each emits statements only from typed values whose shape or label is unmistakable.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...spec.model import REFUSAL, Field, Worksheet, parse_type, snake_case
from ...dialogue.state import TaskRecord
from .words.match import Bag, best_enum, content_stems, enum_scores, equalities, holds
from .answering.slots import find_mentions, shape
from .words.values import find_dates, find_times, yes_no
from .opening.tasks import kwargs_text, literal, match_worksheet, open_worksheet

if TYPE_CHECKING:
    from .parser import TurnReader

_INTRO = re.compile(r"\b(?i:my\s+name\s+is|my\s+name'?s|(?<![a-z] )name's|(?<![a-z] )the\s+name's|the\s+name\s+is|"
                    r"this\s+is|i\s+am|i'm|call\s+me)\s+"
                    r"(?:(?i:mr|mrs|ms|miss|mx|dr|prof|rev|revd|sir|dame|captain|capt)\.?\s+)?"  # "my name's Dr. Helen Marsh"
                    r"(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){0,3})\b")


_FAMILY_NAME = re.compile(r"\s*(?:,\s*)?(?:and\s+)?(?i:my\s+)?(?i:surname|last\s+name|family\s+name)(?:'s|\s+is)?\s+"
                          r"(?P<family>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*)?)\b")
"""The family name told apart, right after a first name: "My name's Priya and my surname is Natarajan"."""
_GREETING_LEFT = re.compile(r"^(?i:(?:(?:yes|yeah|ok(?:ay)?)[,\s]+)?(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+(?:there|all|everyone|folks|team))?"
                            r"\b)?[\s,.!]*(?i:(?:and|but|so)\s+)?")
"""What is left of a greeting once the introduction inside it is taken out ("Hi there. <intro>. I think...")."""

_HERE = re.compile(r"(?:^|(?<=[,.!;]\s)|(?<=[,.!;]))\s*(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*){1,3})\s+"
                   r"(?:here|speaking)\b")
"""A self-introduction the other way round: "Hi, Aisha Khan here, ..." (two or more capitalised words)."""


def introduction(reader: "TurnReader", text: str) -> str:
    """Fill a name field from "my name is X" (or "X here") inside a longer turn; return the turn without it."""
    m = _INTRO.search(text) or _HERE.search(text)
    e = reader.expect
    if m is None or (e is not None and e.act == "ask" and len(text.split()) <= len(m.group(0).split()) + 1
                     and reader.view.kind_of(e.field) == "str" and shape(e.field) != "text"):
        return text  # a turn that is only the introduction answers the text question asked (a name, read there)
    # (to a free-text question, "my name's Dana Whitfield btw" gives the name field, not the details asked)
    targets = [(r, f) for r in reader.view.live_records() for f in reader.view.input_fields(r)
               if reader.view.kind_of(f) == "str" and shape(f) == "name"
               and (reader.view.unfilled(r, f) or r.values.get(f.name) == REFUSAL)]
    if reader.expect is not None and reader.expect.act == "ask" and (reader.expect.rec, reader.expect.field) in [
            (r, f) for r, f in targets]:
        targets = [(reader.expect.rec, reader.expect.field)]
    if not targets:
        return _introduced_unopened(reader, text, m)
    rec, f = targets[0]
    if e is not None and e.act == "ask" and e.rec.var == rec.var and reader.view.kind_of(e.field) == "str" \
            and reader.answers.multi_fill(text, e.rec, e.field):
        return text  # "My name is Roger, ID rogerc, email ...": several answers, read together below
    name, end = m.group("name"), m.end()
    family = _FAMILY_NAME.match(text, end)
    if family is not None and len(name.split()) == 1:  # "my name's Priya and my surname is Natarajan"
        name, end = f"{name} {family.group('family')}", family.end()
    again = _SAID_AGAIN.match(text, end)
    if again is not None and len(name.split()) == 1 and again.group("first").lower() == name.lower():
        name, end = f"{again.group('first')} {again.group('family')}", again.end()  # "I'm Jo, Jo Malik"
    reader.assign("introduction", text[m.start():end], rec, f, name)
    if reader.expect is not None and reader.expect.field.name == f.name and reader.expect.rec.var == rec.var:
        reader.answered = True
    reader.introduced = True
    aged = _AGE_AFTER_NAME.match(text, end)
    ages = [g for g in reader.view.input_fields(rec) if reader.view.kind_of(g) == "int"
            and "age" in g.name.lower().split("_") and reader.view.unfilled(rec, g)]
    if aged is not None and len(ages) == 1 and 1 <= int(aged.group("age")) <= 110:
        reader.assign("introduction", aged.group(0).strip(" ,"), rec, ages[0], int(aged.group("age")))
        end = aged.end()  # "I'm Hannah Lee, 27, hannah.lee@...": the age said after the name
    rest = (text[: m.start()] + " " + text[end:]).strip()
    rest = _GREETING_LEFT.sub("", rest)
    rest = re.sub(r"\s+([.,!?;])(?:\s*[.,!?;])*", r"\1", rest)  # "there. . I think" -> the pieces joined cleanly
    rest = re.sub(r"^\W*(?:btw|by\s+the\s+way|fyi|as\s+well|too)\W*$", "", rest, flags=re.I)  # "my name's X btw"
    return rest.strip(" ,;")


_AGE_AFTER_NAME = re.compile(r"\s*,\s*(?:aged?\s+)?(?P<age>\d{1,3})(?:\s*(?:years?\s+old|yrs?|y/?o))?(?=\s*(?:[,.;!]|$|and\b))", re.I)
"""An age right after the name the speaker gives: "I'm Hannah Lee, 27, ..."."""
_SAID_AGAIN = re.compile(r"\s*[,.]\s*(?P<first>[A-Za-z][a-z'-]+)\s+(?P<family>[A-Z][A-Za-z'-]+(?:-[A-Z][a-z'-]+)?)\b")
"""The first name said again with the family name after it: "I'm Jo, Jo Malik"."""


_SPEAKER_ROLES = frozenset("student customer user member applicant client caller holder account cardholder "
                           "employee requester sender owner".split())
"""Who a form's "X's name" is when the person typing fills it in for themselves."""


def _introduced_unopened(reader: "TurnReader", text: str, m: re.Match[str]) -> str:
    """ "Hello! I'm Ana Ruiz, member number 0412. I'd like two aqua classes": no live record has a person-name field,
    but one worksheet a live record holds and has not opened yet has exactly one (its details: name, number, ...).
    It is built with the name and the labelled values said beside it in the same sentence
    (`owner.slot = Details(name=..., number=...)`), as a turn of labelled values builds it; the rest of the turn is
    left to the other rules. Nothing when no such worksheet, or several, could take the name."""
    from .parts.labelled_turn import _SEP, _candidates, _labelled  # late: labelled_turn imports the opening rules
    name = m.group("name")
    if len(name.split()) < 2 and not re.match(r"(?i)my\s+name|name's|the\s+name|call\s+me", m.group(0)):
        return text  # "I'm Looking to take ...", "I'm International": one capitalised word after "I'm" is no name
    spec_words = {w for ws in reader.spec.worksheets for f in ws.fields
                  for w in re.findall(r"[a-z]+", f"{f.name.replace('_', ' ')} {' '.join(e.value for e in f.enum_values)}".lower())}
    if {w.lower() for w in name.split()} & spec_words:
        return text  # a word of the spec's own fields or options ("I'm Beginner Level") is not a name
    fields = _candidates(reader)
    names = [(r, f) for r, f in fields if r.var.startswith("_") and reader.view.kind_of(f) == "str"
             and shape(f) == "name"]
    if len(names) != 1:
        return text
    ghost, name_field = names[0]
    whose = re.search(r"\b([a-z]+)'s\b", name_field.description.lower())
    if whose and whose.group(1) not in _SPEAKER_ROLES:
        return text  # "The driver's full name", "The patient's name": someone the speaker may not be
    own = [(r, f) for r, f in fields if r.var == ghost.var and r.parent == ghost.parent
           and r.parent_field == ghost.parent_field and f.name != name_field.name]
    end = m.end()
    sentence_end = re.search(r"[.!?](?:\s|$)", text[end:])
    stop = end + sentence_end.start() if sentence_end else len(text)
    kwargs = {name_field.name: literal(m.group("name"))}
    used_to = end
    for part in _SEP.split(text[end:stop]):
        piece = part.strip(" ,.!")
        if not piece:
            continue
        found = _labelled(reader, piece, own, [(ghost.var, k) for k in kwargs])
        if found is None:  # "student id 05998812": a code field its words name ("id" labels no field alone)
            said = [x for x in find_mentions(piece, [(r, f) for r, f in own if f.name not in kwargs], reader.view,
                                             reader.today) if x.how != "number+meaning"]
            if len(said) != 1 or len(said[0].matched.split()) * 3 < len(piece.split()):
                break
            found = (said[0].rec, said[0].field, said[0].value, piece)
        kwargs[found[1].name] = literal(found[2])
        used_to = text.find(piece, used_to) + len(piece)
    owner, slot = ghost.parent or "", ghost.parent_field or ""
    reader.emit("introduction", text[m.start():used_to], f"{owner}.{slot} = {ghost.worksheet}({kwargs_text(kwargs)})")
    reader.introduced = True
    rest = (text[: m.start()] + " " + text[used_to:]).strip()
    rest = _GREETING_LEFT.sub("", rest)
    rest = re.sub(r"\s+([.,!?;])(?:\s*[.,!?;])*", r"\1", rest)
    return rest.strip(" ,;.")


def other_fields(reader: "TurnReader", text: str) -> bool:
    """Typed values for unfilled fields other than the one asked, in the live records."""
    prefer = reader.expect.rec if reader.expect else None
    records = reader.view.live_records()
    if prefer is not None:
        records.sort(key=lambda r: r.var != prefer.var)
    open_fields = [(r, f) for r, f in reader.candidates(records=records)
                   if reader.view.unfilled(r, f) or r.values.get(f.name) == REFUSAL]  # a refused value may come later
    mentions = find_mentions(text, open_fields, reader.view, reader.today, prefer=prefer)
    for m in mentions:
        reader.assign("value-for-other-field", m.matched, m.rec, m.field, m.value, how=m.how)
    return bool(mentions) or _bare_name(reader, text, open_fields) or _option_by_description(reader, text, open_fields)


_NOT_NAME_WORDS = frozenset("""next last this coming morning afternoon evening night noon midnight today tomorrow
tonight weekend week month early late please thanks thank yes no none nothing maybe sure both all just only""".split())
_NOT_IN_NAMES = frozenset("""mail post royal express courier delivery parcel bank office council eve christmas easter
    year day holiday weekend""".split())
"""Words of a firm, a service or a day said after "it's" ("Royal Mail", "New Year's Eve"): no person's name."""
_BARE_NAME = re.compile(r"^\s*(?:(?:it'?s|its|it\s+is|i'?m|i\s+am|my\s+name'?s|my\s+name\s+is|name'?s|this\s+is)\s+)?(?P<name>[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*(?:\s+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?(?:-[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ]?[a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+(?:[A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ][a-zß-öø-ÿāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįıĳĵķĸĺļľŀłńņňŉŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷźżžſ']+)?)*|de|van|von|da|di|le|la)){1,3})\s*[.!]?\s*$")


def _bare_name(reader: "TurnReader", text: str, open_fields: list[tuple[TaskRecord, Field]]) -> bool:
    """A whole turn that is a person's name as typed ("Lena Fischer", "it's Lena Fischer"), while a field that cannot hold it is asked
    (a date, a number, yes/no): the one unfilled person-name field of the record asked takes it. Not a KB value
    or an option's name, and never when two name fields could take it."""
    e = reader.expect
    m = _BARE_NAME.match(text)
    if m is None or e is None or e.act != "ask" or reader.view.kind_of(e.field) == "str":
        return False
    name = m.group("name")
    low = name.lower()
    if "'s" in low or "’s" in low or set(low.split()) & _NOT_IN_NAMES:
        return False  # "it's New Year's Eve", "it's Royal Mail": a day or a firm, not a person
    if set(low.split()) & _NOT_NAME_WORDS or yes_no(text) or find_dates(text, reader.today) or find_times(text):
        return False  # "Late Afternoon", "Next Friday", "Yes Please": words of the answer asked, not a name
    if reader.ctx.kb is not None and reader.vocabulary.found_in(text, reader.ctx.kb):
        return False
    if any(low == ev.value.lower() for rec, f in reader.candidates() for ev in f.enum_values):
        return False
    names = [(r, f) for r, f in open_fields if r.var == e.rec.var and reader.view.kind_of(f) == "str"
             and shape(f) == "name"]
    if len(names) != 1:
        return False
    rec, f = names[0]
    reader.assign("value-for-other-field", name, rec, f, name, how="a name while another field is asked")
    return True


def _option_by_description(reader: "TurnReader", text: str, open_fields: list[tuple[TaskRecord, Field]]) -> bool:
    """ "the air con is making a loud rattling noise" while the room number is asked: the turn's words name one
    option of another unfilled enum field of the record asked, by the option's name or description ("the air
    conditioning, the heater ..."), and no other option as much; the question asked is asked again. Never a
    question, and nothing when two fields are reached or two options tie."""
    from .intents import is_question  # late: intents is a large module only this rare path needs
    e = reader.expect
    if e is None or e.act != "ask" or is_question(text):
        return False
    bag = Bag.of(text)
    found = [(r, f, best) for r, f in open_fields if r.var == e.rec.var and f.name != e.field.name
             and reader.view.kind_of(f) == "Enum" and (best := best_enum(f, bag, minimum=1)) is not None]
    if len(found) != 1:
        return False
    rec, f, (value, words) = found[0]
    reader.assign("value-for-other-field", " ".join(words), rec, f, value, how="an option's words while another field is asked")
    return True


def labelled_only(reader: "TurnReader", text: str) -> bool:
    """The turn is labelled values for fields ("account 30049921 and my pin is 4417"), with at most a few other
    words: it tells no story, so it is not the free-text report of what happened."""
    labelled, rest = labelled_values(reader, text)
    return bool(labelled) and len(content_stems(rest)) < 3


def labelled_values(reader: "TurnReader", text: str) -> tuple[list[Any], str]:
    """The labelled values of the turn (a field's name word, an e-mail, a number with its unit) and the turn
    without their words."""
    candidates = [(r, f) for r, f in reader.candidates() if reader.view.unfilled(r, f)]
    for rec in reader.view.live_records():
        for f in reader.view.input_fields(rec):
            if reader.view.kind_of(f) == "task" and reader.view.unfilled(rec, f):
                sub = reader.spec.require_worksheet(parse_type(f.type).base)
                ghost = TaskRecord(var="_" + snake_case(sub.name), worksheet=sub.name)
                candidates += [(ghost, sf) for sf in sub.fields if sf.kind == "input"
                               and reader.view.kind_of(sf) in ("str", "int", "float", "date", "time")]
    labelled = [m for m in find_mentions(text, candidates, reader.view, reader.today)
                if m.how in ("named field", "email", "number+unit")]
    rest = text
    for m in labelled:
        for piece in str(m.matched).split(" ... "):
            rest = rest.replace(piece, " ")
        if m.span is not None:
            rest = rest.replace(m.span.text, " ")
        rest = rest.replace(str(m.value), " ")
    return labelled, rest


def unopened_fields(reader: "TurnReader", text: str) -> bool:
    """Labelled values for a nested worksheet not opened yet: `main.x = Sub(field=value, ...)`."""
    done = False
    for rec in reader.view.live_records():
        for f in reader.view.input_fields(rec):
            if reader.view.kind_of(f) != "task" or not reader.view.unfilled(rec, f):
                continue
            sub = reader.spec.require_worksheet(parse_type(f.type).base)
            ghost = TaskRecord(var=reader.state.new_var(snake_case(sub.name)), worksheet=sub.name)
            candidates = [(ghost, sf) for sf in sub.fields if sf.kind == "input" and not sf.dont_ask
                          and reader.view.kind_of(sf) in ("str", "int", "float", "date", "time")]
            mentions = [m for m in find_mentions(text, candidates, reader.view, reader.today)
                        if m.how in ("named field", "email", "number+unit")]
            if not mentions:
                continue
            kwargs = {m.field.name: literal(m.value) for m in mentions}
            reader.emit("unopened-field", " / ".join(m.matched for m in mentions),
                        f"{rec.var}.{f.name} = {sub.name}({kwargs_text(kwargs)})")
            done = True
    return done


def new_task(reader: "TurnReader", text: str) -> bool:
    """A finished task described again opens a second record of its worksheet."""
    yn = yes_no(text)
    if yn is not None and yn[0]:
        return False  # "yes please book" once it is done: agreeing with what was done, not asking for another
    nested = reader.spec.nested_worksheet_names()
    bag = Bag.of(text)
    for ws in reader.spec.task_worksheets():
        records = reader.state.of_worksheet(ws.name)
        if ws.name in nested or not records or any(r.status == "active" for r in records):
            continue
        if ws.predicate.strip():
            if _described_by_predicate(reader, ws, bag):
                open_worksheet(reader, ws, text, bag, rule="new-task")
                return True
            continue
        found = match_worksheet(reader, bag, ws, {}, [], None)
        if found.items:
            var = reader.state.new_var(snake_case(ws.name))
            words = sorted({w for v in found.items.values() for w in v[2]})
            reader.emit("new-task", " ".join(words),
                        f"{var} = {ws.name}({kwargs_text({k: v[0] for k, v in found.items.items()})})")
            return True
    return False


def _described_by_predicate(reader: "TurnReader", ws: Worksheet, bag: Bag) -> bool:
    """The worksheet's predicate holds and the words name the enum values it tests."""
    pairs = equalities(ws.predicate)
    if not pairs or holds(ws.predicate, reader.view.lookup(None)) is not True:
        return False
    for path, value in pairs:
        owner = next((r for r in reader.state.tasks() if reader.view.worksheet(r).field(path[-1]) is not None), None)
        f = reader.view.worksheet(owner).field(path[-1]) if owner else None
        if f is None or reader.view.kind_of(f) != "Enum":
            return False
        scores = enum_scores(f, bag)
        if not scores or scores[0][1] != value or scores[0][0] < 2:
            return False
    return True


def labelled_numbers(reader: "TurnReader", text: str, rec: TaskRecord, asked: Field) -> bool:
    """ "he's 9 years old and weighs about 7 kilos" while the weight is asked: each number goes to the field
    its own words name or mean, not the first number to the field asked. Only when some number is labelled
    for a field other than the one asked; an unlabelled number is left to the asked field."""
    numeric = [(rec, f) for f in reader.view.input_fields(rec) if reader.view.kind_of(f) in ("int", "float")
               and (f.name == asked.name or reader.view.unfilled(rec, f))]
    mentions = [m for m in find_mentions(text, numeric, reader.view, reader.today, prefer=rec)
                if m.how.startswith("number")]
    if not any(m.field.name != asked.name for m in mentions):
        return False
    rest = text
    for m in mentions:
        reader.assign("answer-to-ask" if m.field.name == asked.name else "extra-value", m.matched, m.rec,
                      m.field, m.value, how=m.how, **m.extra)
        rest = rest.replace(m.matched, " " * len(m.matched), 1)
    reader.answered = True
    taken = {m.field.name for m in mentions}
    others = [(r, f) for r, f in reader.candidates(records=[rec], unfilled_only=True, exclude=asked)
              if f.name not in taken and reader.view.kind_of(f) not in ("int", "float")]
    for m in find_mentions(rest, others, reader.view, reader.today, prefer=rec) if rest.strip(" ,.!?") else []:
        reader.assign("extra-value", m.matched, m.rec, m.field, m.value, how=m.how)  # "... and we're bringing the car"
    return True
