"""What a session's first KB question costs is paid when the session starts (issue 17, session 29).

The columns' texts ("instructor names: Instructors", ...) are embedded once per spec and process for two
decisions of the knowledge parser (which table a wh-question asks about; which free words name a column).
They were embedded in the middle of the first question's turn: 150 of that turn's 187 ms on the course sample.
"""

import shutil
from pathlib import Path

from core_engine import Agent
from core_engine.embedding.semantic import get_embedder
from core_engine.knowledge import tables

SAMPLES = Path(__file__).resolve().parent.parent / "sample_projects"


def test_the_first_question_does_not_embed_the_columns(tmp_path, monkeypatch):
    project = tmp_path / "course_enrollment"
    shutil.copytree(SAMPLES / "course_enrollment", project, ignore=shutil.ignore_patterns("kb.sqlite*"))
    from storage.kb.samples import build_sample_kb
    build_sample_kb(project)
    monkeypatch.setattr(tables, "_CACHE", {})
    agent = Agent.load(project)
    session = agent.new_session(parser="offline")
    assert len(tables._CACHE) == 1, "the session's start embeds the columns"
    (columns, _vectors), = tables._CACHE.values()
    assert ("courses", "course_name") in columns or any(t == "courses" for t, _c in columns)

    embedder = get_embedder(agent.spec.settings.embedding_model)
    texts: list[str] = []
    real = embedder.encode
    monkeypatch.setattr(embedder, "encode", lambda batch, *a, **k: (texts.extend(batch), real(batch, *a, **k))[1])
    session.turn("Provide me details about CS108")
    result = session.turn("How does this class compare to CS124?")
    asked = session.current.kb_records()[-1]
    assert result.ok and asked.status == "done" and "CS124" in asked.query.replace(" ", "")
    column_texts = {t for t in texts if ":" in t and t.split(":")[0].replace(" ", "_") in {c for _t, c in columns}}
    assert not column_texts, f"the question embedded column texts again: {sorted(column_texts)[:3]}"
    assert len(tables._CACHE) == 1
