"""LLM access: one small interface, an OpenAI-compatible client, a scripted fake, a cache.

Every component that needs a language model (LLM parser, knowledge parser, LLM
response generator) calls `LLMClient.complete(messages, component=...)` and gets back
the completion text and an `LLMCall` trace record. Failures of any kind (timeouts,
HTTP errors, garbage bodies, empty completions) surface as one `BackendError` that
carries the trace as `exc.call`, so a turn can fall back cleanly and still show what
was tried. Retries are ours, not the openai client's, so every attempt is counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol, runtime_checkable
from urllib.parse import urlsplit

from functools import cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core_engine.errors import BackendError, StorageError

__all__ = [
    "BACKOFF_BASE_S",
    "LLMCall",
    "LLMClient",
    "LLMConfig",
    "OpenAIClient",
    "ResponseCache",
    "ScriptedClient",
    "is_local_url",
    "is_retryable",
    "map_client_error",
]

BACKOFF_BASE_S = 0.5
BACKOFF_MAX_S = 30.0
LOCAL_PLACEHOLDER_KEY = "sk-local-no-key-needed"
NO_KEY_MESSAGE = "no API key: set {env} or enter a key in Settings"
EMPTY_MESSAGE = "the LLM returned an empty completion"

if TYPE_CHECKING:
    import openai


@cache
def client_errors() -> tuple[type[BaseException], ...]:
    """Everything the openai client (or its transport, or its JSON decoding) may raise for a bad
    endpoint or a bad answer; programming errors (TypeError, ...) are not here. openai (~1 s to
    import) is imported on first need, not with this module, so `genie` starts quickly."""
    import httpx2  # openai's transport; errors raised while reading a stream come from it
    import openai
    return (openai.OpenAIError, httpx2.HTTPError, httpx2.StreamError,
            ValueError)  # json.JSONDecodeError and pydantic.ValidationError on malformed bodies


def __getattr__(name: str) -> Any:
    if name == "CLIENT_ERRORS":  # the old constant, for callers that import it
        return client_errors()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LLMConfig(BaseModel):
    """Endpoint and sampling settings of one component; the API key is never stored here."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None  # None: the openai client's default (OPENAI_BASE_URL or api.openai.com)
    model: str = "gpt-4o-mini"
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(800, gt=0)
    timeout_s: float = Field(30.0, gt=0.0)
    max_retries: int = Field(2, ge=0, le=10)
    api_key_env: str = "OPENAI_API_KEY"
    stream: bool = False  # request server-sent events and join the deltas

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        """Catch a mistyped endpoint here rather than as a vague connection error later."""
        if value is None or not value.strip():
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http(s) URL such as http://localhost:8000/v1, not {value!r}")
        return value.strip()


@dataclass
class LLMCall:
    """Trace of one `complete` call (all attempts), JSON-able via `to_dict`."""

    component: str
    model: str
    base_url: str | None
    messages: list[dict]
    completion: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_ms: float = 0.0  # wall time of the whole call, retries and backoff included
    attempts: int = 0  # requests sent; 0 for a cache hit or a call refused before sending
    cached: bool = False
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LLMCall":
        return cls(**data)


@runtime_checkable
class LLMClient(Protocol):
    """What parsers and response generators need from a language model."""

    def complete(self, messages: list[dict], *, component: str) -> tuple[str, LLMCall]:
        """Return (completion, trace); raise BackendError with `.call` set on failure."""
        ...


# -- error mapping --------------------------------------------------------------


def is_local_url(base_url: str | None) -> bool:
    """True when the endpoint is on this machine (local servers accept any key)."""
    if not base_url:
        return False
    host = (urlsplit(base_url).hostname or "").lower()
    return (
        host in {"localhost", "::1", "0.0.0.0"}
        or host.startswith("127.")
        or host.endswith(".localhost")
    )


def is_retryable(exc: BaseException) -> bool:
    """Timeouts, connection failures, 429 and 5xx are worth another try; nothing else is."""
    import httpx2
    import openai
    if isinstance(exc, (openai.APIConnectionError, httpx2.TransportError)):
        return True  # APITimeoutError is an APIConnectionError
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return False


def shown_url(url: str | None) -> str | None:
    """An endpoint as traces and messages show it: credentials in its query or user part blanked."""
    from ..secrets import redact_url
    return redact_url(url) if url else url


def map_client_error(
    exc: BaseException,
    *,
    component: str,
    model: str,
    base_url: str | None = None,
    timeout_s: float | None = None,
) -> BackendError:
    """Translate anything the openai client raised into a BackendError a user can act on."""
    import httpx2
    import openai

    where = shown_url(base_url) or "the default OpenAI endpoint"
    status = getattr(exc, "status_code", None)
    if isinstance(exc, openai.APITimeoutError):
        after = f" after {timeout_s:g} s" if timeout_s is not None else ""
        message = f"LLM request timed out{after}"
    elif isinstance(exc, openai.APIConnectionError):
        cause = f" ({exc.__cause__})" if exc.__cause__ is not None and str(exc.__cause__) else ""
        message = f"cannot connect to the LLM endpoint {where}: {exc.message}{cause}"
    elif isinstance(exc, openai.AuthenticationError):
        message = "the LLM endpoint rejected the API key (HTTP 401); check the key in Settings"
    elif isinstance(exc, openai.PermissionDeniedError):
        message = f"the LLM endpoint denied access (HTTP 403): {_detail(exc)}"
    elif isinstance(exc, openai.NotFoundError):
        message = f"the LLM endpoint does not know this model or path (HTTP 404): {_detail(exc)}"
    elif isinstance(exc, openai.RateLimitError):
        message = "the LLM endpoint is rate-limiting requests (HTTP 429)"
    elif isinstance(exc, openai.BadRequestError):
        message = f"the LLM endpoint refused the request (HTTP 400): {_detail(exc)}"
    elif isinstance(exc, openai.APIStatusError):
        message = f"the LLM endpoint answered HTTP {exc.status_code}: {_detail(exc)}"
    elif isinstance(exc, openai.APIResponseValidationError):
        message = "the LLM endpoint's answer does not fit the chat-completions format"
    elif isinstance(exc, openai.LengthFinishReasonError):
        message = "the LLM completion was cut off by the token limit"
    elif isinstance(exc, openai.ContentFilterFinishReasonError):
        message = "the LLM endpoint's content filter rejected the completion"
    elif isinstance(exc, openai.OpenAIError):
        message = f"LLM client error: {exc}"
    elif isinstance(exc, (httpx2.HTTPError, httpx2.StreamError)):
        message = f"transport error while talking to the LLM endpoint {where}: {exc}"
    elif isinstance(exc, ValueError):
        message = "the LLM endpoint answered with a malformed body (not a JSON chat completion)"
    else:
        message = f"unexpected {type(exc).__name__} from the LLM client: {exc}"
    return BackendError(message, component=component, model=model, status=status)


def _detail(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return body["message"]
    return exc.message


def _retry_after_s(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date; our own backoff applies


def _backoff_s(attempt: int, exc: BaseException) -> float:
    """Exponential backoff (0.5, 1, 2, ... s), stretched to the server's Retry-After."""
    delay = BACKOFF_BASE_S * (2 ** (attempt - 1))
    hint = _retry_after_s(exc)
    if hint is not None:
        delay = max(delay, hint)
    return min(delay, BACKOFF_MAX_S)


# -- response cache -------------------------------------------------------------


class ResponseCache:
    """Completions keyed by sha256 of (model, temperature, messages); optional JSON file.

    Thread-safe. With a path, the file is loaded on creation and rewritten atomically
    on every `put`, so a crash never leaves half a cache behind.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._entries: dict[str, dict[str, Any]] = {}
        if self.path is not None and self.path.exists():
            self._entries = self._load(self.path)

    @staticmethod
    def key(model: str, temperature: float, messages: list[dict]) -> str:
        payload = {"model": model, "temperature": float(temperature), "messages": messages}
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored entry {completion, prompt_tokens, completion_tokens}, or None."""
        with self._lock:
            entry = self._entries.get(key)
            return dict(entry) if entry is not None else None

    def put(
        self,
        key: str,
        completion: str,
        *,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None:
        entry = {
            "completion": completion,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
        }
        with self._lock:
            self._entries[key] = entry
            if self.path is not None:
                self._save(self.path, self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            if self.path is not None:
                self._save(self.path, self._entries)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    @staticmethod
    def _load(path: Path) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise StorageError("cannot read the LLM response cache", path=str(path)) from exc
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("completion"), str) for v in entries.values()
        ):
            raise StorageError("the LLM response cache file has an unexpected shape", path=str(path))
        return entries

    @staticmethod
    def _save(path: Path, entries: dict[str, dict[str, Any]]) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"version": 1, "entries": entries}, handle, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError as exc:
            raise StorageError("cannot write the LLM response cache", path=str(path)) from exc


# -- the OpenAI-compatible client -----------------------------------------------


class OpenAIClient:
    """`LLMClient` for any OpenAI-compatible chat-completions endpoint."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        api_key: str | None = None,
        cache: ResponseCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.cache = cache
        self._api_key = api_key
        self._sleep = sleep
        self._lock = threading.Lock()
        self._client: openai.OpenAI | None = None

    # The openai client is built on first use, so a missing key is reported by the
    # call that needs it (as a BackendError the turn can fall back on).
    def _openai(self) -> openai.OpenAI:
        import openai
        with self._lock:
            if self._client is None:
                key = self._resolve_key()
                try:
                    self._client = openai.OpenAI(
                        api_key=key,
                        base_url=self.config.base_url,
                        timeout=self.config.timeout_s,
                        max_retries=0,  # retries are ours, so they are counted and traced
                    )
                except client_errors() as exc:
                    raise map_client_error(
                        exc, component="setup", model=self.config.model, base_url=self.config.base_url
                    ) from exc
            return self._client

    def close(self) -> None:
        """Release the HTTP connection pool (the client can still be used afterwards)."""
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def __enter__(self) -> "OpenAIClient":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _resolve_key(self) -> str:
        key = self._api_key or os.environ.get(self.config.api_key_env)
        if key:
            return key
        effective_url = self.config.base_url or os.environ.get("OPENAI_BASE_URL")
        if is_local_url(effective_url):
            return LOCAL_PLACEHOLDER_KEY
        raise BackendError(
            NO_KEY_MESSAGE.format(env=self.config.api_key_env), model=self.config.model
        )

    def _request(self, messages: list[dict], *, max_tokens: int, stream: bool) -> Any:
        params: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature,
            "max_tokens": max_tokens,
        }
        client = self._openai()
        if not stream:
            return client.chat.completions.create(**params)
        chunks = client.chat.completions.create(
            **params, stream=True, stream_options={"include_usage": True}
        )
        with chunks:
            return _join_stream(chunks)

    def complete(self, messages: list[dict], *, component: str) -> tuple[str, LLMCall]:
        cfg = self.config
        messages = [dict(m) for m in messages]
        call = LLMCall(component=component, model=cfg.model, base_url=shown_url(cfg.base_url), messages=messages)
        started = time.perf_counter()
        key = ResponseCache.key(cfg.model, cfg.temperature, messages) if self.cache is not None else None
        try:
            if self.cache is not None and key is not None:
                hit = self.cache.get(key)
                if hit is not None:
                    call.cached = True
                    call.completion = hit["completion"]
                    call.prompt_tokens = hit.get("prompt_tokens")
                    call.completion_tokens = hit.get("completion_tokens")
                    return hit["completion"], call
            text, call.prompt_tokens, call.completion_tokens = self._attempts(messages, call)
            call.completion = text
            if not text or not text.strip():
                raise BackendError(EMPTY_MESSAGE, component=component, model=cfg.model)
            if self.cache is not None and key is not None:
                self.cache.put(
                    key, text, prompt_tokens=call.prompt_tokens, completion_tokens=call.completion_tokens
                )
            return text, call
        except BackendError as err:
            err.context.setdefault("component", component)
            call.error = str(err)
            err.call = call  # type: ignore[attr-defined]
            raise
        finally:
            call.latency_ms = round((time.perf_counter() - started) * 1000.0, 3)

    def _attempts(self, messages: list[dict], call: LLMCall) -> tuple[str | None, int | None, int | None]:
        cfg = self.config
        for attempt in range(1, cfg.max_retries + 2):
            if attempt == 1:
                self._openai()  # a missing key fails here, before any request is counted
            call.attempts = attempt
            try:
                raw = self._request(messages, max_tokens=cfg.max_tokens, stream=cfg.stream)
            except client_errors() as exc:
                error = map_client_error(
                    exc, component=call.component, model=cfg.model,
                    base_url=cfg.base_url, timeout_s=cfg.timeout_s,
                )
                if attempt > cfg.max_retries or not is_retryable(exc):
                    raise error from exc
                self._sleep(_backoff_s(attempt, exc))
                continue
            return _parse_completion(raw, component=call.component, model=cfg.model)
        raise AssertionError("unreachable: the retry loop returns or raises")

    def test_connection(self) -> tuple[bool, str]:
        """One tiny request without retries; (ok, message) for the studio's Settings page."""
        cfg = self.config
        where = shown_url(cfg.base_url) or "the default OpenAI endpoint"
        messages = [{"role": "user", "content": "Reply with the single word OK."}]
        started = time.perf_counter()
        try:
            raw = self._request(messages, max_tokens=16, stream=False)
            text, _, _ = _parse_completion(raw, component="connection test", model=cfg.model)
        except BackendError as err:
            return False, err.message
        except client_errors() as exc:
            err = map_client_error(
                exc, component="connection test", model=cfg.model,
                base_url=cfg.base_url, timeout_s=cfg.timeout_s,
            )
            return False, err.message
        ms = (time.perf_counter() - started) * 1000.0
        said = f": {text.strip()[:40]!r}" if text and text.strip() else " (with an empty reply)"
        return True, f"connected to {where}; model {cfg.model} answered in {ms:.0f} ms{said}"


@dataclass
class _Joined:
    """A streamed completion after its deltas were joined."""

    text: str | None
    prompt_tokens: int | None
    completion_tokens: int | None


def _join_stream(chunks: Iterable[Any]) -> _Joined:
    parts: list[str] = []
    usage = None
    for chunk in chunks:
        if getattr(chunk, "usage", None) is not None:
            usage = chunk.usage
        for choice in getattr(chunk, "choices", None) or []:
            delta = getattr(choice, "delta", None)
            piece = getattr(delta, "content", None)
            if isinstance(piece, str):
                parts.append(piece)
    return _Joined(
        text="".join(parts) or None,
        prompt_tokens=_int_or_none(getattr(usage, "prompt_tokens", None)),
        completion_tokens=_int_or_none(getattr(usage, "completion_tokens", None)),
    )


def _parse_completion(raw: Any, *, component: str, model: str) -> tuple[str | None, int | None, int | None]:
    """(text, prompt_tokens, completion_tokens) from a ChatCompletion; BackendError if malformed."""
    if isinstance(raw, _Joined):
        return raw.text, raw.prompt_tokens, raw.completion_tokens
    if isinstance(raw, (str, bytes)):  # non-JSON content type: the client hands back the text
        raise BackendError(
            "the LLM endpoint answered with a malformed body (not a JSON chat completion)",
            component=component, model=model,
        )
    choices = getattr(raw, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise BackendError("the LLM response has no choices", component=component, model=model)
    content = getattr(getattr(choices[0], "message", None), "content", None)
    if content is not None and not isinstance(content, str):
        raise BackendError("the LLM response's content is not text", component=component, model=model)
    usage = getattr(raw, "usage", None)
    return (
        content,
        _int_or_none(getattr(usage, "prompt_tokens", None)),
        _int_or_none(getattr(usage, "completion_tokens", None)),
    )


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- the scripted fake ----------------------------------------------------------

ScriptItem = str | None | BackendError


@dataclass
class ScriptedClient:
    """In-process `LLMClient`: scripted completions in order, or computed from the messages.

    A script item that is a BackendError is raised (as an endpoint failure would be);
    None or "" is an empty completion. Every call is recorded in `calls`.
    """

    script: Iterable[ScriptItem] | Callable[[list[dict]], ScriptItem] = ()
    model: str = "scripted"
    calls: list[LLMCall] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._respond: Callable[[list[dict]], ScriptItem] | None = None
        self._queue: deque[ScriptItem] = deque()
        if callable(self.script):
            self._respond = self.script
        else:
            self._queue.extend(self.script)

    def push(self, *items: ScriptItem) -> None:
        if self._respond is not None:
            raise TypeError("this client answers with a function; push() needs a list script")
        with self._lock:
            self._queue.extend(items)

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._queue)

    def complete(self, messages: list[dict], *, component: str) -> tuple[str, LLMCall]:
        messages = [dict(m) for m in messages]
        call = LLMCall(component=component, model=self.model, base_url=None, messages=messages, attempts=1)
        started = time.perf_counter()
        with self._lock:
            self.calls.append(call)
            try:
                item = self._next(messages, component)
            except BackendError as err:
                item = err
        call.latency_ms = round((time.perf_counter() - started) * 1000.0, 3)
        if isinstance(item, BackendError):
            item.context.setdefault("component", component)
            call.error = str(item)
            item.call = call  # type: ignore[attr-defined]
            raise item
        call.completion = item
        call.prompt_tokens = sum(len(str(m.get("content") or "").split()) for m in messages)
        call.completion_tokens = len(item.split()) if item else 0
        if not item or not item.strip():
            err = BackendError(EMPTY_MESSAGE, component=component, model=self.model)
            call.error = str(err)
            err.call = call  # type: ignore[attr-defined]
            raise err
        return item, call

    def _next(self, messages: list[dict], component: str) -> ScriptItem:
        if self._respond is not None:
            return self._respond(messages)
        if not self._queue:
            return BackendError("scripted client exhausted: no completion left", component=component)
        return self._queue.popleft()
