"""The engine's exceptions: one base class, one branch per layer.

    GenieError
    ├── SpecError              a worksheet spec cannot be read or is invalid
    │   └── SpecFormatError    a file is not in any supported layout (row/column given)
    ├── StatementError         a formal statement is outside the language or wrong for the spec
    ├── SandboxError           spec code (predicate/action) refused or failed
    │   ├── SandboxViolation   code uses a construct outside the allow-list
    │   └── SandboxTimeout     code ran past its step or time budget
    ├── PolicyError            the agent policy tripped a guard (e.g. step budget)
    ├── KnowledgeError         a KB query failed, was refused or timed out
    ├── BackendError           an external backend (LLM endpoint, http API) failed
    └── StorageError           a project file or bundle cannot be read or written

Errors carry the context a user needs to find the problem: worksheet, field,
attribute, line and column where they apply.
"""

from __future__ import annotations


class GenieError(Exception):
    """Base class of every error the engine raises on purpose."""

    def __init__(self, message: str, **context: object) -> None:
        super().__init__(message)
        self.message = message
        self.context = {k: v for k, v in context.items() if v is not None}

    def __str__(self) -> str:
        where = ", ".join(f"{k}={v}" for k, v in self.context.items())
        return f"{self.message} ({where})" if where else self.message


class SpecError(GenieError):
    """A spec is invalid: names the worksheet, field and attribute concerned."""


class SpecFormatError(SpecError):
    """A spec file is not in a supported layout; names the file, row and column."""


class StatementError(GenieError):
    """A formal statement is outside the statement language or does not fit the spec."""


class SandboxError(GenieError):
    """Spec code (a predicate or an action) was refused or failed while running."""


class SandboxViolation(SandboxError):
    """Spec code uses a construct outside the sandbox's allow-list."""


class SandboxTimeout(SandboxError):
    """Spec code ran past its step or wall-clock budget."""


class PolicyError(GenieError):
    """The agent policy tripped one of its guards (for example its step budget)."""


class KnowledgeError(GenieError):
    """A knowledge-base query failed, was refused by the authorizer, or timed out."""


class BackendError(GenieError):
    """An external backend (LLM endpoint or http API) failed or answered garbage."""


class StorageError(GenieError):
    """A project file, version or bundle cannot be read or written."""
