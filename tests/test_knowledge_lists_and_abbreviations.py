"""Knowledge-parser mechanisms found on the hotel_desk agent's KB questions (helper B, session 6): several values
of a list column said with no conjunction between them are all required, a word whose first letters are a value of a column of
abbreviations selects it ("Mondays" -> "Mon"), and a column's description words name its table ("euros")."""

from __future__ import annotations

from pathlib import Path

import pytest

from core_engine.session.agent import Agent

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def session():
    return Agent.load(ROOT / "tests" / "agents" / "hotel_desk").new_session(parser="formal")


def ask(session, question: str) -> tuple[str, list[str]]:
    result = session.turn(f'answer("{question}")')
    kb = result.trace["kb"][-1]
    rows = [r["id"] for a in result.acts if a["act"] == "report" for r in a.get("result") or []]
    return kb["sql"], rows


def test_two_values_of_a_list_column_are_both_required_unless_or_is_said(session):
    sql, rows = ask(session, "what's good for kids on a rainy day")
    assert " OR " not in sql and sorted(rows) == ["a06", "a16", "a17", "a23"]
    for alternatives in ("anything for kids or couples", "anything for kids and couples"):
        assert " OR " in ask(session, alternatives)[0]


def test_a_word_that_starts_with_an_abbreviation_value_selects_it(session):
    sql, rows = ask(session, "what is open on Mondays in Riverside")
    assert "'Mon'" in sql and sorted(rows) == ["a15", "a21"]


def test_a_word_of_a_column_description_names_the_table(session):
    sql, _ = ask(session, "tours under 20 euros")
    assert '"attractions"' in sql and '"price" < 20' in sql


def test_a_compound_word_is_searched_as_the_two_words_the_text_holds(session):
    sql, rows = ask(session, "what time is checkout")
    assert '"hotel_info"' in sql and '"check out"' in sql and rows[0] == "h01"
