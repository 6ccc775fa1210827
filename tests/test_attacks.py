"""Issue 13: one regression test per row of the attack table (rows 1-19), each a real attack.

Every test failed on the main branch the attack was found on and passes with the
mechanisms of docs/reliability.md ("Threat model"): safe paths, schema allow-list,
code trust, JSON-safe values, the confirmation rule, byte budgets, SQLite limits,
http without redirects and with one deadline, ${env:NAME} secrets, per-turn deltas,
and text shown as text in the studio.
"""

from __future__ import annotations

import http.server
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from core_engine import Agent, Spec
from core_engine.policy.apis import ApiRunner
from core_engine.errors import BackendError, GenieError, KnowledgeError, SandboxError, StorageError
from core_engine.knowledge.kb import SQLiteKB
from storage import ProjectFile, Workspace, export_bundle, import_bundle
from tests.robustness import assert_turn_sound, strict_json

ROOT = Path(__file__).resolve().parents[1]

BOOKING = [
    {"name": "Main", "fields": [
        {"name": "user_task", "type": "Enum", "enum_values": ["Book", "Browse"], "description": "What to do"}]},
    {"name": "Book", "predicate": 'user_task == "Book"', "api": "book", "fields": [
        {"name": "date", "type": "date", "description": "The date"},
        {"name": "people", "type": "int", "description": "How many people", "confirm": True},
        {"name": "amount", "type": "float", "description": "Deposit", "required": False, "dont_ask": True},
        {"name": "note", "type": "str", "required": False, "dont_ask": True},
        {"name": "confirm", "type": "confirm", "description": "Book it?"}]},
]
BOOK_API = [{"name": "book", "kind": "mock", "mock_result": {"booking_id": "{transaction_id}"}}]


def booking_session():
    spec = Spec.model_validate({"worksheets": BOOKING, "apis": BOOK_API})
    return Agent(spec=spec).new_session(parser="formal")


def api_reports(result) -> list[dict]:
    return [a for a in result.acts if a["act"] == "report" and a.get("kind") == "api"]


@pytest.fixture
def ws(tmp_path, monkeypatch) -> Workspace:
    monkeypatch.setenv("GENIE_CACHE_DIR", str(tmp_path / "cache"))
    return Workspace(tmp_path / "ws")


def small_project(ws: Workspace, name: str = "p", *, table: str | None = None) -> ProjectFile:
    spec = Spec.model_validate({"name": name, "worksheets": BOOKING, "apis": BOOK_API})
    project = ws.create(name, spec)
    if table:
        project.import_kb_records([{"name": "Ada", "city": "Paris"}], table)
    return project


def bundle_of(project: ProjectFile, out: Path, *, sql: list[tuple[str, tuple]] = ()) -> Path:
    """Export ``project`` as a bundle, then tamper with it the way an attacker would (raw SQL)."""
    path = export_bundle(project, out)
    conn = sqlite3.connect(path)
    for statement, params in sql:
        conn.execute(statement, params)
    conn.commit()
    conn.close()
    return path


def files_outside(root: Path, allowed: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and allowed not in p.parents and p != allowed]


# -- row 1: a "yes" the agent never asked for ------------------------------------------------------


@pytest.mark.parametrize("value", ['"yes"', "1", '"true"', '"ok"', "True"])
def test_row_01_unasked_confirmation_never_calls_the_api(value):
    s = booking_session()
    s.turn('main.user_task = "Book"\nbook.date = "2024-07-06"\nbook.people = 3')  # agent asks to confirm people
    r = s.turn(f"confirm(book.people)\nbook.confirm = {value}")
    assert api_reports(r) == []
    assert any("answered yes in the turn right after" in x["error"] for x in r.trace["parse"]["rejected"])
    assert r.acts[-1]["act"] == "ask" and r.acts[-1]["field"] == "confirm"  # now it asks
    r = s.turn(f"book.confirm = {value}")
    assert len(api_reports(r)) == 1  # the same yes, right after the question, counts


# -- row 2: a KB table named ../../x -------------------------------------------------------------


@pytest.mark.parametrize("table", ["../../escaped", "/ABS/escaped-abs"])
def test_row_02_kb_table_names_cannot_write_outside_the_folder(ws, tmp_path, table):
    table = table.replace("/ABS", str(tmp_path / "abs"))
    bundle = bundle_of(small_project(ws, table="people"), tmp_path / "b.genie",
                       sql=[("ALTER TABLE people RENAME TO " + json.dumps(table), ()),
                            ("UPDATE _genie_columns SET table_name = ?", (table,))])
    out = tmp_path / "deep" / "out"
    with pytest.raises(StorageError, match="table name"):
        import_bundle(bundle, out)
    assert not out.exists()
    assert not list(tmp_path.rglob("*escaped*.jsonl"))


# -- row 3: a stored file path or test name that escapes ----------------------------------------


@pytest.mark.parametrize("column,value", [("test", "../../../pwned"), ("file", "../../pwned.py"),
                                          ("file", "/ABS/pwned-abs.py")])
def test_row_03_bundle_paths_never_escape_the_cache_or_output(ws, tmp_path, column, value):
    value = value.replace("/ABS", str(tmp_path / "abs"))
    sql = ("INSERT INTO _genie_tests (name, test_json, modified) VALUES (?, '{\"turns\": []}', '')" if column == "test"
           else "INSERT INTO _genie_files (path, text, modified) VALUES (?, 'print(1)', '')")
    bundle = bundle_of(small_project(ws), tmp_path / "b.genie", sql=[(sql, (value,))])
    with pytest.raises(StorageError):
        Agent.load(bundle)  # genie lint/chat/test FILE
    with pytest.raises(StorageError):
        import_bundle(bundle, tmp_path / "out")
    assert not list(tmp_path.rglob("pwned*"))


# -- row 4: a trigger inside a bundle ---------------------------------------------------------------


def test_row_04_triggers_views_and_foreign_objects_are_refused_by_name(ws, tmp_path):
    plant = ("CREATE TRIGGER plant AFTER INSERT ON _genie_versions BEGIN "
             "INSERT OR REPLACE INTO _genie_files VALUES ('api.py', 'import os', ''); END")
    bundle = bundle_of(small_project(ws), tmp_path / "b.genie",
                       sql=[(plant, ()), ("CREATE VIEW peek AS SELECT * FROM _genie_meta", ())])
    with pytest.raises(StorageError, match="trigger 'plant'.*view 'peek'|view 'peek'.*trigger 'plant'"):
        ws.import_path(bundle, "imported")
    assert not ws.exists("imported")
    with pytest.raises(StorageError, match="trigger 'plant'"):
        Agent.load(bundle)


def test_row_04_import_rebuilds_the_file_from_known_tables_and_columns(ws, tmp_path):
    odd = bundle_of(small_project(ws, "odd", table="people"), tmp_path / "odd.genie", sql=[
        ("CREATE TABLE shadowy (x CHECK (length(x) < 5) DEFAULT 'a')", ()),
        ("INSERT INTO shadowy VALUES ('b')", ()),
        ("INSERT INTO _genie_meta VALUES ('trusted_code', 'forged')", ())])
    with ws.import_path(odd, "rebuilt") as project:
        assert project.kb_tables() == ["people", "shadowy"]
        sql = dict(project._store.query("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
        assert "CHECK" not in sql["shadowy"] and "DEFAULT" not in sql["shadowy"]  # our CREATE, not theirs
        assert "trusted_code" not in project.meta()
        with SQLiteKB(project.kb_path()) as kb:
            assert kb.execute("SELECT name, city FROM people").rows == [{"name": "Ada", "city": "Paris"}]


# -- rows 5, 6, 9: values that are not strict JSON ----------------------------------------------------


@pytest.mark.parametrize("statement", [
    "book.people = 0x" + "f" * 4000,          # an int of ~4,800 digits
    'book.note = "\\ud800"',                   # a lone surrogate
    "book.people = 99999999999999999999999",   # beyond int64
])
def test_row_05_huge_ints_and_lone_surrogates_are_refused_not_stored(statement):
    s = booking_session()
    s.turn('main.user_task = "Book"')
    r = s.turn(statement)
    assert_turn_sound(r, allow_fallback=False)
    assert r.trace["parse"]["rejected"], "the statement should be refused with a reason"
    json.dumps(r.to_json(2), ensure_ascii=False).encode("utf-8")  # what --jsonl/--record write


SPEC_CODE = [
    {"name": "Main", "fields": [
        {"name": "x", "type": "int", "description": "x", "actions": "{action}"},
        {"name": "ratio", "type": "float", "kind": "internal", "required": False},
        {"name": "info", "type": "Info", "kind": "internal", "required": False}]},
    {"name": "Info", "kind": "type", "fields": [{"name": "a", "type": "str"}]},
]


@pytest.mark.parametrize("action", ['self.ratio = float("nan")', "self.info = {(1, 2): 3}",
                                    'self.info = {"a": 1, 2: "b"}', 'self.info = {"$ref": "main"}',
                                    "self.ratio = 10 ** 400"])
def test_row_06_spec_code_cannot_store_non_json_values(action):
    worksheets = json.loads(json.dumps(SPEC_CODE).replace("{action}", action.replace('"', '\\"')))
    s = Agent(spec=Spec.model_validate({"worksheets": worksheets})).new_session(parser="formal")
    r = s.turn("main.x = 1")
    assert_turn_sound(r, allow_fallback=False)
    assert r.trace["policy"]["errors"], "the action's bad value should be an error in the trace"
    r = s.turn("main.x = 2")  # the session goes on
    assert_turn_sound(r, allow_fallback=False)


@pytest.mark.parametrize("text", ["1e999", '"nan"', '"-inf"', '"Infinity"'])
def test_row_09_infinity_and_nan_never_reach_a_float_field(text):
    s = booking_session()
    s.turn('main.user_task = "Book"')
    r = s.turn(f"book.amount = {text}")
    assert_turn_sound(r, allow_fallback=False)
    assert "finite" in json.dumps(r.trace["parse"]["rejected"])


# -- row 7: spec code that costs far more than its step count -----------------------------------------


@pytest.mark.parametrize("expression", ['("a" * 999999 + "b") in ["a" * 1000000] * 50000',
                                        'len(str(["a" * 1000000] * 1000))',
                                        "len(f\"{['a' * 1000000] * 1000}\")"])
def test_row_07_single_operations_are_charged_by_size(expression):
    from core_engine.policy import sandbox
    with pytest.raises(SandboxError, match="more than"):
        sandbox.evaluate(sandbox.check_expression(expression), {}, timeout_s=0.5)


def test_row_07_say_is_capped_per_turn():
    worksheets = [{"name": "Main", "fields": [
        {"name": "x", "type": "int", "description": "x", "actions": "sorted(range(20000), key=say)"}]}]
    s = Agent(spec=Spec.model_validate({"worksheets": worksheets})).new_session(parser="formal")
    r = s.turn("main.x = 1")
    assert len(r.acts) <= 60
    assert any("said more than" in e["error"] for e in r.trace["policy"]["errors"])


# -- row 8: one SQL function call that outruns the query time limit ---------------------------------


def test_row_08_quadratic_sql_functions_finish_inside_the_time_limit(tmp_path):
    db = tmp_path / "kb.sqlite"
    sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.commit()
    kb = SQLiteKB(db, timeout_s=2.0)
    try:
        result = kb.execute("SELECT instr(printf('%.*c',800000,'a'), printf('%.*c',400000,'a')||'b') AS i, "
                            "length(replace(printf('%.*c',800000,'a'), printf('%.*c',400000,'a')||'b', '')) AS n")
        assert result.rows == [{"i": 0, "n": 800000}]
        assert result.elapsed_ms < 2000  # the KB's own time limit holds (it took 4.1 s)
        with pytest.raises(KnowledgeError, match="depth"):
            kb.execute("SELECT " + "+".join(["1"] * 150))  # SQLITE_LIMIT_EXPR_DEPTH
    finally:
        kb.close()


# -- rows 10, 11: http APIs ---------------------------------------------------------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[dict[str, str]] = []
    redirect_to = ""
    drip = False

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        type(self).seen.append(dict(self.headers))
        if self.redirect_to:
            self.send_response(302)
            self.send_header("Location", self.redirect_to)
            self.end_headers()
            return
        body = b'{"ok": true, "padding": "xxxxxxxxxxxxxx"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        for i in range(len(body)):
            if self.drip:
                time.sleep(0.1)
            try:
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
            except OSError:
                return

    do_GET = do_POST

    def log_message(self, *args: Any) -> None:
        pass


def _serve(**attrs: Any) -> tuple[http.server.ThreadingHTTPServer, str, type]:
    handler = type("Handler", (_Recorder,), {"seen": [], **attrs})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/x", handler


def _http_spec(url: str, headers: dict[str, str], timeout_s: float = 2.0) -> Spec:
    return Spec.model_validate({"worksheets": [{"name": "Main", "fields": []}], "apis": [
        {"name": "send", "kind": "http", "url": url, "headers": headers, "timeout_s": timeout_s}]})


def test_row_10_credentials_never_follow_a_redirect(monkeypatch):
    other, other_url, other_handler = _serve()
    first, first_url, _ = _serve(redirect_to=other_url)
    monkeypatch.setenv("SHOP_TOKEN", "s3cr3t-token-value")
    monkeypatch.setenv("GENIE_API_ENV", "SHOP_TOKEN")  # the user allows agents to read it
    try:
        runner = ApiRunner(_http_spec(first_url, {"Authorization": "Bearer ${env:SHOP_TOKEN}", "X-Api-Key": "${env:SHOP_TOKEN}"}))
        with pytest.raises(BackendError, match="redirect"):
            runner.call("send", {"a": 1})
        assert not any("s3cr3t" in json.dumps(h) for h in other_handler.seen)
    finally:
        other.shutdown()
        first.shutdown()


def test_row_11_one_deadline_covers_the_whole_body():
    server, url, _ = _serve(drip=True)  # ~42 bytes at one per 0.1 s: 4 s in all, every byte within 0.5 s
    try:
        started = time.monotonic()
        with pytest.raises(BackendError, match="within 0.8 s"):
            ApiRunner(_http_spec(url, {}, timeout_s=0.8)).call("send", {})
        assert time.monotonic() - started < 2.0
    finally:
        server.shutdown()


# -- row 12: literal secrets in exports ------------------------------------------------------------


def test_row_12_every_export_strips_literal_secrets_and_lint_flags_them(ws, tmp_path):
    from core_engine.lint import lint
    secrets = ["qs-SECRET-123", "sig-SECRET-456", "dXNlcjpzZWNyZXQtNzg5", "bearer-SECRET-000"]
    spec = Spec.model_validate({"name": "s", "worksheets": [{"name": "Main", "fields": []}], "apis": [
        {"name": "send", "kind": "http", "url": f"https://api.example.com/v1?api_key={secrets[0]}&page=2",
         "headers": {"X-Signature": secrets[1], "Authorization": f"Basic {secrets[2]}", "Accept": "text/json"}},
        {"name": "other", "kind": "http", "url": "https://api.example.com/v2",
         "headers": {"Authorization": f"Bearer {secrets[3]}", "X-Token": "${env:OK_TOKEN}"}}]})
    project = ws.create("s", spec)
    codes = [d.code for d in lint(spec)]
    assert codes.count("api-literal-secret") == 4
    outputs = [project.export_json(tmp_path / "s.json"), project.export_csv(tmp_path / "s.csv"),
               project.export_bundle(tmp_path / "s.genie")]
    folder = project.export_folder(tmp_path / "folder")
    texts = [p.read_bytes() for p in outputs] + [p.read_bytes() for p in folder.rglob("*") if p.is_file()]
    for secret in secrets:
        assert not any(secret.encode() in t for t in texts), secret
    exported = json.loads((tmp_path / "s.json").read_text())
    assert exported["apis"][1]["headers"]["X-Token"] == "${env:OK_TOKEN}"  # references stay
    assert "page=2" in exported["apis"][0]["url"]


# -- row 13: recording grows linearly ---------------------------------------------------------------


def test_row_13_recorded_turns_store_deltas_not_the_whole_state(ws):
    project = ws.from_sample(ROOT / "sample_projects" / "restaurant_reservation", "rec")
    session = project.agent().new_session(parser="formal")
    log = project.start_log(parser="formal", rg="template")
    for n in range(1, 9):
        log.append(session.turn("\n".join(f'answer("italian places {n} {i}")' for i in range(6))).to_json(turn=n))
    stored = [len(t) for (t,) in project._store.query(
        "SELECT turn_json FROM _genie_log_turns WHERE log_id = ? ORDER BY turn", (log.id,))]
    assert max(stored[-2:]) < 1.5 * max(stored[1:3]), stored  # turn 8 costs what turn 2 did
    assert len(log.turns()[-1]["state"]["records"]) == len(session.state["records"])  # rebuilt whole
    project.close()


# -- row 14: deeply nested JSON --------------------------------------------------------------------------


DEEP = "[" * 50_000 + "]" * 50_000


@pytest.mark.parametrize("where", ["test", "few_shots", "manifest"])
def test_row_14_deep_json_is_a_clear_error(ws, tmp_path, where):
    sql = {"test": ("INSERT INTO _genie_tests (name, test_json, modified) VALUES ('deep', ?, '')", (DEEP,)),
           "few_shots": ("INSERT INTO _genie_files (path, text, modified) VALUES ('few_shots.json', ?, '')", (DEEP,)),
           "manifest": ("UPDATE _genie_meta SET value = ? WHERE key = 'manifest'", (DEEP,))}[where]
    bundle = bundle_of(small_project(ws), tmp_path / "b.genie", sql=[sql])
    with pytest.raises(StorageError, match="nested"):
        if where == "manifest":
            import_bundle(bundle, tmp_path / "out")
        else:
            Agent.load(bundle)


# -- rows 15, 16, 19: the studio ------------------------------------------------------------------------


def _studio(tmp_path, monkeypatch, page: str, project: str):
    from streamlit.testing.v1 import AppTest
    monkeypatch.setenv("GENIE_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("GENIE_NO_SAMPLES", "1")
    at = AppTest.from_file(str(ROOT / "studio" / "app.py"), default_timeout=60)
    at.query_params["project"] = project
    at.run()
    at.switch_page(f"pages/{page}.py").run()
    return at


@pytest.mark.parametrize("page", ["worksheets", "playground", "knowledge", "graph", "tests"])
def test_row_15_a_corrupt_project_in_the_url_is_a_clear_error(tmp_path, monkeypatch, page):
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "corrupt.genieproj").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    at = _studio(tmp_path, monkeypatch, page, "corrupt")
    assert not at.exception, at.exception
    assert any("corrupt" in e.value and "cannot be opened" in e.value for e in at.error)


def test_row_16_text_is_shown_as_text():
    from markdown_it import MarkdownIt

    from components.safe_text import plain
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    for hostile in ["![x](http://evil.example/p.png)", "[click](http://evil.example)", "<img src=http://e/x>",
                    "http://evil.example/auto", ":red[colour] $x^2$", "a\n# heading\n- item"]:
        html = md.render(plain(hostile))
        assert "<img" not in html and "<a " not in html and "<h1" not in html and "<li" not in html, html
        assert "http://" not in plain(hostile)  # GFM autolinks (Streamlit's markdown) need the bare scheme
    from components.playground.chat import escape_markdown
    assert escape_markdown("![x](http://e/p.png)") == plain("![x](http://e/p.png)")


def test_row_16_chat_shows_responses_and_prompt_as_text():
    from types import SimpleNamespace

    from components.playground.chat import chat_html
    turn = SimpleNamespace(user="<script>alert(1)</script>", response="Here: ![x](http://evil.example/p.png) <img src=x>",
                           acts=[], trace={}, ok=True)
    html = chat_html("Welcome <b onmouseover=x>hi</b>", [turn], selected=1)
    assert "<script" not in html and "<img" not in html and "<b " not in html, html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x&gt;" in html
    assert "![x](http://evil.example/p.png)" in html  # shown as the text it is (HTML is not Markdown)


def test_row_19_a_bundles_api_py_never_runs_unreviewed(ws, tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    code = f"open({str(marker)!r}, 'w').write('x')\ndef book(**kw):\n    return {{'ok': True}}\n"
    bundle = bundle_of(small_project(ws), tmp_path / "b.genie", sql=[
        ("INSERT INTO _genie_files (path, text, modified) VALUES ('api.py', ?, '')", (code,)),
        ("UPDATE _genie_meta SET value = value WHERE key = 'kind'", ())])
    agent = Agent.load(bundle)                       # genie chat/test FILE
    with pytest.raises(BackendError, match="not trusted|has not been trusted"):
        agent.api_module.book()
    Agent.load(bundle, code="never")                 # genie lint FILE
    project = ws.import_path(bundle, "imported")     # opening it in the studio
    assert not project.code_trusted()
    project.agent()
    at = _studio(tmp_path, monkeypatch, "playground", "imported")
    assert not at.exception, at.exception
    assert any("has not been reviewed" in w.value for w in at.warning)
    assert not marker.exists()
    Agent.load(bundle, code="trust")                 # --trust-code: the user said so
    assert marker.exists()


# -- row 17: credentials in the LLM endpoint URL -------------------------------------------------------


def test_row_17_llm_endpoint_credentials_stay_out_of_traces(monkeypatch):
    from core_engine.llm.client import LLMConfig, OpenAIClient
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used-000000")
    client = OpenAIClient(LLMConfig(base_url="http://127.0.0.1:9/v1?api-key=KEY-IN-URL-123", max_retries=0,
                                    timeout_s=2.0))
    with pytest.raises(BackendError) as caught:
        client.complete([{"role": "user", "content": "hi"}], component="parser")
    call = caught.value.call  # what the turn's trace (and so the conversation log) keeps
    assert "KEY-IN-URL-123" not in json.dumps(call.to_dict()) and "KEY-IN-URL-123" not in str(caught.value)
    assert call.base_url.startswith("http://127.0.0.1:9/v1")


# -- row 18: genie kb import NAME FILE with a workspace project name ---------------------------------------


def test_row_18_kb_import_into_a_workspace_project_creates_no_stray_file(ws, tmp_path, monkeypatch, capsys):
    from core_engine.cli import main
    small_project(ws, "shop").close()
    data = tmp_path / "people.csv"
    data.write_text("name,city\nAda,Paris\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GENIE_WORKSPACE", str(ws.root))
    assert main(["kb", "import", "shop", str(data), "--table", "people"]) == 0
    assert not (tmp_path / "shop").exists()
    with ws.open("shop") as project:
        assert project.kb_tables() == ["people"]
    assert main(["kb", "import", "nosuch", str(data), "--table", "people"]) == 2  # a clear error, no new file
    assert not (tmp_path / "nosuch").exists()
    assert "no project folder" in capsys.readouterr().err
