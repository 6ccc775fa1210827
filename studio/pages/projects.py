"""Projects: list, open, create (empty or from a sample), import, export, rename, delete."""

import streamlit as st

from components.projects import view
from components import session

st.title("Projects")
session.show_flashes()
workspace = session.workspace()
infos = workspace.list()
view.project_table(infos)
picked = view.open_picker(infos)

tabs = st.tabs(["Create", "Import", "Export", "Rename or delete"], key="projects.tabs")
with tabs[0]:
    view.create_panel(workspace)
with tabs[1]:
    view.import_panel(workspace)
with tabs[2]:
    if picked:
        view.export_panel(picked)
    else:
        st.info("No project to export yet.")
with tabs[3]:
    if picked:
        view.rename_delete_panel(workspace, picked)
    else:
        st.info("No project yet.")
