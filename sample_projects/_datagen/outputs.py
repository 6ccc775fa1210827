"""Where each generated table is written and how it is encoded (one JSON object a line).

The encoding is fixed (UTF-8, ``ensure_ascii=False``, insertion-ordered keys, trailing
newline) because ``--check`` compares bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from . import courses, restaurants, services

SAMPLE_ROOT = Path(__file__).resolve().parent.parent


def to_jsonl(rows: Iterable[dict]) -> bytes:
    """Encode rows as JSON Lines: one compact object per line, newline at the end."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode("utf-8")


def render_all() -> dict[str, bytes]:
    """Every data file's bytes, keyed by its path relative to ``sample_projects/``."""
    tables: dict[str, list[dict]] = {
        "restaurant_reservation/data/restaurants.jsonl": restaurants.generate(),
    }
    for name, rows in courses.generate().items():
        tables[f"course_enrollment/data/{name}.jsonl"] = rows
    tables["ticket_submission/data/services_general_info.jsonl"] = services.generate()
    return {path: to_jsonl(rows) for path, rows in tables.items()}


def write_all(root: Path = SAMPLE_ROOT) -> list[Path]:
    """Regenerate every data file under ``root``; returns the paths written."""
    written = []
    for relative, data in render_all().items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(target)
    return written


def stale_files(root: Path = SAMPLE_ROOT) -> list[str]:
    """Relative paths under ``root`` that are missing or differ from a fresh generation."""
    stale = []
    for relative, data in render_all().items():
        target = root / relative
        if not target.is_file() or target.read_bytes() != data:
            stale.append(relative)
    return stale
