"""An option chosen by one word of its description is checked against what the whole answer means, on a spec
written here (a piano school): no sample, no held-out agent.

"ok book me in for tuesdays at 5" said to "what would you like to do?" used to stop the lessons, because "booked"
is a word of the stop option's description ("end lessons that were already booked"); "we're relocating to Leeds
the day after her birthday" was "No Time" by the word "day". Now the one-word reading is dropped (with a trace
note naming both options and their scores) when the answer means another option: that option is taken when the
reading by meaning is decided, else the question is asked again. "12 noon" is one time, not 12 and noon.
"""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.words.values import find_times
from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SCHOOL = {
    "name": "piano school", "starting_prompt": "Hello, Keys & Chords music school. How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Start Lessons", "description": "sign up for weekly piano lessons with a teacher"},
                    {"value": "Stop Lessons",
                     "description": "end lessons that were already booked and get the unused fees back"}),
        {"name": "StartLessons", "kind": "task", "predicate": 'task == "Start Lessons"', "api": "start_lessons",
         "fields": [field("first_lesson", "date", "The day of the first lesson"),
                    field("lesson_time", "time", "The time of the lesson"),
                    field("weeks", "int", "How many weeks of lessons"),
                    field("confirm", "confirm", "Confirm the lessons")]},
        {"name": "StopLessons", "kind": "task", "predicate": 'task == "Stop Lessons"', "api": "stop_lessons",
         "fields": [field("pupil_name", description="The pupil's name"),
                    field("reason", "Enum", "Why the lessons stop", enum_values=[
                        {"value": "Moving Away", "description": "moving house to another town"},
                        {"value": "Too Expensive", "description": "the fees are more than you can pay"},
                        {"value": "No Time", "description": "too busy on that day of the week"},
                        {"value": "Other", "description": "any other reason"}]),
                    field("confirm", "confirm", "Confirm")]}],
    "apis": [{"name": "start_lessons"}, {"name": "stop_lessons"}],
}


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("school"), SCHOOL)


def test_one_description_word_does_not_choose_the_task_the_turn_does_not_mean(school):
    _s, results = talk(school, "hi", "ok book me in for tuesdays at 5")
    assert not any("Stop Lessons" in s for s in statements(results[-1]))
    doubt = next(r for r in results[-1].trace["parse"]["rules"] if r["rule"] == "one-word-doubt")
    assert doubt["matched"] == "book" and doubt["one_word_option"] == "Stop Lessons"
    assert doubt["reading"] == "Start Lessons" and doubt["score"] > doubt["one_word_option_score"]


def test_the_option_the_answer_means_wins_over_one_word_of_another(school):
    _s, results = talk(school, "I need to stop my daughter's lessons", "Amy Lee",
                       "we're relocating to Leeds the day after her birthday")
    assert results[-2].acts[-1]["field"] == "reason"
    assert statements(results[-1]) == ['stop_lessons.reason = "Moving Away"']


def test_a_description_word_still_chooses_when_the_meaning_agrees(school):
    _s, results = talk(school, "I need to stop my daughter's lessons", "Amy Lee", "too busy, sorry")
    assert statements(results[-1]) == ['stop_lessons.reason = "No Time"']


def test_twelve_noon_is_one_time_and_no_number(school):
    assert [(s.text, s.value) for s in find_times("book it for saturday 12 noon")] == [("12 noon", "12:00")]
    assert [(s.text, s.value) for s in find_times("twelve midnight")] == [("twelve midnight", "00:00")]
    _s, results = talk(school, "I'd like to start lessons on the 9th at 12 noon")
    assert not any("weeks" in s for s in statements(results[-1])), statements(results[-1])


def test_a_dotted_clock_proposed_with_a_question_mark_answers_the_time_asked(school):
    from core_engine.parsers.offline.words.values import dotted_clocks

    assert [s.value for s in dotted_clocks("any time after 5, so 5.30?")] == ["17:30"]
    assert dotted_clocks("it cost 9.30") == [] and dotted_clocks("is it 4.50 for a lesson?") == []
    assert dotted_clocks("is there anything after 5.30?") == []  # a bound asks; it proposes no time
    _s, results = talk(school, "I'd like to start lessons", "the 9th", "any time after 5, so 5.30?")
    assert results[-2].acts[-1]["field"] == "lesson_time"
    assert statements(results[-1]) == ['start_lessons.lesson_time = "17:30"']


def test_why_does_it_matter_is_a_question_about_the_question(school):
    _s, results = talk(school, "I need to stop my daughter's lessons", "Amy Lee", "why does it matter why?")
    assert statements(results[-1]) == [] and results[-1].acts[-1]["field"] == "reason"
    assert "I need to know why the lessons stop before I can go on." in results[-1].response
