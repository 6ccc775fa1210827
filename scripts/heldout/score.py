"""Score projects' natural-language tests with `genie eval` (own and gold context, KB questions).

Two uses, both with the offline parser:
    python scripts/heldout/score.py base [--per]          # the samples and every tests/agents project
    python scripts/heldout/score.py DIR [--per] [--fail]  # a held-out set: DIR/<agent>/ projects and
                                                          # DIR/samples/<sample>/*.json tests on the samples
Prints turns right (own / gold), goals and KB questions per part and in total, and a RAISED line for any part where
a turn raised (an internal error of the parser, counted by `genie eval` as `failed_turns`). `--fail` lists the
turns read wrong in own context with the statements expected and got, `--gold-fail` those in
gold context (each turn from the state its test expects: the root misreadings); `--problems` adds each listed
turn's problems (statements, values or acts). Used to keep first and final
scores of blind sets (docs/evaluation.md); nothing here changes a project.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def parts(target: str) -> list[tuple[str, Path, list[Path]]]:
    """(label, project, test files) for each part to score."""
    if target == "base":
        out = [(p.name, p, []) for p in sorted((ROOT / "sample_projects").iterdir()) if (p / "tests").is_dir()]
        return out + [(p.name, p, []) for p in sorted((ROOT / "tests" / "agents").iterdir()) if p.is_dir()]
    base = Path(target)
    out = []
    for proj in sorted(p for p in base.iterdir() if p.is_dir() and p.name != "samples"):
        out.append((proj.name, proj, sorted((proj / "tests").glob("*.json"))))
    for sdir in sorted((base / "samples").glob("*")) if (base / "samples").is_dir() else []:
        tests = sorted(sdir.glob("*.json"))
        if tests:
            out.append((f"samples/{sdir.name}", ROOT / "sample_projects" / sdir.name, tests))
    return out


def evaluate(project: Path, tests: list[Path]) -> dict:
    cmd = [sys.executable, "-m", "core_engine", "eval", str(project), *map(str, tests), "--context", "both", "--json"]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd="/tmp")
    if not run.stdout.strip():
        raise SystemExit(f"genie eval failed on {project}: {run.stderr[-2000:]}")
    return json.loads(run.stdout)["parsers"]


def main(argv: list[str]) -> int:
    target = argv[0] if argv else "base"
    todo = parts(target)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda t: evaluate(t[1], t[2]), todo))
    total = {"own": 0, "gold": 0, "n": 0, "goals": 0, "goals_n": 0, "kb": 0, "kb_n": 0}
    for (label, _, _), res in zip(todo, results):
        own, gold = res["offline"], res["offline (gold context)"]
        kb = own.get("kb_questions") or {}
        row = {"own": own["turns"]["right"], "gold": gold["turns"]["right"], "n": own["turns"]["n"],
               "goals": own["metrics"]["goal_completion"]["right"], "goals_n": own["metrics"]["goal_completion"]["n"],
               "kb": kb.get("right", 0), "kb_n": kb.get("n", 0)}
        for k in total:
            total[k] += row[k]
        raised = {ctx: res[col].get("failed_turns") for ctx, col in (("own", "offline"), ("gold", "offline (gold context)"))}
        if any(raised.values()):  # a turn that raised is a bug of the parser, not a misreading: said apart
            print(f"RAISED {label}: own {raised['own']} gold {raised['gold']} turns; first: "
                  f"{res['offline'].get('first_failure') or res['offline (gold context)'].get('first_failure')}")
        if "--per" in argv:
            print(f"{label:28} own {row['own']:4}/{row['n']:<4} gold {row['gold']:4}  goals {row['goals']}/{row['goals_n']}"
                  f"  KB {row['kb']}/{row['kb_n']}")
        for flag, res_, tag in (("--fail", own, "own"), ("--gold-fail", gold, "gold")):
            if flag not in argv:
                continue
            for test in res_["tests"]:
                for turn in test["turns"]:
                    if not turn.get("ok", True):
                        print(f"  [{tag}] {label}/{test['name']} #{turn['index']}: {turn['user']!r}\n"
                              f"      want {turn.get('expected_statements')}\n      got  {turn.get('statements')}")
                        if "--problems" in argv:
                            print(f"      why  {turn.get('problems')}")
    print(f"TOTAL own {total['own']}/{total['n']} gold {total['gold']}/{total['n']} goals {total['goals']}/{total['goals_n']}"
          f" KB {total['kb']}/{total['kb_n']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
