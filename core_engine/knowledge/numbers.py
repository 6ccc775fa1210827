"""Comparisons ("under $50", "at least 4 stars") and superlatives ("cheapest", "best rated").

The column is chosen from the schema, not from built-in words: the word next to
the number (or the superlative's concept) is compared with each numeric column's
name and description, first by stem and then by meaning with the embedder. When
the words name no column, the column whose values span the number is taken if
exactly one does ("published after 2017" -> the year column); a bare number of
three or more digits ("books from 2022") becomes an equality the same way. A
number whose column cannot be told is left alone rather than guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .kb import TableInfo
from .vocab import STOPWORDS, Token, is_identifier, stem

__all__ = ["Comparison", "durations", "Ordering", "comparisons", "superlatives", "column_texts", "by_range", "bare_numbers", "capacity", "counted", "having", "free_of_charge",
           "decades", "MEASURE_VERBS", "measured", "ages"]

COLUMN_MIN = 0.4  # cosine between a unit word and a column text
COLUMN_MARGIN = 0.08
ADJECTIVE_MIN = 0.3  # a superlative adjective and its base agreeing on a column ("quickest", "quick": the duration
ADJECTIVE_MARGIN = 0.05  # 0.34, the price 0.19) need less than one word alone ("quietest" wine: 0.35 rating, 0.34 price)
_LESS = ("under", "below", "less than", "shorter than", "no longer than", "fewer than", "at most", "no more than",
         "lower than", "cheaper than", "up to", "max", "maximum", "within", "before", "earlier than", "older than",
         "prior to", "until")
_MORE = ("above", "over", "more than", "longer than", "no shorter than", "at least", "greater than", "higher than",
         "better than", "no less than", "minimum", "min", "pricier than", "costlier than", "after", "later than",
         "newer than", "since")
_INCLUSIVE = ("no longer than", "no shorter than", "at most", "no more than", "at least", "no less than", "up to",
              "max", "maximum", "minimum", "min", "within", "since", "until")
RANGE_SCORE = 0.5  # a column chosen because only its values span the number (no word named it)
_MONEY = "price cost fee rent charge in dollars pounds euros"
"""What "cheapest" and "most expensive" rank by: a column named or described as money (a weekly rent "in pounds")."""
_DISTANCE = "distance walking time away"
"""What "closest" and "nearest" rank by: a distance, or the time it takes to get there."""
_AFTER = re.compile(r"\s*(or|and)\s+(more|higher|above|over|better|up|newer|later|after|less|fewer|lower|below|under|"
                    r"cheaper|older|earlier|before)\b")
_TAIL_LESS = ("less", "fewer", "lower", "below", "under", "cheaper", "older", "earlier", "before")
SUPERLATIVES = (
    (r"\bmost\s+recent(?:ly)?\s+([a-z]+(?:ed|en))\b", "DESC", None),  # "most recently inspected": that date column
    (r"\b([a-z]+)\s+the\s+most\b(?!\s+[a-z])", "DESC", None),  # "which wine sells the most": the verb's column
    (r"\b([a-z]+)\s+the\s+least\b(?!\s+[a-z])", "ASC", None),
    (r"\b(cheapest|lowest[- ]priced?|most affordable|lowest prices?|least expensive|least costly)\b", "ASC", _MONEY),
    (r"\b(priciest|costliest|most costly|most expensive|highest[- ]priced?|highest prices?)\b", "DESC", _MONEY),
    (r"\b(?:most|largest number of|highest number of)\s+([a-z]+)", "DESC", None),
    (r"\b(?:fewest|least|smallest number of|lowest number of)\s+([a-z]+)", "ASC", None),
    (r"\b(best|top|highest|better)(?:[- ](?:rated|reviewed|ranked|rating))?(?:\s+(?:reviews|ratings|scores))?\b",
     "DESC", "rating score stars"),  # "better reviews" asks which is best: reviews' quality, not their number
    (r"\b(worst|lowest|worse)(?:[- ](?:rated|reviewed|ranked|rating))?(?:\s+(?:reviews|ratings|scores))?\b",
     "ASC", "rating score stars"),
    (r"\b(closest|nearest|handiest|quickest\s+to\s+(?:get|walk)\s+to)\b", "ASC", _DISTANCE),
    (r"\b(furthest|farthest)\b", "DESC", _DISTANCE),
    (r"\b(newest|latest|most recent)\b", "DESC", "date year"),
    (r"\b(oldest|earliest)\b", "ASC", "date year"),
)


@dataclass
class Comparison:
    column: str
    op: str
    value: float | int
    words: str
    score: float
    start: int
    end: int


@dataclass
class Ordering:
    column: str
    direction: str
    words: str
    score: float
    start: int
    end: int


def column_texts(info: TableInfo, spec: Any, types: tuple[str, ...] = ("int", "float")) -> dict[str, list[str]]:
    """Numeric columns with the texts that say what they hold: the name's words and the KB worksheet's description."""
    ws = spec.worksheet(info.name) if spec is not None else None
    described = {f.name: f.description for f in ws.fields} if ws else {}
    out = {}
    for c in info.columns:
        if c.type in types and not is_identifier(c.name):
            desc = (described.get(c.name) or "").strip()
            out[c.name] = [c.name.replace("_", " ")] + ([desc] if desc else [])
    return out


def choose_column(words: list[str], columns: dict[str, list[str]], embedder: Any, less: bool | None = None,
                  value: float | None = None, ranges: dict[str, tuple[float, float]] | None = None
                  ) -> tuple[str, float] | None:
    """The column a word names: by stem in its name (`reviews` -> num_reviews), then in its description
    (`stars` -> "rating out of 5 stars"), else by meaning (name or description, the closer)."""
    if not columns:
        return None
    plain = [w for phrase in words for w in phrase.split() if w not in STOPWORDS]
    for which in (0, 1):
        for word in plain:
            st = stem(word)
            found = [n for n, texts in columns.items() if len(texts) > which
                     and any(stem(p) == st for p in re.split(r"[^a-z0-9]+", texts[which].lower()) if p)]
            if len(found) > 1 and value is not None and ranges:  # "rated above 4.7": rating (1-5), not a rate
                fits = [n for n in found if n in ranges and ranges[n][0] <= value <= ranges[n][1]]
                found = fits if len(fits) == 1 else found
            if len(found) > 1:  # "highest rated": the rating column, not the hourly rate (both stem to "rate")
                exact = [n for n in found if len(columns[n]) > which and any(p in (word, word + "s", word.rstrip("s"))
                                                                             for p in _parts(columns[n][which]))]
                found = exact or found
            if found:
                prefer = "min_" if less else "max_"
                return next((n for n in found if n.startswith(prefer)), found[0]), 1.0
    if embedder is None or not words:
        return None
    scores = _ranked(" ".join(words), columns, embedder)
    best, second = scores[0], scores[1][0] if len(scores) > 1 else 0.0
    if best[0] >= COLUMN_MIN and best[0] - second >= COLUMN_MARGIN:
        return best[1], round(best[0], 3)
    return None


def _parts(text: str) -> list[str]:
    """The words of a column's name or description."""
    return [p for p in re.split(r"[^a-z0-9]+", text.lower()) if p]


def _ranked(text: str, columns: dict[str, list[str]], embedder: Any) -> list[tuple[float, str]]:
    """(cosine, column) best first: each column by the closer of its name and description."""
    names = [n for n in columns for _ in columns[n]]
    texts = [t for n in columns for t in columns[n]]
    sims = embedder.encode([text] + texts)
    best_by: dict[str, float] = {}
    for i, n in enumerate(names):
        best_by[n] = max(best_by.get(n, -1.0), float(sims[0] @ sims[i + 1]))
    return sorted(((v, n) for n, v in best_by.items()), reverse=True)


def _adjective_column(word: str, base: str, columns: dict[str, list[str]], embedder: Any
                      ) -> tuple[str, float] | None:
    """The column a superlative adjective means: its base by stem, else the base and the superlative itself
    by meaning, when both rank the same column first ("longest" and "long": the length; "finest" and "fine"
    disagree, so no column)."""
    found = choose_column([base], {n: t for n, t in columns.items()}, None)
    if found:
        return found
    scaled = [n for n in columns if set(re.split(r"[_\W]+", n.lower())) & _SCALES.get(base, frozenset())]
    if len(scaled) == 1:  # "runs the longest": the one column measured in a unit of time ("running_time_minutes")
        return scaled[0], 1.0
    if embedder is None or not columns:
        return found
    by_base, by_word = _ranked(base, columns, embedder), _ranked(word, columns, embedder)
    if by_base[0][1] != by_word[0][1]:
        return _by_antonym(base, columns, embedder)
    ranking = max(by_base, by_word, key=lambda r: r[0][0])
    second = ranking[1][0] if len(ranking) > 1 else 0.0
    if ranking[0][0] >= ADJECTIVE_MIN and ranking[0][0] - second >= ADJECTIVE_MARGIN:
        return ranking[0][1], round(ranking[0][0], 3)
    return _by_antonym(base, columns, embedder)


_TIME = frozenset("minutes mins minute hours hrs hour duration length time days weeks".split())
_SIZE = frozenset("capacity size area sqm seats seated standing guests people sleeps berths spaces".split())
_SCALES = {"long": _TIME, "short": _TIME, "quick": _TIME, "brief": _TIME, "big": _SIZE, "small": _SIZE,
           "large": _SIZE, "tiny": _SIZE, "huge": _SIZE, "valuable": frozenset("value worth".split()),
           "quiet": frozenset("noise db decibels decibel loudness".split()),
           "loud": frozenset("noise db decibels decibel loudness".split()),
           "noisy": frozenset("noise db decibels decibel loudness".split())}
"""Scale adjectives and the words of the column names that measure them (English, no KB's words): "runs the
longest" is the column in minutes, "the biggest space" the capacity, "the quietest tyre" the noise in dB."""


ANTONYMS = {a: b for x, y in (("light", "heavy"), ("short", "long"), ("small", "big"), ("near", "far"),
                              ("young", "old"), ("slow", "fast"), ("thin", "thick"), ("narrow", "wide"),
                              ("shallow", "deep"), ("low", "high"), ("weak", "strong"))
            for a, b in ((x, y), (y, x))}
"""Scale adjectives and their opposites (English, no KB's words): "lightest" means the weight column as "heaviest"
does, though "light" alone is nearer the gears for the embedder than the weight."""


def _by_antonym(base: str, columns: dict[str, list[str]], embedder: Any) -> tuple[str, float] | None:
    """The column the adjective's opposite clearly names, as one word names a column (choose_column's bars)."""
    other = ANTONYMS.get(base)
    return choose_column([other], columns, embedder) if other else None


def by_range(value: float, columns: dict[str, list[str]], ranges: dict[str, tuple[float, float]] | None,
             *, reach: float = 0.0) -> tuple[str, float] | None:
    """The one numeric column whose values span `value`; None when none or several do.

    `reach` widens each range by that many times its width or half its top, the larger: a bound
    may lie outside the data ("before 2000" when every row is later still names the year column).
    """
    def holds(low: float, high: float) -> bool:
        pad = reach * max(high - low, abs(high) / 2)
        return low - pad <= value <= high + pad

    holding = [n for n in columns if n in (ranges or {}) and holds(*ranges[n])]
    return (holding[0], RANGE_SCORE) if len(holding) == 1 else None


def bare_numbers(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]],
                 ranges: dict[str, tuple[float, float]] | None) -> list[Comparison]:
    """`from 2022`, `2019 releases`: a whole number of 3+ digits that only one column's values span."""
    found = []
    # the word before the number and a preposition ("published in 2022") are the condition's words too
    pattern = r"(?:\b[a-z]+\s+(?:in|from|of|during)\s+|\b(?:in|from|of|during)\s+)?(?<![\w$.,:/-])(\d{3,})" \
              r"(?![\w.,:/-]*\d)(?!\s*(?:%|\$|\d))(?<!\d\s\d{3})(?<!\d\s\d{4})"
    for m in re.finditer(pattern, text, re.I):
        if any(s < m.end(1) and m.start(1) < e for s, e in taken):
            continue
        value = int(m.group(1))
        chosen = by_range(value, columns, ranges)
        if chosen:
            found.append(Comparison(chosen[0], "=", value, m.group(0), chosen[1], m.start(), m.end()))
    return found


_MOST_PEOPLE = re.compile(r"(?:\b(?:a\s+)?(?:small|little|tiny)\s+(?:group|class)\s*[,-]?\s*)?"
                          r"\b(?P<n>\d{1,3})\s+(?:people|persons|students|pupils|learners|players|guests)\s+"
                          r"(?:max|maximum|at\s+most|tops|or\s+(?:fewer|less))\b")
"""At most that many people, with the small group it explains ("a small group, 8 people max")."""
_SHARE = re.compile(r"\b(?:percent|percentage|per\s+cent|share|proportion|ratio)\b")
_HOW_HELD = frozenset("indoors outdoors inside outside tops max maximum seated standing".split())
"""Words after a count of people that say how they are held ("seats 80 indoors", "sleeps 4 comfortably")."""
_PEOPLE_STEMS = ("people", "person", "seat", "berth", "sleep", "guest", "capacit", "passeng", "occupan", "portion",
                 "player", "group", "student", "pupil", "learner", "attendee", "delegate", "diner")
_NUMBER_WORDS = {w: str(n) for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split()) if n >= 2}
_PARTY_OF = re.compile(r"\b(?:a\s+)?(?P<who>family|group|party|team|household)\s+of\s+"
                       rf"(?P<n>\d{{1,3}}|{'|'.join(_NUMBER_WORDS)})\b(?P<verb>)")
"""People said as a group of them ("big enough for a family of four"): that many people."""
_HOLDS = re.compile(r"\b(?:(?P<verb>fits?|sleeps?|seats?|takes?|holds?|carr(?:y|ies)|feeds?|serves?|room\s+for|"
                    r"enough\s+for)|for)\s+"
                    r"(?:up\s+to\s+|at\s+least\s+|about\s+|around\s+|roughly\s+)?"
                    rf"(?P<n>\d{{1,3}}|{'|'.join(_NUMBER_WORDS)})(?:\s+(?P<who>people|persons|of\s+us|guests|adults|"
                    r"passengers|paddlers|riders|kids|children|players|diners|delegates))?\b")


def capacity(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]]) -> list[Comparison]:
    """ "anything that fits 10 people?", "sleeps 6", "for 4 people": at least that many, on the one column that
    counts people (its name or description says people, seats, berths, sleeps, guests ...). "for 4" needs the
    people said; a verb of holding ("fits", "sleeps", "takes") does not."""
    money = money_columns(columns)  # "price per person" counts money, "occupancy percent" a share: no people
    holding = [n for n, texts in columns.items() if n not in money and not _SHARE.search(" ".join(texts).lower())
               and "age" not in re.split(r"[^a-z]+", n.lower())  # "Minimum age of learners" counts no learners
               and any(w.startswith(_PEOPLE_STEMS) for t in texts for w in re.findall(r"[a-z]+", t.lower()))]
    fewest = None
    if len(holding) == 2:  # min_players and max_players: the most must reach the number, the fewest not pass it
        lows = [n for n in holding if n.lower().startswith(("min_", "minimum_"))]
        highs = [n for n in holding if n.lower().startswith(("max_", "maximum_"))]
        if len(lows) == 1 and len(highs) == 1:
            holding, fewest = highs, lows[0]
    if len(holding) != 1:
        return []
    found = []
    low = text.lower()
    for m in _MOST_PEOPLE.finditer(low):  # "a small group, 8 people max": at most that many
        if not any(s < m.end() and m.start() < e for s, e in taken):
            found.append(Comparison(holding[0], "<=", int(m.group("n")), m.group(0), 1.0, m.start(), m.end()))
    for m in list(_HOLDS.finditer(low)) + list(_PARTY_OF.finditer(low)):
        start = m.start()
        if (m.group("verb") or "").startswith("room") and m.group("who") and any(s < m.end() and start < e
                                                                                for s, e in taken):
            start = m.start("verb") + len("room ")  # "meeting room for 10 people": the room was a value; "for 10
            # people" is the count
        if any(s < m.end() and start < e for s, e in taken) or (m.group("verb") is None and not m.group("who")):
            continue
        thing = re.match(r"\s+([a-z]+)", low[m.end():])
        if not m.group("who") and thing and thing.group(1) not in STOPWORDS and not thing.group(1).endswith("ly") \
                and thing.group(1) not in _HOW_HELD:
            continue  # "takes 2 dogs", "holds 400 cars", "take 60 minutes": a count of something else
        n = m.group("n")
        count = int(n if n.isdigit() else _NUMBER_WORDS[n])
        found.append(Comparison(holding[0], ">=", count, low[start:m.end()], 1.0, start, m.end()))
        if fewest:
            found.append(Comparison(fewest, "<=", count, low[start:m.end()], 1.0, start, m.end()))
    return found


def counted(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]]) -> list[Comparison]:
    """`3 bedroom cottages`, `a 21-gear bike`: a small number right before a word its column's name says (by
    stem, not by meaning) is that count, an equality."""
    found = []
    for m in re.finditer(r"(?<![\w$.,:/-])(\d{1,3})[- ]([a-z]+)\b", text.lower()):
        if any(s < m.end() and m.start() < e for s, e in taken) or m.group(2) in STOPWORDS or m.group(2) in UNITS:
            continue  # "my 8 year old": a unit is a measure (comparisons convert it), not a count
        st = stem(m.group(2))
        agent = stem(m.group(2)[:-2]) if m.group(2).endswith("er") and len(m.group(2)) > 5 else None
        money = money_columns(columns)  # "a 6 person session" is no price per person
        named = [n for n, texts in columns.items() if n not in money  # "a 9 seater": a count of seats, said as the
                 and any(stem(p) in (st, agent) for p in re.split(r"[^a-z0-9]+", texts[0].lower()) if p)]  # thing
        if len(named) == 1:  # "a 4 bedroom house" on max_bedrooms: a row that covers at least 4
            op = ">=" if named[0].lower().startswith(("max_", "maximum_")) else \
                "<=" if named[0].lower().startswith(("min_", "minimum_")) else "="
            found.append(Comparison(named[0], op, int(m.group(1)), m.group(0), 1.0, m.start(), m.end()))
    return found


_ORDINALS = {w: n for n, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)}
_ORDINAL_NAMED = re.compile(r"\b(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<w>" + "|".join(_ORDINALS) + r")|(?P<g>ground|top))"
                            r"[\s-]+(?P<what>[a-z]+)\b")


def ordinal_named(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]]) -> list[Comparison]:
    """ "on the 4th floor", "first floor", "ground floor": an ordinal before the word a whole-number column is named
    by is that number. "ground" is the number the column's description gives it ("0 is the ground floor"), "top" its
    highest value is not known here and is left alone."""
    found = []
    for m in _ORDINAL_NAMED.finditer(text.lower()):
        if any(s < m.end() and m.start() < e for s, e in taken) or m.group("g") == "top":
            continue
        lead = re.search(r"\b(not|above|over|below|under|except|other\s+than|off)\s+(?:on\s+|in\s+)?(?:the\s+)?$",
                         text.lower()[:m.start()])
        st = stem(m.group("what"))
        named = [n for n, texts in columns.items() if any(stem(p) == st for p in re.split(r"[^a-z0-9]+", n.lower()) if p)]
        if len(named) != 1:
            continue
        if m.group("g"):
            said = re.search(r"(-?\d+)\s*(?:is|=|means|for)\s+(?:the\s+)?ground\b|\bground[a-z ]{0,12}?(?:is|=)\s*(-?\d+)",
                             " ".join(columns[named[0]]).lower())
            if said is None:
                continue
            value = int(said.group(1) or said.group(2))
        else:
            value = int(m.group("n")) if m.group("n") else _ORDINALS[m.group("w")]
        op = {"not": "!=", "except": "!=", "off": "!=", "above": ">", "over": ">", "below": "<", "under": "<"}.get(
            lead.group(1).split()[0] if lead else "", "=")  # "not on the ground floor", "above the 2nd floor"
        start = lead.start() if lead else m.start()
        found.append(Comparison(named[0], op, value, text[start:m.end()], 1.0, start, m.end()))
    return found


_HAVING = re.compile(r"\b(?:with|has|have|having|offers?|offering)\s+(?:an?\s+|some\s+|any\s+)?"
                     r"([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3})")
_HAVING_STOP = frozenset("under over below above less more at near in on for from and or but that which where "
                         "when with without".split())
_COUNTS = re.compile(r"\s*(?:the\s+)?(?:number|count|how\s+many)\b", re.I)


def _same_stem(a: str, b: str) -> bool:
    sa, sb = stem(a), stem(b)
    return sa == sb or (min(len(sa), len(sb)) >= 4 and (sa.startswith(sb) or sb.startswith(sa)))


def having(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]]) -> list[Comparison]:
    """`venues with floodlit courts`, `car parks that have EV charging`: the words after "with"/"has" name a column
    that counts things (its description says "Number of ..."): at least one. Every word said must be a word of the
    column's name or description (by stem or a shared beginning: "charging" of "chargers"), one of its name."""
    found = []
    low = text.lower()
    for m in _HAVING.finditer(low):
        words = []
        for w in m.group(1).split():
            if w in STOPWORDS or w in _HAVING_STOP or w in UNITS:
                break
            words.append(w)
        start = m.start(1)
        end = start + len(" ".join(words))
        if not words or any(s < end and start < e for s, e in taken) or re.match(r"\s*\d", low[end:]):
            continue
        hits = []
        for name, texts in columns.items():
            desc = texts[1] if len(texts) > 1 else ""
            if not _COUNTS.match(desc):
                continue
            own = [p for p in re.split(r"[^a-z0-9]+", texts[0].lower()) if p]
            said = own + [p for p in re.split(r"[^a-z0-9]+", desc.lower()) if p and p not in STOPWORDS]
            if all(any(_same_stem(w, p) for p in said) for w in words) and \
                    any(_same_stem(w, p) for w in words for p in own):
                hits.append(name)
        if len(hits) == 1:
            found.append(Comparison(hits[0], ">", 0, low[start:end], 1.0, start, end))
    return found


_FREE = re.compile(r"(?<![\w-])free(?:\s+of\s+charge)?(?:\s+([a-z]+))?|\bfor\s+free\b|\bno\s+charge\b|"
                   r"\bcosts?\s+nothing\b")
_PRICE_WORDS = ("price", "cost", "fee", "charge", "tariff")


def free_of_charge(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]], table: str
                   ) -> list[Comparison]:
    """`is there free parking anywhere` in a table of car parks, `any free tours?`, `for free`, `free of charge`: the
    one money column is 0. "free" only before a word of the table's own name (the rows themselves: "free parking"
    among car parks, not "free wifi" among hotels, nor "gluten free"); "for free", "costs nothing" only after such a
    word ("park for free"; "can I cancel for free?" asks about cancelling)."""
    money = [n for n, texts in columns.items()
             if set(re.split(r"[^a-z]+", " ".join(texts).lower())) & {w for p in _PRICE_WORDS for w in (p, p + "s")}]
    if len(money) != 1:
        return []
    own = {stem(w) for w in re.split(r"[^a-z0-9]+", table.lower()) if w}
    found = []
    low = text.lower()
    for m in _FREE.finditer(low):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        said = m.group(0)
        if said.startswith("free") and " of charge" not in said:
            noun = m.group(1)
            if not noun or not (stem(noun) in own or any(_same_stem(noun, w) for w in own if len(w) >= 4)):
                continue
            end = m.start() + len("free")  # the noun still names the rows
        else:
            verb = re.search(r"([a-z]+)\s+$", low[:m.start()])  # "park for free" among car parks; not "cancel for free"
            if verb is None or not (stem(verb.group(1)) in own or any(_same_stem(verb.group(1), w) for w in own
                                                                         if len(w) >= 4)):
                continue
            end = m.end()
        found.append(Comparison(money[0], "=", 0, low[m.start():end], 1.0, m.start(), end))
    return found


_CURRENCY = re.compile(r"[£€¥]")


def money_signs(text: str) -> str:
    """Other currency signs read as the dollar sign ("under £15", "€20 or less"): one character for one, so
    every offset into the question stays the same."""
    return _CURRENCY.sub("$", text)


def comparisons(text: str, tokens: list[Token], columns: dict[str, list[str]], embedder: Any,
                ranges: dict[str, tuple[float, float]] | None = None) -> list[Comparison]:
    """`under $50`, `at least 4 stars`, `more than 100 reviews`, `4 stars or more`, `after 2017`, `under 30cm`
    (a unit typed against its number)."""
    low = _in_digits(money_signs(text.lower()))
    phrases = sorted(((p, "<") for p in _LESS), key=lambda x: -len(x[0])) + \
        sorted(((p, ">") for p in _MORE), key=lambda x: -len(x[0]))
    alternation = "|".join(re.escape(p) for p, _ in sorted(phrases, key=lambda x: -len(x[0])))
    ops = dict(phrases)
    found: list[Comparison] = []
    pattern = re.compile(
        rf"(?:\b([a-z]+)\s+)?\b({alternation})\s+(\$\s*)?(\d+(?:\.\d+)?|an?(?=\s+{_UNIT_WORD})|an?\s+(?:{_SLANG}))(\s*\$)?"
        rf"(?:\s+([a-z]+)|(?<=\d)({_UNIT_WORD}))?(?:\s+([a-z]+))?")
    for m in pattern.finditer(low):
        before, phrase, dollar, number, dollar2, after, glued, after2 = m.groups()
        after = after or glued  # "under 30cm"
        if number.split()[-1] in MONEY_SLANG:  # "under a tenner"
            dollar = dollar or "$"
        less = ops[phrase] == "<"
        op = ops[phrase] + ("=" if phrase in _INCLUSIVE else "")
        candidates = _units(before, phrase, dollar or dollar2, after, after2)
        money = bool(dollar or dollar2 or after in MONEY_WORDS or after in MINOR_MONEY)
        per = re.match(r"\s+([a-z]+)", low[m.end():]) if after2 in ("a", "an", "per") else None
        said = [w for w in (before, after, after2, per and per.group(1)) if w and w not in STOPWORDS
                and w not in ("or", "and") and w not in MONEY_WORDS and w not in MINOR_MONEY
                and w not in _PRICE_VERBS]  # "10 cents a word": the word names the rate per word
        earlier = _clause_before(low, m.start(), 4)  # "the deposit is less than 200 pounds", "an overnight charge"
        if money and after in ("a", "an", "per") and after2 in UNITS:
            after, after2 = None, None  # "under $2 an hour": money per unit of time, a rate; the hour is no length
        chosen = (_money_column(said, columns, embedder, less, earlier) if money else None) or \
            _measured((after, after2), candidates + earlier, columns, embedder, less) or \
            choose_column(candidates, columns, embedder, less, _number(number), ranges) or \
            by_range(_number(number), columns, ranges, reach=1.0)
        if chosen:
            start = _start(m, before, chosen[0], columns, embedder)
            value = converted(_number(number), (after, after2), columns[chosen[0]])
            if money:
                value = _in_column_money(value, after in MINOR_MONEY, columns[chosen[0]],
                                         (ranges or {}).get(chosen[0]))
            found.append(Comparison(chosen[0], op, value, low[start:m.end()].strip(), chosen[1], start, m.end()))
    bounds = between(low, columns, embedder, ranges)  # "between 10 and 20 dollars": both bounds, inclusive
    found += [c for c in bounds if not any(f.start < c.end and c.start < f.end for f in found)]
    tail = re.compile(rf"(?:\b([a-z]+)\s+)?(\$\s*)?(\d+(?:\.\d+)?|\ban?(?=\s+{_UNIT_WORD}))\s*(\$)?(?:\s+([a-z]+))?"
                      rf"(?:\s+(?:a|an|per)\s+([a-z]+))?{_AFTER.pattern}"
                      r"(?:\s+(?:a|an|per)\s+(?=[a-z]))?(?:\s*([a-z]+))?")
    for m in tail.finditer(low):  # "4 stars or more", "rated 4.5 or higher", "£110 an hour or less", "a year or more"
        if any(c.start <= m.start() < c.end for c in found):
            continue
        before, dollar, number, dollar2, unit, rate, _, word, unit_after = m.groups()
        unit = unit or (unit_after if unit_after not in STOPWORDS else None)
        less = word in _TAIL_LESS
        money = bool(dollar or dollar2 or unit in MONEY_WORDS)
        candidates = [_MONEY] if money else []
        candidates += [w for w in (unit, before) if w and w not in STOPWORDS]
        said = [w for w in (unit, rate, unit_after, before) if w and w not in STOPWORDS and w not in MONEY_WORDS
                and w not in _PRICE_VERBS]  # "£40 or less per person": the price per person
        chosen = (_money_column(said, columns, embedder, less, _clause_before(low, m.start(), 4)) if money
                  else None) or _measured((unit,), candidates + _clause_before(low, m.start(), 4), columns, embedder,
                                          less) or \
            choose_column(candidates, columns, embedder, less, _number(number), ranges)
        end = m.end()
        if not chosen:  # "4 or more of in one collection": a later word of the clause names the column
            chosen, end = _named_after(low, m.end(), columns, less)
        chosen = chosen or by_range(_number(number), columns, ranges, reach=1.0)
        if chosen:
            start = _start(m, before, chosen[0], columns, embedder)
            value = converted(_number(number), (unit,), columns[chosen[0]])
            found.append(Comparison(chosen[0], "<=" if less else ">=", value, low[start:end].strip(),
                                    chosen[1], start, end))
    halves = [(h.start(), h.end()) for h in _HALF_HOURS.finditer(money_signs(text.lower()))]
    for c in found:  # "under an hour and a half": the comparison's words run to the end of the half hour
        c.end = max([c.end] + [e for s, e in halves if c.start < e and s < c.end])
    return found


_CLAUSE_WORD = re.compile(r"[a-z]+|[^\sa-z]")


def _named_after(low: str, end: int, columns: dict[str, list[str]], less: bool
                 ) -> tuple[tuple[str, float] | None, int]:
    """The column a content word later in the comparison's clause names by its stem ("which items can you take 4
    or more of in one collection": `max_per_collection`), up to three words on and never past a comma or another
    number; the end of the comparison's words moves to that word. Only by stem: a clause's later words are too
    loose to be ranked by meaning."""
    seen = 0
    for w in _CLAUSE_WORD.finditer(low, end):
        if not w.group(0).isalpha() or w.group(0) in ("and", "but", "or"):
            break
        if w.group(0) in STOPWORDS:
            continue
        found = choose_column([w.group(0)], columns, None, less)
        if found:
            return found, w.end()
        seen += 1
        if seen == 3:
            break
    return None, end


_WORDS_ALT = "|".join(_NUMBER_WORDS)
_NUMBER_WORD = re.compile(rf"\b(?P<a>{_WORDS_ALT})\b(?=\s+(?:or\s+(?:more|fewer|less)|[a-z]+\s+or\s+(?:more|fewer|less))\b)|"
                          rf"\b(?:than|least|most|over|under|above|below)\s+(?P<b>{_WORDS_ALT})\b")
"""A number said in words in a comparison ("five or more movers", "more than three"), read as its digits (the
text keeps its length, so the positions of what is found stay right)."""

def _in_digits(low: str) -> str:
    """The number words of comparisons written as digits, padded to their length; half hours as minutes."""
    def digits(m: re.Match[str]) -> str:
        key = "a" if m.group("a") else "b"
        word = m.group(key)
        start, end = m.start(key) - m.start(), m.end(key) - m.start()
        whole = m.group(0)
        return whole[:start] + f"{_NUMBER_WORDS[word]:<{len(word)}}" + whole[end:]
    low = _HUNDREDS.sub(_hundreds, low)
    return _NUMBER_WORD.sub(digits, _HALF_A.sub(_half_a, _DECADE_SAID.sub(_years, _HALF_HOURS.sub(_minutes, low))))


_HUNDREDS = re.compile(rf"\b(?P<n>a|one|{'|'.join(_NUMBER_WORDS)})\s+(?P<unit>hundred|thousand)\b")
"""Round numbers in words ("less than a hundred quid", "two thousand pounds")."""


def _hundreds(m: re.Match[str]) -> str:
    n = 1 if m.group("n") in ("a", "one") else int(_NUMBER_WORDS[m.group("n")])
    said = str(n * (100 if m.group("unit") == "hundred" else 1000))
    return said.ljust(len(m.group(0)))


_HALF_A = re.compile(r"\bhalf\s+an?\s+(?P<unit>kilometres?|kilometers?|km|miles?|metres?|meters?|days?|hours?)\b")
"""Half a unit ("less than half a kilometre from the lake"): 0.5 of it."""


def _half_a(m: re.Match[str]) -> str:
    said = f"0.5 {m.group('unit')}"
    return said.ljust(len(m.group(0)))


_DECADE_SAID = re.compile(rf"\b(?P<n>a|one|{'|'.join(_NUMBER_WORDS)})\s+decades?\b")
"""A decade as a length ("more than a decade of experience"): ten years each."""


def _years(m: re.Match[str]) -> str:
    n = m.group("n")
    said = f"{10 * (1 if n in ('a', 'one') else int(_NUMBER_WORDS[n]))} years"
    return said.ljust(len(m.group(0))) if len(said) <= len(m.group(0)) else m.group(0)


_HALF_HOURS = re.compile(rf"\b(?:(?P<n>an?|one|\d+|{'|'.join(_NUMBER_WORDS)})\s+(?:(?P<unit>hours?)\s+and\s+a\s+half|"
                         r"and\s+a\s+half\s+hours?)|half\s+an\s+hour|an?\s+half[- ]hour|"
                         r"(?P<q>three\s+quarters|a\s+quarter|quarter)\s+of\s+an\s+hour)\b")
"""An hour and a half, two and a half hours, half an hour, three quarters of an hour: English, read as hours ("shows
under an hour and a half" is under 1.5 hours: 90 on a column in minutes)."""


def _minutes(m: re.Match[str]) -> str:
    """The time said as hours ("1.5 hours"): a column in minutes converts it, and "hours" still names a column
    kept in hours rather than one in minutes."""
    n = m.group("n")
    count = 0 if n is None else 1 if n in ("a", "an", "one") else int(n) if n.isdigit() else int(_NUMBER_WORDS[n])
    said = f"{count + 0.5:g} hours"
    if m.group("q"):
        said = "0.75 hours" if m.group("q").startswith("three") else "0.25 hours"
    return said.ljust(len(m.group(0))) if len(said) <= len(m.group(0)) else m.group(0)


MEASURE_VERBS = frozenset("""stay stays grow grows get gets reach reaches cost costs run runs last lasts take takes
    weigh weighs measure measures remain remains keep keeps""".split())
"""English verbs that say a measure (plants that "stay under 30cm", a walk that "takes less than an hour"): said
right before a comparison they are its words, not a search term. Grammar, no KB's words."""

_DECADE_WORDS = {w: 10 * (k + 2) for k, w in enumerate(
    "twenties thirties forties fifties sixties seventies eighties nineties".split())}
_DECADE = re.compile(r"(?:\b(?:in|from|of|during)\s+)?(?:\bthe\s+)?(?:\b(early|mid|late)[- ])?"
                     r"(?:\b(1[0-9]|20)(\d)0'?s\b|(?<![\w])'?(\d)0'?s\b|\b(" + "|".join(_DECADE_WORDS) + r")\b)")
"""A decade (its part, "the late sixties", is read as the whole decade)."""


def decades(text: str, columns: dict[str, list[str]], ranges: dict[str, tuple[float, float]] | None
            ) -> list[Comparison]:
    """`from the fifties`, `the 90s`, `1970s`: the ten years of a decade on the one numeric column whose values
    reach into them (a year column), two inclusive bounds. A decade said without its century ("the 90s") is the
    century whose years exactly one column spans; when both or none are, it is left alone."""
    found = []
    for m in _DECADE.finditer(text.lower()):
        _part, century, digit, short, word = m.groups()
        if century:
            starts = [int(century) * 100 + int(digit) * 10]
        else:
            tens = int(short) * 10 if short else _DECADE_WORDS[word]
            starts = [1900 + tens, 2000 + tens]
        chosen = [(y, n) for y in starts for n in columns
                  if n in (ranges or {}) and ranges[n][0] <= y + 9 and y <= ranges[n][1]]
        if len(chosen) != 1:
            continue
        (year, column), score = chosen[0], RANGE_SCORE
        words = m.group(0).strip()
        found.append(Comparison(column, ">=", year, words, score, m.start(), m.end()))
        found.append(Comparison(column, "<=", year + 9, words, score, m.start(), m.end()))
    return found


_BETWEEN = re.compile(r"(?:\b([a-z]+)\s+)?(?:\b(between|from)\s+)?(?<![\w.])(\$\s*)?(\d+(?:\.\d+)?)\s*(\$)?(?:\s*([a-z]+))?\s*"
                      r"(?:and|to|-)\s*(\$\s*)?(\d+(?:\.\d+)?)\s*(\$)?(?:\s*([a-z]+))?(?:\s+([a-z]+))?")


def between(low: str, columns: dict[str, list[str]], embedder: Any,
            ranges: dict[str, tuple[float, float]] | None) -> list[Comparison]:
    """`between 10 and 20 dollars`, `from $10 to $20`, `5-10 km long`: a lower and an upper bound on one column
    (two comparisons, both inclusive), the column named by the unit words around them."""
    found = []
    for m in _BETWEEN.finditer(low):
        before, lead, d1, a, d2, unit1, d3, b, d4, unit2, after = m.groups()
        lo, hi = sorted((_number(a), _number(b)))
        money = bool(d1 or d2 or d3 or d4)
        if lead is None and not (money or unit1 or unit2):
            continue  # "5-10" alone may be a code or a score; with "between", a unit or a currency it is a range
        candidates = [_MONEY] if money else []
        candidates += [w for w in (unit2, unit1, after, before) if w and w not in STOPWORDS and w not in ("or", "and")]
        chosen = _measured((unit2, unit1, after), candidates, columns, embedder) or \
            choose_column(candidates, columns, embedder) or (by_range(hi, columns, ranges, reach=1.0) if lead else None)
        if chosen:
            start, end = _start(m, before, chosen[0], columns, embedder), m.end()
            words = low[start:end].strip()
            lo, hi = (converted(v, (unit2, unit1, after), columns[chosen[0]]) for v in (lo, hi))
            found.append(Comparison(chosen[0], ">=", lo, words, chosen[1], start, end))
            found.append(Comparison(chosen[0], "<=", hi, words, chosen[1], start, end))
    return found


def _start(m: re.Match[str], before: str | None, column: str, columns: dict[str, list[str]], embedder: Any) -> int:
    """Where a comparison's words begin: at the word before it only when that word names the column ("rated 4.5
    or higher"); "tours under 20 euros" leaves "tours" to name rows, "loops under 5 km" a yes/no column."""
    if before and before not in STOPWORDS and choose_column([before], {column: columns[column]}, embedder):
        return m.start()
    return m.start() + len(before) + (len(m.group(0)) - len(m.group(0).lstrip())) if before else m.start()


def _units(before: str | None, phrase: str, dollar: str | None, after: str | None, after2: str | None) -> list[str]:
    words = []
    if dollar or phrase in ("cheaper than", "pricier than", "costlier than") or after in MONEY_WORDS:
        words.append(_MONEY)  # "under 10 quid"
    for w in (after, before, after2):
        if w and w not in STOPWORDS and w not in ("or", "and"):
            words.append(w)
    return words


MONEY_SLANG = {"tenner": 10, "fiver": 5, "grand": 1000}
"""Money said in words ("under a tenner"): English, no KB's words."""
_SLANG = "|".join(MONEY_SLANG)
MONEY_WORDS = frozenset("dollars dollar bucks buck quid pounds pound euros euro".split())
MINOR_MONEY = frozenset("cents cent pence penny pennies".split())
_MONEY_TEXT = frozenset("price prices cost costs fee fees charge charges tariff rate rates dollars pounds euros "
                        "usd gbp eur pence cents deposit deposits value worth budget fare fares rent salary wage"
                        .split())
_MONEY_SENSES = {"worth": "value"}
"""Words of money that name a column by another word: what a thing is worth is its value."""
_PRICE_VERBS = frozenset("charge charges charging charged cost costs costing priced pay paying spend spending".split())
"""Verbs that say money changes hands: they say the comparison is of money, not which money column."""
"""Words of a column's name or description that say it holds money ("Price per hour in pounds", "hourly_rate")."""


def money_columns(columns: dict[str, list[str]]) -> dict[str, list[str]]:
    """The numeric columns that hold money: a money word in the name ("hourly_rate", "deposit"), or a currency in
    the description ("in pounds", "£"); not "The largest home the price covers, in bedrooms"."""
    def words(text: str) -> set[str]:
        return set(re.split(r"[^a-z]+", text.lower()))
    return {n: t for n, t in columns.items() if words(t[0]) & _MONEY_TEXT or any(
        words(x) & _CURRENCY_WORDS or _CURRENCY_SIGN.search(x) for x in t[1:])}


_CURRENCY_WORDS = frozenset("dollars dollar pounds pound euros euro pence cents usd gbp eur".split())
_CURRENCY_SIGN = re.compile(r"[£$€¥]")


def _money_column(said: list[str], columns: dict[str, list[str]], embedder: Any, less: bool | None,
                  earlier: list[str] = ()) -> tuple[str, float] | None:
    """With money said ("under £30 an hour", "less than 10 cents a word", "worth over 200 pounds"), the column
    is one that holds money: the only one, or the one the words next to it name ("hour": the hourly rate, "worth":
    the value), or failing those one a word earlier in the clause names by its stem ("the deposit is less than
    200 pounds"). None when no column says it holds money, or the words cannot tell two apart (the caller goes on)."""
    pool = money_columns(columns)
    if len(pool) == 1:
        return next(iter(pool)), 1.0
    if not pool:
        return None
    said = [_MONEY_SENSES.get(w, w) for w in said]
    named = _most_named(said + list(earlier), pool)
    if named:  # "a non-member price under £15": the column whose name has the most of the words said
        return named, 1.0
    chosen = choose_column(said, pool, embedder, less) if said else None
    if chosen is None and earlier:
        chosen = choose_column([_MONEY_SENSES.get(w, w) for w in earlier], pool, None, less)
    if chosen is not None or not said:
        return chosen
    if chosen is None and embedder is not None:  # "worth": the value (0.40), not the fee (0.24); among money
        ranked = _ranked(" ".join(said), pool, embedder)  # columns alone, a smaller lead tells them apart
        if ranked[0][0] >= ADJECTIVE_MIN and ranked[0][0] - ranked[1][0] >= COLUMN_MARGIN:
            chosen = ranked[0][1], round(ranked[0][0], 3)
    return chosen


def _most_named(words: list[str], pool: dict[str, list[str]]) -> str | None:
    """The one column whose name has more of the words (two words said together count twice: "non member" for
    `nonmember`) than any other, by stem; None on a tie or when no word is in a name."""
    ones, twos = {stem(w) for w in words}, {stem(a + b) for a, b in zip(words, words[1:])}
    scores = {}
    for n in pool:
        parts = {stem(p) for p in re.split(r"[^a-z0-9]+", n.lower()) if p}
        scores[n] = len(ones & parts) + 2 * len(twos & parts)  # "non member" said as one name word: two words
    best = max(scores.values(), default=0)
    top = [n for n, v in scores.items() if v == best]
    return top[0] if best and len(top) == 1 else None


def _clause_before(low: str, start: int, most: int) -> list[str]:
    """Up to `most` content words right before `start` in the same clause (no stopwords, numbers or marks)."""
    clause = re.split(r"[,;.!?]|\b(?:and|but|or)\b", low[:start])[-1]
    return [w for w in re.findall(r"[a-z]+", clause) if w not in STOPWORDS and w not in _PRICE_VERBS][-most:]


def _in_column_money(value: float | int, minor: bool, texts: list[str], span: tuple[float, float] | None
                     ) -> float | int:
    """Money in the column's own unit: cents or pence said against a column kept in dollars or pounds ("10 cents
    a word" on a rate of 0.08) are hundredths, when the column says a major currency or its values all lie below
    the number said; pounds or dollars said against a column kept in pence or cents ("cakes under £20" on
    `price_pence`) are hundreds."""
    words = set(re.split(r"[^a-z]+", " ".join(texts).lower()))
    if minor and not words & MINOR_MONEY and (words & MONEY_WORDS or (span is not None and span[1] < value)):
        return round(value / 100, 4)
    if not minor and words & MINOR_MONEY:
        return value * 100
    return value


def _number(text: str) -> float | int:
    if text in ("a", "an"):  # "within a week", "less than an hour"
        return 1
    if text.split()[-1] in MONEY_SLANG:
        return MONEY_SLANG[text.split()[-1]]
    return float(text) if "." in text else int(text)


UNITS = {  # unit word -> (family, size in the family's smallest unit): English measures, no KB's words
    **{w: ("time", n) for n, ws in ((1 / 60, "second seconds sec secs"), (1, "minute minutes min mins"),
                                     (60, "hour hours hr hrs"), (1440, "day days"), (10080, "week weeks"),
                                     (43800, "month months"), (525600, "year years yr yrs")) for w in ws.split()},
    **{w: ("length", n) for n, ws in ((0.01, "cm centimetre centimetres centimeter centimeters"),
                                       (0.3048, "ft foot feet"), (1, "m metre metres meter meters"),
                                       (1000, "km kilometre kilometres kilometer kilometers"),
                                       (1609.344, "mile miles mi")) for w in ws.split()},
}
_UNIT_ALT = "|".join(sorted(UNITS, key=len, reverse=True))
_UNIT_WORD = "(?:" + _UNIT_ALT + r")\b"


def _column_unit(texts: list[str]) -> tuple[str, float] | None:
    """The unit a column holds: the first unit word of its name or description that is not a rate ("per hour")."""
    for t in texts:
        words = re.split(r"[^a-z]+", t.lower())
        for k, w in enumerate(words):
            if w in UNITS and (k == 0 or words[k - 1] != "per") and not (k == 0 and w == "min"):  # min_players
                return UNITS[w]
    return None


def _measured(said: tuple[str | None, ...], candidates: list[str], columns: dict[str, list[str]], embedder: Any,
              less: bool | None = None) -> tuple[str, float] | None:
    """With a unit said ("12 feet", "an hour"), the column among those measured in that kind of unit: the one
    there is, or the one the other words name. None when no column holds such a unit."""
    unit = next((UNITS[w] for w in said if w in UNITS), None)
    if unit is None:
        return None
    measured = {n: t for n, t in columns.items() if (_column_unit(t) or ("", 0))[0] == unit[0]}
    if len(measured) == 1:
        return next(iter(measured)), 1.0
    return choose_column(candidates, measured, embedder, less) if measured else None


def converted(value: float | int, said: tuple[str | None, ...], texts: list[str]) -> float | int:
    """The number in the column's own unit: "2 years" on a column of months is 24, "an hour" on minutes 60,
    "3 miles" on kilometres 4.83. The column's unit is the first unit word of its name or description;
    without one on either side, or of another kind, the number is kept."""
    unit = next((UNITS[w] for w in said if w in UNITS), None)
    own = _column_unit(texts)
    if unit is None or own is None or unit[0] != own[0] or unit == own:
        return value
    out = value * unit[1] / own[1]
    return int(round(out)) if abs(out - round(out)) < 1e-9 else round(out, 2)


_NAMED_SUPERLATIVE = re.compile(r"\b(lowest|highest|smallest|largest|biggest|greatest|fewest|least|most|longest|"
                                r"shortest)\s+([a-z0-9]+(?:[- ][a-z0-9]+){0,2})")
_LOW_WORDS = frozenset("lowest smallest fewest least shortest".split())


def _among_name_words(said: list[str], column: str) -> bool:
    """Every said word (singular or plural) is a word of the column's name, and not a stopword."""
    name = {w.rstrip("s") for w in re.split(r"[^a-z0-9]+", column.lower()) if w}
    return bool(said) and all(w not in STOPWORDS and w.rstrip("s") in name for w in said)


def superlatives(text: str, columns: dict[str, list[str]], embedder: Any, taken: list[tuple[int, int]]) -> list[Ordering]:
    """`cheapest` -> price ASC; `best rated` -> rating DESC; `most reviews` -> the review count DESC."""
    low = text.lower()
    found: list[Ordering] = []
    spans = list(taken)
    for m in _NAMED_SUPERLATIVE.finditer(low):  # "the lowest call-out fee": the column its name's words name
        if any(s < m.end() and m.start() < e for s, e in spans):
            continue
        words = re.split(r"[- ]+", m.group(2))
        for k in range(len(words), 0, -1):
            said = "".join(words[:k])
            named = [n for n in columns if re.sub(r"[^a-z0-9]", "", n.lower()) in (said, said.rstrip("s"))]
            if not named:  # "the longest wait" for typical_wait_weeks: the words are among the name's words
                named = [n for n in columns if _among_name_words(words[:k], n)]
            if len(named) == 1:
                end = m.start(2) + len(m.group(2).split(words[k - 1], 1)[0]) + len(words[k - 1])
                direction = "ASC" if m.group(1) in _LOW_WORDS else "DESC"
                found.append(Ordering(named[0], direction, low[m.start():end], 1.0, m.start(), end))
                spans.append((m.start(), end))
                break
    for pattern, direction, concept in SUPERLATIVES:
        for m in re.finditer(pattern, low):
            if any(s < m.end() and m.start() < e for s, e in spans):
                continue
            words = [concept] if concept else [m.group(1)]
            if not concept and m.group(1) in STOPWORDS:
                continue
            chosen = choose_column(words, columns, embedder)
            if chosen and all(o.column != chosen[0] for o in found):
                found.append(Ordering(chosen[0], direction, m.group(0), chosen[1], m.start(), m.end()))
                spans.append((m.start(), m.end()))
    for m in re.finditer(r"\b[a-z]{3,}est\b", low):  # "longest", "shortest", "widest": the adjective's column
        base = _adjective(m.group(0))
        if base is None or base in STOPWORDS or any(s < m.end() and m.start() < e for s, e in spans):
            continue
        chosen = _adjective_column(m.group(0), base, columns, embedder)
        if chosen and all(o.column != chosen[0] for o in found):
            direction = "ASC" if base in LOW_END else "DESC"
            found.append(Ordering(chosen[0], direction, m.group(0), chosen[1], m.start(), m.end()))
            spans.append((m.start(), m.end()))
    return found


LOW_END = frozenset("short small little low few light near close young early slow quick fast thin narrow shallow "
                    "tiny mild weak soft easy brief quiet".split())
"""Scale adjectives whose superlative asks for the smallest value (English grammar, no KB's words): the
column's meaning comes from the embedder, the direction from here; any other adjective asks for the largest."""


def _adjective(word: str) -> str | None:
    """The adjective of a superlative: longest -> long, biggest -> big, heaviest -> heavy, largest -> large,
    widest -> wide, safest -> safe."""
    stem_ = word[:-3]
    if stem_.endswith("i"):
        return stem_[:-1] + "y"
    if len(stem_) >= 3 and stem_[-1] == stem_[-2] and stem_[-1] not in "aeiouls":
        return stem_[:-1]
    if len(stem_) < 3:
        return None
    return stem_ + "e" if stem_.endswith(("rg", "os", "at", "in", "ur", "ud", "ar", "av", "id", "af", "ic")) else stem_


_TIME_UNITS = (("minute", 1), ("hour", 60), ("day", 1440), ("week", 10080), ("month", 43800), ("year", 525600))
_WORD_OF = {int(n): w for w, n in _NUMBER_WORDS.items()} | {1: "one"}


def durations(words: list[str]) -> list[tuple[int, list[str]]]:
    """A length of time said as a number and a unit ("two weeks", "48 hours") among a question's words: (the
    number's index, the same length as phrases in each unit that holds it whole, from 1 to 100: "two weeks", "2
    weeks", "14 days", "fortnight"), so a text saying it in another unit is found. English units only."""
    out = []
    for i in range(len(words) - 1):
        n = words[i]
        n = int(n) if n.isdigit() and len(n) <= 3 else int(_NUMBER_WORDS[n]) if n in _NUMBER_WORDS else None
        unit = UNITS.get(words[i + 1])
        if not n or unit is None or unit[0] != "time":
            continue
        minutes = n * unit[1]
        said = [f"{words[i]} {words[i + 1]}"]
        for name, size in _TIME_UNITS:
            k = minutes / size
            if k == int(k) and 1 <= k <= 100 and (size >= 43800) == (unit[1] >= 43800):  # months are no whole weeks
                k = int(k)
                plural = name if k == 1 else name + "s"
                said += [f"{k} {plural}"] + ([f"{_WORD_OF[k]} {plural}"] if k in _WORD_OF else [])
        if minutes == 20160:
            said.append("fortnight")
        out.append((i, list(dict.fromkeys(said))))
    return out


_MEASURED_AT = re.compile(rf"(?<![\w$.,:/-])(\d{{1,4}}(?:\.\d+)?)[- ]?({_UNIT_ALT})\b(?!\s+old\b)(?:[- ]([a-z]+))?")


_LASTING = frozenset("last lasts run runs take takes".split())
"""Verbs that say how long a row is ("rooms that last 90 minutes"); "stay 4 hours" asks for room to stay, not =."""


def measured(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]]) -> list[Comparison]:
    """ "rooms that last 90 minutes", "a 24 month warranty": a number with its unit is the value of the column
    measured in that kind of unit, an equality, when a verb of measuring comes right before it or a word of the
    column's name right after it (so "in 2 hours" or "my 5 year old" stay no condition)."""
    found = []
    low = text.lower()
    for m in _MEASURED_AT.finditer(low):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        unit = UNITS[m.group(2)]
        pool = {n: t for n, t in columns.items() if (_column_unit(t) or ("", 0))[0] == unit[0]}
        same = {n: t for n, t in pool.items() if _column_unit(t) == unit}
        pool = same if len(same) == 1 and len(pool) > 1 else pool  # "last 120 minutes": the column in minutes
        verb = re.search(r"([a-z]+)\s+$", low[:m.start()])
        after = m.group(3)
        named = [n for n in pool if after and after not in STOPWORDS and _among_name_words([after], n)]
        end = m.end() if named else m.end(2)
        if len(named) != 1:
            named = list(pool) if len(pool) == 1 and verb and verb.group(1) in _LASTING else []
        if len(named) == 1:
            value = converted(_number(m.group(1)), (m.group(2),), columns[named[0]])
            found.append(Comparison(named[0], "=", value, low[m.start():end], 1.0, m.start(), end))
    return found


_AGE = re.compile(r"\b(?:aged?\s+(?P<a>\d{1,2})|(?P<b>\d{1,2})[- ]?(?:years?|yrs?)[- ]olds?|(?P<c>\d{1,2})\s*(?:yo|y/o)"
                  r"|(?:over|under)\s+(?P<d>\d{1,2})s)\b")
_LOW_AGE = frozenset("min minimum from youngest lowest".split())
_HIGH_AGE = frozenset("max maximum to oldest highest upper".split())


def ages(text: str, taken: list[tuple[int, int]], columns: dict[str, list[str]]) -> list[Comparison]:
    """ "my 5 year old", "aged 7", "a 4yo", "over 16s": a person's age against the table's age columns. A row fits
    when its youngest allowed age is at most the age and its oldest at least it; the columns are the numeric ones
    whose name has the word "age", told apart by min/max (or youngest/oldest in the description). "over 16s" is
    16 and up: the youngest allowed age at least 16."""
    aged = {n: t for n, t in columns.items() if "age" in re.split(r"[^a-z]+", n.lower())}
    low = [n for n, t in aged.items() if set(re.split(r"[^a-z]+", " ".join(t).lower())) & _LOW_AGE]
    high = [n for n, t in aged.items() if set(re.split(r"[^a-z]+", " ".join(t).lower())) & _HIGH_AGE and n not in low]
    if len(low) > 1 or len(high) > 1 or not (low or high):
        return []
    found = []
    for m in _AGE.finditer(text.lower()):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        years = int(next(g for g in m.group("a", "b", "c", "d") if g))
        if m.group("d"):  # "for over 16s": rows for 16 and up; "for under 5s": rows a 4 year old can join
            if low:
                op = ">=" if "over" in m.group(0) else "<"
                found.append(Comparison(low[0], op, converted(years, ("years",), aged[low[0]]), m.group(0), 1.0,
                                        m.start(), m.end()))
            continue
        if low:
            found.append(Comparison(low[0], "<=", converted(years, ("years",), aged[low[0]]), m.group(0), 1.0,
                                    m.start(), m.end()))
        if high:
            found.append(Comparison(high[0], ">=", converted(years, ("years",), aged[high[0]]), m.group(0), 1.0,
                                    m.start(), m.end()))
    return found
