"""The one way to turn a name taken from a bundle or project file into a path.

Every writer (and reader) of files whose names come from a bundle, a project
file or a folder's ``tables.json`` goes through ``safe_path``: the result is
inside ``root``, built only from allow-listed path segments (no absolute paths,
no ``..``, no hidden names, no drive letters or backslashes), and no existing
segment on the way is a symbolic link.
"""

from __future__ import annotations

import re
from pathlib import Path

from core_engine.errors import StorageError

__all__ = ["NAME_RE", "safe_name", "safe_path"]

NAME_RE = re.compile(r"\w[\w .\-]{0,99}")
"""One path segment: letters, digits, '_', '-', '.', spaces; starting with a letter, digit or '_'; ≤ 100 characters."""


def safe_name(name: str, *, what: str = "name") -> str:
    """``name`` when it is one allow-listed path segment, else StorageError naming it."""
    text = str(name)
    if not NAME_RE.fullmatch(text) or ".." in text:
        raise StorageError(f"unsafe {what} {text[:80]!r}: use letters, digits, spaces, '_', '-' and '.' "
                           "(no slashes, no leading '.', at most 100 characters)", name=text[:200])
    return text


def safe_path(root: str | Path, *parts: str, what: str = "file name") -> Path:
    """``root / parts...`` when every part is a safe segment and nothing on the way is a link."""
    root = Path(root)
    path = root
    for part in parts:
        for segment in str(part).split("/"):
            path = path / safe_name(segment, what=what)
            if path.is_symlink():
                raise StorageError(f"{what} {str(part)!r} goes through a symbolic link", path=str(path))
    resolved_root = root.resolve()
    if not path.resolve().is_relative_to(resolved_root):
        raise StorageError(f"{what} {'/'.join(map(str, parts))!r} is outside its folder", path=str(path))
    return path
