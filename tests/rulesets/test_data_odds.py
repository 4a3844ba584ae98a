"""`pbp odds --rule data.<name>` answers exactly for every kind of roll a rules file
declares, each fraction below worked out by hand: a check (success, criticals,
bands), a table (each row), a pool (each number of successes), an opposed roll
(an exchange won, tied, lost, each margin), best of N (each score), exploding
dice; and `--character`/`--target` read the values on the campaign's sheets
(campaigns/arene-sombreval), with a clear error naming what is missing."""

from __future__ import annotations

import pytest

from tests.helpers import copy_example, pbp, rules_campaign

RULES = """\
tables:
  perte:
    dé: 1d6
    lignes:
      - {jet: 1, texte: "esquive"}
      - {jet: 2-5, texte: "touché"}
      - {jet: 6, texte: "blessé"}
tests:
  panache:
    dé: 1d6!
    chance: 9
    réussite: ">="
oppositions:
  joute:
    jet: 1d6
    adversaire: 1d4
    manches: 3
  pile:
    jet: 1d2
    adversaire: 1d2
    égalité: relance
actions:
  jouter: {argument: personnage, effets: [{opposer: joute}]}
  parier: {argument: personnage, effets: [{opposer: pile}]}
  briller: {effets: [{tester: panache}, {tirer: perte}]}
"""


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    return copy_example("arene-sombreval", tmp_path_factory.mktemp("odds"))


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return rules_campaign(tmp_path_factory.mktemp("kinds"), RULES, "joutes")


def odds(root, *args) -> str:
    r = pbp("odds", "--rule", *args, cwd=root)
    assert r.exit_code == 0, r.output
    return r.output


def test_a_check_read_on_a_characters_sheet(arena):
    # Aurèle, Adresse 2: 1d20 <= 5 + 2 * 2 = 9; 1 always succeeds, 20 always fails: 9 faces of 20
    out = odds(arena, "data.salut", "--character", "Aurèle")
    assert out.startswith("Salut à la foule: 1d20 <= 9 (Aurèle)")
    assert "success                       9/20 (45.0 %)" in out and "critical failure              1/20" in out
    assert "2-10: la foule applaudit      9/20 (45.0 %)" in out


def test_a_pool_read_on_a_sheet_gives_each_number_of_successes(arena):
    # Cassius, Pugnacité 4: 5 dice, each a success at 1/3; 2 or more: 1 - (2/3)^5 - 5 (1/3)(2/3)^4 = 131/243;
    # exactly 3: 10 (1/3)^3 (2/3)^2 = 40/243; 3 or more: (40 + 10 + 1) / 243 = 17/81
    out = odds(arena, "data.charge", "--character", "cassius")
    assert "Charge: 5d6>=5 >= 2 (Cassius)" in out and "success      131/243 (53.9 %)" in out
    assert "successes 3  40/243 (16.5 %)   17/81 (21.0 %)" in out


def test_an_opposed_roll_read_on_both_sheets_with_its_margins(arena):
    # Aurèle 1d20 + Force 4 against Brune 1d20 + Adresse 4: won (1 - 1/20) / 2 = 19/40, tied 1/20, lost 21/40;
    # a margin of exactly 5: 15 pairs of 400; 5 or more: (15 + 14 + ... + 1) / 400 = 120/400 = 3/10
    out = odds(arena, "data.frappe", "--character", "aurele", "--target", "Brune")
    assert "(cible.adresse=4, force=4) (Aurèle → Brune)" in out
    assert "exchange won   19/40 (47.5 %)" in out and "exchange tied  1/20 (5.0 %)" in out
    assert "exchange lost  21/40 (52.5 %)" in out and "actor loses    21/40 (52.5 %)" in out
    assert "margin 5       3/80 (3.8 %)    3/10 (30.0 %)" in out


def test_what_is_missing_is_named(arena):
    r = pbp("odds", "--rule", "data.frappe", "--character", "aurele", cwd=arena)
    assert r.exit_code == 1
    assert "data.frappe lit les valeurs de la cible (cible.adresse) : dites-la avec --target <pseudo ou nom>." \
        in r.output
    r = pbp("odds", "--rule", "data.frappe", "--character", "Zorro", "--target", "brune", cwd=arena)
    assert r.exit_code == 1 and "personnage inconnu « Zorro »" in r.output
    assert "Valeurs possibles : aurele (Aurèle), brune (Brune), cassius (Cassius)." in r.output.replace("\xa0", " ")
    r = pbp("odds", "--rule", "data.frappe", "--target", "brune", cwd=arena)
    assert r.exit_code == 1 and "dites aussi qui agit, avec --character" in r.output


def test_a_check_that_reads_the_actions_argument_asks_for_its_target(tmp_path):
    root = copy_example("d100-data", tmp_path)
    r = pbp("odds", "--rule", "data.d100", "--character", "kira", cwd=root)
    assert r.exit_code == 1
    assert "data.d100 lit l'argument de l'action (arg.carac" in r.output and "--set target=N" in r.output


def test_the_list_names_the_campaigns_own_calculators(arena):
    r = pbp("odds", "--list", cwd=arena)
    assert "data.frappe: Frappe\n    --set cible.adresse=0    cible.adresse\n    --set force=0    force\n" \
           "    --character NAME [--target NAME]\n" in r.output


def test_a_table_each_row(lists):
    out = odds(lists, "data.perte")
    assert "2-5  touché" in out and "2/3 (66.7 %)" in out and "1/6 (16.7 %)" in out


def test_a_table_reads_no_sheet(lists):
    r = pbp("odds", "--rule", "data.perte", "--character", "joueur1", cwd=lists)
    assert r.exit_code == 1
    assert "data.perte ne lit aucune fiche de personnage : retirez --character et --target." in r.output


def test_exploding_dice(lists):
    # 1d6! >= 9: a 6, then 3 or more on the die it explodes into: 1/6 * 4/6 = 1/9
    out = odds(lists, "data.panache")
    assert "success  1/9 (11.1 %)" in out and "failure  8/9 (88.9 %)" in out


def test_best_of_three_each_score(lists):
    # 1d6 against 1d4, the defender keeps a tie: p = (5 + 4 + 3 + 2) / 24 = 7/12;
    # 2 to 0: p^2 = 49/144; 2 to 1: 2 p^2 (1 - p) = 245/864; won: 539/864; 0 to 2: (5/12)^2 = 25/144
    out = odds(lists, "data.joute")
    assert "exchange won   7/12 (58.3 %)" in out
    assert "won 2 to 0     49/144 (34.0 %)" in out and "won 2 to 1     245/864 (28.4 %)" in out
    assert "lost 0 to 2    25/144 (17.4 %)" in out and "best of 3 won  539/864 (62.4 %)" in out


def test_a_tie_rolled_again(lists):
    # 1d2 against 1d2: won 1/4, tied 1/2; rolled again up to 10 times: won 1/4 (1 + 1/2 + ... + 1/2^10) = 2047/4096,
    # and a margin of 0 only after 11 ties: 1/2^11
    out = odds(lists, "data.pile")
    assert "exchange won   2047/4096 (50.0 %)" in out and "exchange tied  1/2 (50.0 %)" in out
    assert "margin 0       1/2048 (0.0 %)" in out


def test_the_help_says_how_to_read_a_sheet(monkeypatch):
    monkeypatch.setenv("PBP_LANG", "fr")
    out = " ".join(pbp("odds", "--help").output.split())
    assert "--character <pseudo ou nom>" in out and "--target NOM" in out
    assert "réserve (chaque nombre de succès)" in out and "chaque marge" in out
    monkeypatch.setenv("PBP_LANG", "en")
    out = " ".join(pbp("odds", "--help").output.split())
    assert "--character <handle or name>" in out and "--target NAME" in out and "pool (each number of successes)" in out
