"""Knowledge: import tables (CSV/JSON/JSONL), preview them, set column types, derive the KB worksheet, query."""

import streamlit as st

from components.knowledge import view
from components import session

project = session.require_project()
st.title(f"Knowledge · {project.name}")
session.show_flashes()
kb = session.kb_for(project)
infos = kb.tables() if kb is not None else {}
view.table_overview(infos)

with st.expander("Import a table", expanded=not infos, icon=":material/upload_file:", key="knowledge.importer"):
    view.upload_panel(project)

table = view.pick_table(infos)
if table is not None:
    tabs = st.tabs(["Preview", "Column types", "Derive worksheet", "SQL console", "Rename or delete"],
                   key="knowledge.tabs")
    with tabs[0]:
        view.preview(kb, table)
    with tabs[1]:
        view.column_editor(project, kb, infos[table])
    with tabs[2]:
        view.derive_panel(project, kb, table)
    with tabs[3]:
        view.sql_console(kb, table)
    with tabs[4]:
        view.manage_table(project, table)
