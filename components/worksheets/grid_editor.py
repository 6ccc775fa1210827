"""The worksheet grid editor: an AgGrid in the paper's spreadsheet layout, bound to the draft spec.

The grid shows `grid_model.spec_to_rows(draft)`; every edit comes back through the
grid's change callback as the whole table, is turned into a Spec with
`rows_to_spec`, and becomes the new draft (the old one goes on the undo stack).
The server is the source of truth (`server_sync_strategy="server_wins"`), so undo,
add, delete and move simply re-render the grid from the draft.

The small JavaScript snippets below are fixed code of ours (row ids, which cells
are editable on which row type, highlighting): no spec text is ever put into code.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st
from st_aggrid import AgGrid, GridOptionsBuilder, JsCode

from components.worksheets import grid_model as gm
from components import session
from components.confirm import confirm
from core_engine.errors import GenieError
from core_engine.spec.model import Spec

GRID_KEY = "worksheets.grid"
LONG_TEXT = ("ws_predicate", "predicate", "enum_values", "description", "actions", "ws_actions", "examples")
WIDTHS = {"ws_predicate": 130, "ws_name": 150, "ws_kind": 78, "predicate": 130, "kind": 96, "type": 110,
          "name": 160, "enum_values": 150, "description": 220, "dont_ask": 92, "required": 88,
          "confirmation": 110, "actions": 190, "ws_actions": 190, "examples": 200}
ON_WS_ROW = {"ws_predicate", "ws_name", "ws_kind", "name", "description", "ws_actions", "examples"}
ON_FIELD_ROW = {"predicate", "kind", "type", "name", "enum_values", "description", "dont_ask", "required",
                "confirmation", "actions", "examples"}

PINNED = ("ws_name", "type", "name")  # at 1280 px the sheet scrolls sideways; names and types stay in view
_NAME_EDITOR = JsCode("function(params) { return params.data && params.data.row_type === 'worksheet' ? "
                      "{component: 'agSelectCellEditor'} : {component: 'agTextCellEditor'}; }")
_ROW_ID = JsCode("function(params) { return params.data.row_id; }")
_WS_ROW = JsCode("function(params) { return params.data && params.data.row_type === 'worksheet'; }")
_LINT_ERROR = JsCode("function(params) { return params.data && params.data.lint.indexOf('error') >= 0; }")
_LINT_WARNING = JsCode("function(params) { return params.data && params.data.lint.indexOf('warning') >= 0"
                       " && params.data.lint.indexOf('error') < 0; }")
_FOCUS_ROW = JsCode("function(params) { return params.data && params.data.focus !== ''; }")
_SHOW_FOCUS = JsCode("""
function(event) {
  var api = event.api; var found = null;
  api.forEachNode(function(node) { if (node.data && node.data.focus) { found = node; } });
  if (found) {
    api.ensureNodeVisible(found, 'middle');
    found.setSelected(true, true);
    api.ensureColumnVisible(found.data.focus);
    api.setFocusedCell(found.rowIndex, found.data.focus);
  }
}""")
# Why edits got lost: with server_sync_strategy="server_wins" st_aggrid calls `api.stopEditing(true)`
# (cancel!) on every rerun's props, and a click on a cell selects its row, which reruns the script. So a
# cell editor opened (or being typed in) while a rerun's props arrived was closed and the value dropped.
# The grid therefore ignores that cancel while a cell is being edited; the row update it sends next is
# applied by row id and leaves the open editor alone. The edit commits as usual (Enter, Tab, click out).
_KEEP_EDITS = JsCode("""
function(event) {
  var api = event.api;
  if (api.__genieKeepEdits) { return; }
  var stop = api.stopEditing.bind(api);
  api.stopEditing = function(cancel) {
    if (cancel === true && api.getEditingCells().length > 0) { return; }
    return stop(cancel);
  };
  api.__genieKeepEdits = true;
}""")
CSS = {
    ".genie-ws-row": {"background-color": "#eef2ff !important", "font-weight": "600"},
    ".genie-lint-error .ag-cell[col-id='lint']": {"color": "#b91c1c", "font-weight": "700"},
    ".genie-lint-warning .ag-cell[col-id='lint']": {"color": "#b45309", "font-weight": "600"},
    ".genie-focus-row": {"box-shadow": "inset 4px 0 0 #d97706"},
    ".genie-focus-cell": {"outline": "2px dashed #d97706 !important", "outline-offset": "-3px",
                          "background-color": "#fef3c7 !important"},
    ".ag-cell": {"white-space": "nowrap"},
}


def _editable_on(keys: set[str]) -> JsCode | bool:
    both = keys == ON_WS_ROW | ON_FIELD_ROW
    if both:
        return True
    want = "worksheet" if keys is ON_WS_ROW else "field"
    return JsCode(f"function(params) {{ return params.data && params.data.row_type === '{want}'; }}")


def _cell_editable(key: str) -> JsCode | bool:
    if key in ON_WS_ROW and key in ON_FIELD_ROW:
        return True
    return _editable_on(ON_WS_ROW if key in ON_WS_ROW else ON_FIELD_ROW)


def grid_options(spec: Spec, frame: pd.DataFrame) -> dict[str, Any]:
    gb = GridOptionsBuilder.from_dataframe(frame)
    gb.configure_default_column(editable=False, sortable=False, filter=False, resizable=True,
                                suppressHeaderMenuButton=True, wrapText=False)
    for hidden in (gm.ROW_ID, gm.ROW_TYPE, gm.FOCUS):
        gb.configure_column(hidden, hide=True)
    gb.configure_column(gm.LINT, header_name="Lint", width=84, pinned="left",
                        tooltipField=gm.LINT)
    for key, header in gm.KEYS.items():
        props: dict[str, Any] = {"header_name": header, "width": WIDTHS[key], "editable": _cell_editable(key),
                                 "tooltipField": key,
                                 "cellClassRules": {"genie-focus-cell": JsCode(
                                     f"function(p) {{ return p.data && p.data.focus === '{key}'; }}")}}
        if key in LONG_TEXT:
            props.update(cellEditor="agLargeTextCellEditor", cellEditorPopup=True,
                         cellEditorParams={"maxLength": 20000, "rows": 10, "cols": 60})
        elif key == "ws_kind":
            props.update(cellEditor="agSelectCellEditor", cellEditorParams={"values": list(gm.WS_KIND_VALUES)})
        elif key == "kind":
            props.update(cellEditor="agSelectCellEditor", cellEditorParams={"values": list(gm.FIELD_KIND_VALUES)})
        elif key == "type":
            props.update(cellEditor="agSelectCellEditor", cellEditorParams={"values": gm.type_choices(spec)})
        elif key == "name":  # a worksheet row's Name cell is its API: picked from the declared APIs
            props.update(cellEditorSelector=_NAME_EDITOR,
                         cellEditorParams={"values": ["", *(a.name for a in spec.apis)]})
        elif key in ("dont_ask", "required", "confirmation"):
            props.update(cellEditor="agSelectCellEditor", cellEditorParams={"values": list(gm.BOOL_VALUES)})
        if key in PINNED:
            props["pinned"] = "left"
        gb.configure_column(key, **props)
    gb.configure_grid_options(
        getRowId=_ROW_ID,
        rowSelection={"mode": "singleRow", "checkboxes": False, "enableClickSelection": True},
        rowClassRules={"genie-ws-row": _WS_ROW, "genie-lint-error": _LINT_ERROR,
                       "genie-lint-warning": _LINT_WARNING, "genie-focus-row": _FOCUS_ROW},
        onFirstDataRendered=_SHOW_FOCUS, onRowDataUpdated=_SHOW_FOCUS, onGridReady=_KEEP_EDITS,
        stopEditingWhenCellsLoseFocus=True, singleClickEdit=False, enableBrowserTooltips=True,
        rowHeight=30, headerHeight=34, suppressMovableColumns=True, tooltipShowDelay=400,
    )
    options = gb.build()
    options.pop("autoSizeStrategy", None)  # keep our widths and scroll sideways, like a sheet
    return options


def grid_editor(project: Any, spec: Spec, diagnostics: list, *, height: int = 560) -> None:
    """Draw the grid for the draft `spec`; edits and selections update the session (see module doc)."""
    focus = session.selected("grid.focus")
    rows = gm.spec_to_rows(spec, diagnostics, focus=tuple(focus) if focus else None)
    frame = pd.DataFrame(rows, columns=[gm.ROW_ID, gm.ROW_TYPE, gm.LINT, gm.FOCUS, *gm.KEYS])
    options = grid_options(spec, frame)

    def on_change(response: Any) -> None:
        _apply(project, spec, response)

    AgGrid(frame, gridOptions=options, height=height, key=GRID_KEY, callback=on_change,
           update_on=["cellValueChanged", "selectionChanged"], data_return_mode="AS_INPUT",
           allow_unsafe_jscode=True, server_sync_strategy="server_wins", custom_css=CSS,
           theme="streamlit", use_json_serialization=False, show_toolbar=False, show_download_button=False)


def _apply(project: Any, spec: Spec, response: Any) -> None:
    """Grid callback: a selection moves the 'selected row'; an edit becomes the new draft."""
    event = (response.event_data or {}).get("type", "") if isinstance(response.event_data, dict) else ""
    selected = response.selected_rows
    if selected is not None and len(selected) and gm.ROW_ID in selected:
        rid = str(selected[gm.ROW_ID].iloc[0])
        session.select("grid.selected", rid)
        focus = session.selected("grid.focus")
        if focus and focus[0] != rid:
            session.select("grid.focus", None)  # the user moved on: stop pulling the grid back
    if event == "selectionChanged":
        return
    base = session.draft_spec(project)
    if event == "cellValueChanged":
        new = _edited_cell(base, response.event_data)
        if new is not None:
            if new != base:
                session.update_draft(project, new)
            return
    data = response.data
    if data is None or gm.ROW_ID not in getattr(data, "columns", []):
        return
    records = data.to_dict("records")
    try:
        new = gm.rows_to_spec(records, base)
    except GenieError as exc:
        session.flash(f"That edit was not applied: {exc}", "error")
        return
    if new != spec:
        session.update_draft(project, new)


def _edited_cell(base: Spec, event: dict[str, Any]) -> Spec | None:
    """The draft with only the edited cell changed (see gm.apply_cell); None if the event lacks it.

    The grid drops empty strings from its event, so a missing `newValue` is a cleared cell.
    """
    row = event.get("data") if isinstance(event.get("data"), dict) else {}
    col = event.get("colDef") if isinstance(event.get("colDef"), dict) else {}
    rid, key = row.get(gm.ROW_ID), col.get("field")
    if not isinstance(rid, str) or not isinstance(key, str):
        return None
    value = event.get("newValue", "")
    try:
        return gm.apply_cell(base, rid, key, value)
    except GenieError as exc:
        session.flash(f"That edit was not applied: {exc}", "error")
        return base


def toolbar(project: Any, spec: Spec) -> None:
    """Add / delete / move / undo buttons acting on the selected row."""
    rid = session.selected("grid.selected")
    ref = gm.describe_row(spec, rid) if rid else None
    st.caption(f"Selected: **{ref.label}**" if ref else "Select a row in the grid to add a field below it, "
               "move or delete it.")
    bar = st.container(horizontal=True, gap="small")
    cols = [bar] * 7
    d = session.draft(project)

    def act(label: str, col: Any, fn: Any, *, disabled: bool = False, icon: str | None = None) -> None:
        if col.button(label, key=f"grid.{label}", disabled=disabled, icon=icon, width="content"):
            try:
                fn()
            except GenieError as exc:
                session.flash(str(exc), "error")
            st.rerun()

    def new_row(result: tuple[Spec, str]) -> None:
        session.update_draft(project, result[0])
        session.select("grid.selected", result[1])
        session.select("grid.focus", (result[1], "ws_name" if "." not in result[1] else "name"))

    act("Add worksheet", cols[0], lambda: new_row(gm.add_worksheet(spec, after=ref.row_id if ref else None)),
        icon=":material/add_box:")
    act("Add field", cols[1], lambda: new_row(gm.add_field(spec, ref.row_id)), disabled=ref is None,
        icon=":material/add:")
    act("Move up", cols[2], lambda: new_row(gm.move_row(spec, ref.row_id, -1)), disabled=ref is None,
        icon=":material/arrow_upward:")
    act("Move down", cols[3], lambda: new_row(gm.move_row(spec, ref.row_id, +1)), disabled=ref is None,
        icon=":material/arrow_downward:")

    def delete() -> None:
        session.update_draft(project, gm.delete_row(spec, ref.row_id))
        session.select("grid.selected", None)
        session.select("grid.focus", None)

    if ref is not None and "." not in ref.row_id:  # a whole worksheet goes only after a yes
        if bar.button("Delete", key="grid.Delete", icon=":material/delete:", width="content"):
            ws = spec.worksheets[gm.parse_row_id(ref.row_id)[0]]
            confirm(f"Delete worksheet {ws.name}?", f"The worksheet **{ws.name}** and its {len(ws.fields)} field(s) "
                    "leave the draft (Undo brings them back until you save).", "delete", delete)
    else:
        act("Delete", cols[4], delete, disabled=ref is None, icon=":material/delete:")
    act("Undo", cols[5], lambda: session.undo_draft(project), disabled=not d["undo"], icon=":material/undo:")
    dirty = session.draft_is_dirty(project)
    if bar.button("Discard edits", key="grid.Discard edits", disabled=not dirty, icon=":material/restart_alt:",
                  width="content"):
        confirm("Discard all unsaved edits?", f"The draft goes back to version {d['base']}; "
                f"{_pending(project, spec)} will be lost. This cannot be undone.", "discard",
                lambda: session.reset_draft(project), done="Unsaved edits discarded.")


def _pending(project: Any, spec: Spec) -> str:
    from storage import diff_specs

    return diff_specs(project.spec(session.draft(project)["base"]), spec).summary()
