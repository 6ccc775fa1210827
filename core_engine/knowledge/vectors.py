"""Embeddings of a KB's free-text columns, stored in SQLite with sqlite-vec, for semantic search.

The KB file itself is opened read-only (and may sit inside a read-only bundle), so the
vectors live in a side cache file named by the KB's content hash and the model:
``$GENIE_CACHE_DIR`` or the system temp dir, ``genie-kb-vectors/<sha256>-<model>.sqlite``.
A table's vectors are built lazily on the first free-text question when the table is
small (at most ``LAZY_ROWS`` rows), or ahead of time with :func:`build_vectors` (the
hook for ``genie kb import``/build). One vector per row: its name column and free-text columns joined
(the model reads the first ~256 word pieces). The search is an exact cosine scan with
sqlite-vec's ``vec_distance_cosine`` over the rows the structured filters allow.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

from .kb import SQLiteKB, TableInfo, quote_identifier

__all__ = ["VectorIndex", "vector_index", "build_vectors", "warm_vectors", "cache_dir", "kb_digest", "LAZY_ROWS"]

LAZY_ROWS = 5000  # larger tables get vectors only from build_vectors (embedding is ~10-30 ms per row on a CPU)
_PAGE = 2000
_BUSY_MS = 120_000  # how long a build waits for another process building the same side file (a large table's build)
_FORMAT = "v1"  # bump when what a row vector is made of changes
_INDEXES: dict[tuple[Any, ...], "VectorIndex | None"] = {}
_BY_FILE: dict[Path, "VectorIndex"] = {}
_LOCK = threading.Lock()


def cache_dir() -> Path:
    return Path(os.environ.get("GENIE_CACHE_DIR") or Path(tempfile.gettempdir()) / "genie-kb-vectors")


_DIGESTS: dict[tuple[Any, ...], str] = {}


def kb_digest(kb: SQLiteKB) -> str:
    """sha256 of what the vectors are made of: each free-text table's embedded columns, row by row (a table too big
    to embed lazily by its row count, last rowid and text length). A project file also holds its conversation logs,
    tests and versions, which change at every chat turn: keyed by the whole file's hash, the first free-text question
    after any write rebuilt every vector (about 30 s for the restaurant sample). Being the content's, the digest is
    the same for every copy of a KB (a workspace's sample and the next one's share their vectors). Remembered per
    file and SQLite schema cookie (a KB import, replace or drop changes it; a log write does not), and for a file
    that is not a project file, per size and modification time too."""
    texts = _text_tables(kb)
    stamp = _stamp(kb.path) + tuple(_shape(kb, name, columns) for name, _, columns in texts)
    if stamp in _DIGESTS:
        return _DIGESTS[stamp]
    h = hashlib.sha256(_FORMAT.encode())
    for name, info, columns in texts:
        h.update(repr((name, columns, info.row_count)).encode())
        table = quote_identifier(name)
        if info.row_count > LAZY_ROWS:  # too big to read at every new file version: its vectors are this file's
            h.update(repr((_shape(kb, name, columns), stamp[:4])).encode())
            continue
        cols = ", ".join(f"t.{quote_identifier(c)}" for c in columns)
        last = -(1 << 62)
        while True:
            rows = kb.execute(f"SELECT t.rowid AS rid, {cols} FROM {table} AS t WHERE t.rowid > ? ORDER BY t.rowid "
                              f"LIMIT {_PAGE}", (last,), max_rows=_PAGE, timeout_s=30).rows
            if not rows:
                break
            for r in rows:
                h.update(repr([r.get(c) for c in ("rid", *columns)]).encode())
            last = rows[-1]["rid"]
    _DIGESTS[stamp] = h.hexdigest()
    return _DIGESTS[stamp]


def _text_tables(kb: SQLiteKB) -> list[tuple[str, TableInfo, list[str]]]:
    """(table, info, embedded columns) of each table with free text, by name."""
    out = []
    for name, info in sorted(kb.tables().items()):
        free = [c.name for c in info.columns if c.free_text]
        if info.fts_table and free:
            out.append((name, info, _title_column(kb, info) + free))
    return out


def _shape(kb: SQLiteKB, table: str, columns: list[str]) -> tuple[Any, ...]:
    """Row count, last rowid and text length of a table (one aggregate query): another KB put at the same path
    (a project deleted and made again, whose file may even get the freed inode) differs here, so it does not get
    the vectors remembered for the old one (an attack pass served a deleted KB's vectors for the new one's rows)."""
    size = " + ".join(f"coalesce(length(t.{quote_identifier(c)}), 0)" for c in columns)
    row = kb.execute(f"SELECT count(*) AS n, max(t.rowid) AS last, sum({size}) AS chars "
                     f"FROM {quote_identifier(table)} AS t", timeout_s=30).rows[0]
    return (table, row["n"], row["last"], row["chars"])


def _stamp(path: Path) -> tuple[Any, ...]:
    """What says a KB may have changed: the file's identity (path, device, inode) and schema cookie, and size and
    time for a file with no `_genie_` tables. The first four items name the file version."""
    st = path.stat()
    ident = (str(path.resolve()), st.st_dev, st.st_ino)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            cookie = conn.execute("PRAGMA schema_version").fetchone()[0]
            project = conn.execute("SELECT 1 FROM sqlite_master WHERE name LIKE '\\_genie\\_%' ESCAPE '\\' "
                                   "LIMIT 1").fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error:
        return (*ident, None, st.st_size, st.st_mtime_ns)
    return (*ident, cookie) if project else (*ident, cookie, st.st_size, st.st_mtime_ns)


def _connect(path: Path) -> tuple[Any, bool]:
    """A connection to the side file with sqlite-vec loaded (apsw: Python's sqlite3 here cannot load
    extensions); without apsw, plain sqlite3 and the cosine computed with numpy."""
    try:
        import apsw
        import sqlite_vec

        conn = apsw.Connection(str(path))
        conn.set_busy_timeout(_BUSY_MS)
        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        conn.enable_load_extension(False)
        return conn, True
    except ImportError:
        return sqlite3.connect(str(path), check_same_thread=False, timeout=_BUSY_MS / 1000, isolation_level=None), False


class VectorIndex:
    """The row vectors of one KB file version and model, in a side SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn, self.sqlite_vec = _connect(path)
        self._conn.execute("CREATE TABLE IF NOT EXISTS built (tbl TEXT PRIMARY KEY, rows INTEGER)")
        self._lock = threading.Lock()  # the read connection, held for one statement at a time
        self._building: set[str] = set()  # tables a thread of this process is building now

    def built(self, table: str) -> bool:
        with self._lock:
            return self._conn.execute("SELECT 1 FROM built WHERE tbl = ?", (table,)).fetchone() is not None

    def building(self, table: str) -> bool:
        """A thread of this process is building this table's vectors now: a question uses FTS alone this time
        instead of waiting for it (a warm-up of a big table held every question for minutes)."""
        return table in self._building

    def build(self, kb: SQLiteKB, info: TableInfo, embedder: Any) -> int:
        """Embed every row's free text; one transaction on a connection of its own, so a half-built table is never
        used and questions about other tables go on meanwhile. Another process that built the table while this
        one waited for the write lock is not built over (it was dropped and embedded again)."""
        free = _title_column(kb, info) + [c.name for c in info.columns if c.free_text]
        vt = quote_identifier("vec_" + info.name)
        cols = ", ".join(f"t.{quote_identifier(c)}" for c in free)
        with _LOCK:
            if info.name in self._building:
                raise RuntimeError(f"the vectors of {info.name!r} are being built by another thread")
            self._building.add(info.name)
        try:
            if self.built(info.name):
                return 0
            conn, _ = _connect(self.path)
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    if conn.execute("SELECT 1 FROM built WHERE tbl = ?", (info.name,)).fetchone():
                        conn.execute("ROLLBACK")
                        return 0
                    count = self._fill(conn, kb, info, embedder, vt, cols, free)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            finally:
                conn.close()
        finally:
            with _LOCK:
                self._building.discard(info.name)
        return count

    @staticmethod
    def _fill(conn: Any, kb: SQLiteKB, info: TableInfo, embedder: Any, vt: str, cols: str, free: list[str]) -> int:
        conn.execute(f"DROP TABLE IF EXISTS {vt}")
        conn.execute(f"CREATE TABLE {vt} (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)")
        last, count = -(1 << 62), 0
        while True:
            rows = kb.execute(
                f"SELECT t.rowid AS rid, {cols} FROM {quote_identifier(info.name)} AS t WHERE t.rowid > ? "
                f"ORDER BY t.rowid LIMIT {_PAGE}", (last,), max_rows=_PAGE, timeout_s=30).rows
            if not rows:
                break
            texts = [_row_text(r, free) for r in rows]
            vectors = embedder.encode(texts)
            conn.cursor().executemany(f"INSERT INTO {vt} (rowid, embedding) VALUES (?, ?)",
                                      [(r["rid"], v.astype("float32").tobytes()) for r, v in zip(rows, vectors)])
            last, count = rows[-1]["rid"], count + len(rows)
        conn.execute("INSERT OR REPLACE INTO built (tbl, rows) VALUES (?, ?)", (info.name, count))
        return count

    def search(self, table: str, query: Any, allowed: Sequence[int] | None, k: int,
               min_similarity: float) -> tuple[list[tuple[int, float]], float]:
        """Rows by cosine similarity to the query vector (best first), within `allowed` rowids if given,
        and the mean similarity of all those rows (what any row of this table scores)."""
        vt = quote_identifier("vec_" + table)
        ids = "[" + ",".join(str(int(i)) for i in allowed) + "]" if allowed is not None else None
        where = " WHERE rowid IN (SELECT value FROM json_each(?))" if ids is not None else ""
        with self._lock:
            if self.sqlite_vec:
                blob = [query.astype("float32").tobytes()] + ([ids] if ids is not None else [])
                sql = f"SELECT rowid, 1 - vec_distance_cosine(embedding, ?) AS sim FROM {vt}{where} ORDER BY sim DESC LIMIT ?"
                rows = [(int(r), float(s)) for r, s in self._conn.execute(sql, blob + [k]).fetchall()]
                mean = self._conn.execute(f"SELECT avg(1 - vec_distance_cosine(embedding, ?)) FROM {vt}{where}",
                                          blob).fetchall()[0][0]
            else:
                rows, mean = self._numpy_search(vt, where, ids, query, k)
        return [(r, s) for r, s in rows if s >= min_similarity], float(mean or 0.0)

    def _numpy_search(self, vt: str, where: str, ids: str | None, query: Any, k: int
                      ) -> tuple[list[tuple[int, float]], float]:
        import numpy as np

        found = self._conn.execute(f"SELECT rowid, embedding FROM {vt}{where}", [ids] if ids else []).fetchall()
        if not found:
            return [], 0.0
        matrix = np.frombuffer(b"".join(b for _, b in found), dtype=np.float32).reshape(len(found), -1)
        sims = matrix @ query.astype(np.float32)
        best = np.argsort(-sims)[:k]
        return [(int(found[i][0]), float(sims[i])) for i in best], float(sims.mean())


def _title_column(kb: SQLiteKB, info: TableInfo) -> list[str]:
    """The row's name (the first name-like column), read before its free text: titles carry the topic."""
    from .vocab import vocabulary_for

    names = vocabulary_for(kb).tables.get(info.name)
    first = [c.name for c in info.columns if names and c.name in names.name_columns and not c.free_text]
    return first[:1]


def _row_text(row: dict[str, Any], columns: list[str]) -> str:
    parts = []
    for c in columns:
        value = row.get(c)
        if isinstance(value, list):
            parts.extend(str(v) for v in value if v)
        elif value:
            parts.append(str(value))
    return re.sub(r"\s+", " ", " ".join(parts))[:2000]


def vector_index(kb: SQLiteKB, embedder: Any) -> VectorIndex | None:
    """The side index for a KB file version and model (None when the cache dir cannot be written)."""
    st = kb.path.stat()
    key = (str(kb.path.resolve()), st.st_size, st.st_mtime_ns, embedder.name)
    with _LOCK:
        if key in _INDEXES:
            return _INDEXES[key]
        model = re.sub(r"[^A-Za-z0-9_.-]+", "_", embedder.name)[-60:]
        try:
            folder = cache_dir()
            folder.mkdir(parents=True, exist_ok=True)
            side = folder / f"{kb_digest(kb)}-{model}-{_FORMAT}.sqlite"
            # one object per side file: copies of a KB in one process share its build lock, so a question and a
            # warm-up (or two copies) never fight over the file's write lock
            index: VectorIndex | None = _BY_FILE.get(side) or VectorIndex(side)
            _BY_FILE[side] = index
        except Exception:  # noqa: BLE001 - no cache (unwritable dir, broken file): search without vectors
            index = None
        _INDEXES[key] = index
        return index


def build_vectors(kb_path: str | Path, embedding_model: str | None = None, *,
                  max_rows: int | None = None) -> dict[str, int]:
    """Embed the free-text columns of every table of a KB now (for `genie kb import`/build): rows per table
    (tables with more than `max_rows` rows are left out)."""
    from ..embedding.semantic import get_embedder

    embedder = get_embedder(embedding_model)
    if embedder.fallback_reason:
        return {}
    with SQLiteKB(kb_path) as kb:
        index = vector_index(kb, embedder)
        if index is None:
            return {}
        out = {}
        for name, info in kb.tables().items():
            if not info.fts_table or not any(c.free_text for c in info.columns) or index.building(name) \
                    or (max_rows is not None and info.row_count > max_rows):
                continue
            try:
                out[name] = index.build(kb, info, embedder)
            except RuntimeError:  # a question of this process started building it a moment ago
                continue
        return out


def warm_vectors(kb_path: str | Path | None, embedding_model: str | None = None) -> threading.Thread | None:
    """Build, on a background thread, the vectors a first free-text question would build itself (tables of at most
    `LAZY_ROWS` rows): long-lived processes (the studio, `genie serve`) call it when they load an agent, so that
    question does not wait (about 10-30 s for the restaurant sample's 200 rows of reviews on this machine's CPU).
    A question asked meanwhile waits for the table's build, as it would have built it; a failure here only means
    the question builds them as before."""
    if kb_path is None:
        return None

    def run() -> None:
        try:
            build_vectors(kb_path, embedding_model, max_rows=LAZY_ROWS)
        except Exception:  # noqa: BLE001 - a warm-up: the first question builds the vectors itself and reports
            pass

    thread = threading.Thread(target=run, name="genie-kb-vectors", daemon=True)
    thread.start()
    return thread
