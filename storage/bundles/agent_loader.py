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

from core_engine import jsonsafe
from core_engine.session.agent import Agent, load_api_module
from core_engine.errors import StorageError

from .. import fileformat as ff
from .folders import check_file_path
from ..projects import ProjectFile, Workspace, check_name
from ..safepath import safe_path
from ..trust import code_digest, untrusted_module

__all__ = ["agent_for", "load", "materialize"]


def load(path: str | Path, *, code: str = "trusted") -> Agent | None:
    """``code``: "trusted" runs api.py only when trusted, "trust" trusts it for this run (--trust-code),
    "never" does not load it at all (lint)."""
    p = Path(path)
    if p.is_file() and p.suffix in (ff.BUNDLE_SUFFIX, ff.PROJECT_SUFFIX):
        project = ProjectFile(p, readonly=p.suffix == ff.BUNDLE_SUFFIX)
        return agent_for(project, code=code)
    if not p.exists() and _looks_like_name(str(path)):
        workspace = Workspace.default() if _default_workspace_exists() else None
        if workspace is not None and workspace.exists(str(path)):
            return agent_for(workspace.open(str(path)), code=code)
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


def agent_for(project: ProjectFile, *, code: str = "trusted") -> Agent:
    """The Agent of a project file or bundle: head spec, KB in the file, files and tests from the cache.

    api.py is imported only when the user trusts that exact code (storage.trust) or ``code == "trust"``;
    otherwise its python APIs answer with a clear "not trusted" error and nothing of it runs.
    """
    spec = project.spec()
    files = project.files()
    root = materialize(project.path.name, ff.spec_text(spec), files, project.tests())
    few_shots: list[dict[str, Any]] = []
    if "few_shots.json" in files:
        try:
            few_shots = jsonsafe.loads(files["few_shots.json"], what="few_shots.json")
        except ValueError as exc:
            raise StorageError(str(exc), file=str(project.path)) from exc
    api_module = None
    trusted = code == "trust" or (code != "never" and project.code_trusted())
    if "api.py" in files and code != "never":
        if trusted:
            api_module = load_api_module(root / "api.py", spec.name)
        else:
            api_module = untrusted_module(project.path.name, code_digest(files["api.py"]))
    # prompt templates are code too (storage.trust.reviewed_code): untrusted, the built-in prompts are used
    prompts = root / "prompts" if trusted and (root / "prompts").is_dir() else None
    agent = Agent(spec=spec, root=root, api_module=api_module,
                  kb_path=project.kb_path() if project.kb_tables() else None, prompts_dir=prompts, few_shots=few_shots)
    if not trusted and any(p.startswith("prompts/") for p in files):
        agent.extras["untrusted_prompts"] = sorted(p for p in files if p.startswith("prompts/"))
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
            target = safe_path(tmp, check_file_path(name))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        (tmp / "tests").mkdir()
        for name, test in tests.items():
            safe_path(tmp / "tests", f"{name}.json", what="test name").write_text(json.dumps(test, indent=2, ensure_ascii=False),
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
