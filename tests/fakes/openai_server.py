"""A local OpenAI-compatible HTTP server that serves scripted completions.

Tests run the real `openai` client against it, so request encoding, response
parsing, HTTP errors, timeouts and streaming are exercised without any network.
It binds to 127.0.0.1 on a free port and records every request body it receives.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterable

GARBAGE_BODY = b"<html><body>502 upstream proxy hiccup</body></html> {not json"


@dataclass
class Reply:
    """What the server does for one chat-completions request."""

    content: str | None = None
    status: int = 200  # e.g. 500, 429 (sent with Retry-After), 401
    delay_s: float = 0.0  # wait before answering, to provoke client timeouts
    garbage: bool = False  # answer 200 with a body that is not JSON
    prompt_tokens: int | None = None  # default: word count of the request's messages
    completion_tokens: int | None = None  # default: word count of `content`
    retry_after: float | None = None  # Retry-After header; 429 sends 1 when unset
    content_type: str = "application/json"  # header sent with a garbage or raw body
    raw: bytes | None = None  # answer 200 with exactly these bytes (e.g. JSON of the wrong shape)


Script = Iterable[Reply] | Callable[[dict], Reply]


def _words(text: str | None) -> int:
    return len(text.split()) if text else 0


def _prompt_words(body: dict) -> int:
    total = 0
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            total += _words(content)
        elif isinstance(content, list):  # content parts
            total += sum(_words(p.get("text")) for p in content if isinstance(p, dict))
    return total


class ScriptedOpenAIServer:
    """Serves `POST /v1/chat/completions` (JSON or SSE) and `GET /v1/models` from a script.

    The script is a list of `Reply` consumed in order (extend it with `push`) or a
    function from the request body to a `Reply`. When a list runs out the server
    answers HTTP 500 "script exhausted", so a test that under-scripts fails loudly.
    """

    def __init__(self, script: Script = (), *, models: Iterable[str] = ("scripted-model",)) -> None:
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._responder: Callable[[dict], Reply] | None = None
        self._queue: deque[Reply] = deque()
        if callable(script):
            self._responder = script
        else:
            self._queue.extend(script)
        self.models = list(models)
        self.requests: list[dict] = []  # every chat-completions body, in order
        self.request_headers: list[dict[str, str]] = []  # their headers (lower-case names)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> "ScriptedOpenAIServer":
        if self._httpd is not None:
            return self
        self._stopping.clear()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._stopping.set()  # wakes handlers sleeping in a scripted delay
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> "ScriptedOpenAIServer":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("server not started")
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- script ------------------------------------------------------------

    def push(self, *replies: Reply) -> None:
        """Append replies to the script (only for list scripts)."""
        if self._responder is not None:
            raise TypeError("this server answers with a function; push() needs a list script")
        with self._lock:
            self._queue.extend(replies)

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._queue)

    def _record_and_pick(self, body: dict, headers: dict[str, str]) -> Reply | None:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            if self._responder is not None:
                return self._responder(body)
            return self._queue.popleft() if self._queue else None

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


def _make_handler(server: ScriptedOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        owner = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    owner: ScriptedOpenAIServer
    server_version = "ScriptedOpenAI/1.0"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Keep test output quiet."""

    # -- routing -----------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        if self.path.rstrip("/") == "/v1/models":
            data = [
                {"id": m, "object": "model", "created": 0, "owned_by": "genie-tests"}
                for m in self.owner.models
            ]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(404, f"no route GET {self.path}", "not_found")

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_error(404, f"no route POST {self.path}", "not_found")
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"null")
        except json.JSONDecodeError:
            self._send_error(400, "request body is not JSON", "invalid_request_error")
            return
        if not isinstance(body, dict):
            self._send_error(400, "request body must be a JSON object", "invalid_request_error")
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        reply = self.owner._record_and_pick(body, headers)
        if reply is None:
            self._send_error(500, "script exhausted: no scripted reply left", "server_error")
            return
        self.owner._wait(reply.delay_s)
        if reply.status != 200:
            self._send_scripted_error(reply)
        elif reply.garbage or reply.raw is not None:
            data = reply.raw if reply.raw is not None else GARBAGE_BODY
            self._send_raw(200, data, reply.content_type)
        elif body.get("stream"):
            self._send_stream(body, reply)
        else:
            self._send_json(200, _completion(body, reply, len(self.owner.requests)))

    # -- writers -----------------------------------------------------------

    def _send_scripted_error(self, reply: Reply) -> None:
        headers = {}
        if reply.status == 429:
            headers["Retry-After"] = _fmt_seconds(reply.retry_after if reply.retry_after is not None else 1)
        elif reply.retry_after is not None:
            headers["Retry-After"] = _fmt_seconds(reply.retry_after)
        kind = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(reply.status, "scripted_error")
        message = reply.content or f"scripted HTTP {reply.status}"
        self._send_error(reply.status, message, kind, headers)

    def _send_error(self, status: int, message: str, code: str, headers: dict | None = None) -> None:
        payload = {"error": {"message": message, "type": code, "param": None, "code": code}}
        self._send_json(status, payload, headers)

    def _send_json(self, status: int, payload: object, headers: dict | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), "application/json", headers)

    def _send_raw(self, status: int, data: bytes, content_type: str, headers: dict | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (e.g. its timeout fired); nothing to tell it

    def _send_stream(self, body: dict, reply: Reply) -> None:
        n = len(self.owner.requests)
        base = {"id": f"chatcmpl-scripted-{n}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body.get("model", "")}
        chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                        "finish_reason": None}]}]
        for piece in _pieces(reply.content):
            chunks.append({**base, "choices": [{"index": 0, "delta": {"content": piece},
                                                "finish_reason": None}]})
        chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({**base, "choices": [], "usage": _usage(body, reply)})
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


def _pieces(content: str | None) -> list[str]:
    """Split content into a few deltas, keeping whitespace, so joining restores it."""
    if not content:
        return []
    size = max(1, len(content) // 3)
    return [content[i:i + size] for i in range(0, len(content), size)]


def _usage(body: dict, reply: Reply) -> dict:
    prompt = reply.prompt_tokens if reply.prompt_tokens is not None else _prompt_words(body)
    completion = reply.completion_tokens if reply.completion_tokens is not None else _words(reply.content)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _completion(body: dict, reply: Reply, n: int) -> dict:
    return {
        "id": f"chatcmpl-scripted-{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": reply.content},
            "finish_reason": "stop",
            "logprobs": None,
        }],
        "usage": _usage(body, reply),
    }


def _fmt_seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
