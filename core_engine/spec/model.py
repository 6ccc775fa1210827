"""The worksheet specification: what a developer writes, as pydantic models.

A spec is the single source of truth for an agent. Everything else (loaders,
linter, runtime, studio grid) reads and writes these models; the canonical file
format is their JSON, and `spec.schema.json` is generated from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field as PydField, field_validator

from ..errors import SpecError

SPEC_FORMAT_VERSION = 1

PRIMITIVE_TYPES = ("str", "int", "float", "bool", "date", "time", "datetime", "Enum", "confirm")
REFUSAL = "NA"
"""The value a parser assigns when the user refuses to give a field (paper App. C)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class EnumValue(_Model):
    value: str
    description: str = ""
    examples: list[str] = PydField(default_factory=list)
    """Utterances a user might say to mean this value (taught by the developer)."""


class Field(_Model):
    """One field of a worksheet, with the attributes of the paper's App. C."""

    name: str
    type: str = "str"
    kind: Literal["input", "internal", "output"] = "input"
    """input: asked of the user; internal: set by actions; output: filled from the API result and reported."""
    predicate: str = ""
    description: str = ""
    enum_values: list[EnumValue] = PydField(default_factory=list)
    dont_ask: bool = False
    required: bool = True
    confirm: bool = False
    actions: str = ""
    primary_key: bool = False
    free_text: bool = False
    examples: list[str] = PydField(default_factory=list)
    """Example user utterances that give this field a value (taught by the developer)."""

    @field_validator("enum_values", mode="before")
    @classmethod
    def _enum_strings(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [{"value": x} if isinstance(x, str) else x for x in v]
        return v

    @property
    def type_ref(self) -> "TypeRef":
        return parse_type(self.type)

    @property
    def enum_names(self) -> list[str]:
        return [e.value for e in self.enum_values]


class Worksheet(_Model):
    """A task worksheet, a KB table schema, or a record type (DESIGN §3)."""

    name: str
    kind: Literal["task", "kb", "type"] = "task"
    predicate: str = ""
    description: str = ""
    api: str | None = None
    actions: str = ""
    fields: list[Field] = PydField(default_factory=list)
    examples: list[str] = PydField(default_factory=list)
    """Example user utterances that ask for this task (taught by the developer)."""

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


class ApiParam(_Model):
    name: str
    type: str = "str"
    description: str = ""
    required: bool = True


class Api(_Model):
    """An API a task worksheet calls when it completes."""

    name: str
    description: str = ""
    kind: Literal["mock", "python", "http"] = "mock"
    parameters: list[ApiParam] = PydField(default_factory=list)
    mock_result: dict[str, Any] = PydField(
        default_factory=lambda: {"status": "success", "transaction_id": "{transaction_id}"}
    )
    function: str | None = None
    url: str | None = None
    timeout_s: float = 5.0
    headers: dict[str, str] = PydField(default_factory=dict)


class Settings(_Model):
    """Runtime settings stored with the spec (never secrets)."""

    start_worksheet: str | None = None
    today: str | None = None
    max_policy_steps: int = 200
    action_timeout_s: float = 0.5
    kb_max_rows: int = 50
    report_rows: int = 5
    embedding_model: str | None = None
    """Sentence-embedding model for the offline parser: a model name or a local folder;
    None means the bundled all-MiniLM-L6-v2."""
    date_order: Literal["auto", "day_first", "month_first"] = "auto"
    """How the offline parser reads a date like 3/9/47 whose two numbers could each be the month. "auto": day
    first when the spec is British or European by its own texts (a postcode, prices in pounds or euros in a
    field's name or description or the starting prompt), else month first (US order)."""
    bare_hours: Literal["auto", "daytime", "evening"] = "auto"
    """How the offline parser reads an hour said without am or pm ("at 8", "half 7", "8ish"). "daytime": 7-11 are
    the morning and 12-6 the afternoon (a garage, a clinic, a repair shop). "evening": 1-8 are the afternoon or
    evening and 9-11 the morning (a restaurant, a theatre). "auto": evening when the spec's own texts name a meal
    out or a night out (`evening_hours`), else daytime. A part of the day in the turn ("in the morning", "after
    work", "first thing") always wins."""


class Spec(_Model):
    """A whole agent: worksheets, APIs and settings."""

    format_version: int = SPEC_FORMAT_VERSION
    name: str = "agent"
    description: str = ""
    starting_prompt: str = "Hello! How can I help you today?"
    worksheets: list[Worksheet] = PydField(default_factory=list)
    apis: list[Api] = PydField(default_factory=list)
    settings: Settings = PydField(default_factory=Settings)

    def worksheet(self, name: str) -> Worksheet | None:
        for ws in self.worksheets:
            if ws.name == name:
                return ws
        return None

    def require_worksheet(self, name: str) -> Worksheet:
        ws = self.worksheet(name)
        if ws is None:
            raise SpecError(f"unknown worksheet '{name}'", worksheet=name)
        return ws

    def api(self, name: str) -> Api | None:
        for api in self.apis:
            if api.name == name:
                return api
        return None

    def task_worksheets(self) -> list[Worksheet]:
        return [w for w in self.worksheets if w.kind == "task"]

    def kb_worksheets(self) -> list[Worksheet]:
        return [w for w in self.worksheets if w.kind == "kb"]

    def nested_worksheet_names(self) -> set[str]:
        """Worksheets used as the type of some field (they live inside a parent)."""
        used: set[str] = set()
        for ws in self.worksheets:
            for f in ws.fields:
                try:
                    ref = parse_type(f.type)
                except SpecError:
                    continue  # the linter reports junk types; the runtime treats them as plain
                if ref.worksheet:
                    used.add(ref.worksheet)
        return used

    def start_worksheet(self) -> Worksheet | None:
        """The worksheet a session opens: the one `settings.start_worksheet` names, else the
        first task worksheet of the spec (the reference implementation's rule)."""
        if self.settings.start_worksheet:
            return self.worksheet(self.settings.start_worksheet)
        tasks = self.task_worksheets()
        return tasks[0] if tasks else None


# ---------------------------------------------------------------- types


@dataclass(frozen=True)
class TypeRef:
    """A parsed field type: `List[int]` is TypeRef(base='List', item=TypeRef('int'))."""

    base: str
    item: "TypeRef | None" = None

    @property
    def is_list(self) -> bool:
        return self.base == "List"

    @property
    def is_primitive(self) -> bool:
        return self.base in PRIMITIVE_TYPES

    @property
    def worksheet(self) -> str | None:
        """Name of the worksheet or type this refers to (also through List[...])."""
        if self.is_list and self.item is not None:
            return self.item.worksheet
        return None if self.is_primitive or self.base == "List" else self.base

    def __str__(self) -> str:
        return f"List[{self.item}]" if self.is_list else self.base


_TYPE_RE = re.compile(r"^\s*(?:list|List)\s*\[\s*(.+?)\s*\]\s*$")
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ALIASES = {
    "string": "str",
    "text": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "enum": "Enum",
    "Confirm": "confirm",
}


@lru_cache(maxsize=4096)  # TypeRef is frozen; the policy parses the same few types at every step
def parse_type(text: str) -> TypeRef:
    """Parse a type string; raise SpecError for anything that is not a type expression."""
    t = (text or "").strip()
    m = _TYPE_RE.match(t)
    if m:
        return TypeRef("List", parse_type(m.group(1)))
    t = _ALIASES.get(t, t)
    if not _NAME_RE.match(t):
        raise SpecError(f"'{text}' is not a type", attribute="type")
    return TypeRef(t)


_PAST_WORDS = {"submitted", "sent", "was", "were", "did", "born", "birth", "happened", "took", "received", "ago",
               "occurred", "started", "filed", "been", "missed",
               # irregular past forms a description of something that already happened uses ("The day you lost it")
               "lost", "stolen", "stole", "broke", "broken", "bought", "paid", "went", "fell", "seen", "saw",
               "noticed", "damaged", "purchased"}


def past_field(f: Field) -> bool:
    """A date field about something that already happened ("When the form was submitted", a birth date): the
    parser reads its dates backwards and the agent asks for it with a past example."""
    words = set(re.findall(r"[a-z]+", f.description.lower())) | set(f.name.lower().split("_"))
    return bool(words & _PAST_WORDS)


def snake_case(name: str) -> str:
    """`BookRestaurant` -> `book_restaurant` (the paper's record variable names)."""
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    s = re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", s)
    return re.sub(r"[^A-Za-z0-9_]", "_", s).lower()


def day_first(spec: "Spec") -> bool:
    """Whether a date like 3/9/47 is read day first for this spec (`Settings.date_order`)."""
    if spec.settings.date_order != "auto":
        return spec.settings.date_order == "day_first"
    texts = [spec.starting_prompt] + [t for ws in spec.worksheets for f in ws.fields for t in (f.name, f.description)]
    return any(_BRITISH_OR_EUROPEAN.search(t) for t in texts)


def evening_hours(spec: "Spec") -> bool:
    """Whether an hour said without am/pm is read as an evening one for this spec (`Settings.bare_hours`)."""
    if spec.settings.bare_hours != "auto":
        return spec.settings.bare_hours == "evening"
    texts = [spec.name, spec.description, spec.starting_prompt] + [
        t for ws in spec.worksheets if ws.kind != "kb" for t in (ws.name, ws.description)]
    return any(_EVENING_TRADE.search(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", t)) for t in texts)


_EVENING_TRADE = re.compile(
    r"(?<!school\s)(?<!operating\s)(?<!lecture\s)(?<!breakfast\s)\b(?:restaurants?|dinners?|dining|diners?|bistros?|"
    r"brasserie|eatery|trattoria|pizzeria|steakhouse|grill|curry\s+house|tapas|gastropub|pubs?|inns?|taverns?|bars?|"
    r"cocktails?|lounge|karaoke|takeaway|theat(?:re|er)s?|cinemas?|concerts?|gigs?|nightclubs?|comedy\s+club|"
    r"book(?:ing)?s?\s+(?:a\s+)?tables?|tables?\s+(?:bookings?|reservations?))\b"
    r"(?!\s+(?:equipment|supplies|repairs?|fitting|stools?))", re.I)
"""Trades whose bookings are mostly in the evening (a meal out, a night out, a show): there "at 7" is 19:00, where a
garage's "at 8" is 08:00. Not "school dinners", an "operating theatre", "breakfast bars" or "restaurant equipment"."""


_BRITISH_OR_EUROPEAN = re.compile(r"postcode|[£€]|\b(?:pounds?|pence|euros?|GBP|EUR)\b", re.I)


def inside_sentence(label: str) -> str:
    """A field's description as words inside a sentence: the first letter lower case ("A phone number" -> "a phone
    number"), unless the first word is an acronym or code ("PIN of the card", "UK postcode")."""
    first = label.split(" ", 1)[0]
    if len(first) > 1 and first[1:].lower() != first[1:]:
        return label
    return label[:1].lower() + label[1:]


def spec_json_schema() -> dict[str, Any]:
    return Spec.model_json_schema()
