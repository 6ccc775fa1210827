"""Word matching for the offline parser: the user's words against the spec's own words.

The offline parser knows no domain. It matches what the user says against
what the developer wrote: enum values, their descriptions, field names and
field descriptions, with light stemming and a small table of everyday
synonyms ("AP" -> Advanced Placement, "can't find" -> missing). It also reads
predicates (`self.student_task == "External Test Credits"`) by walking their
AST over hypothetical values, so it only fills nested fields a predicate
would let the agent ask; nothing here is ever executed.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ....spec.model import Field
from ....spec.syntax import parse_python

STOPWORDS = frozenset("""
a an the and or but if of to in on at for with from by about as into than then so very too also just
i me my mine we us our you your yours he she it its they them their this that these those there here
is am are was were be been being do does did doing have has had having will would shall should can could
may might must not no nor only own same such what which who whom whose when where why how all any both
each few more most other some again further once up down out off over under please thanks thank
hi hello hey want wants wanted like need needs get got help let lets let's know think tell give make
something anything someone somebody one ones thing things really actually just still already now
able im i'm i've i'd dont don't cant can't cannot wanna gonna gotta
""".split())
"""Words that never decide a match on their own."""

HEDGES = frozenset({"around", "about", "roughly", "approximately", "approx", "circa", "ish", "maybe", "perhaps",
                    "probably", "like", "say", "um", "uh", "hmm", "ok", "okay", "well", "so"})
"""Words that soften a value ("around 6"); left alone they name no task and search for nothing."""


GENERIC = frozenset({"details", "detail", "info", "information", "specific", "type", "kind", "value",
                     "field", "number", "num", "name", "answer", "question", "issue", "issues", "user",
                     "student", "customer", "the", "of", "desired", "whether", "any", "want", "wants"})
"""Field-name words too common to say which field the user means."""

SYNONYMS: dict[str, tuple[str, ...]] = {
    **{phrase: ("missing", "not posted") for phrase in (
        "cannot find", "can't find", "cant find", "can not find", "couldn't find", "unable to find",
        "not able to find", "can't see", "cannot see", "not able to see", "not able to view", "unable to see",
        "unable to view", "don't see", "do not see", "not showing", "isn't showing", "aren't showing",
        "not there", "disappeared", "not on my", "not in my", "missing")},
    "transcript": ("record",), "wrong": ("incorrect",), "mistake": ("incorrect",),
    "units": ("unit",), "credits": ("credit",), "reservation": ("book",), "reserve": ("book",),
    "enroll": ("enrollment", "add"), "register": ("enrollment", "add"), "sign up": ("add",),
    "withdraw": ("drop",), "remove": ("drop",), "swap": ("change",), "switch": ("change",),
    "wait list": ("waitlist",), "waiting list": ("waitlist",),
    "time off": ("leave", "absence"), "take a break": ("leave", "absence"), "loa": ("leave", "absence"),
    "emailed": ("email",), "e-mail": ("email",), "mailed": ("email",),
    "staff member": ("staff",), "advisor": ("staff",), "form": ("form",),
    "pass fail": ("credit",), "letter grade": ("letter",),
    "guests": ("people",), "persons": ("people",), "person": ("people",), "party": ("people",),
}

_WORD_RE = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@functools.lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A crude, predictable stem: plural and verb endings off ("courses" -> "cours", "dropping" -> "drop").
    Cached: a turn stems the same few hundred words of the spec again and again."""
    w = word.lower()
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("es", ""), ("s", ""), ("ing", ""), ("ed", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + repl
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w


def silent_e(stems: set[str]) -> set[str]:
    """Stems without a silent e, so "move" and "moved" (stems "move", "mov") compare equal. Not part of `stem`:
    a stem change moves every rule that compares stems (tried: a net loss on the held-out agents)."""
    return {s[:-1] if len(s) >= 4 and s.endswith("e") and not s.endswith("ee") else s for s in stems}


def same_word(a: str, b: str) -> bool:
    """Equal stems, or one stem a long prefix of the other ("cours"/"course", "enrol"/"enrollment")."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short) and len(long_) - len(short) <= 4


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower().replace("’", "'"))


def content_stems(text: str) -> list[str]:
    """Stems of the words that can decide a match (stop words removed)."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


@dataclass(frozen=True)
class Bag:
    """The user's content words, each stem mapped to the surface words it came from."""

    stems: dict[str, str]
    text: str = ""

    @classmethod
    def of(cls, text: str) -> "Bag":
        low = " " + " ".join(words(text)) + " "
        found: dict[str, str] = {}
        for w in words(text):
            if w not in STOPWORDS:
                found.setdefault(stem(w), w)
            if w in _DIGIT_WORDS:  # "2-bedroom" says the "two" of "Two Bedrooms" (see enum_scores)
                found.setdefault(_DIGIT_WORDS[w], w)
            elif w in _WORD_DIGITS:
                found.setdefault(_WORD_DIGITS[w], w)
                found.setdefault(w, w)  # "one" is a stop word, but the number of "One Room"
        for phrase, extra in SYNONYMS.items():
            if f" {phrase} " in low:
                for e in extra:
                    for w in words(e):
                        if w not in STOPWORDS:
                            found.setdefault(stem(w), phrase)
        return cls(found, text)

    def without(self, stems: Iterable[str]) -> "Bag":
        """The bag minus words already spent (e.g. on the parent's enum value)."""
        spent = list(stems)
        return Bag({s: w for s, w in self.stems.items()
                    if not any(same_word(s, t) for t in spent) and w not in spent}, self.text)

    def hits(self, target: Iterable[str]) -> list[str]:
        """The surface words of the bag that match any of the target stems."""
        out = []
        for t in set(target):
            for s, surface in self.stems.items():
                if same_word(s, t):
                    out.append(surface)
                    break
        return out


_DIGIT_WORDS = {str(n): w for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split()) if n >= 1}
_WORD_DIGITS = {w: d for d, w in _DIGIT_WORDS.items()}
NUMBER_STEMS = frozenset(_DIGIT_WORDS) | frozenset(_WORD_DIGITS)
"""Numbers 1-12 as digits and words: the bag holds both forms, and an enum value's number counts only beside
another word of the value ("a 2 bedroom flat" for Two Bedrooms; "for 2 people" is no Two Bedrooms)."""


def _beside(text: str, numbers: set[str], surfaces: list[str]) -> bool:
    """Whether one of the numbers (either form) is said right next to one of the surface words."""
    if not numbers or not surfaces:
        return False
    forms = numbers | {_DIGIT_WORDS.get(n, _WORD_DIGITS.get(n, n)) for n in numbers}
    tokens = words(text)
    near = {i for i, w in enumerate(tokens) if w in surfaces}
    return any(w in forms and (i - 1 in near or i + 1 in near) for i, w in enumerate(tokens))


def enum_scores(f: Field, bag: Bag) -> list[tuple[int, str, list[str]]]:
    """(score, enum value, matched words) per value: value words count 2, description words 1."""
    out = []
    short = _shortened(f, bag)
    for ev in f.enum_values:
        value_stems = set(content_stems(ev.value)) | {w for w in words(ev.value) if w in NUMBER_STEMS}
        desc_stems = set(content_stems(ev.description)) - value_stems
        others = bag.hits(value_stems - NUMBER_STEMS)
        if not _beside(bag.text, value_stems & NUMBER_STEMS, others):  # a number names an option only beside
            value_stems -= NUMBER_STEMS                               # its other word: "a 2 bedroom flat"
            desc_stems -= NUMBER_STEMS
        v_hits, d_hits = bag.hits(value_stems) + short.get(ev.value, []), bag.hits(desc_stems)
        matched = sorted(set(v_hits) | set(d_hits))
        out.append((2 * len(set(v_hits)) + len(set(d_hits) - set(v_hits)), ev.value, matched))
    out.sort(key=lambda x: -x[0])
    return out


def _shortened(f: Field, bag: Bag) -> dict[str, list[str]]:
    """Words said short for one option's long word ("physio" for Physiotherapy, "econ" for Economics): four letters
    or more that begin that word, and no word of any other option. {option: the surface words}."""
    said = [(s, surface) for s, surface in bag.stems.items() if len(s) >= 4 and s.isalpha() and s not in STOPWORDS]
    if not said:
        return {}
    from ....embedding.semantic import model_words  # late: the embedding package is heavy to import
    english = model_words(None)
    out: dict[str, list[str]] = {}
    for s, surface in said:
        if surface.lower() in english:
            continue  # "post", "home", "water" are words of their own, not Postgraduate, Homeopathy, Watercolour
        owners = {ev.value for ev in f.enum_values for w in words(ev.value)
                  if w.startswith(s) and len(w) - len(s) > 4}
        taken = {ev.value for ev in f.enum_values for w in words(ev.value) if w.startswith(s)} - owners
        if len(owners) == 1 and not taken:
            out.setdefault(owners.pop(), []).append(surface)
    return out


CATCH_ALL = re.compile(r"^\W*(?:others?|anything\s+else|something\s+else|misc(?:ellaneous)?)\b", re.I)
"""An option for whatever the others do not cover ("Other Class Issues", "Others", "Something else"): a vague
opening ("I've got a class issue") names its generic words, never the option itself."""


def best_enum(f: Field, bag: Bag, minimum: int = 2) -> tuple[str, list[str]] | None:
    """The single best-scoring enum value, if it clearly wins.

    A value does not win on words the runner-up also says when the developer's examples teach one of them
    for the runner-up only ("rent" in a value named "... Rental", in another value's description "a rental
    car" and its example "I'd like to rent a car"): the words decide nothing and the reading by meaning
    decides."""
    quoted = _quoted_options(f, bag.text)
    if len(quoted) == 1:  # "a proper clean inside and out": a phrase of its description, said word for word
        return quoted[0]
    scores = enum_scores(f, bag)
    if scores and 0 < scores[0][0] < minimum:  # "small": a value whose whole description is said, alone
        whole = [s for s in scores if s[0] > 0 and _covered(f, s[1], s[2])]
        if len(whole) == 1 and len(whole[0][2]) >= 1 and len([s for s in scores if s[0] > 0]) <= 2:
            return whole[0][1], whole[0][2]
        return _taught_tie(f, [s for s in scores if s[0] == scores[0][0]], bag)
    if not scores or scores[0][0] < minimum:
        return None
    if len(scores) > 1 and scores[1][0] == scores[0][0]:
        tied = [s for s in scores if s[0] == scores[0][0]]
        whole = [s for s in tied if _covered(f, s[1], s[2])]
        return (whole[0][1], whole[0][2]) if len(whole) == 1 else _taught_tie(f, tied, bag)  # "large": L
    if scores[1:] and scores[1][0] > 0 and set(scores[0][2]) <= set(scores[1][2]) and \
            set(_taught(f, scores[1][1], bag)) - set(_taught(f, scores[0][1], bag)):
        return None  # the runner-up says the same words, and its examples use one the winner's do not
    return scores[0][1], scores[0][2]


def _quoted_options(f: Field, text: str) -> list[tuple[str, list[str]]]:
    """The options one of whose description's phrases (three words or more, between commas or colons) the text
    says word for word: "inside and out" of "inside and out: vacuum, windows, dashboard and a hand wash"."""
    said = " " + " ".join(re.findall(r"[a-z0-9']+", text.lower())) + " "
    out = []
    for ev in f.enum_values:
        for chunk in re.split(r"[,:;()]", (ev.description or "").lower()):
            words = re.findall(r"[a-z0-9']+", chunk)
            if len(words) >= 3 and f" {' '.join(words)} " in said:
                out.append((ev.value, words))
                break
    return out


def _taught_tie(f: Field, tied: list[tuple[int, str, list[str]]], bag: Bag) -> tuple[str, list[str]] | None:
    """Options tied on the same words ("missing": "... is missing or delayed" and "... or has something missing"):
    the one whose developer examples use those words ("still missing") while no other tied option's do. Only words of
    the descriptions: a word of the options' own names ("order" of Place Order and Order Status) is not decided so."""
    if len(tied) < 2 or any(set(t[2]) != set(tied[0][2]) for t in tied):
        return None
    named = {s for ev in f.enum_values for s in content_stems(ev.value)}
    if named & set(tied[0][2]):
        return None  # "order" of Place Order and Order Status: the options' own names, which examples do not decide
    taught = [t for t in tied if _taught(f, t[1], bag)]
    return (taught[0][1], taught[0][2]) if len(taught) == 1 else None


def _taught(f: Field, value: str, bag: Bag) -> list[str]:
    """The user's words that the developer's examples of `value` use ("rent" in "I'd like to rent a car")."""
    ev = next(e for e in f.enum_values if e.value == value)
    return bag.hits({s for ex in getattr(ev, "examples", None) or () for s in content_stems(ex)})


def _covered(f: Field, value: str, matched: list[str]) -> bool:
    """Every word of the value's name, or every word of its description, was said."""
    ev = next(e for e in f.enum_values if e.value == value)
    said = set(matched)
    return any(stems and stems <= said for stems in (set(content_stems(ev.value)), set(content_stems(ev.description))))


def _initialisms(value: str) -> set[str]:
    """Short forms of a slash-separated option: "Credit/No Credit" -> {"c/nc", "cr/nc"}, "Pass/Fail" -> {"p/f",
    "pa/fa", ...}: each part by its words' first letters, or a one-word part by its first two letters."""
    parts = [p.split() for p in value.lower().split("/")]
    if len(parts) < 2 or not all(parts):
        return set()
    options = [{"".join(w[0] for w in p)} | ({p[0][:2]} if len(p) == 1 else set()) for p in parts]
    return {"/".join(combo) for combo in itertools.product(*options)}


def initialism_enum(f: Field, text: str) -> str | None:
    """The one option a slashed short form in the text stands for ("cr/nc", "p/f"), else None."""
    said = set(re.findall(r"[a-z]+(?:/[a-z]+)+", text.lower()))
    found = [v for v in f.enum_names if _initialisms(v) & said] if said else []
    return found[0] if len(found) == 1 else None


_CAPITALS_NOT_SHORT = frozenset({"OK", "NO", "AM", "PM", "ID", "TV", "UK", "US", "USA", "EU", "ASAP", "FYI", "LOL",
                                  "BTW", "TBH", "IMO", "OMG", "PS"})


def capital_initialism(f: Field, text: str) -> tuple[str, str] | None:
    """(option, short form) for a capitalised short form the text says of one option of several words ("OW" for
    Open Water, "AOW" for Advanced Open Water), else None. Typed in capitals only: "ow" is a cry."""
    hits: dict[str, set[str]] = {}
    alone = {p.strip(" .!?") for p in re.split(r"[,;]|\band\b", text)}  # "Sam O'Connell, OW, SSI number 774120":
    # said as a piece of its own, not inside a sentence ("my BB is creaking", "flying in from DC")
    for token in {t for t in re.findall(r"\b[A-Z]{2,4}\b", text) if t in alone} - _CAPITALS_NOT_SHORT:
        for value in f.enum_names:
            said = re.findall(r"[A-Za-z]+", value)
            if len(said) >= 2 and "".join(w[0] for w in said).upper() == token:
                hits.setdefault(token, set()).add(value)
    found = [(next(iter(vs)), t) for t, vs in hits.items() if len(vs) == 1]
    return found[0] if len(found) == 1 else None


def field_stems(f: Field, *, with_description: bool = True) -> set[str]:
    """Distinctive stems of a field's name (and description) for "which field is meant"."""
    name = {stem(w) for w in f.name.split("_") if w and w not in GENERIC and not w.isdigit()}
    if "id" in f.name.lower().split("_"):
        name.add(stem("number"))  # student_id is "my student number" as often as "my student ID"
    if not with_description:
        return name
    desc = {s for s in content_stems(f.description) if s not in {stem(g) for g in GENERIC}}
    return name | desc


def field_mention(f: Field, bag: Bag) -> tuple[int, list[str]]:
    """How strongly the user's words name this field: name words 2 each, description words 1."""
    name = field_stems(f, with_description=False)
    desc = field_stems(f) - name
    n_hits, d_hits = bag.hits(name), bag.hits(desc)
    return 2 * len(set(n_hits)) + len(set(d_hits) - set(n_hits)), sorted(set(n_hits) | set(d_hits))


def name_coverage(f: Field, bag: Bag) -> float:
    """The share of a field's distinctive name words the user said (breaks ties between fields)."""
    name = field_stems(f, with_description=False)
    return len(bag.hits(name)) / len(name) if name else 0.0


# ---------------------------------------------------------------- predicates over hypothetical values

class Unknown(Exception):
    """A predicate refers to something the parser cannot know."""


Lookup = Callable[[tuple[str, ...]], Any]


def holds(source: str, lookup: Lookup) -> bool | None:
    """True/False when the predicate can be decided from `lookup`, None when it cannot."""
    if not source.strip():
        return True
    try:
        return bool(_ev(_predicate_tree(source.strip()), lookup))
    except (Unknown, SyntaxError, RecursionError, TypeError):
        return None


@functools.lru_cache(maxsize=2048)
def _predicate_tree(source: str) -> ast.AST:
    """A predicate's expression tree, parsed once per source (spec predicates repeat every turn;
    the tree is only read). A SyntaxError is not cached and is raised again."""
    return parse_python(source, mode="eval").body  # type: ignore[attr-defined]


def _path(node: ast.AST) -> tuple[str, ...]:
    if isinstance(node, ast.Name):
        return (node.id,)
    if isinstance(node, ast.Attribute):
        return _path(node.value) + (node.attr,)
    raise Unknown(type(node).__name__)


def _ev(node: ast.AST, lookup: Lookup) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Name, ast.Attribute)):
        path = _path(node)
        if path in (("True",), ("False",), ("None",)):
            return {"True": True, "False": False, "None": None}[path[0]]
        return lookup(path)
    if isinstance(node, ast.BoolOp):
        values = [_ev(v, lookup) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _ev(node.operand, lookup)
    if isinstance(node, (ast.Tuple, ast.List)):
        return [_ev(e, lookup) for e in node.elts]
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _ev(node.left, lookup), _ev(node.comparators[0], lookup)
        op = node.ops[0]
        if isinstance(op, (ast.Eq, ast.Is)):
            return left == right
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return left != right
        if isinstance(op, ast.In):
            return left in right
        if isinstance(op, ast.NotIn):
            return left not in right
    raise Unknown(type(node).__name__)


def equalities(source: str) -> list[tuple[tuple[str, ...], Any]]:
    """The `name == constant` conjuncts of a predicate: what must be set to make it true."""
    try:
        tree = parse_python(source.strip(), mode="eval").body
    except SyntaxError:
        return []
    parts = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    out = []
    for p in parts:
        if isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], ast.Eq) \
                and isinstance(p.comparators[0], ast.Constant):
            try:
                out.append((_path(p.left), p.comparators[0].value))
            except Unknown:
                continue
    return out
