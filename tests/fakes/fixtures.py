"""Pytest fixtures for the fakes; register with `pytest_plugins = ["tests.fakes.fixtures"]`."""

from __future__ import annotations

from typing import Iterator

import pytest

from core_engine.llm.client import LLMConfig
from tests.fakes.openai_server import ScriptedOpenAIServer


@pytest.fixture
def scripted_server() -> Iterator[ScriptedOpenAIServer]:
    """A started local OpenAI-compatible server with an empty script; `push` replies."""
    with ScriptedOpenAIServer() as server:
        yield server


@pytest.fixture
def scripted_llm_config(scripted_server: ScriptedOpenAIServer) -> LLMConfig:
    """An LLMConfig aimed at `scripted_server`, short timeout, default retries."""
    return LLMConfig(base_url=scripted_server.base_url, model="scripted-model", timeout_s=5.0)


@pytest.fixture
def no_sleep() -> list[float]:
    """A list to pass as `sleep=no_sleep.append`: records backoff delays instead of waiting."""
    return []


LLM_ENV_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GENIE_LLM_BASE_URL", "GENIE_LLM_MODEL")


@pytest.fixture
def no_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never depend on (or leak) a developer's real key or endpoint."""
    for name in LLM_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
