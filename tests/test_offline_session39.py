"""Turn shapes from session 39's reading of the development agents' misreadings, pinned on a dance school's spec
written here (not a sample, not a development agent): a country said for a country field, an address written with
its flat, firm, town and postcode, "just the one" as the first clause of an answer or before the counted thing, a
word of one task's name deciding between two close readings, a need said with a question mark, and a place asked
for ("sign me up", "could we come") on a class just shown. One test per mechanism; each fails without it, except
the guards, which keep a rule from reaching too far.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_of, agent_with_kb, field, statements, talk, task_choice

SPEC = {
    "name": "wharf_dance", "starting_prompt": "Hello, Wharf Street Dance School.",
    "description": "A dance school: classes and courses, exam certificates sent out, and costume orders.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Book Class", "description": "book places on a dance class or course"},
                    {"value": "Certificate Request", "description": "have an exam certificate reissued and sent",
                     "examples": ["I need a copy of my grade certificate"]},
                    {"value": "Costume Order", "description": "order a costume for a show"}),
        {"name": "BookClass", "kind": "task", "predicate": 'main.task == "Book Class"', "fields": [
            field("dance_class", "DanceClass", "The class from our timetable"),
            field("date", "date", "The date of the first session"),
            field("places", "int", "How many places"),
            field("contact_name", "str", "The name the booking is under"),
            field("confirm", "confirm", "Book the places")]},
        {"name": "CertificateRequest", "kind": "task", "predicate": 'main.task == "Certificate Request"', "fields": [
            field("exam", "Enum", "The exam the certificate is for", enum_values=[
                {"value": "Ballet Grade", "description": "a graded ballet exam"},
                {"value": "Tap Medal", "description": "a tap medal test"}]),
            field("destination_country", "str", "The country the certificate will be used in"),
            field("urgent", "bool", "Whether you need it within a week"),
            field("copies", "int", "How many copies"),
            field("service", "Enum", "How fast it is sent", enum_values=[
                {"value": "Standard", "description": "sent within ten working days"},
                {"value": "Same Day", "description": "sent the same day"}]),
            field("postal_address", "str", "The address to post the certificate to"),
            field("confirm", "confirm", "Send the request")]},
        {"name": "CostumeOrder", "kind": "task", "predicate": 'main.task == "Costume Order"', "fields": [
            field("show", "Enum", "The show the costume is for", enum_values=[
                {"value": "Ballet Gala", "description": "the summer ballet gala"},
                {"value": "Tap Showcase", "description": "the winter tap showcase"}]),
            field("size", "str", "The costume size"),
            field("confirm", "confirm", "Place the order")]},
        {"name": "classes", "kind": "kb", "fields": [
            field("id"), field("name"), field("style"), field("day"), field("price", "float", "Price in pounds"),
            field("description", "str", "Who the class is for")]},
        {"name": "DanceClass", "kind": "type",
         "actions": 'if main.task != "Book Class":\n    propose(BookClass, {"dance_class": self})', "fields": [
            field("id"), field("name"), field("style"), field("day"), field("price", "float", "Price in pounds"),
            field("description", "str", "Who the class is for")]},
    ],
}
CLASSES = [
    {"id": "c1", "name": "Adult Beginners Salsa", "style": "Salsa", "day": "Tuesday", "price": 60.0,
     "description": "a six-week course for complete beginners"},
    {"id": "c2", "name": "Junior Tap", "style": "Tap", "day": "Saturday", "price": 45.0,
     "description": "tap for children aged 7 to 11"},
    {"id": "c3", "name": "Wheelchair Dance Taster", "style": "Inclusive", "day": "Thursday", "price": 10.0,
     "description": "a one-off taster for wheelchair users and their families"},
]


SEALS = {
    "name": "seal_desk", "starting_prompt": "Hello.", "description": "A legal documents desk: signings witnessed, "
    "documents attested for use abroad, certified copies.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Book Signing", "description": "an appointment to sign or swear a document in front of us",
                     "examples": ["I need something witnessed"]},
                    {"value": "Attestation Request", "description": "get documents attested so they are accepted abroad",
                     "examples": ["I need an attestation", "my certificate has to be attested for use overseas"]},
                    {"value": "Certified Copies", "description": "order certified true copies of a document",
                     "examples": ["I need a certified copy of my passport"]}),
        {"name": "BookSigning", "kind": "task", "predicate": 'main.task == "Book Signing"', "fields": [
            field("document_type", "Enum", "What is signed", enum_values=[
                {"value": "Power of Attorney", "description": "a power of attorney, personal or for a company"},
                {"value": "Company Documents", "description": "board resolutions, certificates of incorporation and "
                                                              "other company papers"},
                {"value": "Other", "description": "any other document"}]),
            field("confirm", "confirm", "Book it")]},
        {"name": "RequestAttestation", "kind": "task", "predicate": 'main.task == "Attestation Request"', "fields": [
            field("document_kind", "Enum", "The kind of document", enum_values=[
                {"value": "Birth Certificate"}, {"value": "Marriage Certificate"},
                {"value": "Degree Certificate", "description": "a university degree or diploma"},
                {"value": "Company Document", "description": "a certificate of incorporation, company extract or "
                                                             "other company paper"},
                {"value": "Other", "description": "any other document"}]),
            field("destination_country", "str", "The country where the document will be used"),
            field("confirm", "confirm", "Send the request")]},
        {"name": "CertifiedCopies", "kind": "task", "predicate": 'main.task == "Certified Copies"', "fields": [
            field("original_document", "Enum", "The document copied", enum_values=[
                {"value": "Passport"}, {"value": "Degree Certificate"}, {"value": "Birth Certificate"},
                {"value": "Other", "description": "any other document"}]),
            field("confirm", "confirm", "Order the copies")]},
    ]}
"""A second spec: three tasks whose options share words ("certificate", "company"), so a turn about a company's
certificate is close to two of them."""


@pytest.fixture(scope="module")
def seals(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("seals"), SEALS)


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "dance", SPEC, {"classes": (CLASSES, ["description"])})


def _last(agent, *turns):
    _s, results = talk(agent, *turns)
    return statements(results[-1])


CERT = "I'd like a certificate request please"


# -- values ------------------------------------------------------------------------------------------------------


def test_a_country_said_beside_a_task_fills_the_country_field(agent):
    got = _last(agent, "I need a ballet grade certificate, it's for a teaching job in the UAE")
    assert any('destination_country="UAE"' in s for s in got), got


@pytest.mark.parametrize("said, found", [("it's for the UAE", ["UAE"]), ("a school in spain", ["Spain"]),
                                         ("Jordan Smith is my teacher", []), ("turkey sandwiches", []),
                                         ("from the States", ["USA"]), ("ask Michael Jordan", [])])
def test_guard_country_names_are_names_of_countries(said, found):
    from core_engine.parsers.offline.words.countries import find_countries
    assert [s.value for s in find_countries(said)] == found


@pytest.mark.parametrize("said, to, made, home", [
    ("I'm in Germany now but it's going to Spain", ["Spain"], ["Germany"], []),
    ("she moved from India to Canada", ["Canada"], ["India"], []),
    ("my friend Georgia in Bristol", [], [], []), ("a Canada Goose coat to the US embassy", [], [], []),
    ("we live in the UK", [], ["UK"], ["UK"]), ("to France or to Italy", [], [], []),
    ("they were made in Portugal, going to the USA", ["USA"], ["Portugal"], []),
    ("I'm from Germany", [], ["Germany"], ["Germany"]), ("my brother flies in from Canada", [], ["Canada"], [])])
def test_guard_a_country_goes_to_a_field_only_in_its_direction(said, to, made, home):
    from core_engine.parsers.offline.words.countries import countries_for
    from core_engine.spec.model import Field
    going = Field(name="destination_country", type="str", description="The country it will be used in")
    origin = Field(name="origin_country", type="str", description="Where the goods were made")
    living = Field(name="home_country", type="str", description="The country you live in")
    assert [s.value for s in countries_for(said, going)] == to
    assert [s.value for s in countries_for(said, origin)] == made
    assert [s.value for s in countries_for(said, living)] == home
    cuisine = Field(name="cuisine_country", type="str", description="The country whose food you cook")
    assert countries_for("a trip to Spain", cuisine) == []


def test_an_address_keeps_its_flat_town_and_postcode(agent):
    got = _last(agent, CERT, "ballet", "Ireland", "no", "2", "standard", "post it to me at Flat 3, 27 Cavendish Rd, Bristol BS6 7RL")
    assert got == ['certificate_request.postal_address = "Flat 3, 27 Cavendish Rd, Bristol BS6 7RL"'], got


def test_guard_a_name_before_a_street_is_no_part_of_the_address():
    from core_engine.parsers.offline.parts.addresses import whole_addresses
    assert [s.value for s in whole_addresses("Tom Baker, 14 Mill Lane, Leeds LS6 3BN", True)] == \
        ["14 Mill Lane, Leeds LS6 3BN"]
    assert [s.value for s in whole_addresses("at Amy Hall, 3 Church Lane, Ely CB7 4DL", True)] == \
        ["3 Church Lane, Ely CB7 4DL"]
    assert [s.value for s in whole_addresses("3kg, collect from 14 Elm Road, Leeds, Friday", True)] == ["14 Elm Road"]
    assert [s.value for s in whole_addresses("Flat 2, 19 Station Road, Ashbury", True)] == \
        ["Flat 2, 19 Station Road, Ashbury"]  # the turn is the address: its town too
    assert [s.value for s in whole_addresses("to our office: Harbour Dance Ltd, Unit 5 Dock Street, Hull HU1 4QT",
                                             False)] == ["Harbour Dance Ltd, Unit 5 Dock Street, Hull"]


def test_just_the_one_as_the_first_clause_answers_the_count(agent):
    got = _last(agent, CERT, "ballet", "Ireland", "no", "just the one, same day if you can")
    assert got == ["certificate_request.copies = 1", 'certificate_request.service = "Same Day"'], got


def test_just_the_one_before_the_counted_thing_with_a_size_word(agent):
    got = _last(agent, CERT, "ballet", "Ireland", "yes it's urgent, just the one big copy")
    assert "certificate_request.copies = 1" in got, got


def test_guard_just_the_one_then_more_people_is_no_count_of_one(agent):
    got = _last(agent, "can I book the junior tap class", "the 6th", "just the one, for me and my son")
    assert "book_class.places = 1" not in got, got


def test_guard_just_the_one_then_a_number_for_the_count_takes_the_number(agent):
    got = _last(agent, CERT, "ballet", "Ireland", "no", "just the one. oh wait my sister wants one too so 2")
    assert got == ["certificate_request.copies = 2"], got


# -- tasks -------------------------------------------------------------------------------------------------------


def test_a_need_said_with_a_question_mark_is_a_request():
    from core_engine.parsers.offline.intents import task_request
    assert task_request("hello, I think I need a copy of my certificate?")
    assert not task_request("I need to know if you're open on Sunday?")
    assert not task_request("do I need a certificate?")
    assert not task_request("So I need a customs form for Canada?") and not task_request("I need an apron?")


def test_a_word_of_one_tasks_name_decides_between_close_readings(seals):
    _s, results = talk(seals, "Our certificate of incorporation needs an attestation for a bank in Austria.")
    rules = [r["rule"] for r in results[-1].trace["parse"]["rules"]]
    assert statements(results[-1])[0] == 'main.task = "Attestation Request"' and "task-name-word" in rules


def test_sign_me_up_after_one_class_shown_books_it(agent):
    got = _last(agent, "do you have anything for wheelchair users?", "sounds ideal. sign me up for the 22nd")
    assert got == ['main.task = "Book Class"', 'book_class = BookClass(dance_class=answer.result[0], '
                                                'date="2024-07-22")'], got


def test_could_we_come_after_naming_the_class_shown_books_it(agent):
    got = _last(agent, "do you have anything for wheelchair users?",
                "The Wheelchair Dance one sounds perfect. Could we come Thursday 25th?")
    assert got == ['main.task = "Book Class"', 'book_class = BookClass(dance_class=answer.result[0], '
                                                'date="2024-07-25")'], got


def test_guard_a_question_about_the_class_shown_stays_a_question(agent):
    got = _last(agent, "do you have anything for wheelchair users?",
                "The wheelchair taster sounds perfect. What time does it start?")
    assert not any("BookClass" in s for s in got), got


# -- who and which day, said as the task opens -------------------------------------------------------------------

ABSENCES = {
    "name": "absence_line", "starting_prompt": "Hello, school office.", "description": "A school's absence line.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Report Absence", "description": "tell the school a pupil will be away",
                     "examples": ["my son is poorly and won't be in", "she won't be in tomorrow"]},
                    {"value": "Book Meeting", "description": "book a meeting with a teacher"}),
        {"name": "ReportAbsence", "kind": "task", "predicate": 'main.task == "Report Absence"', "fields": [
            field("pupil_name", "str", "Your child's full name"),
            field("first_day", "date", "The first day your child will be away"),
            field("back_date", "date", "When you expect your child back, if you know", required=False),
            field("confirm", "confirm", "Send the report")]},
        {"name": "BookMeeting", "kind": "task", "predicate": 'main.task == "Book Meeting"', "fields": [
            field("attendee_name", "str", "The full name of the adult coming to the meeting"),
            field("parent_name", "str", "Your full name, the name the booking is under"),
            field("meeting_date", "date", "The day of the meeting"),
            field("confirm", "confirm", "Book it")]},
    ]}


@pytest.fixture(scope="module")
def absences(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("absences"), ABSENCES)


def test_one_day_said_goes_to_the_required_date_not_the_optional_one(absences):
    got = _last(absences, "my daughter won't be in on friday, she has a cold")
    assert any('first_day="2024-07-05"' in s for s in got) and not any("back_date" in s for s in got), got


def test_guard_a_day_said_with_the_optional_fields_words_goes_there(absences):
    got = _last(absences, "I need to report an absence", "Maya Collins", "monday",
                "she should be back on thursday")
    assert got == ['report_absence.back_date = "2024-07-04"'], got


def test_a_name_as_the_subject_of_the_first_clause_is_the_pupils(absences):
    got = _last(absences, "Hi, Maya Collins won't be in today, she was sick in the night")
    assert any('pupil_name="Maya Collins"' in s for s in got), got


def test_guard_the_speakers_own_name_field_takes_no_subject_name(absences):
    got = _last(absences, "Maya Collins is off sick, can I book a meeting with her teacher")
    assert not any("Maya Collins" in s for s in got if "parent_name" in s), got


def test_a_name_given_with_under_my_name_fills_the_bookers_name_too(absences):
    got = _last(absences, "I'd like to book a meeting", "that'll be me, Jo Marsh. and it's under my name")
    assert got == ['book_meeting.attendee_name = "Jo Marsh"', 'book_meeting.parent_name = "Jo Marsh"'], got


def test_guard_a_name_given_without_under_me_fills_one_field(absences):
    got = _last(absences, "I'd like to book a meeting", "it'll be my husband, Sam Marsh")
    assert got == ['book_meeting.attendee_name = "Sam Marsh"'], got
