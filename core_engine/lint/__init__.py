"""The spec linter: every problem in a spec, as diagnostics pinned to a grid cell.

Runs on every load and edit (DESIGN §3), so it never raises on a bad spec and
reports all problems at once. Errors mean the agent cannot run as written;
warnings mean it runs but probably not as the developer meant.

    diags = lint(spec, kb_values=kb.distinct_values)
    if has_errors(diags): ...
"""

from __future__ import annotations

from typing import Any, Iterable

from ..spec.model import Spec
from .diagnostic import Diagnostic, Severity, has_errors
from .index import SpecIndex
from .kb_columns import KbValues, check_kb_enums
from .lists import check_list_fields, check_loader_mocks
from .literals import check_literals, check_spec_shape
from .references import Usage, check_code
from .structure import (
    check_apis,
    check_cycles,
    check_duplicates,
    check_enums,
    check_flags,
    check_internal_fields,
    check_names,
    check_reachability,
    check_start,
    check_types,
)

__all__ = ["Diagnostic", "Severity", "has_errors", "lint", "lint_with_kb"]


def lint_with_kb(spec: Spec, kb: Any | None) -> list[Diagnostic]:
    """`lint` with what a project's KB can tell (an SQLiteKB, or None when the project has none):
    enum spellings against column values, and kb worksheets without a table. The CLI and the
    studio both lint this way."""
    kb_values = None
    if kb is not None:
        def kb_values(table: str, column: str) -> list[Any]:
            if table not in kb.tables():
                return []
            return kb.distinct_values(table, column, limit=200)
    return lint(spec, kb_values=kb_values, kb_tables=list(kb.tables()) if kb is not None else [])


def lint(spec: Spec, *, kb_values: KbValues | None = None, kb_tables: Iterable[str] | None = None) -> list[Diagnostic]:
    """All diagnostics for `spec`; `kb_values(table, column)` gives a KB column's distinct values,
    `kb_tables` the KB's table names (kb worksheets without a table are flagged when it is given).

    Order is stable: declarations (names, types, enums, flags, APIs), nesting and
    start, then code (predicates and actions), then checks that need the code's
    usage (reachability, internal fields), then KB enum spellings.
    """
    index = SpecIndex(spec)
    diags: list[Diagnostic] = check_spec_shape(index, kb_tables)
    for check in (check_names, check_duplicates, check_types, check_enums, check_flags,
                  check_apis, check_loader_mocks, check_cycles, check_start, check_list_fields):
        diags += check(index)
    usage = Usage()
    diags += check_code(index, usage)
    diags += check_literals(index)
    diags += check_reachability(index, usage.proposed)
    diags += check_internal_fields(index, usage.assigned)
    diags += check_kb_enums(index, kb_values)
    return diags
