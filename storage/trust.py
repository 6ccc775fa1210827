"""Code trust: a project's ``api.py`` runs only once the user has trusted that exact code.

The trust record is a per-project meta entry (``trusted_code``) holding an HMAC of
the code's sha256 under a key private to this user (``<config>/trust.key``,
mode 0600), so a bundle or a project file from someone else cannot carry a
record of its own: it would need the key. Records are written when the user
saves api.py themselves (``ProjectFile.put_file``), accepts the studio's review
dialog, or passes ``--trust-code`` on the command line. Importing a file drops
any record it carried; bundles are never trusted by a record (only by
``--trust-code`` for one run).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from types import ModuleType
from typing import Any

from core_engine.errors import BackendError, StorageError

__all__ = ["TRUST_KEY", "code_digest", "record_for", "reviewed_code", "untrusted_module", "user_key"]

TRUST_KEY = "trusted_code"
"""The _genie_meta key of the trust record."""


def config_dir() -> Path:
    """``$GENIE_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/genie``, else ``~/.config/genie``."""
    root = os.environ.get("GENIE_CONFIG_DIR")
    if root:
        return Path(root)
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "genie"


def user_key() -> bytes:
    """This user's trust key (created on first use, readable by the user only)."""
    path = config_dir() / "trust.key"
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        pass
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    tmp = path.with_name(f".trust.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key)
    try:
        os.link(tmp, path)  # a concurrent first use keeps the first key
    except FileExistsError:
        pass
    except OSError as exc:
        raise StorageError(f"cannot create the code-trust key: {exc}", file=str(path)) from exc
    finally:
        tmp.unlink(missing_ok=True)
    return bytes.fromhex(path.read_text(encoding="ascii").strip())


def reviewed_code(files: dict[str, str]) -> str | None:
    """What must be trusted before it runs, as one text: api.py, then every prompt template.

    Prompt templates travel in bundles and render on every LLM turn, so they are code too
    (a sandboxed template can still loop for minutes). With api.py alone the text is api.py
    itself, so its trust records and digests are those of the file. None: nothing to trust.
    """
    prompts = sorted(p for p in files if p.startswith("prompts/"))
    if not prompts:
        return files.get("api.py")
    parts = [files.get("api.py", "")]
    parts += [f"\n# ---- {path} ----\n{files[path]}" for path in prompts]
    return "".join(parts)


def code_digest(code: str) -> str:
    """sha256 of the code text (what the review dialog and --trust-code name)."""
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


def record_for(code: str) -> str:
    """The trust record of ``code`` for this user."""
    return hmac.new(user_key(), code_digest(code).encode("ascii"), hashlib.sha256).hexdigest()


def is_trusted(meta: dict[str, Any], code: str) -> bool:
    recorded = str(meta.get(TRUST_KEY) or "")
    return bool(recorded) and hmac.compare_digest(recorded, record_for(code))


def untrusted_module(project: str, digest: str) -> ModuleType:
    """Stands in for an untrusted api.py: every function raises a clear BackendError, nothing runs."""
    message = (f"the python APIs of {project} are not available: its api.py (sha256 {digest[:12]}) has not been "
               "trusted. Review it in the studio, or run with --trust-code if you trust this code.")

    class Untrusted(ModuleType):
        def __getattr__(self, name: str) -> Any:
            if name.startswith("_"):
                raise AttributeError(name)

            def refuse(**_: Any) -> Any:
                raise BackendError(message, project=project, sha256=digest)
            return refuse

    module = Untrusted(f"genie_untrusted_api_{digest[:12]}")
    module.__doc__ = message
    return module
