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


# An attack pass (session 14): another KB at the same path, a build holding every question, two processes.

def test_another_kb_put_at_the_same_path_does_not_get_the_old_ones_vectors(tmp_path, monkeypatch):
    monkeypatch.setenv("GENIE_CACHE_DIR", str(tmp_path / "vectors"))
    ws = Workspace(tmp_path / "ws")
    spec = Spec.model_validate({"name": "trails", "worksheets": [
        {"name": "Main", "kind": "task", "fields": [{"name": "x", "type": "str"}]}]})
    p = ws.create("trails", spec)
    p.import_kb_records(ROWS, "trails", free_text=["notes"])
    with SQLiteKB(p.kb_path()) as kb:
        first = kb_digest(kb)
    p.close()
    ws.delete("trails")
    p = ws.create("trails", spec)  # the same steps: the same schema cookie, maybe the freed inode
    p.import_kb_records([{**r, "notes": "A night tour with telescopes to watch the stars, planets and the moon."}
                         for r in ROWS], "trails", free_text=["notes"])
    try:
        with SQLiteKB(p.kb_path()) as kb:
            assert kb_digest(kb) != first
    finally:
        p.close()


def test_a_question_does_not_wait_for_a_table_another_thread_is_building(project):
    embedder = get_embedder(None)
    with SQLiteKB(project.kb_path()) as kb:
        index = vector_index(kb, embedder)
        index._building.add("trails")  # as a warm-up thread does while it embeds
        try:
            agent_kb_rule = {}
            from core_engine.knowledge.offline import OfflineKnowledgeParser
            spec = Spec.model_validate({"name": "trails", "worksheets": [
                {"name": "trails", "kind": "kb", "fields": [{"name": "name"}, {"name": "notes"}]}]})
            _, rules = OfflineKnowledgeParser().to_sql("a walk with shade where dogs are welcome", kb, spec)
            agent_kb_rule = next(r for r in rules if r["rule"] == "free_text")
            assert agent_kb_rule["vectors"].startswith("not used this time: they are being built")
            assert not index.built("trails")  # it did not build them itself
        finally:
            index._building.discard("trails")


def test_a_build_finished_by_another_process_meanwhile_is_not_built_again(project):
    """Two builders of one side file (two processes: separate objects and connections): the second waits for the
    write lock while the first embeds, and then must not drop the table and embed it all again."""
    import threading
    import time

    embedder = get_embedder(None)

    class Slow:
        name = embedder.name

        def encode(self, texts):
            time.sleep(1.0)
            return embedder.encode(texts)

    with SQLiteKB(project.kb_path()) as kb:
        path = vector_index(kb, embedder).path
        info = kb.tables()["trails"]
        first, second = type(vector_index(kb, embedder))(path), type(vector_index(kb, embedder))(path)
        counts = {}
        a = threading.Thread(target=lambda: counts.setdefault("a", first.build(kb, info, Slow())))
        a.start()
        time.sleep(0.3)  # the first holds the write lock and is embedding; the second has seen no vectors
        counts["b"] = second.build(kb, info, Slow())
        a.join(timeout=60)
        assert counts == {"a": len(ROWS), "b": 0}


def test_money_is_never_rounded_away():
    from core_engine.responders.rows import money_text
    assert money_text("day_rate", 270.0) == "270.00" and money_text("price", 32.9) == "32.90"
    assert money_text("exchange_rate", 0.0045) is None and money_text("dose_value", 0.004) is None
