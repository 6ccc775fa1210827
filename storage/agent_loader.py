"""Running project files and bundles: the `genie.project_loaders` entry point.

``load(path)`` returns an engine ``Agent`` for a ``.genie`` bundle or a
``.genieproj`` project file (or a project name in the default workspace when no
such path exists), and None for anything else, so the engine falls back to its
own folder and spec-file loading.

The spec comes from the file's head version and the KB is the file itself
(SQLiteKB opens it read-only and hides the ``_genie_*`` tables). The engine
reads tests, prompts, few-shot examples and ``api.py`` from a folder, so those
are written once into a private cache folder named after their content hash
(``$GENIE_CACHE_DIR`` or ``<tmp>/genie-cache-<uid>``, mode 0700); a changed
project gets a new folder, an unchanged one reuses it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from core_engine.agent import Agent, load_api_module
from core_engine.errors import StorageError

from . import fileformat as ff
from .projects import ProjectFile, Workspace, check_name

__all__ = ["agent_for", "load", "materialize"]


def load(path: str | Path) -> Agent | None:
    p = Path(path)
    if p.is_file() and p.suffix in (ff.BUNDLE_SUFFIX, ff.PROJECT_SUFFIX):
        project = ProjectFile(p, readonly=p.suffix == ff.BUNDLE_SUFFIX)
        return agent_for(project)
    if not p.exists() and _looks_like_name(str(path)):
        workspace = Workspace.default() if _default_workspace_exists() else None
        if workspace is not None and workspace.exists(str(path)):
            return agent_for(workspace.open(str(path)))
    return None


def _looks_like_name(text: str) -> bool:
    if "/" in text or "\\" in text:
        return False
    try:
        check_name(text)
    except StorageError:
        return False
    return True


def _default_workspace_exists() -> bool:
    root = os.environ.get("GENIE_WORKSPACE") or Path.cwd() / ".workspace"
    return Path(root).is_dir()


def agent_for(project: ProjectFile) -> Agent:
    """The Agent of a project file or bundle: head spec, KB in the file, files and tests from the cache."""
    spec = project.spec()
    files = project.files()
    root = materialize(project.path.name, ff.spec_text(spec), files, project.tests())
    few_shots: list[dict[str, Any]] = []
    if "few_shots.json" in files:
        few_shots = json.loads(files["few_shots.json"])
    agent = Agent(spec=spec, root=root, api_module=load_api_module(root / "api.py", spec.name),
                  kb_path=project.kb_path() if project.kb_tables() else None,
                  prompts_dir=root / "prompts" if (root / "prompts").is_dir() else None, few_shots=few_shots)
    agent.extras["project_file"] = str(project.path)
    agent.extras["spec_version"] = project.head().number
    if not project.readonly and project.kind == "project":
        path = project.path

        def start_log(*, parser: str, rg: str, title: str = "") -> Any:
            """Used by `genie chat --record`: a ConversationLog that takes one turn at a time."""
            return ProjectFile(path).start_log(parser=str(parser), rg=str(rg), title=title)

        agent.extras["start_log"] = start_log
    return agent


def cache_root() -> Path:
    root = Path(os.environ.get("GENIE_CACHE_DIR") or Path(tempfile.gettempdir()) / f"genie-cache-{os.getuid()}")
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    if root.stat().st_uid != os.getuid():
        raise StorageError("the agent cache folder belongs to another user", folder=str(root))
    return root


def materialize(label: str, spec_text: str, files: dict[str, str], tests: dict[str, dict]) -> Path:
    """A folder with spec.json, tests/, prompts/, few_shots.json and api.py, reused while the content is equal."""
    digest = hashlib.sha256(ff.dumps({"spec": spec_text, "files": files, "tests": tests}).encode()).hexdigest()
    folder = cache_root() / f"{digest[:32]}"
    if (folder / ".complete").is_file():
        return folder
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
    try:
        (tmp / "spec.json").write_text(spec_text, encoding="utf-8")
        for name, text in files.items():
            target = tmp / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        (tmp / "tests").mkdir()
        for name, test in tests.items():
            (tmp / "tests" / f"{name}.json").write_text(json.dumps(test, indent=2, ensure_ascii=False),
                                                         encoding="utf-8")
        (tmp / "SOURCE").write_text(f"materialised from {label}; do not edit (regenerated on change)\n",
                                    encoding="utf-8")
        (tmp / ".complete").write_text("", encoding="utf-8")
        try:
            os.rename(tmp, folder)
        except OSError:
            if not (folder / ".complete").is_file():  # a half-made folder from a crash: replace it
                shutil.rmtree(folder, ignore_errors=True)
                os.rename(tmp, folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return folder
