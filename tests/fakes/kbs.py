"""A KB table written for a knowledge-parser test, with its spec, and asking it questions.

The vector cache goes to a temporary folder for the test module (GENIE_CACHE_DIR), restored after.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.offline import OfflineKnowledgeParser
from core_engine.spec.model import Field, Settings, Spec, Worksheet
from storage.kb.importer import import_records


@contextmanager
def kb_and_spec(tmp_path_factory: Any, rows: list[dict[str, Any]], table: str, columns: dict[str, str], *,
                name: str, description: str, table_description: str, free_text: list[str] | None = None,
                column_types: dict[str, str] | None = None, field_types: dict[str, str] | None = None,
                today: str | None = "2024-07-01") -> Iterator[tuple[SQLiteKB, Spec]]:
    """(the open KB, a spec whose kb worksheet describes `columns`: name -> description)."""
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("vectors"))
    try:
        path = tmp_path_factory.mktemp(name) / "kb.sqlite"
        import_records(path, rows, table, free_text=free_text, column_types=column_types)
        ws = Worksheet(name=table, kind="kb", description=table_description,
                       fields=[Field(name=n, type=(field_types or {}).get(n, "str"), description=d)
                               for n, d in columns.items()])
        with SQLiteKB(path) as kb:
            yield kb, Spec(name=name, description=description, worksheets=[ws], settings=Settings(today=today))
    finally:
        if old is None:
            os.environ.pop("GENIE_CACHE_DIR", None)
        else:
            os.environ["GENIE_CACHE_DIR"] = old


def ask(fixture: tuple[SQLiteKB, Spec], question: str, ordered: bool = False
        ) -> tuple[list[str], list[dict[str, Any]]]:
    """The ids of the rows the offline knowledge parser's query returns (sorted, or in the query's order), and its
    rules."""
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    ids = [r["id"] for r in kb.execute(query.sql()).rows]
    return (ids if ordered else sorted(ids)), rules
