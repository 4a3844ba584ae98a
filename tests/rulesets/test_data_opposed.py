"""Dice pools and opposed rolls in a rules file, played through the real CLI with
forced dice: a check whose pool size is a formula counting successes, an opposed
roll (ties to the defender unless the rules say otherwise), best of N exchanges
with tied exchanges rolled again, margins and exchanges read by formulas, and
their exact odds with `pbp odds --rule`."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from tests.helpers import pbp, play_turn, reference_rules, rules_campaign, turn_post, write

RULES = """\
caractéristiques:
  force: {défaut: 3}
  pugnacite: {défaut: 2}
jauges:
  pv: {départ: 10, min: 0, max: 10}
tests:
  assaut:
    réserve: {dés: pugnacite + 1, côtés: 6, réussite: 5}
    chance: 2
    réussite: ">="
oppositions:
  bras_de_fer:
    nom: Bras de fer
    jet: 1d20 + force
    adversaire: 1d20 + cible.force
  duel:
    nom: Duel
    jet: 2d6
    adversaire: 2d6
    égalité: relance
    manches: 3
actions:
  lutter:
    en: wrestle
    argument: personnage
    effets:
      - opposer: bras_de_fer
        alors:
          - ajouter: {pv: -bras_de_fer.margin}
            sur: cible
        sinon:
          - dire: "{name} cède ({bras_de_fer.roll} contre {bras_de_fer.versus})."
  ferrailler:
    en: fence
    argument: personnage
    effets:
      - opposer: duel
        comme: d
        sinon:
          - ajouter: {pv: "-d.lost"}
  charger:
    en: charge
    effets:
      - tester: assaut
        alors:
          - dire: "{name} perce ({assaut.margin} de marge)."
"""


@pytest.fixture
def arena(tmp_path):
    return rules_campaign(tmp_path, RULES, "arene", {"joueur2": {"force": 1, "pugnacite": 4}})


def play(root, given: dict, rolls: dict) -> dict:
    return play_turn(root, 1, given, {"rolls": rolls})["characters"]


def post(root, who: str = "public") -> str:
    return turn_post(root, 1, who)


def test_an_opposed_roll_and_its_margin(arena):
    # 12 + 3 = 15 against 9 + 1 = 10: Personnage 1 wins by 5, Personnage 2 loses 5 PV
    chars = play(arena, {"joueur1": [{"lutter": "joueur2"}]},
                 {"joueur1.lutter.bras_de_fer.roll.d1": 12, "joueur1.lutter.bras_de_fer.versus.d1": 9})
    assert chars["joueur2"]["gauges"]["pv"] == 5
    # each side with its dice, its modifiers and its total, then who wins by what margin
    assert "Bras de fer : [b]Personnage 1[/b] contre Personnage 2 : 1d20 (12) + force 3 = 15 contre " \
           "1d20 (9) + force 1 = 10 : Personnage 1 l'emporte de 5." in post(arena)


def test_a_tie_goes_to_the_defender(arena):
    # 8 + 3 = 11 against 10 + 1 = 11: the defender keeps it
    chars = play(arena, {"joueur1": [{"lutter": "joueur2"}]},
                 {"joueur1.lutter.bras_de_fer.roll.d1": 8, "joueur1.lutter.bras_de_fer.versus.d1": 10})
    assert chars["joueur2"]["gauges"]["pv"] == 10
    text = post(arena)
    assert "1d20 (8) + force 3 = 11 contre 1d20 (10) + force 1 = 11 : égalité, Personnage 2 l'emporte " \
           "(l'égalité revient au défenseur)." in text
    assert "Personnage 1 cède (11 contre 11)." in text


def test_best_of_three_with_a_tied_exchange_rolled_again(arena):
    chars = play(arena, {"joueur2": [{"ferrailler": "joueur1"}]}, {
        "joueur2.ferrailler.duel.1.roll.d1": [3, 4], "joueur2.ferrailler.duel.1.versus.d1": [5, 2],  # 7-7: again
        "joueur2.ferrailler.duel.1.r2.roll.d1": [1, 1], "joueur2.ferrailler.duel.1.r2.versus.d1": [6, 6],
        "joueur2.ferrailler.duel.2.roll.d1": [6, 6], "joueur2.ferrailler.duel.2.versus.d1": [1, 2],
        "joueur2.ferrailler.duel.3.roll.d1": [2, 2], "joueur2.ferrailler.duel.3.versus.d1": [3, 3]})
    # exchanges lost, won, lost: Personnage 1 wins 2 to 1; `d.lost` = 2 PV for the loser
    assert chars["joueur2"]["gauges"]["pv"] == 8
    text = post(arena)
    assert "Duel : [b]Personnage 2[/b] contre Personnage 1, au meilleur de 3 manches : manche 1 : égalité " \
           "2d6 (3+4 = 7) contre 2d6 (5+2 = 7), relancé : " \
           "2d6 (1+1 = 2) contre 2d6 (6+6 = 12) → Personnage 1 ; manche 2 : 2d6 (6+6 = 12) contre " \
           "2d6 (1+2 = 3) → Personnage 2 ; manche 3 : 2d6 (2+2 = 4) contre 2d6 (3+3 = 6) → Personnage 1 : " \
           "Personnage 1 l'emporte 2 manches à 1." in text


def test_best_of_three_stops_at_two_won(arena):
    rolls = {f"joueur2.ferrailler.duel.{n}.{side}.d1": ([6, 6] if side == "roll" else [1, 1])
             for n in (1, 2) for side in ("roll", "versus")}
    play(arena, {"joueur2": [{"ferrailler": "joueur1"}]}, rolls)
    text = post(arena)
    assert "manche 3" not in text and "Personnage 2 l'emporte 2 manches à 0." in text


def test_a_pool_whose_size_is_a_formula_counts_successes(arena):
    # Personnage 1: pugnacité 2 + 1 = 3 dice; 5 and 6 succeed (5 or more): 2 successes of 2 needed
    # Personnage 2: pugnacité 4 + 1 = 5 dice; one 5: 1 success, failed
    play(arena, {"joueur1": ["charger"], "joueur2": ["charger"]},
         {"joueur1.charger.assaut": [5, 6, 2], "joueur2.charger.assaut": [1, 5, 2, 3, 4]})
    text = post(arena)
    assert "assaut de Personnage 1 : 3d6>=5 (5✔ 6✔ 2 = 2) ≥ 2 : réussite." in text
    assert "Personnage 1 perce (0 de marge)." in text
    assert "assaut de Personnage 2 : 5d6>=5 (1 5✔ 2 3 4 = 1) < 2 : échec." in text


def test_exact_odds_of_an_opposition_and_a_pool(arena):
    # 1d20 + 3 against 1d20 + 3: P(A > B) = (1 - 1/20) / 2 = 19/40, a tie 1/20
    r = pbp("odds", "--rule", "data.bras_de_fer", "--set", "force=3", "--set", "cible.force=3", cwd=arena)
    assert r.exit_code == 0, r.output
    assert "exchange won   19/40 (47.5 %)" in r.output and "exchange tied  1/20 (5.0 %)" in r.output
    # 1d20 + 5 against 1d20: P = sum over b of P(a + 5 > b) = (20*20 - (15*16/2)) / 400 = 280/400 = 7/10
    r = pbp("odds", "--rule", "data.bras_de_fer", "--set", "force=5", "--set", "cible.force=0", cwd=arena)
    assert "actor wins     7/10 (70.0 %)" in r.output
    # 3 dice at 1/3 each, 2 successes or more: 3 * (1/3)^2 * (2/3) + (1/3)^3 = 7/27
    r = pbp("odds", "--rule", "data.assaut", "--set", "dice=3", "--set", "target=2", cwd=arena)
    assert "success      7/27 (25.9 %)" in r.output


def test_english_line_and_explain(arena):
    campaign = yamlio.load_file(arena / "campaign.yaml")
    campaign["lang"] = "en"
    write(arena, "campaign.yaml", campaign)
    play(arena, {"joueur1": [{"wrestle": "joueur2"}]},
         {"joueur1.lutter.bras_de_fer.roll.d1": 12, "joueur1.lutter.bras_de_fer.versus.d1": 9})
    assert "Bras de fer: [b]Personnage 1[/b] against Personnage 2: 1d20 (12) + force 3 = 15 against " \
           "1d20 (9) + force 1 = 10: Personnage 1 wins by 5." in post(arena).replace("\u202f", "")
    r = pbp("rules", "explain", cwd=arena)
    assert "Duel (duel) — 2d6 against 2d6 — tie: rolled again — best of 3 exchanges" in r.output
    assert "(pugnacite + 1)d6>=5" in r.output


def test_rules_check_of_pools_and_oppositions(tmp_path):
    bad = RULES.replace("    réserve: {dés: pugnacite + 1, côtés: 6, réussite: 5}\n", "") \
        .replace("  charger:\n    en: charge\n    effets:\n", "  charger:\n    en: charge\n    effets:\n"
                 "      - opposer: duel\n")
    write(tmp_path, "rules.yaml", bad)
    r = pbp("rules", "check", tmp_path / "rules.yaml")
    out = r.output.replace("\xa0", " ")
    assert r.exit_code == 1
    assert "rules.yaml:7: un test dit ses dés : `dé: 1d100`, ou une réserve" in out
    assert "`opposer` demande une action dont l'argument est un personnage" in out


@pytest.mark.parametrize("heading", ["### Réserves de dés et jets opposés", "### Dice pools and opposed rolls"])
def test_the_reference_examples_are_valid_rules(heading):
    rules = reference_rules(heading)
    assert rules.program.opposed and rules.program.pools


@pytest.mark.parametrize("lang, line", [
    ("fr", "Duel : [b]Personnage 2[/b] contre Personnage 1 : égalité 2d6 (3+4 = 7) contre 2d6 (5+2 = 7), relancé : "
           "égalité 2d6 (6+6 = 12) contre 2d6 (6+6 = 12), relancé : 2d6 (1+2 = 3) contre 2d6 (4+5 = 9) : "
           "Personnage 1 l'emporte de 6."),
    ("en", "Duel: [b]Personnage 2[/b] against Personnage 1: tie 2d6 (3+4 = 7) against 2d6 (5+2 = 7), rolled again: "
           "tie 2d6 (6+6 = 12) against 2d6 (6+6 = 12), rolled again: 2d6 (1+2 = 3) against 2d6 (4+5 = 9): "
           "Personnage 1 wins by 6."),
])
def test_a_tie_rolled_again_shows_every_roll_in_order(tmp_path, lang, line):
    root = rules_campaign(tmp_path, RULES.replace("    manches: 3\n", ""), "arene",
                          {"joueur2": {"force": 1, "pugnacite": 4}})
    campaign = yamlio.load_file(root / "campaign.yaml")
    campaign["lang"] = lang
    write(root, "campaign.yaml", campaign)
    chars = play(root, {"joueur2": [{"ferrailler" if lang == "fr" else "fence": "joueur1"}]}, {
        "joueur2.ferrailler.duel.roll.d1": [3, 4], "joueur2.ferrailler.duel.versus.d1": [5, 2],
        "joueur2.ferrailler.duel.r2.roll.d1": [6, 6], "joueur2.ferrailler.duel.r2.versus.d1": [6, 6],
        "joueur2.ferrailler.duel.r3.roll.d1": [1, 2], "joueur2.ferrailler.duel.r3.versus.d1": [4, 5]})
    assert chars["joueur2"]["gauges"]["pv"] == 9  # one exchange lost: `d.lost` = 1
    assert line in post(root).replace("\u202f", ""), post(root)
