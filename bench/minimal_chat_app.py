"""The floor for a studio chat turn: the smallest Streamlit chat over the same engine.

bench/bench_playground.py serves it next to the studio (same Streamlit launch flags,
same sample, offline parser + template responses) and compares a turn's browser round
trip. Run by hand: streamlit run bench/minimal_chat_app.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core_engine import Agent  # noqa: E402


@st.cache_resource
def _agent() -> Agent:
    return Agent.load(ROOT / "sample_projects" / "restaurant_reservation")


if "session" not in st.session_state:
    st.session_state.session = _agent().new_session(parser="offline")
    st.session_state.messages = [("assistant", st.session_state.session.starting_prompt)]

for role, text in st.session_state.messages:
    with st.chat_message(role):
        st.markdown(text)

if prompt := st.chat_input("Your message"):
    reply = st.session_state.session.turn(prompt).response
    st.session_state.messages += [("user", prompt), ("assistant", reply)]
    with st.chat_message("user"):
        st.markdown(prompt)
    with st.chat_message("assistant"):
        st.markdown(reply)
