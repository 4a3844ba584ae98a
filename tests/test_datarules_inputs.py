"""The MJ's inputs (gm.yaml `orders:` the rules ask for) are checked like orders,
each refusal at its line; a player's orders are checked as they stood before
this turn's gm.yaml was read (the MJ's ruling of the turn sets what it costs);
a free-text argument goes through `pbp orders import` and the bots of `pbp simulate`."""

from __future__ import annotations

import pytest

from pbp.base import yamlio
from tests.helpers import pbp, simulate_json, write

RULES = """\
entrées_mj:
  combat: {type: oui_non, défaut: false}
  prix: {type: nombre, min: 0, max: 6, défaut: 0, par: personnage}
  temps: {type: choix, valeurs: [pluie, soleil], défaut: soleil}
  verdict: {type: texte, défaut: rien}
  autorise: {type: oui_non, défaut: false}
jauges:
  pa: {nom: PA, départ: 5, min: 0, max: 5, visibilité: propriétaire}
actions:
  fouiller:
    nom: {fr: Fouiller une salle, en: Search a hall}
    coût: si(mj.autorise, 3, 4)
    effets:
      - dire: "{name} fouille."
  noter:
    nom: {fr: Prendre des notes, en: Take notes}
    argument: texte
    effets:
      - dire: {fr: "{name} note : {arg}", en: "{name} notes: {arg}"}
        pour: acteur
  avouer:
    argument: texte
    effets:
      - hors_jeu: true
  attendre:
    effets:
      - dire: "{name} attend."
par_tour: {jauge: pa}
fin: {dernier_debout: 1}
ordres_manqués: {ordres: [attendre]}
"""


@pytest.fixture
def root(tmp_path):
    root = tmp_path / "camp"
    write(root, "campaign.yaml", "ruleset: data\ntitle: Essai\nplayers:\n  lyra: Lyra\n  tom: Tom\n")
    write(root, "secret.yaml", "secret: s3cret\n")
    write(root, "rules.yaml", RULES)
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    return root


def test_every_wrong_input_of_the_mj_is_refused_at_its_line_and_the_turn_waits(root):
    write(root, "turns/001/orders/lyra.yaml", "actions: [attendre]\n")
    write(root, "turns/001/gm.yaml", """
        ordres:
          combat: peut-être
          prix: {lyra: 9, zoe: 1}
          temps: neige
          verdict: [coupable, innocent]
          duree: 3
    """)
    for command in ("check", "run"):
        r = pbp(command, *(["--no-commit"] if command == "run" else []), cwd=root)
        assert r.exit_code == 1 and "Traceback" not in r.output
        said = r.output.replace("\xa0", " ")
        for line, text in ((2, "« peut-être » n'est pas une valeur possible. Valeurs possibles : oui, non."),
                           (3, "9 est hors limites (0 à 6)."),
                           (3, "joueur inconnu « zoe ». Valeurs possibles : lyra, tom."),
                           (4, "« neige » n'est pas une valeur possible. Valeurs possibles : pluie, soleil."),
                           (5, "argument invalide ; attendu : texte."),
                           (6, "« duree » n'est pas une entrée du MJ de ces règles")):
            assert f"turns/001/gm.yaml:{line}: {text}" in said, (command, text, said)
    assert not (root / "turns/001/state.yaml").exists()


def test_the_mjs_inputs_are_read_by_the_types_of_order_arguments(root):
    """A value of the MJ is read as a player's argument of its type is: a choice
    whatever its case, a character by name, a typo answered with the value meant,
    an empty value with the type it wants."""
    write(root, "turns/001/orders/lyra.yaml", "actions: [attendre]\n")
    write(root, "turns/001/gm.yaml", "ordres:\n  combat:\n  temps: Soleill\n  prix: {Lyra: 2, tom: deux}\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1 and "Traceback" not in r.output
    said = r.output.replace("\xa0", " ")
    for line, text in ((2, "argument invalide ; attendu : oui | non."),
                       (3, "« Soleill » n'est pas une valeur possible. Vouliez-vous dire « soleil » ? "
                           "Valeurs possibles : pluie, soleil."),
                       (4, "argument invalide ; attendu : nombre.")):
        assert f"turns/001/gm.yaml:{line}: {text}\n" in said, (text, said)
    write(root, "turns/001/gm.yaml", "ordres:\n  combat: Oui\n  temps: Pluie\n  prix: {Lyra: 2}\n")
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    state = yamlio.load_file(root / "turns/001/state.yaml")
    assert state["inputs"]["combat"] is True and state["inputs"]["temps"] == "pluie"
    assert state["inputs_by"]["lyra"]["prix"] == 2


def test_the_mj_may_say_oui_or_non(root):
    write(root, "turns/001/orders/lyra.yaml", "actions: [attendre]\n")
    write(root, "turns/001/gm.yaml", "ordres:\n  combat: oui\n  autorise: Non\n")
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    state = yamlio.load_file(root / "turns/001/state.yaml")
    assert state["inputs"]["combat"] is True and state["inputs"]["autorise"] is False


def test_orders_are_checked_before_this_turns_gm_yaml_and_the_mjs_ruling_sets_the_price(root):
    """`pbp check` judges Lyra's search before the MJ writes gm.yaml (4 PA, not
    authorised yet), and says the same after; the turn is resolved with the MJ's
    ruling of this turn (authorised: 3 PA). Turn 2 is checked with that ruling."""
    write(root, "turns/001/orders/lyra.yaml", "actions: [fouiller]\n")
    before = pbp("check", cwd=root)
    assert before.exit_code == 0, before.output
    write(root, "turns/001/gm.yaml", "ordres:\n  autorise: oui\n")
    after = pbp("check", cwd=root)
    assert after.exit_code == 0 and after.output == before.output
    write(root, "turns/001/gm.yaml", "ordres:\n  autorise: [oui]\n")
    broken = pbp("check", cwd=root)  # the MJ's mistake is the MJ's: Lyra's orders are still judged
    assert broken.exit_code == 1 and "Valides (1) : lyra" in broken.output.replace("\xa0", " ")
    write(root, "turns/001/gm.yaml", "ordres:\n  autorise: oui\n")
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert yamlio.load_file(root / "turns/001/state.yaml")["characters"]["lyra"]["gauges"]["pa"] == 5 - 3
    write(root, "turns/002/orders/lyra.yaml", "actions: [fouiller]\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    said = r.output.replace("\xa0", " ")
    assert "turns/002/orders/lyra.yaml:1: « Fouiller une salle » coûte 3 (PA) ; il en reste 2." in said


def test_a_free_text_argument_is_read_from_a_pasted_message(root, tmp_path):
    message = tmp_path / "message.txt"
    message.write_text("Prendre des notes : la porte du nord est fermée à clé, puis attendre\n", encoding="utf-8")
    r = pbp("orders", "import", "--player", "lyra", "--write", message, cwd=root)
    assert r.exit_code == 0, r.output
    orders = yamlio.load_file(root / "turns/001/orders/lyra.yaml")
    assert orders["actions"] == [{"noter": "la porte du nord est fermée à clé"}, "attendre"]
    assert pbp("run", "--no-commit", cwd=root).exit_code == 0
    assert "Lyra note : la porte du nord est fermée à clé" in (root / "turns/001/private/lyra.bbcode").read_text()


def test_bots_take_the_actions_whose_argument_is_free_text(root):
    """`avouer` (a confession, in the player's words) is the only way out: the bots
    take it too, so simulated games end with one standing."""
    found = simulate_json("--games", "30", "--seed", "3", cwd=root)["base"]
    assert found["games"] == 30 and "-" not in found["outcomes"], found["outcomes"]
    assert sum(o["count"] for o in found["outcomes"].values()) == 30
    assert found["turns"]["max"] <= 2 and found["deaths"]["hors jeu"] > 0  # the rules are written in French: so are their words
