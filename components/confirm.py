"""One confirmation dialog for every destructive action (discard edits, delete a worksheet or a test, ...).

    if st.button("Delete"):
        confirm("Delete test 'x'?", "The test is removed from the project.", "Delete", lambda: project.delete_test("x"))

The action runs only after "Yes"; Cancel (or closing the dialog) does nothing.
"""

from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from components import session
from core_engine.errors import GenieError

__all__ = ["confirm"]


def confirm(title: str, message: str, yes: str, action: Callable[[], Any], *, done: str | None = None) -> None:
    """Open a modal asking `title`; "Yes, <yes>" runs `action` (a GenieError becomes a message) and reruns."""

    def body() -> None:
        st.markdown(message)
        cols = st.columns(2)
        if cols[0].button(f"Yes, {yes.lower()}", type="primary", key="confirm.yes", width="stretch"):
            try:
                action()
            except GenieError as exc:
                session.flash(str(exc), "error")
            else:
                if done:
                    session.flash(done)
            st.rerun()
        if cols[1].button("Cancel", key="confirm.no", width="stretch"):
            st.rerun()

    st.dialog(title)(body)()
