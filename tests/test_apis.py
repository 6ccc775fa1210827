"""The three API kinds (mock, python, http): results reported, failures traced, never fatal."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from core_engine import Agent
from core_engine.policy.apis import ApiRunner
from core_engine.errors import BackendError
from core_engine.spec.model import Spec

WS = [{"name": "Main", "api": "submit", "fields": [{"name": "who", "type": "str"}]}]


def project(tmp_path: Path, api: dict, code: str | None = None) -> Agent:
    (tmp_path / "spec.json").write_text(json.dumps({"worksheets": WS, "apis": [{"name": "submit", **api}]}))
    if code is not None:
        (tmp_path / "api.py").write_text(code)
    return Agent.load(tmp_path)


def test_python_api_called_with_record_values(tmp_path):
    agent = project(tmp_path, {"kind": "python", "function": "submit_form"},
                    "def submit_form(who):\n    return {'ok': True, 'greeting': 'hi ' + who}\n")
    r = agent.new_session(parser="formal").turn('main.who = "Ada"')
    assert r.acts == [{"act": "report", "var": "main", "kind": "api", "api": "submit",
                       "result": {"ok": True, "greeting": "hi Ada"}}]


def test_python_api_failure_is_said_and_traced(tmp_path):
    agent = project(tmp_path, {"kind": "python", "function": "submit_form"},
                    "def submit_form(who):\n    raise RuntimeError('service down')\n")
    r = agent.new_session(parser="formal").turn('main.who = "Ada"')
    assert r.ok and r.acts[0]["act"] == "say" and "service down" in r.acts[0]["text"]
    assert r.trace["policy"]["errors"][0]["stage"] == "api"


def test_python_api_timeout(tmp_path):
    agent = project(tmp_path, {"kind": "python", "function": "slow", "timeout_s": 0.2},
                    "import time\ndef slow(who):\n    time.sleep(2)\n    return {}\n")
    t = time.perf_counter()
    r = agent.new_session(parser="formal").turn('main.who = "Ada"')
    assert time.perf_counter() - t < 1.5
    assert "did not answer within 0.2 s" in r.acts[0]["text"]


def test_broken_api_module_is_a_spec_error(tmp_path):
    with pytest.raises(Exception, match="failed to import"):
        project(tmp_path, {"kind": "python"}, "this is not python\n")


class _Handler(BaseHTTPRequestHandler):
    mode = "ok"

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.mode == "hang":
            time.sleep(1.5)
            return  # the client gave up; answering would only hit a closed socket
        if self.mode == "error":
            self.send_response(500)
            self.end_headers()
            return
        payload = b"not json" if self.mode == "garbage" else json.dumps({"echo": body, "id": "T-1"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def http_api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/submit"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("mode,expect", [("ok", None), ("error", "HTTP 500"), ("garbage", "did not return JSON"),
                                         ("hang", "failed")])
def test_http_api(http_api, mode, expect):
    _Handler.mode = mode
    spec = Spec.model_validate({"worksheets": WS, "apis": [{"name": "submit", "kind": "http", "url": http_api,
                                                            "timeout_s": 0.5}]})
    runner = ApiRunner(spec)
    if expect is None:
        assert runner.call("submit", {"who": "Ada"}) == {"echo": {"who": "Ada"}, "id": "T-1"}
    else:
        with pytest.raises(BackendError, match=expect):
            runner.call("submit", {"who": "Ada"})


def test_mock_template_fills_parameters():
    spec = Spec.model_validate({"worksheets": WS, "apis": [{"name": "submit", "mock_result": {
        "msg": "booked for {who}", "who": "{who}", "id": "{transaction_id}"}}]})
    result = ApiRunner(spec).call("submit", {"who": "Ada"})
    assert result["msg"] == "booked for Ada" and result["who"] == "Ada" and len(result["id"]) == 36


def test_undeclared_api_is_backend_error():
    with pytest.raises(BackendError, match="not declared"):
        ApiRunner(Spec()).call("nope", {})
