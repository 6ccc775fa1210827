"""The `llm` response generator: the agent acts put into words by a language model.

The prompt (Genie paper App. F) holds the acts, the formal state, the last agent
utterance and the user's turn, plus the template responder's plain draft of the
same acts; it tells the model to say what the acts say, in order, and nothing
else. The draft doubles as the fallback: when the endpoint fails, answers
nothing usable, or drops an identifier an API returned (a booking id, a ticket
number), the template text is said instead and `last_fallback` records why.

`last_calls` holds the LLMCall dicts of the latest `respond` for the turn trace.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import BackendError, GenieError
from ..llm.client import LLMClient
from ..llm.options import client_for
from ..llm.prompting import PromptLibrary, RenderedPrompt, date_words, render_acts, render_state
from ..spec.model import Spec
from ..dialogue.state import DialogueState
from .base import Responder
from .template import TemplateResponder

__all__ = ["LLMResponder", "llm_responder"]

_SPEAKER = re.compile(r"^\s*(?:agent|assistant)\s*:\s*", re.I)
_ID_LIKE = re.compile(r"^(?=.*\d)[A-Za-z0-9][A-Za-z0-9_-]{5,}$")


class LLMResponder:
    """Acts + state + last turn -> the agent's words, with the template text as the fallback."""

    name = "llm"

    def __init__(self, client: LLMClient, prompts: PromptLibrary | None = None, *,
                 fallback: Responder | None = None, today: dt.date | None = None) -> None:
        self.client = client
        self.prompts = prompts or PromptLibrary()
        self.fallback = fallback or TemplateResponder()
        self.today = today
        self.last_calls: list[dict[str, Any]] = []
        self.last_fallback: str | None = None

    def prompt(self, acts: list[dict[str, Any]], state: DialogueState, spec: Spec, utterance: str,
               draft: str) -> RenderedPrompt:
        today = self.today or _spec_today(spec) or dt.date.today()
        return self.prompts.render(
            "rg", agent_name=spec.name, agent_description=spec.description, **date_words(today),
            state=render_state(state, spec, kb=False), agent_acts=render_acts(acts, spec, rows=True), draft=draft,
            agent_utterance=state.last_response, user_utterance=utterance,
        )

    def respond(self, acts: list[dict[str, Any]], state: DialogueState, spec: Spec, utterance: str = "") -> str:
        self.last_calls = []
        self.last_fallback = None
        draft = self.fallback.respond(acts, state, spec, utterance)
        try:
            prompt = self.prompt(acts, state, spec, utterance, draft)
        except GenieError as exc:
            self.last_fallback = f"the response prompt could not be built: {exc}"
            return draft
        try:
            completion, call = self.client.complete(prompt.messages, component="rg")
        except BackendError as exc:
            failed = getattr(exc, "call", None)
            self.last_calls = [failed.to_dict()] if failed is not None else []
            self.last_fallback = f"the language model did not answer usably: {exc.message}"
            return draft
        self.last_calls = [call.to_dict()]
        text = _clean(completion)
        if not text:
            self.last_fallback = "the language model's answer was empty once cleaned"
            return draft
        missing = missing_identifiers(text, acts)
        if missing:
            self.last_fallback = "the language model's answer left out " + ", ".join(missing)
            return draft
        return text


def missing_identifiers(text: str, acts: list[dict[str, Any]]) -> list[str]:
    """Ids an API returned (digits and letters, 6+ characters) that the text does not repeat."""
    ids: list[str] = []
    for act in acts:
        if act.get("act") == "report" and act.get("kind") == "api":
            _collect_ids(act.get("result"), ids)
    return [i for i in ids if i not in text]


def _collect_ids(value: Any, out: list[str]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _collect_ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _collect_ids(v, out)
    elif isinstance(value, str) and _ID_LIKE.match(value) and value not in out:
        out.append(value)


def _clean(completion: str) -> str:
    text = _SPEAKER.sub("", completion.strip())
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()
    return text


def _spec_today(spec: Spec) -> dt.date | None:
    try:
        return dt.date.fromisoformat(spec.settings.today) if spec.settings.today else None
    except ValueError:
        return None


def llm_responder(agent: Any, **options: Any) -> LLMResponder:
    """BACKEND_FACTORIES entry for ("rg", "llm")."""
    return LLMResponder(client_for("rg", options), PromptLibrary(agent.prompts_dir))


def _register() -> None:
    from ..session.agent import BACKEND_FACTORIES
    BACKEND_FACTORIES[("rg", "llm")] = llm_responder


_register()
