"""Items named by KB rows, restated values, refusals, vague openings and the KB table a question asks about.

Pinned on a cooking-school spec written here (not a sample, not a held-out agent), so nothing passes
through words grown on one: a text field whose name says a KB table and its naming column takes a row
name; several such items in one sentence keep their own options; a description fills the nested
option it states; "my registered name is ..." replaces the name given; "I'm not comfortable giving ..."
refuses the asked field; "I have a problem with my booking" states nothing; a wh-question while an
option is asked goes to the KB; and the knowledge parser picks the table by the column asked for.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from core_engine.session.agent import Agent
from core_engine.knowledge.offline import OfflineKnowledgeParser, offline_knowledge

from tests.fakes.specs import field, statements, talk, task_choice

TODAY = dt.date(2024, 7, 1)


SPEC = {
    "name": "cooking school", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Enrol", "description": "sign up for cooking workshops"},
            {"value": "Complaint", "description": "something went wrong with a workshop or a payment"}),
        {"name": "Enrol", "kind": "task", "predicate": 'task == "Enrol"', "api": "enrol", "fields": [
            field("first_seat", "Seat", "The first workshop"),
            field("more_seats", "bool", "Whether you want a second workshop"),
            field("second_seat", "Seat", "The second workshop", predicate="self.more_seats == True"),
            field("full_name", description="Your full name"),
            field("phone", description="Your phone number"),
            field("confirm", "confirm", "Confirm the enrolment")]},
        {"name": "Seat", "kind": "task", "fields": [
            field("workshop_name", description="The workshop's name"),
            field("format", "Enum", "How you take part", enum_values=[
            {"value": "Online", "description": "join by video from home"},
            {"value": "Kitchen", "description": "cook in person in our kitchen"}]),
            field("people", "int", "How many people come")]},
        {"name": "Complaint", "kind": "task", "predicate": 'task == "Complaint"', "api": "complain", "fields": [
            field("kind", "Enum", "What went wrong", enum_values=[
            {"value": "Refund Missing", "description": "money that was promised back never arrived"},
            {"value": "Workshop Cancelled", "description": "a workshop was called off at short notice"}]),
            field("refund", "Refund", "Details of the refund", predicate='self.kind == "Refund Missing"'),
            field("full_name", description="Your full name"),
            field("story", description="What happened, in your words"),
            field("confirm", "confirm", "Confirm the complaint")]},
        {"name": "Refund", "kind": "task", "predicate": 'task == "Complaint" and kind == "Refund Missing"',
         "fields": [field("refund_month", description="The month the refund was promised")]},
        {"name": "workshops", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the workshop"),
            field("teacher", description="Who teaches the workshop"), field("weekday", description="Day of the week"),
            field("description", description="What is cooked", free_text=True)]},
        {"name": "venues", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the room"),
            field("opening_hours", description="When it is open"),
            field("description", description="What the room has", free_text=True)]},
        {"name": "rules", "kind": "kb", "fields": [
            field("id", primary_key=True), field("topic", description="What the rule is about"),
            field("text", description="The rule", free_text=True)]},
    ],
    "apis": [{"name": "enrol"}, {"name": "complain"}],
}
WORKSHOPS = [("w1", "Knife Skills", "Aiko Mori", "Monday", "Chopping, dicing and sharpening."),
             ("w2", "Bread Basics", "Tomas Lind", "Tuesday", "Sourdough and flatbreads from scratch."),
             ("w3", "Fresh Pasta", "Giulia Conti", "Wednesday", "Tagliatelle and ravioli by hand."),
             ("w4", "Spice Route", "Ravi Menon", "Thursday", "Curries and spice blends."),
             ("w5", "Sweet Pastry", "Claire Dubois", "Friday", "Tarts and choux buns."),
             ("w6", "Sushi Night", "Aiko Mori", "Saturday", "Rolls, rice and raw fish safety."),
             ("w7", "Vegan Feast", "Nora Alvi", "Sunday", "A plant-based menu for guests."),
             ("w8", "Grill Masters", "Tomas Lind", "Saturday", "Charcoal grilling of fish and vegetables.")]
VENUES = [("v1", "Main Kitchen", "9:00 to 22:00", "Twelve cooking stations."),
          ("v2", "Tasting Room", "17:00 to 23:00", "Tables where the dishes are eaten.")]
RULES = [("r1", "Refunds", "A refund is paid back within ten working days of a cancelled workshop."),
         ("r2", "Aprons", "Aprons and knives are lent for free; bring closed shoes.")]


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("cooking")
    (root / "spec.json").write_text(json.dumps(SPEC))
    (root / "data").mkdir()
    for name, cols, rows in (("workshops", ["id", "name", "teacher", "weekday", "description"], WORKSHOPS),
                             ("venues", ["id", "name", "opening_hours", "description"], VENUES),
                             ("rules", ["id", "topic", "text"], RULES)):
        (root / "data" / f"{name}.jsonl").write_text("".join(json.dumps(dict(zip(cols, r))) + "\n" for r in rows))
    return Agent.load(Path(root))


def values(session, var: str) -> dict:
    """The values of one record, nested records as their variable's name."""
    rec = next((r for r in session.state["records"] if r["var"] == var), None)
    return {k: v for k, v in rec["values"].items() if not isinstance(v, dict)} if rec is not None else {}


def asked(result) -> tuple[str, str] | None:
    return next(((a["var"], a["field"]) for a in result.acts if a.get("act") == "ask"), None)


def test_a_row_name_in_a_request_fills_the_item_field_named_for_its_table(agent):
    session, (r,) = talk(agent, "could you enrol me in Knife Skills?")
    assert values(session, "main")["task"] == "Enrol"
    assert values(session, "seat")["workshop_name"] == "Knife Skills"
    assert asked(r) == ("seat", "format")


def test_several_items_keep_their_own_options(agent):
    session, (r,) = talk(agent, "I'd like Knife Skills online for two and Bread Basics in the kitchen")
    assert values(session, "seat") == {"workshop_name": "Knife Skills", "format": "Online", "people": 2}
    assert values(session, "seat_2") == {"workshop_name": "Bread Basics", "format": "Kitchen"}
    assert values(session, "enrol")["more_seats"] is True
    assert asked(r) == ("seat_2", "people")


def test_an_option_word_is_not_a_number(agent):
    """ "one" inside an option's name or a row's name is never the count of another field."""
    session, _ = talk(agent, "sign me up for Fresh Pasta online and Sweet Pastry in the kitchen for 3")
    assert "people" not in values(session, "seat")
    assert values(session, "seat_2")["people"] == 3


def test_the_named_answer_takes_the_rest_of_the_turn_as_options(agent):
    session, (_r1, r2) = talk(agent, "I want to enrol", "Spice Route, online, for 4 people")
    assert values(session, "seat") == {"workshop_name": "Spice Route", "format": "Online", "people": 4}
    assert asked(r2) == ("enrol", "more_seats")


def test_a_name_that_is_no_row_is_still_an_answer(agent):
    session, _ = talk(agent, "I want to enrol", "the dumpling one")
    assert values(session, "seat").get("workshop_name") != "Knife Skills"


@pytest.mark.parametrize("words", ["my registered name is Samuel Reed", "the name on the phone account is Samuel Reed"])
def test_a_restated_value_for_a_named_field_replaces_it(agent, words):
    """The field is the one the sentence's head noun names ("name" of "the name on the phone account")."""
    session, results = talk(agent, "I'd like Vegan Feast online for 1", "no", "Sam Reed", words)
    assert values(session, "enrol")["full_name"] == "Samuel Reed"
    rule = next(r for r in results[-1].trace["parse"]["rules"] if r.get("statement"))
    assert rule["rule"] == "correction" and rule["was"] == "Sam Reed"
    assert asked(results[-1]) == ("enrol", "phone")


def test_the_asked_field_named_is_an_answer_not_a_correction(agent):
    session, results = talk(agent, "I'd like Vegan Feast online for 1", "no", "Sam Reed", "my phone number is 0612345678")
    assert values(session, "enrol")["full_name"] == "Sam Reed"
    assert values(session, "enrol")["phone"] == "0612345678"


@pytest.mark.parametrize("words", ["I'm not comfortable giving out my phone number",
                                   "I don't want to share that", "I'd prefer not to provide it"])
def test_refusals_in_other_words(agent, words):
    session, _ = talk(agent, "I'd like Vegan Feast online for 1", "no", "Sam Reed", words)
    assert values(session, "enrol")["phone"] == "NA"


def test_a_vague_trouble_opening_states_nothing_it_did_not_say(agent):
    session, (r,) = talk(agent, "I have a problem with my booking")
    assert "story" not in values(session, "complaint") and "kind" not in values(session, "complaint")


def test_a_description_fills_the_nested_option_and_its_month(agent):
    session, (r,) = talk(agent, "the refund you promised me in March never arrived")
    assert values(session, "complaint")["kind"] == "Refund Missing"
    assert values(session, "refund")["refund_month"] == "March"


def test_may_the_verb_is_no_month(agent):
    session, _ = talk(agent, "may I ask why the refund you promised never arrived")
    assert "refund_month" not in values(session, "refund")


def test_a_wh_question_while_the_task_is_asked_goes_to_the_kb(agent):
    session, (r1, r2) = talk(agent, "hello", "what happens with refunds when a workshop is cancelled?")
    assert statements(r2) and all(s.startswith("answer(") for s in statements(r2))
    assert "task" not in values(session, "main")


@pytest.mark.parametrize("question,table", [("who teaches Sushi Night?", "workshops"),
                                            ("what time does the Tasting Room open?", "venues"),
                                            ("do I need to bring an apron?", "rules"),
                                            ("what if a workshop gets cancelled?", "rules")])
def test_the_kb_table_is_the_one_that_holds_the_answer(agent, question, table):
    kb, _knowledge = offline_knowledge(agent)
    query, rules = OfflineKnowledgeParser().parse(question, kb, agent.spec)
    assert query.table == table, rules
    assert kb.execute(query.sql()).rows


def test_what_time_is_not_a_search_word(agent):
    kb, _knowledge = offline_knowledge(agent)
    query, _rules = OfflineKnowledgeParser().parse("what time does the Main Kitchen open?", kb, agent.spec)
    assert [r["id"] for r in kb.execute(query.sql()).rows] == ["v1"]


def test_an_option_said_for_each_item_goes_to_every_item(agent):
    session, _ = talk(agent, "I'd like Knife Skills online and Bread Basics in the kitchen, 2 people each")
    assert values(session, "seat") == {"workshop_name": "Knife Skills", "format": "Online", "people": 2}
    assert values(session, "seat_2") == {"workshop_name": "Bread Basics", "format": "Kitchen", "people": 2}


def test_the_agents_own_words_are_no_search_in_a_task_request(tmp_path):
    """ "I'd like to book a veterinary visit" to a vet clinic's agent opens the task with no KB search;
    a word that is a KB value ("horses") is still searched."""
    from tests.test_offline_generalisation import SPEC as VET_SPEC, VETS
    root = tmp_path / "vet"
    root.mkdir()
    spec = {**VET_SPEC, "description": "The assistant of a veterinary clinic: books visits with the vets for pets."}
    (root / "spec.json").write_text(json.dumps(spec))
    (root / "data").mkdir()
    (root / "data" / "vets.jsonl").write_text("".join(json.dumps(r) + "\n" for r in VETS))
    vet = Agent.load(root)
    _session, (r,) = talk(vet, "Hi, I'd like to book a veterinary visit")
    assert not any("answer(" in s for s in statements(r)), statements(r)
    _session, (r,) = talk(vet, "Hi, I'd like to book a veterinary visit with a vet for horses")
    assert any("answer(" in s and "horses" in s for s in statements(r)), statements(r)


def test_put_on_hold_is_a_request_for_the_row_task(tmp_path):
    """ "Can I put X on hold for Friday?" asks for the task that takes X (offline_requests), not a search."""
    from tests.test_offline_generalisation import SPEC as VET_SPEC, VETS
    root = tmp_path / "vet"
    root.mkdir()
    (root / "spec.json").write_text(json.dumps(VET_SPEC))
    (root / "data").mkdir()
    (root / "data" / "vets.jsonl").write_text("".join(json.dumps(r) + "\n" for r in VETS))
    session, (r,) = talk(Agent.load(root), "Can I put Dr. Lena Fischer on hold for Friday?")
    assert values(session, "main")["task"] == "Book Visit"
    assert values(session, "book_visit")["date"] == "2024-07-05"


def test_something_for_is_a_search(agent):
    """No question word and no KB value: "something for ..." still asks the KB (while the task is asked)."""
    _session, (_r1, r2) = talk(agent, "hello", "something on the rules about aprons and shoes")
    assert statements(r2) and statements(r2)[0].startswith("answer(")


def test_a_word_naming_a_conditioned_column_is_no_search_word(agent):
    """ "taught" in "workshops taught by Tomas Lind" names the teacher column, which the name already selects."""
    kb, _knowledge = offline_knowledge(agent)
    query, rules = OfflineKnowledgeParser().parse("workshops taught by Tomas Lind", kb, agent.spec)
    assert sorted(r["id"] for r in kb.execute(query.sql()).rows) == ["w2", "w8"], rules
