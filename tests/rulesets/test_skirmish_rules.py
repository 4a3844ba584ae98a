"""skirmish: physical actions, with forced rolls and the exact numbers the rules give.

Every sheet starts neutral (characteristics 10, luck 0, bagarre/melee/distance 40,
esquive 30, 20 PV, 10 PA; TAI+FOR 20 gives no damage bonus), so each test only
states what it changes.
"""

import pytest

from pbp.rulesets.skirmish import Skirmish, rules as R
from pbp.rulesets.skirmish.rules import half_up
from tests.rulesets.test_skirmish_support import Game, creature, sheet


def keys(refusals):
    return [r.key for r in refusals]


# -- characteristic, luck, faction, hindrance ------------------------------------------------

def test_characteristic_bonus_is_value_minus_ten_and_luck_one_per_five_capped_at_four():
    rs = Skirmish()
    assert [R.char_bonus(rs.rules, v) for v in (7, 10, 16)] == [-3, 0, 6]
    assert [R.luck_bonus(rs.rules, v) for v in (0, 4, 5, 9, 14, 20, 24, 40)] == [0, 0, 1, 1, 2, 4, 4, 4]


def test_faction_bonus_rises_with_ever_smaller_gains():
    rs = Skirmish()
    values = [R.faction_bonus(rs.rules, n) for n in range(0, 11)]
    # round(3), round(4.5), round(5.5), round(6.25), round(6.85) ... halves up
    assert values[:6] == [0, 3, 5, 6, 6, 7]
    assert values[10] == 9  # 3 * H(10) = 8.79: a crowd does not give an absurd bonus
    gains = [b - a for a, b in zip(values, values[1:])]
    assert gains[:3] == [3, 2, 1] and all(0 <= x <= 1 for x in gains[3:])  # never falls, ever smaller steps


def test_half_up_rounding_not_bankers():
    assert [half_up(x) for x in (0.5, 1.5, 2.5, 4.5, -0.4)] == [1, 2, 3, 5, 0]


def test_brawl_adds_faction_allies_present_within_radius_and_caps_at_100():
    g = Game({"aria": sheet("p1", "a", (1, 1), competences={"bagarre": 99}),
              "x1": sheet("p2", "a", (1, 3)), "x2": sheet("p3", "a", (4, 1)),
              "far": sheet("p4", "a", (7, 1)),  # distance 6 > radius 5: not present
              "foe": sheet("p5", "b", (2, 1))})
    g.play({"aria.attaque": 100, "foe.esquive": 100}, p1=["bagarre: {perso: aria, cible: foe}"])
    d = g.detail(g.one("attack"), "aria", "attaque")
    faction = next(p for p in d["parts"] if p["key"] == "faction")
    assert faction["value"] == 5 and faction["allies"] == ["X1", "X2"]
    assert d["raw"] == 104 and d["chance"] == 100 and d["cap"] == 100
    assert g.one("attack")["attack"]["hit"]  # 100 <= 100


def test_hindrance_from_own_visible_characters_near_one_and_two_squares():
    g = Game({"aria": sheet("p1", "a", (3, 3)), "b1": sheet("p1", "a", (4, 3)), "b2": sheet("p1", "a", (3, 5)),
              "foe": sheet("p2", "b", (3, 2))})
    g.play({"aria.attaque": 99}, p1=["bagarre: {perso: aria, cible: foe}"])
    parts = {p["key"]: p for p in g.detail(g.one("attack"), "aria", "attaque")["parts"]}
    assert parts["hindrance"]["value"] == -9  # 5 at 1 square + 4 at 2 squares
    assert [(h["id"], h["value"]) for h in parts["hindrance"]["from"]] == [("b1", 5), ("b2", 4)]
    assert parts["faction"]["value"] == 5  # own characters are faction allies too (data: count_own_characters)
    assert g.one("attack")["attack"]["chance"] == 40 + 5 - 9


def test_hindrance_from_characters_at_five_and_four_squares_is_small():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "b1": sheet("p1", "a", (5, 0)), "b2": sheet("p1", "a", (0, 4)),
              "foe": sheet("p2", "b", (1, 0))})
    g.play({"aria.attaque": 99}, p1=["tir: {perso: aria, cible: foe}"])
    parts = {p["key"]: p for p in g.detail(g.one("attack"), "aria", "attaque")["parts"]}
    assert parts["hindrance"]["value"] == -3  # 1 at 5 squares + 2 at 4 squares
    assert "faction" not in parts  # ranged attacks get no faction help (seed)


def test_hindrance_never_becomes_a_bonus_and_chance_floors_at_zero():
    g = Game({"aria": sheet("p1", "a", (0, 0), competences={"distance": 5}),
              "near": sheet("p1", "a", (0, 1)), "far": sheet("p1", "a", (7, 0)),
              "foe": sheet("p2", "b", (1, 0))})
    g.play({"aria.attaque": 1}, p1=["tir: {perso: aria, cible: foe}"])
    d = g.detail(g.one("attack"), "aria", "attaque")
    hind = next(p for p in d["parts"] if p["key"] == "hindrance")
    assert [h["value"] for h in hind["from"]] == [5, 0]  # 7 squares: 0, not -1
    assert d["raw"] == 0 and d["chance"] == 0
    g2 = Game({"aria": sheet("p1", "a", (0, 0), competences={"distance": 3}), "near": sheet("p1", "a", (0, 1)),
               "foe": sheet("p2", "b", (1, 0))})
    g2.play({"aria.attaque": 1}, p1=["tir: {perso: aria, cible: foe}"])
    att = g2.one("attack")["attack"]
    assert att["chance"] == 0 and not att["hit"]  # raw -2, floor 0: even a 1 misses


# -- melee, ranged, caps, distances --------------------------------------------------------

@pytest.mark.parametrize("strength, chance", [(7, 37), (10, 40), (16, 46)])
def test_melee_chance_is_skill_plus_mastery_plus_strength_bonus(strength, chance):
    g = Game({"aria": sheet("p1", "a", (0, 0), FOR=strength, maitrises={"epee": 0}),
              "foe": creature((1, 0))})
    g.play({"aria.attaque": chance + 1}, p1=["melee: {perso: aria, cible: foe}"])
    att = g.one("attack")["attack"]
    assert att["chance"] == chance and not att["hit"]


def test_melee_adds_weapon_mastery_of_the_weapon_used():
    g = Game({"aria": sheet("p1", "a", (0, 0), maitrises={"epee": 12}), "foe": creature((1, 0))})
    g.play({"aria.attaque": 52}, p1=["melee: {perso: aria, cible: foe, arme: epee}"])
    assert g.one("attack")["attack"] == {**g.one("attack")["attack"], "chance": 52, "hit": True}


def test_melee_caps_at_95():
    g = Game({"aria": sheet("p1", "a", (0, 0), FOR=20, competences={"melee": 90}), "foe": creature((1, 0))})
    g.play({"aria.attaque": 96}, p1=["melee: {perso: aria, cible: foe}"])
    d = g.detail(g.one("attack"), "aria", "attaque")
    assert (d["raw"], d["chance"], d["cap"]) == (100, 95, 95)
    assert not g.one("attack")["attack"]["hit"]


def test_ranged_caps_at_95_even_with_huge_skill():
    g = Game({"bran": sheet("p1", "a", (0, 0), DEX=15, competences={"distance": 99}), "foe": creature((1, 0))})
    g.play({"bran.attaque": 95}, p1=["tir: {perso: bran, cible: foe}"])
    assert g.one("attack")["attack"]["chance"] == 95 and g.one("attack")["attack"]["hit"]


@pytest.mark.parametrize("pos, malus", [((1, 0), 0), ((1, 1), 0), ((2, 0), 1), ((2, 1), 1), ((2, 2), 2),
                                        ((3, 0), 2), ((4, 0), 3)])
def test_ranged_distance_malus_is_rounded_distance_minus_one(pos, malus):
    g = Game({"bran": sheet("p1", "a", (0, 0), DEX=16, maitrises={"arc": 10}), "foe": creature(pos)})
    g.play({"bran.attaque": 99}, p1=["tir: {perso: bran, cible: foe}"])
    d = g.detail(g.one("attack"), "bran", "attaque")
    assert next(p for p in d["parts"] if p["key"] == "range")["value"] == -malus
    assert d["chance"] == 40 + 10 + 6 - malus


def test_ranged_at_exactly_four_squares_is_allowed_beyond_is_refused():
    g = Game({"bran": sheet("p1", "a", (0, 0)), "at4": creature((4, 0)), "beyond": creature((4, 1))})
    assert g.check("p1", "tir: {perso: bran, cible: at4}") == []
    refusals = g.check("p1", "tir: {perso: bran, cible: beyond}")
    assert keys(refusals) == ["out_of_range"] and refusals[0].params["distance"] == 4.12
    assert refusals[0].params["valid"] == ["at4"]
    assert g.check_errors("p1", "tir: {perso: bran, cible: beyond}") == [
        "turns/001/orders/p1.yaml:4: Beyond is out of range (4.12 squares, range 4). Valid values: at4."]


def test_brawl_and_melee_need_an_adjacent_target_diagonals_included():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "diag": creature((1, 1)), "two": creature((2, 0)),
              "knight": creature((2, 1))})
    assert g.check("p1", "melee: {perso: aria, cible: diag}", "bagarre: {perso: aria, cible: diag}") == []
    for target in ("two", "knight"):
        for action in ("melee", "bagarre"):
            refusals = g.check("p1", f"{action}: {{perso: aria, cible: {target}}}")
            assert keys(refusals) == ["not_adjacent"] and refusals[0].params["valid"] == ["diag"]


def test_a_weapon_of_the_right_kind_is_needed():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "foe": creature((1, 0))},
             npcs={"brute": creature((0, 1), competences={"melee": 50})})
    refusals = g.check("p1", "melee: {perso: aria, cible: foe, arme: arc}")  # a bow is no melee weapon
    assert keys(refusals) == ["unknown_weapon"] and refusals[0].params["valid"] == ["epee"]
    refusals = g.rs.check_gm(g.state, g.scenario, g.gm({"brute": [{"tir": {"cible": "aria"}}]}))
    assert keys(refusals) == ["no_weapon"]


# -- perfect attack, dodge ------------------------------------------------------------------

@pytest.mark.parametrize("roll, perfect", [(4, True), (5, False)])
def test_perfect_attack_below_five_adds_a_die_and_xp(roll, perfect):
    g = Game({"aria": sheet("p1", "a", (0, 0)), "foe": creature((1, 0), pv=50)})
    g.play({"aria.attaque": roll}, p1=["melee: {perso: aria, cible: foe}"])
    data = g.one("attack")
    assert data["attack"]["perfect"] is perfect and data["attack"]["hit"]
    assert data["damage"]["roll"]["expr"] == ("1d8+1d6" if perfect else "1d8")
    assert g.xp(data) == [("aria", "hit", 3)] + ([("aria", "perfect_bonus", 2)] if perfect else [])
    assert g.units["aria"]["xp"] == (5 if perfect else 3)


def test_a_low_roll_above_the_chance_is_a_miss_not_a_perfect_attack():
    g = Game({"aria": sheet("p1", "a", (0, 0), competences={"melee": 3}), "foe": creature((1, 0))})
    g.play({"aria.attaque": 4}, p1=["melee: {perso: aria, cible: foe}"])
    assert g.one("attack")["attack"] == {**g.one("attack")["attack"], "hit": False, "perfect": False}


def test_dodge_chance_is_skill_def_luck_faction_capped_at_90():
    g = Game({"aria": sheet("p1", "a", (0, 0)),
              "dodger": sheet("p2", "b", (1, 0), DEF=15, chance=14, competences={"esquive": 80}),
              "pal": sheet("p3", "b", (2, 0))})
    g.play({"aria.attaque": 1, "dodger.esquive": 90}, p1=["melee: {perso: aria, cible: dodger}"])
    d = g.detail(g.one("attack"), "dodger", "esquive")
    assert [p["value"] for p in d["parts"]] == [80, 5, 2, 3]
    assert (d["raw"], d["chance"]) == (90, 90)
    g2 = Game({"aria": sheet("p1", "a", (0, 0)),
               "dodger": sheet("p2", "b", (1, 0), DEF=20, chance=20, competences={"esquive": 80})})
    g2.play({"aria.attaque": 10, "dodger.esquive": 91}, p1=["melee: {perso: aria, cible: dodger}"])
    data = g2.one("attack")
    assert data["dodge"] == {**data["dodge"], "chance": 90, "success": False}  # raw 94, cap 90
    assert "damage" in data


def test_dodged_attack_does_no_damage_and_both_sides_gain_xp():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (1, 0))})
    g.play({"aria.attaque": 10, "dag.esquive": 30}, p1=["melee: {perso: aria, cible: dag}"])
    data = g.one("attack")
    assert data["dodge"]["success"] and "damage" not in data
    assert g.units["dag"]["hp"] == 20
    assert g.xp(data) == [("aria", "attack_dodged", 1), ("dag", "dodge", 2)]
    assert "retort" not in data  # no words put in a character's mouth


def test_missed_attack_gives_xp_to_attacker_and_character_defender_not_to_a_creature():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (1, 0))}, npcs={"brute": creature((0, 1))})
    g.play({"aria.attaque": 41, "aria.attaque.2": 41},
           p1=["melee: {perso: aria, cible: dag}", "melee: {perso: aria, cible: brute}"])
    first, second = g.gm_events("attack")
    assert g.xp(first) == [("aria", "attack_missed", 1), ("dag", "defender_missed", 1)]
    assert g.xp(second) == [("aria", "attack_missed", 1)]


def test_creatures_dodge_only_with_an_esquive_skill_doors_never():
    g = Game({"aria": sheet("p1", "a", (1, 1), pa=11)},
             npcs={"brute": creature((2, 1), competences={"esquive": 10}), "blob": creature((0, 1)),
                   "porte": {"type": "door", "position": [1, 2], "pv": 10}})
    g.play({"aria.attaque": 10, "aria.attaque.2": 10, "aria.attaque.3": 10, "brute.esquive": 99},
           p1=["melee: {perso: aria, cible: brute}", "melee: {perso: aria, cible: blob}",
               "bagarre: {perso: aria, cible: porte}"])
    attacks = g.gm_events("attack")
    assert [a["attack"]["hit"] for a in attacks] == [True, True, True]
    assert [("dodge" in a) for a in attacks] == [True, False, False]
    assert attacks[0]["dodge"]["chance"] == 10  # esquive 10 + DEF 10 -> +0, no luck, no faction
    assert [r.label for r in g.dice.log if "esquive" in r.label] == ["brute.esquive"]


# -- damage and reduction --------------------------------------------------------------------

@pytest.mark.parametrize("total, dice", [(2, "-1d6"), (12, "-1d6"), (13, "-1d4"), (16, "-1d4"), (17, "0"),
                                         (24, "0"), (25, "1d4"), (33, "1d6"), (41, "2d6"), (56, "2d6+4"),
                                         (80, "2d6+4")])
def test_damage_bonus_table(total, dice):
    assert R.damage_bonus(Skirmish().rules, total) == dice


def test_melee_damage_uses_size_plus_strength_ranged_size_plus_dexterity():
    g = Game({"aria": sheet("p1", "a", (0, 0), FOR=16, TAI=12, DEX=5), "foe": creature((1, 0), pv=99),
              "far": creature((3, 0), pv=99)})
    g.play({"aria.attaque": 1, "aria.attaque.2": 1},
           p1=["melee: {perso: aria, cible: foe}", "tir: {perso: aria, cible: far}"])
    melee, ranged = g.gm_events("attack")
    assert melee["damage"]["roll"]["expr"] == "1d8+1d4+1d6"   # 28 -> +1d4, and the roll 1 is perfect
    bonus = next(t for t in g.detail(ranged, "aria", "degats")["terms"] if t["key"] == "bonus")
    assert (bonus["stats"], bonus["sum"], bonus["dice"]) == ("TAI+DEX", 17, "0")


def test_reduction_from_def_armour_legendary_armour_and_effects():
    g = Game({"aria": sheet("p1", "a", (0, 0)),
              "tank": sheet("p2", "b", (1, 0), DEF=15, equipement={"armure": {"nom": "mailles", "reduction": 2},
                                                                 "armure_legendaire": {"nom": "Égide",
                                                                                       "reduction": 1}},
                            effets=[{"nom": "potion", "stat": "reduction", "valeur": 1, "tours": 2}])})
    g.play({"aria.attaque": 10, "tank.esquive": 99, "aria.degats": 8}, p1=["melee: {perso: aria, cible: tank}"])
    data = g.one("attack")
    red = g.detail(data, "tank", "reduction")
    assert [(p["key"], p["value"]) for p in red["parts"]] == [("DEF", 1), ("armour", 2), ("legendary_armour", 1),
                                                              ("effects", 1)]
    assert data["damage"] == {**data["damage"], "reduction": 5, "final": 3}
    assert g.units["tank"]["hp"] == 17


def test_def_reduction_is_capped_at_five_before_armour():
    rs = Skirmish()
    assert R.reduction(rs.rules, {"DEF": 9})["value"] == 0
    assert R.reduction(rs.rules, {"DEF": 49})["value"] == 4
    assert R.reduction(rs.rules, {"DEF": 70, "armour": {"name": "", "reduction": 2}})["value"] == 7


def test_reduction_larger_than_damage_gives_zero_never_negative():
    g = Game({"aria": sheet("p1", "a", (0, 0))}, npcs={"porte": {"type": "door", "position": [1, 0], "pv": 10}})
    g.play({"aria.attaque": 10, "aria.degats": 2}, p1=["melee: {perso: aria, cible: porte}"])
    data = g.one("attack")
    assert data["damage"] == {**data["damage"], "reduction": 3, "final": 0}  # a door's base DEF 30
    assert g.units["porte"]["hp"] == 10


def test_negative_damage_bonus_can_bring_the_roll_below_zero_final_stays_zero():
    g = Game({"aria": sheet("p1", "a", (0, 0), FOR=5, TAI=5), "foe": creature((1, 0))})
    g.play({"aria.attaque": 10, "aria.degats": [1, 6]}, p1=["melee: {perso: aria, cible: foe}"])
    data = g.one("attack")
    assert data["damage"]["roll"]["expr"] == "1d8-1d6" and data["damage"]["roll"]["total"] == -5
    assert data["damage"]["final"] == 0 and g.units["foe"]["hp"] == 30


def test_temporary_damage_effects_are_added_to_the_damage_roll():
    g = Game({"aria": sheet("p1", "a", (0, 0), effets=[{"nom": "rage", "stat": "degats", "valeur": 2}]),
              "foe": creature((1, 0))})
    g.play({"aria.attaque": 10, "aria.degats": [5]}, p1=["melee: {perso: aria, cible: foe}"])
    data = g.one("attack")
    assert data["damage"]["roll"]["expr"] == "1d8+2" and data["damage"]["roll"]["total"] == 7
    assert data["damage"]["final"] == 6  # creature DEF 10 by default -> reduction 1


def test_the_issue_example_numbers():
    g = Game({"aria": sheet("p1", "a", (5, 6), FOR=16, TAI=12, competences={"melee": 45}, maitrises={"epee": 10})},
             npcs={"brute": creature((5, 7), DEF=20, competences={"esquive": 25})})
    g.play({"aria.attaque": 42, "brute.esquive": 77, "aria.degats": 6}, p1=["melee: {perso: aria, cible: brute}"])
    data = g.one("attack")
    assert data["attack"]["chance"] == 61 and data["dodge"]["chance"] == 35
    assert data["damage"]["roll"]["expr"] == "1d8+1d4"
    assert (data["damage"]["reduction"], data["damage"]["final"]) == (2, 4)
    assert g.units["brute"]["hp"] == 26


# -- targets and the ban ------------------------------------------------------------------------

def test_a_player_cannot_attack_his_own_character():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p1", "a", (1, 0)), "foe": sheet("p2", "b", (0, 1))})
    for action in ("melee", "bagarre", "tir"):
        refusals = g.check("p1", f"{action}: {{perso: aria, cible: bran}}")
        assert keys(refusals) == ["own_character"], action
    assert g.check_errors("p1", "melee: {perso: aria, cible: Bran}") == [
        "turns/001/orders/p1.yaml:4: you cannot attack Bran: it is one of your own characters. Valid values: foe."]
    # another player's character of the same faction is a legal (if unfriendly) target
    g2 = Game({"aria": sheet("p1", "a", (0, 0)), "cyra": sheet("p2", "a", (1, 0))})
    assert g2.check("p1", "melee: {perso: aria, cible: cyra}") == []


def test_unknown_target_suggests_and_lists():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "foe": sheet("p2", "b", (1, 0))}, npcs={"brute": creature((0, 1))})
    r = g.check("p1", "melee: {perso: aria, cible: brtue}")
    assert keys(r) == ["unknown_target"] and r[0].params["suggestion"] == "brute"
    assert g.check("p1", "melee: {perso: aria, cible: brut}") == []  # any unambiguous part of a name (match_names)


def test_which_character_acts_must_be_said_when_a_player_has_several():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p1", "a", (5, 5)), "foe": sheet("p2", "b", (1, 0))})
    assert keys(g.check("p1", "melee: foe")) == ["perso_missing"]
    assert g.check("p2", "melee: aria") == []  # a single character: perso may be left out
    assert keys(g.check("p1", "melee: {perso: foe, cible: aria}")) == ["not_your_character"]
    assert keys(g.check("p1", "melee: {perso: arya, cible: foe}")) == ["unknown_character"]
    assert g.check("p1", "melee: {perso: Aria, cible: Foe}") == []  # names work as well as ids


# -- PA and movement ------------------------------------------------------------------------------

def test_pa_short_by_one_is_refused_exactly_enough_is_accepted():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "foe": creature((3, 0), pv=99)})
    assert g.check("p1", "deplacer: {perso: aria, vers: [2, 0]}", "melee: {perso: aria, cible: foe}",
                   "melee: {perso: aria, cible: foe}") == []  # 2 + 4 + 4 = 10
    refusals = g.check("p1", "deplacer: {perso: aria, vers: [2, 0]}", "melee: {perso: aria, cible: foe}",
                       "melee: {perso: aria, cible: foe}", "deplacer: {perso: aria, vers: [2, 1]}")
    assert keys(refusals) == ["not_enough_pa"]
    assert refusals[0].at == ("actions", 3)
    assert refusals[0].params == {"character": "Aria", "need": 1, "have": 0, "short": 1}
    refusals = g.check("p1", "deplacer: {perso: aria, vers: [3, 1]}", "melee: {perso: aria, cible: foe}",
                       "melee: {perso: aria, cible: foe}")  # 3 + 4 + 4 = 11
    assert [(r.key, r.at, r.params["short"]) for r in refusals] == [("not_enough_pa", ("actions", 2), 1)]


def test_each_character_has_its_own_pa():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "bran": sheet("p1", "a", (0, 2), pa=4),
              "foe": creature((1, 1), pv=99)})
    assert g.check("p1", "melee: {perso: aria, cible: foe}", "melee: {perso: aria, cible: foe}",
                   "melee: {perso: bran, cible: foe}") == []
    assert keys(g.check("p1", "melee: {perso: bran, cible: foe}", "bagarre: {perso: bran, cible: foe}")) == [
        "not_enough_pa"]


def test_moving_costs_the_shortest_free_path_around_walls():
    walls = [(2, 0), (2, 1), (2, 2)]
    g = Game({"aria": sheet("p1", "a", (0, 0))}, walls=walls)
    g.play(p1=["deplacer: {perso: aria, vers: [4, 0]}"])
    move = g.public("move")[0]
    assert move["squares"] == 6 and move["cost"] == 6  # around the wall (4 in a straight line)
    assert g.units["aria"]["position"] == [4, 0] and g.units["aria"]["ap"] == 4
    assert keys(g.check("p1", "deplacer: {perso: aria, vers: [2, 1]}")) == ["wall"]
    assert keys(g.check("p1", "deplacer: {perso: aria, vers: [12, 0]}")) == ["off_grid"]


def test_a_closed_door_blocks_the_way_until_it_gives_in():
    walls = [(2, y) for y in range(8) if y != 3]
    g = Game({"aria": sheet("p1", "a", (1, 3))}, npcs={"porte": {"type": "door", "position": [2, 3], "pv": 3}},
             walls=walls)
    assert keys(g.check("p1", "deplacer: {perso: aria, vers: [3, 3]}")) == ["unreachable"]
    assert keys(g.check("p1", "deplacer: {perso: aria, vers: [2, 3]}")) == ["occupied"]
    g.play({"aria.attaque": 10, "aria.degats": 8}, p1=["melee: {perso: aria, cible: porte}"])
    assert g.one("attack")["down"] is True and g.units["porte"]["hp"] == 0
    assert g.check("p1", "deplacer: {perso: aria, vers: [3, 3]}") == []


def test_moves_then_attack_are_checked_from_the_new_square():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "foe": creature((4, 0))})
    assert keys(g.check("p1", "melee: {perso: aria, cible: foe}")) == ["not_adjacent"]
    assert g.check("p1", "deplacer: {perso: aria, vers: [3, 0]}", "melee: {perso: aria, cible: foe}") == []


# -- order of resolution ---------------------------------------------------------------------------

def test_initiative_is_dex_highest_first_then_luck_then_sheet_order():
    g = Game({"slow": sheet("p1", "a", (0, 0), DEX=8), "fast": sheet("p2", "b", (5, 5), DEX=15),
              "lucky": sheet("p3", "a", (7, 7), DEX=8, chance=12)})
    g.play(p1=["deplacer: {vers: [0, 1]}"], p2=["deplacer: {vers: [5, 4]}"], p3=["deplacer: {vers: [7, 6]}"])
    assert [a["id"] for a in g.public("initiative")[0]["order"]] == ["fast", "lucky", "slow"]
    assert [m["actor"] for m in g.public("move")] == ["fast", "lucky", "slow"]


def test_a_character_downed_earlier_in_the_turn_does_not_act():
    g = Game({"aria": sheet("p1", "a", (0, 0), DEX=14), "dag": sheet("p2", "b", (1, 0), pv=3)})
    g.play({"aria.attaque": 10, "dag.esquive": 99, "aria.degats": 8},
           p1=["melee: {perso: aria, cible: dag}"], p2=["melee: {perso: dag, cible: aria}", "bagarre: aria"])
    assert g.one("attack")["down"] is True
    assert g.public("down_skip") == [{"actor": "dag", "name": "Dag", "count": 2}]
    assert not [r for r in g.dice.log if r.label.startswith("dag.attaque")]
    assert g.units["aria"]["hp"] == 20


def test_a_target_that_moved_away_is_lost_at_resolution_not_an_error():
    g = Game({"aria": sheet("p1", "a", (0, 0), DEX=8), "dag": sheet("p2", "b", (1, 0), DEX=14)})
    g.play(p1=["melee: {perso: aria, cible: dag}"], p2=["deplacer: {vers: [5, 0]}"])
    lost = g.public("lost")
    assert lost == [{"actor": "aria", "name": "Aria", "action": "melee", "reason": "not_adjacent",
                     "params": {"target": "Dag", "distance": 5.0, "limit": 2}}]
    assert g.units["aria"]["ap"] == 10  # nothing spent


def test_pa_reset_each_turn():
    g = Game({"aria": sheet("p1", "a", (0, 0))})
    g.play(p1=["deplacer: {vers: [3, 0]}"])
    assert g.units["aria"]["ap"] == 7
    g.play(p1=["deplacer: {vers: [0, 0]}"])
    assert g.units["aria"]["ap"] == 7


# -- XP, levels, end -----------------------------------------------------------------------------

def test_levels_come_from_xp_thresholds_and_are_public():
    g = Game({"aria": sheet("p1", "a", (0, 0), xp=18), "foe": creature((1, 0), pv=99)})
    g.play({"aria.attaque": 10}, p1=["melee: {perso: aria, cible: foe}"])
    assert g.units["aria"]["xp"] == 21 and g.units["aria"]["level"] == 2
    assert g.public("level_up") == [{"actor": "aria", "name": "Aria", "level": 2}]


def test_the_skirmish_ends_when_one_faction_is_left_standing():
    g = Game({"aria": sheet("p1", "a", (0, 0)), "dag": sheet("p2", "b", (1, 0), pv=2)})
    assert g.rs.players_to_play(g.state, g.scenario) == ["p1", "p2"]
    g.play({"aria.attaque": 10, "dag.esquive": 99, "aria.degats": 5}, p1=["melee: {perso: aria, cible: dag}"])
    assert g.rs.is_over(g.state)
    assert g.public("over") == [{"winners": [{"id": "a", "name": "Faction A"}]}]
    assert g.rs.players_to_play(g.state, g.scenario) == ["p1"]
    assert keys(g.check("p2", "bagarre: aria")) == ["character_down"]


# -- the MJ's creatures -------------------------------------------------------------------------

def test_gm_orders_a_creature_which_acts_in_initiative_order():
    g = Game({"aria": sheet("p1", "a", (0, 0), DEX=12)},
             npcs={"brute": creature((3, 0), DEX=8, competences={"melee": 50}, maitrises={"massue": 5},
                                     equipement={"armes": {"massue": {"type": "melee", "degats": "1d10"}}})})
    # the brute is not adjacent yet: creature orders are placed at resolution, after Aria moved
    g.play({"brute.attaque": 55, "aria.esquive": 99, "brute.degats": 4},
           gm={"brute": [{"melee": {"cible": "aria"}}]}, p1=["deplacer: {vers: [2, 0]}"])
    att = g.one("attack")
    assert att["actor"] == "brute" and att["attack"]["chance"] == 55 and att["damage"]["final"] == 3
    assert g.units["aria"]["hp"] == 17
    assert g.xp(att) == []  # creatures gain no XP


def test_gm_orders_for_a_character_or_unknown_action_are_refused():
    g = Game({"aria": sheet("p1", "a", (0, 0))}, npcs={"brute": creature((3, 0))})
    refusals = g.rs.check_gm(g.state, g.scenario, g.gm({"aria": [{"bagarre": "brute"}]}))
    assert keys(refusals) == ["gm_not_creature"] and refusals[0].at == ("aria",)
    refusals = g.rs.check_gm(g.state, g.scenario, g.gm({"brute": [{"danser": None}]}))
    assert keys(refusals) == ["unknown_action"] and refusals[0].at == ("brute", 0)
    refusals = g.rs.check_gm(g.state, g.scenario, g.gm({"brute": [{"bagarre": {"cible": "aria"}}] * 4}))
    assert keys(refusals) == ["not_enough_pa"] and refusals[0].at == ("brute", 3)


# -- campaign overrides -----------------------------------------------------------------------------

def test_campaign_rules_override_the_numbers():
    g = Game({"aria": sheet("p1", "a", (0, 0), competences={"melee": 90}), "x": sheet("p2", "a", (0, 1)),
              "y": sheet("p3", "a", (0, 2)), "foe": creature((1, 0))},
             rules={"faction": {"b": 2}, "actions": {"melee": {"cap": 80, "faction": True}}})
    g.play({"aria.attaque": 81}, p1=["melee: {perso: aria, cible: foe}"])
    d = g.detail(g.one("attack"), "aria", "attaque")
    assert next(p for p in d["parts"] if p["key"] == "faction")["value"] == 3  # round(2 + 1)
    assert (d["raw"], d["chance"]) == (93, 80)
