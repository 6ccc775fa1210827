"""`python -m bench`: run every benchmark and write bench/results/all.json (see bench/run.py)."""

from bench.run import main

raise SystemExit(main())
