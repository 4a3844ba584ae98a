"""`pbp rules check` follows the rules as they would play (pbp/datarules/lint_play.py):
an action nobody can take, a threshold its gauge never reaches, a secret in a
public message, a formula out of bounds. Each problem planted in a rules file
that loads, said at its line, all at once, in French and in English."""

from __future__ import annotations

import pytest

from tests.helpers import pbp, write

#: a rules file that loads and plays, without a problem
CLEAN = """\
caractéristiques:
  race: {type: texte, défaut: inconnue, visibilité: propriétaire}
  force: {défaut: 10, min: 0, max: 20}
jauges:
  pv: {départ: 10, min: 0, max: 10}
  fatigue:
    départ: 0
    min: 0
    max: 10
    seuils:
      - à: 5
        effets: [{dire: "{name} est épuisé."}]
tables:
  coup:
    dé: 1d4
    visibilité: mj
    lignes:
      - {jet: 1-2, degats: 1}
      - {jet: 3-4, degats: 2}
tests:
  esquive: {dé: 1d100, chance: force * 4}
actions:
  frapper:
    coût: 1
    effets:
      - tirer: coup
      - ajouter: {pv: -coup.degats, fatigue: 1}
      - dire: "{name} frappe."
      - dire: "{name} ({race}) frappe pour {coup.degats}."
        pour: acteur
  courir:
    coût: 2
    conditions:
      - si: fatigue < 3
        message: trop fatigué
    effets: [{ajouter: {fatigue: 2}}]
  espionner:
    coût: 1
    visibilité: propriétaire
    effets: [{dire: "{name} espionne.", pour: acteur}, {tester: esquive}]
par_tour: {points: 2}
"""

#: (what is planted, the text replaced, its replacement, a text on the line said, the French warning, the English one)
PLANTED = [
    ("a threshold no effect moves its gauge to", "pv: {départ: 10, min: 0, max: 10}",
     "pv: {départ: 10, min: 0, max: 10, seuils: [{au_dessus: 5, effets: [{dire: soigné}]}]}", "au_dessus",
     "le seuil 5 de la jauge pv ne sera jamais atteint : aucun effet ne la fait aller dans ce sens, "
     "elle reste de 0 à 10 depuis son départ (une fiche peut donner un autre départ).",
     "the threshold 5 of the gauge pv is never reached: no effect moves it that way, it stays from 0 to 10 "
     "from its start (a sheet may give another start)."),
    ("a check that always succeeds", "chance: force * 4", "chance: force * 10 + 200", "chance:",
     "le test esquive réussit toujours : sa chance va de 200 à 400 sur 1d100.",
     "the check esquive always succeeds: its chance goes from 200 to 400 on 1d100."),
    ("a check that never succeeds", "chance: force * 4", "chance: force - 30", "chance:",
     "le test esquive ne réussit jamais : sa chance va de -30 à -10 sur 1d100.",
     "the check esquive never succeeds: its chance goes from -30 to -10 on 1d100."),
    ("a secret stat in a public message", "pour {coup.degats}.\"\n        pour: acteur",
     "pour {coup.degats}.\"", "({race})",
     "ce message est public (pas de « pour: ») et montre {race}, qui ne l'est pas (stats.race) : tout le fil "
     "le lirait.",
     "this message is public (no `to:`) and shows {race}, which is not (stats.race): the whole thread would read"),
    ("a secret table's result in a public message", "- dire: \"{name} frappe.\"",
     "- dire: \"{name} frappe ({coup.degats}).\"", "frappe ({coup",
     "ce message est public (pas de « pour: ») et montre {coup.degats}, qui ne l'est pas (tables.coup)",
     "this message is public (no `to:`) and shows {coup.degats}, which is not (tables.coup)"),
    ("a public message in a secret action", "espionne.\", pour: acteur}", "espionne.\"}", "espionne.",
     "ce message est public (pas de « pour: »), dans une action secrète : tout le fil apprendrait l'action.",
     "this message is public (no `to:`), in a secret action: the whole thread would learn of the action."),
    ("a condition that never holds", "si: fatigue < 3", "si: fatigue > 10", "si: fatigue",
     "cette condition ne peut jamais être vraie (vu les bornes et les valeurs de départ des règles) : personne "
     "ne pourra jamais prendre l'action courir.",
     "this condition can never be true (given the bounds and the rules' starting values): nobody can ever take "
     "the action courir."),
    ("a cost above the budget", "coût: 2\n", "coût: 3\n", "coût: 3",
     "l'action courir coûte au moins 3 points, et personne n'en a jamais plus de 2 : personne ne pourra jamais "
     "la prendre.",
     "the action courir costs at least 3 points, and nobody ever has more than 2: nobody can ever take it."),
    ("a cost that can be negative", "coût: 2\n", "coût: 2 - force\n", "coût: 2 - force",
     "ce coût peut être négatif (-18) : l'action rendrait des points au lieu d'en coûter.",
     "this cost can be negative (-18): the action would give points back instead of costing them."),
    ("a value set outside its bounds", "effets: [{ajouter: {fatigue: 2}}]", "effets: [{fixer: {pv: force * 2}}]",
     "fixer", "pv peut recevoir de 0 à 40, hors de ses bornes 0 à 10 : pbp la garde dans ses bornes.",
     "pv can be given 0 to 40, outside its bounds 0 to 10: pbp keeps it within them."),
    ("a number past the formulas' limit", "ajouter: {fatigue: 2}", "ajouter: {pv: force * 100000000000000000}",
     "100000",
     "cette formule peut dépasser 10^18, la limite des calculs de pbp : le tour s'arrêterait sur elle.",
     "this formula can go past 10^18, the limit of pbp's arithmetic: the turn would stop on it."),
    ("the target's secret stat in a public message", "- dire: \"{name} frappe.\"",
     "- dire: \"{name} frappe {target} ({cible.race}).\"", "({cible.race})",
     "ce message est public (pas de « pour: ») et montre {cible.race}, qui ne l'est pas (stats.race)",
     "this message is public (no `to:`) and shows {cible.race}, which is not (stats.race)"),
]


def check(tmp_path, text: str, lang: str, monkeypatch):
    monkeypatch.setenv("PBP_LANG", lang)
    path = write(tmp_path, "regles.yaml", text)
    return pbp("-C", tmp_path, "rules", "check", path), path


def test_the_clean_rules_have_none_of_these_problems(tmp_path, monkeypatch):
    r, _ = check(tmp_path, CLEAN, "fr", monkeypatch)
    assert r.exit_code == 0, r.output


def test_a_public_audience_written_out_is_the_mjs_choice(tmp_path, monkeypatch):
    """`pour: public` written in full says the thread must read it (the die of a check whose
    chance alone is secret): not flagged, where the same message without `pour:` is."""
    said = CLEAN.replace("- dire: \"{name} frappe.\"", "- dire: \"{name} frappe ({coup.degats}).\"")
    assert check(tmp_path, said, "fr", monkeypatch)[0].exit_code == 1
    chosen = CLEAN.replace("- dire: \"{name} frappe.\"", "- {dire: \"{name} frappe ({coup.degats}).\", pour: public}")
    r, _ = check(tmp_path, chosen, "fr", monkeypatch)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("name", ["d100-data", "energy-duel", "investigation-event", "manhunt-data",
                                  "village-vote", "wizard-duels", "arene-sombreval"])
def test_every_bundled_data_example_passes_its_own_rules_check(name):
    from pbp.render.render import package_dir

    r = pbp("-C", package_dir("campaigns") / name, "rules", "check")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("what,old,new,marker,french,english", PLANTED, ids=[p[0] for p in PLANTED])
def test_a_planted_problem_is_said_at_its_line_in_either_language(tmp_path, monkeypatch, what, old, new, marker,
                                                                   french, english):
    assert CLEAN.count(old) == 1, what
    text = CLEAN.replace(old, new)
    line = next(i for i, written in enumerate(text.splitlines(), 1) if marker in written)
    for lang, said in (("fr", french), ("en", english)):
        r, path = check(tmp_path, text, lang, monkeypatch)
        assert r.exit_code == 1, (what, r.output)
        assert f"{path}:{line}: {said}" in r.output.replace("\xa0", " "), (what, r.output)


def test_every_problem_is_said_at_once(tmp_path, monkeypatch):
    text = CLEAN
    for _, old, new, *_ in PLANTED[:2] + PLANTED[3:4] + PLANTED[5:]:
        if old in text:
            text = text.replace(old, new, 1)
    r, path = check(tmp_path, text, "fr", monkeypatch)
    assert r.exit_code == 1
    said = [line for line in r.output.splitlines() if line.startswith(f"{path}:")]
    assert len(said) >= 6, r.output
    assert r.output.rstrip().endswith(f"{len(said)} problèmes.")


#: a gauge that no action moves, only effects that play without one: each moves it all the same
MOVED_WITHOUT_AN_ACTION = {
    "every N turns": "périodiques:\n  - tous_les: 1\n    chacun: true\n    effets: [{ajouter: {faim: 1}}]\n",
    "the MJ's input": "entrées_mj:\n  disette:\n    type: nombre\n    par: personnage\n    garder: false\n"
                      "    effets_fin: [{ajouter: {faim: mj.disette}}]\n",
    "a vote": "votes:\n  rationner:\n    effets: [{ajouter: {faim: 3}}]\n",
}


@pytest.mark.parametrize("mover", sorted(MOVED_WITHOUT_AN_ACTION))
def test_a_threshold_reached_through_effects_that_no_action_plays_is_not_said_unreachable(tmp_path, monkeypatch,
                                                                                         mover):
    text = CLEAN.replace("  fatigue:\n", "  faim:\n    départ: 0\n    min: 0\n    max: 10\n"
                         "    seuils: [{au_dessus: 7, effets: [{dire: affamé}]}]\n  fatigue:\n", 1)
    text += MOVED_WITHOUT_AN_ACTION[mover]
    if mover == "a vote":
        text = text.replace("  espionner:\n", "  rationner:\n    argument: personnage\n"
                            "    effets: [{voter: rationner}]\n  espionner:\n", 1)
    r, _ = check(tmp_path, text, "fr", monkeypatch)
    assert r.exit_code == 0, r.output
    assert "règles correctes" in r.output


def test_a_dice_pool_check_is_linted_without_an_internal_error(tmp_path, monkeypatch):
    text = CLEAN.replace("esquive: {dé: 1d100, chance: force * 4}",
                         "esquive:\n    réserve: {dés: force, côtés: 6, réussite: 5}\n    chance: 2\n"
                         "    réussite: \">=\"", 1)
    r, _ = check(tmp_path, text, "fr", monkeypatch)
    assert r.exit_code == 0, r.output
    assert "règles correctes (actions : 3 ; jauges : 2 ; tables : 1 ; tests : 1)." in r.output


@pytest.mark.parametrize("typo,line_text,suggested,valid", [
    ("fatigue < 3", "fatigu < 3", "fatigue", "absences, fatigue, force, missed, pv, race, tours_manques, "
                                             "tours_manqués, turn"),
    ("ajouter: {pv: -coup.degats", "ajouter: {pv: -coup.degat", "coup.degats", "coup.degats, coup.roll"),
    ("si: fatigue < 3", "si: jauge.fatige < 3", "jauge.fatigue", "jauge.fatigue, jauge.force, jauge.pv, jauge.race"),
])
def test_an_unknown_name_in_a_formula_gets_the_nearest_name_as_the_mj_wrote_it(tmp_path, monkeypatch, typo,
                                                                               line_text, suggested, valid):
    """docs/formulas.md promises "Vouliez-vous dire" for a typo in a rules file, in
    the prefix the MJ wrote (`jauge.`, `cible.`), and the names that would be valid."""
    text = CLEAN.replace(typo, line_text, 1)
    assert text != CLEAN
    r, _ = check(tmp_path, text, "fr", monkeypatch)
    out = r.output.replace("\xa0", " ")
    assert r.exit_code == 1, out
    assert f"Vouliez-vous dire « {suggested} » ? Valeurs possibles : {valid}." in out, out
