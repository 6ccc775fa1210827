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
    from .session.agent import Agent, Session
    from .spec.model import Api, EnumValue, Field, Settings, Spec, Worksheet
    from .dialogue.state import DialogueState, KBRecord, TaskRecord
    from .session.turn import TurnResult

__version__ = "0.1.0"

_LAZY = {"Agent": ".session.agent", "Session": ".session.agent", "TurnResult": ".session.turn", "Spec": ".spec.model", "Worksheet": ".spec.model",
         "Field": ".spec.model", "EnumValue": ".spec.model", "Api": ".spec.model", "Settings": ".spec.model", "DialogueState": ".dialogue.state",
         "TaskRecord": ".dialogue.state", "KBRecord": ".dialogue.state"}

__all__ = [
    "Agent", "Session", "TurnResult", "Spec", "Worksheet", "Field", "EnumValue", "Api", "Settings",
    "DialogueState", "TaskRecord", "KBRecord", "GenieError", "SpecError", "StatementError", "SandboxError",
    "PolicyError", "KnowledgeError", "BackendError", "StorageError", "__version__",
]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
