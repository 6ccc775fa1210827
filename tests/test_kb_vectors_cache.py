"""The KB's text vectors are keyed by what they are made of, not by the file that holds them (session 13).

A project file holds its KB beside its versions, tests and conversation logs. Keyed by the whole file's hash, the
vectors were built again on the first free-text question after any write: every chat turn of the Playground is
logged, so the next question about reviews took about 30 s on the restaurant sample.
"""

import shutil

import pytest

from core_engine.embedding.semantic import get_embedder
from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.vectors import kb_digest, vector_index, warm_vectors
from core_engine.spec.model import Spec
from storage import Workspace

ROWS = [{"id": f"t{i}", "name": f"Trail {i}", "notes": f"A quiet walk number {i} past the old mill and the river, "
         "with benches, shade and a cafe at the top where dogs are welcome on a lead." * 2} for i in range(6)]


@pytest.fixture()
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("GENIE_CACHE_DIR", str(tmp_path / "vectors"))
    ws = Workspace(tmp_path / "ws")
    p = ws.create("trails", Spec.model_validate({"name": "trails", "worksheets": [
        {"name": "Main", "kind": "task", "fields": [{"name": "x", "type": "str"}]}]}))
    p.import_kb_records(ROWS, "trails", free_text=["notes"])
    yield p
    p.close()


def test_a_write_beside_the_kb_keeps_its_vectors(project):
    embedder = get_embedder(None)
    with SQLiteKB(project.kb_path()) as kb:
        before = kb_digest(kb)
        index = vector_index(kb, embedder)
        index.build(kb, kb.tables()["trails"], embedder)
    project.put_test("t", {"name": "t", "parser": "formal", "turns": [{"user": "x"}]})  # as a logged turn writes
    log = project.start_log(parser="offline", rg="template")
    del log
    with SQLiteKB(project.kb_path()) as kb:
        assert kb_digest(kb) == before
        assert vector_index(kb, embedder).built("trails")  # no rebuild


def test_a_replaced_table_gets_new_vectors_and_copies_share_them(project, tmp_path):
    copy = tmp_path / "copy.genieproj"
    shutil.copy(project.path, copy)
    with SQLiteKB(project.kb_path()) as kb, SQLiteKB(copy) as other:
        first = kb_digest(kb)
        assert kb_digest(other) == first  # the same content: one set of vectors for every copy
    project.import_kb_records([{**r, "notes": r["notes"].replace("river", "canal")} for r in ROWS], "trails",
                              free_text=["notes"], replace=True)
    with SQLiteKB(project.kb_path()) as kb:
        assert kb_digest(kb) != first


def test_warm_vectors_builds_them_in_the_background(project):
    thread = warm_vectors(project.kb_path())
    thread.join(timeout=120)
    with SQLiteKB(project.kb_path()) as kb:
        assert vector_index(kb, get_embedder(None)).built("trails")
