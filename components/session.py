"""The studio's session: the ONE module that touches `st.session_state`.

Pages and widgets ask here for the workspace, the open project, the worksheet
draft being edited, and the backend settings; nothing else reads or writes
session state, so what a browser tab remembers is listed in one place (the
`_KEY_*` names below). Cached resources (`st.cache_resource`) hold the
Workspace and loaded Agents, keyed so that a save or a re-import is picked up.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import streamlit as st

from components.agent.backends import BackendSettings

_KEY_PROJECT = "genie.project"          # name of the open project
_KEY_DRAFT = "genie.draft"              # worksheets page: {"project", "base", "spec", "undo": [...]}
_KEY_BACKENDS = "genie.backends"        # BackendSettings (API key only here, never on disk)
_KEY_FLASH = "genie.flash"              # one-shot messages shown after a rerun
_KEY_SELECTED = "genie.selected"        # per-widget selection (diagnostic -> grid row, graph node)

UNDO_LIMIT = 50


# -- workspace and project ------------------------------------------------------


def workspace_root() -> Path:
    """$GENIE_WORKSPACE, else ./.workspace (the storage default)."""
    return Path(os.environ.get("GENIE_WORKSPACE") or Path.cwd() / ".workspace").resolve()


@st.cache_resource(show_spinner="Opening the workspace...")
def _workspace(root: str) -> Any:
    from storage import Workspace

    ws = Workspace(root)
    if not os.environ.get("GENIE_NO_SAMPLES"):
        ws.ensure_samples()  # the four samples are there on first use
    return ws


def workspace() -> Any:
    """The studio's `storage.Workspace` (samples materialised on first use)."""
    return _workspace(str(workspace_root()))


def current_project_name() -> str | None:
    """The open project's name; `?project=NAME` in the URL opens that project (deep links, tests)."""
    wanted = st.query_params.get("project")
    if wanted and wanted != st.session_state.get(_KEY_PROJECT) and workspace().exists(wanted):
        st.session_state[_KEY_PROJECT] = wanted
        st.session_state.pop(_KEY_DRAFT, None)
    return st.session_state.get(_KEY_PROJECT)


@st.cache_resource(show_spinner=False, max_entries=32)
def _project_file(path: str, inode: int) -> Any:
    """One open ProjectFile per file (they are thread-safe); the inode key notices a replaced file."""
    from storage import ProjectFile

    return ProjectFile(path)


def project_file(name: str) -> Any:
    """The project `name` of the workspace, opened once and shared across reruns."""
    path = workspace().path_of(name)
    try:
        inode = path.stat().st_ino
    except FileNotFoundError:
        return workspace().open(name)  # raises the storage error that names the project
    return _project_file(str(path), inode)


def keep_project_in_url() -> None:
    """`?project=NAME` on every page while a project is open (Streamlit drops query params on navigation)."""
    name = st.session_state.get(_KEY_PROJECT)
    if name and st.query_params.get("project") != name:
        st.query_params["project"] = name


def current_project() -> Any | None:
    """The open `storage.ProjectFile`, or None (also when it was deleted or renamed elsewhere).

    A project that cannot be opened (a damaged file, a bad name in ``?project=``) is shown
    as an error naming it, and closed, on whichever page asked: never a traceback.
    """
    from core_engine.errors import GenieError

    try:
        name = current_project_name()
        if not name:
            return None
        if not workspace().exists(name):
            st.session_state.pop(_KEY_PROJECT, None)
            return None
        return project_file(name)
    except GenieError as exc:
        from components.safe_text import plain
        wanted = st.session_state.get(_KEY_PROJECT) or st.query_params.get("project") or "?"
        st.error(f"The project {plain(wanted)} cannot be opened: {plain(exc.message)}", icon=":material/error:")
        close_project()
        return None


def open_project(name: str) -> Any:
    """Make `name` the open project; a draft of another project is dropped."""
    project = project_file(name)
    st.session_state[_KEY_PROJECT] = name
    st.query_params["project"] = name
    draft = st.session_state.get(_KEY_DRAFT)
    if draft and draft.get("project") != name:
        st.session_state.pop(_KEY_DRAFT, None)
    return project


def close_project() -> None:
    st.session_state.pop(_KEY_PROJECT, None)
    if "project" in st.query_params:
        del st.query_params["project"]
    st.session_state.pop(_KEY_DRAFT, None)


def project_renamed(old: str, new: str) -> None:
    """Keep the open project (and its draft) across a rename."""
    if st.session_state.get(_KEY_PROJECT) == old:
        st.session_state[_KEY_PROJECT] = new
        if "project" in st.query_params:
            st.query_params["project"] = new
        draft = st.session_state.get(_KEY_DRAFT)
        if draft:
            draft["project"] = new


def require_project() -> Any:
    """The open project; otherwise a hint with a link to Projects, and the page stops."""
    project = current_project()
    if project is None:
        st.info("No project is open. Open a sample or create a project first.")
        st.page_link("pages/projects.py", label="Go to Projects", icon=":material/folder_open:")
        st.stop()
    return project


# -- cached agents --------------------------------------------------------------


@st.cache_resource(show_spinner="Loading the agent...", max_entries=8)
def _agent(path: str, version: int, schema: int, trusted: bool = False) -> Any:
    from storage import ProjectFile

    with ProjectFile(path) as project:
        agent = project.agent()
    if os.environ.get("GENIE_WARM_VECTORS") == "1":  # set by `genie studio`: the first free-text question need not wait
        from core_engine.knowledge.vectors import warm_vectors
        warm_vectors(agent.kb_path, agent.spec.settings.embedding_model)
    return agent


def agent_for(project: Any) -> Any:
    """The project's Agent, cached by (file, head version, schema version): a save or a KB import
    reloads it; a chat turn's log write does not (the file's mtime changed every turn, so the
    agent was rebuilt on every turn).

    An untrusted api.py is shown for review first (components.agent.code_trust); the agent then runs
    without it. An agent that cannot be built is an error on the page, not a traceback.
    """
    from components.agent.code_trust import review_code
    from core_engine.errors import GenieError

    trusted = review_code(project)  # part of the key: trusting the code reloads the agent with it
    try:
        return _agent(str(Path(project.path)), project.head().number, project.schema_version(), trusted)
    except GenieError as exc:
        from components.safe_text import plain
        st.error(f"The agent of {plain(project.name)} cannot be loaded: {plain(exc.message)}", icon=":material/error:")
        st.stop()


@st.cache_resource(show_spinner=False, max_entries=8)
def _kb(path: str, mtime_ns: int) -> Any:
    from core_engine.knowledge.kb import SQLiteKB

    return SQLiteKB(path)


def kb_for(project: Any) -> Any | None:
    """A read-only SQLiteKB on the project's KB (None when it has no tables); reopened after an import."""
    if not project.kb_tables():
        return None
    path = Path(project.kb_path())
    return _kb(str(path), path.stat().st_mtime_ns)


# -- worksheet draft (unsaved edits with undo) -------------------------------------


def draft(project: Any) -> dict[str, Any]:
    """The unsaved spec being edited for `project`: {"spec", "base", "undo", "kept"}; created from the head.

    "kept" is a draft found in the project file (edits a reload or another tab left unsaved), offered back
    by the Worksheets page rather than applied behind the user's back."""
    d = st.session_state.get(_KEY_DRAFT)
    if not d or d.get("project") != project.name:
        from storage.drafts import load_draft

        head = project.head()
        d = {"project": project.name, "base": head.number, "spec": project.spec(), "undo": []}
        kept = load_draft(project)
        if kept is not None and kept.spec != d["spec"]:
            d["kept"] = kept
        st.session_state[_KEY_DRAFT] = d
    return d


def restore_kept_draft(project: Any) -> None:
    """Take the draft kept in the file as the draft being edited (it keeps its base version)."""
    d = draft(project)
    kept = d.pop("kept", None)
    if kept is not None:
        d["undo"] = (d["undo"] + [d["spec"]])[-UNDO_LIMIT:]
        d["spec"], d["base"] = kept.spec, kept.base


def drop_kept_draft(project: Any) -> None:
    from storage.drafts import clear_draft

    draft(project).pop("kept", None)
    clear_draft(project)


def _persist(project: Any, d: dict[str, Any]) -> None:
    """Write the draft to the project file (a reload offers it back); a read-only file keeps it in the tab."""
    from storage.drafts import clear_draft, save_draft

    if getattr(project, "readonly", False):
        return
    if d["spec"] == project.spec(d["base"]):
        clear_draft(project)
    else:
        save_draft(project, d["spec"], base=d["base"])


def draft_spec(project: Any) -> Any:
    return draft(project)["spec"]


def update_draft(project: Any, spec: Any) -> None:
    """Record an edit (the old spec goes on the undo stack)."""
    d = draft(project)
    if spec == d["spec"]:
        return
    d["undo"] = (d["undo"] + [d["spec"]])[-UNDO_LIMIT:]
    d["spec"] = spec
    _persist(project, d)


def undo_draft(project: Any) -> bool:
    d = draft(project)
    if not d["undo"]:
        return False
    d["spec"] = d["undo"].pop()
    _persist(project, d)
    return True


def reset_draft(project: Any) -> None:
    """Forget unsaved edits (also the copy in the file): the next `draft()` starts again from the head."""
    from storage.drafts import clear_draft

    st.session_state.pop(_KEY_DRAFT, None)
    if not getattr(project, "readonly", False):
        clear_draft(project)
    draft(project)


def rebase_draft(project: Any, spec: Any, base: int) -> None:
    """The draft becomes `spec` edited from version `base` (after a merge onto a newer version)."""
    d = draft(project)
    d["spec"], d["base"] = spec, base
    _persist(project, d)


def draft_saved(project: Any, version: int) -> None:
    """After a save: the draft is now based on `version`, and undo starts afresh."""
    from storage.drafts import clear_draft

    d = draft(project)
    d["base"] = version
    d["undo"] = []
    d.pop("kept", None)
    if not getattr(project, "readonly", False):
        clear_draft(project)


def draft_is_dirty(project: Any) -> bool:
    d = draft(project)
    return d["spec"] != project.spec(d["base"])


# -- backend settings -------------------------------------------------------------


def backend_settings() -> BackendSettings:
    """Parser / knowledge parser / response generator choices and LLM configs for this session."""
    settings = st.session_state.get(_KEY_BACKENDS)
    if settings is None:
        settings = BackendSettings()
        st.session_state[_KEY_BACKENDS] = settings
    return settings


def set_backend_settings(settings: BackendSettings) -> None:
    st.session_state[_KEY_BACKENDS] = settings


# -- small UI state -------------------------------------------------------------------


def flash(message: str, kind: str = "success") -> None:
    """A message shown once, after the next rerun (e.g. 'saved version 4')."""
    st.session_state.setdefault(_KEY_FLASH, []).append((kind, message))


def show_flashes() -> None:
    """Show pending flashes inside one container that is always there, so the elements after it keep
    their place (and their state, e.g. the open tab) on the next rerun."""
    box = st.container()
    for kind, message in st.session_state.pop(_KEY_FLASH, []):
        getattr(box, kind, box.info)(message)


def has_flashes() -> bool:
    return bool(st.session_state.get(_KEY_FLASH))


def selected(key: str, default: Any = None) -> Any:
    return st.session_state.get(_KEY_SELECTED, {}).get(key, default)


def select(key: str, value: Any) -> None:
    st.session_state.setdefault(_KEY_SELECTED, {})[key] = value


def widget_value(key: str, default: Any = None) -> Any:
    """The current value of a widget by its key (for widgets that feed other widgets)."""
    return st.session_state.get(key, default)


def set_widget_value(key: str, value: Any) -> None:
    st.session_state[key] = value


# -- playground and tests pages (STUDIO-B) ------------------------------------------------

_KEY_PLAYGROUND = "genie.playground"    # {project name: components.playground.model.Playground}
_KEY_TEST_RUNS = "genie.test_runs"      # {project name: the Tests page's last run (results, coverage)}


def playground_store(project_name: str) -> Any:
    """The playground of `project_name` in this browser tab (conversations, selection, replay)."""
    from components.playground.model import Playground

    store = st.session_state.setdefault(_KEY_PLAYGROUND, {})
    if project_name not in store:
        store[project_name] = Playground(project_name)
    return store[project_name]


def last_test_run(project_name: str) -> Any | None:
    return st.session_state.get(_KEY_TEST_RUNS, {}).get(project_name)


def set_last_test_run(project_name: str, run: Any) -> None:
    st.session_state.setdefault(_KEY_TEST_RUNS, {})[project_name] = run
