"""Genie Studio: the Streamlit entry point (`streamlit run studio/app.py`, or `genie studio`).

Only navigation lives here; each page is a thin script under `studio/pages/`.
The url paths are a contract: end-to-end tests open `http://host:port/<url_path>`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `streamlit run studio/app.py` from a checkout without `pip install -e .`
    sys.path.insert(0, str(ROOT))

from components import session  # noqa: E402

PROFILE_DIR = os.environ.get("GENIE_STUDIO_PROFILE", "")

st.set_page_config(page_title="Genie Studio", page_icon="🧞", layout="wide")

PAGES = [
    st.Page("pages/projects.py", title="Projects", url_path="projects", icon=":material/folder_open:"),
    st.Page("pages/worksheets.py", title="Worksheets", url_path="worksheets", icon=":material/table:"),
    st.Page("pages/agent.py", title="Agent", url_path="agent", icon=":material/smart_toy:"),
    st.Page("pages/graph.py", title="Graph", url_path="graph", icon=":material/hub:"),
    st.Page("pages/knowledge.py", title="Knowledge", url_path="knowledge", icon=":material/database:"),
    st.Page("pages/playground.py", title="Playground", url_path="playground", icon=":material/forum:"),
    st.Page("pages/tests.py", title="Tests", url_path="tests", icon=":material/checklist:"),
    st.Page("pages/settings.py", title="Settings", url_path="settings", icon=":material/settings:"),
]



def _home() -> None:
    """The root URL: Streamlit serves the default page at "/" only, so it is a hidden hop to Projects and
    every visible page keeps its own url path (the e2e tests rely on /projects)."""
    st.switch_page(PAGES[0])


HOME = st.Page(_home, title="Genie Studio", url_path="home", default=True, visibility="hidden")
page = st.navigation([HOME, *PAGES])
with st.sidebar:
    name = session.current_project_name()
    st.caption(f"Project: **{name}**" if name else "No project open")
session.keep_project_in_url()  # a reload (or a shared link) reopens the same project on the same page
if PROFILE_DIR:  # GENIE_STUDIO_PROFILE=DIR: one cProfile file per script run, to find what a rerun costs
    import cProfile
    import time

    with cProfile.Profile() as profiler:
        page.run()
    profiler.dump_stats(str(Path(PROFILE_DIR) / f"run-{time.time_ns()}.prof"))
else:
    page.run()
