"""Agent: name, description, starting prompt, start worksheet, `today`; the APIs with "Try it";
few-shot examples and prompt-template overrides with the rendered prompt. Every save is a version."""

import streamlit as st

from components.agent import view
from components import session

project = session.require_project()
st.title(f"Agent · {project.name}")
session.show_flashes()
settings_tab, apis_tab, prompts_tab = st.tabs(["Settings", "APIs", "Prompts and examples"], key="agent.tabs")
with settings_tab:
    view.settings_panel(project)
with apis_tab:
    view.api_panel(project)
with prompts_tab:
    view.prompts_panel(project)
