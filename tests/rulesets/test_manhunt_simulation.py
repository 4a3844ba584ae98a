"""manhunt in a simulation: a quiet turn (`GmOrders.quiet`, as `pbp simulate`
plays them) builds no event yet plays exactly the real turn, and the values
worked out once (the labyrinth, its paths) are those of the scenario asked for."""

import copy
import random
from collections import Counter

from pbp.model import ruleset
from pbp.model.dice import Dice, FreeDice
from pbp.model.orders import GmOrders, PlayerOrders
from pbp.rulesets.manhunt.world import labyrinth


def test_a_quiet_turn_plays_exactly_the_real_one_and_tells_nobody():
    rs = ruleset.get("manhunt")
    scenario = rs.sample_scenario(6, random.Random(2))
    kinds = Counter()
    for game in range(40):
        bots = random.Random(game)
        state = rs.setup(scenario, FreeDice(game)).state
        for turn in range(1, 40):
            if rs.is_over(state):
                break
            orders = {p: PlayerOrders(p, turn, rs.bot_orders(state, scenario, p, bots))
                      for p in rs.players_to_play(state, scenario)}
            loud_dice, quiet_dice = Dice(f"g{game}", turn), Dice(f"g{game}", turn)
            loud = rs.resolve(copy.deepcopy(state), scenario, orders, GmOrders(turn), loud_dice)
            quiet = rs.resolve(copy.deepcopy(state), scenario, orders, GmOrders(turn, quiet=True), quiet_dice)
            assert quiet.state == loud.state
            assert [r.to_dict() for r in quiet_dice.log] == [r.to_dict() for r in loud_dice.log]  # the same rolls
            assert list(quiet.events) == [] and loud.events
            kinds.update(e.kind for e in loud.events)
            state = quiet.state
        assert rs.is_over(state)
    # the comparison went through fights, panics, exhaustion, traps, deaths, escapes and searches
    assert {"combat", "panique", "epuise", "piege", "mort", "evasion", "fouille", "chasseur_bouge"} <= set(kinds)


def test_the_labyrinth_kept_at_hand_is_the_scenarios():
    rs = ruleset.get("manhunt")
    one, two = (rs.sample_scenario(2, random.Random(seed)) for seed in (1, 2))
    assert rs.lab(one) is labyrinth(one, rs.rules) and rs.lab(one) is rs.lab(one)
    assert rs.lab(two) is labyrinth(two, rs.rules) and rs.lab(two).cells is two.world["cells"]
    assert rs.lab(one).cells is one.world["cells"]


def test_a_remembered_path_is_the_shortest_one():
    rs = ruleset.get("manhunt")
    lab = rs.lab(rs.sample_scenario(2, random.Random(3)))
    cells = list(lab.cells)

    def distance(start, goal):
        seen, frontier, steps = {start}, {start}, 0
        while goal not in frontier:
            frontier = {n for c in frontier for n in lab.neighbours(c)} - seen
            seen |= frontier
            steps += 1
        return steps

    for start in cells[:8]:
        for goal in cells:
            step = lab.step_towards(start, goal)
            assert lab.step_towards(start, goal) == step  # asked again: the same answer
            if start == goal:
                assert step is None
            else:
                assert step in lab.neighbours(start) and distance(step, goal) == distance(start, goal) - 1
