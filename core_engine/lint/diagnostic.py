"""A lint finding: what is wrong, how bad it is, and exactly where in the spec.

Diagnostics are plain frozen data so the CLI can print them, the studio can pin
them to grid cells (worksheet, field, attribute) and tests can compare them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Diagnostic:
    """One finding. `code` is a stable kebab-case id; `message` says what to fix.

    `line` and `col` are 1-based positions inside the snippet named by
    `attribute` (a predicate or an action block). `api` names the API a finding
    concerns when it is about an API declaration rather than a worksheet.
    """

    severity: Severity
    code: str
    message: str
    worksheet: str | None
    field: str | None
    attribute: str | None
    line: int | None = None
    col: int | None = None
    api: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def location(self) -> str:
        """`BookRestaurant.date (predicate, line 1 col 5)`: where to look, for humans."""
        if self.worksheet is not None:
            where = self.worksheet if self.field is None else f"{self.worksheet}.{self.field}"
        elif self.api is not None:
            where = f"API {self.api}"
        else:
            where = "spec"
        detail = [self.attribute] if self.attribute else []
        if self.line is not None:
            pos = f"line {self.line}"
            if self.col is not None:
                pos += f" col {self.col}"
            detail.append(pos)
        return f"{where} ({', '.join(detail)})" if detail else where

    def __str__(self) -> str:
        return f"{self.severity}: {self.location()}: {self.message} [{self.code}]"


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic is an error (the CLI's `genie lint` exits 1)."""
    return any(d.severity == "error" for d in diags)


def error(code: str, message: str, worksheet: str | None = None, field: str | None = None,
          attribute: str | None = None, **where: Any) -> Diagnostic:
    return Diagnostic("error", code, message, worksheet, field, attribute, **where)


def warning(code: str, message: str, worksheet: str | None = None, field: str | None = None,
            attribute: str | None = None, **where: Any) -> Diagnostic:
    return Diagnostic("warning", code, message, worksheet, field, attribute, **where)
