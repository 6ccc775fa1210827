"""Session 14, helper C: the spec's own free-text marker, references that hold digit groups, fields refused by
saying their thing was never done, thousands as people say them, sums worked out and guesses that settle nothing.

Pinned on a marina office's spec written here (`tests/data/marina_office_c.json`: not a sample, not a development
agent): each test names the mechanism it holds and fails without it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from storage.kb.importer import import_records
from tests.fakes.specs import agent_of, statements, talk

SPEC = json.loads((Path(__file__).parent / "data" / "marina_office_c.json").read_text())
TO_ACCOUNT = ("I need to report damage to my boat", "PN-4471982", "last saturday",
              "a ferry came past too fast and the wash pushed us into the pontoon")
"""Up to the free-text question: what the user saw (the cause is read from the turn before)."""


MECHANICS = [
    {"id": "m1", "name": "Whitby Diesel Services", "trade": "Diesel Engines", "town": "Whitby", "callout_fee": 60.0},
    {"id": "m2", "name": "Harbour Outboards", "trade": "Outboards", "town": "Whitby", "callout_fee": 45.0},
    {"id": "m3", "name": "Staithes Rigging", "trade": "Rigging", "town": "Staithes", "callout_fee": 80.0},
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("vectors"))
    root = tmp_path_factory.mktemp("marina")
    import_records(root / "kb.sqlite", MECHANICS, "mechanics")
    yield agent_of(root, SPEC)
    if old is None:
        os.environ.pop("GENIE_CACHE_DIR", None)
    else:
        os.environ["GENIE_CACHE_DIR"] = old


def test_a_field_the_spec_marks_free_text_takes_the_story(agent):
    """`witness_account` has a code-like name word ("account"), but the spec marks it free text."""
    said = "the wash from the ferry slammed us into the pontoon and the bow rail bent"
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, said)
    assert statements(r) == [f'event.witness_account = "{said}"']


@pytest.mark.parametrize("lead", ["like I said, ", "ok good. what happened was ", "As I mentioned earlier: "])
def test_a_story_loses_its_lead_in(agent, lead):
    said = "the wash from the ferry slammed us into the pontoon"
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, lead + said)
    assert statements(r) == [f'event.witness_account = "{said}"']


def test_the_digits_of_a_reference_are_no_phone_number(agent):
    _s, [*_, r] = talk(agent, "I need to report damage to my boat", "it's PN-4471982, sorry, still a bit rattled")
    assert statements(r) == ['report_damage.berth_code = "PN-4471982"']
    _s, [*_, r] = talk(agent, "I need to report damage to my boat", "PN-4471982")
    assert statements(r) == ['report_damage.berth_code = "PN-4471982"']  # not also contact_phone = "4471982"


def test_a_reference_of_digit_groups_joined_by_slashes(agent):
    _s, [*_, r] = talk(agent, "I need to report damage to my boat", "PN-4471982", "last saturday",
                       "someone broke in and smashed the hatch", "they forced the hatch with a crowbar", "900",
                       "the harbour police wrote 22/40417/24 on the form")
    assert statements(r) == ['report_damage.incident_number = "22/40417/24"']


VANDALISM = ("I need to report damage to my boat", "PN-4471982", "last saturday",
             "someone broke in and smashed the hatch", "they forced the hatch with a crowbar", "900")


@pytest.mark.parametrize("said", ["we haven't told the harbour police about it yet",
                                  "we never called the police"])
def test_a_field_refused_by_saying_its_thing_was_never_done(agent, said):
    _s, [*_, r] = talk(agent, *VANDALISM, said)
    assert statements(r) == ['report_damage.incident_number = "NA"']


@pytest.mark.parametrize("said", ["ah, I haven't sent you anything", "photos: not taken any yet, too dark"])
def test_an_optional_field_refused_by_saying_its_thing_was_never_done(agent, said):
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, "the wash slammed us into the pontoon", "about 900", said)
    assert statements(r) == ['report_damage.photo_code = "NA"']


def test_never_done_with_a_value_beside_it_is_no_refusal(agent):
    _s, [*_, r] = talk(agent, *VANDALISM, "I didn't get one from the police, only 22/40417/24 from the harbour")
    assert 'report_damage.incident_number = "NA"' not in statements(r)
    _s, [*_, r] = talk(agent, *VANDALISM, "what did the police not give me?")
    assert 'report_damage.incident_number = "NA"' not in statements(r)  # a question refuses nothing


@pytest.mark.parametrize("said, value", [("not sure, maybe 2k?", 2000), ("about 1.5k", 1500),
                                         ("call it 3 grand", 3000), ("2400ish", 2400)])
def test_thousands_as_people_say_them(agent, said, value):
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, "the wash slammed us into the pontoon", said)
    assert statements(r) == [f"event.repair_cost = {value}"]


def test_a_sum_worked_out_is_the_value(agent):
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, "the wash slammed us into the pontoon",
                       "the rail was about 900 and the hull maybe 1,500 so 2400ish")
    assert statements(r) == ["event.repair_cost = 2400"]


def test_two_guesses_after_a_doubt_set_nothing(agent):
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, "the wash slammed us into the pontoon",
                       "no idea, could be 3 grand, could be 6")
    assert statements(r) == []
    assert "repair" in r.response.lower()  # asked again
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, "the wash slammed us into the pontoon", "no idea")
    assert statements(r) == ['event.repair_cost = "NA"']  # a doubt alone still refuses


def test_an_opening_that_asks_for_the_task_tells_the_option_inside_it(agent):
    """The turn is nearest the task it asks for ("i need to report damage"); among the options inside that task
    alone, its other words clearly mean one: the nested record takes it."""
    _s, [r] = talk(agent, "hiya, a speedboat smashed into our hull on the pontoon, i need to report damage")
    assert statements(r) == ['main.task = "Report Damage"',  # the story also fills the account (helper A's rule)
                             'report_damage = ReportDamage(event=Event(kind="Collision", '
                             'witness_account="a speedboat smashed into our hull on the pontoon"))']
    _s, [r] = talk(agent, "I need to report damage to my boat")
    assert statements(r) == ['main.task = "Report Damage"']  # nothing more said: nothing more read


def test_a_task_read_by_its_example_tells_the_option_inside_it(agent):
    """The turn is the task's own example (a reading of the task, naming nothing inside it); its clauses mean
    one option of the nested record (Storm: "wind or waves damaged the boat")."""
    _s, [r] = talk(agent, "the gale tore the sails and snapped the mast")
    assert statements(r) == ['main.task = "Report Damage"', 'report_damage = ReportDamage(event=Event(kind="Storm", '
                             'witness_account="the gale tore the sails and snapped the mast"))']  # and the story


def test_a_clause_that_echoes_one_word_of_a_short_example_chooses_nothing(agent):
    """ "i'm working from the boat" shares "work" with the example "after work" but not its "after"."""
    _s, [*_, r] = talk(agent, "I'd like to book a berth", "Sea Otter", "saturday's best, i'm working from the boat")
    assert statements(r) == ['book_berth.arrival = "2024-07-06"']
    _s, [*_, r] = talk(agent, "I'd like to book a berth", "Sea Otter", "saturday, after work")
    assert statements(r) == ['book_berth.arrival = "2024-07-06"', 'book_berth.arrival_slot = "Evening"']


@pytest.mark.parametrize("said", ["thats it now, yes", "go on then", "ok, go on"])
def test_a_summary_agreed_to_after_a_closing_or_with_go_on(agent, said):
    _s, [*_, r] = talk(agent, "I'd like to book a berth", "Sea Otter", "saturday", "after lunch", said)
    assert statements(r) == ['book_berth.confirm = True']


def test_a_pronoun_after_a_verb_of_the_task_holds_the_row_just_shown(agent):
    """ "send them out" for the task whose option says "have one of our approved marine mechanics sent out"; the
    berth code is given beside it."""
    _s, [_q, r] = talk(agent, "do you have a diesel engine mechanic in Whitby?",
                       "great, send them out please, its PN-4471982")
    assert statements(r) == ['main.task = "Send Mechanic"',
                             'send_mechanic = SendMechanic(berth_code="PN-4471982", mechanic=answer.result[0])']



def test_an_introduction_to_a_free_text_question_fills_the_name(agent):
    """ "my name's ... btw" to "any other details?" is the name field's value, not the details asked."""
    _s, [*_, r] = talk(agent, *TO_ACCOUNT, "the wash slammed us into the pontoon", "about 900", "no photos",
                       "07700 900412", "my name's Dana Whitfield btw")
    assert statements(r) == ['report_damage.full_name = "Dana Whitfield"']


@pytest.mark.parametrize("said", ["55120... hang on, that's the old one, it's 55102", "55120, oops I mean 55102"])
def test_a_number_mended_in_the_same_turn(agent, said):
    _s, [*_, r] = talk(agent, *VANDALISM, said)
    assert statements(r) == ['report_damage.incident_number = "55102"']
