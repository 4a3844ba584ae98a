"""The building blocks of a rules file beyond the two examples, each played through
the real CLI with forced dice and its numbers checked by hand: checks against a
chance (criticals, bands, then/else), points and their costs, once a turn, gauges
every N, once-only thresholds, losing turns, secret stats kept out of the thread
and revealed, private messages, the MJ's per-character inputs, the end by a formula."""

from __future__ import annotations

import pytest

from tests.helpers import pbp, play_turn, rules_campaign, turn_post, write

RULES = """\
titre: Le donjon
caractéristiques:
  agilite: {nom: Agilité, défaut: 30, min: 0, max: 100}
  secret_role: {nom: {fr: Rôle, en: Role}, type: texte, défaut: villageois, visibilité: propriétaire}
jauges:
  pv:
    nom: PV
    départ: 10
    min: 0
    max: 10
    seuils:
      - sous: 5
        une_fois: true
        effets:
          - dire: {fr: "{name} saigne.", en: "{name} bleeds."}
      - à: 0
        effets:
          - hors_jeu: true
  or:
    nom: Or
    départ: 0
    seuils:
      - tous_les: 10
        effets:
          - ajouter: {pv: 1}
tests:
  esquive:
    nom: Esquive
    dé: 1d100
    chance: agilite * 2 + mj.bonus
    réussite: "<="
    critique: {réussite: 1-5, échec: 96-100}
    paliers:
      - {jet: 1-30, texte: "sans une égratignure"}
      - {jet: 31-100, texte: "de justesse"}
entrées_mj:
  bonus: {type: nombre, min: -20, max: 20, défaut: 0, par: personnage}
  fin: {type: oui_non, défaut: false}
actions:
  piege:
    en: trap
    coût: 2
    effets:
      - tester: esquive
        alors:
          - dire: {fr: "{name} évite le piège ({esquive.margin} de marge).", en: "{name} avoids the trap."}
        sinon:
          - ajouter: {pv: -6}
          - perd_un_tour: 1
  fouiller:
    en: search
    coût: si(pv < 5, 3, 1)
    une_fois: true
    effets:
      - ajouter: {or: 7}
      - dire: {fr: "{name} trouve 7 pièces.", en: "{name} finds 7 coins."}
        pour: acteur
  avouer:
    en: confess
    effets:
      - révéler: secret_role
par_tour: {points: 3}
fin: {quand: mj.fin}
ordres_manqués: {ordres: []}
"""


@pytest.fixture
def dungeon(tmp_path):
    return rules_campaign(tmp_path, RULES, "donjon", {"joueur1": {"secret_role": "loup-garou", "agilite": 40},
                                                     "joueur2": {"secret_role": "voyante"}})


def play(root, n: int, orders: dict, gm: dict | None = None):
    return play_turn(root, n, orders, gm)["characters"]


post = turn_post


def test_a_check_against_a_chance_its_bands_margin_and_else(dungeon):
    # joueur1: chance 40 * 2 + 5 (the MJ's bonus for him) = 85; 60 succeeds by 25, "de justesse"
    # joueur2: chance 30 * 2 = 60; 61 fails: 10 - 6 = 4 HP, below 5 once: bleeds, and loses a turn
    chars = play(dungeon, 1, {"joueur1": ["piege"], "joueur2": ["trap"]},
                 {"orders": {"bonus": {"joueur1": 5}},
                  "rolls": {"joueur1.piege.esquive": 60, "joueur2.piege.esquive": 61}})
    assert chars["joueur1"]["gauges"]["pv"] == 10 and chars["joueur2"]["gauges"]["pv"] == 4
    text = post(dungeon, 1)
    assert "Esquive de Personnage 1 : 1d100 (60) ≤ 85 : réussite (de justesse)." in text
    assert "Personnage 1 évite le piège (25 de marge)." in text
    assert "Esquive de Personnage 2 : 1d100 (61) ≤ 60 : échec (de justesse)." in text
    assert "PV de Personnage 2 : 10 − 6 = 4." in text and "Personnage 2 saigne." in text
    assert "Personnage 2[/b] passe son prochain tour." in text
    # a lost turn: not asked, then back
    r = pbp("status", cwd=dungeon)
    assert r.exit_code == 0
    chars = play(dungeon, 2, {"joueur1": ["piege"]}, {"rolls": {"joueur1.piege.esquive": 3}})
    assert chars["joueur2"]["lost"] == 0
    # the MJ's bonus is kept from turn to turn: 85 again
    assert "1d100 (3) ≤ 85 : réussite critique (sans une égratignure)." in post(dungeon, 2)


def test_a_critical_failure_fails_whatever_the_chance(dungeon):
    play(dungeon, 1, {"joueur1": ["piege"], "joueur2": ["fouiller"]},
         {"orders": {"bonus": {"joueur1": 20}}, "rolls": {"joueur1.piege.esquive": 97}})
    assert "1d100 (97) ≤ 100 : échec critique (de justesse)." in post(dungeon, 1)


def test_costs_once_a_turn_and_what_is_left(dungeon):
    write(dungeon, "turns/001/orders/joueur1.yaml", {"actions": ["fouiller", "fouiller", "piege"]})
    r = pbp("check", cwd=dungeon)
    assert r.exit_code == 1
    out = r.output.replace("\xa0", " ")
    assert "joueur1.yaml:3: « fouiller » une deuxième fois : pas deux fois la même action par tour. " \
           "Valeurs possibles : piege, avouer." in out
    write(dungeon, "turns/001/orders/joueur1.yaml", {"actions": ["piege", "fouiller", "piege"]})
    r = pbp("check", cwd=dungeon)
    assert r.exit_code == 1
    assert "joueur1.yaml:4: « piege » coûte 2 points ; il en reste 0 sur 3 ce tour." in r.output.replace("\xa0", " ")
    write(dungeon, "turns/001/orders/joueur1.yaml", {"actions": ["piege", "fouiller", "avouer"]})
    assert pbp("check", cwd=dungeon).exit_code == 0  # 2 + 1 + 0 points of 3


def test_every_multiple_of_n_and_a_private_message(dungeon):
    play(dungeon, 1, {"joueur1": ["fouiller"], "joueur2": ["avouer"]})
    chars = play(dungeon, 2, {"joueur1": ["fouiller"], "joueur2": ["avouer"]})
    assert chars["joueur1"]["gauges"]["or"] == 14  # 7 + 7: 10 crossed once, +1 HP (at most 10)
    assert "Or de Personnage 1 : 7 + 7 = 14." in post(dungeon, 2)
    assert "Personnage 1 trouve 7 pièces." not in post(dungeon, 2)
    assert "Personnage 1 trouve 7 pièces." in post(dungeon, 2, "joueur1")


def test_a_secret_stat_stays_out_of_the_thread_until_revealed(dungeon):
    assert "loup-garou" not in post(dungeon, 0) and "Rôle loup-garou" in post(dungeon, 0, "gm")
    assert "Rôle loup-garou" in post(dungeon, 0, "joueur1") and "loup-garou" not in post(dungeon, 0, "joueur2")
    play(dungeon, 1, {"joueur1": ["avouer"], "joueur2": ["fouiller"]})
    assert "Rôle de Personnage 1 : loup-garou." in post(dungeon, 1)


def test_the_mj_ends_the_game_by_an_input(dungeon):
    chars = play(dungeon, 1, {"joueur1": ["fouiller"], "joueur2": ["fouiller"]}, {"orders": {"fin": True}})
    assert all(not c["out"] for c in chars.values())
    assert "Fin de la partie : Personnage 1, Personnage 2 l'emportent." in post(dungeon, 1)


def test_check_odds_are_exact(dungeon):
    r = pbp("odds", "--rule", "data.esquive", "--set", "target=60", cwd=dungeon)
    assert r.exit_code == 0, r.output
    # 1-60 succeed but 96-100 never do and 1-5 always do: 60/100 = 3/5
    assert "success  3/5 (60.0 %)" in r.output


OPPOSED = """\
caractéristiques:
  force: {défaut: 3}
jauges:
  pv: {départ: 10, min: 0, max: 10}
actions:
  lutter:
    en: wrestle
    argument: personnage
    effets:
      - si: 1d20 + force > 1d20 + cible.force
        alors: [{ajouter: {pv: -2}, sur: cible}]
        sinon: [{ajouter: {pv: -1}}]
"""


def test_an_opposed_roll_written_in_a_formula_shows_its_dice(tmp_path):
    write(tmp_path, "rules.yaml", OPPOSED)
    root = tmp_path / "lutte"
    assert pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git").exit_code == 0
    write(root, "characters.yaml", {"joueur2": {"force": 5}})
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    # 12 + 3 against 10 + 5: not more, so the wrestler loses 1
    chars = play(root, 1, {"joueur1": [{"lutter": "joueur2"}]},
                 {"rolls": {"joueur1.lutter.d1": 12, "joueur1.lutter.d2": 10}})
    assert chars["joueur1"]["gauges"]["pv"] == 9 and chars["joueur2"]["gauges"]["pv"] == 10
    assert "Dés de Personnage 1 : 1d20 (12), 1d20 (10) → 1d20 + force > 1d20 + cible.force = faux." in post(root, 1)


LOOT = """\
jauges:
  vivres: {départ: 0, min: 0, max: 9}
  arme: {départ: 0, min: 0, max: 9}
tables:
  corne:
    dé: 1d20
    lignes:
      - {jet: 1-19, vivres: 2, texte: "un sac de vivres"}
      - {jet: 20, texte: "un parachute", table: sponsor}
  sponsor:
    dé: 1d6
    lignes:
      - {jet: 1-5, vivres: 1, texte: "un panier"}
      - {jet: 6, arme: 2, texte: "un couteau"}
actions:
  fouiller:
    effets:
      - tirer: corne
        comme: butin
      - ajouter: {vivres: butin.vivres, arme: butin.arme}
"""


def test_a_sub_tables_columns_are_read_through_the_result_even_those_its_table_lacks(tmp_path):
    # `arme` is a column of the sub-table only: the roll on `corne` reads it all the same,
    # 0 on a row that chains nothing (as a row that does not say a column)
    write(tmp_path, "rules.yaml", LOOT)
    root = tmp_path / "corne"
    r = pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git")
    assert r.exit_code == 0, r.output
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    chars = play(root, 1, {"joueur1": ["fouiller"], "joueur2": ["fouiller"]},
                 {"rolls": {"joueur1.fouiller.corne": 20, "joueur1.fouiller.corne.sponsor": 6,
                            "joueur2.fouiller.corne": 3}})
    assert chars["joueur1"]["gauges"] == {"vivres": 0, "arme": 2}
    assert chars["joueur2"]["gauges"] == {"vivres": 2, "arme": 0}
    assert "corne de Personnage 1 : 1d20 (20) → un parachute ; sponsor : 1d6 (6) → un couteau." in post(root, 1)
