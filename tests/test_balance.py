"""pbp odds and pbp simulate: exact figures, agreement between the two, and
results that do not depend on the number of processes."""

import json
import random
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from pbp.balance import odds
from pbp.balance.simulate import aggregate, parse_override, wilson
from pbp.model import ruleset
from pbp.model.dice import FreeDice
from pbp.model.orders import GmOrders
from tests.helpers import simulate_json, pbp


def test_check_and_versus_are_exact():
    assert odds.check("1d10", "ge", 7).rows[0][1] == "2/5 (40.0 %)"
    win, tie, lose = odds.versus("2d6+1", "1d6+3")
    assert win + tie + lose == 1
    # brute force over the 216 outcomes
    outcomes = [(a + b + 1, c + 3) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
    assert win == Fraction(sum(x > y for x, y in outcomes), 216)
    assert tie == Fraction(sum(x == y for x, y in outcomes), 216)


def test_odds_cli_table_and_forum_formats():
    r = pbp("odds", "1d10", "--ge", "7")
    assert r.exit_code == 0 and "1d10 ≥ 7  2/5 (40.0 %)" in r.output
    bb = pbp("odds", "2d6+1", "--vs", "1d6+3", "--format", "bbcode").output
    assert bb.startswith("[b]2d6+1 contre 1d6+3[/b]") and "5/8 (62.5 %)" in bb
    md = pbp("odds", "1d10", "--le", "3", "--format", "markdown").output
    assert "| 1d10 ≤ 3 | 3/10 (30.0 %) |" in md
    assert pbp("odds", "1d10", "--ge", "3", "--vs", "1d6").exit_code == 2
    every = pbp("odds", "1d10")  # every total: what `pbp odds 10d10kh3` answers too
    assert every.exit_code == 0 and "7   10.0 %  40.0 %" in every.output.splitlines()
    bad = pbp("odds", "--rule", "manhunt.combt")
    assert bad.exit_code == 1 and "Vouliez-vous dire « combat » ?" in bad.stderr
    bad = pbp("odds", "--rule", "manhunt.combat", "--set", "pejii=1d6")
    assert bad.exit_code == 1 and "paramètre inconnu « pejii »" in bad.stderr


def fight_params(**kw):
    params = {"peji": "1d6+2", "hunter": "2d6+1", "peji_protection": 1, "hunter_protection": 2, "fatigue_level": 2,
              "bonus": 0, "wounds": 1}
    params.update(kw)
    return params


def test_manhunt_fight_odds_by_brute_force():
    from pbp.rulesets.manhunt import balance

    rs = ruleset.get("manhunt")
    params = fight_params()
    win, tie, lose = balance.assault_odds(rs.rules, params)
    pairs = [(p + 2 - 2 - 2, a + b + 1 - 1) for p in range(1, 7) for a in range(1, 7) for b in range(1, 7)]
    assert win == Fraction(sum(x > y for x, y in pairs), len(pairs))
    fight = balance.fight_odds(rs.rules, params)
    assert sum(fight.values()) == 1
    # best of 3 without deaths: P(>= 2 wins)
    assert fight["peji"] == win ** 3 + 3 * win ** 2 * (1 - win)
    # a Péji already at wound level 4 dies at the first lost assault
    dying = balance.fight_odds(rs.rules, fight_params(wounds=4))
    assert dying["hunter"] > fight["hunter"]


def test_simulated_fights_match_the_exact_odds():
    """10,000 fights played by the real resolver agree with `pbp odds` within 3 standard deviations."""
    from pbp.rulesets.manhunt import actions, balance
    from pbp.rulesets.manhunt.resolve import Turn

    rs = ruleset.get("manhunt")
    params = fight_params(peji="1d6+3", hunter="1d6+2", fatigue_level=1, peji_protection=0, hunter_protection=0)
    exact = balance.fight_odds(rs.rules, params)
    scenario = rs.sample_scenario(1, random.Random(3))
    scenario.characters["pejis"]["p1"]["inventory"] = ["fendoir à os"]  # 1d6+3
    scenario.characters["hunters"]["h1"].update(weapon={"damage": "1d6+2"}, protection=0)
    dice = FreeDice(11)
    n, won = 10_000, 0
    start = rs.setup(scenario, dice).state
    for _ in range(n):
        state = dict(start, pejis={"p1": dict(start["pejis"]["p1"], inventory=["fendoir à os"], worn=[])},
                     hunters={"h1": dict(start["hunters"]["h1"], cell=start["pejis"]["p1"]["cell"])})
        t = Turn(rs.rules, scenario, state, dice, 1)
        t.reports["p1"] = {"drop": []}
        actions.melee(t, "p1", "h1", None, attacker="peji")
        won += state["hunters"]["h1"]["out"]
    p = float(exact["peji"])
    sd = (p * (1 - p) / n) ** 0.5
    assert abs(won / n - p) < 3 * sd, (won / n, p)



def test_same_seed_same_results_whatever_jobs(tmp_path):
    svg = tmp_path / "c.svg"
    one = simulate_json("manhunt", "--games", "120", "--seed", "5", "--jobs", "1", "--svg", svg)
    two = simulate_json("manhunt", "--games", "120", "--seed", "5", "--jobs", "2", "--svg", svg)
    assert one == two
    other = simulate_json("manhunt", "--games", "120", "--seed", "6", "--jobs", "1", "--svg", svg)
    assert other["base"] != one["base"]
    base = one["base"]
    assert base["games"] == 120 and sum(o["count"] for o in base["outcomes"].values()) == 120 * 6
    assert set(base["outcomes"]) <= {"évadé", "mort", "encore dans le labyrinthe"}
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and len(root.findall("{http://www.w3.org/2000/svg}rect")) > 5


def test_override_is_compared_side_by_side(tmp_path):
    out = simulate_json("manhunt", "--games", "60", "--jobs", "1", "--override", "combat.unarmed=3d6",
                   "--svg", tmp_path / "x.svg")
    assert "variant" in out and out["variant"] != out["base"]
    r = pbp("simulate", "manhunt", "--games", "5", "--override", "combat.unarmd=3d6", "--svg", tmp_path / "y.svg")
    assert r.exit_code == 1 and "règle inconnue « combat.unarmd »" in r.stderr
    text = pbp("simulate", "manhunt", "--games", "20", "--jobs", "1", "--svg", tmp_path / "z.svg").output
    assert "Règles actuelles" in text and "IC 95 %" in text and "Graphique :" in text


def test_simulate_a_campaign(tmp_path):
    from tests.helpers import copy_example

    root = copy_example("manhunt", tmp_path)
    r = pbp("simulate", "--games", "30", "--jobs", "1", "--json", "--svg", tmp_path / "c.svg", cwd=root)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["players"] == 4


def test_statistics_helpers():
    low, high = wilson(40, 100)
    assert low < 0.4 < high and round(high - low, 2) == 0.19
    assert parse_override("actions.fouille.noise=3") == {"actions": {"fouille": {"noise": 3}}}
    agg = aggregate([{"turns": 3, "outcomes": ["a", "b"], "deaths": {"x": 1}, "figures": {"f": [1, 2]}, "main": "f"},
                     {"turns": 5, "outcomes": ["a"], "deaths": {}, "figures": {"f": [3]}, "main": "f"}])
    assert agg["outcomes"]["a"]["rate"] == round(2 / 3, 4) and agg["turns"]["mean"] == 4
    assert agg["figures"]["f"]["histogram"] == {"1": 1, "2": 1, "3": 1}


@pytest.mark.parametrize("rid", ["manhunt"])
def test_bots_play_legal_orders(rid):
    rs = ruleset.get(rid)
    rng = random.Random(2)
    scenario = rs.sample_scenario(4, rng)
    dice = FreeDice(2)
    state = rs.setup(scenario, dice).state
    from pbp.model.orders import PlayerOrders

    for turn in range(1, 13):
        if rs.is_over(state):
            break
        orders = {}
        for p in rs.players_to_play(state, scenario):
            o = PlayerOrders(p, turn, rs.bot_orders(state, scenario, p, rng))
            assert rs.check_orders(state, scenario, o) == [], o
            orders[p] = o
        state = rs.resolve(state, scenario, orders, GmOrders(turn, quiet=True), dice).state


def test_murder_trap_survival_simulated_matches_the_odds():
    """Score 7: 10,000 traps fired by the real resolver survive within 3 standard deviations of 40 %."""
    import copy

    from pbp.rulesets.murder import Murder
    from pbp.rulesets.murder.resolve import Turn

    rs = Murder()
    exact = rs.odds()["piege"].compute({"dice": rs.rules["trap_dice"]})
    assert exact.rows[6][1] == "40.0 %"  # score 7: 1d10 >= 7
    scenario = rs.sample_scenario(6, random.Random(4))
    dice = FreeDice(4)
    start = rs.setup(scenario, dice).state
    handle = next(h for h, p in start["players"].items() if p["role"] == "innocent")
    room = start["players"][handle]["room"]
    n, survived = 10_000, 0
    for _ in range(n):
        state = copy.deepcopy(start)
        player = state["players"][handle]
        player["scores"][rs.rules["trap_score"]["innocent"]] = 7
        state["traps"] = {room: {"by": "x"}}
        survived += Turn(rs.rules, state, scenario, {}, dice).fire(handle, room)
    sd = (0.4 * 0.6 / n) ** 0.5
    assert abs(survived / n - 0.4) < 3 * sd, survived / n


@pytest.mark.parametrize("rid, players", [("murder", 8)])
def test_other_rulesets_same_seed_same_results_whatever_jobs(tmp_path, rid, players):
    args = (rid, "--games", "40", "--seed", "3", "--players", str(players), "--svg", tmp_path / "s.svg")
    assert simulate_json(*args, "--jobs", "1") == simulate_json(*args, "--jobs", "2")
