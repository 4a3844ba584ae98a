"""The murder ruleset, rule by rule, with forced rolls on a small board.

Board (lengths in squares):

    hall -3- a -4- b -2- c
             a -6- d -3- e
                   c -5- e
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbp.base import i18n, yamlio
from pbp.base.errors import InputError, PbpError
from pbp.engine.campaign import open_campaign
from pbp.model import events as ev, orders as od
from pbp.model.dice import Dice
from pbp.model.orders import Action, PlayerOrders
from pbp.model.ruleset import Scenario
from pbp.render.render import package_dir
from pbp.rulesets.murder import Murder
from pbp.rulesets.murder import rules as murder_rules
from pbp.rulesets.murder.board import Board

WORLD = {
    "hall": "hall",
    "rooms": {"hall": {"name": "Hall"}, "a": {"name": "Salle A"}, "b": {"name": "Salle B"},
              "c": {"name": "Salle C"}, "d": {"name": "Salle D"}, "e": {"name": "Salle E"}},
    "passages": [["hall", "a", 3], ["a", "b", 4], ["b", "c", 2], {"from": "a", "to": "d", "length": 6},
                 ["d", "e", 3], ["c", "e", 5]],
}


def _sheet(n, **extra):
    return {"story": f"STORY-{n}", "job": f"JOB-{n}", "seniority": f"{n} ans", **extra}


CHARACTERS = {
    "innocents": {n: _sheet(f"i{n}", resilience=5, defence=6, alibi=f"ALIBI-{n}") for n in range(1, 19)},
    "murderers_investigators": {
        1: _sheet("m1", role="murderer", lying=4, defence=6),
        2: _sheet("v2", role="investigator", survival=4),
        3: _sheet("v3", role="investigator", survival=6),
        4: _sheet("m4", role="murderer", lying=5, defence=5),
        5: _sheet("v5", role="investigator", survival=5),
    },
}

HANDLES = ["w1", "w2", "w3", "w4", "m1", "m2", "i1", "i2", "g1", "g2"]


def scenario(handles=HANDLES, world=WORLD, characters=CHARACTERS):
    return Scenario(copy.deepcopy(world), copy.deepcopy(characters), {h: {"character": h.upper()} for h in handles})


def P(role, room, sheet=1, status="alive", turns_here=1, companions=(), **scores):
    lot = "innocents" if role == "innocent" else "second"
    defaults = {"innocent": {"resilience": 5, "defence": 6}, "murderer": {"lying": 4, "defence": 6},
                "investigator": {"survival": 4}}[role]
    return {"role": role, "lot": lot, "sheet": sheet, "scores": {**defaults, **scores}, "status": status,
            "room": room if status == "alive" else None, "turns_here": turns_here, "companions": list(companions),
            "prison": None, "died": None if status != "dead" else {"turn": 1, "room": room, "cause": "trap"},
            "warnings": []}


def make_state(players: dict, turn=1, traps=None):
    """A state after turn `turn`; play order = the dict's order. A game with no
    murderer is over, so one (`mz`, in room d) is added when none is given."""
    if not any(p["role"] == "murderer" for p in players.values()):
        players = {**players, "mz": P("murderer", "d")}
    order = list(players)
    state = {"turn": turn, "over": False, "winner": None,
             "witness_order": [h for h in order if players[h]["role"] != "investigator"],
             "play_order": order, "players": copy.deepcopy(players), "traps": copy.deepcopy(traps or {})}
    return state


def orders_of(player, actions, turn, default=False):
    return PlayerOrders(player, turn, [Action(a, arg, i) for i, (a, arg) in enumerate(actions)], default=default)


def play(state, orders=None, forced=None, rules=None, handles=None, check=True):
    """Resolve the next turn; returns (new state, events, dice log by label)."""
    rs = Murder(rules)
    sc = scenario(handles or list(state["players"]))
    turn = state["turn"] + 1
    built = {}
    for h in state["players"]:
        acts = (orders or {}).get(h)
        # a player with no orders gets the default orders, as the core does
        built[h] = orders_of(h, acts or [], turn, default=acts is None)
        if check:
            assert rs.check_orders(state, sc, built[h]) == [], (h, rs.check_orders(state, sc, built[h]))
    dice = Dice("secret", turn, dict(forced or {}))
    res = rs.resolve(copy.deepcopy(state), sc, built, None, dice)
    return res.state, res.events, {r.label: r for r in dice.log}


def refusals(state, player, actions, rules=None, default=False):
    rs = Murder(rules)
    sc = scenario(list(state["players"]))
    return rs.check_orders(state, sc, orders_of(player, actions, state["turn"] + 1, default))


def kinds(events, audience=None):
    return [e.kind for e in events if audience is None or e.audience == audience]


def only(events, kind):
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, (kind, [e.kind for e in events])
    return found[0]


# -- the board ----------------------------------------------------------------------

def test_board_shortest_paths_and_lookup():
    board = Board(WORLD)
    assert board.path("hall", "c") == (["hall", "a", "b", "c"], [0, 3, 7, 9])
    assert board.path("hall", "e") == (["hall", "a", "d", "e"], [0, 3, 9, 12])
    assert board.distance("c", "hall") == 9
    assert board.lookup("salle a") == "a" and board.lookup("SALLE-B") == "b" and board.lookup("Hall") == "hall"
    assert board.lookup("cuisine") is None
    assert board.neighbours("a") == ["hall", "b", "d"]


def test_validate_scenario_reports_board_and_sheet_problems():
    world = copy.deepcopy(WORLD)
    world["passages"].append(["c", "cave", 2])
    world["rooms"]["island"] = {"name": "Île"}
    chars = copy.deepcopy(CHARACTERS)
    chars["innocents"][3]["defence"] = 11
    del chars["innocents"][4]["alibi"]
    chars["murderers_investigators"][2]["role"] = "innocent"
    problems = Murder().validate_scenario(scenario(world=world, characters=chars))
    assert [(p.key, p.file, p.params["at"]) for p in problems] == [
        ("murder.world_unknown_room", "world.yaml", ("passages", 6)),
        ("murder.chars_bad_score", "characters.yaml", ("innocents", 3, "defence")),
        ("murder.chars_missing_field", "characters.yaml", ("innocents", 4, "alibi")),
        ("murder.chars_bad_role", "characters.yaml", ("murderers_investigators", 2, "role")),
    ]
    assert all(isinstance(p, InputError) for p in problems)
    assert [p.text("en") for p in problems] == [
        "world.yaml: passage #7 names an unknown room `cave`. Valid values: hall, a, b, c, d, e, island.",
        "characters.yaml: sheet `innocents.3`: the score `defence` (11) must be a whole number from 1 to 10.",
        "characters.yaml: sheet `innocents.4`: `alibi` is missing.",
        "characters.yaml: sheet `murderers_investigators.2`: invalid role `innocent` in this lot. "
        "Valid values: murderer, investigator.",
    ]
    world = copy.deepcopy(WORLD)
    world["rooms"]["island"] = {"name": "Île"}
    assert [p.key for p in Murder().validate_scenario(scenario(world=world))] == ["murder.world_disconnected"]
    assert Murder().validate_scenario(scenario(["w1", "w2", "w3", "m1", "i1"])) == []
    assert [p.key for p in Murder().validate_scenario(scenario())] == ["murder.not_enough_rooms"]


def test_validate_scenario_needs_an_innocent_and_rooms():
    problems = Murder({"composition": {"murderers": 1, "investigators": 1}}).validate_scenario(scenario(["a", "b"]))
    assert [p.key for p in problems] == ["murder.too_few_players"]
    problems = Murder({"composition": {"murderers": 0, "investigators": 1}}).validate_scenario(scenario())
    assert [p.key for p in problems] == ["murder.composition_bad"]


# -- set-up ---------------------------------------------------------------------------

def test_setup_draws_the_second_lot_first_rerolling_taken_sheets_and_filled_roles():
    rs = Murder({"composition": {"murderers": 1, "investigators": 2}, "draw_order": ["w1", "w2", "w3", "w4"],
                 "witness_order": ["w4", "w3"]})
    sc = scenario(["w1", "w2", "w3", "w4", "m1"])
    dice = Dice("s", 0, {"w1.fiche": 3, "w2.fiche": 3, "w2.fiche.2": 1, "w3.fiche": 4, "w3.fiche.2": 2,
                         "w4.fiche": 2, "w4.fiche.2": [3, 4], "m1.fiche": [1, 1], "m1.fiche.2": [5, 6],
                         "m1.placement": 2})
    res = rs.setup(sc, dice)
    p = res.state["players"]
    # w1: investigator #3; w2: #3 taken -> #1 murderer; w3: #4 is a murderer, murderers full -> #2 investigator
    assert (p["w1"]["role"], p["w1"]["sheet"], p["w1"]["lot"]) == ("investigator", 3, "second")
    assert (p["w2"]["role"], p["w2"]["sheet"]) == ("murderer", 1)
    assert (p["w3"]["role"], p["w3"]["sheet"]) == ("investigator", 2)
    # then 2d9 in the innocent lot: w4 rolls 2 (2d9 total 2 = sheet 2)...
    assert (p["w4"]["role"], p["w4"]["sheet"], p["w4"]["lot"]) == ("innocent", 2, "innocents")
    # ...and m1's 1+1 = 2 is taken: re-rolled to 5+6 = 11
    assert (p["m1"]["role"], p["m1"]["sheet"]) == ("innocent", 11)
    assert p["w1"]["scores"] == {"survival": 6} and p["w2"]["scores"] == {"lying": 4, "defence": 6}
    labels = [r.label for r in dice.log]
    assert labels[:2] == ["w1.fiche", "w2.fiche"] and "w2.fiche.2" in labels and "m1.fiche.2" in labels
    assert [r.expr for r in dice.log if r.label.startswith("m1.fiche")] == ["2d9", "2d9"]
    draws = [e for e in res.events if e.kind == "draw"]
    assert all(e.audience == ev.GM for e in draws) and len(draws) == 5
    # order of play: the fixed witnesses first (w4, then w2 the murderer; w3 is an investigator),
    # the others drawn, then investigators by ascending sheet number (w3 #2 before w1 #3)
    order = res.state["play_order"]
    assert order[:2] == ["w4", "w2"] and order[-2:] == ["w3", "w1"] and set(order[2:3]) == {"m1"}


def test_setup_places_investigators_in_the_hall_and_one_witness_per_room():
    # w3 and w4 draw the investigators' sheets 2 and 3, m1 the murderer's: w1 and w2 are witnesses
    rs = Murder({"composition": {"murderers": 1, "investigators": 2}, "draw_order": ["w3", "w4", "m1"]})
    world = copy.deepcopy(WORLD)
    world["start"] = {"w1": "Salle C", "w2": "e"}
    sc = scenario(["w1", "w2", "w3", "w4", "m1"], world=world)
    res = rs.setup(sc, Dice("s", 0, {"w3.fiche": 2, "w4.fiche": 3, "m1.fiche": 1, "m1.placement": 1}))
    p = res.state["players"]
    investigators = ["w3", "w4"]
    assert {h: p[h]["role"] for h in p} == {"w1": "innocent", "w2": "innocent", "w3": "investigator",
                                            "w4": "investigator", "m1": "murderer"}
    # the MJ's placements (by name or id), the hall for the investigators, a drawn free room for the rest
    assert {h: p[h]["room"] for h in p} == {"w1": "c", "w2": "e", "w3": "hall", "w4": "hall", "m1": "a"}
    # the investigators share the hall: they are each other's companions at turn 0
    assert p["w3"]["companions"] == ["w4"] and p["w4"]["companions"] == ["w3"] and p["w1"]["companions"] == []
    public = [e for e in res.events if e.audience == ev.PUBLIC]
    setup = only(public, "setup")
    assert sorted(i["player"] for i in setup.data["investigators"]) == sorted(investigators)
    assert all(set(i) == {"player", "survival"} for i in setup.data["investigators"])
    sheets = [e for e in res.events if e.kind == "sheet"]
    assert sorted(e.audience.handles for e in sheets) == [(h,) for h in sorted(p)]


def test_setup_refuses_a_composition_the_lots_cannot_fill():
    rs = Murder({"composition": {"murderers": 3, "investigators": 1}})
    with pytest.raises(PbpError) as err:
        rs.setup(scenario(["a", "b", "c", "d", "e"]), Dice("s", 0, {}))
    assert err.value.key == "murder.composition_infeasible"
    assert "murderer" in err.value.text("en")


def test_setup_murderers_know_their_accomplices():
    rs = Murder({"composition": {"murderers": 2, "investigators": 1}, "draw_order": ["a", "b", "c"]})
    res = rs.setup(scenario(["a", "b", "c", "d"]), Dice("s", 0, {"a.fiche": 1, "b.fiche": 4, "c.fiche": 2}))
    sheet = {e.audience[0]: e for e in res.events if e.kind == "sheet"}
    assert sheet["a"].data["accomplices"] == ["b"] and sheet["b"].data["accomplices"] == ["a"]
    assert sheet["c"].data["accomplices"] == [] and sheet["d"].data["alibi"].startswith("ALIBI-")


# -- movement --------------------------------------------------------------------------------

def test_witness_moves_2d6_along_the_shortest_path_as_far_as_the_roll_allows():
    state = make_state({"w1": P("innocent", "hall"), "i1": P("investigator", "e")})
    new, events, rolls = play(state, {"w1": [("deplacer", "c")]}, {"w1.deplacement": 8})
    assert rolls["w1.deplacement"].expr == "2d6"
    assert new["players"]["w1"]["room"] == "b"  # a at 3, b at 7, c at 9 > 8
    moved = only(events, "moved")
    assert moved.audience == ev.PUBLIC and moved.data["path"] == ["Hall", "Salle A", "Salle B"]
    detail = only(events, "move_detail")
    assert detail.audience == ev.Players("w1")
    assert detail.data["reason"] == "short" and detail.data["destination"] == "Salle C"
    new, events, _ = play(state, {"w1": [("deplacer", "c")]}, {"w1.deplacement": 9})
    assert new["players"]["w1"]["room"] == "c" and only(events, "move_detail").data["reason"] == "arrived"


def test_investigator_moves_2d8():
    state = make_state({"w1": P("innocent", "e"), "i1": P("investigator", "hall")})
    new, _, rolls = play(state, {"i1": [("deplacer", "e")]}, {"i1.deplacement": 12})
    assert rolls["i1.deplacement"].expr == "2d8" and new["players"]["i1"]["room"] == "e"


def test_a_roll_too_short_for_the_first_room_leaves_the_player_in_place():
    state = make_state({"w1": P("innocent", "a"), "i1": P("investigator", "e")})
    new, events, _ = play(state, {"w1": [("deplacer", "d")]}, {"w1.deplacement": 5})
    assert new["players"]["w1"]["room"] == "a" and new["players"]["w1"]["turns_here"] == 2
    stayed = [e for e in events if e.kind == "stayed" and e.data["player"] == "w1"][0]
    assert stayed.audience == ev.PUBLIC and stayed.data["roll"].total == 5


def test_witness_cannot_enter_a_room_holding_more_than_two_players_investigators_can():
    # x, y, z just met in b (no companions of last turn: nobody has to leave)
    players = {"x": P("innocent", "b"), "y": P("innocent", "b"), "z": P("investigator", "b"),
               "w1": P("innocent", "hall", companions=["i1"]), "i1": P("investigator", "hall", companions=["w1"])}
    state = make_state(players)
    # at check time: naming the full room is refused for a witness, with the rooms that would do
    refused = refusals(state, "w1", [("deplacer", "b")])
    assert [r.key for r in refused] == ["room_full"] and refused[0].at == ("actions", 0)
    assert refused[0].params["count"] == 3 and "Salle B" not in refused[0].params["valid"]
    assert refusals(state, "i1", [("deplacer", "b")]) == []
    # on the way: the witness stops before the full room; the investigator walks through it
    new, events, _ = play(state, {"w1": [("deplacer", "c")], "i1": [("deplacer", "c")]},
                          {"w1.deplacement": 12, "i1.deplacement": 12})
    assert new["players"]["w1"]["room"] == "a"
    assert [e.data["reason"] for e in events
            if e.kind == "move_detail" and e.audience == ev.Players("w1")] == ["blocked"]
    assert new["players"]["i1"]["room"] == "c"


def test_moves_are_checked_against_positions_at_that_moment():
    # b holds two players at check time (legal for both witnesses), w1 plays first and fills it
    players = {"w1": P("innocent", "a"), "w2": P("innocent", "c"), "x": P("innocent", "b"),
               "y": P("investigator", "b"), "i1": P("investigator", "e")}
    state = make_state(players)
    assert refusals(state, "w2", [("deplacer", "b")]) == []
    new, events, _ = play(state, {"w1": [("deplacer", "b")], "w2": [("deplacer", "b")]},
                          {"w1.deplacement": 6, "w2.deplacement": 6})
    assert new["players"]["w1"]["room"] == "b" and new["players"]["w2"]["room"] == "c"
    detail = [e for e in events if e.kind == "move_detail" and e.audience == ev.Players("w2")][0]
    assert detail.data["reason"] == "blocked"
    # order of play: w1 moves before w2 in the events
    assert [e.data["player"] for e in events if e.kind in ("moved", "stayed")][:2] == ["w1", "w2"]


def test_nobody_stays_more_than_two_turns_in_a_room():
    state = make_state({"w1": P("innocent", "a", turns_here=2), "i1": P("investigator", "e")})
    refused = refusals(state, "w1", [])
    assert [r.key for r in refused] == ["stayed_too_long"] and refused[0].at == ("actions",)
    assert refused[0].params["turns"] == 2 and "Salle B" in refused[0].params["valid"]
    assert refusals(state, "w1", [("deplacer", "b")]) == []
    # a player who sent nothing gets the default orders: the rules move them to the nearest room
    assert refusals(state, "w1", [], default=True) == []
    new, events, rolls = play(state)
    assert new["players"]["w1"]["room"] == "hall" and "w1.deplacement" not in rolls
    moved = only(events, "moved")
    assert moved.data["forced"] is True and moved.data["path"] == ["Salle A", "Hall"]
    assert only(events, "move_detail").data["obliged"] == "stay"
    # a move whose roll falls short still takes them out, one room
    new, events, _ = play(state, {"w1": [("deplacer", "d")]}, {"w1.deplacement": 2})
    detail = only(events, "move_detail").data
    assert new["players"]["w1"]["room"] == "hall" and (detail["reason"], detail["forced"]) == ("short", True)


def test_stay_counter_counts_turns_in_the_same_room():
    state = make_state({"w1": P("innocent", "a", turns_here=1), "i1": P("investigator", "e", turns_here=1)})
    new, _, _ = play(state, {"i1": [("deplacer", "d")]}, {"i1.deplacement": 3})
    assert new["players"]["w1"]["turns_here"] == 2 and new["players"]["i1"]["turns_here"] == 1


def test_same_two_players_never_together_two_turns_in_a_row():
    # w1 and w2 shared room a last turn: w1 plays first and stays, so w2 must leave
    players = {"w1": P("innocent", "a", companions=["w2"]), "w2": P("innocent", "a", companions=["w1"]),
               "i1": P("investigator", "e")}
    state = make_state(players)
    new, events, _ = play(state)
    assert new["players"]["w1"]["room"] == "a" and new["players"]["w2"]["room"] == "hall"
    assert [e.data["obliged"] for e in events if e.kind == "move_detail"] == ["companion"]
    # if w1 leaves, w2 may stay
    new, _, _ = play(state, {"w1": [("deplacer", "b")]}, {"w1.deplacement": 4})
    assert new["players"]["w2"]["room"] == "a"
    # a mover never stops in a room holding last turn's companion: w2 stops before b
    new, events, _ = play(state, {"w1": [("deplacer", "b")], "w2": [("deplacer", "c")]},
                          {"w1.deplacement": 4, "w2.deplacement": 4})
    assert new["players"]["w1"]["room"] == "b" and new["players"]["w2"]["room"] == "a"
    assert [e.data["reason"] for e in events
            if e.kind == "move_detail" and e.audience == ev.Players("w2")] == ["companion"]
    new, events, _ = play(state, {"w1": [("deplacer", "c")], "w2": [("deplacer", "c")]},
                          {"w1.deplacement": 6, "w2.deplacement": 12})
    assert new["players"]["w1"]["room"] == "c" and new["players"]["w2"]["room"] == "b"
    assert [e.data["reason"] for e in events
            if e.kind == "move_detail" and e.audience == ev.Players("w2")] == ["companion"]
    assert new["players"]["w2"]["companions"] == [] and new["players"]["w1"]["companions"] == []


def test_order_of_play_witnesses_then_investigators():
    rs = Murder({"composition": {"murderers": 1, "investigators": 2}, "witness_order": ["w3", "w1", "w2"]})
    res = rs.setup(scenario(["w1", "w2", "w3", "m1", "i1"]), Dice("s", 0, {}))
    order = res.state["play_order"]
    p = res.state["players"]
    witnesses = [h for h in order if p[h]["role"] != "investigator"]
    investigators = [h for h in order if p[h]["role"] == "investigator"]
    assert order == witnesses + investigators
    fixed = [h for h in ["w3", "w1", "w2"] if h in witnesses]  # the listed witnesses first, in that order
    assert fixed and witnesses[:len(fixed)] == fixed
    assert [p[h]["sheet"] for h in investigators] == sorted(p[h]["sheet"] for h in investigators)


# -- traps ---------------------------------------------------------------------------------

def _trap_state():
    return make_state({"w1": P("innocent", "hall", defence=6), "m1": P("murderer", "c"),
                       "m2": P("murderer", "e"), "i1": P("investigator", "d", survival=4),
                       "g1": P("innocent", "a", status="dead")})


def test_a_murderer_alone_sets_a_trap_and_the_other_murderers_are_told_privately():
    state = _trap_state()
    new, events, _ = play(state, {"m1": [("pieger", None), ("deplacer", "b")]}, {"m1.deplacement": 2})
    assert new["traps"] == {"c": {"by": "m1", "turn": 2}}
    trap = only(events, "trap_set")
    assert trap.audience == ev.Players("m1", "m2") and trap.data["room"] == "Salle C"
    assert not any("trap" in e.kind for e in events if e.audience == ev.PUBLIC)
    situation = {e.audience[0]: e.data for e in events if e.kind == "situation"}
    assert situation["m2"]["traps"] == ["Salle C"] and situation["w1"]["traps"] == []


def test_setting_a_trap_is_refused_when_not_alone_or_not_a_murderer():
    state = _trap_state()
    state["players"]["w1"]["room"] = "c"
    refused = refusals(state, "m1", [("deplacer", "b"), ("pieger", None)])
    assert [r.key for r in refused] == ["trap_not_alone"] and refused[0].at == ("actions", 1)
    assert refused[0].params["others"] == ["W1"]
    assert [r.key for r in refusals(state, "w1", [("pieger", None)])] == ["not_murderer"]
    state["players"]["w1"]["room"] = "hall"
    state["traps"] = {"c": {"by": "m2", "turn": 1}}
    assert [r.key for r in refusals(state, "m1", [("pieger", None)])] == ["already_trapped"]


def test_a_trap_set_then_someone_walks_in_before_the_murderer_plays_fails():
    state = make_state({"w1": P("innocent", "b"), "m1": P("murderer", "c"), "i1": P("investigator", "e")})
    new, events, _ = play(state, {"w1": [("deplacer", "c")], "m1": [("pieger", None)]}, {"w1.deplacement": 2})
    assert new["traps"] == {}
    failed = only(events, "trap_failed")
    assert failed.audience == ev.Players("m1") and failed.data["reason"] == "not_alone"


@pytest.mark.parametrize("roll,survives", [(5, False), (6, True)])
def test_a_trap_fires_on_the_next_player_entering_the_empty_room(roll, survives):
    state = _trap_state()
    state["traps"] = {"b": {"by": "m1", "turn": 1}}
    new, events, rolls = play(state, {"w1": [("deplacer", "b")]}, {"w1.deplacement": 7, "w1.piege": roll})
    assert rolls["w1.piege"].expr == "1d10"
    assert new["traps"] == {}  # spent either way
    w1 = new["players"]["w1"]
    assert (w1["status"] == "alive") is survives
    fired = only(events, "trap_fired")
    assert fired.audience == ev.PUBLIC and fired.data["survived"] is survives
    assert fired.data["roll"] is None and fired.data["score"] is None  # a witness's defence is secret
    private = only(events, "trap_roll")
    assert private.audience == ev.Players("w1")
    assert private.data["score"] == 6 and private.data["score_name"] == "defence"
    if not survives:
        assert w1["died"] == {"turn": 2, "room": "b", "cause": "trap"} and w1["room"] is None
        assert "w1" in [d["player"] for d in only(events, "positions").data["dead"]]


def test_an_investigator_survives_on_1d10_at_least_survival_shown_publicly():
    state = _trap_state()
    state["traps"] = {"e": {"by": "m1", "turn": 1}}
    state["players"]["m2"]["room"] = "c"
    new, events, _ = play(state, {"i1": [("deplacer", "e")]}, {"i1.deplacement": 3, "i1.piege": 4})
    assert new["players"]["i1"]["status"] == "alive"
    fired = only(events, "trap_fired")
    assert fired.data["roll"].total == 4 and fired.data["score"] == 4 and fired.data["survived"]
    new, _, _ = play(state, {"i1": [("deplacer", "e")]}, {"i1.deplacement": 3, "i1.piege": 3})
    assert new["players"]["i1"]["status"] == "dead"


def test_a_trap_does_not_fire_in_an_occupied_room_and_a_crossed_room_fires():
    state = _trap_state()
    state["traps"] = {"c": {"by": "m1", "turn": 1}}
    new, events, rolls = play(state, {"w1": [("deplacer", "c")]}, {"w1.deplacement": 9})
    assert new["players"]["w1"]["room"] == "c" and new["traps"] == {"c": {"by": "m1", "turn": 1}}
    assert "w1.piege" not in rolls and "trap_fired" not in kinds(events)
    # crossing an armed, empty room sets it off and ends the move there
    state["traps"] = {"b": {"by": "m1", "turn": 1}}
    new, events, _ = play(state, {"w1": [("deplacer", "c")]}, {"w1.deplacement": 9, "w1.piege": 9})
    assert new["players"]["w1"]["room"] == "b" and new["traps"] == {}
    assert only(events, "move_detail").data["reason"] == "trap"
    assert kinds(events, ev.PUBLIC).index("moved") < kinds(events, ev.PUBLIC).index("trap_fired")


# -- ghosts -------------------------------------------------------------------------------

def test_an_innocent_ghost_learns_whether_a_room_is_armed_and_warns_within_1d20_plus_5():
    state = _trap_state()
    state["traps"] = {"c": {"by": "m1", "turn": 1}}
    state["players"]["m1"]["room"] = "e"
    state["players"]["m2"]["room"] = "d"
    state["players"]["i1"]["room"] = "b"
    haunt = [("hanter", {"salle": "c", "avertir": "w1"})]
    # hall -> c is 9 squares: warned on 9, not on 8
    new, events, rolls = play(state, {"g1": haunt}, {"g1.portee": 9})
    assert rolls["g1.portee"].expr == "1d20+5"
    h = only(events, "haunt")
    assert h.audience == ev.Players("g1") and h.data["armed"] and h.data["warned"] and h.data["distance"] == 9
    assert only(events, "warning").audience == ev.Players("w1")
    assert new["players"]["w1"]["warnings"] == ["c"]
    assert not any(e.kind in ("haunt", "warning") for e in events if e.audience == ev.PUBLIC)
    new2, events, _ = play(state, {"g1": haunt}, {"g1.portee": 8})
    assert only(events, "haunt").data["reason"] == "too_far" and "warning" not in kinds(events)
    # the warned player who walks into the room disarms it, no roll; the murderers are told
    new3, events, rolls = play(new, {"w1": [("deplacer", "c")]}, {"w1.deplacement": 9})
    assert new3["traps"] == {} and new3["players"]["w1"]["status"] == "alive" and "w1.piege" not in rolls
    assert only(events, "disarmed").audience == ev.Players("w1")
    assert only(events, "trap_disarmed").audience == ev.Players("m1", "m2")
    # a room with no trap: told so, no roll, no warning
    _, events, rolls = play(state, {"g1": [("hanter", {"salle": "d", "avertir": "w1"})]})
    assert not only(events, "haunt").data["armed"] and "g1.portee" not in rolls


def test_a_murderer_ghost_possesses_an_innocent_who_dies_entering_an_armed_room():
    state = _trap_state()
    state["players"]["m2"] = P("murderer", "e", status="dead")
    state["traps"] = {"b": {"by": "m1", "turn": 1}}
    possess = [("posseder", {"cible": "w1", "salle": "c"})]
    assert refusals(state, "m2", possess) == []
    new, events, rolls = play(state, {"m2": possess}, {"m2.possession": 10})
    assert rolls["m2.possession"].expr == "1d10" and "w1.piege" not in rolls
    w1 = new["players"]["w1"]
    assert w1["status"] == "dead" and w1["died"]["room"] == "b" and new["traps"] == {}
    public = kinds(events, ev.PUBLIC)
    assert public.index("sleepwalk") < public.index("trap_fired")
    assert only(events, "sleepwalk").data == {"player": "w1", "path": ["Hall", "Salle A", "Salle B"], "steps": [3, 4]}
    assert only(events, "possession").audience == ev.Players("m2")
    assert only(events, "possessed").audience == ev.Players("w1")
    # with no trap on the way, 1d10 squares at most
    state["traps"] = {}
    new, _, _ = play(state, {"m2": possess}, {"m2.possession": 6})
    assert new["players"]["w1"]["room"] == "a" and new["players"]["w1"]["turns_here"] == 1


def test_ghost_orders_are_checked():
    state = _trap_state()
    state["players"]["m2"] = P("murderer", "e", status="dead")

    def refused(player, action, arg):
        return [(r.key, r.at) for r in refusals(state, player, [(action, arg)])]

    cible, salle, avertir = ("actions", 0, "cible"), ("actions", 0, "salle"), ("actions", 0, "avertir")
    assert refused("m2", "posseder", {"cible": "i1", "salle": "c"}) == [("possess_not_innocent", cible)]
    assert refused("m2", "posseder", {"cible": "w1", "salle": "hall"}) == [("possess_same_room", salle)]
    assert refused("m2", "posseder", {"cible": "w1", "salle": "cave"}) == [("unknown_room", salle)]
    assert refused("m2", "posseder", {"cible": None, "salle": "c"}) == [("target_missing", ("actions", 0))]
    assert refused("m2", "posseder", {"cible": "w1", "salle": None}) == [("room_missing", ("actions", 0))]
    assert refused("g1", "posseder", {"cible": "w1", "salle": "c"}) == [("dead_action", ("actions", 0))]
    assert refused("g1", "deplacer", "c") == [("dead_action", ("actions", 0))]
    assert refused("w1", "hanter", {"salle": "c"}) == [("not_a_ghost", ("actions", 0))]
    assert refused("g1", "hanter", {"salle": "cave"}) == [("unknown_room", salle)]
    assert refused("g1", "hanter", {"salle": "c", "avertir": "g1"}) == [("warn_not_on_board", avertir)]
    assert refused("g1", "hanter", {"salle": "c", "avertir": "w1"}) == []


@pytest.mark.parametrize("lang, arg, line, message", [
    ("fr", "\n      salle: c\n      avertir: g1", 6,
     "on ne peut avertir « G1 » : seul un autre joueur vivant sur le plateau peut l'être. "
     "Valeurs possibles : W1, M1, M2, I1."),
    # the English spellings of the fields are read as the French ones; the line is the action's
    ("en", " {room: c, warn: g1}", 4,
     "`G1` cannot be warned: only another living player on the board can be. Valid values: W1, M1, M2, I1."),
    # a misspelt room: the suggestion is compared as rooms are looked up (case and accents aside)
    ("fr", "\n      salle: sale b", 5,
     "pièce inconnue « sale b ». Vouliez-vous dire « Salle B » ? Valeurs possibles : Hall, Salle A, Salle B, "
     "Salle C, Salle D, Salle E."),
])
def test_a_ghosts_refusal_names_the_line_of_its_field(lang, arg, line, message):
    state = _trap_state()
    rs, sc = Murder(), scenario(list(_trap_state()["players"]))
    text = f"player: g1\nturn: 2\nactions:\n  - {'hanter' if lang == 'fr' else 'haunt'}:{arg}\n"
    parsed, errors = od.parse_player_orders(text, "g1.yaml", ruleset=rs, scenario=sc, turn=2, expected_player="g1")
    assert errors == [] and parsed.actions[0].id == "hanter" and set(parsed.actions[0].arg) == {"salle", "avertir"}
    errors = od.check_rules(parsed, state, rs, sc)
    assert [e.text(lang) for e in errors] == [f"g1.yaml:{line}: {message}"]


# -- interrogation ----------------------------------------------------------------------------

def _interrogation_state(**w1):
    return make_state({"w1": P("innocent", "a", resilience=5, sheet=7, **w1), "w2": P("innocent", "d"),
                       "m1": P("murderer", "e"), "i1": P("investigator", "a")})


def test_alone_with_the_investigator_an_innocent_must_tell_the_truth():
    state = _interrogation_state()
    _, events, rolls = play(state, {"i1": [("interroger", "w1")]})
    assert not any(label.endswith(".verite") for label in rolls)
    told = only(events, "interrogated")
    assert told.audience == ev.Players("w1") and told.data["instruction"] == "truth" and told.data["roll"] is None
    public = only(events, "interrogation")
    assert public.audience == ev.PUBLIC and public.data == {"investigator": "i1", "witness": "w1",
                                                             "room": "Salle A", "others": []}
    gm = only(events, "interrogation_gm")
    assert gm.audience == ev.GM and gm.data["alibi"] == "ALIBI-7" and gm.data["role"] == "innocent"
    assert only(events, "interrogation_report").audience == ev.Players("i1")


@pytest.mark.parametrize("roll,instruction", [(5, "no_truth"), (4, "truth")])
def test_in_front_of_another_witness_the_innocent_rolls_1d10_against_resilience(roll, instruction):
    state = _interrogation_state()
    state["players"]["w2"]["room"] = "a"
    _, events, rolls = play(state, {"i1": [("interroger", "w1"), ("deplacer", "b")]},
                            {"w1.verite": roll, "i1.deplacement": 4})
    assert rolls["w1.verite"].expr == "1d10"
    told = only(events, "interrogated")
    assert told.data["instruction"] == instruction and told.data["score"] == 5
    assert only(events, "interrogation").data["others"] == ["w2"]
    # the interrogation happens before the investigator's move
    public = kinds(events, ev.PUBLIC)
    assert public.index("interrogation") < public.index("moved")


def test_a_murderer_answers_as_they_please():
    state = _interrogation_state()
    state["players"]["m1"]["room"] = "a"
    state["players"]["w1"]["room"] = "d"
    state["players"]["w2"]["room"] = "a"
    _, events, rolls = play(state, {"i1": [("interroger", "m1")]}, {"m1.verite": 1})
    told = only(events, "interrogated")
    assert told.data["instruction"] == "free" and told.data["score"] is None
    assert only(events, "interrogation_gm").data["alibi"] is None


def test_interrogation_needs_the_witness_in_the_same_room():
    state = _interrogation_state()
    refused = refusals(state, "i1", [("deplacer", "d"), ("interroger", "w2")])
    assert [r.key for r in refused] == ["interrogate_other_room"]
    assert refused[0].at == ("actions", 1) and refused[0].params["their_room"] == "Salle D"
    assert refused[0].params["valid"] == ["W1"]
    assert [r.key for r in refusals(state, "w2", [("interroger", "w1")])] == ["not_investigator"]
    state["players"]["i2"] = P("investigator", "a")
    assert [r.key for r in refusals(state, "i1", [("interroger", "i2")])] == ["interrogate_investigator"]
    # the witness left before the investigator's turn: the interrogation is missed
    state = _interrogation_state()
    _, events, _ = play(state, {"w1": [("deplacer", "b")], "i1": [("interroger", "w1")]}, {"w1.deplacement": 4})
    assert "interrogation_missed" in kinds(events, ev.PUBLIC) and "interrogated" not in kinds(events)


# -- accusation and prison ---------------------------------------------------------------------

def _court_state(turn=4):
    return make_state({"w1": P("innocent", "a", defence=6), "w2": P("innocent", "b"),
                       "m1": P("murderer", "c", lying=4), "i1": P("investigator", "d", sheet=2),
                       "i2": P("investigator", "e", sheet=3)}, turn=turn)


def test_accusation_only_on_turns_5_10_15():
    state = _court_state(turn=3)
    refused = refusals(state, "i1", [("accuser", "w1")])
    assert [r.key for r in refused] == ["accusation_off_day"] and refused[0].params == {"turn": 4, "every": 5,
                                                                                        "next": 5}
    assert refusals(_court_state(turn=4), "i1", [("accuser", "w1")]) == []
    assert refusals(_court_state(turn=9), "i1", [("accuser", "w1")]) == []
    assert [r.key for r in refusals(_court_state(), "w2", [("accuser", "w1")])] == ["not_investigator"]
    assert [r.key for r in refusals(_court_state(), "i1", [("accuser", "i2")])] == ["accuse_investigator"]
    # the period is data: a campaign can make it every 3 turns
    assert refusals(_court_state(turn=2), "i1", [("accuser", "w1")], rules={"accusation_every": 3}) == []


def test_the_investigators_majority_sends_a_player_to_prison_a_tie_sends_nobody():
    new, events, _ = play(_court_state(), {"i1": [("accuser", "m1")], "i2": [("accuser", "m1")]})
    assert new["players"]["m1"]["status"] == "prison" and new["players"]["m1"]["room"] is None
    assert new["players"]["m1"]["prison"] == {"since": 5, "pleas": 0}
    acc = only(events, "accusation")
    assert acc.audience == ev.PUBLIC and acc.data["jailed"] == "m1" and not acc.data["tie"]
    new, events, _ = play(_court_state(), {"i1": [("accuser", "m1")], "i2": [("accuser", "w1")]})
    assert only(events, "accusation").data["jailed"] is None and only(events, "accusation").data["tie"]
    assert all(p["status"] == "alive" for p in new["players"].values())
    new, _, _ = play(_court_state(), {"i1": [("accuser", "w2")]})
    assert new["players"]["w2"]["status"] == "prison"


def _jailed(handle, since=5, pleas=0, turn=5):
    state = _court_state(turn=turn)
    p = state["players"][handle]
    p.update(status="prison", room=None, prison={"since": since, "pleas": pleas}, companions=[])
    return state


def test_each_turn_in_prison_an_innocent_pleads_1d10_against_defence():
    new, events, rolls = play(_jailed("w1"), forced={"w1.plaidoirie": 6})
    assert rolls["w1.plaidoirie"].expr == "1d10"
    w1 = new["players"]["w1"]
    assert w1["status"] == "alive" and w1["room"] == "hall" and w1["prison"] is None
    plea = only(events, "plea")
    assert plea.audience == ev.PUBLIC and plea.data["released"] and "roll" not in plea.data
    assert only(events, "plea_roll").data["score_name"] == "defence"
    new, events, _ = play(_jailed("w1"), forced={"w1.plaidoirie": 5})
    assert new["players"]["w1"]["status"] == "prison" and new["players"]["w1"]["prison"]["pleas"] == 1
    assert only(events, "plea").data["left"] == 2


def test_a_murderer_pleads_against_lying_and_prisoners_cannot_act():
    new, events, _ = play(_jailed("m1"), forced={"m1.plaidoirie": 4})
    assert new["players"]["m1"]["status"] == "alive"
    assert only(events, "plea_roll").data["score_name"] == "lying"
    assert [r.key for r in refusals(_jailed("m1"), "m1", [("deplacer", "a")])] == ["in_prison"]
    # jailed this turn: no plea before the next turn
    new, events, rolls = play(_court_state(), {"i1": [("accuser", "m1")]})
    assert "m1.plaidoirie" not in rolls


def test_after_three_failed_pleas_the_prisoner_is_executed_and_the_sheet_revealed():
    state = _jailed("w1", since=5, pleas=2, turn=7)
    new, events, _ = play(state, forced={"w1.plaidoirie": 1})
    w1 = new["players"]["w1"]
    assert w1["status"] == "dead" and w1["died"]["cause"] == "executed"
    executed = only(events, "executed")
    assert executed.audience == ev.PUBLIC
    assert executed.data["role"] == "innocent" and executed.data["alibi"] == "ALIBI-1"
    assert executed.data["scores"] == {"resilience": 5, "defence": 6} and executed.data["sheet"] == 1
    assert executed.data["story"] == "STORY-i1" and executed.data["job"] == "JOB-i1"
    # the prison length is data
    new, _, _ = play(_jailed("w1", pleas=0), forced={"w1.plaidoirie": 1}, rules={"prison": {"turns": 1}})
    assert new["players"]["w1"]["status"] == "dead"


# -- time and the end of the game ---------------------------------------------------------------

@pytest.mark.parametrize("turn,day,start,end,accusation", [
    (1, 1, 8, 10, False), (2, 1, 10, 12, False), (5, 1, 16, 18, True), (6, 2, 8, 10, False), (10, 2, 16, 18, True)])
def test_in_game_time(turn, day, start, end, accusation):
    clock = murder_rules.clock(Murder().rules, turn)
    assert (clock["day"], clock["start"], clock["end"], clock["accusation_day"]) == (day, start, end, accusation)


def test_clock_is_in_the_public_post_of_each_turn():
    _, events, _ = play(_court_state(turn=5))
    clock = only(events, "clock")
    assert clock.audience == ev.PUBLIC and (clock.data["day"], clock.data["start"]) == (2, 8)


def test_investigators_win_when_every_murderer_is_dead_or_executed():
    state = _court_state()
    state["players"]["m1"]["room"] = "hall"
    state["traps"] = {"a": {"by": "m1", "turn": 1}}
    state["players"]["w1"]["room"] = "b"
    state["players"]["w2"]["room"] = "e"
    state["players"]["i2"]["room"] = "c"
    new, events, _ = play(state, {"m1": [("deplacer", "a")]}, {"m1.deplacement": 3, "m1.piege": 1})
    assert new["over"] and new["winner"] == "investigators"
    over = only(events, "game_over")
    assert over.audience == ev.PUBLIC and over.data["winners"] == ["i1", "i2", "w1", "w2"]
    assert {s["player"]: s["role"] for s in over.data["sheets"]}["m1"] == "murderer"
    rs = Murder()
    assert rs.is_over(new) and rs.players_to_play(new, scenario(list(new["players"]))) == []
    assert "next" not in kinds(events)


def test_murderers_win_when_every_innocent_or_every_investigator_is_gone():
    state = make_state({"w1": P("innocent", "hall"), "m1": P("murderer", "c"), "i1": P("investigator", "e")},
                       traps={"a": {"by": "m1", "turn": 1}})
    new, events, _ = play(state, {"w1": [("deplacer", "a")]}, {"w1.deplacement": 3, "w1.piege": 1})
    assert new["winner"] == "murderers" and only(events, "game_over").data["reason"] == "innocents_gone"
    state = make_state({"w1": P("innocent", "b"), "m1": P("murderer", "c"), "i1": P("investigator", "hall")},
                       traps={"a": {"by": "m1", "turn": 1}})
    new, events, _ = play(state, {"i1": [("deplacer", "a")]}, {"i1.deplacement": 3, "i1.piege": 1})
    assert new["winner"] == "murderers" and only(events, "game_over").data["reason"] == "investigators_gone"
    assert only(events, "game_over").data["winners"] == ["m1"]


def test_dead_investigators_do_not_play_ghosts_and_prisoners_do():
    state = _jailed("w1")
    state["players"]["i2"] = P("investigator", "e", status="dead")
    state["players"]["w2"] = P("innocent", "b", status="dead")
    assert Murder().players_to_play(state, scenario(list(state["players"]))) == ["w1", "w2", "m1", "i1"]


# -- determinism, rules data ----------------------------------------------------------------------

def test_same_inputs_same_outputs():
    state = _trap_state()
    state["traps"] = {"b": {"by": "m1", "turn": 1}}
    orders = {"w1": [("deplacer", "c")], "i1": [("deplacer", "hall")], "g1": [("hanter", {"salle": "b"})]}
    first = play(state, orders)
    second = play(state, orders)
    assert [e.to_dict() for e in first[1]] == [e.to_dict() for e in second[1]] and first[0] == second[0]


def test_rules_numbers_come_from_data():
    state = make_state({"w1": P("innocent", "hall"), "i1": P("investigator", "e")})
    _, _, rolls = play(state, {"w1": [("deplacer", "c")]}, rules={"movement": {"witness": "3d4"}})
    assert rolls["w1.deplacement"].expr == "3d4"
    players = {"x": P("innocent", "b"), "y": P("innocent", "b"), "w1": P("innocent", "hall"),
               "i1": P("investigator", "e")}
    state = make_state(players)
    assert [r.key for r in refusals(state, "w1", [("deplacer", "b")], rules={"witness_room_limit": 1})] == \
        ["room_full"]
    state = make_state({"w1": P("innocent", "a", turns_here=2), "i1": P("investigator", "e")})
    assert refusals(state, "w1", [], rules={"max_stay": 3}) == []


def test_check_gm_refuses_unknown_orders():
    refused = Murder().check_gm(_court_state(), scenario(), type("G", (), {"orders": {"deplacer": 1}})())
    assert [(r.key, r.at) for r in refused] == [("unknown_gm_order", ("deplacer",))]


def test_legal_orders_all_pass_the_checks():
    rs = Murder()
    offered = set()
    for state in (_trap_state(), _court_state(), _jailed("m1"), _interrogation_state()):
        state["players"]["g2"] = P("murderer", "b", status="dead")
        sc = scenario(list(state["players"]))
        for h in state["players"]:
            options = rs.legal_orders(state, sc, h)
            assert options
            for actions in options:
                assert rs.check_orders(state, sc, PlayerOrders(h, state["turn"] + 1, actions)) == [], (h, actions)
                offered.update(a.id for a in actions)
    # the comparison meant something: between them the states offer every action of the ruleset
    assert offered == set(rs.actions)


# -- robustness: any order file gives refusals or a turn, never a crash ------------------------

_EXAMPLE = open_campaign(package_dir("campaigns") / "murder")
_WORDS = ["hall", "Salle de conférence", "cuisine", "alice", "margot", "bruno", "Chloé Vidal", "personne", 3, None]
_ARGS = st.one_of(st.sampled_from(_WORDS), st.dictionaries(
    st.sampled_from(["salle", "room", "avertir", "warn", "cible", "target", "autre"]), st.sampled_from(_WORDS),
    max_size=3), st.lists(st.sampled_from(_WORDS), max_size=2))
_ACTIONS = st.lists(st.tuples(st.sampled_from(["deplacer", "move", "pieger", "interroger", "accuser", "accuse",
                                               "hanter", "posseder", "possess", "voler"]), _ARGS), max_size=4)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(player=st.sampled_from(sorted(_EXAMPLE.roster)), actions=_ACTIONS, turn=st.sampled_from([4, 8]))
def test_any_order_file_is_refused_cleanly_or_resolves(player, actions, turn):
    campaign, rs, sc = _EXAMPLE, _EXAMPLE.ruleset, _EXAMPLE.scenario
    state = campaign.state(turn)
    items = [{name: arg} if arg is not None else name for name, arg in actions]
    text = yamlio.dumps({"player": player, "turn": turn + 1, "actions": items})
    parsed, errors = od.parse_player_orders(text, "x.yaml", ruleset=rs, scenario=sc, turn=turn + 1,
                                            expected_player=player)
    if not errors:
        errors = od.check_rules(parsed, state, rs, sc)
    for e in errors:
        assert e.file == "x.yaml" and i18n.has(e.key), e.key  # a real message, in fr and en
        assert e.text("fr") != e.text("en")  # both languages render (a missing parameter would raise)
    if not errors and player in rs.players_to_play(state, sc):
        orders = {h: od.default_orders(rs, sc, h, turn + 1) for h in rs.players_to_play(state, sc)}
        orders[player] = parsed
        rs.resolve(copy.deepcopy(state), sc, orders, None, Dice("s", turn + 1, {}))
