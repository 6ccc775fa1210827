#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
python3 -m pytest "$@"
