#!/usr/bin/env bash
# Installs what is missing, then opens the Genie studio on the embedded default (offline parser,
# template responses; no API key, no network) with the four sample projects in ./.workspace.
#   bash scripts/studio.sh [--port 8501] [--workspace DIR] [--address 0.0.0.0]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import core_engine, storage, streamlit, st_aggrid, pyvis, networkx" 2>/dev/null \
   || ! command -v genie >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
fi
# headless: no browser auto-open and no usage statistics (works on servers and in CI); open the printed URL
exec python3 -m studio.cli "$@"
