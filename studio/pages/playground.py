"""Playground: chat with the agent beside the formal state and the trace of every turn.

Thin: the model is `components.playground.model.Playground` (kept per project in session
state), the widgets are in `components/playground/`; the chat and the inspector below the
conversation picker are one fragment (`components/playground/body.py`). Every turn is
recorded in a conversation log of the project file.
"""

import streamlit as st

from components import session as ss
from components.playground.body import PLAYGROUND_CSS, chat_and_inspector, outside
from components.playground.controls import conversation_bar

project = ss.require_project()
agent = ss.agent_for(project)
settings = ss.backend_settings()
pg = ss.playground_store(project.name)

st.title("Playground")
ss.show_flashes()
conversation_bar(pg, project, agent, settings)
if pg.current is None:
    st.stop()

st.html(PLAYGROUND_CSS)  # style only, drawn by full runs only: a chat turn's fragment run does not re-send it
chat_and_inspector(pg, project, agent, settings, outside(pg, project))
