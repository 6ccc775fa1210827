"""The spec as a dependency graph (networkx), for the Graph page and the playground overlay.

Pure Python, no Streamlit. Node ids are `ws:Name` (task worksheets, kind `worksheet`),
`kb:name` (kind `kb`), `type:Name` (kind `type`), `f:Worksheet.field` (kind `field`)
and `api:name` (kind `api`). Edge kinds:

    has_field   worksheet/kb/type -> its field
    nests       field -> the worksheet or type it has as its type (also through List[...])
    reads       field -> a field its predicate reads ("why is this field active?")
    activates   field -> a worksheet whose WS predicate reads it
    proposes    worksheet/field -> a worksheet its actions propose or construct
    kb_column   type -> the kb table whose columns it mirrors (attribute `columns`)
    calls       worksheet/field -> an API (the worksheet's API, or called in actions)

Names in code are resolved like the linter and the runtime do (self.x, a field of
the worksheet, of a worksheet containing it, a record variable, a field of any task
worksheet), by walking the `ast` of the code; nothing is ever executed.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterable
from typing import Any

import networkx as nx

from core_engine.lint import Diagnostic
from core_engine.spec.model import Spec, Worksheet, parse_type, snake_case
from core_engine.errors import SpecError

__all__ = [
    "EDGE_KINDS", "NODE_KINDS", "build_graph", "collapse_fields", "field_id", "filter_graph",
    "node_attributes", "worksheet_id",
]

NODE_KINDS = ("worksheet", "field", "kb", "type", "api")
EDGE_KINDS = ("has_field", "nests", "reads", "activates", "proposes", "kb_column", "calls")
_PREFIX = {"task": "ws", "kb": "kb", "type": "type"}
_NODE_KIND = {"task": "worksheet", "kb": "kb", "type": "type"}


def worksheet_id(ws: Worksheet) -> str:
    return f"{_PREFIX[ws.kind]}:{ws.name}"


def field_id(ws_name: str, field_name: str) -> str:
    return f"f:{ws_name}.{field_name}"


def _type_target(type_text: str) -> str | None:
    try:
        return parse_type(type_text).worksheet
    except SpecError:
        return None


class _Resolver:
    """Resolves the names a predicate or action uses to graph nodes (best effort, never raises)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.by_name = {}
        for ws in spec.worksheets:
            self.by_name.setdefault(ws.name, ws)
        self.by_var = {snake_case(ws.name): ws for ws in spec.worksheets if ws.kind == "task"}
        self.parents: dict[str, list[str]] = {}
        for ws in spec.worksheets:
            for f in ws.fields:
                target = _type_target(f.type)
                if target:
                    self.parents.setdefault(target, []).append(ws.name)

    def field_of(self, ws_name: str | None, name: str) -> str | None:
        ws = self.by_name.get(ws_name or "")
        if ws is not None and ws.field(name) is not None:
            return field_id(ws.name, name)
        return None

    def ancestors(self, ws_name: str) -> list[str]:
        seen, todo, out = {ws_name}, list(self.parents.get(ws_name, [])), []
        while todo:
            name = todo.pop(0)
            if name in seen:
                continue
            seen.add(name)
            out.append(name)
            todo += self.parents.get(name, [])
        return out

    def name(self, owner: str, name: str) -> tuple[str, str | None] | None:
        """('field', node) or ('worksheet', ws name) for a bare name used in `owner`'s code."""
        for ws_name in [owner, *self.ancestors(owner)]:
            found = self.field_of(ws_name, name)
            if found:
                return "field", found
        if name in self.by_var:
            return "worksheet", self.by_var[name].name
        for ws in self.spec.worksheets:
            if ws.kind == "task" and ws.field(name) is not None:
                return "field", field_id(ws.name, name)
        if name in self.by_name:
            return "worksheet", name
        return None

    def field_type(self, field_node: str) -> str | None:
        ws_name, _, fname = field_node[2:].partition(".")
        ws = self.by_name.get(ws_name)
        f = ws.field(fname) if ws else None
        return _type_target(f.type) if f else None

    def reads(self, owner: str, code: str) -> set[str]:
        """Field nodes the code reads."""
        tree = _parse(code)
        if tree is None:
            return set()
        out: set[str] = set()
        chains = _chains(tree)
        for chain in chains:
            target = self._chain(owner, chain)
            if target:
                out.add(target)
        return out

    def _chain(self, owner: str, chain: list[str]) -> str | None:
        head, rest = chain[0], chain[1:]
        if head == "self":
            if not rest:
                return None
            node = self.field_of(owner, rest[0])
            rest = rest[1:]
        else:
            found = self.name(owner, head)
            if found is None:
                return None
            kind, value = found
            if kind == "worksheet":
                if not rest:
                    return None
                node = self.field_of(value, rest[0])
                rest = rest[1:]
            else:
                node = value
        while node and rest:  # self.x.y: y is a field of x's worksheet type
            nested = self.field_type(node)
            deeper = self.field_of(nested, rest[0]) if nested else None
            if deeper is None:
                break
            node, rest = deeper, rest[1:]
        return node

    def proposals_and_calls(self, code: str) -> tuple[set[str], set[str]]:
        """Worksheet names proposed/constructed, and API names called, in an action block."""
        tree = _parse(code)
        proposed: set[str] = set()
        called: set[str] = set()
        if tree is None:
            return proposed, called
        api_names = {a.name for a in self.spec.apis}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            fname = node.func.id
            if fname == "propose" and node.args and isinstance(node.args[0], ast.Name):
                proposed.add(node.args[0].id)
            elif fname in self.by_name:
                proposed.add(fname)
            elif fname in api_names:
                called.add(fname)
        return proposed, called


def _parse(code: str) -> ast.AST | None:
    if not code or not code.strip():
        return None
    try:
        return ast.parse(textwrap.dedent(code))
    except SyntaxError:
        return None  # the linter reports it


def _chains(tree: ast.AST) -> list[list[str]]:
    """Every maximal `a.b.c` chain of names in the code (calls' function names excluded)."""
    out: list[list[str]] = []
    inner: set[int] = set()
    funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            inner.add(id(node.value))
    for node in ast.walk(tree):
        if id(node) in inner or id(node) in funcs:
            continue
        if isinstance(node, (ast.Attribute, ast.Name)) and isinstance(getattr(node, "ctx", None), ast.Load):
            parts: list[str] = []
            cur: ast.AST = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                parts.append(cur.id)
                out.append(parts[::-1])
    return out


def build_graph(spec: Spec, diagnostics: Iterable[Diagnostic] | None = None) -> nx.MultiDiGraph:
    """The dependency graph of `spec`; nodes with lint problems carry `problems` and `severity`."""
    g = nx.MultiDiGraph(name=spec.name)
    res = _Resolver(spec)
    ids: dict[str, str] = {}
    for ws in spec.worksheets:
        wid = worksheet_id(ws)
        ids.setdefault(ws.name, wid)
        g.add_node(wid, kind=_NODE_KIND[ws.kind], label=ws.name, worksheet=ws.name, ws_kind=ws.kind,
                   description=ws.description, predicate=ws.predicate, actions=ws.actions, api=ws.api or "",
                   fields=len(ws.fields), problems=[], severity="")
        for f in ws.fields:
            g.add_node(field_id(ws.name, f.name), kind="field", label=f.name, worksheet=ws.name, type=f.type,
                       field_kind=f.kind, required=f.required, dont_ask=f.dont_ask, confirm=f.confirm,
                       predicate=f.predicate, actions=f.actions, description=f.description,
                       enum_values=[e.value for e in f.enum_values], problems=[], severity="")
            g.add_edge(wid, field_id(ws.name, f.name), kind="has_field")
    for api in spec.apis:
        g.add_node(f"api:{api.name}", kind="api", label=api.name, api_kind=api.kind, description=api.description,
                   parameters=[p.name for p in api.parameters], problems=[], severity="")
    for ws in spec.worksheets:
        wid = ids[ws.name] if ids.get(ws.name) == worksheet_id(ws) else worksheet_id(ws)
        if ws.api and f"api:{ws.api}" in g:
            g.add_edge(wid, f"api:{ws.api}", kind="calls")
        for target in res.reads(ws.name, ws.predicate):
            g.add_edge(target, wid, kind="activates", predicate=ws.predicate.strip())
        _action_edges(g, res, ids, wid, ws.actions)
        for f in ws.fields:
            fid = field_id(ws.name, f.name)
            target = _type_target(f.type)
            if target and target in ids:
                g.add_edge(fid, ids[target], kind="nests")
            for read in res.reads(ws.name, f.predicate):
                if read != fid:
                    g.add_edge(fid, read, kind="reads", predicate=f.predicate.strip())
            _action_edges(g, res, ids, fid, f.actions)
    _kb_columns(g, spec, ids)
    for d in diagnostics or ():
        node = _diagnostic_node(g, d, ids)
        if node is not None:
            g.nodes[node]["problems"].append(f"{d.severity}: {d.message} [{d.code}]")
            if d.severity == "error" or not g.nodes[node]["severity"]:
                g.nodes[node]["severity"] = d.severity
    return g


def _action_edges(g: nx.MultiDiGraph, res: _Resolver, ids: dict[str, str], source: str, code: str) -> None:
    proposed, called = res.proposals_and_calls(code)
    for name in sorted(proposed):
        if name in ids:
            g.add_edge(source, ids[name], kind="proposes")
    for name in sorted(called):
        g.add_edge(source, f"api:{name}", kind="calls")


def _kb_columns(g: nx.MultiDiGraph, spec: Spec, ids: dict[str, str]) -> None:
    """A type mirrors a kb table when at least half its fields are columns of that table."""
    kbs = [ws for ws in spec.worksheets if ws.kind == "kb"]
    for ws in spec.worksheets:
        if ws.kind != "type" or not ws.fields:
            continue
        names = {f.name for f in ws.fields}
        for kb in kbs:
            shared = sorted(names & {f.name for f in kb.fields})
            if len(shared) * 2 >= len(names):
                g.add_edge(ids[ws.name], ids[kb.name], kind="kb_column", columns=shared)


def _diagnostic_node(g: nx.MultiDiGraph, d: Diagnostic, ids: dict[str, str]) -> str | None:
    if d.worksheet is not None:
        if d.field is not None and field_id(d.worksheet, d.field) in g:
            return field_id(d.worksheet, d.field)
        return ids.get(d.worksheet)
    if d.api is not None and f"api:{d.api}" in g:
        return f"api:{d.api}"
    return None


# -- views --------------------------------------------------------------------------------------


def filter_graph(g: nx.MultiDiGraph, *, worksheets: Iterable[str] | None = None,
                 edge_kinds: Iterable[str] | None = None, neighbours: bool = True) -> nx.MultiDiGraph:
    """The part of `g` about some worksheets (their fields, and what they link to) and some edge kinds.

    With `neighbours`, nodes one edge away from the chosen worksheets' nodes stay, so a
    filtered view still shows what a worksheet depends on and what depends on it.
    """
    kinds = set(edge_kinds) if edge_kinds is not None else set(EDGE_KINDS)
    h = nx.MultiDiGraph(name=g.graph.get("name"))
    h.add_nodes_from(g.nodes(data=True))
    h.add_edges_from((u, v, k, d) for u, v, k, d in g.edges(keys=True, data=True) if d.get("kind") in kinds)
    if worksheets is None:
        return h
    chosen = set(worksheets)
    core = {n for n, d in h.nodes(data=True) if d.get("worksheet") in chosen}
    keep = set(core)
    if neighbours:
        for n in core:
            keep |= set(h.successors(n)) | set(h.predecessors(n))
        owners = {h.nodes[n].get("worksheet") for n in keep if h.nodes[n].get("kind") == "field"}
        keep |= {n for n, d in h.nodes(data=True) if d.get("kind") != "field" and d.get("worksheet") in owners}
    return h.subgraph(keep).copy()


def collapse_fields(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Worksheet-level view: field nodes folded into their worksheet, edges lifted (for big specs)."""
    owner = {n: next((u for u, _, d in g.in_edges(n, data=True) if d.get("kind") == "has_field"), None)
             for n, d in g.nodes(data=True) if d.get("kind") == "field"}
    h = nx.MultiDiGraph(name=g.graph.get("name"))
    for n, d in g.nodes(data=True):
        if d.get("kind") != "field":
            h.add_node(n, **{**d, "problems": list(d.get("problems", []))})
    for n, o in owner.items():
        if o is not None and g.nodes[n].get("problems"):
            h.nodes[o]["problems"] += [f"{g.nodes[n]['label']}: {p}" for p in g.nodes[n]["problems"]]
            if g.nodes[n]["severity"] == "error" or not h.nodes[o]["severity"]:
                h.nodes[o]["severity"] = g.nodes[n]["severity"]
    seen: set[tuple[str, str, str]] = set()
    for u, v, d in g.edges(data=True):
        if d.get("kind") == "has_field":
            continue
        a, b = owner.get(u, u), owner.get(v, v)
        if a is None or b is None or a == b or (a, b, d["kind"]) in seen:
            continue
        seen.add((a, b, d["kind"]))
        h.add_edge(a, b, **d)
    return h


def node_attributes(g: nx.MultiDiGraph, node: str) -> dict[str, Any]:
    """What the attribute panel shows for a node: its data plus its edges in words."""
    data = dict(g.nodes[node])
    out = {k: v for k, v in data.items() if v not in ("", [], None)}
    out["id"] = node
    out["out"] = sorted(f"{d['kind']} -> {g.nodes[v].get('label', v)}" for _, v, d in g.out_edges(node, data=True))
    out["in"] = sorted(f"{g.nodes[u].get('label', u)} -> {d['kind']}" for u, _, d in g.in_edges(node, data=True))
    return out
