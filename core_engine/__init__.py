"""Genie engine: worksheet specs, formal dialogue state, Algorithm 1 policy, acts.

The public surface the CLI, the studio and tests use. Everything else is an
implementation detail that may move.

Names are imported on first use (PEP 562), so `import core_engine.cli` (and `genie
--help`) does not pay for pydantic models, the sandbox or the backends up front.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_getattr

from .errors import (BackendError, GenieError, KnowledgeError, PolicyError, SandboxError, SpecError,
                     StatementError, StorageError)

if TYPE_CHECKING:
    from .agent import Agent, Session
    from .spec import Api, EnumValue, Field, Settings, Spec, Worksheet
    from .state import DialogueState, KBRecord, TaskRecord
    from .turn import TurnResult

__version__ = "0.1.0"

_LAZY = {"Agent": ".agent", "Session": ".agent", "TurnResult": ".turn", "Spec": ".spec", "Worksheet": ".spec",
         "Field": ".spec", "EnumValue": ".spec", "Api": ".spec", "Settings": ".spec", "DialogueState": ".state",
         "TaskRecord": ".state", "KBRecord": ".state"}

__all__ = [
    "Agent", "Session", "TurnResult", "Spec", "Worksheet", "Field", "EnumValue", "Api", "Settings",
    "DialogueState", "TaskRecord", "KBRecord", "GenieError", "SpecError", "StatementError", "SandboxError",
    "PolicyError", "KnowledgeError", "BackendError", "StorageError", "__version__",
]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
