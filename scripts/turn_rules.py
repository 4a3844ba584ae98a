"""The rules each archived turn of a campaign was played with, for
scripts/rebuild_example.sh: saved before the archive is undone, put back in the
campaign folder before each turn is played again, today's put back at the end.

    python scripts/turn_rules.py save CAMPAIGN DIR TURNS   each turn's rules files into DIR
    python scripts/turn_rules.py put CAMPAIGN DIR N        turn N's into the campaign (if it kept any)
    python scripts/turn_rules.py restore CAMPAIGN DIR      the campaign's rules files of today

A turn records the rules files it was played with (turn.yaml's `rules_files`:
each file's sha256 and the turn folder that keeps its copy,
pbp/engine/rules_record.py). A turn played with other `rules:` overrides in
campaign.yaml than today's is refused, naming the turn: the script cannot
rewrite the MJ's campaign.yaml."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from pbp.base import yamlio
from pbp.engine import rules_record

NOW = "now"


def save(campaign: Path, into: Path, turns: int) -> None:
    config = yamlio.load_file(campaign / "campaign.yaml") or {}
    today = config.get("rules") or {}
    for n in range(turns + 1):
        record_file = campaign / "turns" / f"{n:03d}" / "turn.yaml"
        if not record_file.exists():
            continue  # an archive from before pbp recorded its turns: today's rules
        record = yamlio.load_file(record_file) or {}
        if "rules" in record and (record["rules"] or {}) != today:
            sys.exit(f"{record_file}: turn {n} was played with other `rules:` in campaign.yaml than today's "
                     f"({record['rules'] or {}} then, {today} now): rebuild_example.sh cannot replay it; "
                     f"rebuild the turns before it with those rules by hand.")
        for name, entry in (record.get(rules_record.KEY) or {}).items():
            copy = campaign / "turns" / f"{entry['kept_in']:03d}" / rules_record.copy_path(name)
            data = copy.read_bytes()
            if rules_record.sha256(data) != entry["sha256"]:
                sys.exit(f"{copy}: not the bytes turn {n} was played with ({record_file} says so): "
                         "rebuild_example.sh cannot replay it.")
            (into / str(n)).mkdir(parents=True, exist_ok=True)
            (into / str(n) / name).write_bytes(data)
            (into / NOW).mkdir(parents=True, exist_ok=True)
            if (campaign / name).exists() and not (into / NOW / name).exists():
                shutil.copyfile(campaign / name, into / NOW / name)


def put(campaign: Path, from_dir: Path, n: str) -> None:
    for path in sorted((from_dir / n).glob("*")) if (from_dir / n).is_dir() else ():
        shutil.copyfile(path, campaign / path.name)


def main(argv: list[str]) -> None:
    command, campaign, folder = argv[0], Path(argv[1]), Path(argv[2])
    if command == "save":
        save(campaign, folder, int(argv[3]))
    elif command == "put":
        put(campaign, folder, argv[3])
    elif command == "restore":
        put(campaign, folder, NOW)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
