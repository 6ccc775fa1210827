"""KB questions whose condition is said as a phrase, on a campsite's pitches written here (session 9, the lead).

A word right after a condition's words says more about that condition, not another one ("a wheelchair user",
"a permit to stay"), so it is no free-text filter beside it; a short first word of a list item names the item
("dog" for "dog friendly"), unless it was only read by a spelling guess; "fits 10 people", "sleeps 5" and "for 4
people" ask for at least that many on the one column that counts people. Every expected answer is computed from
PITCHES: rows, not SQL text.
"""

from __future__ import annotations

import pytest

from tests.fakes.kbs import ask, kb_and_spec

KINDS = ["Tent", "Caravan", "Glamping Pod", "Campervan"]
PITCHES = [{"id": f"p{i:02d}", "name": f"{['Oak', 'Birch', 'Heather', 'Fern', 'Brook'][i % 5]} {i}",
            "kind": KINDS[i % 4], "berths": 2 + i % 5, "price": 15.0 + 5 * (i % 4),
            "permit_needed": i % 6 == 0,
            "features": [f for f, on in (("dog friendly", i % 3 == 0), ("wheelchair access", i % 5 == 1),
                                         ("fire pit", i % 2 == 0), ("hot tub", i % 7 == 2)) if on],
            "notes": ["Flat ground near the stream, a short walk from the toilets.",
                      "Sheltered by old oaks; the user of the fire pit must bring their own logs.",
                      "Open views over the valley, windy in autumn."][i % 3]}
           for i in range(20)]
COLUMNS = {"name": "Name of the pitch", "kind": "Tent, caravan, glamping pod or campervan pitch",
           "berths": "How many people it sleeps", "price": "Price per night in pounds",
           "permit_needed": "A fishing or fire permit is needed", "features": "What the pitch has",
           "notes": "The warden's notes"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, PITCHES, "pitches", COLUMNS, name="campsite",
                     description="A campsite: answers questions about its pitches.",
                     table_description="The campsite's pitches.", free_text=["notes"],
                     column_types={"berths": "int", "price": "float", "permit_needed": "bool",
                                   "features": "list"}) as pair:
        yield pair


def expect(pred):
    return sorted(r["id"] for r in PITCHES if pred(r))


def test_a_word_after_a_conditions_words_is_no_filter_beside_it(site):
    rows, rules = ask(site, "which pitches need a permit to stay")
    assert rows == expect(lambda r: r["permit_needed"])
    assert any(r["rule"] == "ignored" and "stay" in r["words"] for r in rules)
    rows, _ = ask(site, "pitches for a wheelchair user")  # one row's notes say "user": not a filter
    assert rows == expect(lambda r: "wheelchair access" in r["features"])


def test_a_word_before_a_condition_still_filters(site):
    rows, rules = ask(site, "windy caravan pitches")
    assert not any(r["rule"] == "ignored" and "windy" in r["words"] for r in rules)
    assert rows and all(r["kind"] == "Caravan" and "windy" in r["notes"].lower()
                        for r in PITCHES if r["id"] in rows)


def test_a_short_first_word_names_a_list_item(site):
    rows, _ = ask(site, "which pitches can I bring my dog to")
    assert rows == expect(lambda r: "dog friendly" in r["features"])


def test_how_many_it_holds_is_at_least_that_many_on_the_people_column(site):
    for question, n in (("anything that sleeps 5?", 5), ("a caravan pitch for 4 people", 4),
                        ("which pitches fit six people", 6)):
        rows, rules = ask(site, question)
        assert any(r["rule"] == "compare" and r["column"] == "berths" and r["op"] == ">=" and r["value"] == n
                   for r in rules), (question, rules)
        assert rows and all(r["berths"] >= n for r in PITCHES if r["id"] in rows)
    _rows, rules = ask(site, "a tent pitch for 4 nights")  # "for 4" with no people said: not a head count
    assert not any(r["rule"] == "compare" and r["column"] == "berths" for r in rules)


def test_a_word_that_only_says_how_much_is_no_filter(site):
    rows, _ = ask(site, "a proper caravan pitch")  # no note says "proper": it would have emptied the answer
    assert rows == expect(lambda r: r["kind"] == "Caravan")
