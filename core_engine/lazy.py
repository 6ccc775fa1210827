"""Lazy package attributes: a package names what it exports and imports each on first use.

`genie --help` must start fast (DESIGN: the CLI shell is thin), so the packages the CLI
touches at start-up (`core_engine`, `storage`, `server`) import their modules only when a
name is first read. Standard library only.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_getattr(package: str, table: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` that imports ``table[name]`` (relative to ``package``) once."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    return __getattr__
