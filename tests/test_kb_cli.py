"""`genie kb import/query/build`: the CLI path and the Python API agree."""

import io
import json
import shutil
from pathlib import Path

from core_engine.cli import main
from core_engine.knowledge.kb import SQLiteKB

ROOT = Path(__file__).resolve().parents[1]


def run(args):
    out = io.StringIO()
    return main(args, out=out), out.getvalue()


def test_kb_import_then_query(tmp_path, capsys):
    csv = tmp_path / "shops.csv"
    csv.write_text("name,city,rating\nA,Palo Alto,4.5\nB,Sunnyvale,3.0\n")
    code, out = run(["kb", "import", str(tmp_path), str(csv), "--table", "shops"])
    assert code == 0 and "imported 2 rows into 'shops'" in out
    kb = SQLiteKB(tmp_path / "kb.sqlite")
    assert [c.type for c in kb.tables()["shops"].columns] == ["text", "text", "float"]
    kb.close()
    code, out = run(["kb", "query", str(tmp_path), "SELECT name FROM shops WHERE rating > 4"])
    assert code == 0 and [json.loads(x) for x in out.splitlines()] == [{"name": "A"}]
    # importing again without --replace is refused and the data stays
    code, _ = run(["kb", "import", str(tmp_path), str(csv), "--table", "shops"])
    assert code == 2 and "replace" in capsys.readouterr().err


def test_kb_query_refuses_writes(tmp_path, capsys):
    csv = tmp_path / "t.csv"
    csv.write_text("x\n1\n")
    run(["kb", "import", str(tmp_path), str(csv), "--table", "t"])
    code, _ = run(["kb", "query", str(tmp_path), "DELETE FROM t"])
    assert code == 2 and "error" in capsys.readouterr().err
    code, out = run(["kb", "query", str(tmp_path), "SELECT count(*) AS n FROM t"])
    assert json.loads(out.splitlines()[0]) == {"n": 1}


def test_kb_build_and_restaurant_sample_runs_end_to_end(tmp_path):
    project = tmp_path / "restaurant_reservation"
    shutil.copytree(ROOT / "sample_projects" / "restaurant_reservation", project,
                    ignore=shutil.ignore_patterns("kb.sqlite"))
    code, out = run(["kb", "build", str(project)])
    assert code == 0 and (project / "kb.sqlite").is_file()
    code, out = run(["test", str(project)])
    assert code == 0, out


def test_kb_derive_worksheets_from_table(tmp_path):
    rows = [{"id": str(i), "name": f"R{i}", "price": ["cheap", "moderate"][i % 2], "rating": 3.5 + i % 2,
             "cuisines": ["Thai"], "reviews": ["A long review about the patio and the romantic mood " * 3]}
            for i in range(10)]
    data = tmp_path / "r.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert run(["kb", "import", str(tmp_path), str(data), "--table", "restaurants"])[0] == 0
    code, out = run(["kb", "derive", str(tmp_path), "--table", "restaurants", "--type", "Restaurant"])
    assert code == 0
    kb_ws, row_type = json.loads(out)
    fields = {f["name"]: f for f in kb_ws["fields"]}
    assert kb_ws["kind"] == "kb" and row_type["kind"] == "type"
    assert fields["price"]["type"] == "Enum" and [e["value"] for e in fields["price"]["enum_values"]] == ["cheap", "moderate"]
    assert fields["rating"]["type"] == "float" and fields["cuisines"]["type"] == "List[str]"
    assert fields["name"]["type"] == "str"  # ten distinct names: not an enum
    assert fields["reviews"]["free_text"] and "reviews" not in {f["name"] for f in row_type["fields"]}
    assert fields["id"]["primary_key"]
    code, _ = run(["kb", "derive", str(tmp_path), "--table", "nope"])
    assert code == 2
