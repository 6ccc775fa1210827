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
