"""Several `genie serve` processes on one PostgreSQL: a conversation moves between them turn by turn,
survives a server killed mid-turn (no lost or doubled turn), and SIGTERM finishes turns in flight.

The response generator is the LLM one, aimed at the scripted local OpenAI-compatible server,
so a test can hold a turn open (a slow completion) and kill or stop the server meanwhile.
"""

from __future__ import annotations

import http.client
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import pytest

from tests.fakes.openai_server import Reply, ScriptedOpenAIServer
from tests.serve_support import Served, call, pg_url, postgres_server, start_serve  # noqa: F401 - fixtures

pytestmark = pytest.mark.timeout(180)
AGENT = "bank_fraud"
TURNS = ["Hi, I lost my debit card and someone took $300 at an ATM", "Katarina Miller",
         "I do not know my account number", "March 14, 1931", "Smith", "Buddy!"]


class SlowLLM:
    """Scripted completions; `slow` holds the next ones for `delay` seconds."""

    def __init__(self) -> None:
        self.delay = 0.0
        self.server = ScriptedOpenAIServer(self._reply)

    def _reply(self, body: dict) -> Reply:
        return Reply(content=f"(agent reply {len(self.server.requests)})", delay_s=self.delay)

    def wait_for_requests(self, n: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while len(self.server.requests) < n:
            assert time.monotonic() < deadline, "the server never called the LLM"
            time.sleep(0.02)


@pytest.fixture
def llm() -> Iterator[SlowLLM]:
    slow = SlowLLM()
    with slow.server:
        yield slow


def serve(store: str, tmp_path: Path, llm: SlowLLM, name: str) -> Served:
    return start_serve(AGENT, store, tmp_path / f"{name}.log", "--rg", "llm", "--llm-base-url",
                       llm.server.base_url, "--llm-model", "scripted-model",
                       env={"OPENAI_API_KEY": "test-key", "GENIE_API_KEYS": ""})


def turn(server: Served, sid: str, text: str, key: str) -> dict:
    status, body = call(f"{server.url}/v1/sessions/{sid}/turns", "POST", {"text": text, "idempotency_key": key})
    assert status == 200, body
    return body


def test_two_servers_alternate_and_one_is_killed_mid_turn(pg_url: str, tmp_path: Path, llm: SlowLLM) -> None:
    a, b = serve(pg_url, tmp_path, llm, "a"), serve(pg_url, tmp_path, llm, "b")
    try:
        status, created = call(f"{a.url}/v1/sessions", "POST", {})
        assert status == 201
        sid = created["session_id"]
        # turn by turn across the two servers: each sees the state the other wrote
        for i, text in enumerate(TURNS[:3]):
            body = turn((a, b)[i % 2], sid, text, f"k{i}")
            assert body["turn"] == i + 1
        main = next(r for r in body["state"]["records"] if r["var"] == "main")
        assert main["values"]["full_name"] == "Katarina Miller"

        # a killed mid-turn: it holds the conversation's row lock while it waits on the LLM
        llm.delay = 30.0
        seen = len(llm.server.requests)
        lost: list[object] = []

        def doomed() -> None:
            try:
                lost.append(call(f"{a.url}/v1/sessions/{sid}/turns", "POST",
                                 {"text": TURNS[3], "idempotency_key": "k3"}, timeout=60))
            except (OSError, http.client.HTTPException) as exc:  # the server died under the request
                lost.append(exc)
        pending = threading.Thread(target=doomed, daemon=True)
        pending.start()
        llm.wait_for_requests(seen + 1)
        a.kill()
        llm.delay = 0.0
        pending.join(10)
        assert lost and isinstance(lost[0], (OSError, http.client.HTTPException))
        # the client retries the same turn, same key, on the other server: applied once
        retried = turn(b, sid, TURNS[3], "k3")
        assert retried["turn"] == 4
        assert turn(b, sid, TURNS[3], "k3") == retried
        for i, text in enumerate(TURNS[4:], start=4):
            assert turn(b, sid, text, f"k{i}")["turn"] == i + 1
        status, got = call(f"{b.url}/v1/sessions/{sid}")
        assert got["turns"] == len(TURNS)
        assert [t["user"] for t in got["transcript"]] == TURNS
        assert [t["turn"] for t in got["transcript"]] == list(range(1, len(TURNS) + 1))
    finally:
        for s in (a, b):
            s.stop()


def test_sigterm_finishes_the_turn_in_flight(tmp_path: Path, llm: SlowLLM) -> None:
    server = serve(f"sqlite:///{tmp_path / 's.db'}", tmp_path, llm, "graceful")
    try:
        status, created = call(f"{server.url}/v1/sessions", "POST", {})
        sid = created["session_id"]
        llm.delay = 2.0
        result: list[tuple[int, dict]] = []
        pending = threading.Thread(target=lambda: result.append(call(
            f"{server.url}/v1/sessions/{sid}/turns", "POST", {"text": TURNS[0]}, timeout=60)))
        pending.start()
        llm.wait_for_requests(1)
        server.proc.send_signal(signal.SIGTERM)
        pending.join(30)
        assert result and result[0][0] == 200 and result[0][1]["turn"] == 1
        # uvicorn re-raises the signal once it has shut down cleanly: exit by SIGTERM, not a crash
        assert server.proc.wait(timeout=30) in (0, -signal.SIGTERM)
        assert '"msg": "Application shutdown complete."' in server.log.read_text()
        log = server.log.read_text()
        assert '"event": "turn"' in log and f'"session_id": "{sid}"' in log  # structured JSON logs
    finally:
        server.stop()


def test_several_workers_share_the_store_and_sum_their_metrics(tmp_path: Path) -> None:
    import json
    import urllib.request
    server = start_serve(AGENT, f"sqlite:///{tmp_path / 's.db'}", tmp_path / "workers.log", "--workers", "2",
                         env={"GENIE_API_KEYS": "", "PROMETHEUS_MULTIPROC_DIR": ""})

    def pids() -> set[int]:
        return {json.loads(line)["pid"] for line in server.log.read_text().splitlines() if '"event": "turn"' in line}

    def converse(_: int) -> list[int]:
        sid = call(f"{server.url}/v1/sessions", "POST", {})[1]["session_id"]
        return [turn(server, sid, text, f"k{k}")["turn"] for k, text in enumerate(TURNS[:2])]
    sent = 0
    try:
        with ThreadPoolExecutor(8) as pool:  # concurrent connections: the kernel spreads them over the workers
            for _ in range(20):
                assert list(pool.map(converse, range(8))) == [[1, 2]] * 8
                sent += 16
                if len(pids()) == 2:
                    break
        with urllib.request.urlopen(server.url + "/metrics") as r:
            metrics = r.read().decode()
    finally:
        server.stop()
    assert len(pids()) == 2, "one worker answered every turn"
    assert f'genie_turns_total{{outcome="applied"}} {float(sent)}' in metrics  # both workers' turns, from either
