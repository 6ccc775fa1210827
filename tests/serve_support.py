"""Shared helpers for the serving tests: a PostgreSQL to test against, `genie serve` processes.

PostgreSQL, in this order: GENIE_TEST_POSTGRES_URL (must work if set); the machine's server
at 127.0.0.1:5432 (database `test`, user postgres or root, trust auth); else a private
cluster started from Debian's `postgresql` binaries in a temporary folder (as `nobody`
when running as root). GENIE_TEST_POSTGRES_PRIVATE=1 forces the private cluster. When
none works the tests fail with the reasons: they never skip.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import psycopg
import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCAL_URLS = ("postgresql://postgres@127.0.0.1:5432/test", "postgresql://root@127.0.0.1:5432/test")
PORTS = range(8650, 8670)
START_TIMEOUT_S = 60.0


def _reachable(url: str) -> str | None:
    try:
        psycopg.connect(url, connect_timeout=3).close()
        return None
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


class PrivateCluster:
    """A throw-away PostgreSQL cluster (initdb + pg_ctl) on a free port, trust auth."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise RuntimeError("no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql; scripts/test.sh does)")
        self.bin = Path(found[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="genie-pg-"))
        os.chmod(self.dir, 0o755)
        self.data = self.dir / "data"
        self.port = free_port(range(55432, 55532))
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "nobody", "nogroup")
            self.prefix = ["runuser", "-u", "nobody", "--"]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *cmd: str) -> None:
        done = subprocess.run([*self.prefix, *cmd], capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd[:1])} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> str:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o",
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
        return self.url

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL URL (see the module docstring); fails, never skips, when there is none."""
    tried: list[str] = []
    explicit = os.environ.get("GENIE_TEST_POSTGRES_URL")
    if os.environ.get("GENIE_TEST_POSTGRES_PRIVATE") != "1":
        for url in ([explicit] if explicit else LOCAL_URLS):
            problem = _reachable(url)
            if problem is None:
                yield url
                return
            tried.append(f"{url}: {problem}")
        if explicit:
            pytest.fail(f"GENIE_TEST_POSTGRES_URL does not answer: {tried[-1]}")
    cluster = None
    try:
        cluster = PrivateCluster()
        url = cluster.start()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        if cluster is not None:
            cluster.stop()
        tried.append(f"private cluster: {exc}")
        pytest.fail("no PostgreSQL for the serving tests; tried " + "; ".join(tried))
    try:
        yield url
    finally:
        cluster.stop()


def with_schema(url: str, schema: str) -> str:
    """The URL with `search_path` set to `schema` (a libpq option: every table lands there)."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture
def pg_url(postgres_server: str) -> Iterator[str]:
    """A fresh schema for one test, dropped afterwards."""
    schema = f"genie_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_schema(postgres_server, schema)
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


# -- genie serve processes ---------------------------------------------------------------------


def free_port(ports: range = PORTS) -> int:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}")


@dataclass
class Served:
    url: str
    proc: subprocess.Popen
    log: Path

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def start_serve(agent: str, store: str, log: Path, *args: str, env: dict[str, str] | None = None) -> Served:
    """`python -m server.cli AGENT --store STORE ...` (= `genie serve`) on a port in 8650-8669; waits for /readyz."""
    last: Exception | None = None
    for _ in range(3):  # another test run may take the port between the check and the bind
        port = free_port()
        cmd = [sys.executable, "-m", "server.cli", str(ROOT / "sample_projects" / agent), "--port", str(port),
               "--store", store, "--today", "2024-07-01", *args]
        full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        out = log.open("a")
        proc = subprocess.Popen(cmd, cwd=log.parent, env=full_env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(url + "/readyz", timeout=2) as r:
                    if r.status == 200:
                        return Served(url, proc, log)
            except (OSError, urllib.error.URLError) as exc:
                last = exc
                time.sleep(0.2)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if "address already in use" not in log.read_text().lower():
            break
    raise RuntimeError(f"genie serve did not start ({last}):\n{log.read_text()[-3000:]}")


def call(url: str, method: str = "GET", body: Any = None, headers: dict[str, str] | None = None,
         timeout: float = 30) -> tuple[int, Any]:
    """A JSON request with the standard library; returns (status, decoded body)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")
