"""d100 balance tools: exact odds (against brute force and against the real
resolver), the synthetic party, bots and the simulated MJ only giving legal
orders, the game summary, and pbp simulate / pbp odds on the command line."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from pbp.model.dice import FreeDice
from pbp.model.orders import GmOrders, PlayerOrders
from pbp.rulesets.d100 import balance, checks
from pbp.rulesets.d100.resolve import Turn
from tests.helpers import simulate_json, copy_example, pbp

from .test_d100_support import resolve, ruleset, scenario, setup_state

RS = ruleset()
RULES = RS.rules
OUTCOMES = ("critical_success", "success", "failure", "critical_failure")


def params(**kw) -> dict:
    out = {"carac": 50, "niveau": 0, "modificateur": 0, "confiance": 0, "groupe": 0, "stable": 0, "de": "1d6",
           "plage": 0}
    out.update(kw)
    return out


def brute_check(chance: int) -> dict:
    """The seed's check over the 100 faces: 1-5 critical success, 96-100
    critical failure, else success when <= chance."""
    counts = Counter()
    for face in range(1, 101):
        if face <= 5:
            counts["critical_success"] += 1
        elif face >= 96:
            counts["critical_failure"] += 1
        else:
            counts["success" if face <= chance else "failure"] += 1
    return {o: Fraction(counts[o], 100) for o in OUTCOMES}


# -- exact odds ------------------------------------------------------------------------------

def test_characteristic_50_is_5_45_45_5():
    odds = balance.check_odds(RULES, params())
    assert odds == {"critical_success": Fraction(5, 100), "success": Fraction(45, 100),
                    "failure": Fraction(45, 100), "critical_failure": Fraction(5, 100)}


@pytest.mark.parametrize("kw, chance", [
    ({}, 50),
    ({"carac": 45, "niveau": 2, "modificateur": -10}, 45),
    ({"carac": 67, "confiance": 2}, 69),                 # the seed: Logique 67, +2 trust -> 69
    ({"carac": 67, "confiance": -1}, 66),                # -1 -> 66
    ({"carac": 60, "confiance": 3, "groupe": 1}, 66),     # the whole group positive: doubled
    ({"carac": 60, "confiance": 5, "groupe": 1}, 70),     # doubled, capped at +10
    ({"carac": 60, "confiance": -4, "groupe": 1}, 52),    # doubled malus
    ({"carac": 40, "stable": 1}, 50),                     # stable state, matching intention: +10
    ({"carac": 3}, 3),                                    # below the critical zone
    ({"carac": 20, "niveau": -4, "modificateur": -50}, -50),
    ({"carac": 99, "niveau": 3}, 114),                    # above 100: 96-100 still fail critically
])
def test_check_odds_against_brute_force(kw, chance):
    assert balance.check_chance(RULES, params(**kw)) == chance
    assert balance.check_odds(RULES, params(**kw)) == brute_check(chance)


def test_situational_die_odds_against_brute_force():
    # 1d6 over -2..+2 points (README): 1-2 -> -2, 3 -> -1, 4 -> 0, 5 -> +1, 6 -> +2, 5 % a point
    spread = {1: -2, 2: -2, 3: -1, 4: 0, 5: 1, 6: 2}
    expected = {o: Fraction(0) for o in OUTCOMES}
    for face, points in spread.items():
        for o, p in brute_check(52 + 5 * points).items():
            expected[o] += p / 6
    assert balance.check_odds(RULES, params(carac=52, de="1d6", plage=2)) == expected


def test_rupture_odds_against_brute_force():
    references = Counter(sum(d) for d in itertools.product(range(1, 11), repeat=5))
    broken = sum(n for ref, n in references.items() for gm in range(1, 51) if gm <= ref)
    exact = balance.rupture_odds({"joueur": "5d10", "mj": "1d50"})
    assert exact == Fraction(broken, 10 ** 5 * 50)
    assert round(float(exact), 4) == 0.55


def test_alignment_odds_against_brute_force():
    accepted = sum(player <= gm for gm in range(1, 21) for player in range(1, 21))
    assert balance.alignment_odds({"mj": "1d20", "joueur": "1d20"}) == Fraction(accepted, 400) == Fraction(21, 40)


def test_odds_cli_in_the_forums_words():
    out = pbp("odds", "--rule", "d100.jet").stdout
    assert out == ("Jet de 1d100 : caractéristique 50, compétence 0 (0 %) → chance 50 %\n\n"
                   "                              probabilité\n"
                   "réussite critique             5.0 %\n"
                   "réussite                      45.0 %\n"
                   "échec                         45.0 %\n"
                   "échec critique                5.0 %\n"
                   "réussite (critique comprise)  50.0 %\n"
                   "échec (critique compris)      50.0 %\n\n"
                   "1–5 : réussite critique, 96–100 : échec critique, quelle que soit la chance.\n")
    out = pbp("odds", "--rule", "d100.jet", "--set", "carac=45", "--set", "niveau=2", "--set", "confiance=3",
              "--set", "groupe=1", "--set", "stable=1", "--format", "bbcode").output
    assert out.startswith("[b]Jet de 1d100 : caractéristique 45, compétence +2 (+10 %), confiance +3 "
                          "(groupe : doublée), état stable +10 % → chance 71 %[/b]")
    assert "réussite | 66.0 %" in out
    out = pbp("odds", "--rule", "d100.rupture", "--format", "markdown").output
    assert "état stable rompu (1d50 ≤ 5d10) | 55.0 %" in out
    assert "réaction acceptée (joueur ≤ MJ)  52.5 %" in pbp("odds", "--rule", "d100.alignement").output
    bad = pbp("odds", "--rule", "d100.jet", "--set", "caract=40")
    assert bad.exit_code == 1 and "« caract »" in bad.stderr
    assert "d100.jet:" in pbp("odds", "--list").output


# -- the real resolver agrees with the exact odds -----------------------------------------------

def simulated_checks(state_edit, handle: str, carac: str, skill, modifier: int, intent, faction, n: int, seed: int):
    sc = scenario()
    state = setup_state(RS, sc)
    state_edit(state)
    turn = Turn(RULES, state, sc, RS.sheets(sc), RS.factions(sc), FreeDice(seed), quiet=True)
    turn.trust_start = {h: dict(state["characters"][h]["trust"]) for h in turn.handles}
    turn.light_start = {h: state["characters"][h]["light"] for h in turn.handles}
    for _ in range(n):
        turn.check(handle, carac, skill, modifier, intent, faction, None, None, origin="player", charge=False)
    return Counter(result for _, _, result in turn.results)


def assert_within_3_sd(counts: Counter, exact: dict, n: int) -> None:
    assert sum(counts.values()) == n
    for outcome, p in exact.items():
        p = float(p)
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts[outcome] / n - p) < 3 * sd, (outcome, counts[outcome] / n, p)


def test_simulated_checks_match_the_exact_odds():
    """10,000 checks by the resolver (sabre +2, -10 %, group trust 3 doubled, stable light
    state with a light intention: 50 + 10 - 10 + 6 + 10 = 66) agree within 3 standard deviations."""
    def edit(state):
        state["characters"]["kira"]["light"] = 10
        for me in state["characters"].values():
            me["trust"]["empire"] = 3

    n = 10_000
    counts = simulated_checks(edit, "kira", "physique", "sabre", -10, "clair", "empire", n, seed=4)
    exact = balance.check_odds(RULES, params(carac=50, niveau=2, modificateur=-10, confiance=3, groupe=1, stable=1))
    assert balance.check_chance(RULES, params(carac=50, niveau=2, modificateur=-10, confiance=3, groupe=1,
                                              stable=1)) == 66
    assert_within_3_sd(counts, exact, n)


def test_simulated_situational_die_checks_match_the_exact_odds():
    """Kira's pilotage is noted 1d6 over ±2 points: Logique 67 and the die."""
    n = 10_000
    counts = simulated_checks(lambda s: None, "kira", "logique", "pilotage", 0, None, None, n, seed=9)
    assert_within_3_sd(counts, balance.check_odds(RULES, params(carac=67, de="1d6", plage=2)), n)


# -- the synthetic party, bots and the simulated MJ -------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 6, 12])
def test_sample_scenario_sheets_are_valid(players):
    for seed in range(15):
        sc = RS.sample_scenario(players, random.Random(seed))
        assert RS.validate_scenario(sc) == [], [p.text("en") for p in RS.validate_scenario(sc)]
        assert len(sc.roster) == players and len(RS.factions(sc)) == 2
        for sheet in RS.sheets(sc).values():
            assert all(0 <= v <= 100 for v in sheet["characteristics"].values())
            assert set(sheet["trust"]) == set(RS.factions(sc))


def scenario_of(kind: str, tmp_path):
    if kind == "sample":
        return RS.sample_scenario(5, random.Random(7))
    from pbp.engine.campaign import open_campaign

    return open_campaign(copy_example("d100", tmp_path)).scenario


@pytest.mark.parametrize("kind", ["sample", "example"])
def test_bots_and_the_simulated_mj_give_legal_orders_over_whole_games(kind, tmp_path, monkeypatch):
    sc = scenario_of(kind, tmp_path)
    checked = Counter()
    original = balance.simulated_gm

    def checked_gm(rules, state, scenario_, dice):
        out = original(rules, state, scenario_, dice)
        parsed, refusals = checks.gm_orders(RS, scenario_, RS.sheets(scenario_), RS.factions(scenario_), out, state)
        assert refusals == [] and parsed == out, (refusals, out)
        checked.update(list(out))
        return out

    monkeypatch.setattr(balance, "simulated_gm", checked_gm)
    actions = Counter()
    for game in range(8):
        dice, rng = FreeDice(game), random.Random(game)
        state = RS.setup(sc, dice).state
        for turn in range(1, 101):
            if RS.is_over(state):
                break
            state["combat"] = turn % 7 == 0  # the inventory out of reach now and then
            orders = {}
            for p in RS.players_to_play(state, sc):
                o = PlayerOrders(p, turn, RS.bot_orders(state, sc, p, rng))
                assert RS.check_orders(state, sc, o) == [], (p, o)
                actions.update(a.id if a.id != "jet" or not a.arg["competence"] else "jet+competence"
                               for a in o.actions)
                orders[p] = o
            state = RS.resolve(state, sc, orders, GmOrders(turn, quiet=True), dice).state
        assert RS.is_over(state)
    # the bots try everything, the MJ too
    assert {"jet", "jet+competence", "dormir", "rien", "utiliser"} <= set(actions)
    assert {"jauge", "alignement"} <= set(checked)


def test_a_game_summary_counts_every_check_and_ends_at_simulation_turns():
    sc = RS.sample_scenario(4, random.Random(3))
    dice, rng = FreeDice(3), random.Random(3)
    state = RS.setup(sc, dice).state
    checks = 0
    turns = 0
    while not RS.is_over(state):
        turns += 1
        orders = {p: PlayerOrders(p, turns, RS.bot_orders(state, sc, p, rng)) for p in RS.players_to_play(state, sc)}
        res = RS.resolve(state, sc, orders, GmOrders(turns, quiet=True), dice)
        checks += sum(e.kind == "check_detail" for e in res.events)
        assert not any(e.kind == "summary" for e in res.events)  # quiet: no end-of-turn summaries
        state = res.state
    summary = RS.game_summary(state, sc)
    assert turns == summary["turns"] == RULES["simulation"]["turns"]
    assert len(summary["outcomes"]) == checks > 0
    assert set(summary["outcomes"]) <= set(balance.LABELS.values())
    assert summary["main"] == "confiance_finale" and len(summary["figures"]["confiance_finale"]) == 4 * 2
    assert all(-5 <= t <= 5 for t in summary["figures"]["confiance_finale"])
    assert sum(summary["deaths"].values()) == sum(me["down"] for me in state["characters"].values())


def test_a_real_turn_keeps_no_simulation_tally():
    sc = scenario()
    state = setup_state(RS, sc)
    new, events, _ = resolve(RS, sc, state, {"kira": [{"jet": "physique"}]})
    assert "simulation" not in new and not RS.is_over(new)
    assert [e.data["player"] for e in events if e.kind == "summary"] == ["kira", "brann", "tia"]


def test_a_character_down_is_counted_with_its_cause():
    sc = scenario()
    state = setup_state(RS, sc)
    state["simulation"] = {"turn": 3, "outcomes": {}, "failed": [["kira", "critical_failure"]], "zero": {},
                           "ruptures": 0, "causes": {}}
    state["characters"]["kira"]["pv"] = 1
    state = RS.resolve(state, sc, {}, GmOrders(4, quiet=True), FreeDice(1)).state
    assert state["characters"]["kira"]["down"] and state["simulation"]["causes"] == {"kira": "échec critique"}
    assert state["simulation"]["zero"]["kira"]["pv"] == 4
    summary = RS.game_summary(state, sc)
    assert summary["deaths"] == {"échec critique": 1} and summary["turns"] == 4


# -- pbp simulate ----------------------------------------------------------------------------------


def test_simulate_same_seed_same_results_whatever_jobs(tmp_path):
    svg = tmp_path / "d100.svg"
    one = simulate_json("d100", "--games", "120", "--seed", "3", "--jobs", "1", "--svg", svg)
    two = simulate_json("d100", "--games", "120", "--seed", "3", "--jobs", "2", "--svg", svg)
    assert one == two
    base = one["base"]
    assert set(base["outcomes"]) == set(balance.LABELS.values())
    assert base["turns"]["max"] == RULES["simulation"]["turns"]
    assert base["main"] == "confiance_finale" and set(base["figures"]["confiance_finale"]["histogram"]) <= {
        str(t) for t in range(-5, 6)}
    # criticals: 5 % whatever the chance
    assert base["outcomes"]["réussite critique"]["ci95"][0] < 0.05 < base["outcomes"]["réussite critique"]["ci95"][1]
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_simulate_overrides_the_game_length(tmp_path):
    out = simulate_json("d100", "--games", "20", "--jobs", "1", "--override", "simulation.turns=5",
                   "--svg", tmp_path / "a.svg")
    assert out["base"]["turns"]["max"] == 20 and out["variant"]["turns"]["max"] == 5
    out = simulate_json("d100", "--games", "10", "--jobs", "1", "--max-turns", "7", "--override", "simulation.turns=null",
                   "--svg", tmp_path / "b.svg")
    assert out["variant"]["turns"]["max"] == 7


def test_simulate_the_example_campaign(tmp_path):
    root = copy_example("d100", tmp_path)
    out = simulate_json("--games", "30", "--jobs", "1", "--svg", tmp_path / "c.svg", cwd=root)
    assert out["players"] == 3 and out["source"] == "d100"
    assert set(out["base"]["figures"]) >= {"confiance_empire", "confiance_syndicat", "ruptures"}
    text = pbp("simulate", "--games", "10", "--jobs", "1", "--svg", tmp_path / "d.svg", cwd=root).output
    assert ("Issues (556) :\n"
            "  réussite                      44.6 %   [IC 95 % : 40.5 – 48.8]\n"
            "  réussite critique              4.1 %   [IC 95 % : 2.8 – 6.1]\n"
            "  échec                         46.2 %   [IC 95 % : 42.1 – 50.4]\n"
            "  échec critique                 5.0 %   [IC 95 % : 3.5 – 7.2]\n") in text
    assert "Morts par cause : échec 1, échec critique 2\n" in text
