"""The record a yes opens, told in the same turn: "I'd like to come with her, I'm her daughter, Karen Ellison" to
"will a relative or carer travel with the patient?".

The yes makes the predicate of a nested field true (`escort` asked when `self.has_escort == True`), so the agent
would next ask for that record's fields one by one. When the rest of the turn already gives them in unmistakable
shapes, they go into the nested record's constructor at once:

- one full name (two or three capitalised words, none a word of a sentence) for the record's one field of a
  person's name (not a thing's: "add White Lilies too" names a bunch; a record with a field of how someone is
  related is a person's);
- one word of kinship or care after a possessive ("her daughter", "his wife", "my neighbour") for its one field
  about how the person is related (its name says "relation").

`kin_spans` gives the second shape said as an introduction ("I'm his daughter"), for `find_mentions`.

Anything else in the turn is left to the other rules, and nothing is written when either shape is said twice.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ....dialogue.state import TaskRecord
from ....spec.model import Field, Worksheet, parse_type
from ..opening.tasks import literal
from ..words.answers import not_a_name
from ..words.values import Span
from .slots import shape

if TYPE_CHECKING:
    from ..parser import TurnReader

KIN = ("wife husband partner daughter son mother mum mom father dad sister brother grandson granddaughter "
       "grandmother grandma nan nana gran granny grandfather grandad granddad grandpa aunt auntie uncle niece nephew "
       "cousin friend neighbour neighbor carer caregiver fiance fiancé fiancee girlfriend boyfriend stepson "
       "stepdaughter stepmother stepfather stepmum stepdad guardian").split()
_KIN_SAID = re.compile(r"\b(?:his|her|their|my|the\s+patient'?s)\s+((?:step-?)?(?:" + "|".join(KIN) +
                       r")(?:-in-law)?)\b", re.I)
_KIN_OF = re.compile(r"\b(?:i'?m|i\s+am|she'?s|he'?s|they'?re|she\s+is|he\s+is)\s+(?:his|her|their|the\s+\w+'s)\s+"
                     r"((?:step-?)?(?:" + "|".join(KIN) + r")(?:-in-law)?)\b", re.I)
_FULL_NAME = re.compile(r"\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){1,2}\b")


def gated_record(reader: "TurnReader", rec: TaskRecord, flag: Field, rest: str) -> str:
    """Write the nested record that the yes to `flag` opens, from the rest of the turn; return what is left unread."""
    ws = reader.view.worksheet(rec)
    gated = [(f, sub) for f in ws.fields if f.kind == "input" and _opened_by(f, flag)
             and (sub := reader.spec.worksheet(parse_type(f.type).worksheet or "")) is not None and sub.kind == "task"]
    if len(gated) != 1 or rec.values.get(gated[0][0].name) is not None:
        return rest
    holder, sub = gated[0]
    values: dict[str, str] = {}
    kin_fields = [f for f in _inputs(sub) if "relation" in f.name.lower()]
    person = bool(kin_fields)  # a record that says how someone is related is a person's
    name_fields = [f for f in _inputs(sub) if "name" in f.name.lower().split("_") and (person or shape(f) == "name")]
    names = {m.group(0) for m in _FULL_NAME.finditer(rest) if not not_a_name(m.group(0))}
    if len(name_fields) == 1 and len(names) == 1:
        values[name_fields[0].name] = next(iter(names))
    kin = {m.group(1).lower() for m in _KIN_SAID.finditer(rest)}
    if len(kin_fields) == 1 and len(kin) == 1:
        values[kin_fields[0].name] = next(iter(kin))
    if not values:
        return rest
    args = ", ".join(f"{k}={literal(v)}" for k, v in values.items())
    reader.emit("gated-record", rest, f"{rec.var}.{holder.name} = {sub.name}({args})",
                reason=f"the yes opens {holder.name}; the rest of the turn tells it")
    return ""


def kin_spans(text: str) -> list[Span]:
    """Who someone is to another, said as a self-introduction ("I'm his daughter", "she's her neighbour"): the
    value of a field about how someone is related."""
    return [Span(m.group(1).lower(), m.start(1), m.end(1), m.group(1)) for m in _KIN_OF.finditer(text)]


def _opened_by(f: Field, flag: Field) -> bool:
    """The field is asked only once `flag` is yes (its predicate is `self.<flag> == True`, or the flag alone)."""
    pred = re.sub(r"\s+", " ", (f.predicate or "").strip())
    return bool(re.fullmatch(rf"self\.{re.escape(flag.name)}(?: ?== ?True)?", pred))


def _inputs(ws: Worksheet) -> list[Field]:
    return [f for f in ws.fields if f.kind == "input" and f.type == "str"]
