"""Mechanisms for single-record tasks found by grouping a development set's failures by kind (helper B, session 6),
pinned on a campsite spec written here: one span of words gives one value, "with X" / "no X" answers a yes/no
field named X, "on second thought" changes a value, and a word that labels a number ("site 12") is not a task's word.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core_engine.loaders import load_spec
from core_engine.parsers.offline.words.labels import label_words, mask_labels
from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "campsite", "starting_prompt": "Welcome to the campsite office.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice(
            {"value": "Book Site", "description": "reserve a pitch for a tent or a camper for some nights"},
            {"value": "Report Issue", "description": "something at your pitch is broken or dirty"}),
        {"name": "BookSite", "kind": "task", "predicate": 'task == "Book Site"', "api": "book_site", "fields": [
            field("pitch", "Enum", "The kind of pitch", enum_values=[
                {"value": "Tent", "description": "a grass pitch for a tent"},
                {"value": "Camper", "description": "a hard standing for a camper van or caravan"}]),
            field("nights", "int", "How many nights you stay"),
            field("guests", "int", "How many guests will stay on the pitch"),
            field("electricity", "bool", "Whether you want an electric hook-up"),
            field("guest_name", description="The name for the booking"),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "ReportIssue", "kind": "task", "predicate": 'task == "Report Issue"', "api": "report_issue",
         "fields": [field("site_number", description="The number of your pitch"),
                    field("what_happened", description="What is wrong, in your words")]},
    ],
    "apis": [{"name": "book_site"}, {"name": "report_issue"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("campsite"), SPEC)


def test_the_words_that_answer_the_question_fill_no_second_field(agent):
    _, (_, _, third) = talk(agent, "I'd like to book a site, a tent pitch", "hmm", "four nights")
    assert statements(third) == ["book_site.nights = 4"]  # not also guests = 4


def test_with_or_no_and_a_yes_no_fields_name_answer_it_in_an_opening(agent):
    _, (first,) = talk(agent, "can I book a camper pitch for 3 nights for 2 guests, with electricity")
    assert "electricity=True" in statements(first)[-1] and "nights=3" in statements(first)[-1]
    _, (first,) = talk(agent, "a tent pitch for 2 nights, no electricity")
    assert "electricity=False" in statements(first)[-1]


def test_on_second_thought_changes_a_filled_option(agent):
    _, results = talk(agent, "I'd like to book a tent pitch", "2 nights", "on second thought a camper pitch")
    assert statements(results[-1]) == ['book_site.pitch = "Camper"']


def test_a_word_that_labels_a_number_is_not_the_tasks_word(agent):
    spec = load_spec(Path(agent.root) / "spec.json")
    assert label_words(spec) == {"site"}
    assert mask_labels("the tap at site 12 is broken", spec) == "the tap at      12 is broken"
    assert mask_labels("I want to book a site for 2", spec) == "I want to book a site for 2"  # no number after it
    _, (first,) = talk(agent, "the tap at site 12 is broken")
    assert 'main.task = "Book Site"' not in statements(first)


ROWS = [{"id": "a", "name": "Sea Tour", "kinds": ["Boat"], "town": "Harbour", "price": 18.0, "rating": 4.0},
        {"id": "b", "name": "Sunset Trip", "kinds": ["Boat", "Dinner"], "town": "Harbour", "price": 35.0, "rating": 4.8},
        {"id": "c", "name": "Seal Watch", "kinds": ["Boat"], "town": "Bay", "price": 24.0, "rating": 4.8}]


def test_a_comparative_picks_the_reported_row_at_that_end():
    from core_engine.parsers.offline.kb_rows.references import compared_row
    assert compared_row("I want tickets for the cheaper one", ROWS)[0] == 0
    assert compared_row("the priciest one please", ROWS)[0] == 1
    assert compared_row("the best rated one", ROWS) is None  # two rows share the top rating: no guess
    assert compared_row("the second one", ROWS) is None


def test_a_value_only_one_reported_row_holds_picks_it():
    from core_engine.parsers.offline.kb_rows.choices import row_label
    from core_engine.parsers.offline.kb_rows.references import valued_row
    assert valued_row("the dinner one", ROWS, row_label)[0] == 1
    assert valued_row("the one in Bay", ROWS, row_label)[0] == 2
    assert valued_row("the boat one", ROWS, row_label) is None  # every row holds it
    assert valued_row("the harbour one", ROWS, row_label) is None  # two rows hold it


def test_a_greeting_and_a_lead_in_are_not_search_words():
    from core_engine.parsers.offline.intents import search_phrase
    assert search_phrase("hey there, looking to book dinner somewhere quiet") == "dinner somewhere quiet"
    assert search_phrase("Hello, I am looking for a cheap place") == "cheap place"


def test_of_us_counts_people_and_all_correct_is_a_yes(agent):
    from core_engine.parsers.offline.words.values import yes_no
    assert yes_no("that's all correct")[0] is True and yes_no("thats all correct")[0] is True
    _, results = talk(agent, "I'd like to book a tent pitch", "2 nights, 3 of us")
    assert "book_site.guests = 3" in statements(results[-1])



def test_the_more_value_one_follows_the_order_of_an_enum_column():
    from core_engine.parsers.offline.kb_rows.references import compared_row
    from core_engine.spec.model import Spec
    spec = Spec.model_validate({"name": "x", "worksheets": [{"name": "shops", "kind": "kb", "fields": [
        {"name": "id"}, {"name": "tier", "type": "Enum", "enum_values": [{"value": "basic"}, {"value": "plus"},
                                                                         {"value": "premium"}]}]}]})
    rows = [{"id": "a", "tier": "plus"}, {"id": "b", "tier": "premium"}, {"id": "c", "tier": "basic"}]
    assert compared_row("the more premium one", rows, spec)[0] == 1
    assert compared_row("the less premium one", rows, spec)[0] == 2
    assert compared_row("the more premium one", rows) is None  # no spec, no order


LOST = {
    "name": "lost card desk", "starting_prompt": "Hello.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        {"name": "Main", "kind": "task", "api": "report_loss", "fields": [
            field("full_name", description="Your full name"),
            field("card_details", "CardDetails", "Card number and PIN"),
            field("loss_report", description="What happened: the details of the loss")]},
        {"name": "CardDetails", "kind": "task", "fields": [
            field("card_number", description="Your library card number"),
            field("pin", description="The PIN of your card")]},
    ],
    "apis": [{"name": "report_loss"}],
}


@pytest.fixture(scope="module")
def lost(tmp_path_factory) -> Agent:
    root = tmp_path_factory.mktemp("lost")
    (root / "spec.json").write_text(json.dumps(LOST))
    return Agent.load(Path(root))


def test_bare_contractions_are_read_but_values_keep_the_users_spelling(lost):
    from core_engine.parsers.offline.words.typed import restore_apostrophes
    assert restore_apostrophes("id like a table, I dont know")[0] == "i'd like a table, I don't know"
    assert restore_apostrophes("my student id is 5, its fine")[0] == "my student id is 5, its fine"
    assert restore_apostrophes("and my pin's 4417")[0] == "and my pin is 4417"
    _, results = talk(lost, "hello", "Ada Lovelace", "1234", "4321", "someone used it and I dont know who")
    assert statements(results[-1]) == ['main.loss_report = "someone used it and I dont know who"']


def test_name_here_and_labelled_values_are_no_story(lost):
    _, (first,) = talk(lost, "Hi, Ada Lovelace here, card 55667788 and my pin's 4417")
    assert statements(first) == ['main.full_name = "Ada Lovelace"',
                                 'main.card_details = CardDetails(card_number="55667788", pin="4417")']


def test_a_name_said_again_in_full_after_sorry_replaces_the_short_one(lost):
    _, results = talk(lost, "I lost my card at the station yesterday", "Ada Lovelace",
                      "sorry its Augusta Ada Lovelace, that's the name on the card")
    assert statements(results[-1]) == ['main.full_name = "Augusta Ada Lovelace"']
    _, results = talk(lost, "I lost my card at the station yesterday", "Ada Lovelace", "sorry, Grace Hopper")
    assert statements(results[-1]) == []  # no word in common: not read as a correction of the name


def test_me_and_one_other_is_two_and_just_me_and_others_is_not_one():
    from core_engine.parsers.offline.words.measures.counts import head_count
    from core_engine.parsers.offline.words.values import find_numbers
    assert head_count("just me and my wife") == 2 and head_count("me and my dad!") == 2
    assert head_count("me and my kids") is None  # how many kids is not said
    assert [s.value for s in find_numbers("just me and my kids")] == [] and find_numbers("just me")[0].value == 1


def test_an_occasion_is_a_special_request():
    from core_engine.parsers.offline.intents import special_request
    assert special_request("its our anniversary") == ("its our anniversary", "its our anniversary")
    assert special_request("oh and it's my wife's 40th birthday!")[1] == "oh and it's my wife's 40th birthday"
    assert special_request("it's my account") is None


def test_a_bare_name_while_a_number_is_asked_fills_the_name_field(agent):
    _, results = talk(agent, "I'd like to book a tent pitch", "Lena Fischer")
    assert statements(results[-1]) == ['book_site.guest_name = "Lena Fischer"']
    _, results = talk(agent, "I'd like to book a tent pitch", "Camper")
    assert 'book_site.guest_name = "Camper"' not in statements(results[-1])  # an option's name is no person


ROOT = Path(__file__).resolve().parents[1]


def test_what_never_happened_is_the_problem_not_a_rejection():
    from core_engine.parsers.offline.words.negation import negations
    assert negations("my credit never showed up on my transcript") == []
    assert negations("I'm not getting any emails") == [] and negations("not Thai, please")[0].what == "Thai"


def test_an_option_named_by_words_goes_down_to_the_option_its_meaning_names():
    agent = Agent.load(ROOT / "sample_projects" / "ticket_submission")
    _, (first,) = talk(agent, "hey so my AP calc credit never showed up on my transcript")
    assert 'test_issues="Credit not posted"' in statements(first)[-1]  # below the option the words named
    trace = first.trace["parse"]["rules"]
    assert any(r["rule"] == "deeper-option" and r["runner_up"] and r["score"] >= 0.475 for r in trace)


def test_a_when_field_keeps_the_words_that_say_when():
    from core_engine.parsers.offline.words.answers import _WHEN_SPAN
    assert _WHEN_SPAN.search("i had the board send them mid-may").group(0) == "mid-may"
    assert _WHEN_SPAN.search("back in May 2024").group(0) == "May 2024" and _WHEN_SPAN.search("may I ask") is None
    agent = Agent.load(ROOT / "sample_projects" / "ticket_submission")
    _, results = talk(agent, "my AP credit was not posted", "I sent the scores three weeks ago")
    assert statements(results[-1]) == ['external_test_credits.time_of_test_score_submission = "three weeks ago"']


def test_time_words_capitalised_are_no_name(agent):
    _, results = talk(agent, "I'd like to book a tent pitch", "Late Afternoon")
    assert not any("guest_name" in s for s in statements(results[-1]))


def test_a_group_with_the_speaker_in_an_opening_counts_the_guests(agent):
    _, (first,) = talk(agent, "hi, a tent pitch for me and my husband from the 12th")
    assert "guests=2" in statements(first)[-1]
    _, (first,) = talk(agent, "hi, a tent pitch for me and my kids")
    assert "guests=" not in statements(first)[-1]  # how many kids is not said


def test_a_sigh_before_forget_it_is_still_a_cancel(agent):
    _, results = talk(agent, "I'd like to book a tent pitch", "ugh, forget it")
    assert statements(results[-1]) == [] and results[-1].acts[0].get("control") == "cancel"


def test_times_and_days_as_people_type_them():
    import datetime as dt
    from core_engine.parsers.offline.words.values import find_dates, find_times
    times = lambda t: [s.value for s in find_times(t)]  # noqa: E731
    assert times("8ish") == ["20:00"] and times("half 7") == ["19:30"] and times("half 7 pm") == ["19:30"]
    assert times("half 9 in the morning") == ["09:30"] and times("19.30") == ["19:30"]
    assert times("half an hour") == [] and times("it costs 14.99") == [] and times("$12.50") == []
    monday = dt.date(2024, 7, 1)
    assert [s.value for s in find_dates("fri", monday)] == ["2024-07-05"]
    assert [s.value for s in find_dates("next sat", monday)] == ["2024-07-06"]
    assert find_dates("I sat down", monday) == [] and find_dates("the sun was out", monday) == []


def test_kinds_of_people_are_summed(agent):
    from core_engine.parsers.offline.words.measures.counts import people_sum
    assert people_sum("2 adults and 1 kid") == 3 and people_sum("2 adults 2 kids") == 4
    assert people_sum("3 adults") is None and people_sum("2 adults, 3 nights") is None  # one count / another number
    _, (first,) = talk(agent, "a tent pitch for 2 adults and 2 kids")
    assert "guests=4" in statements(first)[-1]


def test_digits_read_out_and_a_two_digit_year_with_an_apostrophe():
    import datetime as dt
    from core_engine.parsers.offline.answering.slots import code_value
    from core_engine.parsers.offline.words.values import find_dates
    assert code_value("one two three four").value == "1234" and code_value("oh seven, nine").value == "079"
    assert code_value("one or two") is None  # two words are no read-out number
    assert [s.value for s in find_dates("july 4th '90", dt.date(2024, 7, 1), past=True)] == ["1990-07-04"]


def test_spoken_forms_a_three_letter_option_verb_and_no_date_in_a_date_answer():
    from core_engine.parsers.offline.words.typed import restore_apostrophes
    assert restore_apostrophes("i wanna add it, dunno")[0] == "i want to add it, don't know"
    agent = Agent.load(ROOT / "sample_projects" / "ticket_submission")
    _, (first,) = talk(agent, "i wanna add CS 106B but its full")
    assert 'change_type="Add a Course"' in statements(first)[-1]  # "add" names the option (three letters)
    _, results = talk(agent, "need help with my leave of absence form status", "emailed it", "nobody answered")
    assert statements(results[-1]) == []  # no date in it: the date field is asked again, not filled with it


def test_texting_forms_in_a_request(agent):
    import datetime as dt
    from core_engine.parsers.offline.words.values import find_dates
    from core_engine.parsers.offline.words.typed import restore_apostrophes
    assert restore_apostrophes("can u get me a table pls")[0] == "can you get me a table please"
    assert restore_apostrophes("U.S. room U 12")[0] == "U.S. room U 12"
    monday = dt.date(2024, 7, 1)
    assert [s.value for s in find_dates("Sukhothai fri 7pm", monday)] == ["2024-07-05"]
    assert find_dates("I sat down at 8", monday) == []
    _, (first,) = talk(agent, "i'd like a tent pitch for 3 nights, 4 ppl")
    assert "guests=4" in statements(first)[-1] and "nights=3" in statements(first)[-1]


def test_a_search_drops_the_day_it_is_for():
    from core_engine.knowledge.vocab import STOPWORDS
    assert {"tonight", "tomorrow", "today"} <= STOPWORDS


def test_perfect_thanks_is_a_yes_but_ok_thanks_is_small_talk():
    from core_engine.parsers.offline.words.values import yes_no
    assert yes_no("perfect thanks")[0] is True and yes_no("great, thank you!")[0] is True
    assert yes_no("ok thanks") is None
