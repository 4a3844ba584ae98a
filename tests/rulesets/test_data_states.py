"""States with a duration in a rules file ("en prison pour deux tours", "surpris
pour un round"), played through the real CLI: a state inflicted in turn T applies
to the orders of turns T+1..T+N and ends at the end of turn T+N, said to those
who see it; it keeps the character from acting or forbids actions (refused with
what is valid), formulas read it, stacking follows the rule the state gives."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from tests.helpers import pbp, play_turn, reference_rules, rules_campaign, rules_check, turn_post, write

RULES = """\
titre: La prison
jauges:
  pv: {nom: PV, départ: 10, min: 0, max: 10}
états:
  prison:
    nom: {fr: En prison, en: In jail}
    durée: 2
    empêche_d_agir: true
    message_fin: {fr: "{name} sort de prison.", en: "{name} walks out of jail."}
  surpris:
    nom: {fr: Surpris, en: Surprised}
    durée: 1
    interdit: [frapper]
    cumul: prolonger
  marque:
    nom: {fr: Marqué, en: Marked}
    visibilité: propriétaire
actions:
  arreter:
    en: arrest
    argument: personnage
    effets:
      - infliger: prison
        sur: cible
  surprendre:
    en: ambush
    argument: personnage
    effets:
      - infliger: surpris
        sur: cible
  frapper:
    en: hit
    argument: personnage
    conditions:
      - si: non cible.état.prison
        message: {fr: "la cible est en prison", en: "the target is in jail"}
    effets:
      - ajouter: {pv: "-si(cible.état.surpris, 3, 1)"}
        sur: cible
  marquer:
    en: mark
    effets:
      - infliger: marque
        durée: 1 + 1
  soigner:
    en: heal
    effets:
      - lever: marque
      - ajouter: {pv: 5 + état.marque.reste}
"""


@pytest.fixture
def jail(tmp_path):
    return rules_campaign(tmp_path, RULES, "prison", {"joueur3": {"pv": 4}},
                          players={"joueur1": "Personnage 1", "joueur2": "Personnage 2", "joueur3": "Personnage 3"})


def orders(root, n: int, given: dict) -> None:
    for handle, actions in given.items():
        write(root, f"turns/{n:03d}/orders/{handle}.yaml", {"actions": actions})


def play(root, n: int, given: dict) -> dict:
    return play_turn(root, n, given, None, *([] if given else ["--no-orders"]))["characters"]


post = turn_post


def test_a_state_lasts_its_turns_then_ends_said_to_all(jail):
    chars = play(jail, 1, {"joueur1": [{"arreter": "joueur2"}], "joueur2": [{"surprendre": "joueur3"}],
                           "joueur3": ["marquer"]})
    # inflicted in turn 1 for 2 turns: turns 2 and 3, ends at the end of turn 3
    assert chars["joueur2"]["states"] == {"prison": 3}
    text = post(jail, 1)
    assert "[b]Personnage 2[/b] : état En prison (pour 2 tours)." in text
    assert "[b]Personnage 3[/b] : état Surpris (pour 1 tour)." in text
    # a state seen by its owner: in their report, never in the thread
    assert "Marqué" not in text and "[b]Personnage 3[/b] : état Marqué (pour 2 tours)." in post(jail, 1, "joueur3")
    # turn 2: the prisoner loses the turn (orders accepted, actions ignored)
    r = pbp("status", cwd=jail)
    assert "joueur2  Personnage 2  tour perdu" in r.output.replace("\xa0", " ")
    chars = play(jail, 2, {"joueur1": [{"frapper": "joueur3"}], "joueur2": [{"frapper": "joueur1"}],
                           "joueur3": ["soigner"]})
    text = post(jail, 2)
    assert "Personnage 2[/b] : frapper" not in text  # in jail: nothing played
    # surprised: 3 PV lost instead of 1 (4 - 3 = 1); then the heal: 5 + 0 turns of the mark left after it is lifted
    assert "PV de Personnage 3 : 4 − 3 = 1." in text and "PV de Personnage 3 : 1 + 5 = 6." in text
    assert "[b]Personnage 3[/b] : fin de l'état Surpris." in text  # its one turn is over
    assert "fin de l'état Marqué." in post(jail, 2, "joueur3") and "Marqué" not in text
    assert chars["joueur3"].get("states") == {} and chars["joueur2"]["states"] == {"prison": 3}
    chars = play(jail, 3, {})
    assert "Personnage 2 sort de prison." in post(jail, 3) and chars["joueur2"]["states"] == {}
    assert "tour perdu" not in pbp("status", cwd=jail).output


def test_a_forbidden_action_and_a_condition_on_a_state_are_refused_with_what_is_valid(jail):
    play(jail, 1, {"joueur1": [{"arreter": "joueur2"}], "joueur2": [{"surprendre": "joueur3"}]})
    orders(jail, 2, {"joueur3": [{"frapper": "joueur1"}], "joueur1": [{"frapper": "joueur2"}]})
    r = pbp("check", cwd=jail)
    assert r.exit_code == 1
    out = r.output.replace("\xa0", " ")
    assert "joueur3.yaml:2: « frapper » n'est pas possible : état « Surpris » (encore 1 tour). " \
           "Valeurs possibles : arreter, surprendre, marquer, soigner." in out
    # the condition is on the target: the other targets that meet it are what is valid
    assert "joueur1.yaml:2: « frapper » n'est pas possible sur Personnage 2 : la cible est en prison. " \
           "Valeurs possibles : joueur3." in out


def test_stacking_extends_a_state_when_the_rules_say_so(jail):
    play(jail, 1, {"joueur1": [{"surprendre": "joueur3"}], "joueur2": [{"surprendre": "joueur3"}]})
    chars = yamlio.load_file(jail / "turns/001/state.yaml")["characters"]
    assert chars["joueur3"]["states"] == {"surpris": 3}  # `prolonger`: 1 + 1 turn, until the end of turn 3
    assert "[b]Personnage 3[/b] : état Surpris (pour 2 tours)." in post(jail, 1)


def test_a_state_refreshes_by_default(jail):
    play(jail, 1, {"joueur1": [{"arreter": "joueur3"}]})
    chars = play(jail, 2, {"joueur1": [{"arreter": "joueur3"}]})
    assert chars["joueur3"]["states"] == {"prison": 4}  # the longer of 3 and 2 + 2
    assert "[b]Personnage 3[/b] : état En prison (pour 2 tours)." in post(jail, 2)


def test_english_post_and_explain(jail):
    campaign = yamlio.load_file(jail / "campaign.yaml")
    campaign["lang"] = "en"
    write(jail, "campaign.yaml", campaign)
    play(jail, 1, {"joueur1": [{"arrest": "joueur2"}]})
    assert "[b]Personnage 2[/b]: In jail (for 2 turns)." in post(jail, 1).replace("\u202f", " ")
    play(jail, 2, {})
    play(jail, 3, {})
    assert "Personnage 2 walks out of jail." in post(jail, 3)
    r = pbp("rules", "explain", cwd=jail)
    assert "In jail (prison) — lasts 2 turn(s) — keeps from acting — inflicted again: the longer duration" in r.output


def test_rules_check_says_what_a_state_refers_to(tmp_path):
    bad = RULES.replace("interdit: [frapper]", "interdit: [frapperr]").replace("      - infliger: marque\n", "      - lever: marque\n")
    code, out = rules_check(tmp_path, bad)
    assert code == 1
    assert "rules.yaml:13: « frapperr » n'est pas dans `actions` de ces règles." in out
    _, out = rules_check(tmp_path, RULES.replace("      - infliger: marque\n        durée: 1 + 1\n",
                                                 "      - lever: marque\n"))
    assert "aucun effet n'inflige l'état « marque »" in out, out


@pytest.mark.parametrize("heading", ["### États à durée", "### States with a duration"])
def test_the_reference_examples_are_valid_rules(heading):
    """The examples of docs/rules-format.md for states load as written."""
    rules = reference_rules(heading)
    assert rules.data["states"] and rules.program is not None
