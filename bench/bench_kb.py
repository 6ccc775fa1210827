"""Benchmark of the knowledge base: import speed and query latency.

Generates a deterministic 100,000-row restaurant CSV, imports it with
``storage.kb_import.import_file`` and times a structured query (city + cuisine
via json_each + rating) and a free-text FTS5 query through ``SQLiteKB``.
Writes ``bench/results/kb.json``.

    python bench/bench_kb.py [--rows 100000] [--runs 50]
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core_engine.kb import SQLiteKB  # noqa: E402
from storage.kb_import import import_file  # noqa: E402

CITIES = ["San Francisco", "Palo Alto", "Oakland", "San Jose", "Berkeley", "Mountain View", "Sunnyvale", "Fremont"]
CUISINES = ["Thai", "Italian", "Chinese", "Mexican", "Indian", "Japanese", "French", "Korean", "Vietnamese", "Greek"]
PRICES = ["$", "$$", "$$$", "$$$$"]
ADJECTIVES = ["romantic", "cozy", "noisy", "friendly", "elegant", "casual", "lively", "quiet", "charming", "busy"]
DISHES = ["pad thai", "margherita pizza", "dumplings", "tacos", "butter chicken", "ramen", "croissants", "bibimbap", "pho", "gyros"]
REMARKS = [
    "The service was quick and the staff were attentive.",
    "We waited a long time for a table on a Friday night.",
    "Great spot for a date, with candles and soft music.",
    "Portions are generous and prices are fair for the area.",
    "The patio is lovely when the weather is warm.",
    "Parking nearby is hard to find, so take the train.",
    "Vegetarian options are plentiful and clearly marked.",
    "Desserts were the highlight of the evening for us.",
]


def write_csv(path: Path, rows: int, seed: int = 7) -> None:
    """A restaurant-like CSV with ten columns, one of them a ~200-character review."""
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "name", "city", "cuisines", "price", "rating", "num_reviews", "has_patio", "opened", "review"])
        for i in range(1, rows + 1):
            cuisines = rng.sample(CUISINES, rng.randint(1, 3))
            review = (
                f"A {rng.choice(ADJECTIVES)} place known for its {rng.choice(DISHES)}. "
                + " ".join(rng.sample(REMARKS, 2))
            )
            writer.writerow([
                i,
                f"{rng.choice(ADJECTIVES).title()} {rng.choice(DISHES).title()} #{i}",
                rng.choice(CITIES),
                json.dumps(cuisines),
                rng.choice(PRICES),
                f"{rng.uniform(1, 5):.1f}",
                rng.randint(0, 5000),
                rng.choice(["yes", "no"]),
                f"{rng.randint(1990, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                review,
            ])


def percentiles(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered), 3), "p95_ms": round(p95, 3), "runs": len(ordered)}


def time_queries(kb: SQLiteKB, sql: str, params_list: list[tuple], runs: int) -> tuple[dict[str, float], int]:
    samples, rows = [], 0
    for i in range(runs):
        started = time.perf_counter()
        result = kb.execute(sql, params_list[i % len(params_list)])
        samples.append((time.perf_counter() - started) * 1000)
        rows += len(result.rows)
    return percentiles(samples), rows // runs


QUICK = {"rows": 5_000, "runs": 20}  # `python -m bench --quick`


def run(rows: int = 100_000, runs: int = 50) -> dict:
    """Import `rows` generated rows, then time `runs` structured and free-text queries."""
    with tempfile.TemporaryDirectory() as tmp:
        csv_path, db_path = Path(tmp) / "restaurants.csv", Path(tmp) / "kb.sqlite"
        write_csv(csv_path, rows)
        report = import_file(db_path, csv_path, "restaurants")
        kb = SQLiteKB(db_path, timeout_s=5.0, max_rows=20)
        structured = (
            "SELECT r.name, r.city, r.cuisines, r.rating FROM restaurants AS r "
            "WHERE r.city = ? AND r.rating > 4 "
            "AND EXISTS (SELECT 1 FROM json_each(r.cuisines) AS j WHERE j.value = ?) "
            "ORDER BY r.rating DESC LIMIT 20"
        )
        structured_params = [(city, cuisine) for city in CITIES for cuisine in CUISINES]
        free_text = (
            "SELECT r.name, r.rating, snippet(restaurants_fts, 0, '[', ']', '...', 8) AS snippet "
            "FROM restaurants_fts JOIN restaurants AS r ON r.rowid = restaurants_fts.rowid "
            "WHERE restaurants_fts MATCH ? ORDER BY bm25(restaurants_fts) LIMIT 10"
        )
        free_text_params = [(f"{adj} {dish.split()[0]}",) for adj in ADJECTIVES for dish in DISHES]
        s_stats, s_rows = time_queries(kb, structured, structured_params, runs)
        f_stats, f_rows = time_queries(kb, free_text, free_text_params, runs)
        kb.close()
        db_bytes = db_path.stat().st_size
        csv_bytes = csv_path.stat().st_size

    result = {
        "benchmark": "kb",
        "rows": report.rows,
        "columns": {c.name: c.type + (" (free text)" if c.free_text else "") for c in report.columns},
        "csv_bytes": csv_bytes,
        "db_bytes": db_bytes,
        "import_s": round(report.elapsed_s, 3),
        "import_rows_per_s": round(report.rows / report.elapsed_s),
        "structured_query": {"sql": structured, "avg_rows": s_rows, **s_stats},
        "fts_query": {"sql": free_text, "avg_rows": f_rows, **f_stats},
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "machine": platform.machine(),
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    result = run(args.rows, args.runs)
    out = Path(__file__).resolve().parent / "results" / "kb.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
