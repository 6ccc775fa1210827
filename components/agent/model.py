"""The Agent page's model: agent settings, declared APIs, prompt overrides and "Try it", without Streamlit.

Everything the worksheet grid cannot show lives here: name, description, starting
prompt, start worksheet, `today`, the APIs (mock / python / http), few-shot
examples and prompt-template overrides. Edits are applied to a copy of the latest
spec and saved as a version by the page (`save_agent_edit`), so they merge with
anything saved meanwhile. Secrets never go into the spec: an http header that
names a secret must be an environment reference `${env:NAME}`, resolved only
when the API is called from "Try it".
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
from typing import Any, Callable

from core_engine.errors import SpecError
from core_engine.spec.model import Api, ApiParam, Spec

__all__ = ["PROMPT_NAMES", "ENV_REF", "api_names", "apply_settings", "delete_api", "parse_json_object",
           "render_parser_prompt", "sample_params", "save_agent_edit", "try_api", "upsert_api"]

PROMPT_NAMES = ("parser_system", "parser_user", "rg_system", "rg_user", "knowledge_system", "knowledge_user")
from core_engine.secrets import ENV_REF
_SECRET_HEADER = re.compile(r"(auth|token|key|secret|password|cookie)", re.I)


DATE_ORDERS = {"auto": "Automatic (day first for a British or European agent)", "day_first": "Day first (3/9 is 3 September)",
               "month_first": "Month first (3/9 is March 9)"}
"""The choices of `settings.date_order`, as the settings form shows them."""
BARE_HOURS = {"auto": "Automatic (evening for a restaurant, bar or theatre)", "daytime": "Daytime (8 is 8 am, 4 is 4 pm)",
              "evening": "Evening (8 is 8 pm, 10 is 10 am)"}
"""The choices of `settings.bare_hours`, as the settings form shows them."""


def apply_settings(spec: Spec, *, name: str, description: str, starting_prompt: str,
                   start_worksheet: str | None, today: str | None, date_order: str | None = None,
                   bare_hours: str | None = None) -> Spec:
    """A copy of `spec` with the agent settings; a bad date, date order, hour reading or worksheet is a SpecError
    naming it."""
    if date_order is not None and date_order not in DATE_ORDERS:
        raise SpecError(f"date order must be one of {', '.join(DATE_ORDERS)}, not {date_order!r}", field="date_order")
    if bare_hours is not None and bare_hours not in BARE_HOURS:
        raise SpecError(f"the reading of hours without am/pm must be one of {', '.join(BARE_HOURS)}, not "
                        f"{bare_hours!r}", field="bare_hours")
    if not name.strip():
        raise SpecError("the agent needs a name", field="name")
    if start_worksheet and spec.worksheet(start_worksheet) is None:
        raise SpecError(f"start worksheet '{start_worksheet}' is not a worksheet of the spec", field="start_worksheet")
    today = (today or "").strip() or None
    if today is not None:
        try:
            dt.date.fromisoformat(today)
        except ValueError as exc:
            raise SpecError(f"'today' must be a date like 2024-07-06, not {today!r}", field="today") from exc
    new = spec.model_copy(deep=True)
    new.name, new.description, new.starting_prompt = name.strip(), description, starting_prompt
    new.settings.start_worksheet = start_worksheet or None
    new.settings.today = today
    if date_order is not None:
        new.settings.date_order = date_order  # type: ignore[assignment]
    if bare_hours is not None:
        new.settings.bare_hours = bare_hours  # type: ignore[assignment]
    return new


def api_names(spec: Spec) -> list[str]:
    return [a.name for a in spec.apis]


def parse_json_object(text: str, what: str) -> dict[str, Any]:
    """A JSON object typed by the user; a clear SpecError otherwise."""
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError as exc:
        raise SpecError(f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from exc
    if not isinstance(value, dict):
        raise SpecError(f"{what} must be a JSON object {{...}}, not a {type(value).__name__}")
    return value


def _check_headers(api_name: str, headers: dict[str, Any]) -> dict[str, str]:
    out = {}
    for key, value in headers.items():
        text = str(value)
        rest = ENV_REF.sub("", text).strip()  # what is left besides references: at most a scheme ("Bearer")
        if _SECRET_HEADER.search(str(key)) and (not ENV_REF.search(text) or not re.fullmatch(r"[A-Za-z]*", rest)):
            raise SpecError(f"API '{api_name}': header {key!r} looks like a secret; write it as an environment "
                            "reference such as ${env:MY_TOKEN}, never the value itself", api=api_name, header=key)
        out[str(key)] = text
    return out


def upsert_api(spec: Spec, api: dict[str, Any], *, old_name: str | None = None) -> Spec:
    """A copy of `spec` with `api` added (or replacing `old_name`; a rename also renames worksheet references)."""
    name = str(api.get("name", "")).strip()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise SpecError(f"an API name is a Python-style identifier (letters, digits, _), not {name!r}", api=name)
    params = []
    for i, p in enumerate(api.get("parameters") or [], start=1):
        pname = str(p.get("name") or "").strip()
        if not pname:
            continue
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", pname):
            raise SpecError(f"API '{name}': parameter {i} name {pname!r} is not an identifier", api=name)
        params.append(ApiParam(name=pname, type=str(p.get("type") or "str"), description=str(p.get("description") or ""),
                               required=bool(p.get("required", True))))
    kind = api.get("kind", "mock")
    fields = {"name": name, "description": str(api.get("description") or ""), "kind": kind, "parameters": params,
              "timeout_s": float(api.get("timeout_s") or 5.0)}
    if "mock_result" in api:
        fields["mock_result"] = api["mock_result"]
    if kind == "python":
        fields["function"] = (api.get("function") or "").strip() or None
    if kind == "http":
        url = (api.get("url") or "").strip()
        if url and not url.lower().startswith(("http://", "https://")):
            raise SpecError(f"API '{name}': the url must start with http:// or https://", api=name)
        fields["url"] = url or None
        fields["headers"] = _check_headers(name, api.get("headers") or {})
    new_api = Api(**fields)
    new = spec.model_copy(deep=True)
    target = old_name or name
    if name != target and new.api(name) is not None:
        raise SpecError(f"an API named '{name}' already exists", api=name)
    for i, existing in enumerate(new.apis):
        if existing.name == target:
            new.apis[i] = new_api
            break
    else:
        if new.api(name) is not None:
            raise SpecError(f"an API named '{name}' already exists", api=name)
        new.apis.append(new_api)
    if old_name and old_name != name:
        for ws in new.worksheets:
            if ws.api == old_name:
                ws.api = name
    return new


def delete_api(spec: Spec, name: str) -> Spec:
    new = spec.model_copy(deep=True)
    new.apis = [a for a in new.apis if a.name != name]
    return new


def sample_params(api: Api) -> dict[str, str]:
    """Sample values to pre-fill "Try it" (by parameter type)."""
    samples = {"int": "2", "float": "1.5", "bool": "True", "date": dt.date.today().isoformat(), "time": "19:00"}
    by_name = {"date": samples["date"], "day": samples["date"], "time": samples["time"], "number": "2",
               "count": "2", "people": "2"}
    out = {}
    for p in api.parameters:
        hint = next((v for k, v in by_name.items() if k in p.name.lower()), None)
        out[p.name] = samples.get(p.type) or hint or f"sample {p.name}"
    return out


def try_api(spec: Spec, name: str, params: dict[str, Any], *, module: Any = None,
            post: Callable[..., Any] | None = None) -> Any:
    """Call API `name` once as the agent would (mock, python from `module`, http with env headers resolved)."""
    from core_engine.policy.apis import ApiRunner, _http_post

    api = spec.api(name)
    if api is None:
        raise SpecError(f"API '{name}' is not declared", api=name)
    # http: the runner resolves ${env:NAME} references exactly as the agent will (core_engine.secrets)
    return ApiRunner(spec, module=module, post=post or _http_post).call(name, params)


def render_parser_prompt(spec: Spec, files: dict[str, str], utterance: str = "I would like to book") -> list[dict]:
    """The LLM parser's prompt (system + user messages) at the start of a conversation, with the project's
    overrides and few-shot examples; a broken template or example is a SpecError naming it."""
    from core_engine.parsers.base import ParseContext
    from core_engine.parsers.llm import LLMParser
    from core_engine.llm.prompting import PromptLibrary
    from core_engine.session.turn import start_state

    from core_engine import jsonsafe
    from storage.safepath import safe_path

    few_shots = jsonsafe.loads(files.get("few_shots.json") or "[]", what="few_shots.json")
    with tempfile.TemporaryDirectory(prefix="genie-prompts-") as tmp:
        for path, text in files.items():
            if path.startswith("prompts/"):  # names from the project file: another person's file may hold anything
                safe_path(tmp, path.split("/", 1)[1], what="prompt file").write_text(text, encoding="utf-8")
        parser = LLMParser(client=None, prompts=PromptLibrary(tmp), few_shots=few_shots)
        today = dt.date.fromisoformat(spec.settings.today) if spec.settings.today else dt.date.today()
        rendered = parser.prompt(utterance, ParseContext(spec, start_state(spec), today))
    return rendered.messages


def save_agent_edit(project: Any, edit: Callable[[Spec], Spec], message: str) -> Any:
    """Apply `edit` to the latest spec and save it as a version (retrying once if a save lands meanwhile)."""
    from storage import ConflictError

    for _ in range(2):
        head = project.head()
        new = edit(project.spec())
        try:
            return project.save_spec(new, message, base_version=head.number, author="studio")
        except ConflictError:
            continue
    raise SpecError("the project is being saved by someone else right now; try again")
