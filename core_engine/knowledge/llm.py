"""The `llm` knowledge parser: `answer("...")` to SQLite SQL by one chat completion (text-to-SQL).

The prompt holds the project's tables as the KB itself describes them (column
types, JSON-array list columns to unnest with json_each, the `{table}_fts`
full-text index to search with MATCH and rank with bm25, and a few real values
of the short text columns), plus the spec's column descriptions. The SQL the
model writes is data: it runs through the same read-only `SQLiteKB.execute` as
every other query (read-only file, authorizer, time limit, row cap).

A query that SQLite rejects as wrong (a misspelt column) gets one repair round
with the error message; a query the authorizer refuses (a write, ATTACH, a
forbidden function) gets none. Either way a failure never crashes the turn: the
KB record's status is "error" with a sentence for the user, and the trace entry
holds the SQL, the reason and the LLM calls.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import BackendError, GenieError, KnowledgeError
from .kb import QueryResult, SQLiteKB, TableInfo
from ..llm.client import LLMCall, LLMClient
from ..llm.options import client_for
from ..llm.prompting import PromptLibrary, RenderedPrompt, date_words
from ..spec.model import Spec
from ..dialogue.state import KBRecord
from ..dialogue.statements import strip_fences

__all__ = ["LLMKnowledge", "LLMKnowledgeParser", "extract_sql", "llm_knowledge", "render_schema"]

VALUES_SHOWN = 12  # distinct values listed per short text column (most frequent first)
VALUES_DISTINCT_MAX = 60  # columns with more distinct values (names, addresses) list none
REFUSED = ("query not allowed", "only one SQL statement")  # SQLiteKB's refusals: never repaired
NOT_ANSWERED = {
    "llm": "the language model that turns questions into database queries is not answering right now",
    "refused": "I could not turn this question into a safe database query",
    "failed": "I could not turn this question into a working database query",
    "empty": "I could not turn this question into a database query",
}


class LLMKnowledgeParser:
    """Question -> SQL with one completion (and at most `max_repairs` more after a failing query)."""

    def __init__(self, client: LLMClient, prompts: PromptLibrary | None = None, *, max_repairs: int = 1,
                 today: dt.date | None = None) -> None:
        self.client = client
        self.prompts = prompts or PromptLibrary()
        self.max_repairs = max_repairs
        self.today = today
        self._schemas: dict[tuple[int, tuple[tuple[str, int], ...]], str] = {}

    def schema(self, kb: SQLiteKB, spec: Spec) -> str:
        tables = kb.tables()
        key = (id(kb), tuple(sorted((n, t.row_count) for n, t in tables.items())))
        if key not in self._schemas:
            self._schemas[key] = render_schema(kb, spec, tables)
        return self._schemas[key]

    def prompt(self, question: str, kb: SQLiteKB, spec: Spec) -> RenderedPrompt:
        today = self.today or _spec_today(spec) or dt.date.today()
        return self.prompts.render("knowledge", question=question, schema=self.schema(kb, spec),
                                   max_rows=spec.settings.kb_max_rows, agent_name=spec.name,
                                   agent_description=spec.description, **date_words(today))

    def complete(self, messages: list[dict[str, str]]) -> tuple[str, LLMCall]:
        completion, call = self.client.complete(messages, component="knowledge")
        return extract_sql(completion), call


class LLMKnowledge:
    """The knowledge backend for `knowledge_parser="llm"`: ask the model for SQL, run it read-only."""

    def __init__(self, kb: SQLiteKB, parser: LLMKnowledgeParser) -> None:
        self.kb = kb
        self.parser = parser

    def run(self, record: KBRecord, spec: Spec, trace: list[dict[str, Any]]) -> None:
        entry: dict[str, Any] = {"query": record.query, "parser": "llm", "llm_calls": []}
        trace.append(entry)
        try:
            messages = self.parser.prompt(record.query, self.kb, spec).messages
        except GenieError as exc:
            self._fail(record, entry, "failed", f"the knowledge prompt could not be built: {exc}")
            return
        for attempt in range(self.parser.max_repairs + 1):
            try:
                sql, call = self.parser.complete(messages)
            except BackendError as exc:
                failed_call = getattr(exc, "call", None)
                if failed_call is not None:
                    entry["llm_calls"].append(failed_call.to_dict())
                self._fail(record, entry, "llm", exc.message)
                return
            entry["llm_calls"].append(call.to_dict())
            entry["sql"] = sql
            if not sql:
                self._fail(record, entry, "empty", "the language model's answer held no SQL query")
                return
            try:
                result = self.kb.execute(sql, max_rows=spec.settings.kb_max_rows)
            except KnowledgeError as exc:
                refused = exc.message.startswith(REFUSED)
                if refused or attempt == self.parser.max_repairs:
                    record.sql = sql
                    self._fail(record, entry, "refused" if refused else "failed", exc.message)
                    return
                entry.setdefault("repairs", []).append({"sql": sql, "error": exc.message})
                messages = messages + [
                    {"role": "assistant", "content": call.completion or sql},
                    {"role": "user", "content": f"SQLite rejected that query: {exc.message}\n"
                                                "Write a corrected query, in one ```sql block."},
                ]
                continue
            self._done(record, entry, result)
            return

    @staticmethod
    def _done(record: KBRecord, entry: dict[str, Any], result: QueryResult) -> None:
        record.sql = result.sql
        record.result = result.rows
        record.status = "done"
        record.error = None
        entry.update(sql=result.sql, rows=len(result.rows), elapsed_ms=round(result.elapsed_ms, 2),
                     truncated=result.truncated)

    @staticmethod
    def _fail(record: KBRecord, entry: dict[str, Any], kind: str, detail: str) -> None:
        record.status = "error"
        record.error = NOT_ANSWERED[kind]
        record.result = None
        entry.update(error=detail, outcome=kind)


def llm_knowledge(agent: Any, **options: Any) -> tuple[SQLiteKB, LLMKnowledge]:
    """BACKEND_FACTORIES entry for ("knowledge", "llm")."""
    kb = SQLiteKB(agent.kb_path)
    parser = LLMKnowledgeParser(client_for("knowledge", options), PromptLibrary(agent.prompts_dir),
                                max_repairs=int(options.get("sql_repairs", 1)))
    return kb, LLMKnowledge(kb, parser)


def _register() -> None:
    from ..session.agent import BACKEND_FACTORIES
    BACKEND_FACTORIES[("knowledge", "llm")] = llm_knowledge


_register()


# -- schema and SQL text (pure) -------------------------------------------------------


def render_schema(kb: SQLiteKB, spec: Spec, tables: dict[str, TableInfo] | None = None) -> str:
    """The KB's tables as the model needs them: types, list and free-text columns, real values."""
    tables = tables if tables is not None else kb.tables()
    blocks = []
    for name, info in tables.items():
        ws = spec.worksheet(name)
        head = f"TABLE {name}  -- {info.row_count} rows"
        if ws is not None and ws.description.strip():
            head += f"; {ws.description.strip()}"
        lines = [head]
        for col in info.columns:
            f = ws.field(col.name) if ws is not None else None
            notes = [f.description.strip()] if f is not None and f.description.strip() else []
            kind = {"int": "INTEGER", "float": "REAL", "bool": "INTEGER 0/1", "date": "TEXT YYYY-MM-DD",
                    "text": "TEXT", "list": "TEXT JSON array"}.get(col.type, col.type.upper())
            if col.free_text:
                notes.append(f"long free text, search it through {info.fts_table}" if info.fts_table
                             else "long free text")
            elif col.type in ("text", "list") and not _is_identifier(col.name):
                values = _values(kb, name, col.name)
                if values:
                    notes.append(values)
            lines.append(f"  {col.name} {kind}" + (f"  -- {'; '.join(notes)}" if notes else ""))
        if info.fts_table:
            cols = ", ".join(c.name for c in info.columns if c.free_text)
            lines.append(f"FULL-TEXT INDEX {info.fts_table}({cols}): its rowid is {name}.rowid")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) if blocks else "(the knowledge base has no tables)"


def _values(kb: SQLiteKB, table: str, column: str) -> str:
    try:
        values = kb.distinct_values(table, column, limit=VALUES_DISTINCT_MAX + 1)
    except KnowledgeError:
        return ""
    if len(values) > VALUES_DISTINCT_MAX:
        return ""
    values = [v for v in values if isinstance(v, str) and len(v) <= 60]
    if not values:
        return ""
    shown = ", ".join(f'"{v}"' for v in values[:VALUES_SHOWN])
    return f"values: {shown}" if len(values) <= VALUES_SHOWN else f"values include {shown}, ..."


def _is_identifier(column: str) -> bool:
    return column == "id" or column.endswith(("_id", "_url", "_path"))


_SQL_START = re.compile(r"^\s*(SELECT|WITH)\b", re.I | re.M)


def extract_sql(completion: str) -> str:
    """The SQL of a completion: a fenced block's content, else the text from the first SELECT/WITH."""
    text = completion.replace("\r\n", "\n")
    if "```" in text:
        text = strip_fences(text)
    else:
        match = _SQL_START.search(text)
        if match is not None:
            text = text[match.start():]
    text = re.sub(r"^\s*SQL\s*:\s*", "", text.strip(), flags=re.I)
    return text.strip()


def _spec_today(spec: Spec) -> dt.date | None:
    try:
        return dt.date.fromisoformat(spec.settings.today) if spec.settings.today else None
    except ValueError:
        return None
