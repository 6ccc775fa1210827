"""Genie engine: worksheet specs, formal dialogue state, Algorithm 1 policy, acts.

The public surface the CLI, the studio and tests use. Everything else is an
implementation detail that may move.
"""

from .agent import Agent, Session
from .errors import (BackendError, GenieError, KnowledgeError, PolicyError, SandboxError, SpecError,
                     StatementError, StorageError)
from .spec import Api, EnumValue, Field, Settings, Spec, Worksheet
from .state import DialogueState, KBRecord, TaskRecord
from .turn import TurnResult

__version__ = "0.1.0"

__all__ = [
    "Agent", "Session", "TurnResult", "Spec", "Worksheet", "Field", "EnumValue", "Api", "Settings",
    "DialogueState", "TaskRecord", "KBRecord", "GenieError", "SpecError", "StatementError", "SandboxError",
    "PolicyError", "KnowledgeError", "BackendError", "StorageError", "__version__",
]
