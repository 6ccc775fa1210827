"""Session 15, helper P: refusals said in other words, a doubt about a choice among the KB's rows, and conversation
control said as the answer to a free-text question.

Pinned on a music school's spec written here (not a sample, not a development agent): each test names the mechanism
it holds and fails without it.
"""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.intents import is_question, refusal

from tests.fakes.specs import agent_with_kb, field, statements, talk, task_choice

TEACHERS = [
    {"id": "t1", "name": "Aoife Byrne", "instrument": "Cello", "studio": "North Wing",
     "about": "Cello and double bass for beginners and grade students."},
    {"id": "t2", "name": "Marek Nowak", "instrument": "Piano", "studio": "Hall B",
     "about": "Classical and jazz piano, exam preparation."},
    {"id": "t3", "name": "Sunita Rao", "instrument": "Violin", "studio": "North Wing",
     "about": "Violin and viola, chamber groups on Fridays."},
]
SPEC = {
    "name": "music_school", "starting_prompt": "Hello, this is the music school desk.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Lesson", "description": "book a lesson with one of our teachers"},
                    {"value": "Cancel Lesson", "description": "cancel a lesson you have booked"},
                    {"value": "Resend Invoice", "description": "send a copy of an invoice again"}),
        {"name": "BookLesson", "kind": "task", "predicate": 'task == "Book Lesson"', "api": "book_lesson", "fields": [
            field("teacher", "Teacher", "The teacher you would like"),
            field("pupil_name", description="The pupil's full name"),
            field("member_code", description="Your school member code, like MS-4410"),
            field("date_of_birth", description="The pupil's date of birth"),
            field("text_reminder", "bool", "Whether you want a text reminder the day before"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "CancelLesson", "kind": "task", "predicate": 'task == "Cancel Lesson"', "api": "cancel_lesson",
         "fields": [field("lesson_reference", description="The lesson reference, like LS-20931"),
                    field("reason", description="Why you are cancelling", free_text=True)]},
        {"name": "ResendInvoice", "kind": "task", "predicate": 'task == "Resend Invoice"', "api": "resend_invoice",
         "fields": [field("invoice_number", description="The invoice number, like INV-5521")]},
        {"name": "teachers", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the teacher"),
            field("instrument", description="The instrument taught"), field("studio", description="Where they teach"),
            field("about", description="About the teacher", free_text=True)]},
        {"name": "Teacher", "kind": "type", "fields": [
            field("id"), field("name", description="Name of the teacher"), field("instrument"), field("studio")]},
    ],
    "apis": [{"name": "book_lesson"}, {"name": "cancel_lesson"}, {"name": "resend_invoice"}],
}
BOOK = ("I'd like to book a lesson with Marek Nowak", "Ellen Doyle")


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "music_school", SPEC, {"teachers": (TEACHERS, ["about"])})


@pytest.mark.parametrize("said", ["I never remember it, sorry", "they never gave me one",
                                  "the office didn't send us one"])
def test_a_thing_never_had_or_never_remembered_is_refused(agent, said):
    """ "never remember", "they never gave me one": the user cannot give the code asked ("NA")."""
    _s, [*_, r] = talk(agent, *BOOK, said)
    assert statements(r) == ['book_lesson.member_code = "NA"']


def test_only_another_thing_not_the_field_named_is_a_refusal(agent):
    """ "only the card, not the member code": the negated words are the asked field's whole name."""
    _s, [*_, r] = talk(agent, *BOOK, "I've only got the membership card, not the member code")
    assert statements(r) == ['book_lesson.member_code = "NA"']
    _s, [*_, r] = talk(agent, *BOOK, "MS-4410, not the member card")
    assert statements(r) == ['book_lesson.member_code = "MS-4410"']


def test_a_habit_of_not_giving_it_out_refuses_the_field_by_a_compound_of_its_word(agent):
    """ "I don't give my birthday out": an explicit refusal; "birthday" names the date of birth (a compound)."""
    assert refusal("I don't give my birthday out online sorry") == ("don't give my birthday out", True)
    _s, [*_, r] = talk(agent, *BOOK, "no I don't have one", "I don't give my birthday out online sorry")
    assert statements(r) == ['book_lesson.date_of_birth = "NA"']


def test_a_doubt_about_a_row_to_choose_is_no_refusal_and_its_question_is_asked(agent):
    """ "not sure who yet, who teaches cello?" to the teacher asked: not chosen yet; the question goes to the KB and
    fills nothing; without a question nothing is stored."""
    _s, [*_, r] = talk(agent, "I'd like to book a lesson", "not sure who yet, who teaches cello?")
    got = statements(r)
    assert len(got) == 1 and got[0].startswith("answer(") and "not sure" not in got[0]
    _s, [*_, r] = talk(agent, "I'd like to book a lesson", "hmm not sure which teacher yet")
    assert statements(r) == []


def test_dont_bother_to_a_free_text_question_starts_the_cancel(agent):
    s, [*_, r] = talk(agent, "I need to cancel a lesson", "LS-20931", "actually, don't bother, I'll keep it")
    assert statements(r) == [] and "stop" in r.response.lower()
    assert statements(s.turn("yes")) == ["exitws(cancel_lesson)", "main.task = None"]
    _s, [*_, r] = talk(agent, *BOOK, "MS-4410", "3 March 2015", "nah don't bother")  # a yes/no asked: a no
    assert statements(r) == ["book_lesson.text_reminder = False"]


def test_a_what_cleft_is_a_statement_not_a_question(agent):
    """ "what I really need is the invoice again": what the user needs, said as a statement."""
    assert is_question("what I really need is the invoice again, the dog chewed it") is None
    assert is_question("what I need is what time it opens?")
    _s, [*_, r] = talk(agent, "what I really need is the invoice again, the dog chewed it")
    assert statements(r)[:1] == ['main.task = "Resend Invoice"']
