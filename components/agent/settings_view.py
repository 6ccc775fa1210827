"""Widgets of the Settings page: a backend per language component, the API key, and connection tests.

Choices live in the browser session (`session.backend_settings()`); a typed API key
stays in memory for this session only. The default (offline parser, offline
knowledge parser, template responses) needs no key and no network.
"""

from __future__ import annotations

import os

import streamlit as st
from pydantic import ValidationError

from components.agent import backends as bk
from components import session
from core_engine.llm.client import LLMConfig

HELP = {
    "parser": "offline: deterministic rules, no network · formal: you type formal statements · "
              "llm: the paper's contextual semantic parser",
    "knowledge_parser": "offline: value matching and full-text search · llm: text-to-SQL",
    "rg": "template: deterministic text from the acts · llm: the paper's response generator",
}


def component_panel(component: str) -> None:
    settings = session.backend_settings()
    choices = bk.CHOICES[component]
    current = settings.choice(component)
    st.markdown(f"#### {bk.LABELS[component]}")
    choice = st.radio("Backend", choices, index=choices.index(current), horizontal=True,
                      key=f"settings.{component}.backend", help=HELP[component])
    if choice != current:
        session.set_backend_settings(settings.with_choice(component, choice))
        settings = session.backend_settings()
    config = settings.llm[component]
    disabled = choice != "llm"
    base_url = st.text_input("Base URL", value=config.base_url or "", disabled=disabled,
                             key=f"settings.{component}.base_url",
                             placeholder="http://localhost:11434/v1",
                             help="Empty: $GENIE_LLM_BASE_URL, else $OPENAI_BASE_URL, else OpenAI.")
    model = st.text_input("Model", value=config.model, disabled=disabled, key=f"settings.{component}.model")
    c3, c4 = st.columns(2)
    temperature = c3.slider("Temperature", 0.0, 2.0, float(config.temperature), 0.05, disabled=disabled,
                            key=f"settings.{component}.temperature")
    max_tokens = c4.number_input("Max tokens", 16, 32000, int(config.max_tokens), 16, disabled=disabled,
                                 key=f"settings.{component}.max_tokens")
    try:
        new = LLMConfig(**{**config.model_dump(), "base_url": base_url or None, "model": model.strip() or config.model,
                           "temperature": temperature, "max_tokens": int(max_tokens)})
    except ValidationError as exc:
        st.error("; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors()))
        return
    if new != config:
        session.set_backend_settings(settings.with_config(component, new))
    if st.button("Test connection", key=f"settings.{component}.test", icon=":material/network_check:",
                 help="Sends one tiny request to this endpoint (even when the backend is not llm)."):
        with st.spinner("Asking the endpoint..."):
            ok, message = bk.check_connection(session.backend_settings(), component)
        (st.success if ok else st.error)(message, icon=":material/check_circle:" if ok else ":material/error:")


def api_key_panel() -> None:
    settings = session.backend_settings()
    env = settings.llm["parser"].api_key_env
    present = bool(os.environ.get(env))
    st.markdown("#### API key")
    source = st.radio("Where the key comes from", ["environment", "typed in for this session"],
                      index=1 if settings.api_key else 0, horizontal=True, key="settings.key.source",
                      help="A typed key is kept in this browser session's memory only: it is never written to a "
                           "project, a bundle or a log.")
    if source == "environment":
        st.caption(f"${env} is {'set' if present else 'not set'} on the server. Local endpoints "
                   "(localhost, 127.0.0.1) need no key.")
        if settings.api_key:
            session.set_backend_settings(bk.BackendSettings(**{**settings.__dict__, "api_key": None}))
        return
    key = st.text_input("API key", value=settings.api_key or "", type="password", key="settings.key.value")
    if (key or None) != settings.api_key:
        session.set_backend_settings(bk.BackendSettings(**{**settings.__dict__, "api_key": key or None}))


def summary() -> None:
    settings = session.backend_settings()
    uses = settings.uses_llm()
    if uses:
        st.info("The Playground runs with an LLM for: " + ", ".join(bk.LABELS[c].lower() for c in uses) + ".")
    else:
        st.success("Embedded default: offline parser, offline knowledge parser and template responses. "
                   "No API key and no network needed.", icon=":material/offline_bolt:")
