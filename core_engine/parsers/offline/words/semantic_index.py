"""The spec's words by meaning: one embedding index per spec version, shared by every session.

The offline parser's lexical rules only see words the developer wrote. This index lets it
read the user's own words ("my IB scores never showed up") against the spec's texts by
meaning: task worksheets (name, description, examples), enum values (value, description,
examples), fields (name, description, examples) and a few built-in conversation-control
intents that every agent has with no spec work (cancel, start over).

Each entry keeps the best score of its texts. A decision is taken only when the best entry
clears a threshold AND beats the runner-up by a margin; otherwise the caller asks instead
of guessing. Every ranking returns the runner-up so the trace can show both.

Thresholds were calibrated with `bench/calibrate_semantic.py` on
`tests/data/semantic_calibration.json` (utterances labelled with the entry they mean, or
with none): the sweep's pair with no wrong reading and the most right ones, with the enum
and control margins kept a step more cautious than the sweep's optimum on so few items
(bench/results/semantic_calibration.json; docs/offline_parser.md has the figures).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ....embedding.semantic import Embedder, get_embedder
from ....spec.model import Spec, snake_case

TASK_THRESHOLD = 0.475
"""Least cosine for a task worksheet or an enum value to be read from a description."""
TASK_MARGIN = 0.10
"""Least lead over the runner-up (a different reading) for the task reading to be taken."""
ENUM_THRESHOLD = 0.35
"""Least cosine for an answer to an enum question to be read as one of its values."""
ENUM_MARGIN = 0.08
FIELD_DOUBT = 0.20
"""Below this, a long answer to a short text field is not read as its value (not calibrated: set
below the 0.45-0.66 of right answers seen on the held-out agents and above unrelated text's 0.05-0.15)."""
ONE_WORD_DOUBT = 0.05
"""An option chosen by one word of its description is not taken when the whole answer means another option
by at least this much more ("book it for Saturday": "book" is a word of "call off a hire that is already
booked", but the turn means the other option). Not calibrated: a small lead, since the word alone is weak."""
CONTROL_THRESHOLD = 0.45
"""Least cosine for a short turn to be read as conversation control."""
CONTROL_MARGIN = 0.05

CONTROL_PHRASES: dict[str, tuple[str, ...]] = {
    "cancel": ("cancel", "cancel this", "stop", "never mind", "forget it", "forget about it", "quit",
               "I don't want to do this anymore", "I changed my mind, I don't want it", "abort",
               "let's not do this", "drop it"),
    "restart": ("start over", "let's start again", "restart", "begin again from scratch", "reset everything"),
}
"""Built-in intents every agent understands (DESIGN: conversation control needs no spec work)."""


@dataclass(frozen=True)
class Entry:
    """One thing the user may mean: kind is task | enum | field | control."""

    kind: str
    worksheet: str = ""
    field: str = ""
    value: str = ""

    @property
    def label(self) -> str:
        if self.kind == "task":
            return self.worksheet
        if self.kind == "enum":
            return f"{self.worksheet}.{self.field} = {self.value!r}"
        if self.kind == "field":
            return f"{self.worksheet}.{self.field}"
        return self.value


@dataclass(frozen=True)
class Ranked:
    """The best entry and the runner-up, with their scores and the texts that matched."""

    best: Entry | None
    score: float
    text: str
    runner_up: Entry | None
    runner_score: float

    def decided(self, threshold: float, margin: float) -> bool:
        return self.best is not None and self.score >= threshold and self.score - self.runner_score >= margin

    def trace(self) -> dict[str, Any]:
        """What a trace entry records about this decision."""
        return {"score": round(self.score, 3), "via": self.text,
                "runner_up": self.runner_up.label if self.runner_up else None,
                "runner_up_score": round(self.runner_score, 3)}


def meaning_prefers_other(index: "SemanticIndex", f: Any, value: str, text: str) -> dict[str, Any] | None:
    """The option of enum field `f` that `text` means, when it is not `value` (chosen by one word) and leads
    it by ONE_WORD_DOUBT; None when the meaning agrees, is too close to call, or there is no model."""
    if index.matrix is None or index.fallback_reason:
        return None
    names = set(f.enum_names)

    def keep(e: Entry) -> bool:
        return e.kind == "enum" and e.field == f.name and e.value in names

    ranked = index.rank(text, keep, same=lambda a, b: a.value == b.value)
    if ranked.best is None or ranked.best.value == value:
        return None
    mine = index.rank(text, lambda e: keep(e) and e.value == value)
    if ranked.score - mine.score < ONE_WORD_DOUBT:
        return None
    return {"reading": ranked.best.value, "score": round(ranked.score, 3), "via": ranked.text,
            "one_word_option": value, "one_word_option_score": round(mine.score, 3)}


def words_of(name: str) -> str:
    """ "BookRestaurant" / "book_restaurant" -> "book restaurant"."""
    return snake_case(name).replace("_", " ").strip()


MAX_INDEX_TEXTS = 4_000
"""Most spec texts embedded for one spec version. The largest agent in the tests has 300; a spec past
this budget (a generated or hostile one: 10,000 fields are about 25,000 texts, 40 s of one core) is read
with lexical matching only, and the trace says so, instead of stalling the first turn."""


class SemanticIndex:
    """The embedded texts of one spec version."""

    def __init__(self, spec: Spec, embedder: Embedder) -> None:
        self.embedder = embedder
        self.entries: list[Entry] = []
        self.texts: list[str] = []
        self.over_budget: str | None = None
        for entry, text in _spec_texts(spec):
            self.entries.append(entry)
            self.texts.append(text)
        if len(self.texts) > MAX_INDEX_TEXTS:
            self.over_budget = (f"the spec has {len(self.texts):,} texts to embed, over the budget of "
                                f"{MAX_INDEX_TEXTS:,}: lexical matching only")
            self.entries, self.texts = [], []
        self.matrix = embedder.encode(self.texts) if self.texts else None
        self.verbatim = [_verbatim(t) for t in self.texts]  # the texts as `said_verbatim` compares them, once

    @property
    def fallback_reason(self) -> str | None:
        return self.over_budget or self.embedder.fallback_reason

    def rank(self, text: str, keep: Callable[[Entry], bool], *, same: Callable[[Entry, Entry], bool] | None = None
             ) -> Ranked:
        """The entries `keep` allows, best first by their best text; the runner-up is the best entry that is
        not the same reading (`same`, default: equal entries)."""
        if self.matrix is None or not text.strip():
            return Ranked(None, 0.0, "", None, 0.0)
        return self._rank(self.embedder.encode([text])[0], keep, same)

    def rank_parts(self, parts: list[str], keep: Callable[[Entry], bool], *,
                   same: Callable[[Entry, Entry], bool] | None = None) -> Ranked:
        """The best ranking over several pieces of one turn (the whole turn and its clauses), embedded in
        one batch: a long turn that also gives a name, a date and a phone number is not diluted."""
        parts = [p for p in dict.fromkeys(p.strip() for p in parts) if p]
        if self.matrix is None or not parts:
            return Ranked(None, 0.0, "", None, 0.0)
        vectors = self.embedder.encode(parts)
        return max((self._rank(v, keep, same) for v in vectors), key=lambda r: r.score)

    def rank_each(self, parts: list[str], keep: Callable[[Entry], bool], *,
                  same: Callable[[Entry, Entry], bool] | None = None) -> list[Ranked]:
        """The ranking of each piece (embedded in one batch), in the order given."""
        if self.matrix is None or not parts:
            return [Ranked(None, 0.0, "", None, 0.0) for _ in parts]
        return [self._rank(v, keep, same) for v in self.embedder.encode(parts)]

    def said_verbatim(self, text: str, keep: Callable[[Entry], bool], *,
                      same: Callable[[Entry, Entry], bool] | None = None) -> Ranked | None:
        """The one reading whose developer's example the turn says word for word ("I want to buy a hive"), which
        no score of meaning overrules (the turn's KB words are left out before ranking, the example keeps them)."""
        said = _verbatim(text)
        if len(said.split()) < 3:
            return None  # "a hive", "yes please": too short to be a taught request
        found = [e for e, t in zip(self.entries, self.verbatim) if keep(e) and t == said]
        same = same or (lambda a, b: a == b)
        if not found or any(not same(found[0], e) for e in found[1:]):
            return None
        return Ranked(found[0], 1.0, said, None, 0.0)

    def _rank(self, vec: Any, keep: Callable[[Entry], bool], same: Callable[[Entry, Entry], bool] | None) -> Ranked:
        sims = self.matrix @ vec
        best: dict[Entry, tuple[float, str]] = {}
        for i, entry in enumerate(self.entries):
            if not keep(entry):
                continue
            score = float(sims[i])
            if entry not in best or score > best[entry][0]:
                best[entry] = (score, self.texts[i])
        ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
        if not ranked:
            return Ranked(None, 0.0, "", None, 0.0)
        top, (score, via) = ranked[0]
        same = same or (lambda a, b: a == b)
        runner = next(((e, s) for e, (s, _t) in ranked[1:] if not same(top, e)), (None, 0.0))
        return Ranked(top, score, via, runner[0], runner[1])


def _spec_texts(spec: Spec) -> Iterable[tuple[Entry, str]]:
    for ws in spec.worksheets:
        if ws.kind != "task":
            continue
        task = Entry("task", ws.name)
        yield task, words_of(ws.name)
        if ws.description.strip():
            yield task, ws.description.strip()
        for ex in ws.examples:
            yield task, ex
        for f in ws.fields:
            if f.kind != "input":
                continue
            fe = Entry("field", ws.name, f.name)
            yield fe, words_of(f.name)
            if f.description.strip():
                yield fe, f.description.strip()
            for ex in f.examples:
                yield fe, ex
            for ev in f.enum_values:
                ee = Entry("enum", ws.name, f.name, ev.value)
                yield ee, ev.value
                if ev.description.strip():
                    yield ee, f"{ev.value}: {ev.description.strip()}"
                for ex in ev.examples:
                    yield ee, ex
    for intent, phrases in CONTROL_PHRASES.items():
        for p in phrases:
            yield Entry("control", value=intent), p


_INDEXES: OrderedDict[str, SemanticIndex] = OrderedDict()
_LOCK = threading.Lock()
_KEEP = 32  # spec versions kept (each is a few hundred vectors)


def index_for(spec: Spec) -> SemanticIndex:
    """The index of this spec version: built once from the spec's texts and model, then shared.

    The key is a hash of the texts themselves, so an edited description or a new example is used
    on the next turn (no restart), and unchanged texts reuse the embedder's vector cache.
    """
    embedder = get_embedder(spec.settings.embedding_model)
    pairs = list(_spec_texts(spec))
    digest = hashlib.sha1(repr((id(embedder), [(e.kind, e.worksheet, e.field, e.value, t) for e, t in pairs]))
                          .encode()).hexdigest()
    with _LOCK:
        found = _INDEXES.get(digest)
        if found is not None:
            _INDEXES.move_to_end(digest)
            return found
    index = SemanticIndex(spec, embedder)
    from .libvalues import warm_up

    warm_up()  # the other lazy library of the offline parser, once per process
    with _LOCK:
        _INDEXES[digest] = index
        while len(_INDEXES) > _KEEP:
            _INDEXES.popitem(last=False)
    return index


_FILLER = re.compile(r"^(?:(?:hi|hello|hey|ok(?:ay)?|so|well|um+|uh+|yeah|yes|please|sorry)\b[\s,.!]*)+", re.I)


def clean(text: str) -> str:
    """The turn without a leading greeting or filler, which carry no meaning for the index."""
    return _FILLER.sub("", text).strip() or text.strip()


def _verbatim(text: str) -> str:
    """Words as typed, for a word-for-word match: lower case, no punctuation, no greeting, no "please" at the end."""
    words = re.sub(r"[^\w\s']+", " ", clean(text).lower()).split()
    while words and words[-1] in ("please", "pls", "thanks", "thank", "you", "thx", "ta"):
        words.pop()
    return " ".join(words)
