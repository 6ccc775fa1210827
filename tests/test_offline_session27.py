"""Turn shapes from session 27's reading of the development agents' misreadings, pinned on a sailing school spec
written here (not a sample, not a development agent). One test per mechanism; each fails without it.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk

SPEC = {
    "name": "sailing_school", "starting_prompt": "Hello, Tidewater Sailing School here.",
    "description": "A sailing school that runs lessons on its boats.",
    "settings": {"start_worksheet": "Main", "date_order": "day_first"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Lesson", "description": "book a sailing lesson with an instructor"},
            {"value": "Cancel Lesson", "description": "cancel a lesson already booked"},
        ])]},
        {"name": "BookLesson", "kind": "task", "predicate": 'task == "Book Lesson"', "api": "book_lesson",
         "description": "A sailing lesson.", "fields": [
            field("instructor", "Instructor", "The instructor you would like"),
            field("lesson_type", "Enum", "The kind of lesson", enum_values=[
                {"value": "Refresher"}, {"value": "Race Training"}]),
            field("meeting_point", "Mooring", "Where you will meet the boat"),
            field("lesson_date", "date", "The day of the lesson"),
            field("sailed_before", "bool", "Have you sailed with us before?"),
            field("last_sailed", "date", "The day you were last out on the water", predicate="self.sailed_before == True"),
            field("level", "Enum", "Your sailing qualification", enum_values=[
                {"value": "Competent Crew"}, {"value": "Day Skipper"}, {"value": "Yacht Master"}]),
            field("licence_number", "str", "The number on your sailing club card"),
            field("student_name", "str", "Your full name"),
            field("hire_kit", "bool", "Do you want to hire a wetsuit and lifejacket?"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "CancelLesson", "kind": "task", "predicate": 'task == "Cancel Lesson"', "api": "cancel_lesson",
         "description": "A lesson cancelled.", "fields": [
            field("booking_reference", "str", "Your booking reference, like TS-4410"),
            field("confirm", "confirm", "Confirm the cancellation")]},
        {"name": "Instructor", "kind": "kb", "fields": [field("id", primary_key=True), field("name"),
                                                         field("description")]},
        {"name": "Mooring", "kind": "kb", "fields": [field("id", primary_key=True), field("name"),
                                                      field("description")]},
    ],
    "apis": [{"name": "book_lesson"}, {"name": "cancel_lesson"}],
}
INSTRUCTORS = [{"id": "i1", "name": "Ines Morgan", "description": "patient with nervous beginners and children"},
               {"id": "i2", "name": "Kofi Mensah", "description": "race training and spinnaker work"},
               {"id": "i3", "name": "Ruth Adeyemi", "description": "night passages and navigation"}]
MOORINGS = [{"id": "m1", "name": "St Anne's Quay", "description": "the old quay by the church"},
            {"id": "m2", "name": "Harbour Steps", "description": "steps down from the harbour wall"},
            {"id": "m3", "name": "Pier Head", "description": "the end of the long pier"},
            {"id": "m4", "name": "Seal Rock Quay", "description": "a quiet quay near the rocks"}]
LESSON = "I'd like to book a sailing lesson"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "sailing", SPEC, {"Instructor": (INSTRUCTORS, ["description"]),
                                                                 "Mooring": (MOORINGS, ["description"])})


values = record_values


def rules(result) -> list[str]:
    return [r["rule"] for r in result.trace["parse"]["rules"]]


def test_a_question_for_rows_while_a_row_is_asked_is_answered_not_taken_as_the_choice(agent):
    session, [_, r] = talk(agent, LESSON, "which of your instructors are good with nervous beginners?")
    assert [s for s in statements(r) if "answer(" in s] and not [s for s in statements(r) if "instructor =" in s]
    assert "instructor" not in values(session, "book_lesson")


def test_a_description_of_the_row_wanted_while_it_is_asked_still_searches_for_it(agent):
    session, [_, r] = talk(agent, LESSON, "someone good with race training")
    assert any(s.startswith("book_lesson.instructor = answer(") for s in statements(r))


def test_her_after_a_one_row_answer_takes_that_row_with_the_option_beside_it(agent):
    session, [*_, r] = talk(agent, LESSON, "which instructors do night passages?",
                            "ok book me with her for a refresher")
    assert "book_lesson.instructor = answer_2.result[0]" in statements(r) or \
        any(s.startswith("book_lesson.instructor = answer") and ".result[0]" in s for s in statements(r))
    assert values(session, "book_lesson")["lesson_type"] == "Refresher"


def test_book_me_in_for_that_after_an_answer_opens_the_task_with_that_row(agent):
    session, [_, r] = talk(agent, "who does race training?", "great, book me in for that on saturday please")
    assert 'main.task = "Book Lesson"' in statements(r)
    assert any("instructor=answer.result[0]" in s.replace(" ", "") or "instructor = answer.result[0]" in s
               for s in statements(r))


def test_a_date_told_in_the_past_goes_to_the_past_field_in_its_past_year(agent):
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head", "saturday 13th july",
                            "yes, last time was 20th November")
    assert values(session, "book_lesson")["last_sailed"] == "2023-11-20"
    assert values(session, "book_lesson")["lesson_date"] == "2024-07-13"


def test_a_code_labelled_by_a_noun_only_its_field_description_has(agent):
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head", "saturday 13th july",
                            "no, never", "day skipper, card TS-00921")
    assert values(session, "book_lesson")["licence_number"] == "TS-00921"


def test_a_qualification_by_its_capitalised_initials(agent):
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head", "saturday 13th july",
                            "no, never", "DS, card TS-00921")
    assert values(session, "book_lesson")["level"] == "Day Skipper"
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head", "saturday 13th july",
                            "no, never", "ok, card TS-00921")
    assert "level" not in values(session, "book_lesson")  # "OK" is no short form


def test_a_name_then_a_remark_in_a_sentence_of_its_own(agent):
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head", "saturday 13th july",
                            "no, never", "day skipper", "TS-00921", "Amir Haddad. I've got my own lifejacket")
    assert values(session, "book_lesson")["student_name"] == "Amir Haddad"
    assert values(session, "book_lesson")["hire_kit"] is False  # "my own" kit: nothing to hire


def test_a_row_of_another_table_answers_the_row_asked_not_the_row_held(agent):
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head")
    assert statements(r) == ['book_lesson.meeting_point = answer("Pier Head")']


def test_of_two_dates_the_limit_and_the_day_held_are_not_the_answer(agent):
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head",
                            "we're away till the 20th, so maybe monday the 22nd?")
    assert values(session, "book_lesson")["lesson_date"] == "2024-07-22"
    session, [*_, r] = talk(agent, LESSON, "Ines Morgan", "refresher", "Pier Head",
                            "we were due the 18th but it'll be the 25th now")
    assert values(session, "book_lesson")["lesson_date"] == "2024-07-25"


def test_a_number_after_at_before_a_plural_noun_is_no_time():
    from core_engine.parsers.offline.words.values import find_times
    assert find_times("could someone look at two trees for us") == []  # not 14:00
    assert [t.value for t in find_times("meet at two, works for me")] == ["14:00"]
    assert [t.value for t in find_times("at 2 works for me")] == ["14:00"]
