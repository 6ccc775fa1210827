"""Unsaved edits kept in the project file, so a reload or a closed tab loses nothing.

    save_draft(project, spec, base=4)   load_draft(project) -> Draft(spec, base, saved) | None   clear_draft(project)

Why in the file and not in the browser: Streamlit's session state dies with the
tab. The draft lives in its own `_genie_drafts` table (created on first use); a
bundle never ships it (bundles re-create the `_genie_*` tables), and it is not a
version: only an explicit save adds one.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from core_engine import jsonsafe
from core_engine.spec.model import Spec

from . import fileformat as ff

__all__ = ["Draft", "clear_draft", "load_draft", "save_draft"]

_TABLE = ff.OPTIONAL_TABLES["_genie_drafts"]


@dataclass(frozen=True)
class Draft:
    spec: Spec
    base: int
    saved: dt.datetime


def save_draft(project: Any, spec: Spec, *, base: int, owner: str = "studio") -> None:
    """Keep `spec` (edited from version `base`) as the draft of `owner`; replaces the previous draft."""
    with project._write() as conn:
        conn.execute(_TABLE)
        conn.execute("INSERT OR REPLACE INTO _genie_drafts (owner, base, spec_json, saved) VALUES (?, ?, ?, ?)",
                     (owner, int(base), ff.spec_text(spec), dt.datetime.now(dt.timezone.utc).isoformat()))


def load_draft(project: Any, owner: str = "studio") -> Draft | None:
    """The kept draft, or None (also when the file has no draft table or the draft no longer parses)."""
    rows = project._store.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_genie_drafts'")
    if not rows:
        return None
    rows = project._store.query("SELECT base, spec_json, saved FROM _genie_drafts WHERE owner = ?", (owner,))
    if not rows:
        return None
    try:
        spec = Spec.model_validate(jsonsafe.loads(rows[0][1], what="the draft"))
    except ValueError:
        return None
    return Draft(spec, int(rows[0][0]), dt.datetime.fromisoformat(rows[0][2]))


def clear_draft(project: Any, owner: str = "studio") -> None:
    if project.readonly:
        return
    with project._write() as conn:
        conn.execute(_TABLE)
        conn.execute("DELETE FROM _genie_drafts WHERE owner = ?", (owner,))
