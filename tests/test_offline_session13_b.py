"""Turn shapes from heldout18's sample conversations (session 13, helper B), pinned on a bakery's spec written here
(not a sample, not a development agent). One test per mechanism; each fails without it.
"""

from __future__ import annotations

import json
import os

import pytest

from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.offline import OfflineKnowledgeParser
from core_engine.parsers.offline.words.measures.counts import head_count
from core_engine.parsers.offline.words.values import yes_no
from core_engine.session.agent import Agent
from core_engine.spec.model import Field, Spec, Worksheet
from storage.kb.importer import import_records

from tests.fakes.specs import field, statements, talk, task_choice

BAKERIES = [
    {"id": "b1", "name": "Crumb and Crust", "speciality": "Sourdough", "town": "Millbrook",
     "description": "A small bakery by the station with long-proved loaves."},
    {"id": "b2", "name": "Sugar Loaf", "speciality": "Wedding Cakes", "town": "Millbrook",
     "description": "Tiered cakes made to order, tastings on Saturdays."},
    {"id": "b3", "name": "The Rolling Pin", "speciality": "Sourdough", "town": "Eastwick",
     "description": "Rye and spelt breads, open from six in the morning."},
    {"id": "b4", "name": "Petit Four", "speciality": "Pastry", "town": "Eastwick",
     "description": "French pastries and macarons."},
]
CLASSES = [{"code": "BK 101", "title": "Bread at Home", "teacher": "Ines Hall"},
           {"code": "BK 210", "title": "Laminated Dough", "teacher": "Owen Price"},
           {"code": "BK 330", "title": "Showpiece Cakes", "teacher": "Ines Hall"}]
SPEC = {
    "name": "bakery", "starting_prompt": "Hello, this is the bakery desk.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Order Cake", "description": "order a cake from one of our bakeries"},
                    {"value": "Baking Class", "description": "sign up for baking classes"}),
        {"name": "OrderCake", "kind": "task", "predicate": 'task == "Order Cake"', "api": "order_cake", "fields": [
            field("bakery", "Bakery", "The bakery to order from"),
            field("pickup_date", "date", "The day you collect the cake"),
            field("pickup_time", "time", "The time you collect the cake"),
            field("guests", "int", "How many people the cake is for"),
            field("nut_free", "bool", "Whether the cake must be nut free"),
            field("confirm", "confirm", "Confirm the order")]},
        {"name": "BakingClass", "kind": "task", "predicate": 'task == "Baking Class"', "api": "enrol", "fields": [
            field("first_class", "Seat", "The first class"),
            field("more_classes", "bool", "Whether you want a second class"),
            field("second_class", "Seat", "The second class", predicate="self.more_classes == True"),
            field("full_name", description="Your full name"),
            field("phone", description="Your phone number"),
            field("confirm", "confirm", "Confirm the enrolment")]},
        {"name": "Seat", "kind": "task", "fields": [
            field("class_code", description="The class code or title"),
            field("assessment", "Enum", "How the class is assessed", enum_values=[
                {"value": "Certificate/No Certificate"}, {"value": "Logbook"}]),
            field("hours", "int", "How many hours a week you bake for it")]},
        {"name": "bakeries", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the bakery"),
            field("speciality", description="What the bakery is known for"), field("town", description="Town"),
            field("description", description="About the bakery", free_text=True)]},
        {"name": "Bakery", "kind": "type", "fields": [
            field("id"), field("name", description="Name of the bakery"), field("speciality"), field("town")]},
        {"name": "classes", "kind": "kb", "fields": [
            field("code", description="Class code", primary_key=True), field("title", description="Title"),
            field("teacher", description="Who teaches the class")]},
    ],
    "apis": [{"name": "order_cake"}, {"name": "enrol"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("vectors"))
    root = tmp_path_factory.mktemp("bakery")
    import_records(root / "kb.sqlite", BAKERIES, "bakeries", free_text=["description"])
    import_records(root / "kb.sqlite", CLASSES, "classes")
    (root / "spec.json").write_text(json.dumps(SPEC))
    yield Agent.load(root)
    if old is None:
        os.environ.pop("GENIE_CACHE_DIR", None)
    else:
        os.environ["GENIE_CACHE_DIR"] = old


def values(session, var: str) -> dict:
    rec = next((r for r in session.state["records"] if r["var"] == var), None)
    return {k: v for k, v in rec["values"].items() if not isinstance(v, dict)} if rec is not None else {}


ORDER = ("I'd like to order a cake from Sugar Loaf", "saturday", "at 3pm", "12", "no")


def test_a_word_of_craving_searches_nothing(tmp_path):
    path = tmp_path / "kb.sqlite"
    import_records(path, BAKERIES, "bakeries", free_text=["description"])
    ws = Worksheet(name="bakeries", kind="kb", description="Bakeries in the county.",
                   fields=[Field(name="id"), Field(name="name", description="Name of the bakery"),
                           Field(name="speciality", description="What the bakery is known for"),
                           Field(name="town", description="Town"), Field(name="description", description="About it")])
    with SQLiteKB(path) as kb:
        query, _rules = OfflineKnowledgeParser().parse("we're craving sourdough, anything good down in Eastwick?", kb,
                                                       Spec(name="bakery", worksheets=[ws]))
        assert [r["id"] for r in kb.execute(query.sql()).rows] == ["b3"]


def test_a_value_floated_after_a_doubt_is_the_answer(agent):
    session, [*_, r] = talk(agent, "I want to sign up for a baking class", "umm not sure yet... maybe BK 210?")
    assert statements(r) == ['seat.class_code = "BK 210"']
    session, [*_, r] = talk(agent, "I want to sign up for a baking class", "not sure, maybe ask my wife")
    assert statements(r) == ['seat.class_code = "NA"']  # no value floated: still a refusal


def test_a_slashed_short_form_of_an_option_beside_the_answer(agent):
    session, [*_, r] = talk(agent, "I want to sign up for a baking class", "who teaches BK 210?",
                            "cool sign me up for it then, c/nc")
    assert values(session, "seat") == {"class_code": "BK 210", "assessment": "Certificate/No Certificate"}


def test_an_item_that_says_same_takes_the_options_of_the_item_before(agent):
    session, _ = talk(agent, "I'd like to sign up for BK 101 for a logbook, 3 hours, and BK 210 same")
    assert values(session, "seat") == {"class_code": "BK 101", "assessment": "Logbook", "hours": 3}
    assert values(session, "seat_2") == {"class_code": "BK 210", "assessment": "Logbook", "hours": 3}


def test_ok_good_agrees_to_the_summary(agent):
    assert yes_no("ok good")[0] is True and yes_no("good morning") is None
    session, [*_, r] = talk(agent, *ORDER, "ok good")
    assert statements(r) == ["order_cake.confirm = True"]


def test_a_go_ahead_after_the_summary_was_held_back(agent):
    session, [*_, held, r] = talk(agent, *ORDER, "hmm don't book it yet, I need to ask my partner",
                                  "ok she's happy, go ahead")
    assert statements(held) == ["order_cake.confirm = False"]
    assert statements(r) == ["order_cake.confirm = True"]
    assert any(a.get("act") == "report" and a.get("kind") == "api" for a in r.acts)
    session, [*_, r] = talk(agent, *ORDER, "hmm don't book it yet, I need to ask my partner", "go ahead at 4pm")
    assert "order_cake.confirm = True" not in statements(r)  # a new value: the summary is shown again first


def test_a_value_ruled_out_and_another_offered_is_a_change(agent):
    session, [*_, r] = talk(agent, *ORDER, "oh shoot saturday won't work, sunday same time?")
    assert statements(r) == ['order_cake.pickup_date = "2024-07-07"']
    assert values(session, "order_cake")["pickup_time"] == "15:00"


def test_people_listed_one_by_one_are_counted():
    assert head_count("me, my husband and our 2 kids") == 4
    assert head_count("me, my mum and my sister") == 3
    assert head_count("me, my wife and the kids") is None  # how many kids is not said


def test_people_listed_one_by_one_answer_a_head_count(agent):
    session, [*_, r] = talk(agent, *ORDER[:3], "me, my husband and our 3 kids")
    assert statements(r) == ["order_cake.guests = 5"]


def test_no_clue_to_a_yes_no_question_is_a_refusal(agent):
    assert yes_no("no clue honestly") is None and yes_no("no, thanks")[0] is False
    session, [*_, r] = talk(agent, *ORDER[:4], "no clue honestly")
    assert statements(r) == ['order_cake.nut_free = "NA"']


def test_a_correction_then_the_answer_to_the_question_asked(agent):
    session, [*_, r] = talk(agent, "I want to sign up for a baking class", "BK 101", "logbook", "2", "no",
                            "Jo Baker", "sorry, Joanna Baker, that's the name on my card. number is 07700 900123")
    assert 'baking_class.full_name = "Joanna Baker"' in statements(r)
    assert values(session, "baking_class").get("phone", "").replace(" ", "") == "07700900123"
