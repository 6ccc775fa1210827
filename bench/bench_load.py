"""Load: many concurrent sessions, per-turn time over a long conversation, memory per idle
session, and the cost of a very large spec. Offline parser + template responses.

- concurrency: `sessions` sessions x `turns` turns (each a sample's offline conversation
  tests, cycled), sequential, on 8 threads, and on 2 spawned processes: turns per second
  and per-turn p50/p99;
- growth: one session of `long_turns` turns; per-turn p50 of the first and last 20 turns, with
  the state piling up (a new ticket every few turns) and with a fixed state (one record edited).
  The last 20 turns are other lines than the first 20 (the pool is cycled), so
  `same_lines_last_pass` also compares the first 20 lines with the same 20 lines in the last
  full pass over the pool (same text, a state that piled up);
- memory: tracemalloc and RSS growth per idle session (each after 3 turns);
- large spec: a 10,000-field worksheet spec loaded, linted and run for one turn;
- oversized input: a 1 MB utterance (refused by the turn-size limit).

Writes bench/results/load.json.     python -m bench.bench_load [--sessions 50 --turns 20]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import multiprocessing
import platform
import statistics
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import psutil

from core_engine import Agent, Spec
from core_engine.lint import lint
from core_engine.loaders import dumps_json, loads_spec
from core_engine.evaluation.testing import find_tests, load_test
from bench import write_result

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ("bank_fraud", "ticket_submission")
TODAY = dt.date(2024, 7, 5)
QUICK = {"sessions": 10, "turns": 10, "long_turns": 60, "idle_sessions": 20, "spec_fields": 2_000}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


@cache
def agent(sample: str) -> Agent:
    return Agent.load(ROOT / "sample_projects" / sample)


@cache
def lines(sample: str) -> tuple[str, ...]:
    """The user turns of the sample's offline conversation tests, one after another."""
    found = [load_test(p) for p in find_tests(agent(sample))]
    return tuple(t["user"] for test in found if test.get("parser") == "offline" for t in test["turns"])


def conversation(index: int, turns: int) -> tuple[str, list[str]]:
    sample = SAMPLES[index % len(SAMPLES)]
    pool = lines(sample)
    start = (index * 7) % len(pool)
    return sample, [pool[(start + k) % len(pool)] for k in range(turns)]


def play(index: int, turns: int) -> list[float]:
    """One session; the wall time of each turn in ms."""
    sample, texts = conversation(index, turns)
    session = agent(sample).new_session(parser="offline", today=TODAY)
    times = []
    for text in texts:
        started = time.perf_counter()
        session.turn(text)
        times.append((time.perf_counter() - started) * 1000)
    return times


def _play_chunk(args: tuple[list[int], int]) -> list[list[float]]:
    indexes, turns = args
    return [play(i, turns) for i in indexes]


def _stats(per_session: list[list[float]], wall_s: float) -> dict[str, Any]:
    flat = [t for s in per_session for t in s]
    return {"wall_s": round(wall_s, 3), "turns_per_s": round(len(flat) / wall_s, 1),
            "turn_p50_ms": round(percentile(flat, 50), 3), "turn_p99_ms": round(percentile(flat, 99), 3)}


def bench_concurrency(sessions: int, turns: int) -> dict[str, Any]:
    for sample in SAMPLES:  # warm-up: imports, KB vocabulary, first-turn caches
        play(SAMPLES.index(sample), 2)
    started = time.perf_counter()
    sequential = [play(i, turns) for i in range(sessions)]
    out: dict[str, Any] = {"sessions": sessions, "turns": turns,
                           "sequential": _stats(sequential, time.perf_counter() - started)}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(lambda i: play(i, turns), range(sessions)))
    out["threads"] = {"workers": 8, **_stats(threaded, time.perf_counter() - started)}
    context = multiprocessing.get_context("spawn")
    chunks = [(list(range(w, sessions, 2)), turns) for w in range(2)]
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        list(pool.map(_play_chunk, [([0, 1], 2)] * 2))  # start and warm the workers outside the timing
        started = time.perf_counter()
        processed = [s for chunk in pool.map(_play_chunk, chunks) for s in chunk]
        out["processes"] = {"workers": 2, **_stats(processed, time.perf_counter() - started)}
    return out


def bench_growth(long_turns: int, *, fixed_state: bool = False) -> dict[str, Any]:
    """Per-turn time over one long session: the sample's conversations one after another (new
    tickets pile up in the state), or with `fixed_state` one record whose name keeps changing."""
    sample = "bank_fraud" if fixed_state else "ticket_submission"
    session = agent(sample).new_session(parser="offline", today=TODAY)
    if fixed_state:
        for text in ("Someone used my card", "Ana Ruiz"):
            session.turn(text)
        pool: tuple[str, ...] = tuple(f"actually my name is Ana {name}" for name in ("Ruiz", "Okafor", "Nguyen"))
    else:
        pool = lines(sample)
    times = []
    for k in range(long_turns):
        started = time.perf_counter()
        session.turn(pool[k % len(pool)])
        times.append((time.perf_counter() - started) * 1000)
    window = min(20, max(1, long_turns // 3))
    first, last = statistics.median(times[:window]), statistics.median(times[-window:])
    # the same lines at the start and in the last full pass over the pool: more state, same text
    passes = long_turns // len(pool)
    same = None
    if passes >= 2:
        start = (passes - 1) * len(pool)
        same = {"passes": passes, "lines": window,
                "first_pass_p50_ms": round(first, 3),
                "last_pass_p50_ms": round(statistics.median(times[start:start + window]), 3)}
        same["last_over_first_p50"] = round(same["last_pass_p50_ms"] / first, 2) if first else None
    return {"turns": long_turns, "window": window, "first_p50_ms": round(first, 3), "last_p50_ms": round(last, 3),
            "last_over_first_p50": round(last / first, 2) if first else None,
            "same_lines_last_pass": same,
            "records_at_end": len(session.state["records"]),
            "by_decile_p50_ms": [round(statistics.median(times[i:i + max(1, long_turns // 10)]), 3)
                                 for i in range(0, long_turns, max(1, long_turns // 10))]}


def bench_memory(idle_sessions: int) -> dict[str, Any]:
    proc = psutil.Process()
    for sample in SAMPLES:
        agent(sample).new_session(parser="offline").turn("hello")  # caches and imports outside the measure
    gc.collect()
    tracemalloc.start()
    rss_before = proc.memory_info().rss
    base, _ = tracemalloc.get_traced_memory()
    kept = []
    for i in range(idle_sessions):
        sample, texts = conversation(i, 3)
        session = agent(sample).new_session(parser="offline", today=TODAY)
        for text in texts:
            session.turn(text)
        kept.append(session)
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_after = proc.memory_info().rss
    return {"idle_sessions": len(kept), "turns_each": 3,
            "per_idle_session_kib": round((current - base) / len(kept) / 1024, 1),
            "rss_growth_per_session_kib": round((rss_after - rss_before) / len(kept) / 1024, 1),
            "tracemalloc_peak_mib": round(peak / 2**20, 1), "process_rss_mib": round(rss_after / 2**20, 1)}


def large_spec(fields: int) -> Spec:
    kinds = ["str", "int", "Enum", "bool"]
    return Spec.model_validate({"name": "large", "worksheets": [{"name": "Main", "fields": [
        {"name": f"f{j}", "type": kinds[j % 4], "enum_values": ["a", "b"] if j % 4 == 2 else [],
         "description": f"field number {j}", "predicate": f"self.f{j - 1} is not None" if j % 10 == 1 else "",
         "actions": 'say("noted")' if j % 20 == 0 else ""} for j in range(fields)]}]})


def bench_large_spec(fields: int) -> dict[str, Any]:
    text = dumps_json(large_spec(fields))
    started = time.perf_counter()
    spec = loads_spec(text, source="large.json")
    loaded = time.perf_counter()
    diagnostics = lint(spec)
    linted = time.perf_counter()
    session = Agent(spec=spec).new_session(parser="offline", today=TODAY)
    first = session.turn("hello")
    turned = time.perf_counter()
    second = session.turn("yes")
    done = time.perf_counter()
    return {"fields": fields, "spec_bytes": len(text), "load_s": round(loaded - started, 3),
            "lint_s": round(linted - loaded, 3), "diagnostics": len(diagnostics),
            "first_turn_s": round(turned - linted, 3), "second_turn_s": round(done - turned, 3),
            "turns_ok": first.ok and second.ok}


def bench_oversized() -> dict[str, Any]:
    session = agent("ticket_submission").new_session(parser="offline", today=TODAY)
    text = ("I cannot find my AP credits. " * 40_000)[:1_000_000]
    started = time.perf_counter()
    result = session.turn(text)
    return {"utterance_chars": len(text), "turn_ms": round((time.perf_counter() - started) * 1000, 3),
            "refused": not result.ok and result.trace.get("fallback", {}).get("reason") == "input too long"}


def run(sessions: int = 50, turns: int = 20, long_turns: int = 300, idle_sessions: int = 200,
        spec_fields: int = 10_000) -> dict[str, Any]:
    return {
        "benchmark": "load",
        "concurrency": bench_concurrency(sessions, turns),
        "growth": bench_growth(long_turns),
        "growth_fixed_state": bench_growth(long_turns, fixed_state=True),
        "memory": bench_memory(idle_sessions),
        "large_spec": bench_large_spec(spec_fields),
        "oversized_utterance": bench_oversized(),
        "python": platform.python_version(), "machine": platform.machine(), "cpus": psutil.cpu_count(),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--long-turns", type=int, default=300)
    ap.add_argument("--idle-sessions", type=int, default=200)
    ap.add_argument("--spec-fields", type=int, default=10_000)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "load.json"))
    args = ap.parse_args(argv)
    result = run(args.sessions, args.turns, args.long_turns, args.idle_sessions, args.spec_fields)
    write_result(Path(args.out), result)
    return result


if __name__ == "__main__":
    main()
