#!/bin/sh
# The A of the benchmarks' A B pairs: pbp as of <commit>, unpacked in its own
# folder with its own environment (the benchmarks run its console script, as
# they run this checkout's). Nothing is written to this repository.
# Usage: sh scripts/bench_baseline.sh <commit> <folder>
#   then: python bench/bench_verify.py --baseline <folder>
set -eu
commit="$1"
dest="$2"
rm -rf "$dest"
mkdir -p "$dest"
git archive "$commit" | tar -x -C "$dest"
python3 -m venv "$dest/.venv"
"$dest/.venv/bin/pip" install -q -e "$dest"
git rev-parse "$commit" > "$dest/BASELINE"
echo "baseline $(cat "$dest/BASELINE") in $dest"
