"""The public reference implementation's spec layouts (REFERENCE_NOTES.md §1), read-only.

CSV: fixed column positions (Form Predicate, Form Name, Predicate, Kind, Type,
Name, Enum Values, Description, Don't Ask, Required, Confirm, Actions, Form
Actions, and an ignored Validation column), with or without a header row, and an optional `Examples` column (example utterances,
one per line; found by its header, else the column after Validation). On a
worksheet row `Type` is worksheet/db/type and `Name` the backend API. JSON: a
list of worksheets with `ws_*` keys and `fields` with `field_*` keys; optional
`examples` lists (`ws_examples`/`examples` on a worksheet, `field_examples`/`examples`
on a field, `examples` on an enum value object).

Faithful to the reference: a boolean is true only when it is exactly `TRUE` (or
JSON `true`), so an empty Required cell means optional there; a Kind containing
`primary` marks a primary key. Actions lose their `>`/`@` call markers so the
sandbox sees plain Python. Backend APIs are never declared in these layouts, so
each one named, and each function the actions call (`@name(...)`), gets a `mock`
API whose description says the loader declared it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pydantic import ValidationError

from ..errors import SpecError, SpecFormatError
from ..spec.model import EnumValue, Field, Spec, Worksheet, parse_type
from .action_apis import action_api_mocks
from .canonical import describe_validation_error, parse_json
from .grid import Record, cell_error, header_key, read_records
from .markers import strip_action_markers
from .paper_csv import is_enum_type, mock_api

REFERENCE_COLUMNS = (
    "Form Predicate", "Form Name", "Predicate", "Kind", "Type", "Name", "Enum Values",
    "Description", "Don't Ask", "Required", "Confirm", "Actions", "Form Actions",
)  # fmt: skip
(WS_PREDICATE, WS_NAME, PREDICATE, KIND, TYPE, NAME, ENUM_VALUES, DESCRIPTION,
 DONT_ASK, REQUIRED, CONFIRM, ACTIONS, WS_ACTIONS) = range(13)  # fmt: skip
_HEADER_KEYS = tuple(header_key(c) for c in REFERENCE_COLUMNS)

EXAMPLES_AFTER_VALIDATION = 14  # headerless sheets: Validation is column 13, Examples may follow

WS_TYPES = {"worksheet": "task", "task": "task", "db": "kb", "kb": "kb", "type": "type"}

def is_reference_header(cells: list[str]) -> bool:
    """The reference's own header, in its fixed order (a Validation column may follow)."""
    keys = tuple(header_key(c) for c in cells[: len(_HEADER_KEYS)])
    return keys == _HEADER_KEYS


def looks_like_header(cells: list[str]) -> bool:
    """Any header naming at least three of the reference's columns."""
    return sum(header_key(c) in _HEADER_KEYS for c in cells) >= 3


def looks_like_headerless_sheet(records: list[Record]) -> bool:
    """Whether some early row is a reference worksheet row (Form Name + worksheet type)."""
    for rec in records[:20]:
        if rec.at(WS_NAME).strip() and rec.at(TYPE).strip().lower() in WS_TYPES:
            return True
    return False


def reference_bool(value: Any) -> bool:
    """The reference's rule: only `TRUE` (or a JSON true) is true."""
    if isinstance(value, bool):
        return value
    return isinstance(value, str) and value.strip() == "TRUE"


def reference_kind(text: str, error: Callable[[str], SpecFormatError]) -> tuple[str, bool]:
    """`input`/`internal`, and whether the kind marks a primary key."""
    word = (text or "").strip().lower()
    if word and not any(k in word for k in ("input", "internal", "output", "primary")):
        raise error(f"unknown kind '{text.strip()}' (use input, internal or output)")
    kind = "internal" if "internal" in word else "output" if "output" in word else "input"
    return kind, "primary" in word


def _spec_with_mocks(worksheets: list[Worksheet]) -> Spec:
    """The spec, with a mock API for each backend API the worksheets name or their actions call."""
    apis = []
    for ws in worksheets:
        if ws.api and ws.api not in {a.name for a in apis}:
            apis.append(mock_api(ws.api, ws.name))
    apis += action_api_mocks(worksheets, apis)
    return Spec(worksheets=worksheets, apis=apis)


# ---------------------------------------------------------------- CSV


def loads_reference_csv(text: str, *, source: str = "<string>") -> Spec:
    """Read the reference's CSV layout (header row optional)."""
    records = read_records(text, source=source)
    examples_at = EXAMPLES_AFTER_VALIDATION
    if looks_like_header(records[0].cells):
        keys = [header_key(c) for c in records[0].cells]
        examples_at = keys.index("examples") if "examples" in keys else None
        records = records[1:]
    worksheets: list[Worksheet] = []
    enum_field: Field | None = None

    def error(rec: Record, column: int, message: str) -> SpecFormatError:
        return cell_error(message, source=source, row=rec.number, column=REFERENCE_COLUMNS[column])

    for rec in records:
        type_text, name = rec.at(TYPE).strip(), rec.at(NAME).strip()
        if rec.at(WS_NAME).strip():
            enum_field = None
            ws_type = type_text.lower() or "worksheet"
            if ws_type not in WS_TYPES:
                raise error(
                    rec, TYPE, f"unknown worksheet type '{type_text}' (worksheet, db or type)"
                )
            worksheets.append(
                Worksheet(
                    name=rec.at(WS_NAME).strip(),
                    kind=WS_TYPES[ws_type],
                    predicate=strip_action_markers(rec.at(WS_PREDICATE)),
                    description=rec.at(DESCRIPTION),
                    api=name or None,
                    actions=strip_action_markers(rec.at(WS_ACTIONS)),
                )
            )
            worksheets[-1].examples = _cell_examples(rec, examples_at)
        elif type_text or name:
            if not worksheets:
                raise error(rec, WS_NAME, f"field '{name}' comes before any worksheet row")
            if not type_text:
                raise error(rec, TYPE, f"missing type for field '{name}'")
            if not name:
                raise error(rec, NAME, f"missing name for a field of type '{type_text}'")
            kind, primary = reference_kind(rec.at(KIND), lambda m: error(rec, KIND, m))
            f = Field(
                name=name,
                type=type_text,
                kind=kind,
                predicate=strip_action_markers(rec.at(PREDICATE)),
                description=rec.at(DESCRIPTION),
                dont_ask=reference_bool(rec.at(DONT_ASK)),
                required=reference_bool(rec.at(REQUIRED)),
                confirm=reference_bool(rec.at(CONFIRM)),
                actions=strip_action_markers(rec.at(ACTIONS)),
                primary_key=primary,
            )
            f.examples = _cell_examples(rec, examples_at)
            worksheets[-1].fields.append(f)
            enum_field = f if is_enum_type(type_text) else None
        elif rec.at(ENUM_VALUES).strip():
            value = rec.at(ENUM_VALUES).strip()
            if enum_field is None:
                raise error(rec, ENUM_VALUES, f"enum value '{value}' is not under an Enum field")
            enum_field.enum_values.append(EnumValue(value=value, description=rec.at(DESCRIPTION),
                                                    examples=_cell_examples(rec, examples_at)))
        else:
            raise error(rec, NAME, "row has content but no form name, field name or enum value")
    return _spec_with_mocks(worksheets)


# ---------------------------------------------------------------- JSON


@dataclass(frozen=True)
class _Where:
    """The worksheet (and field) a JSON error is about, for its message and context."""

    source: str
    worksheet_label: str
    worksheet: str | None = None
    field_label: str = ""
    field: str | None = None

    def error(self, attribute: str, message: str) -> SpecFormatError:
        where = " ".join(p for p in (self.worksheet_label, self.field_label) if p)
        return SpecFormatError(
            f"{where}: {attribute}: {message}",
            file=self.source, worksheet=self.worksheet, field=self.field, attribute=attribute,
        )  # fmt: skip


def loads_reference_json(text: str, *, source: str = "<string>") -> Spec:
    """Read the reference's JSON layout: a list of worksheet objects."""
    data = parse_json(text, source=source)
    if not isinstance(data, list):
        raise SpecFormatError(
            f"a reference spec is a JSON list of worksheets, not a {type(data).__name__}",
            file=source,
        )
    worksheets: list[Worksheet] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise SpecFormatError(f"worksheets[{i}]: expected an object", file=source)
        name = item.get("ws_name")
        named = isinstance(name, str) and bool(name.strip())
        where = _Where(
            source,
            f"worksheets[{i}] '{name.strip()}'" if named else f"worksheets[{i}]",
            name.strip() if named else None,
        )
        worksheets.append(_json_worksheet(item, where))
    return _spec_with_mocks(worksheets)


def _text(obj: dict[str, Any], key: str, where: _Where, *, strip: bool = False) -> str:
    value = obj.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise where.error(key, f"expected a string, got {type(value).__name__}")
    return value.strip() if strip else value


def _flag(obj: dict[str, Any], key: str, where: _Where) -> bool:
    value = obj.get(key)
    if value is None or isinstance(value, (bool, str)):
        return reference_bool(value)
    raise where.error(key, f"expected true/false or 'TRUE', got {value!r}")


def _json_worksheet(item: dict[str, Any], where: _Where) -> Worksheet:
    name = _text(item, "ws_name", where, strip=True)
    if not name:
        raise where.error("ws_name", "missing worksheet name")
    ws_type = _text(item, "ws_type", where, strip=True).lower() or "worksheet"
    if ws_type not in WS_TYPES:
        raise where.error("ws_type", f"unknown worksheet type '{ws_type}' (worksheet, db or type)")
    fields = item.get("fields") or []
    if not isinstance(fields, list):
        raise where.error("fields", "expected a list of fields")
    ws = _validated(
        where,
        lambda: Worksheet(
            name=name,
            kind=WS_TYPES[ws_type],
            predicate=strip_action_markers(_text(item, "ws_predicate", where)),
            description=_text(item, "ws_description", where),
            api=_text(item, "ws_backend_api", where, strip=True) or None,
            actions=strip_action_markers(_text(item, "ws_actions", where)),
            examples=_json_examples(item, ("ws_examples", "examples"), where),
        ),
    )
    for j, raw in enumerate(fields):
        field_name = raw.get("field_name") if isinstance(raw, dict) else None
        named = isinstance(field_name, str) and bool(field_name.strip())
        at = _Where(
            where.source,
            where.worksheet_label,
            where.worksheet,
            f"field '{field_name.strip()}'" if named else f"fields[{j}]",
            field_name.strip() if named else None,
        )
        if not isinstance(raw, dict):
            raise at.error("fields", "expected an object")
        ws.fields.append(_json_field(raw, at))
    return ws


def _json_field(raw: dict[str, Any], where: _Where) -> Field:
    name = _text(raw, "field_name", where, strip=True)
    type_text = _text(raw, "field_type", where, strip=True)
    if not name:
        raise where.error("field_name", "missing field name")
    if not type_text:
        raise where.error("field_type", f"missing type for field '{name}'")
    kind, primary = reference_kind(
        _text(raw, "field_kind", where), lambda m: where.error("field_kind", m)
    )
    values = raw.get("enum_values") or []
    if not isinstance(values, list):
        raise where.error("enum_values", "expected a list")
    enum_values = []
    for v in values:
        if isinstance(v, str):
            enum_values.append(EnumValue(value=v.strip()))
        elif isinstance(v, dict) and isinstance(v.get("value"), str):
            desc = v.get("description")
            if desc is not None and not isinstance(desc, str):
                raise where.error("enum_values", f"description of '{v['value']}' is not a string")
            enum_values.append(EnumValue(value=v["value"].strip(), description=desc or "",
                                         examples=_json_examples(v, ("examples",), where)))
        else:
            raise where.error(
                "enum_values", f"expected a string or {{value, description}}, got {v!r}"
            )
    if enum_values:
        type_text = enum_type(type_text)
    return _validated(
        where,
        lambda: Field(
            name=name,
            type=type_text,
            kind=kind,
            predicate=strip_action_markers(_text(raw, "field_predicate", where)),
            description=_text(raw, "field_description", where),
            enum_values=enum_values,
            dont_ask=_flag(raw, "field_dont_ask", where),
            required=_flag(raw, "field_required", where),
            confirm=_flag(raw, "field_confirm", where),
            actions=strip_action_markers(_text(raw, "field_actions", where)),
            primary_key=primary,
            examples=_json_examples(raw, ("field_examples", "examples"), where),
        ),
    )


def enum_type(type_text: str) -> str:
    """A field with enum values is an Enum in the reference, whatever its type says (`str`
    becomes `Enum`, `List[str]` becomes `List[Enum]`); other types are kept for lint to judge."""
    try:
        ref = parse_type(type_text)
    except SpecError:
        return type_text
    item = ref.item if ref.is_list and ref.item is not None else ref
    if item.base not in ("str", "Enum"):
        return type_text
    return "List[Enum]" if ref.is_list else "Enum"


def _validated(where: _Where, build: Callable[[], Any]) -> Any:
    try:
        return build()
    except ValidationError as exc:
        message, context = describe_validation_error(exc, None)
        raise where.error(context.get("attribute", "value"), message) from exc


def _cell_examples(rec: Record, column: int | None) -> list[str]:
    """Example utterances in a CSV cell, one per line."""
    if column is None:
        return []
    return [line.strip() for line in rec.at(column).splitlines() if line.strip()]


def _json_examples(obj: dict[str, Any], keys: tuple[str, ...], where: _Where) -> list[str]:
    """The first of `keys` present: a list of example strings (a single string is one example)."""
    key = next((k for k in keys if obj.get(k) is not None), None)
    if key is None:
        return []
    value = obj[key]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(key, f"expected a list of example strings, got {value!r}")
    return [v.strip() for v in value if v.strip()]
