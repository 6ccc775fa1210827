"""The formal statement language: text -> typed statements, via `ast`, never executed.

Parsers (formal, offline, LLM) all produce text in the paper's Python-like
syntax. This module turns that text into the small set of statement objects
below; anything else is rejected with the line it came from. Interpreting the
statements against the spec and state is `interpreter.py`'s job.

    book_restaurant.date = "2024-07-06"           Assign(path, Const)
    main.full_name = "NA"                          refusal (a Const the interpreter recognises)
    book_restaurant.time = None                    removal
    main.x = ExternalTestCredits(test_type="AP")   Assign(path, Construct)
    book_restaurant = BookRestaurant(restaurant=answer("pizza in SF"))
    answer("romantic restaurants in San Francisco") Ask a KB question
    book_restaurant.restaurant = answer.result[1]  Assign(path, PathRef)
    main.funds.append(Fund(name="FLPKX"))           add an item to a list field
    main.funds[0].amount = 100                      a field of a list item
    confirm(book_restaurant.date)                   the user confirms a value (extension)
    exitws(main)                                    the user abandons a task (extension)
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Union

from ..errors import StatementError
from ..spec.syntax import parse_python

MAX_STATEMENT_CHARS = 20_000
MAX_STATEMENTS = 50

PathPart = Union[str, int]


@dataclass(frozen=True)
class Const:
    value: Any


@dataclass(frozen=True)
class PathRef:
    parts: tuple[PathPart, ...]

    def __str__(self) -> str:
        return format_path(self.parts)


@dataclass(frozen=True)
class Construct:
    worksheet: str
    kwargs: tuple[tuple[str, "Value"], ...]


@dataclass(frozen=True)
class AnswerQuery:
    query: str


@dataclass(frozen=True)
class ListValue:
    items: tuple["Value", ...]


Value = Union[Const, PathRef, Construct, AnswerQuery, ListValue]


@dataclass(frozen=True)
class Assign:
    target: tuple[PathPart, ...]
    value: Value
    source: str = ""
    line: int = 0


@dataclass(frozen=True)
class Ask:
    """A bare `answer("...")`: a new KB record."""

    query: str
    source: str = ""
    line: int = 0


@dataclass(frozen=True)
class ConfirmValue:
    target: tuple[PathPart, ...]
    yes: bool = True
    source: str = ""
    line: int = 0


@dataclass(frozen=True)
class Append:
    """`record.list_field.append(value)`: one more item for a list field."""

    target: tuple[PathPart, ...]
    value: Value
    source: str = ""
    line: int = 0


@dataclass(frozen=True)
class Exit:
    var: str
    source: str = ""
    line: int = 0


Statement = Union[Assign, Ask, ConfirmValue, Exit, Append]


@dataclass
class ParsedStatements:
    statements: list[Statement] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)


def format_path(parts: tuple[PathPart, ...]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def _reject(node: ast.AST, message: str) -> StatementError:
    return StatementError(message, line=getattr(node, "lineno", None), col=getattr(node, "col_offset", None))


def _path(node: ast.AST) -> tuple[PathPart, ...]:
    if isinstance(node, ast.Name):
        _check_name(node, node.id)
        return (node.id,)
    if isinstance(node, ast.Attribute):
        _check_name(node, node.attr)
        return _path(node.value) + (node.attr,)
    if isinstance(node, ast.Subscript):
        idx = node.slice
        if isinstance(idx, ast.Constant) and isinstance(idx.value, int) and not isinstance(idx.value, bool):
            return _path(node.value) + (idx.value,)
        if isinstance(idx, ast.UnaryOp) and isinstance(idx.op, ast.USub) and isinstance(idx.operand, ast.Constant):
            if isinstance(idx.operand.value, int):
                return _path(node.value) + (-idx.operand.value,)
        raise _reject(node, "only integer indexes are allowed, e.g. answer.result[0]")
    raise _reject(node, f"expected a variable or field path, found {type(node).__name__}")


def _check_name(node: ast.AST, name: str) -> None:
    if name.startswith("_"):
        raise _reject(node, f"names starting with '_' are not allowed: {name!r}")


def _value(node: ast.AST) -> Value:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (str, int, float, bool)) or node.value is None:
            return Const(node.value)
        raise _reject(node, f"unsupported constant {node.value!r}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        if isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
            return Const(-node.operand.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return ListValue(tuple(_value(e) for e in node.elts))
    if isinstance(node, ast.Call):
        return _call_value(node)
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        parts = _path(node)
        if parts in (("True",), ("False",), ("None",)):
            return Const({"True": True, "False": False, "None": None}[parts[0]])
        return PathRef(parts)
    raise _reject(node, f"unsupported expression {type(node).__name__}; use constants, records or answer(...)")


def _call_value(node: ast.Call) -> Value:
    if not isinstance(node.func, ast.Name):
        raise _reject(node, "only worksheet constructors and answer(...) can be called")
    name = node.func.id
    _check_name(node, name)
    if name == "answer":
        if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Constant) \
                or not isinstance(node.args[0].value, str):
            raise _reject(node, 'answer takes one string: answer("your question")')
        return AnswerQuery(node.args[0].value)
    if node.args:
        raise _reject(node, f"{name}(...) takes keyword arguments only, e.g. {name}(field=value)")
    kwargs = []
    for kw in node.keywords:
        if kw.arg is None:
            raise _reject(node, "**kwargs is not allowed")
        _check_name(node, kw.arg)
        kwargs.append((kw.arg, _value(kw.value)))
    return Construct(name, tuple(kwargs))


def _statement(node: ast.stmt, source: str) -> Statement:
    line = node.lineno
    if isinstance(node, ast.Assign):
        if len(node.targets) != 1:
            raise _reject(node, "chained assignment is not allowed")
        return Assign(_path(node.targets[0]), _value(node.value), source, line)
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return Assign(_path(node.target), _value(node.value), source, line)
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        call = node.value
        if isinstance(call.func, ast.Name) and call.func.id == "answer":
            v = _call_value(call)
            assert isinstance(v, AnswerQuery)
            return Ask(v.query, source, line)
        if isinstance(call.func, ast.Name) and call.func.id == "confirm":
            if not call.args or len(call.args) > 2 or call.keywords:
                raise _reject(node, "use confirm(record.field) or confirm(record.field, False)")
            yes = True
            if len(call.args) == 2:
                flag = call.args[1]
                if not (isinstance(flag, ast.Constant) and isinstance(flag.value, bool)):
                    raise _reject(node, "the second argument of confirm must be True or False")
                yes = flag.value
            return ConfirmValue(_path(call.args[0]), yes, source, line)
        if isinstance(call.func, ast.Name) and call.func.id == "exitws":
            if len(call.args) != 1 or not isinstance(call.args[0], ast.Name):
                raise _reject(node, "use exitws(record)")
            return Exit(call.args[0].id, source, line)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "confirm" and not call.args:
            return ConfirmValue(_path(call.func.value), True, source, line)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "append":
            if len(call.args) != 1 or call.keywords:
                raise _reject(node, "append takes one item: record.field.append(Item(...))")
            return Append(_path(call.func.value), _value(call.args[0]), source, line)
        raise _reject(node, "only answer(...), confirm(...), exitws(...) and list.append(...) can be called "
                            "on their own")
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        raise _reject(node, "a bare string is not a statement; to ask a question use answer(\"...\")")
    raise _reject(node, f"{type(node).__name__} statements are not part of the statement language")


def strip_fences(text: str) -> str:
    """Take the code out of a ```fenced``` block if the text has one (LLM output)."""
    if "```" not in text:
        return text
    blocks = text.split("```")
    code = [b for i, b in enumerate(blocks) if i % 2 == 1]
    cleaned = []
    for block in code:
        lines = block.split("\n")
        if lines and lines[0].strip().isidentifier():
            lines = lines[1:]
        cleaned.append("\n".join(lines))
    return "\n".join(cleaned)


def parse_statements(text: str) -> ParsedStatements:
    """Parse formal text; bad lines are rejected one by one and the rest kept."""
    out = ParsedStatements()
    if len(text) > MAX_STATEMENT_CHARS:
        out.rejected.append({"source": text[:200] + "...", "line": 1,
                             "error": f"statements are longer than {MAX_STATEMENT_CHARS} characters"})
        return out
    try:
        tree = parse_python(text)
        chunks = [(node, ast.get_source_segment(text, node) or "") for node in tree.body]
    except (SyntaxError, RecursionError, MemoryError):  # the last two: CPython's parser on deep nesting
        chunks = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.strip().startswith("#"):
                continue
            try:
                sub = parse_python(line.strip())
            except SyntaxError as exc:
                out.rejected.append({"source": line.strip(), "line": lineno, "error": f"syntax error: {exc.msg}"})
                continue
            except (RecursionError, MemoryError):
                out.rejected.append({"source": line.strip()[:200], "line": lineno,
                                     "error": "expression is nested too deeply"})
                continue
            for node in sub.body:
                node.lineno = lineno
                chunks.append((node, line.strip()))
    for node, src in chunks:
        if len(out.statements) >= MAX_STATEMENTS:
            out.rejected.append({"source": src, "line": node.lineno, "error": f"more than {MAX_STATEMENTS} statements"})
            continue
        try:
            out.statements.append(_statement(node, src))
        except StatementError as exc:
            out.rejected.append({"source": src, "line": node.lineno, "error": exc.message})
        except RecursionError:
            out.rejected.append({"source": src[:200], "line": node.lineno, "error": "expression is nested too deeply"})
    return out
