"""The playground's chat: the starting prompt, then each turn, as one HTML element.

Why one element and not a `st.chat_message` per message: Streamlit re-sends and the browser
redraws every element of a rerun, so a chat of k turns cost about 5k elements per turn, and
the turn time grew with the conversation (issue 17: a studio turn near the framework's
floor). One `st.html` is one element at any length. It scrolls itself: the box is a
reversed flex column, so the browser keeps it at the newest message without any script.

No Streamlit here: `chat_html(...)` returns a string, tested without a browser. Every text
(the user's, the agent's, injected statements) is HTML-escaped; nothing in it is markup.
Injected and edited turns show their formal statements as code, so the conversation reads
as what the engine saw. Each agent message carries its turn number and its acts; the
inspector's "Inspect" picker selects a turn (`turn_label` gives both the same words).
"""

from __future__ import annotations

from html import escape
from typing import Any, Sequence

from components.safe_text import plain

__all__ = ["CHAT_CSS", "chat_html", "escape_markdown", "turn_kind", "turn_label"]

CHAT_CSS = """<style>
.genie-chat { height: 620px; overflow-y: auto; display: flex; flex-direction: column-reverse;
  border: 1px solid rgba(49, 51, 63, 0.12); border-radius: 0.5rem; padding: 0.25rem 0.75rem; }
.genie-chat .msg { display: flex; gap: 0.6rem; margin: 0.55rem 0; }
.genie-chat .who { flex: 0 0 2rem; height: 2rem; border-radius: 0.5rem; display: flex; align-items: center;
  justify-content: center; font-size: 0.75rem; font-weight: 600; color: #fff; }
.genie-chat .agent .who { background: #ff8c42; }
.genie-chat .user .who { background: #4b6bfb; }
.genie-chat .user.code .who { background: #6c757d; }
.genie-chat .body { flex: 1 1 auto; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere;
  line-height: 1.5; padding-top: 0.2rem; }
.genie-chat .msg.selected .body { background: rgba(255, 140, 66, 0.10); border-radius: 0.4rem;
  outline: 1px solid rgba(255, 140, 66, 0.45); padding: 0.2rem 0.4rem; }
.genie-chat .meta { display: block; color: rgba(49, 51, 63, 0.6); font-size: 0.78rem; margin-top: 0.2rem;
  white-space: normal; }
.genie-chat .failed { color: #b02a37; font-size: 0.8rem; display: block; }
.genie-chat pre { margin: 0.2rem 0 0 0; padding: 0.4rem 0.5rem; border-radius: 0.3rem; font-size: 0.8rem;
  background: rgba(151, 166, 195, 0.15); white-space: pre-wrap; overflow-wrap: anywhere; }
</style>"""


def escape_markdown(text: str) -> str:
    """User text shown literally by a Markdown element (no accidental headings, links, images or code)."""
    return plain(text)


def turn_kind(turn: Any) -> str:
    """"user", "inject" or "edit"."""
    return (getattr(turn, "trace", None) or {}).get("input") or "user"


def _act_summary(acts: list[dict[str, Any]]) -> str:
    kinds = [a.get("act", "?") for a in acts]
    return ", ".join(kinds) if kinds else "no acts"


def turn_label(k: int, turns: Sequence[Any]) -> str:
    """"start" or "turn k · its acts": what the chat shows under an agent message and the picker lists."""
    return "start" if k == 0 else f"turn {k} · {_act_summary(turns[k - 1].acts)}"


def _message(role: str, body: str, *, meta: str = "", selected: bool = False, extra: str = "") -> str:
    classes = " ".join(c for c in ("msg", role, extra, "selected" if selected else "") if c)
    who = "you" if role == "user" else "agent"
    meta_html = f'<span class="meta">{escape(meta)}</span>' if meta else ""
    return (f'<div class="{classes}" data-role="{role}"><div class="who">{who}</div>'
            f'<div class="body">{body}{meta_html}</div></div>')


def chat_html(starting_prompt: str, turns: Sequence[Any], *, selected: int) -> str:
    """The conversation as one element; `selected` is the inspected turn (0 = the start)."""
    out = [_message("agent", escape(starting_prompt) if starting_prompt else "<i>(no starting prompt)</i>",
                    meta=turn_label(0, turns), selected=selected == 0)]
    for k, turn in enumerate(turns, start=1):
        kind = turn_kind(turn)
        if kind == "user":
            out.append(_message("user", escape(turn.user or "")))
        else:
            what = "edited field" if kind == "edit" else "injected statements"
            out.append(_message("user", f'<span class="meta">{what}</span><pre><code>{escape(turn.user or "")}'
                                        "</code></pre>", extra="code"))
        failed = "" if getattr(turn, "ok", True) else '<span class="failed">this turn failed; the state is unchanged</span>'
        reply = escape(turn.response) if turn.response else "<i>(no response)</i>"
        out.append(_message("agent", failed + reply, meta=turn_label(k, turns), selected=selected == k))
    # the reversed flex column shows its end first: one inner block keeps the messages in reading order
    return f'<div class="genie-chat"><div class="msgs">{"".join(out)}</div></div>'
