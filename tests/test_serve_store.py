"""The session stores behind one interface: compare-and-set turns, idempotency keys, ordering.

Every test runs on SQLite and on a real PostgreSQL (tests/serve_support.py; never skipped).
"""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pytest

from core_engine.errors import StorageError
from server.stores.base import SessionExists, UnknownSession, open_store
from tests.serve_support import pg_url, postgres_server  # noqa: F401 - fixtures

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'sessions.db'}"
    return request.getfixturevalue("pg_url")


def appender(text: str, seen: list[int] | None = None):
    """A Compute that appends `text` to the state's list: applying it twice would show."""
    def compute(state: dict, n: int) -> tuple[dict, dict]:
        if seen is not None:
            seen.append(n)
        new = {**state, "said": [*state["said"], text]}
        return {"turn": n, "user": text, "response": f"got {text}", "acts": [], "state": {"records": []}}, new
    return compute


def test_create_get_apply_and_transcript(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create("s1", {"said": []})
        with pytest.raises(SessionExists):
            store.create("s1", {"said": []})
        first, replayed = store.apply("s1", appender("a"))
        assert (first["turn"], replayed) == (1, False)
        store.apply("s1", appender("b"))
        row = store.get("s1")
        assert (row.version, row.state["said"]) == (2, ["a", "b"])
        assert [t["user"] for t in store.turns("s1")] == ["a", "b"]
        assert store.get("nope") is None
        with pytest.raises(UnknownSession):
            store.apply("nope", appender("x"))
    finally:
        store.close()


def test_idempotency_key_returns_first_result_and_applies_nothing(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create("s", {"said": []})
        first, replayed = store.apply("s", appender("a"), idempotency_key="k1")
        again, replayed_again = store.apply("s", appender("DIFFERENT"), idempotency_key="k1")
        assert (replayed, replayed_again) == (False, True)
        assert again == first
        assert store.get("s").state["said"] == ["a"]
        store.create("other", {"said": []})  # keys are per conversation
        assert store.apply("other", appender("c"), idempotency_key="k1")[1] is False
    finally:
        store.close()


def test_concurrent_turns_each_applied_once(store_url: str) -> None:
    """Many threads, one conversation: every turn lands exactly once and versions have no gap."""
    store = open_store(store_url)
    try:
        store.create("s", {"said": []})
        errors: list[BaseException] = []

        def worker(i: int) -> None:
            try:
                for j in range(5):
                    store.apply("s", appender(f"{i}-{j}"), idempotency_key=f"{i}-{j}")
                    store.apply("s", appender(f"{i}-{j}"), idempotency_key=f"{i}-{j}")  # a client retry
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        row = store.get("s")
        assert row.version == 30
        assert sorted(row.state["said"]) == sorted(f"{i}-{j}" for i in range(6) for j in range(5))
        assert [t["turn"] for t in store.turns("s")] == list(range(1, 31))
        for i in range(6):  # one thread's turns keep their order
            mine = [s for s in row.state["said"] if s.startswith(f"{i}-")]
            assert mine == [f"{i}-{j}" for j in range(5)]
    finally:
        store.close()


def _process_worker(url: str, i: int) -> None:
    store = open_store(url)
    for j in range(8):
        store.apply("s", appender(f"p{i}-{j}"), idempotency_key=f"p{i}-{j}")
    store.close()


def test_worker_processes_share_one_store(store_url: str) -> None:
    """Separate processes (as uvicorn workers are) never both apply a turn."""
    store = open_store(store_url)
    store.create("s", {"said": []})
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_process_worker, args=(store_url, i)) for i in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    row = store.get("s")
    assert row.version == 24 and len(set(row.state["said"])) == 24 == len(row.state["said"])
    store.close()


def test_a_failing_turn_changes_nothing(store_url: str) -> None:
    store = open_store(store_url)
    try:
        store.create("s", {"said": []})

        def broken(state: dict, n: int) -> tuple[dict, dict]:
            raise RuntimeError("engine bug")
        with pytest.raises(RuntimeError):
            store.apply("s", broken, idempotency_key="k")
        assert store.get("s").version == 0
        assert store.apply("s", appender("a"), idempotency_key="k") [1] is False  # the key was not used up
    finally:
        store.close()


def test_unknown_store_url_is_a_clear_error() -> None:
    with pytest.raises(StorageError, match="sqlite:///PATH or postgresql://"):
        open_store("mysql://x")
    with pytest.raises(StorageError, match="cannot open the PostgreSQL session store"):
        open_store("postgresql://nobody@127.0.0.1:1/none?connect_timeout=1", timeout_s=2)


def test_private_cluster_fallback_starts_a_usable_postgresql() -> None:
    """What the fixtures do on a machine without a PostgreSQL server (scripts/test.sh installs the binaries)."""
    from tests.serve_support import PrivateCluster
    cluster = PrivateCluster()
    try:
        store = open_store(cluster.start())
        store.create("s", {"said": []})
        assert store.apply("s", appender("a"))[0]["turn"] == 1
        store.close()
    finally:
        cluster.stop()
    assert not cluster.dir.exists()
