"""Backend choices per language component (parser, knowledge parser, response generator).

Pure data (no Streamlit) so the Settings page, the Playground and tests share one
shape. The API key lives only here, in memory, for the browser session: it is never
written to a project, a bundle or the settings table (DESIGN §5).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from core_engine.llm.client import LLMConfig, OpenAIClient

COMPONENTS: tuple[str, ...] = ("parser", "knowledge_parser", "rg")
LABELS = {"parser": "Semantic parser", "knowledge_parser": "Knowledge parser", "rg": "Response generator"}
CHOICES: dict[str, tuple[str, ...]] = {
    "parser": ("offline", "formal", "llm"),
    "knowledge_parser": ("offline", "llm"),
    "rg": ("template", "llm"),
}
ENGINE_NAMES = {"parser": "parser", "knowledge_parser": "knowledge", "rg": "rg"}
"""Our component names -> the names core_engine.llm.options uses."""
DEFAULTS = {"parser": "offline", "knowledge_parser": "offline", "rg": "template"}


@dataclass(frozen=True)
class BackendSettings:
    """What the studio runs an agent with; the embedded default needs no key and no network."""

    parser: str = DEFAULTS["parser"]
    knowledge_parser: str = DEFAULTS["knowledge_parser"]
    rg: str = DEFAULTS["rg"]
    llm: dict[str, LLMConfig] = field(default_factory=lambda: {c: LLMConfig() for c in COMPONENTS})
    api_key: str | None = None  # typed in Settings; None means "from the environment"

    def choice(self, component: str) -> str:
        return getattr(self, component)

    def with_choice(self, component: str, backend: str) -> "BackendSettings":
        if backend not in CHOICES[component]:
            raise ValueError(f"unknown {LABELS[component].lower()} backend {backend!r}")
        return replace(self, **{component: backend})

    def with_config(self, component: str, config: LLMConfig) -> "BackendSettings":
        return replace(self, llm={**self.llm, component: config})

    def uses_llm(self) -> list[str]:
        return [c for c in COMPONENTS if self.choice(c) == "llm"]

    def client(self, component: str) -> OpenAIClient:
        """An OpenAI-compatible client for one component (key: typed one, else the env var)."""
        return OpenAIClient(self.llm[component], api_key=self.api_key or None)

    def session_options(self) -> dict[str, Any]:
        """Keyword arguments for `Agent.new_session` (see core_engine/llm/options.py)."""
        options: dict[str, Any] = {"parser": self.parser, "rg": self.rg,
                                   "knowledge_parser": self.knowledge_parser,
                                   "llm_configs": {ENGINE_NAMES[c]: self.llm[c] for c in COMPONENTS}}
        if self.api_key:
            options["api_key"] = self.api_key
        return options

    def to_public_dict(self) -> dict[str, Any]:
        """Everything but the key (safe to show, log or store in project settings)."""
        return {
            **{c: self.choice(c) for c in COMPONENTS},
            "llm": {c: cfg.model_dump(mode="json") for c, cfg in self.llm.items()},
            "api_key": "set for this session" if self.api_key else "from environment",
        }


def check_connection(settings: BackendSettings, component: str) -> tuple[bool, str]:
    """One tiny request to the component's endpoint; (ok, human-readable message)."""
    client = settings.client(component)
    try:
        return client.test_connection()
    finally:
        client.close()
