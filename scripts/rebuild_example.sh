#!/bin/sh
# Re-resolve a bundled example campaign from its archived orders, after a
# deliberate change to its rules or templates (pbp verify would otherwise report
# the difference). Usage: scripts/rebuild_example.sh <campaign> <resolved turns>
# Each turn is played again with the rules files it was played with (its
# turn.yaml's record, scripts/turn_rules.py): a campaign whose rules.yaml changed
# mid-game keeps its history; today's rules files are put back at the end.
set -eu
c="campaigns/$1"
turns="$2"
here=$(dirname "$0")
kept=$(mktemp -d)
trap 'rm -rf "$kept"' EXIT
python "$here/turn_rules.py" save "$c" "$kept" "$turns"  # refuses, naming the turn, what it cannot replay
while python -m pbp -C "$c" undo --no-commit >/dev/null 2>&1; do :; done
rm -f "$c/seals.yaml"  # the codes printed by earlier builds: this build prints them again
python "$here/turn_rules.py" put "$c" "$kept" 0
python -m pbp -C "$c" setup --no-commit
i=1
while [ "$i" -le "$turns" ]; do
  python "$here/turn_rules.py" put "$c" "$kept" "$i"
  python -m pbp -C "$c" run --no-commit --no-orders  # the archive as it was played, a turn without orders too
  i=$((i + 1))
done
python "$here/turn_rules.py" restore "$c" "$kept"
python -m pbp -C "$c" verify
