"""Turn shapes from session 38's reading of the development agents' misreadings, pinned on a sign and banner
printer's spec written here (not a sample, not a development agent): sizes said for measure fields ("120cm wide by
80 high", "300 x 100", "2m 40"), a developer's example said word for word, a row named by part of its name, a
colour the chosen row comes in, an option whose field the chosen row rules out, a reference corrected while its
task is open, the value asked for before a dash and a question, and a word that names another task not choosing an
option. One test per mechanism; each fails
without it, except the guards, which keep a rule from reaching too far.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_with_kb, field, statements, talk, task_choice

SPEC = {
    "name": "signal_signs", "starting_prompt": "Hello, Signal Signs and Banners.",
    "description": "A sign and banner printer: printed banners and boards, and shop signs fitted.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Order Print", "description": "order printed banners or boards",
                     "examples": ["I want to buy a wind mesh banner", "can I get some boards printed"]},
                    {"value": "Book Installation", "description": "book the installation of a new shop sign"},
                    {"value": "Check Job", "description": "check on an installation or a print job already booked"},
                    {"value": "Report Problem", "description": "report a problem with something we printed"}),
        {"name": "OrderPrint", "kind": "task", "predicate": 'main.task == "Order Print"', "fields": [
            field("product", "Material", "The material from our range"),
            field("colour", "str", "The colour you would like"),
            field("width_cm", "int", "The width in centimetres"),
            field("height_cm", "int", "The height in centimetres"),
            field("quantity", "int", "How many you need"),
            field("eyelets", "Enum", "The eyelets along the edge", predicate='self.product.category == "Banner"',
                  enum_values=[{"value": "Corners Only"}, {"value": "Every 50cm"}]),
            field("customer_name", "str", "Your full name"),
            field("phone", "str", "A phone number to reach you"),
            field("confirm", "confirm", "Place the order")]},
        {"name": "BookInstallation", "kind": "task", "predicate": 'main.task == "Book Installation"', "fields": [
            field("install_date", "date", "The day of the installation"),
            field("phone", "str", "A phone number the fitter can call"),
            field("confirm", "confirm", "Book the installation")]},
        {"name": "CheckJob", "kind": "task", "predicate": 'main.task == "Check Job"', "fields": [
            field("job_reference", "str", "The job reference, like SG-40212")]},
        {"name": "ReportProblem", "kind": "task", "predicate": 'main.task == "Report Problem"', "fields": [
            field("problem_type", "Enum", "What kind of problem it is", enum_values=[
                {"value": "Faded Print", "description": "the colours have faded or run"},
                {"value": "Late Delivery", "description": "the order has not arrived on time"},
                {"value": "Wrong Size", "description": "printed to the wrong measurements"}]),
            field("order_reference", "str", "The order reference, like SG-40212"),
            field("phone", "str", "A phone number to reach you"),
            field("confirm", "confirm", "Send the report")]},
        {"name": "materials", "kind": "kb", "fields": [
            field("id"), field("name"), field("category"), field("colours", "List[str]"),
            field("price", "float", "Price in pounds"), field("description", "str", "What it is good for")]},
        {"name": "Material", "kind": "type", "fields": [
            field("id"), field("name"), field("category"), field("colours", "List[str]"),
            field("price", "float", "Price in pounds"), field("description", "str", "What it is good for")]},
    ],
}
MATERIALS = [
    {"id": "m1", "name": "Heavy Vinyl Banner", "category": "Banner", "colours": ["White", "Red", "Navy"],
     "price": 40.0, "description": "a tough outdoor banner for fences and scaffolding"},
    {"id": "m2", "name": "Wind Mesh Banner", "category": "Banner", "colours": ["White", "Black"],
     "price": 55.0, "description": "a mesh banner that lets the wind through, for high places"},
    {"id": "m3", "name": "Foamex Board", "category": "Board", "colours": ["White", "Yellow"],
     "price": 25.0, "description": "a light rigid board for indoor signs"},
    {"id": "m4", "name": "Dibond Board", "category": "Board", "colours": ["Silver", "White"],
     "price": 60.0, "description": "an aluminium composite board for shop fronts"},
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "signs", SPEC, {"materials": (MATERIALS, ["description"])})


def _last(agent, *turns):
    _s, results = talk(agent, *turns)
    return statements(results[-1])


ORDER = "I'd like to order a Heavy Vinyl Banner"


# -- sizes -------------------------------------------------------------------------------------------------------


def test_sizes_said_with_their_measure_words_fill_their_fields(agent):
    got = _last(agent, ORDER, "white please", "it's 80cm high by 120 wide")
    assert "order_print.width_cm = 120" in got and "order_print.height_cm = 80" in got


def test_a_size_said_as_two_numbers_is_width_then_height(agent):
    got = _last(agent, ORDER, "white please", "300 x 100")
    assert got == ["order_print.width_cm = 300", "order_print.height_cm = 100"]


def test_a_size_in_metres_is_turned_into_the_fields_centimetres(agent):
    got = _last(agent, ORDER, "white please", "2m 40 wide and 1.5m high")
    assert got == ["order_print.width_cm = 240", "order_print.height_cm = 150"]
    assert _last(agent, ORDER, "white please", "about 2 metres") == ["order_print.width_cm = 200"]


@pytest.mark.parametrize("said", ["we need it for 2 long weeks", "drop off 2 boards on friday", "a 3 x 5 day job",
                                  "room 12 by the stairs"])
def test_guard_a_number_beside_a_word_that_only_looks_like_a_measure_is_no_size(said):
    from core_engine.dialogue.state import TaskRecord
    from core_engine.parsers.offline.words.measures.dimensions import measures
    from core_engine.spec.model import Spec
    spec = Spec.model_validate(SPEC)
    fields = [(TaskRecord(var="order_print", worksheet="OrderPrint"), f) for f in spec.worksheet("OrderPrint").fields
              if f.name in ("width_cm", "height_cm")]
    assert measures(said, fields, {"width_cm": "int", "height_cm": "int"}) == []


# -- tasks and rows ----------------------------------------------------------------------------------------------


def test_a_developers_example_said_word_for_word_is_read_for_certain(agent):
    from core_engine.parsers.offline.words.semantic_index import index_for
    index = index_for(agent.spec)
    tasks = lambda e: e.kind in ("task", "enum")  # noqa: E731
    said = index.said_verbatim("Hi, I want to buy a wind mesh banner please!", tasks)
    assert said is not None and said.best.value == "Order Print" and said.score == 1.0
    assert index.said_verbatim("I want to buy a", tasks) is None  # part of an example is no example


def test_a_row_named_by_part_of_its_name_fills_the_row_field(agent):
    got = _last(agent, "can I order one of those wind mesh ones in black")
    assert any('product=answer("Wind Mesh Banner")' in s for s in got), got


def test_guard_a_phrase_in_two_rows_names_neither(agent):
    got = _last(agent, "can I order one of the vinyl banner ones please")
    assert not any("Wind Mesh" in s for s in got)


def test_a_colour_the_chosen_row_comes_in_is_read_beside_the_choice(agent):
    got = _last(agent, "I'd like to order a banner", "the mesh ones, in black")
    assert got == ["order_print.product = answer.result[1]", 'order_print.colour = "Black"'], got


def test_an_option_whose_field_the_chosen_row_rules_out_is_not_chosen(agent):
    from core_engine.parsers.offline.opening.options import ruled_out
    eyelets = agent.spec.worksheet("OrderPrint").field("eyelets")
    assert ruled_out(eyelets, {}, {"product": {"category": "Board"}})
    assert not ruled_out(eyelets, {}, {"product": {"category": "Banner"}})
    assert not ruled_out(eyelets, {}, {"product": {"name": "Foamex Board"}})  # its category unknown: undecided


def test_a_word_naming_another_task_chooses_no_option(agent):
    got = _last(agent, "ok I'll order 2 of those in navy")
    assert got and got[0] == 'main.task = "Order Print"' and not any("Late Delivery" in s for s in got), got


def test_a_reference_corrected_while_its_task_is_open_is_no_switch(agent):
    got = _last(agent, "I need to report a problem, the print on my banner has faded", "order SG-40212",
                "hmm actually the order number is SG-40122, sorry")
    assert got == ['report_problem.order_reference = "SG-40122"']


def test_the_value_asked_for_then_a_dash_and_a_question(agent):
    got = _last(agent, "I need to report a problem, the print on my banner has faded", "order SG-40212",
                "07700 900123 - will someone call me today?")
    assert got[0] == 'report_problem.phone = "07700 900123"'
