"""Read the outputs of snapscore.sh (/work/sc/hN.TAG, /work/sc/base.TAG): totals, differences, failed turns.

    python scripts/heldout/scores.py sum TAG [SETS]        # agents and samples totals over the sets (default: dev sets)
    python scripts/heldout/scores.py base TAG              # the base score (samples and tests/agents)
    python scripts/heldout/scores.py cmp A B [SETS]        # parts whose figures moved between two tags
    python scripts/heldout/scores.py fails TAG [SETS] [--samples] [--grep RE]   # gold-context failures, one per line
    python scripts/heldout/scores.py lost A B [SETS]       # turns right in A and wrong in B (gold context)

Kept in the repository so a new machine has them (docs/evaluation.md says how the figures are used).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

OUT = Path("/work/sc")
DEV = [*range(59, 83), *range(86, 113)]
ROW = re.compile(r"^(\S+)\s+own\s+(\d+)/(\d+)\s+gold\s+(\d+)\s+goals (\d+)/(\d+)\s+KB (\d+)/(\d+)")


def rows(path: Path) -> dict[str, list[int]]:
    out = {}
    for line in path.read_text().splitlines():
        m = ROW.match(line)
        if m:
            out[m.group(1)] = [int(x) for x in m.groups()[1:]]
    return out


def sets_arg(args: list[str]) -> list[int]:
    return [int(x) for x in args[0].split()] if args and args[0][0].isdigit() else DEV


def total(tag: str, sets: list[int]) -> None:
    agg = {"agents": [0] * 7, "samples": [0] * 7}
    for n in sets:
        p = OUT / f"h{n}.{tag}"
        if not p.exists():
            print(f"missing {p}")
            continue
        for label, r in rows(p).items():
            part = "samples" if label.startswith("samples/") else "agents"
            agg[part] = [a + b for a, b in zip(agg[part], r)]
    for part, (own, n, gold, g, gn, kb, kbn) in agg.items():
        print(f"{tag} {part:8} own {own}/{n} ({own / max(n, 1):.1%}) gold {gold} ({gold / max(n, 1):.1%}) "
              f"goals {g}/{gn} KB {kb}/{kbn}")


def failures(tag: str, sets: list[int], samples: bool) -> list[tuple[str, str, str]]:
    out = []
    for n in sets:
        p = OUT / f"h{n}.{tag}"
        if not p.exists():
            continue
        lines = p.read_text().splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("  [gold] "):
                continue
            head = line[len("  [gold] "):]
            m = re.match(r"(.*? #\d+): (.*)$", head)
            where, user = m.groups() if m else (head, "")
            if where.startswith("samples/") != samples:
                continue
            want = lines[i + 1].strip()[len("want "):]
            got = lines[i + 2].strip()[len("got  "):]
            out.append((f"h{n} {where}", f"{user}", f"want {want}\n      got  {got}"))
    return out


def main(argv: list[str]) -> int:
    cmd, rest = argv[0], argv[1:]
    if cmd == "sum":
        total(rest[0], sets_arg(rest[1:]))
    elif cmd == "base":
        r = rows(OUT / f"base.{rest[0]}")
        t = [sum(v[i] for v in r.values()) for i in range(7)]
        print(f"base own {t[0]}/{t[1]} gold {t[2]} goals {t[3]}/{t[4]} KB {t[5]}/{t[6]}")
    elif cmd == "cmp":
        a, b, sets = rest[0], rest[1], sets_arg(rest[2:])
        names = [f"h{n}" for n in sets] + ["base"]
        for name in names:
            pa, pb = OUT / f"{name}.{a}", OUT / f"{name}.{b}"
            if not (pa.exists() and pb.exists()):
                continue
            ra, rb = rows(pa), rows(pb)
            for label in ra:
                if label in rb and ra[label] != rb[label]:
                    d = [y - x for x, y in zip(ra[label], rb[label])]
                    print(f"{name:6} {label:32} own {d[0]:+d} gold {d[2]:+d} goals {d[3]:+d} KB {d[5]:+d}")
    elif cmd in ("fails", "lost"):
        samples = "--samples" in rest
        grep = re.compile(rest[rest.index("--grep") + 1], re.I) if "--grep" in rest else None
        if cmd == "fails":
            tag, sets = rest[0], sets_arg(rest[1:])
            found = failures(tag, sets, samples)
        else:
            sets = sets_arg(rest[2:])
            before = {(w, u) for w, u, _ in failures(rest[0], sets, samples)}
            found = [f for f in failures(rest[1], sets, samples) if (f[0], f[1]) not in before]
        for where, user, detail in found:
            if grep and not grep.search(user + detail):
                continue
            print(f"{where}: {user}\n      {detail}")
        print(f"{len(found)} turns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
