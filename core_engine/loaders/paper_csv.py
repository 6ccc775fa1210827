"""The paper's spreadsheet layout as CSV: what a developer edits in a sheet.

Columns (matched by header name, case, spaces and punctuation ignored; extra
columns are ignored, order is free; `Form X` and `Worksheet X` mean `WS X`):

    WS Predicate, WS Name, WS Kind, Predicate, Kind, Type, Name, Enum Values,
    Description, Don't Ask, Required, Confirmation, Actions, WS Actions[, Examples]

Rows, top to bottom (blank rows are skipped; row numbers in errors count them):

- **worksheet row**: `WS Name` is set. `WS Kind` is task/kb/type (also the paper's
  Task/worksheet, KB/db, type, any case); when it is empty the `Type` cell is read
  instead (the KITA sheets put `worksheet`/`db`/`type` there), and when both are
  empty the worksheet is a task. `Name` holds the worksheet's API, `Description`
  its description, `WS Predicate` and `WS Actions` its predicate and actions.
- **field row**: `WS Name` empty, `Type` and `Name` set; a field of the worksheet
  above. `Kind` is `input` (the default) or `internal`, optionally with the markers
  `primary` and `free_text` (`input, primary`). An `Enum Values` cell on a field
  row adds one value per line.
- **enum value row**: `Type` and `Name` empty, the value in `Enum Values` and its
  description in `Description`; it belongs to the `Enum` (or `List[Enum]`) field
  right above it (or above the enum value rows before it).
- **metadata rows** (`WS Kind` = `spec` or `api`) hold what has no place in the
  grid, as JSON in `Description`: one `spec` row with name, description,
  starting_prompt, settings and format_version (every Spec attribute but the
  worksheets and APIs); one `api` row per API with the API name in `Name` and the
  rest of the API (kind, parameters, mock_result, url, ...) in `Description`.
  A metadata row ends the worksheet above it.

The optional `Examples` column holds the developer's example utterances, one per
line of the cell (blank lines and surrounding spaces dropped), on the row they teach:
a worksheet row (ways to ask for the task), a field row (replies that give the field a
value) or an enum value row (ways to say that value). The writer adds the column only
when the spec has examples, so a spec without them is written exactly as before.

Booleans accept TRUE/true/yes/y/1/x and FALSE/false/no/n/0. An empty cell means
the model's default: Don't Ask and Confirmation false, Required **true** (a field
is required unless marked optional, DESIGN §8). The writer spells Required out
(TRUE/FALSE) on every field row and Don't Ask/Confirmation only when true.

Text cells (predicates, descriptions, actions) are kept verbatim; names, types,
kinds and enum values are stripped. A sheet whose headers say `Form ...` comes from
the authors' tooling: its actions lose the `>`/`@` call markers (see markers.py).
A sheet with no `spec` row was written by hand: worksheet APIs it names but does
not declare get a `mock` API so it runs. `dumps_paper_csv` always writes the
`spec` row, so `loads_paper_csv(dumps_paper_csv(spec)) == spec`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, TypeVar

from pydantic import ValidationError

from ..errors import SpecError, SpecFormatError
from ..spec.model import Api, EnumValue, Field, Spec, Worksheet, parse_type
from .action_apis import action_api_mocks
from .canonical import check_format_version, describe_validation_error
from .grid import Record, cell_error, header_key, parse_bool, read_records, write_grid
from .markers import strip_action_markers

COLUMNS = (
    "WS Predicate", "WS Name", "WS Kind", "Predicate", "Kind", "Type", "Name",
    "Enum Values", "Description", "Don't Ask", "Required", "Confirmation",
    "Actions", "WS Actions",
)  # fmt: skip
EXAMPLES = "Examples"  # optional last column: example utterances, one per line

# normalised header text -> the column it means (see grid.header_key)
_HEADER_ALIASES = {header_key(c): c for c in COLUMNS} | {
    "confirm": "Confirmation",
    "wstype": "WS Kind",
    "enumvalue": "Enum Values",
    "enum": "Enum Values",
    "fieldname": "Name",
    "fieldtype": "Type",
    "fieldkind": "Kind",
    "fieldpredicate": "Predicate",
    "fielddescription": "Description",
    header_key(EXAMPLES): EXAMPLES,
    "example": EXAMPLES,
    "exampleutterances": EXAMPLES,
}
REQUIRED_COLUMNS = ("WS Name", "Type", "Name")

WS_KINDS = {
    "task": "task", "worksheet": "task", "ws": "task", "form": "task",
    "kb": "kb", "db": "kb", "database": "kb", "table": "kb",
    "type": "type", "record": "type",
}  # fmt: skip
META_KINDS = ("spec", "api")
# everything of a Spec outside the grid goes to the `spec` row, new attributes included
SPEC_META_KEYS = tuple(k for k in Spec.model_fields if k not in ("worksheets", "apis"))

T = TypeVar("T")


def is_paper_header(cells: list[str]) -> bool:
    """Whether a row reads as this layout's header (needs WS Name, Type and Name)."""
    known = {_HEADER_ALIASES.get(header_key(c)) for c in cells}
    return all(col in known for col in REQUIRED_COLUMNS)


def dumps_paper_csv(spec: Spec) -> str:
    """The spec in the paper's layout, with metadata rows for what the grid lacks."""
    columns = COLUMNS + ((EXAMPLES,) if _has_examples(spec) else ())
    rows: list[list[str]] = [list(columns)]

    def row(**cells: str) -> None:
        rows.append([cells.get(_key(c), "") for c in columns])

    meta = spec.model_dump(mode="json", include=set(SPEC_META_KEYS))
    row(ws_kind="spec", description=_compact_json({k: meta[k] for k in SPEC_META_KEYS}))
    for ws in spec.worksheets:
        row(
            ws_predicate=ws.predicate, ws_name=ws.name, ws_kind=ws.kind,
            name=ws.api or "", description=ws.description, ws_actions=ws.actions,
            examples=_examples_cell(ws.examples, ws.name),
        )  # fmt: skip
        for f in ws.fields:
            kind = [f.kind] + ["primary"] * f.primary_key + ["free_text"] * f.free_text
            row(
                predicate=f.predicate, kind=", ".join(kind), type=f.type, name=f.name,
                description=f.description, dont_ask="TRUE" if f.dont_ask else "",
                required="TRUE" if f.required else "FALSE",
                confirmation="TRUE" if f.confirm else "", actions=f.actions,
                examples=_examples_cell(f.examples, f"{ws.name}.{f.name}"),
            )  # fmt: skip
            if f.enum_values and not is_enum_type(f.type):  # the reader would refuse these rows
                raise SpecError(f"field '{f.name}' of type '{f.type}' has enum values, which the sheet "
                                "layout only allows under an Enum field: clear them or make the type Enum",
                                worksheet=ws.name, field=f.name, attribute="enum_values")
            for ev in f.enum_values:
                row(enum_values=ev.value, description=ev.description,
                    examples=_examples_cell(ev.examples, f"{ws.name}.{f.name} = {ev.value}"))
    for api in spec.apis:
        rest = api.model_dump(mode="json", exclude={"name"})
        row(ws_kind="api", name=api.name, description=_compact_json(rest))
    return write_grid(rows)


def loads_paper_csv(text: str, *, source: str = "<string>") -> Spec:
    """Read the paper's layout (see the module docstring for the rules)."""
    records = read_records(text, source=source)
    return _SheetReader(records, source).read()


def _has_examples(spec: Spec) -> bool:
    return any(ws.examples or any(f.examples or any(ev.examples for ev in f.enum_values) for f in ws.fields)
               for ws in spec.worksheets)


def _examples_cell(examples: list[str], where: str) -> str:
    for text in examples:
        if "\n" in text or "\r" in text or text != text.strip() or not text:
            raise SpecError(f"example {text!r} of {where} cannot be written one per line: an example is "
                            "one line of text without surrounding spaces", where=where)
    return "\n".join(examples)


def _key(column: str) -> str:
    return re.sub(r"[^a-z]+", "_", column.lower().replace("'", "")).strip("_")


def _compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def is_enum_type(type_text: str) -> bool:
    """`Enum` or `List[Enum]` (the types whose fields have enum value rows)."""
    try:
        ref = parse_type(type_text)
    except SpecError:
        return False
    return ref.base == "Enum" or (ref.is_list and ref.item is not None and ref.item.base == "Enum")


class _SheetReader:
    """One pass over the records; holds the worksheet and Enum field being filled."""

    def __init__(self, records: list[Record], source: str) -> None:
        self.source = source
        header, self.rows = records[0], records[1:]
        self.columns: dict[str, int] = {}
        self.from_authors = False
        for index, cell in enumerate(header.cells):
            key = header_key(cell)
            column = _HEADER_ALIASES.get(key)
            if column is None:
                continue  # extra column (e.g. Validation, notes)
            if column in self.columns:
                raise self.error(header.number, cell.strip(), f"duplicate column '{column}'")
            self.columns[column] = index
            self.from_authors |= re.sub(r"[^a-z]", "", cell.lower()).startswith("form")
        for column in REQUIRED_COLUMNS:
            if column not in self.columns:
                raise self.error(header.number, column, f"missing column '{column}' in the header")
        self.meta: dict[str, Any] | None = None
        self.apis: list[Api] = []
        self.worksheets: list[Worksheet] = []
        self.current: Worksheet | None = None
        self.enum_field: Field | None = None

    def error(self, row: int, column: str, message: str) -> SpecFormatError:
        return cell_error(message, source=self.source, row=row, column=column)

    def cell(self, rec: Record, column: str) -> str:
        return rec.at(self.columns.get(column))

    def examples(self, rec: Record) -> list[str]:
        return [line.strip() for line in self.cell(rec, EXAMPLES).splitlines() if line.strip()]

    def code(self, rec: Record, column: str) -> str:
        text = self.cell(rec, column)
        return strip_action_markers(text) if self.from_authors else text

    def read(self) -> Spec:
        for rec in self.rows:
            ws_kind = self.cell(rec, "WS Kind").strip().lower()
            if ws_kind in META_KINDS:
                self.read_meta(rec, ws_kind)
            elif self.cell(rec, "WS Name").strip():
                self.read_worksheet(rec)
            elif ws_kind:
                raise self.error(rec.number, "WS Name", "a worksheet row needs a WS Name")
            elif self.cell(rec, "Type").strip() or self.cell(rec, "Name").strip():
                self.read_field(rec)
            elif self.cell(rec, "Enum Values").strip():
                self.read_enum_value(rec)
            else:
                raise self.error(
                    rec.number, "Name",
                    "row has content but no worksheet name, field name, type or enum value",
                )  # fmt: skip
        if self.meta is None:
            self.add_mock_apis()
        data = dict(self.meta or {})
        spec = Spec.model_construct()  # defaults for a sheet without a spec row
        fields = {k: data.get(k, getattr(spec, k)) for k in SPEC_META_KEYS}
        return self.validated(
            0, "", lambda: Spec(**fields, worksheets=self.worksheets, apis=self.apis)
        )

    # -- row kinds ------------------------------------------------------------

    def read_meta(self, rec: Record, kind: str) -> None:
        self.current = self.enum_field = None
        text = self.cell(rec, "Description").strip()
        try:
            data = json.loads(text) if text else {}
        except json.JSONDecodeError as exc:
            raise self.error(
                rec.number, "Description", f"malformed JSON in the {kind} row: {exc}"
            ) from exc
        if not isinstance(data, dict):
            raise self.error(rec.number, "Description", f"the {kind} row needs a JSON object")
        if kind == "spec":
            if self.meta is not None:
                raise self.error(rec.number, "WS Kind", "a second 'spec' row")
            unknown = sorted(set(data) - set(SPEC_META_KEYS))
            if unknown:
                raise self.error(
                    rec.number, "Description", f"unknown key(s) in the spec row: {unknown}"
                )
            check_format_version(data.get("format_version"), source=self.source)
            self.validated(rec.number, "Description", lambda: Spec.model_validate(data))
            self.meta = data
            return
        name = self.cell(rec, "Name").strip()
        if not name:
            raise self.error(rec.number, "Name", "an api row needs the API name")
        if "name" in data:
            raise self.error(
                rec.number, "Description", "the API name belongs in the Name column"
            )
        self.apis.append(
            self.validated(
                rec.number, "Description", lambda: Api.model_validate({"name": name, **data})
            )
        )

    def read_worksheet(self, rec: Record) -> None:
        self.enum_field = None
        name = self.cell(rec, "WS Name").strip()
        for column in ("Predicate", "Actions"):
            if self.cell(rec, column).strip():
                raise self.error(
                    rec.number, column,
                    f"worksheet row '{name}' has a field {column.lower()}; "
                    f"use 'WS {column}' or put it on a field row",
                )  # fmt: skip
        kind = self.ws_kind(rec)
        self.current = self.validated(
            rec.number,
            "WS Name",
            lambda: Worksheet(
                name=name,
                kind=kind,
                predicate=self.code(rec, "WS Predicate"),
                description=self.cell(rec, "Description"),
                api=self.cell(rec, "Name").strip() or None,
                actions=self.code(rec, "WS Actions"),
                examples=self.examples(rec),
            ),
        )
        self.worksheets.append(self.current)

    def ws_kind(self, rec: Record) -> str:
        stated = self.cell(rec, "WS Kind").strip()
        in_type = self.cell(rec, "Type").strip()
        for column, text in (("WS Kind", stated), ("Type", in_type)):
            if text and text.lower() not in WS_KINDS:
                raise self.error(
                    rec.number, column,
                    f"unknown worksheet kind '{text}' (use task, kb or type)",
                )  # fmt: skip
        if stated and in_type and WS_KINDS[stated.lower()] != WS_KINDS[in_type.lower()]:
            raise self.error(
                rec.number, "Type", f"worksheet kind '{in_type}' contradicts WS Kind '{stated}'"
            )
        return WS_KINDS[(stated or in_type or "task").lower()]

    def read_field(self, rec: Record) -> None:
        ws = self.current
        type_text = self.cell(rec, "Type").strip()
        name = self.cell(rec, "Name").strip()
        if ws is None:
            what = f"field '{name}'" if name else f"a field of type '{type_text}'"
            raise self.error(rec.number, "WS Name", f"{what} comes before any worksheet row")
        if not type_text:
            raise self.error(rec.number, "Type", f"missing type for field '{name}'")
        if not name:
            raise self.error(rec.number, "Name", f"missing name for a field of type '{type_text}'")
        kind, primary, free_text = parse_kind(
            self.cell(rec, "Kind"), error=lambda m: self.error(rec.number, "Kind", m)
        )
        inline = [v.strip() for v in self.cell(rec, "Enum Values").splitlines() if v.strip()]
        if inline and not is_enum_type(type_text):
            raise self.error(
                rec.number, "Enum Values", f"enum values on field '{name}' of type '{type_text}'"
            )

        def flag(column: str, default: bool) -> bool:
            return parse_bool(
                self.cell(rec, column), default=default,
                source=self.source, row=rec.number, column=column,
            )  # fmt: skip

        field = self.validated(
            rec.number,
            "Name",
            lambda: Field(
                name=name,
                type=type_text,
                kind=kind,
                predicate=self.code(rec, "Predicate"),
                description=self.cell(rec, "Description"),
                enum_values=[EnumValue(value=v) for v in inline],
                dont_ask=flag("Don't Ask", False),
                required=flag("Required", True),
                confirm=flag("Confirmation", False),
                actions=self.code(rec, "Actions"),
                primary_key=primary,
                free_text=free_text,
                examples=self.examples(rec),
            ),
        )
        ws.fields.append(field)
        self.enum_field = field if is_enum_type(type_text) else None

    def read_enum_value(self, rec: Record) -> None:
        value = self.cell(rec, "Enum Values").strip()
        if self.enum_field is None:
            raise self.error(
                rec.number, "Enum Values", f"enum value '{value}' is not under an Enum field"
            )
        self.enum_field.enum_values.append(
            EnumValue(value=value, description=self.cell(rec, "Description"), examples=self.examples(rec))
        )

    # -- helpers ----------------------------------------------------------------

    def add_mock_apis(self) -> None:
        declared = {api.name for api in self.apis}
        for ws in self.worksheets:
            if ws.api and ws.api not in declared:
                self.apis.append(mock_api(ws.api, ws.name))
                declared.add(ws.api)
        self.apis += action_api_mocks(self.worksheets, self.apis)  # APIs the actions call by name

    def validated(self, row: int, column: str, build: Callable[[], T]) -> T:
        """Run a model constructor; a ValidationError becomes an error at this cell."""
        try:
            return build()
        except ValidationError as exc:
            message, context = describe_validation_error(exc, None)
            if row:
                raise self.error(row, column, message) from exc
            raise SpecError(message, file=self.source, **context) from exc


def parse_kind(
    cell: str, *, error: Callable[[str], SpecFormatError]
) -> tuple[str, bool, bool]:
    """`input, primary` -> ("input", True, False); an empty cell is `input`."""
    text = re.sub(r"free[\s_-]*text", "free_text", cell.strip().lower())
    text = re.sub(r"primary[\s_-]*key", "primary", text)
    words = [w for w in re.split(r"[\s,;|+]+", text) if w]
    unknown = [w for w in words if w not in ("input", "internal", "output", "primary", "free_text")]
    if unknown:
        raise error(f"unknown kind '{unknown[0]}' (use input, internal or output, plus primary/free_text)")
    kinds = [w for w in ("input", "internal", "output") if w in words]
    if len(kinds) > 1:
        raise error(f"a field is either {kinds[0]} or {kinds[1]}, not both")
    kind = kinds[0] if kinds else "input"
    return kind, "primary" in words, "free_text" in words


def mock_api(name: str, worksheet: str) -> Api:
    """A stand-in for an API a sheet names but does not declare, so the spec runs."""
    return Api(name=name, kind="mock", description=f"Mock API for worksheet '{worksheet}'.")
