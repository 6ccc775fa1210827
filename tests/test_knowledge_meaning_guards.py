"""Values read by meaning only where meaning is safe, and comparisons named later in their clause.

A tool library's shelf written here (not a sample, not a held-out agent). An embedding puts a word next to
the value that negates it ("insuring" ~ "Not Insured") or generalises it ("large" ~ "any size"), and next to a
list value when the word belongs to a phrase of the rows' own text ("dust bags" ~ "bagged"): none of these is
a condition. "2 or more of in one loan" names its column by a word after the number.
"""

from __future__ import annotations

import pytest

from core_engine.knowledge.offline import OfflineKnowledgeParser
from tests.fakes.kbs import kb_and_spec


def _tool(i, name, category, cover, forms, fee, most, notes):
    return {"id": f"t{i:02d}", "name": name, "category": category, "cover": cover, "forms": forms, "fee": fee,
            "max_per_loan": most, "notes": notes}


TOOLS = [
    _tool(1, "Hedge Trimmer", "Garden", "Fully Covered", ["cleaned", "blade guard on"], 4.0, 1,
          "Electric hedge trimmer with a spare blade. Return it with the blade guard fitted."),
    _tool(2, "Wheelbarrow", "Garden", "Fully Covered", ["cleaned", "any size"], 2.0, 2,
          "Steel barrow with a pneumatic tyre, good for soil and gravel."),
    _tool(3, "Pressure Washer", "Cleaning", "Deposit Only", ["drained", "hose coiled"], 8.0, 1,
          "Used on our yard only; bring patio slabs or bike frames to clean."),
    _tool(4, "Folding Chairs", "Events", "Fully Covered", ["stacked", "folded"], 0.5, 20,
          "Plastic folding chairs for parties and meetings."),
    _tool(5, "Gazebo", "Events", "Fully Covered", ["packed in its bag", "poles counted"], 10.0, 1,
          "Three by three metre gazebo with side walls and pegs."),
    _tool(6, "Chainsaw", "Garden", "Not Insured", ["any size"], 0.0, 0,
          "We do not lend chainsaws; ask about our tree surgeon list."),
    _tool(7, "Paint Sprayer", "Decorating", "Fully Covered", ["cleaned", "nozzle soaked"], 6.0, 1,
          "Airless sprayer for fences and walls, with paper masks and dust bags."),
    _tool(8, "Trestle Tables", "Events", "Fully Covered", ["folded"], 1.5, 6,
          "Six foot trestle tables for fetes and jumble sales."),
    _tool(9, "Carpet Cleaner", "Cleaning", "Fully Covered", ["drained", "bagged"], 7.0, 1,
          "Upright carpet cleaner; bring your own shampoo or buy a bottle here."),
    _tool(10, "Ladder", "Decorating", "Not Insured", ["any size", "folded"], 3.0, 2,
          "Aluminium step ladders and a six metre extension ladder."),
]
COLUMNS = {"id": "Tool id", "name": "Name of the tool", "category": "Garden, Cleaning, Events or Decorating",
           "cover": "What our cover pays for if it breaks", "forms": "How it must come back",
           "fee": "Fee in pounds per day", "max_per_loan": "Most of these lent in one loan",
           "notes": "What the tool is and how to use it"}


@pytest.fixture(scope="module")
def tools(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, TOOLS, "tools", COLUMNS, name="tool_library", description="A tool library.",
                     table_description="Tools the library lends.", free_text=["notes"]) as fixture:
        yield fixture


def ask(fixture, question):
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return [r["id"] for r in kb.execute(query.sql()).rows], query.sql(), rules


def ids(pred):
    return sorted(t["id"] for t in TOOLS if pred(t))


def test_a_word_is_not_read_by_meaning_as_the_value_that_negates_it(tools):
    rows, sql, _ = ask(tools, "what about insuring the gazebo")  # "insuring" ~ "Not Insured" (0.61)
    assert rows == ["t05"] and "Not Insured" not in sql


def test_a_word_is_not_read_by_meaning_as_a_value_that_says_any_of_its_kind(tools):
    _, sql, rules = ask(tools, "which large tools are for the garden")  # "large" ~ "any size" (0.69)
    assert "any size" not in sql
    assert any(r.get("column") == "category" and r.get("value") == "Garden" for r in rules)


def test_a_word_of_a_phrase_the_rows_text_says_is_searched_not_read_as_a_value(tools):
    rows, sql, rules = ask(tools, "which tools come with dust bags")  # "bags" ~ "bagged" (0.73)
    assert rows[:1] == ["t07"] and "bagged" not in sql
    assert any(r.get("phrase") == "dust bags" for r in rules)


def test_a_word_later_in_the_clause_names_the_compared_column(tools):
    rows, sql, _ = ask(tools, "which tools can I have 2 or more of in one loan")
    assert sorted(rows) == ids(lambda t: t["max_per_loan"] >= 2) and "max_per_loan" in sql


def test_put_is_no_search_word(tools):
    rows, _, _ = ask(tools, "what can I put out folded")
    assert sorted(rows) == ids(lambda t: "folded" in t["forms"])
