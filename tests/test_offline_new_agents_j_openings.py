"""Openings of agents the offline parser was never written for (session 9, helper J; found on tests/agents/bike_repair
and tests/agents/self_storage): the user's own thing named by a nested option ("my ride-on mower ..."), a word only one
option's description has ("the plug is shot"), a question about what the business does, a record type that is
no task, a change of task said as "never mind that, what I really need is ...", texting shorthand, spec words
typed without their hyphen, and a caller's name before "here" with a yes/no field said as "I need a ...".
"""

from __future__ import annotations

import json

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import TODAY, field, statements, task_choice

SPEC = {
    "name": "mower workshop", "starting_prompt": "Mower workshop, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Book Service", "description": "bring a mower in to be serviced or mended"},
                    {"value": "Check Job", "description": "find out whether a mower you left with us is ready, "
                                                          "using your ticket number"}),
        {"name": "BookService", "kind": "task", "predicate": 'task == "Book Service"', "api": "book", "fields": [
            field("mower", "MowerDetails", "Your mower"),
            field("work", "Enum", "What needs doing", enum_values=[
                {"value": "Blade Sharpening", "description": "a blunt cutting blade sharpened and balanced"},
                {"value": "Annual Service", "description": "oil, spark plug and air filter changed"},
                {"value": "Engine Repair", "description": "a motor that will not start or cuts out"}]),
            field("collect", "bool", "Whether we collect the mower from your home"),
            field("dropoff_date", "date", "The day you bring the mower in"),
            field("owner_name", description="Your name"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "MowerDetails", "kind": "task", "predicate": 'task == "Book Service"',
         "description": "The mower brought in.", "fields": [
            field("make", description="The make of the mower, like Honda or Flymo"),
            field("mower_type", "Enum", "The kind of mower", enum_values=[
                {"value": "Petrol Mower", "description": "a push mower with a petrol engine and a pull cord"},
                {"value": "Ride-On", "description": "a tractor mower you sit on"},
                {"value": "Robot Mower", "description": "a battery robot that mows by itself"}])]},
        {"name": "CheckJob", "kind": "task", "predicate": 'task == "Check Job"', "api": "check", "fields": [
            field("ticket_number", description="The number on your ticket, like MW-2231"),
            field("surname", description="The surname the job is under")]},
        {"name": "jobs", "kind": "kb", "description": "The workshop's jobs and prices", "fields": [
            field("id", primary_key=True), field("name"), field("price", "float"),
            field("mower_types", "List[str]"), field("notes", free_text=True)]},
    ],
    "apis": [{"name": "book"}, {"name": "check"}],
}
JOBS = [
    {"id": "j1", "name": "Blade Sharpening", "price": 15.0, "mower_types": ["Petrol Mower", "Ride-On"],
     "notes": "Blade off, ground sharp and balanced."},
    {"id": "j2", "name": "Annual Service", "price": 60.0, "mower_types": ["Petrol Mower", "Ride-On"],
     "notes": "Oil, plug and filter, deck scraped."},
    {"id": "j3", "name": "Robot Boundary Check", "price": 40.0, "mower_types": ["Robot Mower"],
     "notes": "Boundary wire traced and repaired."},
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    from storage.kb.importer import import_records
    root = tmp_path_factory.mktemp("mowers")
    (root / "spec.json").write_text(json.dumps(SPEC))
    import_records(root / "kb.sqlite", JOBS, "jobs", free_text=["notes"])
    return Agent.load(root)


def _first(agent: Agent, text: str) -> list[str]:
    return statements(agent.new_session(parser="offline", today=TODAY).turn(text))


def test_the_users_own_thing_named_by_a_nested_option_opens_its_task(agent):
    said = _first(agent, "my petrol mower keeps cutting out halfway across the lawn, can you look at it")
    assert said[0] == 'main.task = "Book Service"' and 'mower_type="Petrol Mower"' in said[1]


def test_a_question_after_the_thing_or_another_tasks_word_opens_no_booking(agent):
    assert not any("Book Service" in s for s in _first(agent, "is my petrol mower ready?"))
    assert not any("Book Service" in s for s in _first(agent, "I want to know when my petrol mower will be ready"))


def test_a_word_only_one_options_description_has(agent):
    said = _first(agent, "can I book my ride-on mower in, the plug is shot")  # "plug" of "oil, spark plug and ..."
    assert 'work="Annual Service"' in said[-1]
    said = _first(agent, "can I bring my ride-on mower in, it's at my home")  # "home" says where: no option
    assert "work=" not in said[-1]


def test_a_question_about_what_the_business_does_is_asked_of_the_kb(agent):
    assert _first(agent, "hi do you guys service robot mowers")[0].startswith("answer(")


def test_a_record_type_is_no_task_reading(agent):
    # "The mower brought in." (the record's own description) is no booking asked for: the question is not one
    assert not any("Book Service" in s for s in _first(agent, "is the mower I brought in ready?"))


def test_never_mind_that_what_i_really_need_is_another_task(agent):
    s = agent.new_session(parser="offline", today=TODAY)
    s.turn("I'd like to book my petrol mower in for an annual service")
    said = statements(s.turn("never mind that, what I really need is to find out if my other mower is ready"))
    assert said[:2] == ["exitws(book_service)", 'main.task = "Check Job"']


def test_texting_shorthand_is_no_value_and_a_joined_spec_word_is_read_hyphenated(agent):
    s = agent.new_session(parser="offline", today=TODAY)
    s.turn("hello")
    said = statements(s.turn("gr8, i want to book my rideon in"))
    assert 'mower_type="Ride-On"' in said[-1] and "gr8" not in said[-1]


def test_a_callers_name_before_here_and_a_yes_no_field_said_in_i_need(agent):
    said = _first(agent, "Hi, Dana Kerr here, I need a collection for my robot mower")
    assert 'owner_name="Dana Kerr"' in said[-1] and "collect=True" in said[-1]


def test_the_words_of_a_value_given_choose_no_other_option_by_meaning(agent):
    said = _first(agent, "can you fix robot mowers")  # "robot mowers" chose the kind; "fix" alone tells no work
    assert 'mower_type="Robot Mower"' in said[-1] and "work=" not in said[-1]


@pytest.mark.parametrize("said, index", [("I'll decide with my wife first", None), ("for the first time", None),
                                         ("let me ask my wife first, then I'll take the second", 1),
                                         ("the first one", 0), ("first", 0), ("I'll take the first", 0)])
def test_an_ordinal_said_as_an_adverb_chooses_no_row(said, index):
    from core_engine.parsers.offline.intents import choice_index
    found = choice_index(said, 3)
    assert (found[0] if found else None) == index


def test_a_cancel_with_a_plan_to_decide_later(agent):
    s = agent.new_session(parser="offline", today=TODAY)
    s.turn("I'd like to book my petrol mower in for an annual service")
    r = s.turn("never mind, I'll decide with my wife first")
    assert statements(r) == [] and any(x["rule"] == "control-cancel" for x in r.trace["parse"]["rules"])


SHOP = {
    "name": "telescope shop", "starting_prompt": "Telescope shop, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Reserve Scope", "description": "set a telescope aside to collect"},
                    {"value": "Ask Advice", "description": "talk to an astronomer"}),
        {"name": "ReserveScope", "kind": "task", "predicate": 'task == "Reserve Scope"', "api": "reserve", "fields": [
            field("scope", "Scope", "The telescope"), field("quantity", "int", "How many to set aside"),
            field("buyer", description="Your name")]},
        {"name": "AskAdvice", "kind": "task", "predicate": 'task == "Ask Advice"', "api": "advice",
         "fields": [field("question", description="Your question", free_text=True)]},
        {"name": "Scope", "kind": "kb", "description": "Telescopes", "fields": [
            field("id", primary_key=True), field("name"), field("aperture_mm", "int")]},
    ],
    "apis": [{"name": "reserve"}, {"name": "advice"}],
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Agent:
    from storage.kb.importer import import_records
    root = tmp_path_factory.mktemp("scopes")
    (root / "spec.json").write_text(json.dumps(SHOP))
    import_records(root / "kb.sqlite", [{"id": "t1", "name": "Skyline 80", "aperture_mm": 80},
                                        {"id": "t2", "name": "Orion Dob 200", "aperture_mm": 200}], "Scope")
    return Agent.load(root)


@pytest.mark.parametrize("said, extra", [("great, that one", []), ("I'll take 2 of those", ["reserve_scope.quantity = 2"])])
def test_the_one_row_shown_for_a_question_fills_the_field_asked(shop, said, extra):
    s = shop.new_session(parser="offline", today=TODAY)
    s.turn("I'd like to reserve a telescope")
    s.inject('answer("do you have the Skyline 80")')  # asked as a question, not as the field's answer
    assert statements(s.turn(said)) == ["reserve_scope.scope = answer.result[0]", *extra]


def test_a_problem_told_in_the_words_of_one_tasks_option_descriptions(agent):
    said = _first(agent, "the spark plug on mine is black and sooty")  # "oil, spark plug and air filter changed"
    assert said == ['main.task = "Book Service"', 'book_service = BookService(work="Annual Service")']
    assert not any("Book Service" in s for s in _first(agent, "the spark plug is sooty, what should I do?"))


@pytest.mark.parametrize("said, work", [("Blunt blade on my Honda, can I bring it in tomorrow?", "Blade Sharpening"),
                                        ("the spark plug is sooty, can I bring it in on friday?", "Annual Service")])
def test_a_request_for_the_tasks_verb_after_a_comma_opens_the_task(agent, said, work):
    # "bring" begins the description of Book Service: the question asks for the task, not the KB
    out = _first(agent, said)
    assert out[0] == 'main.task = "Book Service"' and f'work="{work}"' in out[1]
