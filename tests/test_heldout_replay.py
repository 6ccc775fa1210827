"""The writers' replay tool (scripts/heldout/replay.py) plays a project from a copy: the knowledge base the engine
builds is never written into the writer's folder or a sample's (a blind set's writer found `kb.sqlite` files left in
the repository's samples)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_replay_leaves_no_knowledge_base_in_the_project(tmp_path):
    project = tmp_path / "restaurant_reservation"
    shutil.copytree(ROOT / "sample_projects" / "restaurant_reservation", project,
                    ignore=shutil.ignore_patterns("kb.sqlite*"))
    conversation = sorted((project / "tests").glob("*.json"))[0]
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "heldout" / "replay.py"), str(project),
                          str(conversation)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "problem(s)" in run.stdout, run.stderr[-2000:]
    assert not list(project.glob("kb.sqlite*"))
