"""skirmish posts as the forums show them: every number with its parts (exact
lines, fr and en), French grammar (elision, gender, neutral wording), squares
written x-y, no words in a character's mouth, reports that end at the player's
defeat or the end of the game, wholly English output in English, and the
structure of every post through independent parsers (markdown-it-py with GFM
options and cmark-gfm for Markdown, bbcodepy for BBCode)."""

import re

import pytest
# the independent parsers come with pyproject's `test` extra
bbcodepy = pytest.importorskip("bbcodepy", reason="a test dependency: pip install -e '.[test]'")
cmarkgfm = pytest.importorskip("cmarkgfm", reason="a test dependency: pip install -e '.[test]'")
from cmarkgfm.cmark import Options
from markdown_it import MarkdownIt

from pbp.base import i18n
from pbp.model import events as ev
from pbp.render.render import Renderer, template_paths
from pbp.rulesets.skirmish import Skirmish
from tests.helpers import copy_example
from tests.rulesets.test_skirmish_render import busy_game, render, setup_game
from tests.rulesets.test_skirmish_spells import mage
from tests.rulesets.test_skirmish_support import Game, sheet

TEMPLATES = [("public", None), ("gm", None), ("private", "p1"), ("private", "p2"), ("private", "p3")]


def forum_lines(g: Game, lang: str, template: str = "public", player=None) -> list[str]:
    """The lines of a post (plain text format) that say what a roll did."""
    return [line.removeprefix("- ") for line in render(g, template, lang, "text", player).splitlines()
            if "1d100" in line or "ne peut" in line or "cannot" in line]


# -- every number with its parts ---------------------------------------------------------------------

def duel(attacker: dict, defender: dict, forced: dict, **kw) -> Game:
    g = Game({"aria": sheet("p1", "a", (0, 0), **attacker), "dag": sheet("p2", "b", (1, 0), **defender)}, **kw)
    g.play(forced, p1=["melee: dag"])
    return g


NUMBER_LINES = {
    "armour": (
        dict(FOR=16, TAI=12, competences={"melee": 45}, maitrises={"epee": 10}),
        dict(DEF=15, equipement={"armure": {"nom": "brigandine", "reduction": 1}}),
        {"aria.attaque": 42, "dag.esquive": 77, "aria.degats": [5, 1]},
        "Aria attaque Dag à l'épée : 1d100 (42) ≤ 61 (fiche 61) → touché ; esquive de Dag 1d100 (77) > 35 "
        "(fiche 35) → ratée ; dégâts 1d8 (5) + 1d4 (1) bonus − 1 défense − 1 brigandine = 4",
        "Aria attacks Dag with the sword: 1d100 (42) ≤ 61 (sheet 61) → hit; dodge by Dag 1d100 (77) > 35 "
        "(sheet 35) → failed; damage 1d8 (5) + 1d4 (1) bonus − 1 defence − 1 brigandine = 4"),
    # TAI+FOR 11: the damage bonus is a malus die; the damage never goes below 0
    "malus and floor": (
        dict(FOR=5, TAI=6), {}, {"aria.attaque": 10, "dag.esquive": 99, "aria.degats": [2, 5]},
        "Aria attaque Dag à l'épée : 1d100 (10) ≤ 35 (fiche 35) → touché ; esquive de Dag 1d100 (99) > 30 "
        "(fiche 30) → ratée ; dégâts 1d8 (2) − 1d6 (5) malus − 1 défense = −4 → 0 (plancher)",
        "Aria attacks Dag with the sword: 1d100 (10) ≤ 35 (sheet 35) → hit; dodge by Dag 1d100 (99) > 30 "
        "(sheet 30) → failed; damage 1d8 (2) − 1d6 (5) malus − 1 defence = −4 → 0 (floor)"),
    "perfect and an item": (
        dict(FOR=16, TAI=12, effets=[{"nom": "potion", "stat": "degats", "valeur": 1}]), dict(DEF=20),
        {"aria.attaque": 3, "dag.esquive": 99, "aria.degats": [5, 1, 3]},
        "Aria attaque Dag à l'épée : 1d100 (3) ≤ 46 (fiche 46) → touché, attaque parfaite (jet sous 5) ; esquive "
        "de Dag 1d100 (99) > 40 (fiche 40) → ratée ; dégâts 1d8 (5) + 1d4 (1) bonus + 1d6 (3) parfaite + 1 potion "
        "− 2 défense = 8",
        "Aria attacks Dag with the sword: 1d100 (3) ≤ 46 (sheet 46) → hit, perfect attack (roll under 5); dodge "
        "by Dag 1d100 (99) > 40 (sheet 40) → failed; damage 1d8 (5) + 1d4 (1) bonus + 1d6 (3) perfect + 1 potion "
        "− 2 defence = 8"),
    "cap and floor of a chance": (
        dict(competences={"melee": 90}, effets=[{"nom": "bénédiction", "stat": "attaque", "valeur": 10, "tours": 2}]),
        dict(competences={"esquive": 5}, effets=[{"nom": "malédiction", "stat": "esquive", "valeur": -15, "tours": 2}]),
        {"aria.attaque": 50, "dag.esquive": 1, "aria.degats": [5]},
        "Aria attaque Dag à l'épée : 1d100 (50) ≤ 95 (fiche 90 + 10 bénédiction = 100, plafond 95) → touché ; "
        "esquive de Dag 1d100 (1) > 0 (fiche 5 − 15 malédiction = −10, plancher 0) → ratée ; dégâts 1d8 (5) "
        "− 1 défense = 4",
        "Aria attacks Dag with the sword: 1d100 (50) ≤ 95 (sheet 90 + 10 bénédiction = 100, cap 95) → hit; "
        "dodge by Dag 1d100 (1) > 0 (sheet 5 − 15 malédiction = −10, floor 0) → failed; damage 1d8 (5) "
        "− 1 defence = 4"),
}


@pytest.mark.parametrize("case", NUMBER_LINES)
def test_an_attack_line_gives_every_number_with_its_parts(case):
    attacker, defender, forced, fr, en = NUMBER_LINES[case]
    g = duel(attacker, defender, forced)
    assert forum_lines(g, "fr") == [fr]
    g = duel({**attacker, "equipement": {"armes": {"epee": {"nom": "sword", "avec": "with the sword"}}}}, defender,
             forced)
    assert forum_lines(g, "en") == [en]


def test_the_situation_parts_of_a_shot_and_a_brawl():
    """Faction help, the hindrance of one's own characters and the range malus are
    shown one by one (the board shows them anyway); the sheet's share is one sum."""
    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p1", "a", (0, 2), DEX=15),
              "dag": sheet("p2", "b", (3, 1)), "eli": sheet("p2", "b", (1, 0))})
    g.play({"bran.attaque": 20, "dag.esquive": 99, "bran.degats": [4, 2], "aria.attaque": 90},
           p1=["tir: {perso: bran, cible: dag}", "bagarre: {perso: aria, cible: eli}"])
    assert forum_lines(g, "fr") == [
        "Bran tire sur Dag à l'arc (à 3,2 cases) : 1d100 (20) ≤ 39 (fiche 45 − 4 gêne − 2 portée) → touché ; "
        "esquive de Dag 1d100 (99) > 33 (fiche 30 + 3 faction) → ratée ; "
        "dégâts 1d6 (4) + 1d4 (2) bonus − 1 défense = 5",
        "Aria frappe Eli à mains nues : 1d100 (90) > 39 (fiche 40 + 3 faction − 4 gêne) → raté",
    ]
    assert forum_lines(g, "en") == [
        "Bran shoots at Dag à l'arc (3.2 squares away): 1d100 (20) ≤ 39 (sheet 45 − 4 hindrance − 2 range) → hit; "
        "dodge by Dag 1d100 (99) > 33 (sheet 30 + 3 faction) → failed; damage 1d6 (4) + 1d4 (2) bonus − 1 defence = 5",
        "Aria punches Eli bare-handed: 1d100 (90) > 39 (sheet 40 + 3 faction − 4 hindrance) → miss",
    ]


def test_a_counter_that_costs_more_than_is_left_says_so():
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=5), "eli": mage("p2", "b", (3, 0), DEX=14)})
    g.play({"cyra.magie": 10, "eli.contre": 15, "eli.magie": 99, "eli.magie.2": 99, "eli.magie.3": 99},
           p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}"],
           p2=["sort: {perso: eli, sort: trait_de_feu, cible: cyra}"] * 3)
    assert forum_lines(g, "fr")[-1] == (
        "Cyra lance Trait de feu sur Eli : 1d100 (10) ≤ 35 (fiche 35) → réussi ; contre-magie d'Eli 1d100 (15) ≤ 20 "
        "(fiche 40 − 20 difficulté) → sort bloqué (Eli perd 1 PA, tout ce qui lui restait : le contre en coûte 2)")
    assert forum_lines(g, "en")[-1] == (
        "Cyra casts Fire Bolt on Eli: 1d100 (10) ≤ 35 (sheet 35) → success; counter-magic by Eli 1d100 (15) ≤ 20 "
        "(sheet 40 − 20 difficulty) → spell blocked (Eli loses 1 AP, all that was left: the counter costs 2)")


def test_spell_damage_shows_what_reduces_it_when_a_campaign_says_it_does():
    g = Game({"cyra": mage("p1", "a", (0, 0)),
              "dag": sheet("p2", "b", (3, 0), DEF=20, equipement={"armure": {"nom": "cuir", "reduction": 1}})},
             rules={"magic": {"reduction_applies": True}})
    g.play({"cyra.magie": 10, "cyra.effet": 8}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: dag}"])
    assert forum_lines(g, "fr") == ["Cyra lance Trait de feu sur Dag : 1d100 (10) ≤ 40 (fiche 40) → réussi ; "
                                    "dégâts 1d8 (8) : Dag −5 (8 − 2 défense − 1 cuir)"]
    assert forum_lines(g, "en") == ["Cyra casts Fire Bolt on Dag: 1d100 (10) ≤ 40 (sheet 40) → success; "
                                    "damage 1d8 (8): Dag −5 (8 − 2 defence − 1 cuir)"]


def test_a_heal_says_when_it_stops_at_the_maximum():
    g = Game({"cyra": mage("p1", "a", (0, 0), pv=20), "dag": sheet("p2", "b", (5, 5))})
    g.units["cyra"]["hp"] = 17
    g.play({"cyra.magie": 10, "cyra.effet": [6]}, p1=["sort: {perso: cyra, sort: soin, cible: cyra}"])
    assert forum_lines(g, "fr") == ["Cyra lance Soin sur Cyra : 1d100 (10) ≤ 40 (fiche 40) → réussi ; "
                                    "soin 1d8+2 (6+2 = 8) : Cyra +3 PV (PV au maximum)"]
    assert forum_lines(g, "en") == ["Cyra casts Heal on Cyra: 1d100 (10) ≤ 40 (sheet 40) → success; "
                                    "heal 1d8+2 (6+2 = 8): Cyra +3 HP (HP at maximum)"]


# -- French grammar ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, de", [("Aria", "d'Aria"), ("Eli", "d'Eli"), ("Hugo", "d'Hugo"), ("Héros", "de Héros"),
                                      ("Yves", "d'Yves"), ("Yannick", "de Yannick"), ("Dag", "de Dag")])
def test_elision_before_a_vowel_a_mute_h_and_a_y(name, de):
    g = Game({"aria": sheet("p1", "a", (0, 0)), "foe": sheet("p2", "b", (1, 0), nom=name)})
    g.play({"aria.attaque": 10, "foe.esquive": 99, "aria.degats": [1]}, p1=["melee: foe"])
    assert f" ; esquive {de} 1d100 (99) > 30 (fiche 30) → ratée ;" in forum_lines(g, "fr")[0]
    assert f"; dodge by {name} 1d100 (99)" in forum_lines(g, "en")[0]


def test_what_falls_agrees_with_its_gender_or_is_said_neutrally():
    """Doors and objects: the sheet's `genre`, else the article of the name tells
    the gender; unknown (l'autel, a bare name): the neutral wording."""
    g = Game({"cyra": mage("p1", "a", (0, 0)), "dag": sheet("p2", "b", (3, 0), pv=1)},
             npcs={"porte": {"type": "door", "nom": "la porte", "position": [3, 1], "pv": 1},
                   "portail": {"type": "door", "nom": "le portail", "position": [4, 1], "pv": 1},
                   "grille": {"type": "door", "nom": "Grille", "position": [4, 2], "pv": 1},
                   "caisse": {"type": "object", "nom": "la caisse", "position": [2, 1], "pv": 1},
                   "autel": {"type": "object", "nom": "l'autel", "position": [4, 0], "pv": 1},
                   "armoire": {"type": "object", "nom": "l'armoire", "genre": "f", "position": [2, 0], "pv": 1}},
             width=6, height=4)
    g.play({"cyra.magie": 10, "cyra.effet": 12}, p1=["sort: {perso: cyra, sort: boule_de_feu, cible: dag}"])
    assert forum_lines(g, "fr") == [
        "Cyra lance Boule de feu sur Dag (zone de 1,5 case) : 1d100 (10) ≤ 40 (fiche 40) → réussi ; dégâts 2d6 (12) : "
        "Dag −12 (hors de combat), la porte −12 (enfoncée), le portail −12 (enfoncé), la caisse −12 (détruite), "
        "l'autel −12 (hors d'usage), l'armoire −12 (détruite)"]
    gm = render(g, "gm", "fr", "text").splitlines()
    for line in ("- La porte : 0/1 PV, en 3-1 — enfoncée, réduction 3", "- Le portail : 0/1 PV, en 4-1 — enfoncé, "
                 "réduction 3", "- Grille : 1/1 PV, en 4-2, réduction 3", "- L'autel : 0/1 PV, en 4-0 — hors d'usage, "
                 "réduction 1", "- L'armoire : 0/1 PV, en 2-0 — détruite, réduction 1"):
        assert line in gm, line
    assert forum_lines(g, "en") == [
        "Cyra casts Fireball on Dag (area of 1.5 squares): 1d100 (10) ≤ 40 (sheet 40) → success; damage 2d6 (12): "
        "Dag −12 (down), la porte −12 (broken), le portail −12 (broken), la caisse −12 (destroyed), "
        "l'autel −12 (destroyed), l'armoire −12 (destroyed)"]


@pytest.mark.parametrize("nom, genre, fr", [("la porte de chêne", None, "la porte de chêne est déjà enfoncée"),
                                            ("le portail", None, "le portail est déjà enfoncé"),
                                            ("l'huis", "m", "l'huis est déjà enfoncé"),
                                            ("Porte", None, "Porte est déjà hors d'usage")])
def test_a_lost_attack_on_a_fallen_door_agrees(nom, genre, fr):
    door = {"type": "door", "nom": nom, "position": [1, 0], "pv": 1, **({"genre": genre} if genre else {})}
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (5, 5))}, npcs={"porte": door})
    g.play({"aria.attaque": 10, "aria.degats": [8]}, p1=["melee: porte", "melee: porte"])
    lines = forum_lines(g, "fr")
    assert lines[0].endswith(f" — {fr.split(' est ')[0]} est {fr.split(' déjà ')[1]} !")
    assert lines[1] == f"Aria ne peut pas attaquer : {fr}."
    assert forum_lines(g, "en")[1] == f"Aria cannot attack: {nom} is already broken."


def test_a_character_sheet_may_give_its_gender():
    g = Game({"aria": sheet("p1", "a", (0, 0), genre="f"), "dag": sheet("p2", "b", (5, 5), genre="m")})
    assert g.units["aria"]["gender"] == "f" and g.units["dag"]["gender"] == "m"
    g2 = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (5, 5))})
    assert "gender" not in g2.units["aria"]  # a character's name tells nothing: neutral wording


# -- squares ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("written", ["vers: 2-1", "vers: [2, 1]", "vers: '(2, 1)'", "vers: '2, 1'", "to: 2-1",
                                     "vers: 2 1"])
def test_a_square_is_written_x_y_and_the_old_list_still_reads(written):
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (5, 5))})
    g.play(p1=[f"deplacer: {{{written}}}"])
    assert g.units["aria"]["position"] == [2, 1]
    assert forum_lines(g, "fr") == [] and "- Aria se déplace de 0-0 à 2-1 (2 cases, 2 PA)." in \
        render(g, "public", "fr", "text").splitlines()
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (5, 5))})
    g.play(p1=["deplacer: 2-1"])  # the bare form
    assert g.units["aria"]["position"] == [2, 1]


def test_a_square_written_wrong_is_refused_with_the_way_to_write_it():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (5, 5))})
    assert g.check_errors("p1", "deplacer: {vers: quatre}") == [
        "turns/001/orders/p1.yaml:4: `quatre` is not a square: write x-y, e.g. `to: 4-2` (x from left to right, "
        "y from top to bottom, from 0)."]
    assert g.check_errors("p1", "deplacer: {vers: [4, x]}") == [
        "turns/001/orders/p1.yaml:4: `4, x` is not a square: write x-y, e.g. `to: 4-2` (x from left to right, "
        "y from top to bottom, from 0)."]
    assert i18n.t("fr", "skirmish.bad_square", value="quatre") == (
        "« quatre » n'est pas une case : écrivez x-y, par exemple « vers: 4-2 » (x de gauche à droite, y de haut en "
        "bas, depuis 0).")
    assert i18n.t("fr", "skirmish.occupied", x=4, y=2, by="Dag") == "la case 4-2 est occupée par Dag."


# -- no words in a character's mouth ---------------------------------------------------------------------

def every_post(g: Game, setup: Game):
    for lang in ("fr", "en"):
        for fmt in ("text", "bbcode", "markdown"):
            for template, player in TEMPLATES:
                yield (lang, fmt, template, player), render(g, template, lang, fmt, player)
            for template, player in (("setup_public", None), ("setup_gm", None), ("setup_private", "p1")):
                yield (lang, fmt, template, player), render(setup, template, lang, fmt, player)
            yield (lang, fmt, "status_body", None), render(g, "status_body", lang, fmt,
                                                           events=g.rs.status(g.state, g.scenario))
            yield (lang, fmt, "orders_hints", None), Renderer(template_paths("skirmish", lang), fmt, lang=lang).render(
                "orders_hints", hints=g.rs.order_context(g.state, g.scenario, "p1"))


def test_no_post_puts_words_in_a_characters_mouth():
    """A sheet's `repliques` are accepted and never shown; no template has a line
    of its own for a character: no quotation mark in any output."""
    g = busy_game()  # Aria's sheet has a retort for a missed attack, and she misses
    for where, text in every_post(g, setup_game()):
        assert not set("«»“”") & set(text), where
        assert "la prochaine sera la bonne" not in text and "next one will" not in text, where


def test_the_example_quotes_only_the_players_roleplay(tmp_path):
    root = copy_example("skirmish", tmp_path)
    for post in sorted((root / "turns").glob("*/**/*.bbcode")):
        text = post.read_text(encoding="utf-8")
        outside = re.sub(r"\[quote=\"[^\"]*\"\].*?\[/quote\]", "", text, flags=re.S)
        assert not set("«»“”") & set(outside), post


# -- reports end at the player's defeat, or at the end of the game -----------------------------------------

def last_stand() -> Game:
    g = Game({"aria": sheet("p1", "a", (0, 0), DEX=15), "bran": sheet("p1", "a", (0, 1), DEX=14),
              "dag": sheet("p2", "b", (1, 0), pv=1, DEX=12), "eli": sheet("p3", "b", (1, 1), DEX=5, pv=1)})
    g.play({"aria.attaque": 10, "dag.esquive": 99, "aria.degats": [5], "bran.attaque": 10, "eli.esquive": 99,
            "bran.degats": [5]},
           p1=["melee: {perso: aria, cible: dag}", "melee: {perso: bran, cible: eli}"], p2=["melee: aria"],
           p3=["melee: bran"])
    return g


@pytest.mark.parametrize("lang, defeated, over, final", [
    ("fr", "Dag est hors de combat : la partie s'arrête là pour vous.",
     "**Fin de l'escarmouche.** Victoire : Faction A.",
     "Vos personnages à la fin"),
    ("en", "Dag is down: the game ends here for you.", "**End of the skirmish.** Victory: Faction A.",
     "Your characters at the end")])
def test_a_report_ends_at_the_defeat_or_at_the_end_of_the_game(lang, defeated, over, final):
    g = last_stand()
    p2 = render(g, "private", lang, "markdown", "p2").rstrip("\n").split("\n")
    assert p2[-1] == defeated
    assert not any(final in line or "PV," in line or "HP," in line for line in p2)  # no sheets after the end
    p1 = render(g, "private", lang, "markdown", "p1").rstrip("\n").split("\n")
    assert p1[-1] == over and any(final in line for line in p1)
    assert g.rs.is_over(g.state)


def test_a_player_with_characters_left_goes_on():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p2", "b", (1, 0), pv=1),
              "cyra": sheet("p2", "b", (5, 5)), "dag": sheet("p3", "a", (6, 6))})
    g.play({"aria.attaque": 10, "bran.esquive": 99, "aria.degats": [5]}, p1=["melee: bran"])
    assert not [e for e in g.events if e.kind == "defeated"]
    assert "- Cyra : 20/20 PV, 10/10 PA, 0 XP, niveau 1, en 5-5" in render(g, "private", "fr", "text", "p2")


def test_who_still_stands_for_the_footer():
    g = last_stand()
    assert Skirmish().standing(g.state, g.scenario) == [
        {"name": "p1", "handle": "p1", "status": "standing_playing", "standing": ["Aria", "Bran"], "down": []},
        {"name": "p2", "handle": "p2", "status": "standing_out", "standing": [], "down": ["Dag"]},
        {"name": "p3", "handle": "p3", "status": "standing_out", "standing": [], "down": ["Eli"]},
    ]
    events = [e for e in g.events if e.audience == ev.Players("p3")]
    assert [e.kind for e in events] == ["attack", "defeated"]  # told once


def test_a_player_already_out_gets_the_same_last_line_the_next_turns():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p2", "b", (1, 0), pv=1),
              "dag": sheet("p3", "b", (6, 6))})
    g.play({"aria.attaque": 10, "bran.esquive": 99, "aria.degats": [5]}, p1=["melee: bran"])
    assert not g.rs.is_over(g.state)
    g.play()
    assert [e.kind for e in g.events if e.audience == ev.Players("p2")] == ["defeated"]
    assert render(g, "private", "fr", "text", "p2").splitlines()[-1] == (
        "Bran est hors de combat : la partie s'arrête là pour vous.")
    assert g.rs.standing(g.state, g.scenario)[1]["status"] == "standing_out"


# -- English output is wholly English ---------------------------------------------------------------------

def french_words() -> set[str]:
    """The rules' French vocabulary an English post must not show: the French ids
    of actions, order fields, spells, spell types, effect stats, skills, and the
    French words of the posts (PV, PA, MJ, fiche...)."""
    rules = Skirmish().rules
    words = {aid for aid, spec in rules["actions"].items() if spec.get("en") != aid}
    words |= {name for spec in rules["actions"].values() for name in (spec.get("arg") or {}).get("fields", {})}
    words |= {sid for sid, spec in rules["spells"].items() if spec.get("en") != sid}
    words |= {"degats", "soin", "attaque", "esquive", "magie", "bagarre", "mêlée", "dégâts", "réduction"}
    words |= {"PV", "PA", "MJ", "fiche", "gêne", "portée", "niveau", "cases", "touché", "raté", "réussi"}
    return words - {"melee"}


def test_an_english_post_and_form_show_no_french_rules_word():
    g, words = busy_game(english=True), french_words()
    assert {"deplacer", "perso", "cible", "vers", "trait_de_feu", "PV"} <= words
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) +
                         r")(?![\w-])", re.I)
    for (lang, fmt, template, player), text in every_post(g, setup_game()):
        if lang != "en":
            continue
        text = text.replace("Faction A", "").replace("Faction B", "")
        found = pattern.findall(text)
        assert not found, ((fmt, template, player), found)


# -- structure through independent parsers ----------------------------------------------------------------

_md = MarkdownIt("gfm-like")


def md_lists(text: str) -> list:
    """The bullet lists of a Markdown post as markdown-it-py reads them: each list
    a list of items, each item (its text, its sub-list or None)."""
    tokens = _md.parse(text)

    def read(i):
        items, depth = [], 0
        i += 1
        while tokens[i].type != "bullet_list_close":
            assert tokens[i].type == "list_item_open", tokens[i]
            i += 1
            text, sub = None, None
            while tokens[i].type != "list_item_close":
                if tokens[i].type == "inline":
                    text = tokens[i].content
                if tokens[i].type == "bullet_list_open":
                    sub, i = read(i)
                i += 1
            items.append((text, sub))
            i += 1
        return items, i

    out, i = [], 0
    while i < len(tokens):
        if tokens[i].type == "bullet_list_open":
            found, i = read(i)
            out.append(found)
        i += 1
    return out


def bb_lists(text: str) -> list:
    """The same, read off bbcodepy's HTML."""
    html = bbcodepy.Parser().to_html(text)
    pos = 0
    stack, out = [], []
    for m in re.finditer(r"<(/?)(ul|li)\b[^>]*>", html):
        closing, tag = m.group(1), m.group(2)
        if tag == "ul" and not closing:
            stack.append([])
        elif tag == "ul":
            done = stack.pop()
            if stack and stack[-1]:
                text, _ = stack[-1][-1]
                stack[-1][-1] = (text, done)
            else:
                out.append(done)
        elif tag == "li" and not closing and stack:
            stack[-1].append((None, None))
        pos = m.end()
    assert not stack
    return out


def expected_lists(g: Game, template: str, player=None) -> list[list[int]]:
    """Per list of the post, the number of sub-items of each item (0: none)."""
    if template == "public":
        events = ev.by_audience(g.events)[ev.PUBLIC]
        acts = [e for e in events if e.kind in ("move", "attack", "spell", "lost", "down_skip", "effects_end",
                                                 "level_up")]
        legend = next(e for e in events if e.kind == "board").data["legend"]
        return [[0] * len(acts), [0] * len(legend)]
    if template == "gm":  # the MJ's copy of an attack or a spell, the public one of anything else
        acts = [len(e.data["details"]) + bool(e.data["xp"]) + 1 if e.kind in ("attack", "spell") else 0
                for e in g.events if (e.kind in ("attack", "spell") and e.audience == ev.GM)
                or (e.kind in ("move", "lost", "down_skip", "effects_end", "level_up") and e.audience == ev.PUBLIC)]
        status = next(e for e in g.events if e.kind == "status")
        return [acts, [0] * len(status.data["units"])]
    events = ev.by_audience(g.events)[ev.Players(player)]
    acts = [len(e.data["details"]) + bool(e.data["xp"]) for e in events if e.kind in ("attack", "spell")]
    sheets = [1 if any(s["stats"].values()) else 0 for e in events if e.kind == "sheets" for s in e.data["sheets"]]
    return [x for x in (acts, sheets) if x]


def shape(lists) -> list[list[int]]:
    return [[len(sub) if sub else 0 for _, sub in items] for items in lists]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("template, player", TEMPLATES)
def test_markdown_posts_are_lists_with_nested_details_and_no_merged_lines(lang, template, player):
    g = busy_game()
    text = render(g, template, lang, "markdown", player)
    want = expected_lists(g, template, player)
    got = shape(md_lists(text))
    assert got == want
    # every line meant as a line is its own paragraph or item: no inline text holds a line break
    for token in _md.parse(text):
        if token.type == "inline":
            assert "\n" not in token.content, token.content
    # cmark-gfm reads the same number of items, nested the same way
    html = cmarkgfm.markdown_to_html_with_extensions(text, options=Options.CMARK_OPT_UNSAFE,
                                                     extensions=["table", "autolink", "strikethrough"])
    assert html.count("<li>") == sum(len(x) + sum(x) for x in want)
    assert html.count("<ul>") == len(want) + sum(1 for x in want for n in x if n)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("template, player", TEMPLATES + [("setup_public", None), ("setup_gm", None)])
def test_bbcode_posts_use_real_lists_nested_for_details(lang, template, player):
    g = setup_game() if template.startswith("setup") else busy_game()
    text = render(g, template, lang, "bbcode", player)
    for line in text.splitlines():
        assert not re.match(r"\s*([-•◦*]|\d+\.)\s", line), line  # no list written as lines
    if template.startswith("setup"):
        # the board's legend; the MJ's sheets
        assert [len(x) for x in shape(bb_lists(text))] == ([2] if template == "setup_public" else [2, 2])
        return
    want = expected_lists(g, template, player)
    got = shape(bb_lists(text))
    assert got == want


def test_an_english_order_file_reads_with_english_words_throughout():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "cyra": mage("p1", "a", (0, 2)), "dag": sheet("p2", "b", (3, 0))})
    g.play({"cyra.magie": 10, "dag.contre": 99, "cyra.effet": 3, "aria.attaque": 99},
           p1=["move: {character: aria, to: 2-0}", "spell: {character: cyra, spell: fire_bolt, target: dag}",
               "melee: {character: aria, target: dag, weapon: epee}"])
    assert g.units["aria"]["position"] == [2, 0] and g.units["dag"]["hp"] == 17
    # Aria acts first (equal DEX: sheet order), her move then her attack; then Cyra's spell
    assert [e.data["action"] for e in g.events if e.audience == ev.PUBLIC and e.kind in ("attack", "spell")] == [
        "melee", "sort"]
    assert g.check_errors("p1", "move: {character: bob, to: 1-1}") == [
        "turns/002/orders/p1.yaml:4: unknown character `bob`. Valid values: aria, cyra."]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("template, player, lists", [("setup_public", None, [2]), ("setup_gm", None, [2, 2]),
                                                     ("setup_private", "p1", [1]), ("status_body", None, [6, 7])])
def test_markdown_setup_posts_and_status_keep_their_lines_apart(lang, template, player, lists):
    g = busy_game() if template == "status_body" else setup_game()
    extra = {"events": g.rs.status(g.state, g.scenario)} if template == "status_body" else {}
    text = render(g, template, lang, "markdown", player, **extra)
    assert [len(x) for x in md_lists(text)] == lists
    inline = [t.content for t in _md.parse(text) if t.type == "inline"]
    assert inline and not [c for c in inline if "\n" in c]
    if template == "setup_public":  # one paragraph per faction
        assert [c for c in inline if "Faction" in c and c.count("Faction") == 1 and ("Aria" in c or "Dag" in c)]
        assert not [c for c in inline if "Aria" in c and "Dag" in c]
