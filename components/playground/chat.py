"""The playground's chat: the starting prompt, then each turn, each one clickable to inspect.

Injected and edited turns show their formal statements as code, so the conversation
reads as what the engine saw. Clicking "turn k" selects it for the inspector (the
selection is the caller's: `on_select(k)`).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import streamlit as st

from components.safe_text import plain


def escape_markdown(text: str) -> str:
    """User text shown literally (no accidental headings, links, images or code)."""
    return plain(text)


def turn_kind(turn: Any) -> str:
    """"user", "inject" or "edit"."""
    return (getattr(turn, "trace", None) or {}).get("input") or "user"


def render_chat(starting_prompt: str, turns: Sequence[Any], *, selected: int,
                on_select: Callable[[int], None], key: str = "chat") -> None:
    """Draw the conversation; `selected` is the inspected turn (0 = the start)."""
    with st.chat_message("assistant"):
        st.markdown(plain(starting_prompt) if starting_prompt else "_(no starting prompt)_")
        _select_button(0, selected, on_select, key, "start")
    for k, turn in enumerate(turns, start=1):
        kind = turn_kind(turn)
        with st.chat_message("user", avatar=":material/code:" if kind != "user" else "user"):
            if kind == "user":
                st.markdown(escape_markdown(turn.user))
            else:
                st.caption("edited field" if kind == "edit" else "injected statements")
                st.code(turn.user, language="python", wrap_lines=True)
        with st.chat_message("assistant"):
            if not getattr(turn, "ok", True):
                st.caption(":red[this turn failed; the state is unchanged]")
            st.markdown(plain(turn.response) if turn.response else "_(no response)_")
            _select_button(k, selected, on_select, key, _act_summary(turn.acts))


def _act_summary(acts: list[dict[str, Any]]) -> str:
    kinds = [a.get("act", "?") for a in acts]
    return ", ".join(kinds) if kinds else "no acts"


def _select_button(k: int, selected: int, on_select: Callable[[int], None], key: str, note: str) -> None:
    here = k == selected
    label = f"{'▶ ' if here else ''}turn {k} · {note}" + (" (inspecting)" if here else "")
    st.button(label, key=f"{key}-select-{k}", type="primary" if here else "tertiary", on_click=on_select,
              args=(k,), help="Inspect the state, parse, KB queries and acts of this turn")


__all__ = ["render_chat", "escape_markdown", "turn_kind"]
