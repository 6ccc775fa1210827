"""Test doubles shared by the test suite (scripted LLM server, ...)."""

from tests.fakes.openai_server import Reply, ScriptedOpenAIServer

__all__ = ["Reply", "ScriptedOpenAIServer"]
