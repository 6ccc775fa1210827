"""KB questions on a paddling club's timetable the knowledge parser was never written for (session 9, helper K).

Months on a date column ("since June", "in October"), times of day on an "HH:MM" column ("after 7pm"), parts of
the week on a day-name column ("weekend"), a negation that belongs to a yes/no column said before a value, "non"
before a value, a superlative whose adjective names no column but its opposite does ("lightest"), and is no form
of a yes/no column's word (`lights_fitted`), a yes/no column's whole name holding another column's value ("family
ticket"), a fee column named by the money concept, a count said before its column's word ("2 seat boats"), and a
column's word written as two ("pick up"). Every expected answer is computed from SESSIONS: rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
CRAFTS = ["Kayak", "Canoe", "Paddleboard", "Rowing boat"]
LEVELS = ["Junior", "Adult", "Family"]
SESSIONS = [{"id": f"s{i:02d}", "name": f"{['Dawn', 'Harbour', 'Estuary', 'Reed', 'Lock', 'Moon'][i % 6]} "
             f"{['Paddle', 'Drift', 'Run', 'Trip'][i % 4]} {i}",
             "craft": CRAFTS[i % 4], "level": LEVELS[i % 3], "day": DAYS[i % 7],
             "starts": ["07:30", "09:00", "18:00", "19:30", "20:15"][i % 5],
             "first_date": f"2024-{6 + i % 5:02d}-{1 + i:02d}", "places": 2 + i % 9, "seats": 1 + i % 3,
             "fee": 12.0 + 3 * (i % 6), "boat_weight_kg": 9.0 + (i * 7) % 23, "guided": i % 2 == 0,
             "dogs_allowed": i % 3 == 0, "lights_fitted": i % 4 != 1, "family_ticket": i % 5 in (0, 3),
             "pickup": ["Boathouse", "Harbour steps", "Slipway"][i % 3],
             "notes": ["Calm water along the reeds, good for a first time out.",
                       "Open water past the harbour wall; some swell.",
                       "Evening session with a stop at the riverside pub."][i % 3]}
            for i in range(24)]
COLUMNS = {"name": "Name of the session", "craft": "Kayak, canoe, paddleboard or rowing boat",
           "level": "Who it is for", "day": "Day of the week it runs", "starts": "Start time",
           "first_date": "Date of the first outing", "places": "Places left on the session",
           "seats": "Seats in the boat", "fee": "Session fee in pounds", "boat_weight_kg": "The boat's weight in kilograms",
           "guided": "A guide goes out with the group", "dogs_allowed": "Dogs may come in the boat",
           "lights_fitted": "Boat lights are fitted for dusk", "family_ticket": "A family ticket is sold",
           "pickup": "Where the session meets", "notes": "The club's notes"}
TYPES = {"places": "int", "seats": "int", "fee": "float", "boat_weight_kg": "float", "first_date": "date",
         "guided": "bool", "dogs_allowed": "bool", "lights_fitted": "bool", "family_ticket": "bool"}


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, SESSIONS, "sessions", COLUMNS, name="paddling_club",
                     description="A paddling club: answers questions about its sessions.",
                     table_description="The club's paddling sessions.", free_text=["notes"],
                     column_types=TYPES) as pair:
        yield pair


def expect(pred):
    return sorted(r["id"] for r in SESSIONS if pred(r))


def test_a_month_is_compared_on_the_date_column_in_the_year_its_dates_reach(club):
    rows, _ = ask(club, "sessions since August")
    assert rows == expect(lambda r: r["first_date"] >= "2024-08-01")
    rows, _ = ask(club, "canoe sessions in October")
    assert rows == expect(lambda r: r["craft"] == "Canoe" and r["first_date"].startswith("2024-10"))
    rows, _ = ask(club, "anything starting before July")
    assert rows == expect(lambda r: r["first_date"] < "2024-07-01")


def test_a_time_of_day_is_compared_on_the_time_column(club):
    rows, rules = ask(club, "sessions that start after 7pm")
    assert rows == expect(lambda r: r["starts"] > "19:00")
    assert not any(r["rule"] == "compare" and r["column"] != "starts" for r in rules)
    rows, _ = ask(club, "kayaks before 9.30am")
    assert rows == expect(lambda r: r["craft"] == "Kayak" and r["starts"] < "09:30")


def test_parts_of_the_week_are_the_day_names_of_a_day_column(club):
    rows, _ = ask(club, "weekend sessions")
    assert rows == expect(lambda r: r["day"] in ("Saturday", "Sunday"))
    rows, _ = ask(club, "paddleboards on weekdays")
    assert rows == expect(lambda r: r["craft"] == "Paddleboard" and r["day"] not in ("Saturday", "Sunday"))


def test_a_negation_said_with_a_yes_no_column_does_not_exclude_the_value_after_it(club):
    rows, _ = ask(club, "sessions where dogs aren't allowed in canoes")
    assert rows == expect(lambda r: not r["dogs_allowed"] and r["craft"] == "Canoe")
    rows, _ = ask(club, "dogs aren't allowed, and not in a canoe")  # the value's own "not" still excludes it
    assert rows == expect(lambda r: not r["dogs_allowed"] and r["craft"] != "Canoe")


def test_non_before_a_value_excludes_it(club):
    for question in ("non kayak sessions", "non-kayak sessions"):
        rows, rules = ask(club, question)
        assert rows == expect(lambda r: r["craft"] != "Kayak"), question
        assert not any(r["rule"] == "free_text" for r in rules), question


def test_a_superlative_by_its_opposite_and_not_a_yes_no_word(club):
    rows, rules = ask(club, "the lightest boat")
    assert rows == [min(SESSIONS, key=lambda r: r["boat_weight_kg"])["id"]]
    assert not any(r["rule"] == "yes/no column" for r in rules)  # "lightest" is no form of lights_fitted


def test_a_yes_no_column_named_in_full_over_a_value_inside_it(club):
    rows, _ = ask(club, "sessions with a family ticket")
    assert rows == expect(lambda r: r["family_ticket"])
    rows, _ = ask(club, "family sessions")  # the value alone is still the value
    assert rows == expect(lambda r: r["level"] == "Family")


def test_money_names_a_fee_column_before_a_word_of_another_description(club):
    rows, _ = ask(club, "sessions under £18")
    assert rows == expect(lambda r: r["fee"] < 18)


def test_a_count_before_its_columns_word(club):
    rows, _ = ask(club, "2 seat boats")
    assert rows == expect(lambda r: r["seats"] == 2)
    from core_engine.knowledge.numbers import counted  # "my 8 year old": a unit is a measure, not a count
    assert counted("books for my 8 year old", [], {"year": ["year", "Year it was published"]}) == []


def test_a_columns_word_written_as_two_searches_nothing(club):
    rows, rules = ask(club, "which kayak sessions pick up at the slipway")
    assert rows == expect(lambda r: r["craft"] == "Kayak" and r["pickup"] == "Slipway")
    assert not any(r["rule"] == "free_text" for r in rules)
