"""The LLM knowledge parser (text-to-SQL), with the real openai client against the scripted server.

The SQL a model writes runs through the read-only SQLiteKB: list columns via
json_each and free text via FTS5 work; a misspelt column gets one repair round; a
write, ATTACH or second statement is refused with no repair, nothing runs, and the
KB file is byte-for-byte unchanged.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from core_engine import Agent, GenieError
from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.llm import LLMKnowledge, extract_sql, render_schema
from core_engine.llm.client import LLMConfig, ScriptedClient
from tests.fakes.openai_server import Reply, ScriptedOpenAIServer

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_projects"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GENIE_UPDATE_GOLDEN") == "1"

THAI_SUNNYVALE = ("SELECT t.* FROM restaurants AS t WHERE EXISTS (SELECT 1 FROM json_each(t.cuisines) "
                  "WHERE json_each.value = 'Thai') AND t.location = 'Sunnyvale' LIMIT 50")
PATIO_SF = ("SELECT t.* FROM restaurants AS t JOIN restaurants_fts AS f ON f.rowid = t.rowid "
            "WHERE restaurants_fts MATCH 'patio' AND t.location = 'San Francisco' "
            "ORDER BY bm25(restaurants_fts) LIMIT 5")


pytestmark = pytest.mark.usefixtures("no_llm_env")


@pytest.fixture(scope="module")
def restaurant() -> Agent:
    return Agent.load(SAMPLES / "restaurant_reservation")


def sql_reply(sql: str) -> Reply:
    return Reply(f"```sql\n{sql}\n```")


def session(agent: Agent, server: ScriptedOpenAIServer, **overrides):
    cfg = LLMConfig(**{"base_url": server.base_url, "model": "scripted-model", "timeout_s": 5.0, **overrides})
    return agent.new_session(parser="formal", knowledge_parser="llm", llm_config=cfg)


def fingerprint(path: Path) -> tuple[str, int, list[str]]:
    data = path.read_bytes()
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        count = con.execute("SELECT count(*) FROM restaurants").fetchone()[0]
        tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master"))
    finally:
        con.close()
    return hashlib.sha256(data).hexdigest(), count, tables


def test_make_knowledge_picks_the_llm_parser(restaurant):
    kb, knowledge = restaurant.make_knowledge(None, knowledge_parser="llm", client=ScriptedClient([]))
    assert isinstance(knowledge, LLMKnowledge) and isinstance(kb, SQLiteKB)
    with pytest.raises(GenieError, match="unknown knowledge parser 'sql-magic'"):
        restaurant.make_knowledge(None, knowledge_parser="sql-magic")


def test_schema_describes_lists_free_text_and_values(restaurant):
    schema = render_schema(SQLiteKB(restaurant.kb_path), restaurant.spec)
    assert "cuisines TEXT JSON array" in schema
    assert 'values: "San Francisco", "Palo Alto", "Sunnyvale", "Cupertino"' in schema
    assert "FULL-TEXT INDEX restaurants_fts(summary, reviews)" in schema
    assert "reviews TEXT JSON array  -- Customer reviews; long free text" in schema
    assert "name TEXT  -- Name of the restaurant" in schema  # too many names to list any


@pytest.mark.parametrize("sample", ["restaurant_reservation", "course_enrollment"])
def test_knowledge_prompt_golden(sample):
    agent = Agent.load(SAMPLES / sample)
    client = ScriptedClient(["```sql\nSELECT 1\n```"])
    agent.new_session(parser="formal", knowledge_parser="llm", client=client).turn(
        'answer("which ones are good for a birthday dinner")')
    text = "\n".join(f"### {m['role']}\n{m['content']}" for m in client.calls[0].messages)
    path = GOLDEN / f"knowledge_{sample}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), "regenerate with GENIE_UPDATE_GOLDEN=1 if intended"


def test_list_column_query_through_a_turn(restaurant, scripted_server):
    s = session(restaurant, scripted_server)
    scripted_server.push(sql_reply(THAI_SUNNYVALE))
    result = s.turn('answer("Thai restaurants in Sunnyvale")')
    assert result.ok
    question = scripted_server.requests[-1]["messages"][1]["content"]
    assert question == "Question: Thai restaurants in Sunnyvale\nSQL:\n"
    record = s.current.get("answer")
    assert record.status == "done" and record.sql == THAI_SUNNYVALE and record.result
    assert all("Thai" in row["cuisines"] and row["location"] == "Sunnyvale" for row in record.result)
    entry = result.trace["kb"][0]
    assert entry["parser"] == "llm" and entry["rows"] == len(record.result)
    assert entry["llm_calls"][0]["completion"] == f"```sql\n{THAI_SUNNYVALE}\n```"
    assert result.trace["llm"]["calls"] == {"parser": 0, "knowledge": 1, "rg": 0}
    assert result.acts[0]["act"] == "report" and result.acts[0]["result"][0]["name"] in result.response


def test_full_text_query_through_a_composed_field(restaurant, scripted_server):
    s = session(restaurant, scripted_server)
    scripted_server.push(sql_reply(PATIO_SF))
    result = s.turn('book_restaurant = BookRestaurant(restaurant=answer("a place in San Francisco with a patio"))')
    rows = s.current.get("answer").result
    assert 1 < len(rows) <= 5
    for row in rows:
        text = (row["summary"] + " " + " ".join(row["reviews"])).lower()
        assert "patio" in text and row["location"] == "San Francisco"
    assert result.acts[-1] == {"act": "ask", "var": "book_restaurant", "worksheet": "BookRestaurant",
                               "field": "restaurant"}


def test_a_wrong_column_gets_one_repair_round(restaurant, scripted_server):
    s = session(restaurant, scripted_server)
    scripted_server.push(sql_reply("SELECT t.* FROM restaurants AS t WHERE t.cuisine = 'Thai'"),
                         sql_reply(THAI_SUNNYVALE))
    result = s.turn('answer("Thai food in Sunnyvale")')
    assert s.current.get("answer").status == "done"
    entry = result.trace["kb"][0]
    assert len(entry["llm_calls"]) == 2 and "no such column" in entry["repairs"][0]["error"]
    repair = scripted_server.requests[-1]["messages"]
    assert repair[2]["role"] == "assistant" and "t.cuisine" in repair[2]["content"]
    assert repair[3]["role"] == "user" and "no such column: t.cuisine" in repair[3]["content"]


def test_sql_that_keeps_failing_is_an_error_not_a_crash(restaurant, scripted_server):
    s = session(restaurant, scripted_server)
    scripted_server.push(sql_reply("SELEC nonsense"), sql_reply("SELECT nope FROM nowhere"))
    result = s.turn('answer("Thai food in Sunnyvale")')
    assert result.ok
    record = s.current.get("answer")
    assert record.status == "error" and record.error.startswith("I could not turn this question")
    assert result.trace["kb"][0]["outcome"] == "failed" and "nowhere" in result.trace["kb"][0]["error"]
    assert "couldn't look up" in result.response


def test_llm_failure_leaves_the_kb_record_unanswered(restaurant, scripted_server):
    s = session(restaurant, scripted_server, max_retries=0)
    scripted_server.push(Reply(status=500))
    result = s.turn('answer("Thai food in Sunnyvale")')
    assert result.ok and s.current.get("answer").status == "error"
    entry = result.trace["kb"][0]
    assert entry["outcome"] == "llm" and "HTTP 500" in entry["error"]
    assert entry["llm_calls"][0]["error"] and "not answering" in result.response


@pytest.mark.parametrize("sql", [
    "DROP TABLE restaurants",
    "SELECT * FROM restaurants; DROP TABLE restaurants",
    "ATTACH DATABASE '{attach}' AS other",
    "WITH x AS (SELECT 1) DELETE FROM restaurants",
    "UPDATE restaurants SET price = 'cheap'",
    "SELECT load_extension('/tmp/evil')",
    "VACUUM INTO '{attach}'",
])
def test_unsafe_sql_is_refused_without_repair_and_the_kb_is_unchanged(restaurant, scripted_server, tmp_path, sql):
    attach = tmp_path / "other.sqlite"
    sql = sql.format(attach=attach)
    before = fingerprint(restaurant.kb_path)
    s = session(restaurant, scripted_server)
    scripted_server.push(sql_reply(sql), sql_reply(THAI_SUNNYVALE))  # a repair would take the second
    result = s.turn('answer("Thai food in Sunnyvale")')
    assert result.ok
    record = s.current.get("answer")
    assert record.status == "error" and record.error == "I could not turn this question into a safe database query"
    entry = result.trace["kb"][0]
    assert entry["outcome"] == "refused" and len(entry["llm_calls"]) == 1 and scripted_server.remaining == 1
    assert fingerprint(restaurant.kb_path) == before
    assert not attach.exists()


@pytest.mark.parametrize("completion, sql", [
    ("```sql\nSELECT 1\n```", "SELECT 1"),
    ("Here is the query:\nSELECT t.* FROM restaurants AS t\nLIMIT 5", "SELECT t.* FROM restaurants AS t\nLIMIT 5"),
    ("SQL: SELECT 2", "SELECT 2"),
    ("I cannot answer that.", "I cannot answer that."),
])
def test_extract_sql(completion, sql):
    assert extract_sql(completion) == sql


def test_prose_instead_of_sql_is_an_error(restaurant):
    client = ScriptedClient(["I cannot answer that.", "Still no."])
    s = restaurant.new_session(parser="formal", knowledge_parser="llm", client=client)
    result = s.turn('answer("Thai food in Sunnyvale")')
    assert result.ok and s.current.get("answer").status == "error"
    assert result.trace["kb"][0]["outcome"] == "failed"
