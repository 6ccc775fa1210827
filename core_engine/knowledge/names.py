"""A row by its name as people type it: partly, in lower case, misspelt ("the little fox sauv blanc",
"how long is the hiden falls path", "tell me about the Barollo").

`match._name_parts` takes capitalised runs whose words are all in a few names, spelt right. Here a run of
question words is compared word by word with each value of a name-like column: a word is the name's word
exactly, a beginning of it ("sauv" for "Sauvignon", four letters or more) or a near spelling (rapidfuzz, a
misspelt word of five letters or more). A run of two or more such words selects the names that hold the
most of them, if one of its words is distinctive: found in those names only and in no other column's
values ("lake loop" names no row when lakes are a feature and several names say "Loop"), or three or more
words of the same name ("little fox sauv blanc", though "Sauvignon Blanc" is also a grape). A single word
selects a name when it is misspelt and near a word that one name alone has and no other column uses, or
when it is that word spelt right ("have you got a monstera", "cheapest beatles album": five letters or more) and
no other row's free text says it (the parser checks that: a word the texts use is a topic, not a name).
Words spelt right in lower case that several names of one column hold are a topic ("computer vision" in
four course titles), not a name.
A run of three or more words may take words that matched another column's value ("twin lake circut": the
feature "lake"; "pine valley ramble": the region "Pine Valley") when it has words of its own.
"""

from __future__ import annotations

from typing import Any

from .vocab import STOPWORDS, TableVocab, ValueEntry

__all__ = ["name_runs", "NAME_FUZZY_MIN", "PREFIX_MIN", "WORD_KIND", "WORD_MIN"]

NAME_FUZZY_MIN = 85.0  # rapidfuzz ratio of a misspelt word to a name's word ("hiden" - "hidden" 90.9)
PREFIX_MIN = 4  # letters of a word typed as the beginning of a name's word ("sauv")
WORD_KIND = "name-word"  # one word, spelt right in lower case, that one name alone has ("monstera", "beatles")
WORD_MIN = 5  # letters of such a word
_MAX_NAMES = 5


def _name_entries(vocab: TableVocab) -> list[ValueEntry]:
    seen: dict[Any, ValueEntry] = {}
    for entries in vocab.phrases.values():
        for e in entries:
            if e.column in vocab.name_columns:
                seen.setdefault((e.column, e.value), e)
    return list(seen.values())


def _other_column_words(vocab: TableVocab) -> set[str]:
    return {w for w, cols in vocab.by_word.items() if any(c not in vocab.name_columns for c in cols)}


def _token_hits(norm: str, names: list[ValueEntry], name_words: list[str], vocab: TableVocab
                ) -> dict[int, tuple[str, str]]:
    """{index of a name: (the name's word, how)} for one question word."""
    from rapidfuzz import fuzz, process

    hits: dict[int, tuple[str, str]] = {}
    for k, e in enumerate(names):
        if norm in e.words:
            hits[k] = (norm, "exact")
    if hits or len(norm) < PREFIX_MIN or not norm.isalpha():
        return hits
    prefixed = {w for w in name_words if w.startswith(norm) and len(w) > len(norm)}
    how = "prefix"
    if not prefixed and len(norm) >= 5 and norm not in vocab.by_word:
        found = process.extract(norm, name_words, scorer=fuzz.ratio, score_cutoff=NAME_FUZZY_MIN, limit=3)
        prefixed, how = {w for w, _s, _i in found}, "fuzzy"
    for k, e in enumerate(names):
        word = next((w for w in e.words if w in prefixed), None)
        if word:
            hits[k] = (word, how)
    return hits


def name_runs(scan: Any, vocab: TableVocab) -> None:
    """Add a `name` match for each run of question words that names rows (see the module docstring)."""
    if not vocab.name_columns:
        return
    names = _name_entries(vocab)
    if not names:
        return
    name_words = sorted({w for e in names for w in e.words if len(w) >= 3})
    others = _other_column_words(vocab)
    tokens = scan.tokens
    hits = [_token_hits(tokens[i].norm, names, name_words, vocab) for i in range(len(tokens))]
    i = 0
    while i < len(tokens):
        best: tuple[int, list[int]] | None = None  # (run length, names)
        for k in hits[i]:
            j = i
            while j + 1 < len(tokens) and k in hits[j + 1]:
                j += 1
            length = j - i + 1
            if best is None or length > best[0]:
                best = (length, [k])
            elif length == best[0]:
                best[1].append(k)
        if best is None:
            i += 1
            continue
        length, chosen = best
        span = range(i, i + length)
        content = [j for j in span if tokens[j].norm not in STOPWORDS]
        inside = _overlapped(scan, span)
        if inside is None and length == 2 and chosen and len(content) == 2:
            inside = _pair_overlapped(scan, span, chosen, hits, names, others)
        typed = all(hits[j][chosen[0]][1] == "exact" and not tokens[j].capitalised for j in span)
        columns = [names[k].column for k in chosen]
        if typed and len(set(columns)) < len(columns):
            chosen = []  # "computer vision" in four titles: a topic said in lower case, not a row's name
        if typed and length >= 2 and _plural_head(tokens[span[-1]], names):
            chosen = []  # "heart clinics": a kind of row, said by the noun several names end in, in the plural
        if content and chosen and len(chosen) <= _MAX_NAMES and inside is not None and \
                _selects(content, chosen, hits, names, others, length):
            for m in inside:  # "twin lake circut": the name holds the feature word "lake"
                scan.found.remove(m)
                scan.used -= m.span()
            how = {hits[j][chosen[0]][1] for j in span}
            kind = "name" if how == {"exact"} else "name-" + "/".join(sorted(how - {"exact"}))
            score = 1.0 if how == {"exact"} else 0.9
            if length == 1 and how == {"exact"}:
                kind, score = WORD_KIND, 0.8  # checked against the rows' text by the parser (`word_in_text`)
            scan.add(i, i + length - 1, [names[k] for k in chosen], kind, score,
                     {"matched": {tokens[j].raw: hits[j][chosen[0]][0] for j in span}})
            i += length
        else:
            i += 1


def _plural_head(token: Any, names: list[ValueEntry]) -> bool:
    """A word typed in the plural ("clinics") that several names hold in the singular."""
    raw = token.raw.lower()
    return raw != token.norm and raw.rstrip("'").endswith("s") and \
        sum(token.norm in e.words for e in names) >= 2


def _overlapped(scan: Any, span: range) -> list[Any] | None:
    """The earlier matches inside a run, when a name may take their words: none but value matches lying wholly
    inside a run of three or more words that has words of its own. None when the run may not be a name."""
    inside = [m for m in scan.found if m.first <= span[-1] and span[0] <= m.last]
    if not inside:
        return []
    if len(span) < 3 or all(j in scan.used for j in span) or any(
            m.kind.startswith("name") or m.first < span[0] or m.last > span[-1] for m in inside):
        return None
    return inside


def _pair_overlapped(scan: Any, span: range, chosen: list[int], hits: list[dict[int, tuple[str, str]]],
                     names: list[ValueEntry], others: set[str]) -> list[Any] | None:
    """ "the central warehouse": two words of one name, one of them a value of another column ("Warehouse", a
    kind of site), are that name when the other word is the name's own (no other name, no other column has it)."""
    inside = [m for m in scan.found if m.first <= span[-1] and span[0] <= m.last]
    if len(chosen) != 1 or len(inside) != 1 or inside[0].kind.startswith("name") or \
            inside[0].first < span[0] or inside[0].last > span[-1]:
        return None
    own = [j for j in span if j not in inside[0].span()]
    if len(own) != 1 or hits[own[0]][chosen[0]][1] != "exact":
        return None
    word = hits[own[0]][chosen[0]][0]
    holders = {k for k, e in enumerate(names) if word in e.words}
    return inside if holders == set(chosen) and word not in others and len(word) >= 4 else None


def _selects(content: list[int], chosen: list[int], hits: list[dict[int, tuple[str, str]]],
             names: list[ValueEntry], others: set[str], length: int) -> bool:
    chosen_set = set(chosen)

    def distinctive(j: int) -> bool:
        word = hits[j][chosen[0]][0]
        holders = {k for k, e in enumerate(names) if word in e.words}
        return holders <= chosen_set and word not in others

    if length >= 2 and len(content) >= 3:  # three words of one name are that name, however common each is
        return True
    if length >= 2 and len(content) >= 2:
        return any(distinctive(j) for j in content)
    j = content[0]
    if len(chosen) != 1 or not distinctive(j):
        return False
    word = hits[j][chosen[0]][0]
    return hits[j][chosen[0]][1] == "fuzzy" or (hits[j][chosen[0]][1] == "exact" and len(word) >= WORD_MIN
                                                and word.isalpha() and word not in STOPWORDS)
