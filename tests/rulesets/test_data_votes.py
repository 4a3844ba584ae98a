"""Votes and accusations in a rules file, and teams that win, played through the
real CLI: ballots cast by an action whose argument is a character, tallied at the
end of the turn by the vote's majority rule (relative, absolute = MORE than half,
unanimity; ties by the rule given, drawn by lot with a roll the MJ can force),
public or secret ballots (a secret one never in the thread), who may vote, the
effects on the one chosen, and a team's victory said in the end post."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from tests.helpers import pbp, play_turn, reference_rules, rules_campaign, turn_post, write

RULES = """\
titre: Le village
caractéristiques:
  camp: {nom: Camp, type: texte, défaut: village, visibilité: propriétaire}
votes:
  bucher:
    nom: {fr: Le bûcher, en: The stake}
    majorité: MAJORITY
    égalité: TIES
    compte_sur: BASE
    effets:
      - dire: {fr: "{name} monte sur le bûcher ({bucher.votes} voix).", en: "{name} is burnt ({bucher.votes} votes)."}
      - hors_jeu: true
      - révéler: camp
    sans_élu:
      - dire: {fr: "Le village se disperse.", en: "The village goes home."}
  chasse:
    nom: {fr: La chasse, en: The hunt}
    scrutin: secret
    votants: camp = "loups"
    effets:
      - hors_jeu: true
actions:
  accuser:
    en: accuse
    argument: personnage
    une_fois: true
    effets:
      - voter: bucher
  devorer:
    en: devour
    argument: personnage
    une_fois: true
    effets:
      - voter: chasse
  attendre:
    en: wait
    effets: []
fin:
  équipes: {caractéristique: camp, valeurs: [village, loups]}
  victoires:
    - équipe: loups
      quand: équipe.loups >= équipe.village
    - équipe: village
      quand: équipe.loups = 0
"""
PLAYERS = {"anna": "Anna", "bruno": "Bruno", "chloe": "Chloé", "denis": "Denis", "elise": "Élise", "fanny": "Fanny"}


def village(tmp_path, majority="relative", ties="personne", base="votants", players=PLAYERS):
    rules = RULES.replace("MAJORITY", majority).replace("TIES", ties).replace("BASE", base)
    return rules_campaign(tmp_path, rules, "village", {"anna": {"camp": "loups"}}, players=players)


play = play_turn
post = turn_post


def accuse(votes: dict) -> dict:
    """{voter: accused} -> the orders (everyone else waits)."""
    return {h: [{"accuser": votes[h]}] if h in votes else ["attendre"] for h in PLAYERS}


def test_absolute_majority_is_more_than_half_of_the_voters_not_half(tmp_path):
    root = village(tmp_path, "absolue")
    # 6 voters, 3 votes for Chloé: exactly half, not more: nobody
    state = play(root, 1, accuse({"anna": "chloe", "bruno": "chloe", "denis": "chloe", "chloe": "anna"}))
    text = post(root, 1)
    assert "Dépouillement, Le bûcher : Chloé : 3 voix ; Anna : 1 voix (4 bulletins, 6 votants), " \
           "majorité absolue : 4 voix sur 6 → personne." in text
    assert "Le village se disperse." in text and not state["characters"]["chloe"]["out"]
    # 4 of 6: chosen, out, her team revealed
    state = play(root, 2, accuse({"anna": "chloe", "bruno": "chloe", "denis": "chloe", "elise": "chloe"}))
    text = post(root, 2)
    assert "majorité absolue : 4 voix sur 6 → Chloé." in text
    assert "Chloé monte sur le bûcher (4 voix)." in text and "Camp de Chloé : village." in text
    assert state["characters"]["chloe"]["out"]


def test_absolute_majority_of_the_ballots_cast(tmp_path):
    root = village(tmp_path, "absolue", base="exprimés")
    play(root, 1, accuse({"anna": "chloe", "bruno": "chloe", "chloe": "anna"}))
    assert "(3 bulletins, 6 votants), majorité absolue : 2 voix sur 3 → Chloé." in post(root, 1)


def test_relative_majority_and_its_ties(tmp_path):
    root = village(tmp_path)
    play(root, 1, accuse({"anna": "chloe", "bruno": "chloe", "chloe": "anna", "denis": "bruno"}))
    assert "Chloé : 2 voix ; Anna : 1 voix ; Bruno : 1 voix (4 bulletins, 6 votants) → Chloé." in post(root, 1)
    # a tie: nobody (the rule by default)
    play(root, 2, accuse({"anna": "denis", "bruno": "elise"}))
    assert "Denis : 1 voix ; Élise : 1 voix (2 bulletins, 5 votants) → égalité entre Denis, Élise : personne." \
        in post(root, 2)


def test_a_tie_drawn_by_lot_with_a_roll_the_mj_forces(tmp_path):
    root = village(tmp_path, ties="hasard")
    orders = accuse({"anna": "denis", "bruno": "elise", "chloe": "fanny"})
    for handle, actions in orders.items():
        write(root, f"turns/001/orders/{handle}.yaml", {"actions": actions})
    r = pbp("run", "--dry-run", cwd=root)
    assert "vote.bucher.tie : 1d3" in r.output.replace("\xa0", " ")
    state = play(root, 1, orders, {"rolls": {"vote.bucher.tie": 2}})  # the second of the tied in roster order
    assert "→ égalité entre Denis, Élise, Fanny : Élise." in post(root, 1)
    assert state["characters"]["elise"]["out"]


def test_ties_all_and_unanimity(tmp_path):
    root = village(tmp_path, ties="tous")
    state = play(root, 1, accuse({"anna": "denis", "bruno": "elise"}))
    assert "→ égalité entre Denis, Élise : Denis, Élise." in post(root, 1)
    assert state["characters"]["denis"]["out"] and state["characters"]["elise"]["out"]
    root = village(tmp_path / "u", "unanimité")
    play(root, 1, accuse({h: "bruno" for h in PLAYERS if h != "bruno"}))
    assert "Bruno : 5 voix (5 bulletins, 6 votants), unanimité : 6 voix → personne." in post(root, 1)


def test_a_secret_ballot_stays_out_of_the_thread_and_only_voters_vote(tmp_path):
    root = village(tmp_path)
    write(root, "turns/001/orders/chloe.yaml", {"actions": [{"devorer": "denis"}]})
    r = pbp("check", cwd=root)
    assert "chloe.yaml:2: « devorer » n'est pas possible : ne vote pas à « La chasse ». Valeurs possibles : " \
           "accuser, attendre." in r.output.replace("\xa0", " ")
    orders = accuse({})
    orders["anna"] = [{"devorer": "denis"}]
    state = play(root, 1, orders)
    text = post(root, 1)
    assert "devorer" not in text and "vote (La chasse)" not in text and "bulletin" not in text
    assert "La chasse" not in text and "[b]Denis[/b] est hors jeu." in text and state["characters"]["denis"]["out"]
    assert "[b]Anna[/b] : devorer → Denis (vote : La chasse)." in post(root, 1, "anna")  # said once
    gm = post(root, 1, "gm")
    assert "Dépouillement, La chasse : Denis : 1 voix (1 bulletin, 1 votant) → Denis." in gm


def test_a_team_wins_and_the_end_post_says_it(tmp_path):
    root = village(tmp_path, players={"anna": "Anna", "bruno": "Bruno", "chloe": "Chloé"})
    # 1 wolf, 2 villagers: the wolf devours Bruno (1 against 1: the wolves win)
    state = play(root, 1, {"anna": [{"devorer": "bruno"}], "bruno": ["attendre"], "chloe": ["attendre"]})
    assert state["over"] and state["winners"] == ["anna"]
    assert "Victoire : loups (Anna).\n[*]Fin de la partie : Anna l'emporte." in post(root, 1)


def test_the_village_wins_when_no_wolf_is_left(tmp_path):
    root = village(tmp_path, players={"anna": "Anna", "bruno": "Bruno", "chloe": "Chloé"})
    state = play(root, 1, {"anna": [{"accuser": "bruno"}], "bruno": [{"accuser": "anna"}],
                           "chloe": [{"accuser": "anna"}]})
    assert state["winners"] == ["bruno", "chloe"]
    assert "Victoire : village (Bruno, Chloé)." in post(root, 1)


def test_english_lines(tmp_path):
    root = village(tmp_path, "absolue")
    campaign = yamlio.load_file(root / "campaign.yaml")
    campaign["lang"] = "en"
    write(root, "campaign.yaml", campaign)
    play(root, 1, accuse({"anna": "chloe", "bruno": "chloe", "denis": "chloe", "elise": "chloe"}))
    text = post(root, 1).replace("\u202f", " ")
    assert "Count, The stake: Chloé: 4 votes (4 ballots, 6 voters), absolute majority: 4 votes of 6 → Chloé." \
        in text
    assert "Chloé is burnt (4 votes)." in text


def test_rules_check_of_votes_and_teams(tmp_path):
    bad = RULES.replace("MAJORITY", "absolue").replace("TIES", "personne").replace("BASE", "votants") \
        .replace("    - équipe: village\n", "    - équipe: villages\n") \
        .replace("      - voter: bucher\n", "      - voter: bucher\n  crier:\n    effets:\n      - voter: bucher\n")
    write(tmp_path, "rules.yaml", bad)
    r = pbp("rules", "check", tmp_path / "rules.yaml")
    out = r.output.replace("\xa0", " ")
    assert r.exit_code == 1
    assert "« villages » n'est pas dans `fin.équipes.valeurs` de ces règles." in out
    assert "`voter` demande une action dont l'argument est un personnage" in out
    write(tmp_path, "rules.yaml", RULES.replace("MAJORITY", "absolue").replace("TIES", "personne")
          .replace("BASE", "votants").replace("    une_fois: true\n    effets:\n      - voter: chasse",
                                              "    une_fois: true\n    visibilité: public\n    effets:\n      - voter: chasse"))
    r = pbp("rules", "check", tmp_path / "rules.yaml")
    assert "le scrutin « chasse » est secret mais l'action « devorer » qui y vote est publique" in \
        r.output.replace("\xa0", " "), r.output


@pytest.mark.parametrize("heading", ["### Votes et accusations", "### Votes and accusations"])
def test_the_reference_examples_are_valid_rules(heading):
    rules = reference_rules(heading)
    assert rules.data["votes"] and rules.program.victories
