#!/usr/bin/env bash
# Score held-out sets on a snapshot of the working tree, so later edits do not leak into a running score.
#   scripts/heldout/snapscore.sh TAG "59 60 61" [nobase]
# Snapshot: /work/snap/TAG (the files git tracks or would track (new files too), as they are now). Results: /work/sc/hN.TAG per set and
# /work/sc/base.TAG for the samples and tests/agents (skipped with nobase). A set is read from /work/blind/heldoutN
# when that folder exists (a blind set not yet in the repository), else from tests/heldout_sets/heldoutN.
# Summarise with scripts/heldout/scores.py.
set -euo pipefail
tag=$1; sets=${2:-}; base=${3:-base}
src=$(cd "$(dirname "$0")/../.." && pwd)
snap=/work/snap/$tag; out=/work/sc
rm -rf "$snap"; mkdir -p "$snap" "$out"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -cf - -T - 2>/dev/null) | tar -xf - -C "$snap"
export PYTHONPATH=$snap
for n in $sets; do
  d=/work/blind/heldout$n; [ -d "$d" ] || d=$snap/tests/heldout_sets/heldout$n
  (cd "$snap" && python3 scripts/heldout/score.py "$d" --per --gold-fail) > "$out/h$n.$tag" 2>&1 || echo "set $n failed" >&2
done
if [ "$base" != nobase ]; then
  (cd "$snap" && python3 scripts/heldout/score.py base --per --gold-fail) > "$out/base.$tag" 2>&1
fi
echo "done $tag"
