"""A yes/no field described as a contrast ("Whether the vehicle belongs to an employer or company rather than the
applicant") answered in words rather than yes or no: words of the first side only mean yes ("it's a company car");
the user's own thing ("it's my own", "mine") means no when the other side is the user (the applicant, customer...)."""
from __future__ import annotations

import re

from ....spec.model import Field
from ..words.match import content_stems

_CONTRAST = re.compile(r"^\s*(?:whether\s+)?(?P<yes>.+?)\s+(?:rather than|instead of)\s+(?P<no>.+?)\s*\.?\s*$", re.I)
_OWN = re.compile(r"\b(?:my\s+own|mine|my\s+personal|personal|private(?:ly)?|belongs?\s+to\s+me|i\s+own\s+it)\b", re.I)
_USER_ROLES = {"applicant", "customer", "user", "resident", "caller", "guest", "member", "patient", "student", "client",
               "you", "yourself", "person", "individual", "owner", "requester", "employee"}


def contrast_answer(f: Field, text: str, subject: str = "", max_words: int = 8) -> bool | None:
    """True or False when the answer says one side of the field's contrast, else None. `subject` (the worksheet's
    name) names what both sides speak of, so its words decide nothing."""
    m = _CONTRAST.match(f.description or "")
    if m is None or len(text.split()) > max_words or "?" in text:
        return None
    no_side = set(re.findall(r"[a-z]+", m.group("no").lower()))
    if _OWN.search(text):
        return False if no_side & _USER_ROLES else None
    common = set(content_stems(subject.replace("_", " "))) | set(content_stems(m.group("no")))
    yes = re.sub(r"^(?:the|a|an|this|your|its)\s+\w+\s+", "", m.group("yes").strip(), flags=re.I)  # its subject
    yes_words = set(content_stems(yes)) - common
    said = set(content_stems(text))
    return True if said & yes_words else None
