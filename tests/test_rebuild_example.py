"""scripts/rebuild_example.sh: an example campaign whose rules.yaml changed in the
middle of the game is rebuilt with each turn's own rules (its history kept byte
for byte), and one whose campaign.yaml `rules:` changed is refused, naming the turn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import copy_example, pbp

SCRIPT = Path(__file__).parent.parent / "scripts" / "rebuild_example.sh"


def rebuild(root: Path, name: str, turns: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["sh", str(SCRIPT), name, str(turns)], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600)


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_turn_played_with_other_rules_is_rebuilt_with_them(tmp_path):
    root = copy_example("energy-duel", tmp_path / "campaigns").parent.parent
    campaign = root / "campaigns" / "energy-duel"
    rules = campaign / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("perte: 25,", "perte: 30,"), encoding="utf-8")
    r = pbp("run", "--no-commit", cwd=campaign)  # turn 4, played with the new loss of a 6
    assert r.exit_code == 0, r.output
    before = files(campaign / "turns")
    r = rebuild(root, "energy-duel", 4)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "5 tours rejoués à l'identique." in r.stdout
    after = files(campaign / "turns")
    assert sorted(after) == sorted(before)
    assert [name for name in before if before[name] != after[name]] == []
    assert b"perte: 25," in after["000/rules/rules.yaml"] and b"perte: 30," in after["004/rules/rules.yaml"]
    assert "perte: 30," in rules.read_text(encoding="utf-8")  # today's rules, put back


def test_a_turn_played_with_other_campaign_rules_is_refused_naming_it(tmp_path):
    root = copy_example("energy-duel", tmp_path / "campaigns").parent.parent
    campaign = root / "campaigns" / "energy-duel"
    text = (campaign / "campaign.yaml").read_text(encoding="utf-8")
    (campaign / "campaign.yaml").write_text(text + "rules: {end: {last_standing: 1}}\n", encoding="utf-8")
    before = files(campaign)
    r = rebuild(root, "energy-duel", 3)
    assert r.returncode == 1
    assert r.stderr.startswith("campaigns/energy-duel/turns/000/turn.yaml: turn 0 was played with other `rules:` "
                               "in campaign.yaml than today's"), r.stderr
    assert files(campaign) == before  # nothing undone
