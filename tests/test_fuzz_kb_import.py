"""Fuzzing the KB importer with random CSV, TSV, JSON and JSONL files.

Headers may be duplicated, blank, reserved or unicode; rows ragged; cells numbers,
dates, booleans, JSON lists, quotes, newlines, huge or invalid UTF-8. Into a KB that
already holds a table, an import either succeeds (every row is there, queryable
through the read-only `SQLiteKB`, the other table untouched) or raises a clear
`StorageError` and leaves the database file byte-identical.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from core_engine.errors import StorageError
from core_engine.knowledge.kb import SQLiteKB, quote_identifier
from storage.kb.importer import import_file
from tests.fuzz_profile import fuzz
from tests.robustness import assert_clear_error, db_dump, file_digest

BASE_ROWS = [{"id": i, "name": f"Place {i}", "city": ["Palo Alto", "San Francisco"][i % 2]} for i in range(1, 21)]

HEADER_NAMES = st.one_of(
    st.sampled_from(["id", "name", "city", "rating", "cuisines", "opened", "open", "review", "price", "x y",
                     "rowid", "", " ", "Name", "NAME", "ünïcødé", "select", "1st", "a\"b", "a'b", "_x", "col;drop"]),
    st.text(max_size=8),
)
CELLS = st.one_of(
    st.integers(-(2**70), 2**70).map(str), st.floats(allow_nan=True).map(repr),
    st.sampled_from(["", "yes", "no", "true", "FALSE", "1", "0", "2024-07-06", "2024-02-30", "07/06/2024",
                     '["Thai", "Pizza"]', "[1, 2]", "[", "null", "NaN", "inf", "a,b", 'say "hi"', "line\nbreak",
                     "x" * 5000, "'; DROP TABLE base; --", "\u202e", "🍕", "\ufeff"]),
    st.text(max_size=30),
)


@st.composite
def csv_file(draw: st.DrawFn) -> tuple[bytes, str]:
    delimiter, suffix = draw(st.sampled_from([(",", ".csv"), ("\t", ".tsv")]))
    header = draw(st.lists(HEADER_NAMES, min_size=1, max_size=6))
    rows = draw(st.lists(st.lists(CELLS, min_size=len(header), max_size=len(header)), max_size=12))
    if rows and draw(st.booleans()):
        r = draw(st.integers(0, len(rows) - 1))
        rows[r] = rows[r][: draw(st.integers(0, len(header)))] + draw(st.lists(CELLS, max_size=2))  # ragged
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows([header, *rows])
    data = out.getvalue().encode("utf-8")
    tweak = draw(st.sampled_from(["none", "none", "bom", "latin1", "truncate", "nul"]))
    if tweak == "bom":
        data = b"\xef\xbb\xbf" + data
    elif tweak == "latin1":
        data = data + "café\n".encode("latin-1")
    elif tweak == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif tweak == "nul":
        data = data.replace(b",", b"\x00,", 1)
    return data, suffix


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
              st.text(max_size=20), st.sampled_from(["2024-07-06", "yes", "x" * 3000])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def json_file(draw: st.DrawFn) -> tuple[bytes, str]:
    keys = draw(st.lists(HEADER_NAMES, min_size=1, max_size=5, unique=True))
    records = draw(st.lists(st.one_of(
        st.fixed_dictionaries({k: JSON_VALUES for k in keys}),
        st.dictionaries(HEADER_NAMES, JSON_VALUES, max_size=4),
        JSON_VALUES,
    ), max_size=10))
    if draw(st.booleans()):
        lines = [json.dumps(r) for r in records]
        if lines and draw(st.booleans()):
            lines[draw(st.integers(0, len(lines) - 1))] = draw(st.sampled_from(["{", "not json", "", "[1,2]"]))
        return "\n".join(lines).encode("utf-8"), draw(st.sampled_from([".jsonl", ".ndjson"]))
    return json.dumps(draw(st.one_of(st.just(records), JSON_VALUES))).encode("utf-8"), ".json"


def _baseline(folder: Path) -> Path:
    src = folder / "base.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in BASE_ROWS), encoding="utf-8")
    db = folder / "kb.sqlite"
    import_file(db, src, "base")
    return db


def check_import(data: bytes, suffix: str, table: str, replace: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = _baseline(folder)
        base_dump = [line for line in db_dump(db) if '"base"' in line or "'base'" in line]
        before = file_digest(db)
        path = folder / f"upload{suffix}"
        path.write_bytes(data)
        try:
            report = import_file(db, path, table, replace=replace)
        except StorageError as exc:
            assert_clear_error(exc)
            assert file_digest(db) == before, "a failed import changed the database file"
            return
        assert report.table == table and report.rows >= 1
        replaced_base = table.lower() == "base"
        if not replaced_base:
            assert [line for line in db_dump(db) if '"base"' in line or "'base'" in line] == base_dump
        with SQLiteKB(db) as kb:
            assert kb.tables()[table].row_count == report.rows
            rows = kb.execute(f"SELECT * FROM {quote_identifier(table)}", max_rows=report.rows).rows
            assert len(rows) == report.rows
            json.dumps(rows, default=str)
            if not replaced_base:
                assert kb.tables()["base"].row_count == len(BASE_ROWS)


TABLES = st.sampled_from(["uploads", "uploads", "base", "Base", "sqlite_x", "_genie_x", "t_fts", "1bad", "a b", ""])


@fuzz(60)
@given(csv_file(), TABLES, st.booleans())
def test_random_sheets_import_or_fail_cleanly(file: tuple[bytes, str], table: str, replace: bool) -> None:
    check_import(*file, table, replace)


@fuzz(60)
@given(json_file(), TABLES, st.booleans())
def test_random_json_imports_or_fail_cleanly(file: tuple[bytes, str], table: str, replace: bool) -> None:
    check_import(*file, table, replace)


def test_a_bad_row_after_many_good_ones_keeps_the_file_byte_identical(tmp_path: Path) -> None:
    """The failure comes after several committed-size batches: still nothing is written."""
    db = _baseline(tmp_path)
    before = file_digest(db)
    path = tmp_path / "big.csv"
    lines = ["id,rating"] + [f"{i},{i % 5}.5" for i in range(1, 3500)] + ["3500,not a number"]
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        import_file(db, path, "ratings", column_types={"rating": "float"})
    except StorageError as exc:
        assert "row 3500" in str(exc) and "rating" in str(exc)
    else:
        raise AssertionError("the bad row was accepted")
    assert file_digest(db) == before
