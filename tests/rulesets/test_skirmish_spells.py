"""skirmish: spells, counter-magic and reflection, with forced rolls.

The caster Cyra is neutral (magie 40, INT 10, DEX 10: chance 40 with no ally
around) and knows every spell; level 1 ranges: trait_de_feu 4, boule_de_feu 3,
soin 1, benediction 3, malediction 4, peau_de_pierre 1.
"""

import pytest

from pbp.rulesets.skirmish import rules as R
from tests.rulesets.test_skirmish_support import Game, creature, sheet

ALL = ["trait_de_feu", "boule_de_feu", "soin", "benediction", "malediction", "peau_de_pierre"]


def mage(player, faction, pos, **extra):
    extra.setdefault("sorts", ALL)
    extra.setdefault("competences", {"magie": 40})
    return sheet(player, faction, pos, **extra)


def keys(refusals):
    return [r.key for r in refusals]


# -- conditions -------------------------------------------------------------------------------------

def test_a_spell_must_be_known_and_learned():
    g = Game({"cyra": mage("p1", "a", (0, 0), sorts=["soin"]), "foe": sheet("p2", "b", (1, 0))})
    r = g.check("p1", "sort: {perso: cyra, sort: trait_de_feu, cible: foe}")
    assert keys(r) == ["spell_not_learned"] and r[0].params["valid"] == ["soin"]
    assert g.check_errors("p1", "sort: {perso: cyra, sort: trait_de_feu, cible: foe}") == [
        "turns/001/orders/p1.yaml:4: Cyra has not learned the spell `trait_de_feu`. Valid values: soin."]
    r = g.check("p1", "sort: {perso: cyra, sort: boule_de_fue, cible: foe}")
    assert keys(r) == ["unknown_spell"] and r[0].params["suggestion"] == "boule_de_feu"
    assert g.check_errors("p1", "sort: {perso: cyra, sort: boule_de_fue, cible: foe}") == [
        "turns/001/orders/p1.yaml:4: unknown spell `boule_de_fue`. Did you mean `boule_de_feu`? Valid values: "
        "trait_de_feu, boule_de_feu, soin, benediction, malediction, peau_de_pierre."]
    g2 = Game({"cyra": mage("p1", "a", (0, 0)), "foe": sheet("p2", "b", (1, 0))})
    assert g2.check("p1", "sort: {perso: cyra, sort: fireball, cible: foe}") == []  # English ids too


def test_heal_and_buffs_target_characters_only_zones_start_from_a_character():
    g = Game({"cyra": mage("p1", "a", (1, 1)), "foe": sheet("p2", "b", (2, 1))},
             npcs={"brute": creature((1, 2)), "porte": {"type": "door", "position": [0, 1], "pv": 9}})
    assert keys(g.check("p1", "sort: {perso: cyra, sort: soin, cible: brute}")) == ["spell_needs_character"]
    assert keys(g.check("p1", "sort: {perso: cyra, sort: benediction, cible: porte}")) == ["spell_needs_character"]
    assert keys(g.check("p1", "sort: {perso: cyra, sort: malediction, cible: brute}")) == ["spell_needs_character"]
    assert keys(g.check("p1", "sort: {perso: cyra, sort: boule_de_feu, cible: brute}")) == ["spell_needs_character"]
    assert g.check("p1", "sort: {perso: cyra, sort: trait_de_feu, cible: porte}") == []  # damage: any target
    assert g.check("p1", "sort: {perso: cyra, sort: boule_de_feu, cible: foe}") == []
    assert g.check("p1", "sort: {perso: cyra, sort: soin, cible: cyra}") == []  # oneself


def test_harmful_spells_cannot_target_ones_own_character_helpful_ones_can():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "aria": sheet("p1", "a", (1, 0))})
    for spell in ("trait_de_feu", "malediction", "boule_de_feu"):
        assert keys(g.check("p1", f"sort: {{perso: cyra, sort: {spell}, cible: aria}}")) == ["own_character"]
    for spell in ("soin", "benediction", "peau_de_pierre"):
        assert g.check("p1", f"sort: {{perso: cyra, sort: {spell}, cible: aria}}") == []


@pytest.mark.parametrize("level, allowed", [(1, False), (2, True), (9, True)])
def test_range_grows_with_the_casters_level(level, allowed):
    g = Game({"cyra": mage("p1", "a", (0, 0), niveau=level), "foe": sheet("p2", "b", (5, 0))})
    r = g.check("p1", "sort: {perso: cyra, sort: trait_de_feu, cible: foe}")
    assert (r == []) is allowed
    if not allowed:
        assert keys(r) == ["out_of_range"] and r[0].params["max"] == 4
    assert R.spell_range(g.rs.rules["spells"]["trait_de_feu"], level) == min(8, 4 + level - 1)


def test_not_enough_pa_for_a_spell():
    g = Game({"cyra": mage("p1", "a", (0, 0), pa=8), "foe": sheet("p2", "b", (1, 0))})
    r = g.check("p1", "sort: {perso: cyra, sort: boule_de_feu, cible: foe}",
                "sort: {perso: cyra, sort: trait_de_feu, cible: foe}")
    assert [(x.key, x.params["need"], x.params["have"]) for x in r] == [("not_enough_pa", 3, 2)]


# -- casting --------------------------------------------------------------------------------------

def test_magic_chance_adds_int_dex_faction_and_effects_capped_at_95():
    g = Game({"cyra": mage("p1", "a", (0, 0), INT=16, DEX=13,
                           effets=[{"nom": "anneau", "stat": "magie", "valeur": 5}]),
              "ally": sheet("p2", "a", (0, 2)), "foe": sheet("p3", "b", (1, 0))})
    g.play({"cyra.magie": 54, "cyra.effet": 1}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: foe}"])
    d = g.detail(g.one("spell"), "cyra", "magie")
    assert [(p["key"], p["value"]) for p in d["parts"]] == [("skill", 40), ("characteristic", 6),
                                                            ("characteristic", 3), ("faction", 3),
                                                            ("effects", 5)]
    assert d["chance"] == 57 and g.one("spell")["cast"]["success"]
    g2 = Game({"cyra": mage("p1", "a", (0, 0), INT=20, competences={"magie": 90}), "foe": sheet("p3", "b", (1, 0))})
    g2.play({"cyra.magie": 96}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: foe}"])
    data = g2.one("spell")
    assert data["cast"] == {**data["cast"], "chance": 95, "success": False}


def test_a_failed_spell_costs_its_pa_gives_no_xp_and_puts_no_words_in_the_casters_mouth():
    g = Game({"cyra": mage("p1", "a", (0, 0), repliques={"sort_rate": "Zut !"}), "foe": sheet("p2", "b", (1, 0))})
    g.play({"cyra.magie": 41}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: foe}"])
    data = g.one("spell")
    assert not data["cast"]["success"] and "effect" not in data and "counter" not in data
    assert g.xp(data) == [] and g.units["cyra"]["xp"] == 0 and g.units["cyra"]["ap"] == 7
    assert "retort" not in data  # the sheet's `repliques` are accepted and ignored
    assert g.units["foe"]["hp"] == 20


def test_a_damage_spell_on_a_character_without_magic_is_not_countered():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "foe": sheet("p2", "b", (3, 0))})
    g.play({"cyra.magie": 40, "cyra.effet": 6}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: foe}"])
    data = g.one("spell")
    assert "counter" not in data
    assert data["effect"]["hits"] == [{"id": "foe", "name": "Foe", "value": 6, "type": "character", "down": False}]
    assert g.units["foe"]["hp"] == 14  # spell damage ignores physical reduction (data: magic.reduction_applies)
    assert g.xp(data) == [("cyra", "spell_success", 3)]


# -- counter-magic ------------------------------------------------------------------------------------

@pytest.mark.parametrize("roll, blocked, reflected", [(9, True, True), (10, True, False), (20, True, False),
                                                      (21, False, False)])
def test_counter_magic_roll_9_reflects_10_blocks_above_the_chance_fails(roll, blocked, reflected):
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=14), "eli": mage("p2", "b", (3, 0))})
    g.play({"cyra.magie": 10, "eli.contre": roll, "cyra.effet": 5},
           p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}"])
    data = g.one("spell")
    counter = data["counter"]
    c = g.detail(data, "eli", "contre")
    assert [(p["key"], p["value"]) for p in c["parts"]] == [("skill", 40), ("characteristic", 0), ("faction", 0),
                                                            ("difficulty", -20)]
    assert counter["chance"] == 20
    assert (counter["success"], counter["perfect"], data.get("reflected", False)) == (blocked, reflected, reflected)
    assert counter["ap_lost"] == (2 if blocked else 0)  # half of 3, rounded up
    assert g.units["eli"]["ap"] == (8 if blocked else 10)
    assert g.units["eli"]["hp"] == (20 if blocked else 15)
    assert g.units["cyra"]["hp"] == (15 if reflected else 20)
    expected_xp = [("eli", "counter", 2)] + ([("eli", "counter_perfect_bonus", 1)] if reflected else []) \
        if blocked else [("cyra", "spell_success", 3)]
    assert g.xp(data) == expected_xp
    if blocked:
        assert "retort" not in data
        assert ("reflect_effect" in data) is reflected and "effect" not in data


def test_a_countering_target_loses_pa_and_may_then_be_short_by_one():
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=14), "eli": mage("p2", "b", (3, 0), DEX=10)})
    # Eli's orders cost 9 of her 10 PA; the counter takes 2 of them before she acts.
    g.play({"cyra.magie": 10, "eli.contre": 15, "eli.magie": 99, "eli.attaque": 99},
           p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}"],
           p2=["sort: {sort: trait_de_feu, cible: cyra}", "tir: cyra", "deplacer: {vers: [3, 2]}"])
    assert [s["counter"]["ap_lost"] for s in g.gm_events("spell") if s["actor"] == "cyra"] == [2]
    lost = g.public("lost")
    assert lost == [{"actor": "eli", "name": "Eli", "action": "deplacer", "reason": "not_enough_pa",
                     "params": {"character": "Eli", "need": 2, "have": 1, "short": 1}}]
    assert g.units["eli"]["position"] == [3, 0] and g.units["eli"]["ap"] == 1


def test_the_pa_lost_to_a_counter_are_at_most_what_is_left():
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=8), "eli": mage("p2", "b", (3, 0), DEX=14)})
    g.play({"cyra.magie": 10, "eli.contre": 15, "eli.magie": 99, "eli.magie.2": 99, "eli.magie.3": 99},
           p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}"],
           p2=["sort: {sort: trait_de_feu, cible: cyra}"] * 3)  # Eli acts first and keeps 1 PA
    spell = [s for s in g.gm_events("spell") if s["actor"] == "cyra"][0]
    assert spell["counter"]["ap_lost"] == 1 and g.units["eli"]["ap"] == 0


def test_only_damage_spells_aimed_at_characters_are_countered():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "eli": mage("p2", "b", (1, 0))}, npcs={"brute": creature((0, 1))})
    g.play({"cyra.magie": 10, "cyra.magie.2": 10},
           p1=["sort: {perso: cyra, sort: malediction, cible: eli}", "sort: {perso: cyra, sort: trait_de_feu, cible: brute}"])
    assert [("counter" in s) for s in g.gm_events("spell")] == [False, False]
    assert not [r for r in g.dice.log if r.label.startswith("eli.contre")]


# -- effects --------------------------------------------------------------------------------------------

def test_heal_restores_pv_up_to_the_maximum():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "aria": sheet("p2", "a", (1, 0), pv=20, pv_max=20)})
    g.units["aria"]["hp"] = 10
    g.play({"cyra.magie": 10, "cyra.effet": 7, "cyra.magie.2": 10, "cyra.effet.2": 10},
           p1=["sort: {perso: cyra, sort: soin, cible: aria}", "sort: {perso: cyra, sort: soin, cible: aria}"])
    first, second = g.gm_events("spell")
    assert first["effect"]["roll"]["expr"] == "1d8+2" and first["effect"]["hits"][0]["value"] == 7
    assert second["effect"]["hits"][0]["value"] == 3  # 17 -> 20, not 27
    assert g.units["aria"]["hp"] == 20


def test_buff_adds_a_temporary_effect_that_counts_then_expires():
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=14), "aria": sheet("p2", "a", (1, 0), DEX=10),
              "foe": creature((2, 0), pv=99)})
    g.play({"cyra.magie": 10, "aria.attaque": 99},
           p1=["sort: {perso: cyra, sort: benediction, cible: aria}"], p2=["melee: foe"])
    assert g.one("spell")["effect"] == {"type": "buff", "hits": [{"id": "aria", "name": "Aria", "value": 10}],
                                        "stat": "attaque", "value": 10, "duration": 2}
    assert g.one("attack")["attack"]["chance"] == 50  # this very turn: 40 + 10
    assert [e["turns"] for e in g.units["aria"]["effects"]] == [1]
    g.play({"aria.attaque": 99}, p2=["melee: foe"])
    assert g.one("attack")["attack"]["chance"] == 50  # the next turn too
    assert g.units["aria"]["effects"] == []
    assert g.public("effects_end")[0]["actor"] == "aria"
    g.play({"aria.attaque": 99}, p2=["melee: foe"])
    assert g.one("attack")["attack"]["chance"] == 40


def test_debuff_lowers_the_targets_dodge():
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=14), "aria": sheet("p1", "a", (5, 5), DEX=12),
              "dag": sheet("p2", "b", (1, 0))})
    g.play({"cyra.magie": 10, "aria.attaque": 10, "dag.esquive": 99},
           p1=["sort: {perso: cyra, sort: malediction, cible: dag}", "deplacer: {perso: aria, vers: [2, 1]}",
               "melee: {perso: aria, cible: dag}"])
    assert g.one("attack")["dodge"]["chance"] == 30 - 15
    assert g.units["dag"]["effects"][0]["value"] == -15


def test_zone_applies_one_roll_to_everyone_around_the_target_but_the_casters_own_characters():
    g = Game({"eli": mage("p1", "b", (0, 3), DEX=14), "own": sheet("p1", "b", (3, 4)),
              "aria": sheet("p2", "a", (3, 3)), "bran": sheet("p3", "a", (4, 4)),
              "far": sheet("p3", "a", (5, 3))},
             npcs={"brute": creature((2, 2)), "porte": {"type": "door", "position": [3, 2], "pv": 9}})
    g.play({"eli.magie": 10, "eli.effet": 7}, p1=["sort: {perso: eli, sort: boule_de_feu, cible: aria}"])
    data = g.one("spell")
    assert data["zone"] == 1.5 and data["effect"]["roll"]["expr"] == "2d6"
    assert [(h["id"], h["value"]) for h in data["effect"]["hits"]] == [("aria", 7), ("bran", 7), ("brute", 7),
                                                                      ("porte", 7)]
    assert g.units["own"]["hp"] == 20 and g.units["far"]["hp"] == 20 and g.units["porte"]["hp"] == 2
    assert len([r for r in g.dice.log if r.label.startswith("eli.effet")]) == 1


def test_zone_heal_touches_characters_only():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "aria": sheet("p1", "a", (1, 0)), "x": sheet("p2", "b", (1, 1))},
             npcs={"brute": creature((2, 1))},
             rules={"spells": {"soin": {"+zone": 1.5}}})
    for uid in ("aria", "x", "brute"):
        g.units[uid]["hp"] = 5
    g.play({"cyra.magie": 10, "cyra.effet": 4}, p1=["sort: {perso: cyra, sort: soin, cible: aria}"])
    assert [h["id"] for h in g.one("spell")["effect"]["hits"]] == ["aria", "cyra", "x"]
    assert g.units["brute"]["hp"] == 5


def test_spell_damage_reduction_can_be_switched_on_by_the_campaign():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "foe": sheet("p2", "b", (1, 0), DEF=25)},
             rules={"magic": {"reduction_applies": True}})
    g.play({"cyra.magie": 10, "cyra.effet": 6}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: foe}"])
    assert g.units["foe"]["hp"] == 20 - (6 - 2)


def test_a_campaign_can_add_a_spell():
    g = Game({"cyra": mage("p1", "a", (0, 0), sorts=["eclair"]), "foe": sheet("p2", "b", (1, 0))},
             rules={"spells": {"+eclair": {"name": {"fr": "Éclair", "en": "Lightning"}, "type": "degats",
                                           "cost": 2, "range": {"base": 2}, "dice": "1d4"}}})
    g.play({"cyra.magie": 10, "cyra.effet": 4}, p1=["sort: {perso: cyra, sort: eclair, cible: foe}"])
    assert g.units["foe"]["hp"] == 16 and g.units["cyra"]["ap"] == 8


def test_counter_magic_caps_at_95():
    g = Game({"cyra": mage("p1", "a", (0, 0)), "eli": mage("p2", "b", (3, 0), INT=20, competences={"magie": 120})})
    g.play({"cyra.magie": 10, "eli.contre": 96, "cyra.effet": 2}, p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}"])
    d = g.detail(g.one("spell"), "eli", "contre")
    assert (d["raw"], d["chance"], d["cap"]) == (110, 95, 95)
    assert not g.one("spell")["counter"]["success"] and g.units["eli"]["hp"] == 18


def test_a_caster_downed_by_its_own_reflected_spell_loses_the_rest_of_its_turn():
    g = Game({"cyra": mage("p1", "a", (0, 0), DEX=14, pv=3), "eli": mage("p2", "b", (3, 0))})
    g.play({"cyra.magie": 10, "eli.contre": 2, "cyra.effet": 5},
           p1=["sort: {perso: cyra, sort: trait_de_feu, cible: eli}", "deplacer: {vers: [0, 1]}", "tir: eli"])
    spell = g.one("spell")
    assert spell["reflect_effect"]["hits"] == [{"id": "cyra", "name": "Cyra", "value": 5, "type": "character",
                                                "down": True}]
    assert g.public("down_skip") == [{"actor": "cyra", "name": "Cyra", "count": 2}]
    assert g.units["cyra"]["position"] == [0, 0]
    assert g.units["eli"]["stats"]["downed"] == 1  # the reflection is the counterer's doing
