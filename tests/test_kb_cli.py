"""`genie kb import/query/build`: the CLI path and the Python API agree."""

import io
import json
import shutil
from pathlib import Path

from core_engine.cli import main
from core_engine.kb import SQLiteKB

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
