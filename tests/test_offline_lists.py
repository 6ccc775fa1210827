"""Lists of nested items (core_engine/parsers/offline/lists/ and kb_rows/items.py).

Pinned on two specs written here (not a sample, not a held-out agent): a florist whose order holds a
list worksheet of bunches named by KB rows (a bunch's name field says the table `bunches` and its column
`name`), and a parts counter whose list holds two parts plus a third behind a yes/no, named by codes.
Each test is one way people talk about such lists: several items with their own options in one turn,
"add X too", "just those two", "swap X for Y", "drop the second one", "both matte", "3 each",
"4 for the first, 2 for the second", "same for this one", "gloss, 4".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.session.agent import Agent

from tests.fakes.specs import field, statements, talk, task_choice

SIZES = [{"value": "Small", "description": "a handful of stems"},
         {"value": "Large", "description": "a big armful of stems"}]
FLORIST = {
    "name": "florist", "starting_prompt": "Hello! How can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Send Flowers", "description": "send one or more bunches of flowers to someone"}),
        {"name": "FlowerOrder", "kind": "task", "predicate": 'task == "Send Flowers"', "api": "send", "fields": [
            field("bunches", "BunchList", "The bunches to send"),
            field("delivery_day", "date", "The day of delivery"),
            field("confirm", "confirm", "Confirm the order")]},
        {"name": "BunchList", "kind": "task", "fields": [
            field("first_bunch", "Bunch", "The first bunch"),
            field("add_second", "bool", "Whether you want a second bunch"),
            field("second_bunch", "Bunch", "The second bunch", predicate="self.add_second == True"),
            field("add_third", "bool", "Whether you want a third bunch", predicate="self.add_second == True"),
            field("third_bunch", "Bunch", "The third bunch", predicate="self.add_third == True")]},
        {"name": "Bunch", "kind": "task", "fields": [
            field("bunch_name", description="The name of the bunch"),
            field("size", "Enum", "How big the bunch is", enum_values=SIZES),
            field("copies", "int", "How many of this bunch")]},
        {"name": "bunches", "kind": "kb", "fields": [
            field("id", primary_key=True), field("name", description="Name of the bunch"),
            field("description", description="What is in it", free_text=True)]},
    ],
    "apis": [{"name": "send"}],
}
BUNCHES = [("b1", "Spring Tulips", "Tulips in five colours."), ("b2", "Red Roses", "A dozen long red roses."),
           ("b3", "Wild Meadow", "Poppies, daisies and grasses."), ("b4", "Sunflower Burst", "Sunflowers and wheat."),
           ("b5", "White Lilies", "Scented white lilies.")]
FINISHES = [{"value": "Matte", "description": "a dull surface"}, {"value": "Gloss", "description": "a shiny surface"}]
PARTS = {
    "name": "parts counter", "starting_prompt": "Which parts do you need?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "api": "order", "fields": [
            field("parts", "PartList", "The parts to order"),
            field("buyer_name", description="Your full name"),
            field("confirm", "confirm", "Confirm the order")]},
        {"name": "PartList", "kind": "task", "fields": [
            field("part_0", "Part", "The first part"),
            field("part_1", "Part", "The second part"),
            field("more_2", "bool", "Whether you want a third part"),
            field("part_2", "Part", "The third part", predicate="self.more_2 == True")]},
        {"name": "Part", "kind": "task", "fields": [
            field("part_code", description="The part code"),
            field("finish", "Enum", "The surface finish", enum_values=FINISHES),
            field("quantity", "int", "How many pieces")]},
    ],
    "apis": [{"name": "order"}],
}


def _agent(root: Path, spec: dict, rows: list | None = None) -> Agent:
    (root / "spec.json").write_text(json.dumps(spec))
    if rows:
        (root / "data").mkdir()
        (root / "data" / "bunches.jsonl").write_text(
            "".join(json.dumps(dict(zip(["id", "name", "description"], r))) + "\n" for r in rows))
    return Agent.load(root)


@pytest.fixture(scope="module")
def florist(tmp_path_factory) -> Agent:
    return _agent(tmp_path_factory.mktemp("florist"), FLORIST, BUNCHES)


@pytest.fixture(scope="module")
def parts(tmp_path_factory) -> Agent:
    return _agent(tmp_path_factory.mktemp("parts"), PARTS)


def values(session, var: str) -> dict:
    rec = next((r for r in session.state["records"] if r["var"] == var), None)
    return {k: v for k, v in rec["values"].items() if not isinstance(v, dict)} if rec is not None else {}


def asked(result) -> tuple[str, str] | None:
    return next(((a["var"], a["field"]) for a in result.acts if a.get("act") == "ask"), None)


# ---------------------------------------------------------------- items named by KB rows, through a list worksheet

def test_items_of_a_list_worksheet_open_the_task_with_their_own_options(florist):
    session, (r,) = talk(florist, "I'd like 2 Red Roses, large, and Wild Meadow small")
    assert values(session, "main")["task"] == "Send Flowers"
    assert values(session, "bunch") == {"bunch_name": "Red Roses", "copies": 2, "size": "Large"}
    assert values(session, "bunch_2") == {"bunch_name": "Wild Meadow", "size": "Small"}
    assert values(session, "bunch_list")["add_second"] is True
    assert asked(r) == ("bunch_2", "copies")


def test_a_count_in_the_opening_clause_is_not_the_first_items(florist):
    """ "flowers for about 30 guests - X and Y": 30 belongs to the occasion, not to X."""
    session, _ = talk(florist, "I need flowers for about 30 guests - Red Roses and White Lilies")
    assert values(session, "bunch") == {"bunch_name": "Red Roses"}
    assert values(session, "bunch_2") == {"bunch_name": "White Lilies"}


def test_counted_items_are_a_request_without_a_verb(florist):
    session, _ = talk(florist, "3 Red Roses and 2 Spring Tulips")
    assert values(session, "main")["task"] == "Send Flowers"
    assert values(session, "bunch")["copies"] == 3 and values(session, "bunch_2")["copies"] == 2


def test_a_row_name_with_a_slip_in_a_word_is_still_named(florist):
    session, _ = talk(florist, "can I get 2 sunflwer burst, large")
    assert values(session, "bunch") == {"bunch_name": "Sunflower Burst", "copies": 2, "size": "Large"}


def test_add_one_too_fills_the_next_slot_and_its_yes_no(florist):
    session, (_r1, r2) = talk(florist, "I'd like 2 Red Roses, large", "yes, add White Lilies too, small")
    assert values(session, "bunch_list")["add_second"] is True
    assert values(session, "bunch_2") == {"bunch_name": "White Lilies", "size": "Small"}
    assert asked(r2) == ("bunch_2", "copies")


def test_just_those_two_says_no_to_another(florist):
    session, (r1, r2) = talk(florist, "I'd like 2 Red Roses large and 1 Wild Meadow small", "just those two")
    assert asked(r1) == ("bunch_list", "add_third")
    assert statements(r2) == ["bunch_list.add_third = False"]


def test_swap_renames_the_item_named_and_keeps_its_options(florist):
    session, (_r1, r2) = talk(florist, "I'd like 2 Red Roses, large", "actually swap the roses for Spring Tulips")
    assert statements(r2) == ['bunch.bunch_name = "Spring Tulips"']
    assert values(session, "bunch") == {"bunch_name": "Spring Tulips", "copies": 2, "size": "Large"}


def test_drop_the_last_item_switches_off_its_slot(florist):
    session, (_r1, _r2, r3) = talk(florist, "I'd like 2 Red Roses large and 1 Wild Meadow small", "no",
                                   "drop the second one, just the roses")
    assert statements(r3) == ["bunch_list.second_bunch = None", "bunch_list.add_second = False"]


def test_drop_an_earlier_item_moves_the_later_ones_up(parts):
    session, (*_rest, r) = talk(parts, "KX 40, KY 52 and KZ 61", "matte", "2", "gloss", "3", "matte", "4", "no",
                                "remove KX 40")
    assert statements(r) == ['part_list.part_0 = Part(part_code="KY 52", finish="Gloss", quantity=3)',
                             'part_list.part_1 = Part(part_code="KZ 61", finish="Matte", quantity=4)',
                             "part_list.part_2 = None", "part_list.more_2 = False"]


def test_an_item_in_a_slot_with_no_yes_no_cannot_be_dropped(parts):
    """Two items in two required slots: dropping one would leave a required slot empty, so nothing is changed."""
    session, (*_rest, r) = talk(parts, "KX 40 and KY 52", "matte", "2", "gloss", "3", "no", "remove KX 40")
    assert not any(s.startswith("part_list.") for s in statements(r))


# ---------------------------------------------------------------- items named by codes

def test_several_codes_keep_their_own_options_and_open_a_gated_slot(parts):
    session, (r,) = talk(parts, "I need KX 40 matte, 2 of them, then KY 52 gloss, 5 pieces, and KZ 61")
    assert values(session, "part") == {"part_code": "KX 40", "finish": "Matte", "quantity": 2}
    assert values(session, "part_2") == {"part_code": "KY 52", "finish": "Gloss", "quantity": 5}
    assert values(session, "part_3") == {"part_code": "KZ 61"}
    assert values(session, "part_list")["more_2"] is True


def test_options_for_every_item(parts):
    session, (_r1, r2, r3) = talk(parts, "KX 40 and KY 52 please", "both matte", "3 each")
    assert sorted(statements(r2)) == ['part.finish = "Matte"', 'part_2.finish = "Matte"']
    assert sorted(statements(r3)) == ["part.quantity = 3", "part_2.quantity = 3"]


def test_options_per_item_by_ordinal_and_by_code(parts):
    session, (_r1, _r2, r3) = talk(parts, "KX 40 and KY 52 please", "both gloss", "4 for the first, 2 for the second")
    assert sorted(statements(r3)) == ["part.quantity = 4", "part_2.quantity = 2"]
    _s, (*_rest, r4) = talk(parts, "KX 40 and KY 52 please", "matte", "3", "gloss", "5", "make 40 six pieces")
    assert statements(r4) == ["part.quantity = 6"]


def test_same_for_this_one_copies_every_option(parts):
    session, (*_rest, r4) = talk(parts, "KX 40 and KY 52 please", "gloss", "7", "same for this one")
    assert sorted(statements(r4)) == ['part_2.finish = "Gloss"', "part_2.quantity = 7"]


def test_an_answer_with_an_unlabelled_number_for_the_item(parts):
    session, (*_rest, r2) = talk(parts, "KX 40 and KY 52 please", "gloss, 4")
    assert statements(r2) == ['part.finish = "Gloss"', "part.quantity = 4"]


def test_a_contact_name_is_a_name_not_a_phone_number():
    """ "contact" says phone only when the field is not the contact's name or address."""
    from core_engine.parsers.offline.words.libvalues import is_phone_field
    from core_engine.spec.model import Field
    assert is_phone_field(Field(name="contact_phone", type="str", description="A number to reach you"))
    assert is_phone_field(Field(name="contact", type="str", description="How to reach you"))
    assert not is_phone_field(Field(name="contact_name", type="str", description="Your name"))
    assert not is_phone_field(Field(name="contact_email", type="str", description="Where we write to"))


# ---------------------------------------------------------------- items named by a title column the field's description names

EVENING = {
    "name": "evening school", "starting_prompt": "Which modules would you like?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "api": "register", "fields": [
            field("modules", "ModuleList", "The modules to take"),
            field("learner_name", description="Your full name")]},
        {"name": "ModuleList", "kind": "task", "fields": [
            field("module_a", "Module", "The first module"), field("module_b", "Module", "The second module")]},
        {"name": "Module", "kind": "task", "fields": [
            field("module_name", description="The module code or title"),
            field("level", "Enum", "The level", enum_values=[{"value": "Starter"}, {"value": "Improver"}])]},
        {"name": "modules", "kind": "kb", "fields": [
            field("id", primary_key=True), field("title", description="Title of the module"),
            field("summary", description="What it covers", free_text=True)]},
    ],
    "apis": [{"name": "register"}],
}
MODULES = [("m1", "Pottery for Absolute Beginners at the Wheel", "Throwing bowls."),
           ("m2", "Life Drawing", "Drawing from a model."), ("m3", "Italian Conversation", "Speaking practice."),
           ("m4", "Bookkeeping Basics", "Ledgers and VAT.")]


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("evening")
    (root / "spec.json").write_text(json.dumps(EVENING))
    (root / "data").mkdir()
    (root / "data" / "modules.jsonl").write_text(
        "".join(json.dumps(dict(zip(["id", "title", "summary"], r))) + "\n" for r in MODULES))
    return Agent.load(root)


def test_titles_name_the_items_of_a_list_the_open_task_holds(evening):
    """The field says "code or title": the table's title column names its values, even long ones; the task
    is already open (the start worksheet), so the request fills its list."""
    session, (r,) = talk(evening, "I'd like to take Pottery for Absolute Beginners at the Wheel and Life Drawing")
    assert values(session, "module") == {"module_name": "Pottery for Absolute Beginners at the Wheel"}
    assert values(session, "module_2") == {"module_name": "Life Drawing"}
    assert asked(r) == ("module", "level")


def test_a_count_written_with_an_x(florist):
    session, (_r1, r2) = talk(florist, "I'd like 2 Red Roses, large", "yes, White Lilies x3, small")
    assert values(session, "bunch_2") == {"bunch_name": "White Lilies", "copies": 3, "size": "Small"}


def test_both_said_of_three_items_changes_nothing(parts):
    session, (*_rest, r) = talk(parts, "KX 40, KY 52 and KZ 61", "matte", "2", "matte", "2", "matte", "2", "no",
                                "make both gloss")
    assert not any("finish" in s for s in statements(r))


def test_three_names_in_a_row_are_three_items(florist):
    """Names next to each other ("X, Y and Z") share the space between them: none is lost."""
    session, _ = talk(florist, "can we do Red Roses, Wild Meadow and White Lilies?")
    assert [values(session, v).get("bunch_name") for v in ("bunch", "bunch_2", "bunch_3")] == \
        ["Red Roses", "Wild Meadow", "White Lilies"]
    assert values(session, "bunch_list")["add_third"] is True


def test_a_name_with_same_options_takes_the_other_items_options(parts):
    session, (*_rest, r) = talk(parts, "I need KX 40", "matte", "6", "KY 52, same options")
    assert statements(r) == ['part_2.part_code = "KY 52"', 'part_2.finish = "Matte"', "part_2.quantity = 6"]


def test_a_code_typed_loosely_is_written_as_the_kb_stores_it(tmp_path):
    """ "kx40", "kx 52": the KB's column of codes says they are "KX 40" and "KX 52"; a code it lacks stays."""
    spec = json.loads(json.dumps(PARTS))
    spec["worksheets"].append({"name": "catalogue", "kind": "kb", "fields": [
        field("id", primary_key=True), field("code", description="Part code")]})
    root = tmp_path / "parts_kb"
    root.mkdir()
    (root / "spec.json").write_text(json.dumps(spec))
    (root / "data").mkdir()
    (root / "data" / "catalogue.jsonl").write_text(
        "".join(json.dumps({"id": f"p{i}", "code": c}) + "\n" for i, c in enumerate(["KX 40", "KX 52", "QR 7"])))
    session, (r,) = talk(Agent.load(root), "I need kx40 and kx 52")
    assert values(session, "part")["part_code"] == "KX 40" and values(session, "part_2")["part_code"] == "KX 52"
    from core_engine.parsers.offline.kb_rows.codes import as_stored
    from core_engine.parsers.offline.answering.slots import KBVocabulary
    kb = session.backends.kb
    assert as_stored("kx40, zz 9 and qr7", KBVocabulary(), kb) == "KX 40, zz 9 and QR 7"


def test_the_name_asked_comes_with_its_options(parts):
    session, (*_rest, r) = talk(parts, "I need KX 40", "matte", "2", "let's do KY 52 too, gloss, 5 pieces")
    assert statements(r) == ['part_2.part_code = "KY 52"', 'part_2.finish = "Gloss"', "part_2.quantity = 5"]


def test_replace_it_swaps_the_one_item_the_turn_names(parts):
    session, (*_rest, r) = talk(parts, "KX 40 and KY 52", "matte", "2", "gloss", "5", "no",
                                "I don't want KY 52 any more, replace it with KZ 61")
    assert statements(r) == ['part_2.part_code = "KZ 61"']


def test_add_one_more_with_no_name_opens_the_next_slot(parts, florist):
    session, (*_rest, r) = talk(parts, "KX 40 and KY 52", "matte", "2", "gloss", "5", "no", "can I add one more part?")
    assert statements(r) == ["part_list.more_2 = True"]
    assert asked(r) == ("part_3", "part_code")
    _s, (*_rest, r2) = talk(florist, "I'd like 2 Red Roses large", "no", "could you add a note to the bunch list")
    assert "bunch_list.add_second = True" not in statements(r2)  # a note is no bunch


def test_every_clause_that_says_both_gives_every_item_its_options(florist):
    session, _ = talk(florist, "I'd like Red Roses and Wild Meadow, both large, 2 of each")
    assert values(session, "bunch") == {"bunch_name": "Red Roses", "size": "Large", "copies": 2}
    assert values(session, "bunch_2") == {"bunch_name": "Wild Meadow", "size": "Large", "copies": 2}


def test_an_added_item_with_same_options_takes_the_ones_before(florist):
    session, (*_rest, r) = talk(florist, "I'd like 3 Red Roses, large", "yes, White Lilies too, same options")
    assert values(session, "bunch_2") == {"bunch_name": "White Lilies", "size": "Large", "copies": 3}


# ---------------------------------------------------------------- items in a List[Item] field

@pytest.fixture(scope="module")
def florist_list(tmp_path_factory) -> Agent:
    spec = json.loads(json.dumps(FLORIST))
    spec["worksheets"] = [w for w in spec["worksheets"] if w["name"] != "BunchList"]
    next(w for w in spec["worksheets"] if w["name"] == "FlowerOrder")["fields"][0]["type"] = "List[Bunch]"
    return _agent(tmp_path_factory.mktemp("florist_list"), spec, BUNCHES)


def test_items_of_a_list_field_open_the_task_as_one_list(florist_list):
    session, (r,) = talk(florist_list, "I'd like 2 Red Roses, large, and Wild Meadow small")
    assert statements(r)[-1] == ('flower_order = FlowerOrder(bunches=[Bunch(bunch_name="Red Roses", size="Large", '
                                 'copies=2), Bunch(bunch_name="Wild Meadow", size="Small")])')


def test_a_list_field_gets_one_more_item_appended_and_is_closed(florist_list):
    session, (_r1, _r2, r3, r4) = talk(florist_list, "I'd like 2 Red Roses, large, and Wild Meadow small", "4",
                                       "yes, add White Lilies too, 1 small", "just those three")
    assert statements(r3) == ['flower_order.bunches.append(Bunch(bunch_name="White Lilies", size="Small", copies=1))']
    assert statements(r4) == ["confirm(flower_order.bunches)"]


def test_a_title_with_its_code_in_brackets_is_one_item_and_the_lead_in_count_is_no_option(evening):
    session, _ = talk(evening, "I need to add two modules: Life Drawing (LD 101) as an improver and Italian Conversation")
    assert values(session, "module") == {"module_name": "Life Drawing", "level": "Improver"}
    assert values(session, "module_2") == {"module_name": "Italian Conversation"}


def test_a_count_of_items_before_them_is_no_option_of_the_first(parts):
    session, _ = talk(parts, "I need two parts: KX 40 matte and KY 52 gloss")
    assert values(session, "part") == {"part_code": "KX 40", "finish": "Matte"}


def test_items_requested_after_a_question_open_the_task_with_them(florist):
    """After a KB question the agent asks which task; "I'll take 2 X and Y" names the items, not only the task."""
    session, (_r1, r2) = talk(florist, "what do you have with lilies?", "ok I'll take 2 White Lilies and Red Roses")
    assert values(session, "bunch") == {"bunch_name": "White Lilies", "copies": 2}
    assert values(session, "bunch_2") == {"bunch_name": "Red Roses"}


def test_a_clause_for_both_beside_clauses_for_one_item_each(parts):
    session, (_r1, r2) = talk(parts, "KX 40 and KY 52 please", "both matte, 40 is 3 pieces and 52 is 5")
    assert sorted(statements(r2)) == ['part.finish = "Matte"', "part.quantity = 3", 'part_2.finish = "Matte"',
                                      "part_2.quantity = 5"]


def test_a_text_answer_that_contains_an_items_word_is_no_option_of_it(tmp_path):
    """ "3 wild cheers for Mum" to a text question names no item, though "wild" names one; "make the roses 3"
    does."""
    spec = json.loads(json.dumps(FLORIST))
    order = next(w for w in spec["worksheets"] if w["name"] == "FlowerOrder")
    order["fields"].insert(2, field("card_message", description="The message on the card"))
    agent = _agent(tmp_path, spec, BUNCHES)
    session, (*_rest, r1, r2) = talk(agent, "I'd like 2 Red Roses large and 1 Wild Meadow small", "no", "next friday",
                                     "3 wild cheers for Mum", "actually make the roses 3")
    assert statements(r1) == ['flower_order.card_message = "3 wild cheers for Mum"']
    assert statements(r2) == ["bunch.copies = 3"]


def test_the_other_one_and_a_clause_that_goes_on_about_an_item(parts):
    _s, (_r1, r2) = talk(parts, "KX 40 and KY 52 please", "matte for KX 40 and gloss for the other one")
    assert statements(r2) == ['part.finish = "Matte"', 'part_2.finish = "Gloss"']
    _s, (_r1, r2) = talk(parts, "KX 40 and KY 52 please", "gloss for KY 52, and 6 pieces")
    assert statements(r2) == ['part_2.finish = "Gloss"', "part_2.quantity = 6"]
    _s, (_r1, r2) = talk(parts, "KX 40 and KY 52 please", "52 is 4 pieces and both matte")
    assert sorted(statements(r2)) == ['part.finish = "Matte"', 'part_2.finish = "Matte"', "part_2.quantity = 4"]


def test_two_items_added_at_once_share_the_options_said_for_both(florist):
    session, (_r1, r2) = talk(florist, "I'd like 2 Red Roses, large", "yes, add Wild Meadow and White Lilies, both small")
    assert values(session, "bunch_2") == {"bunch_name": "Wild Meadow", "size": "Small"}
    assert values(session, "bunch_3") == {"bunch_name": "White Lilies", "size": "Small"}


def test_options_said_of_the_first_and_the_second_in_an_opening(parts):
    session, _ = talk(parts, "KX 40 and KY 52, matte for the first one, and 3 pieces for the second")
    assert values(session, "part") == {"part_code": "KX 40", "finish": "Matte"}
    assert values(session, "part_2") == {"part_code": "KY 52", "quantity": 3}


def test_options_of_the_first_and_the_second_for_items_named_by_kb_rows(florist):
    session, _ = talk(florist, "I'd like Red Roses and Wild Meadow, large for the first and small for the second")
    assert values(session, "bunch") == {"bunch_name": "Red Roses", "size": "Large"}
    assert values(session, "bunch_2") == {"bunch_name": "Wild Meadow", "size": "Small"}


def test_each_one_is_a_pronoun_not_the_number_one(parts):
    """ "each one for 5": the count is 5; "one" names the items (it was read as the number 1 before)."""
    session, (_r1, _r2, r3) = talk(parts, "KX 40 and KY 52 please", "both matte", "each one for 5 pieces")
    assert sorted(statements(r3)) == ["part.quantity = 5", "part_2.quantity = 5"]


def test_just_those_two_in_the_opening_closes_the_list_and_counts_nothing(florist):
    _s, (r1,) = talk(florist, "I wish to send Red Roses and Wild Meadow, both large, just those two")
    opened = [s for s in statements(r1) if s.startswith("flower_order")][0]
    assert "add_third=False" in opened and "copies" not in opened


def test_words_that_name_no_bunch_are_not_the_bunch_asked(florist):
    _s, (r1, r2) = talk(florist, "I'd like to send flowers", "Dana Whitfield")
    assert r1.acts[-1]["field"] == "bunch_name"
    assert not any("bunch_name" in s for s in statements(r2))
    assert "not-a-row-name" in [r["rule"] for r in r2.trace["parse"]["rules"]]
