"""murder says the true reason for every move that does not happen, in the public
post and in the mover's private report, in French and English: the roll too short,
a room a witness may not enter (more than `witness_room_limit` players), the pair
rule (two players who shared a room are never together again on the next turn),
and why a player had to leave (the stay limit, a companion who stayed).

Board of tests/rulesets/test_murder_rules.py (lengths in squares):

    hall -3- a -4- b -2- c
             a -6- d -3- e
                   c -5- e
"""

from __future__ import annotations

import pytest

from pbp.model import events as ev
from pbp.render.render import Renderer, template_paths
from pbp.rulesets.murder import Murder
from tests.rulesets.test_murder_rules import P, make_state, only, play

NAMES = {h: h.upper() for h in ("w1", "w2", "w3", "w4", "mz", "i1")}


def render(events, template: str, lang: str, player: str | None = None) -> str:
    rend = Renderer(template_paths("murder", lang, None, Murder.folder()), "markdown", "phpbb", lang)
    audience = ev.PUBLIC if template == "public" else ev.Players(player)
    return rend.render(template, turn=2, title="T", events=ev.by_audience(events).get(audience, []), names=NAMES,
                       audience=audience, player=player, character=NAMES.get(player), by_player={})


def line_of(post: str, start: str) -> str:
    found = [line for line in post.splitlines() if line.lstrip("- ").startswith(start)]
    assert len(found) == 1, post
    return found[0].lstrip("- ")


def pair_rule_turn():
    """W3, W2 and W1 shared Salle A last turn. W3 plays first and goes to Salle B;
    W2 stays; W1 must leave (W2 stayed) and orders Salle B, 4 squares away, rolls 11:
    enough, but W3 is there, so W1 may not stop there and goes to the nearest room."""
    together = {h: [c for c in ("w1", "w2", "w3") if c != h] for h in ("w1", "w2", "w3")}
    state = make_state({"w3": P("innocent", "a", companions=together["w3"]),
                        "w2": P("innocent", "a", companions=together["w2"]),
                        "w1": P("innocent", "a", companions=together["w1"]),
                        "i1": P("investigator", "e")})
    return play(state, {"w3": [("deplacer", "b")], "w1": [("deplacer", "b")]},
                {"w3.deplacement": 6, "w1.deplacement": 11})


PAIR = {
    "fr": ("**W1** va de Salle A à Hall (3 cases) : 2d6 (11), pas d'arrêt possible à Salle B avec W3, déjà dans "
           "la même pièce au tour précédent ; départ obligatoire (W2, dans la même pièce au tour précédent, y reste) "
           "vers la pièce voisine la plus proche.",
           "Votre jet vous arrête à Salle A : W3, déjà avec vous au tour précédent, se trouve à Salle B, et "
           "deux personnes ne peuvent pas se retrouver deux tours de suite dans la même pièce. Départ obligatoire "
           "(W2, déjà avec vous au tour précédent, y reste) : vous passez dans la pièce voisine la plus proche, Hall."),
    "en": ("**W1** goes from Salle A to Hall (3 squares): 2d6 (11), no stopping in Salle B with W3, in the same room "
           "last turn; forced to the nearest adjacent room (W2, in the same room last turn, stays there).",
           "Your roll stops you in Salle A: W3, already with you last turn, is in Salle B, and two people may not be "
           "together in one room two turns in a row. You had to leave (W2, already with you last turn, stays "
           "there): you go to the nearest adjacent room, Hall."),
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_pair_rule_not_the_roll_is_why_a_move_stops(lang):
    """The issue's case: "2d6 (6+5 = 11), too short to leave" for a 4-square move."""
    new, events, _ = pair_rule_turn()
    assert new["players"]["w1"]["room"] == "hall"
    public = render(events, "public", lang)
    assert line_of(public, "**W1**") == PAIR[lang][0]
    assert "too short" not in public and "trop court" not in public
    private = render(events, "private", lang, "w1")
    assert PAIR[lang][1] in private
    assert "did not take you out" not in private and "ne vous faisait pas quitter" not in private


def crowded_turn(turns_here: int):
    """W2, W3 and W4 are in Salle B (more than 2 players): W1, a witness in Salle A,
    orders Salle C through Salle B and rolls 12, enough for the 6 squares."""
    state = make_state({"w2": P("innocent", "b"), "w3": P("innocent", "b"), "w4": P("innocent", "b"),
                        "w1": P("innocent", "a", turns_here=turns_here), "i1": P("investigator", "e")})
    return play(state, {"w1": [("deplacer", "c")]}, {"w1.deplacement": 12})


CROWDED = {
    ("fr", 1): ("**W1** reste à Salle A malgré son jet : 2d6 (12), Salle B compte plus de 2 personnes et un "
                "témoin ne peut pas y entrer.",
                "Votre jet vous arrête à Salle A : Salle B comptait plus de 2 personnes, et un témoin ne peut pas "
                "y entrer."),
    ("en", 1): ("**W1** stays in Salle A despite the roll: 2d6 (12), Salle B holds more than 2 people and a witness "
                "may not enter it.",
                "Your roll stops you in Salle A: Salle B held more than 2 people, and a witness may not enter it."),
    ("fr", 2): ("**W1** va de Salle A à Hall (3 cases) : 2d6 (12), Salle B compte plus de 2 personnes et un témoin "
                "ne peut pas y entrer ; départ obligatoire (2 tours déjà dans la même pièce) vers la pièce voisine la "
                "plus proche.",
                "Votre jet vous arrête à Salle A : Salle B comptait plus de 2 personnes, et un témoin ne peut pas "
                "y entrer. Départ obligatoire (vous étiez depuis 2 tours dans cette pièce) : vous passez dans la "
                "pièce voisine la plus proche, Hall."),
    ("en", 2): ("**W1** goes from Salle A to Hall (3 squares): 2d6 (12), Salle B holds more than 2 people and a "
                "witness may not enter it; forced to the nearest adjacent room (2 turns in the same room already).",
                "Your roll stops you in Salle A: Salle B held more than 2 people, and a witness may not enter it. You "
                "had to leave (you had been in that room for 2 turns): you go to the nearest adjacent room, Hall."),
}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("turns_here", [1, 2], ids=["stays", "must-leave"])
def test_a_crowded_room_on_the_way_is_why_a_witness_stops(lang, turns_here):
    new, events, _ = crowded_turn(turns_here)
    assert new["players"]["w1"]["room"] == ("a" if turns_here == 1 else "hall")
    public, mine = CROWDED[lang, turns_here]
    assert line_of(render(events, "public", lang), "**W1**") == public
    assert mine in render(events, "private", lang, "w1")


@pytest.mark.parametrize("lang, public, mine", [
    ("fr", "**W1** va de Salle A à Hall (3 cases) : 2d6 (2), trop court pour sortir ; départ obligatoire (2 tours "
           "déjà dans la même pièce) vers la pièce voisine la plus proche.",
     "Votre jet vous arrête à Salle A : il fallait 4 cases pour atteindre Salle B (2 < 4). Départ obligatoire "
     "(vous étiez depuis 2 tours dans cette pièce) : vous passez dans la pièce voisine la plus proche, Hall."),
    ("en", "**W1** goes from Salle A to Hall (3 squares): 2d6 (2), too short to leave; forced to the nearest "
           "adjacent room (2 turns in the same room already).",
     "Your roll stops you in Salle A: reaching Salle B took 4 squares (2 < 4). You had to leave (you had been in "
     "that room for 2 turns): you go to the nearest adjacent room, Hall."),
])
def test_a_short_roll_is_said_so_with_the_stay_limit_that_forced_the_move(lang, public, mine):
    state = make_state({"w1": P("innocent", "a", turns_here=2), "i1": P("investigator", "e")})
    new, events, _ = play(state, {"w1": [("deplacer", "b")]}, {"w1.deplacement": 2})
    detail = only(events, "move_detail").data
    assert (detail["reason"], detail["forced"], new["players"]["w1"]["room"]) == ("short", True, "hall")
    assert line_of(render(events, "public", lang), "**W1**") == public
    assert mine in render(events, "private", lang, "w1")


@pytest.mark.parametrize("lang, public", [
    ("fr", "**W2** va de Salle A à Hall (3 cases) : départ obligatoire (W1, dans la même pièce au tour précédent, "
           "y reste) vers la pièce voisine la plus proche, sans jet."),
    ("en", "**W2** goes from Salle A to Hall (3 squares): forced to the nearest adjacent room (W1, in the same room "
           "last turn, stays there), no roll."),
])
def test_a_forced_move_without_orders_names_the_companion_who_stayed(lang, public):
    state = make_state({"w1": P("innocent", "a", companions=["w2"]), "w2": P("innocent", "a", companions=["w1"]),
                        "i1": P("investigator", "e")})
    new, events, _ = play(state)
    assert new["players"]["w2"]["room"] == "hall"
    assert line_of(render(events, "public", lang), "**W2**") == public
