"""OpenAI-compatible `POST /v1/chat/completions`, so chat front ends and SDKs talk to the agent unchanged.

The conversation is named by the `X-Genie-Session` header or the request's `user` field
and is created on first use. Only the last user message is a new turn: the agent keeps
its own dialogue state, so the history a client resends is not replayed. An
`Idempotency-Key` header makes a retried request return the first answer.
"""

from __future__ import annotations

import time
from typing import Any, AsyncIterator

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from .app import SSE_HEADERS, _key, _service, _session_id, pieces, sse, stored_id, wants_stream
from .engine import llm_usage, public_turn
from .guards import ApiError, read_json
from .stores.base import SessionExists


def _last_user_text(messages: Any) -> str:
    if not isinstance(messages, list) or not messages:
        raise ApiError(400, "bad_request", "'messages' must be a non-empty list")
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
            raise ApiError(400, "bad_request", "the last user message has no text content")
    raise ApiError(400, "bad_request", "'messages' has no message with role 'user'")


async def chat_completions(request: Request) -> Response:
    service = _service(request)
    body = await read_json(request, service.options.max_body_bytes)
    text = _last_user_text(body.get("messages"))
    named = request.headers.get("x-genie-session") or body.get("user")
    if not named:
        raise ApiError(400, "bad_request", "name the conversation with the 'user' field or an X-Genie-Session header")
    session_id = _session_id(named, "the conversation name ('user' or X-Genie-Session)")
    stored = stored_id(request, session_id)
    if await run_in_threadpool(service.store.get, stored) is None:
        try:
            await service.create(stored)
        except SessionExists:
            pass  # created by a concurrent request: the same conversation
    turn_json, replayed = await service.turn(stored, text, _key(request.headers.get("idempotency-key")))
    model = body.get("model") or service.runner.agent.spec.name
    completion_id = f"chatcmpl-{session_id}-{turn_json['turn']}"
    created = int(time.time())
    usage = llm_usage(turn_json)
    headers = {"X-Genie-Session": session_id, **({"Idempotent-Replayed": "true"} if replayed else {})}
    if not wants_stream(request, body):
        return JSONResponse({
            "id": completion_id, "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": turn_json["response"]},
                         "finish_reason": "stop", "logprobs": None}],
            "usage": {"prompt_tokens": usage["prompt_tokens"], "completion_tokens": usage["completion_tokens"],
                      "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]},
            "genie": public_turn(turn_json)}, headers=headers)

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}

    async def events() -> AsyncIterator[str]:
        yield sse(None, chunk({"role": "assistant", "content": ""}))
        for piece in pieces(turn_json["response"]):
            yield sse(None, chunk({"content": piece}))
        yield sse(None, chunk({}, "stop"))
        yield sse(None, "[DONE]")
    return StreamingResponse(events(), media_type="text/event-stream", headers={**SSE_HEADERS, **headers})


async def list_models(request: Request) -> Response:
    name = _service(request).runner.agent.spec.name
    return JSONResponse({"object": "list", "data": [{"id": name, "object": "model", "created": 0,
                                                     "owned_by": "genie"}]})
