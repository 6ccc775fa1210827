"""The state inspector's body as one HTML fragment: a table per record, the turn's changes.

Why HTML and not a `st.dataframe` per record: the inspector is redrawn on every chat
turn, and each data grid (plus the pandas Styler that highlights its changed rows) cost
the server about 8-15 ms and the browser a canvas grid to lay out, per record. One
`st.html` element is one message and plain DOM (issue 17: a chat turn at the framework's
floor). The tables are small (a worksheet's fields), so sorting and resizing are not
missed; every value is shown whole (wrapped), not cut at a column edge.

No Streamlit here: `state_html(...)` returns a string, tested without a browser. The CSS is a
separate, unchanging style-only element (`STATE_CSS`), so a new turn's table does not replace
the page's style sheet (which makes the browser restyle the whole page). Every
text from the spec, the state, KB rows or the user is HTML-escaped; nothing in it is
markup. Cells wrap after an underscore or a dot, else anywhere, so a long field or worksheet name narrows its
column instead of pushing the type column out of the inspector at 1280 px.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

__all__ = ["STATE_CSS", "state_html", "table_html"]

STATE_CSS = """<style>
.genie-state { font-size: 0.875rem; line-height: 1.4; }
.genie-state .rec { margin: 0.9rem 0 0.35rem 0; }
.genie-state code { font-size: 0.8rem; padding: 0.1em 0.3em; border-radius: 0.25rem;
  background: rgba(151, 166, 195, 0.15); }
.genie-state table { width: 100%; border-collapse: collapse; margin: 0 0 0.4rem 0; table-layout: auto; }
.genie-state .scroll { overflow-x: auto; }
.genie-state th, .genie-state td { border: 1px solid rgba(49, 51, 63, 0.1); padding: 0.25rem 0.5rem;
  text-align: left; vertical-align: top; overflow-wrap: anywhere; }
.genie-state th { white-space: nowrap; }
.genie-state th { font-weight: 400; color: rgba(49, 51, 63, 0.6); background: rgba(151, 166, 195, 0.08); }
.genie-state tr.changed td { background: #fff3bf; font-weight: 600; }
.genie-state td.mark { width: 1.5rem; text-align: center; }
.genie-state .badge { background: #ffe8cc; color: #d9480f; border-radius: 0.5rem; padding: 0 0.4rem;
  font-size: 0.75rem; }
.genie-state .caption { color: rgba(49, 51, 63, 0.6); font-size: 0.8rem; margin: 0.15rem 0; }
.genie-state .error { color: #b02a37; background: #fdecea; padding: 0.3rem 0.5rem; border-radius: 0.3rem; }
.genie-state details { margin: 0 0 0.4rem 0; }
.genie-state summary { cursor: pointer; color: rgba(49, 51, 63, 0.6); font-size: 0.8rem; }
.genie-state pre { font-size: 0.75rem; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem;
  overflow: auto; background: rgba(151, 166, 195, 0.1); padding: 0.4rem; border-radius: 0.3rem; margin: 0; }
</style>"""


def _e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def _breakable(value: Any) -> str:
    """Escaped text that may wrap after an underscore or a dot (snake_case names, dotted paths) or inside a
    CamelCase name, before its next word (FirstAuthentication)."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z][a-z])", "<wbr>", _e(value))
    return text.replace("_", "_<wbr>").replace(".", ".<wbr>")


def table_html(columns: list[str], rows: list[dict[str, Any]], *, mark: str | None = None,
               headers: dict[str, str] | None = None) -> str:
    """A plain table; a row whose `mark` column is non-empty is highlighted (class "changed")."""
    head = "".join(f"<th>{_e((headers or {}).get(c, c))}</th>" for c in columns)
    body = []
    for row in rows:
        cls = ' class="changed"' if mark and row.get(mark) else ""
        cells = "".join(f'<td class="mark">{_e(row.get(c))}</td>' if c == mark else f"<td>{_breakable(row.get(c))}</td>"
                        for c in columns)
        body.append(f"<tr{cls}>{cells}</tr>")
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _record_head(rec: dict[str, Any], status: str, new: bool) -> str:
    parent = f" · in {_e(rec['parent'])}.{_e(rec.get('parent_field'))}" if rec.get("parent") else ""
    badge = ' <span class="badge">new</span>' if new else ""
    return (f'<div class="rec"><b><code>{_e(rec.get("var", "?"))}</code></b> · {_e(rec.get("worksheet"))} · '
            f"{_e(status)} · started by {_e(rec.get('initiator'))}{parent}{badge}</div>")


def _kb_record(rec: dict[str, Any], new: bool) -> str:
    rows = rec.get("result") or []
    badge = ' <span class="badge">new</span>' if new else ""
    out = [f'<div class="rec"><b><code>{_e(rec.get("var"))}</code></b> · KB query · {_e(rec.get("status"))} · '
           f"{len(rows)} row(s){badge}</div>",
           f'<div class="caption">answer({_e(repr(rec.get("query")))})</div>']
    if rec.get("error"):
        out.append(f'<div class="error">{_e(rec["error"])}</div>')
    if rec.get("note"):
        out.append(f'<div class="caption">{_e(rec["note"])}</div>')
    return "".join(out)


def state_html(records: list[dict[str, Any]], tables: dict[str, list[dict[str, Any]]],
               statuses: dict[str, str], new_records: set[str], changes: list[dict[str, Any]] | None,
               turn: int) -> str:
    """The inspector body. `tables[var]` holds the rows of a task record (changed, field, value, status,
    type); `statuses[var]` its shown status; `changes` the diff rows (None at the start)."""
    out = ['<div class="genie-state">']
    if not records:
        out.append('<div class="caption">No records yet.</div>')
    for rec in records:
        var = rec.get("var", "?")
        if rec.get("kind") == "kb":
            out.append(_kb_record(rec, var in new_records))
            continue
        out.append(_record_head(rec, statuses.get(var, ""), var in new_records))
        out.append(table_html(["changed", "field", "value", "status", "type"], tables.get(var, []),
                              mark="changed", headers={"changed": ""}))
        if rec.get("result") is not None:
            out.append("<details><summary>API result</summary><pre>"
                       f"{_e(json.dumps(rec['result'], indent=2, ensure_ascii=False, default=str))}</pre></details>")
    out.append(f'<div class="rec"><b>{f"Changes in turn {turn}" if turn else "The start"}</b></div>')
    if turn and changes:
        out.append(table_html(["record", "field", "change", "before", "after"], changes))
    elif turn:
        out.append('<div class="caption">Nothing changed in the state.</div>')
    out.append("</div>")
    return "".join(out)
