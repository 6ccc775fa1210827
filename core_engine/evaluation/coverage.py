"""Coverage of a spec by conversations: which parts of the worksheets a test run exercised.

    cov = coverage(spec, [test_result.outputs for test_result in results])
    cov.untouched()      # ["BookRestaurant.special_request_info: never asked or filled", ...]
    print(cov.format_text())

A conversation is a list of turns, each a `TurnResult` or its JSON (`to_json()`, a log
line). Everything is read from what the engine already records: the acts, the state
snapshots, and the trace (predicate outcomes, actions, API calls, KB queries). Counts of
parts (fields, predicates, actions, APIs) are the number of conversations in which the
thing happened at least once; act kinds are counted per act.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..policy.acts import ACT_KINDS
from ..spec.model import REFUSAL, Spec, parse_type
from ..dialogue.state import REF_KEY
from ..spec.values import is_empty

_WHERE = re.compile(r"^(?P<ws>[A-Za-z_]\w*)(?:\.(?P<field>\w+))? \((?P<what>[a-z_]+)\)$")
_TABLE = re.compile(r'\b(?:FROM|JOIN)\s+"?([A-Za-z_]\w*)"?', re.IGNORECASE)
_COLUMN = re.compile(r'"([A-Za-z_]\w*)"')


@dataclass
class FieldCoverage:
    name: str
    askable: bool  # an input the agent may ask (not dont_ask)
    required: bool
    asked: int = 0
    filled: int = 0
    confirmed: int = 0
    refused: int = 0
    queried: int = 0  # kb worksheets: the column appeared in a query's conditions

    @property
    def touched(self) -> bool:
        return bool(self.asked or self.filled or self.confirmed or self.refused or self.queried)


@dataclass
class PredicateCoverage:
    field: str | None  # None: the worksheet's own (WS) predicate
    source: str
    seen_true: int = 0
    seen_false: int = 0

    @property
    def label(self) -> str:
        return self.field or "(worksheet)"


@dataclass
class WorksheetCoverage:
    name: str
    kind: str
    fields: list[FieldCoverage] = field(default_factory=list)
    predicates: list[PredicateCoverage] = field(default_factory=list)
    actions: dict[str, int] = field(default_factory=dict)  # "ws_actions" or a field name -> runs
    action_failures: dict[str, int] = field(default_factory=dict)
    api: str | None = None
    api_calls: int = 0
    acts: dict[str, int] = field(default_factory=dict)
    instantiated: int = 0
    completed: int = 0
    queried: int = 0

    def untouched(self) -> list[str]:
        """The parts of this worksheet no conversation exercised, as readable lines."""
        out: list[str] = []
        if self.kind == "task" and not self.instantiated:
            out.append(f"{self.name}: never started")
        if self.kind == "kb" and not self.queried:
            out.append(f"{self.name}: never queried")
        if self.kind == "task":
            for f in self.fields:
                if (f.askable or f.required) and not f.touched:
                    out.append(f"{self.name}.{f.name}: never asked or filled")
        for p in self.predicates:
            where = f"{self.name}.{p.field}" if p.field else self.name
            if not p.seen_true and not p.seen_false:
                out.append(f"{where}: predicate never evaluated ({p.source})")
            elif not p.seen_true:
                out.append(f"{where}: predicate never true ({p.source})")
            elif not p.seen_false:
                out.append(f"{where}: predicate never false ({p.source})")
        for label, runs in self.actions.items():
            if not runs:
                where = self.name if label == "ws_actions" else f"{self.name}.{label}"
                out.append(f"{where}: actions never ran")
        if self.api and not self.api_calls:
            out.append(f"{self.name}: API {self.api} never called")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "instantiated": self.instantiated,
                "completed": self.completed, "queried": self.queried, "api": self.api, "api_calls": self.api_calls,
                "fields": [dict(f.__dict__) for f in self.fields],
                "predicates": [dict(p.__dict__) for p in self.predicates],
                "actions": dict(self.actions), "action_failures": dict(self.action_failures),
                "acts": dict(self.acts), "untouched": self.untouched()}


@dataclass
class Coverage:
    spec_name: str
    conversations: int = 0
    turns: int = 0
    worksheets: list[WorksheetCoverage] = field(default_factory=list)
    act_kinds: dict[str, int] = field(default_factory=dict)
    apis: dict[str, int] = field(default_factory=dict)  # every declared API -> conversations that called it

    def worksheet(self, name: str) -> WorksheetCoverage | None:
        return next((w for w in self.worksheets if w.name == name), None)

    def untouched(self) -> list[str]:
        out = [line for w in self.worksheets for line in w.untouched()]
        listed = {w.api for w in self.worksheets if w.api}
        out += [f"API {name}: never called" for name, n in self.apis.items() if not n and name not in listed]
        out += [f"act {kind}: never occurred" for kind, n in self.act_kinds.items() if not n]
        return out

    def summary(self) -> dict[str, tuple[int, int]]:
        """(covered, total) per kind of part; e.g. fields touched 7 of 8."""
        tasks = [w for w in self.worksheets if w.kind == "task"]
        fields = [f for w in tasks for f in w.fields if f.askable or f.required]
        preds = [p for w in self.worksheets for p in w.predicates]
        actions = [n for w in self.worksheets for n in w.actions.values()]
        return {
            "fields touched": (sum(f.touched for f in fields), len(fields)),
            "predicates seen true and false": (sum(bool(p.seen_true and p.seen_false) for p in preds), len(preds)),
            "actions run": (sum(bool(n) for n in actions), len(actions)),
            "APIs called": (sum(bool(n) for n in self.apis.values()), len(self.apis)),
            "act kinds": (sum(bool(n) for n in self.act_kinds.values()), len(self.act_kinds)),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec_name, "conversations": self.conversations, "turns": self.turns,
                "summary": {k: {"covered": a, "total": b} for k, (a, b) in self.summary().items()},
                "act_kinds": dict(self.act_kinds), "apis": dict(self.apis),
                "worksheets": [w.to_dict() for w in self.worksheets], "untouched": self.untouched()}

    def format_text(self) -> str:
        lines = [f"Coverage of {self.spec_name}: {self.conversations} conversation(s), {self.turns} turn(s)"]
        lines += [f"  {k}: {a}/{b}" for k, (a, b) in self.summary().items()]
        lines.append("  acts: " + ", ".join(f"{k} {n}" for k, n in self.act_kinds.items()))
        for w in self.worksheets:
            lines.append(f"{w.name} ({w.kind})" + _ws_counts(w, self.conversations))
            if w.kind == "task" and w.fields:
                width = max(len(f.name) for f in w.fields)
                lines.append(f"    {'field':<{width}}  asked filled confirmed refused")
                for f in w.fields:
                    lines.append(f"    {f.name:<{width}}  {f.asked:>5} {f.filled:>6} {f.confirmed:>9} {f.refused:>7}")
            if w.kind == "kb":
                used = [f.name for f in w.fields if f.queried]
                lines.append(f"    columns in query conditions: {', '.join(used) or 'none'}")
            for p in w.predicates:
                lines.append(f"    predicate {p.label}: {p.source}  (true {p.seen_true}, false {p.seen_false})")
            for label, runs in w.actions.items():
                failed = w.action_failures.get(label, 0)
                lines.append(f"    actions {label}: ran {runs}" + (f", failed {failed}" if failed else ""))
            if w.api:
                lines.append(f"    API {w.api}: called {w.api_calls}")
            if w.acts:
                lines.append("    acts: " + ", ".join(f"{k} {n}" for k, n in w.acts.items()))
        untouched = self.untouched()
        lines.append(f"Untouched ({len(untouched)}):" if untouched else "Untouched: nothing")
        lines += [f"  - {u}" for u in untouched]
        return "\n".join(lines)


def _ws_counts(w: WorksheetCoverage, runs: int) -> str:
    if w.kind == "task":
        return f": started in {w.instantiated}/{runs}, completed in {w.completed}/{runs}"
    if w.kind == "kb":
        return f": queried in {w.queried}/{runs}"
    return ""


# ---------------------------------------------------------------- collection

@dataclass
class _Seen:
    """What one conversation exercised (sets, so each counts once per conversation)."""

    asked: set = field(default_factory=set)
    filled: set = field(default_factory=set)
    confirmed: set = field(default_factory=set)
    refused: set = field(default_factory=set)
    queried_columns: set = field(default_factory=set)
    preds: set = field(default_factory=set)  # (ws, field|None, bool)
    actions: set = field(default_factory=set)
    action_failures: set = field(default_factory=set)
    apis: set = field(default_factory=set)
    instantiated: set = field(default_factory=set)
    completed: set = field(default_factory=set)
    tables: set = field(default_factory=set)


def _as_json(turn: Any) -> dict[str, Any]:
    if isinstance(turn, dict):
        return turn
    return {"acts": turn.acts, "state": turn.state, "trace": turn.trace, "user": turn.user}


def _observe(spec: Spec, turns: Sequence[Any], acts_total: Counter, ws_acts: dict[str, Counter]) -> _Seen:
    seen = _Seen()
    api_owner = {w.api: w.name for w in spec.worksheets if w.api}
    for raw in turns:
        turn = _as_json(raw)
        records = (turn.get("state") or {}).get("records") or []
        kinds = {r.get("var"): r.get("kind", "task") for r in records}
        var_ws = {r.get("var"): r.get("worksheet") for r in records if r.get("kind", "task") == "task"}
        _observe_state(records, kinds, seen)
        trace = turn.get("trace") or {}
        query_table: dict[str, str] = {}
        for entry in trace.get("kb") or []:
            tables = _observe_sql(entry.get("sql") or "", seen)
            if tables and entry.get("query"):
                query_table[entry["query"]] = sorted(tables)[0]
        _observe_trace(trace, seen)
        for act in turn.get("acts") or []:
            kind = act.get("act")
            acts_total[kind] += 1
            ws = act.get("worksheet")
            if kind in ("ask", "confirm") and ws and act.get("field"):
                seen.asked.add((ws, act["field"]))
            if kind == "report":
                if act.get("kind") == "api":
                    ws = api_owner.get(act.get("api")) or var_ws.get(act.get("var"))
                else:
                    ws = query_table.get(act.get("query") or "")
            if ws:
                ws_acts.setdefault(ws, Counter())[kind] += 1
    return seen


def _observe_state(records: list[dict[str, Any]], kinds: dict[str, str], seen: _Seen) -> None:
    for rec in records:
        if rec.get("kind", "task") != "task":
            continue
        ws = rec.get("worksheet")
        seen.instantiated.add(ws)
        if rec.get("status") == "completed" or rec.get("outcome") == "executed":
            seen.completed.add(ws)
        for name, value in (rec.get("values") or {}).items():
            if is_empty(value) or value == REFUSAL:
                continue
            if isinstance(value, dict) and set(value) == {REF_KEY} and kinds.get(value[REF_KEY]) == "kb":
                continue  # still a pending question, not a value
            seen.filled.add((ws, name))
            if value is True:
                seen.confirmed.add((ws, name))  # yes to a confirm-typed field (checked against the spec later)
        for name in rec.get("confirmed") or []:
            seen.confirmed.add((ws, name))
        for name in rec.get("refused") or []:
            seen.refused.add((ws, name))


def _observe_sql(sql: str, seen: _Seen) -> set[str]:
    tables = {t for t in _TABLE.findall(sql) if not t.endswith("_fts")}
    seen.tables |= tables
    where = re.split(r"\bWHERE\b", sql, maxsplit=1, flags=re.IGNORECASE)
    if len(where) == 2:
        for col in _COLUMN.findall(where[1]):
            for t in tables:
                seen.queried_columns.add((t, col))
    return tables


def _observe_trace(trace: dict[str, Any], seen: _Seen) -> None:
    policy = trace.get("policy") or {}
    for p in policy.get("predicates") or []:
        m = _WHERE.match(p.get("where") or "")
        if m:
            seen.preds.add((m["ws"], m["field"], bool(p.get("value"))))
    for ev in policy.get("events") or []:
        if ev.get("event") == "action":
            m = _WHERE.match(ev.get("where") or "")
            if m:
                seen.actions.add((m["ws"], m["field"] or "ws_actions"))
        elif ev.get("event") == "api" and ev.get("api"):
            seen.apis.add(ev["api"])
    for err in policy.get("errors") or []:
        if err.get("stage") == "action":
            m = _WHERE.match(err.get("where") or "")
            if m:
                seen.action_failures.add((m["ws"], m["field"] or "ws_actions"))
        elif err.get("stage") == "api" and err.get("api"):
            seen.apis.add(err["api"])  # it was called, and failed


def coverage(spec: Spec, conversations: Iterable[Sequence[Any]]) -> Coverage:
    """Which fields, predicates, actions, APIs and act kinds the conversations exercised."""
    cov = Coverage(spec.name, act_kinds={k: 0 for k in ACT_KINDS}, apis={a.name: 0 for a in spec.apis})
    acts_total: Counter = Counter()
    ws_acts: dict[str, Counter] = {}
    seens: list[_Seen] = []
    for turns in conversations:
        turns = list(turns)
        cov.conversations += 1
        cov.turns += len(turns)
        seens.append(_observe(spec, turns, acts_total, ws_acts))
    for kind, n in acts_total.items():
        cov.act_kinds[kind] = cov.act_kinds.get(kind, 0) + n
    for api in cov.apis:
        cov.apis[api] = sum(api in s.apis for s in seens)

    def runs(attr: str, key: Any) -> int:
        return sum(key in getattr(s, attr) for s in seens)

    for ws in spec.worksheets:
        wc = WorksheetCoverage(ws.name, ws.kind, api=ws.api)
        for f in ws.fields:
            key = (ws.name, f.name)
            is_confirm = parse_type(f.type).base == "confirm"
            wc.fields.append(FieldCoverage(
                f.name, askable=f.kind == "input" and not f.dont_ask, required=f.required,
                asked=runs("asked", key), filled=runs("filled", key),
                confirmed=runs("confirmed", key) if (f.confirm or is_confirm) else 0,
                refused=runs("refused", key), queried=runs("queried_columns", key)))
            if f.predicate.strip():
                wc.predicates.append(PredicateCoverage(f.name, f.predicate, runs("preds", (ws.name, f.name, True)),
                                                       runs("preds", (ws.name, f.name, False))))
            if f.actions.strip():
                wc.actions[f.name] = runs("actions", key)
                wc.action_failures[f.name] = runs("action_failures", key)
        if ws.predicate.strip():
            wc.predicates.insert(0, PredicateCoverage(None, ws.predicate, runs("preds", (ws.name, None, True)),
                                                      runs("preds", (ws.name, None, False))))
        if ws.actions.strip():
            wc.actions["ws_actions"] = runs("actions", (ws.name, "ws_actions"))
            wc.action_failures["ws_actions"] = runs("action_failures", (ws.name, "ws_actions"))
        wc.api_calls = runs("apis", ws.api) if ws.api else 0
        wc.instantiated = runs("instantiated", ws.name)
        wc.completed = runs("completed", ws.name)
        wc.queried = runs("tables", ws.name) if ws.kind == "kb" else 0
        wc.acts = dict(ws_acts.get(ws.name, {}))
        cov.worksheets.append(wc)
    return cov


__all__ = ["coverage", "Coverage", "WorksheetCoverage", "FieldCoverage", "PredicateCoverage"]
