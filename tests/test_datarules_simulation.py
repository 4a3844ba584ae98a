"""The bots of `pbp simulate` on a data ruleset: `simulation: {actions: N}`
(French `parties_simulées`), the most actions a bot orders a turn."""

from __future__ import annotations

import random

import pytest

from pbp.engine.campaign import open_campaign
from tests.helpers import copy_example, rules_campaign, simulate_json
from tests.test_datarules_format import problems

TALLY = """\
jauges:
  coups: {nom: Coups, départ: 0, min: 0, max: 100}
actions:
  frapper:
    en: hit
    effets: [{ajouter: {coups: 1}}]
"""


def blows(root, *more: str) -> dict:
    """The final `coups` of every character of 20 simulated games of 5 turns, as a histogram."""
    found = simulate_json("--games", "20", "--max-turns", "5", "--jobs", "1", *more, cwd=root)
    return found["base"]["figures"]["coups"]["histogram"]


@pytest.mark.parametrize("spelling", ["parties_simulées: {actions: 1}", "simulation: {actions: 1}",
                                      "bots: {actions: 1}"])
def test_bots_order_at_most_the_actions_the_rules_say(tmp_path, spelling):
    """One action a turn: each bot hits once a turn, 5 blows in 5 turns, in every game."""
    root = rules_campaign(tmp_path, TALLY + spelling + "\n", "duel")
    assert blows(root) == {"5": 40}


def test_without_the_key_a_bot_orders_up_to_three_actions(tmp_path):
    root = rules_campaign(tmp_path, TALLY, "duel")
    found = blows(root)
    assert sum(found.values()) == 40 and max(map(int, found)) > 5 and min(map(int, found)) >= 5


def test_two_actions_at_most(tmp_path):
    root = rules_campaign(tmp_path, TALLY + "simulation: {actions: 2}\n", "duel")
    found = blows(root)
    assert max(map(int, found)) <= 10 and max(map(int, found)) > 5


def test_a_number_of_actions_out_of_its_bounds_is_refused_at_its_line():
    assert problems(TALLY + "simulation: {actions: 4}\n", "en") == [
        "rules.yaml:7: `simulation.actions`: 4 is too large (maximum 3)."]
    found = problems(TALLY + "parties_simulées: {actions: 0}\n")
    assert len(found) == 1 and found[0].startswith("rules.yaml:7:") and "0" in found[0], found


def test_the_d100_as_data_bots_play_one_action_a_turn_as_the_built_in_bots(tmp_path):
    """campaigns/d100-data says `parties_simulees: {actions: 1}`: its bots play one
    check a turn or nothing, as the built-in d100's (about one check a turn)."""
    from pbp.model.dice import FreeDice
    from pbp.model.orders import GmOrders, PlayerOrders

    campaign = open_campaign(copy_example("d100-data", tmp_path))
    rs, scenario = campaign.ruleset, campaign.scenario
    dice, bots = FreeDice(7), random.Random(7)
    state = rs.setup(scenario, dice, quiet=True).state
    played = []
    for turn in range(1, 21):
        orders = {h: PlayerOrders(h, turn, rs.bot_orders(state, scenario, h, bots))
                  for h in rs.players_to_play(state, scenario)}
        played += [len(o.actions) for o in orders.values()]
        assert all(not rs.check_orders(state, scenario, o) for o in orders.values())
        state = rs.resolve(state, scenario, orders, GmOrders(turn, quiet=True), dice).state
    assert set(played) == {1} and len(played) == 60
    assert any(len(o) > 1 for o in rs.legal_orders(state, scenario, "kira"))  # the rules allow more


def test_rules_explain_says_how_many_actions_a_bot_gives(tmp_path):
    from tests.helpers import pbp

    root = rules_campaign(tmp_path, TALLY + "parties_simulées: {actions: 2}\n", "duel")
    r = pbp("rules", "explain", cwd=root)
    assert r.exit_code == 0, r.output
    assert "Parties simulées (pbp simulate)" in r.output and "un bot donne au plus 2 action(s) par tour" in r.output
    bare = rules_campaign(tmp_path / "bare", TALLY, "duel")
    assert "Parties simulées" not in pbp("rules", "explain", cwd=bare).output
