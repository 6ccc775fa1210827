"""`genie sessions`: served conversations listed, exported as `genie chat --jsonl` lines or a test,
and copied into a project file as a conversation log (where the Playground opens it)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from core_engine.cli import main as genie_main
from server import ServeOptions, create_app
from storage import ProjectFile, Workspace

ROOT = Path(__file__).resolve().parent.parent
BANK = ROOT / "sample_projects" / "bank_fraud"
TURNS = ["Someone stole my card", "Ana Ruiz", "123456789"]


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.delenv("GENIE_API_KEYS", raising=False)
    store = f"sqlite:///{tmp_path / 'sessions.db'}"
    with TestClient(create_app(ServeOptions(agent=str(BANK), store=store, today="2024-07-01"))) as c:
        sid = c.post("/v1/sessions", json={}).json()["session_id"]
        for text in TURNS:
            assert c.post(f"/v1/sessions/{sid}/turns", json={"text": text}).status_code == 200
    return store, sid


def genie(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return genie_main(list(argv), out=out), out.getvalue()


def test_list_and_export(served: tuple[str, str]) -> None:
    store, sid = served
    status, text = genie("sessions", "list", "--store", store)
    assert status == 0 and text.startswith(f"{sid}\t3 turn(s)")
    status, text = genie("sessions", "export", sid, "--store", store)
    lines = [json.loads(x) for x in text.splitlines()]
    assert [x["user"] for x in lines] == TURNS and {"turn", "acts", "state", "trace"} <= set(lines[0])
    status, text = genie("sessions", "export", sid, "--store", store, "--format", "test", "--name", "served",
                         "--today", "2024-07-01")
    test = json.loads(text)
    assert test["name"] == "served" and test["today"] == "2024-07-01" and len(test["turns"]) == 3
    assert genie("sessions", "export", "nope", "--store", store)[0] == 2
    assert genie("sessions", "export", "--store", store)[0] == 2


def test_export_into_a_project_log(served: tuple[str, str], tmp_path: Path) -> None:
    store, sid = served
    project = Workspace(tmp_path / "ws").from_sample(BANK)
    path = project.path
    project.close()
    status, text = genie("sessions", "export", sid, "--store", store, "--to-project", str(path))
    assert status == 0, text
    with ProjectFile(path) as p:
        info = p.logs()[0]
        assert info.turns == 3 and sid in info.title
        assert [t["user"] for t in p.open_log(info.id).turns()] == TURNS
