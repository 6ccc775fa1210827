"""Widgets of the Projects page: the list, open, create, import, export, rename and delete.

Every storage call is wrapped so a GenieError becomes a readable message on the
page (and nothing on disk changes: the storage layer builds new files aside and
links them into place).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components import session
from components.projects.project_io import EXPORT_FORMATS, IMPORT_SUFFIXES, export_project, import_upload
from core_engine.errors import GenieError
from core_engine.spec.model import Spec

EMPTY = "Empty project"


def project_table(infos: list[Any]) -> None:
    current = session.current_project_name()
    rows = [{"": "▶" if i.name == current else "", "Project": i.name, "Description": i.description or "",
             "Versions": i.versions, "Modified": i.modified.astimezone().strftime("%Y-%m-%d %H:%M"),
             "Problem": i.error or ""} for i in infos]
    if not rows:
        st.info("The workspace is empty: create a project or import one.")
        return
    frame = pd.DataFrame(rows)
    if not frame["Problem"].any():
        frame = frame.drop(columns="Problem")
    st.dataframe(frame, hide_index=True, width="stretch")


def open_picker(infos: list[Any]) -> str | None:
    """A project picker with an Open button; returns the picked name (for the panels below)."""
    names = [i.name for i in infos if not i.error]
    if not names:
        return None
    current = session.current_project_name()
    col_pick, col_open = st.columns([4, 1], vertical_alignment="bottom")
    picked = col_pick.selectbox("Project", names, index=names.index(current) if current in names else 0,
                                key=f"projects.picked.{current}")  # follows the open project
    if col_open.button("Open project", type="primary", width="stretch", key="projects.open"):
        _guarded(lambda: session.open_project(picked), f"Opened {picked}.")
    return picked


def create_panel(workspace: Any) -> None:
    samples = {p.name: p for p in workspace.samples()}
    with st.form("projects.create", clear_on_submit=False, border=False):
        name = st.text_input("New project name", placeholder="my_agent")
        source = st.selectbox("Start from", [EMPTY, *samples], key="projects.create.source")
        if st.form_submit_button("Create", type="primary"):
            name = name.strip()

            def create() -> None:
                if not name:
                    raise GenieError("give the project a name")
                if workspace.exists(name):
                    raise GenieError(f"a project named {name!r} already exists")
                if source == EMPTY:
                    workspace.create(name, Spec(name=name)).close()
                else:
                    workspace.from_sample(samples[source], name).close()
                session.open_project(name)

            _guarded(create, f"Created {name} and opened it.")


def import_panel(workspace: Any) -> None:
    st.caption("A spec as canonical JSON, the paper's sheet layout (CSV), the reference implementation's "
               "CSV/JSON, or a `.genie` bundle / `.genieproj` project file.")
    upload = st.file_uploader("Spec file or bundle", type=list(IMPORT_SUFFIXES), key="projects.upload")
    name = st.text_input("Project name (optional)", key="projects.import.name",
                         placeholder="taken from the file name when empty")
    if st.button("Import", disabled=upload is None, key="projects.import"):
        def do_import() -> None:
            project = import_upload(workspace, upload.name, upload.getvalue(), name.strip() or None)
            session.open_project(project.name)
            session.flash(f"Imported {upload.name} as {project.name} and opened it.")

        _guarded(do_import)


def export_panel(project_name: str) -> None:
    project = session.project_file(project_name)
    st.caption(f"Export **{project_name}** (the head version). A bundle holds the spec, KB, tests, prompts and "
               "API module and runs headless with `genie chat FILE.genie`; API keys are never included.")
    cols = st.columns(len(EXPORT_FORMATS))
    for col, (fmt, (suffix, mime, label)) in zip(cols, EXPORT_FORMATS.items()):
        col.download_button(label, data=_lazy_export(project, fmt), file_name=f"{project_name}{suffix}", mime=mime,
                            key=f"projects.export.{fmt}", on_click="ignore", icon=":material/download:")


def _lazy_export(project: Any, fmt: str):
    return lambda: export_project(project, fmt).data


def rename_delete_panel(workspace: Any, project_name: str) -> None:
    with st.form("projects.rename", border=False):
        new = st.text_input("Rename to", value=project_name, key="projects.rename.new")
        if st.form_submit_button("Rename"):
            new = new.strip()
            if new and new != project_name:
                def rename() -> None:
                    workspace.rename(project_name, new)
                    session.project_renamed(project_name, new)

                _guarded(rename, f"Renamed {project_name} to {new}.")
    st.divider()
    if st.button(f"Delete {project_name}…", key="projects.delete", icon=":material/delete:"):
        confirm_delete(workspace, project_name)


@st.dialog("Delete project?")
def confirm_delete(workspace: Any, name: str) -> None:
    st.write(f"**{name}** will be moved to the workspace's `.trash/` folder, with all its versions, "
             "knowledge base, tests and logs.")
    yes, no = st.columns(2)
    if yes.button("Delete", type="primary", key="projects.delete.confirm", width="stretch"):
        def delete() -> None:
            workspace.delete(name)
            if session.current_project_name() == name:
                session.close_project()

        _guarded(delete, f"Deleted {name}.")
    if no.button("Cancel", key="projects.delete.cancel", width="stretch"):
        st.rerun()


def _guarded(action, success: str | None = None) -> None:
    """Run a storage action, then rerun; a GenieError is shown as a message instead of a traceback."""
    try:
        action()
    except GenieError as exc:
        session.flash(str(exc), "error")
    else:
        if success:
            session.flash(success)
    st.rerun()
