"""The inspector: a form for the selected grid row that edits every attribute of a worksheet or a field,
including those the grid has no column for (primary key, free text, examples). Saving the form is
one draft edit (undoable like a cell edit)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from components.worksheets import grid_model as gm
from components import session
from core_engine.spec.model import Spec

NO_API = "(no API)"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def inspector(project: Any, spec: Spec) -> None:
    rid = session.selected("grid.selected")
    ref = gm.describe_row(spec, rid) if rid else None
    if ref is None:
        st.caption("Select a row in the grid to edit all its attributes here.")
        return
    wi, fi = gm.parse_row_id(ref.row_id)
    if fi is None:
        _worksheet_form(project, spec, wi)
    else:
        _field_form(project, spec, wi, fi)


def _worksheet_form(project: Any, spec: Spec, wi: int) -> None:
    ws = spec.worksheets[wi]
    key = f"inspector.w{wi}.{ws.name}"
    with st.form(key, border=False):
        c1, c2, c3 = st.columns([2, 1, 2])
        name = c1.text_input("Worksheet name", value=ws.name)
        kind = c2.selectbox("Kind", list(gm.WS_KIND_VALUES), index=list(gm.WS_KIND_VALUES).index(ws.kind))
        apis = [NO_API, *(a.name for a in spec.apis)] + ([ws.api] if ws.api and not spec.api(ws.api) else [])
        api = c3.selectbox("API called on completion", apis, index=apis.index(ws.api) if ws.api else 0,
                           help="Declare APIs on the Agent page")
        predicate = st.text_input("WS predicate (when this worksheet starts)", value=ws.predicate)
        description = st.text_area("Description", value=ws.description, height=68)
        actions = st.text_area("WS actions (run when the worksheet completes)", value=ws.actions, height=90)
        examples = st.text_area("Examples (one utterance per line, for the offline parser)",
                                value="\n".join(ws.examples), height=68)
        if st.form_submit_button("Apply to the draft", type="primary"):
            new = spec.model_copy(deep=True)
            target = new.worksheets[wi]
            target.name, target.kind, target.predicate = name.strip(), kind, predicate
            target.api = None if api == NO_API else api
            target.description, target.actions, target.examples = description, actions, _lines(examples)
            session.update_draft(project, new)
            st.rerun()


def _field_form(project: Any, spec: Spec, wi: int, fi: int) -> None:
    ws = spec.worksheets[wi]
    f = ws.fields[fi]
    key = f"inspector.w{wi}.f{fi}.{ws.name}.{f.name}"
    types = gm.type_choices(spec)
    with st.form(key, border=False):
        c1, c2, c3 = st.columns([2, 2, 1])
        name = c1.text_input("Field name", value=f.name)
        type_ = c2.selectbox("Type", types if f.type in types else [f.type, *types],
                             index=(types.index(f.type) if f.type in types else 0))
        kind = c3.selectbox("Kind", ["input", "internal"], index=["input", "internal"].index(f.kind))
        predicate = st.text_input("Predicate (when this field is asked)", value=f.predicate)
        description = st.text_area("Description", value=f.description, height=68)
        enum = st.text_area("Enum values (one per line; `value | description`)",
                            value=gm.format_enum_values(f.enum_values), height=90)
        flags = st.columns(5)
        dont_ask = flags[0].checkbox("Don't ask", value=f.dont_ask)
        required = flags[1].checkbox("Required", value=f.required)
        confirm = flags[2].checkbox("Confirmation", value=f.confirm)
        primary = flags[3].checkbox("Primary key", value=f.primary_key)
        free_text = flags[4].checkbox("Free text", value=f.free_text)
        actions = st.text_area("Actions (run when the field is filled)", value=f.actions, height=80)
        examples = st.text_area("Examples (one per line)", value="\n".join(f.examples), height=68)
        if st.form_submit_button("Apply to the draft", type="primary"):
            new = spec.model_copy(deep=True)
            target = new.worksheets[wi].fields[fi]
            old_values = {v.value: v for v in f.enum_values}
            values = gm.parse_enum_values(enum)
            for v in values:  # keep each value's examples (the text box does not show them)
                if v.value in old_values:
                    v.examples = list(old_values[v.value].examples)
            target.name, target.type, target.kind, target.predicate = name.strip(), type_, kind, predicate
            target.description, target.enum_values, target.actions = description, values, actions
            target.dont_ask, target.required, target.confirm = dont_ask, required, confirm
            target.primary_key, target.free_text, target.examples = primary, free_text, _lines(examples)
            session.update_draft(project, new)
            st.rerun()
