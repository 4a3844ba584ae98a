"""manhunt's posts as players read them: every number of a fight or a shot with
its parts (French and English, exact texts), the grammar (elision, articles,
each gender), the report ending at a death, hunters and items by name, English
order forms, and the structure of the posts under parsers pbp does not render
with (markdown-it-py with GFM options, bbcodepy)."""

from __future__ import annotations

import re

import pytest
# the independent parsers come with pyproject's `test` extra
bbcodepy = pytest.importorskip("bbcodepy", reason="a test dependency: pip install -e '.[test]'")
from markdown_it import MarkdownIt

from pbp.base import i18n, yamlio
from pbp.model import events as ev
from pbp.model.argtypes import compile_types
from pbp.render.render import Renderer, template_paths
from tests.helpers import copy_example, pbp
from tests.rulesets.test_manhunt import Game
from tests.test_escaping_parsers import tree

ZWSP = "\u200b"


def render(g: Game, template: str, lang="fr", fmt="bbcode", player=None, names=None, events=None) -> str:
    """A post of the game's last turn, from the events its reader gets."""
    rend = Renderer(template_paths("manhunt", lang), fmt, lang=lang)
    events = g.events if events is None else events
    grouped = ev.by_audience(events)
    if template in ("public", "setup_public"):
        events = grouped.get(ev.PUBLIC, [])
    elif template in ("private", "setup_private"):
        events = grouped.get(ev.Players(player), [])
    names = names or {h: h.capitalize() for h in g.sc.roster}
    by_player = {h: grouped[ev.Players(h)] for h in g.sc.roster if ev.Players(h) in grouped}
    return rend.render(template, turn=g.turn, title="Test", events=events, names=names, player=player,
                       character=names.get(player), audience=None, by_player=by_player)


def lines(text: str) -> list[str]:
    return text.splitlines()


def bare_hands_fight(genre="f") -> Game:
    """Lucy (fatigue level 2) fights Sylas (protection 2) bare-handed and dies:
    the issue's `1d6 (6) + 0 − 2 protection − 2 fatigue = 2`."""
    g = Game(lucy="G", bob="C")
    g.sc.characters["pejis"]["lucy"]["genre"] = genre
    g.p()["fatigue"] = 3
    g.play(forced={"lucy.combat.h3.1": [6], "h3.combat.lucy.1": [3, 4], "lucy.combat.h3.2": [6],
                   "h3.combat.lucy.2": [1, 1], "lucy.combat.h3.3": [5], "h3.combat.lucy.3": [2, 1]},
           lucy=[{"combat": "sylas"}])
    return g


# -- every number with its parts ------------------------------------------------------------

FIGHT_FR = """\
[list]
[*][b]Combat[/b] contre Sylas (vous attaquez), à mains nues :[list]
[*]Assaut 1 : vous 1d6 (6) + 0 − 2 protection − 2 fatigue = 2 ; Sylas 2d6 (3+4) + 0 − 0 protection = 7 → 7 > 2 : Sylas l'emporte, vous êtes blessée.
[*]Assaut 2 : vous 1d6 (6) + 0 − 2 protection − 2 fatigue = 2 ; Sylas 2d6 (1+1) + 0 − 0 protection = 2 → 2 = 2 : égalité, personne n'est blessé.
[*]Assaut 3 : vous 1d6 (5) + 0 − 2 protection − 2 fatigue = 1 ; Sylas 2d6 (2+1) + 0 − 0 protection = 3 → 3 > 1 : Sylas l'emporte, vous êtes blessée.
[*]Défaite : Sylas gagne 2 assauts sur 3 (2 suffisent).
[/list]
[*]Blessure : niveau 2 (légèrement blessée).
[*]Blessure : niveau 3 (blessée).
[*][b]Vous êtes morte au combat.[/b]
[/list]
"""

FIGHT_EN = """\
- **Fight** against Sylas (you attack), bare-handed:
  - Round 1: you 1d6 (6) + 0 − 2 protection − 2 fatigue = 2; Sylas 2d6 (3+4) + 0 − 0 protection = 7 → 7 > 2: Sylas wins, you are wounded.
  - Round 2: you 1d6 (6) + 0 − 2 protection − 2 fatigue = 2; Sylas 2d6 (1+1) + 0 − 0 protection = 2 → 2 = 2: a tie, nobody is wounded.
  - Round 3: you 1d6 (5) + 0 − 2 protection − 2 fatigue = 1; Sylas 2d6 (2+1) + 0 − 0 protection = 3 → 3 > 1: Sylas wins, you are wounded.
  - Defeat: Sylas wins 2 rounds out of 3 (2 needed).
- Wound: level 2 (lightly wounded).
- Wound: level 3 (wounded).
- **You died in combat.**
"""


def test_a_fight_shows_each_total_with_its_parts_in_french():
    post = render(bare_hands_fight(), "private", player="lucy")
    # the report ends at the death: the fight, its wounds, the death, nothing else
    assert post == "[size=200][b]Lucy — tour 1[/b][/size]\n\n" + FIGHT_FR


def test_a_fight_shows_each_total_with_its_parts_in_english():
    post = render(bare_hands_fight(), "private", lang="en", fmt="markdown", player="lucy")
    assert post == "## Lucy — turn 1\n\n" + FIGHT_EN


def test_the_thread_reads_the_same_numbers_in_the_third_person():
    post = render(bare_hands_fight(), "public")
    assert lines(post)[4:11] == [
        "[*][b]Combat[/b] : Lucy contre Sylas (attaque de Lucy) :[list]",
        "[*]Assaut 1 : Lucy 1d6 (6) + 0 − 2 protection − 2 fatigue = 2 ; Sylas 2d6 (3+4) + 0 − 0 protection = 7 "
        "→ 7 > 2 : Sylas l'emporte, Lucy est blessée.",
        "[*]Assaut 2 : Lucy 1d6 (6) + 0 − 2 protection − 2 fatigue = 2 ; Sylas 2d6 (1+1) + 0 − 0 protection = 2 "
        "→ 2 = 2 : égalité, personne n'est blessé.",
        "[*]Assaut 3 : Lucy 1d6 (5) + 0 − 2 protection − 2 fatigue = 1 ; Sylas 2d6 (2+1) + 0 − 0 protection = 3 "
        "→ 3 > 1 : Sylas l'emporte, Lucy est blessée.",
        "[*]Sylas gagne 2 assauts sur 3 (2 suffisent) : Lucy a perdu le combat.",
        "[/list]",
        "[*][color=red][b]Lucy a péri au combat.[/b][/color]",
    ]
    en = render(bare_hands_fight(), "public", lang="en")
    assert "[*]Sylas wins 2 rounds out of 3 (2 needed): Lucy has lost the fight." in lines(en)
    assert "[*][color=red][b]Lucy died in combat.[/b][/color]" in lines(en)


def test_a_weapon_bonus_and_a_hunter_out_after_two_assaults():
    """épée large 1d6+2 named without its accent, against Sylas (protection 2)."""
    g = Game(lucy="G", bob="C")
    g.p()["inventory"] = ["épée large"]
    g.sc.characters["hunters"]["h3"]["genre"] = "m"
    g.play(forced={"lucy.combat.h3.1": [4], "h3.combat.lucy.1": [1, 1], "lucy.combat.h3.2": [6],
                   "h3.combat.lucy.2": [2, 2], "lucy.combat.h3.3": 3, "h3.combat.lucy.3": [6, 6]},
           lucy=[{"combat": {"chasseur": "Sylas", "arme": "epee large"}}])
    post = lines(render(g, "private", player="lucy"))
    assert post[3:9] == [
        "[*][b]Combat[/b] contre Sylas (vous attaquez), arme : épée large :[list]",
        "[*]Assaut 1 : vous 1d6 (4) + 2 − 2 protection = 4 ; Sylas 2d6 (1+1) + 0 − 0 protection = 2 "
        "→ 4 > 2 : vous l'emportez, Sylas est blessé.",
        "[*]Assaut 2 : vous 1d6 (6) + 2 − 2 protection = 6 ; Sylas 2d6 (2+2) + 0 − 0 protection = 4 "
        "→ 6 > 4 : vous l'emportez, Sylas est blessé.",
        # a roll forced to a total: its expression and that total
        "[*]Assaut 3 : vous 1d6+2 (3) − 2 protection = 1 ; Sylas 2d6 (6+6) + 0 − 0 protection = 12 "
        "→ 12 > 1 : Sylas l'emporte, vous recevez une blessure.",
        "[*]Victoire : vous gagnez 2 assauts sur 3 (2 suffisent) : Sylas est hors de combat.",
        "[/list]",
    ]


def test_a_roll_forced_to_a_total_shows_that_total_and_a_bonus_counts():
    g = Game(lucy="G", bob="C")
    g.p()["inventory"] = ["épée large"]
    g.play(forced={"lucy.combat.h3.1": 3, "h3.combat.lucy.1": [6, 6], "lucy.combat.h3.2": 3,
                   "h3.combat.lucy.2": [6, 6]}, lucy=[{"combat": None}])
    a = g.event("combat").data["assaults"][0]
    assert a["peji_sum"] == {"dice": "1d6+2", "faces": [3], "bonus": None,
                             "terms": [{"name": "protection", "value": -2}, {"name": "fatigue", "value": 0},
                                       {"name": "bonus", "value": 0}], "total": 1}
    assert "[*]Assaut 1 : vous 1d6+2 (3) − 2 protection = 1 ; Sylas 2d6 (6+6) + 0 − 0 protection = 12 " \
           "→ 12 > 1 : Sylas l'emporte, vous recevez une blessure." in lines(render(g, "private", player="lucy"))


def shot(forced, genre=None, hunter="grimnir") -> Game:
    """Lucy in B throws balanced daggers (1d6+1) at Grimnir (protection 1, defence 8) in C."""
    g = Game(lucy="B", bob="G")
    g.p()["inventory"] = ["dagues de lancer équilibrées"]
    g.sc.characters["hunters"]["h1"]["genre"] = genre
    g.state["hunters"]["h1"]["cell"] = "C"
    g.play(forced=forced, lucy=[{"tir": {"chasseur": hunter}}])
    return g


@pytest.mark.parametrize("faces, fr, en", [
    ([6], "1d6 (6) + 1 − 1 protection = 6 contre une défense de 8 → 6 < 8 : manqué.",
     "1d6 (6) + 1 − 1 protection = 6 against a defence of 8 → 6 < 8: missed."),
])
def test_a_shot_against_the_defence(faces, fr, en):
    g = shot({"lucy.tir": faces})
    assert f"[*][b]Tir[/b] sur Grimnir, arme : dagues de lancer équilibrées : {fr}" in lines(
        render(g, "private", player="lucy"))
    assert f"[*][b]Shot[/b] at Grimnir, weapon: dagues de lancer équilibrées: {en}" in lines(
        render(g, "private", lang="en", player="lucy"))
    assert f"[*][b]Tir[/b] : Lucy vise Grimnir : {fr}" in lines(render(g, "public"))


def test_a_shot_that_hits_and_one_that_knocks_out():
    g = Game(lucy="B", bob="G")
    g.p()["inventory"] = ["arbalète de la foi"]  # 2d6+2, knocks out on 12
    g.sc.characters["hunters"]["h1"]["genre"] = "f"
    g.state["hunters"]["h1"]["cell"] = "C"
    g.play(forced={"lucy.tir": [4, 4]}, lucy=[{"tir": "Grimnir"}])
    assert ("[*][b]Tir[/b] : Lucy vise Grimnir : 2d6 (4+4) + 2 − 1 protection = 9 contre une défense de 8 "
            "→ 9 ≥ 8 : touché, Grimnir est blessée.") in lines(render(g, "public"))
    g = Game(lucy="B", bob="G")
    g.p()["inventory"] = ["arbalète de la foi"]
    g.state["hunters"]["h1"]["cell"] = "C"
    g.play(forced={"lucy.tir": [6, 6]}, lucy=[{"tir": "h1"}])
    assert ("[*][b]Tir[/b] : Lucy vise Grimnir : 2d6 (6+6) + 2 − 1 protection = 13 contre une défense de 8 "
            "→ 13 ≥ 8 : touché ; 13 ≥ 12 : Grimnir est hors de combat.") in lines(render(g, "public"))
    assert ("[*][b]Shot[/b]: Lucy aims at Grimnir: 2d6 (6+6) + 2 − 1 protection = 13 against a defence of 8 "
            "→ 13 ≥ 8: hit; 13 ≥ 12: Grimnir is out of the fight.") in lines(render(g, "public", lang="en"))


def test_the_report_gives_each_number_from_the_start_of_the_turn():
    g = Game(lucy="A", bob="G")
    g.play(lucy=[{"deplacement_normal": "nord"}])  # a closed door: +1 noise, +2 stress
    post = render(g, "private", player="lucy")
    assert ("[list]\n[*]Bruit : 0 → 1 (porte ouverte +1) — prochain chasseur attiré à 5 (un à chaque multiple de 5)\n"
            "[*]Fatigue : 0 — niveau 1, niveau 2 à 3\n[*]Stress : 0 → 2 (porte ouverte +2) — panique à 10\n"
            "[*]Blessures : niveau 1 (indemne)\n[*]Protection : 0\n[/list]\n") in post


# -- the report ends at a death or an escape ---------------------------------------------------

def test_a_death_ends_the_report_and_what_the_wounds_would_have_led_to_is_not_told():
    """Wound level 4 sets fatigue to level 5 (a dropped load, exhaustion, a lost turn to
    come): Lucy dies in the same fight, so her report tells the wounds and the death only."""
    g = Game(lucy="G", bob="C")
    g.sc.characters["pejis"]["lucy"]["genre"] = "m"
    g.p()["wounds"] = 3
    g.p()["inventory"] = ["corde de chanvre", "gilet de cuir"]
    g.play(forced={"lucy.combat.h3.1": [1], "h3.combat.lucy.1": [6, 6], "lucy.combat.h3.2": [1],
                   "h3.combat.lucy.2": [6, 6]}, lucy=[{"combat": "sylas"}])
    # the events are all there (the MJ's log, the state), in the order they happened
    assert g.kinds(ev.Players("lucy")) == ["combat_prive", "blessure", "niveau_fatigue", "abandon", "epuise",
                                           "blessure", "mort_privee", "rapport"]
    for lang, fmt, death in [("fr", "bbcode", "[*][b]Vous êtes mort au combat.[/b]\n[/list]\n"),
                             ("en", "markdown", "- Wound: level 5 (dead).\n- **You died in combat.**\n")]:
        post = render(g, "private", lang=lang, fmt=fmt, player="lucy")
        assert post.endswith(death)
        for gone in ("fatigue passe", "abandonnez", "Épuisé", "perdrez", "fatigue is now", "leave behind",
                     "Exhausted", "lose next turn", "Vous êtes dans", "You are in"):
            assert gone not in post


def test_an_escape_ends_the_report():
    g = Game(lucy="C", bob="G")
    g.play(lucy=[{"deplacement_normal": "nord"}])
    post = render(g, "private", player="lucy")
    assert post.endswith("[*][b]Vous avez trouvé la sortie : vous êtes libre ![/b]\n[/list]\n")
    assert "[*][color=green][b]Lucy a trouvé la sortie du labyrinthe ![/b][/color]" in lines(render(g, "public"))


# -- French grammar --------------------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ("Aélis", "Départ d'Aélis"), ("Ysolde", "Départ d'Ysolde"), ("Hugo", "Départ d'Hugo"),
    ("Hérisson", "Départ de Hérisson"),  # an aspirate h (pbp/render/grammar.yaml)
    ("Lucy", "Départ de Lucy"), ("Yannick", "Départ de Yannick"),
])
def test_elision_before_a_vowel_and_a_mute_h(name, expected):
    g = Game(lucy="A", bob="G")
    setup = g.rs.setup(g.sc, None).events
    post = render(g, "setup_gm", events=setup, names={"lucy": name, "bob": "Bob"})
    assert f"[*]{expected} : Salle A (A)" in lines(post)


@pytest.mark.parametrize("genre, fr, en", [
    ("f", "Un cri : [b]Lucy[/b] est tombée dans un piège !", "A scream: [b]Lucy[/b] has set off a trap!"),
    ("m", "Un cri : [b]Lucy[/b] est tombé dans un piège !", "A scream: [b]Lucy[/b] has set off a trap!"),
    ("n", "Un cri : [b]Lucy[/b] a déclenché un piège !", "A scream: [b]Lucy[/b] has set off a trap!"),
    (None, "Un cri : [b]Lucy[/b] a déclenché un piège !", "A scream: [b]Lucy[/b] has set off a trap!"),
])
def test_a_trap_agrees_with_the_pejis_gender_or_says_it_without_agreement(genre, fr, en):
    g = Game(lucy="B", bob="G")
    if genre:
        g.sc.characters["pejis"]["lucy"]["genre"] = genre
    g.play(lucy=[{"deplacement_normal": "est"}])  # the trap in T
    assert f"[*]{fr}" in lines(render(g, "public"))
    assert f"[*]{en}" in lines(render(g, "public", lang="en"))


@pytest.mark.parametrize("genre, wound, exhausted", [
    ("f", "légèrement blessée", "[b]Épuisée[/b] : vous perdrez le prochain tour à récupérer."),
    ("m", "légèrement blessé", "[b]Épuisé[/b] : vous perdrez le prochain tour à récupérer."),
    (None, "blessure légère", "[b]À bout de forces[/b] : vous perdrez le prochain tour à récupérer."),
])
def test_a_report_agrees_with_its_reader(genre, wound, exhausted):
    g = Game(lucy="A", bob="G")
    if genre:
        g.sc.characters["pejis"]["lucy"]["genre"] = genre
    g.p()["wounds"], g.p()["fatigue"] = 2, 11  # fatigue level 4; the fight's +3 reaches level 5
    g.state["hunters"]["h2"]["cell"] = "A"
    # three ties: 1d6 (5) − 2 fatigue = 3 against Vesper's 1d6+2 (1) = 3
    g.play(forced={f"{who}.{n}": [5 if who.startswith("lucy") else 1]
                   for who in ("lucy.combat.h2", "h2.combat.lucy") for n in (1, 2, 3)},
           lucy=[{"combat": "vesper"}])
    post = lines(render(g, "private", player="lucy"))
    assert f"[*]{exhausted}" in post
    assert f"[*]Blessures : niveau 2 ({wound})" in post


def test_places_and_hunters_carry_their_articles():
    g = Game(lucy="A", bob="G")
    g.sc.world["cells"]["B"]["name"] = "le Grand Couloir"
    g.sc.characters["hunters"]["h1"]["name"] = "le Boucher de Morn"
    g.sc.characters["hunters"]["h2"]["name"] = "Isarn l'Elfe noir"
    g.state["hunters"]["h1"]["cell"] = "B"
    g.state["hunters"]["h2"]["cell"] = "E"
    g.play(lucy=["repos"])
    post = lines(render(g, "private", player="lucy"))
    assert "Au nord, vous devinez la présence du Boucher de Morn." in post
    assert "À l'est, vous devinez la présence d'Isarn l'Elfe noir." in post
    assert "[*]Au nord : une porte fermée" in post and "[*]À l'est : un rideau fermé" in post
    # the MJ's log: « arrive dans le Grand Couloir », never « en le »
    g = Game(lucy="C", bob="G")
    g.sc.world["cells"]["B"]["name"] = "le Grand Couloir"
    g.p()["noise"] = 4
    g.play(forced={"lucy.bruit.case": 2}, lucy=["recherche_pieges"])  # C's neighbours: B, D
    assert "[*]Grimnir (h1) arrive dans le Grand Couloir (B), sur la trace de Lucy (bruit 5)" in lines(
        render(g, "gm"))


def test_the_order_form_says_doorways_with_their_agreement_and_the_hunters_in_sight():
    g = Game(lucy="A", bob="G")
    g.state["hunters"]["h1"]["cell"] = "A"
    g.state["hunters"]["h2"]["cell"] = "E"
    hints = g.rs.order_context(g.state, g.sc, "lucy")
    assert hints["hunters"] == [{"name": "Grimnir", "direction": None}, {"name": "Vesper", "direction": "est"}]
    fr = Renderer(template_paths("manhunt", "fr"), "text", lang="fr").render("orders_hints", hints=hints)
    assert "# Sorties : nord (porte fermée), est (rideau fermé)\n" in fr
    assert "# Chasseurs en vue (à nommer dans « chasseur: ») : Grimnir (ici), Vesper (à l'est)\n" in fr
    assert "#   - combat: {chasseur: Grimnir}      (ajoutez « arme: ... » pour en choisir une ; sinon la meilleure)\n" in fr
    en = Renderer(template_paths("manhunt", "en"), "text", lang="en").render("orders_hints", hints=hints)
    assert "# Exits: north (closed door), east (closed curtain)\n" in en
    assert "# Hunters in sight (name them in `hunter:`): Grimnir (here), Vesper (east)\n" in en


def test_the_order_forms_examples_are_the_players_own_and_name_no_hidden_hunter():
    """The examples of the form are copied by tired players: an item they carry, a
    hunter they see; with no hunter in sight, a placeholder, never a hunter's name."""
    g = Game(lucy="A", bob="G")
    hints = g.rs.order_context(g.state, g.sc, "lucy")
    hints["inventory"] = ["corde", "lanterne"]
    assert hints["hunters"] == []
    forms = {lang: Renderer(template_paths("manhunt", lang), "text", lang=lang).render("orders_hints", hints=hints)
             for lang in ("fr", "en")}
    assert "#   - jeter: [corde]      (ce que vous abandonnez si la fatigue vous y oblige)\n" in forms["fr"]
    assert "#   - combat: {chasseur: nom du chasseur}      (ajoutez « arme: ... » pour en choisir une ; " \
           "sinon la meilleure)\n" in forms["fr"]
    assert "#   - drop: [corde]      (what you give up if fatigue forces you to)\n" in forms["en"]
    assert "#   - melee: {hunter: hunter's name}      (add `weapon: ...` to choose one; else your best)\n" in forms["en"]
    for hunter in g.sc.characters["hunters"].values():
        assert all(hunter["name"] not in form for form in forms.values())


# -- names as players know them ------------------------------------------------------------------

def elves() -> Game:
    g = Game(lucy="G", bob="C")
    g.sc.characters["hunters"]["h2"]["name"] = "Isarn l'Elfe noir"
    g.sc.characters["hunters"]["h3"]["name"] = "Sylas l'Elfe sylvain"
    g.state["hunters"]["h2"]["cell"] = "G"
    return g


@pytest.mark.parametrize("word", ["Sylas", "sylas", "SYLVAIN", "syl", "Sylas l'Elfe sylvain", "sylas l elfe",
                                  "h3", "elfe sylvain"])
def test_a_hunter_by_any_unambiguous_part_of_its_name(word):
    g = elves()
    assert g.refusals("lucy", [{"combat": {"chasseur": word}}]) == []
    g.play(forced={f"lucy.combat.h3.{n}": [6] for n in (1, 2, 3)} |
           {f"h3.combat.lucy.{n}": [1, 1] for n in (1, 2, 3)}, lucy=[{"combat": {"chasseur": word}}])
    assert g.event("combat_gm").data["hunter_id"] == "h3"


@pytest.mark.parametrize("lang, word, expected", [
    ("fr", "elfe", "« elfe » peut désigner plusieurs chasseurs à portée : écrivez davantage de son nom. "
                   "Valeurs possibles : Isarn l'Elfe noir, Sylas l'Elfe sylvain."),
    ("en", "elfe", "`elfe` may mean several hunters in reach: write more of the name. "
                   "Valid values: Isarn l'Elfe noir, Sylas l'Elfe sylvain."),
    ("fr", "Sylos", "le chasseur « Sylos » n'est pas à portée. Vouliez-vous dire « Sylas l'Elfe sylvain » ? "
                    "Valeurs possibles : Isarn l'Elfe noir, Sylas l'Elfe sylvain."),
    ("fr", "Grimnir", "le chasseur « Grimnir » n'est pas à portée. "
                      "Valeurs possibles : Isarn l'Elfe noir, Sylas l'Elfe sylvain."),
])
def test_an_ambiguous_or_absent_hunter_is_refused_with_the_names_in_reach(lang, word, expected):
    g = elves()
    refusals = g.rs.check_orders(g.state, g.sc, g.orders("lucy", [{"combat": {"chasseur": word}}]))
    assert [i18n.t(lang, "manhunt." + r.key, **r.params) for r in refusals] == [expected]


def test_items_by_name_without_accents_or_case():
    g = Game(lucy="A", bob="G")
    g.p()["inventory"] = ["potion de soins légers", "tunique d'écailles"]
    g.p()["wounds"] = 3
    orders = [{"utilisation_equipement": "POTION DE SOINS LEGERS"}, {"revetir_armure": "tunique d'ecailles"}]
    assert g.refusals("lucy", orders) == []
    g.play(lucy=orders)
    assert g.p()["wounds"] == 2 and g.p()["inventory"] == ["tunique d'écailles"]
    assert g.p()["worn"] == ["tunique d'écailles"]
    assert "[*]Vous revêtez : [b]tunique d'écailles[/b] (protection totale : 2)." in lines(
        render(g, "private", player="lucy"))


@pytest.mark.parametrize("lang, expected", [
    ("fr", "vous ne portez pas « potion de soin legers ». Vouliez-vous dire « potion de soins légers » ? "
           "Valeurs possibles : potion de soins légers, corde de chanvre."),
    ("en", "you do not carry `potion de soin legers`. Did you mean `potion de soins légers`? "
           "Valid values: potion de soins légers, corde de chanvre."),
])
def test_an_unknown_item_gets_the_closest_one_carried(lang, expected):
    g = Game(lucy="A", bob="G")
    g.p()["inventory"] = ["potion de soins légers", "corde de chanvre"]
    refusals = g.rs.check_orders(g.state, g.sc, g.orders("lucy", [{"utilisation_equipement": "potion de soin legers"}]))
    assert [i18n.t(lang, "manhunt." + r.key, **r.params) for r in refusals] == [expected]


def test_a_forced_drop_takes_the_items_named_without_accents():
    g = Game(lucy="B", bob="G")
    g.p()["inventory"] = ["dagues de lancer équilibrées", "tunique d'écailles", "corde de chanvre", "gilet de cuir"]
    g.p()["fatigue"] = 8  # level 3; the shot's +1 reaches level 4: drop 2
    g.state["hunters"]["h1"]["cell"] = "C"
    orders = [{"tir": "grimnir"}, {"jeter": ["Tunique d'Ecailles"]}]
    assert g.refusals("lucy", orders) == []
    g.play(forced={"lucy.tir": [1]}, lucy=orders)
    assert g.event("abandon").data["dropped"] == ["tunique d'écailles", "gilet de cuir"]


def test_english_order_forms_show_english_words_that_the_checks_accept():
    g = Game(lucy="G", bob="C")
    actions = g.rs.actions
    types = compile_types(g.rs.rules)
    assert types.action(actions, "combat").describe("en") == "{hunter: text, weapon: text}"
    assert types.action(actions, "deplacement_rapide").describe("en") == "[north | east | south | west, ...]"
    assert types.action(actions, "combat").describe() == "{chasseur: texte, arme: texte}"
    assert types.action(actions, "deplacement_normal").describe("fr") == "nord | est | sud | ouest"
    g.p()["inventory"] = ["épée large"]
    parsed = g.orders("lucy", [{"melee": {"hunter": "Sylas", "weapon": "epee large"}}]).actions
    assert [(a.id, a.arg) for a in parsed] == [("combat", {"chasseur": "Sylas", "arme": "epee large"})]
    assert g.refusals("lucy", [{"melee": {"hunter": "Sylas", "weapon": "epee large"}}]) == []
    assert [(a.id, a.arg) for a in g.orders("lucy", [{"fast_move": ["west", "north"]}]).actions] == [
        ("deplacement_rapide", ["ouest", "nord"])]


# -- the standing and the MJ's overview ---------------------------------------------------------

def test_the_standing_says_who_is_in_the_labyrinth_dead_or_out():
    g = bare_hands_fight()
    assert g.rs.standing(g.state, g.sc) == [
        {"name": "Lucy", "handle": "lucy", "status": "manhunt.standing_dead"},
        {"name": "Bob", "handle": "bob", "status": "manhunt.standing_active"}]
    assert [i18n.t(lang, "manhunt.standing_" + s) for lang in ("fr", "en") for s in ("active", "dead", "escaped")] \
        == ["dans le labyrinthe", "a péri", "a trouvé la sortie", "in the labyrinth", "died", "found the way out"]


def test_the_english_status_names_ids_doorways_and_traps(tmp_path):
    root = copy_example("manhunt", tmp_path)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    r = pbp("status", cwd=root)
    assert r.exit_code == 0, r.output
    out = r.stdout.splitlines()
    assert "Mélétê (lucy)        in play  le Vestiaire des Pendus (S05)              6      0 (lvl 1)  9       1" \
           "       cape en peau d'écorce" in out
    assert "Grimnir le Traqueur (h1)    la Salle des Éveils (S01)    Mélétê (lucy)  1" in out
    assert "closed curtain  la Salle des Éveils (S01)                east   l'Atelier du Tanneur (S02)" in out
    assert "la Fosse aux Chiens (S03)  Corbin" in out and "la Serre Morte (S11)       nobody" in out


# -- structure under independent parsers ---------------------------------------------------------

_mdit = MarkdownIt("gfm-like")


def _bbcodepy():
    parser = bbcodepy.Parser()
    parser.renderer.cosmetic_replace = lambda s: s
    return parser


def elements(node, tag):
    return [n for n in node.elements() if n.tag == tag]


def joins_lines(node) -> bool:
    """Whether a paragraph holds a soft line break: two lines of the source that
    CommonMark ran together (a hard break, `<br>`, keeps them apart)."""
    after_br = False
    for c in node.children:
        if isinstance(c, str):
            if "\n" in (c[1:] if after_br and c.startswith("\n") else c):
                return True
            after_br = False
        else:
            after_br = c.tag == "br"
            if c.tag != "br" and joins_lines(c):
                return True
    return False


def check_markdown(text: str, narration: str = "") -> "Node":
    """The post's tree; no paragraph joins two lines (but the MJ's own narration,
    which is Markdown as the MJ wrote it)."""
    root = tree(_mdit.render(text))
    narration = re.sub(r"[*_`]", "", narration)
    for p in elements(root, "p"):
        if joins_lines(p):
            assert all(line.strip() in narration for line in p.text().splitlines()), p.text()
    return root


def check_bbcode(text: str) -> "Node":
    assert [line for line in text.splitlines() if re.match(r"\s*(- |\d+\. )", line)] == []
    assert text.count("[list]") == text.count("[/list]")
    return tree(_bbcodepy().to_html(text))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_fight_is_a_list_with_its_assaults_nested_in_every_format(lang):
    g = bare_hands_fight()
    # gm: the fight, the 2 wounds and the death, then the one line behind the scenes
    for template, player, items in [("private", "lucy", 4), ("public", None, 4), ("gm", None, 5)]:
        md = check_markdown(render(g, template, lang=lang, fmt="markdown", player=player))
        bb = check_bbcode(render(g, template, lang=lang, fmt="bbcode", player=player))
        for root in (md, bb):
            top = [li for li in elements(root, "li") if not any(li in elements(o, "li") for o in elements(root, "li"))]
            fight = [li for li in top if elements(li, "ul")]
            assert len(top) == items and len(fight) == 1, (template, top)
            assert len(elements(elements(fight[0], "ul")[0], "li")) == 4  # 3 assaults and the outcome


@pytest.mark.parametrize("fmt", ["markdown", "bbcode"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_post_of_the_example_holds_its_lines(tmp_path, fmt, lang):
    """Every post of the bundled example, rendered anew: the public summary one item
    per line, the cell description its own paragraph, two lists never one."""
    root = copy_example("manhunt", tmp_path)
    if lang == "en":
        config = root / "campaign.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    narration = ""
    for n in range(0, 4):
        stored = yamlio.load_file(root / f"turns/{n:03d}/events.yaml") or []
        narration = " ".join(e["data"]["markdown"] for e in stored if e["kind"] == "narration")
        for who in [[], ["--gm"], *[["--player", h] for h in ("lucy", "johannes", "ysolde", "corbin")]]:
            r = pbp("post", "--turn", n, "--format", fmt, *who, cwd=root)
            assert r.exit_code == 0, r.output
            if fmt == "markdown":
                doc = check_markdown(r.stdout, narration)
            else:
                doc = check_bbcode(r.stdout)
            if who == [] and n > 0:  # one item per Péji's actions, at least
                assert len(elements(doc, "li")) >= 4
            if who[:1] == ["--player"]:
                described = [p for p in elements(doc, "p") if elements(p, "em")]
                # the cell's description stands alone, never joined to « Vous êtes dans… »
                assert all(not re.search("Vous êtes dans|You are in", p.text()) for p in described)
                lists = elements(doc, "ul")
                assert len(lists) >= 2  # the exits and the numbers, apart


def test_an_english_campaign_shows_no_french_game_word(tmp_path):
    root = copy_example("manhunt", tmp_path)
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")
    rs = Game().rs
    # the French action ids and argument words ("combat" is English too: "died in combat")
    french = (set(rs.actions) - {"combat"}) | {"nord", "sud", "ouest", "chasseur", "arme", "porte", "grille",
                                               "rideau", "ouverture", "Assaut", "Blessure", "bruit", "fatigué"}
    outputs = []
    for n in range(0, 4):
        for who in [[], ["--gm"], *[["--player", h] for h in ("lucy", "johannes", "ysolde", "corbin")]]:
            outputs.append(pbp("post", "--turn", n, *who, cwd=root).stdout)
    outputs.append(pbp("orders", "--player", "lucy", cwd=root).stdout)
    outputs.append(pbp("status", cwd=root).stdout)
    outputs.append(render(bare_hands_fight(), "private", lang="en", player="lucy"))
    world = yamlio.load_file(root / "world.yaml")
    places = {c.get("name", "") for c in world["cells"].values()} | {"S0", "C0"}
    for text in outputs:
        # the world's names, the players' own roleplay and the French ids the form gives as
        # such are data, not words of ours
        text = re.sub(r"\(French id: \w+\)", "", text)
        # roll labels (lucy.fouille.table) are gm.yaml's ids, listed for the MJ to force
        text = re.sub(r"\b\w+(?:\.\u2060?\w+)+\b", "", text)  # (U+2060: pbp's autolink defusing)
        text = re.sub(r"\[quote=.*?\[/quote\]", "", text, flags=re.S)
        for place in places:
            text = text.replace(place, "")
        words = set(re.findall(r"[\w']+", text))
        assert words & french == set(), sorted(words & french)


def test_a_potion_of_strength_and_a_negative_total():
    """A potion of strength (+2) counts as a bonus in the fight Sylas starts in the
    hunters' phase (he takes Lucy as prey on his cell); a total below zero stays
    below zero (README: nothing floors it) and reads with a minus sign."""
    g = Game(lucy="G", bob="C")
    g.p()["inventory"] = ["potion de force"]
    g.p()["fatigue"] = 3  # level 2: −2
    g.play(forced={"lucy.combat.h3.1": [1], "h3.combat.lucy.1": [1, 1], "lucy.combat.h3.2": [4],
                   "h3.combat.lucy.2": [1, 1], "lucy.combat.h3.3": [6], "h3.combat.lucy.3": [1, 1]},
           lucy=[{"utilisation_equipement": "Potion de Force"}])
    assert g.event("combat").data["assaults"][0]["peji_total"] == 1 + 0 - 2 - 2 + 2 == -1
    assert lines(render(g, "private", player="lucy"))[4:7] == [
        "[*][b]Combat[/b] contre Sylas (attaque de Sylas), à mains nues :[list]",
        "[*]Assaut 1 : vous 1d6 (1) + 0 − 2 protection − 2 fatigue + 2 bonus = −1 ; "
        "Sylas 2d6 (1+1) + 0 − 0 protection = 2 → 2 > −1 : Sylas l'emporte, vous recevez une blessure.",
        "[*]Assaut 2 : vous 1d6 (4) + 0 − 2 protection − 2 fatigue + 2 bonus = 2 ; "
        "Sylas 2d6 (1+1) + 0 − 0 protection = 2 → 2 = 2 : égalité, personne n'est blessé.",
    ]
