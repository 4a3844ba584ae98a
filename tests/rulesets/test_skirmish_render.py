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
from pbp.turn import _plain
from tests.rulesets.test_skirmish_support import Game, creature, sheet


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


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_every_template_renders_every_event(lang, fmt):
    g = busy_game()
    for template, player in (("public", None), ("gm", None), ("private", "p1"), ("private", "p2"),
                             ("private", "p3")):
        text = render(g, template, lang, fmt, player)
        assert "None" not in text and "{{" not in text and text.strip()
    setup = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (3, 3))})
    setup.events = [ev.Event.from_dict(e.to_dict()) for e in
                    setup.rs.setup(setup.scenario, Dice("s", 0)).events]
    for template, player in (("setup_public", None), ("setup_gm", None), ("setup_private", "p1")):
        text = render(setup, template, lang, fmt, player)
        assert "Aria" in text and "None" not in text
    body = render(g, "status_body", lang, "text", events=g.rs.status(g.state, g.scenario))
    assert "Eli" in body
    hints = Renderer(template_paths("skirmish", lang), "text", lang=lang).render(
        "orders_hints", hints=g.rs.order_context(g.state, g.scenario, "p1"))
    assert all(line.startswith("#") for line in hints.strip().splitlines())
    assert "perso: cyra" in hints


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
        return yamlio.dumps(_plain([e.to_dict() for e in res.events])) + yamlio.dumps(res.state)
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
