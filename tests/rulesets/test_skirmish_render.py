"""skirmish: the posts (fr, en; BBCode, Markdown), escaping checked with real
parsers, secrecy of the public post, legal_orders for bots, determinism and the
scenario checks."""

import copy
import re

import bbcode
import markdown
import pytest

from pbp import events as ev, yamlio
from pbp.dice import Dice
from pbp.render import Renderer, template_paths
from pbp.ruleset import Scenario
from pbp.rulesets.skirmish import Skirmish
from tests.rulesets.test_skirmish_support import Game, creature, sheet, stored


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
    g.play({"aria.attaque": 42, "brute.esquive": 77, "aria.degats": 6}, p1=["melee: {perso: aria, cible: brute}"])
    return g


def test_the_forum_line_of_the_issue_in_french_bbcode():
    post = render(issue_game(), "public")
    assert ("• Aria attaque Brute à l'épée : 1d100 (42) ≤ 61 → touché ; esquive 1d100 (77) > 35 ; "
            "dégâts 1d8+1d4 (6) − 2 = 4\n") in post


def test_the_forum_line_in_english_markdown_reads_right_once_rendered():
    post = render(issue_game("with the sword"), "public", lang="en", fmt="markdown")
    html = markdown.markdown(post)
    text = re.sub(r"<[^>]+>", "", html).replace("&gt;", ">")
    assert ("Aria attacks Brute with the sword: 1d100 (42) ≤ 61 → hit; dodge 1d100 (77) > 35; "
            "damage 1d8+1d4 (6) − 2 = 4") in text
    assert "<li>" in html  # the actions are a list


def test_the_mj_log_explains_every_number():
    gm = render(issue_game(), "gm")
    assert "Aria, attaque : 1d100 (42) contre 61 = mêlée +45, maîtrise épée +10, FOR 16 +6 = 61 (plafond 95)" in gm
    assert ("Brute, esquive : 1d100 (77) contre 35 = esquive +25, DEF 20 +10, bonus de chance (0 pts) +0, "
            "faction (aucun allié) +0 = 35 (plafond 90)") in gm
    assert "Aria, dégâts : 1d8+1d4 (6) = 1d8 (épée) + 1d4 (bonus TAI+FOR = 28)" in gm
    assert "Brute, réduction : 2 = DEF 20 → 2" in gm
    assert "XP : Aria +3 XP (touche)" in gm
    assert "Aria 20/20 PV, 6 PA ; Brute 26/30 PV, 10 PA" in gm
    en = render(issue_game(), "gm", lang="en")
    assert "Aria, attack: 1d100 (42) against 61 = melee +45, épée mastery +10, FOR 16 +6 = 61 (cap 95)" in en


def busy_game() -> Game:
    """One turn with most event kinds: moves, a perfect hit, a dodge, a reflected
    counter, a zone, a heal, a buff, a lost action, a unit downed before acting."""
    g = Game({"aria": sheet("p1", "a", (2, 2), DEX=12, xp=19, nom="[b]Aria[/b]",
                            repliques={"attaque_ratee": "[url=http://evil.example]clic[/url]"}),
              "cyra": sheet("p1", "a", (1, 1), DEX=13, sorts=["soin", "benediction", "trait_de_feu"],
                            competences={"magie": 40}),
              "eli": sheet("p2", "b", (4, 3), DEX=12, competences={"magie": 40},
                           sorts=["boule_de_feu", "trait_de_feu", "malediction"]),
              "dag": sheet("p2", "b", (3, 2), DEX=9, pv=4),
              "fenn": sheet("p3", "b", (9, 6), DEX=15, nom="*Fenn* <b>x</b>",
                            effets=[{"nom": "potion", "stat": "degats", "valeur": 1, "tours": 1}])},
             npcs={"brute": creature((3, 3), DEX=5, competences={"melee": 50, "esquive": 20},
                                     equipement={"armes": {"massue": {"type": "melee", "degats": "1d10"}}}),
                   "porte": {"type": "door", "position": [6, 6], "pv": 5}})
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
                                                                       "down": False}]
    assert g.public("down_skip")[0]["actor"] == "dag"
    assert g.public("lost")[0]["reason"] == "not_enough_pa"  # Eli paid 2 PA for her counter


#: how each format writes the busy game's markup and its two hostile names (a board
#: row in Markdown is an indented code block whose leading space is kept as a no-break one;
#: coordinates are (x, y) in BBCode; `b2`: an item of a list one blank line under another,
#: which Markdown writes with the other bullet so that the two stay two lists)
WRITTEN = {
    "bbcode": {"b": "• ", "s": "    ◦ ", "i": "[i]", "_i": "[/i]", "B": "[b]", "_B": "[/b]", "lb": "(", "rb": ")", "b2": "• ",
               "code": " ", "aria": "[\u200bb]Aria[\u200b/b]", "fenn": "*Fenn* <\u200bb>x<\u200b/b>"},
    "markdown": {"b": "- ", "s": "    - ", "i": "*", "_i": "*", "B": "**", "_B": "**", "lb": "[", "rb": "]", "b2": "* ", "code": "    \u00a0",
                 "aria": r"\[b\]Aria\[/b\]", "fenn": r"\*Fenn\* &lt;b>x&lt;/b>"},
}

#: whole lines each post of the busy game (and of a set-up) holds, by language: one
#: for each kind of event, each kind of chance part, damage term and sheet line
LINES = {
    "fr": {
        ("public", None): [
            "{B}Ordre d'action{_B} (DEX, du plus rapide au plus lent) : {fenn}, Cyra, {aria}, Eli, Dag, Brute",
            "{b}{fenn} se déplace de {lb}9, 6{rb} en {lb}8, 6{rb} (1 case, 1 PA).",
            "{b}Cyra lance Trait de feu sur Eli : 1d100 (10) ≤ 46 → réussi ; contre-magie (Eli) 1d100 (5) ≤ 25 → "
            "contre parfait, le sort est renvoyé sur Cyra (Eli perd 2 PA) ; dégâts 1d8 (4) : Cyra −4 "
            "{i}Cyra : « Mon sort… arrêté ?! »{_i}",
            "{b}Cyra lance Soin sur Cyra : 1d100 (10) ≤ 46 → réussi ; soin 1d8+2 (5) : Cyra +4 PV",
            "{b}{aria} attaque Dag à l'épée : 1d100 (3) ≤ 40 → touché, attaque parfaite ; esquive 1d100 (98) > 33 ; "
            "dégâts 1d8+1d6 (9) − 1 = 8 — Dag est hors de combat ! {i}{aria} : « Dans le mille ! »{_i}",
            "{b}Eli lance Boule de feu sur {aria} (zone 1,5) : 1d100 (10) ≤ 45 → réussi ; dégâts 2d6 (3) : "
            "{aria} −3, Cyra −3, Brute −3",
            "{b}Eli ne peut pas lancer son sort : plus assez de PA (3 requis, 2 restants).",
            "{b}Dag, hors de combat plus tôt dans le tour, n'agit pas.",
            "{b}Brute attaque {aria} avec massue : 1d100 (82) > 50 → raté "
            "{i}Brute : « Raté… la prochaine sera la bonne. »{_i}",
            "{b}{B}{aria} passe au niveau 2 !{_B}",
            "{b}Fin des effets sur {fenn} : potion.",
            "{code}6 ······p·F···",
            "{b}p : Porte en {lb}6, 6{rb}",
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
            "{b}Dag, hors de combat plus tôt dans le tour, n'agit pas (1 action(s) perdue(s)).",
            "{b2}{aria} passe au niveau 2.",
            "{b}Dag : 0/4 PV, 10/10 PA, 0 XP, niveau 1, en {lb}3, 2{rb} — hors de combat, réduction 1",
            "{b}Brute : 27/30 PV, 6/10 PA, en {lb}3, 3{rb}, réduction 1",
            "{b}Porte : 5/5 PV, en {lb}6, 6{rb}, réduction 3",
        ],
        ("private", "p1"): [
            "{s}Cyra, magie : 1d100 (10) contre 46 = magie +40, INT 10 +0, DEX 13 +3, faction (1 allié : {aria}) +3 "
            "= 46 (plafond 95)",
            "{s}XP : {aria} +1 XP (attaque subie)",
            "{b}{aria} : 17/20 PV, 3/10 PA, 26 XP, niveau 2, en {lb}2, 2{rb}",
            "{s}bilan : attaques 2, touches 1, parfaites 1, dégâts infligés 8, dégâts subis 3, mises hors de combat 1",
            "{b}Cyra : 17/20 PV, 4/10 PA, 3 XP, niveau 1, en {lb}1, 1{rb}",
            "{s}bilan : sorts 2, sorts réussis 1, dégâts subis 7",
        ],
        ("private", "p3"): [
            "{b}{fenn} : 20/20 PV, 5/10 PA, 1 XP, niveau 1, en {lb}8, 6{rb}",
            "{s}bilan : attaques 1",
        ],
        ("setup_public", None): [
            "{B}Faction A{_B} : Aria",
            "{b}D : Dag (Faction B) en {lb}3, 3{rb}",
            "Envoyez vos ordres au MJ : un fichier YAML par joueur, une ligne par action, avec le personnage qui "
            "agit (« perso: »).",
        ],
        ("setup_gm", None): [
            "{b}Aria : 20/20 PV, 10/10 PA, 0 XP, niveau 1, en {lb}0, 0{rb}, réduction 1 ; FOR 10, DEX 10, DEF 10, "
            "TAI 10, INT 10, chance 0 ; bagarre 40, melee 40, distance 40, esquive 30, magie 0",
        ],
        ("setup_private", "p1"): ["{b}Aria : 20/20 PV, 10/10 PA, 0 XP, niveau 1, en {lb}0, 0{rb}"],
        "status_body": [
            " 6 ······p·F···",
            "• p : Porte en [6, 6]",
            "• Dag : 0/4 PV, 10/10 PA, 0 XP, niveau 1, en [3, 2] — hors de combat, réduction 1",
        ],
        "orders_hints": [
            "#   - tir: {perso: aria, cible: eli}                # 4 cases au plus",
            "# Coûts en PA : deplacer 1, bagarre 3, melee 4, tir 4 ; un sort coûte son prix (ci-dessous).",
            "# Cyra (perso: cyra) en [1, 1], 10 PA par tour",
            "#   armes : epee (melee, 1d8), arc (distance, 1d6)",
            "#   tir possible d'ici sur : eli, brute",
            "#   sort trait_de_feu (Trait de feu, degats) : 3 PA, portée 4",
            "# Cibles : eli [4, 3], fenn [8, 6], brute [3, 3], porte [6, 6]",
            "#  6 ······p·F···",
        ],
    },
    "en": {
        ("public", None): [
            "{B}Order of action{_B} (DEX, fastest first): {fenn}, Cyra, {aria}, Eli, Dag, Brute",
            "{b}{fenn} moves from {lb}9, 6{rb} to {lb}8, 6{rb} (1 square, 1 PA).",
            "{b}Cyra casts Fire Bolt on Eli: 1d100 (10) ≤ 46 → success; counter-magic (Eli) 1d100 (5) ≤ 25 → "
            "perfect counter, the spell is reflected on Cyra (Eli loses 2 PA); damage 1d8 (4): Cyra −4 "
            "{i}Cyra: “My spell… stopped?!”{_i}",
            "{b}Cyra casts Heal on Cyra: 1d100 (10) ≤ 46 → success; heal 1d8+2 (5): Cyra +4 PV",
            "{b}{aria} attacks Dag à l'épée: 1d100 (3) ≤ 40 → hit, perfect attack; dodge 1d100 (98) > 33; "
            "damage 1d8+1d6 (9) − 1 = 8 — Dag is down! {i}{aria}: “Bullseye!”{_i}",
            "{b}Eli casts Fireball on {aria} (zone 1.5): 1d100 (10) ≤ 45 → success; damage 2d6 (3): "
            "{aria} −3, Cyra −3, Brute −3",
            "{b}Eli cannot cast the spell: not enough PA left (3 needed, 2 left).",
            "{b}Dag, downed earlier in the turn, does not act.",
            "{b}Brute attacks {aria} with the massue: 1d100 (82) > 50 → miss {i}Brute: “Missed… the next one will "
            "do.”{_i}",
            "{b}{B}{aria} reaches level 2!{_B}",
            "{b}Effects ending on {fenn}: potion.",
            "{code}6 ······p·F···",
            "{b}p: Porte on {lb}6, 6{rb}",
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
            "{s}After the action (cost 6 PA): Eli 20/20 PV, 2 PA; {aria} 17/20 PV, 3 PA; Cyra 17/20 PV, 4 PA; "
            "Brute 27/30 PV, 10 PA",
            "{b}Dag, downed earlier in the turn, does not act (1 action(s) lost).",
            "{b2}{aria} reaches level 2.",
            "{b}Dag: 0/4 PV, 10/10 PA, 0 XP, level 1, on {lb}3, 2{rb} — down, reduction 1",
            "{b}Brute: 27/30 PV, 6/10 PA, on {lb}3, 3{rb}, reduction 1",
            "{b}Porte: 5/5 PV, on {lb}6, 6{rb}, reduction 3",
        ],
        ("private", "p1"): [
            "{s}Cyra, magic: 1d100 (10) against 46 = magic +40, INT 10 +0, DEX 13 +3, faction (1 ally: {aria}) +3 "
            "= 46 (cap 95)",
            "{s}XP: {aria} +1 XP (attack survived)",
            "{b}{aria}: 17/20 PV, 3/10 PA, 26 XP, level 2, on {lb}2, 2{rb}",
            "{s}record: attacks 2, hits 1, perfect 1, damage dealt 8, damage taken 3, foes downed 1",
            "{b}Cyra: 17/20 PV, 4/10 PA, 3 XP, level 1, on {lb}1, 1{rb}",
            "{s}record: spells cast 2, spells landed 1, damage taken 7",
        ],
        ("private", "p3"): [
            "{b}{fenn}: 20/20 PV, 5/10 PA, 1 XP, level 1, on {lb}8, 6{rb}",
            "{s}record: attacks 1",
        ],
        ("setup_public", None): [
            "{B}Faction A{_B}: Aria",
            "{b}D: Dag (Faction B) on {lb}3, 3{rb}",
            "Send your orders to the MJ: one YAML file per player, one line per action, naming the character who "
            "acts (`perso:`).",
        ],
        ("setup_gm", None): [
            "{b}Aria: 20/20 PV, 10/10 PA, 0 XP, level 1, on {lb}0, 0{rb}, reduction 1; FOR 10, DEX 10, DEF 10, "
            "TAI 10, INT 10, luck 0; bagarre 40, melee 40, distance 40, esquive 30, magie 0",
        ],
        ("setup_private", "p1"): ["{b}Aria: 20/20 PV, 10/10 PA, 0 XP, level 1, on {lb}0, 0{rb}"],
        "status_body": [
            " 6 ······p·F···",
            "• p: Porte on [6, 6]",
            "• Dag: 0/4 PV, 10/10 PA, 0 XP, level 1, on [3, 2] — down, reduction 1",
        ],
        "orders_hints": [
            "#   - shoot: {perso: aria, cible: eli}              # 4 squares at most",
            "# PA costs: deplacer 1, bagarre 3, melee 4, tir 4; a spell costs its own price (below).",
            "# Cyra (perso: cyra) on [1, 1], 10 PA per turn",
            "#   weapons: epee (melee, 1d8), arc (distance, 1d6)",
            "#   tir possible from here on: eli, brute",
            "#   spell trait_de_feu (Fire Bolt, degats): 3 PA, range 4",
            "# Targets: eli [4, 3], fenn [8, 6], brute [3, 3], porte [6, 6]",
            "#  6 ······p·F···",
        ],
    },
}


def setup_game() -> Game:
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (3, 3))})
    g.events = [ev.Event.from_dict(e.to_dict()) for e in g.rs.setup(g.scenario, Dice("s", 0)).events]
    return g


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_every_template_writes_every_event_as_expected(lang, fmt):
    g, setup = busy_game(), setup_game()
    for (template, player), lines in ((k, v) for k, v in LINES[lang].items() if isinstance(k, tuple)):
        text = render(setup if template.startswith("setup") else g, template, lang, fmt, player)
        got = text.splitlines()
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
    html = bbcode.Parser(replace_links=False).format(post)
    assert "<a " not in html and "evil.example" in html.replace("\u2060", "")  # autolinks defused
    assert "<strong>Aria</strong>" not in html and "[b]Aria[/b]" in html.replace("\u200b", "")


def test_sheet_text_cannot_make_markup_markdown():
    html = markdown.markdown(render(busy_game(), "public", fmt="markdown"))
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
    assert "• Eli : 20/20 PV" in p2 and "• Cyra : " not in p2  # sheets: own characters only


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
    from pbp.simulate import play_game

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
