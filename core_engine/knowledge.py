"""The offline knowledge parser: `answer("cheap Thai in Palo Alto")` to SQL, with no network.

It reads the KB itself (DESIGN §5): the distinct values of its text and list
columns are the vocabulary, so a new project's data works without code. A
question is matched, longest phrase first, against those values (cuisines,
cities, course codes, row names); the words around a match can negate it
("not Thai"); numbers next to a column word become comparisons ("at least 4
stars"); "best rated" and "most reviews" become an ORDER BY; the content words
left over are searched in the table's FTS5 index and ranked by bm25. Every
decision is written down as a rule entry, so the trace shows why the SQL is
what it is. The only words built in are a small table of generic synonyms.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from .agent import BACKEND_FACTORIES
from .errors import KnowledgeError
from .kb import SQLiteKB, TableInfo, quote_identifier
from .spec import Spec
from .state import KBRecord

__all__ = ["OfflineKnowledgeParser", "SQLKnowledge", "Query"]

SYNONYMS = {
    "fall": "autumn", "inexpensive": "cheap", "affordable": "cheap", "budget": "cheap", "cheapest": "cheap",
    "pricey": "expensive", "upscale": "expensive", "sf": "san francisco", "stars": "rating", "star": "rating",
    "rated": "rating",
}
STOPWORDS = frozenset("""
    a about above after again all also am an and any are as at be been before being below best between both
    but by can could did do does doing down during each few find for from further get give good great had has
    have having he her here hers him his how i if in into is it its itself just know least less like looking
    list me more most my need near nice no nor not of off on once only or other our out over own place places
    please recommend same she should show so some someone something somewhere spot spots suggest than that the
    their them then there these they this those through to too top under until up very want was we were what
    when where which while who whom why will with without would you your tell want wants let us one ones
    highest lowest rating rated reviews review many much number
""".split())
NEGATIONS = ("not", "no", "except", "without", "excluding", "but not", "other than", "isn't", "aren't")
_LESS = ("under", "below", "less than", "fewer than", "at most", "no more than", "lower than", "cheaper than")
_MORE = ("above", "over", "more than", "at least", "greater than", "higher than", "better than", "no less than")
_NUMBER = r"(\d+(?:\.\d+)?)"
_WORD = re.compile(r"[a-z0-9]+")
_MAX_DISTINCT = 500


@dataclass
class _Value:
    """A value of a column and the pattern that finds it in a question."""

    column: str
    ctype: str
    value: Any
    pattern: re.Pattern[str]
    position: int  # the column's place in the table: earlier columns win ties


@dataclass
class _Match:
    start: int
    end: int
    value: _Value
    words: str = ""
    negated: bool = False


@dataclass
class Query:
    """The parts of one SELECT; `sql()` renders it, `structured()` drops the free-text search."""

    table: str
    fts_table: str | None
    conditions: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    fts_terms: list[str] = field(default_factory=list)
    limit: int = 50

    def sql(self) -> str:
        t = quote_identifier(self.table)
        parts = [f"SELECT t.* FROM {t} AS t"]
        where = list(self.conditions)
        order = list(self.order)
        if self.fts_terms and self.fts_table:
            f = quote_identifier(self.fts_table)
            parts.append(f"JOIN {f} AS f ON f.rowid = t.rowid")
            match = " OR ".join(f'"{w}"' for w in self.fts_terms)
            where.append(f"{f} MATCH {_literal(match)}")
            order.append(f"bm25({f})")
        if where:
            parts.append("WHERE " + " AND ".join(where))
        if order:
            parts.append("ORDER BY " + ", ".join(order))
        parts.append(f"LIMIT {int(self.limit)}")
        return " ".join(parts)

    def structured(self) -> "Query":
        return Query(self.table, self.fts_table, list(self.conditions), list(self.order), [], self.limit)


class OfflineKnowledgeParser:
    """Value matching plus full-text search over the KB; deterministic and local."""

    def __init__(self) -> None:
        self._vocab: dict[tuple[int, str, int], list[_Value]] = {}

    def to_sql(self, question: str, kb: SQLiteKB, spec: Spec) -> tuple[str, list[dict[str, Any]]]:
        query, rules = self.parse(question, kb, spec)
        return query.sql(), rules

    def parse(self, question: str, kb: SQLiteKB, spec: Spec) -> tuple[Query, list[dict[str, Any]]]:
        """The query for a question, and the rules that built it."""
        tables = kb.tables()
        if not tables:
            raise KnowledgeError("the knowledge base has no tables", question=question)
        text = _normalise(question)
        rules: list[dict[str, Any]] = []
        matches = {name: self._matches(text, kb, info) for name, info in tables.items()}
        name = _choose_table(text, tables, spec, matches, rules)
        info = tables[name]
        query = Query(name, info.fts_table, limit=spec.settings.kb_max_rows)
        used = _value_conditions(query, info, tables, matches, rules)
        used += _numeric_conditions(query, text, info, rules)
        _ordering(query, text, info, rules)
        _free_text(query, text, used, info, tables, spec, rules)
        return query, rules

    # -- vocabulary ----------------------------------------------------------

    def _matches(self, text: str, kb: SQLiteKB, info: TableInfo) -> list[_Match]:
        """Non-overlapping value matches, longest first; a phrase goes to the earliest column that has it."""
        found = [
            _Match(m.start(), m.end(), v, m.group(0))
            for v in self._values(kb, info)
            for m in v.pattern.finditer(text)
        ]
        found.sort(key=lambda m: (-(m.end - m.start), m.value.position, m.start))
        chosen: list[_Match] = []
        for m in found:
            if all(m.end <= c.start or m.start >= c.end for c in chosen):
                m.negated = _negated(text, m.start)
                chosen.append(m)
        return sorted(chosen, key=lambda m: m.start)

    def _values(self, kb: SQLiteKB, info: TableInfo) -> list[_Value]:
        key = (id(kb), info.name, info.row_count)
        if key not in self._vocab:
            values = []
            for position, col in enumerate(info.columns):
                if col.free_text or col.type not in ("text", "list") or _is_identifier(col.name):
                    continue
                distinct = kb.distinct_values(info.name, col.name, limit=_MAX_DISTINCT + 1)
                if len(distinct) > _MAX_DISTINCT:
                    continue
                for value in distinct:
                    pattern = _value_pattern(value)
                    if pattern is not None:
                        values.append(_Value(col.name, col.type, value, pattern, position))
            self._vocab[key] = values
        return self._vocab[key]


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
        except KnowledgeError as exc:
            record.status = "error"
            record.error = exc.message
            trace.append({"query": record.query, "error": record.error})
            return
        record.sql = result.sql
        record.result = result.rows
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
    return list(query.conditions)


def offline_knowledge(agent: Any, **options: Any) -> tuple[SQLiteKB, SQLKnowledge]:
    """BACKEND_FACTORIES entry for ("knowledge", "offline")."""
    kb = SQLiteKB(agent.kb_path)
    return kb, SQLKnowledge(kb, OfflineKnowledgeParser())


BACKEND_FACTORIES[("knowledge", "offline")] = offline_knowledge


# -- question analysis (pure) -----------------------------------------------------


def _normalise(question: str) -> str:
    words = re.findall(r"[a-z0-9]+(?:[.'][a-z0-9]+)*|[^\sa-z0-9]", question.lower())
    return " ".join(SYNONYMS.get(w, w) for w in words)


def _stem(word: str) -> str:
    for suffix in ("ings", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _is_identifier(column: str) -> bool:
    return column == "id" or column.endswith("_id") or column.endswith("_url") or column.endswith("_path")


def _value_pattern(value: Any) -> re.Pattern[str] | None:
    """A regex for a value as a user would type it: any case, optional plural, `CS 108` or `cs108`."""
    if not isinstance(value, str):
        return None
    words = _WORD.findall(value.lower())
    if not words or (len(words) == 1 and (len(words[0]) < 2 or words[0] in STOPWORDS)):
        return None
    compact = any(ch.isdigit() for ch in value)
    parts = []
    for w in words:
        if not compact and len(w) > 3 and w.endswith("s"):
            w = w[:-1]
        parts.append(re.escape(w) + ("" if compact else "(?:e?s)?"))
    glue = r"\s*" if compact else r"\W+"
    return re.compile(r"(?<![a-z0-9])" + glue.join(parts) + r"(?![a-z0-9])")


def _negated(text: str, start: int) -> bool:
    before = text[:start].split()[-3:]
    tail = " ".join(before)
    return any(tail.endswith(n) or f" {n} " in f" {tail} " for n in NEGATIONS)


def _content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if w not in STOPWORDS and not w.isdigit()]


def _choose_table(text: str, tables: dict[str, TableInfo], spec: Spec, matches: dict[str, list[_Match]],
                  rules: list[dict[str, Any]]) -> str:
    """The table whose name, description and column names and values best match the question."""
    stems = {_stem(w) for w in _content_words(text)}
    stems |= {_stem(w) for w in _WORD.findall(text) if w in ("rating", "reviews", "review")}
    order = [w.name for w in spec.kb_worksheets() if w.name in tables]
    order += [n for n in tables if n not in order]
    best, best_score, why = order[0], -1.0, {}
    for name in order:
        ws = spec.worksheet(name)
        name_words = {_stem(w) for w in _WORD.findall(name.replace("_", " "))}
        other = {_stem(w) for w in _WORD.findall((ws.description if ws else "").lower())}
        other |= {_stem(w) for c in tables[name].columns for w in c.name.split("_")}
        hits = {"name": sorted(stems & name_words), "words": sorted((stems & other) - name_words),
                "values": len(matches[name])}
        score = 2 * len(hits["name"]) + len(hits["words"]) + 0.5 * hits["values"]
        if score > best_score:
            best, best_score, why = name, score, hits
    if len(tables) > 1:
        rules.append({"rule": "table", "table": best, "score": best_score, **why})
    return best


def _value_conditions(query: Query, info: TableInfo, tables: dict[str, TableInfo],
                      matches: dict[str, list[_Match]], rules: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """WHERE conditions for matched values; a value of a joinable table becomes a key subquery."""
    used: list[tuple[int, int]] = []
    own = matches[info.name]
    spans = [(m.start, m.end) for m in own]
    borrowed: dict[str, list[_Match]] = {}
    for other, found in matches.items():
        if other == info.name:
            continue
        key = _join_key(info, tables[other])
        for m in found:
            if key and all(m.end <= s or m.start >= e for s, e in spans):
                borrowed.setdefault(other, []).append(m)
                spans.append((m.start, m.end))
    query.conditions += _grouped(own, "t", rules)
    used += [(m.start, m.end) for m in own]
    for other, found in borrowed.items():
        key = _join_key(info, tables[other])
        inner = " AND ".join(_grouped(found, "o", rules))
        k = quote_identifier(key)
        query.conditions.append(f"t.{k} IN (SELECT o.{k} FROM {quote_identifier(other)} AS o WHERE {inner})")
        rules.append({"rule": "join", "table": other, "on": key})
        used += [(m.start, m.end) for m in found]
    return used


def _join_key(a: TableInfo, b: TableInfo) -> str | None:
    shared = {c.name for c in a.columns} & {c.name for c in b.columns}
    keys = sorted(n for n in shared if n.endswith("_id"))
    return keys[0] if keys else None


def _grouped(found: list[_Match], alias: str, rules: list[dict[str, Any]]) -> list[str]:
    """Positive values of one column are alternatives (OR); negated ones are each excluded."""
    by_column: dict[str, list[_Match]] = {}
    for m in found:
        by_column.setdefault(m.value.column, []).append(m)
    conditions = []
    for column, ms in by_column.items():
        positive = [_condition(m, alias) for m in ms if not m.negated]
        if positive:
            conditions.append(positive[0] if len(positive) == 1 else "(" + " OR ".join(positive) + ")")
        conditions += ["NOT " + _condition(m, alias) for m in ms if m.negated]
        for m in ms:
            rules.append({"rule": "value", "words": m.words, "column": column, "value": m.value.value,
                          "negated": m.negated})
    return conditions


def _condition(m: _Match, alias: str) -> str:
    c = f"{alias}.{quote_identifier(m.value.column)}"
    if m.value.ctype == "list":
        return f"EXISTS (SELECT 1 FROM json_each({c}) WHERE json_each.value = {_literal(m.value.value)})"
    return f"{c} = {_literal(m.value.value)}"


def _numeric_columns(info: TableInfo) -> list[str]:
    return [c.name for c in info.columns if c.type in ("int", "float") and not _is_identifier(c.name)]


def _column_for(word: str, info: TableInfo, less: bool) -> str | None:
    """The numeric column a word names: `rating`, `units` (min_ for upper bounds, max_ for lower ones)."""
    stem = _stem(word)
    found = [n for n in _numeric_columns(info) if any(_stem(p) == stem for p in n.split("_"))]
    if not found:
        return None
    prefer = "min_" if less else "max_"
    return next((n for n in found if n.startswith(prefer)), found[0])


def _numeric_conditions(query: Query, text: str, info: TableInfo, rules: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """`rating above 4`, `at least 4 rating`, `under 3 units` -> comparisons on numeric columns."""
    used = []
    at_most, at_least = ("at most", "no more than"), ("at least", "no less than")
    ops = [(p, "<=" if p in at_most else "<") for p in _LESS] + [(p, ">=" if p in at_least else ">") for p in _MORE]
    for phrase, op in ops:
        pattern = re.compile(rf"(?:(\w+)\s+)?{re.escape(phrase)}\s+{_NUMBER}(?:\s+(\w+))?")
        for m in pattern.finditer(text):
            before, number, after = m.group(1), m.group(2), m.group(3)
            less = op.startswith("<")
            column = None
            for word in (after, before):
                if word and column is None:
                    column = _column_for(word, info, less)
            if column is None:
                continue
            value = float(number) if "." in number else int(number)
            query.conditions.append(f"t.{quote_identifier(column)} {op} {value}")
            rules.append({"rule": "compare", "words": m.group(0), "column": column, "op": op, "value": value})
            used.append((m.start(), m.end()))
    return used


def _ordering(query: Query, text: str, info: TableInfo, rules: list[dict[str, Any]]) -> None:
    """`best rated`/`top`/`highest rating` -> the rating column descending; `most reviews` -> the count column."""
    numeric = _numeric_columns(info)
    rating = next((n for n in numeric if "rating" in n and not n.startswith("num_")), None)
    count = next((n for n in numeric if n.startswith("num_")), None)
    if count and re.search(r"\b(most|many|popular)\b.*\b(reviews?|ratings?|reviewed)\b|\bmost popular\b", text):
        query.order.append(f"t.{quote_identifier(count)} DESC")
        rules.append({"rule": "order", "words": "most reviews", "column": count, "direction": "DESC"})
    if rating and re.search(r"\b(best|top|highest|greatest|finest)\b", text):
        query.order.append(f"t.{quote_identifier(rating)} DESC")
        rules.append({"rule": "order", "words": "best rated", "column": rating, "direction": "DESC"})
    if rating and re.search(r"\b(worst|lowest)\b", text):
        query.order.append(f"t.{quote_identifier(rating)} ASC")
        rules.append({"rule": "order", "words": "worst rated", "column": rating, "direction": "ASC"})


def _free_text(query: Query, text: str, used: list[tuple[int, int]], info: TableInfo,
               tables: dict[str, TableInfo], spec: Spec, rules: list[dict[str, Any]]) -> None:
    """Content words no other rule used are searched in the table's FTS5 index (OR, ranked by bm25)."""
    rest = "".join(" " if any(s <= i < e for s, e in used) else ch for i, ch in enumerate(text))
    schema_words = {_stem(w) for name, t in tables.items() for w in name.split("_")}
    schema_words |= {_stem(p) for c in info.columns for p in c.name.split("_")}
    ws = spec.worksheet(info.name)
    if ws:
        schema_words |= {_stem(w) for w in _WORD.findall(ws.description.lower())}
    words = []
    for w in _content_words(rest):
        if len(w) >= 3 and _stem(w) not in schema_words and w not in words and w not in SYNONYMS.values():
            words.append(w)
    if not words:
        return
    if info.fts_table is None:
        rules.append({"rule": "ignored", "words": words, "why": f"{info.name} has no free-text columns"})
        return
    query.fts_terms = words
    rules.append({"rule": "free_text", "words": words, "index": info.fts_table, "rank": "bm25"})


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"
