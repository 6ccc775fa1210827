"""Replay conversations through the engine with their expected statements instead of a parser.

    python scripts/heldout/replay.py PROJECT TEST.json [TEST.json ...]

For writers of held-out conversations, who must not run the parser: every turn is read as its
`statements`, and the tool prints the agent's reply and any expected act, value or reply the turn
does not produce. Zero problems means the annotation is consistent with the spec and the policy.
The project is played from a temporary copy, so the knowledge base the engine builds (`kb.sqlite`) is never written
into the writer's folder or the repository's samples.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sys
import tempfile
from pathlib import Path

from core_engine.evaluation.testing import ExpectedStatements, check_turn
from core_engine.session.agent import Agent


def replay(agent: Agent, path: Path) -> int:
    test = json.loads(path.read_text())
    opts = {"parser": "formal"}
    if test.get("today"):
        opts["today"] = dt.date.fromisoformat(str(test["today"]))
    session = agent.new_session(**opts)
    problems = 0
    print(f"== {path.name}")
    for i, turn in enumerate(test["turns"], start=1):
        statements = list(turn.get("statements") or [])
        result = session.turn(turn["user"], parser=ExpectedStatements(statements))
        check = check_turn(i, turn, result)
        rejected = (result.trace.get("interpret") or {}).get("rejected") or []
        print(f"  {i}. user: {turn['user']}\n     statements: {statements}\n     agent: {result.response}")
        for r in rejected:
            print(f"     ! statement rejected: {r.get('source')!r}: {r.get('error')}")
        for p in check.problems:
            print(f"     ! {p}")
        problems += len(check.problems) + len(rejected)
    return problems


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / Path(argv[0]).resolve().name
        shutil.copytree(argv[0], copy, ignore=shutil.ignore_patterns("kb.sqlite*", "tests"))
        agent = Agent.load(copy)
        total = sum(replay(agent, Path(p)) for p in argv[1:])
    print(f"{total} problem(s)")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
