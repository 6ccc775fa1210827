"""Tests page in a real browser: run all with progress, a failure as a diff, coverage per worksheet."""

from conftest import click, ensure_project, goto, wait_idle

from components.testing.runner_view import run_tests
from core_engine.evaluation.coverage import coverage

PROJECT = "e2e_tests_page"


def table_cell(page, text: str):
    return page.locator('[data-testid="stDataFrame"] td', has_text=text).first


def open_tests(page, studio) -> None:
    goto(page, studio, "tests", f"project={PROJECT}")
    page.get_by_role("heading", name="Tests").first.wait_for()


def test_run_all_shows_results_and_coverage(studio, page):
    ensure_project(studio, PROJECT, "restaurant_reservation")
    pf = studio.open_workspace().open(PROJECT)
    tests = pf.tests()
    agent = pf.agent()  # what the page should show: the engine's own results and coverage
    results = run_tests(agent, tests)
    cov = coverage(agent.spec, [r.outputs for r in results])
    assert all(r.passed for r in results)
    open_tests(page, studio)
    table_cell(page, "h15_book_pizza_formal").wait_for(state="attached")
    click(page, "Run all tests")
    page.get_by_text(f"{len(tests)} passed, 0 failed").wait_for()
    page.get_by_text("PASS · H.1.5 book a pizza place with a patio (formal)").wait_for()
    page.get_by_role("tab", name="Coverage").click()
    page.get_by_text(f"{cov.conversations} conversation(s), {cov.turns} turn(s)").wait_for()
    covered, total = cov.summary()["fields touched"]
    metric = page.locator('[data-testid="stMetric"]', has_text="fields touched").first
    assert f"{covered}/{total}" in metric.inner_text()
    for w in cov.worksheets:
        missing = w.untouched()
        label = f"{w.name} ({w.kind})" + (f" · {len(missing)} untouched" if missing else " · all covered")
        page.get_by_text(label, exact=True).first.wait_for(state="attached")
    untouched = [u for u in cov.untouched() if not u.startswith(("API ", "act "))]
    if untouched:
        page.get_by_text(untouched[0]).first.wait_for(state="attached")


def test_a_failing_test_shows_its_first_differing_turn(studio, page):
    ensure_project(studio, PROJECT, "restaurant_reservation")
    pf = studio.open_workspace().open(PROJECT)
    pf.put_test("wrong expectation", {"name": "wrong expectation", "parser": "formal", "turns": [
        {"user": 'answer("pizza in San Francisco with a patio")',
         "acts": [{"act": "report", "var": "answer", "kind": "kb"}], "match": "contains"},
        {"user": 'book_restaurant = BookRestaurant(restaurant=answer.result[0])',
         "acts": [{"act": "ask", "var": "book_restaurant", "field": "time"}],
         "values": {"book_restaurant.date": "2024-07-06"}},
    ]})
    open_tests(page, studio)
    page.get_by_test_id("stSelectbox").filter(has_text="Test").first.click()
    page.get_by_role("option", name="wrong expectation", exact=True).click()
    wait_idle(page)
    click(page, "Run this test")
    page.get_by_text("0 passed, 1 failed").wait_for()
    page.get_by_text("First differing turn: 2").wait_for()
    page.get_by_text("book_restaurant.date: expected '2024-07-06', got None").wait_for()
    table_cell(page, "Ask(book_restaurant, time)").wait_for(state="attached")
    table_cell(page, "Ask(book_restaurant, date)").wait_for(state="attached")

    click(page, "Delete this test")  # asks first (issue 14)
    page.get_by_role("dialog").get_by_role("button", name="Yes, delete").click()
    wait_idle(page)
    page.get_by_text("Deleted test 'wrong expectation'.").wait_for()
    assert "wrong expectation" not in studio.open_workspace().open(PROJECT).tests()
