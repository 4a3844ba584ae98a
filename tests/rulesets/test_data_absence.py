"""The missed-orders policy of a rules file, played through the real CLI: a player
who sent nothing plays the default orders (or nothing: skip), and is owed more
actions on return ("attaque deux fois au retour"), capped; formulas read the
turns missed in a row (`absences`)."""

from __future__ import annotations

import pytest

from tests.helpers import pbp, play_turn, reference_rules, rules_campaign, turn_post, write

RULES = """\
jauges:
  pv: {départ: 20, min: 0, max: 20}
actions:
  attaquer:
    en: attack
    argument: personnage
    effets:
      - ajouter: {pv: "-si(absences > 0, 4, 2)"}
        sur: cible
  attendre:
    en: wait
    effets: []
par_tour: {nombre: 1}
ordres_manqués:
  ordres: [attendre]
  au_retour: {actions: 1, maximum: 2}
"""


@pytest.fixture
def duel(tmp_path):
    return rules_campaign(tmp_path, RULES, "duel")


def play(root, n: int, given: dict) -> dict:
    return play_turn(root, n, given, None, "--no-orders")["characters"]


post = turn_post


def test_a_player_back_after_missed_turns_attacks_twice_harder(duel):
    chars = play(duel, 1, {"joueur1": [{"attaquer": "joueur2"}]})
    assert chars["joueur2"]["missed"] == 1 and "missed" not in chars["joueur1"]
    assert "[b]Personnage 2[/b] : attendre." in post(duel, 1)  # the default orders
    assert "[b]Personnage 2[/b] a manqué 1 tour d'affilée : au retour, 1 action de plus." in post(duel, 1, "joueur2")
    # back: 1 + 1 actions; a third is refused
    write(duel, "turns/002/orders/joueur2.yaml", {"actions": [{"attaquer": "joueur1"} for _ in range(3)]})
    r = pbp("check", cwd=duel)
    assert "joueur2.yaml:4: 3 actions ce tour ; au plus 2." in r.output.replace("\xa0", " ")
    chars = play(duel, 2, {"joueur2": [{"attaquer": "joueur1"} for _ in range(2)]})
    # each attack 4 (absences 1 > 0): 20 - 4 - 4 = 12; the count reset
    assert chars["joueur1"]["gauges"]["pv"] == 12 and "missed" not in chars["joueur2"]
    assert "pv de Personnage 1 : 16 − 4 = 12." in post(duel, 2)


def test_what_is_owed_is_capped(duel):
    for n in (1, 2, 3):
        chars = play(duel, n, {"joueur1": ["attendre"]})
    assert chars["joueur2"]["missed"] == 3
    write(duel, "turns/004/orders/joueur2.yaml", {"actions": [{"attaquer": "joueur1"} for _ in range(4)]})
    r = pbp("check", cwd=duel)
    assert "4 actions ce tour ; au plus 3." in r.output.replace("\xa0", " ")  # 1 + 1 x min(3, 2)


def test_explain_says_the_policy(duel):
    r = pbp("rules", "explain", cwd=duel)
    assert "sans ordres : attendre" in r.output
    assert "au retour, par tour manqué d'affilée (au plus 2) : 1 action(s) et 0 point(s) de plus" in r.output


@pytest.mark.parametrize("heading", ["### Au retour d'un absent", "### Back after missed turns"])
def test_the_reference_examples_are_valid_rules(heading):
    rules = reference_rules(heading)
    assert rules.program.track_missed
