"""Text from specs, KB cells and users, shown as text: nothing in it is markdown or loads anything.

Streamlit renders markdown, so ``![x](http://host/pixel)`` in a spec description,
a KB cell or a user's answer would make the browser fetch that URL, and
``[x](...)`` would become a link. ``plain`` backslash-escapes every character
markdown (and Streamlit's ``:color[...]``/``:icon:`` and ``$math$`` syntax) gives a
meaning to, and breaks bare URLs, so the text reads exactly as written.
"""

from __future__ import annotations

import re

__all__ = ["plain"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$=\"'&])")
_URL = re.compile(r"(?i)\b(https?|ftp|file|data|javascript)(\\?:)")


def plain(text: object) -> str:
    """``text`` escaped for st.markdown: shown literally; no images, links, HTML, math or colours."""
    escaped = _SPECIAL.sub(r"\\\1", str(text if text is not None else ""))
    escaped = escaped.replace("\n", "  \n")  # keep line breaks as breaks, not paragraphs or lists
    return _URL.sub(lambda m: m.group(1) + "\u200b" + m.group(2), escaped)  # no autolinks either
