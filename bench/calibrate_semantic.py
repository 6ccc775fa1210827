"""Calibrate the semantic index's thresholds on labelled utterances (tests/data/semantic_calibration.json).

For each kind of decision (task readings, enum answers, conversation control) the script ranks
every labelled utterance as the parser does, then sweeps (threshold, margin) and counts:
right (the reading taken is the labelled one, or compatible with it), wrong (a reading taken
that is not the label, or any reading when the label is null) and abstained. A wrong value
is worse than none, so the chosen pair is the one with the fewest wrong readings, then the
most right ones, then the smallest margin, then the highest threshold. Writes bench/results/semantic_calibration.json.

    python -m bench.calibrate_semantic
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from core_engine.loaders import load_spec
from core_engine.parsers.offline.words import semantic as S
from core_engine.parsers.offline.words.semantic_index import (CONTROL_MARGIN, CONTROL_THRESHOLD, ENUM_MARGIN, ENUM_THRESHOLD,
                                                TASK_MARGIN, TASK_THRESHOLD, Entry, clean, index_for)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "semantic_calibration.json"
THRESHOLDS = [round(0.30 + 0.025 * i, 3) for i in range(21)]
MARGINS = [0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.15]


def _entry(label: str) -> Entry:
    if "." in label and "=" in label:
        head, value = label.split("=", 1)
        ws, field = head.split(".", 1)
        return Entry("enum", ws, field, value)
    return Entry("task", label)


def _rows(kind: str, items: list[list[Any]]) -> list[tuple[float, float, bool | None]]:
    """(score, margin, is_right_reading) per item; is_right None when the label is null."""
    out = []
    specs: dict[str, Any] = {}
    for item in items:
        spec = specs.setdefault(item[0], load_spec(ROOT / item[0]))
        reader = SimpleNamespace(spec=spec)
        idx = index_for(spec)
        if kind == "task":
            _path, text, label = item
            roots = S._roots(reader)
            ranked = idx.rank(clean(text), lambda e: e.kind in ("task", "enum"),
                              same=lambda a, b: not S._conflict(reader, roots, a, b))
            right = None if label is None else ranked.best is not None and not S._conflict(
                reader, roots, ranked.best, _entry(label))
        elif kind == "enum":
            _path, where, text, label = item
            ws, field = where.split(".")
            ranked = idx.rank(clean(text), lambda e: e.kind == "enum" and e.worksheet == ws and e.field == field)
            right = None if label is None else ranked.best is not None and ranked.best.value == label
        else:
            _path, text, label = item
            ranked = idx.rank(clean(text), lambda e: e.kind in ("control", "task", "enum"))
            is_control = ranked.best is not None and ranked.best.kind == "control"
            right = None if label is None else is_control and ranked.best.value == label
            if not is_control:
                ranked = type(ranked)(None, 0.0, "", None, 0.0)  # a task reading is never a control decision
        out.append((ranked.score, ranked.score - ranked.runner_score, right))
    return out


def sweep(rows: list[tuple[float, float, bool | None]]) -> list[dict[str, Any]]:
    table = []
    for t in THRESHOLDS:
        for m in MARGINS:
            right = wrong = abstain = 0
            for score, margin, ok in rows:
                taken = score >= t and margin >= m
                if not taken:
                    abstain += 1
                elif ok:
                    right += 1
                else:
                    wrong += 1
            table.append({"threshold": t, "margin": m, "right": right, "wrong": wrong, "abstained": abstain})
    return table


def best(table: list[dict[str, Any]]) -> dict[str, Any]:
    return min(table, key=lambda r: (r["wrong"], -r["right"], r["margin"], -r["threshold"]))


def run() -> dict[str, Any]:
    data = json.loads(DATA.read_text())
    current = {"task": (TASK_THRESHOLD, TASK_MARGIN), "enum": (ENUM_THRESHOLD, ENUM_MARGIN),
               "control": (CONTROL_THRESHOLD, CONTROL_MARGIN)}
    out: dict[str, Any] = {"data": str(DATA.relative_to(ROOT))}
    for kind in ("task", "enum", "control"):
        rows = _rows(kind, data[kind])
        table = sweep(rows)
        t, m = current[kind]
        now = next(r for r in table if abs(r["threshold"] - t) < 1e-9 and abs(r["margin"] - m) < 1e-9) \
            if any(abs(r["threshold"] - t) < 1e-9 and abs(r["margin"] - m) < 1e-9 for r in table) \
            else {"threshold": t, "margin": m, **_count(rows, t, m)}
        out[kind] = {"items": len(rows), "best": best(table), "in_use": now,
                     "scores": [{"score": round(s, 3), "margin": round(g, 3), "right": ok} for s, g, ok in rows]}
    return out


def _count(rows: list[tuple[float, float, bool | None]], t: float, m: float) -> dict[str, int]:
    taken = [(ok) for s, g, ok in rows if s >= t and g >= m]
    return {"right": sum(1 for ok in taken if ok), "wrong": sum(1 for ok in taken if not ok),
            "abstained": len(rows) - len(taken)}


def main() -> None:
    result = run()
    (ROOT / "bench" / "results" / "semantic_calibration.json").write_text(json.dumps(result, indent=2) + "\n")
    for kind in ("task", "enum", "control"):
        r = result[kind]
        print(f"{kind:8s} n={r['items']:3d}  best {r['best']}  in use {r['in_use']}")


if __name__ == "__main__":
    main()
