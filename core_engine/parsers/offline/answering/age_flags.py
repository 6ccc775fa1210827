"""A yes/no field about an age limit answered with an age: "I'm 19" to "Are you 18 or over?" (`over_18`, "Whether the
volunteer is 18 or over"), "she's 15" to "Is the child under 16?". The field's own words give the limit and its side;
the age said decides it."""

from __future__ import annotations

import re

from ....spec.model import Field

_LIMIT = re.compile(r"\b(?P<n>\d{1,2})\s*(?:\+|or\s+(?P<over>over|older|above)|or\s+(?P<under>under|younger|below))|"
                    r"\b(?P<side>over|under|above|below|at\s+least|older\s+than|younger\s+than)[\s_]+(?:the\s+age\s+of\s+)?"
                    r"(?P<m>\d{1,2})\b", re.I)
_NOT_ONE_PERSON = re.compile(r"\b(?:everyone|everybody|all|each|party|group|pets?|dogs?|cats?|animals?|horses?|vehicle|car|"
                             r"building|property)\b", re.I)
_AGE = re.compile(r"(?:^|\b)(?:i'?m|i\s+am|she'?s|he'?s|she\s+is|he\s+is|aged?|just\s+turned|turned)\s+"
                  r"(?:only\s+|just\s+)?(?P<age>\d{1,3})(?:\s*(?:years?\s+old|yrs?(?:\s+old)?|y/?o))?\s*(?:[,.!;]|$)", re.I)


def age_limit(f: Field) -> tuple[int, bool] | None:
    """(limit, True when the field is true at or over it) from the field's description, else its name: "18 or over",
    "18+", "at least 18" -> (18, True); "over 18" in a description -> (19, True), in a name (`over_18`, as such
    names are written) -> (18, True); "under 16" -> (16, False)."""
    for text, in_name in ((f.description, False), (f.name.replace("_", " "), True)):
        m = _LIMIT.search(text)
        if m is None:
            continue
        if m.group("n"):
            return int(m.group("n")), m.group("under") is None
        side, n = m.group("side").lower(), int(m.group("m"))
        if side in ("under", "below", "younger than"):
            return n, False
        strict = side in ("above", "older than") or (side == "over" and not in_name)
        return n + (1 if strict else 0), True
    return None


def age_flag(f: Field, text: str) -> bool | None:
    """True or False for a yes/no field about an age limit when the turn says an age alone ("I'm 19"), else None."""
    if "age" not in f.description.lower() and not _LIMIT.search(f.name.replace("_", " ")) and \
            not _LIMIT.search(f.description):
        return None
    if _NOT_ONE_PERSON.search(f"{f.name.replace('_', ' ')} {f.description}"):
        return None  # "everyone in the party is 18 or over", "the pet is over 8": one person's age does not say
    limit = age_limit(f)
    ages = [int(m.group("age")) for m in _AGE.finditer(text.strip())]
    if limit is None or len(ages) != 1 or not 0 < ages[0] < 120:
        return None
    n, at_or_over = limit
    return ages[0] >= n if at_or_over else ages[0] < n
