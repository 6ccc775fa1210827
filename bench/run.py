"""The benchmark runner: every `bench/bench_*.py` module, one JSON file of results.

    python -m bench                 # full sizes -> bench/results/all.json
    python -m bench --quick         # small sizes -> bench/results/all-quick.json
    python -m bench --only bench_kb bench_engine

A benchmark module defines `run(**sizes) -> dict` (JSON-able). For `--quick` it may
define `QUICK = {...}` (the keyword arguments to pass); without it, the parameters of
`run()` named in QUICK_SIZES get those small values. Each module runs in its own Python
process, so a crash or hang in one cannot stop the others and each gets its own
peak-memory figure (max RSS of the process, and of any process it started).

The output holds a `summary` of the headline figures (SUMMARY below says where each
comes from), the full result of every module, and `errors`. A module that is missing,
fails, times out, or whose result lacks a headline figure is an error, and the runner
exits with status 1: nothing is skipped silently.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import inspect
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PACKAGE = "bench"
QUICK_SIZES = {"rows": 2_000, "runs": 10, "repeat": 2, "saves": 5, "conversations": 1, "sessions": 10,
               "turns": 10, "long_turns": 40, "rounds": 1, "starts": 2}
TIMEOUT_S = {"full": 3600.0, "quick": 900.0}


def _sum_calls(calls: dict[str, int]) -> int:
    return sum(calls.values())


# headline figure -> (module, how to read it from that module's result)
SUMMARY: dict[str, tuple[str, Callable[[dict], Any]]] = {
    "engine_turn_ms_offline_default": ("bench_engine", lambda r: {
        name: {"p50": v["p50_ms"], "p99": v["p99_ms"]} for name, v in r["offline_default"].items()}),
    "engine_turn_ms_formal": ("bench_engine", lambda r: {
        name: {"p50": v["p50_ms"], "p99": v["p99_ms"]} for name, v in r["samples"].items()}),
    "llm_parser_prompt_tokens": ("bench_llm", lambda r: {
        f"turn_{k}": r["parser_prompt_tokens"][f"turn_{k}"] for k in (5, 20, 40)}),
    "llm_calls_per_turn": ("bench_llm", lambda r: {
        **{f"turn_{k}": _sum_calls(r["llm_calls_per_turn"][f"turn_{k}"]) for k in (5, 20, 40)},
        "mean": r["llm_calls_per_turn"]["mean"], "max": r["llm_calls_per_turn"]["max"]}),
    "kb": ("bench_kb", lambda r: {
        "rows": r["rows"], "import_rows_per_s": r["import_rows_per_s"],
        "structured_query_ms": {"p50": r["structured_query"]["p50_ms"], "p95": r["structured_query"]["p95_ms"]},
        "free_text_query_ms": {"p50": r["fts_query"]["p50_ms"], "p95": r["fts_query"]["p95_ms"]}}),
    "project_versions_ms": ("bench_storage", lambda r: {
        "save_p50": r["spec_versions"]["save_version"]["p50_ms"],
        "restore_p50": r["spec_versions"]["restore"]["p50_ms"],
        "load_p50": r["spec_versions"]["load_version"]["p50_ms"]}),
    "bundle_s": ("bench_storage", lambda r: {
        "rows": r["bundle_100k"]["rows"], "export": r["bundle_100k"]["export_bundle_s"],
        "import": r["bundle_100k"]["import_bundle_into_workspace_s"],
        "unpack_to_source": r["bundle_100k"]["unpack_bundle_to_source_s"]}),
    "load": ("bench_load", lambda r: {
        "sessions": r["concurrency"]["sessions"], "turns_per_session": r["concurrency"]["turns"],
        "threads_turns_per_s": r["concurrency"]["threads"]["turns_per_s"],
        "processes_turns_per_s": r["concurrency"]["processes"]["turns_per_s"],
        "turn_ms_growth_last_over_first": {"state_piling_up": r["growth"]["last_over_first_p50"],
                                           "records_at_end": r["growth"]["records_at_end"],
                                           "state_piling_up_same_lines": (r["growth"].get("same_lines_last_pass")
                                                                          or {}).get("last_over_first_p50"),
                                           "fixed_state": r["growth_fixed_state"]["last_over_first_p50"]},
        "idle_session_kib": r["memory"]["per_idle_session_kib"]}),
    "serve": ("bench_serve", lambda r: {
        "conversations": r["conversations"], "turns": r["turns"],
        "turns_per_s": {f"{x['store']}_{x['workers']}w": x["turns_per_s"] for x in r["load"]},
        "p99_ms": {f"{x['store']}_{x['workers']}w": x["p99_ms"] for x in r["load"]},
        "errors": r["errors_total"], "lost_or_doubled_with_worker_killed": r["lost_or_doubled_total"],
        "served_over_in_process": r["served_over_in_process"]}),
    "recording": ("bench_recording", lambda r: {
        "turns": r["turns"], "file_bytes": r["file_bytes_at_turn"][str(r["turns"])],
        "bytes_per_turn_first_quarter": r["bytes_added_per_turn_first_quarter"],
        "bytes_per_turn_last_quarter": r["bytes_added_per_turn_last_quarter"]}),
    # issue 17's "Done when" ratios, each measured side by side in its module's own run
    "turns_181_200_over_1_20": ("bench_scale", lambda r: {
        "ratio": r["growth"]["last_over_first"], "goal_max": 1.3, "turns": r["growth"]["turns"],
        "first_p50_ms": r["growth"]["first_p50_ms"], "last_p50_ms": r["growth"]["last_p50_ms"],
        "records_at_end": r["growth"]["records_at_end"]}),
    "worksheets_1000_over_10": ("bench_scale", lambda r: {
        "ratio": r["spec_size"]["large_over_small"], "goal_max": 3.0,
        "p50_ms_10": r["spec_size"]["worksheets_10_p50_ms"], "p50_ms_1000": r["spec_size"]["worksheets_1000_p50_ms"],
        "goal_ms_1000": 20.0}),
    "cli_startup_s": ("bench_scale", lambda r: {"median": r["cli_startup"]["median_s"], "goal_max": 0.5}),
    "kb_import_over_sqlite3_cli": ("bench_kb", lambda r: {
        "ratio": r["import_vs_sqlite3_cli"]["ratio"], "goal_min": 0.9,
        "ratio_same_work": r["import_vs_sqlite3_cli"].get("ratio_same_work"),
        "cpu_ratio": (r["import_vs_sqlite3_cli"].get("cpu") or {}).get("ratio"),
        "note": r["import_vs_sqlite3_cli"].get("note")}),
    "kb_indexed_structured_query_p95_ms": ("bench_kb", lambda r: {
        "p95": r["indexed_structured_query"]["p95_ms"], "goal_max": 1.0, "rows": r["rows"],
        "list_membership_p95": r["indexed_structured_query"].get("list_membership_p95_ms")}),
    "studio_turn_over_minimal_chat": ("bench_playground", lambda r: {
        "ratio": r["studio_over_minimal"], "goal_max": 1.2, "measure": "Enter to the reply visible",
        "studio_p50_ms": r["median_visible_ms"], "minimal_p50_ms": r["minimal_chat"]["median_visible_ms"],
        "ratio_run_finished": r["studio_over_minimal_run_finished"],
        "studio_run_finished_p50_ms": r["median_ms"], "minimal_run_finished_p50_ms": r["minimal_chat"]["median_ms"]}),
    "offline_language_with_model": ("bench_language", lambda r: {
        "model_load_s": r["model_load_s"],
        **{name: {"p50": v["first_pass"]["p50_ms"], "p99": v["first_pass"]["p99_ms"]}
           for name, v in r["samples"].items()}}),
    "knowledge_first_over_later": ("bench_knowledge", lambda r: r["first_over_later"]),
}
EXPECTED = sorted({module for module, _ in SUMMARY.values()})


# -- child: run one module --------------------------------------------------------------


def quick_kwargs(module: Any) -> dict[str, Any]:
    if hasattr(module, "QUICK"):
        return dict(module.QUICK)
    params = inspect.signature(module.run).parameters
    return {name: value for name, value in QUICK_SIZES.items() if name in params}


def run_child(package: str, name: str, quick: bool, out: Path) -> int:
    """In the child process: import, run, write {"result", "kwargs", "seconds", "peak_rss_mb"}."""
    module = importlib.import_module(f"{package}.{name}")
    if not callable(getattr(module, "run", None)):
        raise SystemExit(f"{package}.{name} has no run() function")
    kwargs = quick_kwargs(module) if quick else {}
    started = time.perf_counter()
    result = module.run(**kwargs)
    seconds = time.perf_counter() - started
    if not isinstance(result, dict):
        raise SystemExit(f"{package}.{name}.run() returned a {type(result).__name__}, not a dict")
    out.write_text(json.dumps({
        "result": result, "kwargs": kwargs, "seconds": round(seconds, 3),
        "peak_rss_mb": _max_rss_mb(resource.RUSAGE_SELF),
        "children_peak_rss_mb": _max_rss_mb(resource.RUSAGE_CHILDREN),
    }, default=str), encoding="utf-8")
    return 0


def _max_rss_mb(who: int) -> float:
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)  # Linux reports KiB


# -- parent: discover, run each in a process, summarise ------------------------------------------


def discover(package: str) -> list[str]:
    folder = Path(importlib.import_module(package).__file__ or "").parent
    return sorted(p.stem for p in folder.glob("bench_*.py"))


def run_module(package: str, name: str, quick: bool, timeout_s: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="genie-bench-") as tmp:
        out = Path(tmp) / "result.json"
        cmd = [sys.executable, "-m", "bench.run", "--child", name, "--package", package, "--result", str(out)]
        if quick:
            cmd.append("--quick")
        started = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=os.getcwd(), capture_output=True, text=True, timeout=timeout_s,
                                  env=_child_env())
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": f"timed out after {timeout_s:.0f} s",
                    "seconds": round(time.perf_counter() - started, 3)}
        if proc.returncode != 0 or not out.is_file():
            tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-15:]
            return {"ok": False, "error": f"exit status {proc.returncode}", "stderr": tail,
                    "seconds": round(time.perf_counter() - started, 3)}
        return {"ok": True, **json.loads(out.read_text(encoding="utf-8"))}


def _child_env() -> dict[str, str]:
    """The child finds this checkout's `bench` package (and the caller's PYTHONPATH) first."""
    env = dict(os.environ)
    paths = [str(ROOT), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


def summarise(modules: dict[str, dict[str, Any]], selected: list[str]) -> tuple[dict[str, Any], list[str]]:
    summary: dict[str, Any] = {}
    errors: list[str] = []
    for figure, (module, read) in SUMMARY.items():
        if module not in selected:
            continue
        entry = modules.get(module, {})
        if not entry.get("ok"):
            summary[figure] = None
            continue  # the module's own error is already listed
        try:
            summary[figure] = read(entry["result"])
        except (KeyError, TypeError, IndexError) as exc:
            summary[figure] = None
            errors.append(f"{module}: its result has no figure for '{figure}' ({type(exc).__name__}: {exc})")
    peaks = {name: max(e.get("peak_rss_mb", 0), e.get("children_peak_rss_mb", 0))
             for name, e in modules.items() if e.get("ok")}
    summary["peak_memory_mb"] = {"max": max(peaks.values(), default=None), "by_module": peaks}
    return summary, errors


def run_all(package: str = DEFAULT_PACKAGE, *, quick: bool = False, only: list[str] | None = None,
            out: Path | None = None, timeout_s: float | None = None, log=print) -> tuple[dict[str, Any], int]:
    found = discover(package)
    wanted = list(only) if only else sorted(set(found) | set(EXPECTED))
    timeout = timeout_s or TIMEOUT_S["quick" if quick else "full"]
    modules: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    for name in wanted:
        if name not in found:
            modules[name] = {"ok": False, "error": f"module {package}.{name} not found"}
            errors.append(f"{name}: module not found")
            log(f"{name:<22} MISSING")
            continue
        log(f"{name:<22} running{' (quick)' if quick else ''} ...")
        modules[name] = run_module(package, name, quick, timeout)
        entry = modules[name]
        if entry["ok"]:
            log(f"{name:<22} ok in {entry['seconds']:.1f} s, peak {entry['peak_rss_mb']:.0f} MB")
        else:
            errors.append(f"{name}: {entry['error']}")
            log(f"{name:<22} FAILED: {entry['error']}")
            for line in entry.get("stderr", []):
                log(f"    {line}")
    summary, summary_errors = summarise(modules, wanted)
    errors += summary_errors
    report = {
        "generated": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": "python -m bench" + (" --quick" if quick else ""),
        "quick": quick,
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "summary": summary,
        "errors": errors,
        "modules": modules,
    }
    target = out or ROOT / "bench" / "results" / ("all-quick.json" if quick else "all.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    tmp.replace(target)
    log(f"wrote {target}" + (f" with {len(errors)} error(s)" if errors else ""))
    return report, 1 if errors else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run; figures not comparable)")
    ap.add_argument("--only", nargs="+", metavar="MODULE", help="run only these modules (e.g. bench_kb)")
    ap.add_argument("--out", type=Path, help="output file (default bench/results/all.json or all-quick.json)")
    ap.add_argument("--package", default=DEFAULT_PACKAGE, help=argparse.SUPPRESS)
    ap.add_argument("--timeout", type=float, help="seconds per module before it counts as failed")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return run_child(args.package, args.child, args.quick, args.result)
    _, status = run_all(args.package, quick=args.quick, only=args.only, out=args.out, timeout_s=args.timeout,
                        log=lambda line: print(line, file=sys.stderr, flush=True))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
