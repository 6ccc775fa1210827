"""The ASGI app of `genie serve` (Starlette): REST API, SSE, OpenAI-compatible chat, web chat.

    app = create_app(ServeOptions(agent="sample_projects/restaurant_reservation"))

Every worker process builds its own app from the same `ServeOptions` (`app_from_env`
reads them from GENIE_SERVE_OPTIONS, which `genie serve` sets). Turns of one
conversation queue on a per-conversation lock inside the worker, then run in the
thread pool (the engine is synchronous) against the shared session store.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
import uuid
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from core_engine.errors import StorageError

from .engine import ServeOptions, TurnRunner, public_turn, transcript_entry
from .export import to_jsonl, to_test, turns_of
from .guards import ApiError, GuardMiddleware, api_keys, error_response, read_json
from .observability import CONTENT_TYPE_LATEST, count_turn, log, render_metrics
from .stores.base import SessionExists, SessionStore, TurnConflict, UnknownSession, open_store

__all__ = ["create_app", "app_from_env", "OPTIONS_ENV", "Service"]

OPTIONS_ENV = "GENIE_SERVE_OPTIONS"
SESSION_ID = re.compile(r"^[A-Za-z0-9._:@-]{1,128}$")
MAX_KEY_CHARS = 200


class Service:
    """The per-worker state: agent runner, store, per-conversation queues."""

    def __init__(self, options: ServeOptions, store: SessionStore | None = None) -> None:
        self.options = options
        self.runner = TurnRunner(options)
        self.store = store or open_store(options.store, **({"pool_size": options.pool_size}
                                                           if options.store.startswith("postgres") else {}))
        self._locks: dict[str, list[Any]] = {}
        self.ready = True

    @asynccontextmanager
    async def queue(self, session_id: str) -> AsyncIterator[None]:
        """Turns of one conversation in this worker run one at a time, first come first served."""
        entry = self._locks.setdefault(session_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                self._locks.pop(session_id, None)

    async def create(self, session_id: str | None = None) -> str:
        session_id = session_id or uuid.uuid4().hex
        await run_in_threadpool(self.store.create, session_id, self.runner.initial_state())
        return session_id

    async def turn(self, session_id: str, text: str, key: str | None) -> tuple[dict[str, Any], bool]:
        started = time.perf_counter()
        async with self.queue(session_id):
            turn_json, replayed = await run_in_threadpool(self.runner.turn, self.store, session_id, text, key)
        seconds = time.perf_counter() - started
        count_turn(turn_json, replayed, seconds)
        log.info("turn", extra={"event": "turn", "session_id": session_id, "turn": turn_json["turn"],
                                "replayed": replayed, "ms": round(seconds * 1000, 2),
                                "fallback": bool((turn_json.get("trace") or {}).get("fallback"))})
        return turn_json, replayed


def _service(request: Request) -> Service:
    return request.app.state.service


def _session_id(value: Any, what: str = "session id") -> str:
    if not isinstance(value, str) or not SESSION_ID.match(value):
        raise ApiError(400, "bad_request", f"{what} must be 1-128 characters of letters, digits and ._:@-")
    return value


def stored_id(request: Request, session_id: str) -> str:
    """The id a session is stored under: with API keys, inside the key's namespace (`OWNER/ID`; '/' is
    never in a public id), so the same id under another key is another, separate conversation."""
    owner = getattr(request.state, "genie_owner", None)
    return f"{owner}/{session_id}" if owner else session_id


def _key(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_KEY_CHARS:
        raise ApiError(400, "bad_request", f"idempotency_key must be a string of at most {MAX_KEY_CHARS} characters")
    return value


def wants_stream(request: Request, body: dict[str, Any] | None = None) -> bool:
    flag = request.query_params.get("stream", "")
    return (flag.lower() in ("1", "true", "yes") or "text/event-stream" in request.headers.get("accept", "")
            or bool(body and body.get("stream") is True))


def sse(event: str | None, data: Any) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def pieces(text: str) -> list[str]:
    """The response cut into words (with their trailing space), the units a stream sends."""
    return re.findall(r"\S+\s*|\s+", text) or [""]


SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


# -- REST ---------------------------------------------------------------------------------------


async def create_session(request: Request) -> Response:
    body = await read_json(request, request.app.state.options.max_body_bytes)
    wanted = body.get("session_id")
    service = _service(request)
    session_id = _session_id(wanted) if wanted is not None else uuid.uuid4().hex
    stored = stored_id(request, session_id)
    await service.create(stored)
    log.info("session created", extra={"event": "session", "session_id": stored})
    return JSONResponse({"session_id": session_id, "response": service.runner.starting_prompt}, status_code=201)


async def get_session(request: Request) -> Response:
    service = _service(request)
    session_id = _session_id(request.path_params["session_id"])
    stored = stored_id(request, session_id)
    row = await run_in_threadpool(service.store.get, stored)
    if row is None:
        raise ApiError(404, "not_found", f"no session {session_id!r}")
    turns = await run_in_threadpool(service.store.turns, stored)
    return JSONResponse({"session_id": session_id, "turns": row.version, "state": {"records": row.state["records"]},
                         "transcript": [transcript_entry(t) for t in turns], "created": row.created,
                         "updated": row.updated})


async def post_turn(request: Request) -> Response:
    service = _service(request)
    session_id = _session_id(request.path_params["session_id"])
    body = await read_json(request, request.app.state.options.max_body_bytes)
    text = body.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "bad_request", "the body needs a 'text' string: {\"text\": \"...\"}")
    key = _key(body.get("idempotency_key") or request.headers.get("idempotency-key"))
    turn_json, replayed = await service.turn(stored_id(request, session_id), text, key)
    payload = public_turn(turn_json)
    headers = {"Idempotent-Replayed": "true"} if replayed else {}
    if not wants_stream(request):
        return JSONResponse(payload, headers=headers)

    async def events() -> AsyncIterator[str]:
        yield sse("turn", {"turn": payload["turn"], "replayed": replayed})
        for piece in pieces(payload["response"]):
            yield sse("delta", {"text": piece})
        yield sse("done", payload)
    return StreamingResponse(events(), media_type="text/event-stream", headers={**SSE_HEADERS, **headers})


async def export_session(request: Request) -> Response:
    """`?format=jsonl` (default): the `genie chat --jsonl` lines, traces included; `?format=test`: a conversation test."""
    service = _service(request)
    session_id = _session_id(request.path_params["session_id"])
    turns = await run_in_threadpool(turns_of, service.store, stored_id(request, session_id))
    fmt = request.query_params.get("format", "jsonl")
    if fmt == "jsonl":
        return PlainTextResponse(to_jsonl(turns), media_type="application/x-ndjson")
    if fmt == "test":
        opts = service.options
        return JSONResponse(to_test(turns, session_id, name=request.query_params.get("name"), parser=opts.parser,
                                    rg=opts.rg, today=opts.today))
    raise ApiError(400, "bad_request", "format must be jsonl or test")


# -- health, metrics, pages ---------------------------------------------------------------------


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    service = _service(request)
    if not service.ready:
        return JSONResponse({"status": "shutting down"}, status_code=503)
    try:
        await run_in_threadpool(service.store.ping)
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"; the reason is returned
        return JSONResponse({"status": "store unavailable", "error": str(exc)}, status_code=503)
    return JSONResponse({"status": "ready", "agent": service.runner.agent.spec.name})


async def metrics(request: Request) -> Response:
    return Response(render_metrics(), media_type=CONTENT_TYPE_LATEST)


async def openapi(request: Request) -> Response:
    from .openapi import document
    return JSONResponse(document(request.app.state.service.runner.agent.spec.name))


# -- errors -------------------------------------------------------------------------------------


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.kind, exc.message, exc.headers)


async def _store_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, UnknownSession):
        return error_response(404, "not_found", exc.message)
    if isinstance(exc, SessionExists):
        return error_response(409, "conflict", exc.message)
    if isinstance(exc, TurnConflict):
        return error_response(503, "conflict", exc.message, {"Retry-After": "1"})
    log.error("store error", extra={"event": "store_error", "error": str(exc)})
    return error_response(503, "store_unavailable", "the session store is unavailable; retry with the same "
                          "idempotency_key", {"Retry-After": "1"})


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error", extra={"event": "internal_error", "path": request.url.path})
    return error_response(500, "internal", "internal server error; retry with the same idempotency_key")


def create_app(options: ServeOptions, *, store: SessionStore | None = None) -> Starlette:
    from .openai_api import chat_completions, list_models
    from .pages import chat_page, widget_js

    service = Service(options, store)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import anyio.to_thread
        anyio.to_thread.current_default_thread_limiter().total_tokens = max(1, options.threads)
        log.info("serving", extra={"event": "start", "agent": service.runner.agent.spec.name,
                                   "store": _redacted(options.store)})
        yield
        service.ready = False
        service.store.close()
        log.info("stopped", extra={"event": "stop"})

    routes = [
        Route("/v1/sessions", create_session, methods=["POST"]),
        Route("/v1/sessions/{session_id}", get_session, methods=["GET"]),
        Route("/v1/sessions/{session_id}/turns", post_turn, methods=["POST"]),
        Route("/v1/sessions/{session_id}/export", export_session, methods=["GET"]),
        Route("/v1/chat/completions", chat_completions, methods=["POST"]),
        Route("/v1/models", list_models, methods=["GET"]),
        Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", metrics),
        Route("/openapi.json", openapi), Route("/chat", chat_page), Route("/widget.js", widget_js),
        Route("/", chat_page),
    ]
    middleware = [Middleware(CORSMiddleware, allow_origins=options.cors_origins, allow_methods=["GET", "POST"],
                             allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "X-Genie-Session"],
                             expose_headers=["Idempotent-Replayed", "Retry-After"]),
                  Middleware(GuardMiddleware, keys=api_keys(), rate_limit_per_min=options.rate_limit_per_min)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={ApiError: _api_error, StorageError: _store_error, Exception: _internal_error})
    app.state.service = service
    app.state.options = options
    return app


def _redacted(url: str) -> str:
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


def app_from_env() -> Starlette:
    """The uvicorn factory each worker calls (`server.app:app_from_env`)."""
    from .observability import setup_logging
    setup_logging(os.environ.get("GENIE_LOG_LEVEL", "info"))
    raw = os.environ.get(OPTIONS_ENV)
    if not raw:
        raise RuntimeError(f"{OPTIONS_ENV} is not set; start the server with `genie serve AGENT`")
    return create_app(ServeOptions(**json.loads(raw)))


def options_env(options: ServeOptions) -> str:
    return json.dumps(asdict(options))
