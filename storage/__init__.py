"""Persistence for Genie Studio: project files, versions, KB import, logs, bundles (SQLite via sqlite-utils).

The public surface the studio, the CLI and tests use; see docs/storage.md.
"""

from core_engine.errors import StorageError

from .bundle import BundleError, export_bundle, import_bundle, read_manifest
from .logs import ConversationLog, LogInfo
from .projects import ConflictError, ProjectFile, ProjectInfo, VersionInfo, Workspace
from .spec_diff import Change, SpecDiff, diff_specs

__all__ = [
    "BundleError", "Change", "ConflictError", "ConversationLog", "LogInfo", "ProjectFile", "ProjectInfo",
    "SpecDiff", "StorageError", "VersionInfo", "Workspace", "diff_specs", "export_bundle", "import_bundle",
    "read_manifest",
]
