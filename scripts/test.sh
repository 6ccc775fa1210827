#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt -e .
# the browser tests drive Debian's Chromium (Playwright's own browser download does not work here)
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium
fi
# the serving tests need PostgreSQL: the machine's server at 127.0.0.1:5432, else a private cluster
# the fixtures start from Debian's postgresql binaries (tests/serve_support.py)
if [ -z "${GENIE_TEST_POSTGRES_URL:-}" ] && ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null \
   && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq postgresql
fi
# two workers (GENIE_TEST_WORKERS to change it); a test file's tests stay on one worker, so a file's
# studio, browser and server fixtures start once
python3 -m pytest -n "${GENIE_TEST_WORKERS:-2}" --dist loadfile "$@"
