"""Turn shapes from session 33's reading of the development agents' misreadings, pinned on a community music
school's spec written here (not a sample, not a development agent). One test per mechanism; each fails without it,
except the guards, which keep a rule from reaching too far.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "music_school", "starting_prompt": "Hello, Larkfield Music School here.",
    "description": "A community music school: instrument lessons for children and adults, and instrument hire.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Book Lessons", "description": "a course of instrument lessons"},
                    {"value": "Hire Instrument", "description": "borrow an instrument for a term"}),
        {"name": "BookLessons", "kind": "task", "predicate": 'main.task == "Book Lessons"', "fields": [
            field("is_member", "bool", "Whether you are already a member of the school"),
            field("member_number", "str", "Your membership number", predicate="self.is_member == True"),
            field("owns_instrument", "bool", "Whether the pupil has their own instrument"),
            field("pupils", "int", "How many pupils the lessons are for"),
            field("confirm", "confirm", "Book the lessons")]},
        {"name": "HireInstrument", "kind": "task", "predicate": 'main.task == "Hire Instrument"', "fields": [
            field("instrument", "Enum", "Which instrument", enum_values=[
                {"value": "Violin"}, {"value": "Cello"}, {"value": "Flute"}]),
            field("insured", "bool", "Whether you have home insurance that covers the instrument"),
            field("confirm", "confirm", "Hire the instrument")]},
    ],
}

LESSONS = "I'd like to book some lessons"
TO_CONFIRM = (LESSONS, "no", "yes", "2")


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("music_school"), SPEC)


def _last(agent, *turns):
    _s, results = talk(agent, *turns)
    return statements(results[-1])


# -- a yes/no question answered "not yet" ------------------------------------------------------------------------


@pytest.mark.parametrize("said", ["not yet, still deciding whether to join", "not joined yet tbh",
                                  "not yet but I'm thinking about it!"])
def test_not_yet_answers_no_to_a_yes_no_question(agent, said):
    assert _last(agent, LESSONS, said) == ["book_lessons.is_member = False"]


def test_guard_not_sure_is_no_answer_to_a_yes_no_question(agent):
    assert "book_lessons.is_member = False" not in _last(agent, LESSONS, "not sure tbh")


def test_a_reason_then_so_yes_answers_yes(agent):
    assert _last(agent, LESSONS, "I'm in the county youth orchestra so yes") == ["book_lessons.is_member = True"]


def test_guard_so_yes_after_a_negated_reason_is_not_read(agent):
    assert _last(agent, LESSONS, "not in the orchestra any more so yes") != ["book_lessons.is_member = True"]


# -- a doubt about the thing asked, later in the turn --------------------------------------------------------------


@pytest.mark.parametrize("said", ["ugh, it's on a letter at home, I don't know it off by heart",
                                  "I left my card at home, don't know the number",
                                  "I renewed it last month and honestly can't remember the new one"])
def test_a_doubt_about_it_later_in_the_turn_refuses_the_field(agent, said):
    assert _last(agent, LESSONS, "yes", said) == ['book_lessons.member_number = "NA"']


def test_guard_a_doubt_about_something_else_refuses_nothing(agent):
    said = _last(agent, LESSONS, "yes", "it's on a letter at home, I don't know where my sister put it")
    assert 'book_lessons.member_number = "NA"' not in said


# -- a summary held back, and agreed to in few letters ------------------------------------------------------------


@pytest.mark.parametrize("said", ["hold off, I need to check with my wife first",
                                  "actually hang on, let me check with my husband first",
                                  "nah actually leave it for now"])
def test_a_summary_held_back_to_ask_someone_is_a_no(agent, said):
    assert _last(agent, *TO_CONFIRM, said) == ["book_lessons.confirm = False"]


@pytest.mark.parametrize("said", ["ys thx", "ok good to go"])
def test_a_summary_agreed_in_short(agent, said):
    assert _last(agent, *TO_CONFIRM, said) == ["book_lessons.confirm = True"]


# -- a new count after the reason for it ---------------------------------------------------------------------------


@pytest.mark.parametrize("said, n", [("hmm 2 pupils just dropped out so make it 3", 3),
                                     ("oh and one of my kids can't come now, so three", 3),
                                     ("hmm we might be 4 actually, put 4", 4)])
def test_a_new_count_after_its_reason_changes_the_count(agent, said, n):
    assert _last(agent, *TO_CONFIRM, said) == [f"book_lessons.pupils = {n}"]


def test_guard_leave_it_as_it_is_holds_nothing_back(agent):
    assert "book_lessons.confirm = False" not in _last(agent, *TO_CONFIRM, "leave it as it is")


def test_guard_a_number_after_a_marker_with_none_before_changes_as_before(agent):
    assert _last(agent, *TO_CONFIRM, "actually make it 3") == ["book_lessons.pupils = 3"]
