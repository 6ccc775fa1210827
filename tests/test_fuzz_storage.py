"""Fuzzing the project store: saves of mutated specs, odd names, settings, files, tests, and
garbage files offered as projects or bundles.

Every operation either succeeds and reads back exactly, or raises a clear `GenieError`
and leaves what was saved as it was: the versions, the latest spec, the settings, the
files and the tests of the project, and the other projects of the workspace.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core_engine import GenieError, Spec
from core_engine.loaders import loads_spec
from storage import Workspace
from tests.fuzz_profile import fuzz
from tests.robustness import SAMPLES_DIR, assert_clear_error, assert_turn_sound
from tests.test_fuzz_specs import HOSTILE_TEXT, JSON_VALUES, mutated_spec


def saved(project: Any) -> dict[str, Any]:
    """Everything a user saved in a project, as plain data."""
    return {"versions": [(v.number, v.spec_hash, v.message) for v in project.versions()],
            "spec": project.spec().model_dump(mode="json"), "settings": project.settings(),
            "files": project.files(), "tests": project.tests(), "kb": project.kb_tables()}


@pytest.fixture
def workspace() -> Iterator[Workspace]:
    """A workspace with the bank sample as project "bank", for one test (all its examples)."""
    with tempfile.TemporaryDirectory(prefix="genie-fuzz-ws-") as tmp:
        ws = Workspace(Path(tmp) / "ws")
        ws.from_sample(SAMPLES_DIR / "bank_fraud", "bank").close()
        yield ws


def attempt(project: Any, action: Any) -> bool:
    """Run `action`; True if it succeeded. A failure must be clear and change nothing saved."""
    before = saved(project)
    try:
        action()
    except GenieError as exc:
        assert_clear_error(exc)
        assert saved(project) == before, "a refused change altered the saved project"
        return False
    return True


@fuzz(30)
@given(mutated_spec(), st.text(max_size=40))
def test_saving_mutated_specs(workspace: Workspace, data: dict[str, Any], message: str) -> None:
    with workspace.open("bank") as project:
        head = project.head()
        if not attempt(project, lambda: project.save_spec(data, message)):
            return
        new_head = project.head()
        expected = loads_spec(json.dumps(data), "json")
        if new_head.number == head.number:  # an unchanged spec adds no version
            assert project.spec(head.number) == expected
        else:
            assert new_head.number == head.number + 1 and project.spec() == expected
        restored = project.restore(head.number)
        assert project.spec(restored.number) == project.spec(head.number)
    with workspace.open("bank") as again:  # what was written reads back from disk
        assert again.head().number >= new_head.number


NAMES = st.one_of(st.text(max_size=90), st.sampled_from([
    "", " ", ".", "..", "../escape", "a/b", "a\\b", "/abs", "C:\\x", "con", "x" * 81, "x" * 80, "ok name",
    "ok.name", "ok-name_1", "trailing.", "trailing ", ".hidden", "ünï", "名前", "\x00", "a\nb", "bank"]))


@fuzz(40)
@given(NAMES)
def test_project_names_are_valid_or_refused(workspace: Workspace, name: str) -> None:
    before = {p.name for p in workspace.root.iterdir()}
    listed = [i.name for i in workspace.list()]
    try:
        project = workspace.create(name, Spec.model_validate({"name": "x", "worksheets": [{"name": "Main"}]}))
    except GenieError as exc:
        assert_clear_error(exc)
        assert {p.name for p in workspace.root.iterdir()} == before
        assert [i.name for i in workspace.list()] == listed
        return
    with project:
        assert project.path.parent.resolve() == workspace.root.resolve()  # no path escapes the workspace
        assert workspace.exists(name) and project.name == name
    workspace.delete(name)
    assert not workspace.exists(name)


SETTING_KEYS = st.one_of(st.text(max_size=12), st.sampled_from(["api_key", "OPENAI_API_KEY", "secret", "token",
                                                                 "model", "parser", "rg", "temperature"]))


@fuzz(40)
@given(st.dictionaries(SETTING_KEYS, JSON_VALUES, max_size=4))
def test_settings_round_trip_or_are_refused(workspace: Workspace, values: dict[str, Any]) -> None:
    with workspace.open("bank") as project:
        if attempt(project, lambda: project.set_settings(values)):
            stored = project.settings()
            for key, value in values.items():
                if value is None:
                    assert key not in stored
                else:
                    assert stored[key] == json.loads(json.dumps(value))
            for key, value in values.items():  # a secret is never stored (clearing one is fine)
                assert value in (None, "", False) or not any(w in key.lower() for w in ("key", "secret", "token"))


FILE_PATHS = st.one_of(st.text(max_size=20), st.sampled_from([
    "api.py", "few_shots.json", "prompts/parser.jinja2", "prompts/../../etc/passwd", "../api.py", "/etc/passwd",
    "prompts/.hidden.jinja2", "prompts/x.py", "prompts\\rg.jinja2", "spec.json", "kb.sqlite"]))
FILE_TEXT = st.one_of(st.text(max_size=60), st.sampled_from(HOSTILE_TEXT), st.sampled_from([
    "[]", "[{\"user\": \"hi\", \"statements\": \"x\"}]", "{}", "def f(:", "import os\n", "{{ 7*7 }}", "{% for %}"]))


@fuzz(40)
@given(FILE_PATHS, FILE_TEXT)
def test_project_files_round_trip_or_are_refused(workspace: Workspace, path: str, text: str) -> None:
    with workspace.open("bank") as project:
        if attempt(project, lambda: project.put_file(path, text)):
            stored = project.files()
            assert text in stored.values()
            assert all(p in ("api.py", "few_shots.json") or p.startswith("prompts/") for p in stored)
            for p in list(stored):
                project.delete_file(p)


TESTS = st.one_of(JSON_VALUES, st.fixed_dictionaries({"turns": st.lists(st.one_of(
    st.fixed_dictionaries({"user": st.text(max_size=20)}), JSON_VALUES), max_size=3)}))


@fuzz(30)
@given(st.one_of(st.text(max_size=30), st.sampled_from(["../x", "a/b", ".x", "ok"])), TESTS)
def test_conversation_tests_round_trip_or_are_refused(workspace: Workspace, name: str, test: Any) -> None:
    with workspace.open("bank") as project:
        if attempt(project, lambda: project.put_test(name, test)):
            assert project.tests()[name] == json.loads(json.dumps(test))
            project.delete_test(name)


@fuzz(25)
@given(st.binary(max_size=600), st.sampled_from([".genieproj", ".genie", ".json", ".csv", ".jsonl", ""]),
       st.booleans())
def test_garbage_files_are_refused_as_projects_and_bundles(workspace: Workspace, data: bytes, suffix: str,
                                                           sqlite_header: bool) -> None:
    listed = [(i.name, i.versions) for i in workspace.list()]
    with workspace.open("bank") as project:
        before = saved(project)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / f"upload{suffix}"
        src.write_bytes((b"SQLite format 3\x00" if sqlite_header else b"") + data)
        try:
            imported = workspace.import_path(src, "upload")
        except GenieError as exc:
            assert_clear_error(exc)
            assert [(i.name, i.versions) for i in workspace.list()] == listed
        else:
            with imported:
                assert imported.spec() is not None
            workspace.delete("upload")
    with workspace.open("bank") as project:
        assert saved(project) == before


def test_a_damaged_project_in_the_workspace_is_listed_with_its_error(workspace: Workspace) -> None:
    bad = workspace.root / "broken.genieproj"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    try:
        info = {i.name: i for i in workspace.list()}["broken"]
        assert info.error
        with pytest.raises(GenieError):
            workspace.open("broken")
        with workspace.open("bank") as project:
            assert_turn_sound(project.agent().new_session(parser="offline").turn("hello"))
    finally:
        bad.unlink()


def test_a_project_with_a_wrecked_table_fails_clearly(workspace: Workspace, tmp_path: Path) -> None:
    """Someone edited the file with another tool and dropped the versions table."""
    copy = tmp_path / "copy.genieproj"
    copy.write_bytes(workspace.path_of("bank").read_bytes())
    con = sqlite3.connect(copy)
    con.execute("DROP TABLE _genie_versions")
    con.commit()
    con.close()
    with pytest.raises(GenieError) as err:
        workspace.import_path(copy, "wrecked")
    assert_clear_error(err.value)
    assert not workspace.exists("wrecked")
