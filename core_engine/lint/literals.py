"""Checks on literals in predicates, and on the spec as a whole (empty spec, kb worksheets without a table).

    task == "Book Apointment"   -> error unknown-enum-value: not a value of task. Did you mean 'Book Appointment'?
    age < "18"                  -> error type-mismatch: age is an int, "18" is text

Why: a misspelled enum literal in a WS predicate is valid Python that is simply
never true, so the worksheet it guards can never start and the agent answers
everything with its fallback. A comparison of an int field with text fails (or is
never true) at run time. Both are found here from the AST, field types resolved
like the runtime resolves names (`self.x`, bare `x`, `rec.x`).
"""

from __future__ import annotations

import ast
from typing import Iterable

from ..errors import SandboxViolation, SpecError
from ..policy.sandbox import check_expression
from ..spec.model import Field, Worksheet, parse_type
from .diagnostic import Diagnostic, error, warning
from .index import SpecIndex, base_of, closest

__all__ = ["check_literals", "check_spec_shape"]

_NUMBER = (int, float)
_KIND = {"int": "a number", "float": "a number", "str": "text", "bool": "True/False", "Enum": "text",
         "date": "text", "time": "text", "datetime": "text"}


def check_spec_shape(index: SpecIndex, kb_tables: Iterable[str] | None) -> list[Diagnostic]:
    """An empty spec; kb worksheets whose table is not in the KB (when the caller knows the KB's tables)."""
    spec = index.spec
    if not spec.worksheets:
        return [error("empty-spec", "The spec has no worksheets: add a task worksheet (e.g. Main with an Enum "
                      "field of what the user can do), or import a spec.", None, None, None)]
    if kb_tables is None:
        return []
    tables = set(kb_tables)
    diags = []
    for ws in spec.kb_worksheets():
        if ws.name not in tables:
            hint = closest(ws.name, tables)
            diags.append(error("kb-without-table", f"KB worksheet {ws.name} has no table of that name in the "
                               "knowledge base" + (f". Did you mean '{hint}'?" if hint else
                                                   ": import one on the Knowledge page, or rename the worksheet."),
                               ws.name, None, "ws_name"))
    return diags


def check_literals(index: SpecIndex) -> list[Diagnostic]:
    """Enum literals and literal types compared with fields, in every predicate (WS and field)."""
    diags: list[Diagnostic] = []
    for ws in index.spec.worksheets:
        if index.worksheets.get(ws.name) is not ws:
            continue
        snippets = [(None, "ws_predicate", ws.predicate)] + [(f, "predicate", f.predicate) for f in ws.fields]
        for f, attribute, source in snippets:
            if not (source or "").strip():
                continue
            try:
                tree = check_expression(source).tree
            except SandboxViolation:
                continue  # reported by check_code
            if tree is not None:
                diags += _Compare(index, ws, f.name if f else None, attribute).check(tree)
    return diags


class _Compare:
    def __init__(self, index: SpecIndex, ws: Worksheet, field_name: str | None, attribute: str) -> None:
        self.index, self.ws, self.field_name, self.attribute = index, ws, field_name, attribute
        self.diags: list[Diagnostic] = []

    def check(self, tree: ast.AST) -> list[Diagnostic]:
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                for op, left, right in zip(node.ops, operands, operands[1:]):
                    self._pair(op, left, right)
        return self.diags

    def _pair(self, op: ast.cmpop, left: ast.AST, right: ast.AST) -> None:
        if isinstance(op, (ast.In, ast.NotIn)):
            f = self._field(left)
            if f is not None and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
                for item in right.elts:
                    if isinstance(item, ast.Constant):
                        self._literal(f, item, ordering=False)
            return
        ordering = not isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot))
        for a, b in ((left, right), (right, left)):
            f = self._field(a)
            if f is not None and isinstance(b, ast.Constant):
                self._literal(f, b, ordering=ordering)

    def _literal(self, f: Field, const: ast.Constant, *, ordering: bool) -> None:
        value = const.value
        if value is None or isinstance(value, bytes) or (isinstance(value, str) and value == "NA"):
            return  # None / the refusal marker compare with any field
        base = _base(f)
        if base is None:
            return
        where = f"{self.ws.name}.{self.field_name}" if self.field_name else self.ws.name
        if base == "Enum" and isinstance(value, str):
            names = [v.value for v in f.enum_values]
            if names and value not in names:
                hint = closest(value, names)
                never = (f" so {self.ws.name} can never start" if self.attribute == "ws_predicate" else
                         " so this predicate is never true")
                self._add(error("unknown-enum-value", f"'{value}' is not a value of {f.name} "
                                f"({', '.join(names[:8])}{'…' if len(names) > 8 else ''}),{never}."
                                + (f" Did you mean '{hint}'?" if hint else ""), self.ws.name, self.field_name,
                                self.attribute), const)
            return
        mismatch = ((base in ("int", "float") and isinstance(value, str))
                    or (base in ("str", "Enum", "date", "time", "datetime") and isinstance(value, _NUMBER)
                        and not isinstance(value, bool))
                    or (base == "bool" and not isinstance(value, bool)))
        if mismatch:
            shown = repr(value)
            fix = f" Write {value}" if base in ("int", "float") and _numeric(value) else ""
            make = error if ordering or base in ("int", "float", "bool") else warning
            self._add(make("type-mismatch", f"{f.name} is {_KIND.get(base, base)} ({f.type}) but is compared "
                           f"with {shown} in {where}'s {self.attribute.replace('_', ' ')}"
                           + (", which fails at run time" if ordering else ", which is never equal")
                           + (f".{fix} without quotes." if fix else "."), self.ws.name, self.field_name,
                           self.attribute), const)

    def _add(self, diag: Diagnostic, node: ast.AST) -> None:
        self.diags.append(diag.__class__(**{**diag.to_dict(), "line": getattr(node, "lineno", None)}))

    def _field(self, node: ast.AST) -> Field | None:
        """The field a name or attribute chain denotes, as the runtime resolves it; None if unknown."""
        if isinstance(node, ast.Name):
            for w in [self.ws.name, *self.index.ancestors(self.ws.name)]:
                found = self.index.fields(w).get(node.id)
                if found is not None:
                    return found
            owners = self.index.task_fields.get(node.id) or []
            return owners[0][1] if len(owners) == 1 else None
        if isinstance(node, ast.Attribute):
            owner = self._worksheet_of(node.value)
            return self.index.fields(owner).get(node.attr) if owner else None
        return None

    def _worksheet_of(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            if node.id == "self":
                return self.ws.name
            if node.id in self.index.record_vars:
                return self.index.record_vars[node.id]
        f = self._field(node)
        return self.index.nested_target(f) if f is not None else None


def _base(f: Field) -> str | None:
    try:
        ref = parse_type(f.type)
    except SpecError:
        return None
    return None if ref.is_list else base_of(ref).base


def _numeric(value: object) -> bool:
    try:
        float(str(value))
        return True
    except ValueError:
        return False
