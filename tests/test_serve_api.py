"""The REST contract of DESIGN §6, streaming, export, metrics and the OpenAPI document (in process)."""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path
from typing import Iterator

import pytest
from starlette.testclient import TestClient

from core_engine.cli import main as genie_main
from server import ServeOptions, create_app
from tests.serve_support import pg_url, postgres_server  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parent.parent
RESTAURANT = str(ROOT / "sample_projects" / "restaurant_reservation")
BOOKING = ["Book Ragazza for 4 people tomorrow at 7 pm", "yes"]


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.delenv("GENIE_API_KEYS", raising=False)
    app = create_app(ServeOptions(agent=RESTAURANT, store=f"sqlite:///{tmp_path / 's.db'}", today="2024-07-01"))
    with TestClient(app) as c:
        yield c


def new_session(client: TestClient) -> str:
    r = client.post("/v1/sessions", json={})
    assert r.status_code == 201
    assert r.json()["response"].startswith("Hello")
    return r.json()["session_id"]


def test_rest_contract_books_a_table(client: TestClient) -> None:
    sid = new_session(client)
    first = client.post(f"/v1/sessions/{sid}/turns", json={"text": BOOKING[0]})
    assert first.status_code == 200
    body = first.json()
    assert set(body) == {"turn", "response", "acts", "state"} and body["turn"] == 1
    assert [a["act"] for a in body["acts"]] == ["report", "ask"] and body["acts"][1]["field"] == "confirm"
    booking = next(r for r in body["state"]["records"] if r["var"] == "book_restaurant")
    assert booking["values"]["number_of_people"] == 4 and booking["values"]["date"] == "2024-07-02"
    second = client.post(f"/v1/sessions/{sid}/turns", json={"text": "yes"}).json()
    assert second["turn"] == 2 and second["acts"][0] == {**second["acts"][0], "act": "report", "kind": "api"}
    assert "Booking id" in second["response"]

    got = client.get(f"/v1/sessions/{sid}").json()
    assert got["session_id"] == sid and got["turns"] == 2
    assert [(t["turn"], t["user"]) for t in got["transcript"]] == [(1, BOOKING[0]), (2, "yes")]
    assert got["transcript"][1]["response"] == second["response"]
    assert got["state"] == second["state"]


def test_unknown_session_and_bad_requests(client: TestClient) -> None:
    assert client.post("/v1/sessions/missing/turns", json={"text": "hi"}).status_code == 404
    assert client.get("/v1/sessions/missing").json()["error"]["type"] == "not_found"
    sid = new_session(client)
    r = client.post(f"/v1/sessions/{sid}/turns", json={"txt": "hi"})
    assert r.status_code == 400 and "'text'" in r.json()["error"]["message"]
    assert client.post(f"/v1/sessions/{sid}/turns", content=b"[1, 2").status_code == 400
    assert client.post("/v1/sessions/bad%20id/turns", json={"text": "x"}).status_code == 400
    assert client.post("/v1/sessions", json={"session_id": sid}).status_code == 409
    assert client.post("/v1/sessions", json={"session_id": "mine-1"}).json()["session_id"] == "mine-1"


def test_repeated_idempotency_key_returns_first_result(client: TestClient) -> None:
    sid = new_session(client)
    a = client.post(f"/v1/sessions/{sid}/turns", json={"text": BOOKING[0], "idempotency_key": "t1"})
    b = client.post(f"/v1/sessions/{sid}/turns", json={"text": BOOKING[0], "idempotency_key": "t1"})
    c = client.post(f"/v1/sessions/{sid}/turns", json={"text": "something else", "idempotency_key": "t1"})
    assert a.json() == b.json() == c.json()
    assert "idempotent-replayed" not in a.headers and b.headers["idempotent-replayed"] == "true"
    assert client.get(f"/v1/sessions/{sid}").json()["turns"] == 1
    h = client.post(f"/v1/sessions/{sid}/turns", json={"text": "yes"}, headers={"Idempotency-Key": "t2"})
    assert h.json()["turn"] == 2
    assert client.post(f"/v1/sessions/{sid}/turns", json={"text": "yes"},
                       headers={"Idempotency-Key": "t2"}).json() == h.json()


def _events(text: str) -> list[tuple[str, dict]]:
    out = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_sse_streams_the_response(client: TestClient) -> None:
    sid = new_session(client)
    for how in ({"params": {"stream": "1"}}, {"headers": {"Accept": "text/event-stream"}}):
        with client.stream("POST", f"/v1/sessions/{sid}/turns", json={"text": BOOKING[0]}, **how) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            events = _events(r.read().decode())
        kinds = [k for k, _ in events]
        assert kinds[0] == "turn" and kinds[-1] == "done" and kinds.count("delta") > 5
        done = events[-1][1]
        assert "".join(d["text"] for k, d in events if k == "delta") == done["response"]
        assert done["acts"][-1]["field"] == "confirm"
    assert client.get(f"/v1/sessions/{sid}").json()["turns"] == 2


def test_export_is_the_chat_jsonl_shape_and_becomes_a_test(client: TestClient, tmp_path: Path) -> None:
    sid = new_session(client)
    for text in BOOKING:
        client.post(f"/v1/sessions/{sid}/turns", json={"text": text})
    lines = [json.loads(x) for x in client.get(f"/v1/sessions/{sid}/export").text.splitlines()]
    script = tmp_path / "turns.txt"
    script.write_text("\n".join(BOOKING))
    out = io.StringIO()
    assert genie_main(["chat", RESTAURANT, "--parser", "offline", "--script", str(script), "--jsonl"], out=out) == 0
    chat = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [set(x) for x in lines] == [set(x) for x in chat]
    assert [x["acts"][-1]["act"] for x in lines] == [x["acts"][-1]["act"] for x in chat]

    test = client.get(f"/v1/sessions/{sid}/export", params={"format": "test", "name": "served booking"}).json()
    assert test["name"] == "served booking" and [t["user"] for t in test["turns"]] == BOOKING
    path = tmp_path / "served.json"
    path.write_text(json.dumps(test))
    out = io.StringIO()
    assert genie_main(["test", RESTAURANT, str(path)], out=out) == 0, out.getvalue()
    assert client.get("/v1/sessions/missing/export").status_code == 404


def test_health_metrics_openapi_and_pages(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json()["status"] == "ready"
    before = _metric(client.get("/metrics").text, 'genie_turns_total{outcome="applied"}')
    sid = new_session(client)
    client.post(f"/v1/sessions/{sid}/turns", json={"text": "hello"})
    client.post("/v1/sessions/nope/turns", json={"text": "hello"})
    text = client.get("/metrics").text
    assert _metric(text, 'genie_turns_total{outcome="applied"}') == before + 1
    assert _metric(text, 'genie_errors_total{kind="not_found"}') >= 1
    assert "genie_turn_seconds_bucket" in text
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.") and {"/v1/sessions", "/v1/sessions/{session_id}/turns",
                                                  "/v1/chat/completions", "/metrics"} <= set(doc["paths"])
    page = client.get("/chat").text
    assert 'role="log"' in page and "restaurant_reservation" in page and "http" not in page.split("<script>")[1]
    assert "/chat" in client.get("/widget.js").text


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def test_llm_calls_and_tokens_are_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_llm_env) -> None:
    from tests.fakes.openai_server import Reply, ScriptedOpenAIServer
    monkeypatch.delenv("GENIE_API_KEYS", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with ScriptedOpenAIServer(lambda body: Reply(content="Sure, which restaurant?", prompt_tokens=120,
                                                 completion_tokens=7)) as llm:
        app = create_app(ServeOptions(agent=RESTAURANT, store=f"sqlite:///{tmp_path / 's.db'}", rg="llm",
                                      llm_config={"base_url": llm.base_url, "model": "scripted-model"}))
        with TestClient(app) as c:
            before = c.get("/metrics").text
            sid = new_session(c)
            out = c.post(f"/v1/sessions/{sid}/turns", json={"text": "I want to book a table"}).json()
            after = c.get("/metrics").text
            usage = c.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "hi"}],
                                                         "user": "u-llm"}).json()["usage"]
    assert out["response"] == "Sure, which restaurant?" and len(llm.requests) == 2
    for name, grew in (('genie_llm_calls_total{component="rg"}', 1), ('genie_llm_tokens_total{kind="prompt"}', 120),
                       ('genie_llm_tokens_total{kind="completion"}', 7)):
        assert _metric(after, name) - _metric(before, name) == grew, name
    assert usage == {"prompt_tokens": 120, "completion_tokens": 7, "total_tokens": 127}


def test_lost_database_connections_answer_503_then_recover(pg_url: str, postgres_server: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import psycopg
    monkeypatch.delenv("GENIE_API_KEYS", raising=False)
    name = f"genie-test-{uuid.uuid4().hex[:8]}"  # only this test's connections are dropped
    app = create_app(ServeOptions(agent=str(ROOT / "sample_projects" / "bank_fraud"),
                                  store=f"{pg_url}&application_name={name}", pool_size=1))
    with TestClient(app) as c:
        sid = c.post("/v1/sessions", json={}).json()["session_id"]
        with psycopg.connect(postgres_server, autocommit=True) as admin:  # the database drops our connection
            gone = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                 "WHERE application_name = %s", (name,)).fetchone()[0]
        assert gone == 1
        r = c.post(f"/v1/sessions/{sid}/turns", json={"text": "hi", "idempotency_key": "k"})
        assert r.status_code == 503 and r.json()["error"]["type"] == "store_unavailable"
        assert r.headers["retry-after"] == "1"
        again = c.post(f"/v1/sessions/{sid}/turns", json={"text": "hi", "idempotency_key": "k"})
        assert again.status_code == 200 and again.json()["turn"] == 1
