"""The LLM client layer, run with the real openai client against a local scripted server."""

from __future__ import annotations

import inspect
import json
import socket
import threading
from urllib.parse import urlsplit

import httpx2
import openai
import pydantic
import pytest

from core_engine.errors import BackendError, StorageError
from core_engine.llm.client import (
    LLMCall,
    LLMClient,
    LLMConfig,
    OpenAIClient,
    ResponseCache,
    ScriptedClient,
    is_local_url,
    is_retryable,
    map_client_error,
)
from tests.fakes.fixtures import no_sleep, scripted_server  # noqa: F401 - fixtures
from tests.fakes.openai_server import Reply, ScriptedOpenAIServer

MESSAGES = [
    {"role": "system", "content": "You are a semantic parser."},
    {"role": "user", "content": "book a table for two tomorrow"},
]


pytestmark = pytest.mark.usefixtures("no_llm_env")


def make_client(server: ScriptedOpenAIServer, sleeps: list[float], cache=None, **overrides) -> OpenAIClient:
    settings = {"base_url": server.base_url, "model": "scripted-model", "timeout_s": 5.0, **overrides}
    config = LLMConfig(**settings)
    return OpenAIClient(config, cache=cache, sleep=sleeps.append)


def backend_error(client: LLMClient, messages=MESSAGES, component: str = "parser") -> BackendError:
    with pytest.raises(BackendError) as info:
        client.complete(messages, component=component)
    return info.value


# -- the happy path -----------------------------------------------------------


def test_server_is_local_only(scripted_server):
    assert urlsplit(scripted_server.base_url).hostname == "127.0.0.1"
    assert is_local_url(scripted_server.base_url)


def test_completion_records_prompt_tokens_and_latency(scripted_server, no_sleep):
    scripted_server.push(Reply('book_restaurant.number_of_people = 2', prompt_tokens=57, completion_tokens=9))
    client = make_client(scripted_server, no_sleep, temperature=0.2, max_tokens=120)

    text, call = client.complete(MESSAGES, component="parser")

    assert text == "book_restaurant.number_of_people = 2"
    assert (call.prompt_tokens, call.completion_tokens) == (57, 9)
    assert call.attempts == 1 and not call.cached and call.error is None
    assert call.latency_ms > 0
    assert call.component == "parser" and call.model == "scripted-model"
    assert call.base_url == scripted_server.base_url
    assert call.messages == MESSAGES and call.completion == text
    sent = scripted_server.requests[0]
    assert sent["messages"] == MESSAGES
    assert (sent["model"], sent["temperature"], sent["max_tokens"]) == ("scripted-model", 0.2, 120)
    assert "stream" not in sent
    assert no_sleep == []


def test_default_usage_is_reported(scripted_server, no_sleep):
    scripted_server.push(Reply("one two three"))
    _, call = make_client(scripted_server, no_sleep).complete(MESSAGES, component="rg")
    words = sum(len(m["content"].split()) for m in MESSAGES)
    assert (call.prompt_tokens, call.completion_tokens) == (words, 3)


def test_call_trace_is_json_able(scripted_server, no_sleep):
    scripted_server.push(Reply("ok"))
    _, call = make_client(scripted_server, no_sleep).complete(MESSAGES, component="parser")
    data = json.loads(json.dumps(call.to_dict()))
    assert data["completion"] == "ok" and data["attempts"] == 1
    assert LLMCall.from_dict(data) == call


def test_messages_are_copied_into_the_trace(scripted_server, no_sleep):
    scripted_server.push(Reply("ok"))
    messages = [dict(m) for m in MESSAGES]
    _, call = make_client(scripted_server, no_sleep).complete(messages, component="parser")
    messages[1]["content"] = "changed afterwards"
    assert call.messages == MESSAGES


def test_streaming_joins_deltas_and_reads_usage(scripted_server, no_sleep):
    scripted_server.push(Reply("Which date would you like to book?", completion_tokens=7))
    client = make_client(scripted_server, no_sleep, stream=True)

    text, call = client.complete(MESSAGES, component="rg")

    assert text == "Which date would you like to book?"
    assert call.completion_tokens == 7 and call.prompt_tokens is not None
    sent = scripted_server.requests[0]
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}


def test_streaming_empty_completion_is_an_error(scripted_server, no_sleep):
    scripted_server.push(Reply(None))
    err = backend_error(make_client(scripted_server, no_sleep, stream=True))
    assert "empty completion" in err.message


# -- retries ---------------------------------------------------------------------


def test_server_error_then_success_takes_two_attempts(scripted_server, no_sleep):
    scripted_server.push(Reply(status=500), Reply("answer('pizza places')"))
    text, call = make_client(scripted_server, no_sleep).complete(MESSAGES, component="parser")
    assert text == "answer('pizza places')"
    assert call.attempts == 2 and call.error is None
    assert no_sleep == [0.5]
    assert len(scripted_server.requests) == 2


def test_rate_limit_then_success_honours_retry_after(scripted_server, no_sleep):
    scripted_server.push(Reply(status=429, retry_after=3), Reply("hello"))
    text, call = make_client(scripted_server, no_sleep).complete(MESSAGES, component="rg")
    assert (text, call.attempts) == ("hello", 2)
    assert no_sleep == [3.0]


def test_persistent_server_error_gives_up_after_max_retries(scripted_server, no_sleep):
    scripted_server.push(*[Reply(status=503, content="overloaded")] * 3)
    err = backend_error(make_client(scripted_server, no_sleep, max_retries=2))
    assert err.call.attempts == 3
    assert no_sleep == [0.5, 1.0]  # exponential backoff
    assert err.context["status"] == 503 and err.context["component"] == "parser"
    assert "503" in err.message and "overloaded" in err.message
    assert err.call.error == str(err) and err.call.completion is None
    assert isinstance(err.__cause__, openai.InternalServerError)
    assert len(scripted_server.requests) == 3


def test_zero_retries_means_one_attempt(scripted_server, no_sleep):
    scripted_server.push(Reply(status=500))
    err = backend_error(make_client(scripted_server, no_sleep, max_retries=0))
    assert err.call.attempts == 1 and no_sleep == []


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_not_retried(scripted_server, no_sleep, status):
    scripted_server.push(Reply(status=status))
    err = backend_error(make_client(scripted_server, no_sleep))
    assert err.call.attempts == 1 and no_sleep == []
    assert err.context["status"] == status
    assert len(scripted_server.requests) == 1


def test_bad_key_message_points_to_settings(scripted_server, no_sleep):
    scripted_server.push(Reply(status=401))
    err = backend_error(make_client(scripted_server, no_sleep))
    assert "API key" in err.message and "Settings" in err.message


def test_timeout_is_reported_as_timeout(scripted_server, no_sleep):
    scripted_server.push(Reply("too late", delay_s=2.0))
    client = make_client(scripted_server, no_sleep, timeout_s=0.2, max_retries=0)
    err = backend_error(client)
    assert "timed out" in err.message and "0.2 s" in err.message
    assert isinstance(err.__cause__, openai.APITimeoutError)
    assert err.call.latency_ms < 1500


def test_timeout_is_retried(scripted_server, no_sleep):
    scripted_server.push(Reply("too late", delay_s=2.0), Reply("in time"))
    client = make_client(scripted_server, no_sleep, timeout_s=0.2, max_retries=1)
    text, call = client.complete(MESSAGES, component="parser")
    assert (text, call.attempts) == ("in time", 2)


def test_unreachable_endpoint_is_retried_then_reported(no_sleep):
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", timeout_s=2.0, max_retries=1)
    err = backend_error(OpenAIClient(config, sleep=no_sleep.append))
    assert err.call.attempts == 2 and no_sleep == [0.5]
    assert "cannot connect" in err.message and str(port) in err.message


# -- malformed answers -------------------------------------------------------------


@pytest.mark.parametrize("content_type", ["application/json", "text/html"])
def test_garbage_body_is_a_backend_error(scripted_server, no_sleep, content_type):
    scripted_server.push(Reply(garbage=True, content_type=content_type))
    err = backend_error(make_client(scripted_server, no_sleep))
    assert "malformed" in err.message
    assert err.call.attempts == 1 and no_sleep == []


@pytest.mark.parametrize("content", [None, "", "   \n"])
def test_empty_completion_is_a_backend_error(scripted_server, no_sleep, content):
    scripted_server.push(Reply(content))
    err = backend_error(make_client(scripted_server, no_sleep))
    assert err.message == "the LLM returned an empty completion"
    assert err.call.attempts == 1 and err.call.error


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(b'{"id": "x", "object": "chat.completion", "choices": []}', "no choices"),
     (b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": 7}}]}', "not text")],
)
def test_json_that_is_not_a_completion_is_a_backend_error(scripted_server, no_sleep, raw, expected):
    scripted_server.push(Reply(raw=raw))
    err = backend_error(make_client(scripted_server, no_sleep))
    assert expected in err.message and err.call.attempts == 1


def test_exhausted_script_fails_loudly(scripted_server, no_sleep):
    err = backend_error(make_client(scripted_server, no_sleep, max_retries=0))
    assert "script exhausted" in err.message


# -- API key ---------------------------------------------------------------------


def test_missing_key_for_remote_endpoint_is_refused_before_any_request(no_sleep):
    config = LLMConfig(base_url="https://api.example.invalid/v1")
    err = backend_error(OpenAIClient(config, sleep=no_sleep.append))
    assert err.message == "no API key: set OPENAI_API_KEY or enter a key in Settings"
    assert err.call.attempts == 0 and err.context["component"] == "parser"


def test_missing_key_names_the_configured_variable(no_sleep):
    config = LLMConfig(api_key_env="GENIE_TEST_KEY_THAT_IS_UNSET")
    err = backend_error(OpenAIClient(config, sleep=no_sleep.append))
    assert "GENIE_TEST_KEY_THAT_IS_UNSET" in err.message


def test_local_endpoint_gets_a_placeholder_key(scripted_server, no_sleep):
    scripted_server.push(Reply("ok"))
    make_client(scripted_server, no_sleep).complete(MESSAGES, component="parser")
    assert scripted_server.request_headers[0]["authorization"].startswith("Bearer ")


def test_key_comes_from_argument_or_configured_env(scripted_server, no_sleep, monkeypatch):
    monkeypatch.setenv("MY_LLM_KEY", "sk-from-env")
    scripted_server.push(Reply("a"), Reply("b"))
    config = LLMConfig(base_url=scripted_server.base_url, api_key_env="MY_LLM_KEY")
    OpenAIClient(config, sleep=no_sleep.append).complete(MESSAGES, component="p")
    OpenAIClient(config, api_key="sk-typed-in", sleep=no_sleep.append).complete(MESSAGES, component="p")
    auth = [h["authorization"] for h in scripted_server.request_headers]
    assert auth == ["Bearer sk-from-env", "Bearer sk-typed-in"]


@pytest.mark.parametrize("url", ["localhost:8000/v1", "ftp://host/v1", "http://", "not a url"])
def test_config_rejects_a_mistyped_base_url(url):
    with pytest.raises(pydantic.ValidationError, match="http"):
        LLMConfig(base_url=url)


def test_client_can_be_closed_and_reused(scripted_server, no_sleep):
    scripted_server.push(Reply("a"), Reply("b"))
    with make_client(scripted_server, no_sleep) as client:
        assert client.complete(MESSAGES, component="p")[0] == "a"
        client.close()
        assert client.complete(MESSAGES, component="p")[0] == "b"


def test_config_never_holds_a_key():
    with pytest.raises(pydantic.ValidationError):
        LLMConfig(api_key="sk-secret")
    assert "key" not in json.dumps(LLMConfig().model_dump()).replace("api_key_env", "")


@pytest.mark.parametrize(
    ("url", "local"),
    [("http://localhost:11434/v1", True), ("http://127.0.0.1:8000/v1", True),
     ("http://[::1]:8000/v1", True), ("https://api.openai.com/v1", False), (None, False),
     ("http://localhost.evil.com/v1", False)],
)
def test_is_local_url(url, local):
    assert is_local_url(url) is local


# -- cache -----------------------------------------------------------------------


def test_cache_hit_skips_the_server(scripted_server, no_sleep):
    scripted_server.push(Reply("answer('romantic french')", prompt_tokens=11, completion_tokens=4))
    config = LLMConfig(base_url=scripted_server.base_url, model="scripted-model")
    client = OpenAIClient(config, cache=ResponseCache(), sleep=no_sleep.append)

    first, call1 = client.complete(MESSAGES, component="parser")
    second, call2 = client.complete([dict(m) for m in MESSAGES], component="parser")

    assert first == second == "answer('romantic french')"
    assert len(scripted_server.requests) == 1
    assert (call1.cached, call2.cached) == (False, True)
    assert call2.attempts == 0 and (call2.prompt_tokens, call2.completion_tokens) == (11, 4)


def test_cache_key_depends_on_model_temperature_and_messages():
    key = ResponseCache.key("m", 0.0, MESSAGES)
    assert key == ResponseCache.key("m", 0, [dict(m) for m in MESSAGES])
    assert key != ResponseCache.key("m2", 0.0, MESSAGES)
    assert key != ResponseCache.key("m", 0.7, MESSAGES)
    assert key != ResponseCache.key("m", 0.0, MESSAGES[:1])


def test_failures_are_not_cached(scripted_server, no_sleep):
    scripted_server.push(Reply(""), Reply("second try"))
    config = LLMConfig(base_url=scripted_server.base_url)
    client = OpenAIClient(config, cache=ResponseCache(), sleep=no_sleep.append)
    backend_error(client)
    assert client.complete(MESSAGES, component="parser")[0] == "second try"


def test_cache_persists_to_a_json_file(tmp_path):
    path = tmp_path / "cache" / "llm.json"
    cache = ResponseCache(path)
    key = ResponseCache.key("m", 0.0, MESSAGES)
    cache.put(key, "done", prompt_tokens=3, completion_tokens=1)

    reloaded = ResponseCache(path)
    assert key in reloaded and len(reloaded) == 1
    assert reloaded.get(key) == {"completion": "done", "prompt_tokens": 3, "completion_tokens": 1}
    assert [p.name for p in path.parent.iterdir()] == ["llm.json"]  # no temp files left


def test_cache_is_thread_safe(tmp_path):
    path = tmp_path / "llm.json"
    cache = ResponseCache(path)

    def fill(worker: int) -> None:
        for i in range(20):
            cache.put(ResponseCache.key("m", 0.0, [{"role": "user", "content": f"{worker}-{i}"}]), f"{worker}-{i}")

    threads = [threading.Thread(target=fill, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 160 and len(ResponseCache(path)) == 160


@pytest.mark.parametrize("text", ["{not json", '{"entries": {"k": {"nope": 1}}}', "[]"])
def test_unreadable_cache_file_is_a_storage_error(tmp_path, text):
    path = tmp_path / "llm.json"
    path.write_text(text)
    with pytest.raises(StorageError) as info:
        ResponseCache(path)
    assert info.value.context["path"] == str(path)


# -- connection test -------------------------------------------------------------------


def test_connection_ok(scripted_server, no_sleep):
    scripted_server.push(Reply("OK"))
    ok, message = make_client(scripted_server, no_sleep).test_connection()
    assert ok and "scripted-model" in message and "'OK'" in message
    assert scripted_server.requests[0]["max_tokens"] == 16


def test_connection_reports_failure_without_retrying(scripted_server, no_sleep):
    scripted_server.push(Reply(status=401))
    ok, message = make_client(scripted_server, no_sleep).test_connection()
    assert not ok and "API key" in message
    assert len(scripted_server.requests) == 1


def test_connection_without_key_reports_it(no_sleep):
    client = OpenAIClient(LLMConfig(base_url="https://api.example.invalid/v1"), sleep=no_sleep.append)
    assert client.test_connection() == (False, "no API key: set OPENAI_API_KEY or enter a key in Settings")


# -- the server fake itself ------------------------------------------------------------


def test_server_lists_models_and_answers_from_a_function():
    def echo(body: dict) -> Reply:
        return Reply(f"you said: {body['messages'][-1]['content']}")

    with ScriptedOpenAIServer(echo, models=["m1", "m2"]) as server:
        raw = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0, timeout=5)
        assert [m.id for m in raw.models.list()] == ["m1", "m2"]
        client = OpenAIClient(LLMConfig(base_url=server.base_url), sleep=lambda s: None)
        assert client.complete(MESSAGES, component="p")[0] == "you said: book a table for two tomorrow"
        with pytest.raises(TypeError):
            server.push(Reply("x"))


# -- exception mapping is complete -----------------------------------------------------


def _openai_error_classes() -> list[type[BaseException]]:
    import openai._exceptions as exc_module

    found = {
        obj
        for module in (openai, exc_module)
        for obj in list(vars(module).values())  # snapshot: openai loads submodules lazily
        if isinstance(obj, type) and issubclass(obj, openai.OpenAIError)
    }
    return sorted(found, key=lambda c: c.__name__)


def _instance(cls: type[BaseException]) -> BaseException:
    """Build an instance of any openai exception class from its constructor's parameter names."""
    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    status = getattr(cls, "status_code", 500)
    status = status if isinstance(status, int) else 500
    completion = openai.types.chat.ChatCompletion.model_construct(
        id="x", choices=[], created=0, model="m", object="chat.completion", usage=None
    )
    values = {
        "message": "boom",
        "request": request,
        "response": httpx2.Response(status, request=request),
        "body": None,
        "completion": completion,
        "unsent_messages": [],
        "symbol": "Thing",
    }
    params = inspect.signature(cls.__init__).parameters
    kwargs = {}
    args = []
    for name, param in list(params.items())[1:]:
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.default is not param.empty:
            continue
        if name not in values:
            raise AssertionError(f"don't know how to build {cls.__name__}: parameter {name!r}")
        if param.kind is param.KEYWORD_ONLY:
            kwargs[name] = values[name]
        else:
            args.append(values[name])
    return cls(*args, **kwargs)


ERROR_CLASSES = _openai_error_classes()


def test_enumeration_finds_the_known_classes():
    names = {c.__name__ for c in ERROR_CLASSES}
    assert {"APITimeoutError", "APIConnectionError", "RateLimitError", "InternalServerError",
            "AuthenticationError", "BadRequestError", "APIStatusError", "OpenAIError"} <= names


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_every_openai_error_maps_to_backend_error(cls, monkeypatch, no_sleep):
    exc = _instance(cls)
    mapped = map_client_error(exc, component="parser", model="m", timeout_s=1.0)
    assert isinstance(mapped, BackendError) and mapped.message
    assert mapped.context["component"] == "parser"

    # and the client's retry loop catches it, chains it and attaches the trace
    def raise_it(self, messages, *, max_tokens, stream):
        raise exc

    monkeypatch.setattr(OpenAIClient, "_request", raise_it)
    client = OpenAIClient(LLMConfig(base_url="http://127.0.0.1:9/v1", max_retries=1), sleep=no_sleep.append)
    err = backend_error(client)
    assert err.__cause__ is exc
    assert err.call.attempts == (2 if is_retryable(exc) else 1)


@pytest.mark.parametrize(
    ("exc", "retry"),
    [
        (ValueError("bad json"), False),
        (httpx2.ReadError("reset"), True),
        (httpx2.RemoteProtocolError("closed mid-stream"), True),
    ],
)
def test_non_openai_client_failures_map_too(exc, retry):
    assert isinstance(map_client_error(exc, component="rg", model="m"), BackendError)
    assert is_retryable(exc) is retry


def test_retry_classification():
    def status_error(code: int) -> openai.APIStatusError:
        request = httpx2.Request("POST", "http://127.0.0.1:9/")
        return openai.APIStatusError("x", response=httpx2.Response(code, request=request), body=None)

    assert [is_retryable(status_error(c)) for c in (400, 401, 404, 409, 429, 500, 502, 503)] == [
        False, False, False, False, True, True, True, True,
    ]
    request = httpx2.Request("POST", "http://127.0.0.1:9/")
    assert is_retryable(openai.APITimeoutError(request))
    assert is_retryable(openai.APIConnectionError(request=request))


# -- the scripted client ---------------------------------------------------------------


def test_scripted_client_replays_in_order_and_records_calls():
    client = ScriptedClient(["first", "second"])
    assert isinstance(client, LLMClient)
    assert client.complete(MESSAGES, component="parser")[0] == "first"
    text, call = client.complete(MESSAGES, component="rg")
    assert text == "second" and call.component == "rg" and call.attempts == 1
    assert [c.completion for c in client.calls] == ["first", "second"]
    assert client.remaining == 0


def test_scripted_client_exhausted_empty_and_failures():
    failure = BackendError("scripted outage", status=503)
    client = ScriptedClient([failure, None])
    err = backend_error(client)
    assert err is failure and err.call.error and err.context["component"] == "parser"
    assert backend_error(client).message == "the LLM returned an empty completion"
    assert "exhausted" in backend_error(client).message
    client.push("late")
    assert client.complete(MESSAGES, component="p")[0] == "late"
    assert len(client.calls) == 4


def test_scripted_client_answers_from_a_function():
    client = ScriptedClient(lambda messages: messages[-1]["content"].upper())
    assert client.complete(MESSAGES, component="p")[0] == "BOOK A TABLE FOR TWO TOMORROW"
    with pytest.raises(TypeError):
        client.push("x")
