"""Cost at size: per-turn time over a long conversation, per-turn time by spec size, CLI startup.

- growth: one formal-parser session on the restaurant sample of `turns` turns that keep
  opening records (a question, a booking from its first row, details, a confirmation, in a
  loop: KB records with their rows and completed bookings pile up). The headline: turns 1-20
  of a new session against turns 181-200 of a fork of a session played to turn 180, in
  `rounds` interleaved rounds (per-turn medians, then the window's median), as the issue
  measures its other ratios; also the sequential figure of `repeat` whole sessions and the
  per-decile medians, which drift with the machine's load;
- spec size: the same five formal turns on generated specs of 10 and of 1,000 task
  worksheets (each opened by a predicate on one enum field, as a start worksheet's
  `user_task` does), interleaved rounds; per-turn median of each;
- CLI startup: wall time of `genie --help` in a fresh process (median of `starts`).

Writes bench/results/scale.json.     python -m bench.bench_scale [--turns 200]
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

from core_engine import Agent, Spec
from bench import write_result

ROOT = Path(__file__).resolve().parents[1]
QUICK = {"turns": 60, "repeat": 1, "rounds": 1, "starts": 2}
WINDOW = 20


def booking_lines() -> Iterator[str]:
    """Formal turns that keep opening records: ask, book from a new question's first row, details, confirm."""
    k = 0
    while True:
        k += 1
        yield 'answer("I want to have dinner in San Francisco")'
        yield (f'book_{k} = BookRestaurant(restaurant=answer("pizza in San Francisco"), date="2024-07-06", '
               f'time="19:00", number_of_people={k % 6 + 1})')
        yield f"book_{k}.restaurant = answer_{2 * k}.result[0]"
        yield f'book_{k}.special_request_info = "a quiet table"'
        yield f"book_{k}.confirm = True"


def one_long_session(agent: Agent, turns: int) -> tuple[list[float], dict[str, Any]]:
    session = agent.new_session(parser="formal")
    lines = booking_lines()
    times, failed = [], 0
    for _ in range(turns):
        started = time.perf_counter()
        result = session.turn(next(lines))
        times.append((time.perf_counter() - started) * 1000)
        failed += not result.ok or bool(result.trace["parse"]["rejected"])
    state = session.state
    return times, {"records_at_end": len(state["records"]), "state_kib": round(len(json.dumps(state)) / 1024),
                   "failed_turns": failed}


def timed_window(session: Any, lines: list[str]) -> list[float]:
    times = []
    for line in lines:
        started = time.perf_counter()
        session.turn(line)
        times.append((time.perf_counter() - started) * 1000)
    return times


def interleaved_windows(agent: Agent, turns: int, window: int, rounds: int) -> tuple[float, float]:
    """Turns 1..window of a new session and turns turns-window+1..turns of a session that already
    holds the first turns-window turns (a fork of one played once), timed in alternating rounds, so
    a change in the machine's load during the run falls on both windows alike."""
    lines = booking_lines()
    script = [next(lines) for _ in range(turns)]
    played = agent.new_session(parser="formal")
    for line in script[: turns - window]:
        played.turn(line)
    first: list[list[float]] = []
    last: list[list[float]] = []
    for k in range(rounds):
        fresh, late = agent.new_session(parser="formal"), played.fork()
        for which in ((0, 1) if k % 2 == 0 else (1, 0)):
            if which == 0:
                first.append(timed_window(fresh, script[:window]))
            else:
                last.append(timed_window(late, script[turns - window:]))
    per_first = [statistics.median(r[i] for r in first) for i in range(window)]
    per_last = [statistics.median(r[i] for r in last) for i in range(window)]
    return statistics.median(per_first), statistics.median(per_last)


def bench_growth(turns: int, repeat: int, rounds: int = 15) -> dict[str, Any]:
    agent = Agent.load(ROOT / "sample_projects" / "restaurant_reservation")
    one_long_session(agent, 10)  # warm-up: imports, the KB vocabulary, caches
    runs = [one_long_session(agent, turns) for _ in range(repeat)]
    per_turn = [statistics.median(run[0][i] for run in runs) for i in range(turns)]
    window = min(WINDOW, max(1, turns // 3))
    seq_first, seq_last = statistics.median(per_turn[:window]), statistics.median(per_turn[-window:])
    first, last = interleaved_windows(agent, turns, window, rounds)
    step = max(1, turns // 10)
    return {"turns": turns, "repeat": repeat, "window": window, "rounds": rounds, **runs[-1][1],
            "first_p50_ms": round(first, 3), "last_p50_ms": round(last, 3),
            "last_over_first": round(last / first, 3),
            "how": "medians over interleaved rounds: turns 1-20 of a new session and turns 181-200 of a fork "
                   "of a session played to turn 180, alternating which goes first",
            "sequential": {"first_p50_ms": round(seq_first, 3), "last_p50_ms": round(seq_last, 3),
                           "last_over_first": round(seq_last / seq_first, 3),
                           "how": f"{repeat} whole sessions one after another; drifts with the machine's load"},
            "by_decile_p50_ms": [round(statistics.median(per_turn[i:i + step]), 3) for i in range(0, turns, step)]}


def wide_spec(n: int) -> Spec:
    """`n` task worksheets, each opened when the start worksheet's enum field names it."""
    names = [f"Task{i}" for i in range(n)]
    worksheets: list[dict[str, Any]] = [{"name": "UserInfo", "fields": [
        {"name": "user_task", "type": "Enum", "enum_values": names, "description": "what the user wants"}]}]
    for i, name in enumerate(names):
        worksheets.append({"name": name, "predicate": f'user_task == "{name}"', "fields": [
            {"name": f"a{i}", "type": "str", "description": "a text"},
            {"name": f"b{i}", "type": "int", "description": "a number", "predicate": f"self.a{i} is not None"},
            {"name": "confirm", "type": "confirm", "description": "all correct?"}]})
    return Spec.model_validate({"name": f"wide{n}", "worksheets": worksheets})


def wide_turns(agent: Agent, n: int, k: int) -> list[float]:
    session = agent.new_session(parser="formal")
    other = (k + 1) % n
    times = []
    for line in (f'user_info.user_task = "Task{k}"', f'task{k}.a{k} = "x"', f"task{k}.b{k} = 3",
                 f"task{k}.confirm = True", f'user_info.user_task = "Task{other}"'):
        started = time.perf_counter()
        result = session.turn(line)
        times.append((time.perf_counter() - started) * 1000)
        if not result.ok:
            raise RuntimeError(f"turn {line!r} failed on the {n}-worksheet spec: {result.trace.get('fallback')}")
    return times


def bench_spec_size(rounds: int, small: int = 10, large: int = 1000) -> dict[str, Any]:
    agents = {n: Agent(spec=wide_spec(n)) for n in (small, large)}
    for n, agent in agents.items():
        wide_turns(agent, n, 0)  # warm-up
    times: dict[int, list[float]] = {small: [], large: []}
    for r in range(rounds):
        for n, agent in agents.items():
            times[n] += wide_turns(agent, n, (r * 37 + 1) % n)
    p50 = {n: statistics.median(t) for n, t in times.items()}
    return {"rounds": rounds, "turns_each": len(times[small]),
            f"worksheets_{small}_p50_ms": round(p50[small], 3), f"worksheets_{large}_p50_ms": round(p50[large], 3),
            f"worksheets_{large}_p99_ms": round(sorted(times[large])[int(0.99 * (len(times[large]) - 1))], 3),
            "large_over_small": round(p50[large] / p50[small], 3)}


def bench_cli_startup(starts: int) -> dict[str, Any]:
    genie = Path(sys.executable).with_name("genie")
    cmd = [str(genie), "--help"] if genie.exists() else (
        [shutil.which("genie"), "--help"] if shutil.which("genie") else
        [sys.executable, "-c", "import sys; from core_engine.cli import main; sys.exit(main())", "--help"])
    times = []
    for _ in range(starts):
        started = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - started)
    return {"command": " ".join(Path(c).name if i == 0 else c for i, c in enumerate(cmd)), "starts": starts,
            "median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3)}


def run(turns: int = 200, repeat: int = 3, rounds: int = 15, starts: int = 7) -> dict[str, Any]:
    return {"benchmark": "scale", "growth": bench_growth(turns, repeat, rounds), "spec_size": bench_spec_size(rounds),
            "cli_startup": bench_cli_startup(starts), "python": platform.python_version(),
            "machine": platform.machine()}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--starts", type=int, default=7)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "scale.json"))
    args = ap.parse_args(argv)
    result = run(args.turns, args.repeat, args.rounds, args.starts)
    write_result(Path(args.out), result)
    return result


if __name__ == "__main__":
    main()
