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
from core_engine.parsers.offline.intents import chit_chat
from core_engine.parsers.offline.words.values import find_numbers, yes_no
from core_engine.spec.model import Field, Spec, Worksheet
from storage.kb.importer import import_records

from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk, task_choice

BAKERIES = [
    {"id": "b1", "name": "Crumb and Crust", "speciality": "Sourdough", "town": "Millbrook", "rating": 4.1,
     "num_reviews": 300,
     "description": "A small bakery by the station with long-proved loaves."},
    {"id": "b2", "name": "Sugar Loaf", "speciality": "Wedding Cakes", "town": "Millbrook", "rating": 4.5,
     "num_reviews": 120,
     "description": "Tiered cakes made to order, tastings on Saturdays."},
    {"id": "b3", "name": "The Rolling Pin", "speciality": "Sourdough", "town": "Eastwick", "rating": 4.8,
     "num_reviews": 90,
     "description": "Rye and spelt breads, open from six in the morning."},
    {"id": "b4", "name": "Petit Four", "speciality": "Pastry", "town": "Eastwick", "rating": 3.9,
     "num_reviews": 45,
     "description": "French pastries and macarons."},
]
CLASSES = [{"code": "BK 101", "title": "Bread at Home", "teacher": "Ines Hall"},
           {"code": "BK 210", "title": "Laminated Dough", "teacher": "Owen Price"},
           {"code": "BK 330", "title": "Showpiece Cakes", "teacher": "Ines Hall"},
           {"code": "BK 115L", "title": "Loaf Lab", "teacher": "Owen Price"}]
SPEC = {
    "name": "bakery", "starting_prompt": "Hello, this is the bakery desk.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Order Cake", "description": "order a cake from one of our bakeries"},
                    {"value": "Baking Class", "description": "sign up for baking classes"},
                    {"value": "Complaint", "description": "something went wrong with a cake that was delivered"}),
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
            field("member_number", description="Your membership number"),
            field("email", description="Your e-mail address"),
            field("returning", "bool", "Whether you have baked with us before"),
            field("confirm", "confirm", "Confirm the enrolment")]},
        {"name": "Complaint", "kind": "task", "predicate": 'task == "Complaint"', "api": "complain", "fields": [
            field("complaint_kind", "Enum", "What the complaint is about", enum_values=[
                {"value": "Damaged Delivery", "description": "the cake arrived damaged by the courier"},
                {"value": "Others", "description": "anything else"}]),
            field("delivery", "Delivery", "How and when the cake came",
                  predicate='self.complaint_kind == "Damaged Delivery"'),
            field("story", description="A description of the problem or question")]},
        {"name": "Delivery", "kind": "task", "fields": [
            field("courier", "Enum", "Who brought the cake", enum_values=[
                {"value": "Our Van"}, {"value": "Parcel Courier", "description": "a parcel company"}]),
            field("delivery_date", description="When the cake was delivered"),
            field("damage", description="A description of the problem with the delivery")]},
        {"name": "Seat", "kind": "task", "fields": [
            field("class_code", description="The class code or title"),
            field("assessment", "Enum", "How the class is assessed", enum_values=[
                {"value": "Certificate/No Certificate"}, {"value": "Logbook"}]),
            field("hours", "int", "How many hours a week you bake for it")]},
        {"name": "bakeries", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the bakery"),
            field("speciality", description="What the bakery is known for"), field("town", description="Town"),
            field("rating", "float", "Average rating out of 5"), field("num_reviews", "int", "Number of reviews"),
            field("description", description="About the bakery", free_text=True)]},
        {"name": "Bakery", "kind": "type", "fields": [
            field("id"), field("name", description="Name of the bakery"), field("speciality"), field("town")]},
        {"name": "classes", "kind": "kb", "fields": [
            field("code", description="Class code", primary_key=True), field("title", description="Title"),
            field("teacher", description="Who teaches the class")]},
    ],
    "apis": [{"name": "order_cake"}, {"name": "enrol"}, {"name": "complain"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "bakery", SPEC, {"bakeries": (BAKERIES, ["description"]), "classes": (CLASSES, [])})


values = record_values


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
    # no value floated: no answer; the class code names KB rows, so the doubt says the class is not chosen yet and
    # nothing is stored (session 15, helper P: it was "NA", a class code that enrols in nothing)
    assert statements(r) == []


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
                            "Jo Baker", "sorry, Joanna Baker, that's the name on my card. number is 04417")
    assert statements(r) == ['baking_class.full_name = "Joanna Baker"', 'baking_class.member_number = "04417"']


def test_a_codes_number_said_alone_is_the_code_and_the_x_one_is_no_number(agent):
    assert find_numbers("the red one please") == [] and find_numbers("a party of one")[0].value == 1
    session, _ = talk(agent, "I want to sign up for the pastry class (210) and the lab one, 115L")
    assert values(session, "seat") == {"class_code": "BK 210"}
    assert values(session, "seat_2") == {"class_code": "BK 115L"}  # no 1 hour from "the lab one"
    from core_engine.parsers.offline.kb_rows.codes import _NUMBER_ONLY
    assert not _NUMBER_ONLY.search("call me on (210) 555-0134") and not _NUMBER_ONLY.search("Flat 115L, Mill Road")


def test_a_number_answered_then_a_question(agent):
    session, [*_, r] = talk(agent, "I want to sign up for a baking class", "BK 101", "logbook",
                            "3. who teaches BK 330?")
    assert statements(r) == ["seat.hours = 3", 'answer("who teaches BK 330?")']


def test_a_number_listed_among_answers_is_the_one_id_field(agent):
    session, [*_, r] = talk(agent, "I want to sign up for a baking class", "BK 101", "logbook", "2", "no",
                            "Ana Ruiz, 04417, ana@example.com, and yes I have baked with you before")
    said = values(session, "baking_class")
    assert (said["full_name"], said["member_number"], said["email"]) == ("Ana Ruiz", "04417", "ana@example.com")


def test_which_one_has_better_reviews_is_the_best_rated_row(agent):
    session, [_, r] = talk(agent, "any sourdough bakeries?", "which one has better reviews")
    rows = next(a["result"] for a in r.acts if a.get("act") == "report")
    assert [row["id"] for row in rows] == ["b3"]  # rated 4.8, fewer reviews than b1


def test_a_whole_date_in_an_opening_fills_a_text_field_that_holds_a_date(agent):
    session, [r] = talk(agent, "my cake was squashed by the courier, it was delivered on june 3rd")
    assert values(session, "delivery")["delivery_date"] == "2024-06-03"  # said on 2024-07-01: the past June


def test_a_trouble_told_in_an_opening_is_the_story_of_the_nested_record_it_opens(agent):
    session, [r] = talk(agent, "my cake was squashed by the courier, the box was broken and it came a day late")
    assert values(session, "delivery")["damage"].startswith("my cake was squashed by the courier")
    assert "story" not in values(session, "complaint")  # the top-level record's own story is asked
    session, [r] = talk(agent, "I want to complain about a damaged delivery from the courier")
    assert "damage" not in values(session, "delivery")  # a request that tells no trouble: the agent asks


def test_an_option_then_the_story_after_a_dash(agent):
    session, [_, r] = talk(agent, "I have a complaint",
                           "its not about a delivery, something else - I want to know if I can get a refund")
    assert statements(r) == ['complaint.complaint_kind = "Others"',
                             'complaint.story = "I want to know if I can get a refund"']


def test_a_sigh_about_the_day_is_small_talk():
    assert chit_chat("ugh what a day") and chit_chat("it's been a long week")
    assert chit_chat("what a day, someone squashed my cake") is None


SHOPS = [
    {"id": "s1", "name": "Crumb and Crust", "kind": "Bakery", "offers": ["sourdough", "coffee"], "walk_minutes": 4,
     "description": "A small bakery by the station with long-proved loaves."},
    {"id": "s2", "name": "Sugar Loaf", "kind": "Station Kiosk", "offers": ["wedding cakes", "coffee"],
     "walk_minutes": 9, "description": "Tiered cakes made to order, a coffee counter inside the station hall."},
    {"id": "s3", "name": "The Rolling Pin", "kind": "Bakery", "offers": ["sourdough", "rye bread"], "walk_minutes": 2,
     "description": "Rye and spelt breads, open from six in the morning."},
    {"id": "s4", "name": "Lost and Found", "kind": "Station Desk", "offers": ["lost property", "maps"],
     "walk_minutes": 7, "description": "The office of the covered market."},
]
SHOP_COLUMNS = {"id": "Shop id", "name": "Name of the shop", "kind": "What kind of place it is",
                "offers": "What it sells", "walk_minutes": "Walking time in minutes from the railway station",
                "description": "About it"}


@pytest.fixture(scope="module")
def shops(tmp_path_factory):
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("shop_vectors"))
    path = tmp_path_factory.mktemp("shops") / "kb.sqlite"
    import_records(path, SHOPS, "services", free_text=["description"])
    ws = Worksheet(name="services", kind="kb", description="Bakeries and other services in town.",
                   fields=[Field(name=n, description=d) for n, d in SHOP_COLUMNS.items()])
    with SQLiteKB(path) as kb:
        yield kb, Spec(name="shops", worksheets=[ws])
    if old is None:
        os.environ.pop("GENIE_CACHE_DIR", None)
    else:
        os.environ["GENIE_CACHE_DIR"] = old


def ask(fixture, question):
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return [r["id"] for r in kb.execute(query.sql()).rows], rules


def test_the_verb_before_a_conditions_word_searches_nothing(shops):
    rows, rules = ask(shops, "where can I buy sourdough")
    assert sorted(rows) == ["s1", "s3"]
    assert not any(r["rule"] == "free_text" and "buy" in r["words"] for r in rules)  # a shop's verb: a stopword


def test_closest_ranks_by_the_distance_and_the_point_it_is_measured_from_is_no_filter(shops):
    rows, rules = ask(shops, "which bakery is closest to the railway station?")
    assert rows == ["s3"]  # 2 minutes' walk; "station" in s1's text does not choose it
    assert next(r for r in rules if r["rule"] == "order")["column"] == "walk_minutes"


def test_a_phrase_read_by_meaning_that_the_rows_text_says_is_a_search_term(shops):
    from core_engine.knowledge.match import Match
    from core_engine.knowledge.offline import _phrases_in_text
    from core_engine.knowledge.vocab import ValueEntry, tokenize
    kb, _spec = shops
    tokens = tokenize("coffee inside the station hall")
    desk = ValueEntry("services", "kind", "text", "Station Desk", ("station", "desk"), 2, False)
    meant = Match(3, 4, [desk], "station hall", "semantic", 0.72)
    rules: list = []
    assert _phrases_in_text(kb, kb.tables()["services"], tokens, {0}, [meant], rules) == []
    assert rules[0]["phrase"] == "station hall"  # s2's text says it: where the coffee is, not the kind Station Desk


def test_a_task_asked_for_the_thing_just_asked_about(agent):
    session, [*_, r] = talk(agent, "hi", "do you teach laminated dough, and what does it cost?",
                            "ok, can you book me in for that")
    assert statements(r) == ['main.task = "Baking Class"']
    session, [*_, r] = talk(agent, "hi", "my birthday cake came squashed by the courier, what happens now?",
                            "ok, can you file something for that")
    assert statements(r) == []  # ordering a cake means nearly as much: the agent asks which
