"""KB questions on a plant-hire yard the knowledge parser was never written for (session 14, helper E).

A name's near spelling that is an English word of its own ("garden" near the name word "Arden"), a superlative
followed by a column's name ("the lowest hire fee" while a rating column is there), the superlative's own
adjective said again ("how big is the biggest"), two values of one column joined by "or" where one is a word
form ("cheap or moderately priced"), a yes/no column whose name holds a number and a unit ("24 hour" for
`repairs_24h`) or "weekends" ("on a saturday"), and the words of the asked column's description ("a week" for
"Litres of diesel it burns per week"). Every expected answer is computed from MACHINES, not SQL text.
"""

from __future__ import annotations

import pytest

from core_engine.knowledge.offline import OfflineKnowledgeParser
from tests.fakes.kbs import ask, kb_and_spec

KINDS = ["Excavator", "Dumper", "Mixer", "Roller"]
DEPOTS = ["Ashford", "Dover", "Hythe"]
BANDS = ["cheap", "moderate", "expensive"]
NAMES = ("Arden Pelham Quarry Rook Saxon Tern Upton Vale Wren Yarrow Bexley Cobb Dunmore Elwick Fenton Gilby "
         "Harrow Ilkley Jessop Kinver Lydd Marden Nyland Orwell").split()
MACHINES = [{"id": f"m{i:02d}", "name": f"{NAMES[i]} {KINDS[i % 4]}", "kind": KINDS[i % 4],
             "depot": DEPOTS[i % 3], "price_band": BANDS[(i // 2) % 3], "capacity": 100 + (i * 37) % 400,
             "hire_fee": 40.0 + (i * 13) % 90, "rating": round(3.0 + ((i * 7) % 20) / 10, 1),
             "fuel_litres": 20 + (i * 11) % 60, "repairs_24h": i % 3 == 1, "available_weekends": i % 4 in (0, 3),
             "notes": ["A big machine for building sites, delivered on a low loader.",
                       "Compact enough for a back garden; goes through a side gate.",
                       "Quiet electric drive for indoor work."][i % 3]}
            for i in range(24)]
COLUMNS = {"name": "Name of the machine", "kind": "Excavator, dumper, mixer or roller", "depot": "The depot it is hired from",
           "price_band": "How pricey the hire is", "capacity": "Capacity in litres",
           "hire_fee": "Hire fee per day in pounds", "rating": "Customer rating out of 5",
           "fuel_litres": "Litres of diesel it burns per week", "repairs_24h": "Breakdowns are repaired day and night",
           "available_weekends": "Can be hired for Saturday and Sunday", "notes": "The yard's notes"}
TYPES = {"capacity": "int", "hire_fee": "float", "rating": "float", "fuel_litres": "int",
         "repairs_24h": "bool", "available_weekends": "bool"}


@pytest.fixture(scope="module")
def yard(tmp_path_factory):
    with kb_and_spec(tmp_path_factory, MACHINES, "machines", COLUMNS, name="plant_hire",
                     description="A plant-hire yard: answers questions about the machines it hires out.",
                     table_description="The machines for hire.", free_text=["notes"], column_types=TYPES) as pair:
        yield pair


def expect(pred):
    return sorted(r["id"] for r in MACHINES if pred(r))


def ordered(fixture, question):
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return [r["id"] for r in kb.execute(query.sql()).rows], rules


def test_an_english_word_near_a_name_word_is_no_misspelt_name(yard):
    rows, rules = ask(yard, "a dumper for a back garden")
    assert not [r for r in rules if str(r.get("match", "")).startswith("name")]
    assert rows and set(rows) <= set(expect(lambda r: r["kind"] == "Dumper"))


def test_a_superlative_followed_by_a_column_name_orders_by_that_column(yard):
    rows, rules = ordered(yard, "excavators in Dover with the lowest hire fee")
    mine = sorted((r for r in MACHINES if r["kind"] == "Excavator" and r["depot"] == "Dover"), key=lambda r: r["hire_fee"])
    assert rows[0] == mine[0]["id"]
    assert any(r["rule"] == "order" and r["column"] == "hire_fee" and r["direction"] == "ASC" for r in rules)


def test_the_superlatives_own_adjective_searches_nothing(yard):
    rows, _ = ordered(yard, "how big is your biggest mixer?")
    mixers = [r for r in MACHINES if r["kind"] == "Mixer"]
    assert rows == [max(mixers, key=lambda r: r["capacity"])["id"]]


def test_two_values_of_one_column_joined_by_or_keep_a_word_form(yard):
    rows, _ = ask(yard, "cheap or moderately priced rollers")
    assert rows == expect(lambda r: r["kind"] == "Roller" and r["price_band"] in ("cheap", "moderate"))


def test_a_number_and_unit_in_a_yes_no_columns_name(yard):
    rows, _ = ask(yard, "dumpers with 24 hour repairs")
    assert rows == expect(lambda r: r["kind"] == "Dumper" and r["repairs_24h"])
    rows, _ = ask(yard, "mixers with 24-hour repairs")
    assert rows == expect(lambda r: r["kind"] == "Mixer" and r["repairs_24h"])


def test_a_day_of_the_weekend_names_a_weekends_column(yard):
    rows, _ = ask(yard, "a roller available on a saturday")
    assert rows == expect(lambda r: r["kind"] == "Roller" and r["available_weekends"])


DEPOT_ROWS = [{"id": f"d{i}", "town": t, "address": f"{i + 3} Yard Lane, {t}", "phone": f"01303 55{i}00"}
              for i, t in enumerate(DEPOTS)]


@pytest.fixture(scope="module")
def yard_and_depots(tmp_path_factory):
    """The yard with a second table (its depots), so the column a wh-question asks for is read."""
    from storage.kb.importer import import_records

    with kb_and_spec(tmp_path_factory, MACHINES, "machines", COLUMNS, name="plant_hire_two",
                     description="A plant-hire yard: answers questions about the machines it hires out.",
                     table_description="The machines for hire.", free_text=["notes"], column_types=TYPES) as (kb, spec):
        kb.close()
        import_records(kb.path, DEPOT_ROWS, "depots")
        from core_engine.knowledge.kb import SQLiteKB
        from core_engine.spec.model import Field, Worksheet

        spec.worksheets.append(Worksheet(name="depots", kind="kb", description="The yard's depots.", fields=[
            Field(name="town", description="Town of the depot"), Field(name="address", description="Street address"),
            Field(name="phone", description="Phone number of the depot")]))
        with SQLiteKB(kb.path) as both:
            yield both, spec


def test_the_asked_columns_description_words_are_no_search(yard_and_depots):
    rows, _ = ask(yard_and_depots, "how many litres of diesel a week does the Pelham dumper burn")
    assert rows == ["m01"]
    rows, _ = ask(yard_and_depots, "how much diesel a week do excavators burn in Dover")
    assert rows == expect(lambda r: r["kind"] == "Excavator" and r["depot"] == "Dover")


FLEET = [{"machine_id": 500 + i, "fleet_codes": [f"{['EX', 'DU', 'MX'][i % 3]} {110 + 10 * i}"],
          "title": f"{NAMES[i]} unit"} for i in range(12)]
SERVICES = [{"service_id": i, "machine_id": 500 + i % 12, "engine_hours": 50 + 15 * i,
             "comments": ["Oil changed and filters cleaned.", "New track fitted after wear.", "Hydraulic hose replaced."][i % 3]}
            for i in range(36)]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    """Machines by fleet code, and their services in a second table joined on machine_id."""
    from storage.kb.importer import import_records

    with kb_and_spec(tmp_path_factory, FLEET, "fleet", {"machine_id": "Machine id", "fleet_codes": "Fleet codes such "
                     "as EX 120", "title": "Name of the machine"}, name="plant_fleet",
                     description="A plant-hire yard's fleet and its service history.",
                     table_description="The machines by fleet code.", column_types={"machine_id": "int"}) as (kb, spec):
        kb.close()
        import_records(kb.path, SERVICES, "services", column_types={"engine_hours": "int"}, free_text=["comments"])
        from core_engine.knowledge.kb import SQLiteKB
        from core_engine.spec.model import Field, Worksheet

        spec.worksheets.append(Worksheet(name="services", kind="kb", description="Services and repairs done.", fields=[
            Field(name="service_id", description="Service id"), Field(name="machine_id", description="Machine id"),
            Field(name="engine_hours", description="Engine hours at the service"),
            Field(name="comments", description="Mechanic's comments")]))
        with SQLiteKB(kb.path) as both:
            yield both, spec


def test_a_value_of_another_table_is_no_word_of_its_description_for_the_table_choice(fleet):
    kb, spec = fleet
    query, rules = OfflineKnowledgeParser().parse("comments of EX 140", kb, spec)
    rows = kb.execute(query.sql()).rows
    code = next(r for r in FLEET if r["fleet_codes"] == ["EX 140"])
    assert rows and {r["service_id"] for r in rows} == {s["service_id"] for s in SERVICES
                                                         if s["machine_id"] == code["machine_id"]}


def test_a_code_of_a_joined_table_is_no_number_of_the_chosen_tables_columns(fleet):
    kb, spec = fleet  # "140" is in the range of engine_hours, but it is part of the fleet code "EX 140"
    query, _rules = OfflineKnowledgeParser().parse("service comments of EX 140", kb, spec)
    code = next(r for r in FLEET if r["fleet_codes"] == ["EX 140"])
    assert {r["service_id"] for r in kb.execute(query.sql()).rows} == {
        s["service_id"] for s in SERVICES if s["machine_id"] == code["machine_id"]}
