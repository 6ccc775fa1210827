"""Building blocks of the small specs the offline-parser tests write for themselves."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any


def field(name: str, type_: str = "str", description: str = "", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "description": description, **extra}


def task_choice(*options: dict[str, Any]) -> dict[str, Any]:
    """The start worksheet `Main` with one Enum field `task` whose values open the task worksheets."""
    return {"name": "Main", "kind": "task",
            "fields": [field("task", "Enum", "What you would like to do", enum_values=list(options))]}


TODAY = datetime.date(2024, 7, 1)  # a Monday: the day these test specs are played on


def talk(agent: Any, *turns: str) -> tuple[Any, list[Any]]:
    """A new offline-parser session on TODAY, and the result of each turn."""
    session = agent.new_session(parser="offline", today=TODAY)
    return session, [session.turn(t) for t in turns]


def statements(result: Any) -> list[str]:
    return result.trace["parse"]["statements"]


def agent_of(root: Path, spec: dict[str, Any]) -> Any:
    """An agent loaded from `spec` written as ROOT/spec.json (a spec with no KB)."""
    from core_engine.session.agent import Agent
    (root / "spec.json").write_text(json.dumps(spec))
    return Agent.load(root)


def agent_with_kb(tmp_path_factory: Any, name: str, spec: dict[str, Any],
                  tables: dict[str, tuple[list[dict[str, Any]], list[str]]]) -> Any:
    """A generator for a module fixture: an agent loaded from `spec` with a KB of `tables` (name -> (rows, free-text
    columns)), its text vectors in a temporary cache that is dropped afterwards (`yield from agent_with_kb(...)`)."""
    import os

    from core_engine.session.agent import Agent
    from storage.kb.importer import import_records
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("vectors"))
    try:
        root = tmp_path_factory.mktemp(name)
        for table, (rows, free_text) in tables.items():
            import_records(root / "kb.sqlite", rows, table, free_text=free_text or None)
        (root / "spec.json").write_text(json.dumps(spec))
        yield Agent.load(root)
    finally:
        if old is None:
            os.environ.pop("GENIE_CACHE_DIR", None)
        else:
            os.environ["GENIE_CACHE_DIR"] = old


def record_values(session: Any, var: str) -> dict[str, Any]:
    """The plain values of record `var` in a session's state ({} when there is none)."""
    rec = next((r for r in session.state["records"] if r["var"] == var), None)
    return {k: v for k, v in rec["values"].items() if not isinstance(v, dict)} if rec is not None else {}
