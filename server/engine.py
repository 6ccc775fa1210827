"""The engine side of serving: one loaded agent, a turn computed from a stored state.

The engine turn is synchronous (parsers, knowledge queries, LLM calls through the
official `openai` client). The app runs `TurnRunner.turn` in Starlette's thread pool
(`run_in_threadpool`), so the event loop keeps serving other conversations while a turn
waits on an LLM endpoint or the store; the pool size bounds turns in flight per worker.
Backends (parser, responder, KB connection) are built once per thread and reused.
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field
from typing import Any

from core_engine import Agent
from core_engine.dialogue.state import DialogueState
from core_engine.session.turn import Backends, llm_summary, run_turn, start_state

from .stores.base import SessionStore


@dataclass
class ServeOptions:
    """What `genie serve` was given; JSON-able so every worker process rebuilds the same app."""

    agent: str
    store: str = "sqlite:///genie-sessions.db"
    parser: str = "offline"
    rg: str = "template"
    knowledge_parser: str = "offline"
    llm_config: dict[str, Any] = field(default_factory=dict)
    llm_cache: str | None = None
    today: str | None = None  # fixed date for the agent (tests, demos); default: the real date
    cors_origins: list[str] = field(default_factory=list)
    rate_limit_per_min: float = 600.0
    max_body_bytes: int = 64 * 1024
    pool_size: int = 10
    threads: int = 40  # engine turns in flight per worker (the thread pool); raise it for slow LLM endpoints


class TurnRunner:
    """Computes turns for one agent; thread-safe (per-thread backends)."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.agent = Agent.load(options.agent)
        self._local = threading.local()
        self._cache = None
        if options.llm_cache:
            from core_engine.llm.client import ResponseCache
            self._cache = ResponseCache(options.llm_cache)
        self._backends()  # build once now: a broken option fails at start, not on the first turn

    def _backends(self) -> Backends:
        backends = getattr(self._local, "backends", None)
        if backends is None:
            opts: dict[str, Any] = {"knowledge_parser": self.options.knowledge_parser}
            if self.options.llm_config:
                opts["llm_config"] = dict(self.options.llm_config)
            if self._cache is not None:
                opts["cache"] = self._cache
            today = dt.date.fromisoformat(self.options.today) if self.options.today else None
            backends = self.agent.new_session(parser=self.options.parser, rg=self.options.rg, today=today,
                                              **opts).backends
            self._local.backends = backends
        return backends

    @property
    def starting_prompt(self) -> str:
        return self.agent.spec.starting_prompt

    def initial_state(self) -> dict[str, Any]:
        return start_state(self.agent.spec).to_json()

    def compute(self, text: str):
        """A `Compute` for the store: (state, n) -> (turn JSON as `genie chat --jsonl`, state after)."""
        def run(state: dict[str, Any], n: int) -> tuple[dict[str, Any], dict[str, Any]]:
            result = run_turn(self.agent.spec, DialogueState.from_json(state), text, self._backends())
            turn_json = result.to_json(turn=n)
            return turn_json, (result.state if result.ok else state)
        return run

    def turn(self, store: SessionStore, session_id: str, text: str,
             idempotency_key: str | None) -> tuple[dict[str, Any], bool]:
        return store.apply(session_id, self.compute(text), idempotency_key=idempotency_key)


def public_turn(turn_json: dict[str, Any]) -> dict[str, Any]:
    """The API's view of a stored turn (DESIGN §6): no trace."""
    return {"turn": turn_json["turn"], "response": turn_json["response"], "acts": turn_json["acts"],
            "state": {"records": (turn_json.get("state") or {}).get("records", [])}}


def transcript_entry(turn_json: dict[str, Any]) -> dict[str, Any]:
    return {"turn": turn_json["turn"], "user": turn_json["user"], "response": turn_json["response"],
            "acts": turn_json["acts"]}


def llm_usage(turn_json: dict[str, Any]) -> dict[str, Any]:
    return llm_summary(turn_json.get("trace") or {})
