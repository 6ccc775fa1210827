"""The offline knowledge parser and SQL backend on the real sample KBs (built into tmp_path)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core_engine.session.agent import BACKEND_FACTORIES, Agent
from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.offline import OfflineKnowledgeParser, SQLKnowledge
from core_engine.loaders import load_spec
from core_engine.dialogue.state import KBRecord
from storage.kb.importer import import_records
from storage.kb.samples import build_sample_kb

SAMPLES = Path(__file__).resolve().parent.parent / "sample_projects"


@pytest.fixture(scope="module")
def restaurants(tmp_path_factory):
    path = build_sample_kb(SAMPLES / "restaurant_reservation", tmp_path_factory.mktemp("r") / "kb.sqlite")
    kb = SQLiteKB(path)
    yield kb, load_spec(SAMPLES / "restaurant_reservation" / "spec.json")
    kb.close()


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    path = build_sample_kb(SAMPLES / "course_enrollment", tmp_path_factory.mktemp("c") / "kb.sqlite")
    kb = SQLiteKB(path)
    yield kb, load_spec(SAMPLES / "course_enrollment" / "spec.json")
    kb.close()


def ask(fixture, question):
    kb, spec = fixture
    sql, rules = OfflineKnowledgeParser().to_sql(question, kb, spec)
    return kb.execute(sql).rows, sql, rules


def values(rules, rule):
    return [(r["column"], r["value"], r["negated"]) for r in rules if r["rule"] == rule]


def test_cuisine_and_city_become_conditions(restaurants):
    rows, sql, rules = ask(restaurants, "Italian food in San Francisco")
    assert ("cuisines", "Italian", False) in values(rules, "value")
    assert ("location", "San Francisco", False) in values(rules, "value")
    assert rows and all(r["location"] == "San Francisco" and "Italian" in r["cuisines"] for r in rows)


def test_cheap_thai_in_palo_alto(restaurants):
    rows, _, rules = ask(restaurants, "cheap Thai in Palo Alto")
    assert {c for c, _, _ in values(rules, "value")} == {"price", "cuisines", "location"}
    assert rows
    assert all(r["price"] == "cheap" and "Thai" in r["cuisines"] and r["location"] == "Palo Alto" for r in rows)


def test_not_thai_excludes_the_cuisine(restaurants):
    rows, sql, rules = ask(restaurants, "restaurants in Sunnyvale that are not Thai")
    assert ("cuisines", "Thai", True) in values(rules, "value")
    assert "NOT EXISTS" in sql
    assert rows and all("Thai" not in r["cuisines"] and r["location"] == "Sunnyvale" for r in rows)


def test_best_rated_orders_by_rating_and_numbers_compare(restaurants):
    rows, sql, rules = ask(restaurants, "best rated Italian places rated above 4")
    assert 'ORDER BY t."rating" DESC' in sql
    assert any(r["rule"] == "compare" and r["op"] == ">" and r["value"] == 4 for r in rules)
    ratings = [r["rating"] for r in rows]
    assert ratings == sorted(ratings, reverse=True) and min(ratings) > 4


def test_most_reviews_orders_by_the_count_column(restaurants):
    rows, sql, _ = ask(restaurants, "which restaurants have the most reviews")
    counts = [r["num_reviews"] for r in rows]
    assert counts == sorted(counts, reverse=True)
    assert counts[0] == max(restaurants[0].distinct_values("restaurants", "num_reviews"))


def test_leftover_words_are_a_full_text_search(restaurants):
    rows, sql, rules = ask(restaurants, "pizza in San Francisco with a patio")
    free = [r for r in rules if r["rule"] == "free_text"][0]
    assert free["words"] == ["patio"]
    assert "MATCH" in sql and free["rank"] == "rrf(bm25, vector)" and free["fts_hits"] >= 1
    assert rows and all("Pizza" in r["cuisines"] for r in rows)
    assert any("patio" in (r["summary"] + " ".join(r["reviews"])).lower() for r in rows)


def test_a_row_name_is_matched(restaurants):
    rows, _, rules = ask(restaurants, "tell me about Ragazza")
    assert ("name", "Ragazza", False) in values(rules, "value")
    assert [r["name"] for r in rows] == ["Ragazza"]


def test_course_code_in_any_spelling(courses):
    for question in ("Tell me about CS 108", "tell me about cs108"):
        rows, _, rules = ask(courses, question)
        assert ("course_codes", "CS 108", False) in values(rules, "value")
        assert len(rows) == 1 and "CS 108" in rows[0]["course_codes"]


def test_fall_quarter_offerings_of_a_course_join_courses(courses):
    rows, sql, rules = ask(courses, "when is CS 106B offered in the fall")
    assert rules[0]["table"] == "offerings"
    assert ("season", "autumn", False) in values(rules, "value")
    assert any(r["rule"] == "join" and r["table"] == "courses" for r in rules)
    kb = courses[0]
    code = kb.execute("SELECT course_id FROM courses, json_each(course_codes) j WHERE j.value = 'CS 106B'").rows
    assert rows and all(r["season"] == "autumn" and r["course_id"] == code[0]["course_id"] for r in rows)


def test_reviews_question_picks_the_ratings_table(courses):
    rows, _, rules = ask(courses, "what are the reviews for cs221")
    assert rules[0]["table"] == "ratings"
    assert rows and all(r["reviews"] for r in rows)


def test_units_comparison_and_free_text_on_descriptions(courses):
    rows, _, rules = ask(courses, "courses under 3 units")
    assert any(r["rule"] == "compare" and r["column"] == "min_units" for r in rules)
    assert rows and all(r["min_units"] < 3 for r in rows)
    rows, _, _ = ask(courses, "object oriented programming courses")
    assert "CS 108" in rows[0]["course_codes"] or "CS 108" in rows[1]["course_codes"]


def run(kb, spec, question):
    record, trace = KBRecord(var="answer", query=question), []
    SQLKnowledge(kb, OfflineKnowledgeParser()).run(record, spec, trace)
    return record, trace


def test_backend_fills_the_record_and_traces_the_rules(restaurants):
    record, trace = run(*restaurants, "cheap Thai in Palo Alto")
    assert record.status == "done" and record.error is None and record.result
    assert record.sql.startswith("SELECT")
    assert set(trace[0]) >= {"query", "sql", "rows", "elapsed_ms", "rules"}
    assert trace[0]["rows"] == len(record.result)


def test_no_match_says_which_condition_to_drop_without_applying_it(restaurants):
    record, trace = run(*restaurants, "zzqxv qqwv in Cupertino")
    assert record.status == "done" and record.result == []  # nothing is silently loosened
    assert record.note and 'without "zzqxv qqwv"' in record.note
    assert trace[0]["relaxation"] == record.note


def test_no_match_on_structured_conditions_names_the_one_to_drop(restaurants):
    # the generated data has one Ethiopian place in Cupertino, and it is not luxury
    record, _ = run(*restaurants, "luxury Ethiopian in Cupertino")
    assert record.result == []
    assert 'without "luxury" there is 1 result' in record.note


def test_backend_turns_knowledge_errors_into_error_records(tmp_path, restaurants):
    db = tmp_path / "kb.sqlite"
    import_records(db, [{"a": 1}], "t")
    kb = SQLiteKB(db)
    kb.close()  # every query now fails inside SQLiteKB
    record, trace = run(kb, restaurants[1], "anything")
    assert record.status == "error" and record.error
    assert trace == [{"query": "anything", "error": record.error}]


def test_limit_comes_from_the_spec(restaurants):
    kb, spec = restaurants
    small = spec.model_copy(deep=True)
    small.settings.kb_max_rows = 3
    sql, _ = OfflineKnowledgeParser().to_sql("restaurants in San Francisco", kb, small)
    assert sql.endswith("LIMIT 3") and len(kb.execute(sql).rows) == 3


def test_factory_is_registered_and_used_by_agent_sessions(tmp_path):
    project = tmp_path / "restaurant_reservation"
    shutil.copytree(SAMPLES / "restaurant_reservation", project, ignore=shutil.ignore_patterns("kb.sqlite"))
    build_sample_kb(project)
    assert ("knowledge", "offline") in BACKEND_FACTORIES
    session = Agent.load(project).new_session(parser="formal")
    assert isinstance(session.backends.knowledge, SQLKnowledge)
    result = session.turn('answer("cheap Thai in Palo Alto")')
    report = [a for a in result.acts if a["act"] == "report"][0]
    assert report["var"] == "answer" and report["result"]
