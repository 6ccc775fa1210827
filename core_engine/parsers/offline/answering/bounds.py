"""The most or the least a number field allows, said instead of the number: "the max then", "as many as it allows",
"ok the minimum then".

Why: the user names a bound the agent knows and they do not; asking for the number again after they have chosen is a
turn lost. The bound is read from what the agent developer wrote, in this order: a KB column named for the field's
bound (`max_units` beside `course_num_units`) in the row the record holds; the field's description ("How many months
to freeze for (1 to 3)", "up to 6"; not "(the library is open 8 to 22)"); a check in the field's actions that sends a
larger value back (`if self.months > 3: ... self.months = None`; a check that only says something is none); and the
KB row the last answer showed alone, or the one row a text value of the record names ("CS 161" in `course_codes`). A
question ("max?") and a unit the field does not count in ("as long as possible" to passengers) are no bound said.
No bound found, no value: the question is asked again.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ....spec.model import Field
from ..words.match import STOPWORDS, field_stems, stem

if TYPE_CHECKING:
    from ..parser import TurnReader

_LEAD = r"^\W*(?:(?:ok(?:ay)?|ugh|yikes|fine|right|hmm+|well|so|then|just|do|go\s+(?:with|for)|put\s+(?:me\s+down\s+for|in)|" \
        r"give\s+me|i'?ll\s+(?:take|do|have|go\s+(?:for|with))|let'?s\s+(?:do|go\s+with|say)|make\s+it)[\s,.!]+)*"
_TAIL = r"(?:\s+(?:units?|months?|weeks?|days?|nights?|hours?|then|please|pls|thanks|allowed|possible|i\s+can))*\W*$"
_MOST = re.compile(_LEAD + r"(?:the\s+)?(?:max(?:imum)?|most|highest|as\s+(?:many|much|long)\s+as\s+(?:it\s+allows|"
                   r"(?:is\s+)?(?:allowed|possible)|i\s+can(?:\s+get)?|you\s+(?:can|allow)|there\s+(?:are|is)))" + _TAIL, re.I)
_LEAST = re.compile(_LEAD + r"(?:the\s+)?(?:min(?:imum)?|least|lowest|fewest|as\s+(?:few|little)\s+as\s+(?:possible|"
                    r"(?:it|you)\s+allows?|i\s+can))" + _TAIL, re.I)
_RANGE = re.compile(r"\(\s*(?:between\s+)?(\d+)\s*(?:to|-|–|and)\s*(\d+)(?:\s+[a-z]+)?\s*\)", re.I)
_UP_TO = re.compile(r"\b(?:up\s+to|at\s+most|maximum(?:\s+of)?|max(?:\s+of)?|no\s+more\s+than)\s+(\d+)\b", re.I)
_AT_LEAST = re.compile(r"\b(?:at\s+least|minimum(?:\s+of)?|min(?:\s+of)?|no\s+fewer\s+than|no\s+less\s+than)\s+(\d+)\b",
                       re.I)
_BOUND_WORDS = {"max": ("max", "maximum", "most", "upper"), "min": ("min", "minimum", "least", "lower")}
_GENERIC = {stem(w) for w in ("number", "num", "count", "how", "many", "amount", "total")}


def bound_said(text: str) -> str | None:
    """ "max" or "min" when the whole turn names a bound instead of a number."""
    if _MOST.match(text):
        return "max"
    if _LEAST.match(text):
        return "min"
    return None


def bound_answer(reader: "TurnReader", text: str) -> bool:
    """The bound named, as the number asked for, when one is known for the field."""
    e = reader.expect
    if e is None or e.act != "ask" or reader.view.kind_of(e.field) != "int" or "?" in text \
            or (which := bound_said(text)) is None or not _units_fit(e.field, text):
        return False  # "max?" asks what the most is; "as long as possible" is no number of passengers
    value, source = _from_kb(reader, e.rec, e.field, which, held_only=True) or _from_description(e.field, which) \
        or _from_actions(e.field, which) or _from_kb(reader, e.rec, e.field, which) or (None, "")
    if value is None:
        reader.note("bound-unknown", text, field=e.field.name,
                    reason=f"the {which}imum is said, but no bound of the field is known; the question is asked again")
        reader.answered = True
        return True
    reader.assign("bound-answer", text, e.rec, e.field, value, bound=which, source=source)
    reader.answered = True
    return True


_UNIT_WORDS = {"unit": "units", "units": "units", "month": "months", "months": "months", "week": "weeks",
               "weeks": "weeks", "day": "days", "days": "days", "night": "nights", "nights": "nights", "hour": "hours",
               "hours": "hours", "long": "time"}


def _units_fit(f: Field, text: str) -> bool:
    """A unit said with the bound ("max units", "as long as possible", "most days") is one the field counts in."""
    said = {_UNIT_WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _UNIT_WORDS}
    if not said:
        return True
    mine = " ".join(re.findall(r"[a-z]+", f"{f.name} {f.description}".lower()))
    time_words = ("hour", "day", "night", "week", "month", "minute", "second", "long", "duration")
    return all(u in mine or u[:-1] in mine if u != "time" else any(t in mine for t in time_words) for u in said)


def _from_description(f: Field, which: str) -> tuple[int, str] | None:
    text = f.description or ""
    m = _RANGE.search(text)
    if m and int(m.group(1)) < int(m.group(2)):
        return int(m.group(2) if which == "max" else m.group(1)), "description"
    m = (_UP_TO if which == "max" else _AT_LEAST).search(text)
    return (int(m.group(1)), "description") if m else None


def _from_actions(f: Field, which: str) -> tuple[int, str] | None:
    """A check that sends a value past the bound back: `if self.months > 3:` (3 is the most)."""
    name = re.escape(f.name)
    if not re.search(rf"\bself\.{name}\s*=(?!=)", f.actions or ""):
        return None  # a check that only says something ("10% off over 14 nights") sends nothing back: no bound
    ops = {"max": ((">", 0), (">=", -1)), "min": (("<", 0), ("<=", 1))}[which]
    for op, shift in ops:
        m = re.search(rf"\bself\.{name}\s*{re.escape(op)}(?!=)\s*(\d+)\b", f.actions or "")
        if m:
            return int(m.group(1)) + shift, "actions"
    return None


def _bound_columns(reader: "TurnReader", f: Field, which: str) -> list[tuple[str, str]]:
    """(table, column) of the KB named for the field's bound: `max_units` for `course_num_units`."""
    kb = reader.ctx.kb
    if kb is None:
        return []
    mine = field_stems(f, with_description=False) - _GENERIC - {stem(w) for w in STOPWORDS}
    out = []
    for table, info in kb.tables().items():
        for col in info.columns:
            words = [w for w in col.name.lower().split("_") if w]
            if col.type in ("int", "float") and any(w in _BOUND_WORDS[which] for w in words) \
                    and {stem(w) for w in words} & mine:
                out.append((table, col.name))
    return out


def _from_kb(reader: "TurnReader", rec: Any, f: Field, which: str, held_only: bool = False) -> tuple[int, str] | None:
    columns = _bound_columns(reader, f, which)
    if not columns:
        return None
    for table, column in columns:
        held = [v for v in rec.values.values() if isinstance(v, dict) and column in v]  # the row the record took
        if held_only:
            rows = held
        else:
            shown = [row for a in reversed(reader.acts) if a.get("act") == "report" and a.get("kind") == "kb"
                     and isinstance(a.get("result"), list) for row in a["result"]
                     if isinstance(row, dict) and column in row]
            rows = held or (shown[:1] if len({str(r) for r in shown}) == 1 else _rows_holding(reader, table, rec))
        values = {r.get(column) for r in rows if isinstance(r.get(column), (int, float))}
        if len(values) == 1:
            return int(values.pop()), f"kb {table}.{column}"
    return None


def _rows_holding(reader: "TurnReader", table: str, rec: Any) -> list[dict[str, Any]]:
    """The one row of `table` that the record's text values name, each in a short text or list column where it is
    held by one row alone ("CS 161" in one row's `course_codes`; not "Letter", held by many rows' `grading`)."""
    kb = reader.ctx.kb
    info = kb.tables()[table]
    said = [v for k, v in rec.values.items() if isinstance(v, str) and 2 <= len(v) <= 60
            and (g := reader.view.worksheet(rec).field(k)) is not None and reader.view.kind_of(g) == "str"]
    # a text value, not an option ("Chemistry" as a subject names no one module)
    named: dict[str, dict[str, Any]] = {}
    for value in said:
        for col in info.columns:
            if col.free_text or col.type not in ("text", "list"):
                continue
            q = f'"{col.name}"'
            where = f'EXISTS (SELECT 1 FROM json_each("{table}".{q}) WHERE value = ? COLLATE NOCASE)' \
                if col.type == "list" else f"{q} = ? COLLATE NOCASE"
            try:
                found = kb.execute(f'SELECT * FROM "{table}" WHERE {where} LIMIT 3', (value,)).rows
            except Exception:  # noqa: BLE001 - a column that cannot be read holds nothing
                continue
            if len(found) == 1:  # a column where the value names one row ("CS 161" in one row's codes, not
                named[repr(sorted(found[0].items(), key=lambda kv: kv[0]))] = found[0]  # in three rows' prerequisites)
    return list(named.values()) if len(named) == 1 else []
