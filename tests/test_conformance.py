"""The conformance suite: every ruleset the core finds passes it with no test
written for it (OpenSpiel's `random_sim_test` is the model). For each ruleset,
from its example campaign and from its skeleton:

- it sets up, and bots play turns through the real command line (`pbp check`,
  then `pbp run`), every legal order the ruleset offers passing its own checks;
- every post of every turn renders through the production path, in both
  languages and both formats;
- the blank order form round-trips (`pbp orders` output is a valid order file);
- `pbp verify` replays the archive byte for byte;
- the capabilities it declares are the hooks it provides.

A new ruleset is covered by copying its folder: nothing here names one.
"""

from __future__ import annotations

import random
import shutil

import pytest

from pbp.base import yamlio
from pbp.engine import turn, turn_inputs, turn_posts
from pbp.engine.campaign import open_campaign
from pbp.model import ruleset
from pbp.model.ruleset import COMMANDS, ODDS, SIMULATE, Ruleset
from pbp.render.render import package_dir
from tests.helpers import pbp

BOT_TURNS = 4
RULESET_IDS = ruleset.ids()


def examples_of(rid: str) -> list[str]:
    """Every bundled example campaign that plays `rid` (the data ruleset has one
    per event written as data)."""
    return sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").is_file()
                  and (yamlio.load_file(d / "campaign.yaml") or {}).get("ruleset") == rid)


def sources(rid: str) -> list[str]:
    cls = ruleset.load_class(rid)
    found = []
    if cls.example and (package_dir("campaigns") / cls.example).is_dir():
        found.append("example")
    found += [f"example:{name}" for name in examples_of(rid) if name != cls.example]
    if (cls.folder() / "skeleton" / "campaign.yaml").is_file():
        found.append("skeleton")
    return found


CASES = [(rid, source) for rid in RULESET_IDS for source in sources(rid)]


def test_every_ruleset_has_a_campaign_to_play():
    assert set(RULESET_IDS) >= {"manhunt", "murder", "skirmish", "d100", "duel"}
    assert [rid for rid in RULESET_IDS if not sources(rid)] == []


def new_campaign(tmp_path, rid: str, source: str):
    root = tmp_path / f"{rid}-{source.replace(':', '-')}"
    example = ["--example", source.partition(":")[2]] if source.startswith("example") else []
    args = ["init", root, "--ruleset", rid, "--no-git"] + example
    r = pbp(*args)
    assert r.exit_code == 0, r.output
    if open_campaign(root).last_turn() is None:
        r = pbp("setup", "--no-commit", cwd=root)
        assert r.exit_code == 0, r.output
    return root


def order_item(action):
    return action.id if action.arg is None else {action.id: action.arg}


def play_bot_turns(root, seed: int, turns: int) -> list[int]:
    """Bots write order files as players would; the real CLI checks and runs them."""
    rng = random.Random(seed)
    played = []
    for _ in range(turns):
        campaign = open_campaign(root)
        rs, scenario = campaign.ruleset, campaign.scenario
        n = campaign.last_turn()
        state = campaign.state(n)
        if rs.is_over(state):
            break
        for handle in rs.players_to_play(state, scenario):
            from pbp.model.orders import PlayerOrders

            for option in rs.legal_orders(state, scenario, handle):
                refusals = rs.check_orders(state, scenario, PlayerOrders(handle, n + 1, list(option)))
                assert refusals == [], (handle, option, refusals)
            actions = rs.bot_orders(state, scenario, handle, rng)
            refusals = rs.check_orders(state, scenario, PlayerOrders(handle, n + 1, list(actions)))
            assert refusals == [], ("bot", handle, actions, refusals)
            path = campaign.turn_dir(n + 1) / "orders" / f"{handle}.yaml"
            if path.exists():  # the example's next turn is already written by its players
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yamlio.dumps({"player": handle, "turn": n + 1,
                                          "actions": [order_item(a) for a in actions]}), encoding="utf-8")
        check = pbp("check", cwd=root)
        assert check.exit_code == 0, check.output
        run = pbp("run", "--no-commit", cwd=root)
        assert run.exit_code == 0, run.output
        played.append(n + 1)
    return played


@pytest.mark.parametrize("rid, source", CASES, ids=[f"{r}-{s}" for r, s in CASES])
def test_bots_play_and_every_post_renders_and_replays(tmp_path, rid, source):
    root = new_campaign(tmp_path, rid, source)
    played = play_bot_turns(root, seed=len(rid), turns=BOT_TURNS)
    campaign = open_campaign(root)
    assert campaign.resolved_turns()[-1] == (played[-1] if played else campaign.last_turn())
    for n in [0] + played:  # the example's own archive is replayed by `pbp verify` below
        for lang in ("fr", "en"):
            other = campaign.replace(config={**campaign.config, "lang": lang})
            out = turn.compute(other, n)
            for fmt, ext in (("bbcode", "bbcode"), ("markdown", "md")):
                turn_posts.render_all(other, out, fmt)
                posts = {k: v.decode() for k, v in out.files.items() if k.endswith("." + ext)}
                assert f"public.{ext}" in posts and f"gm.{ext}" in posts
                for name, text in posts.items():
                    assert text.strip() and text.endswith("\n"), (n, lang, fmt, name)
    r = pbp("verify", cwd=root)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("rid, source", CASES, ids=[f"{r}-{s}" for r, s in CASES])
def test_the_order_form_round_trips(tmp_path, rid, source):
    """`pbp orders --player H` is a valid order file as it is (shape and
    vocabulary), and once its `actions:` is filled with a bot's legal
    actions it passes `pbp check` and reads back as those very actions."""
    from pbp.model import orders as od

    root = new_campaign(tmp_path, rid, source)
    campaign = open_campaign(root)
    rs, scenario = campaign.ruleset, campaign.scenario
    n = campaign.last_turn()
    state = campaign.state(n)
    if rs.is_over(state):
        pytest.skip(f"the {source} campaign of {rid} is over: no next turn to order")
    folder = campaign.turn_dir(n + 1) / "orders"
    if folder.exists():
        shutil.rmtree(folder)
    rng = random.Random(7)
    wanted = {}
    for handle in rs.players_to_play(state, scenario):
        form = pbp("orders", "--player", handle, cwd=root)
        assert form.exit_code == 0, form.output
        parsed, problems = od.parse_player_orders(form.output, "form", ruleset=rs, scenario=scenario, turn=n + 1,
                                                  expected_player=handle)
        assert problems == [] and parsed.actions == [], problems
        actions = rs.bot_orders(state, scenario, handle, rng)
        filled = yamlio.dumps([order_item(a) for a in actions]) if actions else "[]\n"
        assert form.output.count("\nactions:\n") == 1
        text = form.output.replace("\nactions:\n", "\nactions:\n" + "".join(f"  {line}\n" for line in
                                                                            filled.splitlines()))
        (folder / f"{handle}.yaml").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"{handle}.yaml").write_text(text, encoding="utf-8")
        wanted[handle] = [(a.id, a.arg) for a in actions]
    r = pbp("check", cwd=root)
    assert r.exit_code == 0, r.output
    inputs = turn_inputs.gather(open_campaign(root), n + 1, state)
    got = {h: [(a.id, a.arg) for a in o.actions] for h, o in inputs.orders.items() if not o.default}
    # a form sent back with no action and no roleplay is an unfilled form: nothing sent
    assert got == {h: a for h, a in wanted.items() if a}
    assert sorted(inputs.blank) == sorted(h for h, a in wanted.items() if not a)


def overrides(cls, name: str) -> bool:
    return getattr(cls, name) is not getattr(Ruleset, name)


@pytest.mark.parametrize("rid", RULESET_IDS)
def test_declared_capabilities_are_the_hooks_provided(rid):
    cls = ruleset.load_class(rid)
    assert cls.capabilities <= set(ruleset.CAPABILITIES), cls.capabilities
    assert (SIMULATE in cls.capabilities) == overrides(cls, "sample_scenario"), "sample_scenario vs SIMULATE"
    if SIMULATE in cls.capabilities:
        assert overrides(cls, "game_summary") and (overrides(cls, "bot_orders") or overrides(cls, "legal_orders"))
        rs = ruleset.get(rid)
        scenario = rs.sample_scenario(6, random.Random(1))
        assert rs.validate_scenario(scenario) == []
    assert (ODDS in cls.capabilities) == overrides(cls, "odds"), "odds vs ODDS"
    if ODDS in cls.capabilities:
        assert ruleset.get(rid).odds()
    assert (COMMANDS in cls.capabilities) == bool(cls.commands), "commands vs COMMANDS"


@pytest.mark.parametrize("rid", [rid for rid in RULESET_IDS if SIMULATE in ruleset.load_class(rid).capabilities])
def test_a_quiet_set_up_is_the_same_set_up(rid):
    """`pbp simulate` sets each game up quietly (no events): the state and the
    dice drawn must be those of a real set-up, or a simulation would play
    other games than the ones it stands for."""
    from pbp.model.dice import FreeDice

    rs = ruleset.get(rid)
    scenario = rs.sample_scenario(6, random.Random(5))
    loud_dice, quiet_dice = FreeDice(11), FreeDice(11)
    loud = rs.setup(scenario, loud_dice)
    quiet = rs.setup(scenario, quiet_dice, quiet=True)
    assert quiet.state == loud.state and loud.events
    assert quiet_dice.draws == loud_dice.draws and quiet_dice._rng.random() == loud_dice._rng.random()
