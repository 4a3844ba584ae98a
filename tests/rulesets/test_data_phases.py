"""Turn order, days and phases, and effects every N turns in a rules file, played
through the real CLI with forced dice: initiative rolled every turn (ties in
campaign.yaml's order), groups one after the other, the day and phase read by
formulas and prerequisites (of the turn being ordered), periodic effects."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from tests.helpers import pbp, play_turn, reference_rules, rules_campaign, turn_post, write

RULES = """\
caractéristiques:
  agilite: {défaut: 10}
  camp: {type: texte, défaut: heros}
jauges:
  pv: {départ: 10, min: 0, max: 10}
  rage: {départ: 0, min: 0, max: 10}
ordre_de_jeu:
  initiative: 1d20 + agilite
  groupes: {caractéristique: camp, ordre: [heros, monstres]}
calendrier:
  phases: [{fr: jour, en: day}, {fr: nuit, en: night}]
périodiques:
  - tous_les: 2
    chacun: true
    effets:
      - ajouter: {rage: 1}
  - tous_les: 3
    à_partir_de: 1
    effets:
      - dire: {fr: "La cloche sonne (jour {jour}).", en: "The bell rings (day {jour})."}
actions:
  frapper:
    en: hit
    argument: personnage
    conditions:
      - si: phase = "nuit" ou camp = "heros"
        message: {fr: "les monstres ne frappent que la nuit", en: "monsters only strike at night"}
    effets:
      - ajouter: {pv: -1}
        sur: cible
  veiller:
    en: watch
    effets:
      - dire: "{name} veille (jour {jour}, tour {tour_du_jour} du jour, {phase})."
"""


@pytest.fixture
def night(tmp_path):
    return rules_campaign(tmp_path, RULES, "nuit",
                          {"joueur3": {"camp": "monstres", "agilite": 30}, "joueur2": {"agilite": 12}},
                          players={"joueur1": "Personnage 1", "joueur2": "Personnage 2", "joueur3": "Personnage 3"})


def play(root, n: int, given: dict, rolls: dict | None = None) -> dict:
    return play_turn(root, n, given, {"rolls": rolls} if rolls else None, *([] if given else ["--no-orders"]))


post = turn_post


def test_initiative_every_turn_ties_in_roster_order_and_groups(night):
    # 5 + 10 = 15 and 3 + 12 = 15: a tie, campaign.yaml's order (Personnage 1 first);
    # Personnage 3 rolls 50 but the monsters play after the heroes
    state = play(night, 1, {"joueur1": ["veiller"], "joueur2": ["veiller"], "joueur3": ["veiller"]},
                 {"joueur1.initiative.d1": 5, "joueur2.initiative.d1": 3, "joueur3.initiative.d1": 20})
    text = post(night, 1)
    assert "Dés de Personnage 1 : 1d20 (5) + agilite 10 = 15." in text
    assert "Ordre de jeu : Personnage 1 (15), Personnage 2 (15), Personnage 3 (50)." in text
    assert text.index("Personnage 1 veille") < text.index("Personnage 2 veille") < text.index("Personnage 3 veille")
    assert "_resolving" not in state
    state = play(night, 2, {"joueur1": ["veiller"], "joueur2": ["veiller"], "joueur3": ["veiller"]},
                 {"joueur1.initiative.d1": 1, "joueur2.initiative.d1": 9})
    assert "Ordre de jeu : Personnage 2 (21), Personnage 1 (11), Personnage 3" in post(night, 2)


def test_days_phases_and_the_prerequisite_of_the_turn_being_ordered(night):
    write(night, "turns/001/orders/joueur3.yaml", {"actions": [{"frapper": "joueur1"}]})
    r = pbp("check", cwd=night)
    assert "joueur3.yaml:2: « frapper » n'est pas possible : les monstres ne frappent que la nuit. " \
           "Valeurs possibles : veiller." in r.output.replace("\xa0", " ")
    play(night, 1, {"joueur1": ["veiller"], "joueur3": ["veiller"]})
    text = post(night, 1)
    assert "Jour 1, phase « jour »." in text and "Personnage 1 veille (jour 1, tour 1 du jour, jour)." in text
    # turn 2 is the night: the monster may strike
    state = play(night, 2, {"joueur3": [{"frapper": "joueur1"}]})
    assert "Jour 1, phase « nuit »." in post(night, 2) and state["characters"]["joueur1"]["gauges"]["pv"] == 9
    play(night, 3, {"joueur1": ["veiller"]})
    assert "Jour 2, phase « jour »." in post(night, 3) and "Personnage 1 veille (jour 2, tour 1 du jour, jour)." in post(night, 3)


def test_periodic_effects(night):
    # every 2 turns from turn 2, for each character; every 3 turns from turn 1, once
    states = [play(night, n, {}) for n in range(1, 5)]
    assert [s["characters"]["joueur1"]["gauges"]["rage"] for s in states] == [0, 1, 1, 2]
    bells = [n for n in range(1, 5) if "La cloche sonne" in post(night, n)]
    assert bells == [1, 4] and "La cloche sonne (jour 2)." in post(night, 4)
    assert "rage de Personnage 3 : 0 + 1 = 1." in post(night, 2)


def test_english_and_explain(night):
    campaign = yamlio.load_file(night / "campaign.yaml")
    campaign["lang"] = "en"
    write(night, "campaign.yaml", campaign)
    play(night, 1, {"joueur1": ["watch"]}, {"joueur1.initiative.d1": 5, "joueur2.initiative.d1": 3,
                                             "joueur3.initiative.d1": 20})
    text = post(night, 1).replace("\u202f", "")
    assert "Day 1, phase “day”." in text and "Order of play: Personnage 1 (15), Personnage 2 (15), Personnage 3 (50)." in text
    r = pbp("rules", "explain", cwd=night)
    assert "initiative every turn: 1d20 + agilite, the highest first (ties: campaign.yaml's order)" in r.output
    assert "every 2 turns (from turn 2), for each character in play" in r.output


def test_rules_check_of_the_calendar(tmp_path):
    write(tmp_path, "rules.yaml", RULES.replace("calendrier:\n", "calendrier:\n  tours_par_jour: 3\n")
          .replace("groupes: {caractéristique: camp,", "groupes: {caractéristique: cmp,"))
    r = pbp("rules", "check", tmp_path / "rules.yaml")
    out = r.output.replace("\xa0", " ")
    assert r.exit_code == 1
    assert "2 phases pour des jours de 3 tours : une phase par tour du jour." in out
    assert "« cmp » n'est pas dans `caractéristiques` de ces règles." in out


@pytest.mark.parametrize("heading", ["### Ordre de jeu, jours et phases", "### Turn order, days and phases"])
def test_the_reference_examples_are_valid_rules(heading):
    rules = reference_rules(heading)
    assert rules.program.order and rules.program.periodic


def test_a_stat_named_like_a_calendar_name_stays_the_stat(tmp_path):
    """`jour`, `phase`, `absences`: the calendar's and the missed turns' names give way to a stat of that name."""
    write(tmp_path, "rules.yaml", """\
        caractéristiques:
          jour: {défaut: 7}
          absences: {défaut: 2}
        jauges:
          pv: {départ: 20, min: 0, max: 20}
        calendrier:
          phases: [matin, soir]
        actions:
          compter:
            effets:
              - ajouter: {pv: -jour - absences}
              - dire: "{name} compte {jour} ({phase})."
        """)
    root = tmp_path / "c"
    assert pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git").exit_code == 0
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    state = play(root, 1, {"joueur1": ["compter"]})
    assert state["characters"]["joueur1"]["gauges"]["pv"] == 11
    assert "Personnage 1 compte 7 (matin)." in post(root, 1)
