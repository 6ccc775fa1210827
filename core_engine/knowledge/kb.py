"""Read-only access to a project's knowledge base (one SQLite file).

Every query an LLM or a user writes runs here, so this module is the safety
boundary of DESIGN §7: the file is opened read-only, ``query_only`` is on, an
authorizer allows reading and an allow-list of functions only, a progress
handler enforces a wall-clock limit, and at most ``max_rows`` rows come back.
Any sqlite3 failure becomes a :class:`KnowledgeError` carrying the SQL.

The importer (``storage.kb.importer``) writes the column metadata this module
reads from ``_genie_columns``; tables without metadata (a hand-made database)
get their types from the declared column affinity.

Thread safety: one connection opened with ``check_same_thread=False``; every
use of it holds ``self._lock`` (per-query state such as the deadline and the
authorizer's notes lives on the instance, so queries are serialised).
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core_engine import jsonsafe
from core_engine.errors import KnowledgeError

__all__ = [
    "COLUMN_TYPES",
    "METADATA_TABLE",
    "Column",
    "QueryResult",
    "SQLiteKB",
    "TableInfo",
    "fts_table_name",
    "quote_identifier",
]

COLUMN_TYPES = ("int", "float", "bool", "date", "text", "list")
METADATA_TABLE = "_genie_columns"
PRIVATE_PREFIX = "_genie_"
"""Tables of a project file or bundle that are not KB data: hidden from tables() and never readable by queries."""
FTS_SHADOW_SUFFIXES = ("_data", "_idx", "_content", "_docsize", "_config")

# Functions a query may call. Everything else (load_extension, fts3_tokenizer,
# sqlite_compileoption_*, application functions) is denied by the authorizer.
ALLOWED_FUNCTIONS = frozenset(
    """
    abs char coalesce format glob hex ifnull iif instr length like likelihood
    likely lower ltrim max min nullif printf quote random replace round rtrim
    sign soundex substr substring trim typeof unhex unicode unlikely upper
    sqlite_version
    date time datetime julianday unixepoch strftime timediff
    avg count group_concat string_agg sum total
    row_number rank dense_rank percent_rank cume_dist ntile lag lead
    first_value last_value nth_value
    acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp
    floor ln log log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc
    json json_array json_array_length json_extract json_insert json_object
    json_patch json_remove json_replace json_set json_type json_valid json_quote
    json_group_array json_group_object json_each json_tree -> ->>
    bm25 highlight snippet match
    """.split()
)
# Read-only pragmas: the two schema readers, and data_version, which FTS5 asks
# for internally and this module uses to notice a re-import.
ALLOWED_PRAGMAS = frozenset({"table_info", "table_xinfo", "data_version"})

_ACTION_NAMES = {
    sqlite3.SQLITE_INSERT: "insert into",
    sqlite3.SQLITE_UPDATE: "update",
    sqlite3.SQLITE_DELETE: "delete from",
    sqlite3.SQLITE_ATTACH: "attach a database",
    sqlite3.SQLITE_DETACH: "detach a database",
    sqlite3.SQLITE_TRANSACTION: "control a transaction",
    sqlite3.SQLITE_PRAGMA: "run a pragma",
    sqlite3.SQLITE_FUNCTION: "call a function that is not allowed",
    sqlite3.SQLITE_ALTER_TABLE: "alter a table",
    sqlite3.SQLITE_DROP_TABLE: "drop a table",
    sqlite3.SQLITE_CREATE_TABLE: "create a table",
    sqlite3.SQLITE_CREATE_INDEX: "create an index",
    sqlite3.SQLITE_CREATE_VIEW: "create a view",
    sqlite3.SQLITE_CREATE_TRIGGER: "create a trigger",
    sqlite3.SQLITE_CREATE_VTABLE: "create a virtual table",
}
_SQLITE_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", 33)
_PROGRESS_STEPS = 1000  # VM instructions between deadline checks
_MAX_VALUE_BYTES = 10_000_000  # SQLITE_LIMIT_LENGTH: bounds randomblob()/zeroblob()/printf()
_SQL_LIMITS = {  # setlimit on every KB connection (docs/reliability.md "Limits")
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 100, sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 1_000,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000, sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 50,
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 16,
}


def guard_connection(conn: sqlite3.Connection) -> None:
    """SQLite limits, plus linear-time instr()/replace(): SQLite's own search is O(n*m) inside one VM step,
    which the progress handler cannot interrupt (800 kB in 400 kB took 4 s)."""
    for limit, value in _SQL_LIMITS.items():
        conn.setlimit(limit, value)
    conn.create_function("instr", 2, _instr, deterministic=True)
    conn.create_function("replace", 3, _replace, deterministic=True)
    _guard_patterns(conn)


_MAX_MATCH_COST = 100_000_000  # text length x pattern length for one LIKE/GLOB (about 0.15 s)
_PRINTF_SPEC = re.compile(r"%[-+ 0#,!]*(\*|\d*)(?:\.(\*|\d*))?(?:ll?)?([a-zA-Z%])")


def _guard_patterns(conn: sqlite3.Connection) -> None:
    """LIKE and GLOB with a cost gate: SQLite matches '%a%aaa...b' in O(n*m) inside one VM step
    (9 MB against a 1,000-byte pattern took 13 s); printf/format with a width gate: it writes a
    2,000,000,000 width out (2.8 s) before finding the result too big. Calls within the gates run
    SQLite's own functions on a private in-memory connection, so their meaning is unchanged."""
    builtin = sqlite3.connect(":memory:", check_same_thread=False)
    builtin.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, _SQL_LIMITS[sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH])
    builtin.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
    lock = threading.Lock()

    def gated(sql: str | None, refuse: Any) -> Any:
        def call(*args: Any) -> Any:
            why = refuse(*args)
            if why:
                _REFUSED.message = why
                raise ValueError(why)
            query = sql or "SELECT printf(" + ", ".join(f"?{i}" for i in range(1, len(args) + 1)) + ")"
            with lock:
                try:
                    return builtin.execute(query, args).fetchone()[0]
                except sqlite3.Error as exc:
                    _REFUSED.message = str(exc)
                    raise
        return call

    for name, narg, sql in (("like", 2, "SELECT ?2 LIKE ?1"), ("like", 3, "SELECT ?2 LIKE ?1 ESCAPE ?3"),
                            ("glob", 2, "SELECT ?2 GLOB ?1")):
        conn.create_function(name, narg, gated(sql, functools.partial(_match_refusal, name.upper())),
                             deterministic=True)
    for name in ("printf", "format"):
        conn.create_function(name, -1, gated(None, _printf_refusal), deterministic=True)


def _match_refusal(what: str, pattern: Any, text: Any, *escape: Any) -> str | None:
    pattern, text = _as_text(pattern) or "", _as_text(text) or ""
    if len(pattern) * len(text) <= _MAX_MATCH_COST:
        return None
    return f"{what} of a {len(pattern):,}-character pattern on {len(text):,} characters costs more than " \
           f"{_MAX_MATCH_COST:,} steps"


def _printf_refusal(fmt: Any = None, *args: Any) -> str | None:
    rest = list(args)
    for m in _PRINTF_SPEC.finditer(fmt if isinstance(fmt, str) else ""):
        for part in m.group(1), m.group(2):
            number = rest.pop(0) if part == "*" and rest else part if part not in (None, "*") else 0
            try:
                number = abs(int(float(number or 0)))
            except (TypeError, ValueError, OverflowError):
                number = 0
            if number > _MAX_VALUE_BYTES:
                return f"printf() width or precision {number:,} is over the limit of {_MAX_VALUE_BYTES:,}"
        if m.group(3) != "%" and rest:
            rest.pop(0)
    return None


_REFUSED = threading.local()  # why the last gated function call refused, for the error message


def _as_text(value: Any) -> Any:
    return value if isinstance(value, (str, bytes)) or value is None else str(value)


def _instr(haystack: Any, needle: Any) -> int | None:
    haystack, needle = _as_text(haystack), _as_text(needle)
    if haystack is None or needle is None:
        return None
    if isinstance(haystack, str) != isinstance(needle, str):
        haystack, needle = (h if isinstance(h, bytes) else h.encode() for h in (haystack, needle))
    return haystack.find(needle) + 1  # str.find is linear-time for long needles (two-way search)


def _replace(text: Any, old: Any, new: Any) -> Any:
    text, old, new = _as_text(text), _as_text(old), _as_text(new)
    if text is None or old is None or new is None:
        return None
    if isinstance(text, bytes) or isinstance(old, bytes) or isinstance(new, bytes):
        text, old, new = (v if isinstance(v, bytes) else v.encode() for v in (text, old, new))
    if not old:
        return text
    hits = text.count(old)
    if len(text) + hits * (len(new) - len(old)) > _MAX_VALUE_BYTES:
        return bytes(_MAX_VALUE_BYTES + 1)  # SQLite itself then refuses it: "string or blob too big"
    return text.replace(old, new)


# Statements other than queries, refused before SQLite sees them (VACUUM INTO,
# for one, writes a file without asking the authorizer about writing). Any other
# first word is either a query (SELECT, WITH, VALUES) or a syntax error.
_OTHER_STATEMENTS = frozenset(
    """insert update delete replace upsert create drop alter attach detach pragma vacuum reindex
    analyze begin commit end rollback savepoint release explain""".split()
)


@dataclass(frozen=True)
class Column:
    """One KB column: its logical type (see COLUMN_TYPES) and whether it is searched as free text."""

    name: str
    type: str
    free_text: bool = False


@dataclass(frozen=True)
class TableInfo:
    """A user table of the KB as the knowledge parsers see it."""

    name: str
    columns: tuple[Column, ...]
    row_count: int
    fts_table: str | None
    # list columns that have a lookup table (list_table_name): membership by index, not json_each
    list_tables: tuple[str, ...] = ()

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)


@dataclass(frozen=True)
class QueryResult:
    """Rows of one query; ``truncated`` says more than ``max_rows`` rows matched."""

    sql: str
    columns: list[str]
    rows: list[dict[str, Any]]
    elapsed_ms: float
    truncated: bool


def quote_identifier(name: str) -> str:
    """Quote a table or column name for SQL text."""
    return '"' + name.replace('"', '""') + '"'


def fts_table_name(table: str) -> str:
    """The name of a table's full-text index: the importer and the reader agree on it."""
    return f"{table}_fts"


def list_table_name(table: str, column: str) -> str:
    """The lookup table of a list column: one row (row_id, value) per element, indexed on
    (value, row_id), so `value = ?` finds the rows holding an element without json_each.
    The importer makes one only for a column named like an identifier (TableInfo.list_tables)."""
    return f"{table}__{column}"


class SQLiteKB:
    """A read-only, time-limited, row-capped view of a project's SQLite KB."""

    def __init__(self, path: str | Path, *, timeout_s: float = 2.0, max_rows: int = 200) -> None:
        self.path = Path(path)
        self.timeout_s = timeout_s
        self.max_rows = max_rows
        if not self.path.is_file():
            raise KnowledgeError("knowledge base file not found", path=str(self.path))
        self._lock = threading.RLock()
        self._deadline = float("inf")
        self._timed_out = False
        self._denied: str | None = None
        self._tables_read: set[str] = set()
        self._reading_schema = False  # True only while this class reads its own metadata
        self._cache: tuple[int, dict[str, TableInfo]] | None = None
        uri = self.path.resolve().as_uri() + "?mode=ro"
        try:
            # cached_statements=0: every query is prepared afresh, so the
            # authorizer sees (and records) the tables each query reads.
            self._conn = sqlite3.connect(
                uri, uri=True, check_same_thread=False, timeout=timeout_s, cached_statements=0
            )
            self._conn.execute("PRAGMA query_only = ON")
            self._conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
            self._conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
            guard_connection(self._conn)
            self._conn.set_authorizer(self._authorize)
            self._conn.set_progress_handler(self._on_progress, _PROGRESS_STEPS)
            self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            raise KnowledgeError(f"cannot open knowledge base: {exc}", path=str(self.path)) from exc

    # -- public API -------------------------------------------------------

    def tables(self) -> dict[str, TableInfo]:
        """User tables by name; FTS indexes, their shadow tables and `_genie_*` tables are hidden."""
        with self._lock:
            try:
                version = self._conn.execute("PRAGMA data_version").fetchone()[0]
                if self._cache is None or self._cache[0] != version:
                    self._reading_schema = True
                    try:
                        self._cache = (version, self._shared_tables())
                    finally:
                        self._reading_schema = False
            except sqlite3.Error as exc:
                raise KnowledgeError(f"cannot read the knowledge base schema: {exc}", path=str(self.path)) from exc
            return dict(self._cache[1])

    def execute(
        self,
        sql: str,
        params: Sequence[Any] | Mapping[str, Any] = (),
        *,
        max_rows: int | None = None,
        timeout_s: float | None = None,
    ) -> QueryResult:
        """Run one read-only SELECT; list and bool columns come back as Python lists and bools."""
        statement = _single_statement(sql)
        limit = self.max_rows if max_rows is None else max_rows
        seconds = self.timeout_s if timeout_s is None else timeout_s
        with self._lock:
            tables = self.tables()
            started = time.perf_counter()
            raw_rows, names = self._run(statement, params, limit + 1, seconds, sql)
            elapsed_ms = (time.perf_counter() - started) * 1000
            decoders = _decoders(names, [tables[t] for t in self._tables_read if t in tables])
        keys = _unique_keys(names)
        rows = [
            {key: _json_cell(decode(value)) for key, decode, value in zip(keys, decoders, raw)}
            for raw in raw_rows[:limit]
        ]
        return QueryResult(sql=sql, columns=keys, rows=rows, elapsed_ms=elapsed_ms, truncated=len(raw_rows) > limit)

    def distinct_values(self, table: str, column: str, limit: int = 500) -> list[Any]:
        """Distinct non-null values of a column, most frequent first (list columns: their elements)."""
        info = self.tables().get(table)
        col = info.column(column) if info else None
        if info is None or col is None:
            raise KnowledgeError("no such table or column", table=table, column=column)
        t, c = quote_identifier(table), quote_identifier(column)
        if col.type == "list":
            sql = (
                f"SELECT j.value AS value, count(*) AS n FROM {t} AS t, json_each(t.{c}) AS j "
                f"WHERE json_valid(t.{c}) AND j.value IS NOT NULL GROUP BY j.value ORDER BY n DESC, j.value LIMIT ?"
            )
        else:
            sql = f"SELECT {c} AS value, count(*) AS n FROM {t} WHERE {c} IS NOT NULL GROUP BY {c} ORDER BY n DESC, {c} LIMIT ?"
        with self._lock:
            rows, _ = self._run(sql, (limit,), limit, self.timeout_s, sql)
        if col.type == "bool":
            return [bool(r[0]) for r in rows]
        return [r[0] for r in rows]

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> SQLiteKB:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- query machinery --------------------------------------------------

    def _run(
        self, statement: str, params: Any, fetch: int, seconds: float, sql: str
    ) -> tuple[list[tuple[Any, ...]], list[str]]:
        """Execute under the deadline; map every sqlite3 failure to KnowledgeError."""
        self._denied = None
        self._timed_out = False
        self._tables_read = set()
        self._deadline = time.monotonic() + seconds
        cursor = None
        try:
            cursor = self._conn.execute(statement, params)
            rows = cursor.fetchmany(fetch)
            names = [d[0] for d in cursor.description or ()]
            return rows, names
        except (sqlite3.Error, ValueError, OverflowError) as exc:
            raise self._knowledge_error(exc, sql, seconds) from exc
        finally:
            self._deadline = float("inf")
            if cursor is not None:
                cursor.close()

    def _knowledge_error(self, exc: Exception, sql: str, seconds: float) -> KnowledgeError:
        if self._timed_out:
            return KnowledgeError(f"query timed out after {seconds} s", sql=sql)
        if self._denied is not None:
            return KnowledgeError(
                f"query not allowed: it tried to {self._denied} (the knowledge base is read-only)", sql=sql
            )
        refused = getattr(_REFUSED, "message", None)
        _REFUSED.message = None
        if refused and "user-defined function raised exception" in str(exc):
            return KnowledgeError(f"query refused: {refused}", sql=sql)
        if isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc):
            return KnowledgeError("query not allowed: it tried to write (the knowledge base is read-only)", sql=sql)
        return KnowledgeError(str(exc), sql=sql)

    def _on_progress(self) -> int:
        if time.monotonic() > self._deadline:
            self._timed_out = True
            return 1
        return 0

    def _authorize(self, action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None) -> int:
        """Allow reading only. Called by SQLite while it prepares each statement."""
        if action == sqlite3.SQLITE_SELECT:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ:
            if arg1 and arg1.startswith(PRIVATE_PREFIX) and not self._reading_schema:
                # a project file or bundle keeps its spec, settings and logs in _genie_* tables
                self._denied = self._denied or f"read the private table {arg1!r}"
                return sqlite3.SQLITE_DENY
            if arg1:
                self._tables_read.add(arg1)
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in ALLOWED_FUNCTIONS:
            return sqlite3.SQLITE_OK
        if action == _SQLITE_RECURSIVE:
            return sqlite3.SQLITE_OK  # bounded by the progress-handler deadline
        if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in ALLOWED_PRAGMAS:
            if arg1.lower() != "data_version" or arg2 is None:
                return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master" and db == "main":
            # SQLite asks this while it connects a virtual table (json_each,
            # FTS5, pragma functions). IGNORE turns any real attempt into a
            # no-op instead of granting it; query_only would refuse it anyway.
            return sqlite3.SQLITE_IGNORE
        if self._denied is None:
            what = _ACTION_NAMES.get(action, "do something other than read")
            target = arg2 if action == sqlite3.SQLITE_FUNCTION else arg1
            self._denied = f"{what} {target!r}" if target else what
        return sqlite3.SQLITE_DENY

    # -- schema -------------------------------------------------------------

    def _shared_tables(self) -> dict[str, TableInfo]:
        """The schema, read once per file version for every connection (a new session's first
        question would otherwise pay a count(*) of every table)."""
        key = _file_version(self.path)
        with _SCHEMA_LOCK:
            found = _SCHEMAS.get(key) if key else None
        if found is None:
            found = self._read_tables()
            if key:
                with _SCHEMA_LOCK:
                    _SCHEMAS[key] = found
                    while len(_SCHEMAS) > 32:
                        _SCHEMAS.pop(next(iter(_SCHEMAS)))
        return found

    def _read_tables(self) -> dict[str, TableInfo]:
        master = self._conn.execute("SELECT type, name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
        virtual = {name for _, name, sql in master if (sql or "").upper().startswith("CREATE VIRTUAL TABLE")}
        hidden = {METADATA_TABLE} | virtual | {v + s for v in virtual for s in FTS_SHADOW_SUFFIXES}
        metadata: dict[str, list[Column]] = {}
        if any(name == METADATA_TABLE for _, name, _ in master):
            for table, name, typ, free in self._conn.execute(
                f"SELECT table_name, column_name, type, free_text FROM {METADATA_TABLE} ORDER BY table_name, position"
            ):
                metadata.setdefault(table, []).append(Column(name, typ, bool(free)))
        names = {name for _, name, _ in master}
        lookups = {t: tuple(c.name for c in cols if c.type == "list" and list_table_name(t, c.name) in names)
                   for t, cols in metadata.items()}
        hidden |= {list_table_name(t, c) for t, cs in lookups.items() for c in cs}
        result = {}
        for _, name, _ in master:
            if name in hidden or name.startswith(("sqlite_", PRIVATE_PREFIX)):
                continue
            columns = metadata.get(name) or self._declared_columns(name)
            count = self._conn.execute(f"SELECT count(*) FROM {quote_identifier(name)}").fetchone()[0]
            fts = fts_table_name(name)
            result[name] = TableInfo(name, tuple(columns), count, fts if fts in virtual else None,
                                     lookups.get(name, ()))
        return result

    def _declared_columns(self, table: str) -> list[Column]:
        """Types from column affinity, for tables the importer did not create."""
        columns = []
        for row in self._conn.execute(f"PRAGMA table_xinfo({quote_identifier(table)})"):
            name, declared, hidden = row[1], (row[2] or "").upper(), row[6]
            if hidden:
                continue
            if "INT" in declared:
                typ = "int"
            elif any(k in declared for k in ("REAL", "FLOA", "DOUB")):
                typ = "float"
            else:
                typ = "text"
            columns.append(Column(name, typ, False))
        return columns


# -- helpers (pure) -----------------------------------------------------------

_SCHEMAS: dict[tuple[Any, ...], dict[str, TableInfo]] = {}
_SCHEMA_LOCK = threading.Lock()


def _file_version(path: Path) -> tuple[Any, ...] | None:
    """(path, size, mtime) of the database and its WAL file: any write changes it."""
    try:
        st = path.stat()
        wal = path.with_name(path.name + "-wal")
        extra = (wal.stat().st_size, wal.stat().st_mtime_ns) if wal.exists() else ()
        return (str(path.resolve()), st.st_size, st.st_mtime_ns, *extra)
    except OSError:
        return None



def _single_statement(sql: object) -> str:
    """The one statement in ``sql``; refuse empty text, several statements, and non-queries."""
    if not isinstance(sql, str):
        raise KnowledgeError("SQL must be a string", sql=repr(sql))
    if not _skip_noise(sql, 0) < len(sql):
        raise KnowledgeError("empty query", sql=sql)
    statement = sql
    for match in re.finditer(";", sql):
        end = match.end()
        if sqlite3.complete_statement(sql[:end]):
            statement = sql[:end]
            if _skip_noise(sql, end) < len(sql):
                raise KnowledgeError("only one SQL statement is allowed per query", sql=sql)
            break
    keyword = re.match(r"[A-Za-z]+", statement[_skip_noise(statement, 0):])
    if keyword is not None and keyword.group(0).lower() in _OTHER_STATEMENTS:
        raise KnowledgeError(
            "query not allowed: only SELECT queries may run on the knowledge base (it is read-only)", sql=sql
        )
    return statement


def _skip_noise(sql: str, pos: int, also: str = ";") -> int:
    """Index of the first character at or after ``pos`` that is not blank, a comment or in ``also``."""
    n = len(sql)
    while pos < n:
        if sql[pos].isspace() or sql[pos] in also:
            pos += 1
        elif sql.startswith("--", pos):
            nl = sql.find("\n", pos)
            pos = n if nl < 0 else nl + 1
        elif sql.startswith("/*", pos):
            close = sql.find("*/", pos + 2)
            pos = n if close < 0 else close + 2
        else:
            break
    return pos


def _unique_keys(names: list[str]) -> list[str]:
    """Result keys: duplicate column names (``a.name, b.name``) become ``name``, ``name_2``."""
    keys: list[str] = []
    seen: set[str] = set()
    for name in names:
        key, n = name, 1
        while key in seen:
            n += 1
            key = f"{name}_{n}"
        seen.add(key)
        keys.append(key)
    return keys


def _identity(value: Any) -> Any:
    return value


def _decode_list(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("["):
        try:
            decoded = jsonsafe.loads(value, what="a list cell")  # a bundle's KB: depth-limited
        except ValueError:
            return value
        return decoded if isinstance(decoded, list) else value
    return value


def _decode_bool(value: Any) -> Any:
    return bool(value) if value in (0, 1) and not isinstance(value, float) else value


def _json_cell(value: Any) -> Any:
    """Rows become state and JSON: an infinite float (SQL 1e999) becomes NULL, a blob its hex text."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return value


def _decoders(names: list[str], tables_read: list[TableInfo]) -> list[Any]:
    """Per result column: decode JSON lists / 0-1 bools when a table the query read types that name so."""
    types: dict[str, set[str]] = {}
    for info in tables_read:
        for col in info.columns:
            types.setdefault(col.name, set()).add(col.type)
    decoders = []
    for name in names:
        kinds = types.get(name, set())
        if "list" in kinds:
            decoders.append(_decode_list)
        elif kinds == {"bool"}:
            decoders.append(_decode_bool)
        else:
            decoders.append(_identity)
    return decoders
