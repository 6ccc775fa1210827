"""Cost at size (issue 17): states share what did not change, the policy judges WS predicates by
group, the importer indexes, the LLM prompt keeps a token budget, `genie --help` starts light.
Timings are in bench/bench_scale.py; these tests check the behaviour the speed relies on."""

from __future__ import annotations

import csv
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from core_engine import Agent, Spec
from core_engine.knowledge.kb import SQLiteKB, list_table_name
from core_engine.llm.prompting import render_few_shots, select_few_shots
from core_engine.policy.runtime import Runtime
from core_engine.policy.apis import ApiRunner
from core_engine.errors import StatementError
from core_engine.dialogue.state import DialogueState, KBRecord
from storage.kb.importer import SAMPLE_ROWS, import_file

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def restaurant() -> Agent:
    return Agent.load(ROOT / "sample_projects" / "restaurant_reservation")


# -- the state ----------------------------------------------------------------------------


def test_turns_share_kb_rows_and_unchanged_record_json_and_keep_old_snapshots(restaurant):
    session = restaurant.new_session(parser="formal")
    first = session.turn('answer("pizza in San Francisco")')
    before = json.dumps(first.state, sort_keys=True)
    second = session.turn("book = BookRestaurant(number_of_people=2)")
    third = session.turn("book.number_of_people = 3")
    kb = lambda result: next(r for r in result.state["records"] if r["var"] == "answer")  # noqa: E731
    book = lambda result: next(r for r in result.state["records"] if r["var"] == "book")  # noqa: E731
    assert kb(first)["result"] and kb(second) is kb(third)  # an unchanged record: the same JSON object
    assert kb(first)["result"] is kb(third)["result"]  # rows kept by reference, not copied
    assert book(second)["values"]["number_of_people"] == 2 and book(third)["values"]["number_of_people"] == 3
    assert json.dumps(first.state, sort_keys=True) == before  # later turns did not touch an earlier snapshot
    session.rewind(1)
    assert session.state["records"] == second.state["records"]


def test_a_settled_kb_record_is_frozen_once_shared(restaurant):
    session = restaurant.new_session(parser="formal")
    session.turn('answer("pizza in San Francisco")')
    work = session.current.copy()
    record = work.get("answer")
    assert isinstance(record, KBRecord) and record is session.current.get("answer")
    with pytest.raises(RuntimeError, match="settled"):
        record.status = "pending"
    task = work.get("user_info")
    assert task is not session.current.get("user_info")  # task records are cloned
    task.values["user_task"] = "x"
    assert "user_task" not in session.current.get("user_info").values


def test_a_completed_task_is_shared_frozen_and_exitws_still_works(restaurant):
    session = restaurant.new_session(parser="formal")
    for line in ('answer("pizza in San Francisco")',
                 'book = BookRestaurant(restaurant=answer.result[0], date="2024-07-06", time="19:00", '
                 'number_of_people=2, special_request_info="none")', "book.confirm = True", "# chit-chat"):
        assert session.turn(line).ok
    done = session.current.get("book")
    assert done.status == "completed" and done.settled()
    work = session.current.copy()
    assert work.get("book") is done  # shared, not copied
    with pytest.raises(StatementError, match="already completed"):
        work.get("book").values["number_of_people"] = 9
    completed = session.state
    result = session.turn("exitws(book)")
    assert result.ok and next(r for r in result.state["records"] if r["var"] == "book")["status"] == "abandoned"
    assert next(r for r in completed["records"] if r["var"] == "book")["status"] == "completed"
    assert session.turns[-2].snapshot.get("book").status == "completed"


def test_state_json_round_trip_after_copies(restaurant):
    session = restaurant.new_session(parser="formal")
    for line in ('answer("pizza in San Francisco")', "book = BookRestaurant(number_of_people=2)"):
        session.turn(line)
    again = DialogueState.from_json(json.loads(json.dumps(session.state))).copy()
    assert again.to_json() == session.state


def _booking_turns(k: int) -> list[str]:
    """The k-th booking of bench_scale's long conversation: a question, a booking, details, yes."""
    from bench.bench_scale import booking_lines
    lines = booking_lines()
    return [next(lines) for _ in range(5 * k)][-5:]


def test_a_turn_late_in_a_long_conversation_visits_only_the_open_records(restaurant):
    """Settled records are shared by the list copy and skipped by the policy: the number of Python
    calls a turn makes does not grow with the records the conversation piled up."""
    import gc
    import sys
    session = restaurant.new_session(parser="formal")
    calls = {"n": 0}

    def count(frame, event, arg):
        if event == "call":
            calls["n"] += 1

    per_booking = []
    for k in range(1, 13):
        for line in _booking_turns(k):
            assert session.turn(line).ok
        calls["n"] = 0
        gc.collect()  # no finaliser of earlier tests' garbage may run (and count) inside the measured turn
        gc.disable()
        sys.setprofile(count)
        try:
            assert session.turn("main.user_task = \"Book Restaurant\"").ok
        finally:
            sys.setprofile(None)
            gc.enable()
        per_booking.append(calls["n"])
    assert len(session.current.records) > 30
    assert per_booking[-1] == per_booking[3], per_booking


def test_cached_state_json_matches_every_record_after_edits_forks_and_rewinds(restaurant):
    session = restaurant.new_session(parser="formal")
    lines = [*_booking_turns(1), *_booking_turns(2), "exitws(book_1)", 'book_3 = BookRestaurant(number_of_people=4)']
    for line in lines:
        result = session.turn(line)
        assert result.ok, line
        assert result.state["records"] == [r.to_json() for r in result.snapshot.records]
    assert next(r for r in session.state["records"] if r["var"] == "book_1")["status"] == "abandoned"
    session.rewind(2)
    fork = session.fork()
    result = fork.turn("book_2 = BookRestaurant(number_of_people=5)")
    assert result.state["records"] == [r.to_json() for r in result.snapshot.records]
    assert DialogueState.from_json(json.loads(json.dumps(fork.state))).to_json()["records"] == fork.state["records"]
    session.set_field("book_2", "number_of_people", 6) if session.current.get("book_2").status == "active" else None
    assert session.state["records"] == [r.to_json() for r in session.current.records]


# -- the policy ---------------------------------------------------------------------------


def wide(n: int) -> Spec:
    from bench.bench_scale import wide_spec
    return wide_spec(n)


def test_names_for_builds_only_the_names_asked_for(restaurant):
    state = restaurant.new_session(parser="formal").current.copy()
    rt = Runtime(restaurant.spec, state, apis=ApiRunner(restaurant.spec))
    full = rt.names_for(None)
    some = rt.names_for(None, frozenset({"user_task", "BookRestaurant", "nothing_like_this"}))
    assert set(some) == {"user_task", "BookRestaurant"}
    assert some["user_task"] == full["user_task"] and some["BookRestaurant"].name == "BookRestaurant"


def test_grouped_ws_predicates_open_the_chosen_worksheet_and_trace_every_outcome():
    agent = Agent(spec=wide(60))
    for k in (7, 7, 42):  # the second run of 7 comes from the group memo
        session = agent.new_session(parser="formal")
        result = session.turn(f'user_info.user_task = "Task{k}"')
        opened = [r["worksheet"] for r in result.state["records"] if r["initiator"] == "agent" and r["var"] != "user_info"]
        assert opened == [f"Task{k}"]
        traced = {p["where"]: p["value"] for p in result.trace["policy"]["predicates"]}
        assert traced[f"Task{(k + 1) % 60} (ws_predicate)"] is False
        assert len([w for w in traced if w.endswith("(ws_predicate)")]) == 60
        again = session.turn(f'user_info.user_task = "Task{(k + 1) % 60}"')
        names = [r["worksheet"] for r in again.state["records"] if r["initiator"] == "agent"]
        assert f"Task{(k + 1) % 60}" in names and f"Task{k}" in names


def test_a_failing_ws_predicate_is_still_traced_as_an_error():
    spec = Spec.model_validate({"name": "bad", "worksheets": [
        {"name": "Main", "fields": [{"name": "n", "type": "int", "description": "n"}]},
        {"name": "Other", "predicate": "n > 1 and undefined_name", "fields": [
            {"name": "x", "type": "str", "description": "x"}]}]})
    result = Agent(spec=spec).new_session(parser="formal").turn("main.n = 5")
    assert result.ok
    assert any(e["where"] == "Other (ws_predicate)" for e in result.trace["policy"]["errors"])


# -- the importer ---------------------------------------------------------------------------


def write_rows(path: Path, rows: list[list[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "city", "tags", "rating", "review"])
        writer.writerows(rows)
    return path


def rows(n: int) -> list[list[object]]:
    return [[i, ("Oakland", "Palo Alto")[i % 2], json.dumps(["a", "b"] if i % 3 else ["c"]), f"{i % 5}.5",
             "A long review that makes this column free text for the full-text index, twice over. " * 2]
            for i in range(1, n + 1)]


def test_import_indexes_filter_columns_and_builds_a_hidden_list_lookup(tmp_path):
    db = tmp_path / "kb.sqlite"
    import_file(db, write_rows(tmp_path / "r.csv", rows(300)), "places")
    conn = sqlite3.connect(db)
    indexes = {name: sql for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'")
               if sql}
    assert any('ON "places" ("rating", "city")' in sql for sql in indexes.values())  # numeric, with the few-valued
    assert any('ON "places" ("city")' in sql for sql in indexes.values())
    assert not any('"review"' in sql for sql in indexes.values())  # free text: the FTS index instead
    lookup = list_table_name("places", "tags")
    got = conn.execute(f'SELECT value, count(*) FROM "{lookup}" GROUP BY value ORDER BY value').fetchall()
    assert got == [("a", 200), ("b", 200), ("c", 100)]
    conn.close()
    with SQLiteKB(db) as kb:
        assert set(kb.tables()) == {"places"} and kb.tables()["places"].list_tables == ("tags",)
        found = kb.execute(f'SELECT id FROM places WHERE rowid IN (SELECT row_id FROM "{lookup}" WHERE value = ?) '
                           "ORDER BY id LIMIT 3", ("c",)).rows
        assert [r["id"] for r in found] == [3, 6, 9]
    import_file(db, write_rows(tmp_path / "s.csv", rows(10)), "places", replace=True)
    with sqlite3.connect(db) as conn:
        assert conn.execute(f'SELECT count(*) FROM "{lookup}"').fetchone()[0] == 17


def test_a_row_past_the_sample_that_does_not_fit_its_type_redoes_the_import(tmp_path):
    data = rows(SAMPLE_ROWS + 500)
    data[SAMPLE_ROWS + 100][0] = "0042"  # not an int by the rules of inference (a leading zero): id is text
    data[SAMPLE_ROWS + 200][2] = "[not json"  # tags is no longer a list
    report = import_file(tmp_path / "kb.sqlite", write_rows(tmp_path / "r.csv", data), "places")
    types = {c.name: c.type for c in report.columns}
    assert types["id"] == "text" and types["tags"] == "text" and types["rating"] == "float"
    with SQLiteKB(tmp_path / "kb.sqlite") as kb:
        assert kb.execute("SELECT id FROM places WHERE rowid = ?", (SAMPLE_ROWS + 101,)).rows == [{"id": "0042"}]


def test_a_bad_value_past_the_sample_with_a_given_type_names_its_row_and_line(tmp_path):
    from core_engine.errors import StorageError
    data = rows(SAMPLE_ROWS + 50)
    data[SAMPLE_ROWS + 20][3] = "high"
    path = write_rows(tmp_path / "r.csv", data)
    with pytest.raises(StorageError, match=rf"row {SAMPLE_ROWS + 21}, column 'rating'") as info:
        import_file(tmp_path / "kb.sqlite", path, "places", column_types={"rating": "float"})
    assert info.value.context["line"] == SAMPLE_ROWS + 22
    assert not (tmp_path / "kb.sqlite").exists()


# -- the LLM prompt ---------------------------------------------------------------------------


def test_few_shots_most_like_the_turn_within_the_budget():
    examples = render_few_shots([
        {"user": "Book a table for four tonight", "statements": "book = Book(people=4)"},
        {"user": "What Thai restaurants are in Sunnyvale?", "statements": 'answer("Thai in Sunnyvale")'},
        {"user": "Cancel my order please", "statements": "exitws(order)"},
    ])
    costs = [100, 100, 100]
    picked = select_few_shots(examples, costs, "any Thai restaurants in Palo Alto?", room=250, most=2)
    assert len(picked) == 2 and "What Thai restaurants are in Sunnyvale?" in [e["user"] for e in picked]
    assert [e["user"] for e in select_few_shots(examples, costs, "please cancel the order", room=250, most=1)] == [
        "Cancel my order please"]
    assert select_few_shots(examples, costs, "Thai", room=99, most=3) == []


def test_the_parser_prompt_stays_under_its_token_budget_with_big_results(restaurant):
    import datetime as dt

    from core_engine.llm.client import ScriptedClient
    from core_engine.parsers.base import ParseContext
    from core_engine.parsers.llm import PROMPT_TOKENS_MAX, LLMParser
    from core_engine.llm.tokens import chat_tokens
    session = restaurant.new_session(parser="formal")
    for line in ('answer("restaurants in San Francisco")', "book = BookRestaurant(number_of_people=2)"):
        session.turn(line)
    parser = LLMParser(ScriptedClient([]), few_shots=restaurant.few_shots)
    prompt = parser.prompt("the second one", ParseContext(spec=restaurant.spec, state=session.current,
                                                         today=dt.date(2024, 7, 1)))
    assert chat_tokens(prompt.messages) <= PROMPT_TOKENS_MAX


# -- startup --------------------------------------------------------------------------------


def test_genie_help_does_not_import_the_heavy_libraries():
    code = ("import sys\nfrom core_engine.cli import build_parser\nbuild_parser().format_help()\n"
            "print(sorted(m for m in ('openai', 'pandas', 'numpy', 'sqlite_utils', 'streamlit', 'pydantic', 'starlette', "
            "'uvicorn', 'psycopg') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_parts_of_a_completed_task_are_settled_and_not_live_for_the_parser():
    """A nested record whose task was carried out is shared and frozen like the task, so it is not
    visited again, and the offline parser no longer offers it values (a new ticket's details go to
    the new ticket)."""
    from bench.bench_load import TODAY, lines
    from core_engine.parsers.offline.answering.slots import StateView
    agent = Agent.load(ROOT / "sample_projects" / "ticket_submission")
    session = agent.new_session(parser="offline", today=TODAY)
    first_ticket = lines("ticket_submission")[:5]  # a complaint, its details, a name, "Correct"
    for line in first_ticket:
        assert session.turn(line).ok
    assert session.current.get("main").status == "completed"
    assert session.turn(first_ticket[0]).ok  # the same problem again: a second ticket
    state = session.current
    nested = state.get("external_test_credits")
    assert nested.status == "active" and nested.outcome is not None and nested.__dict__.get("_frozen")
    assert nested not in state.open_records()
    live = [r.var for r in StateView(agent.spec, state).live_records()]
    assert "external_test_credits" not in live and "external_test_credits_2" in live
    before = dict(nested.values)
    for line in first_ticket[1:3]:
        assert session.turn(line).ok
    assert dict(session.current.get("external_test_credits").values) == before
    assert session.current.get("external_test_credits_2").values
