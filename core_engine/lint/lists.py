"""List fields the agent cannot fill, and APIs the loader declared as stand-ins.

A `List[Worksheet]` field is filled item by item (constructors, `append`,
indexing) and ended by the user; that only works when an item is something the
formal language can build and the agent can ask for. A list of lists, or a list
of task records with nothing to ask, cannot be
filled in a conversation, so lint says so before a user meets a question the
agent repeats forever.
"""

from __future__ import annotations

from ..errors import SpecError
from ..loaders.action_apis import MOCK_NOTE
from ..spec.model import parse_type
from .diagnostic import Diagnostic, warning
from .index import SpecIndex

_MOCK_PREFIX = MOCK_NOTE.split("{", 1)[0]


def check_list_fields(index: SpecIndex) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for name, ws in index.worksheets.items():
        if ws.kind != "task":
            continue
        for f in ws.fields:
            try:
                tref = parse_type(f.type)
            except SpecError:
                continue  # check_types reports it
            if not tref.is_list or tref.item is None or f.kind != "input" or f.dont_ask:
                continue
            item = tref.item
            why = None
            if item.is_list:
                why = "a list of lists cannot be filled in a conversation; use a list of records"
            elif item.worksheet and item.worksheet in index.worksheets:
                target = index.worksheets[item.worksheet]
                askable = [g for g in target.fields if g.kind == "input" and not g.dont_ask]
                if target.kind == "task" and not askable:
                    why = (f"{target.name} has no field the agent can ask, so its items never complete "
                           "and the list never ends")
                elif target.kind == "type" and not target.fields:
                    why = f"{target.name} has no fields, so an item cannot be given"
            if why:
                diags.append(warning("list-cannot-be-filled", f"{name}.{f.name} ({f.type}): {why}.",
                                     name, f.name, "type"))
    return diags


def check_loader_mocks(index: SpecIndex) -> list[Diagnostic]:
    """APIs the loader declared because actions call them: they run, but only as mocks."""
    return [Diagnostic("warning", "api-declared-by-loader",
                       f"API {api.name}: {api.description.splitlines()[0]} Implement it (python or http) "
                       "before relying on its results.", None, None, "kind", api=api.name)
            for api in index.spec.apis if api.kind == "mock" and api.description.startswith(_MOCK_PREFIX)]
