"""Order legality against the state: a player's orders (`check_orders`) and the
MJ's gm.yaml `orders:` (`gm_orders`, which also normalises them for the turn).

Every refusal is a Refusal at the path of the offending value in its file
(`action.at + ("competence",)`...): the core recorded the positions when it read
the file and places each on its line. What a refusal offers instead (`valid`,
`suggestion`) is what the sheet, the factions or the data accept.

Costs add up over a turn's actions: `spent` carries the gauge points ordered
so far, so the check that would overdraw a gauge is the one refused.
"""

from __future__ import annotations

from pbp.base import i18n
from pbp.base.errors import InputError, PbpError
from pbp.model.dice import parse as parse_dice
from pbp.model.argcontext import ArgContext
from pbp.model.argtypes import compile_types
from pbp.model.orders import action_index, normalize_id
from pbp.model.ruleset import Refusals

from . import rules as R
from .sheets import find_faction


# -- the campaign's rules choices ---------------------------------------------------------------

PUBLIC_CHECKS = ("die", "outcome")


def rules_problems(rules: dict) -> list[PbpError]:
    """What the shape check of a `rules:` override cannot say: a choice among words."""
    if rules.get("public_check") not in PUBLIC_CHECKS:
        return [InputError("d100.bad_public_check", file="campaign.yaml", at=("rules", "public_check"),
                           value=rules.get("public_check"), valid=list(PUBLIC_CHECKS))]
    return []


# -- a player's orders -----------------------------------------------------------------------

def check_orders(rules: dict, sheet: dict, me: dict, factions: dict, combat: bool, orders) -> Refusals:
    """A player's actions against their sheet and their character's state."""
    handle = orders.player
    refusals = Refusals()
    spent = {g: 0 for g in rules["gauges"]}
    used: dict[str, int] = {}
    count = 0
    limit = rules["check"].get("max_per_turn")
    for action in orders.actions:
        spec = rules["actions"].get(action.id) or {}
        if spec.get("alone") and len(orders.actions) > 1:
            refusals.add("alone_action", action.at, action=action.id)
        if spec.get("is_action"):
            count += 1
            if limit is not None and count > limit:
                refusals.add("too_many_actions", action.at, max=limit)
        if action.id == "jet":
            check_check(rules, handle, sheet, me, factions, action.arg, action.at, spent, refusals, player=True)
        elif action.id == "utiliser":
            check_use(rules, handle, sheet, me, combat, action, spent, used, refusals)
        elif spec.get("arg") == "gauge_choice" and action.arg == "force" and sheet["gauges"]["force"] <= 0:
            # sleeping or resting names the gauge to recover: Force only for a character who has it
            refusals.add("no_force", action.at, valid=["action"])
    return refusals


def check_check(rules: dict, handle: str, sheet: dict, me: dict | None, factions: dict, arg: dict, at: tuple,
                spent: dict | None, refusals: Refusals, *, player: bool) -> None:
    """A check's skill, faction, intention and cost. The MJ's called checks
    (`player=False`, no `me`, no `spent`) may name a passive skill and cost nothing."""
    skill_id = None
    if arg.get("competence"):
        skill_id = normalize_id(arg["competence"])
        skill = sheet["skills"].get(skill_id)
        names = [s["name"] for s in sheet["skills"].values() if not (player and s["passive"])]
        if skill is None:
            refusals.add("unknown_skill", at + ("competence",), skill=arg["competence"], player=handle, valid=names,
                         suggestion=i18n.closest(skill_id, [normalize_id(n) for n in names]))
            skill_id = None
        elif player and skill["passive"]:
            refusals.add("passive_skill", at + ("competence",), skill=skill["name"], valid=names)
    if arg.get("faction") and find_faction(factions, arg["faction"]) is None:
        refusals.add("unknown_faction", at + ("faction",), faction=arg["faction"], valid=list(factions),
                     suggestion=i18n.closest(normalize_id(arg["faction"]), factions))
    if player:
        check_intent(rules, handle, me, arg.get("intention"), at, refusals)
    if spent is not None:
        spend(handle, sheet, me, R.check_cost(rules, sheet, arg.get("type"), skill_id), spent, at, skill_id,
              refusals)


def check_intent(rules: dict, handle: str, me: dict, intent: str | None, at: tuple, refusals: Refusals) -> None:
    """A stable state refuses the other side's intention."""
    side = R.stable_side(me["light"], rules)
    if side is not None and intent is not None and intent != side:
        refusals.add("stable_refuses", at + ("intention",), player=handle, side=side, intent=intent, valid=[side])


def spend(handle: str, sheet: dict, me: dict, cost: dict, spent: dict, at: tuple, skill_id: str | None,
          refusals: Refusals) -> None:
    """Add a cost to the turn's; refuse what the gauges no longer cover."""
    for gauge, points in cost.items():
        if not points:
            continue
        spent[gauge] = spent.get(gauge, 0) + points
        if spent[gauge] <= me[gauge]:
            continue
        if gauge == "force" and sheet["gauges"]["force"] <= 0:
            refusals.add("no_force_power", at + ("competence",), player=handle,
                         skill=sheet["skills"][skill_id]["name"])
        else:
            valid = ["dormir", "rien"]
            if gauge == "action":
                valid = ["type: simple"] + valid
            refusals.add("gauge_empty", at, player=handle, gauge=gauge, have=me[gauge], need=spent[gauge],
                         valid=valid)


def check_use(rules: dict, handle: str, sheet: dict, me: dict, combat: bool, action, spent: dict, used: dict,
              refusals: Refusals) -> None:
    """An item: on the sheet, not used up, within reach, and the check it needs affordable."""
    arg = action.arg
    item_id = normalize_id(arg["objet"])
    item = sheet["items"].get(item_id)
    if item is None:
        refusals.add("unknown_item", action.at + ("objet",), item=arg["objet"], player=handle,
                     valid=[i["name"] for i in sheet["items"].values()],
                     suggestion=i18n.closest(item_id, sheet["items"]))
        return
    if item["uses"] is not None:
        used[item_id] = used.get(item_id, 0) + 1
        left = me["uses"].get(item_id, item["uses"])
        if used[item_id] > left:
            refusals.add("item_used_up", action.at + ("objet",), item=item["name"], left=left)
    if item["slot"] == "inventaire" and combat:
        reachable = [i["name"] for i in sheet["items"].values() if i["slot"] != "inventaire"]
        refusals.add("inventory_in_combat", action.at + ("objet",), item=item["name"], valid=reachable)
    check_intent(rules, handle, me, arg.get("intention"), action.at, refusals)
    if item["check"]:
        skill_id = item["check"]["competence"]
        spend(handle, sheet, me, R.check_cost(rules, sheet, None, skill_id), spent, action.at, skill_id, refusals)


# -- the MJ's orders ------------------------------------------------------------------------------

def gm_orders(rs, scenario, sheets: dict, factions: dict, raw: dict,
              state: dict | None = None) -> tuple[dict, Refusals]:
    """gm.yaml's `orders:` normalised (ids, aliases, defaults), and what is
    wrong with them (`rs`: the ruleset, whose data the arguments are read with).
    Without `state` (the turn itself), only what the files say is checked."""
    specs = rs.rules.get("gm_orders") or {}
    index = action_index(specs)
    types, context = compile_types(rs.rules), ArgContext(scenario)
    refusals = Refusals()
    out: dict = {}
    for key, value in (raw or {}).items():
        order_id = index.get(normalize_id(key))
        if order_id is None:
            refusals.add("unknown_gm_order", (key,), order=key, valid=list(specs),
                         suggestion=i18n.closest(normalize_id(key), index))
            continue
        before = len(refusals)
        parsed = types.of(specs[order_id].get("arg"), f"gm_orders.{order_id}.arg").check(value, context, (key,),
                                                                                       refusals)
        if len(refusals) == before:
            out[order_id] = parsed
            if isinstance(parsed, list):
                check_gm_entries(rs.rules, order_id, key, parsed, sheets, factions, state, refusals)
    return out, refusals


def check_gm_entries(rules: dict, order_id: str, key: str, entries: list, sheets: dict, factions: dict,
                     state: dict | None, refusals: Refusals) -> None:
    """What an MJ order's entries need beyond their shape."""
    seen = set()
    for i, entry in enumerate(entries):
        at = (key, i)
        if order_id == "confiance":
            if find_faction(factions, entry["faction"]) is None:
                refusals.add("unknown_faction", at + ("faction",), faction=entry["faction"], valid=list(factions),
                             suggestion=i18n.closest(normalize_id(entry["faction"]), factions))
            t = rules["trust"]
            if not t["min"] <= entry["niveau"] <= t["max"]:
                refusals.add("arg_range", at + ("niveau",), value=entry["niveau"], low=t["min"], high=t["max"])
        elif order_id == "situation":
            try:
                parse_dice(entry["de"])
            except PbpError:
                refusals.add("bad_dice", at + ("de",), expr=entry["de"])
            high = rules["situation"]["range_max"]
            if (entry.get("plage") or 0) > high:
                refusals.add("arg_range", at + ("plage",), value=entry["plage"], low=0, high=high)
        elif order_id == "jet":
            handle = entry["joueur"]
            check_check(rules, handle, sheets[handle], None, factions, entry, at, None, refusals, player=False)
        elif order_id == "alignement":
            gm_stable_reaction(rules, state, entry, at, refusals)
        elif order_id in ("evenement_grave", "manipulation"):
            gm_needs_stable(rules, state, entry, at, refusals)
            if order_id == "manipulation":
                check_manipulation(sheets, entry, at, refusals)
        elif order_id == "fin_de_niveau":
            limit = rules["alignment"]["end_of_level_max"]
            if abs(entry["alignement"]) > limit:
                refusals.add("end_of_level_limit", at + ("alignement",), value=entry["alignement"], max=limit)
            if entry["joueur"] in seen:
                refusals.add("duplicate_player", at + ("joueur",), player=entry["joueur"])
            seen.add(entry["joueur"])


def check_manipulation(sheets: dict, entry: dict, at: tuple, refusals: Refusals) -> None:
    """An NPC's `chance`, or a player character (`par`) with a characteristic and a skill of their sheet."""
    if entry.get("chance") is None and not (entry.get("par") and entry.get("carac")):
        refusals.add("manipulation_needs", at)
    elif entry.get("chance") is None and entry.get("competence"):
        by = entry["par"]
        if normalize_id(entry["competence"]) not in sheets[by]["skills"]:
            refusals.add("unknown_skill", at + ("competence",), skill=entry["competence"], player=by,
                         valid=[s["name"] for s in sheets[by]["skills"].values()])


def gm_stable_reaction(rules: dict, state: dict | None, entry: dict, at: tuple, refusals: Refusals) -> None:
    """An alignment event cannot break a stable state: its reaction is the stable side."""
    if state is None:
        return
    me = state["characters"].get(entry["joueur"])
    side = R.stable_side(me["light"], rules) if me is not None else None
    if side is not None and entry["reaction"] != side:
        refusals.add("reaction_refused_stable", at + ("reaction",), player=entry["joueur"], side=side, valid=[side])


def gm_needs_stable(rules: dict, state: dict | None, entry: dict, at: tuple, refusals: Refusals) -> None:
    """A grave event or a manipulation tests a stable state: there must be one."""
    if state is None:
        return
    me = state["characters"].get(entry["joueur"])
    if me is None or R.stable_side(me["light"], rules) is None:
        refusals.add("not_stable", at + ("joueur",), player=entry["joueur"])
