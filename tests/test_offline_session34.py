"""Turn shapes from session 34's reading of the development agents' misreadings, pinned on a beauty salon's spec
written here (not a sample, not a development agent). One test per mechanism; each fails without it, except the
guards, which keep a rule from reaching too far.
"""

from __future__ import annotations

import json

import pytest

from tests.fakes.specs import agent_with_kb, field, statements, talk, task_choice

SPEC = {
    "name": "beauty_rooms", "starting_prompt": "Hello, Willow Beauty Rooms here.",
    "description": "A beauty salon with two branches: treatments with a therapist, waxing, and aftercare advice.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Book Treatment", "description": "book a treatment with one of our therapists",
                     "examples": ["I want to book a treatment", "can I see a therapist"]},
                    {"value": "Book Wax", "description": "book a waxing appointment at one of our branches",
                     "examples": ["I need a wax"]},
                    {"value": "Aftercare Question", "description": "ask about skin after a treatment",
                     "examples": ["my skin is red after my facial, is that normal?"]},
                    {"value": "Cancel Appointment", "description": "cancel an appointment you already have"}),
        {"name": "BookTreatment", "kind": "task", "predicate": 'main.task == "Book Treatment"', "fields": [
            field("therapist", "Therapist", "The therapist you would like"),
            field("session_type", "Enum", "Which kind of appointment", enum_values=[
                {"value": "Consultation", "description": "a free chat to plan a course of treatments",
                 "examples": ["just a chat first"]},
                {"value": "Full Treatment", "description": "the treatment itself",
                 "examples": ["I'm ready to get it done", "the full thing"]}]),
            field("date", "date", "The day of the appointment"),
            field("client_name", "str", "Your full name"),
            field("phone", "str", "A phone number we can text"),
            field("confirm", "confirm", "Book the treatment")]},
        {"name": "BookWax", "kind": "task", "predicate": 'main.task == "Book Wax"', "fields": [
            field("area", "Enum", "What to wax", enum_values=[
                {"value": "Eyebrow"}, {"value": "Underarm"}, {"value": "Bikini"}, {"value": "Full Leg"}]),
            field("branch", "Enum", "Which branch", enum_values=[
                {"value": "Canal Street"}, {"value": "Market Square"}]),
            field("date", "date", "The day of the appointment"),
            field("client_name", "str", "Your full name"),
            field("phone", "str", "A phone number we can text"),
            field("notes", "str", "Anything the therapist should know, like allergies", required=False),
            field("slot", "Enum", "Morning or afternoon", enum_values=[{"value": "Morning"}, {"value": "Afternoon"}]),
            field("confirm", "confirm", "Book the wax")]},
        {"name": "AftercareQuestion", "kind": "task", "predicate": 'main.task == "Aftercare Question"', "fields": [
            field("question", "str", "What you would like to ask"),
            field("client_name", "str", "Your full name"),
            field("phone", "str", "A phone number our aftercare team can call")]},
        {"name": "CancelAppointment", "kind": "task", "predicate": 'main.task == "Cancel Appointment"', "fields": [
            field("booking_reference", "str", "Your booking reference"),
            field("confirm", "confirm", "Cancel the appointment")]},
        {"name": "therapists", "kind": "kb", "fields": [field("id"), field("name"), field("branch"),
                                                         field("specialties", "List[str]")]},
        {"name": "Therapist", "kind": "type", "fields": [field("id"), field("name"), field("branch")]},
    ],
}
THERAPISTS = [{"id": f"t{i}", "name": n, "branch": b, "specialties": json.dumps(s)} for i, (n, b, s) in enumerate([
    ("Ruth Amos", "Canal Street", ["facials", "massage"]), ("Lena Park", "Market Square", ["nails", "facials"]),
    ("Ola Bright", "Market Square", ["massage"]), ("Dee Carter", "Canal Street", ["lashes", "brows"])])]


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "beauty", SPEC, {"therapists": (THERAPISTS, [])})


def _last(agent, *turns):
    _s, results = talk(agent, *turns)
    return statements(results[-1])


ASKED = ("my skin is red after my facial, is that normal?", "I was just wondering", "Ana Silva", "07700 900111")
"""An aftercare question asked and finished (its name and phone given)."""
TO_PHONE = (*ASKED, "can I book a bikini wax at canal street too", "tomorrow", "Ana Silva")
"""Then a wax booked, up to its phone question."""


# -- a task asked for by its option, word for word, after another task is done ----------------------------------


def test_a_task_asked_for_by_its_options_after_another_is_done(agent):
    said = _last(agent, *ASKED, "thanks! while i'm here can i book a bikini at market square")
    assert said == ['main.task = "Book Wax"', 'book_wax = BookWax(area="Bikini", branch="Market Square")']


def test_an_option_said_with_get_done_opens_its_task_after_another(agent):
    said = _last(agent, *ASKED, "also can i get my eyebrows done at canal street")
    assert said == ['main.task = "Book Wax"', 'book_wax = BookWax(area="Eyebrow", branch="Canal Street")']


def test_an_option_asked_for_with_a_kb_row_after_another_task(agent):
    said = _last(agent, *ASKED, "can i book a consultation with Dee Carter")
    assert said[0] == 'main.task = "Book Treatment"' and 'session_type="Consultation"' in said[1], said


def test_guard_a_verb_of_another_task_beats_the_option_named(agent):
    assert _last(agent, *ASKED, "thanks! can you cancel my eyebrow appointment") == \
        ['main.task = "Cancel Appointment"']


def test_guard_a_wh_question_naming_an_option_opens_nothing(agent):
    said = _last(agent, *ASKED, "thanks! where can i get my eyebrows done?")
    assert not any("Book Wax" in s for s in said), said


def test_guard_an_option_that_only_says_when_tells_no_task(agent):
    said = _last(agent, *ASKED, "I want to see Ruth Amos next tuesday morning")
    assert not any("Book Wax" in s or "slot" in s for s in said), said


@pytest.mark.parametrize("said", ["thanks! do I need to book a bikini wax in advance?",
                                  "I don't want a bikini wax, I want a consultation",
                                  "I need to pay for my eyebrows at the desk, is that ok"])
def test_guard_no_option_asked_for_in_a_question_a_negation_or_a_need(agent, said):
    assert not any("area=" in s for s in _last(agent, *ASKED, said))


# -- "same <field> as before" from a task of another worksheet ---------------------------------------------------


def test_same_number_as_before_copies_the_phone_of_another_task(agent):
    assert _last(agent, *TO_PHONE, "same number as before") == ["book_wax.phone = aftercare_question.phone"]


def test_the_answer_asked_beside_same_number_as_before(agent):
    assert _last(agent, *TO_PHONE[:-1], "Ana Silva, same number as before") == [
        "book_wax.phone = aftercare_question.phone", 'book_wax.client_name = "Ana Silva"']


def test_same_name_as_before_then_another_value(agent):
    assert _last(agent, *TO_PHONE[:-1], "same name as before, 07700 900222") == [
        "book_wax.client_name = aftercare_question.client_name", 'book_wax.phone = "07700 900222"']


def test_guard_same_number_with_no_earlier_record_copies_nothing(agent):
    said = _last(agent, "can i get my underarms done on friday at market square", "Ana Silva", "same number as before")
    assert not any("aftercare" in s or "client_name" in s for s in said), said


# -- a remark added to an answer goes to the record's notes ------------------------------------------------------


@pytest.mark.parametrize("said, note", [("07700 900333. oh and im allergic to latex", "im allergic to latex"),
                                        ("07700 900333. fyi my skin reacts to some waxes", "my skin reacts to some waxes"),
                                        ("07700 900333. very sensitive skin btw", "very sensitive skin")])
def test_a_remark_after_the_answer_is_a_note(agent, said, note):
    assert sorted(_last(agent, *TO_PHONE, said)) == sorted(['book_wax.phone = "07700 900333"', f'book_wax.notes = "{note}"'])


def test_guard_a_question_after_the_answer_is_no_note(agent):
    said = _last(agent, *TO_PHONE, "07700 900333. oh and can I bring my sister along?")
    assert not any("notes" in s for s in said), said


def test_guard_a_remark_that_changes_a_value_is_no_note(agent):
    said = _last(agent, *TO_PHONE, "07700 900333. oh and make it the day after tomorrow")
    assert not any("notes" in s for s in said), said


# -- a course code's number is no count (on the course sample: its list of courses) ------------------------------


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    import shutil
    from pathlib import Path

    from core_engine.session.agent import Agent
    root = tmp_path_factory.mktemp("courses") / "course_enrollment"
    shutil.copytree(Path(__file__).resolve().parents[1] / "sample_projects" / "course_enrollment", root)
    return Agent.load(root)


def test_a_bare_number_naming_a_code_said_is_no_count_of_units(courses):
    said = _last(courses, "can I enrol in CS 110 and CS 107? letter grade for 110 please")
    assert said and "course_num_units" not in said[0], said


def test_a_course_code_beside_its_title_is_no_count_of_units(courses):
    said = _last(courses, "I want to enroll in CS 143", "letter", "4", "yes",
                 "and CS 110, the principles of computer systems one")
    assert said == ['course_2.course_name = "CS 110"'], said


def test_same_grading_and_units_beside_a_course_named_by_title(courses):
    said = _last(courses, "I want to enroll in CS 143", "letter", "4", "yes",
                 "oh and CS 178 as well, the digital photography class, same grading and units")
    assert said == ['course_2.course_name = "CS 178"', 'course_2.grade_type = "Letter"',
                    'course_2.course_num_units = 4'], said


@pytest.mark.parametrize("said", ["07700 900333. oh and thank you so much", "07700 900333. oh and my email is ana@x.com",
                                  "07700 900333. oh and no allergies", "07700 900333. oh and I also want a facial"])
def test_guard_thanks_contacts_a_no_or_a_request_are_no_notes(agent, said):
    assert not any("notes" in s for s in _last(agent, *TO_PHONE, said))


def test_guard_same_as_i_said_with_the_value_copies_nothing_from_another_task(agent):
    assert _last(agent, *TO_PHONE, "same as I said, 07700 900444") == ['book_wax.phone = "07700 900444"']
