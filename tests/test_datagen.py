"""The sample projects' KB data: deterministic, committed as generated, and able to answer
the queries the sample conversations ask (DESIGN.md §8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sample_projects._datagen import SAMPLE_ROOT, render_all, stale_files, write_all
from sample_projects._datagen import courses, restaurants, services
from sample_projects._datagen.__main__ import main

REPO_ROOT = SAMPLE_ROOT.parent
CITIES = {"San Francisco", "Palo Alto", "Sunnyvale", "Cupertino"}


def _load(relative: str) -> list[dict]:
    lines = (SAMPLE_ROOT / relative).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def restaurant_rows() -> list[dict]:
    return _load("restaurant_reservation/data/restaurants.jsonl")


@pytest.fixture(scope="module")
def course_tables() -> dict[str, list[dict]]:
    names = ("courses", "offerings", "ratings", "programs")
    return {name: _load(f"course_enrollment/data/{name}.jsonl") for name in names}


@pytest.fixture(scope="module")
def article_rows() -> list[dict]:
    return _load("ticket_submission/data/services_general_info.jsonl")


def _mentions(row: dict, word: str) -> bool:
    return any(word in review.lower() for review in row["reviews"])


# --- determinism and the committed files -------------------------------------------------

def test_generation_is_byte_identical_twice(tmp_path: Path) -> None:
    first = write_all(tmp_path / "a")
    second = write_all(tmp_path / "b")
    assert len(first) == len(second) == 6
    for a, b in zip(first, second):
        assert a.relative_to(tmp_path / "a") == b.relative_to(tmp_path / "b")
        assert a.read_bytes() == b.read_bytes()


def test_generation_does_not_depend_on_hash_seed(tmp_path: Path) -> None:
    code = ("from pathlib import Path; import sys; "
            "from sample_projects._datagen import write_all; write_all(Path(sys.argv[1]))")
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code, str(tmp_path / seed)], cwd=REPO_ROOT,
                       env=env, check=True)
    for relative in render_all():
        first, second = tmp_path / "0" / relative, tmp_path / "12345" / relative
        assert first.read_bytes() == second.read_bytes()


def test_committed_files_match_a_fresh_generation() -> None:
    assert stale_files() == []
    result = subprocess.run([sys.executable, "-m", "sample_projects._datagen", "--check"],
                            cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_check_reports_a_modified_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    write_all(tmp_path)
    assert main(["--check", "--root", str(tmp_path)]) == 0
    target = tmp_path / "course_enrollment/data/ratings.jsonl"
    original = target.read_bytes()
    target.write_bytes(original.replace(b'"average_rating": 4', b'"average_rating": 3', 1))
    assert target.read_bytes() != original
    assert main(["--check", "--root", str(tmp_path)]) == 1
    assert "course_enrollment/data/ratings.jsonl" in capsys.readouterr().err
    (tmp_path / "restaurant_reservation/data/restaurants.jsonl").unlink()
    assert stale_files(tmp_path) == ["restaurant_reservation/data/restaurants.jsonl",
                                     "course_enrollment/data/ratings.jsonl"]


def test_files_are_utf8_json_lines_with_trailing_newline() -> None:
    for relative, data in render_all().items():
        text = data.decode("utf-8")
        assert text.endswith("\n") and not text.endswith("\n\n"), relative
        assert all(isinstance(json.loads(line), dict) for line in text.splitlines())
    restaurants_bytes = render_all()["restaurant_reservation/data/restaurants.jsonl"]
    assert "Maison Lumière".encode() in restaurants_bytes  # ensure_ascii=False


# --- restaurants ---------------------------------------------------------------------------

RESTAURANT_COLUMNS = ["id", "name", "cuisines", "price", "rating", "num_reviews", "address",
                      "popular_dishes", "phone_number", "location", "opening_hours", "summary",
                      "reviews"]


def test_restaurants_have_the_schema_columns_in_order(restaurant_rows: list[dict]) -> None:
    assert len(restaurant_rows) >= 240
    for row in restaurant_rows:
        assert list(row) == RESTAURANT_COLUMNS
        assert row["location"] in CITIES
        assert row["price"] in {"cheap", "moderate", "expensive", "luxury"}
        assert row["rating"] in {2.5, 3.0, 3.5, 4.0, 4.5, 5.0}
        assert 1 <= len(row["cuisines"]) <= 3 and 2 <= len(row["popular_dishes"]) <= 5
        assert 3 <= len(row["reviews"]) <= 6 and row["opening_hours"]
        assert row["address"].endswith(tuple(f", {row['location']}, CA {z}" for z in
                                             ("94102", "94103", "94105", "94107", "94108",
                                              "94109", "94110", "94111", "94114", "94115",
                                              "94117", "94118", "94122", "94123", "94133",
                                              "94301", "94303", "94304", "94306", "94085",
                                              "94086", "94087", "94089", "95014")))
        area = "(415)" if row["location"] == "San Francisco" else \
            "(650)" if row["location"] == "Palo Alto" else "(408)"
        assert row["phone_number"].startswith(f"{area} 555-")


def test_restaurants_are_unique_and_sf_has_the_largest_share(restaurant_rows: list[dict]) -> None:
    assert len({r["name"] for r in restaurant_rows}) == len(restaurant_rows)
    assert len({r["id"] for r in restaurant_rows}) == len(restaurant_rows)
    assert len({r["phone_number"] for r in restaurant_rows}) == len(restaurant_rows)
    counts = {city: sum(r["location"] == city for r in restaurant_rows) for city in CITIES}
    assert set(counts) == CITIES and max(counts, key=counts.get) == "San Francisco"
    assert len({c for r in restaurant_rows for c in r["cuisines"]}) >= 25


def test_restaurant_queries_from_the_design_have_answers(restaurant_rows: list[dict]) -> None:
    sf_pizza_patio = [r for r in restaurant_rows if r["location"] == "San Francisco"
                      and "Pizza" in r["cuisines"] and _mentions(r, "patio")]
    romantic_french = [r for r in restaurant_rows
                       if "French" in r["cuisines"] and _mentions(r, "romantic")]
    cheap_thai_pa = [r for r in restaurant_rows if r["location"] == "Palo Alto"
                     and "Thai" in r["cuisines"] and r["price"] == "cheap"]
    assert sf_pizza_patio and romantic_french and cheap_thai_pa
    assert {"Ragazza", "Local Kitchen & Wine Merchant"} <= {r["name"] for r in sf_pizza_patio}


def test_restaurants_from_the_paper_conversation(restaurant_rows: list[dict]) -> None:
    by_name = {r["name"]: r for r in restaurant_rows}
    ragazza = by_name["Ragazza"]
    assert ragazza["location"] == "San Francisco" and ragazza["price"] == "moderate"
    assert {"Pizza", "Italian"} <= set(ragazza["cuisines"]) and _mentions(ragazza, "patio")
    for name in ("The Public Izakaya", "Fang", "Frascati"):
        assert by_name[name]["location"] == "San Francisco"
    first_sf = [r["name"] for r in restaurant_rows if r["location"] == "San Francisco"][:3]
    assert first_sf == ["The Public Izakaya", "Fang", "Frascati"]


def test_every_city_has_luxury_and_vegan_places(restaurant_rows: list[dict]) -> None:
    for city in CITIES:
        rows = [r for r in restaurant_rows if r["location"] == city]
        assert sum(r["price"] == "luxury" for r in rows) >= 2, city
        assert sum("Vegan" in r["cuisines"] for r in rows) >= 2, city


def test_summaries_and_reviews_agree_on_features(restaurant_rows: list[dict]) -> None:
    for row in restaurant_rows:
        assert row["summary"].startswith(f"{row['name']} is ")
        assert row["summary"].endswith(".") and row["summary"].count("Reviewers mention") == 1
        if "its patio" in row["summary"]:
            assert _mentions(row, "patio"), row["name"]
        assert not (_mentions(row, "romantic") and _mentions(row, "lively")), row["name"]


def test_restaurant_guarantee_check_rejects_a_broken_table(restaurant_rows: list[dict]) -> None:
    broken = [r for r in restaurant_rows if r["name"] != "Ragazza"]
    with pytest.raises(AssertionError, match="Ragazza"):
        restaurants.check_guarantees(broken)


# --- courses ---------------------------------------------------------------------------------

def test_course_tables_have_the_schema_columns(course_tables: dict[str, list[dict]]) -> None:
    assert list(course_tables["courses"][0]) == [
        "course_id", "max_units", "title", "grading", "course_codes", "general_requirements",
        "min_units", "description", "average_hours_spent", "foundations_requirements",
        "significant_implementation_requirements", "breadth_requirement",
        "prerequisite_course_codes"]
    assert list(course_tables["offerings"][0]) == [
        "course_id", "days", "start_time", "end_time", "instructor_names", "season"]
    assert list(course_tables["ratings"][0]) == [
        "rating_id", "course_id", "instructor_names", "average_rating", "num_ratings",
        "term_id", "start_year", "end_year", "season", "reviews"]
    assert list(course_tables["programs"][0]) == [
        "program_id", "level", "specialization", "sheet_requirements", "sheet_url", "sheet_path"]


def test_courses_are_many_and_well_formed(course_tables: dict[str, list[dict]]) -> None:
    rows = course_tables["courses"]
    assert sum(any(c.startswith("CS ") for c in r["course_codes"]) for r in rows) >= 60
    for row in rows:
        assert isinstance(row["course_id"], int) and isinstance(row["average_hours_spent"], float)
        assert 1 <= row["min_units"] <= row["max_units"]
        assert 2 <= courses.sentence_count(row["description"]) <= 4, row["title"]
        assert row["grading"] in courses.GRADINGS
        assert row["foundations_requirements"] in ("", *courses.FOUNDATIONS)
        assert row["breadth_requirement"] in ("", *courses.BREADTH)
    codes = {c for r in rows for c in r["course_codes"]}
    named_in_brief = {f"CS {n}" for n in (
        "103 106A 106B 107 108 109 110 111 124 129 131 140 143 144 145 147 148 149 155 157 161 "
        "221 224N 224W 229 230 231N 238 242 246 248 255 261 343D 369Z 448 448B 448H").split()}
    assert named_in_brief <= codes


def test_offerings_and_ratings_refer_to_existing_courses(
        course_tables: dict[str, list[dict]]) -> None:
    ids = {r["course_id"] for r in course_tables["courses"]}
    assert len(ids) == len(course_tables["courses"])
    assert {o["course_id"] for o in course_tables["offerings"]} == ids
    assert {r["course_id"] for r in course_tables["ratings"]} <= ids
    seasons = {"autumn", "winter", "spring", "summer"}
    for offering in course_tables["offerings"]:
        assert offering["season"] in seasons and offering["instructor_names"]
        assert offering["start_time"].endswith((" AM", " PM"))
    rating_ids = [r["rating_id"] for r in course_tables["ratings"]]
    assert len(set(rating_ids)) == len(rating_ids)
    for rating in course_tables["ratings"]:
        assert rating["season"] in seasons and rating["end_year"] == rating["start_year"] + 1
        assert 1.0 <= rating["average_rating"] <= 5.0
        assert round(rating["average_rating"], 1) == rating["average_rating"]
        assert 2 <= len(rating["reviews"]) <= 5


def test_courses_answer_the_paper_conversation(course_tables: dict[str, list[dict]]) -> None:
    by_code = {c: r for r in course_tables["courses"] for c in r["course_codes"]}
    cs108 = by_code["CS 108"]
    assert cs108["title"] == "Object-Oriented Systems Design"
    assert "object-oriented programming" in cs108["description"].lower()
    assert "Java" in cs108["description"] and cs108["average_hours_spent"] == 16.29

    def ratings(code: str) -> list[float]:
        cid = by_code[code]["course_id"]
        return [r["average_rating"] for r in course_tables["ratings"] if r["course_id"] == cid]

    assert min(ratings("CS 124")) > max(ratings("CS 108"))
    assert by_code["CS 224N"]["course_codes"] == ["CS 224N", "LINGUIST 284"]
    assert "CS 124" not in by_code["CS 224N"]["prerequisite_course_codes"]
    vis = by_code["CS 448B"]
    assert vis["title"] == "Data Visualization" and vis["max_units"] == 4
    meetings = [o for o in course_tables["offerings"] if o["course_id"] == vis["course_id"]]
    assert [(o["season"], o["days"], o["start_time"], o["end_time"]) for o in meetings] == [
        ("autumn", "Monday, Wednesday", "11:30 AM", "12:50 PM")]
    assert by_code["CS 147"]["max_units"] == 5
    movie = [r for r in course_tables["courses"]
             if "film" in r["description"] or "movie" in r["description"]]
    assert {"CS 148", "CS 248", "CS 348B"} <= {c for r in movie for c in r["course_codes"]}
    assert by_code["CS 448"]["title"] == "Topics in Computer Graphics"


def test_programs_cover_levels_and_specializations(course_tables: dict[str, list[dict]]) -> None:
    programs = course_tables["programs"]
    assert {p["level"] for p in programs} == {"BS", "MS", "PhD"}
    allowed = {"AI", "Computational Biology", "Human-Computer Interaction",
               "Information Management & Analytics", "Visual Computing", "Software Theory",
               "Systems", "Theoretical Computer Science", "general",
               "Computer & Network Security"}
    assert {p["specialization"] for p in programs} == allowed
    for program in programs:
        assert program["sheet_url"].startswith("https://cs.example.edu/")
        assert len(program["sheet_requirements"].split()) >= 40


def test_course_guarantee_check_rejects_an_orphan_offering() -> None:
    tables = courses.generate()
    tables["offerings"].append({**tables["offerings"][0], "course_id": -1})
    with pytest.raises(AssertionError, match="orphan offerings"):
        courses.check_guarantees(tables)


# --- services --------------------------------------------------------------------------------

def test_articles_are_long_enough_and_on_topic(article_rows: list[dict]) -> None:
    assert 25 <= len(article_rows) <= 40
    for row in article_rows:
        assert list(row) == ["id", "title", "text"]
        assert 150 <= len(row["text"].split()) <= 400, row["title"]
        assert "\n\n\n" not in row["text"] and "  " not in row["text"]
    assert len({r["id"] for r in article_rows}) == len(article_rows)
    corpus = " ".join(r["title"] + " " + r["text"] for r in article_rows).lower()
    for topic in ("advanced placement", "international baccalaureate", "a\" levels", "abitur",
                  "drop", "add a course", "units", "waitlist", "leave of absence",
                  "return early", "final study list deadline", "transcript", "fee",
                  "studentservices@example.edu", "in person", "through a staff member"):
        assert topic in corpus, topic


def test_reflow_joins_wrapped_lines_and_keeps_paragraphs() -> None:
    assert services.reflow("\none\n  two\n\nthree\n") == "one two\n\nthree"
