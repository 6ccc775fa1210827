"""The worksheet grid as plain rows: Spec <-> the paper's spreadsheet layout, and edits on it.

Pure Python (no Streamlit), so the editor's behaviour is unit-tested without a
browser. One row per worksheet and one per field, in spec order, with the
paper's columns (`COLUMNS`, the same conventions as `core_engine.loaders.paper_csv`):
a worksheet row carries WS Predicate, WS Name, WS Kind, its API in Name, its
description and WS Actions; a field row carries Predicate, Kind (`input`/`internal`
plus the `primary` and `free_text` markers), Type, Name, Enum Values, Description,
the three flags and Actions. Enum values are one per line in the field's Enum
Values cell, `value | description` when a value has a description (the paper's
sheet puts them on rows of their own; one cell is easier to edit in a grid).
The Examples column holds the developer's example utterances, one per line: on a
worksheet row the task's, on a field row the field's, and `[Value] text` lines on a
field row teach the enum value `Value` (its examples, in the same cell).

Row ids are positional (`w2`, `w2.f5`), so renaming a worksheet or a field keeps
its row, and duplicate names (a lint error) still get distinct rows. Everything
the grid does not show (name, starting prompt, APIs, settings) comes from the
spec being edited.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from pydantic import ValidationError

from core_engine.errors import SpecError
from core_engine.lint import Diagnostic
from core_engine.loaders.grid import FALSE_WORDS, TRUE_WORDS
from core_engine.loaders.paper_csv import COLUMNS, EXAMPLES, WS_KINDS, parse_kind
from core_engine.spec.model import PRIMITIVE_TYPES, EnumValue, Field, Spec, Worksheet

__all__ = [
    "BOOL_VALUES", "COLUMNS", "KEYS", "FIELD_KIND_VALUES", "WS_KIND_VALUES", "GridError",
    "add_field", "add_worksheet", "cell_for", "delete_row", "diagnostics_by_row", "format_enum_values",
    "format_examples", "move_row", "parse_enum_values", "parse_examples", "row_id", "rows_to_spec",
    "spec_to_rows", "type_choices",
]

# grid field key -> the paper's column header
KEYS: dict[str, str] = {
    "ws_predicate": "WS Predicate", "ws_name": "WS Name", "ws_kind": "WS Kind", "predicate": "Predicate",
    "kind": "Kind", "type": "Type", "name": "Name", "enum_values": "Enum Values",
    "description": "Description", "dont_ask": "Don't Ask", "required": "Required",
    "confirmation": "Confirmation", "actions": "Actions", "ws_actions": "WS Actions", "examples": EXAMPLES,
}  # fmt: skip
assert tuple(KEYS.values()) == (*COLUMNS, EXAMPLES)
WS_KEYS = ("ws_predicate", "ws_name", "ws_kind", "name", "description", "ws_actions", "examples")
FIELD_KEYS = ("predicate", "kind", "type", "name", "enum_values", "description", "dont_ask",
              "required", "confirmation", "actions", "examples")
ROW_ID, ROW_TYPE, LINT, FOCUS = "row_id", "row_type", "lint", "focus"
WS_KIND_VALUES = ("task", "kb", "type")
FIELD_KIND_VALUES = ("input", "internal", "input, primary", "input, free_text", "input, primary, free_text",
                     "internal, primary", "output")
BOOL_VALUES = ("TRUE", "FALSE")
ENUM_SEPARATOR = " | "


class GridError(SpecError):
    """A grid cell holds something the spec cannot take; names the grid row and column."""


# -- spec -> rows -------------------------------------------------------------------


def row_id(ws_index: int, field_index: int | None = None) -> str:
    return f"w{ws_index}" if field_index is None else f"w{ws_index}.f{field_index}"


def parse_row_id(rid: str) -> tuple[int, int | None]:
    """`w2.f5` -> (2, 5); `w2` -> (2, None); raises GridError for anything else."""
    try:
        ws_part, _, field_part = rid.partition(".")
        if not ws_part.startswith("w") or (field_part and not field_part.startswith("f")):
            raise ValueError(rid)
        return int(ws_part[1:]), int(field_part[1:]) if field_part else None
    except ValueError as exc:
        raise GridError(f"'{rid}' is not a grid row id") from exc


def format_enum_values(values: Iterable[EnumValue]) -> str:
    return "\n".join(v.value + (ENUM_SEPARATOR + v.description if v.description else "") for v in values)


def parse_enum_values(text: str) -> list[EnumValue]:
    """One value per line; `value | description`; blank lines are skipped."""
    out = []
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        value, sep, description = line.partition(ENUM_SEPARATOR.strip())
        out.append(EnumValue(value=value.strip(), description=description.strip() if sep else ""))
    return out


def format_examples(f: Field | Worksheet) -> str:
    """A row's Examples cell: its own examples, then `[Value] text` for each enum value's."""
    lines = list(f.examples)
    for v in getattr(f, "enum_values", []):
        lines += [f"[{v.value}] {text}" for text in v.examples]
    return "\n".join(lines)


def parse_examples(text: str, enum_values: list[EnumValue] | None = None) -> list[str]:
    """The row's own examples; `[Value] text` lines go to that enum value (when there is one)."""
    by_value = {v.value: v for v in enum_values or []}
    own = []
    for line in (text or "").splitlines():
        line = line.strip()
        value, sep, rest = line[1:].partition("] ") if line.startswith("[") else ("", "", "")
        if sep and value in by_value and rest.strip():
            by_value[value].examples.append(rest.strip())
        elif line:
            own.append(line)
    return own


def _bool_cell(value: bool) -> str:
    return "TRUE" if value else "FALSE"


def worksheet_row(ws: Worksheet, index: int) -> dict[str, Any]:
    row = {k: "" for k in KEYS}
    row.update(ws_predicate=ws.predicate, ws_name=ws.name, ws_kind=ws.kind, name=ws.api or "",
               description=ws.description, ws_actions=ws.actions, examples=format_examples(ws))
    return {ROW_ID: row_id(index), ROW_TYPE: "worksheet", **row, LINT: "", FOCUS: ""}


def field_row(f: Field, ws_index: int, index: int) -> dict[str, Any]:
    kind = ", ".join([f.kind] + ["primary"] * f.primary_key + ["free_text"] * f.free_text)
    row = {k: "" for k in KEYS}
    row.update(predicate=f.predicate, kind=kind, type=f.type, name=f.name,
               enum_values=format_enum_values(f.enum_values), description=f.description,
               dont_ask=_bool_cell(f.dont_ask), required=_bool_cell(f.required),
               confirmation=_bool_cell(f.confirm), actions=f.actions, examples=format_examples(f))
    return {ROW_ID: row_id(ws_index, index), ROW_TYPE: "field", **row, LINT: "", FOCUS: ""}


def spec_to_rows(spec: Spec, diagnostics: Iterable[Diagnostic] = (),
                 focus: tuple[str, str] | None = None) -> list[dict[str, Any]]:
    """The grid rows of `spec`; each row's `lint` cell summarises its diagnostics (e.g. `2 errors`).

    `focus` is a (row id, grid key) cell to highlight: that row's `focus` cell holds the key.
    """
    rows: list[dict[str, Any]] = []
    for i, ws in enumerate(spec.worksheets):
        rows.append(worksheet_row(ws, i))
        rows.extend(field_row(f, i, j) for j, f in enumerate(ws.fields))
    by_row = diagnostics_by_row(spec, diagnostics)
    for row in rows:
        diags = by_row.get(row[ROW_ID], [])
        row[LINT] = _lint_summary(diags)
        row[FOCUS] = focus[1] if focus and row[ROW_ID] == focus[0] else ""
    return rows


def _lint_summary(diags: list[Diagnostic]) -> str:
    errors = sum(d.severity == "error" for d in diags)
    warnings = len(diags) - errors
    parts = [f"{errors} error{'s' * (errors != 1)}"] * bool(errors) + \
            [f"{warnings} warning{'s' * (warnings != 1)}"] * bool(warnings)
    return ", ".join(parts)


# -- diagnostics -> cells ----------------------------------------------------------------

_FIELD_ATTRIBUTE_KEYS = {
    "predicate": "predicate", "kind": "kind", "type": "type", "name": "name", "enum_values": "enum_values",
    "description": "description", "dont_ask": "dont_ask", "required": "required", "confirm": "confirmation",
    "actions": "actions", "primary_key": "kind", "free_text": "kind", "examples": "examples",
}  # fmt: skip
_WS_ATTRIBUTE_KEYS = {
    "predicate": "ws_predicate", "actions": "ws_actions", "ws_predicate": "ws_predicate", "ws_actions": "ws_actions", "name": "ws_name", "kind": "ws_kind",
    "api": "name", "description": "description", "examples": "examples",
}  # fmt: skip


def cell_for(spec: Spec, diag: Diagnostic) -> tuple[str, str] | None:
    """(row id, grid key) of the cell a diagnostic is about; None when it is not in the grid (APIs, settings)."""
    if diag.worksheet is None:
        return None
    ws_index = next((i for i, ws in enumerate(spec.worksheets) if ws.name == diag.worksheet), None)
    if ws_index is None:
        return None
    ws = spec.worksheets[ws_index]
    if diag.field is not None:
        f_index = next((j for j, f in enumerate(ws.fields) if f.name == diag.field), None)
        if f_index is not None:
            return row_id(ws_index, f_index), _FIELD_ATTRIBUTE_KEYS.get(diag.attribute or "", "name")
    return row_id(ws_index), _WS_ATTRIBUTE_KEYS.get(diag.attribute or "", "ws_name")


def diagnostics_by_row(spec: Spec, diagnostics: Iterable[Diagnostic]) -> dict[str, list[Diagnostic]]:
    out: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        cell = cell_for(spec, d)
        if cell is not None:
            out.setdefault(cell[0], []).append(d)
    return out


# -- rows -> spec ------------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A cell as text: None/NaN (what a grid returns for an emptied cell) is ''."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(value)


def _flag(value: Any, *, default: bool, row: int, column: str) -> bool:
    word = _text(value).strip().lower()
    if not word:
        return default
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise GridError(f"grid row {row}, column '{column}': '{_text(value)}' is not TRUE or FALSE",
                    row=row, column=column)


def rows_to_spec(rows: Iterable[dict[str, Any]], base: Spec) -> Spec:
    """Rebuild the spec from grid rows (in their order); everything outside the grid comes from `base`.

    A row's type is its `row_type` (worksheet/field); rows without one are read like the
    paper's sheet (WS Name set: a worksheet). Raises GridError naming the 1-based grid row.
    """
    worksheets: list[Worksheet] = []
    for number, row in enumerate(rows, 1):
        rtype = _text(row.get(ROW_TYPE)) or ("worksheet" if _text(row.get("ws_name")).strip() else "field")
        try:
            if rtype == "worksheet":
                worksheets.append(_read_worksheet(row, number))
            elif not worksheets:
                raise GridError(f"grid row {number}: field '{_text(row.get('name'))}' comes before any worksheet",
                                row=number, column="WS Name")
            else:
                worksheets[-1].fields.append(_read_field(row, number))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise GridError(f"grid row {number}: {where or 'value'}: {first.get('msg')}", row=number) from exc
    return base.model_copy(update={"worksheets": worksheets})


def apply_cell(spec: Spec, rid: str, key: str, value: Any) -> Spec | None:
    """`spec` with one grid cell set; None when the row or column no longer exists.

    The grid reports an edit together with its whole client-side table, which may be a rerun
    behind the server (another edit landed meanwhile). Applying only the edited cell means a
    stale copy of the other cells can never overwrite a newer edit.
    """
    if key not in KEYS:
        return None
    rows = spec_to_rows(spec)
    for row in rows:
        if row[ROW_ID] == rid:
            row[key] = "" if value is None else value
            return rows_to_spec(rows, spec)
    return None


def _read_worksheet(row: dict[str, Any], number: int) -> Worksheet:
    kind_text = _text(row.get("ws_kind")).strip().lower() or "task"
    if kind_text not in WS_KINDS:
        raise GridError(f"grid row {number}, column 'WS Kind': unknown kind '{kind_text}' (task, kb or type)",
                        row=number, column="WS Kind")
    return Worksheet(name=_text(row.get("ws_name")).strip(), kind=WS_KINDS[kind_text],
                     predicate=_text(row.get("ws_predicate")), description=_text(row.get("description")),
                     api=_text(row.get("name")).strip() or None, actions=_text(row.get("ws_actions")),
                     examples=parse_examples(_text(row.get("examples"))))


def _read_field(row: dict[str, Any], number: int) -> Field:
    def error(message: str) -> GridError:
        return GridError(f"grid row {number}, column 'Kind': {message}", row=number, column="Kind")

    kind, primary, free_text = parse_kind(_text(row.get("kind")), error=error)
    enum_values = parse_enum_values(_text(row.get("enum_values")))
    examples = parse_examples(_text(row.get("examples")), enum_values)
    return Field(
        name=_text(row.get("name")).strip(), type=_text(row.get("type")).strip() or "str", kind=kind,
        predicate=_text(row.get("predicate")), description=_text(row.get("description")),
        enum_values=enum_values, examples=examples,
        dont_ask=_flag(row.get("dont_ask"), default=False, row=number, column="Don't Ask"),
        required=_flag(row.get("required"), default=True, row=number, column="Required"),
        confirm=_flag(row.get("confirmation"), default=False, row=number, column="Confirmation"),
        actions=_text(row.get("actions")), primary_key=primary, free_text=free_text,
    )


# -- structural edits (each returns a new Spec; the old one is kept for undo) -----------------


def _copy(spec: Spec) -> Spec:
    return spec.model_copy(deep=True)


def _unique(name: str, taken: Iterable[str]) -> str:
    taken = set(taken)
    if name not in taken:
        return name
    n = 2
    while f"{name}{n}" in taken:
        n += 1
    return f"{name}{n}"


def add_worksheet(spec: Spec, *, after: str | None = None, name: str = "NewWorksheet",
                  kind: str = "task") -> tuple[Spec, str]:
    """Insert a worksheet after the worksheet of row `after` (or at the end); returns (spec, its row id)."""
    new = _copy(spec)
    ws = Worksheet(name=_unique(name, (w.name for w in new.worksheets)), kind=kind)
    at = len(new.worksheets) if after is None else parse_row_id(after)[0] + 1
    at = min(at, len(new.worksheets))
    new.worksheets.insert(at, ws)
    return new, row_id(at)


def add_field(spec: Spec, at_row: str, *, name: str = "new_field", type_: str = "str") -> tuple[Spec, str]:
    """A field after the field of row `at_row`, or first in the worksheet of a worksheet row."""
    new = _copy(spec)
    wi, fi = parse_row_id(at_row)
    _check(new, wi, fi)
    ws = new.worksheets[wi]
    pos = 0 if fi is None else fi + 1
    ws.fields.insert(pos, Field(name=_unique(name, (f.name for f in ws.fields)), type=type_))
    return new, row_id(wi, pos)


def delete_row(spec: Spec, rid: str) -> Spec:
    """Delete a field, or a worksheet with all its fields."""
    new = _copy(spec)
    wi, fi = parse_row_id(rid)
    _check(new, wi, fi)
    if fi is None:
        del new.worksheets[wi]
    else:
        del new.worksheets[wi].fields[fi]
    return new


def move_row(spec: Spec, rid: str, delta: int) -> tuple[Spec, str]:
    """Move a worksheet (with its fields) among worksheets, or a field within its worksheet.

    A field moved past the first or last position of its worksheet goes to the end of
    the previous / the start of the next worksheet, as when dragging rows in a sheet.
    Returns (spec, the moved row's new id); a move past either end is a no-op.
    """
    new = _copy(spec)
    wi, fi = parse_row_id(rid)
    _check(new, wi, fi)
    if fi is None:
        to = max(0, min(len(new.worksheets) - 1, wi + delta))
        ws = new.worksheets.pop(wi)
        new.worksheets.insert(to, ws)
        return new, row_id(to)
    fields = new.worksheets[wi].fields
    to = fi + delta
    if 0 <= to < len(fields):
        fields.insert(to, fields.pop(fi))
        return new, row_id(wi, to)
    target = wi + (1 if delta > 0 else -1)
    if not 0 <= target < len(new.worksheets):
        return new, rid
    f = fields.pop(fi)
    dest = new.worksheets[target].fields
    pos = len(dest) if delta < 0 else 0
    dest.insert(pos, f)
    return new, row_id(target, pos)


def _check(spec: Spec, wi: int, fi: int | None) -> None:
    if not 0 <= wi < len(spec.worksheets) or (fi is not None and not 0 <= fi < len(spec.worksheets[wi].fields)):
        raise GridError(f"row {row_id(wi, fi)} is not in the grid (it changed since it was selected)")


def type_choices(spec: Spec) -> list[str]:
    """Every type a field can have in this spec: primitives, worksheets/types, and lists of them."""
    bases = [t for t in PRIMITIVE_TYPES if t != "confirm"] + [ws.name for ws in spec.worksheets if ws.name]
    return [*bases, "confirm", *(f"List[{b}]" for b in bases)]


@dataclass(frozen=True)
class RowRef:
    """A selected grid row: its id and what it is, for the editor's buttons."""

    row_id: str
    row_type: str
    label: str


def describe_row(spec: Spec, rid: str) -> RowRef | None:
    try:
        wi, fi = parse_row_id(rid)
        _check(spec, wi, fi)
    except GridError:
        return None
    ws = spec.worksheets[wi]
    if fi is None:
        return RowRef(rid, "worksheet", f"worksheet {ws.name}")
    return RowRef(rid, "field", f"field {ws.name}.{ws.fields[fi].name}")
