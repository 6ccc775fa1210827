#!/usr/bin/env bash
# Installs what is missing and starts Genie on a sample project (the studio replaces this once it exists).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
exec genie chat sample_projects/ticket_submission "$@"
