"""Served conversations out of the session store: `genie chat --jsonl` lines, a conversation test,
or a conversation log in a project file (where the studio's Playground opens it).

The shapes are the engine's and storage's own: turns are stored as `TurnResult.to_json(n)`,
tests come from `core_engine.session.recording.conversation_to_test`, logs from `ProjectFile.start_log`.
"""

from __future__ import annotations

import json
from typing import Any

from core_engine.session.recording import conversation_to_test

from .stores.base import SessionStore, UnknownSession


def turns_of(store: SessionStore, session_id: str) -> list[dict[str, Any]]:
    turns = store.turns(session_id)
    if not turns and store.get(session_id) is None:
        raise UnknownSession(f"no session {session_id!r}", session=session_id)
    return turns


def to_jsonl(turns: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(t, ensure_ascii=False, default=str) + "\n" for t in turns)


def to_test(turns: list[dict[str, Any]], session_id: str, *, name: str | None = None, parser: str = "offline",
            rg: str = "template", today: str | None = None) -> dict[str, Any]:
    test = conversation_to_test(name or f"served conversation {session_id}", turns, parser=parser, rg=rg,
                                description=f"recorded by genie serve, session {session_id}")
    if today:
        test["today"] = today
    return test


def to_project_log(turns: list[dict[str, Any]], session_id: str, project_ref: str, *, parser: str = "offline",
                   rg: str = "template") -> str:
    """Copy the conversation into the project file as a conversation log; returns the log id."""
    from storage.cli_project import open_project
    with open_project(project_ref) as project:
        log = project.start_log(parser=parser, rg=rg, title=f"served session {session_id}")
        for turn in turns:
            log.append(turn)
        return log.id
