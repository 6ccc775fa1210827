"""The playground's model: conversations with an agent, recorded, with time travel.

No Streamlit here (the page keeps one `Playground` per project in session state via
`components.session.playground_store`), so everything the page does can be driven
and tested from Python. Every turn is appended to a conversation log in the project
file as it happens. Logs are append-only, so rewinding and forking start a new log
holding the kept turns: the history before a rewind stays saved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core_engine import Agent, GenieError, Session, TurnResult
from core_engine.session.recording import conversation_to_test
from core_engine.session.replay import ReplayReport, replay


@dataclass
class Conversation:
    """One chat with the agent: an engine Session, its log, and how it was started."""

    title: str
    session: Session
    parser: str
    rg: str
    spec_version: int | None
    log_id: str | None = None
    parent: str | None = None  # "fork of #2 at turn 3"

    @property
    def turns(self) -> list[TurnResult]:
        return self.session.turns


@dataclass
class Playground:
    project: str
    conversations: list[Conversation] = field(default_factory=list)
    active: int = 0
    selected: int | None = None  # 0 = the start, k = after turn k; None = follow the latest turn
    last_replay: ReplayReport | None = None
    message: tuple[str, str] | None = None  # (kind, text) shown once by the page
    # turns played but not yet in their log: (log id, turn, its number); see `send(..., defer_log=True)`
    unsaved: list[tuple[str, TurnResult, int]] = field(default_factory=list, repr=False)
    # open log handles by id (one per log: it keeps the last stored state, so an append stores a delta
    # without reading the log back)
    log_handles: dict[str, tuple[Any, Any]] = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------ access
    @property
    def current(self) -> Conversation | None:
        return self.conversations[self.active] if self.conversations else None

    def selected_turn(self) -> int:
        conv = self.current
        n = len(conv.turns) if conv else 0
        return n if self.selected is None or self.selected > n else self.selected

    def state_at(self, k: int) -> dict[str, Any]:
        """The state after turn k (k=0: the start)."""
        conv = self._require()
        return conv.session.initial.to_json() if k == 0 else conv.turns[k - 1].state

    # ------------------------------------------------------------ lifecycle
    def start(self, project: Any, agent: Agent, *, parser: str, rg: str, options: dict[str, Any] | None = None,
              title: str | None = None) -> Conversation:
        opts = {k: v for k, v in (options or {}).items() if k not in ("parser", "rg")}
        session = agent.new_session(parser=parser, rg=rg, **opts)
        n = len(self.conversations) + 1
        conv = Conversation(title or f"#{n} {parser}/{rg}", session, parser, rg,
                            agent.extras.get("spec_version"))
        conv.log_id = _start_log(project, conv)
        self.conversations.append(conv)
        self.active = len(self.conversations) - 1
        self.selected = None
        self.last_replay = None
        return conv

    def reopen(self, project: Any, agent: Agent, log_id: str, options: dict[str, Any] | None = None) -> Conversation:
        """A recorded conversation (a log in the project file) back as a live one, with time travel.

        The logged turns are replayed on a fresh session of the current spec with the log's parser
        and response generator; the session then holds every turn's state (rewind, fork, inspect).
        Turns keep being appended to the same log. An open conversation of that log is just switched to."""
        for i, conv in enumerate(self.conversations):
            if conv.log_id == log_id:
                self.switch(i)
                return conv
        self.save_unsaved(project)  # the log is read back: its turns played here first
        log = project.open_log(log_id)
        opts = {k: v for k, v in (options or {}).items() if k not in ("parser", "rg")}
        report = replay(agent, log.turns(), parser=log.parser, rg=log.rg, **opts)
        conv = Conversation(log.title or f"log {log_id}", report.session, log.parser, log.rg, log.spec_version,
                            log_id=log_id)
        self.conversations.append(conv)
        self.active, self.selected, self.last_replay = len(self.conversations) - 1, None, None
        return conv

    def switch(self, index: int) -> None:
        if not 0 <= index < len(self.conversations):
            raise GenieError(f"no conversation #{index + 1}")
        self.active, self.selected, self.last_replay = index, None, None

    # ------------------------------------------------------------ turns
    def send(self, project: Any, text: str, *, defer_log: bool = False) -> TurnResult:
        """Play one user turn. With `defer_log` the turn is recorded by the next `save_unsaved` (the page
        draws the reply first, then writes, before its script run ends); otherwise it is written now."""
        conv = self._require()
        return self._record(project, conv, conv.session.turn(text), defer=defer_log)

    def inject(self, project: Any, statements: str) -> TurnResult:
        conv = self._require()
        return self._record(project, conv, conv.session.inject(statements))

    def set_field(self, project: Any, var: str, field_name: str, value: Any) -> TurnResult:
        conv = self._require()
        return self._record(project, conv, conv.session.set_field(var, field_name, value))

    def _record(self, project: Any, conv: Conversation, result: TurnResult, *, defer: bool = False) -> TurnResult:
        if conv.log_id and project is not None:
            self.unsaved.append((conv.log_id, result, len(conv.turns)))
            if not defer:
                self.save_unsaved(project)
        self.selected = None
        return result

    def save_unsaved(self, project: Any) -> None:
        """Append every turn not yet logged to its log, in order (a durable write each). A turn that cannot
        be written stays listed (and the error is raised), so a later call writes it: nothing is lost."""
        while self.unsaved and project is not None:
            log_id, result, number = self.unsaved[0]
            opened, log = self.log_handles.get(log_id, (None, None))
            if opened is not project:  # a handle belongs to the open file (a replaced file is reopened)
                log = project.open_log(log_id)
                self.log_handles[log_id] = (project, log)
            log.append(result.to_json(number))
            self.unsaved.pop(0)

    # ------------------------------------------------------------ time travel
    def rewind_to(self, project: Any, k: int) -> None:
        """Keep turns 1..k; continue from there (a new log holds them, the old one stays)."""
        conv = self._require()
        n = len(conv.turns)
        if not 0 <= k <= n:
            raise GenieError(f"cannot rewind to turn {k}; the conversation has {n}")
        if k == n:
            return
        conv.session.rewind(n - k)
        conv.log_id = _start_log(project, conv, suffix=f"rewound to turn {k}")
        self.selected = None
        self.last_replay = None

    def fork_at(self, project: Any, k: int) -> Conversation:
        """A new conversation holding turns 1..k of the current one; the original is kept."""
        conv = self._require()
        n = len(conv.turns)
        if not 0 <= k <= n:
            raise GenieError(f"cannot fork at turn {k}; the conversation has {n}")
        session = conv.session.fork()
        session.rewind(n - k)
        source = self.active + 1
        other = Conversation(f"#{len(self.conversations) + 1} fork of #{source} at turn {k}", session,
                             conv.parser, conv.rg, conv.spec_version, parent=f"#{source}@{k}")
        other.log_id = _start_log(project, other)
        self.conversations.append(other)
        self.active = len(self.conversations) - 1
        self.selected = None
        self.last_replay = None
        return other

    def replay(self, agent: Agent, options: dict[str, Any] | None = None) -> ReplayReport:
        """Replay the current conversation against `agent` (the current, maybe edited, spec)."""
        conv = self._require()
        opts = {k: v for k, v in (options or {}).items() if k not in ("parser", "rg")}
        self.last_replay = replay(agent, conv.turns, parser=conv.parser, rg=conv.rg, **opts)
        return self.last_replay

    def adopt_replay(self, project: Any, agent: Agent) -> Conversation:
        """Continue with the replayed session (on the current spec) as a new conversation."""
        report = self.last_replay
        if report is None or report.session is None:
            raise GenieError("replay the conversation first")
        conv = self._require()
        new = Conversation(f"#{len(self.conversations) + 1} replay of #{self.active + 1}", report.session,
                           conv.parser, conv.rg, agent.extras.get("spec_version"))
        new.log_id = _start_log(project, new)
        self.conversations.append(new)
        self.active = len(self.conversations) - 1
        self.selected, self.last_replay = None, None
        return new

    # ------------------------------------------------------------ tests
    def to_test(self, name: str, assertions: dict[int, set[str]], description: str = "") -> dict[str, Any]:
        conv = self._require()
        return conversation_to_test(name, conv.turns, parser=conv.parser, rg=conv.rg, assertions=assertions,
                                    initial_state=conv.session.initial.to_json(), description=description)

    def _require(self) -> Conversation:
        if self.current is None:
            raise GenieError("start a conversation first")
        return self.current


def _start_log(project: Any, conv: Conversation, suffix: str = "") -> str | None:
    """A new log for `conv` with the turns it already has (none for a fresh conversation)."""
    if project is None or getattr(project, "readonly", False):
        return None
    title = conv.title + (f" ({suffix})" if suffix else "")
    log = project.start_log(parser=conv.parser, rg=conv.rg, title=title)
    for n, turn in enumerate(conv.turns, start=1):
        log.append(turn.to_json(n))
    return log.id


__all__ = ["Conversation", "Playground"]
