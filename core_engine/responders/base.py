"""The response-generator interface: acts + state + last turn -> the agent's words."""

from __future__ import annotations

from typing import Any, Protocol

from ..spec.model import Spec
from ..dialogue.state import DialogueState


class Responder(Protocol):
    name: str

    def respond(self, acts: list[dict[str, Any]], state: DialogueState, spec: Spec,
                utterance: str = "") -> str: ...
