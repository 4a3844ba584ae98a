"""A rules file (rules.yaml) as pbp reads it: keys in French or English, every
problem at once at file:line in the MJ's language, hostile files refused or run
within bounds, never running code or reading another file."""

from __future__ import annotations

import time

import pytest

from pbp.base import yamlio
from pbp.base.errors import ErrorList, PbpError
from pbp.datarules import load
from tests.helpers import copy_example, pbp, write

MINIMAL_FR = """\
jauges:
  pv: {départ: 10, min: 0, max: 10}
tables:
  coup:
    dé: 1d4
    lignes:
      - {jet: 1-2, dégâts: 1}
      - {jet: 3-4, dégâts: 2}
actions:
  frapper:
    en: hit
    coût: 1
    effets:
      - tirer: coup
      - ajouter: {pv: -coup.dégâts}
par_tour: {points: 2}
"""

MINIMAL_EN = """\
gauges:
  hp: {start: 10, min: 0, max: 10}
tables:
  blow:
    dice: 1d4
    rows:
      - {roll: 1-2, damage: 1}
      - {roll: 3-4, damage: 2}
actions:
  hit:
    cost: 1
    effects:
      - roll: blow
      - add: {hp: -blow.damage}
budget: {points: 2}
"""


def problems(text: str, lang: str = "fr") -> list[str]:
    try:
        load.parse(text)
    except ErrorList as exc:
        return [e.text(lang) for e in exc.errors]
    except PbpError as exc:
        return [exc.text(lang)]
    return []


def test_french_and_english_keys_read_alike():
    fr, en = load.parse(MINIMAL_FR).data, load.parse(MINIMAL_EN).data
    assert set(fr) == set(en) == {"gauges", "tables", "actions", "budget"}
    assert fr["actions"]["frapper"]["cost"] == en["actions"]["hit"]["cost"] == 1
    assert fr["tables"]["coup"]["rows"][0] == {"roll": "1-2", "dégâts": 1}  # a column keeps the MJ's name


def test_every_problem_at_once_with_its_line():
    text = MINIMAL_FR.replace("{jet: 3-4,", "{jet: 2-3,").replace("tirer: coup", "tirer: coups") \
        .replace("-coup.dégâts", "-coup.degats + force")
    found = problems(text)
    assert any(p.startswith("rules.yaml:8: la face 2 a déjà une ligne (la ligne 1)") for p in found), found
    assert any(p.startswith("rules.yaml:6: aucune ligne pour 4 du dé 1d4") for p in found), found
    assert any(p.startswith("rules.yaml:14: « coups » n'est pas dans `tables`") and "« coup »" in p
               for p in found), found
    assert any(p.startswith("rules.yaml:15:") for p in found), found  # the formula's unknown names
    assert len(found) >= 4


def test_a_shape_problem_says_where_and_what_was_expected_in_english_too():
    found = problems(MINIMAL_EN.replace("start: 10", "start: ten"), "en")
    assert found == ["rules.yaml:2: `gauges.hp.start`: expected a whole number, found the text `ten`."]
    found = problems(MINIMAL_FR.replace("départ: 10", "départ: dix"))
    assert found == ["rules.yaml:2: « jauges.pv.départ » : attendu un nombre entier, trouvé le texte « dix »."]


def test_an_effect_does_one_thing():
    found = problems(MINIMAL_FR.replace("      - tirer: coup\n", "      - tirer: coup\n        dire: ouf\n"))
    assert len(found) == 1 and found[0].startswith("rules.yaml:14: un effet fait une seule chose : un verbe parmi "
                                                   "ajouter, fixer, tirer"), found
    assert found[0].endswith("(trouvé : tirer, dire).")


@pytest.mark.parametrize("text, expected", [
    ("a: &x [1]\nb: *x\n", "alias"),
    ("actions: !!python/object:os.system {}\n", "rules.yaml:1"),
    ("x:" + " [" * 40 + "]" * 40 + "\n", "rules.yaml:1"),
])
def test_a_hostile_rules_file_is_refused_at_its_line(text, expected):
    found = problems(text)
    assert found and expected in found[0], found


def test_a_huge_rules_file_is_refused_before_it_is_parsed():
    found = problems("actions:\n" + "  a: {effects: []}\n" * 20000)
    assert found and "octets" in found[0] and "262144" in found[0]


def test_a_table_of_a_million_faces_is_refused():
    found = problems(MINIMAL_FR.replace("dé: 1d4", "dé: 1d50000"))
    assert any("trop de faces" in p for p in found), found


def test_thresholds_that_feed_each_other_stop_within_bounds(tmp_path):
    root = copy_example("energy-duel", tmp_path)
    rules = (root / "rules.yaml").read_text(encoding="utf-8").replace(
        "          - hors_jeu: true\n",
        "          - ajouter: {energie: 1}\n      - à: 1\n        effets:\n          - ajouter: {energie: -1}\n")
    (root / "rules.yaml").write_text(rules, encoding="utf-8")
    write(root, "turns/004/gm.yaml", {"rolls": {"lyra.attaquer.perte": 6, "tom.attaquer.perte": 6}})
    (root / "characters.yaml").write_text("lyra: {energie: 100}\ntom: {energie: 100}\n", encoding="utf-8")
    started = time.monotonic()
    # the archive was played with other rules: run the next turn on a copy whose turn 3 state leads to 0
    state = (root / "turns/003/state.yaml").read_text(encoding="utf-8")
    assert "energie: 55" in state  # Orage's
    state = state.replace("energie: 55", "energie: 25")
    (root / "turns/003/state.yaml").write_text(state, encoding="utf-8")
    r = pbp("run", "--no-commit", "--accept-changes", cwd=root)
    assert time.monotonic() - started < 5
    assert r.exit_code == 1 and "se déclenchent l'un l'autre plus de 50 fois" in r.output, r.output
    assert not (root / "turns/004/state.yaml").exists()


def test_a_campaign_without_its_rules_file_says_so(tmp_path):
    root = copy_example("energy-duel", tmp_path)
    (root / "rules.yaml").unlink()
    r = pbp("status", cwd=root)
    assert r.exit_code == 1 and "pas de fichier rules.yaml à côté de campaign.yaml" in r.output


def test_a_rules_file_that_is_a_fifo_is_never_waited_on(tmp_path):
    import os

    root = copy_example("energy-duel", tmp_path)
    (root / "rules.yaml").unlink()
    os.mkfifo(root / "rules.yaml")
    r = pbp("status", cwd=root)
    assert r.exit_code == 1 and "rules.yaml" in r.output


# -- pbp rules check, pbp init --rules ------------------------------------------------------

def test_rules_check_says_every_problem_and_what_is_likely_a_mistake(tmp_path):
    rules = write(tmp_path, "mes-regles.yaml", MINIMAL_FR.replace("-coup.dégâts", "-coup.dégâts * 10 / pv")
                  .replace("pv: {départ: 10, min: 0, max: 10}",
                           "pv:\n    départ: 10\n    min: 0\n    max: 10\n    seuils:\n"
                           "      - {sous: 0, effets: [{hors_jeu: true}]}"))
    r = pbp("-C", tmp_path, "rules", "check", rules)
    assert r.exit_code == 1
    lines = r.output.replace("\xa0", " ").splitlines()
    assert any(line.endswith("cette formule peut diviser par zéro : pv peut valoir 0.") for line in lines), lines
    assert any("le seuil 0 de la jauge pv ne peut pas être atteint : la jauge va de 0 à 10." in line
               for line in lines), lines
    assert lines[-1].endswith(": 2 problèmes.")


def test_rules_check_of_a_good_file_and_of_the_campaigns_own(tmp_path, monkeypatch):
    monkeypatch.setenv("PBP_LANG", "en")  # outside a campaign: the help's language
    rules = write(tmp_path, "rules.yaml", MINIMAL_EN)
    r = pbp("rules", "check", rules)
    assert r.exit_code == 0, r.output
    assert r.output.endswith("rules are fine (actions: 1; gauges: 1; tables: 1; checks: 0).\n")
    r = pbp("rules", "check", cwd=copy_example("energy-duel", tmp_path))
    assert r.exit_code == 0 and "rules.yaml : règles correctes" in r.output.replace("\xa0", " ")


def test_init_from_a_rules_file_makes_a_campaign_that_plays(tmp_path):
    rules = write(tmp_path, "regles.yaml", MINIMAL_FR)
    root = tmp_path / "camp"
    r = pbp("init", root, "--rules", rules, "--no-git")
    assert r.exit_code == 0, r.output
    assert (root / "rules.yaml").read_text(encoding="utf-8") == MINIMAL_FR
    assert "ruleset: data" in (root / "campaign.yaml").read_text(encoding="utf-8")
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    write(root, "turns/001/orders/joueur1.yaml", "actions: [frapper, hit, frapper]\n")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert "turns/001/orders/joueur1.yaml:1: « frapper » coûte 1 points ; il en reste 0 sur 2 ce tour." \
        in r.output.replace("\xa0", " ")
    write(root, "turns/001/orders/joueur1.yaml", "actions: [frapper, hit]\n")
    write(root, "turns/001/gm.yaml", {"rolls": {"joueur1.frapper.coup": 4, "joueur1.frapper.coup.2": 1}})
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    assert yamlio.load_file(root / "turns/001/state.yaml")["characters"]["joueur1"]["gauges"]["pv"] == 10 - 2 - 1


def test_init_refuses_a_broken_rules_file_and_makes_nothing(tmp_path):
    rules = write(tmp_path, "regles.yaml", MINIMAL_FR.replace("tirer: coup", "tirer: coupe"))
    r = pbp("init", tmp_path / "camp", "--rules", rules, "--no-git")
    assert r.exit_code == 1
    assert f"{rules}:14: « coupe » n'est pas dans `tables`" in r.output
    assert not (tmp_path / "camp").exists()


def test_every_message_of_the_data_rulesets_is_in_both_languages_with_the_same_parameters():
    import string
    from pathlib import Path

    import pbp.datarules as package

    roots = [Path(package.__file__).parent / "messages.yaml",
             Path(package.__file__).parent.parent / "rulesets" / "data" / "messages.yaml"]
    for path in roots:
        catalogue = yamlio.load_file(path)
        for key, texts in catalogue.items():
            if key.startswith("formula_"):
                continue  # the formula language's own, checked by tests/test_formula.py
            assert set(texts) == {"fr", "en"}, key
            fields = [{f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f} for lang in ("fr", "en")]
            assert fields[0] == fields[1], key


def test_rules_explain_says_truths_and_counts_in_words(tmp_path):
    """The starter rules (`pbp init --ruleset data`): a default truth reads oui/non (yes/no),
    one action a turn is singular."""
    root = tmp_path / "ev"
    assert pbp("init", root, "--ruleset", "data", "--no-git").exit_code == 0
    fr = pbp("rules", "explain", cwd=root).output.replace("\xa0", " ")
    assert "- au plus 1 action par tour\n" in fr
    assert "- Combat approuvé (combat): oui/non, par défaut non\n" in fr
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    en = pbp("rules", "explain", cwd=root).output.replace("\xa0", " ")
    assert "- at most 1 action a turn\n" in en and "default no" in en


def test_rules_explain_shows_the_rules_as_pbp_understood_them(tmp_path):
    root = copy_example("investigation-event", tmp_path)
    r = pbp("rules", "explain", cwd=root)
    assert r.exit_code == 0, r.output
    out = r.output.replace("\xa0", " ")
    assert "- PA (pa) — départ 6, de 0 à 6 — vue par le joueur et le MJ" in out
    assert "- Fouiller une salle (fouiller_salle, search_hall) — coût si(mj.salle_autorisee, 3, 4)" in out
    assert "      - tester risque\n        - si réussi\n          - dire : trouve (pour : acteur)\n" in out
    assert "- quand plus personne ne peut agir" in out
    r = pbp("rules", "explain", "--format", "bbcode", cwd=copy_example("wizard-duels", tmp_path))
    assert r.exit_code == 0, r.output
    assert "8 | touché, ne peut pas riposter | touche oui, bonus 1, riposte non | 1/8 (12.5 %)" in r.output


OPPOSED_FR = """\
caractéristiques:
  force: {défaut: 3}
oppositions:
  bras:
    nom: Bras de fer
    jet: 1d20 + force
    contre: 1d20 + cible.force
actions:
  lutter:
    en: wrestle
    argument: personnage
    effets:
      - opposer: bras
"""


def test_a_french_rules_file_is_told_its_fields_in_french(tmp_path):
    # `contre` is a check's word (its target), not an opposition's: the fields listed
    # and the one missing are spelt as the French part of docs/rules-format.md spells them
    rules = write(tmp_path, "regles.yaml", OPPOSED_FR)
    r = pbp("-C", tmp_path, "rules", "check", rules)  # outside a campaign: the language its keys are written in
    assert r.exit_code == 1
    assert r.output.replace("\xa0", " ").splitlines()[:2] == [
        f"{rules}:4: il manque « oppositions.bras.adversaire » (du texte ou un nombre ou true ou false).",
        f"{rules}:7: « oppositions.bras.contre » : champ inconnu. Vouliez-vous dire « contre_jet » ? "
        "Valeurs possibles : adversaire, égalité, jet, manches, nom, visibilité."]
    english = OPPOSED_FR.replace("caractéristiques", "stats").replace("défaut", "default") \
        .replace("oppositions", "opposed").replace("nom:", "name:").replace("jet:", "roll:") \
        .replace("contre:", "against:").replace("argument: personnage", "arg: character") \
        .replace("effets", "effects").replace("opposer", "oppose").replace("    en: wrestle\n", "")
    found = problems(english, "en")
    assert found[:2] == ["rules.yaml:4: `opposed.bras.versus` is missing (text or a number or true or false).",
                         "rules.yaml:7: `opposed.bras.against`: unknown field. "
                         "Valid values: name, roll, rounds, ties, versus, visibility."]


def test_a_french_rules_file_is_told_the_section_a_name_is_missing_from_in_french():
    text = MINIMAL_FR + "fin:\n  équipes: {caractéristique: camp, valeurs: [a, b]}\n"
    found = [p.replace("\xa0", " ") for p in problems(text)]
    assert "rules.yaml:18: « camp » n'est pas dans `caractéristiques` de ces règles." in found, found
    found = problems(MINIMAL_EN + "end:\n  teams: {stat: side, values: [a, b]}\n", "en")
    assert "rules.yaml:17: `side` is not in these rules' `stats`." in found, found


def test_an_unknown_key_of_an_effect_gets_the_effects_keys_in_french():
    found = [p.replace("\xa0", " ") for p in problems(MINIMAL_FR.replace("- tirer: coup", "- tirer: coup\n        bof: 1"))]
    assert found[0].startswith("rules.yaml:15: « actions.frapper.effets[1].bof » : champ inconnu. Valeurs possibles : "
                               "ajouter, "), found
    assert "durée" in found[0] and "alors" in found[0] and "sinon" in found[0] and "then" not in found[0], found
