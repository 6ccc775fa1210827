"""Secrets in http APIs: written as ``${env:NAME}`` references, resolved only at call time.

A spec (and so a project file, a bundle or any export) never needs to hold a
credential: a header such as ``Authorization: Bearer ${env:SHOP_TOKEN}`` is
resolved from the environment when the API is called. ``literal_secrets``
finds what still looks like a literal credential (lint flags it, every export
blanks it), ``redact`` blanks it.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .errors import BackendError

__all__ = ["ALLOW_VAR", "ENV_REF", "allowed_env_names", "api_literal_secrets", "find_secrets", "is_secret_name", "literal_secrets", "redact_spec_apis", "resolve_env",
           "redact_url"]

ENV_REF = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}")
_SECRET_WORDS = {"key", "apikey", "secret", "secrets", "token", "password", "passwd", "pwd", "credential",
                 "credentials", "authorization", "auth", "bearer", "cookie", "privatekey", "signature", "sig",
                 "sessionid", "jwt"}
_SECRET_VALUE = re.compile(r"^(sk-[A-Za-z0-9_\-]{8,}|(Bearer|Basic|Token|Digest)\s+\S{6,}|gh[pousr]_[A-Za-z0-9]{20,}"
                           r"|xox[abp]-\S{10,}|AKIA[A-Z0-9]{12,}|eyJ[A-Za-z0-9_\-]{10,}\.)", re.I)
_HARMLESS_HEADERS = {"content-type", "accept", "accept-language", "user-agent", "cache-control", "content-language"}


def is_secret_name(name: str) -> bool:
    """True for names such as api_key, OPENAI_API_KEY, client-secret, authToken, Authorization, X-Signature.

    Counts and references are not secrets: ``max_tokens`` (plural), ``api_key_env``
    (the *name* of an environment variable).
    """
    words = [w.lower() for w in re.split(r"[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])", str(name)) if w]
    if not words or words[-1] in ("env", "var", "variable", "name"):
        return False
    return any(w in _SECRET_WORDS for w in words) or "".join(words) in _SECRET_WORDS


def _is_reference(value: str) -> bool:
    """A value whose every credential part is an ${env:NAME} reference (e.g. "Bearer ${env:TOKEN}")."""
    rest = ENV_REF.sub("", value).strip()
    return bool(ENV_REF.search(value)) and (not rest or re.fullmatch(r"(Bearer|Basic|Token|Digest)", rest, re.I)
                                            is not None)


def looks_secret(value: Any) -> bool:
    return isinstance(value, str) and not _is_reference(value) and bool(_SECRET_VALUE.match(value.strip()))


def find_secrets(value: Any, path: str = "") -> list[str]:
    """Paths in a JSON-like value whose key names a secret or whose text looks like a key."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            sub = f"{path}.{k}" if path else str(k)
            if is_secret_name(str(k)) and v not in (None, "", False) and not (isinstance(v, str) and _is_reference(v)):
                found.append(sub)
            else:
                found.extend(find_secrets(v, sub))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found.extend(find_secrets(v, f"{path}[{i}]"))
    elif looks_secret(value):
        found.append(path or "<value>")
    return found


def _secret_header(name: str, value: str) -> bool:
    if not value or _is_reference(value) or name.lower() in _HARMLESS_HEADERS:
        return False
    return is_secret_name(name) or looks_secret(value)


def _secret_query(url: str) -> list[str]:
    try:
        query = urlsplit(url).query
    except ValueError:
        return []
    return [k for k, v in parse_qsl(query, keep_blank_values=True)
            if v and not _is_reference(v) and (is_secret_name(k) or looks_secret(v))]


def api_literal_secrets(api: Any) -> list[str]:
    """Where one API holds a literal credential: "headers.H", "url.PARAM" or "url.password"."""
    found = [f"headers.{name}" for name, value in (api.headers or {}).items() if _secret_header(name, str(value))]
    found += [f"url.{k}" for k in _secret_query(api.url or "")]
    try:
        password = urlsplit(api.url).password if api.url else None
    except ValueError:
        password = None
    if password and not _is_reference(password):
        found.append("url.password")
    return found


def literal_secrets(spec: Any) -> list[str]:
    """Where the APIs of ``spec`` hold literal credentials: "apis.NAME.headers.H" / "apis.NAME.url.PARAM"."""
    return [f"apis.{api.name}.{where}" for api in spec.apis for where in api_literal_secrets(api)]


def redact_url(url: str) -> str:
    """``url`` with literal secret query values blanked and any user:password removed."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    secret = set(_secret_query(url))
    query = urlencode([(k, "" if k in secret else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)],
                      safe="${}:")
    netloc = parts.netloc.rsplit("@", 1)[-1] if "@" in parts.netloc and not _is_reference(parts.password or "") \
        else parts.netloc
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_spec_apis(spec: Any) -> list[str]:
    """Blank every literal secret of ``spec``'s http APIs in place; the paths that were blanked."""
    found = literal_secrets(spec)
    for api in spec.apis:
        if any(p.startswith(f"apis.{api.name}.headers.") for p in found):
            api.headers = {k: ("" if f"apis.{api.name}.headers.{k}" in found else v) for k, v in api.headers.items()}
        if api.url and any(p.startswith(f"apis.{api.name}.url.") for p in found):
            api.url = redact_url(api.url)
    return found


ALLOW_VAR = "GENIE_API_ENV"
"""The environment variable that lists (comma-separated) which variables agents' http APIs may read."""


def allowed_env_names() -> set[str]:
    return {n.strip() for n in os.environ.get(ALLOW_VAR, "").split(",") if n.strip()}


def resolve_env(text: str, *, api: str) -> str:
    """Replace ${env:NAME} references with the environment's values (at call time only).

    A spec comes from whoever wrote the bundle, so it may not read just any variable of the
    user's environment (an OPENAI_API_KEY sent to the bundle's own url): only the names the
    user listed in GENIE_API_ENV are resolved; any other reference is a clear error.
    """
    allowed = allowed_env_names()

    def value(match: re.Match) -> str:
        name = match.group(1)
        if name not in allowed:
            raise BackendError(f"API '{api}' refers to ${{env:{name}}}, but agents may read only the environment "
                               f"variables listed in {ALLOW_VAR}; set {ALLOW_VAR}={name} to allow it", api=api)
        if name not in os.environ:
            raise BackendError(f"API '{api}' needs the environment variable {name}, which is not set", api=api)
        return os.environ[name]
    return ENV_REF.sub(value, text)
