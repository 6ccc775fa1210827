"""Session 15, helper Q: yes/no fields answered with more than a yes or no, and values already given changed in
passing (a day re-assigned, a count that grows, a further item taken back, a word of a value put right).

Pinned on a boarding kennels' spec written here (tests/data/session15_q_kennels.json; not a sample, not a development
agent): each test names the mechanism it holds and fails without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.parsers.offline.answering.bool_mentions import along_flag
from core_engine.parsers.offline.words.answers import pro_form_flag
from core_engine.parsers.offline.words.values import yes_no
from core_engine.spec.model import Field
from tests.fakes.specs import agent_of, statements, talk

SPEC = json.loads((Path(__file__).parent / "data" / "session15_q_kennels.json").read_text())
VISIT = ("I'd like to book an intake visit", "friday")
STAY = ("I want to book a stay for my dog", "Biscuit", "Labrador", "3 March 2020")


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    return agent_of(tmp_path_factory.mktemp("kennels"), SPEC)


def test_a_word_that_agrees_then_the_yes_is_a_yes():
    assert yes_no("perfect yes")[0] is True
    assert yes_no("great yes please")[0] is True
    assert yes_no("perfect no") is None  # agreement, then a no: not sure
    assert yes_no("fine good") is None  # two weak words are no yes


def test_a_summary_agreed_with_ok_go(agent):
    _s, [*_, r] = talk(agent, *VISIT, "no", "no", "2", "the runs", "nothing", "ok go")
    assert statements(r) == ["book_visit.confirm = True"]


def test_a_bare_yes_ending_the_clause_answers_the_yes_no(agent):
    _s, [*_, r] = talk(agent, *VISIT, "no", "my son, yes")
    assert statements(r) == ["book_visit.companion = True"]


def test_a_pro_form_for_the_thing_asked_answers_it():
    assert pro_form_flag("there isn't one but the yard is fenced")[:2] == (False, "there isn't one")
    assert pro_form_flag("we've got one")[0] is True
    assert pro_form_flag("i have one question") is None  # "one" of another thing
    assert pro_form_flag("is there one?") is None


def test_there_isnt_one_to_a_question_about_having_a_thing(agent):
    _s, [*_, r] = talk(agent, *VISIT, "there isn't one but the yard is fenced")
    assert statements(r) == ["book_visit.garden = False"]


def test_someone_going_along_answers_a_field_about_company():
    f = Field(name="companion", type="bool", kind="input",
              description="Whether another family member will come with you to the visit")
    assert along_flag(f, "I'll be coming with him") is True
    assert along_flag(f, "my daughter said she'd come with me after all") is True
    assert along_flag(f, "no one's coming with me") is False
    assert along_flag(f, "she can't come with me") is False
    assert along_flag(f, "I'll go on my own") is False
    assert along_flag(f, "can someone come with me?") is None
    other = Field(name="garden", type="bool", kind="input", description="Whether your home has a secure garden")
    assert along_flag(other, "I'll be coming with him") is None


def test_company_said_in_other_words_to_the_question_and_at_the_summary(agent):
    _s, [*_, r] = talk(agent, *VISIT, "no", "I'll have my husband coming with me")
    assert statements(r) == ["book_visit.companion = True"]
    _s, [*_, r] = talk(agent, *VISIT, "no", "no", "1", "the runs", "nothing",
                       "oh hold on, my daughter said she'd come with me after all")
    assert "book_visit.companion = True" in statements(r)


def test_a_second_yes_no_volunteered_by_the_verb_its_question_asks(agent):
    _s, [*_, r] = talk(agent, *STAY, "no", "Monday 8th", "5pm",
                       "yes he does. and before you ask it doesn't clash with anything")
    assert statements(r) == ["book_stay.own_bed = True", "book_stay.vet_clash = False"]


def test_the_weekday_instead_of_a_date_held_is_that_weeks_day(agent):
    _s, [*_, r] = talk(agent, *STAY, "no", "Monday 8th", "5pm", "yes", "no", "Ann Lee",
                       "no wait, can it be the tuesday instead")
    assert statements(r) == ['book_stay.drop_off = "2024-07-09"']  # not Tuesday 2nd; the birth date is no candidate


def test_a_day_ruled_out_as_no_good_gives_way_to_the_day_offered(agent):
    _s, [*_, r] = talk(agent, "I'd like to book an intake visit", "tomorrow", "no", "no", "2", "the runs", "nothing",
                       "oh no wait, tomorrow's no good after all - can we do thursday instead")
    assert statements(r) == ['book_visit.visit_day = "2024-07-04"']


def test_a_day_in_the_changing_clause_takes_the_month_another_date_of_the_turn_names(agent):
    _s, [*_, r] = talk(agent, "I'd like to book an intake visit", "it was the 14th August, can it be the 21st instead")
    assert statements(r) == ['book_visit.visit_day = "2024-08-21"']


def test_someone_more_coming_so_a_new_head_count(agent):
    _s, [*_, r] = talk(agent, *VISIT, "no", "yes", "2", "the runs", "nothing", "oh wait my sister's coming too so 3")
    assert statements(r) == ["book_visit.visitors = 3"]
    _s, [*_, r] = talk(agent, *VISIT, "no", "no", "2", "the runs", "nothing", "oh wait my sister's coming too so 3")
    assert sorted(statements(r)) == ["book_visit.companion = True", "book_visit.visitors = 3"]  # company after all


def test_a_further_item_taken_back_sets_the_flag_that_opened_it_false(agent):
    for said in ("actually scrap the second, one is plenty", "hmm actually no, just the one"):
        _s, [*_, r] = talk(agent, *STAY, "yes", "Pepper", said)
        assert statements(r) == ["dogs.more_dogs_1 = False"], said


def test_a_value_named_by_a_word_cut_short_is_corrected(agent):
    _s, [*_, r] = talk(agent, *VISIT, "no", "no", "2", "Hydrotherapy",
                       "sorry no, not hydro - grooming, that's the one I want to see")
    assert statements(r) == ['book_visit.subject = "Grooming"']


def test_a_part_of_a_story_put_right_after_a_wait(agent):
    _s, [*_, r] = talk(agent, *VISIT, "no", "no", "2", "the runs", "he is a 4 year old lab", "wait, it was 5 not 4")
    assert statements(r) == ['book_visit.notes = "he is a 5 year old lab"']
