"""Engine per-turn time: the offline default (offline parser + template responses) on every
sample, and the formal parser (statements in, no language understanding) on two.

Replays each sample's conversation tests of that parser many times and records
p50/p99 per-turn wall time. Writes bench/results/engine.json.

    python -m bench.bench_engine [--repeat 200]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

from core_engine import Agent
from core_engine.evaluation.testing import find_tests, load_test
from bench import write_result

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ("ticket_submission", "bank_fraud")
OFFLINE_SAMPLES = ("ticket_submission", "bank_fraud", "restaurant_reservation", "course_enrollment")
QUICK = {"repeat": 2}  # `python -m bench --quick`


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]


def bench_sample(name: str, repeat: int, parser: str = "formal") -> dict:
    agent = Agent.load(ROOT / "sample_projects" / name)
    tests = [load_test(p) for p in find_tests(agent) if load_test(p).get("parser", "formal") == parser]
    times: list[float] = []
    agent.new_session(parser=parser).turn("hello")  # warm-up: backend imports and KB vocabulary
    for _ in range(repeat):
        for test in tests:
            session = agent.new_session(parser=parser)
            for turn in test["turns"]:
                t = time.perf_counter()
                session.turn(turn["user"])
                times.append((time.perf_counter() - t) * 1000)
    return {"turns": len(times), "p50_ms": round(percentile(times, 50), 3), "p99_ms": round(percentile(times, 99), 3),
            "mean_ms": round(statistics.fmean(times), 3)}


def run(repeat: int = 100) -> dict:
    return {"benchmark": "engine_turn_formal_template", "python": platform.python_version(),
            "machine": platform.machine(), "samples": {n: bench_sample(n, repeat) for n in SAMPLES},
            "offline_default": {n: bench_sample(n, max(1, repeat // 10), "offline") for n in OFFLINE_SAMPLES}}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=100)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "engine.json"))
    args = ap.parse_args(argv)
    result = run(args.repeat)
    write_result(Path(args.out), result)
    return result


if __name__ == "__main__":
    main()
