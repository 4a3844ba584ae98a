"""Rules that give the characters no stat and no gauge still have characters to
act on: a ballot, an opposition and `sur: cible` need an action whose argument is
a character, not a `cible.<stat>` a formula could read."""

from __future__ import annotations

from tests.helpers import pbp, play_turn, rules_campaign, turn_post, write

RULES = """\
votes:
  bucher:
    majorité: relative
    effets:
      - hors_jeu: true
oppositions:
  bras: {jet: 1d6, adversaire: 1d6}
actions:
  accuser:
    argument: personnage
    effets:
      - voter: bucher
  bousculer:
    argument: personnage
    effets:
      - opposer: bras
      - dire: "{target} est bousculé."
        sur: cible
  crier:
    effets:
      - voter: bucher
"""

PLAYERS = {"anna": "Anna", "bruno": "Bruno", "chloe": "Chloé"}


def test_rules_check_accepts_a_ballot_an_opposition_and_a_target_without_stats(tmp_path):
    path = write(tmp_path, "regles.yaml", RULES.replace("  crier:\n    effets:\n      - voter: bucher\n", ""))
    r = pbp("-C", tmp_path, "rules", "check", path)
    assert r.exit_code == 0, r.output


def test_a_ballot_in_an_action_without_a_character_is_still_refused(tmp_path):
    path = write(tmp_path, "regles.yaml", RULES)
    r = pbp("-C", tmp_path, "rules", "check", path)
    assert r.exit_code == 1
    assert (f"{path}:21: `voter` demande une action dont l'argument est un personnage (`argument: personnage`) : "
            "le bulletin est pour lui.") in r.output
    assert r.output.count(f"{path}:") == 1, r.output


def test_the_turn_plays_the_ballot_and_the_opposition_with_forced_dice(tmp_path):
    rules = RULES.replace("  crier:\n    effets:\n      - voter: bucher\n", "")
    root = rules_campaign(tmp_path, rules, "village", players=PLAYERS)
    state = play_turn(root, 1, {"anna": [{"accuser": "chloe"}], "bruno": [{"accuser": "chloe"}],
                                "chloe": [{"bousculer": "anna"}]},
                      {"rolls": {"chloe.bousculer.bras.roll.d1": 5, "chloe.bousculer.bras.versus.d1": 2}})
    post = turn_post(root, 1)
    assert "bras : [b]Chloé[/b] contre Anna : 1d6 (5) contre 1d6 (2) : Chloé l'emporte de 3." in post, post
    assert "Anna est bousculé." in post, post
    assert "Chloé : 2 voix (2 bulletins, 3 votants) → Chloé." in post, post
    assert state["characters"]["chloe"]["out"] and not state["characters"]["anna"].get("out")
