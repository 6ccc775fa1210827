"""Read one test turn again in its gold context: the turns before it are kept as their expected statements.

    python scripts/heldout/probe.py REGEX [--sets "59 60"] [--alt "other words||more words"] [-v]

Finds the turns whose user words match REGEX in the sets (a blind folder /work/blind/heldoutN when it exists,
else tests/heldout_sets/heldoutN; default: the dev sets), and prints what the offline parser reads there, beside
what the test expects. `--alt` reads other words in the same context; `-v` prints the parser's rules.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

from core_engine.evaluation.testing import ExpectedStatements, load_test
from core_engine.session.agent import Agent

ROOT = Path(__file__).resolve().parents[2]
DEV = [*range(59, 83), *range(86, 113)]


def set_dir(n: int) -> Path:
    blind = Path(f"/work/blind/heldout{n}")
    return blind if blind.is_dir() else ROOT / "tests" / "heldout_sets" / f"heldout{n}"


def tests_in(base: Path):
    for proj in sorted(p for p in base.iterdir() if p.is_dir() and p.name != "samples"):
        for t in sorted((proj / "tests").glob("*.json")):
            yield proj, t
    for sdir in sorted((base / "samples").glob("*")) if (base / "samples").is_dir() else []:
        for t in sorted(sdir.glob("*.json")):
            yield ROOT / "sample_projects" / sdir.name, t


def probe(proj: Path, path: Path, index: int, texts: list[str], verbose: bool) -> None:
    test = load_test(path)
    opts = {"parser": "offline", "rg": "template"}
    if test.get("today"):
        opts["today"] = dt.date.fromisoformat(str(test["today"]))
    session = Agent.load(proj).new_session(**opts)
    for turn in test["turns"][: index - 1]:
        if isinstance(turn.get("statements"), list):
            session.turn(turn["user"], parser=ExpectedStatements(turn["statements"]))
        else:
            session.turn(turn["user"])
    want = test["turns"][index - 1].get("statements")
    print(f"== {proj.name}/{path.name} #{index}\n   want {want}")
    for text in texts:
        result = session.probe(text)
        parse = result.trace.get("parse") or {}
        print(f"   {text!r}\n   got  {parse.get('statements')}")
        if verbose:
            for rule in parse.get("rules") or []:
                print(f"      rule {rule}")


def main(argv: list[str]) -> int:
    pattern = re.compile(argv[0], re.I)
    sets = [int(x) for x in argv[argv.index("--sets") + 1].split()] if "--sets" in argv else DEV
    alts = argv[argv.index("--alt") + 1].split("||") if "--alt" in argv else []
    for n in sets:
        for proj, path in tests_in(set_dir(n)):
            for i, turn in enumerate(load_test(path)["turns"], start=1):
                if pattern.search(turn["user"]):
                    probe(proj, path, i, [turn["user"], *alts], "-v" in argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
