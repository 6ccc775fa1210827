"""Shared fixtures: the scripted OpenAI-compatible server lives in tests/fakes."""

pytest_plugins = ["tests.fakes.fixtures", "tests.fuzz_profile"]
