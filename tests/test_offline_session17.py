"""Session 17: how the first turn chooses the task (a wrong task takes the whole conversation with it).

An option that several tasks share ("House") ranked tasks, and a turn about a survey of the house stopped at
"House or House?"; a KB word that is also a word of an option ("a price on a stove": the KB's skill and the
quote's "Stove Installation") was dropped before ranking, so the quote was undecided and a row request opened
the booking instead; "my chimney's blocked by a nest" answering "what would you like to do?" chose the task but
not the option inside it that the words mean; "hiya" was not understood; a greeting was searched for in the
KB. Pinned on a chimney sweep's spec written here (not a sample, not a development agent); each test fails
without its mechanism.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk, task_choice

PROPERTY = [{"value": "House"}, {"value": "Flat"}, {"value": "Cottage"}]
SWEEPS = [
    {"id": "s1", "name": "Amos Pike", "area": "Northfield", "skills": ["Stove", "Lining"],
     "description": "Sweeps open fires and wood burners, fits stove pipes."},
    {"id": "s2", "name": "Bea Carrow", "area": "Southmoor", "skills": ["Cowl", "Nest Removal"],
     "description": "Clears birds' nests and fits cowls and bird guards."},
    {"id": "s3", "name": "Cal Denton", "area": "Northfield", "skills": ["Stove", "Cowl"],
     "description": "Works on tall Victorian stacks and thatched cottages."},
]
SPEC = {
    "name": "chimney sweep", "starting_prompt": "Hello, Sootaway chimney sweeps.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Sweep", "description": "book a sweep with one of our sweeps"},
                    {"value": "Emergency Visit", "description": "an urgent visit for a chimney that is blocked or "
                                                                "letting smoke into the room",
                     "examples": ["smoke is pouring into my living room", "birds are nesting in my chimney"]},
                    {"value": "Safety Check", "description": "an inspection of a chimney's safety, with a written "
                                                             "report"},
                    {"value": "Get Quote", "description": "a price estimate for a job, emailed to you"}),
        {"name": "BookSweep", "kind": "task", "predicate": 'task == "Book Sweep"', "api": "book", "fields": [
            field("sweep", "Sweep", "The sweep you would like"),
            field("date", "date", "The day of the sweep"),
            field("name", description="Your full name")]},
        {"name": "EmergencyVisit", "kind": "task", "predicate": 'task == "Emergency Visit"', "api": "urgent",
         "fields": [
             field("problem", "Enum", "What is wrong", enum_values=[
                 {"value": "Nest Blockage", "description": "a bird's nest or debris blocking the flue"},
                 {"value": "Smoke In Room", "description": "smoke coming back into the room"},
                 {"value": "Chimney Fire", "description": "a fire inside the chimney"}]),
             field("property", "Enum", "The kind of property", enum_values=PROPERTY),
             field("address", description="The address of the property")]},
        {"name": "SafetyCheck", "kind": "task", "predicate": 'task == "Safety Check"', "api": "check", "fields": [
            field("reason", "Enum", "Why you want the check", enum_values=[
                {"value": "Moving In", "description": "we just bought the place or are moving in"},
                {"value": "Landlord Certificate", "description": "a landlord needs a safety certificate"},
                {"value": "After A Fire", "description": "there was a chimney fire and it must be checked"}]),
            field("property", "Enum", "The kind of property", enum_values=PROPERTY),
            field("address", description="The address of the property")]},
        {"name": "GetQuote", "kind": "task", "predicate": 'task == "Get Quote"', "api": "quote", "fields": [
            field("job", "Enum", "The job you would like a price for", enum_values=[
                {"value": "Stove Installation"}, {"value": "Chimney Lining"}, {"value": "Cowl Fitting"}]),
            field("email", description="The email address for the quote")]},
        {"name": "sweeps", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="The sweep's name"),
            field("area", description="The area the sweep covers"),
            field("skills", "List[str]", "What the sweep fits and clears"),
            field("description", description="What the sweep does", free_text=True)]},
        {"name": "Sweep", "kind": "type", "fields": [
            field("id"), field("name", description="The sweep's name"), field("area"),
            field("skills", "List[str]")]},
    ],
    "apis": [{"name": "book"}, {"name": "urgent"}, {"name": "check"}, {"name": "quote"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "sweep", SPEC, {"sweeps": (SWEEPS, ["description"])})


def test_an_option_every_task_shares_does_not_choose_between_them(agent):
    _s, [r] = talk(agent, "it's for the house")
    says = [x.get("say") or "" for x in r.trace["parse"]["rules"]]
    assert not any("House or House" in say for say in says), says  # not a question that offers one thing twice
    assert statements(r) == []


def test_the_open_tasks_own_shared_option_still_counts(agent):
    s, [_r, r] = talk(agent, "I'd like a safety check please", "we just bought the cottage")
    assert record_values(s, "safety_check").get("property") == "Cottage"


def test_a_kb_word_that_also_names_an_option_settles_a_close_reading(agent):
    s, [r] = talk(agent, "looking for a price on a stove for my cottage")
    assert 'main.task = "Get Quote"' in statements(r)
    assert record_values(s, "get_quote").get("job") == "Stove Installation"
    assert any(x["rule"] == "task-option-named" for x in r.trace["parse"]["rules"])


def test_an_answer_to_the_choice_of_task_fills_the_option_it_means_inside_the_task(agent):
    s, [_hi, r] = talk(agent, "hello", "there are birds stuck up there")
    assert 'main.task = "Emergency Visit"' in statements(r)
    assert record_values(s, "emergency_visit").get("problem") == "Nest Blockage"


def test_a_greeting_as_people_type_it_is_small_talk(agent):
    for typed in ("hiya", "heyy", "Hullo!", "howdy"):
        _s, [r] = talk(agent, typed)
        rules = [x["rule"] for x in r.trace["parse"]["rules"]]
        assert rules == ["chit-chat"], (typed, rules)
        assert "didn't understand" not in r.response


def test_a_question_after_a_greeting_searches_without_it(agent):
    _s, [r] = talk(agent, "hiya is there a sweep who covers Northfield?")
    [stmt] = statements(r)
    query = stmt.split('"')[1]
    assert "Northfield" in query and not query.lower().startswith(("hi", "hiya")), stmt


GUESTS_SPEC = {
    "name": "hall hire", "starting_prompt": "Hello, the hall bookings desk.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Change Guests", "description": "change the number of guests of a hire"}),
        {"name": "ChangeGuests", "kind": "task", "predicate": 'task == "Change Guests"', "fields": [
            field("new_guests", "int", "The new number of guests"),
            field("confirm", "confirm", "Confirm the change")]},
    ],
}


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    from tests.fakes.specs import agent_of
    return agent_of(tmp_path_factory.mktemp("hall"), GUESTS_SPEC)


@pytest.mark.parametrize("said, new", [("we're going up from 40 to 55", 55), ("it's dropped from 60 to 45 people", 45),
                                       ("numbers changed from 30 to 35", 35), ("about 40, maybe 50... say 50", 50)])
def test_a_number_changed_from_one_to_another_is_the_new_one(hall, said, new):
    s, [_r, r] = talk(hall, "I need to change the number of guests", said)
    assert record_values(s, "change_guests").get("new_guests") == new, statements(r)


def _patient_spec(date_order: str | None = None, postcode: bool = True) -> dict:
    fields = [field("surname", "str", "The surname on the prescription"),
              field("date_of_birth", "date", "The patient's date of birth")]
    if postcode:
        fields.append(field("postcode", "str", "The postcode for delivery"))
    spec = {"name": "chemist", "starting_prompt": "Hello, the chemist.",
            "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
            "worksheets": [task_choice({"value": "Track Order", "description": "check on a prescription order"}),
                           {"name": "TrackOrder", "kind": "task", "predicate": 'task == "Track Order"',
                            "fields": fields}]}
    if date_order:
        spec["settings"]["date_order"] = date_order
    return spec


@pytest.mark.parametrize("spec, dob", [(_patient_spec(), "1947-09-03"),  # a postcode field: a British spec
                                       (_patient_spec(postcode=False), "1947-03-09"),  # no sign of one: US order
                                       (_patient_spec("day_first", postcode=False), "1947-09-03"),
                                       (_patient_spec("month_first"), "1947-03-09")])
def test_a_date_whose_numbers_could_each_be_the_month_is_read_the_specs_way(tmp_path, spec, dob):
    from tests.fakes.specs import agent_of
    s, _ = talk(agent_of(tmp_path, spec), "is my prescription ready?", "its under Okafor", "3/9/47")
    assert record_values(s, "track_order") == {"surname": "Okafor", "date_of_birth": dob}
    s, _ = talk(agent_of(tmp_path, spec), "is my prescription ready?", "Okafor", "14/02/1989")
    assert record_values(s, "track_order")["date_of_birth"] == "1989-02-14"  # a number over 12 is the day either way


@pytest.mark.parametrize("text, asked", [("Hi! I'd like to book my son's iPad in", True), ("can I book it in?", True),
                                         ("book me in for friday", True), ("I want to cancel my sweep", False),
                                         ("a booking for the cottage", False), ("I'd like a safety check", False)])
def test_a_request_in_the_options_own_verb_is_told_from_the_word_as_a_noun(text, asked):
    from core_engine.parsers.offline.opening.tasks import Described, _asked_by_verb
    found = Described()
    found.items["task"] = ('"Book Sweep"', "Book Sweep", ["book"])
    assert _asked_by_verb(found, text) is asked


COURTS_SPEC = {
    "name": "tennis club", "starting_prompt": "Hello, the tennis club.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Court", "description": "book a tennis court"},
                    {"value": "Join Club", "description": "become a member of the club"}),
        {"name": "BookCourt", "kind": "task", "predicate": 'task == "Book Court"', "fields": [
            field("players", "int", "How many people are playing"),
            field("date", "date", "The day you want to play"),
            field("time", "time", "The time you want to start")]},
        {"name": "JoinClub", "kind": "task", "predicate": 'task == "Join Club"', "fields": [
            field("full_name", "str", "Your full name")]},
    ],
}


@pytest.fixture(scope="module")
def courts(tmp_path_factory):
    from tests.fakes.specs import agent_of
    return agent_of(tmp_path_factory.mktemp("courts"), COURTS_SPEC)


@pytest.mark.parametrize("said", ["is there a court for 4 at 6pm tomorrow?", "hiya, do you have a court for 4 tomorrow at 6pm?"])
def test_a_question_that_gives_how_many_and_when_asks_for_the_booking(courts, said):
    s, [r] = talk(courts, said)
    assert 'main.task = "Book Court"' in statements(r), statements(r)
    assert record_values(s, "book_court") == {"players": 4, "date": "2024-07-02", "time": "18:00"}


def test_a_question_with_a_when_and_no_how_many_opens_nothing(courts):
    _s, [r] = talk(courts, "is there anything on at 7pm tomorrow?")
    assert not any(x.startswith("main.task") for x in statements(r)), statements(r)
