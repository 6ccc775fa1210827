"""Production guards: API keys (401), CORS origins, the per-key rate limit (429), body size (413)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from server import ServeOptions, create_app
from server.guards import GuardMiddleware, owner_of

ROOT = Path(__file__).resolve().parent.parent
AGENT = str(ROOT / "sample_projects" / "bank_fraud")


def make(tmp_path: Path, **options) -> TestClient:
    return TestClient(create_app(ServeOptions(agent=AGENT, store=f"sqlite:///{tmp_path / 's.db'}", **options)))


def test_api_keys_are_required_on_v1_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENIE_API_KEYS", "alpha-key, beta-key")
    with make(tmp_path) as c:
        r = c.post("/v1/sessions", json={})
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert r.json()["error"]["type"] == "unauthorized"
        assert c.post("/v1/sessions", json={}, headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert c.post("/v1/sessions", json={}, headers={"Authorization": "Basic beta-key"}).status_code == 401
        sid = c.post("/v1/sessions", json={}, headers={"Authorization": "Bearer beta-key"}).json()["session_id"]
        r = c.post(f"/v1/sessions/{sid}/turns", json={"text": "hi"}, headers={"Authorization": "Bearer beta-key"})
        assert r.status_code == 200
        for open_path in ("/healthz", "/readyz", "/metrics", "/chat", "/widget.js", "/openapi.json"):
            assert c.get(open_path).status_code == 200, open_path


def test_cors_allows_only_configured_origins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENIE_API_KEYS", "k")
    with make(tmp_path, cors_origins=["https://shop.example"]) as c:
        pre = c.options("/v1/sessions", headers={"Origin": "https://shop.example", "Access-Control-Request-Method":
                                                 "POST", "Access-Control-Request-Headers": "authorization"})
        assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "https://shop.example"
        bad = c.options("/v1/sessions", headers={"Origin": "https://evil.example",
                                                 "Access-Control-Request-Method": "POST"})
        assert bad.status_code == 400 and "access-control-allow-origin" not in bad.headers
        r = c.post("/v1/sessions", json={}, headers={"Origin": "https://shop.example"})
        assert r.status_code == 401 and r.headers["access-control-allow-origin"] == "https://shop.example"


def test_rate_limit_per_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENIE_API_KEYS", "a,b")
    with make(tmp_path, rate_limit_per_min=3) as c:
        codes = [c.get("/v1/sessions/x", headers={"Authorization": "Bearer a"}).status_code for _ in range(4)]
        assert codes == [404, 404, 404, 429]
        r = c.get("/v1/sessions/x", headers={"Authorization": "Bearer a"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert c.get("/v1/sessions/x", headers={"Authorization": "Bearer b"}).status_code == 404  # its own bucket


def test_request_size_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GENIE_API_KEYS", raising=False)
    with make(tmp_path, max_body_bytes=1000) as c:
        sid = c.post("/v1/sessions", json={}).json()["session_id"]
        r = c.post(f"/v1/sessions/{sid}/turns", json={"text": "x" * 2000})
        assert r.status_code == 413 and r.json()["error"]["type"] == "too_large"

        def chunks():  # no Content-Length: the limit holds while reading
            for _ in range(5):
                yield b" " * 400
        assert c.post(f"/v1/sessions/{sid}/turns", content=chunks()).status_code == 413
        assert c.get(f"/v1/sessions/{sid}").json()["turns"] == 0


def test_bearer_token_must_match_a_key_exactly() -> None:
    guard = GuardMiddleware(lambda *a: None, keys=["one", "two"], rate_limit_per_min=0)
    scope = {"headers": [(b"authorization", b"Bearer two")]}
    assert guard._authorised(scope) == owner_of(b"two") != owner_of(b"one")
    assert guard._authorised({"headers": [(b"authorization", b"Bearer tw")]}) is None
    assert guard._authorised({"headers": []}) is None


def test_each_key_sees_only_its_own_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A key holder who learns (or guesses) another key's session id can neither read nor continue it."""
    monkeypatch.setenv("GENIE_API_KEYS", "alpha-key,beta-key")
    alpha, beta = {"Authorization": "Bearer alpha-key"}, {"Authorization": "Bearer beta-key"}
    with make(tmp_path) as c:
        assert c.post("/v1/sessions", json={"session_id": "user-7"}, headers=beta).status_code == 201
        assert c.post("/v1/sessions/user-7/turns", json={"text": "My name is Ann Lee"}, headers=beta).status_code == 200
        for path in ("/v1/sessions/user-7", "/v1/sessions/user-7/export"):
            assert c.get(path, headers=alpha).status_code == 404, path
        assert c.post("/v1/sessions/user-7/turns", json={"text": "hi"}, headers=alpha).status_code == 404
        # the same id under the other key is another conversation, and the first one is untouched
        assert c.post("/v1/sessions", json={"session_id": "user-7"}, headers=alpha).status_code == 201
        assert c.get("/v1/sessions/user-7", headers=alpha).json()["turns"] == 0
        mine = c.get("/v1/sessions/user-7", headers=beta).json()
        assert mine["session_id"] == "user-7" and mine["turns"] == 1
        # the OpenAI-compatible endpoint names conversations the same way
        body = {"model": "x", "user": "chat-1", "messages": [{"role": "user", "content": "hello"}]}
        assert c.post("/v1/chat/completions", json=body, headers=alpha).status_code == 200
        assert c.post("/v1/chat/completions", json=body, headers=beta).status_code == 200
        assert c.get("/v1/sessions/chat-1", headers=alpha).json()["turns"] == 1
        assert c.get("/v1/sessions/chat-1", headers=beta).json()["turns"] == 1
    # reordering or adding keys keeps each key's sessions
    monkeypatch.setenv("GENIE_API_KEYS", "gamma-key,beta-key,alpha-key")
    with make(tmp_path) as c:
        assert c.get("/v1/sessions/user-7", headers=beta).json()["turns"] == 1
