"""What a data ruleset's posts print, read as a forum player reads them, through the
real CLI with forced dice, in French and English, BBCode and Markdown: a check's
comparison true of its numbers, a gauge change that did nothing said as nothing
(or as what a bound ate), an opposed roll with each side's dice, modifiers and
total, then who wins by what margin."""

from __future__ import annotations

import shutil

import pytest

from pbp.base import yamlio
from tests.helpers import pbp, unsealed, write

RULES = """\
titre: L'arène
caractéristiques:
  agilite: {nom: Agilité, défaut: 15}
  force: {nom: Force, défaut: 3}
jauges:
  pv: {nom: PV, départ: 10, min: 0, max: 10}
tests:
  esquive:
    nom: Esquive
    dé: 1d100
    chance: agilite * 2
  saut:
    nom: {fr: Saut, en: Jump}
    dé: 1d20
    chance: 12
    réussite: ">="
oppositions:
  bras_de_fer:
    nom: {fr: Bras de fer, en: Arm wrestling}
    jet: 1d20 + force
    adversaire: 1d20 + cible.force
actions:
  esquiver:
    en: dodge
    effets:
      - tester: esquive
        sinon:
          - ajouter: {pv: -12}
  sauter:
    en: jump
    effets:
      - tester: saut
        alors:
          - ajouter: {pv: 2}
          - ajouter: {pv: 0}
  lutter:
    en: wrestle
    argument: personnage
    effets:
      - opposer: bras_de_fer
"""


def arena(tmp_path, lang: str = "fr", fmt: str = "bbcode", rules: str = RULES):
    write(tmp_path, "rules.yaml", rules)
    root = tmp_path / "arene"
    r = pbp("init", root, "--rules", tmp_path / "rules.yaml", "--no-git")
    assert r.exit_code == 0, r.output
    campaign = yamlio.load_file(root / "campaign.yaml")
    campaign.update(lang=lang, format=fmt)
    write(root, "campaign.yaml", campaign)
    if "force:" in rules:
        write(root, "characters.yaml", {"joueur2": {"force": 1}})
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    return root


def play(root, given: dict, rolls: dict, turn: int = 1) -> str:
    """The turn's public post, with the spaces a post holds for French punctuation made plain."""
    for handle, actions in given.items():
        write(root, f"turns/{turn:03d}/orders/{handle}.yaml", {"actions": actions})
    write(root, f"turns/{turn:03d}/gm.yaml", {"rolls": rolls})
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    post = next((root / f"turns/{turn:03d}").glob("public.*")).read_text(encoding="utf-8")
    return post.replace("\xa0", " ").replace("\u202f", "").replace("\u2060", "")


CHECKS = {"joueur1": ["esquiver", "sauter"], "joueur2": ["esquiver", "sauter"]}
CHECK_ROLLS = {"joueur1.esquiver.esquive": 31, "joueur1.sauter.saut": 8,
               "joueur2.esquiver.esquive": 30, "joueur2.sauter.saut": 12}


def test_a_check_prints_the_comparison_its_numbers_make_true(tmp_path):
    # agilité 15 × 2 = 30: 31 fails (31 > 30), 30 succeeds (30 ≤ 30); the jump needs 12 or more
    post = play(arena(tmp_path), CHECKS, CHECK_ROLLS)
    assert "Esquive de Personnage 1 : 1d100 (31) > 30 : échec." in post
    assert "Esquive de Personnage 2 : 1d100 (30) ≤ 30 : réussite." in post
    assert "Saut de Personnage 1 : 1d20 (8) < 12 : échec." in post
    assert "Saut de Personnage 2 : 1d20 (12) ≥ 12 : réussite." in post
    assert "(31) ≤" not in post and "(8) ≥" not in post


def test_a_check_in_english(tmp_path):
    post = play(arena(tmp_path, "en"), {"joueur1": ["dodge", "jump"]},
                {"joueur1.esquiver.esquive": 31, "joueur1.sauter.saut": 13})
    assert "Esquive of Personnage 1: 1d100 (31) > 30: failure." in post
    assert "Jump of Personnage 1: 1d20 (13) ≥ 12: success." in post


def test_a_gauge_moved_by_nothing_says_nothing_and_a_bound_says_what_it_ate(tmp_path):
    # Personnage 1: 10 − 12 = −2, held at the minimum 0; Personnage 2: 10 + 2 = 12, capped at 10, then + 0
    post = play(arena(tmp_path), CHECKS, CHECK_ROLLS)
    assert "PV de Personnage 1 : 10 − 12 = −2, ramené à 0 (minimum)." in post
    assert "PV de Personnage 2 : 10 + 2 = 12, plafonné à 10." in post
    assert post.count("PV de Personnage 2") == 1  # the + 0 that followed: no line
    assert "+ 0" not in post and "borne atteinte" not in post


def test_a_gauge_at_its_bound_in_english(tmp_path):
    post = play(arena(tmp_path, "en"), CHECKS, CHECK_ROLLS)
    assert "PV of Personnage 1: 10 − 12 = −2, floored at 0." in post
    assert "PV of Personnage 2: 10 + 2 = 12, capped at 10." in post
    assert "+ 0" not in post


def test_an_opposed_roll_prints_each_side_then_the_winner_and_margin(tmp_path):
    # 1d20 12 + force 3 = 15 against 1d20 9 + force 1 = 10: Personnage 1 by 5
    post = play(arena(tmp_path), {"joueur1": [{"lutter": "joueur2"}]},
                {"joueur1.lutter.bras_de_fer.roll.d1": 12, "joueur1.lutter.bras_de_fer.versus.d1": 9})
    assert "Bras de fer : [b]Personnage 1[/b] contre Personnage 2 : 1d20 (12) + force 3 = 15 contre " \
           "1d20 (9) + force 1 = 10 : Personnage 1 l'emporte de 5." in post


def test_an_opposed_roll_the_target_wins_in_english_markdown(tmp_path):
    # 4 + 3 = 7 against 17 + 1 = 18: the target wins by 11
    post = play(arena(tmp_path, "en", "markdown"), {"joueur1": [{"wrestle": "joueur2"}]},
                {"joueur1.lutter.bras_de_fer.roll.d1": 4, "joueur1.lutter.bras_de_fer.versus.d1": 17})
    assert "- Arm wrestling: **Personnage 1** against Personnage 2: 1d20 (4) + force 3 = 7 against " \
           "1d20 (17) + force 1 = 18: Personnage 2 wins by 11." in post


VILLAGE = """\
caractéristiques:
  camp: {type: texte, défaut: village}
calendrier:
  phases: [{fr: jour, en: day}, {fr: nuit, en: night}]
votes:
  bucher:
    nom: {fr: Le bûcher, en: The stake}
    effets:
      - hors_jeu: true
actions:
  accuser:
    en: accuse
    nom: {fr: Accuser, en: Accuse}
    argument: personnage
    effets:
      - voter: bucher
  attendre:
    en: wait
    effets: []
"""


def test_a_public_ballot_is_said_once_with_its_action(tmp_path):
    root = arena(tmp_path, rules=VILLAGE)
    post = play(root, {"joueur1": [{"accuser": "joueur2"}], "joueur2": [{"accuser": "joueur1"}]}, {})
    assert "[*][b]Personnage 1[/b] : Accuser → Personnage 2 (vote : Le bûcher)." in post
    assert post.count("Personnage 1[/b] :") == 1 and "vote (Le bûcher)" not in post


def test_the_calendar_line_names_the_day_and_the_phase(tmp_path):
    root = arena(tmp_path, rules=VILLAGE)
    post = play(root, {"joueur1": ["attendre"]}, {})
    assert "[*]Jour 1, phase « jour »." in post
    post = play(root, {"joueur1": ["attendre"]}, {}, turn=2)
    assert "[*]Jour 1, phase « nuit »." in post and "— tour 2" in post


def test_the_calendar_and_a_ballot_in_english(tmp_path):
    root = arena(tmp_path, "en", rules=VILLAGE)
    post = play(root, {"joueur1": [{"accuse": "joueur2"}]}, {})
    assert "[*]Day 1, phase “day”." in post
    assert "[*][b]Personnage 1[/b]: Accuse → Personnage 2 (vote: The stake)." in post


RICH = RULES + """\
  fouiller:
    en: search
    effets:
      - tirer: butin
      - tester: assaut
      - dire: {fr: "{name} souffle.", en: "{name} breathes."}
  charger:
    en: charge
    argument: personnage
    effets:
      - opposer: duel
      - si: 1d20 + force > 1d20 + cible.force
        alors:
          - ajouter: {pv: -(1d6 + 2)}
            sur: cible
      - infliger: sonne
        sur: cible
      - perd_un_tour: 1
tables:
  butin:
    nom: {fr: Butin, en: Loot}
    dé: 2d6
    lignes:
      - {jet: 2-7, texte: {fr: "rien (ou presque)", en: "nothing (or almost)"}}
      - {jet: 8-12, texte: {fr: "une dague", en: "a dagger"}, table: qualite}
  qualite:
    dé: 1d4
    lignes:
      - {jet: 1-2, texte: {fr: "rouillée", en: "rusty"}}
      - {jet: 3-4, texte: {fr: "fine", en: "fine"}}
états:
  sonne:
    nom: {fr: Sonné, en: Dazed}
    durée: 1
"""
RICH = RICH.replace("oppositions:\n", "oppositions:\n  duel:\n    jet: 2d6 + force\n    adversaire: 2d6\n"
                    "    égalité: relance\n    manches: 3\n")
RICH = RICH.replace("tests:\n", "tests:\n  assaut:\n    réserve: {dés: force, côtés: 6, réussite: 5}\n"
                    "    chance: 2\n    réussite: \">=\"\n")

#: a roll of every kind, each total 8 where the rules allow it (the stray parenthesis of "= 8)")
RICH_ROLLS = {"joueur1.fouiller.butin": [3, 5], "joueur1.fouiller.butin.qualite": 4,
              "joueur1.fouiller.assaut": [5, 2, 6],
              "joueur2.charger.duel.1.roll.d1": [4, 4], "joueur2.charger.duel.1.versus.d1": [5, 5],
              "joueur2.charger.duel.2.roll.d1": [2, 6], "joueur2.charger.duel.2.versus.d1": [6, 6],
              "joueur2.charger.d1": 8, "joueur2.charger.d2": 3, "joueur2.charger.d3": 6}


def _text_of(line: str) -> str:
    """A post's line without its markup: BBCode tags, Markdown's list marks, bold and escapes."""
    import re

    line = re.sub(r"\[/?(?:b|i|u|s|list|\*|size|color|quote)(?:=[^\]]*)?\]", "", line)
    return re.sub(r"\\(.)", r"\1", line.replace("**", "").removeprefix("- "))


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_every_number_line_has_balanced_sensible_punctuation(tmp_path, lang, fmt):
    root = arena(tmp_path, lang, fmt, RICH)
    play(root, {"joueur1": ["fouiller"], "joueur2": [{"charger": "joueur1"}]}, RICH_ROLLS)
    folder = root / "turns/001"
    texts = [p.read_text(encoding="utf-8") for p in [*folder.glob("public.*"), *folder.glob("gm.*"),
                                                       *folder.glob("private/*")]]
    lines = [_text_of(x) for text in texts for x in text.replace("\xa0", " ").splitlines()
             if x.startswith(("[*]", "- "))]
    assert len(lines) > 15
    for line in lines:
        opened = 0
        for c in line:
            opened += {"(": 1, ")": -1}.get(c, 0)
            assert opened >= 0, line
        assert opened == 0, line
        for wrong in (" )", "( ", "()", "..", " .", " ,", ",,", "= )", ": :", "::"):
            assert wrong not in line, (wrong, line)
    text = "\n".join(lines)
    # the rolls whose total is 8, each with its parts and its parentheses closed
    assert "2d6 (3+5 = 8)" in text and "1d20 (8) + force 1" in text
    assert "2d6 (4+4 = 8) + force 1 = 9" in text  # the duel's first exchange (Personnage 2 has force 1)
    # a table chained to a sub-table: both rolls, each row's own text
    assert ("Butin de Personnage 1 : 2d6 (3+5 = 8) → une dague ; qualite : 1d4 (4) → fine." if lang == "fr" else
            "Loot of Personnage 1: 2d6 (3+5 = 8) → a dagger; qualite: 1d4 (4) → fine.") in text


def test_a_secret_value_in_a_public_dice_line_shows_its_name_alone(tmp_path):
    rules = RULES.replace("  force: {nom: Force, défaut: 3}\n",
                          "  force: {nom: Force, défaut: 3}\n  ruse: {défaut: 17, visibilité: propriétaire}\n")
    rules += "  bluffer:\n    effets:\n      - si: 1d20 + ruse > 20\n        alors:\n          - dire: ça passe\n"
    root = arena(tmp_path, rules=rules)
    post = play(root, {"joueur1": ["bluffer"]}, {"joueur1.bluffer.d1": 4})
    # 4 + 17 = 21 > 20: the thread sees the roll and the outcome, never the secret 17
    assert "Dés de Personnage 1 : 1d20 (4) + ruse > 20 → vrai." in post and "17" not in unsealed(post)
    gm = (root / "turns/001/gm.bbcode").read_text(encoding="utf-8")
    assert "1d20 (4) + ruse > 20 → vrai." in gm.replace("\xa0", " ")  # the same event, in the MJ's report too


def test_odds_versus_gives_the_exact_fraction_and_its_percentage():
    # by hand, 1d6 against 1d4: P(a > b) = (5 + 4 + 3 + 2) / 24 = 7/12, a tie 4/24 = 1/6, below 6/24 = 1/4
    r = pbp("odds", "1d6", "--vs", "1d4")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[2:] == ["1d6 > 1d4  7/12 (58.3 %)", "égalité    1/6 (16.7 %)",
                                         "1d6 < 1d4  1/4 (25.0 %)"]


IMPORT = """\
actions:
  fouiller_cacher:
    en: search_hide
    nom: {fr: Fouiller et cacher, en: Search and hide}
    effets: []
  fouiller:
    en: search
    nom: {fr: Fouiller, en: Search}
    effets: []
  cacher:
    en: hide
    nom: {fr: Cacher, en: Hide}
    effets: []
  attendre:
    en: wait
    nom: {fr: Attendre, en: Wait}
    effets: []
par_tour: {nombre: 3}
"""


@pytest.mark.parametrize("message, actions", [
    ("Je vais Fouiller et cacher, puis attendre.", ["fouiller_cacher", "attendre"]),
    ("je veux fouiller et cacher la lettre", ["fouiller_cacher"]),
    ("Fouiller puis cacher", ["fouiller", "cacher"]),  # no declared name holds these words: two orders
    ("Fouiller et cacher puis attendre", ["fouiller_cacher", "attendre"]),  # the name's "et" cuts nothing
])
def test_orders_import_reads_a_declared_name_holding_et_whole(tmp_path, message, actions):
    root = arena(tmp_path, rules=IMPORT)
    (tmp_path / "message.txt").write_text(message, encoding="utf-8")
    r = pbp("orders", "import", tmp_path / "message.txt", "--player", "joueur1", "--write", cwd=root)
    assert r.exit_code == 0, r.output
    assert yamlio.load_file(root / "turns/001/orders/joueur1.yaml")["actions"] == actions


def test_orders_import_reads_an_english_name_holding_and_whole(tmp_path):
    root = arena(tmp_path, "en", rules=IMPORT)
    (tmp_path / "message.txt").write_text("I search and hide the letter, then wait.", encoding="utf-8")
    r = pbp("orders", "import", tmp_path / "message.txt", "--player", "joueur1", "--write", cwd=root)
    assert r.exit_code == 0, r.output
    assert yamlio.load_file(root / "turns/001/orders/joueur1.yaml")["actions"] == ["search_hide", "wait"]


SCORE = """\
jauges:
  gloire: {nom: Gloire, départ: 0}
  secret: {départ: 0, visibilité: mj}
actions:
  briller:
    en: shine
    argument: {type: nombre, min: 0, max: 10}
    effets:
      - ajouter: {gloire: arg}
  tomber:
    en: fall
    effets:
      - hors_jeu: true
fin:
  tours_max: 1
  classement: gloire
"""
SHINE = {"joueur1": [{"briller": 5}], "joueur2": [{"briller": 7}], "joueur3": [{"briller": 7}, "tomber"],
         "joueur4": [{"briller": 7}]}


def scored(tmp_path, lang="fr", rules=SCORE):
    root = arena(tmp_path, lang, rules=rules)
    campaign = yamlio.load_file(root / "campaign.yaml")
    campaign["players"] = {"joueur1": "Anna", "joueur2": "Bruno", "joueur3": "Chloé", "joueur4": "Denis"}
    write(root, "campaign.yaml", campaign)
    shutil.rmtree(root / "turns")  # set up again with four players
    assert pbp("setup", "--no-commit", cwd=root).exit_code == 0
    return root


def test_the_final_post_ranks_by_score_and_names_the_winners(tmp_path):
    # Bruno and Denis 7, Anna 5, Chloé 7 but out of play: ranked after those in play
    root = scored(tmp_path)
    post = play(root, SHINE, {})
    assert "[*]Classement : 1. Bruno (7 points), 1. Denis (7 points), 3. Anna (5 points), " \
           "4. Chloé (7 points, hors jeu)." in post
    assert "[*]Fin de la partie : Bruno, Denis l'emportent." in post
    state = yamlio.load_file(root / "turns/001/state.yaml")
    assert state["over"] and state["winners"] == ["joueur2", "joueur4"]


def test_the_ranking_in_english(tmp_path):
    post = play(scored(tmp_path, "en"), {**SHINE, "joueur4": [{"shine": 0}]}, {})
    assert "[*]Ranking: 1. Bruno (7 points), 2. Anna (5 points), 3. Denis (0 points), 4. Chloé (7 points, out)." in post
    assert "[*]The game is over: Bruno wins." in post


def test_a_score_reading_a_secret_is_ranked_for_the_mj_alone(tmp_path):
    root = scored(tmp_path, rules=SCORE.replace("classement: gloire", "classement: gloire + secret"))
    post = play(root, SHINE, {})
    assert "Classement" not in post and "[*]Fin de la partie : Bruno, Denis l'emportent." in post
    gm = (root / "turns/001/gm.bbcode").read_text(encoding="utf-8").replace("\xa0", " ")
    assert "Classement : 1. Bruno (7 points), 1. Denis (7 points)" in gm


def test_rules_explain_and_check_say_the_score(tmp_path):
    root = scored(tmp_path)
    assert "les gagnants : le meilleur score, gloire" in pbp("rules", "explain", cwd=root).output.replace("\xa0", " ")
    write(tmp_path, "bad.yaml", SCORE.replace("classement: gloire", "classement: glorie"))
    r = pbp("rules", "check", tmp_path / "bad.yaml")
    assert r.exit_code == 1 and "bad.yaml:16" in r.output and "glorie" in r.output


@pytest.mark.parametrize("heading", ["### Classement et gagnants au score", "### Ranking and winners by score"])
def test_the_reference_example_of_the_score_is_valid_rules(heading):
    from pbp.datarules import load
    from tests.helpers import REPO

    text = (REPO / "docs" / "rules-format.md").read_text(encoding="utf-8")
    section = text[text.index(heading):]
    start = section.index("```yaml\n") + 8
    rules = load.parse(section[start:section.index("```\n", start)] + "actions:\n  attendre:\n    effets: []\n")
    assert rules.program.score is not None


def test_odds_of_a_bundled_check_give_its_criticals(tmp_path):
    """By hand, d100-data's check at 97: 1d100, each face 1/100; 1-5 a critical success (5/100 =
    1/20), 96-100 a critical failure (1/20, 96 and 97 included though ≤ 97); 95 faces succeed."""
    from tests.helpers import copy_example

    r = pbp("odds", "--rule", "data.d100", "--set", "target=97", cwd=copy_example("d100-data", tmp_path))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[2:] == ["success           19/20 (95.0 %)", "failure           1/20 (5.0 %)",
                                         "critical success  1/20 (5.0 %)", "critical failure  1/20 (5.0 %)"]


def test_odds_of_a_check_give_each_band(tmp_path):
    # 1d100 ≤ 30: 30 faces; bands 1-10 (10/100 = 1/10) and 11-100 (90/100 = 9/10)
    rules = RULES.replace("    chance: agilite * 2\n", "    chance: agilite * 2\n    paliers:\n"
                          "      - {jet: 1-10, texte: net}\n      - {jet: 11-100, texte: juste}\n")
    root = arena(tmp_path, rules=rules)
    r = pbp("odds", "--rule", "data.esquive", "--set", "target=30", cwd=root)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[2:] == ["success        3/10 (30.0 %)", "failure        7/10 (70.0 %)",
                                         "1-10: net      1/10 (10.0 %)", "11-100: juste  9/10 (90.0 %)"]


EVERY_TURN = SCORE.replace("  tours_max: 1\n  classement: gloire\n",
                           "  tours_max: 2\n  classement: gloire\n  classement_chaque_tour: true\n")


def test_a_public_ranking_after_every_turn(tmp_path):
    root = scored(tmp_path, rules=EVERY_TURN)
    post = play(root, {**SHINE, "joueur3": [{"briller": 7}]}, {})
    # turn 1 of 2: the ranking, no winner yet
    assert "[*]Classement : 1. Bruno (7 points), 1. Chloé (7 points), 1. Denis (7 points), 4. Anna (5 points)." \
        in post, post
    assert "Fin de la partie" not in post
    last = play(root, {"joueur1": [{"briller": 1}]}, {}, turn=2)  # turn 2: the end, ranked once
    assert last.count("Classement :") == 1 and "[*]Fin de la partie : Bruno, Chloé, Denis l'emportent." in last, last


def test_a_ranking_every_turn_in_english_and_kept_from_the_thread_when_secret(tmp_path):
    english = EVERY_TURN.replace("classement_chaque_tour: true", "score_every_turn: true")
    post = play(scored(tmp_path / "en", "en", rules=english), {**SHINE, "joueur3": [{"shine": 1}]}, {})
    assert "[*]Ranking: 1. Bruno (7 points), 1. Denis (7 points), 3. Anna (5 points), 4. Chloé (1 point)." in post
    root = scored(tmp_path / "secret", rules=EVERY_TURN.replace("classement: gloire", "classement: gloire + secret"))
    post = play(root, {**SHINE, "joueur3": [{"briller": 7}]}, {})
    assert "Classement" not in post
    gm = (root / "turns/001/gm.bbcode").read_text(encoding="utf-8").replace("\xa0", " ")
    assert "Classement : 1. Bruno (7 points), 1. Chloé (7 points), 1. Denis (7 points), 4. Anna (5 points)." in gm


def test_a_ranking_every_turn_needs_a_score_and_is_explained(tmp_path):
    root = scored(tmp_path, rules=EVERY_TURN)
    out = pbp("rules", "explain", cwd=root).output.replace("\xa0", " ")
    assert "le classement après chaque tour" in out, out
    write(tmp_path, "bad.yaml", EVERY_TURN.replace("  classement: gloire\n", ""))
    r = pbp("rules", "check", tmp_path / "bad.yaml")
    assert r.exit_code == 1
    assert "bad.yaml:16: `classement_chaque_tour` classe les personnages par leur score : donnez-le dans " \
           "`fin: classement:`" in r.output.replace("\xa0", " "), r.output


@pytest.mark.parametrize("heading, gauges", [("**Le classement à chaque tour**", "jauges:\n  gloire: {départ: 0}\n"),
                                             ("**The ranking every turn**", "gauges:\n  glory: {start: 0}\n")])
def test_the_reference_example_of_the_ranking_every_turn_is_valid_rules(heading, gauges):
    from pbp.datarules import load
    from tests.helpers import REPO

    text = (REPO / "docs" / "rules-format.md").read_text(encoding="utf-8")
    section = text[text.index(heading):]
    start = section.index("```yaml\n") + 8
    rules = load.parse(gauges + section[start:section.index("```\n", start)] + "actions:\n  wait:\n    effects: []\n")
    assert rules.program.score is not None and rules.data["end"]["score_every_turn"] is True
