"""``python -m sample_projects._datagen [--check] [--root DIR]``: regenerate or verify the data.

Example: ``python -m sample_projects._datagen --check`` exits 1 and lists the stale files
when a committed data file differs from what the generators produce.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .outputs import SAMPLE_ROOT, stale_files, write_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sample_projects._datagen",
        description="Regenerate the sample projects' knowledge-base data files.",
        epilog="Example: python -m sample_projects._datagen --check",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if any data file differs from a fresh generation",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=SAMPLE_ROOT,
        help="directory holding the sample projects (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.root)
        for relative in stale:
            print(f"stale: {relative}", file=sys.stderr)
        if stale:
            print("run: python -m sample_projects._datagen", file=sys.stderr)
            return 1
        print("all data files are up to date")
        return 0
    for path in write_all(args.root):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
