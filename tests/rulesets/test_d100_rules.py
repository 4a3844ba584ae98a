"""d100 rules, each pinned with forced rolls: the check and its criticals (with
the seed's own examples), skills, trust, alignment, gauges, generation."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbp.base.errors import InputError
from pbp.model import events as ev
from pbp.model.dice import Dice
from pbp.rulesets.d100 import rules as R

from .test_d100_support import SECRET, of, resolve, ruleset, scenario, setup_state, sheet

RULES = ruleset().rules


def one_check(actions, forced, sc=None, state_edit=None, gm=None, rs=None, player="kira"):
    rs = rs or ruleset()
    sc = sc or scenario()
    state = setup_state(rs, sc)
    if state_edit:
        state_edit(state)
    new, events, dice = resolve(rs, sc, state, {player: actions}, gm=gm, forced=forced)
    return new, events, of(events, "check_detail", player)


# -- the check and its criticals -------------------------------------------------------------

def test_seed_example_1_44_against_physique_50_is_a_success():
    _, events, [check] = one_check([{"jet": "physique"}], {"kira.jet": 44})
    assert check.data["chance"] == 50
    assert check.data["roll"]["total"] == 44
    assert check.data["outcome"] == "success"
    assert of(events, "check")[0].data["outcome"] == "success"


def test_seed_example_2_96_against_physique_50_is_a_critical_failure():
    _, _, [check] = one_check([{"jet": "physique"}], {"kira.jet": 96})
    assert (check.data["chance"], check.data["outcome"]) == (50, "critical_failure")


def test_51_against_50_fails_and_50_succeeds():
    assert one_check([{"jet": "physique"}], {"kira.jet": 51})[2][0].data["outcome"] == "failure"
    assert one_check([{"jet": "physique"}], {"kira.jet": 50})[2][0].data["outcome"] == "success"


@pytest.mark.parametrize("roll", [1, 3, 5])
def test_1_to_5_is_a_critical_success_even_with_no_chance(roll):
    # Physique 50 - 50 modifier - discretion (-1: -5) = -5: no chance at all
    _, _, [check] = one_check([{"jet": {"carac": "physique", "competence": "discretion", "modificateur": -50}}],
                              {"kira.jet": roll})
    assert check.data["chance"] == -5
    assert check.data["outcome"] == "critical_success"


def test_6_is_a_plain_failure_when_the_chance_is_5():
    _, _, [check] = one_check([{"jet": {"carac": "physique", "modificateur": -45}}], {"kira.jet": 6})
    assert (check.data["chance"], check.data["outcome"]) == (5, "failure")


@pytest.mark.parametrize("roll", [96, 100])
def test_96_to_100_is_a_critical_failure_even_above_100(roll):
    # Logique 67 + piratage 1 (+5) + 50 = 122
    _, _, [check] = one_check([{"jet": {"carac": "logique", "competence": "piratage", "modificateur": 50}}],
                              {"kira.jet": roll})
    assert check.data["chance"] == 122
    assert check.data["outcome"] == "critical_failure"


def test_95_succeeds_at_chance_95():
    _, _, [check] = one_check([{"jet": {"carac": "physique", "modificateur": 45}}], {"kira.jet": 95})
    assert (check.data["chance"], check.data["outcome"]) == (95, "success")


def test_critical_ranges_come_from_the_data():
    rs = ruleset({"check": {"critical_success": {"min": 1, "max": 2}, "critical_failure": {"min": 99, "max": 100}}})
    assert one_check([{"jet": "physique"}], {"kira.jet": 3}, rs=rs)[2][0].data["outcome"] == "success"
    assert one_check([{"jet": "physique"}], {"kira.jet": 97}, rs=rs)[2][0].data["outcome"] == "failure"
    assert one_check([{"jet": "physique"}], {"kira.jet": 99}, rs=rs)[2][0].data["outcome"] == "critical_failure"


@given(roll=st.integers(1, 100), chance=st.integers(-50, 200))
def test_outcome_follows_the_rule_for_any_roll(roll, chance):
    result = R.outcome(roll, chance, RULES)
    if roll <= 5:
        assert result == "critical_success"
    elif roll >= 96:
        assert result == "critical_failure"
    else:
        assert result == ("success" if roll <= chance else "failure")


# -- skills and modifiers ------------------------------------------------------------------------

def test_each_skill_point_is_5_percent():
    _, _, [check] = one_check([{"jet": {"carac": "mental", "competence": "persuasion"}}], {"kira.jet": 70})
    assert [t["value"] for t in check.data["terms"]] == [60, 10]
    assert (check.data["chance"], check.data["outcome"]) == (70, "success")


def test_a_malus_skill_lowers_the_chance_and_names_are_matched_loosely():
    _, _, [check] = one_check([{"jet": {"carac": "mental", "competence": "Discrétion"}}], {"kira.jet": 56})
    assert check.data["skill"] == "discretion"
    assert (check.data["chance"], check.data["outcome"]) == (55, "failure")


def test_impotent_minus_4_is_minus_20():
    sc = scenario({"kira": sheet(competences={"autres": {"chant": 2, "nage": -4}}, force=0, equipement=[])})
    # bonus 2 < malus 4 breaks "more bonus than malus": the sheet is refused
    assert [p.key for p in ruleset().validate_scenario(sc)] == ["d100.skill_balance"]
    sc = scenario({"kira": sheet(competences={"autres": {"chant": 3, "vol": 2, "nage": -4}}, force=0, equipement=[])})
    assert ruleset().validate_scenario(sc) == []
    _, _, [check] = one_check([{"jet": {"carac": "physique", "competence": "nage"}}], {"kira.jet": 31}, sc=sc)
    assert (check.data["chance"], check.data["outcome"]) == (30, "failure")


def test_situational_modifier_in_percent():
    _, _, [check] = one_check([{"jet": {"carac": "physique", "modificateur": -10}}], {"kira.jet": 41})
    assert (check.data["chance"], check.data["outcome"]) == (40, "failure")


@pytest.mark.parametrize("face,points", [(1, -2), (2, -2), (3, -1), (4, 0), (5, 1), (6, 2)])
def test_situational_die_spreads_over_the_range(face, points):
    assert R.situation_modifier(face, "1d6", 2) == points


def test_a_skill_noted_with_a_die_rolls_its_situation():
    # pilotage: 1d6, range 2; a 6 gives +2 points = +10
    _, _, [check] = one_check([{"jet": {"carac": "logique", "competence": "pilotage"}}],
                              {"kira.situation": 6, "kira.jet": 77})
    die = [t for t in check.data["terms"] if t["kind"] == "skill_die"][0]
    assert (die["roll"]["total"], die["points"], die["value"]) == (6, 2, 10)
    assert (check.data["chance"], check.data["outcome"]) == (77, "success")


def test_the_mjs_situational_die_applies_to_that_players_checks_this_turn():
    gm = {"situation": [{"joueur": "kira", "de": "1d10", "plage": 2, "raison": "l'alarme", "public": "oui"}]}
    new, events, checks = one_check([{"jet": "physique"}, {"jet": "mental"}], {"kira.situation": 1, "kira.jet": 45,
                                                                            "kira.jet.2": 45}, gm=gm)
    assert [c.data["chance"] for c in checks] == [40, 50]
    assert [c.data["outcome"] for c in checks] == ["failure", "success"]
    [public] = of(events, "situation")
    assert public.audience == ev.PUBLIC and public.data["points"] == -2


def test_repeated_checks_get_numbered_labels():
    _, _, checks = one_check([{"jet": "physique"}, {"jet": "physique"}], {"kira.jet": 10, "kira.jet.2": 90})
    assert [c.data["roll"]["label"] for c in checks] == ["kira.jet", "kira.jet.2"]
    assert [c.data["outcome"] for c in checks] == ["success", "failure"]


# -- trust ----------------------------------------------------------------------------------------

def set_trust(values: dict, faction="syndicat"):
    def edit(state):
        for handle, value in values.items():
            state["characters"][handle]["trust"][faction] = value
    return edit


def test_seed_trust_example_logic_67_with_plus_2_is_69():
    _, _, [check] = one_check([{"jet": {"carac": "logique", "faction": "syndicat"}}], {"kira.jet": 69},
                              state_edit=set_trust({"kira": 2, "brann": 0, "tia": -1}))
    trust = [t for t in check.data["terms"] if t["kind"] == "trust"][0]
    assert (trust["level"], trust["doubled"], trust["value"]) == (2, False, 2)
    assert (check.data["chance"], check.data["outcome"]) == (69, "success")


def test_seed_trust_example_logic_67_with_minus_1_is_66():
    _, _, [check] = one_check([{"jet": {"carac": "logique", "faction": "Syndicat de la Bordure"}}], {"kira.jet": 67},
                              state_edit=set_trust({"kira": -1, "brann": 1}))
    assert (check.data["chance"], check.data["outcome"]) == (66, "failure")


def test_whole_group_positive_doubles_trust():
    _, _, [check] = one_check([{"jet": {"carac": "logique", "faction": "syndicat"}}], {"kira.jet": 50},
                              state_edit=set_trust({"kira": 2, "brann": 1, "tia": 4}))
    trust = [t for t in check.data["terms"] if t["kind"] == "trust"][0]
    assert (trust["effective"], trust["doubled"]) == (4, True)
    assert check.data["chance"] == 71


def test_whole_group_negative_doubles_the_malus():
    _, _, [check] = one_check([{"jet": {"carac": "logique", "faction": "syndicat"}}], {"kira.jet": 50},
                              state_edit=set_trust({"kira": -3, "brann": -1, "tia": -5}))
    assert check.data["chance"] == 61


def test_group_doubling_is_capped_at_10():
    rs = ruleset({"trust": {"cap": 8}})
    _, _, [check] = one_check([{"jet": {"carac": "logique", "faction": "syndicat"}}], {"kira.jet": 50}, rs=rs,
                              state_edit=set_trust({"kira": 5, "brann": 1, "tia": 1}))
    assert check.data["chance"] == 67 + 8
    assert R.effective_trust(5, [5, 5, 5], RULES) == (10, True)
    assert R.effective_trust(-5, [-5, -1, -2], RULES) == (-10, True)


def test_a_zero_in_the_group_breaks_the_doubling():
    assert R.effective_trust(3, [3, 0, 2], RULES) == (3, False)


@pytest.mark.parametrize("roll,delta", [(3, 1), (40, 1), (80, -1), (99, -1)])
def test_success_gains_one_trust_failure_loses_one(roll, delta):
    new, events, [check] = one_check([{"jet": {"carac": "mental", "faction": "syndicat"}}], {"kira.jet": roll},
                                     state_edit=set_trust({"kira": 1}))
    assert new["characters"]["kira"]["trust"]["syndicat"] == 1 + delta
    [change] = of(events, "trust_change", "kira")
    assert (change.data["before"], change.data["after"]) == (1, 1 + delta)


def test_trust_stays_within_minus_5_plus_5():
    new, _, _ = one_check([{"jet": {"carac": "mental", "faction": "syndicat"}}], {"kira.jet": 10},
                          state_edit=set_trust({"kira": 5}))
    assert new["characters"]["kira"]["trust"]["syndicat"] == 5
    new, _, _ = one_check([{"jet": {"carac": "mental", "faction": "syndicat"}}], {"kira.jet": 90},
                          state_edit=set_trust({"kira": -5}))
    assert new["characters"]["kira"]["trust"]["syndicat"] == -5


def test_checks_of_one_turn_use_the_trust_of_the_start_of_the_turn():
    new, events, checks = one_check([{"jet": {"carac": "mental", "faction": "syndicat"}},
                                     {"jet": {"carac": "mental", "faction": "syndicat"}}],
                                    {"kira.jet": 10, "kira.jet.2": 20}, state_edit=set_trust({"kira": 2}))
    assert [c.data["chance"] for c in checks] == [62, 62]
    assert new["characters"]["kira"]["trust"]["syndicat"] == 4


def test_the_mj_sets_the_starting_trust_before_the_checks():
    gm = {"confiance": [{"faction": "syndicat", "niveau": 3, "joueurs": ["kira"]},
                        {"faction": "empire", "niveau": -2}]}
    new, events, [check] = one_check([{"jet": {"carac": "mental", "faction": "syndicat"}}], {"kira.jet": 50}, gm=gm)
    assert check.data["chance"] == 63
    assert new["characters"]["kira"]["trust"]["syndicat"] == 4
    assert {h: c["trust"].get("empire") for h, c in new["characters"].items()} == {"kira": -2, "brann": -2,
                                                                                     "tia": -2}
    assert all(e.audience != ev.PUBLIC for e in of(events, "trust_set"))


# -- alignment ----------------------------------------------------------------------------------------

def test_stable_state_gives_10_on_matching_intent():
    # tia: 10 light points, stable
    _, _, [check] = one_check([{"jet": {"carac": "logique", "intention": "clair"}}], {"tia.jet": 85}, player="tia")
    assert [t["kind"] for t in check.data["terms"]] == ["carac", "stable"]
    assert (check.data["chance"], check.data["outcome"]) == (85, "success")


def test_no_stable_bonus_without_intent_or_when_oscillating():
    _, _, [check] = one_check([{"jet": "logique"}], {"tia.jet": 80}, player="tia")
    assert check.data["chance"] == 75
    _, _, [check] = one_check([{"jet": {"carac": "logique", "intention": "clair"}}], {"kira.jet": 80})
    assert check.data["chance"] == 67  # kira: 6 light points, not stable


def gm_alignment(handle, reaction, **extra):
    return {"alignement": [{"joueur": handle, "reaction": reaction, **extra}]}


def test_alignment_event_accepted_when_player_d20_is_at_most_the_mjs():
    new, events, _ = one_check([], {"kira.alignement.mj": 12, "kira.alignement.joueur": 12},
                               gm=gm_alignment("kira", "obscur"))
    [event] = of(events, "alignment_event", "kira")
    assert event.data["accepted"] and event.data["side"] == "obscur"
    assert (event.data["before"], event.data["after"]) == (6, 5)
    assert new["characters"]["kira"]["light"] == 5
    assert event.audience == ev.Players("kira")


def test_alignment_event_inverted_when_player_d20_is_higher():
    new, events, _ = one_check([], {"kira.alignement.mj": 12, "kira.alignement.joueur": 13},
                               gm=gm_alignment("kira", "obscur", points=2))
    [event] = of(events, "alignment_event", "kira")
    assert not event.data["accepted"] and event.data["side"] == "clair"
    assert new["characters"]["kira"]["light"] == 8


def test_alignment_event_can_reach_the_stable_state():
    def nine(state):
        state["characters"]["kira"]["light"] = 9
    new, events, _ = one_check([], {"kira.alignement.mj": 20, "kira.alignement.joueur": 1},
                               gm=gm_alignment("kira", "clair"), state_edit=nine)
    assert new["characters"]["kira"]["light"] == 10
    assert of(events, "alignment_event")[0].data["stable_after"] == "clair"


def test_a_stable_state_holds_against_an_inverted_reaction():
    new, events, _ = one_check([], {"tia.alignement.mj": 2, "tia.alignement.joueur": 19},
                               gm=gm_alignment("tia", "clair"), player="tia")
    [event] = of(events, "alignment_event", "tia")
    assert event.data["side"] == "obscur" and event.data["held"]
    assert new["characters"]["tia"]["light"] == 10


def test_grave_event_breaks_the_stable_state_when_the_d50_is_at_most_the_5d10():
    gm = {"evenement_grave": [{"joueur": "tia", "description": "la mort de son frère"}]}
    new, events, _ = one_check([], {"tia.rupture.joueur": [5, 5, 5, 5, 5], "tia.rupture.mj": 25}, gm=gm,
                               player="tia")
    [event] = of(events, "rupture", "tia")
    assert (event.data["reference"]["total"], event.data["gm_roll"]["total"], event.data["broken"]) == (25, 25, True)
    assert new["characters"]["tia"]["light"] == 9
    assert event.data["stable_after"] is None


def test_grave_event_holds_when_the_d50_is_higher():
    gm = {"evenement_grave": [{"joueur": "tia"}]}
    new, events, _ = one_check([], {"tia.rupture.joueur": [5, 5, 5, 5, 5], "tia.rupture.mj": 26}, gm=gm,
                               player="tia")
    assert not of(events, "rupture")[0].data["broken"]
    assert new["characters"]["tia"]["light"] == 10


def test_manipulation_by_an_npc_breaks_the_stable_state_on_a_success():
    gm = {"manipulation": [{"joueur": "tia", "chance": 40, "description": "l'Inquisiteur"}]}
    new, events, _ = one_check([], {"tia.manipulation": 40}, gm=gm, player="tia")
    [event] = of(events, "manipulation", "tia")
    assert (event.data["outcome"], event.data["broken"]) == ("success", True)
    assert new["characters"]["tia"]["light"] == 9


def test_manipulation_by_a_player_character_uses_their_sheet():
    gm = {"manipulation": [{"joueur": "tia", "par": "brann", "carac": "mental", "competence": "intimidation"}]}
    new, events, _ = one_check([], {"tia.manipulation": 56}, gm=gm, player="tia")
    [event] = of(events, "manipulation", "tia")
    assert (event.data["chance"], event.data["outcome"], event.data["broken"]) == (55, "failure", False)
    assert of(events, "manipulation_by", "brann")[0].audience == ev.Players("brann")


def test_end_of_level_moves_alignment_at_most_2_points():
    rs = ruleset()
    sc = scenario()
    state = setup_state(rs, sc)
    new, events, _ = resolve(rs, sc, state, {}, gm={"fin_de_niveau": [{"joueur": "kira", "alignement": -2}]})
    assert new["characters"]["kira"]["light"] == 4 and new["level"] == 2
    from pbp.model.orders import GmOrders
    refused = rs.check_gm(state, sc, GmOrders(1, orders={"fin_de_niveau": [{"joueur": "kira", "alignement": 3}]}))
    assert [r.key for r in refused] == ["end_of_level_limit"]
    assert refused[0].at == ("fin_de_niveau", 0, "alignement")


def test_alignment_drawn_at_set_up_when_the_sheet_has_none():
    rs = ruleset()
    sc = scenario({"kira": sheet(alignement=None)})
    del sc.characters["kira"]["alignement"]
    state = setup_state(rs, sc, {"kira.alignement": 7})
    assert state["characters"]["kira"]["light"] == 7


# -- gauges -------------------------------------------------------------------------------------------

def test_a_complex_check_costs_an_action_point_and_a_force_power_a_force_point():
    new, _, checks = one_check([{"jet": {"carac": "logique", "competence": "piratage", "type": "complexe"}},
                                {"jet": {"carac": "mental", "competence": "telekinesie"}}],
                               {"kira.jet": 50, "kira.jet.2": 50})
    assert [c.data["spent"] for c in checks] == [{"action": 1}, {"force": 1}]
    assert (new["characters"]["kira"]["action"], new["characters"]["kira"]["force"]) == (3, 2)


def test_a_simple_check_costs_nothing():
    new, _, [check] = one_check([{"jet": "logique"}], {"kira.jet": 50})
    assert check.data["spent"] == {}
    assert new["characters"]["kira"]["action"] == 4


def everyone_idle(rs, sc, state, orders=None, gm=None, forced=None):
    all_orders = {h: [{"rien": None}] for h in sc.roster}
    all_orders.update(orders or {})
    return resolve(rs, sc, state, all_orders, gm=gm, forced=forced)


def test_a_full_turn_without_action_gives_everyone_a_point():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    state["characters"]["kira"]["action"] = 1
    state["characters"]["kira"]["force"] = 1
    state["characters"]["brann"]["action"] = 2
    new, events, _ = everyone_idle(rs, sc, state, orders={"kira": [{"rien": "force"}]})
    assert new["characters"]["kira"]["force"] == 2 and new["characters"]["kira"]["action"] == 1
    assert new["characters"]["brann"]["action"] == 3
    assert of(events, "quiet_turn")[0].audience == ev.PUBLIC
    [tia] = of(events, "recovery", "tia")
    assert tia.data["gauge"] is None  # already full


def test_one_action_anywhere_means_no_quiet_turn():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    state["characters"]["brann"]["action"] = 2
    new, events, _ = everyone_idle(rs, sc, state, orders={"kira": [{"jet": "physique"}]}, forced={"kira.jet": 3})
    assert new["characters"]["brann"]["action"] == 2
    assert not of(events, "quiet_turn")


def test_sleeping_gives_one_point_even_in_a_quiet_turn():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    state["characters"]["kira"]["action"] = 0
    new, events, _ = everyone_idle(rs, sc, state, orders={"kira": [{"dormir": None}]})
    assert new["characters"]["kira"]["action"] == 1
    assert of(events, "recovery", "kira")[0].data["sources"] == ["sleep", "quiet"]
    rs2 = ruleset({"recovery": {"per_turn_max": 2}})  # a campaign making it cumulative
    new, _, _ = everyone_idle(rs2, sc, state, orders={"kira": [{"dormir": None}]})
    assert new["characters"]["kira"]["action"] == 2


def test_sleeping_while_others_act_recovers_the_chosen_gauge():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    state["characters"]["kira"]["force"] = 0
    new, events, _ = resolve(rs, sc, state, {"kira": [{"dormir": "force"}], "brann": [{"jet": "physique"}]},
                             forced={"brann.jet": 50})
    assert new["characters"]["kira"]["force"] == 1
    assert of(events, "recovery", "kira")[0].data["sources"] == ["sleep"]
    assert not of(events, "recovery", "brann")


def test_sleep_heals_only_when_one_pv_is_missing():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    state["characters"]["kira"]["pv"] = 9
    state["characters"]["brann"]["pv"] = 8
    new, _, _ = everyone_idle(rs, sc, state, orders={"kira": [{"dormir": None}], "brann": [{"dormir": None}]})
    assert new["characters"]["kira"]["pv"] == 10
    assert new["characters"]["brann"]["pv"] == 8


def test_a_specific_malus_stops_sleep_healing():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    after, _, _ = everyone_idle(rs, sc, state, gm={"jauge": [{"joueur": "kira", "pv": -1, "sans_soin": "oui"}]})
    assert after["characters"]["kira"]["pv"] == 9 and after["characters"]["kira"]["no_sleep_heal"]
    new, events, _ = everyone_idle(rs, sc, after, orders={"kira": [{"dormir": None}]})
    assert new["characters"]["kira"]["pv"] == 9
    [told] = of(events, "sleep_no_heal", "kira")
    assert told.audience == ev.Players("kira")
    assert of(events, "gauge_change", "kira") == []


def test_pv_at_0_takes_the_character_out_and_healing_brings_them_back():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    new, events, _ = everyone_idle(rs, sc, state, gm={"jauge": [{"joueur": "brann", "pv": -15, "raison": "tir"}]})
    assert new["characters"]["brann"]["pv"] == 0 and new["characters"]["brann"]["down"]
    assert of(events, "down", "brann")[0].audience == ev.PUBLIC
    assert rs.players_to_play(new, sc) == ["kira", "tia"]
    assert not rs.is_over(new)
    healed, events, _ = resolve(rs, sc, new, {"kira": [{"utiliser": {"objet": "medpac", "cible": "brann"}}],
                                              "tia": [{"rien": None}]})
    assert healed["characters"]["brann"]["pv"] == 3 and not healed["characters"]["brann"]["down"]
    [up] = of(events, "up", "brann")
    assert up.audience == ev.PUBLIC
    assert healed["characters"]["kira"]["uses"]["medpac"] == 0


def test_everyone_down_ends_the_game():
    rs, sc = ruleset(), scenario()
    state = setup_state(rs, sc)
    gm = {"jauge": [{"joueur": h, "pv": -20} for h in sc.roster]}
    new, _, _ = everyone_idle(rs, sc, state, gm=gm)
    assert rs.is_over(new)
    assert not ruleset({"all_down_ends_game": False}).is_over(new)


def test_an_item_with_a_check_applies_its_effect_only_on_success():
    sc = scenario({"kira": sheet(equipement=[{"nom": "Stimulant", "effet": {"action": 2},
                                              "jet": {"carac": "logique", "competence": "piratage"}}])})
    rs = ruleset()
    state = setup_state(rs, sc)
    state["characters"]["kira"]["action"] = 1
    new, events, _ = resolve(rs, sc, state, {"kira": [{"utiliser": "stimulant"}]}, forced={"kira.jet": 72})
    assert new["characters"]["kira"]["action"] == 3
    assert of(events, "use")[0].data["outcome"] == "success"
    new, events, _ = resolve(rs, sc, state, {"kira": [{"utiliser": "stimulant"}]}, forced={"kira.jet": 73})
    assert new["characters"]["kira"]["action"] == 1
    assert not of(events, "use_detail")[0].data["applied"]


# -- generation ------------------------------------------------------------------------------------------

def gen(forced, counts=None, gauges=None):
    dice = Dice(SECRET, -1, forced)
    return R.generate_sheet(RULES, dice, "kira", "Kira", counts or {"physique": 3, "logique": 6, "mental": 9},
                            gauges)


def test_generation_adds_nd4_at_30_or_less_and_removes_nd6_at_80_or_more():
    sheet_, draw = gen({"kira.physique": 30, "kira.physique.bonus": [4, 4, 1],
                        "kira.logique": 55,
                        "kira.mental": 80, "kira.mental.malus": [6, 6, 6, 6, 6, 6, 6, 6, 1],
                        "kira.alignement": 4})
    assert (sheet_["physique"], sheet_["logique"], sheet_["mental"]) == (39, 55, 31)
    kinds = [c["kind"] for c in draw["characteristics"]]
    assert kinds == ["low", None, "high"]
    assert draw["characteristics"][0]["correction"].expr == "3d4"
    assert draw["characteristics"][2]["correction"].expr == "9d6"
    assert sheet_["alignement"] == 4


def test_generation_31_and_79_are_not_corrected():
    sheet_, draw = gen({"kira.physique": 30, "kira.logique": 31, "kira.mental": 79},
                       counts={"physique": 4, "logique": 4, "mental": 9})
    assert (sheet_["logique"], sheet_["mental"]) == (31, 79)
    assert [c["kind"] for c in draw["characteristics"]] == ["low", None, None]


def test_generation_uses_separate_d4_d6_counts_and_gauge_dice():
    sheet_, draw = gen({"kira.physique": 12, "kira.physique.bonus": [2], "kira.logique": 90,
                        "kira.logique.malus": [3, 3], "kira.mental": 50, "kira.pv": 11},
                       counts={"physique": (2, 1, 1), "logique": (10, 2, 2), "mental": 6},
                       gauges={"pv": "2d6+4", "force": "0", "action": 4})
    assert (sheet_["physique"], sheet_["logique"], sheet_["mental"]) == (14, 84, 50)
    assert (sheet_["pv"], sheet_["force"], sheet_["action"]) == (11, 0, 4)
    assert set(sheet_["competences"]) == {"armes", "techniques", "autres", "speciales"}


def test_a_generated_sheet_is_a_valid_sheet():
    sheet_, _ = gen({})
    sc = scenario({"kira": sheet_})
    assert ruleset().validate_scenario(sc) == []


def test_generation_is_deterministic_per_secret_and_handle():
    assert gen({})[0] == gen({})[0]
    other = R.generate_sheet(RULES, Dice(SECRET, -2, {}), "kira", "Kira",
                             {"physique": 3, "logique": 6, "mental": 9})[0]
    assert other != gen({})[0]


# -- sheets ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("skills,text", [
    ({"autres": {"a": 3, "b": 3, "c": 1}},
     "characters.yaml: kira.competences.autres : 7 points de bonus et 0 de malus en « autres » ; 6 au plus de "
     "chaque."),
    ({"autres": {"a": 1, "b": -1}},
     "characters.yaml: kira.competences.autres : en « autres », il faut plus de bonus que de malus (1 contre 1)."),
    ({"autres": {"a": 4}}, "characters.yaml: kira.competences.autres.a : niveau 4 impossible ; de -4 à 3."),
    ({"autres": {"a": -5}}, "characters.yaml: kira.competences.autres.a : niveau -5 impossible ; de -4 à 3."),
    ({"autre_chose": {"a": 1}},
     "characters.yaml: kira.competences.autre_chose : catégorie de compétences inconnue « autre_chose ». "
     "Vouliez-vous dire « autres » ? Valeurs possibles : armes, techniques, autres, speciales."),
])
def test_sheet_limits(skills, text):
    # without piratage the lock-picking kit's check names a skill the sheet lacks: the second problem
    sc = scenario({"kira": sheet(competences=skills)})
    problems = ruleset().validate_scenario(sc)
    assert [p.key for p in problems][1:] == ["d100.item_unknown_skill"]
    assert problems[0].text("fr") == text


def test_sheet_problems_name_the_file_and_the_place():
    sc = scenario({"kira": sheet(physique=120, pyhsique=3)})
    problems = ruleset().validate_scenario(sc)
    assert [p.text("fr") for p in problems] == [
        "characters.yaml: kira.pyhsique : clé inconnue « pyhsique ». Vouliez-vous dire « physique » ? Valeurs "
        "possibles : nom, physique, logique, mental, pv, force, action, alignement, travers, competences, "
        "inventaire, equipement, armement, confiance, espece, histoire, notes, generation, genre.",
        "characters.yaml: kira.physique : physique doit être un entier de 0 à 100 (trouvé : 120)."]
    assert [p.params["where"] for p in problems] == ["kira.pyhsique", "kira.physique"]  # the core places them


def test_a_roster_player_without_a_sheet_is_reported():
    sc = scenario()
    sc.roster["zed"] = {"character": "Zed"}
    problems = ruleset().validate_scenario(sc)
    assert [p.key for p in problems] == ["d100.sheet_missing"]


def test_a_player_added_to_the_roster_joins_at_the_next_turn():
    rs = ruleset()
    full = scenario()
    two = scenario({h: full.characters[h] for h in ("kira", "brann")})
    state = setup_state(rs, two)
    later = scenario({**full.characters, "zed": sheet(nom="Zed", alignement=None, force=0, equipement=[],
                                                      competences={})})
    del later.characters["zed"]["alignement"]
    assert rs.players_to_play(state, later) == ["kira", "brann", "tia", "zed"]
    new, events, _ = resolve(rs, later, state, {"zed": [{"jet": "physique"}]}, forced={"zed.alignement": 3,
                                                                                       "zed.jet": 20})
    assert new["characters"]["zed"]["light"] == 3 and new["characters"]["tia"]["light"] == 10
    assert [e.data["player"] for e in of(events, "joined")] == ["tia", "zed"]
    assert of(events, "check_detail", "zed")[0].data["outcome"] == "success"


@pytest.mark.parametrize("edit,key,text", [
    (lambda c, w: w.update(factions=["empire"]), "d100.factions_not_mapping",
     "world.yaml: factions: `factions` maps an id to each faction (empire: {nom: Galactic Empire})."),
    (lambda c, w: c["kira"].update(pv="10"), "d100.bad_gauge",
     "characters.yaml: kira.pv: the pv gauge must be a whole number, 0 or more (found: 10)."),
    (lambda c, w: c["kira"].update(competences={"armes": ["sabre"]}), "d100.category_not_mapping",
     "characters.yaml: kira.competences.armes: a category maps each skill to its level (piratage: 2)."),
    (lambda c, w: c["kira"].update(equipement=[{"effet": {"pv": 2}}]), "d100.item_no_name",
     "characters.yaml: kira.equipement.1: an item needs a name."),
    (lambda c, w: c["kira"].update(equipement=[{"nom": "X", "effet": {"pv": "2"}}]), "d100.bad_item_effect",
     "characters.yaml: kira.equipement.1: `effet` maps a gauge to a number of points (pv: 3). "
     "Valid values: pv, force, action."),
    (lambda c, w: c["kira"].update(confiance={"hutts": 1}), "d100.sheet_unknown_faction",
     "characters.yaml: kira.confiance.hutts: unknown faction `hutts` (world.yaml, factions). "
     "Valid values: empire, syndicat."),
    (lambda c, w: c["kira"].update(alignement=11), "d100.bad_alignment",
     "characters.yaml: kira.alignement: the alignment is the number of light points, 0 to 10 (found: 11)."),
    (lambda c, w: c.update(kira="Kira"), "d100.sheet_not_mapping",
     "characters.yaml: kira: a sheet is a mapping (nom, physique, logique, mental...)."),
])
def test_bad_sheets_and_worlds_are_reported_not_crashed(edit, key, text):
    sc = scenario()
    edit(sc.characters, sc.world)
    problems = ruleset().validate_scenario(sc)
    assert problems[0].key == key and isinstance(problems[0], InputError)
    assert problems[0].text("en") == text
