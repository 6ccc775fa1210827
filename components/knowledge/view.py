"""Widgets of the Knowledge page: tables, upload with progress, preview, column types, derive, SQL console."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st
from st_aggrid import AgGrid, GridOptionsBuilder

from components import session
from components.knowledge import kb_io
from components.confirm import confirm
from core_engine.errors import GenieError, KnowledgeError

PREVIEW_CHARS = 160


def _cell(value: Any, limit: int | None = None) -> Any:
    """Lists and dicts shown as text in grids (they are JSON in the KB); long text cut to `limit`."""
    if isinstance(value, (list, dict)):
        value = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    if limit and isinstance(value, str) and len(value) > limit:
        return value[: limit - 1] + "…"
    return value


def table_overview(infos: dict[str, Any]) -> None:
    if not infos:
        st.info("This project has no knowledge-base tables yet: upload a CSV, JSON or JSONL file below.")
        return
    rows = [{"Table": t.name, "Rows": t.row_count, "Columns": len(t.columns),
             "Free-text search": "yes" if t.fts_table else "",
             "Column types": ", ".join(f"{c.name}:{c.type}{'*' if c.free_text else ''}" for c in t.columns)}
            for t in infos.values()]
    # a static table, not st.dataframe: its canvas cells cannot wrap, and the column types of a wide table
    # were cut at the grid's edge at 1280 px (the overview has a row per table, so nothing needs scrolling)
    st.table(pd.DataFrame(rows).set_index("Table"))
    st.caption("Column types: a trailing \\* marks a free-text column (searched with the full-text index, "
               "e.g. reviews).")


def upload_panel(project: Any) -> None:
    upload = st.file_uploader("CSV, TSV, JSON (an array of objects) or JSONL file", type=list(kb_io.KB_SUFFIXES),
                              key="knowledge.upload")
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    default = kb_io.table_name_for(upload.name) if upload is not None else ""
    table = c1.text_input("Table name", value=default, key=f"knowledge.table.{default}")
    replace = c2.checkbox("Replace if it exists", key="knowledge.replace")
    data, name = (upload.getvalue(), upload.name) if upload is not None else (b"", "")
    if upload is not None and name.lower().endswith((".csv", ".tsv")):
        try:
            data, name = csv_options(data, name)
        except GenieError as exc:
            st.error(str(exc))
            return
    if st.button("Import", type="primary", disabled=upload is None or not table.strip(), key="knowledge.import"):
        bar = st.progress(0.0, text="Reading the file...")

        def progress(done: int, total: int | None) -> None:
            share = min(done / total, 1.0) if total else 0.5
            bar.progress(share, text=f"{done:,} rows" + (f" of {total:,}" if total else ""))

        with st.status(f"Importing {upload.name} as {table.strip()}...", expanded=False) as status:
            try:
                report = kb_io.import_upload(project, name, data, table.strip(),
                                             replace=replace, progress=progress)
            except GenieError as exc:
                status.update(label="Import failed", state="error", expanded=True)
                st.error(f"Nothing was imported: {exc}")
                return
            bar.progress(1.0, text=f"{report.rows:,} rows")
            status.update(label=f"Imported {report.rows:,} rows into {report.table} in {report.elapsed_s:.2f} s",
                          state="complete")
        session.select("knowledge.table", report.table)
        session.flash(f"Imported {report.rows:,} rows into table {report.table} in {report.elapsed_s:.2f} s.")
        st.rerun()


def csv_options(data: bytes, name: str) -> tuple[bytes, str]:
    """Delimiter (detected, choosable), list columns split on a separator, and a preview of the parsed rows.
    Returns what to import: the upload as is, or normalised to a comma CSV with list cells as JSON arrays."""
    from storage.kb.sniff import DELIMITERS, normalise, preview, sniff_delimiter

    detected = sniff_delimiter(data)
    keys = list(DELIMITERS)
    c1, c2, c3 = st.columns([2, 3, 1])
    delimiter = c1.selectbox("Delimiter", keys, index=keys.index(detected), format_func=lambda d: DELIMITERS[d],
                             key=f"knowledge.delimiter.{name}", help=f"Detected: {DELIMITERS[detected]}")
    columns = preview(data, delimiter, limit=1).columns
    split_cols = c2.multiselect("Split into lists", columns, key=f"knowledge.split.{name}.{delimiter}",
                                help="Text such as 'cleaning, implants' becomes a list column")
    sep = c3.text_input("on", value=",", max_chars=3,
                        key=f"knowledge.split_sep.{name}") or ","
    split = {c: sep for c in split_cols}
    shown = preview(data, delimiter, split=split, limit=20)
    st.caption(f"Preview: {len(shown.columns)} column(s), {shown.total_rows:,} row(s) parsed with "
               f"{DELIMITERS[delimiter]}" + (" — only one column: is the delimiter right?" if len(shown.columns) == 1
                                            else ""))
    rows = [{k: (json.dumps(v, ensure_ascii=False) if isinstance(v, list) else _cell(v, 80)) for k, v in r.items()}
            for r in shown.rows]  # list cells as JSON arrays, so a split column is visibly a list
    st.dataframe(pd.DataFrame(rows, columns=shown.columns),
                 hide_index=True, width="stretch", height=min(38 + 35 * len(shown.rows), 280),
                 key=f"knowledge.import.preview.{name}")
    plain = delimiter == ("\t" if name.lower().endswith(".tsv") else ",") and not split
    return (data, name) if plain else (normalise(data, delimiter, split=split), name.rsplit(".", 1)[0] + ".csv")


def manage_table(project: Any, table: str) -> None:
    """Rename or delete a KB table (a delete is confirmed; a rename also renames its kb worksheet)."""
    from components.agent.model import save_agent_edit
    from storage.kb.tables import drop_table, rename_table

    c1, c2, c3 = st.columns([3, 1, 1], vertical_alignment="bottom")
    new = c1.text_input("New name", value=table, key=f"knowledge.rename.{table}")
    if c2.button("Rename", key=f"knowledge.rename.{table}.go", disabled=new.strip() in ("", table), width="stretch"):
        try:
            rename_table(project, table, new.strip())
            if project.spec().worksheet(table) is not None:
                def edit(spec: Any) -> Any:
                    spec.worksheet(table).name = new.strip()
                    return spec
                save_agent_edit(project, edit, f"renamed KB table {table} to {new.strip()}")
        except GenieError as exc:
            st.error(str(exc))
            return
        session.select("knowledge.table", new.strip())
        session.flash(f"Renamed table {table} to {new.strip()}.")
        st.rerun()
    if c3.button("Delete table", key=f"knowledge.drop.{table}", icon=":material/delete:", width="stretch"):
        confirm(f"Delete table {table}?", f"The KB table **{table}**, its full-text index and column types are "
                "removed from the project. This cannot be undone.", "delete", lambda: drop_table(project, table),
                done=f"Deleted table {table}.")


def pick_table(infos: dict[str, Any]) -> str | None:
    names = list(infos)
    if not names:
        return None
    wanted = session.selected("knowledge.table")
    index = names.index(wanted) if wanted in names else 0
    picked = st.selectbox("Table", names, index=index, key=f"knowledge.pick.{wanted}")
    session.select("knowledge.table", picked)
    return picked


def preview(kb: Any, table: str) -> None:
    result = kb_io.preview_rows(kb, table)
    frame = pd.DataFrame([{k: _cell(v, PREVIEW_CHARS) for k, v in row.items()} for row in result.rows],
                         columns=result.columns)  # long reviews are cut: the preview is for a glance
    gb = GridOptionsBuilder.from_dataframe(frame)
    gb.configure_default_column(resizable=True, sortable=True, filter=True, maxWidth=420)
    gb.configure_pagination(enabled=True, paginationAutoPageSize=False, paginationPageSize=20)
    options = gb.build()
    AgGrid(frame, gridOptions=options, height=420, key=f"knowledge.preview.{table}", update_on=[],
           theme="streamlit", show_download_button=False)
    more = " (the first 1,000)" if result.truncated else ""
    st.caption(f"{len(result.rows):,} rows shown{more}, read in {result.elapsed_ms:.1f} ms.")


def column_editor(project: Any, kb: Any, info: Any) -> None:
    st.caption("Change a column's type or free-text flag, then apply: the table is rebuilt from its own rows in "
               "one transaction (a value that does not fit is reported and nothing changes).")
    frame = pd.DataFrame([{"column": c.name, "type": c.type, "free text": c.free_text} for c in info.columns])
    edited = st.data_editor(
        frame, hide_index=True, width="stretch", key=f"knowledge.columns.{info.name}", disabled=["column"],
        column_config={"type": st.column_config.SelectboxColumn("type", options=list(kb_io.COLUMN_TYPES),
                                                                required=True),
                       "free text": st.column_config.CheckboxColumn("free text")})
    changed = not edited.equals(frame)
    if st.button("Apply column types", disabled=not changed, key=f"knowledge.retype.{info.name}"):
        types = {r["column"]: r["type"] for r in edited.to_dict("records")}
        free = [r["column"] for r in edited.to_dict("records") if r["free text"]]
        try:
            report = kb_io.retype_table(project, project.kb_path(), info.name, types, free)
        except GenieError as exc:
            st.error(f"Not changed: {exc}")
            return
        session.flash(f"Rebuilt {report.table} with the new column types ({report.rows:,} rows).")
        st.rerun()


def derive_panel(project: Any, kb: Any, table: str) -> None:
    st.caption("Derive the `kb` worksheet for this table (columns become fields; few-valued text columns become "
               "Enums) and optionally a `type` worksheet for its rows. They go into the worksheet draft; review "
               "and save them on the Worksheets page.")
    type_name = st.text_input("Row type name (optional)", key=f"knowledge.type.{table}",
                              placeholder="e.g. Restaurant")
    try:
        kb_ws, row_type = kb_io.derive(kb, table, type_name.strip() or None)
    except GenieError as exc:
        st.error(str(exc))
        return
    derived = [w for w in (kb_ws, row_type) if w is not None]
    spec = session.draft_spec(project)
    exists = [w.name for w in derived if spec.worksheet(w.name) is not None]
    st.dataframe(pd.DataFrame([{"worksheet": w.name, "kind": w.kind, "field": f.name, "type": f.type,
                                "enum values": ", ".join(f.enum_names), "free text": f.free_text}
                               for w in derived for f in w.fields]), hide_index=True, width="stretch", height=260)
    label = "Update the worksheets in the draft" if exists else "Add the worksheets to the draft"
    if st.button(label, key=f"knowledge.derive.{table}", type="primary"):
        new, notes = kb_io.apply_derived(spec, derived)
        session.update_draft(project, new)
        session.flash("Draft updated: " + "; ".join(notes) + ". Save it on the Worksheets page.")
        st.rerun()


def sql_console(kb: Any, default_table: str | None) -> None:
    default = f"SELECT * FROM {default_table} LIMIT 20" if default_table else "SELECT 1"
    sql = st.text_area("Read-only SQL", value=default, height=110, key=f"knowledge.sql.{default_table}")
    if st.button("Run query", key="knowledge.run", icon=":material/play_arrow:"):
        try:
            result = kb_io.run_query(kb, sql)
        except KnowledgeError as exc:
            st.error(f"Query failed: {exc}")
            return
        more = " (more rows matched; only the first 1,000 are shown)" if result.truncated else ""
        st.success(f"{len(result.rows):,} row(s) in {result.elapsed_ms:.1f} ms{more}")
        st.dataframe(pd.DataFrame([{k: _cell(v) for k, v in r.items()} for r in result.rows],
                                  columns=result.columns), hide_index=True, width="stretch")
