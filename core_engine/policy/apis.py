"""Calling the APIs a spec declares: mock, python and http (DESIGN §4 "APIs").

Mock transaction ids are derived from the call (uuid5), so replaying a
conversation reproduces them and conversation tests stay deterministic.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
import uuid
from types import ModuleType
from typing import Any, Callable

from .. import jsonsafe
from ..errors import BackendError, GenieError
from ..secrets import redact_url, resolve_env
from ..spec.model import Api, Spec

_NAMESPACE = uuid.UUID("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")


def _fill_template(template: Any, params: dict[str, Any]) -> Any:
    if isinstance(template, str):
        out = template
        for key, value in params.items():
            token = "{" + key + "}"
            if token in out:
                if out == token:
                    return value
                out = out.replace(token, str(value))
        return out
    if isinstance(template, dict):
        return {k: _fill_template(v, params) for k, v in template.items()}
    if isinstance(template, list):
        return [_fill_template(v, params) for v in template]
    return template


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_EXAMPLE_REF = re.compile(r"\b(?:like|e\.g\.?|for example|such as)\s+([A-Z][A-Z0-9]*[-/]?[0-9][A-Z0-9-/]{2,})")


def shape_mock_reference(value: Any, description: str) -> Any:
    """A mock transaction id given to an output field whose description shows an example ("Your booking reference,
    like OP-20931") takes that example's shape, its letters kept and its digits drawn from the id
    ("OP-48213"): a long uuid read out as a booking reference did not look like one, and a tester could not say
    it back (a blind-set writer's note). Deterministic, as the id is; any other value is returned as it is."""
    if not isinstance(value, str) or not _UUID.fullmatch(value):
        return value
    m = _EXAMPLE_REF.search(description or "")
    if m is None:
        return value
    digits = iter(str(int(value.replace("-", ""), 16)))
    return "".join(next(digits, "0") if ch.isdigit() else ch for ch in m.group(1))


class ApiRunner:
    """Runs declared APIs; every failure is a BackendError naming the API."""

    def __init__(self, spec: Spec, module: ModuleType | None = None,
                 post: Callable[[str, dict, dict, float], Any] | None = None) -> None:
        self.spec = spec
        self.module = module
        self._post = post or _http_post

    def call(self, name: str, params: dict[str, Any]) -> Any:
        api = self.spec.api(name)
        if api is None:
            raise BackendError(f"API '{name}' is not declared in the spec", api=name)
        if api.kind == "mock":
            return self._mock(api, params)
        if api.kind == "python":
            return self._python(api, params)
        return self._http(api, params)

    def _mock(self, api: Api, params: dict[str, Any]) -> Any:
        key = json.dumps([self.spec.name, api.name, params], sort_keys=True, default=str)
        txid = str(uuid.uuid5(_NAMESPACE, key))
        return _fill_template(api.mock_result, {**params, "transaction_id": txid})

    def _python(self, api: Api, params: dict[str, Any]) -> Any:
        fname = api.function or api.name
        fn = getattr(self.module, fname, None) if self.module is not None else None
        if not callable(fn) or fname.startswith("_"):
            raise BackendError(f"API '{api.name}': function '{fname}' not found in the project's API module",
                               api=api.name)
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["result"] = fn(**params)
            except Exception as exc:  # developer code: report whatever it raised
                box["error"] = exc

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(api.timeout_s)
        if worker.is_alive():
            raise BackendError(f"API '{api.name}' did not answer within {api.timeout_s} s", api=api.name)
        if "error" in box:
            exc = box["error"]
            if isinstance(exc, GenieError):
                raise exc
            raise BackendError(f"API '{api.name}' failed: {type(exc).__name__}: {exc}", api=api.name) from exc
        result = box.get("result")
        try:
            jsonsafe.check_value(result, f"API '{api.name}' result", max_chars=None)  # bounded by the body limit
        except ValueError as exc:
            raise BackendError(f"API '{api.name}' returned a value that is not JSON: {exc}", api=api.name) from exc
        return result

    def _http(self, api: Api, params: dict[str, Any]) -> Any:
        if not api.url:
            raise BackendError(f"API '{api.name}' has no url", api=api.name)
        if not api.url.strip().lower().startswith(("http://", "https://")):  # urllib would also open file://
            raise BackendError(f"API '{api.name}': only http:// and https:// urls are called, not {api.url!r}",
                               api=api.name)
        url = resolve_env(api.url, api=api.name)
        headers = {k: resolve_env(str(v), api=api.name) for k, v in api.headers.items()}
        return self._post(url, params, headers, api.timeout_s)


MAX_BODY_BYTES = 5_000_000


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed: the credentials of an API must never reach another address."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001 - urllib's signature
        raise urllib.error.HTTPError(req.full_url, code, f"redirect to {newurl} refused", headers, fp)


_OPENER = urllib.request.build_opener(_NoRedirect)


def _http_post(url: str, payload: dict, headers: dict, timeout_s: float) -> Any:
    """POST JSON; one deadline (``timeout_s``) covers connecting, the headers and the whole body."""
    shown = redact_url(url)
    data = json.dumps(payload, default=str, allow_nan=False).encode()
    req = urllib.request.Request(url, data=data, method="POST",
                                 headers={"Content-Type": "application/json", **headers})
    box: dict[str, Any] = {}
    deadline = time.monotonic() + timeout_s

    def fetch() -> None:
        try:
            with _OPENER.open(req, timeout=timeout_s) as resp:
                chunks, size = [], 0
                while size <= MAX_BODY_BYTES and time.monotonic() < deadline:
                    chunk = resp.read1(65536)
                    if not chunk:
                        box["body"] = b"".join(chunks)
                        return
                    chunks.append(chunk)
                    size += len(chunk)
                box["error"] = BackendError(f"POST {shown} sent more than {MAX_BODY_BYTES:,} bytes", url=shown) \
                    if size > MAX_BODY_BYTES else None
        except urllib.error.HTTPError as exc:
            box["error"] = BackendError(f"POST {shown} answered HTTP {exc.code}" +
                                        (" (a redirect, not followed)" if 300 <= exc.code < 400 else ""),
                                        url=shown, status=exc.code)
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            box["error"] = BackendError(f"POST {shown} failed: {type(exc).__name__}", url=shown)

    worker = threading.Thread(target=fetch, daemon=True)
    worker.start()
    worker.join(timeout_s)
    if box.get("error") is not None:
        raise box["error"]
    if "body" not in box:
        raise BackendError(f"POST {shown} failed: no complete answer within {timeout_s} s", url=shown)
    try:
        return jsonsafe.loads(box["body"])
    except ValueError as exc:
        raise BackendError(f"POST {shown} did not return JSON", url=shown) from exc
