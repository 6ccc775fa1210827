"""SQLiteKB: schema listing, decoded results, and hostile SQL that must fail safely."""

from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from core_engine.errors import KnowledgeError
from core_engine.knowledge.kb import Column, SQLiteKB
from storage.kb.importer import import_records

REVIEW = "Lovely candle-lit room, attentive staff and a long list of natural wines; book ahead at weekends."
RESTAURANTS = [
    {"name": "Thai Basil", "city": "Palo Alto", "cuisines": ["Thai"], "rating": 4.6, "has_patio": True,
     "opened": "2015-04-01", "review": "Fragrant green curry and a romantic patio. " + REVIEW},
    {"name": "Golden Wok", "city": "Palo Alto", "cuisines": ["Chinese", "Thai"], "rating": 4.1, "has_patio": False,
     "opened": "2018-09-12", "review": "Fast dumplings, noisy at lunch. " + REVIEW},
    {"name": "Trattoria Roma", "city": "Oakland", "cuisines": ["Italian"], "rating": 4.8, "has_patio": True,
     "opened": "2009-06-30", "review": "Handmade pasta and a quiet garden. " + REVIEW},
    {"name": "Siam Garden", "city": "Oakland", "cuisines": ["Thai", "Vegan"], "rating": 3.9, "has_patio": None,
     "opened": "2021-01-15", "review": "Generous portions of pad thai. " + REVIEW},
]


@pytest.fixture
def kb_path(tmp_path: Path) -> Path:
    path = tmp_path / "kb.sqlite"
    import_records(path, RESTAURANTS, "restaurants")
    return path


@pytest.fixture
def kb(kb_path: Path):
    with SQLiteKB(kb_path, timeout_s=2.0, max_rows=50) as opened:
        yield opened


def snapshot(path: Path) -> list[str]:
    """The whole database as SQL text, read on a separate connection."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


# -- schema ---------------------------------------------------------------------


def test_tables_lists_user_tables_with_import_metadata(kb):
    tables = kb.tables()
    assert set(tables) == {"restaurants"}  # no _genie_columns, no restaurants_fts or its shadow tables
    info = tables["restaurants"]
    assert info.row_count == 4 and info.fts_table == "restaurants_fts"
    assert info.columns == (
        Column("name", "text", False), Column("city", "text", False), Column("cuisines", "list", False),
        Column("rating", "float", False), Column("has_patio", "bool", False), Column("opened", "date", False),
        Column("review", "text", True),
    )


def test_tables_of_a_hand_made_database_use_declared_types(tmp_path):
    path = tmp_path / "plain.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, price REAL, label TEXT, blob_col BLOB)")
    conn.execute("INSERT INTO items (price, label) VALUES (1.5, 'a')")
    conn.commit()
    conn.close()
    with SQLiteKB(path) as kb:
        info = kb.tables()["items"]
    assert [(c.name, c.type) for c in info.columns] == [("id", "int"), ("price", "float"), ("label", "text"), ("blob_col", "text")]
    assert info.row_count == 1 and info.fts_table is None


def test_tables_notice_a_later_import(kb, kb_path):
    assert set(kb.tables()) == {"restaurants"}
    import_records(kb_path, [{"code": "SFO"}], "airports")
    assert set(kb.tables()) == {"restaurants", "airports"}
    assert kb.execute("SELECT code FROM airports").rows == [{"code": "SFO"}]


# -- queries -----------------------------------------------------------------------


def test_results_decode_lists_and_bools(kb):
    result = kb.execute("SELECT name, cuisines, has_patio, rating, opened FROM restaurants ORDER BY rowid LIMIT 2")
    assert result.columns == ["name", "cuisines", "has_patio", "rating", "opened"]
    assert result.rows == [
        {"name": "Thai Basil", "cuisines": ["Thai"], "has_patio": True, "rating": 4.6, "opened": "2015-04-01"},
        {"name": "Golden Wok", "cuisines": ["Chinese", "Thai"], "has_patio": False, "rating": 4.1, "opened": "2018-09-12"},
    ]
    assert result.truncated is False and result.elapsed_ms >= 0
    assert result.sql.startswith("SELECT name")


def test_json_each_finds_restaurants_by_cuisine(kb):
    result = kb.execute(
        "SELECT r.name FROM restaurants AS r, json_each(r.cuisines) AS c "
        "WHERE c.value = ? AND r.rating > 4 ORDER BY r.rating DESC",
        ("Thai",),
    )
    assert [row["name"] for row in result.rows] == ["Thai Basil", "Golden Wok"]


def test_fts_match_bm25_snippet_and_highlight(kb):
    result = kb.execute(
        "SELECT r.name, bm25(restaurants_fts) AS score, "
        "snippet(restaurants_fts, 0, '[', ']', '...', 6) AS snip, highlight(restaurants_fts, 0, '<', '>') AS hi "
        "FROM restaurants_fts JOIN restaurants AS r ON r.rowid = restaurants_fts.rowid "
        "WHERE restaurants_fts MATCH :q ORDER BY bm25(restaurants_fts)",
        {"q": "romantic OR garden"},
    )
    assert {row["name"] for row in result.rows} == {"Thai Basil", "Trattoria Roma"}
    assert result.rows == sorted(result.rows, key=lambda r: r["score"])
    assert all("[" in row["snip"] and "<" in row["hi"] for row in result.rows)


def test_row_cap_sets_truncated(kb):
    result = kb.execute("SELECT name FROM restaurants ORDER BY name", max_rows=3)
    assert len(result.rows) == 3 and result.truncated is True
    assert kb.execute("SELECT name FROM restaurants", max_rows=4).truncated is False


def test_duplicate_column_names_stay_distinct(kb):
    result = kb.execute("SELECT a.name, b.name FROM restaurants AS a JOIN restaurants AS b ON a.rowid = b.rowid - 1 LIMIT 1")
    assert result.columns == ["name", "name_2"]
    assert result.rows == [{"name": "Thai Basil", "name_2": "Golden Wok"}]


def test_trailing_semicolons_and_comments_are_fine(kb):
    assert kb.execute("SELECT 1 AS one; -- done\n").rows == [{"one": 1}]
    assert kb.execute("/* hi */ SELECT 2 AS two;;").rows == [{"two": 2}]
    assert kb.execute("VALUES (1), (2)").rows == [{"column1": 1}, {"column1": 2}]
    assert kb.execute("SELECT ';' AS semi").rows == [{"semi": ";"}]
    assert kb.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) SELECT sum(x) AS s FROM c").rows == [{"s": 15}]


def test_distinct_values(kb):
    assert kb.distinct_values("restaurants", "cuisines") == ["Thai", "Chinese", "Italian", "Vegan"]
    assert kb.distinct_values("restaurants", "city") == ["Oakland", "Palo Alto"]
    assert kb.distinct_values("restaurants", "has_patio") == [True, False]
    assert kb.distinct_values("restaurants", "cuisines", limit=1) == ["Thai"]
    with pytest.raises(KnowledgeError, match="no such table or column"):
        kb.distinct_values("restaurants", "nope")
    with pytest.raises(KnowledgeError, match="no such table or column"):
        kb.distinct_values('restaurants"; DROP TABLE restaurants; --', "name")


def test_queries_from_many_threads(kb):
    def query(i: int) -> int:
        return len(kb.execute("SELECT name FROM restaurants WHERE rating > ?", (i % 5,)).rows)

    with ThreadPoolExecutor(max_workers=8) as pool:
        counts = list(pool.map(query, range(80)))
    assert counts[:5] == [4, 4, 4, 4, 3]


# -- errors ------------------------------------------------------------------------


def test_missing_or_broken_database_file(tmp_path):
    with pytest.raises(KnowledgeError, match="not found") as info:
        SQLiteKB(tmp_path / "missing.sqlite")
    assert info.value.context["path"] == str(tmp_path / "missing.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database, just some bytes" * 100)
    with pytest.raises(KnowledgeError, match="cannot open knowledge base"):
        SQLiteKB(junk)


@pytest.mark.parametrize("sql", ["", "   ", "-- only a comment", ";", "/* */ ;"])
def test_empty_sql(kb, sql):
    with pytest.raises(KnowledgeError, match="empty query"):
        kb.execute(sql)


def test_sqlite_errors_map_to_knowledge_error_with_cause(kb):
    cases = {
        "SELEC name FROM restaurants": "syntax error",
        "SELECT name FROM restaurants WHERE": "incomplete input",
        "SELECT nope FROM restaurants": "no such column: nope",
        "SELECT * FROM missing": "no such table: missing",
        "SELECT name FROM restaurants WHERE rating > ?": "bindings",
        "SELECT * FROM restaurants_fts WHERE restaurants_fts MATCH '\"unbalanced'": "unterminated string",
    }
    for sql, message in cases.items():
        with pytest.raises(KnowledgeError, match=message) as info:
            kb.execute(sql)
        assert isinstance(info.value.__cause__, sqlite3.Error), sql
        assert info.value.context["sql"] == sql


def test_closed_kb_refuses_queries(kb_path):
    kb = SQLiteKB(kb_path)
    kb.close()
    with pytest.raises(KnowledgeError):
        kb.execute("SELECT 1")


# -- hostile SQL ------------------------------------------------------------------------

HOSTILE = [
    ("DROP TABLE restaurants", "not allowed"),
    ("INSERT INTO restaurants (name) VALUES ('x')", "not allowed"),
    ("UPDATE restaurants SET rating = 0", "not allowed"),
    ("DELETE FROM restaurants", "not allowed"),
    ("CREATE TABLE evil (x)", "not allowed"),
    ("ATTACH DATABASE '{tmp}/evil.sqlite' AS evil", "not allowed"),
    ("DETACH DATABASE main", "not allowed"),
    ("PRAGMA writable_schema = 1", "not allowed"),
    ("PRAGMA journal_mode = DELETE", "not allowed"),
    ("PRAGMA query_only = OFF", "not allowed"),
    ("BEGIN", "not allowed"),
    ("VACUUM INTO '{tmp}/copy.sqlite'", "not allowed"),
    ("ALTER TABLE restaurants RENAME TO r2", "not allowed"),
    ("SELECT load_extension('{tmp}/evil.so')", "tried to call a function that is not allowed 'load_extension'"),
    ("SELECT fts3_tokenizer('simple')", "not allowed"),
    ("WITH x AS (SELECT 1) INSERT INTO restaurants (name) SELECT 'x' FROM x", "tried to insert into 'restaurants'"),
    ("WITH x AS (SELECT 1) DELETE FROM restaurants", "tried to delete from 'restaurants'"),
    ("WITH x AS (SELECT 1) UPDATE restaurants SET rating = 0", "tried to update 'restaurants'"),
    ("WITH x AS (SELECT 1) UPDATE sqlite_master SET sql = 'x'", "sqlite_master may not be modified"),
    ("SELECT 1; DROP TABLE restaurants", "only one SQL statement"),
    ("SELECT name FROM restaurants; DELETE FROM restaurants;", "only one SQL statement"),
    ("SELECT randomblob(1000000000)", "not allowed 'randomblob'"),
    ("SELECT replace(printf('%.*c', 5000000, 'x'), 'x', 'yyy')", "too big"),
    ("EXPLAIN DELETE FROM restaurants", "not allowed"),
    ("REINDEX", "not allowed"),
    ("ANALYZE", "not allowed"),
]


@pytest.mark.parametrize(("sql", "message"), HOSTILE, ids=[h[0][:40] for h in HOSTILE])
def test_hostile_sql_fails_safely_and_changes_nothing(kb, kb_path, tmp_path, sql, message):
    sql = sql.format(tmp=tmp_path)
    before = snapshot(kb_path)
    with pytest.raises(KnowledgeError, match=message) as info:
        kb.execute(sql)
    assert info.value.context["sql"] == sql
    assert snapshot(kb_path) == before
    assert not (tmp_path / "evil.sqlite").exists() and not (tmp_path / "copy.sqlite").exists()
    assert kb.execute("SELECT count(*) AS n FROM restaurants").rows == [{"n": 4}]  # still usable


def test_the_authorizer_refuses_writes_that_slip_past_the_keyword_check(kb, kb_path):
    before = snapshot(kb_path)
    for sql in [
        "WITH x AS (SELECT 1) INSERT INTO restaurants (name) VALUES ('x')",
        "WITH x AS (SELECT 1) REPLACE INTO restaurants (name) VALUES ('x')",
        "VALUES (load_extension('x'))",
    ]:
        with pytest.raises(KnowledgeError, match="read-only"):
            kb.execute(sql)
    assert snapshot(kb_path) == before


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM restaurants a, restaurants b, restaurants c, restaurants d, "
        "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT i FROM n) e, "
        "(WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < 100000) SELECT i FROM m) f",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
    ],
    ids=["cross-join", "endless-recursive-cte"],
)
def test_runaway_queries_time_out(kb, kb_path, sql):
    before = snapshot(kb_path)
    started = time.monotonic()
    with pytest.raises(KnowledgeError, match=r"query timed out after 0.3 s") as info:
        kb.execute(sql, timeout_s=0.3)
    assert time.monotonic() - started < 2.5
    assert isinstance(info.value.__cause__, sqlite3.OperationalError)
    assert snapshot(kb_path) == before
    assert kb.execute("SELECT count(*) AS n FROM restaurants").rows == [{"n": 4}]


def test_the_default_timeout_applies(kb_path):
    with SQLiteKB(kb_path, timeout_s=0.2) as kb:
        started = time.monotonic()
        with pytest.raises(KnowledgeError, match="timed out after 0.2 s"):
            kb.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT max(x) FROM c")
        assert time.monotonic() - started < 2.0


def test_a_timeout_in_one_thread_does_not_break_another(kb):
    errors: list[Exception] = []

    def runaway() -> None:
        try:
            kb.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", timeout_s=0.3)
        except KnowledgeError as exc:
            errors.append(exc)

    thread = threading.Thread(target=runaway)
    thread.start()
    assert kb.execute("SELECT count(*) AS n FROM restaurants").rows == [{"n": 4}]
    thread.join()
    assert len(errors) == 1 and "timed out" in str(errors[0])
