"""KB import: type inference, CSV/JSON/JSONL files, FTS5, progress, transactions, bad files."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core_engine.errors import StorageError
from core_engine.knowledge.kb import Column, SQLiteKB
from storage.kb.importer import import_documents, import_file, import_records, infer_columns
from storage.kb.values import chunk_text

LONG = "The green curry was wonderful, the staff were attentive and the dining room was calm and warm all evening."


def write_csv(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def restaurant_rows(n: int, bad_row: int | None = None) -> list[list[object]]:
    rows = []
    for i in range(1, n + 1):
        rating = "abc" if i == bad_row else f"{1 + (i % 40) / 10:.1f}"
        cuisines = json.dumps(["Thai", "Chinese"] if i % 3 == 0 else ["Italian"])
        rows.append([i, f"Place {i}", "Palo Alto" if i % 2 else "Oakland", cuisines, rating, "yes" if i % 4 else "no"])
    return rows


HEADER = ["id", "name", "city", "cuisines", "rating", "has_patio"]


def dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def types_of(columns: list[Column]) -> dict[str, str]:
    return {c.name: c.type for c in columns}


# -- inference ---------------------------------------------------------------


def test_infer_columns_from_csv_strings():
    records = [
        {"n": "1", "x": "1.5", "b": "yes", "d": "2024-07-06", "l": '["a", "b"]', "zip": "02139", "t": "hi", "e": ""},
        {"n": "-20", "x": "3", "b": "No", "d": "2023-01-31", "l": "[]", "zip": "94110", "t": "42", "e": ""},
    ]
    assert types_of(infer_columns(records)) == {
        "n": "int", "x": "float", "b": "bool", "d": "date", "l": "list", "zip": "text", "t": "text", "e": "text",
    }


def test_infer_columns_from_json_values_and_nulls():
    records = [
        {"n": 1, "x": 2, "b": True, "l": ["Thai"], "o": {"k": 1}, "mixed": 1},
        {"n": None, "x": 2.5, "b": False, "l": None, "o": None, "mixed": "one"},
    ]
    assert types_of(infer_columns(records)) == {
        "n": "int", "x": "float", "b": "bool", "l": "list", "o": "text", "mixed": "text",
    }


def test_impossible_dates_and_one_zero_columns_are_not_dates_or_bools():
    records = [{"d": "2024-02-30", "flag": "1"}, {"d": "2024-01-01", "flag": "0"}]
    assert types_of(infer_columns(records)) == {"d": "text", "flag": "int"}


def test_free_text_is_inferred_for_long_text_and_lists_of_long_strings():
    records = [{"review": LONG, "reviews": [LONG[:60], LONG[20:90]], "tags": ["Thai", "cheap"], "name": "Basil"}] * 3
    flags = {c.name: c.free_text for c in infer_columns(records)}
    assert flags == {"review": True, "reviews": True, "tags": False, "name": False}


def test_infer_columns_only_reads_the_sample():
    records = [{"n": "1"}] * 5 + [{"n": "oops"}]
    assert types_of(infer_columns(iter(records), sample=5)) == {"n": "int"}
    assert types_of(infer_columns(iter(records), sample=None)) == {"n": "text"}


# -- CSV import ----------------------------------------------------------------


def test_csv_import_stores_typed_values_and_metadata(tmp_path):
    path = write_csv(tmp_path / "r.csv", HEADER + ["opened", "note"], [
        [1, "Basil", "Palo Alto", '["Thai","Chinese"]', "4.5", "yes", "2015-04-01", ""],
        [2, "Roma", "Oakland", '["Italian"]', "3", "no", "", "quiet"],
    ])
    db = tmp_path / "kb.sqlite"
    report = import_file(db, path, "restaurants")
    assert report.rows == 2 and report.table == "restaurants" and report.fts_table is None
    assert types_of(report.columns) == {
        "id": "int", "name": "text", "city": "text", "cuisines": "list", "rating": "float",
        "has_patio": "bool", "opened": "date", "note": "text",
    }
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT id, cuisines, rating, has_patio, opened, note FROM restaurants ORDER BY id").fetchall()
    assert rows == [(1, '["Thai","Chinese"]', 4.5, 1, "2015-04-01", None), (2, '["Italian"]', 3.0, 0, None, "quiet")]
    meta = conn.execute("SELECT column_name, type, free_text FROM _genie_columns ORDER BY position").fetchall()
    assert meta[3] == ("cuisines", "list", 0)
    conn.close()


def test_column_type_override_and_its_error_names_row_and_column(tmp_path):
    rows = restaurant_rows(20, bad_row=17)
    path = write_csv(tmp_path / "r.csv", HEADER, rows)
    db = tmp_path / "kb.sqlite"
    with pytest.raises(StorageError) as info:
        import_file(db, path, "restaurants", column_types={"rating": "float"})
    err = info.value
    assert err.message == "row 17, column 'rating': 'abc' is not a float"
    assert err.context["row"] == 17 and err.context["column"] == "rating" and err.context["line"] == 18
    assert err.context["file"] == str(path)
    report = import_file(db, path, "as_text")  # inferred: the bad cell makes the column text
    assert types_of(report.columns)["rating"] == "text"
    report = import_file(db, path, "as_override", column_types={"id": "text", "has_patio": "text"})
    assert types_of(report.columns)["id"] == "text"
    assert sqlite3.connect(db).execute("SELECT typeof(id) FROM as_override LIMIT 1").fetchone() == ("text",)


def test_bad_overrides_are_rejected(tmp_path):
    path = write_csv(tmp_path / "r.csv", HEADER, restaurant_rows(3))
    with pytest.raises(StorageError, match="unknown column type 'money'"):
        import_file(tmp_path / "kb.sqlite", path, "t", column_types={"rating": "money"})
    with pytest.raises(StorageError, match="not in the data: 'nope'"):
        import_file(tmp_path / "kb.sqlite", path, "t", column_types={"nope": "int"})
    with pytest.raises(StorageError, match="must be text or list, not float"):
        import_file(tmp_path / "kb.sqlite", path, "t", free_text=["rating"])


def test_list_column_is_queryable_with_json_each(tmp_path):
    path = write_csv(tmp_path / "r.csv", HEADER, restaurant_rows(30))
    db = tmp_path / "kb.sqlite"
    import_file(db, path, "restaurants")
    with SQLiteKB(db) as kb:
        result = kb.execute(
            "SELECT id, cuisines FROM restaurants AS r WHERE EXISTS "
            "(SELECT 1 FROM json_each(r.cuisines) WHERE value = 'Thai') ORDER BY id"
        )
    assert [row["id"] for row in result.rows] == list(range(3, 31, 3))
    assert result.rows[0]["cuisines"] == ["Thai", "Chinese"]


def test_free_text_columns_get_a_porter_fts5_index_ranked_by_bm25(tmp_path):
    records = [
        {"name": "Candle House", "review": "Candles on every table. " + LONG},
        {"name": "Loud Diner", "review": "A busy diner with a loud jukebox. " + LONG},
        {"name": "Glow", "review": "They light a candle for each guest; candles everywhere, candle-lit booths. " + LONG},
    ]
    db = tmp_path / "kb.sqlite"
    report = import_records(db, records, "places")
    assert report.fts_table == "places_fts"
    with SQLiteKB(db) as kb:
        result = kb.execute(
            "SELECT p.name FROM places_fts JOIN places AS p ON p.rowid = places_fts.rowid "
            "WHERE places_fts MATCH 'candle' ORDER BY bm25(places_fts)"
        )
    assert [r["name"] for r in result.rows] == ["Glow", "Candle House"]  # porter: candles -> candle


def test_list_of_text_is_indexed_flattened(tmp_path):
    records = [
        {"name": "A", "reviews": ["Superb dumplings and friendly staff, we will return soon.", LONG]},
        {"name": "B", "reviews": ["Terrible parking but the tacos were worth the trouble.", LONG]},
    ]
    db = tmp_path / "kb.sqlite"
    import_records(db, records, "places", free_text=["reviews"])
    with SQLiteKB(db) as kb:
        rows = kb.execute(
            "SELECT p.name, snippet(places_fts, 0, '[', ']', '...', 4) AS s FROM places_fts "
            "JOIN places AS p ON p.rowid = places_fts.rowid WHERE places_fts MATCH 'dumpling'"
        ).rows
    assert [r["name"] for r in rows] == ["A"]
    assert "[dumplings]" in rows[0]["s"] and '"' not in rows[0]["s"]  # indexed as text, not JSON


def test_progress_is_reported_every_thousand_rows(tmp_path):
    path = write_csv(tmp_path / "r.csv", HEADER, restaurant_rows(2500))
    calls = []
    import_file(tmp_path / "kb.sqlite", path, "restaurants", progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1000, 2500), (2000, 2500), (2500, 2500)]
    calls.clear()
    records = ({"n": i} for i in range(1500))
    import_records(tmp_path / "kb.sqlite", records, "numbers", progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1000, None), (1500, None)]


# -- transactions ------------------------------------------------------------------


def test_a_bad_row_leaves_the_database_exactly_as_it_was(tmp_path):
    db = tmp_path / "kb.sqlite"
    import_file(db, write_csv(tmp_path / "ok.csv", HEADER, restaurant_rows(50)), "restaurants")
    before = dump(db)
    bad = write_csv(tmp_path / "bad.csv", HEADER, restaurant_rows(1000, bad_row=500))
    with pytest.raises(StorageError, match="row 500, column 'rating'"):
        import_file(db, bad, "restaurants", replace=True, column_types={"rating": "float"})
    with pytest.raises(StorageError, match="row 500, column 'rating'"):
        import_file(db, bad, "other", column_types={"rating": "float"})
    assert dump(db) == before
    with SQLiteKB(db) as kb:
        assert set(kb.tables()) == {"restaurants"}
        assert kb.tables()["restaurants"].row_count == 50


def test_a_failed_first_import_leaves_no_database_file(tmp_path):
    db = tmp_path / "kb.sqlite"
    bad = write_csv(tmp_path / "bad.csv", HEADER, restaurant_rows(10, bad_row=5))
    with pytest.raises(StorageError):
        import_file(db, bad, "restaurants", column_types={"rating": "float"})
    assert not db.exists()


def test_existing_table_needs_replace(tmp_path):
    db = tmp_path / "kb.sqlite"
    path = write_csv(tmp_path / "r.csv", HEADER, restaurant_rows(5))
    import_file(db, path, "restaurants")
    with pytest.raises(StorageError, match="pass replace=True"):
        import_file(db, path, "restaurants")
    records = [{"name": "Only", "review": LONG}]
    report = import_records(db, records, "restaurants", replace=True)
    assert report.rows == 1 and report.fts_table == "restaurants_fts"
    with SQLiteKB(db) as kb:
        info = kb.tables()["restaurants"]
        assert [c.name for c in info.columns] == ["name", "review"] and info.row_count == 1
        assert kb.execute("SELECT rowid FROM restaurants_fts WHERE restaurants_fts MATCH 'curry'").rows == [{"rowid": 1}]
    with pytest.raises(StorageError, match="'restaurants' already exists"):
        import_records(db, [{"name": "Plain"}], "Restaurants")
    assert import_records(db, [{"name": "Plain"}], "Restaurants", replace=True).fts_table is None
    with SQLiteKB(db) as kb:
        assert set(kb.tables()) == {"Restaurants"}
        assert kb.tables()["Restaurants"].fts_table is None
        assert kb.execute("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'restaurants_fts%'").rows == [{"n": 0}]


@pytest.mark.parametrize("name", ["", "1abc", "a-b", "sqlite_stat", "_genie_columns", "reviews_fts", "a b"])
def test_reserved_or_odd_table_names_are_refused(tmp_path, name):
    with pytest.raises(StorageError, match="table name"):
        import_records(tmp_path / "kb.sqlite", [{"a": 1}], name)


# -- bad files ------------------------------------------------------------------------


def test_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"name,city\nCafe,Paris\nCr\xe8me,Lyon\n")
    with pytest.raises(StorageError, match="line 3 is not UTF-8") as info:
        import_file(tmp_path / "kb.sqlite", path, "t")
    assert info.value.context["line"] == 3


def test_utf8_with_bom_and_non_ascii_text_is_fine(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes("\ufeffname,city\nCafé Crème,Zürich\n".encode())
    db = tmp_path / "kb.sqlite"
    report = import_file(db, path, "t")
    assert [c.name for c in report.columns] == ["name", "city"]
    assert sqlite3.connect(db).execute("SELECT name FROM t").fetchone() == ("Café Crème",)


def test_ragged_csv_row(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("a,b,c\n1,2,3\n4,5\n", encoding="utf-8")
    with pytest.raises(StorageError, match="row 2 has 2 fields but the header has 3") as info:
        import_file(tmp_path / "kb.sqlite", path, "t")
    assert info.value.context["row"] == 2 and info.value.context["line"] == 3


def test_duplicate_or_reserved_csv_headers(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("a,b,a\n1,2,3\n", encoding="utf-8")
    with pytest.raises(StorageError, match="'a' appears twice"):
        import_file(tmp_path / "kb.sqlite", path, "t")
    path.write_text("rowid,b\n1,2\n", encoding="utf-8")
    with pytest.raises(StorageError, match="reserved"):
        import_file(tmp_path / "kb.sqlite", path, "t")


def test_invalid_jsonl_names_the_line(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"a": 1}\n\n{"a": 2}\n{"a": 3,}\n', encoding="utf-8")
    with pytest.raises(StorageError, match="invalid JSON at line 4") as info:
        import_file(tmp_path / "kb.sqlite", path, "t")
    assert info.value.context["line"] == 4
    path.write_text('{"a": 1}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(StorageError, match="line 2 is a JSON array, not an object"):
        import_file(tmp_path / "kb.sqlite", path, "t")


def test_json_that_is_not_a_list_of_objects(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"rows": []}', encoding="utf-8")
    with pytest.raises(StorageError, match="array of objects, not a JSON object"):
        import_file(tmp_path / "kb.sqlite", path, "t")
    path.write_text('[{"a": 1}, "two"]', encoding="utf-8")
    with pytest.raises(StorageError, match="item 2 of the array is a JSON string") as info:
        import_file(tmp_path / "kb.sqlite", path, "t")
    assert info.value.context["row"] == 2
    path.write_text('[{"a": 1},\n {"a": 2]', encoding="utf-8")
    with pytest.raises(StorageError, match="invalid JSON at line 2"):
        import_file(tmp_path / "kb.sqlite", path, "t")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("e.csv", "", "empty"),
        ("e.json", "  \n", "empty"),
        ("e.jsonl", "\n\n", "empty"),
        ("h.csv", "a,b\n", "no rows"),
        ("a.json", "[]", "no rows"),
    ],
)
def test_empty_files(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(StorageError, match=message):
        import_file(tmp_path / "kb.sqlite", path, "t")
    assert not (tmp_path / "kb.sqlite").exists()


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(StorageError, match="file not found"):
        import_file(tmp_path / "kb.sqlite", tmp_path / "nope.csv", "t")
    path = tmp_path / "data.txt"
    path.write_text("a\n1\n", encoding="utf-8")
    with pytest.raises(StorageError, match="cannot tell the format"):
        import_file(tmp_path / "kb.sqlite", path, "t")
    assert import_file(tmp_path / "kb.sqlite", path, "t", fmt="csv").rows == 1


# -- JSON, JSONL and records ------------------------------------------------------------


def test_json_and_jsonl_keep_native_types(tmp_path):
    records = [
        {"name": "A", "cuisines": ["Thai"], "open": True, "rating": 4, "extra": {"k": "v"}},
        {"name": "B", "cuisines": [], "open": False, "rating": 3.5, "extra": None, "late": "2024-01-02"},
    ]
    (tmp_path / "r.json").write_text(json.dumps(records), encoding="utf-8")
    (tmp_path / "r.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    db = tmp_path / "kb.sqlite"
    for table, file in [("from_json", "r.json"), ("from_jsonl", "r.jsonl")]:
        report = import_file(db, tmp_path / file, table)
        assert types_of(report.columns) == {
            "name": "text", "cuisines": "list", "open": "bool", "rating": "float", "extra": "text", "late": "date",
        }
    with SQLiteKB(db) as kb:
        rows = kb.execute("SELECT * FROM from_jsonl ORDER BY name").rows
    assert rows == [
        {"name": "A", "cuisines": ["Thai"], "open": True, "rating": 4.0, "extra": '{"k": "v"}', "late": None},
        {"name": "B", "cuisines": [], "open": False, "rating": 3.5, "extra": None, "late": "2024-01-02"},
    ]


def test_records_from_a_generator_are_checked_after_the_sample(tmp_path):
    db = tmp_path / "kb.sqlite"

    def rows(bad: dict):
        for i in range(1, 11):
            yield bad if i == 8 else {"n": i}

    with pytest.raises(StorageError, match="row 8, column 'n': 'x' is not an int"):
        import_records(db, rows({"n": "x"}), "t", sample=5)
    with pytest.raises(StorageError, match="row 8 has a column 'm'"):
        import_records(db, rows({"n": 1, "m": 2}), "t", sample=5)
    with pytest.raises(StorageError, match="row 2 is a str, not a dict"):
        import_records(db, [{"n": 1}, "oops"], "t")
    with pytest.raises(StorageError, match="no records"):
        import_records(db, iter([]), "t")
    assert not db.exists()


def test_override_bool_accepts_common_spellings_and_rejects_others(tmp_path):
    db = tmp_path / "kb.sqlite"
    records = [{"f": v} for v in ["Y", "n", "TRUE", "0", "1", " yes "]]
    import_records(db, records, "flags", column_types={"f": "bool"})
    assert [r[0] for r in sqlite3.connect(db).execute("SELECT f FROM flags ORDER BY rowid")] == [1, 0, 1, 0, 1, 1]
    with pytest.raises(StorageError, match="row 2, column 'f': 'maybe' is not a boolean"):
        import_records(db, [{"f": "yes"}, {"f": "maybe"}], "flags2", column_types={"f": "bool"})


# -- documents ----------------------------------------------------------------------------


def test_chunk_text_cuts_at_sentence_ends_with_overlap():
    sentences = [f"Sentence number {i} talks about topic {i % 7}." for i in range(60)]
    text = " ".join(sentences)
    chunks = chunk_text(text, chunk_chars=200, overlap=50)
    assert len(chunks) > 5
    assert all(len(c) <= 200 for c in chunks)
    assert all(c.endswith(".") for c in chunks)
    for first, second in zip(chunks, chunks[1:]):
        assert second.split()[0] in first.split()[-12:]  # the next chunk starts inside the previous tail
    assert chunk_text("   ") == []
    assert chunk_text("short text") == ["short text"]


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=12), min_size=1, max_size=300),
    size=st.integers(min_value=20, max_value=300),
    data=st.data(),
)
def test_chunk_text_covers_every_word_within_the_size(words, size, data):
    overlap = data.draw(st.integers(min_value=0, max_value=size - 1))
    text = " ".join(words)
    chunks = chunk_text(text, chunk_chars=size, overlap=overlap)
    assert all(0 < len(c) <= size for c in chunks)
    joined = " ".join(chunks).split()
    if all(len(w) < size // 2 for w in words):  # words never need a hard cut
        assert set(words) <= set(joined)


def test_import_documents_chunks_and_indexes_articles(tmp_path):
    body = " ".join(f"Paragraph {i} explains the refund policy for order type {i}." for i in range(40))
    documents = [
        {"id": "faq-1", "title": "Refunds", "text": body},
        {"title": "Shipping", "text": "Parcels ship within two days. Express shipping costs extra."},
    ]
    db = tmp_path / "kb.sqlite"
    report = import_documents(db, documents, "articles", chunk_chars=300, overlap=60)
    assert report.fts_table == "articles_fts"
    assert types_of(report.columns) == {"doc_id": "text", "title": "text", "chunk_index": "int", "text": "text"}
    with SQLiteKB(db) as kb:
        chunks = kb.execute("SELECT doc_id, chunk_index, text FROM articles ORDER BY rowid", max_rows=1000).rows
        assert report.rows == len(chunks) > 5
        assert {c["doc_id"] for c in chunks} == {"faq-1", "2"}
        assert [c["chunk_index"] for c in chunks if c["doc_id"] == "faq-1"] == list(range(report.rows - 1))
        hits = kb.execute(
            "SELECT a.doc_id FROM articles_fts JOIN articles AS a ON a.rowid = articles_fts.rowid "
            "WHERE articles_fts MATCH 'parcel' ORDER BY bm25(articles_fts)"
        ).rows
        assert hits == [{"doc_id": "2"}]
        assert kb.execute("SELECT count(*) AS n FROM articles_fts WHERE articles_fts MATCH 'title:shipping'").rows == [{"n": 1}]


def test_import_documents_rejects_bad_documents(tmp_path):
    db = tmp_path / "kb.sqlite"
    with pytest.raises(StorageError, match="document 2 has no 'text' text"):
        import_documents(db, [{"text": "ok"}, {"body": "no"}], "articles")
    with pytest.raises(StorageError, match="overlap"):
        import_documents(db, [{"text": "ok"}], "articles", chunk_chars=100, overlap=100)
    assert not db.exists()


@pytest.mark.parametrize("name, element", [
    ("cuisines", "Thai"),  # a lookup table: its fill finds the bad cell
    ("reviews", "A long review of the place, long enough to count as free text by itself."),  # the FTS fill
    ("cuisine list", "Thai"),  # no lookup table (not a plain name): checked after the insert
])
def test_a_list_cell_that_is_not_json_past_the_sample_makes_the_column_text(tmp_path, name, element):
    path = tmp_path / "lists.csv"
    rows = [["id", name]] + [[i, json.dumps([element, f"{element} {i}"])] for i in range(1, 3001)]
    rows[2500][1] = f"[{element}]"  # brackets, but not JSON
    with path.open("w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    db = tmp_path / "kb.sqlite"
    report = import_file(db, path, "t")
    assert {c.name: c.type for c in report.columns}[name] == "text"
    conn = sqlite3.connect(db)
    assert conn.execute(f'SELECT "{name}" FROM t WHERE id = 2500').fetchone() == (f"[{element}]",)
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 't__cuisines'").fetchone() == (0,)
    conn.close()


# -- checks after the sample ---------------------------------------------------------


def test_an_error_after_the_sample_names_row_and_column_and_changes_nothing(tmp_path):
    db = tmp_path / "kb.sqlite"
    bad = write_csv(tmp_path / "bad.csv", HEADER, restaurant_rows(3000, bad_row=2345))
    with pytest.raises(StorageError, match="row 2345, column 'rating': 'abc' is not a float"):
        import_file(db, bad, "restaurants", column_types={"rating": "float"})
    assert not db.exists()  # a failed first import leaves no file
    import_file(db, write_csv(tmp_path / "ok.csv", HEADER, restaurant_rows(50)), "restaurants")
    before = dump(db)
    for table, replace in (("restaurants", True), ("other", False)):
        with pytest.raises(StorageError, match="row 2345, column 'rating'") as caught:
            import_file(db, bad, table, replace=replace, column_types={"rating": "float"})
        assert caught.value.context["row"] == 2345 and caught.value.context["column"] == "rating"
    assert dump(db) == before


@pytest.mark.parametrize("late, typ, stored, next_row", [
    ("007", "text", "007", "2501"),  # a leading zero is not an int by the rules of inference (a zip code)
    ("1\n2", "text", "1\n2", "2501"),  # a line break inside a quoted cell
    ("1" * 19, "float", float("1" * 19), 2501.0),  # past the 18 digits inference calls an int
    ("12.5", "float", 12.5, 2501.0),
])
def test_an_int_that_does_not_fit_after_the_sample_retypes_the_column(tmp_path, late, typ, stored, next_row):
    rows = [[i, f"Place {i}"] for i in range(1, 3001)]
    rows[2499][0] = late
    db = tmp_path / "kb.sqlite"
    report = import_file(db, write_csv(tmp_path / "n.csv", ["n", "name"], rows), "t")
    assert types_of(report.columns)["n"] == typ and report.rows == 3000
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT n FROM t WHERE name = 'Place 2500'").fetchone() == (stored,)
    assert conn.execute("SELECT n FROM t WHERE name = 'Place 2501'").fetchone() == (next_row,)
    conn.close()


_CELL = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.dates().map(lambda d: d.isoformat()),
    st.sampled_from(["2024-02-30", "007", "+5", "1e5", ".5", "5.", "yes", "No", "[1]", '["a", "b"]', "[x]",
                     " 5", "5 ", "1\n2", "[1]\n", "", " ", "1_000", "\u0663", "0x10", "-0"]),
    st.text(max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_CELL, min_size=1, max_size=12), st.sampled_from(["int", "float", "bool", "date", "list", "text"]))
def test_the_batch_check_agrees_with_the_rules_of_inference(values, typ):
    """convert_sampled checks a CSV batch in one regex match; it must accept exactly what
    inference accepts for clean cells, and store what the value-by-value path stores."""
    from storage.kb.values import ColumnGuess, convert_column, convert_sampled

    fast = convert_sampled(values, typ, strings=True)
    guess = ColumnGuess()
    guess.candidates = [typ] if typ != "text" else []
    guess.add_batch(values)
    fits = typ == "text" or bool(guess.candidates)
    if fast is not None:
        assert fits
        assert fast == convert_column(values, typ, checked=True)
    clean = all(v and v == v.strip() and "\n" not in v for v in values)
    if fits and clean and typ != "list":
        assert fast is not None


def test_a_new_kb_file_gets_larger_pages_and_an_existing_one_keeps_its_own(tmp_path):
    from storage.kb.importer import NEW_FILE_PAGE_SIZE

    path = write_csv(tmp_path / "r.csv", HEADER, restaurant_rows(20))
    new = tmp_path / "new.sqlite"
    import_file(new, path, "restaurants")
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE notes (n)")
    conn.commit()
    conn.close()
    import_file(old, path, "restaurants")
    sizes = {}
    for db in (new, old):
        conn = sqlite3.connect(db)
        sizes[db.name] = conn.execute("PRAGMA page_size").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM restaurants").fetchone() == (20,)
        conn.close()
    assert sizes == {"new.sqlite": NEW_FILE_PAGE_SIZE, "old.sqlite": 4096}
