"""Benchmark of conversation recording: how a project file grows with a long recorded conversation.

A 200-turn conversation on the restaurant sample (formal parser), each turn
asking ``answers`` knowledge questions, is recorded turn by turn the way
``genie chat --record`` does. Reported: the project file size at checkpoints,
the bytes each turn added (first and last 50 turns: equal when growth is
linear), what storing the whole state every turn would have taken, and the
append time. Writes ``bench/results/recording.json``.

    python bench/bench_recording.py [--turns 200] [--answers 2]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage import Workspace  # noqa: E402
from storage.fileformat import dumps  # noqa: E402
from storage.logs import _cap_rows  # noqa: E402
from bench import write_result

QUICK = {"turns": 40, "answers": 3}
QUESTIONS = ("restaurants in Palo Alto", "cheap italian places", "places open late", "vegan restaurants",
             "the best rated restaurant")


def run(turns: int = 200, answers: int = 2) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="genie-bench-recording-") as scratch:
        workspace = Workspace(Path(scratch) / "ws")
        project = workspace.from_sample(ROOT / "sample_projects" / "restaurant_reservation", "rec")
        agent = project.agent()
        session = agent.new_session(parser="formal")
        log = project.start_log(parser="formal", rg="template", title="bench")
        sizes: dict[int, int] = {}
        added: list[int] = []
        full_state_bytes = 0
        append_ms: list[float] = []
        path = project.path
        for n in range(1, turns + 1):
            text = "\n".join(f'answer("{QUESTIONS[(n + i) % len(QUESTIONS)]} {n}-{i}")' for i in range(answers))
            result = session.turn(text)
            before = path.stat().st_size
            started = time.perf_counter()
            turn_json = result.to_json(turn=n)
            log.append(turn_json)
            append_ms.append((time.perf_counter() - started) * 1000.0)
            full_state_bytes += len(dumps(turn_json))
            added.append(path.stat().st_size - before)
            if n in (turns // 4, turns // 2, turns):
                sizes[n] = path.stat().st_size
        restored = log.turns()
        assert len(restored) == turns and restored[-1]["state"] == _cap_rows(turn_json["state"])  # deltas rebuild it
        project.close()
    quarter = max(turns // 4, 1)
    return {
        "benchmark": "recording",
        "turns": turns,
        "answers_per_turn": answers,
        "file_bytes_at_turn": sizes,
        "bytes_added_per_turn_first_quarter": round(statistics.mean(added[:quarter])),
        "bytes_added_per_turn_last_quarter": round(statistics.mean(added[-quarter:])),
        "whole_state_every_turn_bytes": full_state_bytes,
        "append_ms": {"median": round(statistics.median(append_ms), 3), "max": round(max(append_ms), 3)},
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--answers", type=int, default=2)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "recording.json"))
    args = parser.parse_args(argv)
    result = run(turns=args.turns, answers=args.answers)
    write_result(Path(args.out), result)
    return result


if __name__ == "__main__":
    main()
