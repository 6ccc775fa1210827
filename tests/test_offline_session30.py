"""Turn shapes from session 30's reading of the development agents' misreadings, pinned on a climbing centre's
spec written here (not a sample, not a development agent). One test per mechanism; each fails without it, except
the guards, which keep a rule from reaching too far.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_of, field, statements, talk

SPEC = {
    "name": "climbing_centre", "starting_prompt": "Hi, Gritstone Climbing Centre here.",
    "description": "An indoor climbing centre: wall sessions and lockers.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [
            field("task", "Enum", "What you would like to do", enum_values=[
                {"value": "Book Wall Session", "description": "a climbing session on the wall"},
                {"value": "Rent Locker", "description": "a locker for the month"}])]},
        {"name": "BookWallSession", "kind": "task", "predicate": 'main.task == "Book Wall Session"', "fields": [
            field("session_type", "Enum", "The kind of session", enum_values=[
                {"value": "Taster", "description": "a first go with an instructor"},
                {"value": "Open Climb", "description": "climb on your own"}]),
            field("climber_name", "str", "The full name of the lead climber"),
            field("team_name", "str", "The name of your club or team, if you climb with one", required=False),
            field("under_eighteens", "bool", "Whether anyone in the group is younger than 18"),
            field("shoe_hire", "bool", "Whether you need to hire climbing shoes from us"),
            field("membership_number", "str", "Your membership number, if you have one", required=False),
            field("group_size", "int", "How many people will be climbing"),
            field("confirm", "confirm", "Book the session")]},
        {"name": "RentLocker", "kind": "task", "predicate": 'main.task == "Rent Locker"', "fields": [
            field("locker_number", "str", "The locker number you would like"),
            field("renter_name", "str", "Your full name"),
            field("confirm", "confirm", "Rent the locker")]},
    ],
}


BOOK = "I'd like to book a wall session"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("climbing_centre"), SPEC)


def _last(agent, *turns):
    _s, results = talk(agent, *turns)
    return statements(results[-1])


def test_yes_no_fields_volunteered_in_other_words_are_read_by_meaning(agent):
    """Neither clause says "under eighteens" or "shoe hire"; "none of us" and "our own" say no."""
    said = _last(agent, BOOK, "open climb, none of us are under 18 and we all have our own shoes")
    assert said == ['book_wall_session.session_type = "Open Climb"', "book_wall_session.under_eighteens = False",
                    "book_wall_session.shoe_hire = False"]


def test_a_clause_that_tells_of_a_trouble_answers_no_yes_no_field(agent):
    said = _last(agent, BOOK, "open climb", "Tom Hale", "no team", "the shoe hire page just gives me an error")
    assert not any("shoe_hire" in s for s in said)


def test_a_name_is_the_one_full_name_among_the_turns_sentences(agent):
    assert _last(agent, BOOK, "taster", "Priya Natarajan. I'll drive over from Leeds Road") == \
        ['book_wall_session.climber_name = "Priya Natarajan"']
    assert _last(agent, BOOK, "taster", "his name is Robert Ellison. Bob to everyone") == \
        ['book_wall_session.climber_name = "Robert Ellison"']


def test_a_family_name_said_again_in_full_is_the_full_name(agent):
    assert _last(agent, BOOK, "open climb", "it's under Hale, Tom Hale") == ['book_wall_session.climber_name = "Tom Hale"']


def test_a_short_answer_beside_a_name_for_another_field_answers_the_question(agent):
    _s, (_r1, r2) = talk(agent, "I'd like to rent a locker", "B7. name's Tom Hale")
    assert sorted(statements(r2)) == ['rent_locker.locker_number = "B7"', 'rent_locker.renter_name = "Tom Hale"']


def test_again_after_a_value_is_no_part_of_it(agent):
    assert _last(agent, BOOK, "open climb", "Tom Hale", "Crag Rats again") == ['book_wall_session.team_name = "Crag Rats"']


def test_a_doubt_in_a_later_clause_about_the_thing_asked_declines_it(agent):
    said = _last(agent, BOOK, "open climb", "Tom Hale", "no team", "no", "yes",
                 "I signed up last spring but I've no idea what the number is")
    assert said == ['book_wall_session.membership_number = "NA"']


def test_an_optional_field_is_declined_by_a_negation_of_its_descriptions_words(agent):
    assert _last(agent, BOOK, "open climb", "Tom Hale", "we don't climb with a club") == \
        ['book_wall_session.team_name = "NA"']
    assert _last(agent, BOOK, "open climb", "Tom Hale", "we're not in any club, we just come along at weekends") == \
        ['book_wall_session.team_name = "NA"']
    # a capitalised name with "not" in it is a name
    assert _last(agent, BOOK, "open climb", "Tom Hale", "The Not So Steady Club") == \
        ['book_wall_session.team_name = "The Not So Steady Club"']


def test_a_count_offered_in_words_with_a_question_mark_answers_the_count_asked(agent):
    said = _last(agent, BOOK, "open climb", "Tom Hale", "no team", "no", "yes", "not a member",
                 "hard to say.. maybe twenty or so?")
    assert said == ["book_wall_session.group_size = 20"]


# ---------------------------------------------------------------- guards from the session's attack pass

def test_no_yes_no_by_meaning_from_someone_elses_habit_or_a_question_without_its_mark(agent):
    for turn in ("open climb, my husband always hires shoes", "open climb, do you hire out shoes"):
        assert _last(agent, BOOK, turn) == ['book_wall_session.session_type = "Open Climb"'], turn


def test_no_full_name_from_a_sentence_about_someone_else(agent):
    assert _last(agent, BOOK, "taster", "Hughes. Owen Hughes recommended you") != \
        ['book_wall_session.climber_name = "Owen Hughes"']


def test_a_greeting_beside_a_name_is_no_code(agent):
    assert _last(agent, "I'd like to rent a locker", "hiya. name's Tom Hale") == ['rent_locker.renter_name = "Tom Hale"']


def test_a_new_value_after_a_negation_is_not_declined(agent):
    said = _last(agent, BOOK, "open climb", "Tom Hale", "we're not with the crag rats anymore, we're with edge club now")
    assert said != ['book_wall_session.team_name = "NA"']


def test_again_in_a_capitalised_name_stays(agent):
    assert _last(agent, BOOK, "open climb", "Tom Hale", "Ride Again") == ['book_wall_session.team_name = "Ride Again"']


def test_a_price_asked_in_words_is_no_count(agent):
    said = _last(agent, BOOK, "open climb", "Tom Hale", "no team", "no", "yes", "not a member", "fifteen pounds a session?")
    assert not any("group_size" in s for s in said)


# ---------------------------------------------------------------- the knowledge parser: short values by their column

LOCKERS = [{"id": f"L{i:02d}", "block": block, "size": size, "monthly_price": price}
           for i, (block, size, price) in enumerate([
               ("A", "Small", 8), ("A", "Large", 12), ("B", "Small", 8), ("B", "Large", 12), ("B", "Large", 13),
               ("C", "Small", 7), ("C", "Large", 11), ("D", "Small", 9), ("D", "Large", 14), ("D", "Small", 9)], 1)]


@pytest.fixture(scope="module")
def lockers(tmp_path_factory):
    from tests.fakes.specs import agent_with_kb
    yield from agent_with_kb(tmp_path_factory, "lockers", SPEC, {"lockers": (LOCKERS, [])})


def _found(agent, question):
    import json
    session = agent.new_session(parser="formal")
    r = session.inject(f"answer({json.dumps(question)})", strict=False)
    entry = next(e for e in r.trace["kb"] if e.get("query") == question)
    return entry["sql"], entry["rows"]


def test_a_one_letter_value_beside_its_columns_name_is_a_filter(lockers):
    sql, rows = _found(lockers, "large lockers in block B")
    assert "\"block\" = 'B'" in sql and rows == 2
    sql, rows = _found(lockers, "anything on D block?")
    assert "\"block\" = 'D'" in sql and rows == 3


def test_the_article_before_a_columns_name_is_no_value(lockers):
    sql, _rows = _found(lockers, "is there a block with large lockers")
    assert "\"block\" = 'A'" not in sql
