"""The review of a project's api.py before any of it runs (storage.trust).

An imported project (or one whose api.py changed outside the studio) shows its
code here with its sha256; only "Trust and run this code" records the trust, and
until then the project's python APIs answer "not trusted" and nothing of the
code is imported.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from components.safe_text import plain


def review_code(project: Any) -> bool:
    """Show the review box when api.py is not trusted; True when the code is trusted (or absent)."""
    if project.code_trusted():
        return True
    from storage.trust import code_digest

    code = project.reviewed_code() or ""
    digest = code_digest(code)
    with st.container(border=True):
        st.warning(f"This project's code (api.py and prompt templates) has not been reviewed (sha256 {digest[:12]}…). "
                   f"Its python APIs and prompt overrides are unavailable until you trust this exact code; nothing "
                   f"of it has run.", icon=":material/shield:")
        with st.expander(f"Review the code of {plain(project.name)} ({len(code.splitlines())} lines)"):
            st.code(code, language="python", line_numbers=True)
        if st.button("Trust and run this code", key=f"trust.{digest}", icon=":material/verified_user:"):
            project.trust_code(digest)
            st.rerun()
    return False


__all__ = ["review_code"]
