"""Serving load: `genie serve` under many concurrent conversations, on SQLite and PostgreSQL.

For each store (SQLite file, PostgreSQL schema) and each worker count (1 and 4 uvicorn
workers): `conversations` concurrent conversations x `turns` turns of bank_fraud (offline
parser, template responses; the user turns of its offline conversation tests), sent by an
async HTTP client. Reported: turns/s, per-turn p50/p99 latency, errors (must be 0), and
lost/doubled turns checked in the store afterwards (must be 0). Then the same load with one
worker process SIGKILLed partway (uvicorn restarts it; clients retry a failed turn with the
same idempotency key). Finally the ratio of served turns/s to the engine's in-process turns/s
on the same conversations (one thread, no HTTP, no store).

Writes bench/results/serve.json.   python -m bench.bench_serve [--quick]
PostgreSQL: GENIE_TEST_POSTGRES_URL, else 127.0.0.1:5432 (database test), else a private cluster.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import signal
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx
import psutil
import psycopg

from bench.bench_load import lines, percentile
from core_engine import Agent
from server.stores.base import open_store
from tests.serve_support import LOCAL_URLS, PrivateCluster, start_serve, with_schema

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = "bank_fraud"
TODAY = dt.date(2024, 7, 1)
QUICK = {"conversations": 20, "turns": 5}
RETRIES = 20


def texts(index: int, turns: int) -> list[str]:
    pool = lines(SAMPLE)
    start = (index * 7) % len(pool)
    return [pool[(start + k) % len(pool)] for k in range(turns)]


@contextmanager
def postgres() -> Iterator[str]:
    explicit = os.environ.get("GENIE_TEST_POSTGRES_URL")
    for url in [explicit] if explicit else LOCAL_URLS:
        try:
            psycopg.connect(url, connect_timeout=3).close()
        except psycopg.Error:
            continue
        yield url
        return
    cluster = PrivateCluster()
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@contextmanager
def fresh_store(kind: str, pg: str, tmp: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp / f'sessions-{uuid.uuid4().hex[:8]}.db'}"
        return
    schema = f"genie_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_schema(pg, schema)
    finally:
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


async def _send(client: httpx.AsyncClient, method: str, url: str, body: dict, stats: dict[str, int]) -> httpx.Response:
    """One request, retried (same body, so the same idempotency key) on a dropped connection or a 5xx."""
    for attempt in range(RETRIES):
        try:
            r = await client.request(method, url, json=body)
            if r.status_code < 500:
                return r
            stats["retried_5xx"] += 1
        except httpx.TransportError:
            stats["retried_connection"] += 1
        await asyncio.sleep(min(2.0, 0.1 * (attempt + 1)))
    raise RuntimeError(f"{method} {url} failed {RETRIES} times")


async def drive(base: str, conversations: int, turns: int, run_id: str,
                on_progress: Any = None) -> dict[str, Any]:
    latencies: list[float] = []
    stats = {"errors": 0, "retried_connection": 0, "retried_5xx": 0, "done": 0}
    limits = httpx.Limits(max_connections=conversations, max_keepalive_connections=conversations)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        async def one(i: int) -> None:
            sid = f"{run_id}-{i}"
            r = await _send(client, "POST", "/v1/sessions", {"session_id": sid}, stats)
            if r.status_code not in (201, 409):  # 409: a retried create that had gone through
                stats["errors"] += 1
                return
            for k, text in enumerate(texts(i, turns)):
                started = time.perf_counter()
                r = await _send(client, "POST", f"/v1/sessions/{sid}/turns",
                                {"text": text, "idempotency_key": f"{sid}-{k}"}, stats)
                latencies.append((time.perf_counter() - started) * 1000)
                if r.status_code != 200 or r.json().get("turn") != k + 1:
                    stats["errors"] += 1
                stats["done"] += 1
                if on_progress is not None:
                    on_progress(stats["done"])
        started = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(conversations)))
        wall = time.perf_counter() - started
    return {"turns": len(latencies), "wall_s": round(wall, 3), "turns_per_s": round(len(latencies) / wall, 1),
            "p50_ms": round(percentile(latencies, 50), 2), "p99_ms": round(percentile(latencies, 99), 2), **stats}


def check_store(url: str, conversations: int, turns: int, run_id: str) -> dict[str, int]:
    """Every conversation holds exactly its turns, in order: none lost, none applied twice."""
    store = open_store(url)
    lost = doubled = wrong_order = 0
    try:
        for i in range(conversations):
            users = [t["user"] for t in store.turns(f"{run_id}-{i}")]
            expected = texts(i, turns)
            lost += max(0, len(expected) - len(users))
            doubled += max(0, len(users) - len(expected))
            wrong_order += int(users != expected and len(users) == len(expected))
    finally:
        store.close()
    return {"lost_turns": lost, "doubled_turns": doubled, "conversations_out_of_order": wrong_order}


def one_run(kind: str, pg: str, tmp: Path, workers: int, conversations: int, turns: int,
            kill_at: float | None = None) -> dict[str, Any]:
    with fresh_store(kind, pg, tmp) as url:
        server = start_serve(SAMPLE, url, tmp / f"serve-{kind}-{workers}.log", "--workers", str(workers),
                             "--rate-limit", "0", "--log-level", "warning", "--pool-size", "20",
                             env={"GENIE_API_KEYS": ""})
        killed: list[int] = []

        def maybe_kill(done: int) -> None:
            if kill_at is not None and not killed and done >= kill_at * conversations * turns:
                children = psutil.Process(server.proc.pid).children()
                workers_ = [c for c in children if "spawn_main" in " ".join(c.cmdline())] or children
                # the busiest worker: the kernel spreads connections unevenly, and killing an idle one proves little
                port = int(server.url.rsplit(":", 1)[1])
                busy = {c.pid: sum(k.status == psutil.CONN_ESTABLISHED and k.laddr.port == port
                                   for k in c.net_connections("tcp")) for c in workers_}
                target = max(busy, key=busy.get)
                os.kill(target, signal.SIGKILL)
                killed.extend([target, busy[target]])
        try:
            asyncio.run(drive(server.url, 5, 2, f"warm-{uuid.uuid4().hex[:6]}"))  # imports, first turns
            run_id = uuid.uuid4().hex[:8]
            result = asyncio.run(drive(server.url, conversations, turns, run_id, maybe_kill))
        finally:
            server.stop()
        result.update(check_store(url, conversations, turns, run_id))
    result.update({"store": kind, "workers": workers})
    if kill_at is not None:
        result["killed_worker_pid"] = killed[0] if killed else None
        result["killed_worker_connections"] = killed[1] if killed else None
    return result


def in_process(conversations: int, turns: int) -> dict[str, Any]:
    agent = Agent.load(ROOT / "sample_projects" / SAMPLE)
    agent.new_session(parser="offline", today=TODAY).turn("hello")  # warm-up
    started = time.perf_counter()
    n = 0
    for i in range(conversations):
        session = agent.new_session(parser="offline", today=TODAY)
        for text in texts(i, turns):
            session.turn(text)
            n += 1
    wall = time.perf_counter() - started
    return {"turns": n, "wall_s": round(wall, 3), "turns_per_s": round(n / wall, 1)}


def run(conversations: int = 200, turns: int = 10, workers: tuple[int, ...] = (1, 4),
        stores: tuple[str, ...] = ("sqlite", "postgresql")) -> dict[str, Any]:
    out: dict[str, Any] = {"benchmark": "serve", "sample": SAMPLE, "conversations": conversations, "turns": turns,
                           "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                           "load": [], "worker_killed": []}
    with tempfile.TemporaryDirectory(prefix="genie-bench-serve-") as tmp, postgres() as pg:
        tmp_path = Path(tmp)
        for kind in stores:
            for w in workers:
                out["load"].append(one_run(kind, pg, tmp_path, w, conversations, turns))
                print(json.dumps(out["load"][-1]), file=sys.stderr, flush=True)
            out["worker_killed"].append(one_run(kind, pg, tmp_path, max(workers), conversations, turns,
                                                kill_at=0.4))
            print(json.dumps(out["worker_killed"][-1]), file=sys.stderr, flush=True)
    out["in_process"] = in_process(conversations, turns)
    best = max(r["turns_per_s"] for r in out["load"])
    out["served_over_in_process"] = {f"{r['store']}_{r['workers']}w": round(r["turns_per_s"] /
                                                                            out["in_process"]["turns_per_s"], 3)
                                     for r in out["load"]}
    out["best_served_turns_per_s"] = best
    runs = out["load"] + out["worker_killed"]
    out["errors_total"] = sum(r["errors"] for r in runs)
    out["lost_or_doubled_total"] = sum(r["lost_turns"] + r["doubled_turns"] + r["conversations_out_of_order"]
                                       for r in runs)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_serve", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"small sizes {QUICK}")
    ap.add_argument("--conversations", type=int, default=200)
    ap.add_argument("--turns", type=int, default=10)
    args = ap.parse_args(argv)
    sizes = dict(QUICK) if args.quick else {"conversations": args.conversations, "turns": args.turns}
    result = run(**sizes)
    result["generated"] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    target = ROOT / "bench" / "results" / ("serve-quick.json" if args.quick else "serve.json")
    target.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target}: errors {result['errors_total']}, lost/doubled {result['lost_or_doubled_total']}")
    return 1 if result["errors_total"] or result["lost_or_doubled_total"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
