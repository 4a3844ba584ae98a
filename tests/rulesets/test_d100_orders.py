"""d100 refused orders: each says which file and line, what is wrong and what
would be valid, in French and in English. Players' orders and the MJ's gm.yaml."""

from __future__ import annotations

import ast
import textwrap

from pbp.base import i18n, yamlio
from pbp.model import orders as od
from pbp.model.orders import PlayerOrders

from .test_d100_support import ruleset, scenario, setup_state, sheet

RS = ruleset()
SC = scenario()


def problems(text: str, player="kira", state_edit=None, sc=SC, rs=RS):
    """Every problem with an order file, as the core reports them (file:line)."""
    text = textwrap.dedent(text).lstrip()
    state = setup_state(rs, sc)
    if state_edit:
        state_edit(state)
    parsed, errors = od.parse_player_orders(text, f"turns/001/orders/{player}.yaml", ruleset=rs, scenario=sc,
                                           turn=1, expected_player=player)
    if not errors:
        errors = od.check_rules(parsed, state, rs, sc)
    return errors


def one(text, **kw):
    errors = problems(text, **kw)
    assert len(errors) == 1, [e.text("en") for e in errors]
    return errors[0]


def test_unknown_characteristic_names_the_line_and_the_valid_ones():
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: agilite}
    """)
    assert e.file == "turns/001/orders/kira.yaml" and e.line == 4
    assert e.text("fr") == ("turns/001/orders/kira.yaml:4: « agilite » n'est pas une valeur possible. "
                            "Valeurs possibles : physique, logique, mental.")
    assert e.text("en") == ("turns/001/orders/kira.yaml:4: `agilite` is not a valid value. "
                            "Valid values: physical, logic, mind.")  # the words an English form shows


def test_english_characteristic_aliases_are_accepted():
    assert problems("""
        player: kira
        turn: 1
        actions:
          - check: {carac: logic}
    """) == []


def test_unknown_skill_names_the_field_line_and_suggests():
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet: physique
          - jet:
              carac: physique
              competence: sabr
    """)
    assert e.line == 7
    fr = e.text("fr")
    assert "compétence inconnue « sabr » : elle n'est pas sur la fiche de kira (characters.yaml)." in fr
    assert "Vouliez-vous dire « sabre » ?" in fr
    assert "Valeurs possibles : sabre, telekinesie, piratage, pilotage, persuasion, discretion." in fr
    assert "sixieme_sens" not in fr  # passive: not offered to the player


def test_passive_skill_is_for_the_mj():
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: mental, competence: sixieme_sens}
    """)
    assert e.key == "d100.passive_skill" and e.line == 4
    assert e.text("en") == ("turns/001/orders/kira.yaml:4: `sixieme_sens` is a passive skill: only the GM can "
                            "trigger it (ask them; they order it in gm.yaml). Drop `competence` or pick an active "
                            "skill. Valid values: sabre, telekinesie, piratage, pilotage, persuasion, discretion.")


def make_stable(handle="kira", light=10):
    def edit(state):
        state["characters"][handle]["light"] = light
    return edit


def test_opposite_intent_in_a_stable_state_is_refused():
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet:
              carac: physique
              intention: obscur
    """, state_edit=make_stable())
    assert e.line == 6
    assert e.text("fr").endswith("kira est dans l'état stable « clair » : seules les actions d'intention « clair » "
                                 "sont possibles, pas « obscur ». Valeurs possibles : clair.")


def test_stable_dark_refuses_light_and_accepts_dark_or_no_intent():
    assert one("""
        player: kira
        turn: 1
        actions:
          - utiliser: {objet: medpac, intention: light}
    """, state_edit=make_stable(light=0)).key == "d100.stable_refuses"
    assert problems("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: physique, intention: dark}
          - jet: physique
    """, state_edit=make_stable(light=0)) == []


def test_an_oscillating_character_may_have_either_intent():
    assert problems("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: physique, intention: obscur}
          - jet: {carac: physique, intention: clair}
    """) == []


def empty(gauge, handle="kira"):
    def edit(state):
        state["characters"][handle][gauge] = 0
    return edit


def test_a_complex_check_with_an_empty_action_gauge_is_refused():
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: logique, type: complexe}
    """, state_edit=empty("action"))
    assert e.key == "d100.gauge_empty" and e.line == 4
    assert e.text("fr") == ("turns/001/orders/kira.yaml:4: jauge « action » épuisée : kira a 0 point et il en "
                            "faut 1 jusqu'à cette action (action complexe ou par instinct : points d'Action ; "
                            "pouvoir de Force : points de Force). Faites un jet simple, dormez ou ne faites rien "
                            "pour récupérer. Valeurs possibles : type: simple, dormir, rien.")
    # a simple check stays possible
    assert problems("""
        player: kira
        turn: 1
        actions:
          - jet: logique
    """, state_edit=empty("action")) == []


def test_gauge_costs_add_up_within_a_turn():
    errors = problems("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: logique, type: complexe}
          - jet: {carac: logique, type: instinct}
          - jet: {carac: logique, type: complexe}
          - jet: {carac: logique, type: complexe}
          - jet: {carac: logique, type: complexe}
    """)
    assert [(e.key, e.line) for e in errors] == [("d100.gauge_empty", 8)]
    assert errors[0].text("en") == (
        "turns/001/orders/kira.yaml:8: `action` gauge exhausted: kira has 4 points and 5 are needed up to this "
        "action (complex or instinctive action: Action points; Force power: Force points). Make a simple check, "
        "sleep or do nothing to recover. Valid values: type: simple, dormir, rien.")


def test_a_force_power_with_an_empty_force_gauge_is_refused():
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: mental, competence: telekinesie}
    """, state_edit=empty("force"))
    assert (e.key, e.line) == ("d100.gauge_empty", 4)
    # no "type: simple" on offer: a simple check with a Force power still costs Force
    assert e.text("fr") == ("turns/001/orders/kira.yaml:4: jauge « force » épuisée : kira a 0 point et il en "
                            "faut 1 jusqu'à cette action (action complexe ou par instinct : points d'Action ; "
                            "pouvoir de Force : points de Force). Faites un jet simple, dormez ou ne faites rien "
                            "pour récupérer. Valeurs possibles : dormir, rien.")


def test_a_force_power_on_a_sheet_without_the_force_is_refused():
    sc = scenario({"kira": sheet(force=0)})
    e = one("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: mental, competence: telekinesie}
    """, sc=sc)
    assert e.key == "d100.no_force_power"
    assert e.text("en") == ("turns/001/orders/kira.yaml:4: kira does not have the Force: `telekinesie` is a "
                            "Force power.")


def test_unknown_faction_and_item():
    errors = problems("""
        player: kira
        turn: 1
        actions:
          - jet: {carac: mental, faction: empir}
          - utiliser: medipac
    """)
    assert [(e.key, e.line) for e in errors] == [("d100.unknown_faction", 4), ("d100.unknown_item", 5)]
    assert errors[0].text("en") == ("turns/001/orders/kira.yaml:4: unknown faction `empir` (world.yaml, factions). "
                                    "Did you mean `empire`? Valid values: empire, syndicat.")
    assert errors[1].text("fr") == ("turns/001/orders/kira.yaml:5: objet inconnu « medipac » : il n'est ni dans "
                                    "l'inventaire, ni dans l'équipement, ni dans l'armement de kira. Vouliez-vous "
                                    "dire « medpac » ? Valeurs possibles : Rations, Medpac, Kit de crochetage, "
                                    "Sabre laser.")


def test_a_used_up_item_is_refused():
    errors = problems("""
        player: kira
        turn: 1
        actions:
          - utiliser: medpac
          - utiliser: Medpac
    """)
    assert [(e.key, e.line) for e in errors] == [("d100.item_used_up", 5)]
    assert errors[0].text("fr") == ("turns/001/orders/kira.yaml:5: « Medpac » est épuisé "
                                    "(il reste 1 utilisation).")


def test_the_inventory_is_out_of_reach_in_combat():
    def combat(state):
        state["combat"] = True
    e = one("""
        player: kira
        turn: 1
        actions:
          - utiliser: rations
          - utiliser: sabre laser
    """, state_edit=combat)
    assert (e.key, e.line) == ("d100.inventory_in_combat", 4)
    assert e.text("en") == ("turns/001/orders/kira.yaml:4: `Rations` is in the inventory (the backpack): out of reach "
                            "in combat. Equipment and armament can still be used. Valid values: Medpac, "
                            "Kit de crochetage, Sabre laser.")


def test_sleeping_and_doing_nothing_take_the_whole_turn():
    errors = problems("""
        player: kira
        turn: 1
        actions:
          - dormir
          - jet: physique
    """)
    assert [(e.key, e.line) for e in errors] == [("d100.alone_action", 4)]
    assert errors[0].text("fr") == ("turns/001/orders/kira.yaml:4: « dormir » occupe tout le tour : "
                                    "pas d'autre action avec.")


def test_recovering_force_needs_the_force():
    e = one("""
        player: brann
        turn: 1
        actions:
          - sleep: force
    """, player="brann")
    assert (e.key, e.line) == ("d100.no_force", 4)
    assert e.text("en") == ("turns/001/orders/brann.yaml:4: this character does not have the Force: only Action "
                            "points can be recovered. Valid values: action.")


def test_a_campaign_may_limit_actions_per_turn():
    rs = ruleset({"check": {"max_per_turn": 1}})
    errors = problems("""
        player: kira
        turn: 1
        actions:
          - jet: physique
          - jet: mental
    """, rs=rs)
    assert [(e.key, e.line) for e in errors] == [("d100.too_many_actions", 5)]
    assert errors[0].text("fr") == ("turns/001/orders/kira.yaml:5: trop d'actions ce tour : 1 au plus "
                                    "(jets et objets).")


def test_legal_orders_all_pass_the_checks():
    state = setup_state(RS, SC)
    state["characters"]["kira"]["action"] = 0
    state["characters"]["tia"]["light"] = 10
    for handle in SC.roster:
        options = RS.legal_orders(state, SC, handle)
        assert len(options) > 5
        for actions in options:
            assert RS.check_orders(state, SC, PlayerOrders(handle, 1, actions)) == []
    assert not any(a.arg and a.arg.get("intention") == "obscur" for o in RS.legal_orders(state, SC, "tia") for a in o)


# -- gm.yaml --------------------------------------------------------------------------------------

def gm_problems(text: str, state_edit=None):
    text = textwrap.dedent(text).lstrip()
    state = setup_state(RS, SC)
    if state_edit:
        state_edit(state)
    _, errors = od.parse_gm(text, "turns/001/gm.yaml", ruleset=RS, state=state, scenario=SC, turn=1)
    return errors


def test_gm_orders_accept_english_names_and_single_entries():
    assert gm_problems("""
        orders:
          trust: {faction: empire, niveau: -2}
          gauge: {joueur: kira, pv: -3}
          alignment: {joueur: kira, reaction: dark}
          combat: yes
    """) == []


def test_unknown_gm_order_suggests():
    [e] = gm_problems("""
        orders:
          confiace: {faction: empire, niveau: 1}
    """)
    assert e.text("fr") == ("turns/001/gm.yaml:2: ordre MJ inconnu « confiace ». Vouliez-vous dire « confiance » ? "
                            "Valeurs possibles : confiance, situation, jet, alignement, evenement_grave, "
                            "manipulation, jauge, combat, fin_de_niveau.")


def test_gm_trust_outside_minus_5_plus_5_and_unknown_faction():
    errors = gm_problems("""
        orders:
          confiance:
            - {faction: empire, niveau: 6}
            - {faction: hutts, niveau: 1}
    """)
    assert [(e.key, e.line) for e in errors] == [("arg_range", 3), ("d100.unknown_faction", 4)]
    assert [e.text("en") for e in errors] == [
        "turns/001/gm.yaml:3: 6 is out of range (-5 to 5).",
        "turns/001/gm.yaml:4: unknown faction `hutts` (world.yaml, factions). Valid values: empire, syndicat."]


def test_gm_grave_event_needs_a_stable_state():
    [e] = gm_problems("""
        orders:
          evenement_grave:
            - joueur: kira
    """)
    assert e.key == "d100.not_stable" and e.line == 3
    assert e.text("en") == "turns/001/gm.yaml:3: kira is not in a stable state: there is nothing to break."
    assert gm_problems("""
        orders:
          evenement_grave:
            - joueur: kira
    """, state_edit=make_stable()) == []


def test_gm_alignment_reaction_of_a_stable_character_must_match():
    [e] = gm_problems("""
        orders:
          alignement:
            - {joueur: kira, reaction: obscur}
    """, state_edit=make_stable())
    assert (e.key, e.line) == ("d100.reaction_refused_stable", 3)
    assert e.text("fr") == ("turns/001/gm.yaml:3: kira est dans l'état stable « clair » : sa réaction ne peut être "
                            "que « clair » (une rupture passe par evenement_grave ou manipulation). "
                            "Valeurs possibles : clair.")


def test_gm_check_may_use_a_passive_skill_but_not_an_unknown_one():
    assert gm_problems("""
        orders:
          jet: {joueur: kira, carac: mental, competence: sixieme_sens}
    """) == []
    [e] = gm_problems("""
        orders:
          jet: {joueur: kira, carac: mental, competence: sixieme}
    """)
    assert e.key == "d100.unknown_skill"
    # the MJ may call a passive skill: it is on offer
    assert e.text("en") == ("turns/001/gm.yaml:2: unknown skill `sixieme`: it is not on kira's sheet "
                            "(characters.yaml). Did you mean `sixieme_sens`? Valid values: sabre, telekinesie, "
                            "piratage, pilotage, persuasion, discretion, sixieme_sens.")


def test_gm_bad_situational_die_and_manipulation_without_chance():
    errors = gm_problems("""
        orders:
          situation: {de: 1d, plage: 9}
          manipulation: {joueur: kira}
    """, state_edit=make_stable())
    assert [(e.key, e.line) for e in errors] == [("bad_dice", 2), ("arg_range", 2),
                                                 ("d100.manipulation_needs", 3)]
    assert errors[2].text("fr") == ("turns/001/gm.yaml:3: une manipulation donne soit « chance » (un PnJ), soit "
                                    "« par » et « carac » (un PJ).")


MESSAGES = yamlio.load_file(RS.folder() / "messages.yaml")


def test_every_d100_message_exists_in_both_languages():
    assert len(MESSAGES) > 40
    assert [k for k, texts in MESSAGES.items() if set(texts) != {"fr", "en"} or not all(texts.values())] == []
    assert all(i18n.has(f"d100.{key}") for key in MESSAGES)


def message_keys_in_the_code() -> set[str]:
    """The first argument of every Refusals.add, sheet problem and InputError in the package."""
    keys = set()
    for path in RS.folder().glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "add" or \
                    isinstance(node.func, ast.Name) and node.func.id in ("_problem", "InputError"):
                keys.add(node.args[0].value)
    return keys


def test_every_message_the_code_says_is_in_a_catalogue():
    keys = message_keys_in_the_code()
    assert {"unknown_skill", "bad_dice", "sheet_missing", "d100.gen_exists"} <= keys  # the reader finds them
    # a refusal's key is d100's own (messages.yaml) or the core's; a sheet problem is always d100's
    missing = [k for k in keys if not (i18n.has(k) or i18n.has(f"d100.{k}") or k in MESSAGES)]
    assert missing == []
