"""Lint results beside the grid: each diagnostic links to the cell it is about.

Clicking "Show" stores the diagnostic's cell as the grid's focus; on the rerun the
grid selects that row, scrolls to it and outlines the cell.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from components.safe_text import plain

from components.worksheets import grid_model as gm
from components import session
from core_engine.lint import Diagnostic, lint_with_kb
from core_engine.spec.model import Spec

MAX_SHOWN = 60


def diagnostics_for(spec: Spec, kb: Any | None) -> list[Diagnostic]:
    """Lint the draft (with the project's KB values when it has a KB, for enum spelling checks)."""
    return lint_with_kb(spec, kb)


def lint_panel(spec: Spec, diagnostics: list[Diagnostic]) -> None:
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    st.subheader("Lint")
    if not diagnostics:
        st.success("No problems found.", icon=":material/check_circle:")
        return
    st.markdown(f"**{errors}** error{'s' * (errors != 1)}, **{warnings}** warning{'s' * (warnings != 1)}")
    box = st.container(height=520, border=False)
    for i, d in enumerate(diagnostics[:MAX_SHOWN]):
        cell = gm.cell_for(spec, d)
        icon = ":material/error:" if d.severity == "error" else ":material/warning:"
        with box.container(border=True):
            st.markdown(f"{icon} **{plain(d.location())}**  \n{plain(d.message)} `{d.code}`")
            if cell is not None and st.button("Show in grid", key=f"lint.show.{i}", type="tertiary",
                                              icon=":material/my_location:"):
                session.select("grid.focus", cell)
                session.select("grid.selected", cell[0])
                st.rerun()
    if len(diagnostics) > MAX_SHOWN:
        box.caption(f"... and {len(diagnostics) - MAX_SHOWN} more (run `genie lint` for all).")
