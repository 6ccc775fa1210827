"""`genie eval`: the four metrics on a tiny formal project whose right and wrong turns are known."""

import io
import json
from pathlib import Path

import pytest

from core_engine.session.agent import Agent
from core_engine.cli import main
from core_engine.errors import SpecError
from core_engine.evaluation.metrics import (canonical_statements, evaluate, evaluate_kb_questions, format_table,
                                    statements_equal)

ROOT = Path(__file__).resolve().parents[1]

SPEC = {
    "format_version": 1, "name": "tiny", "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "apis": [{"name": "submit", "kind": "mock", "mock_result": {"status": "ok"}}],
    "worksheets": [{"name": "Main", "api": "submit", "fields": [
        {"name": "name", "type": "str"}, {"name": "age", "type": "int"},
        {"name": "confirm", "type": "confirm"}]}],
}

ASK = lambda field: {"act": "ask", "var": "main", "field": field}  # noqa: E731
API = {"act": "report", "kind": "api", "api": "submit"}

WRONG_AGE = {"name": "wrong age", "parser": "formal", "goal": {"api": "submit", "values": {"main.age": 31}}, "turns": [
    # right on all three metrics
    {"user": 'main.name = "Ann"', "statements": ['main.name = "Ann"'], "values": {"main.name": "Ann"},
     "acts": [ASK("age")]},
    # statements and values wrong (the annotation expects 31), acts right
    {"user": "main.age = 30", "statements": ["main.age = 31"], "values": {"main.age": 31}, "acts": [ASK("confirm")]},
    # only acts annotated, and wrong: exact match expects a single ask
    {"user": "main.confirm = True", "acts": [ASK("confirm")]},
]}

DERIVED_GOAL = {"name": "derived goal", "parser": "formal", "turns": [
    {"user": 'main.name = "Bo"\nmain.age = 7', "statements": ["main.age = 7", 'main.name = "Bo"'],
     "acts": [ASK("confirm")]},
    {"user": "main.confirm = True", "values": {"main.age": 7}, "acts": [API]},
]}

NATURAL = {"name": "natural", "parser": "offline", "turns": [{"user": "hello", "statements": []}]}


def _project(tmp_path: Path, tests: dict[str, dict]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "spec.json").write_text(json.dumps(SPEC))
    (tmp_path / "tests").mkdir()
    for name, test in tests.items():
        (tmp_path / "tests" / f"{name}.json").write_text(json.dumps(test))
    return tmp_path


def test_canonical_statements_ignore_order_keyword_order_and_construct_form():
    a = ['main.task = "X"', 'book = Book(b=2, a="one")']
    b = ['book.a = "one"', "book.b = 2", 'main.task = "X"']
    assert statements_equal(a, b)
    assert not statements_equal(a, ['main.task = "X"', "book.b = 2"])
    assert not statements_equal(["main.age = 30"], ["main.age = 31"])
    assert not statements_equal(["main.age = 30"], ["main.age = 30", "main.age = 30"])  # a multiset


def test_answer_queries_compare_by_shape_unless_text_is_asked():
    exp, got = ['x.r = answer("Pizza in SF!")'], ['x.r = answer("pizza in sf")']
    assert statements_equal(exp, ['x.r = answer("anything")'])
    assert statements_equal(exp, got, queries="text")
    assert not statements_equal(exp, ['x.r = answer("sushi")'], queries="text")
    assert statements_equal(['x.r = answer("*")'], ['x.r = answer("sushi")'], queries="text")
    assert not statements_equal(['answer("q")'], ['x.r = answer("q")'])


def test_unparsable_statements_never_equal_parsable_ones():
    assert canonical_statements(["main.x = ("]) == ["<rejected> main.x = ("]
    assert not statements_equal(["main.x = 1"], ["main.x = ("])


def test_metrics_count_right_wrong_and_unannotated_turns(tmp_path):
    agent = Agent.load(_project(tmp_path, {"a": WRONG_AGE, "b": DERIVED_GOAL, "c": NATURAL}))
    result = evaluate(agent, ["formal"])
    col = result["parsers"]["formal"]
    m = col["metrics"]
    assert (m["semantic_parsing"]["right"], m["semantic_parsing"]["n"]) == (2, 3)
    assert (m["execution"]["right"], m["execution"]["n"]) == (2, 3)
    assert (m["dialogue_acts"]["right"], m["dialogue_acts"]["n"]) == (4, 5)
    # wrong age: the API was called with 30 where the goal wants 31; derived goal: reached
    assert (m["goal_completion"]["right"], m["goal_completion"]["n"]) == (1, 2)
    goals = {t["name"]: t["goal"] for t in col["tests"]}
    assert goals["wrong age"]["reached"] is False and "main.age" in goals["wrong age"]["detail"]
    assert goals["derived goal"] == {"api": "submit", "reached": True, "detail": "called with the expected values"}
    assert col["skipped_tests"] == 1  # the natural-language test is not played as formal statements
    assert (col["turns"]["right"], col["turns"]["n"]) == (3, 5)  # what genie test checks
    assert (col["conversations"]["right"], col["conversations"]["n"]) == (1, 2)
    table = format_table(result)
    assert "2/3 (67%)" in table and "1/2 (50%)" in table and "KB questions" in table


def test_parsers_are_columns_and_offline_plays_only_natural_tests(tmp_path):
    agent = Agent.load(_project(tmp_path, {"a": WRONG_AGE, "c": NATURAL}))
    result = evaluate(agent, ["formal", "offline"])
    assert list(result["parsers"]) == ["formal", "offline"]
    off = result["parsers"]["offline"]
    assert off["skipped_tests"] == 1 and [t["name"] for t in off["tests"]] == ["natural"]
    assert off["metrics"]["semantic_parsing"] == {"right": 1, "n": 1, "accuracy": 1.0}
    assert off["metrics"]["goal_completion"]["n"] == 0


def test_cli_eval_json_shape_output_file_and_exit_codes(tmp_path):
    project = _project(tmp_path / "p", {"a": WRONG_AGE})
    out = io.StringIO()
    assert main(["eval", str(project), "--parser", "formal", "--json", "-o", str(tmp_path / "r.json")], out=out) == 0
    printed = json.loads(out.getvalue())
    assert printed == json.loads((tmp_path / "r.json").read_text())
    assert printed["project"] == "tiny" and set(printed["parsers"]) == {"formal"}
    assert set(printed["parsers"]["formal"]["metrics"]) == {"semantic_parsing", "execution", "dialogue_acts",
                                                            "goal_completion"}
    out = io.StringIO()
    assert main(["eval", str(project), "--parser", "formal", "--parser", "offline"], out=out) == 0
    header = out.getvalue().splitlines()[1]
    assert "formal" in header and "offline" in header
    assert main(["eval", str(project), "--parser", "nonsense"], out=io.StringIO()) == 2
    assert main(["eval", str(tmp_path / "missing")], out=io.StringIO()) == 2


def test_bad_test_file_is_named(tmp_path):
    project = _project(tmp_path, {})
    (project / "tests" / "broken.json").write_text("{not json")
    with pytest.raises(SpecError, match="broken.json"):
        evaluate(Agent.load(project), ["formal"])


def test_kb_questions_score_row_ids():
    agent = Agent.load(ROOT / "tests" / "agents" / "dental_clinic")
    result = evaluate_kb_questions(agent, [
        {"question": "Dr. Grace Garcia", "expected_ids": ["d01"], "mode": "all"},
        {"question": "Dr. Grace Garcia", "expected_ids": ["d02"], "mode": "any"}])
    assert (result["right"], result["n"]) == (1, 2)
    assert result["questions"][0]["ids"] == ["d01"]


def test_eval_view_frames_have_a_column_per_parser(tmp_path):
    from components.testing.eval_view import eval_frame, goals_frame
    result = evaluate(Agent.load(_project(tmp_path, {"a": WRONG_AGE, "b": DERIVED_GOAL})), ["formal"])
    frame = eval_frame(result)
    assert list(frame.columns) == ["metric", "formal"]
    assert frame.set_index("metric").loc["goal completion", "formal"] == "1/2 (50%)"
    goals = goals_frame(result).set_index("test")
    assert goals.loc["derived goal", "formal"] == "✓" and goals.loc["wrong age", "formal"].startswith("✗ main.age")


def test_tests_page_evaluates_the_project(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from storage import Workspace
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("GENIE_NO_SAMPLES", "1")
    Workspace(tmp_path / "ws").from_sample(ROOT / "sample_projects" / "bank_fraud", "bf").close()
    at = AppTest.from_file(str(ROOT / "studio" / "app.py"), default_timeout=60)
    at.query_params["project"] = "bf"
    at.run()
    at.switch_page("pages/tests.py").run()
    at.multiselect(key="tests-eval-parsers").set_value(["offline"]).run()
    at.button(key="tests-eval-run").click().run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert not errors, errors
    table = next(df.value for df in at.dataframe if "metric" in df.value.columns).set_index("metric")
    assert list(table.columns) == ["offline"]
    assert table.loc["turns fully right", "offline"] != "-"
    at.toggle(key="tests-eval-gold").set_value(True).run()  # a second column: the same parser, gold context
    at.button(key="tests-eval-run").click().run()
    assert not at.exception, at.exception
    table = next(df.value for df in at.dataframe if "metric" in df.value.columns).set_index("metric")
    assert list(table.columns) == ["offline", "offline (gold context)"]
    assert table.loc["turns fully right", "offline (gold context)"] != "-"


def test_llm_parser_column_through_the_scripted_server(tmp_path, scripted_server, scripted_llm_config, no_llm_env):
    from tests.fakes.openai_server import Reply
    natural = {"name": "ann", "parser": "offline", "turns": [
        {"user": "I'm Ann", "statements": ['main.name = "Ann"'], "values": {"main.name": "Ann"}},
        {"user": "thirty", "statements": ["main.age = 30"], "values": {"main.age": 30}}]}
    agent = Agent.load(_project(tmp_path, {"ann": natural}))
    scripted_server.push(Reply('```python\nmain.name = "Ann"\n```'), Reply("```python\nmain.age = 31\n```"))
    col = evaluate(agent, ["llm"], session_options={"llm_config": scripted_llm_config})["parsers"]["llm"]
    assert col["metrics"]["semantic_parsing"] == {"right": 1, "n": 2, "accuracy": 0.5}
    assert col["metrics"]["execution"]["right"] == 1 and col["failed_turns"] == 0
    # nothing scripted any more: every turn fails, and the result says so instead of only scoring 0
    col = evaluate(agent, ["llm"], session_options={"llm_config": scripted_llm_config})["parsers"]["llm"]
    assert col["failed_turns"] == 2 and col["first_failure"]
