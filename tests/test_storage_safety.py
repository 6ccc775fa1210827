"""Safety of project files: killed writers, damaged and foreign files, concurrent sessions, busy files."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from core_engine import Agent, StorageError
from storage import ConflictError, ProjectFile, Workspace
from storage import fileformat as ff

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_projects"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def restaurant(tmp_path: Path) -> Path:
    ws = Workspace(tmp_path / "ws")
    ws.from_sample(SAMPLES / "restaurant_reservation").close()
    return ws.path_of("restaurant_reservation")


# -- damaged, foreign and newer files ------------------------------------------------------------


def _text(path: Path, good: Path) -> None:
    path.write_text("This is a note, not a project.\n" * 20, encoding="utf-8")


def _empty(path: Path, good: Path) -> None:
    path.write_bytes(b"")


def _foreign(path: Path, good: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('a', '1')")
    conn.commit()
    conn.close()


def _stamped_but_empty(path: Path, good: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {ff.APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("CREATE TABLE x (a)")
    conn.commit()
    conn.close()


def _newer(path: Path, good: Path) -> None:
    path.write_bytes(good.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()


def _truncated_half(path: Path, good: Path) -> None:
    data = good.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _truncated_header(path: Path, good: Path) -> None:
    path.write_bytes(good.read_bytes()[:60])


def _garbage_pages(path: Path, good: Path) -> None:
    data = bytearray(good.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    rng = random.Random(5)
    for start in range(3 * page, len(data), 4 * page):  # every 4th page from the 4th on
        data[start:start + page] = rng.randbytes(page)
    path.write_bytes(bytes(data))


def _garbage_schema(path: Path, good: Path) -> None:
    data = bytearray(good.read_bytes())
    data[100:600] = b"\xff" * 500  # page 1 (sqlite_master) right after the header
    path.write_bytes(bytes(data))


BAD_FILES = {
    "text": (_text, "not an SQLite database"),
    "empty": (_empty, "the file is empty"),
    "foreign": (_foreign, "another application"),
    "stamped but empty": (_stamped_but_empty, "missing table"),
    "newer format": (_newer, "newer Genie Studio"),
    "truncated": (_truncated_half, "truncated"),
    "truncated header": (_truncated_header, "truncated"),
    "garbage pages": (_garbage_pages, "corrupt|malformed"),  # which it is depends on where the schema pages fall
    "garbage schema": (_garbage_schema, "corrupt|malformed|damaged"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_raise_a_clear_error_and_change_nothing(case: str, restaurant: Path, tmp_path: Path):
    make, message = BAD_FILES[case]
    bad = restaurant.with_name("bad.genieproj")
    make(bad, restaurant)
    before = digest(bad)
    with pytest.raises(StorageError, match=message):
        ProjectFile(bad)
    with pytest.raises(StorageError, match=message):
        Agent.load(bad)  # the genie.project_loaders path says the same
    assert digest(bad) == before
    assert not bad.with_name(bad.name + "-journal").exists()
    listing = {i.name: i for i in Workspace(bad.parent).list()}
    assert listing["bad"].error and listing["restaurant_reservation"].error is None
    bundle = bad.with_suffix(".genie")
    os.replace(bad, bundle)
    with pytest.raises(StorageError, match=message):
        ProjectFile(bundle, readonly=True)
    assert digest(bundle) == before


def test_cli_reports_a_damaged_file(restaurant: Path, capsys):
    from core_engine.cli import main
    bad = restaurant.with_name("bad.genieproj")
    _truncated_half(bad, restaurant)
    assert main(["test", str(bad)]) == 2
    assert "truncated" in capsys.readouterr().err


# -- conflicts and concurrency -------------------------------------------------------------------


def test_two_processes_saving_concurrently_lose_nothing(restaurant: Path, tmp_path: Path):
    """Each process adds worksheets read-modify-write with base_version; conflicts are retried, none is lost."""
    script = tmp_path / "adder.py"
    script.write_text(textwrap.dedent("""
        import sys
        from core_engine.spec.model import Worksheet
        from storage import ConflictError, ProjectFile
        path, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
        project = ProjectFile(path)
        conflicts = 0
        for i in range(count):
            while True:
                base = project.head().number
                spec = project.spec(base)
                spec.worksheets.append(Worksheet(name=f"{tag}{i}"))
                try:
                    project.save_spec(spec, f"{tag} {i}", base_version=base, author=tag)
                    break
                except ConflictError:
                    conflicts += 1
        print(conflicts)
    """), encoding="utf-8")
    procs = [subprocess.Popen([sys.executable, str(script), str(restaurant), tag, "12"], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True) for tag in ("A", "B")]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    project = ProjectFile(restaurant)
    names = {w.name for w in project.spec().worksheets}
    assert {f"{t}{i}" for t in "AB" for i in range(12)} <= names
    assert project.head().number == 1 + 24 and project.check() == ["ok"]


def test_a_busy_file_gives_a_clear_error(restaurant: Path, monkeypatch):
    monkeypatch.setattr(ff, "BUSY_TIMEOUT_S", 0.2)
    project = ProjectFile(restaurant)
    blocker = sqlite3.connect(restaurant, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StorageError, match="busy"):
            project.save_spec(project.spec().model_copy(update={"description": "x"}), "blocked")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert project.head().number == 1


def test_a_failed_save_rolls_back(restaurant: Path, monkeypatch):
    project = ProjectFile(restaurant)
    import storage.projects as projects

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(projects, "_insert_version", boom)
    before = digest(restaurant)
    with pytest.raises(RuntimeError):
        project.save_spec(project.spec().model_copy(update={"description": "x"}), "never")
    assert digest(restaurant) == before and project.head().number == 1


# -- a writer killed mid-write --------------------------------------------------------------------

WRITER = """
import sys
from core_engine.spec.model import Field, Spec, Worksheet
from storage import ProjectFile
from storage.fileformat import spec_hash

path, rows = sys.argv[1], int(sys.argv[2])
project = ProjectFile(path)


def say(text):  # one write per line: a kill never leaves half a line in the pipe
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()


def records():  # a generator: the import streams it inside its one transaction
    for r in range(rows):
        yield {"id": r, "city": f"city {r % 50}", "review": f"a long review of place {r}, " + "tasty " * 20}


i = 0
while True:
    i += 1
    spec = Spec(name="big", description=f"save {i}", worksheets=[
        Worksheet(name=f"W{w}", description="worksheet " * 50,
                  fields=[Field(name=f"f{f}", description=f"field {f} of save {i} " * 20) for f in range(10)])
        for w in range(30)])
    say(f"saving {spec_hash(spec)}")
    project.save_spec(spec, f"save {i}")
    say(f"saved {spec_hash(spec)}")
    say("importing")
    project.import_kb_records(records(), "big", replace=True, free_text=["review"])
    say("imported")
"""
KB_ROWS = 40000


@pytest.mark.timeout(240)
def test_killing_a_writer_mid_write_keeps_the_last_good_state(restaurant: Path, tmp_path: Path):
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    rng = random.Random(20240706)
    initial = ProjectFile(restaurant).head().spec_hash
    committed = {initial}
    interrupted = 0
    for attempt in range(6):
        lines: list[str] = []
        proc = subprocess.Popen([sys.executable, str(script), str(restaurant), str(KB_ROWS)], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        reader = threading.Thread(target=lambda: [lines.append(line) for line in proc.stdout], daemon=True)
        reader.start()
        deadline = time.monotonic() + 60
        # even attempts: any moment once the writer runs; odd ones: early in its second KB import
        # (the first one starts by importing modules, outside any transaction)
        wanted, count = ("saving", 1) if attempt % 2 == 0 else ("importing", 2)
        while sum(line.startswith(wanted) for line in lines) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 2.0) if attempt % 2 == 0 else rng.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        reader.join(timeout=10)
        interrupted += restaurant.with_name(restaurant.name + "-journal").exists()  # killed inside a transaction
        events = [line.split() for line in lines if line.endswith("\n")]
        saved = {e[1] for e in events if e[0] == "saved"}
        in_flight = {e[1] for e in events if e[0] == "saving"} - saved
        committed |= saved

        project = ProjectFile(restaurant)  # rolls back the interrupted transaction, if any
        assert project.check() == ["ok"], attempt
        versions = project.versions()
        assert [v.number for v in versions] == list(range(len(versions), 0, -1))
        head = project.head()
        assert head.spec_hash in committed | in_flight, (attempt, events[-3:])
        committed.add(head.spec_hash)
        for v in versions:
            project.spec(v.number)  # every version is whole
        if "big" in project.kb_tables():
            with sqlite3.connect(f"{restaurant.as_uri()}?mode=ro", uri=True) as conn:
                assert conn.execute("SELECT count(*) FROM big").fetchone()[0] == KB_ROWS
                assert conn.execute("SELECT count(*) FROM big_fts").fetchone()[0] == KB_ROWS
        assert project.kb_tables()[-1] == "restaurants"  # the sample's table is untouched
        project.close()
    assert len(committed) > 1  # the writers did commit between the kills
    assert interrupted >= 1  # and at least one kill left a hot journal that opening rolled back


def test_a_torn_file_left_by_a_killed_writer_is_rolled_back_on_open(restaurant: Path, tmp_path: Path):
    """Deterministic: the writer spills uncommitted pages into the file itself, then dies."""
    before = ProjectFile(restaurant)
    spec, head = before.spec(), before.head()
    before.close()
    script = tmp_path / "tear.py"
    script.write_text(textwrap.dedent("""
        import os, signal, sqlite3, sys
        conn = sqlite3.connect(sys.argv[1], isolation_level=None)
        conn.execute("PRAGMA cache_size = 1")  # force uncommitted pages out to the database file
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE _genie_specs SET spec_json = 'torn'")
        conn.execute("UPDATE restaurants SET name = 'torn'")
        conn.execute("DELETE FROM _genie_versions")
        os.kill(os.getpid(), signal.SIGKILL)
    """), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script), str(restaurant)], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert restaurant.with_name(restaurant.name + "-journal").stat().st_size > 0
    [info] = Workspace(restaurant.parent).list()  # even a read-only listing recovers the file
    assert info.error is None and info.versions == 1
    after = ProjectFile(restaurant)
    assert after.check() == ["ok"] and after.head() == head and after.spec() == spec
    with sqlite3.connect(restaurant) as conn:
        assert conn.execute("SELECT count(*) FROM restaurants WHERE name = 'torn'").fetchone()[0] == 0
