"""Saving the draft as a version, and the version history with diff and restore.

A save passes the version the draft started from (`base_version`): if someone
else saved in between, storage raises ConflictError and the page says so while
keeping the edits in the draft, offering to save them over the newer version.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components import session
from core_engine.errors import GenieError
from core_engine.spec import Spec


def diff_frame(diff: Any) -> pd.DataFrame:
    rows = [{"Change": c.op, "Where": c.path, "Old": _short(c.old), "New": _short(c.new)} for c in diff]
    return pd.DataFrame(rows, columns=["Change", "Where", "Old", "New"])


def _short(value: Any, limit: int = 120) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def save_form(project: Any, spec: Spec, *, errors: int) -> None:
    d = session.draft(project)
    from storage import ConflictError, diff_specs

    pending = diff_specs(project.spec(d["base"]), spec)
    st.markdown(f"Editing from version **{d['base']}** · "
                + (f"unsaved: {pending.summary()}" if pending else "no unsaved edits"))
    with st.form("worksheets.save", border=False, enter_to_submit=True):
        cols = st.columns([4, 1], vertical_alignment="bottom")
        message = cols[0].text_input("Version message (optional)", key="worksheets.save.message",
                                     placeholder="what changed and why")
        submitted = cols[1].form_submit_button("Save version", type="primary", disabled=not pending,
                                               width="stretch")
    if errors and pending:
        st.caption(f"The draft has {errors} lint error(s); you can still save it, but it may not run.")
    if submitted:
        _save(project, spec, message, base=d["base"], conflict_type=ConflictError)
    conflict = session.selected("worksheets.conflict")
    if conflict:
        st.error(f"Not saved: {conflict['message']}. Your edits are still here.", icon=":material/sync_problem:")
        c1, c2 = st.columns(2)
        if c1.button(f"Save over version {conflict['head']}", key="worksheets.overwrite"):
            _save(project, spec, conflict["text"], base=conflict["head"], conflict_type=ConflictError)
        if c2.button("Discard my edits and load the latest", key="worksheets.reload"):
            session.select("worksheets.conflict", None)
            session.reset_draft(project)
            st.rerun()


def _save(project: Any, spec: Spec, message: str, *, base: int, conflict_type: type) -> None:
    try:
        version = project.save_spec(spec, message.strip(), base_version=base, author="studio")
    except conflict_type as exc:
        session.select("worksheets.conflict", {"message": exc.message, "head": exc.head.number, "text": message})
        st.rerun()
    except GenieError as exc:
        session.flash(f"Not saved: {exc}", "error")
        st.rerun()
    session.select("worksheets.conflict", None)
    session.draft_saved(project, version.number)
    session.flash(f"Saved version {version.number}" + (f": {message.strip()}" if message.strip() else "."))
    st.rerun()


def history(project: Any) -> None:
    versions = project.versions()
    frame = pd.DataFrame([{"Version": v.number, "Saved": v.created.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
                           "Message": v.message, "Author": v.author, "Changes": getattr(v, "summary", "")}
                          for v in versions])
    st.dataframe(frame, hide_index=True, width="stretch", height=min(320, 38 + 35 * len(versions)))
    numbers = [v.number for v in versions]
    if len(numbers) < 1:
        return
    c1, c2 = st.columns(2)
    new = c1.selectbox("Compare version", numbers, index=0, key="versions.b")
    old = c2.selectbox("with version", numbers, index=min(1, len(numbers) - 1), key="versions.a")
    try:
        diff = project.diff(old, new)
    except GenieError as exc:
        st.error(str(exc))
        return
    if diff:
        st.caption(diff.summary())
        st.dataframe(diff_frame(diff), hide_index=True, width="stretch")
    else:
        st.caption("Those versions are identical.")
    d = session.draft(project)
    if st.button(f"Restore version {new}", key="versions.restore", icon=":material/history:",
                 disabled=new == numbers[0]):
        try:
            restored = project.restore(new)
        except GenieError as exc:
            session.flash(str(exc), "error")
        else:
            session.reset_draft(project)
            session.flash(f"Restored version {new} as version {restored.number}."
                          + (" Unsaved edits were discarded." if d["undo"] else ""))
        st.rerun()
