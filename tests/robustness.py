"""Invariants shared by the fuzz, hostile-input, fault and load suites.

A turn is *sound* when: its JSON form (what `genie chat --jsonl` prints) is strict
JSON; its state round-trips through `DialogueState.from_json`; and it did not end in
the engine's "internal error" fallback (an exception that is not a `GenieError` is a
bug: bad input must become a clear error, never a traceback in the trace).
"""

from __future__ import annotations

import ast
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from core_engine import DialogueState, GenieError

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "sample_projects"
SAMPLES = ("ticket_submission", "bank_fraud", "restaurant_reservation", "course_enrollment")


def strict_json(value: Any) -> str:
    """JSON text of `value`, refusing NaN/Infinity and non-JSON objects."""
    return json.dumps(value, allow_nan=False, sort_keys=True)


def assert_state_sound(state: dict[str, Any]) -> None:
    strict_json(state)
    again = DialogueState.from_json(json.loads(json.dumps(state))).to_json()
    assert again == state, "state does not round-trip through DialogueState.from_json"


def assert_turn_sound(result: Any, *, allow_fallback: bool = True) -> None:
    """The turn's JSON is strict, its state round-trips, and no internal error happened."""
    strict_json(result.to_json(1))
    assert_state_sound(result.state)
    fallback = result.trace.get("fallback")
    assert "traceback" not in result.trace, f"internal error: {fallback}\n{result.trace.get('traceback')}"
    if fallback is not None:
        assert allow_fallback, f"unexpected fallback: {fallback}"
        assert fallback.get("reason") != "internal error", fallback
        assert not result.ok
    assert isinstance(result.response, str) and result.response.strip(), "empty response"


def assert_clear_error(exc: BaseException) -> None:
    """A GenieError with a message a user can read."""
    assert isinstance(exc, GenieError), f"{type(exc).__name__}: {exc}"
    assert str(exc).strip()


def assert_statements_are_data(statements: list[str], spec: Any) -> None:
    """Parser output keeps user text inside string literals: only paths, constants and the
    language's calls (answer, confirm, exitws, worksheet constructors), no dunder or private names."""
    callable_names = {"answer", "confirm", "exitws"} | {ws.name for ws in spec.worksheets}
    for text in statements:
        for node in ast.walk(ast.parse(text)):
            assert not isinstance(node, (ast.Import, ast.ImportFrom, ast.Lambda, ast.FunctionDef)), text
            if isinstance(node, ast.Name):
                assert not node.id.startswith("_"), text
            if isinstance(node, ast.Attribute):
                assert not node.attr.startswith("_"), text
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                assert name in callable_names, f"call of {name!r} in {text!r}"


def file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def db_dump(path: Path) -> list[str]:
    """The logical content of an SQLite file (schema and rows), for before/after comparisons."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()
