"""APIs that a spec's actions call but never declare, declared as mocks by the loader.

The reference's layouts mark an API call in an action with `@` (`@submit(self)`)
and never declare the API anywhere else; the product's specs may also call an API
by name. So that such a spec lints and chats at once, the loader declares each
such name as a `mock` API whose description says where it was found and that it
is a stand-in: the developer replaces it with a real implementation later.

A name counts as an API call when it is called as a bare function and is none of:
the agent built-ins, the sandbox's safe built-ins, a worksheet, a declared API, a
field, a record variable, or a name the snippet assigns itself.
"""

from __future__ import annotations

import ast
from typing import Iterable

from ..policy.sandbox_runtime import SAFE_BUILTINS
from ..spec.model import Api, ApiParam, Worksheet, snake_case
from ..spec.syntax import parse_python

AGENT_BUILTINS = frozenset({"say", "propose", "exitws", "answer"})
MOCK_NOTE = "Declared by the loader: called in {where}. A mock until you implement it."


def _snippets(worksheets: Iterable[Worksheet]) -> Iterable[tuple[str, str]]:
    for ws in worksheets:
        if ws.actions.strip():
            yield f"{ws.name} (WS actions)", ws.actions
        if ws.predicate.strip():
            yield f"{ws.name} (WS predicate)", ws.predicate
        for f in ws.fields:
            if f.actions.strip():
                yield f"{ws.name}.{f.name} (actions)", f.actions
            if f.predicate.strip():
                yield f"{ws.name}.{f.name} (predicate)", f.predicate


def _param_name(node: ast.expr, used: set[str], i: int) -> str:
    """A readable parameter name for a positional argument: `main.lead_id` -> lead_id."""
    base = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    name = "record" if base == "self" else base or f"arg{i + 1}"
    while name in used:
        name = f"{name}_{i + 1}"
    used.add(name)
    return name


def _calls(code: str) -> list[ast.Call]:
    try:
        tree = parse_python(code)
    except (SyntaxError, RecursionError, ValueError):
        return []  # the linter reports the syntax error with its position
    assigned = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id not in assigned]


def action_api_mocks(worksheets: list[Worksheet], declared: Iterable[Api]) -> list[Api]:
    """Mock APIs for the undeclared functions the worksheets' code calls, in first-use order."""
    declared = list(declared)
    known = set(AGENT_BUILTINS) | set(SAFE_BUILTINS) | {a.name for a in declared}
    known |= {ws.name for ws in worksheets} | {snake_case(ws.name) for ws in worksheets}
    known |= {f.name for ws in worksheets for f in ws.fields}
    out: dict[str, Api] = {}
    for where, code in _snippets(worksheets):
        for call in _calls(code):
            name = call.func.id  # type: ignore[attr-defined]
            if name in out or name in known:
                continue
            used: set[str] = set()
            params = [ApiParam(name=_param_name(a, used, i)) for i, a in enumerate(call.args)]
            params += [ApiParam(name=kw.arg) for kw in call.keywords if kw.arg and kw.arg not in used]
            out[name] = Api(name=name, kind="mock", description=MOCK_NOTE.format(where=where),
                            parameters=params)
    return list(out.values())
