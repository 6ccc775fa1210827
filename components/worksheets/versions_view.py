"""Saving the draft as a version, and the version history with diff and restore.

A save passes the version the draft started from (`base_version`): if someone
else saved in between, storage raises ConflictError and the edits are merged
three-way onto the newer version (`storage.merge`); only a real conflict (both
sides changed the same attribute) stops, showing both values to choose from.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components import session
from core_engine.errors import GenieError
from core_engine.spec.model import Spec


def diff_frame(diff: Any) -> pd.DataFrame:
    rows = [{"Change": c.op, "Where": c.path, "Old": _short(c.old), "New": _short(c.new)} for c in diff]
    return pd.DataFrame(rows, columns=["Change", "Where", "Old", "New"])


def _short(value: Any, limit: int = 120) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def kept_draft_offer(project: Any) -> None:
    """Unsaved edits kept in the project file (a reload, a closed tab) are offered back, never applied silently."""
    from components.confirm import confirm
    from storage import diff_specs

    kept = session.draft(project).get("kept")
    if kept is None:
        return
    changes = diff_specs(project.spec(kept.base) if kept.base <= project.head().number else project.spec(),
                         kept.spec)
    with st.container(border=True, key="worksheets.kept"):
        st.info(f"Unsaved edits from {kept.saved.astimezone().strftime('%Y-%m-%d %H:%M')} (started from version "
                f"{kept.base}) were kept: {changes.summary()}.", icon=":material/restore_page:")
        c1, c2, _ = st.columns([2, 2, 4])
        if c1.button("Restore my unsaved edits", type="primary", key="worksheets.kept.restore", width="stretch"):
            session.restore_kept_draft(project)
            st.rerun()
        if c2.button("Discard them", key="worksheets.kept.discard", width="stretch"):
            confirm("Discard the kept edits?", f"{changes.summary()} will be lost. This cannot be undone.",
                    "discard", lambda: session.drop_kept_draft(project), done="The kept edits were discarded.")


def newer_version_notice(project: Any) -> None:
    """Say so when a version newer than the draft's base was saved (CLI, another tab, the Agent page).

    A draft without edits simply moves to the newest version; a draft with edits is merged onto it
    (three-way, `storage.merge`) on request, or when it is saved."""
    d = session.draft(project)
    head = project.head()
    if head.number == d["base"]:
        return
    from storage import diff_specs

    theirs = project.diff(d["base"], head.number)
    if not session.draft_is_dirty(project):
        session.rebase_draft(project, project.spec(), head.number)
        session.draft_saved(project, head.number)
        st.info(f"Now showing version {head.number} (saved after version {d['base']}"
                f"{' by ' + head.author if head.author else ''}): {theirs.summary()}.", icon=":material/update:")
        _changes(theirs, key="worksheets.newer.changes")
        return
    mine = diff_specs(project.spec(d["base"]), d["spec"])
    with st.container(border=True, key="worksheets.newer"):
        st.warning(f"Version {head.number} was saved after version {d['base']} that your edits started from"
                   f"{' (' + head.author + ': ' + (head.message or 'no message') + ')' if head.author else ''}.",
                   icon=":material/sync_problem:")
        c1, c2 = st.columns(2)
        with c1:
            st.caption(f"Their changes: {theirs.summary()}")
            st.dataframe(diff_frame(theirs), hide_index=True, width="stretch", key="worksheets.newer.theirs")
        with c2:
            st.caption(f"Your unsaved edits: {mine.summary()}")
            st.dataframe(diff_frame(mine), hide_index=True, width="stretch", key="worksheets.newer.mine")
        if st.button(f"Merge my edits onto version {head.number}", key="worksheets.merge", type="primary",
                     icon=":material/merge:"):
            _merge_into_draft(project)


def _changes(diff: Any, key: str) -> None:
    if diff:
        with st.expander("What changed", key=key):
            st.dataframe(diff_frame(diff), hide_index=True, width="stretch")


def _merge_into_draft(project: Any, choices: dict[str, str] | None = None) -> Any:
    """Merge the draft onto the head; with no (or all chosen) conflicts the draft moves onto the head."""
    from storage.merge import merge_specs

    d = session.draft(project)
    head = project.head()
    result = merge_specs(project.spec(d["base"]), project.spec(), d["spec"], choices)
    if result.unresolved:
        session.select("worksheets.conflict", {"head": head.number, "base": d["base"]})
        st.rerun()
    session.rebase_draft(project, result.spec, head.number)
    session.select("worksheets.conflict", None)
    session.flash(f"Your edits were merged onto version {head.number}"
                  + (f" ({len(result.conflicts)} conflict(s) settled as chosen)" if result.conflicts else "")
                  + ". Save to keep them.")
    st.rerun()


def conflict_panel(project: Any) -> None:
    """Both values of every conflicting cell, side by side; the user picks one per cell, then merges."""
    conflict = session.selected("worksheets.conflict")
    d = session.draft(project)
    if not conflict or conflict.get("base") != d["base"]:
        return
    from storage.merge import merge_specs

    head = project.head()
    result = merge_specs(project.spec(d["base"]), project.spec(), d["spec"])
    if not result.conflicts:
        session.select("worksheets.conflict", None)
        return
    with st.container(border=True, key="worksheets.conflicts"):
        st.error(f"{len(result.conflicts)} conflict(s) with version {head.number}: you and they changed the same "
                 "thing. Choose which value to keep for each; everything else is merged.",
                 icon=":material/call_split:")
        choices: dict[str, str] = {}
        for i, c in enumerate(result.conflicts[:40]):
            cols = st.columns([3, 3, 3, 2], vertical_alignment="center")
            cols[0].markdown(f"`{c.path}`")
            cols[1].caption(f"Version {head.number}")
            cols[1].code(_short(c.theirs) or "(empty)", language=None, wrap_lines=True)
            cols[2].caption("Mine")
            cols[2].code(_short(c.mine) or "(empty)", language=None, wrap_lines=True)
            pick = cols[3].radio(f"Keep for {c.path}", ["theirs", "mine"], horizontal=True,
                                 label_visibility="collapsed", key=f"worksheets.conflict.{i}",
                                 format_func=lambda v: f"version {head.number}" if v == "theirs" else "mine")
            choices[c.path] = pick
        if st.button("Merge with these choices", type="primary", key="worksheets.conflict.apply",
                     icon=":material/merge:"):
            _merge_into_draft(project, choices)


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
    conflict_panel(project)


def _save(project: Any, spec: Spec, message: str, *, base: int, conflict_type: type) -> None:
    """Save the draft; when a newer version exists the edits are merged onto it first (never a blind
    overwrite), and a real conflict stops the save until the user chooses."""
    from storage.merge import merge_specs

    try:
        version = project.save_spec(spec, message.strip(), base_version=base, author="studio")
    except conflict_type as exc:
        result = merge_specs(project.spec(base), project.spec(exc.head.number), spec)
        if result.unresolved:
            session.select("worksheets.conflict", {"head": exc.head.number, "base": base})
            st.rerun()
        try:
            version = project.save_spec(result.spec, message.strip(), base_version=exc.head.number, author="studio")
        except GenieError as again:
            session.flash(f"Not saved: {again}", "error")
            st.rerun()
        session.rebase_draft(project, result.spec, version.number)
        session.flash(f"Version {exc.head.number} was saved meanwhile; your edits were merged onto it.", "info")
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
