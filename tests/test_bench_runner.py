"""The benchmark runner (`python -m bench`), run for real on stub benchmark packages.

Stubs stand in for the real modules (which take minutes at full size): they echo the
sizes they were given, so the test sees what `--quick` passed, and they return results
shaped like the real ones, so the summary extraction is checked figure by figure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from bench.run import EXPECTED, QUICK_SIZES, SUMMARY

ROOT = Path(__file__).resolve().parents[1]

GOOD = {
    "bench_engine": """
        QUICK = {"repeat": 1}
        def run(repeat=100):
            cell = {"p50_ms": 1.5, "p99_ms": 4.0, "turns": repeat}
            return {"samples": {"bank_fraud": cell}, "offline_default": {"bank_fraud": {**cell, "p50_ms": 2.5}},
                    "repeat": repeat}
    """,
    "bench_kb": """
        def run(rows=100_000, runs=50):
            q = {"p50_ms": 0.5, "p95_ms": 0.9}
            return {"rows": rows, "import_rows_per_s": 70000, "structured_query": q,
                    "fts_query": {"p50_ms": 1.5, "p95_ms": 2.5}, "runs": runs,
                    "indexed_structured_query": {"p95_ms": 0.4},
                    "import_vs_sqlite3_cli": {"ratio": 0.8, "ratio_same_work": 1.1, "note": "n"}}
    """,
    "bench_scale": """
        def run(turns=200, repeat=3, rounds=5, starts=7):
            return {"growth": {"last_over_first": 1.2, "turns": turns, "first_p50_ms": 1.0, "last_p50_ms": 1.2,
                               "records_at_end": 121},
                    "spec_size": {"large_over_small": 2.5, "worksheets_10_p50_ms": 1.0,
                                  "worksheets_1000_p50_ms": 2.5},
                    "cli_startup": {"median_s": 0.2}}
    """,
    "bench_playground": """
        def run(conversations=3):
            return {"studio_over_minimal": 1.1, "median_ms": 110.0, "median_visible_ms": 90.0,
                    "studio_over_minimal_run_finished": 1.1,
                    "minimal_chat": {"median_ms": 100.0, "median_visible_ms": 82.0}}
    """,
    "bench_llm": """
        def run():
            calls = {"parser": 1, "knowledge": 0, "rg": 1}
            return {"parser_prompt_tokens": {"turn_5": 900, "turn_20": 950, "turn_40": 1000},
                    "llm_calls_per_turn": {"turn_5": calls, "turn_20": calls, "turn_40": calls,
                                           "mean": 2.1, "max": 3}}
    """,
    "bench_storage": """
        def run(rows=100_000, saves=30):
            stat = {"p50_ms": 12.0}
            return {"spec_versions": {"save_version": stat, "restore": stat, "load_version": stat},
                    "bundle_100k": {"rows": rows, "export_bundle_s": 1.0, "import_bundle_into_workspace_s": 0.5,
                                    "unpack_bundle_to_source_s": 0.7}}
    """,
    "bench_recording": """
        QUICK = {"turns": 8}
        def run(turns=200):
            return {"turns": turns, "file_bytes_at_turn": {str(turns): 1000 * turns},
                    "bytes_added_per_turn_first_quarter": 1000, "bytes_added_per_turn_last_quarter": 1000}
    """,
    "bench_knowledge": """
        QUICK = {"rounds": 2}
        def run(rows=100_000, rounds=36):
            return {"first_over_later": {"restaurant_sample": 1.2, "generated_100000_rows": 1.1}, "rounds": rounds}
    """,
    "bench_language": """
        QUICK = {"repeat": 1}
        def run(repeat=5):
            cell = {"first_pass": {"p50_ms": 1.0, "p99_ms": 20.0}}
            return {"model_load_s": 2.5, "samples": {"bank_fraud": cell}, "repeat": repeat}
    """,
    "bench_load": """
        def run(sessions=50, turns=20, long_turns=300):
            ballast = bytearray(64 * 2**20)  # 64 MB: shows up as this module's peak memory
            ballast[::4096] = b"x" * len(ballast[::4096])
            return {"concurrency": {"sessions": sessions, "turns": turns, "threads": {"turns_per_s": 100.0},
                                    "processes": {"turns_per_s": 180.0}},
                    "growth": {"last_over_first_p50": 3.0, "records_at_end": 40,
                               "same_lines_last_pass": {"last_over_first_p50": 1.05}},
                    "growth_fixed_state": {"last_over_first_p50": 1.1}, "memory": {"per_idle_session_kib": 30.0}}
    """,
    "bench_serve": """
        QUICK = {"conversations": 20, "turns": 5}
        def run(conversations=200, turns=10):
            load = [{"store": s, "workers": w, "turns_per_s": 50.0 * w, "p99_ms": 90.0}
                    for s in ("sqlite", "postgresql") for w in (1, 4)]
            return {"conversations": conversations, "turns": turns, "load": load, "errors_total": 0,
                    "lost_or_doubled_total": 0, "served_over_in_process": {"sqlite_1w": 0.2}}
    """,
}


def make_package(root: Path, name: str, modules: dict[str, str]) -> None:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    for module, body in modules.items():
        (package / f"{module}.py").write_text(textwrap.dedent(body))


def run_runner(tmp_path: Path, package: str, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp_path / "all.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-m", "bench", "--package", package, "--out", str(out), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    return proc, json.loads(out.read_text())


def test_quick_run_summarises_every_headline_figure(tmp_path: Path) -> None:
    make_package(tmp_path, "stubbench", GOOD)
    proc, report = run_runner(tmp_path, "stubbench", "--quick")
    assert proc.returncode == 0, proc.stderr
    assert report["errors"] == [] and report["quick"] is True
    assert sorted(report["modules"]) == EXPECTED
    modules = report["modules"]
    assert modules["bench_engine"]["kwargs"] == {"repeat": 1}  # the module's own QUICK
    assert modules["bench_kb"]["kwargs"] == {"rows": QUICK_SIZES["rows"], "runs": QUICK_SIZES["runs"]}
    assert modules["bench_kb"]["result"]["rows"] == QUICK_SIZES["rows"]
    assert modules["bench_llm"]["kwargs"] == {}

    summary = report["summary"]
    assert set(SUMMARY) | {"peak_memory_mb"} == set(summary)
    assert summary["engine_turn_ms_offline_default"] == {"bank_fraud": {"p50": 2.5, "p99": 4.0}}
    assert summary["llm_parser_prompt_tokens"] == {"turn_5": 900, "turn_20": 950, "turn_40": 1000}
    assert summary["llm_calls_per_turn"]["turn_20"] == 2 and summary["llm_calls_per_turn"]["max"] == 3
    assert summary["kb"]["rows"] == QUICK_SIZES["rows"] and summary["kb"]["free_text_query_ms"]["p95"] == 2.5
    assert summary["bundle_s"]["export"] == 1.0 and summary["project_versions_ms"]["restore_p50"] == 12.0
    assert summary["load"]["sessions"] == QUICK_SIZES["sessions"]
    assert summary["turns_181_200_over_1_20"]["ratio"] == 1.2 and summary["cli_startup_s"]["median"] == 0.2
    assert summary["worksheets_1000_over_10"]["ratio"] == 2.5
    assert summary["kb_import_over_sqlite3_cli"]["ratio"] == 0.8
    assert summary["kb_indexed_structured_query_p95_ms"]["p95"] == 0.4
    assert summary["studio_turn_over_minimal_chat"]["ratio"] == 1.1
    assert summary["load"]["turn_ms_growth_last_over_first"] == {"state_piling_up": 3.0, "records_at_end": 40,
                                                                 "state_piling_up_same_lines": 1.05,
                                                                 "fixed_state": 1.1}
    assert summary["serve"]["conversations"] == 20 and summary["serve"]["turns_per_s"]["postgresql_4w"] == 200.0
    assert summary["serve"]["lost_or_doubled_with_worker_killed"] == 0
    peaks = summary["peak_memory_mb"]
    assert peaks["by_module"]["bench_load"] >= 64 > peaks["by_module"]["bench_llm"]
    assert peaks["max"] == max(peaks["by_module"].values())


def test_missing_failing_and_incomplete_modules_are_errors(tmp_path: Path) -> None:
    modules = dict(GOOD)
    modules["bench_engine"] = "def run(repeat=100):\n    raise RuntimeError('engine exploded')\n"
    modules["bench_kb"] = "VALUE = 1  # no run()\n"
    modules["bench_llm"] = "def run():\n    return {'parser_prompt_tokens': {}}\n"
    del modules["bench_storage"]
    modules["bench_extra"] = "def run():\n    return {'fine': True}\n"
    make_package(tmp_path, "stubbad", modules)
    proc, report = run_runner(tmp_path, "stubbad", "--quick")
    assert proc.returncode == 1
    errors = "\n".join(report["errors"])
    assert "bench_engine: exit status" in errors
    assert "engine exploded" in "\n".join(report["modules"]["bench_engine"]["stderr"])
    assert "bench_kb: exit status" in errors and "no run()" in "\n".join(report["modules"]["bench_kb"]["stderr"])
    assert "bench_storage: module not found" in errors
    assert "bench_llm: its result has no figure for 'llm_parser_prompt_tokens'" in errors
    assert report["modules"]["bench_extra"] == {**report["modules"]["bench_extra"], "ok": True,
                                                "result": {"fine": True}}  # the others still ran
    assert report["modules"]["bench_load"]["ok"] and report["summary"]["load"] is not None
    assert report["summary"]["kb"] is None and report["summary"]["bundle_s"] is None
    assert "FAILED" in proc.stderr and "MISSING" in proc.stderr


def test_only_runs_the_named_modules(tmp_path: Path) -> None:
    make_package(tmp_path, "stubonly", GOOD)
    proc, report = run_runner(tmp_path, "stubonly", "--quick", "--only", "bench_kb")
    assert proc.returncode == 0, proc.stderr
    assert list(report["modules"]) == ["bench_kb"]
    assert set(report["summary"]) == {"kb", "kb_import_over_sqlite3_cli", "kb_indexed_structured_query_p95_ms",
                                      "peak_memory_mb"}


def test_the_real_package_has_every_expected_module() -> None:
    """A fresh clone's `python -m bench` finds a module for every headline figure."""
    found = {p.stem for p in (ROOT / "bench").glob("bench_*.py")}
    assert set(EXPECTED) <= found
