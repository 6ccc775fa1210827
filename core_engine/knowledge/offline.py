"""The offline knowledge parser: `answer("pediatric dentist who speaks Spanish")` to SQL, with no network.

It reads the KB itself (DESIGN §5), as SUQL's hybrid queries do, on SQLite:
- the distinct values of short text and list columns are the vocabulary
  (`knowledge_vocab`, built once per KB file version and shared by all sessions);
  question words match them exactly, by a word only one value has, by a near
  spelling and by meaning (`knowledge_match`); a row's name selects its row;
- numbers next to a word naming a numeric column become comparisons and
  superlatives become an ORDER BY, the column chosen by meaning
  (`knowledge_numbers`);
- the content words left over search the free-text columns: FTS5 bm25 and
  sentence embeddings stored with sqlite-vec (`knowledge_vectors`), fused by
  reciprocal rank within the rows the structured conditions allow.
Every decision is a rule entry in the trace, with its words, score and
runner-up; the SQL is one read-only SELECT run by `SQLiteKB`. No word of any
particular KB is built in.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..session.agent import BACKEND_FACTORIES
from ..errors import KnowledgeError
from ..embedding.semantic import model_words
from .kb import SQLiteKB, TableInfo, quote_identifier
from .tables import ASKED_BONUS, asked_column, asked_words, by_text_hits, column_words, split_compounds, warm_columns
from .match import Match, is_content, lexical_matches, semantic_matches
from .booleans import apply as apply_bools, bool_conditions, described_bools, names_in_full
from .names import WORD_KIND
from .availability import availability
from .lexicon import known_words
from .leftovers import ROW_NOUN_MIN, beside_conditions, governing_verbs, row_nouns, value_suffixes
from .numbers import (MEASURE_VERBS, RANGE_SCORE, bare_numbers, capacity, having, free_of_charge, column_texts, comparisons, counted, decades,
                      durations, superlatives)
from .numbers import ages, measured as measured_values, ordinal_named
from .calendar import day_named, months, times_of_day, week_parts, when_words
from .numbers import _adjective, choose_column
from .vocab import STOPWORDS, Token, is_identifier, stem, tokenize, vocabulary_for
from ..spec.model import Spec
from ..dialogue.state import KBRecord

__all__ = ["OfflineKnowledgeParser", "SQLKnowledge", "Query"]

RRF_K = 60  # reciprocal rank fusion constant (Cormack et al.)
VECTOR_MIN = 0.3  # cosine of a row's text to the leftover words for the row to count as a hit ...
VECTOR_BAND = 0.1  # ... and within this much of the best row
VECTOR_LIFT = 0.15  # ... and this much above the table's mean similarity to the same words
_CANDIDATES = 200  # rows taken from each ranking before fusion
_NAME_COLUMNS = ("name", "title", "topic")  # a row's name, as the responders read it


@dataclass
class Query:
    """The parts of one SELECT; `sql()` renders it, `structured()` drops the free-text search."""

    table: str
    fts_table: str | None
    conditions: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    fts_terms: list[str] = field(default_factory=list)
    limit: int = 50
    ranked: list[int] | None = None  # fused free-text ranking (rowids, best first), when vectors were used
    fts_expr: str | None = None  # the FTS5 query when it is not "any of fts_terms" (see _most_words)
    asked: list[str] = field(default_factory=list)  # columns the question asks about: shown first in each row
    extra: list[str] = field(default_factory=list)  # more SELECT items: a joined row's name (see _joined_name)
    rank_only: bool = False  # the free text orders the rows the conditions find; it keeps none out (a purpose)

    def sql(self) -> str:
        t = quote_identifier(self.table)
        parts = [f"SELECT {', '.join(['t.*', *self.extra])} FROM {t} AS t"]
        where = list(self.conditions)
        order = list(self.order)
        if self.rank_only and self.conditions:
            if self.ranked:
                order.append("CASE t.rowid " + " ".join(f"WHEN {int(r)} THEN {i}" for i, r in enumerate(self.ranked))
                             + f" ELSE {len(self.ranked)} END")
        elif self.ranked is not None:
            ids = "t.rowid IN (" + ", ".join(str(int(r)) for r in self.ranked) + ")"
            if self.fts_terms and self.fts_table:
                f = quote_identifier(self.fts_table)
                ids = f"(t.rowid IN (SELECT rowid FROM {f} WHERE {f} MATCH {_literal(self.fts_expr or fts_match(self.fts_terms))}) OR {ids})"
            where.append(ids)
            if self.ranked:
                order.append("CASE t.rowid " + " ".join(f"WHEN {int(r)} THEN {i}" for i, r in enumerate(self.ranked))
                             + f" ELSE {len(self.ranked)} END")
        elif self.fts_terms and self.fts_table:
            f = quote_identifier(self.fts_table)
            parts.append(f"JOIN {f} AS f ON f.rowid = t.rowid")
            where.append(f"{f} MATCH {_literal(self.fts_expr or fts_match(self.fts_terms))}")
            order.append(f"bm25({f})")
        if where:
            parts.append("WHERE " + " AND ".join(where))
        if order:
            parts.append("ORDER BY " + ", ".join(order))
        parts.append(f"LIMIT {int(self.limit)}")
        return " ".join(parts)

    def structured(self) -> "Query":
        return Query(self.table, self.fts_table, list(self.conditions), list(self.order), [], self.limit,
                     asked=list(self.asked), extra=list(self.extra))

    def present(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Rows with the asked-about columns first (responders show a row's first columns)."""
        if not self.asked:
            return rows
        return [{**{c: r[c] for c in self.asked if c in r}, **r} for r in rows]


def fts_match(terms: list[str]) -> str:
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in terms)


class OfflineKnowledgeParser:
    """Schema- and value-grounded question parsing over the KB; deterministic and local.

    Holds nothing per session: the vocabulary, value vectors and row vectors are
    cached per KB file version in their modules, so every session shares them.
    """

    def to_sql(self, question: str, kb: SQLiteKB, spec: Spec) -> tuple[str, list[dict[str, Any]]]:
        query, rules = self.parse(question, kb, spec)
        return query.sql(), rules

    def parse(self, question: str, kb: SQLiteKB, spec: Spec) -> tuple[Query, list[dict[str, Any]]]:
        """The query for a question, and the rules that built it."""
        tables = kb.tables()
        if not tables:
            raise KnowledgeError("the knowledge base has no tables", question=question)
        question = question.replace("\u2019", "'").replace("\u2018", "'")  # "aren’t": one length, one apostrophe
        vocab = vocabulary_for(kb)
        rules: list[dict[str, Any]] = []
        question = _as_kb_says(question, vocab, rules)  # "just the usual tuning": the KB's "Standard Piano Tuning"
        tokens = tokenize(question)
        schemas = {name: _schema_words(name, info, spec) for name, info in tables.items()}
        english = model_words(spec.settings.embedding_model)  # a word of its own is no misspelt name
        skipped = _price_verbs(question, tokens, rules)  # "what do you charge for ...": no value, no search term
        skipped |= _fillers(question, tokens, rules)  # "at the moment", "on board": when or where the asker is
        skipped |= {i for i, t in enumerate(tokens[:-1]) if t.norm in _DEGREE and is_content(tokens[i + 1])}
        # "complete beginners": how much, no value ("complete" is not the status "Full")
        found = {name: _name_words_in_text(kb, info, *lexical_matches(tokens, question, vocab.tables[name],
                                                                       schemas[name], skip=skipped), rules, english)
                 for name, info in tables.items() if name in vocab.tables}
        embedder = _embedder(spec, rules)
        spent = {i for _m, u in found.values() for i in u}
        asked = asked_column(question, " ".join(t.raw for i, t in enumerate(tokens) if i not in spent), spec, tables,
                             embedder)
        names = {n: vocab.tables[n].name_columns for n in found}
        name = _choose_table(tokens, tables, spec, {n: f[0] for n, f in found.items()}, rules, asked, names)
        if len(tables) > 1 and rules and rules[-1].get("rule") == "table" and rules[-1]["score"] < 1:
            by_text = by_text_hits(kb, tables, _free_words(tokens, spent, set()))
            if by_text is not None:  # nothing named a table: the one whose text holds the question's words
                name = by_text[0]
                rules[-1].update(table=name, text_hits=by_text[1])
        elif len(tables) > 1 and rules and not found.get(name, ([], set()))[0] and not (asked and name in asked):
            # "how late can I cancel a class?": "class" names a table, but no value of it is said and its text
            # holds none of the other words; another table's text holds them (the house rules)
            by_text = by_text_hits(kb, tables, _free_words(tokens, spent, schemas[name] |
                                                           _column_description_words(name, spec)))
            if by_text is not None and by_text[0] != name and by_text[1].get(name, 0) == 0:
                name = by_text[0]
                rules[-1].update(table=name, text_hits=by_text[1])
        info = tables[name]
        matches, used = found.get(name, ([], set()))
        matches, used = list(matches), set(used) | skipped
        own = {stem(w) for w in re.split(r"[_\W]+", (spec.name or "").lower()) if w}  # the agent's name: what it is
        generic = [m for m in matches if m.kind in ("head", "word") and len(matches) > 1 and m.first == m.last
                   and stem(m.words.lower()) in own]  # "do you clean solar panels" at a cleaning company
        if generic:  # "regular cleaning in Hackney" at a cleaning service: "cleaning" ends five extras' names, but
            matches = [m for m in matches if m not in generic]  # it is what the agent offers, not an extra asked for
            rules.append({"rule": "ignored", "words": [m.words for m in generic],
                          "why": "the agent's own word for what it offers, beside other conditions"})
        query = Query(name, info.fts_table, limit=spec.settings.kb_max_rows)
        ranges = vocab.tables[name].ranges if name in vocab.tables else {}
        spans = _calendar(query, question, tokens, used, info, spec, embedder, rules, vocab.tables.get(name))
        joined = {i for other, (ms, _u) in found.items() if other != name and _join_key(info, tables[other])
                  for m in ms for i in m.span()} - used  # "reviews of CS 230": the code of a joined table's row
        numbered = used | joined  # is no number of this table's columns
        in_values = {i for m in matches for i in m.span()  # "after builders": a plural inside a value's name
                     if any(tokens[i].raw.lower() in str(e.value).lower().split() for e in m.entries)}
        # "most recently serviced": a superlative's words are this table's, whatever the joined table names
        _numbers(query, question, tokens, numbered, info, spec, embedder, rules, ranges, spans, in_values)
        used |= numbered - joined
        full = names_in_full(tokens, info)
        inside = [m for m in matches if any(m.span() < span for span in full)]
        if inside:  # "a child seat": the yes/no column `child_seat`, not the value "Child" of another column
            matches = [m for m in matches if m not in inside]
            used -= {i for m in inside for i in m.span()}
            rules.append({"rule": "ignored", "words": [m.words for m in inside],
                          "why": "inside the whole name of a yes/no column"})
        kb_ws = spec.worksheet(name)
        descriptions = {f.name: f.description for f in kb_ws.fields} if kb_ws is not None else None
        described = [b for b in described_bools(question, tokens, info, descriptions, used, embedder)
                     if not any(i in used and not any(i in m.span() for m in matches) for i in b.tokens)]
        if described:  # "keep their leaves in winter": the column's description, not the value "winter"
            spent = {i for b in described for i in b.tokens}
            matches = [m for m in matches if not m.span() & spent]
            used = (used - {i for m in found.get(name, ([], set()))[0] for i in m.span()}) | \
                {i for m in matches for i in m.span()} | spent
        yes_no = described + [b for b in bool_conditions(question, tokens, used, info, descriptions)
                              if b.column not in {d.column for d in described}]
        yes_no_tokens = {i for b in yes_no for i in b.tokens}
        used |= yes_no_tokens  # "organic" or "loops" names its column, not a value or a unit
        free_schema = schemas[name] | _description_words(name, spec)
        if asked and name in asked:  # "what time does X open": "time" says what is asked, not which rows
            free_schema |= {f for w in asked_words(question) for f in (w, stem(w))}
            if asked[name][0] in {c.name for c in info.columns}:  # "how many hours a week is X": the words of
                free_schema |= _column_description_words(name, spec, {asked[name][0]})  # "hours per week"
        # a word that only names the rows ("novels" in books) is no value's meaning and no search term
        near = row_nouns(_free_words(tokens, used, schemas[name]), info, embedder)
        nouns = [w for w, (sim, _either) in near.items() if sim >= ROW_NOUN_MIN]
        if name in vocab.tables and vocab.tables[name].semantic:
            entries, vectors = vocab.value_vectors(name, embedder)
            # the free-text query of the likely case (no meaning match) is embedded in the same batch
            prefetch = [" ".join(_free_words(tokens, used, set()))] if info.fts_table else []
            noun_forms = {f for w in nouns for f in (w, stem(w))}
            extra = semantic_matches(tokens, question, used, schemas[name] | noun_forms, entries, vectors, embedder,
                                     prefetch, vocab.tables[name])
            extra = _phrases_in_text(kb, info, tokens, used, extra, rules)
            matches += extra
            for m in extra:
                used |= m.span()
        matches = _negation_of_a_yes_no(question, tokens, matches, yes_no)
        used |= {m.first - 1 for m in matches if m.negated and m.first > 0 and tokens[m.first - 1].raw.lower() == "non"}
        if name in vocab.tables:
            matches = _yes_no_about_a_row(tokens, matches, vocab.tables[name].name_columns, query, rules)
        found[name] = (matches, used)
        _value_conditions(query, info, tables, {n: f[0] for n, f in found.items()}, used, rules, question)
        named = name in vocab.tables and any(
            m.column in vocab.tables[name].name_columns and not m.negated for m in matches)
        the_one = len(tokens) > 2 and tokens[0].raw.lower() in _YES_NO and tokens[1].norm == "the" and \
            bool(matches) and not _plural(tokens[max(i for m in matches for i in m.span())])
        if (named or the_one) and tokens and tokens[0].raw.lower() in _YES_NO:  # "is <row> dog friendly?", "is the
            for b in yes_no:  # clay court floodlit?": the row is shown with the answer, not filtered by it
                query.asked.append(b.column)
                rules.append({"rule": "asked", "words": b.words, "column": b.column,
                              "why": "a yes/no question about one row: the column is shown first, not filtered"})
        else:
            must = _must_i_bools(question, tokens, yes_no)  # "do I have to be referred to use the fridges?"
            for b in must:
                query.asked.append(b.column)
                rules.append({"rule": "asked", "words": b.words, "column": b.column,
                              "why": "what the asker must do: the column is shown with the rows, not filtered"})
            apply_bools(query, [b for b in yes_no if b not in must], used, rules)
        can_have = availability(question, tokens, used, vocab.tables.get(name))
        if can_have and not any(m.column == can_have[0] for m in matches):  # "which plots are free": Vacant
            op = "!=" if can_have[3] else "="  # "which cottages are not available"
            query.conditions.append(f"t.{quote_identifier(can_have[0])} {op} {_literal(can_have[1])}")
            rules.append({"rule": "value", "words": " ".join(tokens[i].raw for i in sorted(can_have[2])),
                          "column": can_have[0], "value": can_have[1], "negated": can_have[3], "match": "available",
                          "score": 1.0})
            used |= can_have[2]
        if named:  # "what colours does <row name> come in": the other words ask about the row
            words = _free_words(tokens, used, free_schema)
            if words:
                rules.append({"rule": "ignored", "words": words, "why": "a row was named; these words ask about it"})
            return query, rules
        said_of = {r["column"] for r in rules if r.get("rule") in ("compare", "order", "yes/no column")}
        if said_of:  # "guided trips of less than an hour": words of the compared column's own description
            free_schema |= _column_description_words(name, spec, said_of)
        conditioned = {m.column for m in matches if not m.negated}
        verbs = column_words(_free_words(tokens, used, free_schema), name, conditioned, spec, tables, embedder)
        if verbs:  # "classes taught by Marcus Bell": "taught" names the instructor column, which is a condition
            rules.append({"rule": "ignored", "words": verbs, "why": "they name a column the question has a value for"})
            free_schema |= {f for w in verbs for f in (w, stem(w))}
        suffixes = value_suffixes(tokens, used)
        if suffixes:  # "shade loving ferns": the condition took "shade"; "loving" says nothing more
            used |= set(suffixes)
            rules.append({"rule": "ignored", "words": [tokens[i].raw.lower() for i in suffixes],
                          "why": "they make the condition's word a property"})
        governing = governing_verbs(tokens, used, yes_no_tokens | {i for m in matches for i in m.span()})
        if governing:  # "where I can bring my dog": the verb of a word a condition took says nothing more
            words = [tokens[i].raw.lower() for i in governing]
            rules.append({"rule": "ignored", "words": words, "why": "the verb of a word a condition took"})
            free_schema |= {f for w in words for f in (w, stem(w))}
        split = [i for i in range(len(tokens) - 1) if not {i, i + 1} & used
                 and tokens[i].raw.lower() + tokens[i + 1].raw.lower() in free_schema]
        if split:  # "change over on a saturday": the column `changeover_day`'s word written in two
            used |= {j for i in split for j in (i, i + 1)}
            rules.append({"rule": "ignored", "words": [f"{tokens[i].raw} {tokens[i + 1].raw}".lower() for i in split],
                          "why": "a column's name word written as two words"})
        used |= when_words(question, tokens, used, vocab.tables.get(name), rules)  # "for the same day"
        _free_text(query, kb, tokens, used, info, free_schema, embedder, rules, near, _agent_words(spec), english,
                   _unsaid_columns_words(info, spec, rules), question=question,
                   table_text=getattr(spec.worksheet(name), "description", "") or "")
        return query, rules


def _name_words_in_text(kb: SQLiteKB, info: TableInfo, matches: list[Match], used: set[int],
                        rules: list[dict[str, Any]], english: frozenset[str] = frozenset()
                        ) -> tuple[list[Match], set[int]]:
    """A name's one lower-case word ("monstera") names its row only when no other row's free text says it: a word
    the texts use ("something for a rainy morning" where one title says "Morning") is a topic, and searches."""
    kept = []
    for m in matches:
        if m.kind == "name-fuzzy" and m.first == m.last and m.words.lower() in english:
            used = used - m.span()  # "dry the house out" is no misspelt "Ouse": an English word is said as meant
            rules.append({"rule": "ignored", "words": m.words, "column": m.column,
                          "why": "near a name's word, but an English word of its own: not a misspelling"})
            continue
        if m.kind == "fuzzy" and m.first == m.last and _english(m.words.lower(), english) \
                and (m.score < FUZZY_SPELLING or m.words[:1].lower() != str(m.runner_up or "")[:1].lower()) \
                and not _same_stem(m.words.lower(), str(m.runner_up or "")):  # "moderately" is "moderate" still
            used = used - m.span()  # "rats getting in" is no misspelt "Netting"
            rules.append({"rule": "ignored", "words": m.words, "column": m.column,
                          "why": "near a value's word, but an English word of its own: not a misspelling"})
            continue
        if m.kind.startswith("name") and m.first == m.last and stem(m.words.lower()) == stem(info.name.lower()):
            used = used - m.span()  # "which treatment is best for mice": the table's own noun names no row
            rules.append({"rule": "ignored", "words": m.words, "column": m.column,
                          "why": "the table's own noun: it names no row"})
            continue
        if m.kind != WORD_KIND:
            kept.append(m)
            continue
        if info.fts_table:
            f = quote_identifier(info.fts_table)
            column = quote_identifier(m.column)
            values = [e.value for e in m.entries]
            others = kb.execute(f"SELECT t.rowid FROM {quote_identifier(info.name)} AS t WHERE t.rowid IN "
                                f"(SELECT rowid FROM {f} WHERE {f} MATCH ?) AND t.{column} NOT IN "
                                f"({', '.join('?' for _ in values)}) LIMIT 1",
                                (fts_match([m.words.lower()]), *values), max_rows=1).rows
            if others:
                used = used - m.span()
                rules.append({"rule": "ignored", "words": m.words, "column": m.column,
                              "why": "one name has this word, but other rows' text says it too: a topic, not a name"})
                continue
        kept.append(m)
    return kept, used


def _phrases_in_text(kb: SQLiteKB, info: TableInfo, tokens: list[Token], used: set[int], extra: list[Match],
                     rules: list[dict[str, Any]]) -> list[Match]:
    """A word read as a value by meaning that makes a phrase with the word beside it which the rows' text says
    ("tea bags": "bags" means the list value "bagged", but a row's guidance says "tea bags") is part of that
    phrase, a search term, not the value. So is a phrase of several words read by meaning that the rows' text
    says itself ("station hall" means the kind "Station Desk", but a kiosk's text says "inside the station
    hall")."""
    if not info.fts_table or not extra:
        return extra
    f = quote_identifier(info.fts_table)
    kept = []
    for m in extra:
        a, b = min(m.span()), max(m.span())
        pairs = [(j, b) for j in (a - 1,) if j >= 0 and j not in used and is_content(tokens[j])] + \
            [(a, j) for j in (b + 1,) if j < len(tokens) and j not in used and is_content(tokens[j])]
        phrases = [" ".join(tokens[k].raw.lower() for k in range(x, y + 1)) for x, y in pairs]
        if b > a:  # "inside the station hall": the phrase itself, said in the rows' text, is where, not a value
            phrases.insert(0, " ".join(tokens[k].raw.lower() for k in range(a, b + 1)))
        said = next((p for p in phrases if kb.execute(f"SELECT rowid FROM {f} WHERE {f} MATCH ? LIMIT 1",
                                                      (fts_match([p]),), max_rows=1).rows), None)
        if said is None:
            kept.append(m)
            continue
        rules.append({"rule": "ignored", "words": m.words, "column": m.column, "phrase": said,
                      "why": "the rows' text says this phrase: a search term, not a value by meaning"})
    return kept


_YES_NO = frozenset("is are was were does do did has have can could will would should may might".split())


def _negation_of_a_yes_no(question: str, tokens: list[Token], matches: list[Match], yes_no: list[Any]
                          ) -> list[Match]:
    """"pets aren't allowed in snowdonia": the negation belongs to the yes/no column said between it and the
    value, not to the value (the value keeps its own "not" when one stands between the column's words and it)."""
    negated_bools = [max(tokens[i].end for i in b.tokens) for b in yes_no if not b.value and b.tokens]
    out = []
    for m in matches:
        if m.negated and negated_bools:
            tail = question[:m.start].lower()
            last = max((mm.start() for mm in re.finditer(r"\b(?:not|no|isn't|aren't|don't|doesn't|without|except)\b",
                                                         tail)), default=-1)
            if last >= 0 and any(last < end <= m.start for end in negated_bools):
                m = replace(m, negated=False)
        out.append(m)
    return out


def _yes_no_about_a_row(tokens: list[Token], matches: list[Match], name_columns: set[str], query: Query,
                        rules: list[dict[str, Any]]) -> list[Match]:
    """`is <row name> expensive?`: the named row is the answer and its price is what is asked, so the
    other values say which columns to show first, not which rows to keep (a filter would find nothing
    when the answer is no)."""
    if not tokens or tokens[0].raw.lower() not in _YES_NO:
        return matches
    if not any(m.column in name_columns and not m.negated for m in matches):
        return matches
    kept = []
    for m in matches:
        if m.column in name_columns or m.negated:
            kept.append(m)
            continue
        query.asked.append(m.column)
        rules.append({"rule": "asked", "words": m.words, "column": m.column,
                      "value": [e.value for e in m.entries][0] if len(m.entries) == 1 else [e.value for e in m.entries],
                      "why": "a yes/no question about a named row: the column is shown first, not filtered"})
    return kept


_SAME_KIND = (frozenset("standard usual normal regular ordinary typical basic".split()),)
"""Words that say "the ordinary one": a KB names its plain service with one of them ("Standard Piano Tuning"), a user
with another ("just the usual tuning")."""


def _as_kb_says(question: str, vocab: Any, rules: list[dict[str, Any]]) -> str:
    """The question with a word of `_SAME_KIND` the KB never uses written as the one word of its kind the KB uses."""
    words = {w for t in vocab.tables.values() for w in t.by_word}
    for kind in _SAME_KIND:
        used = kind & words
        if len(used) != 1:
            continue
        kb_word = next(iter(used))
        asked = {w for w in re.findall(r"[a-z]+", question.lower())} - kind
        if not any(set(e.words) & asked for t in vocab.tables.values() for es in t.by_word.get(kb_word, {}).values()
                   for e in es):
            continue  # "the usual yoga" is no "Regular Lane Swim": no row's name has both words
        for said in kind - words:
            new = re.sub(rf"(?i)\b{said}\b", kb_word, question)
            if new != question:
                rules.append({"rule": "same-kind-word", "said": said, "as": kb_word})
                question = new
    return question


def _embedder(spec: Spec, rules: list[dict[str, Any]]) -> Any:
    from ..embedding.semantic import get_embedder

    embedder = get_embedder(spec.settings.embedding_model)
    if embedder.fallback_reason:
        rules.append({"rule": "embedder", "fallback": embedder.fallback_reason})
    return embedder


class SQLKnowledge:
    """The knowledge backend: parse, run on the read-only KB, relax the free-text part if nothing matched."""

    def __init__(self, kb: SQLiteKB, parser: OfflineKnowledgeParser) -> None:
        self.kb = kb
        self.parser = parser

    def run(self, record: KBRecord, spec: Spec, trace: list[dict[str, Any]]) -> None:
        try:
            query, rules = self.parser.parse(record.query, self.kb, spec)
            result = self.kb.execute(query.sql(), max_rows=spec.settings.kb_max_rows)
            entry: dict[str, Any] = {"query": record.query, "sql": result.sql, "rows": len(result.rows),
                                     "elapsed_ms": round(result.elapsed_ms, 2), "rules": rules}
            if not result.rows:
                record.note = self._suggest_relaxation(query, rules, spec)
                if record.note:
                    entry["relaxation"] = record.note
            else:
                left = [r["left_out"] for r in rules if r.get("dropped") == UNKNOWN_WORDS]
                record.note = f'Nothing here mentions "{left[0]}", so I matched the rest.' if left else None
        except KnowledgeError as exc:
            record.status = "error"
            record.error = exc.message
            trace.append({"query": record.query, "error": record.error})
            return
        record.sql = result.sql
        record.result = query.present(result.rows)
        record.status = "done"
        record.error = None
        trace.append(entry)


    def _suggest_relaxation(self, query: Query, rules: list[dict[str, Any]], spec: Spec) -> str | None:
        """Which single condition, if dropped, would give results (said to the user, not applied)."""
        labels = _condition_labels(query, rules)
        candidates: list[tuple[str, Query]] = []
        if query.fts_terms:
            candidates.append((" ".join(query.fts_terms), Query(query.table, query.fts_table, list(query.conditions),
                                                               list(query.order), [], query.limit)))
        for i, label in enumerate(labels):
            rest = query.conditions[:i] + query.conditions[i + 1:]
            candidates.append((label, Query(query.table, query.fts_table, rest, list(query.order),
                                            list(query.fts_terms), query.limit)))
        found = []
        for label, q in candidates:
            if not q.conditions and not q.fts_terms:
                continue
            rows = self.kb.execute(q.sql(), max_rows=spec.settings.kb_max_rows).rows
            if rows:
                found.append(f'without "{label}" there {"is 1 result" if len(rows) == 1 else f"are {len(rows)} results"}')
        if not found:
            return None
        return "Nothing matched everything you asked for; " + "; ".join(found[:2]) + "."


def _condition_labels(query: Query, rules: list[dict[str, Any]]) -> list[str]:
    """The user's words behind each structured condition, in order (the SQL if they cannot be paired)."""
    words = [r.get("words") for r in rules if r.get("rule") != "free_text" and r.get("rule") != "table"
             and isinstance(r.get("words"), str)]
    if len(words) == len(query.conditions):
        return [str(w) for w in words]
    return [describe_condition(c) for c in query.conditions]


_COLUMN = re.compile(r'\b[a-z]\.("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)')
_COMPARED = re.compile(r'("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|<|>)\s*(-?[0-9.]+)')
_STRING = re.compile(r"'((?:[^']|'')*)'")
_OP_WORDS = {"<=": "at most", ">=": "at least", "<": "under", ">": "over"}


def describe_condition(sql: str) -> str:
    """A condition in words for the user ("offers: phone chargers", "price at most 20"): the note that says which
    condition to drop is shown to the user, and SQL is not for users (the SQL itself is in the trace)."""
    def name(ident: str) -> str:
        return ident.strip('"').replace('""', '"').replace("_", " ")
    negated = sql.lstrip("( ").upper().startswith("NOT ")
    columns = [name(c) for c in _COLUMN.findall(sql) if c.strip('"') not in ("value", "rowid")]
    compared = _COMPARED.search(sql)
    if compared:
        return f"{name(compared.group(1))} {_OP_WORDS[compared.group(2)]} {compared.group(3)}"
    values = [v.replace("''", "'") for v in _STRING.findall(sql)]
    flag = re.search(r"=\s*([01])\s*$", sql.strip())
    if not values and flag and columns:  # a yes/no column
        values = ["no" if (flag.group(1) == "0") != negated else "yes"]
        negated = False
    column = columns[0] if columns else "a condition"
    said = " or ".join(dict.fromkeys(values)) if values else ""
    if not said:
        return f"the {column} condition"
    return f"{column}: {'not ' if negated else ''}{said}"


def offline_knowledge(agent: Any, **options: Any) -> tuple[SQLiteKB, SQLKnowledge]:
    """BACKEND_FACTORIES entry for ("knowledge", "offline")."""
    kb = SQLiteKB(agent.kb_path)
    _warm(kb, agent.spec)
    return kb, SQLKnowledge(kb, OfflineKnowledgeParser())


def _warm(kb: SQLiteKB, spec: Spec) -> None:
    """Read the KB's vocabulary and embed its enum-like values and its columns' texts when a session starts
    (once per KB file version and process), not in the middle of the first question's turn (the columns took
    150 ms of the course sample's first question). The model is loaded here only when enum-like values need it."""
    try:
        vocab = vocabulary_for(kb)
        embedder = None
        for name, table in vocab.tables.items():
            if table.semantic:
                embedder = embedder or _embedder(spec, [])
                vocab.value_vectors(name, embedder)
        if embedder is not None and not embedder.fallback_reason:
            warm_columns(spec, kb.tables(), embedder)
    except Exception:  # noqa: BLE001 - the first question builds them again and reports what failed
        pass


BACKEND_FACTORIES[("knowledge", "offline")] = offline_knowledge


# -- question analysis -------------------------------------------------------------


def _schema_words(name: str, info: TableInfo, spec: Spec) -> set[str]:
    """Words that name the table or its columns: they say what is asked about, not which rows."""
    words = {w for part in [name] + [c.name for c in info.columns] for w in re.split(r"[_\W]+", part.lower()) if w}
    return {f for w in words for f in (w, stem(w), tokenize(w)[0].norm if tokenize(w) else w)}


def _description_words(name: str, spec: Spec) -> set[str]:
    ws = spec.worksheet(name)
    return {f for t in tokenize(ws.description if ws else "") for f in (t.norm, stem(t.norm))}


def _column_description_words(name: str, spec: Spec, columns: set[str] | None = None) -> set[str]:
    """Content stems of the spec's descriptions of a KB table's columns (of `columns` only, when given)."""
    ws = spec.worksheet(name)
    return {stem(t.norm) for f in (ws.fields if ws else []) if columns is None or f.name in columns
            for t in tokenize(f.description) if is_content(t)}


def _choose_table(tokens: list[Token], tables: dict[str, TableInfo], spec: Spec, matches: dict[str, list[Match]],
                  rules: list[dict[str, Any]], asked: dict[str, tuple[str, float]] | None = None,
                  name_columns: dict[str, set[str]] | None = None) -> str:
    """The table whose name, description and column names and values best match the question. A value of a
    column that names the rows counts double (the question is about that row); a table whose column is what
    a wh-question asks for (`knowledge_tables.asked_column`) gains as much as a word of its name."""
    valued = {i for found in matches.values() for m in found for i in m.span()}
    stems = {stem(t.norm) for i, t in enumerate(tokens) if is_content(t) and i not in valued}  # "CS 230" is a value,
    order = [w.name for w in spec.kb_worksheets() if w.name in tables]  # its "cs" no word of a column's description
    order += [n for n in tables if n not in order]
    best, best_score, why = order[0], -1.0, {}
    for name in order:
        name_words = {stem(w) for w in re.split(r"[_\W]+", name.lower()) if w}
        other = _description_words(name, spec)
        other |= {stem(w) for c in tables[name].columns for w in c.name.lower().split("_") if w}
        other |= _column_description_words(name, spec)  # "euros" in "Ticket price in euros" names that table
        found = matches.get(name, [])
        named = sum(1 for m in found if m.column in (name_columns or {}).get(name, set()) and not m.negated)
        hits = {"name": sorted(stems & name_words), "words": sorted((stems & other) - name_words),
                "values": len(found), "row_names": named}
        score = 2 * len(hits["name"]) + len(hits["words"]) + 0.5 * (hits["values"] + named)
        if asked and name in asked:
            hits["asked_column"] = [asked[name][0], round(asked[name][1], 3)]
            score += ASKED_BONUS
        if score > best_score:
            best, best_score, why = name, score, hits
    if len(tables) > 1:
        rules.append({"rule": "table", "table": best, "score": best_score, **why})
    return best


def _calendar(query: Query, question: str, tokens: list[Token], used: set[int], info: TableInfo, spec: Spec,
              embedder: Any, rules: list[dict[str, Any]], table_vocab: Any) -> list[tuple[int, int]]:
    """Months on a date column, times of day on a time column, "weekend" on a day-name column (calendar.py);
    their tokens are used up, so the numbers in them are no comparison of another column."""
    if table_vocab is None:
        return []
    found, spans = [], []
    if table_vocab.date_ranges:
        dates = {n: t for n, t in column_texts(info, spec, ("date",)).items() if n in table_vocab.date_ranges}
        today = _today(spec)
        found += months(question, dates, table_vocab.date_ranges, today,
                        lambda words, cols: choose_column(words, cols, embedder))
    if table_vocab.time_columns:
        found += times_of_day(question, table_vocab.time_columns)
    for c in found:
        if any(i in used for i, t in enumerate(tokens) if t.start < c.end and c.start < t.end):
            continue
        spans.append((c.start, c.end))
        query.conditions.append(c.sql)
        rules.append({"rule": "compare", "words": c.words, "column": c.column, "op": c.op, "value": c.value,
                      "score": 1.0, "why": "a month or a time of day"})
        used.update(i for i, t in enumerate(tokens) if t.start < c.end and c.start < t.end)
    if table_vocab.day_columns:
        words = [(i, t.raw.lower()) for i, t in enumerate(tokens) if i not in used]
        for i, column, values in week_parts(words, table_vocab.day_columns):
            query.conditions.append(f"t.{quote_identifier(column)} IN ({', '.join(_literal(v) for v in values)})")
            rules.append({"rule": "value", "words": tokens[i].raw.lower(), "column": column, "value": values,
                          "negated": False, "match": "week part", "score": 1.0})
            used.add(i)
    if len(table_vocab.schedules) == 1 and not table_vocab.day_columns:
        column, days = next(iter(table_vocab.schedules.items()))
        for i, t in enumerate(tokens):
            day = day_named(t.raw)
            if i in used or day is None:
                continue
            said = [j for j in range(max(0, i - 3), i) if j not in used
                    and tokens[j].raw.lower() in ("open", "opens", "closed", "shut", "closes")]
            closed = any(tokens[j].raw.lower() in ("closed", "shut", "closes") for j in said)
            used.update(said)  # "open on Sundays", "closed on Sundays": the condition's own words
            values = sorted(v for v, d in days.items() if (day in d) != closed)
            query.conditions.append(f"t.{quote_identifier(column)} IN ({', '.join(_literal(v) for v in values)})")
            rules.append({"rule": "value", "words": t.raw.lower(), "column": column, "value": values,
                          "negated": closed, "match": "opening days", "score": 1.0})
            used.add(i)
    return spans


def _today(spec: Spec) -> _dt.date:
    try:
        return _dt.date.fromisoformat(spec.settings.today) if spec.settings.today else _dt.date.today()
    except ValueError:
        return _dt.date.today()


def _numbers(query: Query, question: str, tokens: list[Token], used: set[int], info: TableInfo, spec: Spec,
             embedder: Any, rules: list[dict[str, Any]], ranges: dict[str, tuple[float, float]] | None = None,
             calendar: list[tuple[int, int]] = (), in_values: set[int] = frozenset()) -> None:
    """Comparisons and superlatives on the columns the words name; their tokens are used up. `in_values`: words
    said as written inside a value's name ("After Builders"), which are no plural noun of what is asked for."""
    def take(start: int, end: int) -> None:
        used.update(i for i, t in enumerate(tokens) if t.start < end and start < t.end)

    taken: list[tuple[int, int]] = [(t.start, t.end) for i, t in enumerate(tokens) if i in used]
    columns = column_texts(info, spec)
    found = [c for c in comparisons(question, tokens, columns, embedder, ranges)
             if not any(c.start < e and s < c.end for s, e in calendar)]  # "after 7pm" is a time of day
    found += [d for d in decades(question, columns, ranges) if not any(d.start < c.end and c.start < d.end
                                                                       for c in found)]
    found += ages(question, taken + [(c.start, c.end) for c in found], columns)  # "my 5 year old"
    found += capacity(question, taken + [(c.start, c.end) for c in found], columns)  # "holds 200 people": at
    found += bare_numbers(question, taken + [(c.start, c.end) for c in found], columns, ranges)  # least, not =
    found += counted(question, taken + [(c.start, c.end) for c in found], columns)
    found += ordinal_named(question, taken + [(c.start, c.end) for c in found],
                           column_texts(info, spec, ("int",)))  # "on the 4th floor"
    found += measured_values(question, taken + [(c.start, c.end) for c in found], columns)
    found += [h for h in having(question, taken, columns)  # "with floodlit courts": at least one ("courts under
              if not any(c.column == h.column for c in found)]  # £7 an hour" may have taken "courts" as its word)
    found += free_of_charge(question, taken + [(c.start, c.end) for c in found], columns, info.name)
    for c in found:
        query.conditions.append(f"t.{quote_identifier(c.column)} {c.op} {c.value!r}")
        rules.append({"rule": "compare", "words": c.words, "column": c.column, "op": c.op, "value": c.value,
                      "score": c.score, **({"why": "the only column whose values span it"}
                                           if c.score == RANGE_SCORE else {})})
        take(c.start, c.end)
        taken.append((c.start, c.end))
        verb = max((i for i, t in enumerate(tokens) if t.end <= c.start), default=None)
        if verb is not None and verb not in used and tokens[verb].raw.lower() in MEASURE_VERBS:
            used.add(verb)  # "plants that stay under 30cm": the comparison's verb searches nothing
    spans = []
    for o in superlatives(question, column_texts(info, spec, ("int", "float", "date")), embedder, taken):
        query.order.append(f"t.{quote_identifier(o.column)} {o.direction}")
        rules.append({"rule": "order", "words": o.words, "column": o.column, "direction": o.direction,
                      "score": o.score})
        take(o.start, o.end)
        spans.append((o.start, o.end))
        base = _adjective(o.words) if re.fullmatch(r"[a-z]+est", o.words) else None
        plain = [i for i, t in enumerate(tokens) if base and i not in used and t.raw.lower() == base]
        if plain:  # "how big is the biggest boat": the superlative's own adjective asks the same, searches nothing
            used.update(plain)
            rules.append({"rule": "ignored", "words": [tokens[i].raw.lower() for i in plain],
                          "why": "the adjective of the superlative"})
        point = _FROM_POINT.match(question, o.end)
        if point and {stem(t.norm) for t in tokenize(point.group(1)) if is_content(t)} & \
                _column_description_words(info.name, spec, {o.column}):
            take(point.start(1), point.end(1))  # "closest to the railway station": where the column measures from
            rules.append({"rule": "ignored", "words": point.group(1).split(),
                          "why": f"the point {o.column} is measured from, as its description says"})
    measured = [(c.start, c.end) for c in found]  # "that seats 7": a measure's word is no plural thing asked for
    verbs = {i for i in range(len(tokens) - 2) if tokens[i + 1].norm == "the"  # "which show runs the longest":
             and any(s <= tokens[i + 2].start < e for s, e in spans)}  # a verb before "the" and the superlative
    used.update(i for i in verbs if tokens[i].raw.lower() in MEASURE_VERBS)  # "lasts the longest": no search
    heads = [h for h in (_head_noun(question, tokens, e) for _s, e in spans) if h is not None]
    singular = any(tokens[i].norm in ("is", "was", "s") for i in verbs)  # "which of those is the cheapest"
    if heads:  # "the cheapest maths tutor": the noun the superlative is said of decides ("maths" is no plural)
        one = not any(_plural(tokens[h]) for h in heads)
    elif singular:
        one = True
    else:
        one = not any(_plural(t) for i, t in enumerate(tokens)
                      if i not in verbs | in_values and not any(s <= t.start < e for s, e in spans + measured))
    if spans and one:
        query.limit = 1  # "the cheapest t-shirt", "who is the best rated surgeon": one row, not a ranking
        rules.append({"rule": "limit", "rows": 1, "why": "a superlative and no plural noun"})
    elif spans and _WHICH_ONE.search(question):
        query.limit = 1  # "which one of those bakeries has better reviews": one row asked for
        rules.append({"rule": "limit", "rows": 1, "why": "a superlative and 'which one'"})


def _unsaid_columns_words(info: TableInfo, spec: Spec, rules: list[dict[str, Any]]) -> frozenset[str]:
    """Stems of the names and descriptions of the columns no condition is on: a word among them may mean a
    condition the rules missed ("accessible" for `step_free`), so it is never left out as a word of no row."""
    said = {r["column"] for r in rules if isinstance(r.get("column"), str)}
    others = {c.name for c in info.columns if c.name not in said and not is_identifier(c.name)}
    return frozenset(_column_description_words(info.name, spec, others) |
                     {stem(w) for c in others for w in re.split(r"[_\W]+", c.lower()) if w})


def _head_noun(question: str, tokens: list[Token], end: int) -> int | None:
    """The last word of the words right after a superlative, up to a small word or a mark ("cheapest maths
    tutor" -> tutor, "the cheapest cakes" -> cakes): the noun the superlative is said of. None when none follow."""
    head = None
    for i, t in enumerate(tokens):
        if t.start < end:
            continue
        gap = question[(tokens[head].end if head is not None else end):t.start]
        if t.norm in STOPWORDS or not t.raw[:1].isalpha() or gap.strip(" -"):
            break
        head = i
    return head


_FROM_POINT = re.compile(r"\s+(?:to|from)\s+(?:the\s+)?([a-z']+(?:\s+[a-z']+){0,2}?)(?=\s*(?:[?.!,]|$))", re.I)
"""The place a distance is measured from, right after "closest": "closest to the station"."""
_WHICH_ONE = re.compile(r"\bwhich\s+one\b(?!s)", re.I)


def _plural(t: Token) -> bool:
    low = t.raw.lower()
    return is_content(t) and low != t.norm and low.endswith("s")


def _value_conditions(query: Query, info: TableInfo, tables: dict[str, TableInfo],
                      matches: dict[str, list[Match]], used: set[int], rules: list[dict[str, Any]],
                      question: str = "") -> None:
    """WHERE conditions for matched values; a value of a joinable table becomes a key subquery."""
    own = matches.get(info.name, [])
    taken = set(used)
    borrowed: dict[str, list[Match]] = {}
    for other, found in matches.items():
        key = _join_key(info, tables[other]) if other != info.name else None
        for m in found if key else []:
            if not (m.span() & taken):
                borrowed.setdefault(other, []).append(m)
                taken |= m.span()
                used |= m.span()
    query.conditions += _grouped(own, "t", rules, question)
    for other, found in borrowed.items():
        key = _join_key(info, tables[other]) or ""
        inner = " AND ".join(_grouped(found, "o", rules, question))
        k = quote_identifier(key)
        query.conditions.append(f"t.{k} IN (SELECT o.{k} FROM {quote_identifier(other)} AS o WHERE {inner})")
        rules.append({"rule": "join", "table": other, "on": key})
        named = _joined_name(info, tables[other], key)
        if named and named not in query.extra:
            query.extra.append(named)


def _joined_name(info: TableInfo, other: TableInfo, key: str) -> str | None:
    """`(SELECT o.title FROM courses AS o WHERE o.course_id = t.course_id) AS course_title`: a row found through
    another table's value ("instructors of CS 229" finds offerings by the course's code) carries that row's name.
    Without it the offering was named by its first short text ("Friday") and the course was never said."""
    if any(c.name in _NAME_COLUMNS or c.name.rsplit("_", 1)[-1] in ("name", "title") for c in info.columns):
        return None  # the row has a name of its own
    col = next((c.name for k in _NAME_COLUMNS for c in other.columns if c.name == k), None) or next(
        (c.name for c in other.columns if c.name.rsplit("_", 1)[-1] in ("name", "title")), None)
    if col is None:
        return None
    thing = other.name[:-1] if other.name.endswith("s") and not other.name.endswith("ss") else other.name
    alias = col if col.startswith(thing + "_") else f"{thing}_{col}"
    if info.column(alias) is not None:
        return None
    k, o = quote_identifier(key), quote_identifier(other.name)
    return f"(SELECT o.{quote_identifier(col)} FROM {o} AS o WHERE o.{k} = t.{k} LIMIT 1) AS {quote_identifier(alias)}"


def _join_key(a: TableInfo, b: TableInfo) -> str | None:
    shared = {c.name for c in a.columns} & {c.name for c in b.columns}
    keys = sorted(n for n in shared if n.endswith("_id"))
    return keys[0] if keys else None


def _grouped(found: list[Match], alias: str, rules: list[dict[str, Any]], question: str = "") -> list[str]:
    """Positive values of one column are alternatives (OR); negated ones are each excluded. A list column holds
    several values at once: values said with no conjunction between them are all required ("vegan Thai", "for
    kids on a rainy day"), and so are values joined by "and" after "with"/"has" ("with wildflowers and a
    viewpoint"); "Thai or Vietnamese", "Italian and French", "Thai, Lao" stay alternatives."""
    by_column: dict[str, list[Match]] = {}
    for m in found:
        by_column.setdefault(m.column, []).append(m)
    conditions = []
    for column, ms in by_column.items():
        positive = list(dict.fromkeys(_condition(m, alias) for m in ms if not m.negated))
        if len(positive) > 1 and _all_of(ms, question):
            conditions += positive
            rules.append({"rule": "all-of", "column": column, "why": "a list column holds them together; no 'or'"})
        elif positive:
            conditions.append(positive[0] if len(positive) == 1 else "(" + " OR ".join(positive) + ")")
        conditions += ["NOT " + _condition(m, alias) for m in ms if m.negated]
        only = _only_these(ms, alias, question)
        if only:
            conditions.append(only)
            rules.append({"rule": "only", "column": column, "why": "'only' before or after the value: the list holds "
                                                                     "nothing else"})
        for m in ms:
            values = [e.value for e in m.entries]
            rule = {"rule": "value", "words": m.words, "column": column,
                    "value": values[0] if len(values) == 1 else values, "negated": m.negated, "match": m.kind,
                    "score": m.score}
            if m.runner_up is not None:
                rule["runner_up"] = m.runner_up
            rules.append(rule)
    return conditions


_ONLY_BEFORE = re.compile(r"\bonly\s+(?:(?:for|in|on|with|to|by|from|at|suitable\s+for)\s+)?(?:(?:a|an|the)\s+)?$", re.I)


def _only_these(ms: list[Match], alias: str, question: str) -> str | None:
    """"jobs only for mountain bikes", "vans only": a list column whose items are all among the values said
    (a row for every kind of bike also lists mountain bikes, but is not only for them)."""
    positive = [m for m in ms if not m.negated]
    if not question or not positive or not all(e.ctype == "list" for m in positive for e in m.entries):
        return None
    if not any(_ONLY_BEFORE.search(question[:m.start]) or re.match(r"\s+only\b", question[m.end:], re.I)
               for m in positive):
        return None
    values = ", ".join(_literal(e.value) for m in positive for e in m.entries)
    c = f"{alias}.{quote_identifier(positive[0].column)}"
    return f"NOT EXISTS (SELECT 1 FROM json_each({c}) WHERE json_each.value NOT IN ({values}))"


def _all_of(ms: list[Match], question: str) -> bool:
    """Several values of a list column with no conjunction or list comma between them in the question."""
    if not question or not all(e.ctype == "list" for m in ms for e in m.entries) or any(len(m.entries) > 1 for m in ms):
        return False
    spans = sorted((m.start, m.end) for m in ms if not m.negated)
    between = " ".join(question[a[1]:b[0]] for a, b in zip(spans, spans[1:]))
    if re.search(r"\b(?:with|has|have|having)\s+(?:(?:a|an|the|both|some)\s+)?$", question[:spans[0][0]], re.I) and \
            re.fullmatch(r"(?:\s*(?:,|and|plus|&)\s*(?:(?:a|an|the|some)\s+)?)+", between, re.I):
        return True  # "with wildflowers and a viewpoint": a row that has them both
    return not re.search(r"\b(?:or|either|any|and|plus)\b|[,/&]", between, re.I) and \
        not re.search(r"\b(?:either|any\s+of)\b", question[:spans[0][0]], re.I)


def _condition(m: Match, alias: str) -> str:
    parts = []
    for e in m.entries:
        c = f"{alias}.{quote_identifier(e.column)}"
        if e.ctype == "list":
            parts.append(f"EXISTS (SELECT 1 FROM json_each({c}) WHERE json_each.value = {_literal(e.value)})")
        else:
            parts.append(f"{c} = {_literal(e.value)}")
    return parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")"


def _free_text(query: Query, kb: SQLiteKB, tokens: list[Token], used: set[int], info: TableInfo,
               schema: set[str], embedder: Any, rules: list[dict[str, Any]],
               near: dict[str, tuple[float, float]], agent_words: frozenset[str] = frozenset(),
               english: frozenset[str] = frozenset(), unsaid: frozenset[str] = frozenset(), question: str = "",
               table_text: str = "") -> None:
    """Content words no other rule used: FTS5 bm25 and vector search, fused by reciprocal rank."""
    words = _free_words(tokens, used, schema)
    if not words:
        return
    if info.fts_table is None:
        rules.append({"rule": "ignored", "words": words, "why": f"{info.name} has no free-text columns"})
        return
    words = _negated_text(query, tokens, used, words, info, rules)  # "one that doesnt use heat"
    if query.conditions:
        words = _without_preamble(words, tokens, used, rules, question, kb, info)  # "I only have a lunch break, what can you do ..."
    if not words:
        return
    if query.conditions:
        words = beside_conditions(words, near, rules, info.name)
        valued = vocabulary_for(kb).tables.get(info.name)
        f_table = quote_identifier(info.fts_table)

        def restricts(w: str) -> bool:  # a word of a value ("tables": "Dining table"), or of some rows' text that
            if valued is not None and any(v in valued.by_word for v in (w, w[:-1], stem(w))):  # is not the table's
                return True  # kind in other words ("capes" restricts; "boats" for the club's kayaks and canoes does not)
            if not kb.execute(f"SELECT rowid FROM {f_table} WHERE {f_table} MATCH ? LIMIT 1", (fts_match([w]),),
                              max_rows=1).rows:
                return False
            return not _kind_of_table(w, table_text, embedder)
        words = _asked_kind(words, tokens, rules, restricts)
        words = _after_conditions(words, tokens, used, rules)
    close = [w for w in words if near.get(w, (0.0, 0.0))[0] >= ROW_NOUN_MIN]
    words = _drop_row_nouns(words, close, kb, info, rules)
    if query.conditions:  # "classical vinyl under 20 dollars" in a shop "about the vinyl in stock"
        own = [w for w in words if stem(w) in agent_words]
        words = _drop_row_nouns(words, own, kb, info, rules, "the agent's description says them (what it is "
                                "about) and the text of no row the conditions allow has them", query.conditions)
    if not words:
        return
    words = _durations(words, tokens, used, rules)  # "two weeks" also searched as the text's "14 days"
    words = split_compounds(kb, info, words)  # "checkout" searched as the text's "check-out"
    query.fts_terms = words
    rule: dict[str, Any] = {"rule": "free_text", "words": words, "index": info.fts_table, "rank": "bm25"}
    conditioned = {(r["column"], str(v)) for r in rules if isinstance(r.get("column"), str)
                   for v in (r.get("value") if isinstance(r.get("value"), list) else [r.get("value")])}
    rules.append(rule)
    from .vectors import LAZY_ROWS, vector_index

    if embedder.fallback_reason:
        rule["vectors"] = "not used: " + embedder.fallback_reason
        return
    index = vector_index(kb, embedder)
    if index is None:
        rule["vectors"] = "not used: the vector cache directory cannot be written"
        return
    if index.building(info.name):
        rule["vectors"] = "not used this time: they are being built now (FTS ranking alone)"
        return
    if not index.built(info.name):
        if info.row_count > LAZY_ROWS:
            rule["vectors"] = f"not built ({info.row_count} rows > {LAZY_ROWS}; build them with build_vectors)"
            return
        try:
            rule["vectors_built"] = index.build(kb, info, embedder)
        except Exception as exc:  # noqa: BLE001 - sqlite3/apsw "database is locked": another process builds them
            rule["vectors"] = f"not used this time: the vectors could not be built now ({type(exc).__name__}: {exc})"
            return
    # the vector query keeps the schema words ("computer vision course"): they give the words their sense
    _fuse(query, kb, index, info, words, " ".join(_free_words(tokens, used, set())), embedder, rule, english, unsaid,
          conditioned, frozenset(t.raw.lower() for i, t in enumerate(tokens) if t.capitalised and i > 0))
    _purpose(query, tokens, used, words, rule)


_PREAMBLE = re.compile(r"^\W*(?:i|i'm|im|i've|ive|we|we're|were|we've|my|our)\b[^?]*?[,.;:]\s+(?=(?:so\s+)?(?:what|which|how|"
                       r"where|when|who|can|could|do|does|is|are|any|have)\b)", re.I)
"""A sentence about the asker before the question ("I only have a lunch break, what can you do in under half an
hour?")."""


def _without_preamble(words: list[str], tokens: list[Token], used: set[int], rules: list[dict[str, Any]],
                      question: str, kb: SQLiteKB, info: TableInfo) -> list[str]:
    """Beside conditions the question itself sets, the words no row's text has in a sentence about the asker said
    before the question search nothing: they tell why, not which rows ("lunch break"). Its values ("I'm vegan, ...")
    were read as conditions, and its words a row's text has ("I dropped my phone in the toilet, can you save it")
    are still searched."""
    m = _PREAMBLE.match(question)
    if m is None:
        return words
    told = {t.raw.lower() for i, t in enumerate(tokens) if t.start < m.end() and i not in used}
    f = quote_identifier(info.fts_table or "")
    dropped = [w for w in words if w in told and not kb.execute(  # a word some row's text has is the need itself
        f"SELECT rowid FROM {f} WHERE {f} MATCH ? LIMIT 1", (fts_match([w]),), max_rows=1).rows]  # ("toilet")
    if dropped:
        rules.append({"rule": "ignored", "words": dropped, "why": "said about the asker before the question"})
    return [w for w in words if w not in dropped]


_TEXT_NEGATIONS = frozenset("not no without doesnt dont isnt never non nothing".split())
_TEXT_VERBS = frozenset("use uses using involve involves involving contain contains containing include includes "
                        "including need needs needing require requires requiring have has having".split())
_TEXT_SMALL = frozenset("any a an the".split())


def _negated_text(query: Query, tokens: list[Token], used: set[int], words: list[str], info: TableInfo,
                  rules: list[dict[str, Any]]) -> list[str]:
    """Searched words the question negates ("a bed bug treatment that doesnt use heat", "without chemicals", "not
    using any poison"): the rows whose text says them are left out, and they are not searched. A negation reaches
    the word directly or through one verb of using or having (and "any"/"a"), nothing further."""
    runs: list[list[str]] = []
    for w in words:
        at = next((i for i, t in enumerate(tokens) if t.raw.lower() == w and i not in used), None)
        if at is None or any(w in run for run in runs):
            continue
        back = [tokens[j].norm for j in range(at - 1, max(-1, at - 4), -1)]
        while back and back[0] in _TEXT_SMALL:
            back = back[1:]
        if back and back[0] in _TEXT_VERBS:
            back = back[1:]
        if back and back[0] in _TEXT_NEGATIONS:
            run = [w]  # "doesnt use heating pipes": the searched words right after it are one thing, negated whole
            for j in range(at + 1, min(len(tokens), at + 3)):
                nxt = tokens[j].raw.lower()
                if j in used or nxt not in words:
                    break
                run.append(nxt)
            runs.append(run)
    if not runs:
        return words
    f = quote_identifier(info.fts_table or "")
    for run in runs:
        match = " AND ".join(fts_match([w]) for w in run)
        denied = " OR ".join(f'NEAR("{n}" {fts_match([run[0]])}, 2)' for n in ("no", "not", "without", "non", "free"))
        # a row whose text says "no stairs at all" agrees with "a room without stairs": kept
        query.conditions.append(f"t.rowid NOT IN (SELECT rowid FROM {f} WHERE {f} MATCH {_literal(match)} AND rowid NOT IN "
                                f"(SELECT rowid FROM {f} WHERE {f} MATCH {_literal(denied)}))")
    negated = [w for run in runs for w in run]
    rules.append({"rule": "free_text_negated", "words": negated, "index": info.fts_table,
                  "why": "negated: the rows whose text says them are left out"})
    return [w for w in words if w not in negated]


_PURPOSE = re.compile(r"\bfor\s+(?:my|our|a|an|the|his|her|their|some|this|that|your)\s+"
                      r"(?P<what>(?:(?!\b(?:with|that|who|which|where|having|has|have|needs?)\b)[^,.;!?])+)", re.I)
"""What the rows are wanted for ("business cards for my new cleaning business", "a banner for our village fete"); a
need said after it is no purpose ("for a dog with itchy skin": the itchy skin chooses the rows)."""


_BENEFICIARIES = frozenset("""child children kid kids baby babies toddler toddlers son daughter boy boys girl girls teen
    teens teenager teenagers user users person people beginner beginners adult adults man men woman women someone
    somebody family families coeliac coeliacs celiac diabetic diabetics senior
    seniors pensioner pensioners elderly disabled wheelchair dog dogs cat cats puppy pet pets student students
    nanny grandma grandad mum mom dad wife husband partner""".split())
"""Who the rows are for ("wetsuits for a child", "a room for a wheelchair user", "cakes for a coeliac"): a need that
chooses rows, not a purpose that only orders them."""


def _purpose(query: Query, tokens: list[Token], used: set[int], words: list[str], rule: dict[str, Any]) -> None:
    """Searched words that only say what the rows are for, beside conditions that choose the rows: they order the
    rows (the text that speaks of a village fete first), they keep none out (every banner is for a fete)."""
    if not query.conditions or not words:
        return
    spans = [(m.start("what"), m.end("what")) for m in _PURPOSE.finditer(" ".join(t.raw for t in tokens))]
    if not spans:
        return
    at, purpose = 0, set()  # token offsets in the words joined by single spaces
    for i, t in enumerate(tokens):
        if any(a <= at < b for a, b in spans):
            purpose.add(t.raw.lower())
        at += len(t.raw) + 1
    if all(w in purpose for w in words) and not purpose & _BENEFICIARIES:
        query.rank_only = True
        rule["filter"] = "none: the words say what the rows are for, so they order the rows the conditions find"


def _durations(words: list[str], tokens: list[Token], used: set[int], rules: list[dict[str, Any]]) -> list[str]:
    """A length of time among the searched words ("kept for two weeks") is searched as a phrase in each unit
    that holds it whole ("two weeks", "2 weeks", "14 days", "fortnight"), not as its separate words."""
    for i, said in durations([t.raw.lower() for t in tokens]):
        number, unit = tokens[i].raw.lower(), tokens[i + 1].raw.lower()
        if {i, i + 1} & used or unit not in words:
            continue
        words = [w for w in words if w not in (number, unit)] + said
        rules.append({"rule": "duration", "words": said[0], "searched": said})
    return words


def _agent_words(spec: Spec) -> frozenset[str]:
    """Stems of the content words of the agent's own description."""
    return frozenset(stem(t.norm) for t in tokenize(spec.description or "") if is_content(t))


def _drop_row_nouns(words: list[str], close: list[str], kb: SQLiteKB, info: TableInfo,
                    rules: list[dict[str, Any]], why: str = "", within: list[str] | None = None) -> list[str]:
    """Leftover words that only name the table's rows in other words ("novels" in a books table,
    "eateries" among restaurants) and occur in no row's text: they say what is asked about, not which
    rows. A word that means something else ("vegan") stays, and finding nothing is then said."""
    if not close:
        return words
    f = quote_identifier(info.fts_table or "")
    among = "".join(f" AND {c}" for c in within or [])
    absent = [w for w in close if not kb.execute(
        f"SELECT t.rowid FROM {quote_identifier(info.name)} AS t WHERE t.rowid IN "
        f"(SELECT rowid FROM {f} WHERE {f} MATCH ?){among} LIMIT 1", (fts_match([w]),), max_rows=1).rows]
    if absent:
        rules.append({"rule": "ignored", "words": absent,
                      "why": why or f"they name the {info.name} rows themselves and no row's text has them"})
    return [w for w in words if w not in absent]


_PRICE_VERB = re.compile(r"\b(?:do|does|did|would|will|could|might)\s+(?:you|u|ya|they|it|that|this|you\s+guys|y'?all)"
                         r"\s+(?P<verb>charge|cost)\b|\bhow\s+much\s+(?:is|are|would|will)\s+(?:it|that|this|they|you)\s+"
                         r"(?P<verb2>charging|costing)\b|\b(?:who|that|which|[a-z]+s)\s+"
                         r"(?P<verb3>charg(?:e|es|ing)|cost(?:s|ing)?|priced)\s+(?=(?:less|more|under|over|below|above|"
                         r"between|max|maximum|up\s+to|at\s+(?:most|least)|no\s+more)\b)", re.I)
"""The verb of a price question ("what do you charge for a screen", "how much would it cost to ...") or of a price
comparison after the rows or a relative ("translators charging less than 10 cents a word", "ones that cost under"):
it asks or bounds the price, it searches nothing ("charge my electric car", "EV charging under £2" stay searches)."""


def _price_verbs(question: str, tokens: list[Token], rules: list[dict[str, Any]]) -> set[int]:
    spans = [(m.start(next(g for g in ("verb", "verb2", "verb3") if m.group(g))), m.end())
             for m in _PRICE_VERB.finditer(question)]
    found = {i for a, b in spans for i, t in enumerate(tokens) if a <= t.start < b}
    if found:
        rules.append({"rule": "ignored", "words": [tokens[i].raw.lower() for i in sorted(found)],
                      "why": "the verb of a price question: it asks the price, it names no rows"})
    return found


_FILLER = re.compile(r"\b(?:at\s+the\s+(?:moment|minute)|right\s+now|just\s+now|at\s+present|currently|"
                     r"on\s+board|these\s+days|nowadays|feel\s+free(?:\s+to)?)\b", re.I)
"""English phrases of the asker's time or place ("which plots are free at the moment", "a cinema on board"): they
select no rows, so they are neither values nor search terms."""


def _fillers(question: str, tokens: list[Token], rules: list[dict[str, Any]]) -> set[int]:
    spans = [(m.start(), m.end()) for m in _FILLER.finditer(question)]
    found = {i for a, b in spans for i, t in enumerate(tokens) if a <= t.start < b}
    if found:
        rules.append({"rule": "ignored", "words": [tokens[i].raw.lower() for i in sorted(found)],
                      "why": "they say when or where the asker is, not which rows"})
    return found


_DEGREE = frozenset({"complete", "total", "absolute", "utter", "real", "proper", "true", "genuine", "very",
                     "really", "pure"})
"""English words that say how much of a value is meant, right before it ("complete beginners")."""


def _after_conditions(words: list[str], tokens: list[Token], used: set[int], rules: list[dict[str, Any]]) -> list[str]:
    """A leftover word right after the words a condition used (or after "to" there) says more about that
    condition, not another one: "wheelchair user", "a licence to drive", "Spanish speaking". A word before a
    condition's words ("cozy italian") still filters, unless it only says how much ("complete beginners")."""
    tails = set()
    for i, t in enumerate(tokens):
        if i in used:
            continue
        if i > 0 and (i - 1 in used or (i >= 2 and tokens[i - 1].norm == "to" and i - 2 in used)):
            tails.add(t.raw.lower())
        elif i + 1 in used and t.norm in _DEGREE:  # "complete beginners", "total novices": how much, not what
            tails.add(t.raw.lower())
        elif i + 2 < len(tokens) and tokens[i + 1].norm in ("in", "within") and i + 2 in used and (
                tokens[i + 2].norm in _COMPARISON_LEADS or tokens[i + 2].norm[:1].isdigit()):
            tails.add(t.raw.lower())  # "ready in less than a week", "done within 3 days": the verb of the comparison
    dropped = [w for w in words if w in tails]
    if dropped:
        rules.append({"rule": "ignored", "words": dropped,
                      "why": "they follow the words of a condition and say more about it"})
    return [w for w in words if w not in tails]


_COMPARISON_LEADS = frozenset("less more under over fewer about around roughly at no".split())
"""Words a comparison may start with after "in"/"within" ("ready in less than a week")."""
_ACCEPTING = frozenset({"take", "takes"})
"""Verbs of accepting, like the stopwords "accept" and "carry", that search nothing ("depots that can take
furniture"); not stopwords, so a column's description ("Whether the boat takes pets") still names it."""


_PLACEHOLDERS = frozenset("thing things stuff job jobs option options choice choices kind kinds sort sorts type types "
                          "ones".split())
"""Nouns that stand for whatever the rows are ("the cheapest job you do", "what options"): they search nothing."""


_WHICH = frozenset("which what any".split())
_QUALIFYING = frozenset("with that which where who under over for without".split())
_MUST_I = re.compile(r"^\W*(?:do|does|will|would)\s+(?:i|we|you|they|he|she|one)\s+(?:have|need)\s+to\b", re.I)
"""A question of what the asker must do ("do I have to be referred to use the fridges?"): the yes/no column it names
is the answer, shown for the rows the rest chooses, not a filter of them."""
_RELATIVE = frozenset("that which who whose with where".split())


def _must_i_bools(question: str, tokens: list[Token], yes_no: list[Any]) -> list[Any]:
    """The yes/no conditions a "do I have to ..." question names before any relative clause ("do I have to pay a
    deposit for the costumes that need a fitting?": the deposit is asked; the fitting still chooses the rows)."""
    if not _MUST_I.match(question):
        return []
    stop = next((i for i, t in enumerate(tokens) if i > 2 and t.raw.lower() in _RELATIVE), len(tokens))
    return [b for b in yes_no if b.tokens and max(b.tokens) < stop]


_KIND_OF_TABLE = 0.45
"""Cosine of a noun to the KB table's description at or above which the noun is the rows' kind in other words
("boats" to "The club's kayaks, canoes and paddleboards" 0.60; "capes" to "The costumes for hire ..." 0.22)."""


def _kind_of_table(word: str, table_text: str, embedder: Any) -> bool:
    if not table_text.strip() or embedder is None or getattr(embedder, "fallback_reason", None):
        return False
    vectors = embedder.encode([word, table_text])
    return float(vectors[0] @ vectors[1]) >= _KIND_OF_TABLE


def _asked_kind(words: list[str], tokens: list[Token], rules: list[dict[str, Any]],
                a_value: Callable[[str], bool]) -> list[str]:
    """Beside structured conditions, the plural noun a "which"/"what"/"any" question asks for ("which boats are
    members only") or that a request starts with ("boats with 3 or more seats") names the kind of row asked, whatever
    the table is called, when it restricts nothing (`a_value` false: no value has it, and no row's text, or it means
    the table's description in other words): the conditions choose the rows, so the noun searches nothing. A word
    of the rows' values or text ("which doublets are in medium", "any capes that need a fitting", "tables that
    fold") restricts as before. (Words of the table's description are no search words already.)"""
    heads = set()
    for i, t in enumerate(tokens[:-1]):
        if t.raw.lower() not in _WHICH:
            continue
        j = i + 1
        if tokens[j].raw.lower() == "of" and j + 2 < len(tokens) and tokens[j + 1].raw.lower() in ("your", "the", "these",
                                                                                                  "those"):
            j += 2  # "which of your visas"
        word = tokens[j].raw.lower()
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and not a_value(word):
            heads.add(word)  # ("which doublets are in medium": a word of rows' names, which restricts)
    first = tokens[0].raw.lower() if tokens else ""
    if len(tokens) > 2 and len(first) > 3 and first.endswith("s") and not first.endswith("ss") \
            and tokens[1].raw.lower() in _QUALIFYING and first in words and not a_value(first):
        heads.add(first)  # "boats with 3 or more seats", unless a word of a value ("tables that fold": of the value
        # "Dining table", which restricts)
    dropped = [w for w in words if w in heads]
    if dropped:
        rules.append({"rule": "ignored", "words": dropped, "why": "the kind of row the question asks for; the "
                                                                   "conditions choose the rows"})
    return [w for w in words if w not in dropped]


def _free_words(tokens: list[Token], used: set[int], schema: set[str]) -> list[str]:
    words: list[str] = []
    for i, t in enumerate(tokens):
        w = t.raw.lower()
        if i not in used and len(w) >= 3 and is_content(t, schema) and w not in words and w not in _ACCEPTING \
                and w not in _PLACEHOLDERS:
            words.append(w)
    return words


def _fuse(query: Query, kb: SQLiteKB, index: Any, info: TableInfo, words: list[str], phrase: str, embedder: Any,
          rule: dict[str, Any], english: frozenset[str] = frozenset(), unsaid: frozenset[str] = frozenset(),
          conditioned: set[tuple[str, str]] | None = None, names: frozenset[str] = frozenset()) -> None:
    t, f = quote_identifier(info.name), quote_identifier(info.fts_table or "")
    where = "".join(f" AND {c}" for c in query.conditions)
    fts_sql = (f"SELECT t.rowid AS rid FROM {t} AS t JOIN {f} AS f ON f.rowid = t.rowid "
               f"WHERE {f} MATCH ?{where} ORDER BY bm25({f}) LIMIT {_CANDIDATES}")
    fts_ids = [r["rid"] for r in kb.execute(fts_sql, (fts_match(words),), max_rows=_CANDIDATES).rows]
    fts_ids = _most_words(query, kb, info, words, fts_ids, rule)
    allowed = None
    if query.conditions:
        result = kb.execute(f"SELECT t.rowid AS rid FROM {t} AS t WHERE {' AND '.join(query.conditions)}",
                            max_rows=20_000)
        allowed = None if result.truncated else [r["rid"] for r in result.rows]
    vector = embedder.encode([phrase])[0]
    hits, baseline = ([], 0.0) if allowed == [] else index.search(info.name, vector, allowed, _CANDIDATES, VECTOR_MIN)
    if hits and allowed is not None and not fts_ids:  # no allowed row's text has the words: the hits stand out
        # from what any row of the whole table scores; among the allowed rows alone ("herbs for cooking": only
        # herbs), their mean is the hit itself. With text hits, the vectors only re-rank those as before.
        baseline = index.search(info.name, vector, None, 1, 1.0)[1]
    if hits:  # a hit stands out from what any row of the table scores, and is near the best row
        cutoff = max(baseline + VECTOR_LIFT, hits[0][1] - VECTOR_BAND)
        hits = [(r, sim) for r, sim in hits if sim >= cutoff]
    scores: dict[int, float] = {}
    for ranking in (fts_ids, [r for r, _ in hits]):
        for rank, rowid in enumerate(ranking):
            scores[rowid] = scores.get(rowid, 0.0) + 1.0 / (RRF_K + rank + 1)
    query.ranked = sorted(scores, key=lambda r: (-scores[r], r))[:_CANDIDATES]
    rule.update({"rank": "rrf(bm25, vector)", "vector_query": phrase, "fts_hits": len(fts_ids), "vector_hits": len(hits),
                 "vector_best": round(hits[0][1], 3) if hits else None, "vector_baseline": round(baseline, 3)})
    if (not fts_ids or allowed) and (allowed or (query.order and not hits)) and all(w in _FRAME_VERBS for w in words):
        # "clinics open on a saturday", "clinics that run on Tuesdays", "anything that meets on Tuesdays": the verb
        # says the rows happen and the conditions alone find rows; searching it would only empty or cut the answer
        # to rows whose text happens to say it (a vector hit for "clinics open" is the nearest text to a verb, not
        # a row that is open)
        query.fts_terms, query.ranked = [], None
        rule["dropped"] = "no row the conditions find has these words, and they only say that the rows happen"
    elif not fts_ids and not hits and allowed and english and all(p.isdigit() or _english(p, english)
                                                                  for w in words for p in w.split()) \
            and not known_words(kb, words) and not {stem(p) for w in words for p in w.split()} & unsaid \
            and not _like_a_value(kb, info, words, embedder, conditioned or set(), names):
        # "a maths tutor based in Redland", "garden things you take away": the conditions find rows, and the words
        # are English ones that no value and no text of the KB has, nor means, nor the name or description of a
        # column no condition is on ("accessible": the step-free column); they tell no rows apart, so they
        # filter nothing, and the reply says they were left out (a word the KB has, "tables", or one that is no
        # word, "zzqxv", still empties the answer, and the reply names the condition to drop)
        query.fts_terms, query.ranked = [], None
        rule["dropped"] = UNKNOWN_WORDS
        rule["left_out"] = " ".join(words)


MOST_WORDS = 0.6  # a row whose text has the rarer words of the question: kept when its words weigh at least this
# share of the best row's (idf weights); "nelson sauvin hops" keeps the two rows with all three, not the nine
# that only say "hops"


def _most_words(query: Query, kb: SQLiteKB, info: TableInfo, words: list[str], fts_ids: list[int],
                rule: dict[str, Any]) -> list[int]:
    """Of the rows whose text has some of the words, those that have most of them, rare words weighing more (a
    coordination match by idf): the words together say what is wanted, and a row with only the commonest of them
    ("hops", "free", "blood") is not it. Sets `query.fts_expr` to the groups of words the kept rows have."""
    if len(words) < 2 or len(fts_ids) < 2:
        return fts_ids
    f = quote_identifier(info.fts_table or "")
    cover: dict[int, set[str]] = {r: set() for r in fts_ids}
    weight: dict[str, float] = {}
    total = max(info.row_count, 1)
    among = ", ".join(str(int(r)) for r in fts_ids)
    for w in words:
        n = kb.execute(f"SELECT count(*) AS n FROM {f} WHERE {f} MATCH ?", (fts_match([w]),), max_rows=1).rows[0]["n"]
        weight[w] = math.log((total + 1) / (n + 0.5))
        for r in kb.execute(f"SELECT rowid AS rid FROM {f} WHERE {f} MATCH ? AND rowid IN ({among})", (fts_match([w]),),
                            max_rows=len(fts_ids)).rows:
            cover[r["rid"]].add(w)
    score = {r: sum(weight[w] for w in c) for r, c in cover.items()}
    best = max(score.values())
    most = max(len(c) for c in cover.values())
    keep = [r for r in fts_ids if score[r] >= MOST_WORDS * best]
    if most < len(words) or best <= 0 or len(keep) == len(fts_ids):
        # some row must have every word for them to say together what is wanted: "wedding" and "band" of "I run a
        # wedding band and need somewhere to rehearse" tell about the asker, not the one room that says both
        return fts_ids
    groups = sorted({tuple(w for w in words if w in cover[r]) for r in keep})
    query.fts_expr = " OR ".join("(" + " AND ".join('"' + w.replace('"', '""') + '"' for w in g) + ")" for g in groups)
    rule["most_words"] = {"words": [list(g) for g in groups], "rows": len(keep), "of": len(fts_ids)}
    return keep


_INFLECTIONS = ("s", "es", "ed", "d", "ing", "er", "ers", "est", "iest", "ier", "ies", "ied", "ly")


def _same_stem(said: str, word: str) -> bool:
    """One word is the other with an ending ("moderately", "moderate"): all but the last letter of the shorter
    begins the longer."""
    short, long_ = sorted((said, word), key=len)
    return len(short) >= 4 and long_.startswith(short[:-1])


FUZZY_SPELLING = 0.9  # an English word this close to a value's word is its other spelling ("color"/"colour" 0.91);
# further off it is a word of its own ("getting"/"netting" 0.86)


def _english(word: str, english: frozenset[str]) -> bool:
    """A word of the model's English word list, or one of them with an English ending ("fussed", "whatevers",
    "scariest"); "zzqxv" is none."""
    return word in english or any(word.endswith(e) and len(word) - len(e) >= 3 and
                                  (word[:-len(e)] in english or word[:-len(e)] + "e" in english
                                   or word[:-len(e)] + "y" in english) for e in _INFLECTIONS)


VALUE_LIKE = 0.46  # cosine of a left-over word to a value of a column no condition is on: a thing of the same
# kind the KB lacks ("pool" 0.50 to the feature "Hot Tub", "korean" 0.53 to "German"), not a word of no row
# ("based" 0.40, "house" 0.40 once the condition's own column is set aside)


def _like_a_value(kb: SQLiteKB, info: TableInfo, words: list[str], embedder: Any,
                  conditioned: set[tuple[str, str]], names: frozenset[str] = frozenset()) -> bool:
    """Whether a word is near a value no condition asks for: then it is a wish the KB cannot meet ("cottages with
    a pool", "translators who speak German and Korean"), and the answer stays empty with the condition to drop
    named."""
    vocab = vocabulary_for(kb)
    if info.name not in vocab.tables:
        return False
    entries, vectors = vocab.value_vectors(info.name, embedder)
    columns = {c for c, _v in conditioned}  # a row has one value of a text column: another one is no second wish
    said = {v.casefold() for _c, v in conditioned}  # nor is a value already asked for, in any column ("kids")
    keep = [k for k, e in enumerate(entries) if str(e.value).casefold() not in said
            and not (e.ctype != "list" and e.column in columns)] if vectors is not None else []
    if not keep:
        return False
    found = embedder.encode(words)
    # another item of a list column already asked for counts only when it is said as a name ("German and Korean"),
    # not an ordinary word ("is my baby too young" beside the age group Babies: "young" is near "Juniors")
    return any(float(v @ vectors[k]) >= VALUE_LIKE and (entries[k].column not in columns or w in names)
               for w, v in zip(words, found) for k in keep)


UNKNOWN_WORDS = "no value or text of the KB has these words or means them; the conditions answer"


_FRAME_VERBS = frozenset("open opens opened run runs running held hold holds operate operates operating happen "
                         "happens happening on meet meets meeting play plays playing".split())
"""Verbs that ask whether a row takes place at all; searched as text only when some row's text has them."""


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"
