#!/bin/sh
# Re-resolve a bundled example campaign from its archived orders, after a
# deliberate change to its rules or templates (pbp verify would otherwise report
# the difference). Usage: scripts/rebuild_example.sh <campaign> <resolved turns>
set -eu
c="campaigns/$1"
turns="$2"
while python -m pbp -C "$c" undo --no-commit >/dev/null 2>&1; do :; done
rm -f "$c/seals.yaml"  # the codes printed by earlier builds: this build prints them again
python -m pbp -C "$c" setup --no-commit
i=1
while [ "$i" -le "$turns" ]; do
  python -m pbp -C "$c" run --no-commit --no-orders  # the archive as it was played, a turn without orders too
  i=$((i + 1))
done
python -m pbp -C "$c" verify
