"""Persistence for Genie Studio: project files, versions, KB import, logs, bundles (SQLite via sqlite-utils).

The public surface the studio, the CLI and tests use; see docs/storage.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core_engine.lazy import lazy_getattr

from core_engine.errors import StorageError

if TYPE_CHECKING:
    from .bundles.bundle import BundleError, export_bundle, import_bundle, read_manifest
    from .logs import ConversationLog, LogInfo
    from .projects import ConflictError, ProjectFile, ProjectInfo, VersionInfo, Workspace
    from .spec_diff import Change, SpecDiff, diff_specs

# imported on first use (PEP 562): `genie --help` loads the `genie kb` / `genie project` commands
# without sqlite-utils, pandas or the bundle code
_LAZY = {"BundleError": ".bundles.bundle", "export_bundle": ".bundles.bundle", "import_bundle": ".bundles.bundle",
         "read_manifest": ".bundles.bundle", "ConversationLog": ".logs", "LogInfo": ".logs", "ConflictError": ".projects",
         "ProjectFile": ".projects", "ProjectInfo": ".projects", "VersionInfo": ".projects",
         "Workspace": ".projects", "Change": ".spec_diff", "SpecDiff": ".spec_diff", "diff_specs": ".spec_diff"}

__all__ = [
    "BundleError", "Change", "ConflictError", "ConversationLog", "LogInfo", "ProjectFile", "ProjectInfo",
    "SpecDiff", "StorageError", "VersionInfo", "Workspace", "diff_specs", "export_bundle", "import_bundle",
    "read_manifest",
]


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
