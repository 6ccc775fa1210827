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


_HOME_WORDS = frozenset("home live lives living resident residence nationality born".split())
_FROM_WORDS = frozenset("from origin made pressed manufactured produced".split())
_TO_WORDS = frozenset("""destination travel travelling traveling going used use arrival arriving visiting visit abroad
    sent sending send deliver delivery shipping ship""".split())
_SPEAKER_IS = frozenset("i'm im i am we're we are originally".split())
_FOLLOWERS = ("and|or|but|for|in|on|at|to|by|with|via|next|this|please|pls|now|then|so|because|where|which|that|too|"
              "as|from|i|we|he|she|they|it|is|was|are|asap|soon|tomorrow|today|if|though|thanks|cheers|first|only|"
              "instead|actually|though|mate|lol")
"""Words that may follow a country named as a place: any other lower-case word makes it an adjective."""
_LIVING = frozenset("live lives living based born resident".split())
_LEADS = {"to": ("to", "for", "into", "in"), "from": ("from", "in"), "home": ("in", "from")}
"""The words that lead in a country for each way a field looks at it, strongest first: "a parcel to Spain", "for
a bank in Germany"; "made in Portugal", "I'm from Germany"."""


def country_direction(f: Field) -> str | None:
    """How a country field looks at its country: "from" (origin, home, where something was made), "to" (where it
    goes or is used), or None when its words say neither ("the country whose food you cook"): such a field takes a
    country only as the answer to its own question."""
    words = set(f.name.lower().split("_")) | set(re.findall(r"[a-z]+", f.description.lower()))
    if words & _HOME_WORDS:
        return "home"
    if words & _FROM_WORDS:
        return "from"
    if words & _TO_WORDS:
        return "to"
    return None


def countries_for(text: str, f: Field) -> list[Span]:
    """The one country the turn says in the field's direction, led in by its words ("... to Spain" for a
    destination, "made in Portugal" for an origin); a country said bare, as a name or a brand ("my friend Georgia",
    "a Canada Goose coat", "the US embassy") or the other way ("from India" for a destination) is none. Two
    countries led in equally strongly give nothing."""
    way = country_direction(f)
    if way is None:
        return []
    leads = _LEADS[way]
    found: list[tuple[int, Span]] = []
    for span in find_countries(text):
        before = re.findall(r"[a-z']+", text[:span.start].lower())
        before = before[:-1] if before and before[-1] == "the" else before
        if not before or before[-1] not in leads:
            continue
        if way == "to" and before[-1] == "in" and len(before) > 1 and before[-2] in _LIVING:
            continue  # "we live in the UK": home, not where it goes
        if way == "home" and not (len(before) > 1 and (before[-1] == "in" and before[-2] in _LIVING
                                                        or before[-1] == "from" and before[-2] in _SPEAKER_IS)):
            continue  # home is where one lives or is from ("we live in the UK", "I'm from Germany"), not where a
            # brother flies in from
        if re.match(r"\s+[a-z]", text[span.end:]) and not re.match(rf"\s+(?:{_FOLLOWERS})\b", text[span.end:]):
            continue  # "the US embassy", "Wales rugby shirts": the country names another thing
        if re.match(r"\s+[A-Z][a-z]", text[span.end:]) or re.search(r"\b(?:New|North|South|East|West)\s+$",
                                                                     text[:span.start]):
            continue  # "Canada Goose", "New Mexico": part of another name
        found.append((leads.index(before[-1]), span))
    if not found:
        return []
    best = min(rank for rank, _s in found)
    top = [s for rank, s in found if rank == best]
    return top if len({s.value for s in top}) == 1 else []
