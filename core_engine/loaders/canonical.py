"""The canonical spec file: the JSON of the `Spec` model, with every default written out.

Writing is deterministic (model field order, indent 2, UTF-8 kept as is, one
trailing newline) so that a saved spec diffs cleanly and `dumps(loads(t)) == t`
for any text this module wrote. Reading validates with pydantic and reports a
failure by worksheet, field and attribute name rather than by list index.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from ..errors import SpecError, SpecFormatError
from ..jsonsafe import JSON_MAX_DEPTH, json_depth
from ..spec.model import SPEC_FORMAT_VERSION, Spec

MAX_LISTED_ERRORS = 5

# list attribute -> (label for a named item, key holding the name, context key)
_NAMED_LISTS = {
    "worksheets": ("worksheets[{i}] '{name}'", "name", "worksheet"),
    "fields": ("field '{name}'", "name", "field"),
    "apis": ("api '{name}'", "name", "api"),
    "parameters": ("parameter '{name}'", "name", "parameter"),
    "enum_values": ("enum value '{name}'", "value", "enum_value"),
}


_OMIT_WHEN_EMPTY = {"examples": [], "embedding_model": None}
"""Optional attributes left out of the canonical text while unset, so specs that do not
use them stay byte-identical to what they were before the attributes existed."""


def _omit_unset(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: _omit_unset(v)
            for k, v in node.items()
            if not (k in _OMIT_WHEN_EMPTY and v == _OMIT_WHEN_EMPTY[k])
        }
    if isinstance(node, list):
        return [_omit_unset(v) for v in node]
    return node


def dumps_json(spec: Spec) -> str:
    """The canonical JSON text of a spec."""
    data = _omit_unset(spec.model_dump(mode="json"))
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def loads_json(text: str, *, source: str = "<string>") -> Spec:
    """Parse canonical JSON; SpecFormatError for bad JSON, SpecError for a bad spec."""
    data = parse_json(text, source=source)
    if not isinstance(data, dict):
        raise SpecFormatError(
            f"a canonical spec is a JSON object, not a {type(data).__name__}", file=source
        )
    check_format_version(data.get("format_version"), source=source)
    return validate_spec(data, source=source)


def parse_json(text: str, *, source: str) -> Any:
    """`json.loads` whose errors name the file, line and column."""
    try:
        text = text.lstrip("\ufeff")
        if json_depth(text) > JSON_MAX_DEPTH:
            raise SpecFormatError(f"the JSON is nested more than {JSON_MAX_DEPTH} levels deep", file=source)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecFormatError(
            f"line {exc.lineno}, column {exc.colno}: malformed JSON: {exc.msg}",
            file=source,
            line=exc.lineno,
            column=exc.colno,
        ) from exc


def check_format_version(version: Any, *, source: str) -> None:
    """Refuse a spec written by a newer Genie Studio (its meaning may have changed)."""
    if isinstance(version, str):  # pydantic reads "2" (and 2.0) as 2: judge the number it becomes
        try:
            version = float(version.strip())
        except ValueError:
            return
    if isinstance(version, (int, float)) and not isinstance(version, bool):
        if version > SPEC_FORMAT_VERSION:
            raise SpecError(
                f"format_version {version} is newer than this engine reads "
                f"({SPEC_FORMAT_VERSION}); upgrade Genie Studio",
                file=source,
                attribute="format_version",
            )


def validate_spec(data: dict[str, Any], *, source: str) -> Spec:
    """`Spec.model_validate` with pydantic's errors turned into one SpecError."""
    try:
        return Spec.model_validate(data)
    except ValidationError as exc:
        message, context = describe_validation_error(exc, data)
        raise SpecError(message, file=source, **context) from exc


def describe_validation_error(
    exc: ValidationError, data: Any
) -> tuple[str, dict[str, str]]:
    """A readable message for all errors, and the context of the first one.

    `('worksheets', 2, 'fields', 0, 'type')` becomes
    `worksheets[2] 'BookRestaurant' field 'date': type: <pydantic's message>`.
    """
    errors = exc.errors(include_url=False)
    lines: list[str] = []
    first_context: dict[str, str] = {}
    for k, err in enumerate(errors[:MAX_LISTED_ERRORS]):
        where, attribute, context = _locate(tuple(err["loc"]), data)
        parts = [p for p in (where, attribute) if p]
        lines.append(f"{': '.join(parts) or 'spec'}: {err['msg']}")
        if k == 0:
            first_context = context
            if attribute:
                first_context["attribute"] = attribute
    more = len(errors) - MAX_LISTED_ERRORS
    if more > 0:
        lines.append(f"and {more} more error(s)")
    return "; ".join(lines), first_context


def _locate(loc: tuple[Any, ...], data: Any) -> tuple[str, str, dict[str, str]]:
    """Split a pydantic loc into named list items (`where`) and the attribute path."""
    labels: list[str] = []
    context: dict[str, str] = {}
    node = data
    i = 0
    while i + 1 < len(loc) and loc[i] in _NAMED_LISTS and isinstance(loc[i + 1], int):
        attr, index = loc[i], loc[i + 1]
        template, name_key, context_key = _NAMED_LISTS[attr]
        items = node.get(attr) if isinstance(node, dict) else None
        item = items[index] if isinstance(items, list) and 0 <= index < len(items) else None
        name = item.get(name_key) if isinstance(item, dict) else item
        if isinstance(name, str) and name:
            labels.append(template.format(i=index, name=name))
            context[context_key] = name
        else:
            labels.append(f"{attr}[{index}]")
        node = item
        i += 2
    attribute = ".".join(str(part) for part in loc[i:])
    return " ".join(labels), attribute, context
