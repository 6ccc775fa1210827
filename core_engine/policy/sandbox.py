"""A safe interpreter for spec predicates and actions (DESIGN.md §4, §7).

Spec code is developer-written Python. It is never given to `exec`, `eval` or
`compile`: `check_expression`/`check_block` parse it with `ast.parse` and check
every node against an allow-list up front (naming the refused construct, line
and column), and `evaluate`/`execute` walk the checked tree under a step and
wall-clock budget. At run time spec code reaches the host only through the names
the host passes in: record proxies implementing `SandboxObject`, host callables
(`say`, `propose`, APIs) and `SAFE_BUILTINS`.

    code = check_expression('self.pin != "NA" and self.pin is not None')
    evaluate(code, {"self": record})            # -> True / False
    execute(check_block('say(f"Hi {self.name}")'), {"self": record, "say": say})
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol, runtime_checkable

from ..errors import SandboxError, SandboxViolation
from .sandbox_runtime import MAX_EXPONENT, SAFE_BUILTINS, Interpreter, safe_str, where
from ..spec.syntax import parse_python

__all__ = [
    "SAFE_BUILTINS",
    "Code",
    "SandboxObject",
    "check_block",
    "check_expression",
    "evaluate",
    "execute",
    "free_names",
    "safe_str",
]

Mode = Literal["expression", "block"]

MAX_SOURCE_CHARS = 20_000
MAX_DEPTH = 100  # AST nesting; bounds the walker's recursion

# Names refused wherever they appear, even if a host were to supply them.
FORBIDDEN_NAMES = frozenset(
    "exec eval open getattr setattr delattr hasattr globals locals vars compile input"
    " breakpoint type object dir help super memoryview classmethod staticmethod"
    " property issubclass isinstance exit quit print".split()
)

_EXPRESSION_NODES: frozenset[type] = frozenset(
    {
        ast.Expression, ast.Constant, ast.Name, ast.Load, ast.Store,
        ast.JoinedStr, ast.FormattedValue,
        ast.BoolOp, ast.And, ast.Or,
        ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
        ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
        ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
        ast.In, ast.NotIn, ast.Is, ast.IsNot,
        ast.IfExp, ast.List, ast.Tuple, ast.Dict, ast.Set,
        ast.Subscript, ast.Slice, ast.Attribute, ast.Call, ast.keyword,
        ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension,
    }
)  # fmt: skip
_BLOCK_NODES: frozenset[type] = (_EXPRESSION_NODES - {ast.Expression}) | {
    ast.Module, ast.Assign, ast.AugAssign, ast.If, ast.For, ast.While,
    ast.Break, ast.Continue, ast.Pass, ast.Expr,
}  # fmt: skip

# How refused constructs are named in messages; others use their AST class name.
_LABELS: dict[type, str] = {
    ast.Import: "import", ast.ImportFrom: "from-import", ast.Lambda: "lambda",
    ast.FunctionDef: "def", ast.AsyncFunctionDef: "async def", ast.ClassDef: "class",
    ast.With: "with", ast.AsyncWith: "async with", ast.AsyncFor: "async for",
    ast.Try: "try", ast.TryStar: "try", ast.Raise: "raise", ast.Assert: "assert",
    ast.Global: "global", ast.Nonlocal: "nonlocal", ast.Delete: "del",
    ast.Yield: "yield", ast.YieldFrom: "yield from", ast.Await: "await",
    ast.NamedExpr: "walrus (:=)", ast.Return: "return", ast.Starred: "starred (*x)",
    ast.Match: "match", ast.AnnAssign: "annotated assignment", ast.Invert: "~",
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
    ast.RShift: ">>", ast.MatMult: "@", ast.Del: "del",
}  # fmt: skip
_CONSTANT_TYPES = (str, int, float, bool, type(None))


@runtime_checkable
class SandboxObject(Protocol):
    """Objects the host exposes to spec code (record proxies etc.).

    Each method raises SandboxError for a name it does not expose.
    """

    def sandbox_getattr(self, name: str) -> Any: ...

    def sandbox_setattr(self, name: str, value: Any) -> None: ...

    def sandbox_call_method(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any: ...


@dataclass(frozen=True)
class Code:
    """A checked snippet, reusable across runs; what it reads, calls and writes."""

    source: str
    mode: Mode
    names: frozenset[str]  # free names read, builtins included
    attributes: frozenset[tuple[str, str]]  # (base, attr) read or written: ("self", "pin")
    calls: frozenset[str]  # names called as functions: {"say", "propose", "len"}
    assigned: frozenset[tuple[str, str]] = frozenset()  # (base, attr) written
    tree: ast.AST | None = field(default=None, repr=False, compare=False)


def check_expression(source: str) -> Code:
    """Check a predicate; raises SandboxViolation naming the construct, line and col."""
    return _check(source, "expression")


def check_block(source: str) -> Code:
    """Check an action block; raises SandboxViolation naming the construct, line and col."""
    return _check(source, "block")


def free_names(source: str) -> set[str]:
    """Free names of an expression, or else of a block (for linters and graphs)."""
    try:
        return set(check_expression(source).names)
    except SandboxViolation:
        return set(check_block(source).names)


def evaluate(
    code: Code, names: Mapping[str, Any], *, max_steps: int = 10_000, timeout_s: float = 0.5
) -> Any:
    """The value of a checked expression, looking names up in `names` then SAFE_BUILTINS."""
    if code.mode != "expression":
        raise SandboxError("evaluate() needs an expression; run an action block with execute()")
    tree = _tree(code)
    assert isinstance(tree, ast.Expression)
    return Interpreter(names, max_steps=max_steps, timeout_s=timeout_s).eval(tree.body)


def execute(
    code: Code, names: Mapping[str, Any], *, max_steps: int = 10_000, timeout_s: float = 0.5
) -> dict[str, Any]:
    """Run a checked block (or expression); returns the local variables it assigned."""
    tree = _tree(code)
    interpreter = Interpreter(names, max_steps=max_steps, timeout_s=timeout_s)
    if isinstance(tree, ast.Expression):
        interpreter.eval(tree.body)
        return {}
    assert isinstance(tree, ast.Module)
    return interpreter.run(tree.body)


def _tree(code: Code) -> ast.AST:
    """The checked tree of `code`; a Code built by hand is checked here."""
    if code.tree is not None:
        return code.tree
    tree = _check(code.source, code.mode).tree
    assert tree is not None
    return tree


def _check(source: str, mode: Mode) -> Code:
    if not isinstance(source, str):
        raise SandboxViolation(
            f"spec code must be text, not {type(source).__name__}", construct="source"
        )
    return _check_text(source, mode)


@lru_cache(maxsize=2048)
def _check_text(source: str, mode: Mode) -> Code:
    tree = _parse(source, mode)
    checker = _Checker(_EXPRESSION_NODES if mode == "expression" else _BLOCK_NODES)
    checker.visit(tree, depth=0, in_loop=False, at=tree)
    return Code(
        source=source,
        mode=mode,
        names=frozenset(checker.loaded - checker.stored - checker.bound),
        attributes=frozenset(checker.attributes),
        calls=frozenset(checker.calls),
        assigned=frozenset(checker.assigned),
        tree=tree,
    )


def _parse(source: str, mode: Mode) -> ast.AST:
    if len(source) > MAX_SOURCE_CHARS:
        raise SandboxViolation(
            f"spec code is longer than {MAX_SOURCE_CHARS:,} characters", construct="source"
        )
    text = textwrap.dedent(source)
    if mode == "expression":
        text = text.lstrip(" \t")
        if not text.strip():
            raise SandboxViolation(
                "syntax error: empty expression", line=1, col=1, construct="syntax error"
            )
    try:
        return parse_python(text, mode="eval" if mode == "expression" else "exec")
    except SyntaxError as exc:
        raise SandboxViolation(
            f"syntax error: {exc.msg}", line=exc.lineno, col=exc.offset, construct="syntax error"
        ) from exc
    except (ValueError, RecursionError, MemoryError) as exc:
        message = f"syntax error: {str(exc) or 'code is nested too deeply'}"
        raise SandboxViolation(message, construct="syntax error") from exc


class _Checker:
    """Walks a parsed tree once: refuses what is outside the allow-list, notes what it uses."""

    def __init__(self, allowed: frozenset[type]) -> None:
        self.allowed = allowed
        self.loaded: set[str] = set()
        self.stored: set[str] = set()
        self.bound: set[str] = set()  # comprehension variables
        self.attributes: set[tuple[str, str]] = set()
        self.assigned: set[tuple[str, str]] = set()
        self.calls: set[str] = set()

    @staticmethod
    def _refuse(message: str, at: ast.AST, construct: str) -> SandboxViolation:
        return SandboxViolation(message, **where(at), construct=construct)

    def visit(self, node: ast.AST, *, depth: int, in_loop: bool, at: ast.AST) -> None:
        at = node if hasattr(node, "lineno") else at  # operators and contexts have no position
        if depth > MAX_DEPTH:
            raise self._refuse(f"code is nested more than {MAX_DEPTH} levels deep", at, "nesting")
        kind = type(node)
        if kind not in self.allowed:
            label = _LABELS.get(kind, kind.__name__)
            raise self._refuse(f"{label} is not allowed in spec code", at, label)
        self._check_node(node, in_loop, at)
        body_in_loop = isinstance(node, (ast.For, ast.While))
        for name, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            loop = in_loop or (body_in_loop and name == "body")
            for child in children:
                if isinstance(child, ast.AST):
                    self.visit(child, depth=depth + 1, in_loop=loop, at=at)

    def _check_node(self, node: ast.AST, in_loop: bool, at: ast.AST) -> None:
        if isinstance(node, ast.Name):
            self._check_name(node)
        elif isinstance(node, ast.Attribute):
            self._check_attribute(node)
        elif isinstance(node, ast.Call):
            self._check_call(node)
        elif isinstance(node, ast.keyword):
            if node.arg is None:
                raise self._refuse("**kwargs in a call is not allowed in spec code", at, "**kwargs")
            if node.arg.startswith("_"):
                raise self._refuse(f"keyword '{node.arg}' starts with '_'", at, node.arg)
        elif isinstance(node, ast.Constant) and not isinstance(node.value, _CONSTANT_TYPES):
            raise self._refuse(
                f"{type(node.value).__name__} literals are not allowed", at, "literal"
            )
        elif isinstance(node, ast.Dict) and None in node.keys:
            raise self._refuse("dict unpacking (**) is not allowed in spec code", at, "**dict")
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            self._check_comprehension(node)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            power = node.right.value if isinstance(node.right, ast.Constant) else None
            if isinstance(power, (int, float)) and power > MAX_EXPONENT:
                raise self._refuse(
                    f"exponent {power} is over the limit of {MAX_EXPONENT}", at, "**"
                )
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._check_target(target, allow_containers=True)
        elif isinstance(node, ast.AugAssign):
            self._check_target(node.target, allow_containers=False)
        elif isinstance(node, ast.For):
            self._check_loop_target(node.target)
        elif isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
            word = "break" if isinstance(node, ast.Break) else "continue"
            raise self._refuse(f"'{word}' outside a loop", at, word)

    def _check_name(self, node: ast.Name) -> None:
        if node.id.startswith("_"):
            raise self._refuse(
                f"name '{node.id}' starts with '_'; such names are not allowed", node, node.id
            )
        if node.id in FORBIDDEN_NAMES:
            raise self._refuse(f"'{node.id}' is not allowed in spec code", node, node.id)
        (self.stored if isinstance(node.ctx, ast.Store) else self.loaded).add(node.id)

    def _check_attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_"):
            raise self._refuse(
                f"attribute '{node.attr}' starts with '_'; such attributes are not allowed",
                node,
                f".{node.attr}",
            )
        if isinstance(node.value, ast.Name):
            pair = (node.value.id, node.attr)
            self.attributes.add(pair)
            if isinstance(node.ctx, ast.Store):
                self.assigned.add(pair)

    def _check_call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name):
            self.calls.add(func.id)
        elif isinstance(func, ast.Attribute):
            on_text = isinstance(func.value, ast.JoinedStr) or (
                isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)
            )
            if on_text and func.attr in ("format", "format_map"):
                raise self._refuse(
                    f"str.{func.attr}() can read attributes; use an f-string", node, f".{func.attr}"
                )
        else:
            raise self._refuse(
                "only named functions and methods can be called (f(...) or x.m(...))", node, "call"
            )

    def _check_comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
    ) -> None:
        if len(node.generators) != 1:
            raise self._refuse("a comprehension may have only one 'for'", node, "comprehension")
        gen = node.generators[0]
        if gen.is_async:
            raise self._refuse("async comprehensions are not allowed", node, "async for")
        self._check_loop_target(gen.target)
        self.bound.update(n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name))

    def _check_loop_target(self, target: ast.expr) -> None:
        names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if not all(isinstance(n, ast.Name) for n in names):
            raise self._refuse(
                "a loop variable must be a name or a tuple of names", target, "loop target"
            )

    def _check_target(self, target: ast.expr, *, allow_containers: bool) -> None:
        if isinstance(target, (ast.Tuple, ast.List)) and allow_containers:
            for element in target.elts:
                self._check_target(element, allow_containers=True)
        elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
            raise self._refuse(
                "slice assignment is not allowed in spec code", target, "slice assignment"
            )
        elif not isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
            label = _LABELS.get(type(target), type(target).__name__)
            raise self._refuse(f"cannot assign to {label}", target, "assignment target")
