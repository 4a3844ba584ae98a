"""The d100 as data (campaigns/d100-data/rules.yaml) gives the built-in d100's
numbers: the d100 tests' scenarios (tests/rulesets/test_d100_rules.py: the same
sheets, orders and forced dice) played through both rulesets by the real CLI
(`pbp setup`, `pbp run`), every check's chance, die and outcome (criticals
included), skill points, the skill's and the MJ's situational dice, Action and
Force costs, trust set by the MJ, read in the chance and moved by the check,
the stable state's bonus, the MJ's damage and the alignment event compared.

The same order file is played by both: the data's `jet` takes the built-in's
fields (pbp/rulesets/data/fields.py). The MJ's gm.yaml says the same things in
each ruleset's words (`confiance: {faction, niveau, joueurs}` is
`confiance_syndicat: {kira: 2}` in the data), and the forced dice carry each
ruleset's labels (`kira.jet` is `kira.jet.d100`, the skill's die `kira.situation`
is the chance's `kira.jet.d1`, the MJ's `kira.situation` is `kira.situation.d1`,
the alignment event's `kira.alignement.joueur` / `.mj` are `kira.alignement.d1` / `.d2`).

What the data does NOT say as the built-in does (rules.yaml's first comments
too), so no scenario here plays it: trust doubled when the whole group is on one
side (it reads the other characters' trust); trust moved after each check
rather than after all the turn's checks; costs checked per action rather than
added up over the turn; per-character gauge maxima and recovery (quiet turns,
sleep); a skill not on the sheet refused (it is worth 0); skill budgets,
generation, items, rupture and manipulation; a character at 0 PV healed back
(out for good in the data); a skill's die other than 1d6 over -2..+2.
"""

from __future__ import annotations

import shutil

import pytest

from pbp.base import yamlio
from tests.helpers import REPO, pbp, write

from .test_d100_support import FACTIONS, scenario, sheet

RULES = REPO / "campaigns" / "d100-data" / "rules.yaml"
OUTCOME = {(True, "success"): "critical_success", (False, "failure"): "critical_failure", (True, None): "success",
           (False, None): "failure"}


def flat(d100_sheet: dict) -> dict:
    """A d100 sheet as the data's characters.yaml says it: skills as stats, their kinds as lists."""
    out = {k: d100_sheet[k] for k in ("physique", "logique", "mental", "pv", "force", "action")}
    out["lumiere"] = d100_sheet["alignement"]
    lists = {"pouvoirs": [], "passives": [], "avec_de": []}
    for skills in d100_sheet.get("competences", {}).values():
        for name, skill in skills.items():
            skill = skill if isinstance(skill, dict) else {"niveau": skill}
            out[name] = skill.get("niveau", 0)
            for key, flag in (("pouvoirs", "force"), ("passives", "passif"), ("avec_de", "de")):
                if skill.get(flag):
                    lists[key].append(name)
    out.update({k: v for k, v in lists.items() if v})
    return out


def campaign(root, ruleset: str, sheets: dict):
    players = {h: s["nom"] for h, s in sheets.items()}
    write(root, "campaign.yaml", {"ruleset": ruleset, "title": "d100", "lang": "fr", "format": "markdown",
                                  "secret": "d100-as-data", "players": players, "default_orders": ["rien"]})
    if ruleset == "d100":
        write(root, "characters.yaml", sheets)
        write(root, "world.yaml", {"factions": FACTIONS})
    else:
        write(root, "characters.yaml", {h: flat(s) for h, s in sheets.items()})
        shutil.copy(RULES, root / "rules.yaml")
    r = pbp("setup", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    return root


@pytest.fixture(scope="module")
def bases(tmp_path_factory):
    base = tmp_path_factory.mktemp("bases")
    sheets = scenario().characters
    return {rs: campaign(base / rs, rs, sheets) for rs in ("d100", "data")}


def play(bases, tmp_path, ruleset: str, orders: dict, gm: dict, rolls: dict, sheets: dict | None = None):
    """One turn of `ruleset` through `pbp run`: (its events, its state)."""
    root = tmp_path / ruleset
    if sheets is None:
        shutil.copytree(bases[ruleset], root)
    else:
        campaign(root, ruleset, sheets)
    for handle, actions in orders.items():
        write(root, f"turns/001/orders/{handle}.yaml", {"player": handle, "turn": 1, "actions": actions})
    write(root, "turns/001/gm.yaml", {"orders": gm, "rolls": rolls})
    r = pbp("run", "--no-commit", *([] if orders else ["--no-orders"]), cwd=root)
    assert r.exit_code == 0, r.output
    totals = {r["label"]: r["total"] for r in yamlio.load_file(root / "turns" / "001" / "rolls.yaml")}
    events = yamlio.load_file(root / "turns" / "001" / "events.yaml")
    for event in events:  # the archive names each roll by its label: its total from rolls.yaml
        roll = event["data"].get("roll")
        if isinstance(roll, dict) and "roll" in roll:
            roll["total"] = totals[roll["roll"]]
    return events, yamlio.load_file(root / "turns" / "001" / "state.yaml")


def builtin_checks(events) -> list[tuple]:
    return [(e["data"]["player"], e["data"]["chance"], e["data"]["roll"]["total"], e["data"]["outcome"])
            for e in events if e["kind"] == "check_detail"]


def data_checks(events) -> list[tuple]:
    return [(e["data"]["who"], e["data"]["target"], e["data"]["roll"]["total"],
             OUTCOME[e["data"]["success"], e["data"]["critical"]]) for e in events if e["kind"] == "check"]


def gauges(state, ruleset: str) -> dict:
    """Every character's PV, Force, Action, light points and trust, in one shape."""
    out = {}
    for handle, me in state["characters"].items():
        if ruleset == "d100":
            out[handle] = {"pv": me["pv"], "force": me["force"], "action": me["action"], "lumiere": me["light"],
                           **{f"confiance_{f}": me["trust"].get(f, 0) for f in FACTIONS}}
        else:
            out[handle] = {k: v for k, v in me["gauges"].items() if k != "situation"}
    return out


def both(bases, tmp_path, orders: dict, rolls: dict, gm: tuple[dict, dict] = ({}, {}), data_rolls=None,
         sheets=None):
    """The turn played by both rulesets: the checks and the gauges after it, asserted equal; the checks."""
    built_events, built_state = play(bases, tmp_path, "d100", orders, gm[0], rolls, sheets)
    data_events, data_state = play(bases, tmp_path, "data", orders, gm[1], data_rolls or relabel(rolls), sheets)
    assert data_checks(data_events) == builtin_checks(built_events)
    assert gauges(data_state, "data") == gauges(built_state, "d100")
    return builtin_checks(built_events), gauges(data_state, "data")


def relabel(rolls: dict) -> dict:
    """The built-in's check labels as the data's: `kira.jet` -> `kira.jet.d100`, `kira.jet.2` -> `kira.jet.d100.2`."""
    out = {}
    for label, value in rolls.items():
        handle, _, rest = label.partition(".")
        assert rest.startswith("jet"), label
        out[f"{handle}.jet.d100" + rest[3:]] = value
    return out


# -- the check and its criticals -------------------------------------------------------------------

@pytest.mark.parametrize("roll,outcome", [(44, "success"), (50, "success"), (51, "failure"),
                                          (96, "critical_failure"), (3, "critical_success")])
def test_the_seed_examples_against_physique_50(bases, tmp_path, roll, outcome):
    checks, _ = both(bases, tmp_path, {"kira": [{"jet": "physique"}]}, {"kira.jet": roll})
    assert checks == [("kira", 50, roll, outcome)]


@pytest.mark.parametrize("roll", [1, 5])
def test_1_to_5_is_a_critical_success_even_with_no_chance(bases, tmp_path, roll):
    order = {"jet": {"carac": "physique", "competence": "discretion", "modificateur": -50}}
    checks, _ = both(bases, tmp_path, {"kira": [order]}, {"kira.jet": roll})
    assert checks == [("kira", -5, roll, "critical_success")]


def test_6_fails_at_chance_5_and_95_succeeds_at_95(bases, tmp_path):
    orders = {"kira": [{"jet": {"carac": "physique", "modificateur": -45}},
                       {"jet": {"carac": "physique", "modificateur": 45}}]}
    checks, _ = both(bases, tmp_path, orders, {"kira.jet": 6, "kira.jet.2": 95})
    assert checks == [("kira", 5, 6, "failure"), ("kira", 95, 95, "success")]


@pytest.mark.parametrize("roll", [96, 100])
def test_96_to_100_is_a_critical_failure_even_above_100(bases, tmp_path, roll):
    order = {"jet": {"carac": "logique", "competence": "piratage", "modificateur": 50}}
    checks, _ = both(bases, tmp_path, {"kira": [order]}, {"kira.jet": roll})
    assert checks == [("kira", 122, roll, "critical_failure")]


# -- skills and situational dice -------------------------------------------------------------------

def test_each_skill_point_is_5_percent_and_a_malus_lowers_the_chance(bases, tmp_path):
    orders = {"kira": [{"jet": {"carac": "mental", "competence": "persuasion"}},
                       {"jet": {"carac": "mental", "competence": "discretion"}}]}
    checks, _ = both(bases, tmp_path, orders, {"kira.jet": 70, "kira.jet.2": 56})
    assert checks == [("kira", 70, 70, "success"), ("kira", 55, 56, "failure")]


def test_impotent_minus_4_is_minus_20(bases, tmp_path):
    sheets = scenario({"kira": sheet(competences={"autres": {"persuasion": 3, "bluff": 2, "discretion": -4}},
                                     force=0, equipement=[])}).characters
    checks, _ = both(bases, tmp_path, {"kira": [{"jet": {"carac": "physique", "competence": "discretion"}}]},
                     {"kira.jet": 31}, sheets=sheets)
    assert checks == [("kira", 30, 31, "failure")]


@pytest.mark.parametrize("face,chance", [(1, 57), (3, 62), (4, 67), (6, 77)])
def test_a_skill_noted_with_a_die_rolls_its_situation(bases, tmp_path, face, chance):
    # pilotage: 1d6 spread over -2..+2 points (5 % each) on Logique 67
    checks, _ = both(bases, tmp_path, {"kira": [{"jet": {"carac": "logique", "competence": "pilotage"}}]},
                     {"kira.situation": face, "kira.jet": 60},
                     data_rolls={"kira.jet.d1": face, "kira.jet.d100": 60})
    assert checks == [("kira", chance, 60, "success" if 60 <= chance else "failure")]


def test_the_mjs_situational_die_applies_to_every_check_of_the_turn(bases, tmp_path):
    gm = ({"situation": [{"joueur": "kira", "de": "1d10", "plage": 2, "raison": "l'alarme", "public": "oui"}]},
          {"situation": {"kira": 2}, "situation_de": {"kira": 10}})
    checks, _ = both(bases, tmp_path, {"kira": [{"jet": "physique"}, {"jet": "mental"}]},
                     {"kira.situation": 1, "kira.jet": 45, "kira.jet.2": 45}, gm=gm,
                     data_rolls={"kira.situation.d1": 1, "kira.jet.d100": 45, "kira.jet.d100.2": 45})
    assert checks == [("kira", 40, 45, "failure"), ("kira", 50, 45, "success")]


# -- costs -------------------------------------------------------------------------------------------

def test_a_complex_check_costs_an_action_point_and_a_force_power_a_force_point(bases, tmp_path):
    orders = {"kira": [{"jet": {"carac": "mental", "competence": "telekinesie", "type": "complexe"}}],
              "brann": [{"jet": {"carac": "physique", "competence": "blaster", "type": "instinct"}}]}
    checks, after = both(bases, tmp_path, orders, {"kira.jet": 20, "brann.jet": 90})
    assert checks == [("kira", 65, 20, "success"), ("brann", 85, 90, "failure")]
    assert (after["kira"]["action"], after["kira"]["force"], after["brann"]["action"]) == (3, 2, 3)


# -- trust ---------------------------------------------------------------------------------------------

def test_seed_trust_examples_and_the_check_moves_trust(bases, tmp_path):
    # Logique 67 with +2 -> 69 (a success: +1), with -1 -> 66 (a failure: -1); the group is not on
    # one side (a zero), so nothing is doubled
    gm = ({"confiance": [{"faction": "syndicat", "niveau": 2, "joueurs": ["kira"]},
                         {"faction": "syndicat", "niveau": -1, "joueurs": ["tia"]}]},
          {"confiance_syndicat": {"kira": 2, "tia": -1}})
    tia = sheet(nom="Tia Rook", physique=35, logique=67, mental=55, force=0, alignement=10,
                competences={"techniques": {"piratage": 3}}, equipement=[])
    sheets = {**scenario().characters, "tia": tia}
    orders = {"kira": [{"jet": {"carac": "logique", "faction": "syndicat"}}],
              "tia": [{"jet": {"carac": "logique", "faction": "syndicat"}}]}
    checks, after = both(bases, tmp_path, orders, {"kira.jet": 69, "tia.jet": 67}, gm=gm, sheets=sheets)
    assert checks == [("kira", 69, 69, "success"), ("tia", 66, 67, "failure")]
    assert (after["kira"]["confiance_syndicat"], after["tia"]["confiance_syndicat"]) == (3, -2)


@pytest.mark.parametrize("start,roll,end", [(5, 10, 5), (-5, 90, -5), (1, 3, 2), (1, 99, 0)])
def test_trust_moves_by_one_within_minus_5_plus_5(bases, tmp_path, start, roll, end):
    gm = ({"confiance": [{"faction": "empire", "niveau": start, "joueurs": ["kira"]}]},
          {"confiance_empire": {"kira": start}})
    checks, after = both(bases, tmp_path, {"kira": [{"jet": {"carac": "mental", "faction": "empire"}}]},
                         {"kira.jet": roll}, gm=gm)
    assert checks[0][1] == 60 + start
    assert after["kira"]["confiance_empire"] == end


# -- alignment -------------------------------------------------------------------------------------------

def test_stable_state_gives_10_on_matching_intent_only(bases, tmp_path):
    # tia: 10 light points, stable; kira: 6, oscillating
    orders = {"tia": [{"jet": {"carac": "logique", "intention": "clair"}}, {"jet": "logique"}],
              "kira": [{"jet": {"carac": "logique", "intention": "clair"}}]}
    checks, _ = both(bases, tmp_path, orders, {"tia.jet": 85, "tia.jet.2": 85, "kira.jet": 70})
    assert checks == [("kira", 67, 70, "failure"), ("tia", 85, 85, "success"), ("tia", 75, 85, "failure")]


@pytest.mark.parametrize("player,gm_die,shift", [(7, 12, 1), (15, 12, -1)])
def test_alignment_event_accepted_or_inverted(bases, tmp_path, player, gm_die, shift):
    # kira (6 light points) chooses the light side: the player's d20 <= the MJ's accepts it
    gm = ({"alignement": [{"joueur": "kira", "reaction": "clair"}]}, {"alignement": {"kira": "clair"}})
    _, after = both(bases, tmp_path, {}, {"kira.alignement.joueur": player, "kira.alignement.mj": gm_die}, gm=gm,
                    data_rolls={"kira.alignement.d1": player, "kira.alignement.d2": gm_die})
    assert after["kira"]["lumiere"] == 6 + shift


# -- gauges ---------------------------------------------------------------------------------------------

def test_the_mjs_damage_and_healing(bases, tmp_path):
    gm = ({"jauge": [{"joueur": "brann", "pv": -6}, {"joueur": "kira", "pv": -2}]},
          {"degats_pv": {"brann": -6, "kira": -2}})
    _, after = both(bases, tmp_path, {"kira": [{"jet": "physique"}]}, {"kira.jet": 50}, gm=gm)
    assert (after["brann"]["pv"], after["kira"]["pv"]) == (4, 8)


# -- the fields of an order, as the MJ's rules file says them ------------------------------------------

def test_a_refused_field_names_its_line_and_what_is_valid(tmp_path):
    from tests.helpers import copy_example

    root = copy_example("d100-data", tmp_path)
    write(root, "turns/004/orders/kira.yaml", """
        player: kira
        turn: 4
        actions:
          - jet:
              carac: agilite
          - jet: {carac: mental, competence: sens_de_la_force}
    """)
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert "turns/004/orders/kira.yaml:5: « agilite » n'est pas une valeur possible." in r.output
    assert "Valeurs possibles : physique, logique, mental." in r.output
    assert "turns/004/orders/kira.yaml:6:" in r.output
    assert "une compétence passive : seul le MJ la déclenche" in r.output
    assert "Traceback" not in r.output


def test_a_stat_field_among_unknown_stats_is_refused_at_its_line(tmp_path):
    text = RULES.read_text(encoding="utf-8").replace("parmi: [physique, logique, mental]",
                                                     "parmi: [physique, logiqe, mental]")
    write(tmp_path, "rules.yaml", text)
    r = pbp("rules", "check", str(tmp_path / "rules.yaml"))
    assert r.exit_code == 1
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "logiqe" in row)
    assert f"rules.yaml:{line}: « logiqe » n'est pas dans `caractéristiques` de ces règles." in r.output


def test_explain_shows_the_fields_and_the_inputs_that_act(tmp_path):
    from tests.helpers import copy_example

    r = pbp("rules", "explain", cwd=copy_example("d100-data", tmp_path))
    assert r.exit_code == 0, r.output
    assert "argument : {carac: physique | logique | mental, competence?: sabre_laser" in r.output
    assert "modificateur: nombre = 0" in r.output
    assert ("- PV gagnés ou perdus (degats_pv): nombre, par personnage, pour ce tour seulement\n"
            "  - à la fin du tour\n    - ajouter à pv mj.degats_pv (pour : acteur)") in r.output


# -- exact odds ------------------------------------------------------------------------------------------

def test_the_exact_chance_of_a_check_at_97_is_19_in_20_as_the_builtin_says(tmp_path):
    """By hand: 1d100, each face 1/100. Chance 97 (Logique 67 + 2 skill points × 5 + 20 modifier):
    faces 1-5 succeed (critical), 6-95 succeed (≤ 97), 96 and 97 would be ≤ 97 but are critical
    failures, 98-100 fail. 95 faces of 100 succeed: 95/100 = 19/20; 5 fail: 1/20."""
    from tests.helpers import copy_example

    r = pbp("odds", "--rule", "data.d100", "--set", "target=97", cwd=copy_example("d100-data", tmp_path))
    assert r.exit_code == 0, r.output
    assert "Jet de d100: 1d100 <= 97" in r.output
    assert "success 19/20 (95.0 %)" in " ".join(r.output.split())
    assert "failure 1/20 (5.0 %)" in " ".join(r.output.split())
    builtin = pbp("odds", "--rule", "d100.jet", "--set", "carac=67", "--set", "niveau=2", "--set", "modificateur=20")
    assert builtin.exit_code == 0, builtin.output
    assert "réussite (critique comprise)  95.0 %" in builtin.output
