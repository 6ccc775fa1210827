"""The parser interface: user utterance + context -> formal statements (as text).

All parsers emit the same formal statement language (`statements.py`), so the
interpreter, the policy and the tests never care which parser ran.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..spec.model import Spec
from ..dialogue.state import DialogueState


@dataclass
class ParseContext:
    spec: Spec
    state: DialogueState
    today: dt.date
    kb: Any = None  # an SQLiteKB when the project has one (offline parser uses its values)


@dataclass
class ParseResult:
    text: str
    rules: list[dict[str, Any]] = field(default_factory=list)
    llm_calls: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None


class Parser(Protocol):
    name: str

    def parse(self, utterance: str, ctx: ParseContext) -> ParseResult: ...
