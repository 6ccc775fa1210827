"""Shared fixtures: the scripted OpenAI-compatible server lives in tests/fakes."""

pytest_plugins = ["tests.fakes.fixtures", "tests.fuzz_profile"]


import os  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def _private_trust_key():
    """Code-trust records (storage.trust) use a key in a throwaway config folder, never ~/.config."""
    with tempfile.TemporaryDirectory(prefix="genie-config-") as folder:
        old = os.environ.get("GENIE_CONFIG_DIR")
        os.environ["GENIE_CONFIG_DIR"] = folder
        yield
        if old is None:
            os.environ.pop("GENIE_CONFIG_DIR", None)
        else:
            os.environ["GENIE_CONFIG_DIR"] = old


@pytest.fixture(autouse=True)
def _keep_main_module():
    """Streamlit's AppTest runs page scripts as ``__main__`` and leaves them there; a later
    test that spawns worker processes would then re-run that page in each child. Restore it."""
    import sys

    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main
