"""One turn of the engine as a function (functional core).

    run_turn(spec, previous_state, utterance, backends) -> TurnResult

The previous state is never mutated; a turn that fails anywhere ends with a
clear fallback act and the previous state intact.
"""

from __future__ import annotations

import datetime as dt
import re
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from ..policy import acts as A
from ..policy.apis import ApiRunner
from ..errors import GenieError
from ..dialogue.interpreter import apply_statements
from ..parsers.base import ParseContext, Parser
from ..policy.algorithm import run_policy
from ..responders.base import Responder
from ..policy.runtime import KnowledgeBackend, Runtime
from ..spec.model import Spec
from ..dialogue.state import DialogueState
from ..dialogue.statements import parse_statements, strip_fences

NOT_UNDERSTOOD = "Sorry, I didn't understand that."
NOT_UNDERSTOOD_RULES = ("no-match", "task-uncertain", "enum-uncertain", "value-doubtful")
PARSE_FAILED = "Sorry, I couldn't make sense of that just now, and nothing was changed. Could you say it again?"
MAX_UTTERANCE_CHARS = 10_000
"""Longest user turn the engine reads (docs/reliability.md): parsing time grows faster than the text."""


@dataclass
class Backends:
    parser: Parser
    responder: Responder
    apis: ApiRunner
    knowledge: KnowledgeBackend | None = None
    kb: Any = None
    today: dt.date | None = None


@dataclass
class TurnResult:
    """What a turn produced. `state` is the JSON snapshot of the new dialogue state."""

    user: str
    response: str
    acts: list[dict[str, Any]]
    state: dict[str, Any]
    trace: dict[str, Any] = field(default_factory=dict)
    ok: bool = True
    # the new state itself, so a session keeps it without rebuilding it from `state` (not serialised)
    snapshot: DialogueState | None = field(default=None, repr=False, compare=False)

    def to_json(self, turn: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"user": self.user, "response": self.response, "acts": self.acts,
                               "state": {"records": self.state["records"]}, "trace": self.trace}
        return {"turn": turn, **out} if turn is not None else out


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def start_state(spec: Spec) -> DialogueState:
    """A new conversation: the starting prompt and one instance of the start worksheet."""
    state = DialogueState()
    ws = spec.start_worksheet()
    if ws is not None:
        state.new_task(ws.name, initiator="agent")
    state.last_response = spec.starting_prompt
    return state


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def run_turn(spec: Spec, prev: DialogueState, utterance: str, backends: Backends) -> TurnResult:
    today = backends.today or _spec_today(spec) or dt.date.today()
    trace: dict[str, Any] = {"turn": prev.turn + 1, "timings_ms": {}}
    t0 = time.perf_counter()
    utterance = _LONE_SURROGATE.sub("\ufffd", utterance)  # not Unicode: it could never be recorded or sent
    if len(utterance) > MAX_UTTERANCE_CHARS:
        return _too_long(prev, utterance, trace, t0)
    try:
        ctx = ParseContext(spec=spec, state=prev, today=today, kb=backends.kb)
        t = time.perf_counter()
        parsed = backends.parser.parse(utterance, ctx)
        statements = parse_statements(strip_fences(parsed.text))
        trace["parse"] = {"parser": backends.parser.name, "text": parsed.text, "rules": parsed.rules,
                          "llm_calls": parsed.llm_calls, "error": parsed.error,
                          "statements": [s.source for s in statements.statements],
                          "rejected": statements.rejected + [r for r in parsed.rules if r.get("rejected")]}
        trace["timings_ms"]["parse"] = _ms(t)

        work = prev.copy()
        work.turn = prev.turn + 1
        rt = Runtime(spec, work, apis=backends.apis, knowledge=backends.knowledge, today=today)
        t = time.perf_counter()
        applied, rejected = apply_statements(rt, statements.statements)
        trace["parse"]["rejected"] += rejected
        trace["interpret"] = {"applied": applied, "rejected": rejected}
        trace["timings_ms"]["interpret"] = _ms(t)

        t = time.perf_counter()
        acts = run_policy(rt, prev)
        reply = next((r for r in parsed.rules if r.get("reply")), None)
        if reply is not None and not statements.statements:
            # the parser asks the user first (e.g. "do you want to stop?"): that question is the whole turn
            acts = [{**A.say(reply["reply"]), **(reply.get("reply_meta") or {})}]
        elif not statements.statements and any(r.get("rule") in NOT_UNDERSTOOD_RULES for r in parsed.rules):
            said = next((r["say"] for r in parsed.rules if r.get("say")), NOT_UNDERSTOOD)
            acts = [A.say(said), *acts]  # honest: say so (or ask which reading), then the policy repeats its question
        pending = next((a for a in prev.last_acts or [] if a.get("act") == "say" and a.get("control")), None)
        if pending is not None and not statements.statements and not any(
                r.get("rule") == "control-kept" for r in parsed.rules) and all(a.get("act") == "say" for a in acts):
            acts = [dict(pending)]  # "ok thanks" to "do you want me to stop? (yes or no)": the question again
        if parsed.error and not statements.statements:
            # nothing was understood (e.g. the LLM endpoint failed): the state is as before; say so, re-ask
            acts = [A.say(PARSE_FAILED), *acts]
        elif parsed.error and not acts:
            acts = [A.say(PARSE_FAILED)]
        trace["policy"] = {"acts": [A.describe(a) for a in acts], "events": rt.trace.events,
                           "errors": rt.trace.errors, "predicates": rt.trace.all_predicates()}
        trace["kb"] = rt.trace.kb
        trace["timings_ms"]["policy"] = _ms(t)

        t = time.perf_counter()
        response = backends.responder.respond(acts, work, spec, utterance)
        trace["rg"] = {"responder": backends.responder.name,
                       "llm_calls": getattr(backends.responder, "last_calls", []),
                       "fallback": getattr(backends.responder, "last_fallback", None)}
        trace["llm"] = llm_summary(trace)
        trace["timings_ms"]["rg"] = _ms(t)
        work.last_acts = acts
        work.last_response = response
        trace["timings_ms"]["total"] = _ms(t0)
        return TurnResult(utterance, response, acts, work.to_json(), trace, snapshot=work)
    except GenieError as exc:
        return _fallback(prev, utterance, trace, t0, exc, "the engine stopped this turn")
    except Exception as exc:  # noqa: BLE001 - a bug must not lose the conversation; the trace says what
        trace["traceback"] = traceback.format_exc()
        return _fallback(prev, utterance, trace, t0, exc, "internal error")


def llm_summary(trace: dict[str, Any]) -> dict[str, Any]:
    """Per-stage LLM call counts and token/latency totals of one turn (the calls themselves stay per stage)."""
    stages = {"parser": (trace.get("parse") or {}).get("llm_calls") or [],
              "knowledge": [c for e in trace.get("kb") or [] for c in e.get("llm_calls") or []],
              "rg": (trace.get("rg") or {}).get("llm_calls") or []}
    calls = [c for cs in stages.values() for c in cs]
    return {"calls": {k: len(v) for k, v in stages.items()},
            "prompt_tokens": sum(c.get("prompt_tokens") or 0 for c in calls),
            "completion_tokens": sum(c.get("completion_tokens") or 0 for c in calls),
            "latency_ms": round(sum(c.get("latency_ms") or 0.0 for c in calls), 3),
            "errors": [c["error"] for c in calls if c.get("error")]}


def _too_long(prev: DialogueState, utterance: str, trace: dict[str, Any], t0: float) -> TurnResult:
    """An oversized turn is not read at all: the user is told the limit and the state stays as it was."""
    text = (f"That message is too long for me to read ({len(utterance):,} characters; the limit is "
            f"{MAX_UTTERANCE_CHARS:,}). Nothing was changed. Could you say it more briefly?")
    acts = [A.say(text)]
    trace["fallback"] = {"reason": "input too long", "error": f"the utterance has {len(utterance):,} characters"}
    trace["timings_ms"]["total"] = _ms(t0)
    state = prev.copy()
    state.last_acts = acts
    return TurnResult(utterance, text, acts, state.to_json(), trace, ok=False)


def _fallback(prev: DialogueState, utterance: str, trace: dict[str, Any], t0: float,
              exc: BaseException, why: str) -> TurnResult:
    acts = [A.say("Sorry, something went wrong on my side and nothing was changed. Could you try again?")]
    trace["fallback"] = {"reason": why, "error": f"{type(exc).__name__}: {exc}"}
    trace["timings_ms"]["total"] = _ms(t0)
    state = prev.copy()
    state.last_acts = acts
    return TurnResult(utterance, acts[0]["text"], acts, state.to_json(), trace, ok=False)


def _spec_today(spec: Spec) -> dt.date | None:
    if spec.settings.today:
        try:
            return dt.date.fromisoformat(spec.settings.today)
        except ValueError:
            return None
    return None
