"""The paper's five agent acts, as canonical JSON dicts (DESIGN §4).

Acts are plain dicts because that is their contract: tests, the CLI's --jsonl
output and the studio's act trace all read exactly these shapes.
"""

from __future__ import annotations

from typing import Any

Act = dict[str, Any]
ACT_KINDS = ("ask", "confirm", "report", "say", "propose")


def ask(var: str, worksheet: str, field: str) -> Act:
    return {"act": "ask", "var": var, "worksheet": worksheet, "field": field}


def confirm(var: str, worksheet: str, field: str, value: Any) -> Act:
    return {"act": "confirm", "var": var, "worksheet": worksheet, "field": field, "value": value}


def report(var: str, kind: str, result: Any, **extra: Any) -> Act:
    return {"act": "report", "var": var, "kind": kind, "result": result, **extra}


def say(text: str) -> Act:
    return {"act": "say", "text": text}


def propose(worksheet: str, values: dict[str, Any]) -> Act:
    return {"act": "propose", "worksheet": worksheet, "values": values}


def is_question(act: Act) -> bool:
    """Acts that wait for the user's answer; at most one per turn."""
    return act["act"] in ("ask", "confirm")


def describe(act: Act) -> str:
    """One-line formal rendering, e.g. `Ask(main, full_name)`, for traces and prompts."""
    kind = act["act"]
    if kind == "ask":
        return f"Ask({act['var']}, {act['field']})"
    if kind == "confirm":
        return f"Confirm({act['var']}, {act['field']}, {act['value']!r})"
    if kind == "report":
        return f"Report({act['var']}, {act['kind']})"
    if kind == "say":
        return f"Say({act['text']!r})"
    if kind == "propose":
        return f"Propose({act['worksheet']}, {act['values']!r})"
    return repr(act)
