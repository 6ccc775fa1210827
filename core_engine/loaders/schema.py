"""The shipped JSON Schema of the canonical spec, generated from the pydantic model.

`python -m core_engine.loaders.schema` rewrites `core_engine/spec/schema.json`;
`--check` only reports whether the committed file is stale (exit status 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..spec.model import spec_json_schema
from .files import write_text_atomic

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "spec" / "schema.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def render_schema() -> str:
    """The schema file's exact text (stable, so the committed copy can be compared)."""
    schema = {"$schema": DIALECT, **spec_json_schema()}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m core_engine.loaders.schema",
        description="Write the spec's JSON Schema, e.g. `python -m core_engine.loaders.schema`.",
    )
    parser.add_argument("-o", "--output", type=Path, default=SCHEMA_PATH, help="file to write")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the file differs instead of writing"
    )
    args = parser.parse_args(argv)
    text = render_schema()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale: run {parser.prog}", file=sys.stderr)
            return 1
        return 0
    write_text_atomic(args.output, text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
