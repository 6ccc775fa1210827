"""Checks on spec code: syntax, the sandbox's allow-list, and every name it uses.

The sandbox decides which constructs are allowed; this module decides whether
the names and attributes a predicate or action reads exist, using the same
resolution order as the runtime (DESIGN §4, brief of the linter):

    self.x               field x of the worksheet the code belongs to
    self.x.y             field y of x's worksheet, when x is worksheet-typed
    x                    a field of the worksheet, of a worksheet containing it,
                         a record variable (`book_restaurant`), a field of any
                         task worksheet, a worksheet name, an API, a built-in,
                         or a name the action block assigns itself
    propose(X, {...})    X a task worksheet, the keys fields of X

It also records what the code does that other checks need: which worksheets
it proposes or constructs, and which field names it assigns.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass, field
from typing import Iterable, Literal

from ..errors import SandboxViolation
from ..policy.sandbox import SAFE_BUILTINS, check_block, check_expression
from ..spec.model import Field, Worksheet
from .diagnostic import Diagnostic, error
from .index import SpecIndex, closest

AGENT_BUILTINS = frozenset({"say", "propose", "exitws", "answer"})
_LONE_EQ = re.compile(r"(?<![=!<>])=(?!=)")
SYNTAX_ERROR = "syntax error"
"""The `construct` the sandbox names when the code does not parse."""
RECORD_METHODS = frozenset({"is_completed"})
RECORD_ATTRIBUTES = frozenset({"result"})  # the API result, readable at run time (runtime.RecordProxy)
"""Attributes every record value has besides its fields."""

EXPRESSION_ATTRIBUTES = ("ws_predicate", "predicate")


@dataclass
class Usage:
    """What the spec's code does, for the checks that need the whole picture."""

    proposed: set[str] = field(default_factory=set)
    """Worksheets named in `propose(...)` or called as constructors."""
    assigned: set[str] = field(default_factory=set)
    """Field names some action assigns (`self.x = ...`, `x = ...`, propose/constructor keys)."""


@dataclass(frozen=True)
class _Val:
    """What an expression denotes, as far as name checking cares."""

    kind: Literal["record", "class", "value"]
    worksheet: str | None = None


_VALUE = _Val("value")


def check_code(index: SpecIndex, usage: Usage) -> list[Diagnostic]:
    """Check every predicate and action block of the spec, in spec order."""
    diags: list[Diagnostic] = []
    for ws in index.spec.worksheets:
        if index.worksheets.get(ws.name) is not ws:
            continue  # a duplicate definition: reported as duplicate-name, not checked twice
        snippets: list[tuple[Field | None, str, str]] = [
            (None, "ws_predicate", ws.predicate), (None, "ws_actions", ws.actions)]
        for f in ws.fields:
            snippets += [(f, "predicate", f.predicate), (f, "actions", f.actions)]
        for f, attribute, source in snippets:
            if source and source.strip():
                diags += _check_snippet(index, usage, ws, f, attribute, source)
    return diags


def _check_snippet(index: SpecIndex, usage: Usage, ws: Worksheet, f: Field | None,
                   attribute: str, source: str) -> list[Diagnostic]:
    field_name = f.name if f else None
    is_expr = attribute in EXPRESSION_ATTRIBUTES
    what = "predicate" if is_expr else "action block"
    pos = _Positions(source, is_expr)
    try:
        code = (check_expression if is_expr else check_block)(source)
    except SandboxViolation as exc:
        ctx = exc.context
        line, col = ctx.get("line"), ctx.get("col")
        construct = ctx.get("construct")
        if construct == SYNTAX_ERROR:
            if line is not None and col is not None:
                col = pos.syntax_col(line, col)
            detail = exc.message.removeprefix(SYNTAX_ERROR + ": ")
            lone_eq = is_expr and _LONE_EQ.search(source)
            hint = " (a predicate is one expression; compare with ==)" if lone_eq else ""
            return [error("syntax-error", f"The {what} is not valid Python: {detail}{hint}.",
                          ws.name, field_name, attribute, line=line, col=col)]
        if line is not None and col is not None:
            col = pos.col(line, col - 1)
        named = f" ({construct})" if construct else ""
        return [error("disallowed-construct",
                      f"The {what} uses something spec code may not use{named}: {exc.message}.",
                      ws.name, field_name, attribute, line=line, col=col)]
    if code.tree is None:  # a Code always carries its tree; nothing to walk otherwise
        return []
    return _Walker(index, usage, ws, field_name, attribute, pos, code.tree).run()


class _Positions:
    """Maps positions in the text the sandbox parsed (dedented; an expression also
    left-stripped) back to 1-based character columns in the developer's source."""

    def __init__(self, source: str, is_expr: bool) -> None:
        text = textwrap.dedent(source)
        if is_expr:
            text = text.lstrip(" \t")
        self.source_lines = source.splitlines()
        self.text_lines = text.splitlines()

    def shift(self, line: int) -> int:
        if 0 < line <= min(len(self.source_lines), len(self.text_lines)):
            return len(self.source_lines[line - 1]) - len(self.text_lines[line - 1])
        return 0

    def syntax_col(self, line: int, offset: int) -> int:
        """Column of a SyntaxError offset (1-based characters; 0 means "at the end")."""
        if offset < 1:
            text = self.text_lines[line - 1] if 0 < line <= len(self.text_lines) else ""
            offset = len(text.rstrip()) + 1
        return offset + self.shift(line)

    def col(self, line: int, byte_offset: int) -> int:
        """1-based column in the source of ast's UTF-8 byte offset in the parsed text."""
        text = self.text_lines[line - 1] if 0 < line <= len(self.text_lines) else ""
        chars = len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))
        return chars + self.shift(line) + 1


def _locals(tree: ast.AST) -> set[str]:
    """Names the snippet binds itself (assignment, loop and comprehension targets),
    wherever in the snippet: the check is flow-insensitive on purpose."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def _suggest(name: str, candidates: Iterable[str]) -> str:
    close = closest(name, candidates)
    return f" Did you mean '{close}'?" if close else ""


class _Walker:
    """Walks one snippet's AST, resolving names; collects diagnostics and usage."""

    def __init__(self, index: SpecIndex, usage: Usage, ws: Worksheet, field_name: str | None,
                 attribute: str, positions: _Positions, tree: ast.AST) -> None:
        self.index, self.usage, self.ws = index, usage, ws
        self.field_name, self.attribute, self.positions = field_name, attribute, positions
        self.tree = tree
        self.locals = _locals(tree)
        self.diags: list[Diagnostic] = []

    def run(self) -> list[Diagnostic]:
        self.visit(self.tree)
        return self.diags

    # -------------------------------------------------------------- plumbing

    def _report(self, code: str, message: str, line: int, byte_offset: int) -> None:
        self.diags.append(error(code, message, self.ws.name, self.field_name, self.attribute,
                                line=line, col=self.positions.col(line, byte_offset)))

    def _typed(self, f: Field) -> _Val:
        target = self.index.nested_target(f)
        return _Val("record", target) if target else _VALUE

    # -------------------------------------------------------------- visiting

    def visit(self, node: ast.AST) -> _Val:
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        for child in ast.iter_child_nodes(node):
            self.visit(child)
        return _VALUE

    def _name(self, node: ast.Name, *, called: bool = False) -> _Val:
        name = node.id
        if not isinstance(node.ctx, ast.Load):
            self.usage.assigned.add(name)
            return _VALUE
        val = self.resolve(name)
        if val is not None:
            return val
        if called:
            candidates = [*self.index.api_names, *self.index.worksheets, *AGENT_BUILTINS, *SAFE_BUILTINS]
            message = (f"Function '{name}' is not a declared API, a worksheet or a built-in; declare "
                       f"the API in the spec first.{_suggest(name, candidates)}")
        else:
            visible = [n for w in [self.ws.name, *self.index.ancestors(self.ws.name)]
                       for n in self.index.fields(w)]
            candidates = [*visible, *self.index.record_vars, *self.index.task_fields,
                          *self.index.worksheets, *self.index.api_names, *self.locals]
            message = (f"Name '{name}' is not a field of {self.ws.name} or of a worksheet containing "
                       "it, a record, a task field, a worksheet, an API or a built-in."
                       f"{_suggest(name, candidates)}")
        self._report("unknown-name", message, node.lineno, node.col_offset)
        return _VALUE

    def _is_field_name(self, name: str) -> bool:
        scopes = [self.ws.name, *self.index.ancestors(self.ws.name)]
        return any(name in self.index.fields(w) for w in scopes) or name in self.index.task_fields

    def resolve(self, name: str) -> _Val | None:
        """The runtime's look-up order for a bare name; None when nothing matches."""
        index = self.index
        if name == "self":
            return _Val("record", self.ws.name)
        own = index.fields(self.ws.name)
        if name in own:
            return self._typed(own[name])
        for ancestor in index.ancestors(self.ws.name):
            theirs = index.fields(ancestor)
            if name in theirs:
                return self._typed(theirs[name])
        if name in self.locals:
            return _VALUE
        if name in index.record_vars:
            return _Val("record", index.record_vars[name])
        if name in index.task_fields:
            owners = index.task_fields[name]
            return self._typed(owners[0][1]) if len(owners) == 1 else _VALUE
        if name in index.worksheets:
            return _Val("class", name)
        if name in index.api_names or name in AGENT_BUILTINS or name in SAFE_BUILTINS:
            return _VALUE
        return None

    def _attribute(self, node: ast.Attribute) -> _Val:
        base = self.visit(node.value)
        if node.attr == "confirmed" and isinstance(node.value, ast.Name) and base.kind == "value" \
                and node.value.id not in self.locals and self._is_field_name(node.value.id):
            self._report("confirmed-needs-record", f"'{node.value.id}.confirmed' reads the confirmation of a "
                         f"bare field value, which has none; write it through its record, e.g. "
                         f"self.{node.value.id}.confirmed.", node.lineno, node.col_offset)
            return _VALUE
        if not isinstance(node.ctx, ast.Load):
            self.usage.assigned.add(node.attr)
        if base.kind != "record" or base.worksheet is None:
            return _VALUE
        fields = self.index.fields(base.worksheet)
        if node.attr in fields:
            return self._typed(fields[node.attr])
        if node.attr not in RECORD_METHODS and node.attr not in RECORD_ATTRIBUTES:
            line = node.end_lineno or node.lineno
            offset = (node.end_col_offset or 0) - len(node.attr.encode("utf-8"))
            self._report("unknown-field-reference",
                         f"Worksheet {base.worksheet} has no field '{node.attr}'."
                         f"{_suggest(node.attr, fields)}", line, offset)
        return _VALUE

    def _subscript(self, node: ast.Subscript) -> _Val:
        """ "self.product["category"]": a record (a KB row too) is read by attribute; a subscript fails when the
        code runs, so a predicate written so is never true and its field waits for ever."""
        base = self.visit(node.value)
        self.visit(node.slice)
        key = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if base.kind == "record" and base.worksheet is not None and isinstance(key, str):
            where = ast.unparse(node.value)
            hint = f" Write {where}.{key}." if key.isidentifier() else ""
            self._report("record-subscript", f"Read the fields of '{where}' (a {base.worksheet} record) as attributes, "
                         f"not with [...], which fails when the code runs.{hint}", node.lineno, node.col_offset)
        return _VALUE

    def _call(self, node: ast.Call) -> _Val:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "propose" and "propose" not in self.locals:
            self._propose(node)
            return _VALUE
        callee = self._name(func, called=True) if isinstance(func, ast.Name) else self.visit(func)
        for arg in node.args:
            self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)
        if callee.kind != "class" or callee.worksheet is None:
            return _VALUE
        target = callee.worksheet
        self.usage.proposed.add(target)
        fields = self.index.fields(target)
        for kw in node.keywords:
            if kw.arg is None:
                continue
            self.usage.assigned.add(kw.arg)
            if kw.arg not in fields:
                self._report("unknown-field-reference",
                             f"Worksheet {target} has no field '{kw.arg}' to construct it with."
                             f"{_suggest(kw.arg, fields)}", kw.lineno, kw.col_offset)
        return _Val("record", target)

    def _propose(self, node: ast.Call) -> None:
        for arg in node.args[1:]:
            if not isinstance(arg, ast.Dict):
                self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)
        if not node.args:
            self._report("bad-propose", "A propose() call needs a task worksheet and a dict of values, "
                         "e.g. propose(BookRestaurant, {\"restaurant\": self}).",
                         node.lineno, node.col_offset)
            return
        target = node.args[0]
        ws = self.index.worksheets.get(target.id) if isinstance(target, ast.Name) else None
        if ws is None or ws.kind != "task":
            if ws is not None:
                why = f"{ws.name} is a {ws.kind} worksheet, not a task worksheet"
            elif isinstance(target, ast.Name):
                why = f"there is no worksheet named '{target.id}'"
                why += _suggest(target.id, self.index.worksheets)
            else:
                why = "it is not a worksheet name"
            self._report("bad-propose", f"The first argument of propose() must be a task worksheet: {why}.",
                         target.lineno, target.col_offset)
        else:
            self.usage.proposed.add(ws.name)
        values = node.args[1] if len(node.args) > 1 else None
        if not isinstance(values, ast.Dict):
            return
        fields = self.index.fields(ws.name) if ws is not None and ws.kind == "task" else None
        for key, value in zip(values.keys, values.values):
            self.visit(value)
            if key is None:  # {**other}
                continue
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                self.visit(key)
                continue
            self.usage.assigned.add(key.value)
            if fields is not None and key.value not in fields:
                self._report("unknown-field-reference",
                             f"The propose() call sets '{key.value}', which is not a field of {ws.name}."
                             f"{_suggest(key.value, fields)}", key.lineno, key.col_offset)
