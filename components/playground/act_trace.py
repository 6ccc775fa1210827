"""One turn's trace, stage by stage: the acts, the parse, the KB queries, timings, LLM calls.

Reads only `TurnResult` data (acts, state, trace), so what the playground shows is
exactly what `genie chat --jsonl` prints. KB rows come from the KB record of the state
that holds the query's result.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from core_engine.policy.acts import describe

STAGES = ("parse", "interpret", "policy", "rg")


def _cell(value: Any) -> str:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return "" if value is None else str(value)


def rows_frame(rows: list[dict[str, Any]], limit: int = 50) -> pd.DataFrame:
    """KB rows as a table of strings (lists and dicts as JSON, long text kept)."""
    df = pd.DataFrame([{k: _cell(v) for k, v in r.items()} for r in rows[:limit]])
    first = [c for c in ("name", "title") if c in df.columns]
    return df[first + [c for c in df.columns if c not in first]]


def kb_rows_for(state: dict[str, Any], query: str) -> list[dict[str, Any]] | None:
    """The rows the state holds for `query` (the newest KB record asking it)."""
    for rec in reversed((state or {}).get("records") or []):
        if rec.get("kind") == "kb" and rec.get("query") == query:
            return rec.get("result") or []
    return None


def render_acts(turn: Any, key: str) -> None:
    acts = turn.acts
    if not acts:
        st.caption("The policy produced no acts this turn.")
    for i, act in enumerate(acts, start=1):
        st.markdown(f"{i}. `{describe(act)}`")
    with st.expander("Acts as JSON"):
        st.json(acts, expanded=False)
    policy = turn.trace.get("policy") or {}
    events = policy.get("events") or []
    if events:
        st.markdown("**Policy and interpreter events**")
        st.dataframe(pd.DataFrame([{"event": e.get("event"), "detail": _cell({k: v for k, v in e.items()
                                                                               if k != "event"})} for e in events]),
                     hide_index=True, width="stretch", key=f"{key}-events")
    for err in policy.get("errors") or []:
        st.error(f"{err.get('stage')}: {err.get('error')}" + (f" ({err['where']})" if err.get("where") else ""))
    if turn.trace.get("fallback"):
        st.error(f"Turn failed: {turn.trace['fallback'].get('reason')}: {turn.trace['fallback'].get('error')}")


def render_parse(turn: Any, key: str) -> None:
    parse = turn.trace.get("parse") or {}
    st.markdown(f"Parser: **{parse.get('parser', '?')}**"
                + (f" · input: {turn.trace['input']}" if turn.trace.get("input") else ""))
    statements = parse.get("statements") or []
    st.markdown("**Formal statements**")
    if statements:
        st.code("\n".join(statements), language="python", wrap_lines=True)
    else:
        st.caption("No statements.")
    rejected = parse.get("rejected") or []
    st.markdown("**Rejected**")
    if not rejected:
        st.caption("None: every statement applied.")
    else:
        for r in rejected:
            src = r.get("source") or r.get("statement") or r.get("matched") or ""
            st.error(f"`{src}` — {r.get('error') or r.get('reason') or r.get('rejected')}")
    if parse.get("error"):
        st.warning(f"Parser error: {parse['error']}")
    if parse.get("rules"):
        with st.expander(f"Parser rules ({len(parse['rules'])})"):
            st.dataframe(pd.DataFrame([{k: _cell(v) for k, v in r.items()} for r in parse["rules"]]),
                         hide_index=True, width="stretch", key=f"{key}-rules")
    if parse.get("text") and parse.get("text").strip() != "\n".join(statements).strip():
        with st.expander("Parser output as written"):
            st.code(parse["text"], language="python")


def render_kb(turn: Any, key: str) -> None:
    entries = turn.trace.get("kb") or []
    if not entries:
        st.caption("No knowledge-base queries this turn.")
    for i, entry in enumerate(entries, start=1):
        n = entry.get("rows")
        ms = entry.get("elapsed_ms")
        st.markdown(f"**Query {i}:** {entry.get('query', '')!r} · "
                    f"{n if n is not None else '?'} row(s) · {ms if ms is not None else '?'} ms")
        if entry.get("sql"):
            st.code(entry["sql"], language="sql", wrap_lines=True)
        if entry.get("error"):
            st.error(entry["error"])
        rows = kb_rows_for(turn.state, entry.get("query", ""))
        if rows:
            st.dataframe(rows_frame(rows), hide_index=True, width="stretch", key=f"{key}-rows-{i}")
        if entry.get("rules"):
            with st.expander("How the knowledge parser read it"):
                st.dataframe(pd.DataFrame([{k: _cell(v) for k, v in r.items()} for r in entry["rules"]]),
                             hide_index=True, width="stretch", key=f"{key}-kbrules-{i}")


def render_timings(turn: Any, key: str) -> None:
    timings = turn.trace.get("timings_ms") or {}
    cols = st.columns(len(STAGES) + 1)
    for col, stage in zip(cols, (*STAGES, "total")):
        value = timings.get(stage)
        col.metric(stage, f"{value:.1f} ms" if isinstance(value, (int, float)) else "—")
    llm = turn.trace.get("llm") or {}
    if llm:
        st.caption(f"LLM: {sum((llm.get('calls') or {}).values())} call(s), {llm.get('prompt_tokens', 0)} prompt + "
                   f"{llm.get('completion_tokens', 0)} completion tokens, {llm.get('latency_ms', 0)} ms")


def llm_calls(trace: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(stage, call) for every LLM call of the turn, in pipeline order."""
    out = [("parser", c) for c in (trace.get("parse") or {}).get("llm_calls") or []]
    out += [("knowledge", c) for e in trace.get("kb") or [] for c in e.get("llm_calls") or []]
    out += [("response", c) for c in (trace.get("rg") or {}).get("llm_calls") or []]
    return out


def render_llm(turn: Any, key: str) -> None:
    calls = llm_calls(turn.trace)
    if not calls:
        st.caption("No LLM calls this turn (the offline parser and template responses need none).")
    for i, (stage, call) in enumerate(calls, start=1):
        tokens = f"{call.get('prompt_tokens') or 0} + {call.get('completion_tokens') or 0} tokens"
        head = f"{stage} · {call.get('model', '?')} · {tokens} · {call.get('latency_ms', 0)} ms"
        if call.get("cached"):
            head += " · cached"
        with st.expander(head, expanded=len(calls) == 1):
            if call.get("error"):
                st.error(call["error"])
            for m in call.get("messages") or []:
                st.caption(m.get("role", "?"))
                st.code(str(m.get("content") or ""), language=None, wrap_lines=True)
            st.caption("completion")
            st.code(call.get("completion") or "", language=None, wrap_lines=True)


TABS = ("Acts", "Parse", "KB queries", "Timings", "LLM")


def render_trace(turn: Any, *, key: str = "trace") -> None:
    """Tabs for one turn (a TurnResult)."""
    tabs = st.tabs(list(TABS), key=f"{key}-tabs", on_change="rerun")
    for tab, draw in zip(tabs, (render_acts, render_parse, render_kb, render_timings, render_llm)):
        if tab.open is not False:  # lazy: only the open tab is drawn; the choice stays across turns
            with tab:
                draw(turn, key)


__all__ = ["render_trace", "kb_rows_for", "rows_frame", "llm_calls", "TABS"]
