"""Deterministic knowledge-base data for the sample projects.

Every data file under ``sample_projects/*/data/`` is written by these generators from
seeded ``random.Random`` instances (no downloaded data), so a reviewer can regenerate
byte-identical files with ``python -m sample_projects._datagen`` and verify the committed
ones with ``python -m sample_projects._datagen --check``.
"""

from __future__ import annotations

from .outputs import SAMPLE_ROOT, render_all, stale_files, to_jsonl, write_all

__all__ = ["SAMPLE_ROOT", "render_all", "stale_files", "to_jsonl", "write_all"]
