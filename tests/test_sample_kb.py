"""Sample KBs build from data/*.jsonl, and the KB samples' conversation tests pass on them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import core_engine.knowledge.offline  # noqa: F401 - registers the offline knowledge backend
from core_engine.session.agent import Agent
from core_engine.knowledge.kb import SQLiteKB
from core_engine.evaluation.testing import find_tests, run_tests
from storage.kb.samples import build_sample_kb, ensure_sample_kb

SAMPLES = Path(__file__).resolve().parent.parent / "sample_projects"


def copy_project(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(SAMPLES / name, target, ignore=shutil.ignore_patterns("kb.sqlite", "*.building"))
    return target


def test_build_imports_every_jsonl_with_the_spec_free_text_columns(tmp_path):
    project = copy_project("course_enrollment", tmp_path)
    with SQLiteKB(build_sample_kb(project)) as kb:
        tables = kb.tables()
    assert set(tables) == {"courses", "offerings", "ratings", "programs"}
    assert tables["ratings"].fts_table == "ratings_fts"
    assert {c.name for c in tables["ratings"].columns if c.free_text} == {"reviews"}
    assert tables["offerings"].fts_table is None


def test_build_is_deterministic_and_articles_are_chunked(tmp_path):
    a = build_sample_kb(SAMPLES / "ticket_submission", tmp_path / "a.sqlite")
    b = build_sample_kb(SAMPLES / "ticket_submission", tmp_path / "b.sqlite")
    with SQLiteKB(a) as ka, SQLiteKB(b) as kb:
        sql = "SELECT doc_id, chunk_index, text FROM services_general_info ORDER BY rowid"
        assert ka.execute(sql, max_rows=1000).rows == kb.execute(sql, max_rows=1000).rows
        assert ka.tables()["services_general_info"].fts_table


def test_ensure_builds_only_when_missing(tmp_path):
    project = copy_project("restaurant_reservation", tmp_path)
    kb = ensure_sample_kb(project)
    stamp = kb.stat().st_mtime_ns
    assert ensure_sample_kb(project) == kb and kb.stat().st_mtime_ns == stamp


def test_builds_of_one_folder_at_once_never_share_a_half_built_file(tmp_path):
    """Two processes (test workers, servers) may build the same folder's KB at the same moment: each
    writes a temporary file of its own, so both finish and the file left is a whole KB."""
    from concurrent.futures import ThreadPoolExecutor

    project = copy_project("restaurant_reservation", tmp_path)
    with ThreadPoolExecutor(4) as pool:  # SQLite works outside the GIL: the builds overlap
        built = list(pool.map(build_sample_kb, [project] * 8))
    assert built == [project / "kb.sqlite"] * 8
    assert not [p.name for p in project.iterdir() if "building" in p.name]
    rows = sum(1 for line in (project / "data" / "restaurants.jsonl").open() if line.strip())
    with SQLiteKB(project / "kb.sqlite") as kb:
        assert kb.execute("SELECT count(*) AS n FROM restaurants", max_rows=1).rows == [{"n": rows}]


@pytest.mark.parametrize("name", ["restaurant_reservation", "course_enrollment"])
def test_sample_conversation_tests_pass(name, tmp_path):
    project = copy_project(name, tmp_path)
    build_sample_kb(project)
    agent = Agent.load(project)
    paths = find_tests(agent)
    assert paths
    results = run_tests(agent, paths)
    failures = [(r.name, r.error, r.first_failure and r.first_failure.problems) for r in results if not r.passed]
    assert not failures
