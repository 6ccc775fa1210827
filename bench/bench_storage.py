"""Benchmark of project storage: versions of a large spec, and bundles of a large KB.

Part 1 generates a spec with 30 worksheets and 300 fields and times, on a
project file: save (each save changes a few attributes and adds a version with
its diff), listing versions, loading an old version, restore, and diffing two
versions. Part 2 imports a deterministic 100,000-row restaurant table (the CSV
of ``bench_kb``) into a project and times bundle export, unpacking the bundle
to source (``genie import``), re-exporting that source, and loading the bundle
as an agent. Writes ``bench/results/storage.json``.

    python bench/bench_storage.py [--rows 100000] [--saves 30]
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_kb import write_csv  # noqa: E402
from core_engine.session.agent import Agent  # noqa: E402
from core_engine.spec.model import EnumValue, Field, Spec, Worksheet  # noqa: E402
from storage import Workspace, export_bundle, import_bundle, read_manifest  # noqa: E402
from bench import write_result

TYPES = ["str", "int", "float", "bool", "date", "time", "Enum"]


def big_spec(worksheets: int = 30, fields_per_ws: int = 10) -> Spec:
    """A deterministic spec: worksheets with predicates, descriptions, enums and actions."""
    sheets = []
    for w in range(worksheets):
        fields = []
        for f in range(fields_per_ws):
            typ = TYPES[(w + f) % len(TYPES)]
            fields.append(Field(
                name=f"field_{w}_{f}", type=typ, description=f"Field {f} of worksheet {w}: what the agent asks for.",
                enum_values=[EnumValue(value=f"option {k}", description=f"choice {k}") for k in range(4)]
                if typ == "Enum" else [],
                predicate=f"self.field_{w}_{f - 1} != 'NA'" if f % 3 == 2 else "",
                required=f % 4 != 3, confirm=f % 5 == 4,
                actions=f"say('noted field {f}')" if f % 6 == 5 else ""))
        sheets.append(Worksheet(name=f"Worksheet{w}", kind="task", description=f"Task number {w}.",
                                predicate="" if w == 0 else f"main_choice == 'task {w}'", fields=fields))
    return Spec(name="bench_big", description="30 worksheets, 300 fields", worksheets=sheets)


def stats(samples_s: list[float]) -> dict[str, float]:
    ordered = sorted(samples_s)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2), "p95_ms": round(p95 * 1000, 2),
            "max_ms": round(ordered[-1] * 1000, 2), "runs": len(ordered)}


def timed(fn, *args, **kwargs) -> tuple[Any, float]:
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - started


def bench_versions(workspace: Workspace, saves: int) -> dict[str, Any]:
    spec = big_spec()
    project, create_s = timed(workspace.create, "big", spec)
    save_s, load_s, diff_s, restore_s, list_s = [], [], [], [], []
    for i in range(saves):
        edited = project.spec()
        ws = edited.worksheets[i % 30]
        ws.fields[i % 10].description = f"edited in save {i}"
        ws.fields[(i + 3) % 10].required = not ws.fields[(i + 3) % 10].required
        if i % 5 == 0:
            ws.fields.append(Field(name=f"extra_{i}", type="str"))
        _, s = timed(project.save_spec, edited, f"save {i}", base_version=project.head().number)
        save_s.append(s)
    head = project.head().number
    for n in range(1, head + 1):
        load_s.append(timed(project.spec, n)[1])
    for _ in range(10):
        list_s.append(timed(project.versions)[1])
    for n in range(2, head + 1):
        diff_s.append(timed(project.diff, n - 1, n)[1])
    whole_diff, whole_s = timed(project.diff, 1, head)
    for n in (1, head // 2, 2, head // 3):
        restore_s.append(timed(project.restore, n)[1])
    fields = sum(len(w.fields) for w in spec.worksheets)
    result = {
        "worksheets": len(spec.worksheets), "fields": fields,
        "spec_json_bytes": len(spec.model_dump_json(indent=2)),
        "create_project_ms": round(create_s * 1000, 2),
        "save_version": stats(save_s),
        "load_version": stats(load_s),
        "list_versions": {**stats(list_s), "versions": len(project.versions())},
        "diff_consecutive": stats(diff_s),
        "diff_first_to_last": {"ms": round(whole_s * 1000, 2), "changes": len(whole_diff)},
        "restore": stats(restore_s),
        "file_bytes": project.path.stat().st_size,
    }
    project.close()
    return result


def bench_bundle(workspace: Workspace, tmp: Path, rows: int) -> dict[str, Any]:
    csv_path = tmp / "restaurants.csv"
    write_csv(csv_path, rows)
    project = workspace.create("kb100k", Spec(name="kb100k"))
    report, import_s = timed(project.import_kb, csv_path, "restaurants")
    bundle, export_s = timed(export_bundle, project, tmp / "kb100k.genie")
    source, unpack_s = timed(import_bundle, bundle, tmp / "kb100k_src")
    again, reexport_s = timed(export_bundle, source, tmp / "again.genie")
    _, agent_s = timed(Agent.load, bundle)
    into_ws, ws_import_s = timed(workspace.import_path, bundle, "from_bundle")
    same = read_manifest(bundle)["content_hash"] == read_manifest(again)["content_hash"]
    result = {
        "rows": report.rows,
        "kb_import_into_project_s": round(import_s, 3),
        "project_bytes": project.path.stat().st_size,
        "export_bundle_s": round(export_s, 3),
        "bundle_bytes": bundle.stat().st_size,
        "unpack_bundle_to_source_s": round(unpack_s, 3),
        "source_jsonl_bytes": sum(p.stat().st_size for p in (source / "data").glob("*.jsonl")),
        "reexport_from_source_s": round(reexport_s, 3),
        "import_bundle_into_workspace_s": round(ws_import_s, 3),
        "load_bundle_as_agent_s": round(agent_s, 3),
        "round_trip_equal": same,
    }
    into_ws.close()
    project.close()
    return result


def run(rows: int = 100_000, saves: int = 30) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="genie-bench-storage-") as scratch:
        tmp = Path(scratch)
        workspace = Workspace(tmp / "ws")
        versions = bench_versions(workspace, saves)
        bundle = bench_bundle(workspace, tmp, rows)
    return {
        "benchmark": "storage",
        "spec_versions": versions,
        "bundle_100k": bundle,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "machine": platform.machine(),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--saves", type=int, default=30)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "storage.json"))
    args = parser.parse_args(argv)
    result = run(rows=args.rows, saves=args.saves)
    write_result(Path(args.out), result)
    return result


if __name__ == "__main__":
    main()
