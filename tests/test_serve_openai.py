"""The OpenAI-compatible endpoint, driven by the real `openai` client against a real uvicorn server."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Iterator

import openai
import pytest
import uvicorn

from server import ServeOptions, create_app
from tests.serve_support import free_port

ROOT = Path(__file__).resolve().parent.parent
BOOKING = ["Book Ragazza for 4 people tomorrow at 7 pm", "yes"]


@pytest.fixture
def base_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("GENIE_API_KEYS", "sk-test-key")
    app = create_app(ServeOptions(agent=str(ROOT / "sample_projects" / "restaurant_reservation"),
                                  store=f"sqlite:///{tmp_path / 's.db'}", today="2024-07-01"))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}/v1"
    server.should_exit = True
    thread.join(10)


def test_openai_client_books_a_table_named_by_user(base_url: str) -> None:
    client = openai.OpenAI(base_url=base_url, api_key="sk-test-key", max_retries=0)
    history = [{"role": "system", "content": "ignored: the agent keeps its own state"}]
    for text in BOOKING:
        history.append({"role": "user", "content": text})
        out = client.chat.completions.create(model="restaurant", messages=history, user="diner-42")
        history.append({"role": "assistant", "content": out.choices[0].message.content})
        assert out.object == "chat.completion" and out.choices[0].finish_reason == "stop"
    assert "Booking id" in history[-1]["content"]
    assert out.model_extra["genie"]["turn"] == 2
    models = client.models.list()
    assert [m.id for m in models.data] == ["restaurant_reservation"]


def test_openai_streaming_and_session_header(base_url: str) -> None:
    client = openai.OpenAI(base_url=base_url, api_key="sk-test-key", max_retries=0)
    pieces = []
    stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": BOOKING[0]}],
                                            stream=True, extra_headers={"X-Genie-Session": "conv-7"})
    finish = None
    for chunk in stream:
        pieces.append(chunk.choices[0].delta.content or "")
        finish = chunk.choices[0].finish_reason or finish
    text = "".join(pieces)
    assert finish == "stop" and "Ragazza" in text and len([p for p in pieces if p]) > 5
    out = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "yes"}],
                                         extra_headers={"X-Genie-Session": "conv-7"})
    assert "Booking id" in out.choices[0].message.content  # the same conversation continued


def test_openai_errors_reach_the_client(base_url: str) -> None:
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=base_url, api_key="wrong", max_retries=0).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], user="u")
    client = openai.OpenAI(base_url=base_url, api_key="sk-test-key", max_retries=0)
    with pytest.raises(openai.BadRequestError, match="user"):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(openai.BadRequestError, match="role 'user'"):
        client.chat.completions.create(model="m", messages=[{"role": "system", "content": "hi"}], user="u")
