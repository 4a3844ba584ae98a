"""The rules a turn was played with are recorded with it (turn.yaml's `rules`):
a number changed in campaign.yaml mid-game applies from the next turn, and
`pbp verify` replays every earlier turn with its own rules, not today's."""

from __future__ import annotations

from pbp.base import yamlio
from tests.helpers import pbp, write


def _flip(root, n: int, roll: int) -> None:
    """Lucy flips the coin on turn n, the die forced to `roll`."""
    write(root, f"turns/{n:03d}/orders/lucy.yaml", f"player: lucy\nturn: {n}\nactions:\n  - pile_ou_face\n")
    write(root, f"turns/{n:03d}/gm.yaml", {"turn": n, "rolls": {"lucy.piece": roll}})


def _coins(root, n: int) -> int:
    return yamlio.load_file(root / f"turns/{n:03d}/state.yaml")["players"]["lucy"]["coins"]


def test_a_rules_change_applies_from_the_next_turn_and_verify_replays_each_with_its_own(toy_campaign):
    root = toy_campaign
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    _flip(root, 1, 4)  # coin_wins 4 (the toy's data): a 4 wins a coin
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert _coins(root, 1) == 1
    assert yamlio.load_file(root / "turns/001/turn.yaml")["rules"] == {}

    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    (root / "campaign.yaml").write_text(config + "rules:\n  coin_wins: 5\n", encoding="utf-8")
    _flip(root, 2, 4)  # now a 4 is not enough
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert _coins(root, 2) == 1
    assert yamlio.load_file(root / "turns/002/turn.yaml")["rules"] == {"coin_wins": 5}

    r = pbp("verify", cwd=root)
    assert r.exit_code == 0, r.output
    assert "tour 1 : identique" in r.output and "tour 2 : identique" in r.output


def test_a_recorded_rule_the_ruleset_does_not_have_is_refused_on_its_line(toy_campaign):
    root = toy_campaign
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    _flip(root, 1, 4)
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    record = root / "turns/001/turn.yaml"
    text = record.read_text(encoding="utf-8").replace("rules: {}", "rules:\n  coins_win: 2")
    record.write_text(text, encoding="utf-8")
    r = pbp("verify", cwd=root)
    assert r.exit_code == 1
    line = text.splitlines().index("  coins_win: 2") + 1
    assert f"turns/001/turn.yaml:{line}:" in r.output and "coin_wins" in r.output
    assert "Traceback" not in r.output
