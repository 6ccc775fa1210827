"""Widgets of the Agent page: settings, the API editor with "Try it", few-shot examples and prompt overrides.

Every save is a version of the project (via `agent_model.save_agent_edit`, applied
to the latest spec, so it never drops what the worksheet grid or another tab saved).
The model is `components.agent.model` (no Streamlit).
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from components.agent import model as am
from components import session
from components.confirm import confirm
from core_engine.errors import GenieError
from core_engine.spec.model import PRIMITIVE_TYPES, Api

NEW_API = "+ New API"
AUTO = "(automatic: the first task worksheet without a predicate)"


def _save(project: Any, edit: Any, message: str, done: str) -> None:
    try:
        version = am.save_agent_edit(project, edit, message)
    except GenieError as exc:
        st.error(f"Not saved: {exc}")
        return
    session.flash(f"{done} Saved as version {version.number}.")
    st.rerun()


def settings_panel(project: Any) -> None:
    spec = project.spec()
    tasks = [w.name for w in spec.task_worksheets()]
    with st.form("agent.settings", border=True):
        st.markdown("#### The agent")
        name = st.text_input("Agent name", value=spec.name, key="agent.name")
        description = st.text_area("Description", value=spec.description, key="agent.description", height=68,
                                   placeholder="what the agent is for (shown to the language model)")
        prompt = st.text_area("Starting prompt", value=spec.starting_prompt, height=80, key="agent.prompt",
                              help="The agent's first message in every conversation")
        c3, c4 = st.columns(2)
        options = [AUTO, *tasks]
        current = spec.settings.start_worksheet if spec.settings.start_worksheet in tasks else AUTO
        start = c3.selectbox("Start worksheet", options, index=options.index(current), key="agent.start")
        today = c4.text_input("Today (fixed date for tests, optional)", value=spec.settings.today or "",
                              key="agent.today", placeholder="2024-07-06")
        orders = list(am.DATE_ORDERS)
        date_order = c3.selectbox("Dates like 3/9/47", orders, index=orders.index(spec.settings.date_order),
                                  format_func=am.DATE_ORDERS.get, key="agent.date_order",
                                  help="How the offline parser reads a date whose two numbers could each be the month")
        hour_readings = list(am.BARE_HOURS)
        bare_hours = c4.selectbox("Times like \"at 8\"", hour_readings, index=hour_readings.index(spec.settings.bare_hours),
                                  format_func=am.BARE_HOURS.get, key="agent.bare_hours",
                                  help="How the offline parser reads an hour said without am or pm, when the turn "
                                       "says no part of the day")
        submitted = st.form_submit_button("Save agent settings", type="primary", icon=":material/save:")
    if submitted:
        _save(project, lambda s: am.apply_settings(s, name=name, description=description, starting_prompt=prompt,
                                                   start_worksheet=None if start == AUTO else start, today=today,
                                                   date_order=date_order, bare_hours=bare_hours),
              "agent settings", "Agent settings saved.")


def api_panel(project: Any) -> None:
    spec = project.spec()
    names = am.api_names(spec)
    used = {w.api for w in spec.worksheets if w.api}
    st.markdown("#### APIs")
    if names:
        st.dataframe(pd.DataFrame([{"API": a.name, "kind": a.kind, "parameters": ", ".join(p.name for p in a.parameters),
                                    "used by": ", ".join(w.name for w in spec.worksheets if w.api == a.name)}
                                   for a in spec.apis]), hide_index=True, width="stretch", key="agent.apis.list")
    missing = sorted(used - set(names))
    if missing:
        st.warning(f"Used by worksheets but not declared: {', '.join(missing)}. Declare them here.",
                   icon=":material/warning:")
    choice = st.selectbox("API", [NEW_API, *missing, *names], key="agent.api.pick")
    api = spec.api(choice) or Api(name="" if choice == NEW_API else choice)
    editor(project, api, is_new=spec.api(choice) is None)
    if spec.api(choice) is not None:
        try_panel(project, spec.api(choice))


def editor(project: Any, api: Api, *, is_new: bool) -> None:
    key = f"agent.api.{api.name or 'new'}"
    with st.container(border=True, key=f"{key}.box"):
        c1, c2 = st.columns([2, 1])
        name = c1.text_input("API name", value=api.name, key=f"{key}.name", placeholder="book_appointment")
        kinds = ["mock", "python", "http"]
        kind = c2.radio("Kind", kinds, index=kinds.index(api.kind), horizontal=True, key=f"{key}.kind")
        description = st.text_input("Description", value=api.description, key=f"{key}.description")
        st.caption("Parameters (the worksheet's fields of the same names are passed)")
        params = pd.DataFrame([p.model_dump() for p in api.parameters] or [],
                              columns=["name", "type", "description", "required"])
        edited = st.data_editor(params, num_rows="dynamic", hide_index=True, width="stretch", key=f"{key}.params",
                                column_config={"type": st.column_config.SelectboxColumn(
                                    options=sorted(PRIMITIVE_TYPES), default="str"),
                                    "required": st.column_config.CheckboxColumn(default=True)})
        fields: dict[str, Any] = {"name": name, "kind": kind, "description": description,
                                  "parameters": edited.to_dict("records"), "timeout_s": api.timeout_s}
        mock_text = st.text_area("Mock response template (JSON; {param} and {transaction_id} are filled in)",
                                 value=json.dumps(api.mock_result, indent=2), height=110, key=f"{key}.mock",
                                 disabled=kind != "mock")
        if kind == "python":
            _python_panel(project, api, fields, key)
        if kind == "http":
            fields["url"] = st.text_input("URL (POST, JSON body of the parameters)", value=api.url or "",
                                          key=f"{key}.url", placeholder="https://example.com/book")
            headers = st.text_area("Headers (JSON; secrets as ${env:NAME})", value=json.dumps(api.headers, indent=2),
                                   height=80, key=f"{key}.headers")
        c3, c4 = st.columns([1, 1])
        if c3.button("Declare API" if is_new else "Save API", type="primary", icon=":material/save:",
                     key=f"{key}.save", width="stretch"):
            try:
                fields["mock_result"] = am.parse_json_object(mock_text, "the mock response template")
                if kind == "http":
                    fields["headers"] = am.parse_json_object(headers, "the headers")
            except GenieError as exc:
                st.error(str(exc))
                return
            old = None if is_new else api.name
            _save(project, lambda s: am.upsert_api(s, fields, old_name=old), f"API {name}",
                  f"API '{name}' {'declared' if is_new else 'saved'}.")
        if not is_new and c4.button("Delete API", icon=":material/delete:", key=f"{key}.delete", width="stretch"):
            confirm(f"Delete API {api.name}?", f"The API **{api.name}** is removed from the spec (as a new "
                    "version; restore it from the version history).", "delete",
                    lambda: am.save_agent_edit(project, lambda s: am.delete_api(s, api.name), f"deleted API {api.name}"),
                    done=f"Deleted API '{api.name}'.")


def _python_panel(project: Any, api: Api, fields: dict[str, Any], key: str) -> None:
    fields["function"] = st.text_input("Function in api.py (default: the API name)", value=api.function or "",
                                       key=f"{key}.function")
    code = project.files().get("api.py")
    if code is None:
        st.info("The project has no api.py. Add one with `genie` (folder export/import) to back python APIs.")
        return
    st.caption("api.py (read-only here: project code runs only when trusted)")
    st.code(code, language="python")
    trust = _trust_api(project)
    if trust is None:
        st.caption("Code trust is not available in this build, so the studio does not run api.py from 'Try it'.")
        return
    if trust["is_trusted"](project):
        st.success("This code is trusted for this project.", icon=":material/verified_user:")
    elif st.button("Trust this code", key=f"{key}.trust", icon=":material/shield:"):
        confirm("Trust this code?", "api.py will run inside the studio and the agent with your permissions. "
                "Trust it only if you wrote or reviewed it.", "trust it", lambda: trust["trust"](project),
                done="The code is trusted.")


def _trust_api(project: Any = None) -> dict[str, Any] | None:
    """The project's code-trust actions when this build has them (issue 13: `ProjectFile.code_trusted()` and
    `ProjectFile.trust_code(digest)`); None otherwise, and then python APIs are shown read-only."""
    if project is None or not (callable(getattr(project, "code_trusted", None))
                               and callable(getattr(project, "trust_code", None))):
        return None

    def trust(p: Any) -> None:
        try:  # trust exactly the code that was shown (a change in between is refused by storage)
            from storage.trust import code_digest  # type: ignore[import-not-found]
        except ImportError:
            p.trust_code()
            return
        p.trust_code(code_digest(p.files().get("api.py", "")))

    return {"is_trusted": lambda p: p.code_trusted(), "trust": trust}


def try_panel(project: Any, api: Api) -> None:
    with st.expander(f"Try {api.name} with sample values", icon=":material/play_circle:", expanded=True,
                     key=f"agent.try.{api.name}"):
        samples = am.sample_params(api)
        values = {}
        cols = st.columns(max(1, min(4, len(samples))))
        for i, (pname, sample) in enumerate(samples.items()):
            values[pname] = cols[i % len(cols)].text_input(pname, value=sample, key=f"agent.try.{api.name}.{pname}")
        trust = _trust_api(project)
        if api.kind == "python" and (trust is None or not trust["is_trusted"](project)):
            st.caption("A python API runs here only once its code is trusted.")
            return
        if st.button(f"Try {api.name}", icon=":material/play_arrow:", key=f"agent.try.{api.name}.go"):
            try:
                module = session.agent_for(project).api_module if api.kind == "python" else None
                result = am.try_api(project.spec(), api.name, values, module=module)
            except GenieError as exc:
                st.error(str(exc))
                return
            st.caption("The API answered:")
            st.json(result)


def prompts_panel(project: Any) -> None:
    files = project.files()
    st.markdown("#### Few-shot examples and prompt templates")
    shots = st.text_area("Few-shot examples for the LLM parser (few_shots.json: a JSON list of "
                         '{"user": ..., "statements": ..., "state"?, "acts"?, "agent"?})',
                         value=files.get("few_shots.json", "[]"), height=140, key="agent.few_shots")
    if st.button("Save examples", key="agent.few_shots.save", icon=":material/save:"):
        try:
            from core_engine.llm.prompting import render_few_shots

            render_few_shots(json.loads(shots))
            project.put_file("few_shots.json", shots)
        except (GenieError, ValueError) as exc:
            st.error(f"Not saved: {exc}")
        else:
            session.flash("Few-shot examples saved.")
            st.rerun()
    name = st.selectbox("Prompt template", am.PROMPT_NAMES, key="agent.prompt.pick")
    path = f"prompts/{name}.jinja2"
    from core_engine.llm.prompting import BUILTIN_PROMPTS

    builtin = (BUILTIN_PROMPTS / f"{name}.jinja2").read_text(encoding="utf-8")
    overridden = path in files
    st.caption("Overridden by this project" if overridden else "The built-in template (edit and save to override)")
    text = st.text_area("Template", value=files.get(path, builtin), height=220, key=f"agent.prompt.{name}")
    c1, c2 = st.columns(2)
    if c1.button("Save override", key=f"agent.prompt.{name}.save", icon=":material/save:"):
        try:
            project.put_file(path, text)
        except GenieError as exc:
            st.error(f"Not saved: {exc}")
        else:
            session.flash(f"Saved the override {path}.")
            st.rerun()
    if overridden and c2.button("Back to the built-in", key=f"agent.prompt.{name}.reset", icon=":material/undo:"):
        confirm(f"Remove the override of {name}?", "The built-in template is used again.", "remove",
                lambda: project.delete_file(path), done=f"Removed {path}.")
    with st.expander("The rendered parser prompt (start of a conversation)", key="agent.rendered"):
        try:
            messages = am.render_parser_prompt(project.spec(), project.files())
        except (GenieError, ValueError) as exc:
            st.error(str(exc))
        else:
            for m in messages:
                st.caption(m["role"])
                st.code(m["content"], language=None, wrap_lines=True)
