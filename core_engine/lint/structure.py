"""Checks on the spec's declarations: names, types, enums, flags, APIs, nesting, start.

Each check is a function `(index) -> list[Diagnostic]` that never raises on a
malformed spec: whatever it cannot make sense of is itself a diagnostic.
"""

from __future__ import annotations

import keyword
from collections import Counter

from ..errors import SpecError
from ..secrets import api_literal_secrets
from ..spec.model import PRIMITIVE_TYPES, Field, parse_type
from .diagnostic import Diagnostic, error, warning
from .index import SpecIndex, base_of, closest


def _is_name(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def check_names(index: SpecIndex) -> list[Diagnostic]:
    """Worksheet, field and API names must be Python identifiers: code refers to them."""
    diags: list[Diagnostic] = []
    spec = index.spec
    for ws in spec.worksheets:
        if not _is_name(ws.name):
            diags.append(error("bad-name", f"Worksheet name '{ws.name}' is not an identifier: use "
                               "letters, digits and underscores, e.g. BookRestaurant.",
                               ws.name, None, "name"))
        for f in ws.fields:
            if not _is_name(f.name):
                diags.append(error("bad-name", f"Field name '{f.name}' is not an identifier (or is a "
                                   "Python keyword): use snake_case, e.g. number_of_people.",
                                   ws.name, f.name, "name"))
    for api in spec.apis:
        if not _is_name(api.name):
            diags.append(error("bad-name", f"API name '{api.name}' is not an identifier.",
                               None, None, "name", api=api.name))
        for p in api.parameters:
            if not _is_name(p.name):
                diags.append(error("bad-name", f"Parameter '{p.name}' of API {api.name} is not an "
                                   "identifier.", None, None, "parameters", api=api.name))
    return diags


def check_duplicates(index: SpecIndex) -> list[Diagnostic]:
    """Second and later definitions of a name are errors; repeated enum values warnings."""
    diags: list[Diagnostic] = []
    spec = index.spec
    seen_ws: set[str] = set()
    for ws in spec.worksheets:
        if ws.name in seen_ws:
            diags.append(error("duplicate-name", f"There are several worksheets named {ws.name}; "
                               "rename or delete all but one.", ws.name, None, "name"))
        seen_ws.add(ws.name)
        seen_fields: set[str] = set()
        for f in ws.fields:
            if f.name in seen_fields:
                diags.append(error("duplicate-name", f"Worksheet {ws.name} has several fields named "
                                   f"{f.name}; rename or delete all but one.", ws.name, f.name, "name"))
            seen_fields.add(f.name)
            counts = Counter(v.strip().casefold() for v in f.enum_names)
            for value, n in counts.items():
                if n > 1:
                    diags.append(warning("duplicate-name", f"Enum value '{value}' is listed {n} times "
                                         f"(ignoring case).", ws.name, f.name, "enum_values"))
    seen_api: set[str] = set()
    for api in spec.apis:
        if api.name in seen_api:
            diags.append(error("duplicate-name", f"There are several APIs named {api.name}.",
                               None, None, "name", api=api.name))
        seen_api.add(api.name)
    return diags


def _type_problem(text: str, index: SpecIndex) -> str | None:
    """Why a type string is not a usable type (a sentence), or None when it is."""
    try:
        ref = parse_type(text)
    except SpecError:
        return f"Unknown type '{text}': write a type such as str, int, List[str] or Restaurant."
    inner = base_of(ref)
    if inner.base == "List":
        return f"Unknown type '{text}': a list needs an item type, e.g. List[str]."
    if inner.is_primitive or inner.base in index.worksheets:
        return None
    close = closest(inner.base, [*PRIMITIVE_TYPES, *index.worksheets], cutoff=0.6)
    hint = f"did you mean {close}?" if close else "use a primitive type or the name of a worksheet."
    return f"Unknown type '{inner.base}': it is neither a primitive type nor a worksheet; {hint}"


def check_types(index: SpecIndex) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for ws in index.spec.worksheets:
        for f in ws.fields:
            problem = _type_problem(f.type, index)
            if problem:
                diags.append(error("unknown-type", problem, ws.name, f.name, "type"))
                continue
            ref = parse_type(f.type)
            if ref.is_list and base_of(ref).base == "confirm":
                diags.append(error("list-of-confirm", f"A list of confirm checkpoints ({f.type}) means "
                                   "nothing; use a single confirm field.", ws.name, f.name, "type"))
    for api in index.spec.apis:
        for p in api.parameters:
            problem = _type_problem(p.type, index)
            if problem:
                diags.append(error("unknown-type", f"Parameter {p.name} of API {api.name}: {problem}",
                                   None, None, "parameters", api=api.name))
    return diags


def _is_enum(f: Field) -> bool | None:
    try:
        return base_of(parse_type(f.type)).base == "Enum"
    except SpecError:
        return None  # an unknown type, reported by check_types


def check_enums(index: SpecIndex) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for ws in index.spec.worksheets:
        for f in ws.fields:
            enum = _is_enum(f)
            if enum and not f.enum_values:
                make = warning if ws.kind == "kb" else error
                diags.append(make("empty-enum", f"Field {f.name} is an Enum without values: list the "
                                  "allowed values, or change its type.", ws.name, f.name, "enum_values"))
            elif enum is False and f.enum_values:
                diags.append(warning("enum-on-non-enum", f"Field {f.name} has enum values but its type "
                                     f"is {f.type}; they are ignored unless the type is Enum.",
                                     ws.name, f.name, "enum_values"))
    return diags


def check_flags(index: SpecIndex) -> list[Diagnostic]:
    """Attribute combinations that cannot do what the developer meant."""
    diags: list[Diagnostic] = []
    for ws in index.spec.worksheets:
        for f in ws.fields:
            if ws.kind == "task" and f.kind == "input" and f.required and f.dont_ask:
                diags.append(warning(
                    "required-and-dont-ask",
                    f"Field {f.name} is required but marked dont_ask: the agent will never ask it, so "
                    f"{ws.name} completes only if an action, a propose() or the user fills it. "
                    "Make it optional, or let the agent ask.", ws.name, f.name, "dont_ask"))
            if f.confirm and _type_base(f) == "confirm":
                diags.append(warning("redundant-confirm", f"Field {f.name} is a confirm checkpoint "
                                     "already; its confirm flag asks the user to confirm the "
                                     "confirmation. Clear the flag.", ws.name, f.name, "confirm"))
        if ws.kind == "kb":
            if ws.actions.strip():
                diags.append(warning("kb-actions", f"Worksheet {ws.name} is a KB table schema; its WS "
                                     "actions never run. Move them to a type or task worksheet.",
                                     ws.name, None, "ws_actions"))
            for f in ws.fields:
                if f.actions.strip():
                    diags.append(warning("kb-actions", f"Worksheet {ws.name} is a KB table schema; the "
                                         f"actions of column {f.name} never run.",
                                         ws.name, f.name, "actions"))
    return diags


def _type_base(f: Field) -> str | None:
    try:
        return parse_type(f.type).base
    except SpecError:
        return None


def check_apis(index: SpecIndex) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for ws in index.spec.worksheets:
        if ws.api and ws.api not in index.api_names:
            close = closest(ws.api, index.api_names, cutoff=0.6)
            hint = f" Did you mean {close}?" if close else " Declare it under the spec's APIs."
            diags.append(error("unknown-api", f"Worksheet {ws.name} calls API '{ws.api}', which is not "
                               f"declared.{hint}", ws.name, None, "api"))
    for api in index.spec.apis:
        if api.kind == "http" and not (api.url or "").strip():
            diags.append(error("api-missing-url", f"API {api.name} is an http API without a url.",
                               None, None, "url", api=api.name))
        elif api.kind == "http" and not (api.url or "").strip().lower().startswith(("http://", "https://")):
            diags.append(error("api-bad-url", f"API {api.name} has the url '{api.url}': an http API "
                               "needs an http:// or https:// url.", None, None, "url", api=api.name))
        for where in api_literal_secrets(api):
            diags.append(warning("api-literal-secret", f"API {api.name} holds a literal credential in {where}; "
                               "write it as ${env:NAME} so it is read from the environment at call time "
                               "(exports blank literal credentials).", None, None, "headers", api=api.name))
        if api.kind == "python" and not (api.function or "").strip():
            diags.append(error("api-missing-function", f"API {api.name} is a python API without a "
                               "function name.", None, None, "function", api=api.name))
    return diags


def check_cycles(index: SpecIndex) -> list[Diagnostic]:
    """Worksheets that contain themselves, directly or through others (and List[...])."""
    diags: list[Diagnostic] = []
    reported: set[frozenset[str]] = set()
    order = list(index.worksheets)

    def walk(node: str, path: list[tuple[str, str]], on_path: dict[str, int], done: set[str]) -> None:
        on_path[node] = len(path)
        for field_name, child in index.children.get(node, []):
            if child in on_path:
                cycle = path[on_path[child]:] + [(node, field_name)]
                key = frozenset(ws for ws, _ in cycle)
                if key not in reported:
                    reported.add(key)
                    diags.append(_cycle_diag(cycle, order))
            elif child not in done:
                walk(child, path + [(node, field_name)], on_path, done)
        del on_path[node]
        done.add(node)

    done: set[str] = set()
    for name in order:
        if name not in done:
            walk(name, [], {}, done)
    return diags


def _cycle_diag(cycle: list[tuple[str, str]], order: list[str]) -> Diagnostic:
    # start the cycle at the worksheet defined first, so the message is stable
    first = min(range(len(cycle)), key=lambda i: order.index(cycle[i][0]))
    cycle = cycle[first:] + cycle[:first]
    path = " -> ".join(f"{ws}.{fld}" for ws, fld in cycle) + f" -> {cycle[0][0]}"
    ws, fld = cycle[0]
    return error("nesting-cycle", f"Worksheet nesting has a cycle: {path}. A worksheet cannot "
                 "contain itself; break the cycle by changing one of these field types.",
                 ws, fld, "type")


def check_start(index: SpecIndex) -> list[Diagnostic]:
    spec = index.spec
    named = spec.settings.start_worksheet
    if named:
        ws = spec.worksheet(named)
        if ws is None:
            return [error("no-start-worksheet", f"The start_worksheet setting names '{named}', which is "
                          "not a worksheet.", None, None, "start_worksheet")]
        if ws.kind != "task":
            return [error("no-start-worksheet", f"The start_worksheet setting names {named}, a {ws.kind} "
                          "worksheet; the start worksheet must be a task worksheet.",
                          named, None, "start_worksheet")]
        return []
    start = index.start_worksheet()
    if start is not None and (start.predicate.strip() or start.name in index.nested):
        why = "has a WS predicate" if start.predicate.strip() else "is nested in another worksheet"
        return [warning("start-worksheet-guarded", f"{start.name} opens every session because it is the "
                        f"first task worksheet, but it {why}. Move the entry worksheet (e.g. Main) "
                        "first or set settings.start_worksheet.", start.name, None, "start_worksheet")]
    return []


def check_reachability(index: SpecIndex, proposed: set[str]) -> list[Diagnostic]:
    """Task worksheets nothing can activate: not start, not nested, no WS predicate, never proposed."""
    start = index.start_worksheet()
    if start is None or start.kind != "task":  # a broken start setting is reported by check_start
        start = index.default_start()
    diags: list[Diagnostic] = []
    for name, ws in index.worksheets.items():
        if ws.kind != "task" or (start is not None and start.name == name):
            continue
        if name in index.nested or ws.predicate.strip() or name in proposed:
            continue
        diags.append(warning("unreachable-worksheet", f"Nothing can activate {name}: it is not the "
                             "start worksheet, no field has it as type, it has no WS predicate and "
                             "no action proposes it. Give it a WS predicate or nest it in a "
                             "worksheet.", name, None, "ws_predicate"))
    return diags


def check_internal_fields(index: SpecIndex, assigned: set[str]) -> list[Diagnostic]:
    """Required internal fields that no action assigns keep their worksheet from completing."""
    diags: list[Diagnostic] = []
    for name, ws in index.worksheets.items():
        if ws.kind != "task":
            continue
        for f in ws.fields:
            if f.kind == "internal" and f.required and f.name not in assigned:
                diags.append(warning("internal-never-assigned", f"Internal field {f.name} is required "
                                     "but no action assigns it, and the agent never asks internal "
                                     f"fields, so {name} cannot complete. Assign it in an action or "
                                     "make it optional.", name, f.name, "required"))
    return diags
