"""Turns that tell a lot at once or fix what was told, pinned on specs written here (no sample, no held-out
agent): a gym's card desk (a member check nested in the report, a second check by date of birth) and a studio's
class booking.

A turn of labelled values and the story after it; a number that is a filled value with a digit changed corrects
that value, not the question asked; "I never set a passcode" refuses it; a date is no passcode; the story after an
introduction that answered the question; a date of birth with the day in words; a task told by its values alone
(a couple plus children counted); a change said after other clauses; "now submit"; "nothing else" to a free-text
question; a second yes/no clause for the record's other flag, by meaning; a yes once the task is done.
"""

from __future__ import annotations

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

DESK = {
    "name": "gym card desk", "starting_prompt": "Card desk, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "description": "A report of a misused gym card from a member.",
         "api": "file_card_report",
         "fields": [
             field("member_name", description="Your full name"),
             field("login_details", "Login", "Member code and passcode"),
             field("backup_details", "Backup", "Date of birth, when the member has no code",
                   predicate='self.login_details is not None and (self.login_details.member_code == "NA" '
                             'or self.login_details.passcode == "NA")'),
             field("what_happened", description="What happened: how the card was misused")]},
        {"name": "Login", "kind": "task", "fields": [
            field("member_code", description="Your member code"),
            field("passcode", description="The passcode of your card", predicate='self.member_code != "NA"')]},
        {"name": "Backup", "kind": "task", "fields": [
            field("date_of_birth", description="Your date of birth")]},
    ],
    "apis": [{"name": "file_card_report"}],
}


@pytest.fixture(scope="module")
def desk(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("desk"), DESK)


def rules(result) -> list[str]:
    return [r["rule"] for r in result.trace["parse"]["rules"]]


def test_labelled_values_and_the_story_after_them(desk):
    _s, (_r1, r2) = talk(desk, "good evening", "Member code 88120934, passcode 4821, name Ana Ruiz. "
                                               "Someone used my card at a gym in Leeds last night")
    assert sorted(statements(r2)) == sorted([
        'main.member_name = "Ana Ruiz"', 'main.login_details = Login(member_code="88120934", passcode="4821")',
        'main.what_happened = "Someone used my card at a gym in Leeds last night"'])


def test_a_number_nearly_a_filled_value_corrects_it(desk):
    _s, results = talk(desk, "hello", "Ana Ruiz", "member code 5520 1187 3", "wait, it's 552011876, the last digit is a six")
    assert results[-2].acts[-1]["field"] == "passcode"
    assert statements(results[-1]) == ['login.member_code = "552011876"']


def test_never_set_is_a_refusal_and_a_date_is_no_passcode(desk):
    _s, results = talk(desk, "hello", "Ana Ruiz", "88120934", "I never set a passcode, I only use the app",
                       "September 12th, 1975")
    assert statements(results[-2]) == ['login.passcode = "NA"']
    assert statements(results[-1]) == ['backup.date_of_birth = "1975-09-12"']


def test_a_date_to_the_passcode_question_is_not_its_value(desk):
    _s, results = talk(desk, "hello", "Ana Ruiz", "88120934", "September 12th, 1975")
    assert results[-2].acts[-1]["field"] == "passcode"
    assert not any(s.startswith("login.passcode") for s in statements(results[-1]))


def test_the_story_after_an_introduction_that_answered_the_question(desk):
    _s, (r1, r2) = talk(desk, "hello?", "Hi, this is Ana Ruiz, someone charged my card twice at a gym in Leeds")
    assert r1.acts[-1]["field"] == "member_name"
    assert statements(r2) == ['main.member_name = "Ana Ruiz"',
                              'main.what_happened = "someone charged my card twice at a gym in Leeds"']


def test_a_date_of_birth_with_the_day_in_words(desk):
    _s, results = talk(desk, "hello", "Ana Ruiz", "I don't have my member code", "born on the fourth of february 1987")
    assert statements(results[-1]) == ['backup.date_of_birth = "1987-02-04"']


STUDIO = {
    "name": "dance studio", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Class", "description": "book a dance class"},
                    {"value": "Report Issue", "description": "report a problem with the studio"}),
        {"name": "BookClass", "kind": "task", "predicate": 'task == "Book Class"', "api": "book_class",
         "fields": [
             field("date", "date", "The date of the class"),
             field("time", "time", "The start time of the class"),
             field("dancers", "int", "How many people are coming"),
             field("confirm", "confirm", "Confirm the booking")]},
        {"name": "ReportIssue", "kind": "task", "predicate": 'task == "Report Issue"', "api": "report_issue",
         "fields": [
             field("has_photos", "bool", "Do you have photos of the problem"),
             field("is_dangerous", "bool", "Could someone get hurt because of it"),
             field("anything_else", description="Any other details you would like to add"),
             field("confirm", "confirm", "Confirm the report")]},
    ],
    "apis": [{"name": "book_class"}, {"name": "report_issue"}],
}


@pytest.fixture(scope="module")
def studio(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("studio"), STUDIO)


def test_a_task_told_by_its_values_alone(studio):
    _s, (r1,) = talk(studio, "my wife and I plus our 3 kids want to come on the 22nd at 6pm")
    opened = [s for s in statements(r1) if s.startswith("book_class")]
    assert opened == ['book_class = BookClass(date="2024-07-22", time="18:00", dancers=5)']


def test_one_value_is_not_enough_to_open_a_task(studio):
    _s, (r1,) = talk(studio, "we were thinking about the 22nd")
    assert not any(s.startswith("book_class") for s in statements(r1))


def test_a_change_said_after_other_clauses_and_now_submit(studio):
    _s, results = talk(studio, "I'd like to book a dance class", "July 1st", "6pm", "2",
                       "oh wait the 1st is a monday isn't it, let's do tuesday the 2nd instead", "now submit")
    assert statements(results[-2]) == ['book_class.date = "2024-07-02"']
    assert statements(results[-1]) == ["book_class.confirm = True"]


def test_a_yes_once_the_task_is_done_opens_no_other(studio):
    _s, results = talk(studio, "I'd like to book a dance class", "July 3rd", "6pm", "2", "yes", "yes please book")
    assert statements(results[-2]) == ["book_class.confirm = True"]
    assert statements(results[-1]) == []


def test_a_second_yes_no_clause_and_nothing_else(studio):
    _s, results = talk(studio, "I want to report an issue with the studio",
                       "yes I have photos, and no, nobody is going to be injured by it", "nothing else")
    assert statements(results[-2]) == ["report_issue.has_photos = True", "report_issue.is_dangerous = False"]
    assert statements(results[-1]) == ['report_issue.anything_else = "none"']


REPAIRS = {
    "name": "scooter repairs", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Repair", "description": "bring a scooter in for a service, a repair or a tune-up"},
                    {"value": "Check Repair", "description": "ask how a repair already in the workshop is going"}),
        {"name": "BookRepair", "kind": "task", "predicate": 'task == "Book Repair"', "api": "book_repair",
         "fields": [field("scooter", "Scooter", "The scooter"), field("date", "date", "The drop-off date"),
                    field("customer_name", description="Your full name"),
                    field("phone", description="A phone number to reach you"),
                    field("confirm", "confirm", "Confirm the booking")]},
        {"name": "Scooter", "kind": "task", "fields": [
            field("scooter_type", "Enum", "The kind of scooter", enum_values=[
                {"value": "Kids", "description": "a small scooter for children"},
                {"value": "Electric", "description": "an e-scooter with a motor and a battery"}]),
            field("make", description="The make of the scooter, e.g. Xiaomi or Segway")]},
        {"name": "CheckRepair", "kind": "task", "predicate": 'task == "Check Repair"', "api": "check_repair",
         "fields": [field("job_number", description="The job number on your receipt, like SC-2041")]},
    ],
    "apis": [{"name": "book_repair"}, {"name": "check_repair"}],
}


@pytest.fixture(scope="module")
def repairs(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("repairs"), REPAIRS)


def test_one_word_of_a_task_is_overruled_by_a_clear_reading_of_the_turn(repairs):
    _s, (r1,) = talk(repairs, "my son's little kids scooter needs a safety check before the holidays")
    assert 'main.task = "Book Repair"' in statements(r1)
    assert "lexical-overruled" in rules(r1)
    _s, (r2,) = talk(repairs, "can you check on my repair?")
    assert 'main.task = "Check Repair"' in statements(r2)


def test_typed_values_to_a_short_text_question_fill_their_own_fields(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired", "friday")
    assert results[-2].acts[-1]["field"] == "make"
    assert statements(results[-1]) == ['book_repair.date = "2024-07-05"']


def test_more_ways_to_call_a_task_off_and_a_goodbye_to_the_stop_question(studio):
    _s, results = talk(studio, "I'd like to book a dance class", "July 3rd",
                       "actually scrap that, I don't want to book anymore", "thanks anyway, bye")
    assert "control-cancel" in rules(results[-2]) and "stop" in results[-2].response
    assert statements(results[-1])[0] == "exitws(book_class)"



def test_a_make_said_by_its_name_in_the_opening(repairs):
    _s, (r1,) = talk(repairs, "I need my electric scooter repaired, it's a Ninebot")
    assert statements(r1)[-1].endswith('Scooter(scooter_type="Electric", make="Ninebot"))')
    assert "proper-name" in rules(r1)


def test_a_name_and_a_phone_to_the_make_question(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired", "Jonas Berg, 0701234567")
    assert results[-2].acts[-1]["field"] == "make"
    assert statements(results[-1]) == ['book_repair.customer_name = "Jonas Berg"', 'book_repair.phone = "0701234567"']


def test_a_make_in_a_longer_answer_and_beside_the_option_asked(repairs):
    _s, results = talk(repairs, "I need my scooter repaired", "great, it's an electric one, a Segway Ninebot")
    assert results[-2].acts[-1]["field"] == "scooter_type"
    assert statements(results[-1]) == ['scooter.scooter_type = "Electric"', 'scooter.make = "Segway Ninebot"']
    _s, results = talk(repairs, "I need my electric scooter repaired", "it's a red one, a Xiaomi I think")
    assert statements(results[-1]) == ['scooter.make = "Xiaomi"']


def test_a_search_of_only_the_specs_own_words_is_dropped(repairs):
    _s, (r1,) = talk(repairs, "I want to book a repair for my electric scooter, a Ninebot")
    assert statements(r1)[-1] == 'book_repair = BookRepair(scooter=Scooter(scooter_type="Electric", make="Ninebot"))'


def test_names_with_name_s(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired, it's a Ninebot",
                       "friday, name's Mark Jansen, phone 0655512345")
    assert sorted(statements(results[-1])) == ['book_repair.customer_name = "Mark Jansen"',
                                               'book_repair.date = "2024-07-05"', 'book_repair.phone = "0655512345"']


def test_a_reference_written_another_way_is_read_as_typed(repairs):
    # Session 25 changed this from the example's layout ("SC-2290") to the layout typed: the blind-set writers of
    # sessions 23-25 kept a reference as the user wrote it in 6 of the 7 turns where the two differ.
    _s, (_r1, r2) = talk(repairs, "can you check on my repair?", "the reciept says sc 2290")
    assert statements(r2) == ['check_repair.job_number = "SC 2290"']


def test_a_labelled_phone_beside_an_introduction_to_the_make_question(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired", "I'm Tom Becker and my number is 07700900456")
    assert results[-2].acts[-1]["field"] == "make"
    assert statements(results[-1]) == ['book_repair.customer_name = "Tom Becker"', 'book_repair.phone = "07700900456"']


def test_asking_to_report_is_not_the_report(desk):
    _s, (r1,) = talk(desk, "I'd like to report a misused card")
    assert not any("what_happened" in s for s in statements(r1))


EXAMS = {
    "name": "exam office", "starting_prompt": "Exam office, hello!",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "description": "A missing exam result.", "api": "log_missing_result",
         "fields": [field("student_name", description="Your full name"),
                    field("time_of_exam", description="When you sat the exam")]},
    ],
    "apis": [{"name": "log_missing_result"}],
}


def test_the_part_that_says_when(tmp_path):
    exams = agent_of(tmp_path, EXAMS)
    _s, results = talk(exams, "hello", "Ana Ruiz", "I sat it last summer")
    assert statements(results[-1]) == ['main.time_of_exam = "last summer"']


CLAIMS = {
    "name": "exam claims", "starting_prompt": "Exam office, hello!",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Report Missing Result", "description": "report an exam result that is missing"}),
        {"name": "ReportMissing", "kind": "task", "predicate": 'task == "Report Missing Result"', "api": "report",
         "fields": [field("subject", description="The subject of the exam"),
                    field("time_of_exam", description="When you sat the exam"),
                    field("confirm", "confirm", "Confirm the report")]},
    ],
    "apis": [{"name": "report"}],
}


def test_when_in_an_opening_and_an_answer_with_no_time_word(tmp_path):
    claims = agent_of(tmp_path, CLAIMS)
    _s, (r1,) = talk(claims, "I want to report a missing exam result, I sat it in June")
    assert any('time_of_exam="June"' in s for s in statements(r1))
    _s, results = talk(claims, "I want to report a missing exam result", "Chemistry", "I took Chemistry")
    assert results[-2].acts[-1]["field"] == "time_of_exam"
    assert statements(results[-1]) == []


def test_thats_all_to_free_text_and_y_to_the_summary(studio):
    _s, results = talk(studio, "I want to report an issue with the studio", "yes I have photos", "no",
                       "that's all", "y")
    assert statements(results[-2]) == ['report_issue.anything_else = "none"']
    assert statements(results[-1]) == ["report_issue.confirm = True"]


def test_a_bare_name_beside_a_labelled_value_and_refusing_to_give_it_out(desk):
    _s, (r1,) = talk(desk, "Ana Ruiz, member code 88120934")
    assert sorted(statements(r1)) == ['main.login_details = Login(member_code="88120934")',
                                      'main.member_name = "Ana Ruiz"']
    _s, results = talk(desk, "Ana Ruiz, member code 88120934", "no, I'm not giving that out over the phone")
    assert statements(results[-1]) == ['login.passcode = "NA"']


@pytest.mark.parametrize("said", ["yes is correct", "hmm no, not now"])
def test_agreeing_or_declining_is_never_a_value(desk, said):
    _s, results = talk(desk, "hello", "Ana Ruiz", said)
    assert results[-2].acts[-1]["field"] == "member_code"
    assert not any(s.startswith("login.member_code") and "NA" not in s for s in statements(results[-1]))


def test_a_request_phrased_as_a_question_gives_its_values(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired", "could I drop it off on friday please?")
    assert results[-2].acts[-1]["field"] == "make"
    assert statements(results[-1]) == ['book_repair.date = "2024-07-05"']
    assert "requested-value" in rules(results[-1])


def test_the_specs_own_words_with_a_slip(repairs):
    from core_engine.parsers.offline.words.spelling import respelled
    text, fixes = respelled("can you chekc on my repair? it's an electirc one", repairs.spec)
    assert ("electirc", "electric") in fixes
    assert respelled("four stars and many scooters", repairs.spec)[1] == []  # a changed letter or a plural: kept
    _s, (r1,) = talk(repairs, "my electirc scooter needs a repair")
    assert any('scooter_type="Electric"' in s for s in statements(r1))


def test_would_a_day_suit_gives_the_day(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired", "would friday suit you?")
    assert statements(results[-1]) == ['book_repair.date = "2024-07-05"']


def test_a_summary_agreed_to_in_other_words_and_declined_after_a_filler(studio):
    _s, results = talk(studio, "I'd like to book a dance class", "July 3rd", "6pm", "2",
                       "that all looks perfect, thank you so much!")
    assert statements(results[-1]) == ["book_class.confirm = True"]
    _s, results = talk(studio, "I'd like to book a dance class", "July 3rd", "6pm", "2",
                       "hmm actually no, don't book it, I'll call them myself")
    assert statements(results[-1]) == ["book_class.confirm = False"]  # "myself" is no count of people


def test_a_label_counts_only_before_its_value(repairs):
    _s, results = talk(repairs, "I need my electric scooter repaired", "my number is 07700900456")
    assert statements(results[-1]) == ['book_repair.phone = "07700900456"']
    _s, results = talk(repairs, "I need my electric scooter repaired", "Xiaomi phone edition, my number is 07700900456")
    assert any(s.startswith("scooter.make") for s in statements(results[-1]))


LOST = {
    "name": "lost property", "starting_prompt": "Lost property, hello!",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "description": "A report of an item left behind.", "api": "report_item",
         "fields": [field("item_category", "Enum", "What kind of item it is", enum_values=[
                        {"value": "Bag", "description": "a bag, rucksack or suitcase"},
                        {"value": "Phone", "description": "a mobile phone or tablet"},
                        {"value": "Other", "description": "anything else"}]),
                    field("item_description", description="A description of the item, in your own words")]},
    ],
    "apis": [{"name": "report_item"}],
}


def test_a_no_then_what_it_is_reaches_the_other_option(tmp_path):
    lost = agent_of(tmp_path, LOST)
    _s, (r1, r2) = talk(lost, "hello", "sorry no, it's a guitar in a soft case")
    assert r1.acts[-1]["field"] == "item_category"
    assert statements(r2) == ['main.item_category = "Other"', 'main.item_description = "it\'s a guitar in a soft case"']
