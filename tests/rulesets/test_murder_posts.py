"""murder's posts as the forum reads them: the vote count of an accusation
(public or MJ-only, exact lines in French and English), French grammar (rooms
with their articles, elision, agreement by the roster's `genre` with a neutral
wording when it is unknown), a death ending a report, the public standing,
English forms in English, and the structure of every post of the example
through independent parsers (markdown-it-py with GFM options, bbcodepy)."""

from __future__ import annotations

import copy
import re
import textwrap
from html.parser import HTMLParser

import pytest
# the independent parsers come with pyproject's `test` extra
bbcodepy = pytest.importorskip("bbcodepy", reason="a test dependency: pip install -e '.[test]'")
from markdown_it import MarkdownIt

from pbp.base import i18n
from pbp.engine.campaign import open_campaign
from pbp.engine.turn_posts import render_post, renderer
from pbp.engine.turn_record import stored_events
from pbp.model import events as ev
from pbp.model.dice import Dice
from pbp.model.orders import Action, PlayerOrders
from pbp.model.ruleset import Scenario
from pbp.render.render import Renderer, package_dir, template_paths
from pbp.rulesets.murder import Murder
from pbp.rulesets.murder import rules as murder_rules
from tests.helpers import as_stored, copy_example, pbp, write

WORLD = {"hall": "hall",
         "rooms": {"hall": {"name": "le Hall"}, "labo": {"name": "le Labo"}, "serre": {"name": "la Serre"},
                   "animalerie": {"name": "l'Animalerie"}, "archives": {"name": "les Archives"}},
         "passages": [["hall", "labo", 2], ["labo", "serre", 2], ["serre", "animalerie", 4],
                      ["animalerie", "archives", 3]]}


def _sheet(n, **scores):
    return {"story": f"S{n}", "job": f"J{n}", "seniority": "1 an", **scores}


CHARACTERS = {"innocents": {n: _sheet(n, resilience=5, defence=6, alibi=f"A{n}") for n in range(1, 8)},
              "murderers_investigators": {1: _sheet(11, role="murderer", lying=4, defence=6),
                                          2: _sheet(12, role="investigator", survival=4),
                                          3: _sheet(13, role="investigator", survival=5),
                                          4: _sheet(14, role="investigator", survival=6),
                                          5: _sheet(15, role="murderer", lying=4, defence=6)}}
# f, m and no genre (a neutral wording); names starting with a vowel, a mute h and a y
ROSTER = {"elsa": {"character": "Elsa", "genre": "f"}, "hugo": {"character": "Hugo", "genre": "m"},
          "aelis": {"character": "Aélis"}, "yann": {"character": "Yann", "genre": "m"},
          "mz": {"character": "Zoé", "genre": "f"}, "ivan": {"character": "Ivan", "genre": "m"},
          "ines": {"character": "Inès", "genre": "f"}, "iris": {"character": "Iris"}}
NAMES = {h: r["character"] for h, r in ROSTER.items()}


def P(role, room, sheet=1, **extra):
    scores = {"innocent": {"resilience": 5, "defence": 6}, "murderer": {"lying": 4, "defence": 6},
              "investigator": {"survival": 4}}[role]
    return {"role": role, "lot": "innocents" if role == "innocent" else "second", "sheet": sheet,
            "scores": dict(scores), "status": "alive", "room": room, "turns_here": 1, "companions": [],
            "prison": None, "died": None, "warnings": [], **extra}


def court(turn=4):
    """Three witnesses, a murderer, three investigators in the hall."""
    players = {"elsa": P("innocent", "labo", 1), "hugo": P("innocent", "serre", 2),
               "aelis": P("innocent", "animalerie", 3), "mz": P("murderer", "archives", 1),
               "ivan": P("investigator", "hall", 2), "ines": P("investigator", "hall", 3),
               "iris": P("investigator", "hall", 4)}
    order = list(players)
    return {"turn": turn, "over": False, "winner": None, "witness_order": order[:4], "play_order": order,
            "players": players, "traps": {}}


def scenario(roster=ROSTER):
    return Scenario(copy.deepcopy(WORLD), copy.deepcopy(CHARACTERS), copy.deepcopy(roster))


def play(state, orders, forced=None, rules=None, sc=None):
    rs = Murder(rules)
    sc = sc or scenario()
    n = state["turn"] + 1
    built = {h: PlayerOrders(h, n, [Action(a, arg, i) for i, (a, arg) in enumerate(orders.get(h, []))],
                             default=h not in orders) for h in state["players"]}
    for h, o in built.items():
        assert rs.check_orders(state, sc, o) == [], h
    res = rs.resolve(copy.deepcopy(state), sc, built, None, Dice("secret", n, dict(forced or {})))
    return res.state, as_stored(res.events)


def render(events, template="public", lang="fr", fmt="markdown", player=None, names=NAMES):
    rend = Renderer(template_paths("murder", lang, None, Murder.folder()), fmt, "phpbb", lang)
    audience = ev.PUBLIC if template == "public" else ev.GM if template == "gm" else ev.Players(player)
    return rend.render(template, turn=5, title="T", events=ev.by_audience(events).get(audience, []), names=names,
                       audience=audience, player=player, character=NAMES.get(player), by_player={})


def section(post, title):
    """The body of a `#### title` section of a Markdown post."""
    return post.split(f"#### {title}\n\n", 1)[1].split("\n####", 1)[0].strip("\n")


# -- the vote count --------------------------------------------------------------------------

def test_the_vote_count_is_the_forums_in_the_public_post():
    _, events = play(court(), {"ivan": [("accuser", "elsa")], "ines": [("accuser", "elsa")]})
    assert section(render(events), "Accusation") == textwrap.dedent("""\
        Décompte des voix :

        - **Elsa** : 2 voix (Ivan et Inès)
        - Sans vote : Iris
        - Majorité : le plus de voix l'emporte, une égalité n'envoie personne en prison (3 enquêteurs en jeu)

        **Elsa** est mise en prison. Sans plaidoirie convaincante, l'exécution aura lieu dans 3 tours.""")
    assert section(render(events, lang="en"), "Accusation") == textwrap.dedent("""\
        Vote count:

        - **Elsa**: 2 votes (Ivan and Inès)
        - Not voting: Iris
        - Majority: the most votes wins, a tie sends nobody to prison (3 investigators in play)

        **Elsa** goes to prison. Without a convincing plea, the execution takes place in 3 turns.""")
    bbcode = render(events, fmt="bbcode")
    assert ("Décompte des voix :\n\n[list]\n[*][b]Elsa[/b] : 2 voix (Ivan et Inès)\n[*]Sans vote : Iris\n"
            "[*]Majorité : le plus de voix l'emporte, une égalité n'envoie personne en prison (3 enquêteurs en "
            "jeu)\n[/list]") in bbcode


def test_a_tie_and_an_absolute_majority():
    orders = {"ivan": [("accuser", "elsa")], "ines": [("accuser", "hugo")]}
    new, events = play(court(), orders)
    assert section(render(events), "Accusation").endswith(
        "- **Hugo** : 1 voix (Inès)\n- Sans vote : Iris\n- Majorité : le plus de voix l'emporte, une égalité n'envoie "
        "personne en prison (3 enquêteurs en jeu)\n\nÉgalité des voix : personne ne va en prison.")
    assert all(p["status"] != "prison" for p in new["players"].values())
    # `majority: absolute`: more than half the living investigators, 2 of 3
    new, events = play(court(), {"ivan": [("accuser", "elsa")]}, rules={"majority": "absolute"})
    assert section(render(events), "Accusation") == textwrap.dedent("""\
        Décompte des voix :

        - **Elsa** : 1 voix (Ivan)
        - Sans vote : Inès et Iris
        - Majorité : 2 voix sur 3 enquêteurs en jeu

        Aucun suspect n'a la majorité : personne ne va en prison.""")
    assert new["players"]["elsa"]["status"] == "alive"
    orders = {"ivan": [("accuser", "elsa")], "ines": [("accuser", "elsa")], "iris": [("accuser", "hugo")]}
    new, events = play(court(), orders, rules={"majority": "absolute"})
    assert new["players"]["elsa"]["status"] == "prison"
    assert "- Majority: 2 votes of 3 investigators in play\n" in render(events, lang="en")
    _, events = play(court(), {})
    assert section(render(events), "Accusation") == textwrap.dedent("""\
        Décompte des voix :

        - Sans vote : Ivan, Inès et Iris
        - Majorité : le plus de voix l'emporte, une égalité n'envoie personne en prison (3 enquêteurs en jeu)

        Aucun enquêteur n'a accusé personne.""")


#: three more investigators, for the absolute majority with 4 and 6 of them
MORE_INVESTIGATORS = {"igor": ("Igor", 6), "irene": ("Irène", 7), "isaac": ("Isaac", 8)}


def bigger_court(investigators):
    """court() with `investigators` (3 to 6) investigators in the hall, and its scenario."""
    state, roster, characters = court(), copy.deepcopy(ROSTER), copy.deepcopy(CHARACTERS)
    for handle, (name, sheet) in list(MORE_INVESTIGATORS.items())[:investigators - 3]:
        state["players"][handle] = P("investigator", "hall", sheet)
        state["play_order"].append(handle)
        roster[handle] = {"character": name}
        characters["murderers_investigators"][sheet] = _sheet(10 + sheet, role="investigator", survival=4)
    return state, Scenario(copy.deepcopy(WORLD), characters, roster)


@pytest.mark.parametrize("investigators, votes, jailed, needed", [
    (4, ["elsa", "elsa", "hugo", "aelis"], None, 3),  # 2-1-1: 2 is not more than half of 4
    (6, ["elsa", "elsa", "elsa", "hugo", "hugo", "aelis"], None, 4),  # 3-2-1: 3 is half of 6, not more
    (4, ["elsa", "elsa", "elsa", "hugo"], "elsa", 3),  # 3-1
    (6, ["elsa", "elsa", "elsa", "elsa", "hugo", "aelis"], "elsa", 4),  # 4-1-1
])
def test_an_absolute_majority_is_more_than_half_of_the_investigators(investigators, votes, jailed, needed):
    """murder 9, `majority: absolute`: the leader needs more than half the living
    investigators' votes; half is not enough, whatever the others' split."""
    state, sc = bigger_court(investigators)
    voters = [h for h in state["play_order"] if state["players"][h]["role"] == "investigator"]
    assert len(voters) == investigators
    orders = {h: [("accuser", target)] for h, target in zip(voters, votes)}
    new, events = play(state, orders, rules={"majority": "absolute"}, sc=sc)
    assert [h for h, p in new["players"].items() if p["status"] == "prison"] == ([jailed] if jailed else [])
    post = section(render(events, names={h: r["character"] for h, r in sc.roster.items()}), "Accusation")
    assert f"- Majorité : {needed} voix sur {investigators} enquêteurs en jeu\n" in post
    assert post.endswith("**Elsa** est mise en prison. Sans plaidoirie convaincante, l'exécution aura lieu dans "
                         "3 tours." if jailed else "Aucun suspect n'a la majorité : personne ne va en prison.")


def test_a_vote_for_someone_gone_counts_for_nobody():
    state = court()
    state["players"]["hugo"].update(status="dead", room=None, died={"turn": 4, "room": "serre", "cause": "trap"})
    count = murder_rules.vote_count(Murder().rules, state, {"ivan": "hugo", "ines": "elsa"})
    assert count == {"tally": [{"target": "elsa", "votes": 1, "voters": ["ines"]}],
                     "not_voting": ["iris"], "void": [{"investigator": "ivan", "target": "hugo"}],
                     "investigators": 3, "majority": "plurality", "needed": None, "jailed": "elsa", "tie": False}


def test_an_mj_only_vote_count_never_reaches_the_thread():
    orders = {"ivan": [("accuser", "elsa")], "ines": [("accuser", "elsa")]}
    _, events = play(court(), orders, rules={"vote_count": "gm"})
    public = [e for e in events if e.audience is ev.PUBLIC]
    accusation = next(e for e in public if e.kind == "accusation")
    assert accusation.data == {"jailed": "elsa", "tie": False, "prison_turns": 3, "count": None}
    assert "vote_count" in [e.kind for e in events if e.audience is ev.GM]
    post = render(events)
    assert section(post, "Accusation") == ("Le décompte des voix est réservé au MJ.\n\n**Elsa** est mise en "
                                           "prison. Sans plaidoirie convaincante, l'exécution aura lieu dans 3 tours.")
    assert "Ivan et Inès" not in post
    assert section(render(events, "gm"), "Accusation").startswith(
        "Décompte des voix (réservé au MJ) :\n\n- **Elsa** : 2 voix (Ivan et Inès)\n- Sans vote : Iris\n")


def test_the_campaign_choices_are_checked(tmp_path):
    root = copy_example("murder", tmp_path)
    config = (root / "campaign.yaml").read_text(encoding="utf-8")
    write(root, "campaign.yaml", config.replace("rules:\n", "rules:\n  vote_count: secret\n"))
    r = pbp("check", cwd=root)
    assert r.exit_code == 1 and ("campaign.yaml:19: rules.vote_count : « secret » n'est pas une valeur possible. "
                                 "Valeurs possibles : public, gm.") in r.output
    write(root, "campaign.yaml", config.replace("genre: f}", "genre: x}", 1))
    r = pbp("check", cwd=root)
    assert r.exit_code == 1 and ("campaign.yaml:8: players.alice.genre : « x » inconnu (f : féminin, m : masculin, "
                                 "n : neutre ; absent : tournures neutres). Valeurs possibles : f, m, n.") in r.output


# -- French grammar ----------------------------------------------------------------------------

ROLL = {"label": "x.deplacement", "expr": "2d6", "faces": [2, 1], "total": 3}


def _public_lines(events, lang="fr"):
    events = as_stored([ev.public("genres", genres=murder_rules.genres(scenario()))] + events)
    return [line[2:] for line in render(events, lang=lang).splitlines() if line.startswith("- ")]


def test_rooms_carry_their_article_and_names_their_elision():
    lines = _public_lines([
        ev.public("moved", player="elsa", path=["l'Animalerie", "les Archives"], steps=[3], roll=ROLL, forced=False),
        ev.public("moved", player="hugo", path=["le Hall", "le Labo", "la Serre"], steps=[2, 2], roll=ROLL,
                  forced=False),
        ev.public("moved", player="aelis", path=["les Archives", "l'Animalerie"], steps=[3], roll=None, forced=True),
        ev.public("interrogation", investigator="ivan", witness="hugo", room="les Archives", others=[]),
        ev.public("stayed", player="yann", room="le Hall", roll=ROLL)]
        + [ev.public("trap_fired", player=h, room="la Serre", survived=True, roll=None, score=None)
           for h in ("elsa", "hugo", "yann")])
    assert lines == [
        "**Elsa** va de l'Animalerie aux Archives (3 cases) : 2d6 (2+1 = 3).",
        "**Hugo** va du Hall à la Serre, par le Labo (2 + 2 = 4 cases) : 2d6 (2+1 = 3).",
        "**Aélis** va des Archives à l'Animalerie (3 cases) : départ obligatoire vers la pièce voisine la plus "
        "proche, sans jet.",
        "**Ivan** interroge **Hugo** dans les Archives, en tête à tête.",
        "**Yann** reste dans le Hall malgré son jet : 2d6 (2+1 = 3).",
        "**Un piège se déclenche** dans la Serre au passage d'**Elsa** ! Elsa en réchappe ; le piège est détruit.",
        "**Un piège se déclenche** dans la Serre au passage d'**Hugo** ! Hugo en réchappe ; le piège est détruit.",
        "**Un piège se déclenche** dans la Serre au passage de **Yann** ! Yann en réchappe ; le piège est détruit.",
    ]


@pytest.mark.parametrize("player, passage, dead, executed, released, jailed", [
    ("elsa", "d'**Elsa**", "**Elsa est morte.**", "exécutée par la Justice", "libérée", "est mise en prison"),
    ("hugo", "d'**Hugo**", "**Hugo est mort.**", "exécuté par la Justice", "libéré", "est mis en prison"),
    ("aelis", "d'**Aélis**", "**Aélis n'y survit pas.**", "exécution par la Justice", "remise en liberté",
     "part en prison"),
])
def test_agreement_follows_the_roster_genre_with_a_neutral_wording(player, passage, dead, executed, released,
                                                                   jailed):
    name = NAMES[player]
    lines = _public_lines([
        ev.public("trap_fired", player=player, room="l'Animalerie", survived=False, roll=None, score=None),
        ev.public("plea", player=player, released=False, left=0, room=None),
        ev.public("plea", player=player, released=True, left=1, room="le Hall")])
    assert lines == [f"**Un piège se déclenche** dans l'Animalerie au passage {passage} ! {dead}",
                     f"**{name}** plaide sa cause une dernière fois, sans convaincre : {executed}.",
                     f"**{name}** plaide sa cause et convainc la Justice : {released}, retour au Hall."]
    _, events = play(court(), {"ivan": [("accuser", player)], "ines": [("accuser", player)]})
    assert f"**{name}** {jailed}. Sans plaidoirie" in render(events)


def test_a_sheet_never_gives_the_public_genre():
    """The roster has no genre for Aélis; her sheet says `f`: her own report agrees,
    the thread keeps the neutral wording (a sheet is secret)."""
    characters = copy.deepcopy(CHARACTERS)
    characters["innocents"][3]["genre"] = "f"
    sc = Scenario(copy.deepcopy(WORLD), characters, copy.deepcopy(ROSTER))
    assert murder_rules.genres(sc)["aelis"] is None
    assert murder_rules.own_genres(Murder().rules, sc, court(), "aelis")["aelis"] == "f"
    assert murder_rules.own_genres(Murder().rules, sc, court(), "elsa")["aelis"] is None


# -- a death ends the report ---------------------------------------------------------------------

def test_a_death_ends_the_players_report():
    """Zoé walks into her accomplice's trap and dies; the accomplice, who plays
    after her, then sets another trap: Zoé's report stops at her death."""
    state = court()
    state["players"]["yann"] = P("murderer", "serre", 5)
    state["play_order"].insert(4, "yann")
    state["players"]["mz"]["room"] = "animalerie"
    state["players"]["aelis"]["room"] = "hall"
    state["players"]["hugo"]["room"] = "labo"
    state["traps"] = {"archives": {"by": "yann", "turn": 3}}
    new, events = play(state, {"mz": [("deplacer", "archives")], "yann": [("pieger", None)]},
                       forced={"mz.deplacement": [2, 1], "mz.piege": 1})
    assert new["players"]["mz"]["status"] == "dead" and "serre" in new["traps"]
    assert [e.kind for e in events if e.audience == ev.Players("mz", "yann")] == ["trap_set"]
    assert render(events, "private", player="mz") == textwrap.dedent("""\
        ### Rapport privé — Zoé — tour 5

        Déplacement vers les Archives : 2d6 (2+1 = 3). Chemin le plus court : l'Animalerie → les Archives (3 cases). Vous atteignez les Archives.

        Piège dans les Archives : 1d10 (1) < défense 6 : **vous êtes morte.** Vous devenez un fantôme.

        #### Votre situation

        - Rôle (secret) : meurtrière
        - Votre personnage est mort au tour 5. Fantôme meurtrier : à la fin de chaque tour, « posseder » un témoin innocent le déplace vers la pièce de votre choix.
        - Votre complice : Yann
        - Pièges actifs : la Serre
        - Prochain tour : Jour 2, 8h – 10h
        """)
    # the accomplice, alive, reads the trap they set
    assert "Vous avez armé un piège dans la Serre." in render(events, "private", player="yann")


# -- the public standing -------------------------------------------------------------------------

def test_the_standing_tells_who_is_in_the_game_never_a_role():
    state = court()
    state["players"]["elsa"].update(status="dead", room=None, died={"turn": 3, "room": "labo", "cause": "trap"})
    state["players"]["hugo"].update(status="dead", room=None, died={"turn": 4, "room": None, "cause": "executed"})
    state["players"]["aelis"].update(status="dead", room=None, died={"turn": 4, "room": None, "cause": "executed"})
    state["players"]["mz"].update(status="prison", room=None, prison={"since": 4, "pleas": 0})
    standing = Murder().standing(state, scenario())
    assert standing == [
        {"name": "Elsa", "handle": "elsa", "status": "murder.standing_trap"},
        {"name": "Hugo", "handle": "hugo", "status": "murder.standing_executed_m"},
        {"name": "Aélis", "handle": "aelis", "status": "murder.standing_executed"},
        {"name": "Zoé", "handle": "mz", "status": "murder.standing_prison"},
        {"name": "Ivan", "handle": "ivan", "status": "murder.standing_alive"},
        {"name": "Inès", "handle": "ines", "status": "murder.standing_alive"},
        {"name": "Iris", "handle": "iris", "status": "murder.standing_alive"}]
    said = {s["handle"]: (i18n.t("fr", s["status"]), i18n.t("en", s["status"])) for s in standing}
    assert said == {"elsa": ("victime d'un piège", "killed by a trap"),
                    "hugo": ("exécuté par la Justice", "executed by the Law"),
                    "aelis": ("exécution par la Justice", "executed by the Law"),
                    "mz": ("en prison", "in prison"), "ivan": ("en jeu", "in play"), "ines": ("en jeu", "in play"),
                    "iris": ("en jeu", "in play")}


# -- English forms ----------------------------------------------------------------------------------

FRENCH_IDS = ["deplacer", "pieger", "interroger", "accuser", "hanter", "posseder", "salle", "avertir", "cible",
              "aller", "armer"]


def _english_example(tmp_path):
    root = copy_example("murder", tmp_path)
    write(root, "campaign.yaml", (root / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr", "lang: en"))
    return root


def test_an_english_form_shows_english_words_only(tmp_path):
    root = _english_example(tmp_path)
    for player, expected in (("damien", '# Innocent ghost: "- haunt: {room: <room>, warn: <player>}" (warn is '
                                        'optional).'),
                             ("margot", '# Murderer ghost: "- possess: {target: <player>, room: <room>}" among Chloé '
                                        'Vidal, Bruno Lacaze, Elsa Kerbrat, Gaëlle Dumas, Hugo Perrin.')):
        form = pbp("orders", "--player", player, cwd=root).output
        assert expected in form.splitlines()
        assert "#   - haunt: {room: text, warn: player}    (French id: hanter)" in form.splitlines()
        assert "#   - possess: {target: player, room: text}    (French id: posseder)" in form.splitlines()
        # the core's form names each French id once, in parentheses; nothing else is French
        rest = re.sub(r"\(French id: \w+\)", "", form)
        assert [w for w in FRENCH_IDS if re.search(rf"\b{w}\b", rest)] == []
    form = pbp("orders", "--player", "hugo", cwd=root).output
    assert "# You are in the Director's Office." in form.splitlines()
    # French forms stay French
    form = pbp("orders", "--player", "damien", cwd=copy_example("murder", tmp_path / "fr")).output
    assert "#   - hanter: {salle: texte, avertir: joueur}    (en anglais\u00a0: haunt)" in form.splitlines()


FRENCH_WORDS = FRENCH_IDS + ["tour", "jour", "piège", "fantôme", "fiche", "rôle", "enquêteur", "meurtrier", "témoin",
                             "cases", "déplacement", "voix", "plaidoirie", " : "]


def _mj_words(campaign) -> list[str]:
    """The MJ's own words, French in the example: its board (the names world.yaml
    wrote too, in the events of the turns played in French) and its sheets."""
    words = [name for r in campaign.scenario.world["rooms"].values() for written in [r["name"], *r.get("also", [])]
             for name in (written, written[:1].upper() + written[1:])]
    words += [str(v) for lot in campaign.scenario.characters.values() for sheet in lot.values()
              for v in sheet.values() if isinstance(v, str)]
    return sorted(words, key=len, reverse=True)


# -- structure, through independent parsers ---------------------------------------------------------

class _Tags(HTMLParser):
    """Counts elements, and collects the text of each paragraph and list item."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.count: dict[str, int] = {}
        self.stack: list[str] = []
        self.paragraphs: list[str] = []
        self.nested = 0

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        if tag == "ul" and "li" in self.stack:
            self.nested += 1
        if tag == "p":
            self.paragraphs.append("")
        if tag not in ("br", "img", "hr"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "p" or "p" in self.stack[-2:]:
            self.paragraphs[-1] += data


def _parsed(html):
    tags = _Tags()
    tags.feed(html)
    tags.close()
    return tags


MDIT = MarkdownIt("gfm-like")


def _bbcodepy():
    parser = bbcodepy.Parser()
    parser.renderer.cosmetic_replace = lambda s: s
    return parser


def _every_post(campaign):
    rends = {fmt: renderer(campaign, fmt) for fmt in ("markdown", "bbcode")}
    for n in campaign.resolved_turns():
        # the MJ's narration and the players' roleplay are their own words (a paragraph the
        # MJ wrapped is one paragraph; the core's quotes are tested by the core)
        events = [e for e in stored_events(campaign, n) if e.kind not in ("narration", "roleplay")]
        for audience in (ev.PUBLIC, ev.GM, *[ev.Players(h) for h in campaign.roster]):
            for fmt in ("markdown", "bbcode"):
                yield n, audience, fmt, render_post(campaign, n, events, audience, rends[fmt])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_post_of_the_example_is_well_formed_and_english_when_english(tmp_path, lang):
    root = copy_example("murder", tmp_path)
    write(root, "campaign.yaml", (root / "campaign.yaml").read_text(encoding="utf-8").replace("lang: fr",
                                                                                              f"lang: {lang}"))
    campaign = open_campaign(root)
    mj_words = _mj_words(campaign)
    bbpy = _bbcodepy()
    nested = posts = 0
    for n, audience, fmt, text in _every_post(campaign):
        posts += 1
        where = (n, audience, fmt)
        if lang == "en":  # wholly English, once the MJ's own (French) words are set aside
            rest = text
            for words in mj_words:
                rest = rest.replace(words, "¤")
            # roll labels (alice.plaidoirie) are gm.yaml's ids, listed for the MJ to force
            rest = re.sub(r"\b\w+(?:\.\u2060?\w+)+\b", "¤", rest)
            assert [w for w in FRENCH_WORDS if re.search(rf"(?i)(?<!\w){re.escape(w)}(?!\w)", rest)] == [], where
        if fmt == "markdown":
            items = [line for line in text.splitlines() if re.match(r"\s*- ", line)]
            tags = _parsed(MDIT.render(text))
            # every item line is a list item; no paragraph holds two lines
            assert tags.count.get("li", 0) == len(items), where
            assert [p for p in tags.paragraphs if "\n" in p.strip()] == [], where
            nested += tags.nested
        else:
            assert [line for line in text.splitlines() if re.match(r"\s*(- |\d+\. )", line)] == [], where
            assert text.count("[list]") == text.count("[/list]"), where
            tags = _parsed(bbpy.to_html(text))
            assert tags.count.get("li", 0) == text.count("[*]"), where
            assert tags.count.get("ul", 0) == text.count("[list]"), where
            nested += tags.nested
    assert posts == 9 * 12 * 2
    # the revealed sheets are nested lists (turn 8, Margot's execution)
    assert nested > 0
