"""Several short text fields of one record answered in one turn, part by part ("plate is 8KJD203, its a blue
Honda Civic" to the plate asked: the plate, the make and model, the colour).

Each comma part goes to one field: by the field's own name word leading it ("plate 5TRW118"), or by the shape
of the example in the field's description ("e.g. Toyota Corolla": capitalised words), or, for a lone code, to
the field asked, or to the record's one yes/no field when it says a side of that field's contrast. A colour word goes to a colour field. A part that none of these places makes the whole
reading fail: the answer is then read as before, since a wrong value is worse than none."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field
from ..answering.slots import shape
from .colours import find_colours, is_colour_field
from .contrast import contrast_answer

if TYPE_CHECKING:
    from ....dialogue.state import TaskRecord
    from ..parser import TurnReader

_LEAD = re.compile(r"^(?:(?:the\s+\w+\s+is|it'?s|its|it\s+is|that'?s|this\s+is)\s+)?(?:an?\s+)?", re.I)
_EXAMPLE = re.compile(r"\b(?:e\.g\.?|eg|for example|like|such as)\s+([^,;.()]+)", re.I)
_NOT_LABELS = {"and", "or", "of", "the", "a", "is", "number", "no", "name", "type"}


def _capitalised(words: list[str]) -> bool:
    return bool(words) and words[0][:1].isupper() and all(w[:1].isupper() or w[:1].isdigit() for w in words)


def _example_shaped(f: Field) -> bool:
    m = _EXAMPLE.search(f.description)
    return bool(m) and _capitalised(m.group(1).split())


def _code(part: str) -> bool:
    return " " not in part and len(part) >= 4 and bool(re.search(r"\d", part)) and bool(re.search(r"[A-Za-z]", part))


def labelled_parts(reader: "TurnReader", text: str, rec: "TaskRecord", asked: Field) -> list[tuple[Field, Any, str]]:
    """(field, value, words) for every part of the turn, or [] when some part has no field."""
    view = reader.view
    fields = [g for g in view.input_fields(rec) if view.kind_of(g) == "str" and shape(g) == "short"
              and (g.name == asked.name or view.unfilled(rec, g))]
    if len(fields) < 2 or "," not in text:
        return []
    flags = [g for g in view.input_fields(rec) if view.kind_of(g) == "bool" and view.unfilled(rec, g)]
    out: list[tuple[Field, Any, str]] = []
    body = text
    tints = [g for g in fields if is_colour_field(g)]
    colours = find_colours(text)
    if len(tints) == 1 and len(colours) == 1:
        out.append((tints[0], colours[0].value, colours[0].text))
        body = text[:colours[0].start] + " " + text[colours[0].end:]
    parts = [p.strip(" .!?") for p in re.split(r"\s*(?:[,;]|\band\b)\s*", body) if p.strip(" .!?")]
    if len(parts) < 2:
        return []
    for part in parts:
        part = _LEAD.sub("", re.sub(r"\s+", " ", part)).strip()
        words = part.split()
        free = [g for g in fields if g not in [o[0] for o in out]]
        label = [g for g in free if words and words[0].lower() in set(g.name.lower().split("_")) - _NOT_LABELS]
        if len(label) == 1:
            value = re.sub(r"^\S+\s+(?:(?:number|no\.?)\s+)?(?:is\s+|:\s*)?", "", part).strip()
            if not value:
                return []
            out.append((label[0], value, part))
            continue
        shaped = [g for g in free if _example_shaped(g)]
        if len(shaped) == 1 and 1 <= len(words) <= 4 and _capitalised(words):
            out.append((shaped[0], part, part))
            continue
        if _code(part) and asked in free:
            out.append((asked, part, part))
            continue
        said = contrast_answer(flags[0], part, rec.worksheet) if len(flags) == 1 else None
        if said is not None and flags[0] not in [o[0] for o in out]:
            out.append((flags[0], said, part))  # "it's my own": the yes/no field's contrast
            continue
        return []
    return out if len({o[0].name for o in out}) == len(out) >= 2 else []
