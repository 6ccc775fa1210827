"""Hypothesis profiles for the fuzz suites, and the `--fuzz-long` pytest option.

Two profiles:

- `ci` (the default): few examples per test, no deadline, `derandomize=True` and no
  example database, so every CI run tries exactly the same inputs and a failure
  reproduces on any machine.
- `long`: LONG_FACTOR times more examples, random seeds, and the example database
  (`.hypothesis/`), so a long run explores new inputs and replays what failed before.
  Select it with `pytest --fuzz-long tests/test_fuzz_*.py` or `GENIE_FUZZ=long`.

The fuzz tests take their settings from `fuzz(examples)` rather than from the
globally loaded profile, so other suites' hypothesis tests keep their own settings.
Registered as a pytest plugin from tests/conftest.py (`pytest_plugins`).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

CI = "ci"
LONG = "long"
LONG_FACTOR = 50
ENV_VAR = "GENIE_FUZZ"
LONG_TIMEOUT_S = 3600

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
            HealthCheck.function_scoped_fixture]

settings.register_profile(CI, max_examples=25, deadline=None, derandomize=True, database=None,
                          suppress_health_check=_SLOW_OK, print_blob=True)
settings.register_profile(LONG, max_examples=25 * LONG_FACTOR, deadline=None, derandomize=False,
                          suppress_health_check=_SLOW_OK, print_blob=True)

_state = {"profile": LONG if os.environ.get(ENV_VAR, "").strip().lower() == LONG else CI}


def active_profile() -> str:
    return _state["profile"]


def fuzz(examples: int, **overrides: Any) -> settings:
    """Settings for one fuzz test: `examples` inputs in CI, LONG_FACTOR times more in `long`."""
    name = active_profile()
    count = examples * LONG_FACTOR if name == LONG else examples
    return settings(settings.get_profile(name), max_examples=count, **overrides)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the fuzz suites with the `long` hypothesis profile (also: GENIE_FUZZ=long)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fuzz-long", default=False):
        _state["profile"] = LONG


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A long run may take far longer than the suite's per-test timeout; give fuzz tests an hour."""
    if active_profile() == LONG:
        for item in items:
            if item.path.name.startswith("test_fuzz_"):
                item.add_marker(pytest.mark.timeout(LONG_TIMEOUT_S))


def pytest_report_header(config: pytest.Config) -> str:
    return f"genie fuzz profile: {active_profile()}"
