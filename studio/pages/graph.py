"""Graph: worksheets, fields, KB tables, types and APIs with their dependencies; lint problems outlined."""

import streamlit as st

from components import session
from components.graph import model as graph_model
from components.graph import panel as graph_panel
from components.worksheets import lint_panel

project = session.require_project()
st.title(f"Graph · {project.name}")
spec = session.draft_spec(project)  # unsaved grid edits show here too
diagnostics = lint_panel.diagnostics_for(spec, session.kb_for(project))
graph = graph_model.build_graph(spec, diagnostics)

options = graph_panel.controls(graph)
view = graph_panel.view_of(graph, options)
graph_panel.legend()
draw_col, info_col = st.columns([3, 1])
with info_col:
    node = graph_panel.node_picker(view)
    graph_panel.attributes(view, node)
with draw_col:
    graph_panel.draw(view, options, node)
    graph_panel.problems(graph)
