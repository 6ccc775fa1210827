"""The tree walker behind `core_engine.policy.sandbox`: runs a checked AST under budgets.

`sandbox.py` checks a snippet against the allow-list once; this module runs it and
still guards, at run time, everything whose safety depends on values rather than
syntax: which attributes and methods are reached, which callables are called, how
big strings, lists and integers grow, and how many steps and seconds a run takes.
Import the public names from `core_engine.policy.sandbox`, not from here.
"""

from __future__ import annotations

import ast
import functools
import operator
import re
import time
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from ..errors import GenieError, SandboxError, SandboxTimeout
from .sandbox_cost import (MAX_ITEMS, _check_weight, _safe_ascii, _safe_repr, _safe_sorted, guarded_strip, safe_str,
                           weight)

MAX_ALLOC = 20_000_000  # items all size-guarded operations of one run may build
MAX_INT_BITS = 100_000  # largest integer `*` or `**` may build (about 30,000 digits)
MAX_EXPONENT = 1_000
MAX_RANGE = 100_000
MAX_FORMAT_NUMBER = 1_000  # largest width or precision in an f-string format spec
_CLOCK_EVERY = 32  # steps between wall-clock checks


# --- built-ins ---------------------------------------------------------------


def _safe_range(*args: int) -> range:
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise SandboxError(f"range() of {len(result):,} numbers is over the limit of {MAX_RANGE:,}")
    return result


def _safe_sum(iterable: Any, /, start: Any = 0) -> Any:
    if isinstance(start, bool) or not isinstance(start, (int, float)):
        raise SandboxError("sum() only adds numbers; its start value must be a number")
    return sum(iterable, start)


_PLAIN_BUILTINS = (len, min, max, abs, round, any, all, int, float, bool, list,
                   dict, set, tuple, enumerate, zip)  # fmt: skip
SAFE_BUILTINS: Mapping[str, Callable[..., Any]] = MappingProxyType(
    {f.__name__: f for f in _PLAIN_BUILTINS}
    | {"sum": _safe_sum, "range": _safe_range, "str": safe_str, "sorted": _safe_sorted}
)

# Methods callable on plain values, by the type that defines them. `str.format` and
# `format_map` are absent on purpose: "{0.__class__}".format(x) reads attributes.
_METHODS: tuple[tuple[type, frozenset[str]], ...] = (
    (
        str,
        frozenset(
            "lower upper strip lstrip rstrip startswith endswith split rsplit splitlines"
            " join replace title capitalize casefold swapcase isdigit isalpha isalnum"
            " isnumeric isdecimal isspace islower isupper istitle find rfind count"
            " index rindex partition rpartition removeprefix removesuffix".split()
        ),
    ),
    (list, frozenset("append extend index count copy pop remove".split())),
    (tuple, frozenset({"index", "count"})),
    (dict, frozenset({"get", "keys", "values", "items", "copy"})),
)

_ITERABLES: tuple[type, ...] = (list, tuple, str, dict, range, set, frozenset, enumerate, zip,
                                type({}.keys()), type({}.values()), type({}.items()))  # fmt: skip
_INDEXABLES: tuple[type, ...] = (str, list, tuple, dict, range)
_SEQUENCES = (str, list, tuple)

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.Not: operator.not_,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
_CONVERSIONS: dict[int, Callable[[Any], str]] = {-1: lambda v: v, 115: safe_str, 114: _safe_repr, 97: _safe_ascii}


def is_host_object(value: Any) -> bool:
    """True when the host exposes `value` through the SandboxObject protocol."""
    kind = type(value)
    return all(
        callable(getattr(kind, method, None))
        for method in ("sandbox_getattr", "sandbox_setattr", "sandbox_call_method")
    )


def snippet(node: ast.AST, limit: int = 60) -> str:
    """Source text of `node` for messages, cut to `limit` characters."""
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def where(node: ast.AST) -> dict[str, int | None]:
    """Line and 1-based column of `node`, as error context."""
    col = getattr(node, "col_offset", None)
    return {"line": getattr(node, "lineno", None), "col": None if col is None else col + 1}


def _locate(exc: SandboxError, node: ast.AST) -> None:
    """Give a run-time SandboxError the position of the innermost node it came from."""
    if "line" not in exc.context:
        exc.context.update((k, v) for k, v in where(node).items() if v is not None)


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


class _LoopSignal(BaseException):
    """break/continue travelling up to their loop; never escapes a run."""


class _Break(_LoopSignal):
    pass


class _Continue(_LoopSignal):
    pass


class Interpreter:
    """One run of checked spec code against host `names`, with its own budgets."""

    def __init__(self, names: Mapping[str, Any], *, max_steps: int, timeout_s: float) -> None:
        self.names = dict(names)  # a snapshot, so identities stay stable for the run
        self.scopes: list[dict[str, Any]] = [{}]
        self.max_steps = max_steps
        self.timeout_s = timeout_s
        self.deadline = time.monotonic() + timeout_s
        self.steps = 0
        self.allocated = 0
        self.callable_ids = {id(v) for v in self.names.values() if callable(v)}
        self.callable_ids.update(id(v) for v in SAFE_BUILTINS.values())

    # --- budgets ---------------------------------------------------------------

    def _tick(self, node: ast.AST) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise SandboxTimeout(
                f"spec code ran past its budget of {self.max_steps:,} steps", **where(node)
            )
        if self.steps % _CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
            raise SandboxTimeout(
                f"spec code ran past its time limit of {self.timeout_s}s", **where(node)
            )

    def _grow(self, size: int, what: str) -> None:
        if size > MAX_ITEMS:
            raise SandboxError(f"{what} would hold {size:,} items, over the limit of {MAX_ITEMS:,}")
        self.allocated += size
        if self.allocated > MAX_ALLOC:
            raise SandboxError(f"spec code built more than {MAX_ALLOC:,} items of data in one run")

    # --- entry points ----------------------------------------------------------

    def run(self, body: list[ast.stmt]) -> dict[str, Any]:
        self._block(body)
        return dict(self.scopes[0])

    def eval(self, node: ast.AST) -> Any:
        self._tick(node)
        try:
            return self._EXPRESSIONS[type(node)](self, node)
        except SandboxError as exc:
            _locate(exc, node)
            raise
        except GenieError:
            raise
        except Exception as exc:
            raise SandboxError(
                f"`{snippet(node)}` failed: {type(exc).__name__}: {exc}", **where(node)
            ) from exc

    def _block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self._tick(stmt)
            try:
                self._STATEMENTS[type(stmt)](self, stmt)
            except SandboxError as exc:
                _locate(exc, stmt)
                raise
            except GenieError:
                raise
            except Exception as exc:
                raise SandboxError(
                    f"`{snippet(stmt)}` failed: {type(exc).__name__}: {exc}", **where(stmt)
                ) from exc

    # --- names -------------------------------------------------------------------

    def _lookup(self, node: ast.Name) -> Any:
        name = node.id
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.names:
            return self.names[name]
        if name in SAFE_BUILTINS:
            return SAFE_BUILTINS[name]
        raise SandboxError(f"unknown name '{name}'", **where(node))

    # --- expressions ---------------------------------------------------------------

    def _constant(self, node: ast.Constant) -> Any:
        return node.value

    def _joined_str(self, node: ast.JoinedStr) -> str:
        text = "".join(
            str(part.value) if isinstance(part, ast.Constant) else self.eval(part)
            for part in node.values
        )
        self._grow(len(text), "f-string")
        return text

    def _formatted_value(self, node: ast.FormattedValue) -> str:
        value = _CONVERSIONS[node.conversion](self.eval(node.value))
        _check_weight(value, "the f-string value")
        spec = "" if node.format_spec is None else self.eval(node.format_spec)
        if any(int(number) > MAX_FORMAT_NUMBER for number in re.findall(r"\d+", spec)):
            raise SandboxError(
                f"format spec {spec!r} asks for more than {MAX_FORMAT_NUMBER} characters"
            )
        return format(value, spec)

    def _bool_op(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for operand in node.values:
            value = self.eval(operand)
            if isinstance(node.op, ast.And) != bool(value):
                return value
        return value

    def _bin_op(self, node: ast.BinOp) -> Any:
        return self._arithmetic(node.op, self.eval(node.left), self.eval(node.right))

    def _arithmetic(
        self, op: ast.operator, left: Any, right: Any, *, in_place: bool = False
    ) -> Any:
        """`left op right` with size guards; `in_place` extends a list as `+=` does."""
        kind = type(op)
        if kind is ast.Add and isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
            self._grow(len(left) + len(right), "the joined value")
            if in_place and isinstance(left, list):
                left.extend(right)
                return left
        elif kind is ast.Mult:
            self._check_product(left, right)
        elif kind is ast.Pow:
            self._check_power(left, right)
        elif kind is ast.Mod and isinstance(left, str):
            raise SandboxError("%-formatting of strings is not allowed; use an f-string")
        return _BINOPS[kind](left, right)

    def _check_product(self, left: Any, right: Any) -> None:
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, _SEQUENCES) and isinstance(count, int):
                self._grow(len(seq) * max(count, 0), "the repeated value")
                if not isinstance(seq, str) and count > 1 and weight(seq, MAX_ITEMS // count + 1) * count > MAX_ITEMS:
                    raise SandboxError(f"the repeated value would hold more than {MAX_ITEMS:,} items "
                                       "and characters")
                return
        ints = isinstance(left, int) and isinstance(right, int)
        if ints and left.bit_length() + right.bit_length() > MAX_INT_BITS:
            raise SandboxError(f"the product would be larger than {MAX_INT_BITS:,} bits")

    @staticmethod
    def _check_power(base: Any, exponent: Any) -> None:
        if isinstance(exponent, (int, float)) and exponent > MAX_EXPONENT:
            raise SandboxError(f"exponent {exponent} is over the limit of {MAX_EXPONENT}")
        ints = isinstance(base, int) and isinstance(exponent, int)
        if ints and abs(base) > 1 and base.bit_length() * exponent > MAX_INT_BITS:
            raise SandboxError(f"the power would be larger than {MAX_INT_BITS:,} bits")

    def _unary_op(self, node: ast.UnaryOp) -> Any:
        return _UNARY[type(node.op)](self.eval(node.operand))

    def _compare(self, node: ast.Compare) -> bool:
        left = self.eval(node.left)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.eval(comparator)
            if isinstance(right, (list, tuple)) or isinstance(left, (list, tuple, dict)):
                _check_weight(right, "the comparison")
                _check_weight(left, "the comparison")
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _if_exp(self, node: ast.IfExp) -> Any:
        return self.eval(node.body if self.eval(node.test) else node.orelse)

    def _list(self, node: ast.List) -> list[Any]:
        return [self.eval(item) for item in node.elts]

    def _tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self.eval(item) for item in node.elts)

    def _set(self, node: ast.Set) -> set[Any]:
        return {self.eval(item) for item in node.elts}

    def _dict(self, node: ast.Dict) -> dict[Any, Any]:
        pairs = zip(node.keys, node.values, strict=True)
        return {self.eval(k): self.eval(v) for k, v in pairs if k is not None}

    def _slice(self, node: ast.Slice) -> slice:
        parts = (node.lower, node.upper, node.step)
        return slice(*(None if part is None else self.eval(part) for part in parts))

    def _indexable(self, node: ast.Subscript) -> Any:
        value = self.eval(node.value)
        if value is None:
            raise SandboxError(
                f"'{snippet(node.value)}' is empty (None); cannot index it", **where(node)
            )
        if not isinstance(value, _INDEXABLES) or is_host_object(value):
            raise SandboxError(
                f"cannot index '{snippet(node.value)}' ({_kind(value)})", **where(node)
            )
        return value

    def _subscript(self, node: ast.Subscript) -> Any:
        value = self._indexable(node)
        return value[self.eval(node.slice)]

    def _host_base(self, node: ast.Attribute, doing: str) -> Any:
        """The object left of `.attr`, which must be a host object."""
        base = self.eval(node.value)
        if base is None:
            raise SandboxError(
                f"'{snippet(node.value)}' is empty (None); cannot {doing} '.{node.attr}'",
                **where(node),
            )
        return base

    def _attribute(self, node: ast.Attribute) -> Any:
        if node.attr == "confirmed" and isinstance(node.value, ast.Attribute):
            state = self._confirmation_state(node.value)
            if state is not None:
                return state
        base = self._host_base(node, "read")
        if is_host_object(base):
            return base.sandbox_getattr(node.attr)
        raise SandboxError(
            f"cannot read '.{node.attr}' of '{snippet(node.value)}' ({_kind(base)});"
            " only records have readable attributes",
            **where(node),
        )

    def _confirmation_state(self, node: ast.Attribute) -> bool | None:
        """`owner.field.confirmed`: asked of the owner when it can say (the reference's GenieValue)."""
        owner = self.eval(node.value)
        hook = getattr(owner, "sandbox_field_confirmed", None) if is_host_object(owner) else None
        return hook(node.attr) if hook is not None else None

    def _call(self, node: ast.Call) -> Any:
        func = node.func
        if isinstance(func, ast.Attribute):
            base = self._host_base(func, "call")
            args, kwargs = self._arguments(node)
            if is_host_object(base):
                return base.sandbox_call_method(func.attr, args, kwargs)
            return self._plain_method(base, func)(*args, **kwargs)
        assert isinstance(func, ast.Name)  # the checker allows nothing else
        target = self._lookup(func)
        if id(target) not in self.callable_ids:
            what = "not callable" if not callable(target) else "not a function the host provided"
            raise SandboxError(f"'{func.id}' is {what} ({_kind(target)})", **where(node))
        args, kwargs = self._arguments(node)
        return target(*args, **kwargs)

    def _arguments(self, node: ast.Call) -> tuple[list[Any], dict[str, Any]]:
        args = [self.eval(arg) for arg in node.args]
        kwargs = {str(kw.arg): self.eval(kw.value) for kw in node.keywords}
        return args, kwargs

    def _plain_method(self, base: Any, func: ast.Attribute) -> Callable[..., Any]:
        """An allow-listed method of a str, list, tuple or dict, bound to `base`."""
        name = func.attr
        for kind, allowed in _METHODS:
            if isinstance(base, kind):
                if name not in allowed:
                    break
                guarded = self._GUARDED.get((kind, name))
                if guarded is not None:
                    return functools.partial(guarded, self, base)
                return functools.partial(getattr(kind, name), base)
        raise SandboxError(
            f"cannot call '.{name}()' on '{snippet(func.value)}' ({_kind(base)})", **where(func)
        )

    def _str_join(self, sep: str, items: Any) -> str:
        parts = list(items)
        self._grow(
            sum(len(p) for p in parts if isinstance(p, str)) + len(sep) * len(parts), "join()"
        )
        return sep.join(parts)

    def _str_replace(self, text: str, old: str, new: str, count: int = -1) -> str:
        hits = text.count(old) if count < 0 else min(count, text.count(old))
        self._grow(len(text) + hits * max(len(new) - len(old), 0), "replace()")
        return text.replace(old, new, count)

    def _list_extend(self, target: list[Any], items: Any) -> None:
        items = list(items)
        self._grow(len(target) + len(items), "the extended list")
        target.extend(items)

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
    ) -> Any:
        gen = node.generators[0]
        items = self._iterable(self.eval(gen.iter), gen.iter)
        results: list[Any] = []
        self.scopes.append({})
        try:
            for item in items:
                self._assign(gen.target, item)
                if all(self.eval(condition) for condition in gen.ifs):
                    if isinstance(node, ast.DictComp):
                        results.append((self.eval(node.key), self.eval(node.value)))
                    else:
                        results.append(self.eval(node.elt))
        finally:
            self.scopes.pop()
        if isinstance(node, ast.DictComp):
            return dict(results)
        return set(results) if isinstance(node, ast.SetComp) else results

    def _iterable(self, value: Any, node: ast.AST) -> Any:
        if isinstance(value, _ITERABLES) and not is_host_object(value):
            return value
        raise SandboxError(f"cannot loop over '{snippet(node)}' ({_kind(value)})", **where(node))

    _EXPRESSIONS: ClassVar[dict[type, Callable[[Interpreter, Any], Any]]] = {
        ast.Constant: _constant,
        ast.Name: _lookup,
        ast.JoinedStr: _joined_str,
        ast.FormattedValue: _formatted_value,
        ast.BoolOp: _bool_op,
        ast.BinOp: _bin_op,
        ast.UnaryOp: _unary_op,
        ast.Compare: _compare,
        ast.IfExp: _if_exp,
        ast.List: _list,
        ast.Tuple: _tuple,
        ast.Set: _set,
        ast.Dict: _dict,
        ast.Slice: _slice,
        ast.Subscript: _subscript,
        ast.Attribute: _attribute,
        ast.Call: _call,
        ast.ListComp: _comprehension,
        ast.SetComp: _comprehension,
        ast.DictComp: _comprehension,
        ast.GeneratorExp: _comprehension,
    }
    _GUARDED: ClassVar[dict[tuple[type, str], Callable[..., Any]]] = {
        (str, "join"): _str_join,
        (str, "replace"): _str_replace,
        (list, "extend"): _list_extend,
    } | {(str, name): guarded_strip(name) for name in ("strip", "lstrip", "rstrip")}

    # --- statements ----------------------------------------------------------------

    def _assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scopes[-1][target.id] = value
        elif isinstance(target, ast.Attribute):
            base = self._host_base(target, "set")
            if not is_host_object(base):
                raise SandboxError(
                    f"cannot set '.{target.attr}' on '{snippet(target.value)}' ({_kind(base)})",
                    **where(target),
                )
            base.sandbox_setattr(target.attr, value)
        elif isinstance(target, ast.Subscript):
            container = self._indexable(target)
            if not isinstance(container, (list, dict)):
                raise SandboxError(f"cannot assign into {_kind(container)}", **where(target))
            container[self.eval(target.slice)] = value
        else:
            assert isinstance(target, (ast.Tuple, ast.List))  # the checker allows nothing else
            items = list(self._iterable(value, target))
            if len(items) != len(target.elts):
                raise SandboxError(
                    f"cannot unpack {len(items)} values into {len(target.elts)} names",
                    **where(target),
                )
            for element, item in zip(target.elts, items, strict=True):
                self._assign(element, item)

    def _assign_stmt(self, node: ast.Assign) -> None:
        value = self.eval(node.value)
        for target in node.targets:
            self._assign(target, value)

    def _aug_assign(self, node: ast.AugAssign) -> None:
        target, right = node.target, None
        if isinstance(target, ast.Name):
            current = self._lookup(target)
            right = self.eval(node.value)
            self.scopes[-1][target.id] = self._arithmetic(node.op, current, right, in_place=True)
        elif isinstance(target, ast.Attribute):
            base = self._host_base(target, "update")
            if not is_host_object(base):
                raise SandboxError(f"cannot set '.{target.attr}' on {_kind(base)}", **where(target))
            current = base.sandbox_getattr(target.attr)
            right = self.eval(node.value)
            base.sandbox_setattr(
                target.attr, self._arithmetic(node.op, current, right, in_place=True)
            )
        else:
            assert isinstance(target, ast.Subscript)
            container = self._indexable(target)
            key = self.eval(target.slice)
            right = self.eval(node.value)
            if not isinstance(container, (list, dict)):
                raise SandboxError(f"cannot assign into {_kind(container)}", **where(target))
            container[key] = self._arithmetic(node.op, container[key], right, in_place=True)

    def _expr_stmt(self, node: ast.Expr) -> None:
        self.eval(node.value)

    def _if(self, node: ast.If) -> None:
        self._block(node.body if self.eval(node.test) else node.orelse)

    def _loop_body(self, body: list[ast.stmt]) -> bool:
        """Run one iteration; False when it ended with `break`."""
        try:
            self._block(body)
        except _Break:
            return False
        except _Continue:
            pass
        return True

    def _for(self, node: ast.For) -> None:
        for item in self._iterable(self.eval(node.iter), node.iter):
            self._assign(node.target, item)
            if not self._loop_body(node.body):
                return
        self._block(node.orelse)

    def _while(self, node: ast.While) -> None:
        while self.eval(node.test):
            if not self._loop_body(node.body):
                return
        self._block(node.orelse)

    def _pass(self, node: ast.Pass) -> None:
        return None

    def _break(self, node: ast.Break) -> None:
        raise _Break

    def _continue(self, node: ast.Continue) -> None:
        raise _Continue

    _STATEMENTS: ClassVar[dict[type, Callable[[Interpreter, Any], None]]] = {
        ast.Assign: _assign_stmt,
        ast.AugAssign: _aug_assign,
        ast.Expr: _expr_stmt,
        ast.If: _if,
        ast.For: _for,
        ast.While: _while,
        ast.Pass: _pass,
        ast.Break: _break,
        ast.Continue: _continue,
    }
