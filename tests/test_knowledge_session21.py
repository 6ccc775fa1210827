"""KB questions on a boat hire yard written for session 21's knowledge-parser rules (not a sample, not a blind set).

Money said against the column that holds money (and the one the words name among several, cents against a
column kept in pounds, pounds against one kept in pence), English words no row has and no column means left
out with the reply saying so, negations of a verb only where they govern, a yes/no column named by its
description's verb or by a word of approval, a name word said short, half hours and units, ages against the
youngest and oldest allowed, people against the most and the fewest a row takes, status words ("free",
"available") and fillers ("at the moment"). Every expected answer is computed from BOATS, so the tests check
rows, not SQL text.
"""

from __future__ import annotations

import pytest

from core_engine.knowledge.offline import OfflineKnowledgeParser
from tests.fakes.kbs import kb_and_spec

KINDS = ["Canoe", "Rowing boat", "Motor launch", "Narrowboat", "Pedalo"]
MOORINGS = ["Mill Quay", "Willow Reach", "Town Steps"]
BOATS = [{"id": f"b{i:02d}", "name": f"{['Heron', 'Otter', 'Kingfisher', 'Moorhen', 'Swift', 'Dabchick'][i % 6]} {i}",
          "kind": KINDS[i % 5], "mooring": MOORINGS[i % 3], "status": ["Vacant", "Out on hire", "In repair"][i % 3],
          "hourly_rate": 12.0 + 4 * (i % 7), "deposit": 50.0 + 25 * (i % 5), "insured_value": 400 + 300 * (i % 6),
          "hire_pence": 150 + 50 * (i % 4), "min_crew": 1 + i % 2, "max_crew": 2 + i % 6, "min_age": [0, 8, 12, 16][i % 4],
          "trip_minutes": [45, 60, 90, 120][i % 4], "warranty_months": [6, 12, 24][i % 3],
          "weekend_hire": i % 2 == 0, "dogs_aboard": i % 3 != 2, "cabin_heated": i % 4 == 1,
          "notes": ["A steady boat for a quiet paddle upstream.", "Roomy and easy to steer, good for a picnic.",
                    "Fast and light; best for people who have rowed before."][i % 3]}
         for i in range(30)]
COLUMNS = {"name": "Name of the boat", "kind": "The kind of boat", "mooring": "Where the boat is moored",
           "status": "Whether the boat can be hired now", "hourly_rate": "Hire price per hour in pounds",
           "deposit": "Deposit paid at the quay", "insured_value": "Estimated value of the boat",
           "hire_pence": "Price of a life jacket for the day, in pence", "min_crew": "The fewest people the boat can go out with",
           "max_crew": "The most people the boat takes", "min_age": "Youngest age allowed, in years",
           "trip_minutes": "How long a standard trip lasts, in minutes", "warranty_months": "Months of cover on a repair",
           "weekend_hire": "Whether the yard hires the boat out weekends", "dogs_aboard": "Dogs and other pets are welcome",
           "cabin_heated": "Whether the cabin is heated", "notes": "The yard's notes on the boat"}


@pytest.fixture(scope="module")
def yard(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, BOATS, "boats", COLUMNS, name="boat_yard",
                     description="A boat hire yard on the river.", table_description="Boats for hire on the river.",
                     free_text=["notes"], column_types={"weekend_hire": "bool", "dogs_aboard": "bool",
                                                        "cabin_heated": "bool"}) as fixture:
        yield fixture


def ask(fixture, question):
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return sorted(r["id"] for r in kb.execute(query.sql()).rows), rules, query


def expect(pred):
    return sorted(b["id"] for b in BOATS if pred(b))


@pytest.mark.parametrize("question, pred", [
    ("canoes under £20 an hour", lambda b: b["kind"] == "Canoe" and b["hourly_rate"] < 20),
    ("boats with a deposit under £100", lambda b: b["deposit"] < 100),
    ("boats where the deposit is less than 90 pounds", lambda b: b["deposit"] < 90),
    ("boats worth more than 1500 pounds", lambda b: b["insured_value"] > 1500),
    ("life jackets for less than £2", lambda b: b["hire_pence"] < 200),
])
def test_money_goes_to_the_money_column_the_words_name(yard, question, pred):
    rows, rules, _ = ask(yard, question)
    assert rows == expect(pred), (question, rules)


def test_a_price_verb_after_the_rows_is_no_search_word(yard):
    rows, rules, query = ask(yard, "boats costing less than £16 an hour")
    assert rows == expect(lambda b: b["hourly_rate"] < 16)
    assert not query.fts_terms


def test_a_word_no_row_has_is_left_out_and_said(yard):
    kb, spec = yard
    rows, rules, query = ask(yard, "narrowboats at Mill Quay, my sister is asking")
    assert rows == expect(lambda b: b["kind"] == "Narrowboat" and b["mooring"] == "Mill Quay")
    left = [r for r in rules if r.get("left_out")]
    assert left and "sister" in left[0]["left_out"]


def test_a_wish_the_kb_cannot_meet_is_not_left_out(yard):
    # "zzqxv" is no word: the answer stays empty; "dinghies" is a kind of boat the yard does not have (near the
    # kinds' values): it still searches, so the answer is not every boat at the quay
    rows, rules, _ = ask(yard, "zzqxv canoes at Mill Quay")
    assert rows == [] and not any(r.get("left_out") for r in rules)
    rows, rules, _ = ask(yard, "boats at Mill Quay that are dinghies")
    assert rows != expect(lambda b: b["mooring"] == "Mill Quay") and not any(r.get("left_out") for r in rules)


def test_the_reply_says_what_was_left_out(yard):
    kb, spec = yard
    from core_engine.dialogue.state import KBRecord
    from core_engine.knowledge.offline import SQLKnowledge
    record = KBRecord(var="answer", query="pedalos at Town Steps, my sister is asking")
    SQLKnowledge(kb, OfflineKnowledgeParser()).run(record, spec, [])
    assert record.result and record.note and "sister" in record.note


@pytest.mark.parametrize("question, pred", [
    ("boats that can't be hired weekends", lambda b: not b["weekend_hire"]),
    ("I can't find a canoe at Willow Reach", lambda b: b["kind"] == "Canoe" and b["mooring"] == "Willow Reach"),
    ("I've never been to Town Steps, any pedalos there?", lambda b: b["kind"] == "Pedalo" and b["mooring"] == "Town Steps"),
])
def test_a_verb_negation_negates_only_what_it_governs(yard, question, pred):
    rows, rules, _ = ask(yard, question)
    assert rows == expect(pred), (question, rules)


@pytest.mark.parametrize("question, pred", [
    ("boats you hire out weekends", lambda b: b["weekend_hire"]),
    ("dog friendly boats at Mill Quay", lambda b: b["dogs_aboard"] and b["mooring"] == "Mill Quay"),
    ("boats where dogs are not allowed", lambda b: not b["dogs_aboard"]),
    ("can I bring my dog on a canoe", lambda b: b["dogs_aboard"] and b["kind"] == "Canoe"),
])
def test_a_yes_no_column_named_by_its_description_or_a_word_of_approval(yard, question, pred):
    rows, rules, _ = ask(yard, question)
    assert rows == expect(pred), (question, rules)


def test_a_name_word_said_short_beside_another(yard):
    rows, _, _ = ask(yard, "narrowboats with a cabin that is heated")
    assert rows == expect(lambda b: b["kind"] == "Narrowboat" and b["cabin_heated"])


@pytest.mark.parametrize("question, pred", [
    ("trips under an hour and a half", lambda b: b["trip_minutes"] < 90),
    ("trips longer than an hour", lambda b: b["trip_minutes"] > 60),
    ("boats whose trips last 120 minutes", lambda b: b["trip_minutes"] == 120),
    ("repairs with a 24 month warranty", lambda b: b["warranty_months"] == 24),
])
def test_half_hours_and_measures(yard, question, pred):
    rows, rules, _ = ask(yard, question)
    assert rows == expect(pred), (question, rules)


def test_an_age_against_the_youngest_allowed(yard):
    rows, _, _ = ask(yard, "canoes for my 10 year old")
    assert rows == expect(lambda b: b["kind"] == "Canoe" and b["min_age"] <= 10)


def test_people_against_the_most_and_the_fewest(yard):
    rows, _, _ = ask(yard, "a boat that fits 5 people")
    assert rows == expect(lambda b: b["max_crew"] >= 5 and b["min_crew"] <= 5)
    _, rules, _ = ask(yard, "a boat that takes 2 dogs")  # a count of something else: no crew condition
    assert not any(r.get("column") in ("max_crew", "min_crew") for r in rules)


@pytest.mark.parametrize("question, pred", [
    ("which boats are free at the moment", lambda b: b["status"] == "Vacant"),
    ("any canoes available at Mill Quay?", lambda b: b["status"] == "Vacant" and b["kind"] == "Canoe"
     and b["mooring"] == "Mill Quay"),
    ("which boats are not available", lambda b: b["status"] != "Vacant"),
])
def test_status_words_ask_for_rows_that_can_be_had(yard, question, pred):
    rows, rules, _ = ask(yard, question)
    assert rows == expect(pred), (question, rules)


def test_free_before_a_thing_is_no_status(yard):
    _, rules, query = ask(yard, "boats with free life jackets")
    assert not any(r.get("match") == "available" for r in rules)


def test_a_superlative_limits_by_the_noun_it_is_said_of(yard):
    _, rules, query = ask(yard, "the cheapest narrowboat")
    assert query.limit == 1
    _, rules, query = ask(yard, "the cheapest canoes")
    assert query.limit != 1
    rows, rules, query = ask(yard, "which trip lasts the longest")
    assert query.limit == 1 and not query.fts_terms


def test_a_kind_named_by_its_last_word(yard):
    rows, _, _ = ask(yard, "any launches at Town Steps?")  # "Motor launch"
    assert rows == expect(lambda b: b["kind"] == "Motor launch" and b["mooring"] == "Town Steps")
    rows, _, _ = ask(yard, "a boat at Willow Reach")  # "boat" is the rows' own noun, not the kind "Rowing boat"
    assert rows == expect(lambda b: b["mooring"] == "Willow Reach")


@pytest.mark.parametrize("question, pred", [
    ("a boat for a family of five", lambda b: b["max_crew"] >= 5 and b["min_crew"] <= 5),
    ("trips of more than half an hour", lambda b: b["trip_minutes"] > 30),
    ("boats worth more than two thousand pounds", lambda b: b["insured_value"] > 2000),
])
def test_people_in_a_group_and_numbers_in_words(yard, question, pred):
    rows, rules, _ = ask(yard, question)
    assert rows == expect(pred), (question, rules)


CLASSES = [{"id": f"c{i:02d}", "name": f"{['Pottery', 'Life Drawing', 'Watercolour', 'Printmaking'][i % 4]} {i}",
            "level": ["Beginner", "Improver", "Advanced"][i % 3], "status": ["Open", "Full"][i % 2],
            "days": [["Monday"], ["Tuesday", "Thursday"], ["Saturday"]][i % 3],
            "price_member": 60.0 + 10 * (i % 6), "price_nonmember": 80.0 + 12 * (i % 6),
            "class_size": [6, 8, 10, 12][i % 4], "min_age": [12, 16, 18][i % 3], "floodlit": i % 2 == 0,
            "max_bedrooms": 1 + i % 5, "notes": ["Small friendly group in the old mill.", "Bring an apron.",
                                                  "All materials supplied; kilns on site."][i % 3]}
           for i in range(24)]
CLASS_COLUMNS = {"name": "Name of the class", "level": "Level of the class", "status": "Whether places are left: Open or Full",
                 "days": "Days of the week the class meets", "price_member": "Fee for members in pounds",
                 "price_nonmember": "Fee for non-members in pounds", "class_size": "Maximum number of learners in the class",
                 "min_age": "Minimum age of learners", "floodlit": "Whether the yard is floodlit for evening classes",
                 "max_bedrooms": "Bedrooms in the cottage let with a residential week",
                 "notes": "About the class"}


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, CLASSES, "classes", CLASS_COLUMNS, name="art_studio",
                     description="An art studio's class desk.", table_description="Art classes.",
                     free_text=["notes"], column_types={"floodlit": "bool"}) as fixture:
        yield fixture


def expect_class(pred):
    return sorted(c["id"] for c in CLASSES if pred(c))


@pytest.mark.parametrize("question, pred", [
    ("classes with a non-member price under £100", lambda c: c["price_nonmember"] < 100),
    ("a small group, 8 people max", lambda c: c["class_size"] <= 8),
    ("is there anything that meets on Tuesdays?", lambda c: "Tuesday" in c["days"]),
    ("classes for complete beginners", lambda c: c["level"] == "Beginner"),
    ("beginner classes for less than a hundred quid as a member", lambda c: c["level"] == "Beginner"
     and c["price_member"] < 100),
    ("which classes have floodlights?", lambda c: c["floodlit"]),
    ("a residential week for a 3 bedroom family", lambda c: c["max_bedrooms"] >= 3),
    ("classes my 14 year old can join", lambda c: c["min_age"] <= 14),
])
def test_second_pass_rules(studio, question, pred):
    rows, rules, _ = ask(studio, question)
    assert rows == expect_class(pred), (question, rules)


def test_a_yes_no_question_about_the_one_row_shows_it(studio):
    rows, rules, query = ask(studio, "is the Pottery 4 class floodlit?")
    assert rows == ["c04"] and "floodlit" in query.asked


def test_a_negation_stops_at_a_noun(yard):
    _, rules, _ = ask(yard, "boats with no engine at Mill Quay")
    assert not any(r.get("negated") for r in rules if r.get("column") == "mooring")
    rows, _, _ = ask(yard, "boats not moored at Mill Quay")
    assert rows == expect(lambda b: b["mooring"] != "Mill Quay")


def test_no_longer_than_is_at_most(yard):
    rows, _, _ = ask(yard, "trips no longer than an hour")
    assert rows == expect(lambda b: b["trip_minutes"] <= 60)


def test_free_of_charge_is_no_status(yard):
    _, rules, _ = ask(yard, "boats you can take out for free")
    assert not any(r.get("match") == "available" for r in rules)


def test_a_count_of_people_is_no_price_per_person(yard):
    _, rules, _ = ask(yard, "a 4 person boat at Town Steps")
    assert not any(r.get("column") in ("hourly_rate", "deposit", "hire_pence") for r in rules)


def test_under_an_age_in_the_plural(studio):
    rows, _, _ = ask(studio, "classes for under 14s")
    assert rows == expect_class(lambda c: c["min_age"] < 14)
