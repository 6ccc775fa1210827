"""The engine's facade: `Agent.load(path)`, `agent.new_session()`, `session.turn(text)`.

A project folder holds `spec.json` (or a spec CSV), optionally `api.py` (the
python APIs), `kb.sqlite` (the knowledge base), `tests/` and `prompts/`.
Other sources (bundles, project files) are opened by loaders registered under
the `genie.project_loaders` entry-point group, so the engine never imports
storage.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import sys
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from .. import jsonsafe
from ..policy.apis import ApiRunner
from ..errors import GenieError, SpecError, StatementError
from ..parsers.base import Parser
from ..parsers.formal import FormalParser
from ..responders.base import Responder
from ..responders.template import TemplateResponder
from ..policy.runtime import KnowledgeBackend
from ..spec.model import Spec
from ..dialogue.state import DialogueState, TaskRecord
from ..dialogue.statements import parse_statements, strip_fences
from .turn import Backends, TurnResult, run_turn, start_state

SPEC_FILES = ("spec.json", "spec.csv", "worksheets.json", "worksheets.csv", "worksheets.py")
"""worksheets.py: the reference's Python-class layout, parsed statically (never imported)."""


@dataclass
class Agent:
    """A loaded agent: its spec and what its backends need."""

    spec: Spec
    root: Path | None = None
    api_module: ModuleType | None = None
    kb_path: Path | None = None
    prompts_dir: Path | None = None
    few_shots: list[dict[str, Any]] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path, *, code: str = "trusted") -> "Agent":
        """``code`` (project files and bundles): "trusted" runs api.py only if the user trusted it,
        "trust" trusts it for this run (--trust-code), "never" does not load it (lint)."""
        p = Path(path)
        for loader in _project_loaders():
            agent = loader(p, code=code) if _takes_code(loader) else loader(p)
            if agent is not None:
                return agent
        if p.is_dir():
            return cls.from_folder(p, load_code=code != "never")
        if p.is_file() and p.suffix.lower() in (".json", ".csv", ".py"):
            from ..loaders import load_spec
            return cls(spec=load_spec(p), root=p.parent)
        if not p.exists():
            raise SpecError(f"no project at {p}", path=str(p))
        raise SpecError(f"{p} is not a project folder, a spec file or a bundle", path=str(p))

    @classmethod
    def from_folder(cls, folder: Path, *, load_code: bool = True) -> "Agent":
        from ..loaders import load_spec
        spec_file = next((folder / n for n in SPEC_FILES if (folder / n).is_file()), None)
        if spec_file is None:
            raise SpecError(f"{folder} has no spec file (expected one of {', '.join(SPEC_FILES)})",
                            path=str(folder))
        spec = load_spec(spec_file)
        kb = folder / "kb.sqlite"
        prompts = folder / "prompts"
        api_module = load_api_module(folder / "api.py", spec.name) if load_code else None
        return cls(spec=spec, root=folder, api_module=api_module,
                   kb_path=kb if kb.is_file() else None, prompts_dir=prompts if prompts.is_dir() else None,
                   few_shots=_load_few_shots(folder / "few_shots.json"))

    def new_session(self, parser: str | Parser = "formal", rg: str | Responder = "template", *,
                    knowledge: KnowledgeBackend | None = None, today: dt.date | None = None,
                    **options: Any) -> "Session":
        backends = Backends(parser=self.make_parser(parser, **options), responder=self.make_responder(rg, **options),
                            apis=ApiRunner(self.spec, self.api_module), today=today)
        backends.kb, backends.knowledge = self.make_knowledge(knowledge, **options)
        return Session(self, backends)

    # Backend factories: later components register theirs in BACKEND_FACTORIES.
    def make_parser(self, parser: str | Parser, **options: Any) -> Parser:
        return self._backend("parser", parser, {"formal": FormalParser}, "formal, offline or llm", **options)

    def make_responder(self, rg: str | Responder, **options: Any) -> Responder:
        return self._backend("rg", rg, {"template": TemplateResponder}, "template or llm", **options)

    def _backend(self, kind: str, choice: Any, builtins: dict[str, Callable[[], Any]], names: str,
                 **options: Any) -> Any:
        load_backends()
        if not isinstance(choice, str):
            return choice
        if choice in builtins:
            return builtins[choice]()
        factory = BACKEND_FACTORIES.get((kind, choice))
        if factory is None:
            label = "parser" if kind == "parser" else "response generator"
            raise GenieError(f"unknown {label} '{choice}' (choose {names})")
        return factory(self, **options)

    def make_knowledge(self, knowledge: KnowledgeBackend | None, **options: Any) -> tuple[Any, Any]:
        load_backends()
        if knowledge is not None:
            return getattr(knowledge, "kb", None), knowledge
        name = options.get("knowledge_parser", "offline")
        factory = BACKEND_FACTORIES.get(("knowledge", name))
        if factory is None and name not in ("offline", "llm"):
            raise GenieError(f"unknown knowledge parser '{name}' (choose offline or llm)")
        if factory is None or self.kb_path is None:
            return None, None
        return factory(self, **options)


BACKEND_FACTORIES: dict[tuple[str, str], Callable[..., Any]] = {}
"""(kind, name) -> factory(agent, **options); filled by the parser/knowledge modules at import."""

OPTIONAL_BACKENDS = ("core_engine.parsers.offline.parser", "core_engine.parsers.llm", "core_engine.responders.llm",
                     "core_engine.knowledge.offline", "core_engine.knowledge.llm")


def load_backends() -> None:
    """Import the backend modules that exist so they register their factories."""
    import importlib
    for name in OPTIONAL_BACKENDS:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


class Session:
    """A conversation with an agent; keeps every turn so it can rewind and fork."""

    def __init__(self, agent: Agent, backends: Backends) -> None:
        self.agent = agent
        self.backends = backends
        self.initial = start_state(agent.spec)
        self.turns: list[TurnResult] = []
        self._states: list[DialogueState] = [self.initial]

    @property
    def starting_prompt(self) -> str:
        return self.agent.spec.starting_prompt

    @property
    def current(self) -> DialogueState:
        return self._states[-1]

    @property
    def state(self) -> dict[str, Any]:
        return self.current.to_json()

    @state.setter
    def state(self, value: dict[str, Any] | DialogueState) -> None:
        """Replace the current state (the studio's state editor); validated before use."""
        new = value.copy() if isinstance(value, DialogueState) else DialogueState.from_json(value)
        for rec in new.tasks():
            if self.agent.spec.worksheet(rec.worksheet) is None:
                raise StatementError(f"record '{rec.var}' has unknown worksheet '{rec.worksheet}'")
        self._states[-1] = new

    def turn(self, text: str, *, parser: Parser | None = None) -> TurnResult:
        """One user turn; `parser` replaces the session's parser for this turn only."""
        backends = self.backends if parser is None else replace(self.backends, parser=parser)
        result = run_turn(self.agent.spec, self.current, text, backends)
        self.turns.append(result)
        self._states.append(_next_state(result, self.current))
        return result

    def probe(self, text: str) -> TurnResult:
        """What the session would make of `text` now, without recording the turn (its state stays)."""
        return run_turn(self.agent.spec, self.current, text, self.backends)

    def keep(self, result: TurnResult) -> None:
        """Record a turn `probe` made from the current state, as if `turn` had made it."""
        self.turns.append(result)
        self._states.append(_next_state(result, self.current))

    def inject(self, statements: str, *, kind: str = "inject", strict: bool = True) -> TurnResult:
        """Apply formal statements at the current turn, as a turn of their own, and recompute the acts.

        The text goes through the formal parser path (parsed with `ast`, interpreted against
        the spec, never executed), whatever parser the session uses. With `strict`, a statement
        that does not parse or apply raises StatementError and nothing is recorded. The turn's
        trace carries `"input": kind` so replays and saved tests play it the same way.
        """
        if strict:
            parsed = parse_statements(strip_fences(statements))
            if parsed.rejected or not parsed.statements:
                reasons = "; ".join(f"{r['source']!r}: {r['error']}" for r in parsed.rejected)
                raise StatementError(f"not applied: {reasons or 'no statements given'}")
        result = run_turn(self.agent.spec, self.current, statements,
                          replace(self.backends, parser=FormalParser()))
        rejected = (result.trace.get("interpret") or {}).get("rejected") or []
        if strict and (rejected or not result.ok):
            reasons = "; ".join(f"{r['source']!r}: {r['error']}" for r in rejected) \
                or str((result.trace.get("fallback") or {}).get("error"))
            raise StatementError(f"not applied: {reasons}")
        result.trace["input"] = kind
        self.turns.append(result)
        self._states.append(_next_state(result, self.current))
        return result

    def set_field(self, var: str, field_name: str, value: Any) -> TurnResult:
        """Edit one field of the current state (typed and validated like any assignment), then
        recompute the acts: an `edit` turn made of the formal statement `var.field = value`."""
        rec = self.current.get(var)
        if not isinstance(rec, TaskRecord):
            raise StatementError(f"no task record named '{var}'", var=var)
        ws = self.agent.spec.require_worksheet(rec.worksheet)
        if ws.field(field_name) is None:
            raise StatementError(f"{ws.name} has no field '{field_name}'", worksheet=ws.name, field=field_name)
        return self.inject(f"{var}.{field_name} = {_formal_literal(value, f'{var}.{field_name}')}", kind="edit")

    def rewind(self, k: int = 1) -> None:
        """Forget the last k turns; the state is the one before them."""
        if k < 0 or k > len(self.turns):
            raise GenieError(f"cannot rewind {k} turns; the session has {len(self.turns)}")
        if k:
            del self.turns[-k:]
            del self._states[-k:]

    def fork(self) -> "Session":
        other = Session(self.agent, self.backends)
        other.turns = list(self.turns)
        other._states = [s.copy() for s in self._states]
        return other


def _next_state(result: TurnResult, current: DialogueState) -> DialogueState:
    """The state after a turn: the turn's own snapshot (never changed again: the next turn
    works on a copy), else rebuilt from its JSON; a failed turn keeps the current state."""
    if not result.ok:
        return current.copy()
    return result.snapshot if result.snapshot is not None else DialogueState.from_json(result.state)


def _formal_literal(value: Any, where: str) -> str:
    """A value as formal-language source (`"text"`, `4`, `True`, `None`, `[...]`)."""
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_formal_literal(v, where) for v in value) + "]"
    raise StatementError(f"{where}: a {type(value).__name__} cannot be typed in; choose a knowledge-base "
                         "row with an injected statement such as `x.field = answer.result[0]`")


def load_api_module(path: Path, name: str) -> ModuleType | None:
    """The project's python APIs: developer code, imported like any project module."""
    if not path.is_file():
        return None
    mod_name = f"genie_project_api_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise SpecError(f"cannot load API module {path}", path=str(path))
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # developer code failing at import: say where
        raise SpecError(f"the API module {path} failed to import: {type(exc).__name__}: {exc}",
                        path=str(path)) from exc
    sys.modules[mod_name] = module
    return module


def _load_few_shots(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        data = jsonsafe.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise SpecError(f"{path} is not valid JSON: {exc}", path=str(path)) from exc
    if not isinstance(data, list):
        raise SpecError(f"{path} must hold a list of examples", path=str(path))
    return data


def _takes_code(loader: Callable[..., Any]) -> bool:
    import inspect
    try:
        return "code" in inspect.signature(loader).parameters
    except (TypeError, ValueError):
        return False


def _project_loaders() -> list[Callable[[Path], Agent | None]]:
    loaders = []
    for ep in entry_points(group="genie.project_loaders"):
        try:
            loaders.append(ep.load())
        except ImportError:
            continue
    return loaders
