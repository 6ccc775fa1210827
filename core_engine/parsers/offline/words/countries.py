"""Country names in a turn, for a text field that holds a country ("The country where the documents will be used").

The names come from `pycountry` (ISO 3166: the short name and its common form, "Viet Nam" and "Vietnam"), with the
few short forms people type ("UAE", "the States", "UK") and the nations of the United Kingdom. A name that is also
an everyday word or a person's first name ("turkey", "jordan", "china") counts only when it is written with its
capital; the short forms only in capitals ("us" is a pronoun)."""
from __future__ import annotations

import re
from functools import lru_cache

from ....spec.model import Field
from .values import Span

_EVERYDAY = frozenset("""chad jordan georgia turkey guinea niger jersey guernsey china japan mali peru togo chile panama
    cuba man wales oman""".split())
"""Names that are also words or first names: a country only with a capital ("Turkey", not "turkey for Christmas")."""
_SHORT_FORMS = ("UAE", "UK", "USA", "US", "U.S.", "U.K.", "U.S.A.", "GB")
"""Short forms read only as typed in capitals."""
_SPELLED = {"u.s.": "US", "u.k.": "UK", "u.s.a.": "USA", "the states": "USA"}
_MORE_NAMES = ("England", "Scotland", "Wales", "Northern Ireland", "Great Britain", "Britain", "the States", "America",
               "Holland", "Czech Republic", "Russia", "South Korea", "North Korea", "Ivory Coast", "Macedonia",
               "Swaziland", "Burma", "Vatican")


def is_country_field(f: Field) -> bool:
    """A field whose name or description says it holds a country (not a code or a bool about one)."""
    words = set(f.name.lower().split("_")) | set(re.findall(r"[a-z]+", f.description.lower()))
    return bool(words & {"country", "countries"}) and not words & {"code", "dialling", "dial", "whether"}


@lru_cache(maxsize=1)
def _pattern() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """One pattern for names matched in any case, one for names matched only as written."""
    import pycountry  # late: the package is read once, on the first turn that needs it

    names: set[str] = set(_MORE_NAMES)
    for c in pycountry.countries:
        for attr in ("name", "common_name"):
            name = getattr(c, attr, None)
            if name and "," not in name and "(" not in name:
                names.add(name)
    loose = sorted((n for n in names if n.lower() not in _EVERYDAY), key=len, reverse=True)
    strict = sorted([n for n in names if n.lower() in _EVERYDAY] + list(_SHORT_FORMS), key=len, reverse=True)
    bound = r"(?<![\w@.-]){}(?![\w@-])"
    return (re.compile(bound.format("(?:" + "|".join(re.escape(n) for n in loose) + ")"), re.I),
            re.compile(bound.format("(?:" + "|".join(re.escape(n) for n in strict) + ")")))


def find_countries(text: str) -> list[Span]:
    """The country names said in `text`, as typed (a name typed in lower case gets its capitals: "spain" ->
    "Spain"), in the order said; "the UAE" is "UAE"."""
    loose, strict = _pattern()
    found = [m for m in loose.finditer(text)] + [m for m in strict.finditer(text)]
    out: list[Span] = []
    for m in sorted(found, key=lambda m: (m.start(), -len(m.group(0)))):
        if out and m.start() < out[-1].end:
            continue
        said = m.group(0)
        if said.lower() in _EVERYDAY and (re.match(r"\s+[A-Z][a-z]", text[m.end():])
                                          or re.search(r"[A-Z][a-z]+\s+$", text[:m.start()])):
            continue  # "Jordan Smith", "Michael Jordan": a person's name
        value = said.title() if said.islower() else said
        value = _SPELLED.get(value.lower(), value)
        out.append(Span(value, m.start(), m.end(), said))
    return out
