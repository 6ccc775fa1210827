"""Knowledge import gaps: delimiter detection and preview, split list columns, drop and rename tables."""

import io

import pytest

from core_engine.cli import main
from core_engine.errors import StorageError
from core_engine.knowledge.kb import SQLiteKB
from core_engine.spec.model import Spec
from storage import Workspace
from storage.kb.sniff import normalise, preview, sniff_delimiter
from storage.kb.tables import rename_table

SEMI = "name;services;price\nDr Lee;cleaning, implants;120\nDr Kim;braces;90\n".encode()


def test_semicolon_file_is_detected_previewed_and_split_into_a_list_column(tmp_path):
    assert sniff_delimiter(SEMI) == ";"
    assert sniff_delimiter(b"a,b\n1,2\n") == "," and sniff_delimiter(b"a\tb\n1\t2\n") == "\t"
    wrong = preview(SEMI, ",")
    assert len(wrong.columns) == 1  # what the user would have imported blind
    shown = preview(SEMI, ";", split={"services": ","})
    assert shown.columns == ["name", "services", "price"] and shown.total_rows == 2
    assert shown.rows[0]["services"] == ["cleaning", "implants"]
    with pytest.raises(StorageError, match="not a column"):
        preview(SEMI, ";", split={"nope": ","})
    project = Workspace(tmp_path).create("p", Spec())
    csv_path = tmp_path / "dentists.csv"
    csv_path.write_bytes(normalise(SEMI, ";", split={"services": ","}))
    project.import_kb(csv_path, "dentists")
    kb = SQLiteKB(project.kb_path())
    assert [c.type for c in kb.tables()["dentists"].columns] == ["text", "list", "int"]
    assert kb.execute("SELECT services FROM dentists WHERE name = 'Dr Lee'").rows[0]["services"] == [
        "cleaning", "implants"]
    kb.close()


def test_rename_and_drop_a_table_in_python_and_the_cli(tmp_path):
    project = Workspace(tmp_path).create("p", Spec())
    project.import_kb_records([{"name": "A", "about": "a long text about the place " * 3}], "junk")
    rename_table(project, "junk", "places")
    assert project.kb_tables() == ["places"]
    kb = SQLiteKB(project.kb_path())
    assert kb.execute("SELECT name FROM places").rows == [{"name": "A"}]
    kb.close()
    with pytest.raises(StorageError, match="no KB table"):
        rename_table(project, "junk", "x")
    path = str(project.path)
    project.close()
    out = io.StringIO()
    assert main(["kb", "rename", path, "places", "shops"], out=out) == 0 and "Renamed" in out.getvalue()
    assert main(["kb", "drop", path, "shops"], out=out) == 0
    assert Workspace(tmp_path).open("p").kb_tables() == []


def test_a_rename_moves_the_list_lookup_tables_too(tmp_path):
    """Left behind, `old__col` showed up as a KB table of its own and the list queries lost their index."""
    project = Workspace(tmp_path).create("p", Spec())
    project.import_kb_records([{"name": "A", "services": ["cleaning", "implants"]},
                               {"name": "B", "services": ["braces"]}], "junk")
    with SQLiteKB(project.kb_path()) as kb:
        assert kb.tables()["junk"].list_tables == ("services",)
    rename_table(project, "junk", "dentists")
    assert project.kb_tables() == ["dentists"]  # no stray `junk__services`
    with SQLiteKB(project.kb_path()) as kb:
        assert kb.tables()["dentists"].list_tables == ("services",)
        assert set(kb.tables()) == {"dentists"}
    project.drop_kb_table("dentists")
    with SQLiteKB(project.kb_path()) as kb:
        assert kb.tables() == {}
    names = {r[0] for r in project._store.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert not [n for n in names if n.startswith(("junk", "dentists"))]
