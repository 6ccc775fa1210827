"""Serving an agent over HTTP (`genie serve`): the ASGI app, the session stores, the web chat page.

    from server import create_app, ServeOptions, open_store

The names are imported on first use (PEP 562): `genie --help` loads `server.cli` to list
`genie serve`, and must not pay for starlette, the engine or the stores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core_engine.lazy import lazy_getattr

if TYPE_CHECKING:
    from .app import create_app
    from .engine import ServeOptions
    from .stores.base import open_store

_LAZY = {"create_app": ".app", "ServeOptions": ".engine", "open_store": ".stores.base"}

__all__ = ["create_app", "ServeOptions", "open_store"]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
