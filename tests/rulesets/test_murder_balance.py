"""Balance tools of the murder ruleset: synthetic games for `pbp simulate`,
game summaries, exact odds for `pbp odds`."""

from __future__ import annotations

import json
import random

import pytest

from pbp.balance.simulate import play_game
from pbp.model.dice import FreeDice
from pbp.rulesets.murder import Murder
from tests.helpers import pbp


#: what the bots' game on each synthetic lab comes to (seeded: the same every run)
GAMES = {
    3: (10, "victoire des meurtriers", {"piège": 1}, 0),
    6: (10, "victoire des enquêteurs", {"piège": 2}, 3),
    10: (15, "victoire des enquêteurs", {"piège": 2}, 7),
    14: (22, "victoire des enquêteurs", {"piège": 2}, 11),
}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_sample_scenarios_are_valid_and_playable(players):
    rs = Murder()
    scenario = rs.sample_scenario(players, random.Random(players))
    assert rs.validate_scenario(scenario) == []
    assert len(scenario.roster) == players and len(scenario.world["rooms"]) == max(14, players + 2)
    summary = play_game(rs, scenario, seed=players, max_turns=60, dice=FreeDice(players))
    turns, outcome, deaths, surviving = GAMES[players]
    assert summary == {"turns": turns, "outcomes": [outcome], "deaths": deaths, "main": "tour_de_fin",
                       "figures": {"tour_de_fin": [turns], "innocents_survivants": [surviving],
                                   "meurtriers_executes": [0]}}


def test_the_synthetic_lab_is_rules_data():
    """`simulation` shapes the lab: rooms for everyone, passage and loop lengths,
    how many loops; the lots are as large as their dice reach."""
    rs = Murder({"simulation": {"passage_length": [5, 5], "loop_length": [7, 7], "rooms_per_loop": 11},
                 "lots": {"second": {"dice": "1d6"}}})
    scenario = rs.sample_scenario(20, random.Random(1))
    world = scenario.world
    assert len(world["rooms"]) == 22 and world["hall"] == "hall" and "salle_21" in world["rooms"]
    assert [p[2] for p in world["passages"]] == [5] * 21 + [7] * 2  # a tree of 21 passages, 22 // 11 loops
    assert len(scenario.characters["innocents"]) == 18 and len(scenario.characters["murderers_investigators"]) == 6
    assert rs.validate_scenario(scenario) == []


def test_game_summary_counts_deaths_and_the_winner():
    state = {"turn": 7, "winner": "murderers", "players": {
        "a": {"role": "innocent", "status": "dead", "died": {"cause": "trap", "turn": 3, "room": "x"}},
        "b": {"role": "murderer", "status": "dead", "died": {"cause": "executed", "turn": 6, "room": None}},
        "c": {"role": "innocent", "status": "alive", "died": None}}}
    summary = Murder().game_summary(state, None)
    assert summary["outcomes"] == ["victoire des meurtriers"]
    assert summary["deaths"] == {"piège": 1, "exécution": 1}
    assert summary["figures"]["innocents_survivants"] == [1] and summary["figures"]["meurtriers_executes"] == [1]


def test_odds_tables():
    calc = Murder().odds()
    trap = calc["piege"].compute({"dice": "1d10"})
    assert trap.rows[5] == ["6", "50.0 %", "50.0 %"]
    prison = calc["prison"].compute({"dice": "1d10", "turns": 3})
    assert prison.rows[4] == ["5", "60.0 %", "93.6 %", "6.4 %"]
    move = calc["deplacement"].compute({"investigator": "2d8", "witness": "2d6"})
    assert move.rows[11] == ["12", "23.4 %", "2.8 %"]  # 15/64 and 1/36
    warning = calc["avertissement"].compute({"dice": "1d20+5"})
    assert warning.rows[2] == ["6", "100.0 %"]
    # the tables reach as far as the dice do
    move = calc["deplacement"].compute({"investigator": "3d8", "witness": "2d6"})
    assert len(move.rows) == 24 and move.rows[-1] == ["24", "0.2 %", "0.0 %"]  # 1/512
    warning = calc["avertissement"].compute({"dice": "1d12+4"})
    assert [row[0] for row in warning.rows] == ["2", "4", "6", "8", "10", "12", "14", "16"]
    assert warning.rows[2] == ["6", "91.7 %"]  # 11/12


def test_simulate_and_odds_from_the_command_line(tmp_path):
    r = pbp("simulate", "murder", "--games", "20", "--jobs", "1", "--players", "8", "--json",
            "--svg", tmp_path / "m.svg")
    assert r.exit_code == 0, r.output
    report = json.loads(r.output[r.output.index("{"):])
    assert report["ruleset"] == "murder" and report["games"] == 20
    r = pbp("odds", "--rule", "murder.piege")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[:3] == ["Piège : 1d10 ≥ score (survie ou défense)", "", "score  survit   meurt"]
    assert lines[3:] == ["1      100.0 %  0.0 %", "2      90.0 %   10.0 %", "3      80.0 %   20.0 %",
                         "4      70.0 %   30.0 %", "5      60.0 %   40.0 %", "6      50.0 %   50.0 %",
                         "7      40.0 %   60.0 %", "8      30.0 %   70.0 %", "9      20.0 %   80.0 %",
                         "10     10.0 %   90.0 %"]
