"""Corrections and values that used to be read wrong (session 9, found on a blind set's sample conversations; the
samples are only the fixtures here, the mechanisms name nothing of them):

- "the account number ends 9867 not 9876": only the word shaped like the old ending is the new ending (the value
  used to become "55001234the account number ends 9867");
- "sorry i meant 1:30 not 12:30": after 12:30 a bare 1:30 is 13:30, not half past one at night;
- "the fourth of february nineteen fifty two": a year said in words is the year (not this year).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from core_engine.session.agent import Agent

ROOT = Path(__file__).resolve().parents[1] / "sample_projects"


def _play(sample: str, *turns: str):
    session = Agent.load(ROOT / sample).new_session(parser="offline", today=dt.date(2024, 7, 1))
    return [session.turn(t) for t in turns]


def _said(result) -> list[str]:
    return result.trace["parse"]["statements"]


def test_a_corrected_ending_is_the_word_shaped_like_the_old_one():
    results = _play("bank_fraud", "Hello, I'm Aisha Rahman, account 5500 1234 9876",
                    "sorry, the account number ends 9867 not 9876")
    assert _said(results[-1]) == ['first_authentication.account_number = "550012349867"']


def test_half_past_one_after_half_past_twelve_is_in_the_afternoon():
    results = _play("restaurant_reservation", "book a table at Kalamata Greek Kitchen for sunday at 12:30",
                    "sorry i meant 1:30 not 12:30")
    assert 'book_restaurant.time = "13:30"' in _said(results[-1]), _said(results[-1])


def test_a_year_said_in_words():
    from core_engine.parsers.offline.words.answers import spoken_year

    assert spoken_year("the fourth of february nineteen fifty two") == "the fourth of february 1952"
    assert spoken_year("two thousand and five") == "2005" and spoken_year("twenty oh nine") == "2009"
    assert spoken_year("the 4th of february") is None
    results = _play("bank_fraud", "my card was stolen", "Jo Bloggs", "I don't have my account number",
                    "the fourth of february nineteen fifty two")
    assert any(s.endswith('date_of_birth = "1952-02-04"') for s in _said(results[-1])), _said(results[-1])

