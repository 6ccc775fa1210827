"""Production guards in front of `/v1`: API keys, a rate limit per key, request size limits.

Keys come from GENIE_API_KEYS (comma-separated); each request's bearer token is compared
with every key in constant time (`hmac.compare_digest`). The rate limit is a token
bucket per key (per client address when no keys are set), kept in each worker process.

Each key is also a tenant: the middleware puts the key's fingerprint (`owner_of`) in the
request state, and the routes keep each key's sessions apart (`app.stored_id`), so one
key holder cannot read or continue another's conversation even knowing its id.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import threading
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from core_engine import jsonsafe

from .observability import ERRORS

__all__ = ["ApiError", "GuardMiddleware", "api_keys", "error_response", "owner_of", "read_json"]


class ApiError(Exception):
    """An error a client sees: HTTP status, a short machine-readable type, a message."""

    def __init__(self, status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.kind, self.message, self.headers = status, kind, message, headers or {}


def error_response(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """Errors have one shape (OpenAI's): {"error": {"message", "type", "code"}}."""
    ERRORS.labels(kind).inc()
    return JSONResponse({"error": {"message": message, "type": kind, "code": status}}, status_code=status,
                        headers=headers)


def api_keys(environ: dict[str, str] | None = None) -> list[str]:
    raw = (environ if environ is not None else os.environ).get("GENIE_API_KEYS", "")
    return [k.strip() for k in raw.split(",") if k.strip()]


def owner_of(key: bytes) -> str:
    """A key's stable fingerprint: its sessions' namespace (the order of GENIE_API_KEYS does not matter)."""
    return "k" + hashlib.sha256(key).hexdigest()[:16]


class TokenBucket:
    def __init__(self, per_minute: float) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, per_minute)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> float:
        """0 when allowed, else the seconds to wait."""
        t = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(who, (self.capacity, t))
            tokens = min(self.capacity, tokens + (t - last) * self.rate)
            if tokens >= 1:
                self._buckets[who] = (tokens - 1, t)
                return 0.0
            self._buckets[who] = (tokens, t)
            return (1 - tokens) / self.rate


class GuardMiddleware:
    """Auth and rate limit for `/v1/*` (CORS preflights pass: the CORS middleware sits outside)."""

    def __init__(self, app: ASGIApp, *, keys: list[str], rate_limit_per_min: float) -> None:
        self.app = app
        self.keys = [k.encode() for k in keys]
        self.bucket = TokenBucket(rate_limit_per_min) if rate_limit_per_min > 0 else None

    def _authorised(self, scope: Scope) -> str | None:
        """The key's fingerprint if the bearer token matches one, else None."""
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, token = header.partition(b" ")
        token = token.strip() if scheme.lower() == b"bearer" else b""
        found = None
        for key in self.keys:  # every key is compared: the time does not say which matched
            if hmac.compare_digest(token, key) and found is None:
                found = owner_of(key)
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1/") or scope["method"] == "OPTIONS":
            await self.app(scope, receive, send)
            return
        who = (scope.get("client") or ("unknown",))[0]
        if self.keys:
            who = self._authorised(scope)
            scope.setdefault("state", {})["genie_owner"] = who
            if who is None:
                response = error_response(401, "unauthorized", "missing or wrong API key: send "
                                          "'Authorization: Bearer KEY' with a key from GENIE_API_KEYS",
                                          {"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        if self.bucket is not None:
            wait = self.bucket.take(who)
            if wait:
                response = error_response(429, "rate_limited", f"too many requests; retry in {wait:.1f} s",
                                          {"Retry-After": str(max(1, math.ceil(wait)))})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, refusing bodies over `limit` bytes before reading them whole."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "too_large", f"request body of {declared} bytes is over the {limit}-byte limit")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, "too_large", f"request body is over the {limit}-byte limit")
    try:
        value = jsonsafe.loads(bytes(body) or b"{}", what="the body")  # depth-limited, strict numbers
    except ValueError as exc:
        raise ApiError(400, "bad_request", f"the body is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
    return value
