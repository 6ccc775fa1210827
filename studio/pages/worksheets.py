"""Worksheets: the spec in the paper's spreadsheet layout, with lint, undo, versions, diff and restore."""

import streamlit as st

from components import session
from components.worksheets import grid_editor
from components.worksheets import inspector
from components.worksheets import lint_panel
from components.worksheets import versions_view

project = session.require_project()
st.title(f"Worksheets · {project.name}")
session.show_flashes()
with st.container():  # always there, so the grid below keeps its place (and its frame) on reruns
    versions_view.kept_draft_offer(project)
    versions_view.newer_version_notice(project)
spec = session.draft_spec(project)
diagnostics = lint_panel.diagnostics_for(spec, session.kb_for(project))
errors = sum(d.severity == "error" for d in diagnostics)

grid_col, lint_col = st.columns([5, 1])
with grid_col:
    grid_editor.toolbar(project, spec)
    grid_editor.grid_editor(project, spec, diagnostics)
    with st.expander("Inspector: every attribute of the selected row", icon=":material/tune:",
                     key="worksheets.inspector"):
        inspector.inspector(project, spec)
    versions_view.save_form(project, spec, errors=errors)
with lint_col:
    lint_panel.lint_panel(spec, diagnostics)

with st.expander("Version history, diff and restore", icon=":material/history:", key="worksheets.history"):
    versions_view.history(project)
