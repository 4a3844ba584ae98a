"""manhunt rules with forced dice: each rule of seed 001 and docs/design.md's
decisions, with the exact numbers the rules give."""

import copy

import pytest

from pbp.model import events as ev, orders as od, ruleset
from pbp.model.dice import Dice
from pbp.model.ruleset import Refusals, Scenario

WORLD = {
    "cells": {
        "A": {"name": "Salle A", "orientation": "N-S", "exits": {
            "nord": {"to": "B", "door": "porte", "state": "fermee"}, "est": {"to": "E", "door": "rideau", "state": "fermee"}}},
        "B": {"name": "Salle B", "exits": {
            "sud": {"to": "A", "door": "porte", "state": "fermee"}, "nord": {"to": "C"}, "est": {"to": "T"}}},
        "C": {"name": "Salle C", "exits": {"sud": {"to": "B"}, "nord": {"to": "D", "door": "grille", "state": "fermee"}}},
        "D": {"name": "Sortie", "exit": True, "exits": {"sud": {"to": "C", "door": "grille", "state": "fermee"}}},
        "E": {"name": "Salle E", "exits": {"ouest": {"to": "A", "door": "rideau", "state": "fermee"}, "est": {"to": "F"}}},
        "F": {"name": "Salle F", "exits": {"ouest": {"to": "E"}, "est": {"to": "G"}}},
        "G": {"name": "Salle G", "exits": {"ouest": {"to": "F"}}},
        "T": {"name": "Salle T", "exits": {"ouest": {"to": "B"}}},
    },
    "traps": [{"cell": "T"}, {"cell": "F"}],
}
HUNTERS = {
    "h1": {"name": "Grimnir", "weapon": {"damage": "2d6+1"}, "protection": 1, "defence": 8, "start": None},
    "h2": {"name": "Vesper", "weapon": {"damage": "1d6+2"}, "protection": 0, "defence": 6, "start": None},
    "h3": {"name": "Sylas", "weapon": {"damage": "2d6"}, "protection": 2, "start": "G"},
}


def scenario(**starts):
    starts = starts or {"lucy": "A", "bob": "C"}
    pejis = {h: {"start": c, "inventory": []} for h, c in starts.items()}
    return Scenario(copy.deepcopy(WORLD), {"pejis": pejis, "hunters": copy.deepcopy(HUNTERS)},
                    {h: {"character": h.capitalize()} for h in starts})


class Game:
    """A manhunt game in memory: `play` one turn from raw order lists."""

    def __init__(self, overrides=None, **starts):
        self.rs = ruleset.get("manhunt", overrides)
        self.sc = scenario(**starts)
        assert self.rs.validate_scenario(self.sc) == []
        self.state = self.rs.setup(self.sc, Dice("t", 0)).state
        self.turn = 0
        self.events = []

    def orders(self, player, raw):
        problems = Refusals()
        actions = od.parse_actions(raw, self.rs, self.sc, problems)
        assert not problems, problems
        return od.PlayerOrders(player, self.turn + 1, actions)

    def refusals(self, player, raw):
        return [r.key for r in self.rs.check_orders(self.state, self.sc, self.orders(player, raw))]

    def play(self, forced=None, gm=None, **raw):
        self.turn += 1
        orders = {h: self.orders(h, raw.get(h, [])) for h in self.rs.players_to_play(self.state, self.sc)}
        for o in orders.values():
            assert self.rs.check_orders(self.state, self.sc, o) == [], o
        gm_orders = od.GmOrders(self.turn, orders=gm or {})
        assert self.rs.check_gm(self.state, self.sc, gm_orders) == []
        self.dice = Dice("t", self.turn, forced or {})
        result = self.rs.resolve(copy.deepcopy(self.state), self.sc, orders, gm_orders, self.dice)
        self.state, self.events = result.state, result.events
        assert self.dice.unused_forced() == []
        return self

    def p(self, handle="lucy"):
        return self.state["pejis"][handle]

    def h(self, hid):
        return self.state["hunters"][hid]

    def kinds(self, audience=None):
        return [e.kind for e in self.events if audience is None or e.audience == audience]

    def event(self, kind):
        return next(e for e in self.events if e.kind == kind)

    def told(self, kind, audience):
        """The data of every event of a kind that an audience got."""
        return [e.data for e in self.events if e.kind == kind and e.audience == audience]


def numbers(p):
    return p["noise"], p["fatigue"], p["stress"]


# -- the seed's own examples ----------------------------------------------------------

def test_melete_turn_one_noise_2_stress_5():
    g = Game().play(lucy=[{"deplacement_normal": "nord"}, "recherche_pieges"])
    assert g.p()["cell"] == "B" and numbers(g.p()) == (2, 0, 5)


def test_melete_turn_two_table_wins_over_the_example():
    g = Game().play(lucy=[{"deplacement_normal": "nord"}, "recherche_pieges"])
    g.play(forced={"lucy.fouille.table": 12, "lucy.fouille.potion": 8}, lucy=["fouille"])
    assert numbers(g.p()) == (4, 0, 7)  # docs/design.md manhunt 1: +2 noise, 0 fatigue
    assert g.p()["inventory"] == ["cape en peau d'écorce"]


def test_melete_example_reproduced_by_overriding_fouille():
    g = Game({"actions": {"fouille": {"noise": 1, "fatigue": 1}}})
    g.play(lucy=[{"deplacement_normal": "nord"}, "recherche_pieges"])
    g.play(forced={"lucy.fouille.table": 12, "lucy.fouille.potion": 8}, lucy=["fouille"])
    assert numbers(g.p()) == (3, 1, 7)


# -- fouille ------------------------------------------------------------------------

@pytest.mark.parametrize("table, sub, item", [
    (1, 1, "fendeur de crâne"), (4, 20, "épée à 2 mains"), (5, 19, "gilet de cuir"), (10, 9, "rondache"),
    (11, 1, "potion de force"), (13, 20, "rations de survie"), (14, None, "pierre précieuse"),
    (15, None, "pierre précieuse"), (16, None, None), (20, None, None),
])
def test_fouille_tables(table, sub, item):
    find = {1: "arme", 4: "arme", 5: "equipement", 10: "equipement", 11: "potion", 13: "potion"}.get(table)
    forced = {"lucy.fouille.table": table}
    if sub is not None:
        forced[f"lucy.fouille.{find}"] = sub
    g = Game().play(forced=forced, lucy=["fouille"])
    assert g.p()["inventory"] == ([item] if item else [])
    assert [r.label for r in g.dice.log] == list(forced)


def test_a_cell_yields_one_find_and_search_describes_neighbours():
    g = Game().play(forced={"lucy.fouille.table": 14}, lucy=["fouille"])
    report = g.event("rapport").data
    assert [a["name"] for a in report["adjacent"]] == ["Salle B", "Salle E"]
    g.play(lucy=["fouille"])
    assert g.p()["inventory"] == ["pierre précieuse"] and g.dice.log == []
    assert g.event("fouille").data["already"] is True


def test_an_empty_search_can_be_tried_again():
    g = Game().play(forced={"lucy.fouille.table": 18}, lucy=["fouille"])
    g.play(forced={"lucy.fouille.table": 3, "lucy.fouille.arme": 3}, lucy=["fouille"])
    assert g.p()["inventory"] == ["épée large"]


# -- action points, doors, moves ----------------------------------------------------

def test_two_points_and_no_action_twice():
    g = Game()
    assert g.refusals("lucy", ["fouille", "recherche_pieges"]) == ["too_many_points"]
    assert g.refusals("lucy", [{"deplacement_normal": "nord"}, {"deplacement_normal": "nord"}]) == ["twice"]
    assert g.refusals("lucy", [{"deplacement_normal": "ouest"}]) == ["no_exit"]
    assert g.refusals("lucy", [{"deplacement_normal": "nord"}, "recherche_pieges"]) == []


def test_closed_door_costs_once_and_stays_open():
    g = Game(lucy="A", bob="C").play(lucy=[{"deplacement_normal": "nord"}])
    assert numbers(g.p()) == (1, 0, 2) and "A|B" in g.state["open_doors"]
    g.play(lucy=[{"deplacement_normal": "sud"}])
    assert numbers(g.p()) == (1, 0, 2)  # open now: free
    g.play(lucy=[{"deplacement_normal": "est"}])  # a curtain costs like a door
    assert numbers(g.p()) == (2, 0, 4)


def test_opening_costs_nothing():
    g = Game(lucy="B", bob="C").play(lucy=[{"deplacement_normal": "nord"}])
    assert numbers(g.p()) == (0, 0, 0) and g.p()["cell"] == "C"


def test_fast_move_crosses_two_doorways_and_pays_both():
    g = Game(lucy="A", bob="G").play(lucy=[{"deplacement_rapide": "nord"}])
    # porte A|B closed (+1, +2) then opening B|C; action +2 noise +1 fatigue +1 stress
    assert g.p()["cell"] == "C" and numbers(g.p()) == (3, 1, 3)


def test_fast_move_turns_right_when_it_cannot_go_straight_and_skips_crossed_traps():
    g = Game(lucy="E", bob="C").play(lucy=[{"deplacement_rapide": "ouest"}])
    # E -> A (curtain), A has no west exit: turns right (nord) -> B; never back to E
    assert g.p()["cell"] == "B"
    g2 = Game(lucy="E", bob="C")
    g2.h("h3")["out"] = True  # nobody waits in G
    g2.play(lucy=[{"deplacement_rapide": "est"}])
    assert g2.p()["cell"] == "G" and g2.p()["wounds"] == 1  # the trap in F was only crossed


def test_fast_move_through_a_hunter_no_attack_but_trace():
    g = Game(lucy="E", bob="C")
    g.h("h3")["out"] = True
    g.h("h2")["cell"] = "F"
    g.play(lucy=[{"deplacement_rapide": "est"}])
    assert g.p()["cell"] == "G" and g.p()["wounds"] == 1
    assert g.h("h2")["target"] == "lucy" and g.h("h2")["cell"] == "G"  # it follows in the hunters' phase
    assert "combat" not in g.kinds()


def test_fast_move_with_two_directions():
    g = Game(lucy="B", bob="G").play(lucy=[{"deplacement_rapide": ["nord", "nord"]}])
    assert g.p()["cell"] == "D"


# -- noise ---------------------------------------------------------------------------

def test_noise_five_brings_a_free_hunter_next_to_the_peji():
    g = Game(lucy="B", bob="G")
    g.p()["noise"] = 4
    g.play(forced={"lucy.bruit.case": 3}, lucy=["recherche_pieges"])
    # neighbours of B in direction order: nord C, est T, sud A -> 3rd is A
    assert g.h("h1")["cell"] == "A" and g.h("h1")["target"] == "lucy"  # just arrived: no move yet
    assert g.p()["stress"] == 3 + 2 and g.p()["noise_mark"] == 1
    # the thread learns that a hunter joined, not whom it tracks nor where it is
    assert g.told("chasseur_en_chasse", ev.PUBLIC) == [{"name": "Grimnir", "genre": None}]
    assert g.told("repere", ev.Players("lucy")) == [{"noise": 5, "hunter": True, "threshold": 5, "stress": 2}]
    assert g.told("chasseur_arrive", ev.GM) == [{"hunter": "h1", "name": "Grimnir", "cell": "Salle A", "cell_id": "A",
                                                 "target": "lucy", "noise": 5}]
    # next hunters' phase: h1 steps into B (moves, never attacks the same turn)
    g.play(lucy=["repos"])
    assert g.h("h1")["cell"] == "B" and "combat" not in g.kinds()


def test_each_new_multiple_of_five_only_once():
    g = Game(lucy="B", bob="G")
    g.p()["noise"] = 4
    g.play(forced={"lucy.bruit.case": 1}, lucy=["recherche_pieges"])  # 5: h1
    g.play(lucy=["se_cacher"])  # 5 - 3 = 2
    g.play(lucy=[{"deplacement_normal": "est"}, "recherche_pieges"])  # 3: nothing
    assert g.h("h2")["cell"] is None
    g.p()["noise"] = 9
    g.play(forced={"lucy.bruit.case": 1}, lucy=["recherche_pieges"])  # 10: h2
    assert g.h("h2")["target"] == "lucy"


def test_no_free_hunter_nothing_happens_no_spotted_stress():
    """FAQ 9 (docs/design.md, "The MJ's loop"): once every hunter is busy, noise calls nobody."""
    g = Game(lucy="B", bob="G")
    for h in g.state["hunters"].values():
        h["out"] = True
    g.p()["noise"] = 4
    g.play(lucy=["recherche_pieges"])
    assert g.p()["stress"] == 3 and g.p()["noise_mark"] == 1  # the action's +3 alone
    assert g.told("repere_sans_chasseur", ev.GM) == [{"player": "lucy", "noise": 5}]
    assert g.told("repere", ev.Players("lucy")) == [{"noise": 5, "hunter": False, "threshold": 5, "stress": 2}]
    assert g.told("chasseur_en_chasse", ev.PUBLIC) == [] and g.dice.log == []


# -- fatigue --------------------------------------------------------------------------

def test_fatigue_level_three_forbids_running():
    g = Game()
    g.p()["fatigue"] = 6
    assert g.refusals("lucy", [{"deplacement_rapide": "nord"}]) == ["too_tired_to_run"]
    assert g.refusals("lucy", [{"fuite": "nord"}]) == ["too_tired_to_run"]


def test_fatigue_level_four_drops_the_named_items_else_the_last_found():
    g = Game(lucy="B", bob="G")
    g.p().update(fatigue=8, inventory=["clé", "corde de chanvre", "rondache", "pierre précieuse"])
    # the trap in T: wound level 2 -> fatigue +1 -> 9, level 4
    g.play(lucy=[{"jeter": ["corde de chanvre"]}, {"deplacement_normal": "est"}])
    assert g.p()["fatigue"] == 9 and g.p()["inventory"] == ["clé", "rondache"]
    assert g.event("abandon").data["dropped"] == ["corde de chanvre", "pierre précieuse"]


def test_fatigue_level_five_loses_the_next_turn_then_back_to_four():
    g = Game(lucy="B", bob="G")
    g.p()["fatigue"] = 11
    g.play(lucy=[{"deplacement_normal": "est"}])  # trap: wound 2, fatigue +1 -> 12, level 5
    assert g.p()["fatigue"] == 12 and g.p()["lost_turns"] == 1
    assert g.rs.lost_turn(g.state, g.sc, "lucy") == "lost_exhaustion"
    g.play(lucy=[])
    assert g.p()["fatigue"] == 9 and g.p()["lost_turns"] == 0
    assert g.told("tour_perdu", ev.Players("lucy")) == [{"reasons": ["fatigue"]}]
    assert g.told("tour_perdu", ev.PUBLIC) == [{"player": "lucy"}]
    assert g.rs.lost_turn(g.state, g.sc, "lucy") is None


@pytest.mark.parametrize("recover, why", [(["panique"], "lost_panic"), (["fatigue"], "lost_exhaustion"),
                                          (["panique", "fatigue"], "lost_panic_exhaustion"),
                                          ([], "lost_panic_exhaustion")])
def test_a_lost_turn_says_why(recover, why):
    g = Game()
    g.p().update(lost_turns=1, recover=recover)
    assert g.rs.lost_turn(g.state, g.sc, "lucy") == why and g.rs.lost_turn(g.state, g.sc, "bob") is None


def test_actions_passed_for_a_lost_turn_are_not_played():
    """The core gives a lost turn no action (docs/design.md, "The MJ's loop"); the rules ignore any all the same."""
    g = Game(lucy="B", bob="C")
    g.p().update(fatigue=8, lost_turns=1, recover=["panique"], stress=12, noise=4, inventory=["clé", "rondache"])
    assert g.refusals("lucy", ["fouille", "recherche_pieges", {"deplacement_normal": "ouest"}]) == []
    g.play(lucy=["se_cacher"], bob=[])
    p = g.p()
    assert (p["cell"], numbers(p), p["hidden_turns"], p["lost_turns"]) == ("B", (4, 8, 5), 0, 0)
    assert g.told("tour_perdu", ev.Players("lucy")) == [{"reasons": ["panique"]}]
    assert g.told("tour_perdu", ev.PUBLIC) == [{"player": "lucy"}]
    assert g.told("actions", ev.PUBLIC) == [{"player": "bob", "actions": []}]  # none shown for lucy
    assert "cache" not in g.kinds() and g.dice.log == []


def test_named_drops_of_a_lost_turn_are_ignored_too():
    g = Game(lucy="T", bob="C")  # the trap in T fires at the end of her lost turn: wound 2, fatigue +1 -> 9
    g.p().update(fatigue=8, lost_turns=1, recover=["panique"], inventory=["clé", "rondache", "corde de chanvre"])
    g.play(lucy=[{"jeter": ["clé"]}])
    assert g.p()["fatigue"] == 9
    assert g.told("abandon", ev.Players("lucy")) == [{"dropped": ["corde de chanvre", "rondache"]}]


def test_fatigue_two_gives_a_combat_malus():
    g = Game(lucy="G", bob="C")
    g.p()["fatigue"] = 3
    g.play(forced={"lucy.combat.h3.1": 6, "h3.combat.lucy.1": 3, "lucy.combat.h3.2": 6, "h3.combat.lucy.2": 3,
                   "lucy.combat.h3.3": 6, "h3.combat.lucy.3": 3}, lucy=[{"combat": "h3"}])
    assault = g.event("combat").data["assaults"][0]
    assert (assault["peji_total"], assault["hunter_total"]) == (6 - 2 - 2, 3)  # protection 2, malus 2


# -- stress and panic --------------------------------------------------------------------

def test_panic_moves_two_random_cells_and_costs_a_turn():
    g = Game(lucy="A", bob="G")
    g.p()["stress"] = 7
    g.play(forced={"lucy.panique.1": 1, "lucy.panique.2": 1}, lucy=["recherche_pieges"])
    # stress 7 + 3 = 10: panic. A's exits: nord B, est E -> 1st = B; B's: nord C, est T, sud A -> 1st = C
    p = g.p()
    assert p["cell"] == "C" and p["lost_turns"] == 1
    assert (p["noise"], p["fatigue"]) == (1 + 3, 0 + 3)
    assert g.told("panique", ev.PUBLIC) == [{"player": "lucy"}]  # not where the panic took her
    assert g.told("panique", ev.Players("lucy")) == [{"path": ["nord", "nord"], "noise": 3, "fatigue": 3, "threshold": 10}]
    assert g.told("panique_gm", ev.GM) == [{"player": "lucy", "cell": "Salle C", "cell_id": "C"}]
    g.play(lucy=[])
    assert g.p()["stress"] == 5 and g.p()["lost_turns"] == 0


# -- wounds ----------------------------------------------------------------------------------

def test_wound_levels_and_their_effects():
    g = Game(lucy="B", bob="G")
    g.play(lucy=[{"deplacement_normal": "est"}])  # trap in T: wound level 2, stress +3
    p = g.p()
    assert p["wounds"] == 2 and p["fatigue"] == 1 and p["stress"] == 3
    assert g.told("piege_public", ev.PUBLIC) == [{"player": "lucy", "genre": None}]
    assert g.told("blessure", ev.Players("lucy")) == [{"level": 2, "cause": "piege", "fatigue": 1, "stress": 0}]
    assert p["traps_found"] == ["T"]
    g.play(lucy=[])  # known now: no second hit
    assert g.p()["wounds"] == 2


def test_wound_level_four_sets_fatigue_level_five():
    from pbp.rulesets.manhunt.resolve import Turn

    g = Game()
    t = Turn(g.rs.rules, g.sc, g.state, Dice("t", 1), 1)
    t.reports["lucy"] = {"drop": []}
    t.wound("lucy", "test", 3)
    p = g.p()
    assert p["wounds"] == 4 and p["fatigue"] == 12 and p["stress"] == 3 + 5 and p["lost_turns"] == 1
    t.wound("lucy", "test")
    assert p["status"] == "dead" and p["death"] == {"turn": 1, "cause": "test", "noise": 0}
    assert [e.data for e in t.events if e.kind == "mort" and e.audience == ev.PUBLIC] == [
        {"player": "lucy", "genre": None, "cause": "test"}]


def test_trap_found_first_does_not_fire():
    g = Game(lucy="T", bob="G").play(lucy=["recherche_pieges"])
    assert g.p()["wounds"] == 1 and g.p()["traps_found"] == ["T"]


# -- melee --------------------------------------------------------------------------------

def fight(lucy, hunter, n=3, hid="h3"):
    forced = {}
    for i in range(n):
        forced[f"lucy.combat.{hid}.{i + 1}"] = lucy[i]
        forced[f"{hid}.combat.lucy.{i + 1}"] = hunter[i]
    return forced


def test_peji_wins_two_assaults_hunter_out():
    g = Game(lucy="G", bob="C")
    g.p()["inventory"] = ["épée large"]
    g.play(forced=fight([8, 8, 3], [2, 2, 12]), lucy=[{"combat": {"chasseur": "Sylas"}}])
    c = g.event("combat").data
    assert [a["winner"] for a in c["assaults"]] == ["peji", "peji", "hunter"]
    # épée large 1d6+2: forced totals 8, 8, 3 minus Sylas's protection 2
    assert [a["peji_total"] for a in c["assaults"]] == [6, 6, 1]
    assert c["outcome"] == "peji" and g.h("h3")["out"] and g.p()["status"] == "active"
    assert g.p()["wounds"] == 2
    assert numbers(g.p()) == (3, 3 + 1, 5)  # combat costs; wound 2: fatigue +1


def test_peji_loses_the_fight_and_dies():
    g = Game(lucy="G", bob="C")
    g.play(forced=fight([1, 6, 1], [12, 2, 12]), lucy=[{"combat": "h3"}])
    assert g.p()["status"] == "dead" and g.event("combat").data["outcome"] == "hunter"
    assert g.kinds(ev.PUBLIC).index("combat") < g.kinds(ev.PUBLIC).index("mort")


def test_ties_score_for_nobody():
    g = Game(lucy="G", bob="C")
    g.play(forced=fight([4, 4, 4], [2, 2, 2]), lucy=[{"combat": "h3"}])  # 4-2 = 2 vs 2
    c = g.event("combat").data
    assert [a["winner"] for a in c["assaults"]] == [None, None, None] and c["outcome"] is None
    # the hunter fought this turn: it does not attack again in the hunters' phase
    assert g.p()["status"] == "active" and not g.h("h3")["out"] and g.kinds().count("combat") == 1


def test_a_hunter_on_its_targets_cell_attacks_and_the_peji_pays_the_combat_costs():
    g = Game(lucy="G", bob="C")
    g.h("h3")["target"] = "lucy"
    g.play(forced=fight([6, 6, 1], [2, 2, 12]), lucy=[])
    c = g.event("combat").data
    assert c["attacker"] == "hunter" and c["outcome"] == "peji"
    assert numbers(g.p()) == (3, 3 + 1, 5)


def test_engaged_peji_may_only_fight_flee_or_use_an_item():
    g = Game(lucy="G", bob="C")
    g.h("h3")["target"] = "lucy"
    assert g.refusals("lucy", ["se_cacher"]) == ["engaged"]
    assert g.refusals("lucy", [{"deplacement_normal": "ouest"}]) == ["engaged"]
    assert g.refusals("lucy", [{"fuite": "ouest"}]) == []
    g.play(lucy=[{"fuite": "ouest"}])
    assert g.p()["cell"] == "E" and numbers(g.p()) == (2, 2, 3)


def test_combat_needs_a_hunter_here():
    g = Game()
    assert g.refusals("lucy", ["combat"]) == ["no_hunter_here"]
    g = Game(lucy="G", bob="C")
    assert g.refusals("lucy", [{"combat": "Grimnir"}]) == ["hunter_not_there"]


# -- shooting ---------------------------------------------------------------------------

def test_shooting_hits_when_roll_minus_protection_reaches_defence():
    g = Game(lucy="F", bob="C")
    g.p()["inventory"] = ["arbalète de la foi"]  # 2d6+2, knocks out on 12+
    g.play(forced={"lucy.tir": 10}, lucy=[{"tir": "h3"}])  # 10 - 2 = 8 >= default defence 7
    t = g.event("tir").data
    assert (t["total"], t["defence"], t["hit"], t["knocked"]) == (8, 7, True, False)
    assert g.h("h3")["wounds"] == 2 and not g.h("h3")["out"]


def test_shooting_knock_out_and_miss():
    g = Game(lucy="F", bob="C")
    g.p()["inventory"] = ["arbalète de la foi"]
    g.play(forced={"lucy.tir": 14}, lucy=[{"tir": "h3"}])
    assert g.event("tir").data["knocked"] and g.h("h3")["out"]
    g = Game(lucy="F", bob="C")
    g.p()["inventory"] = ["arbalète de la foi"]
    g.play(forced={"lucy.tir": 8}, lucy=[{"tir": "h3"}])  # 6 < 7
    assert not g.event("tir").data["hit"] and g.h("h3")["wounds"] == 1


def test_shooting_needs_a_ranged_weapon_and_a_hunter_in_reach():
    g = Game(lucy="A", bob="C")
    assert g.refusals("lucy", [{"tir": "h3"}]) == ["no_hunter_in_range", "no_ranged_weapon"]
    g = Game(lucy="F", bob="C")
    assert g.refusals("lucy", ["tir"]) == ["no_ranged_weapon"]


# -- hunters, hiding -------------------------------------------------------------------------

def test_hunter_moves_one_step_on_the_shortest_path():
    g = Game(lucy="A", bob="C")
    g.h("h3").update(target="lucy")
    g.play(lucy=["repos"])
    assert g.h("h3")["cell"] == "F"


def test_hiding_makes_adjacent_hunters_lose_the_trace_then_all_of_them():
    g = Game(lucy="E", bob="C")
    g.h("h3").update(cell="F", target="lucy")
    g.h("h1").update(cell="C", target="lucy")
    g.p()["noise"] = 7
    g.play(lucy=["se_cacher"])
    assert g.h("h3")["cell"] == "F"  # adjacent: lost the trace this turn
    assert g.h("h1")["cell"] == "B"  # far: still coming
    g.h("h1")["cell"] = "C"
    g.play(lucy=["se_cacher"])
    assert g.h("h3")["target"] is None and g.h("h1")["target"] is None and g.p()["noise"] == 0


def test_mj_orders_for_hunters():
    g = Game(lucy="A", bob="C")
    g.play(gm={"chasseurs": {"h1": {"placer": "B", "cible": "lucy"}, "h3": "attendre"}}, lucy=[])
    assert g.h("h1")["cell"] == "B" and g.h("h1")["target"] == "lucy" and g.h("h3")["cell"] == "G"
    bad = od.GmOrders(2, orders={"chasseurs": {"h1": {"aller": "D"}, "h9": "attendre", "h3": {"attaquer": "lucy"}},
                                 "pieges": {}})
    keys = [r.key for r in g.rs.check_gm(g.state, g.sc, bad)]
    assert keys == ["gm_unknown", "gm_not_adjacent", "gm_no_hunter", "gm_not_same_cell"]


# -- items, exit, end ----------------------------------------------------------------------

def test_potion_heals_and_armour_protects():
    g = Game()
    g.p().update(wounds=3, inventory=["potion de soins modérés", "cotte de maille"])
    g.play(lucy=[{"utilisation_equipement": "potion de soins modérés"}, {"revetir_armure": "cotte de maille"}])
    assert g.p()["wounds"] == 1 and g.p()["inventory"] == ["cotte de maille"] and g.p()["worn"] == ["cotte de maille"]
    assert g.event("rapport").data["protection"] == 3
    assert numbers(g.p()) == (1 + 2, 0, 0)


def test_reaching_the_exit_escapes_and_ends_the_event():
    g = Game(lucy="C", bob="C")
    g.play(lucy=[{"deplacement_normal": "nord"}], bob=[{"deplacement_normal": "nord"}])
    assert g.p()["status"] == "escaped" and g.state["over"]
    assert g.rs.is_over(g.state) and g.event("fin").data["escaped"] == ["lucy", "bob"]


def test_turn_limit_ends_the_event():
    g = Game({"turn_limit": 2})
    g.play().play()
    assert g.state["over"] and g.event("fin").data["trapped"] == ["lucy", "bob"]


def test_legal_orders_all_pass_the_checks():
    g = Game(lucy="G", bob="C")
    g.h("h3")["target"] = "lucy"
    def legal():
        options = g.rs.legal_orders(g.state, g.sc, "lucy")
        for o in options:
            assert g.rs.check_orders(g.state, g.sc, od.PlayerOrders("lucy", 1, o)) == []
        return [[(a.id, a.arg) for a in o] for o in options]

    g.p().update(lost_turns=1, recover=["panique"])
    assert legal() == [[]]  # a lost turn: anything sent would be ignored
    g.p().update(lost_turns=0, recover=[])
    # engaged (FAQ 6): nothing but flight and a fight (no item to use)
    assert legal() == [[], [("fuite", ["ouest"])], [("combat", {"chasseur": "h3", "arme": None})]]
    g = Game()  # in A: exits nord and est; pairs of 1-point actions only
    assert legal() == [
        [], [("repos", None)], [("fouille", None)], [("se_cacher", None)], [("recherche_pieges", None)],
        [("deplacement_normal", "nord")], [("deplacement_rapide", ["nord"])], [("fuite", ["nord"])],
        [("deplacement_normal", "est")], [("deplacement_rapide", ["est"])], [("fuite", ["est"])],
        [("recherche_pieges", None), ("deplacement_normal", "nord")],
        [("recherche_pieges", None), ("deplacement_normal", "est")]]
