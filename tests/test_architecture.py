"""Layering and public-surface rules (STYLE.md): checked, not hoped for."""

import ast
import re
from pathlib import Path

import core_engine

ROOT = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_core_engine_never_imports_streamlit_or_storage():
    for path in (ROOT / "core_engine").rglob("*.py"):
        bad = imports_of(path) & {"streamlit", "storage", "studio", "components", "st_aggrid", "pyvis", "server"}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_server_imports_only_the_engine_and_storage():
    for path in (ROOT / "server").rglob("*.py"):
        bad = imports_of(path) & {"streamlit", "studio", "components", "st_aggrid", "pyvis"}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_no_exec_or_eval_calls_anywhere():
    for folder in ("core_engine", "storage", "server"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    assert node.func.id not in ("exec", "eval", "compile"), f"{path}:{node.lineno}"


def test_public_surface_is_pinned():
    assert sorted(core_engine.__all__) == sorted([
        "Agent", "Session", "TurnResult", "Spec", "Worksheet", "Field", "EnumValue", "Api", "Settings",
        "DialogueState", "TaskRecord", "KBRecord", "GenieError", "SpecError", "StatementError", "SandboxError",
        "PolicyError", "KnowledgeError", "BackendError", "StorageError", "__version__"])
    for name in core_engine.__all__:
        assert hasattr(core_engine, name)


def test_every_cli_command_is_documented_in_readme():
    from core_engine.cli import build_parser
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert re.search(rf"genie {name}\b", readme), f"`genie {name}` is not documented in README.md"


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "bash scripts/test.sh"
    assert command in readme and command in ci
