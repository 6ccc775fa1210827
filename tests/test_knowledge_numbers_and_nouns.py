"""Numbers the words do not name, words that only name the rows, and phrases whose meaning is the table's.

A small shelf of books written here (not a sample, not a held-out set): every expected answer is
computed from RECORDS, so the tests check rows, not SQL text.
"""

from __future__ import annotations

import os

import pytest

from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.offline import OfflineKnowledgeParser
from core_engine.knowledge.numbers import bare_numbers, by_range, comparisons
from core_engine.knowledge.vocab import tokenize
from core_engine.spec.model import Field, Spec, Worksheet
from storage.kb.importer import import_records

GENRES = ["Children", "History", "Mystery", "Cooking", "Poetry"]
FORMATS = ["Paperback", "Hardcover", "Audiobook"]
RECORDS = [{"id": f"b{i:02d}", "title": f"Volume {i}", "genre": GENRES[i % 5], "format": FORMATS[i % 3],
            "year": 2012 + i % 12, "copies": i % 4,
            "summary": ["A tale of a lighthouse keeper.", "Recipes from a mountain kitchen.",
                        "A detective in a rainy port.", "Letters from a long war."][i % 4]}
           for i in range(40)]


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("vectors"))
    path = tmp_path_factory.mktemp("shelf") / "kb.sqlite"
    import_records(path, RECORDS, "books", free_text=["summary"])
    ws = Worksheet(name="books", kind="kb", description="The books on the shelf.",
                   fields=[Field(name="copies", description="How many can be borrowed now")])
    with SQLiteKB(path) as kb:
        yield kb, Spec(name="shelf_agent", worksheets=[ws])
    if old is None:
        os.environ.pop("GENIE_CACHE_DIR", None)
    else:
        os.environ["GENIE_CACHE_DIR"] = old


def ask(shelf, question):
    kb, spec = shelf
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return sorted(r["id"] for r in kb.execute(query.sql()).rows), rules


def expect(pred):
    return sorted(r["id"] for r in RECORDS if pred(r))


def test_a_year_said_with_no_column_word_is_the_column_whose_values_span_it(shelf):
    rows, rules = ask(shelf, "children's books published in 2022")
    assert rows == expect(lambda r: r["genre"] == "Children" and r["year"] == 2022)
    compare = [r for r in rules if r["rule"] == "compare"]
    assert [(r["column"], r["op"], r["value"]) for r in compare] == [("year", "=", 2022)]
    assert compare[0]["why"]
    assert not [r for r in rules if r["rule"] == "value" and r["column"] == "format"]  # not "books published"


def test_before_and_after_compare_and_a_bound_outside_the_data_still_names_the_column(shelf):
    rows, _ = ask(shelf, "history books that came out after 2017")
    assert rows == expect(lambda r: r["genre"] == "History" and r["year"] > 2017)
    rows, rules = ask(shelf, "anything from before 2000")
    assert rows == [] and [(r["column"], r["op"]) for r in rules if r["rule"] == "compare"] == [("year", "<")]
    rows, _ = ask(shelf, "mysteries since 2020")
    assert rows == expect(lambda r: r["genre"] == "Mystery" and r["year"] >= 2020)


def test_numbers_no_column_or_several_columns_span_are_left_alone():
    columns = {"year": ["year"], "pages": ["pages"]}
    ranges = {"year": (1990.0, 2024.0), "pages": (80.0, 2100.0)}
    assert by_range(2001, columns, ranges) is None  # both span it: not guessed
    assert by_range(50, columns, ranges) is None
    assert by_range(1500, columns, ranges) == ("pages", 0.5)
    assert bare_numbers("call 555 0199 about 2 books", [], columns, ranges) == []  # no column spans them
    text = "under 30 from 2021"
    assert comparisons(text, tokenize(text), {"price": ["price"]}, None, {"price": (5.0, 25.0)})[0].column == "price"


def test_a_word_that_only_names_the_rows_does_not_filter_them(shelf):
    rows, rules = ask(shelf, "poetry novels in paperback")
    assert rows == expect(lambda r: r["genre"] == "Poetry" and r["format"] == "Paperback")
    assert any(r["rule"] == "ignored" and "novels" in r["words"] for r in rules)


def test_a_word_that_means_something_else_still_searches_and_can_find_nothing(shelf):
    rows, rules = ask(shelf, "vegan cookbooks about volcanoes")
    free = [r for r in rules if r["rule"] == "free_text"]
    assert free and "volcanoes" in free[0]["words"]
    rows, rules = ask(shelf, "a detective story")
    assert rows and set(rows) <= set(expect(lambda r: "detective" in r["summary"]))


def test_a_yes_no_question_about_a_named_row_shows_the_row_with_the_asked_column_first(shelf):
    from core_engine.knowledge.offline import SQLKnowledge
    from core_engine.dialogue.state import KBRecord

    kb, spec = shelf
    other = next(f for f in FORMATS if f != RECORDS[7]["format"])
    record, trace = KBRecord(var="answer", query=f"is Volume 7 a {other.lower()}?"), []
    SQLKnowledge(kb, OfflineKnowledgeParser()).run(record, spec, trace)
    assert [r["id"] for r in record.result] == ["b07"]  # the answer is no, and the row says so
    assert next(iter(record.result[0])) == "format"
    assert [r["column"] for r in trace[0]["rules"] if r["rule"] == "asked"] == ["format"]
    rows, _ = ask(shelf, f"Volume 7 {other.lower()}")  # not a question: the value still filters
    assert rows == []


@pytest.mark.parametrize("question, least", [("books with 2 or more copies", 2), ("books with two or more copies", 2),
                                             ("books with more than two copies", 3)])
def test_a_count_before_or_more_and_in_words(shelf, question, least):
    rows, _rules = ask(shelf, question)
    assert rows == expect(lambda r: r["copies"] >= least)
