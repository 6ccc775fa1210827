"""How a session's options become one LLM client per component (parser, knowledge, rg).

`agent.new_session(parser="llm", rg="llm", knowledge_parser="llm", **options)` passes
the same options to every backend factory; each LLM backend asks `client_for`.

    client / clients={"parser": ...}        an LLMClient to use as is (tests: ScriptedClient)
    llm_config / llm_configs={"rg": ...}    LLMConfig or dict; per-component entries win
    api_key                                 a key for this session only (never stored)
    cache                                   a ResponseCache shared by the components

With no config the endpoint comes from the environment: GENIE_LLM_BASE_URL and
GENIE_LLM_MODEL (then the openai client's own OPENAI_BASE_URL); the key from
the config's `api_key_env` (OPENAI_API_KEY by default).
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from pydantic import ValidationError

from ..errors import BackendError
from .client import LLMClient, LLMConfig, OpenAIClient, ResponseCache

__all__ = ["COMPONENTS", "ENV_BASE_URL", "ENV_MODEL", "client_for", "config_for"]

COMPONENTS = ("parser", "knowledge", "rg")
ENV_BASE_URL = "GENIE_LLM_BASE_URL"
ENV_MODEL = "GENIE_LLM_MODEL"


def config_for(component: str, options: Mapping[str, Any]) -> LLMConfig:
    """The component's LLMConfig: environment defaults < llm_config < llm_configs[component]."""
    merged: dict[str, Any] = {}
    if os.environ.get(ENV_BASE_URL):
        merged["base_url"] = os.environ[ENV_BASE_URL]
    if os.environ.get(ENV_MODEL):
        merged["model"] = os.environ[ENV_MODEL]
    per = (options.get("llm_configs") or {}).get(component)
    for layer in (options.get("llm_config"), per):
        if layer is None:
            continue
        if isinstance(layer, LLMConfig):
            merged.update(layer.model_dump(exclude_unset=True))
        elif isinstance(layer, Mapping):
            merged.update(layer)
        else:
            raise BackendError(f"LLM settings must be an LLMConfig or a dict, not {type(layer).__name__}",
                               component=component)
    try:
        return LLMConfig(**merged)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise BackendError(f"invalid LLM settings: {problems}", component=component) from exc


def client_for(component: str, options: Mapping[str, Any]) -> LLMClient:
    """An explicit client if one was given, else an OpenAIClient built from `config_for`."""
    clients = options.get("clients") or {}
    if clients.get(component) is not None:
        return clients[component]
    if options.get("client") is not None:
        return options["client"]
    cache = options.get("cache")
    if cache is not None and not isinstance(cache, ResponseCache):
        # one ResponseCache object per session: two objects on one file would overwrite each other
        raise BackendError(f"cache must be a ResponseCache, not {type(cache).__name__}", component=component)
    return OpenAIClient(config_for(component, options), api_key=options.get("api_key"), cache=cache)
