"""skirmish: the posts (fr, en; BBCode, Markdown), escaping checked with real
parsers, secrecy of the public post, legal_orders for bots, determinism and the
scenario checks."""

import copy
import re

import pytest

from pbp.base import yamlio
from pbp.model import events as ev
from pbp.model.dice import Dice
from pbp.model.ruleset import Scenario
from pbp.render.formatters import BBCodeFormatter, MarkdownFormatter
from pbp.render.render import Renderer, template_paths
from pbp.rulesets.skirmish import Skirmish
from tests.helpers import needs, stored
from tests.rulesets.test_skirmish_support import DICE_VERSION, Game, creature, sheet


def render(g: Game, template: str, lang="fr", fmt="bbcode", player=None, events=None, **extra) -> str:
    rend = Renderer(template_paths("skirmish", lang), fmt, lang=lang)
    events = g.events if events is None else events
    # the posts get what the production filter gives their reader
    if template in ("public", "setup_public"):
        events = ev.by_audience(events)[ev.PUBLIC]
    elif player:
        events = ev.by_audience(events).get(ev.Players(player), [])
    names = {h: h for h in g.scenario.roster}
    return rend.render(template, turn=g.state["turn"], title="Test", events=events, names=names, player=player,
                       character=player, **extra)


def issue_game(avec="à l'épée"):
    g = Game({"aria": sheet("p1", "a", (5, 6), FOR=16, TAI=12, competences={"melee": 45}, maitrises={"epee": 10},
                            equipement={"armes": {"epee": {"avec": avec}}})},
             npcs={"brute": creature((5, 7), DEF=20, competences={"esquive": 25})})
    g.play({"aria.attaque": 42, "brute.esquive": 77, "aria.degats": [5, 1]}, p1=["melee: {perso: aria, cible: brute}"])
    return g


def test_the_forum_line_of_the_issue_in_french_bbcode():
    """Every number with its parts: the chance (the sheet's share, then the
    situation), the die, each damage die with its face, what reduces the damage."""
    post = render(issue_game(), "public")
    assert ("[*]Aria attaque Brute à l'épée : 1d100 (42) ≤ 61 (fiche 61) → touché ; esquive de Brute 1d100 (77) > 35 "
            "(fiche 35) → ratée ; dégâts 1d8 (5) + 1d4 (1) bonus − 2 défense = 4\n") in post


def test_the_forum_line_in_english_markdown_reads_right_once_rendered():
    post = render(issue_game("with the sword"), "public", lang="en", fmt="markdown")
    html = needs("markdown").markdown(post)
    text = re.sub(r"<[^>]+>", "", html).replace("&gt;", ">")
    assert ("Aria attacks Brute with the sword: 1d100 (42) ≤ 61 (sheet 61) → hit; dodge by Brute 1d100 (77) > 35 "
            "(sheet 35) → failed; damage 1d8 (5) + 1d4 (1) bonus − 2 defence = 4") in text
    assert "<li>" in html  # the actions are a list


def test_the_mj_log_explains_every_number():
    gm = render(issue_game(), "gm")
    assert "Aria, attaque : 1d100 (42) contre 61 = mêlée +45, maîtrise épée +10, FOR 16 +6 = 61 (plafond 95)" in gm
    assert ("Brute, esquive : 1d100 (77) contre 35 = esquive +25, DEF 20 +10, bonus de chance (0 pts) +0, "
            "faction (aucun allié) +0 = 35 (plafond 90)") in gm
    assert "Aria, dégâts : 1d8+1d4 (5+1 = 6) = 1d8 (épée) + 1d4 (bonus TAI+FOR = 28)" in gm
    assert "Brute, réduction : 2 = DEF 20 → 2" in gm
    assert "XP : Aria +3 XP (touche)" in gm
    assert "Aria 20/20 PV, 6 PA ; Brute 26/30 PV, 10 PA" in gm
    en = render(issue_game(), "gm", lang="en")
    assert "Aria, attack: 1d100 (42) against 61 = melee +45, épée mastery +10, FOR 16 +6 = 61 (cap 95)" in en


#: a door's name with a link in it (the MJ's text is escaped like a player's)
PORTE = "Porte [url=http://evil.example]clic[/url]"


def busy_game(english: bool = False) -> Game:
    """One turn with most event kinds: moves, a perfect hit, a dodge, a reflected
    counter, a zone, a heal, a buff, a lost action, a unit downed before acting.
    `english`: the sheets' weapons named in English (the campaign's own words)."""
    characters = {
        "aria": sheet("p1", "a", (2, 2), DEX=12, xp=19, nom="[b]Aria[/b]",
                      repliques={"attaque_ratee": "Raté… la prochaine sera la bonne."}),
        "cyra": sheet("p1", "a", (1, 1), DEX=13, sorts=["soin", "benediction", "trait_de_feu"],
                      competences={"magie": 40}),
        "eli": sheet("p2", "b", (4, 3), DEX=12, competences={"magie": 40},
                     sorts=["boule_de_feu", "trait_de_feu", "malediction"]),
        "dag": sheet("p2", "b", (3, 2), DEX=9, pv=4),
        "fenn": sheet("p3", "b", (9, 6), DEX=15, nom="*Fenn* <b>x</b>",
                      effets=[{"nom": "potion", "stat": "degats", "valeur": 1, "tours": 1}])}
    npcs = {"brute": creature((3, 3), DEX=5, competences={"melee": 50, "esquive": 20},
                              equipement={"armes": {"massue": {"type": "melee", "degats": "1d10"}}}),
            "porte": {"type": "door", "position": [6, 6], "pv": 5, "nom": PORTE}}
    if english:
        for s in characters.values():
            s["equipement"]["armes"]["epee"].update(nom="sword", avec="with the sword")
            s["equipement"]["armes"]["arc"].update(nom="bow", avec="with the bow")
        npcs["brute"]["equipement"]["armes"]["massue"]["nom"] = "club"
    g = Game(characters, npcs=npcs)
    g.play({"fenn.attaque": 99, "eli.magie": 10, "eli.effet": 3, "cyra.magie": 10, "eli.contre": 5,
            "cyra.effet": 4, "cyra.magie.2": 10, "cyra.effet.2": 5, "aria.attaque": 3, "aria.degats": 9,
            "aria.attaque.2": 80},
           gm={"brute": [{"melee": {"cible": "aria"}}]},
           p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}", "sort: {perso: cyra, sort: soin, cible: cyra}",
               "melee: {perso: aria, cible: dag}", "bagarre: {perso: aria, cible: brute}"],
           p2=["sort: {perso: eli, sort: boule_de_feu, cible: aria}", "sort: {perso: eli, sort: malediction, cible: aria}",
               "melee: {perso: dag, cible: aria}"],
           p3=["deplacer: {vers: [8, 6]}", "tir: porte"])
    return g


def test_a_busy_turn_has_every_kind_of_event():
    g = busy_game()
    kinds = {e.kind for e in g.events if e.audience == ev.PUBLIC}
    assert {"initiative", "move", "attack", "spell", "lost", "down_skip", "effects_end", "level_up",
            "board"} <= kinds
    spell = next(s for s in g.gm_events("spell") if s["actor"] == "cyra")
    assert spell["reflected"] and spell["reflect_effect"]["hits"] == [{"id": "cyra", "name": "Cyra", "value": 4,
                                                                       "type": "character", "down": False}]
    assert g.public("down_skip")[0]["actor"] == "dag"
    assert g.public("lost")[0]["reason"] == "not_enough_pa"  # Eli paid 2 PA for her counter


#: how each format writes the busy game's markup and its two hostile names (a board
#: row in Markdown is an indented code block whose leading space is kept as a no-break one)
WRITTEN = {
    "bbcode": {"b": "[*]", "s": "[*]", "B": "[b]", "_B": "[/b]", "code": " ",
               "aria": "[\u200bb]Aria[\u200b/b]", "fenn": "*Fenn* <\u200bb>x<\u200b/b>",
               "porte": BBCodeFormatter().esc(PORTE)},
    "markdown": {"b": "- ", "s": "  - ", "B": "**", "_B": "**", "code": "    \u00a0",
                 "aria": r"\[b\]Aria\[/b\]", "fenn": r"\*Fenn\* &lt;b>x&lt;/b>",
                 "porte": MarkdownFormatter().esc(PORTE)},
}

#: whole lines each post of the busy game (and of a set-up) holds, by language: one
#: for each kind of event, each kind of chance part, damage term and sheet line
LINES = {
    "fr": {
        ("public", None): [
            "{B}Ordre d'action{_B} (DEX, du plus rapide au plus lent) : {fenn}, Cyra, {aria}, Eli, Dag, Brute",
            "{b}{fenn} se déplace de 9-6 à 8-6 (1 case, 1 PA).",
            "{b}{fenn} tire sur {porte} à l'arc (à 2 cases) : 1d100 (99) > 44 (fiche 45 − 1 portée) → raté",
            "{b}Cyra lance Trait de feu sur Eli : 1d100 (10) ≤ 46 (fiche 43 + 3 faction) → réussi ; contre-magie "
            "d'Eli 1d100 (5) ≤ 25 (fiche 40 + 5 faction − 20 difficulté) → contre parfait (jet sous 10), le sort est "
            "renvoyé sur Cyra (Eli perd 2 PA : coût du sort 3 ÷ 2, arrondi au-dessus) ; dégâts 1d8 (4) : Cyra −4",
            "{b}Cyra lance Soin sur Cyra : 1d100 (10) ≤ 46 (fiche 43 + 3 faction) → réussi ; soin 1d8+2 (5) : "
            "Cyra +4 PV (PV au maximum)",
            "{b}{aria} attaque Dag à l'épée : 1d100 (3) ≤ 40 (fiche 40) → touché, attaque parfaite (jet sous 5) ; "
            "esquive de Dag 1d100 (98) > 33 (fiche 30 + 3 faction) → ratée ; dégâts 1d8+1d6 (9) − 1 défense = 8 — "
            "Dag est hors de combat !",
            "{b}{aria} frappe Brute à mains nues : 1d100 (80) > 38 (fiche 40 + 3 faction − 5 gêne) → raté",
            "{b}Eli lance Boule de feu sur {aria} (zone de 1,5 case) : 1d100 (10) ≤ 45 (fiche 42 + 3 faction) → "
            "réussi ; dégâts 2d6 (3) : {aria} −3, Cyra −3, Brute −3",
            "{b}Eli ne peut pas lancer son sort : plus assez de PA (3 requis, 2 restants).",
            "{b}Dag, hors de combat plus tôt dans le tour, n'agit pas.",
            "{b}Brute attaque {aria} (massue) : 1d100 (82) > 50 (fiche 50) → raté",
            "{b}{B}{aria} passe au niveau 2 !{_B}",
            "{b}Fin des effets sur {fenn} : potion.",
            "{code}6 ······p·F···",
            "Cases notées x-y : x de gauche à droite, y de haut en bas, depuis 0.",
            "{b}p : {porte} en 6-6",
        ],
        ("gm", None): [
            "{B}Initiative{_B} (DEX, puis chance) : {fenn} (DEX 15, chance 0), Cyra (DEX 13, chance 0), "
            "{aria} (DEX 12, chance 0), Eli (DEX 12, chance 0), Dag (DEX 9, chance 0), Brute (DEX 5, chance 0)",
            "{s}{fenn}, attaque : 1d100 (99) contre 44 = distance +40, maîtrise arc +0, DEX 15 +5, gêne (aucun autre "
            "personnage) +0, malus de distance (2 cases) −1 = 44 (plafond 95)",
            "{s}Eli, contre-magie : 1d100 (5) contre 25 = magie +40, INT 10 +0, faction (2 alliés : Dag, {fenn}) +5, "
            "difficulté −20 = 25 (plafond 95)",
            "{s}Dag, esquive : 1d100 (98) contre 33 = esquive +30, DEF 10 +0, bonus de chance (0 pts) +0, "
            "faction (1 allié : Eli) +3 = 33 (plafond 90)",
            "{s}{aria}, dégâts : 1d8+1d6 (9) = 1d8 (épée) + 0 (bonus TAI+FOR = 20) + 1d6 (attaque parfaite)",
            "{s}Dag, réduction : 1 = DEF 10 → 1",
            "{s}{aria}, attaque : 1d100 (80) contre 38 = bagarre +40, faction (1 allié : Cyra) +3, "
            "gêne (Cyra à 1,4 case : 5) −5 = 38 (plafond 100)",
            "{s}Eli, effet du sort : 2d6 (3) = 2d6 (sort)",
            "{s}XP : Eli +2 XP (contre-magie), Eli +1 XP (contre parfait)",
            "{s}Après l'action (coût 6 PA) : Eli 20/20 PV, 2 PA ; {aria} 17/20 PV, 3 PA ; Cyra 17/20 PV, 4 PA ; "
            "Brute 27/30 PV, 10 PA",
            "{b}Dag, hors de combat plus tôt dans le tour, n'agit pas (1 action perdue).",
            "{b}{aria} passe au niveau 2.",
            "{b}Dag : 0/4 PV, 10/10 PA, 0 XP, niveau 1, en 3-2 — hors de combat, réduction 1",
            "{b}Brute : 27/30 PV, 6/10 PA, en 3-3, réduction 1",
            "{b}{porte} : 5/5 PV, en 6-6, réduction 3",
        ],
        ("private", "p1"): [
            "{s}Cyra, magie : 1d100 (10) contre 46 = magie +40, INT 10 +0, DEX 13 +3, faction (1 allié : {aria}) +3 "
            "= 46 (plafond 95)",
            "{s}XP : {aria} +1 XP (attaque subie)",
            "{b}{aria} : 17/20 PV, 3/10 PA, 26 XP, niveau 2, en 2-2",
            "{s}bilan : attaques 2, touches 1, parfaites 1, dégâts infligés 8, dégâts subis 3, mises hors de combat 1",
            "{b}Cyra : 17/20 PV, 4/10 PA, 3 XP, niveau 1, en 1-1",
            "{s}bilan : sorts 2, sorts réussis 1, dégâts subis 7",
        ],
        ("private", "p3"): [
            "{b}{fenn} : 20/20 PV, 5/10 PA, 1 XP, niveau 1, en 8-6",
            "{s}bilan : attaques 1",
        ],
        ("setup_public", None): [
            "{B}Faction A{_B} : Aria",
            "{b}D : Dag (Faction B) en 3-3",
            "Envoyez vos ordres au MJ : un fichier YAML par joueur, une ligne par action, avec le personnage qui "
            "agit (champ perso) ; une case s'écrit x-y, par exemple vers: 4-2.",
        ],
        ("setup_gm", None): [
            "{b}Aria : 20/20 PV, 10/10 PA, 0 XP, niveau 1, en 0-0, réduction 1 ; FOR 10, DEX 10, DEF 10, "
            "TAI 10, INT 10, chance 0 ; bagarre 40, mêlée 40, distance 40, esquive 30, magie 0",
        ],
        ("setup_private", "p1"): ["{b}Aria : 20/20 PV, 10/10 PA, 0 XP, niveau 1, en 0-0"],
        "status_body": [
            " 6 ······p·F···",
            "- p : Porte [url=http://evil.example]clic[/url] en 6-6",
            "- Dag : 0/4 PV, 10/10 PA, 0 XP, niveau 1, en 3-2 — hors de combat, réduction 1",
        ],
        "orders_hints": [
            "#   - deplacer: {perso: aria, vers: x-y}                # 1 PA par case (diagonales comprises)",
            "#   - tir: {perso: aria, cible: eli}                # 4 cases au plus",
            "# Coûts en PA : deplacer 1, bagarre 3, melee 4, tir 4 ; un sort coûte son prix (ci-dessous).",
            "# Cyra (perso: cyra) en 1-1, 10 PA par tour",
            "#   armes : epee (melee, 1d8), arc (distance, 1d6)",
            "#   tir possible d'ici sur : eli, brute",
            "#   sort trait_de_feu (Trait de feu, degats) : 3 PA, portée 4",
            "# Cibles : eli en 4-3, fenn en 8-6, brute en 3-3, porte en 6-6",
            "#  6 ······p·F···",
        ],
    },
    "en": {
        ("public", None): [
            "{B}Order of action{_B} (DEX, fastest first): {fenn}, Cyra, {aria}, Eli, Dag, Brute",
            "{b}{fenn} moves from 9-6 to 8-6 (1 square, 1 AP).",
            "{b}{fenn} shoots at {porte} à l'arc (2 squares away): 1d100 (99) > 44 (sheet 45 − 1 range) → miss",
            "{b}Cyra casts Fire Bolt on Eli: 1d100 (10) ≤ 46 (sheet 43 + 3 faction) → success; counter-magic by Eli "
            "1d100 (5) ≤ 25 (sheet 40 + 5 faction − 20 difficulty) → perfect counter (roll under 10), the spell is "
            "reflected on Cyra (Eli loses 2 AP: spell cost 3 ÷ 2, rounded up); damage 1d8 (4): Cyra −4",
            "{b}Cyra casts Heal on Cyra: 1d100 (10) ≤ 46 (sheet 43 + 3 faction) → success; heal 1d8+2 (5): "
            "Cyra +4 HP (HP at maximum)",
            "{b}{aria} attacks Dag à l'épée: 1d100 (3) ≤ 40 (sheet 40) → hit, perfect attack (roll under 5); "
            "dodge by Dag 1d100 (98) > 33 (sheet 30 + 3 faction) → failed; damage 1d8+1d6 (9) − 1 defence = 8 — "
            "Dag is down!",
            "{b}{aria} punches Brute bare-handed: 1d100 (80) > 38 (sheet 40 + 3 faction − 5 hindrance) → miss",
            "{b}Eli casts Fireball on {aria} (area of 1.5 squares): 1d100 (10) ≤ 45 (sheet 42 + 3 faction) → "
            "success; damage 2d6 (3): {aria} −3, Cyra −3, Brute −3",
            "{b}Eli cannot cast the spell: not enough AP left (3 needed, 2 left).",
            "{b}Dag, downed earlier in the turn, does not act.",
            "{b}Brute attacks {aria} (massue): 1d100 (82) > 50 (sheet 50) → miss",
            "{b}{B}{aria} reaches level 2!{_B}",
            "{b}Effects ending on {fenn}: potion.",
            "{code}6 ······p·F···",
            "Squares are written x-y: x from left to right, y from top to bottom, from 0.",
            "{b}p: {porte} on 6-6",
        ],
        ("gm", None): [
            "{B}Initiative{_B} (DEX, then luck): {fenn} (DEX 15, luck 0), Cyra (DEX 13, luck 0), "
            "{aria} (DEX 12, luck 0), Eli (DEX 12, luck 0), Dag (DEX 9, luck 0), Brute (DEX 5, luck 0)",
            "{s}{fenn}, attack: 1d100 (99) against 44 = ranged +40, arc mastery +0, DEX 15 +5, hindrance (no other "
            "character) +0, range malus (2 squares) −1 = 44 (cap 95)",
            "{s}Eli, counter-magic: 1d100 (5) against 25 = magic +40, INT 10 +0, faction (2 allies: Dag, {fenn}) +5, "
            "difficulty −20 = 25 (cap 95)",
            "{s}Dag, dodge: 1d100 (98) against 33 = dodge +30, DEF 10 +0, luck (0 pts) +0, faction (1 ally: Eli) +3 "
            "= 33 (cap 90)",
            "{s}{aria}, damage: 1d8+1d6 (9) = 1d8 (épée) + 0 (bonus TAI+FOR = 20) + 1d6 (perfect attack)",
            "{s}Dag, reduction: 1 = DEF 10 → 1",
            "{s}{aria}, attack: 1d100 (80) against 38 = brawl +40, faction (1 ally: Cyra) +3, "
            "hindrance (Cyra at 1.4 squares: 5) −5 = 38 (cap 100)",
            "{s}Eli, spell effect: 2d6 (3) = 2d6 (spell)",
            "{s}XP: Eli +2 XP (counter-magic), Eli +1 XP (perfect counter)",
            "{s}After the action (cost 6 AP): Eli 20/20 HP, 2 AP; {aria} 17/20 HP, 3 AP; Cyra 17/20 HP, 4 AP; "
            "Brute 27/30 HP, 10 AP",
            "{b}Dag, downed earlier in the turn, does not act (1 action lost).",
            "{b}{aria} reaches level 2.",
            "{b}Dag: 0/4 HP, 10/10 AP, 0 XP, level 1, on 3-2 — down, reduction 1",
            "{b}Brute: 27/30 HP, 6/10 AP, on 3-3, reduction 1",
            "{b}{porte}: 5/5 HP, on 6-6, reduction 3",
        ],
        ("private", "p1"): [
            "{s}Cyra, magic: 1d100 (10) against 46 = magic +40, INT 10 +0, DEX 13 +3, faction (1 ally: {aria}) +3 "
            "= 46 (cap 95)",
            "{s}XP: {aria} +1 XP (attack survived)",
            "{b}{aria}: 17/20 HP, 3/10 AP, 26 XP, level 2, on 2-2",
            "{s}record: attacks 2, hits 1, perfect 1, damage dealt 8, damage taken 3, foes downed 1",
            "{b}Cyra: 17/20 HP, 4/10 AP, 3 XP, level 1, on 1-1",
            "{s}record: spells cast 2, spells landed 1, damage taken 7",
        ],
        ("private", "p3"): [
            "{b}{fenn}: 20/20 HP, 5/10 AP, 1 XP, level 1, on 8-6",
            "{s}record: attacks 1",
        ],
        ("setup_public", None): [
            "{B}Faction A{_B}: Aria",
            "{b}D: Dag (Faction B) on 3-3",
            "Send your orders to the GM: one YAML file per player, one line per action, naming the character who "
            "acts (the character field); a square is written x-y, e.g. to: 4-2.",
        ],
        ("setup_gm", None): [
            "{b}Aria: 20/20 HP, 10/10 AP, 0 XP, level 1, on 0-0, reduction 1; FOR 10, DEX 10, DEF 10, "
            "TAI 10, INT 10, luck 0; brawl 40, melee 40, ranged 40, dodge 30, magic 0",
        ],
        ("setup_private", "p1"): ["{b}Aria: 20/20 HP, 10/10 AP, 0 XP, level 1, on 0-0"],
        "status_body": [
            " 6 ······p·F···",
            "- p: Porte [url=http://evil.example]clic[/url] on 6-6",
            "- Dag: 0/4 HP, 10/10 AP, 0 XP, level 1, on 3-2 — down, reduction 1",
        ],
        "orders_hints": [
            "#   - move: {character: aria, to: x-y}                # 1 AP per square (diagonals too)",
            "#   - shoot: {character: aria, target: eli}              # 4 squares at most",
            "# AP costs: move 1, brawl 3, melee 4, shoot 4; a spell costs its own price (below).",
            "# Cyra (character: cyra) on 1-1, 10 AP per turn",
            "#   weapons: epee (melee, 1d8), arc (ranged, 1d6)",
            "#   shoot possible from here on: eli, brute",
            "#   spell fire_bolt (Fire Bolt, damage): 3 AP, range 4",
            "# Targets: eli on 4-3, fenn on 8-6, brute on 3-3, porte on 6-6",
            "#  6 ······p·F···",
        ],
    },
}


def setup_game() -> Game:
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (3, 3))})
    g.events = [ev.Event.from_dict(e.to_dict()) for e in g.rs.setup(g.scenario, Dice("s", 0, version=DICE_VERSION)).events]
    return g


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_every_template_writes_every_event_as_expected(lang, fmt):
    g, setup = busy_game(), setup_game()
    for (template, player), lines in ((k, v) for k, v in LINES[lang].items() if isinstance(k, tuple)):
        text = render(setup if template.startswith("setup") else g, template, lang, fmt, player)
        got = [line.removesuffix("[list]") for line in text.splitlines()]  # BBCode: a sub-list opens on the line
        for line in lines:
            assert line.format_map(WRITTEN[fmt]) in got, (template, player, line)
        assert "None" not in text and "{{" not in text
    # a report holds its own player's parts only
    p1 = render(g, "private", lang, fmt, "p1")
    assert "Eli, contre" not in p1 and "Eli, counter" not in p1 and "Dag, esquive" not in p1


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_status_and_the_order_form_say_what_the_board_holds(lang):
    g = busy_game()
    body = render(g, "status_body", lang, "text", events=g.rs.status(g.state, g.scenario)).splitlines()
    assert [line for line in LINES[lang]["status_body"] if line not in body] == []
    hints = Renderer(template_paths("skirmish", lang), "text", lang=lang).render(
        "orders_hints", hints=g.rs.order_context(g.state, g.scenario, "p1")).splitlines()
    assert [line for line in LINES[lang]["orders_hints"] if line not in hints] == []
    assert all(line.startswith("#") for line in hints if line)  # the form stays a valid YAML file


def test_sheet_text_cannot_make_markup_bbcode():
    post = render(busy_game(), "public")
    html = needs("bbcode").Parser(replace_links=False).format(post)
    assert "<a " not in html and "evil.example" in html.replace("\u2060", "")  # autolinks defused
    assert "<strong>Aria</strong>" not in html and "[b]Aria[/b]" in html.replace("\u200b", "")


def test_sheet_text_cannot_make_markup_markdown():
    html = needs("markdown").markdown(render(busy_game(), "public", fmt="markdown"))
    assert "<a " not in html and "<em>Fenn</em>" not in html and "<b>x</b>" not in html
    assert "*Fenn* &lt;b&gt;x&lt;/b&gt;" in html


def test_public_events_and_post_hold_no_sheet_value():
    g = busy_game()
    for e in g.events:
        if e.audience == ev.PUBLIC:
            assert not {"details", "xp", "after", "sheets", "units"} & set(e.data), e
            assert "DEX" not in str(e.data) and "competences" not in str(e.data)
    public = render(g, "public")
    gm = render(g, "gm")
    for secret in ("mêlée +", "esquive +", "XP", "DEX 15", "réduction :", "PV, "):
        assert secret not in public and secret in gm, secret


def test_a_private_report_holds_only_the_players_own_parts():
    g = busy_game()
    p2 = render(g, "private", player="p2")
    p1 = render(g, "private", player="p1")
    assert "Eli, contre-magie : 1d100 (5) contre 25" in p2 and "Eli, contre-magie" not in p1
    assert "Cyra, magie : 1d100 (10) contre" in p1 and "Cyra, magie" not in p2
    assert "[*]Eli : 20/20 PV" in p2 and "[*]Cyra : " not in p2  # sheets: own characters only


def test_legal_orders_all_pass_the_checks():
    g = busy_game()
    for player in g.scenario.roster:
        options = g.rs.legal_orders(g.state, g.scenario, player)
        assert [] in options and len(options) > 1
        for actions in options:
            orders = g.orders(player)
            orders.actions = actions
            assert g.rs.check_orders(g.state, g.scenario, orders) == [], (player, actions)
    kinds = {a.id for opt in g.rs.legal_orders(g.state, g.scenario, "p1") for a in opt}
    assert {"deplacer", "melee", "bagarre", "sort"} <= kinds


def test_same_inputs_same_seed_same_outcome():
    def run(secret):
        g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (1, 0))})
        orders = {"p1": g.orders("p1", "melee: {perso: aria, cible: dag}", "bagarre: dag"),
                  "p2": g.orders("p2", "melee: aria")}
        res = g.rs.resolve(copy.deepcopy(g.state), g.scenario, orders, g.gm(), Dice(secret, 1))
        return yamlio.dumps(stored([e.to_dict() for e in res.events])) + yamlio.dumps(res.state)
    assert run("abc") == run("abc")
    assert run("abc") != run("xyz")


def test_scenario_mistakes_are_reported_with_file_and_place():
    rs = Skirmish()
    world = {"grille": {"largeur": 5, "hauteur": 5, "murs": [[2, 2]]}, "factions": {"a": {}},
             "cibles": {"porte": {"type": "portail", "position": [0, 0], "pv": 3}}}
    chars = {"personnages": {
        "aria": {"joueur": "alice", "faction": "a", "position": [2, 2], "pv": 10},
        "Bran": {"joueur": "alice", "position": [1, 1], "pv": 10},
        "cyra": {"joueur": "zoe", "faction": "z", "position": [9, 9], "pv": 0, "sorts": ["eclair"],
                 "equipement": {"armes": {"arc": {"type": "fronde", "degats": "1d6"}}}},
        "dag": {"joueur": "alice", "position": [0, 0], "pv": 5}}}
    errors = [e.text("en") for e in rs.validate_scenario(Scenario(world, chars, {"alice": {}, "bob": {}}))]
    expected = [
        "characters.yaml: personnages.aria.position: square [2, 2] is not on the grid",
        "characters.yaml: personnages.Bran: the id `Bran` must be lowercase",
        "characters.yaml: personnages.cyra.position: square [9, 9] is not on the grid",
        "characters.yaml: personnages.cyra.pv: `pv` must be a whole number",
        "characters.yaml: personnages.cyra.faction: unknown faction `z`",
        "characters.yaml: personnages.cyra.equipement.armes.arc: a weapon has a `type`",
        "characters.yaml: personnages.cyra.joueur: player `zoe` is not in campaign.yaml",
        "characters.yaml: personnages.cyra.sorts: unknown spell `eclair`",
        "world.yaml: cibles.porte.position: the square is already taken by `dag`",
        "world.yaml: cibles.porte.type: unknown target type `portail`",
        "campaign.yaml: players.bob: player `bob` has no character",
    ]
    assert len(errors) == len(expected), errors
    for got, want in zip(errors, expected):
        assert got.startswith(want), (got, want)


def test_the_skirmish_ends_when_only_one_players_characters_stand():
    g = Game({"cyra": sheet("p1", "a", (0, 0)), "fenn": sheet("p1", "b", (5, 5)), "dag": sheet("p2", "b", (1, 0),
                                                                                               pv=1)})
    g.play({"cyra.attaque": 10, "dag.esquive": 99}, p1=["melee: {perso: cyra, cible: dag}"])
    assert g.rs.is_over(g.state)  # Cyra and Fenn are foes, but both p1's: nobody can fight any more
    assert g.public("over") == [{"winners": [{"id": "a", "name": "Faction A"}, {"id": "b", "name": "Faction B"}]}]


def test_bots_play_whole_games_to_an_end():
    from pbp.balance.simulate import play_game

    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p1", "a", (0, 2)),
              "dag": sheet("p2", "b", (9, 5)), "eli": sheet("p3", "b", (9, 7))})
    summaries = [play_game(g.rs, g.scenario, seed, max_turns=60) for seed in range(4)]
    for summary in summaries:
        assert summary["outcomes"][0] in ("a", "b") and summary["turns"] < 60
        assert summary["deaths"]["combat"] >= 2 and len(summary["figures"]["xp"]) == 4


def test_malformed_sheet_parts_are_reported_not_crashed_on():
    rs = Skirmish()
    world = {"grille": {"largeur": 5, "hauteur": 5}, "factions": {"a": {}}}
    chars = {"personnages": {"aria": {
        "joueur": "alice", "position": [0, 0], "pv": 10, "competences": {"melée": 40, "esquive": "beaucoup"},
        "maitrises": [1], "sorts": "soin", "effets": [{"stat": "attaque", "valeur": "dix"}],
        "equipement": {"armure": "cuir", "armes": {"epee": {"type": "melee", "degats": "1dx"}}}}}}
    errors = [e.text("en") for e in rs.validate_scenario(Scenario(world, chars, {"alice": {}}))]
    assert errors == [
        "characters.yaml: personnages.aria.competences.melée: unknown skill `melée`. Did you mean `melee`? "
        "Valid values: bagarre, melee, distance, esquive, magie.",
        "characters.yaml: personnages.aria.competences.esquive: `esquive` must be a whole number (positive for pv).",
        "characters.yaml: personnages.aria.maitrises must be a mapping (`key: value` lines).",
        "characters.yaml: personnages.aria.sorts must be a list (lines starting with `-`).",
        "characters.yaml: personnages.aria.equipement.armure: an armour is written `{nom: leather, reduction: 1}` "
        "(or just the reduction number).",
        "characters.yaml: personnages.aria.equipement.armes.epee.degats: invalid damage dice `1dx` "
        "(examples: 1d8, 2d6+1).",
        "characters.yaml: personnages.aria.effets: an effect has a `nom`, a `stat`, a `valeur` and, when temporary, "
        "`tours`. Valid values: attaque, esquive, degats, reduction, magie.",
    ]
