#!/usr/bin/env python3
"""Independent check of the serving contract (DESIGN §6) across machines:

two `genie serve` processes share one PostgreSQL store; several restaurant-booking
conversations are driven through them, each turn sent to either server at random; one
server is SIGKILLed partway; a client whose request fails retries it on the other server
with the same idempotency key. At the end every conversation must be complete (the
booking reported) with exactly its turns, in order, once each.

    python scripts/serve_check.py [--store postgresql://postgres@127.0.0.1:5432/test] [--conversations 12]

It talks to the servers over HTTP only (standard library), and uses a fresh PostgreSQL
schema that it drops afterwards. Exit status 0 when every conversation is complete.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOKING = ["I want to book a table at Ragazza", "the 5th of July", "19:30", "four of us", "yes"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(url: str, body: dict | None = None, timeout: float = 30) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def start(store: str, log: Path) -> tuple[str, subprocess.Popen]:
    port = free_port()
    cmd = [sys.executable, "-m", "core_engine", "serve", str(ROOT / "sample_projects" / "restaurant_reservation"),
           "--port", str(port), "--store", store, "--today", "2024-07-01", "--rate-limit", "0"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            env={**os.environ, "GENIE_API_KEYS": ""})
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if request(url + "/readyz", timeout=2)[0] == 200:
                return url, proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"genie serve did not start:\n{log.read_text()[-2000:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", default=os.environ.get("GENIE_TEST_POSTGRES_URL",
                                                      "postgresql://postgres@127.0.0.1:5432/test"))
    ap.add_argument("--conversations", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    import psycopg  # only to make and drop the schema; the check itself is HTTP

    schema = f"genie_check_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(args.store, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    store = f"{args.store}{'&' if '?' in args.store else '?'}options=-csearch_path%3D{schema}"
    logs = Path(tempfile.mkdtemp(prefix="genie-serve-check-"))
    servers = [start(store, logs / "a.log"), start(store, logs / "b.log")]
    alive = [True, True]
    rng = random.Random(args.seed)
    lock = threading.Lock()
    sent = [0]
    failures = [0]
    total = args.conversations * len(BOOKING)

    def send(path: str, body: dict, ok: tuple[int, ...] = (200,)) -> dict:
        """POST to a live server chosen at random; on a failure, again (same body, same key)."""
        for _ in range(30):
            with lock:
                i = rng.choice([i for i in (0, 1) if alive[i]])
            try:
                status, answer = request(f"{servers[i][0]}{path}", body)
                if status in ok:
                    return answer
            except (OSError, http.client.HTTPException):  # refused, reset, or cut mid-answer
                with lock:
                    failures[0] += 1
            time.sleep(0.2)
        raise RuntimeError(f"POST {path} never went through")

    def conversation(n: int) -> tuple[str, dict]:
        sid = f"check-{uuid.uuid4().hex[:12]}"
        send("/v1/sessions", {"session_id": sid}, ok=(201, 409))  # 409: a retried create that went through
        last = {}
        for k, text in enumerate(BOOKING):
            last = send(f"/v1/sessions/{sid}/turns", {"text": text, "idempotency_key": f"{sid}-{k}"})
            with lock:
                sent[0] += 1
                if sent[0] == total // 2 and alive[0]:
                    servers[0][1].send_signal(signal.SIGKILL)
                    alive[0] = False
                    print(f"killed server A (pid {servers[0][1].pid}) after {sent[0]} of {total} turns", flush=True)
            time.sleep(rng.random() * 0.05)
        return sid, last

    problems: list[str] = []
    try:
        with ThreadPoolExecutor(max_workers=args.conversations) as pool:
            results = list(pool.map(conversation, range(args.conversations)))
        for sid, last in results:
            status, got = request(f"{servers[1][0]}/v1/sessions/{sid}")
            users = [t["user"] for t in got.get("transcript", [])]
            booked = any(a.get("act") == "report" and a.get("kind") == "api" for a in last.get("acts", []))
            if users != BOOKING or got.get("turns") != len(BOOKING) or not booked:
                problems.append(f"{sid}: turns {got.get('turns')}, users {users}, booked {booked}")
    finally:
        for _, proc in servers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
        with psycopg.connect(args.store, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    print(f"{args.conversations} conversations x {len(BOOKING)} turns through 2 servers, one killed; "
          f"{failures[0]} request(s) failed and were retried on the other server")
    for p in problems:
        print("INCOMPLETE", p)
    print("OK: every conversation complete, no turn lost or doubled" if not problems else
          f"FAILED: {len(problems)} conversation(s) incomplete")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
