"""Turn shapes from session 29's reading of the development agents' misreadings, pinned on a music school's office
spec written here (not a sample, not a development agent). One test per mechanism; each fails without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.specs import agent_of, field, statements, talk

ROOT = Path(__file__).resolve().parents[1]
SPEC = {
    "name": "music_office", "starting_prompt": "Hi, Harrowgate Music School office.",
    "description": "The office of a music school: credit for exams taken elsewhere and help with ensembles.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [
            field("request", "Enum", "What you need", enum_values=[
                {"value": "Exam Credit", "description": "credit on your record for music exams"},
                {"value": "Ensemble Help", "description": "problems with ensembles and lessons"}]),
            field("exam_credit", "ExamCredit", "The exam credit issue", predicate='self.request == "Exam Credit"'),
            field("ensemble_help", "EnsembleHelp", "The ensemble issue", predicate='self.request == "Ensemble Help"'),
            field("student_name", "str", "Your full name"),
            field("confirm", "confirm", "Submit the request")]},
        {"name": "ExamCredit", "kind": "task", "fields": [
            field("issue", "Enum", "The exam credit issue", enum_values=[
                {"value": "Claim Credit For Outside Exams", "description": ""},
                {"value": "Wrong Record", "description": ""}]),
            field("exam_board", "Enum", "The board whose exam you passed", predicate='self.issue == "Claim Credit For Outside Exams"',
                  enum_values=[{"value": "Associated Board Grade Eight", "description": ""},
                               {"value": "Trinity College Diploma", "description": ""},
                               {"value": "Royal Irish Academy Certificate", "description": ""}]),
            field("instrument", "Enum", "The instrument of the exam", predicate='self.issue == "Claim Credit For Outside Exams"',
                  enum_values=[{"value": "Piano", "description": ""}, {"value": "Violin", "description": ""},
                               {"value": "Voice", "description": ""}])]},
        {"name": "EnsembleHelp", "kind": "task", "fields": [
            field("problem", "Enum", "The ensemble problem", enum_values=[
                {"value": "Join Ensemble Waitlist", "description": "get a place on a full ensemble's waiting list"},
                {"value": "Change Lesson Time", "description": "move your lesson"}]),
            field("join", "JoinEnsemble", "Joining a full ensemble", predicate='self.problem == "Join Ensemble Waitlist"')]},
        {"name": "JoinEnsemble", "kind": "task", "fields": [
            field("ensemble_code", "str", "The code of the ensemble you want to join, like ENS 210"),
            field("issue_description", "str", "A description of the problem or question"),
            field("has_audition", "bool", "Have you auditioned for it?")]},
    ],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("music_office"), SPEC)


def test_a_worksheet_nested_without_a_predicate_of_its_own_is_reached_through_its_field(agent):
    """ExamCredit has no predicate; Main.exam_credit's `self.request == "Exam Credit"` is the way to it."""
    _s, (r,) = talk(agent, "hi, I've got my Associated Board grade eight from school, can I get units for it?")
    assert statements(r)[:1] == ['main.request = "Exam Credit"']
    assert 'exam_board="Associated Board Grade Eight"' in " ".join(statements(r))


def _sample(name: str):
    from core_engine import Agent
    from storage.kb.samples import ensure_sample_kb
    ensure_sample_kb(ROOT / "sample_projects" / name)
    return Agent.load(ROOT / "sample_projects" / name)


@pytest.fixture(scope="module")
def ticket():
    return _sample("ticket_submission")


def test_an_option_nested_deep_in_one_task_named_in_full_settles_an_unclear_reading(ticket):
    """"units" is near Change Units too; "A levels", two words of one test type side by side, is not."""
    _s, (r,) = talk(ticket, "hello! I did A levels in the UK, can I get units for them?")
    said = " ".join(statements(r))
    assert 'specific_issue="Submit International Test Scores For Unit Award"' in said
    assert 'type_of_international_test="General Certificate of Education A levels"' in said
    assert not any(s.startswith("answer(") for s in statements(r))
    assert any(rule.get("rule") == "task-deep-option" for rule in r.trace["parse"]["rules"])


def test_a_nested_option_named_in_a_question_about_the_rules_opens_nothing(ticket):
    _s, (r,) = talk(ticket, "do A levels count for anything here?")
    assert not any("type_of_international_test" in s for s in statements(r))


def test_the_story_before_a_request_put_as_a_question_goes_to_the_record_it_opens(ticket):
    _s, (r,) = talk(ticket, "ugh CS 161 is full and I really need it to graduate, can I get on the waitlist?")
    said = " ".join(statements(r))
    assert 'course_name="CS 161", issue_description="CS 161 is full and I really need it to graduate"' in said
    assert next(a["field"] for a in r.acts if a.get("act") == "ask") == "waitlist_confirmation"


@pytest.fixture(scope="module")
def courses():
    return _sample("course_enrollment")


def test_bare_values_in_order_go_to_the_items_still_without_one(courses):
    s, turns = talk(courses, "I need to enroll in CS 147 and CS 148", "letter for both", "4 and 3")
    assert statements(turns[-1]) == ["course.course_num_units = 4", "course_2.course_num_units = 3"]
    s2, turns2 = talk(courses, "I need to enroll in CS 147 and CS 148", "letter for both", "4 and 3 and 5")
    assert "course_2.course_num_units = 3" not in statements(turns2[-1])  # three values for two courses: no guess


def test_a_code_number_alone_after_sign_me_up_for_is_the_code_the_kb_ends_with_it(courses):
    s, turns = talk(courses, "what machine learning courses are there?", "ok sign me up for 229, letter grade, 4 units")
    assert statements(turns[-1]) == ['course.course_name = "CS 229"', 'course.grade_type = "Letter"',
                                     "course.course_num_units = 4"]


def test_the_whole_turn_is_no_short_value_when_its_other_values_went_elsewhere(courses):
    s, turns = talk(courses, "what machine learning courses are there?",
                    "ok sign me up for 999, letter grade, 4 units")  # no code ends with 999
    said = statements(turns[-1])
    assert not any("course_name" in x for x in said) and 'course.grade_type = "Letter"' in said


@pytest.mark.parametrize("said, day", [("I handed the form in two weeks ago", "2024-06-17"), ("sent it 3 days ago", "2024-06-28"),
                                       ("a fortnight ago", "2024-06-17"), ("ages ago", None), ("3 months ago", None)])
def test_days_counted_back_from_today_are_dates(said, day):
    import datetime as dt

    from core_engine.parsers.offline.words.values import find_dates
    found = [d.value for d in find_dates(said, dt.date(2024, 7, 1), past=True)]
    assert found == ([day] if day else [])
