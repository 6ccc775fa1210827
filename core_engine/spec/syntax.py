"""`ast.parse`, one thread at a time.

CPython 3.11 keeps the AST constructor's recursion counter per interpreter, not per
thread, so two threads parsing at once can fail with a spurious
`SystemError: AST constructor recursion depth mismatch` (cpython gh-106905). The studio
and a server run sessions on threads, so every parse of spec code, formal statements
and LLM output goes through this lock. Parsing builds a tree; it never runs code.
"""

from __future__ import annotations

import ast
import threading

__all__ = ["parse_python"]

_LOCK = threading.Lock()


def parse_python(source: str, mode: str = "exec", filename: str = "<unknown>") -> ast.AST:
    with _LOCK:
        return ast.parse(source, filename=filename, mode=mode)
