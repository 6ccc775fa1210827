"""Values read the way the spec describes them (session 7, helper F): a reference shaped like the field's
example wherever it stands, a month field's month, amounts of money, and number words with "a hundred"."""

from __future__ import annotations

import pytest

from core_engine.parsers.offline.words.libvalues import find_large_numbers
from core_engine.session.agent import Agent

from tests.fakes.specs import agent_of, field, statements, talk, task_choice

SPEC = {
    "name": "marina office", "starting_prompt": "Marina office, how can I help?",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Query Invoice", "description": "a question about a mooring invoice"},
                    {"value": "Book Berth", "description": "a place in the harbour for a boat"}),
        {"name": "QueryInvoice", "kind": "task", "predicate": 'task == "Query Invoice"', "api": "query",
         "fields": [field("member_ref", description="Your member reference, like MR-30417"),
                    field("invoice_month", description="Which month the invoice is for"),
                    field("amount", "float", "The amount charged, in euros"),
                    field("paid_on", "date", "The day the invoice was paid"),
                    field("confirm", "confirm", "Confirm the query")]},
        {"name": "BookBerth", "kind": "task", "predicate": 'task == "Book Berth"', "api": "berth",
         "fields": [field("boat_length", "int", "The length of the boat in metres"),
                    field("confirm", "confirm", "Confirm the berth")]},
    ],
    "apis": [{"name": "query"}, {"name": "berth"}],
}


@pytest.fixture(scope="module")
def agent(tmp_path_factory) -> Agent:
    return agent_of(tmp_path_factory.mktemp("marina"), SPEC)


def _asked(agent, *turns):
    s, _results = talk(agent, "I have a question about my invoice", *turns)
    return s


def test_a_reference_shaped_like_the_fields_example_is_its_value_wherever_it_stands(agent):
    s = _asked(agent)
    assert statements(s.turn("membr reference is MR-55120")) == ['query_invoice.member_ref = "MR-55120"']
    s = _asked(agent)
    assert statements(s.turn("0451")) == []  # a number of another shape is not the reference: asked again
    s = _asked(agent)
    assert statements(s.turn("30418")) == ['query_invoice.member_ref = "30418"']  # the example's digits, no letters


def test_a_month_field_takes_the_month_the_answer_names(agent):
    s = _asked(agent, "MR-55120")
    r = s.turn("the march one, it came to €84.20")
    assert statements(r) == ['query_invoice.invoice_month = "March"', "query_invoice.amount = 84.2"]
    s = _asked(agent, "MR-55120")
    assert statements(s.turn("last month's")) == ['query_invoice.invoice_month = "June"']
    s = _asked(agent, "MR-55120")
    assert not any("invoice_month" in x for x in statements(s.turn("today")))  # no month named: no month


def test_amounts_of_money_and_a_hundred(agent):
    assert [n.value for n in find_large_numbers("about a hundred and twenty")] == [120]
    s = _asked(agent, "MR-55120", "May")
    assert statements(s.turn("ninety two euros forty")) == ["query_invoice.amount = 92.4"]
    s = _asked(agent, "MR-55120", "May")
    assert statements(s.turn("about a hundred and twenty euros")) == ["query_invoice.amount = 120"]


PRINT_SHOP = {
    "name": "print shop", "starting_prompt": "Print shop, hello!", "settings": {"start_worksheet": "Main"},
    "worksheets": [
        task_choice({"value": "Print Order", "description": "print copies of a document"},
                    {"value": "Order Status", "description": "ask where a print order is"}),
        {"name": "PrintOrder", "kind": "task", "predicate": 'task == "Print Order"', "api": "print", "fields": [
            field("document", description="The document to print"),
            field("copies", "int", "How many copies you need"),
            field("customer_name", description="Your name")]},
        {"name": "OrderStatus", "kind": "task", "predicate": 'task == "Order Status"', "api": "status",
         "fields": [field("order_ref", description="Your order reference, like PS-1234")]},
    ],
    "apis": [{"name": "print"}, {"name": "status"}],
}


def test_the_thing_a_count_counts_goes_to_the_one_field_for_what_is_ordered(tmp_path):
    _s, results = talk(agent_of(tmp_path, PRINT_SHOP), "hi, could you print 20 copies of Annual Report for me")
    said = " ".join(statements(results[0]))
    assert 'document="Annual Report"' in said and "copies=20" in said and "customer_name" not in said


def test_a_date_answered_for_a_field_about_the_past_is_the_last_such_day(agent):
    s = _asked(agent, "MR-55120", "May", "84 euros")
    assert statements(s.turn("I paid it on saturday")) == ['query_invoice.paid_on = "2024-06-29"']


def test_just_the_one_is_a_count_of_one(tmp_path):
    s, _results = talk(agent_of(tmp_path, PRINT_SHOP), "I'd like to print a document", "the Annual Report")
    assert statements(s.turn("just the one")) == ["print_order.copies = 1"]
