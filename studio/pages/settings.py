"""Settings: parser / knowledge parser / response generator backends, API key, test connection."""

import streamlit as st

from components.agent import backends
from components.agent import settings_view

st.title("Settings")
summary = st.container()  # filled last, so it reflects this run's choices
for column, component in zip(st.columns(len(backends.COMPONENTS)), backends.COMPONENTS):
    with column.container(border=True):
        settings_view.component_panel(component)
with st.container(border=True):
    settings_view.api_key_panel()
st.caption("These settings belong to this browser session. The API key is never written to disk.")
with summary:
    settings_view.summary()
