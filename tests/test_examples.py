"""Every bundled example campaign: it installs with `pbp init --example`, its
archive replays byte for byte, and its next turn plays."""

import subprocess

import pytest

from pbp.base import yamlio
from pbp.render.render import package_dir
from tests.helpers import pbp

EXAMPLES = sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists())


def test_there_are_examples():
    assert "manhunt" in EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_verifies_and_plays_its_next_turn(tmp_path, name):
    ruleset = yamlio.load_file(package_dir("campaigns") / name / "campaign.yaml")["ruleset"]
    target = tmp_path / name
    r = pbp("init", target, "--ruleset", ruleset, "--example", name)
    assert r.exit_code == 0, r.output
    v = pbp("verify", cwd=target)
    assert v.exit_code == 0, v.output
    resolved = [p for p in (target / "turns").iterdir() if (p / "state.yaml").exists()]
    assert len(resolved) >= 4, "an example shows at least 3 resolved turns after set-up"
    pending = target / "turns" / f"{len(resolved):03d}" / "orders"
    assert pending.is_dir(), "the next turn's orders are ready, so `pbp run` plays a real turn"
    r = pbp("run", cwd=target)
    assert r.exit_code == 0, r.output
    log = subprocess.run(["git", "-C", str(target), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines()[0].endswith(str(len(resolved))), log
    assert pbp("verify", cwd=target).exit_code == 0
