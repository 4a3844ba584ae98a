"""Order legality against the state: a player's orders, the MJ's creature orders
in gm.yaml, and what a blank order form lists.

A player's actions are checked in the order written, on the board as their own
earlier actions leave it (moves, PA spent; other units stay where they are):
everything a player can get wrong is refused before the turn runs. The MJ's
creatures act late in the turn, after the board has changed, so their orders are
checked for everything but placement (adjacency, range, path).
"""

from __future__ import annotations

from pbp.model.orders import PlayerOrders, parse_actions
from pbp.model.ruleset import Refusals

from . import views
from .board import Board, Problem, actor, affordable, find, in_reach, plan
from .rules import CHARACTER, CREATURE, alive, spell_range

#: the order field a refusal points at: the core places it on that field's own line
#: when the action is written as a block, else on the action's
FIELD_OF = {
    "unknown_character": "perso", "not_your_character": "perso", "character_down": "perso",
    "bad_square": "vers", "off_grid": "vers", "wall": "vers", "already_there": "vers", "occupied": "vers",
    "unreachable": "vers",
    "unknown_target": "cible", "own_character": "cible", "target_down": "cible", "not_adjacent": "cible",
    "out_of_range": "cible", "spell_needs_character": "cible", "unknown_weapon": "arme",
    "unknown_spell": "sort", "spell_not_learned": "sort",
}


def check_orders(rules: dict, state: dict, orders: PlayerOrders) -> Refusals:
    return check_sequence(rules, state, orders.player, orders.actions)


def check_sequence(rules: dict, state: dict, player, actions, base: tuple | None = None,
                   creature: str | None = None) -> Refusals:
    """Refusals of a list of actions (a player's, or the creature `creature`'s with
    `at` relative to `base`), simulating their own moves and PA in the order written."""
    refusals = Refusals()
    board = Board(state)
    for action in actions:
        at = action.at if base is None else base + (action.index,)
        try:
            who = creature or actor(state, player, action)
            planned = plan(rules, board.state, who, action, player, placement=creature is None)
            affordable(planned, state["units"][who]["name"], board.ap(who))
        except Problem as p:
            refusals.add(p.key, at + ((FIELD_OF[p.key],) if p.key in FIELD_OF else ()), **p.params)
            continue
        board.spend(who, planned)
    return refusals


def passes(rules: dict, state: dict, player: str, actions) -> bool:
    """Whether a player's actions pass check_orders (for the bots' legal orders)."""
    return not check_sequence(rules, state, player, actions)


# -- the MJ's orders: creatures ----------------------------------------------------------------

def gm_actions(ruleset, state: dict, scenario, gm_orders) -> tuple[dict, Refusals]:
    """{creature id: [Action]} and the refusals of gm.yaml's `orders` (`ruleset`:
    the core reads the actions against its order schema)."""
    out, refusals = {}, Refusals()
    for key, raw in (gm_orders.orders or {}).items():
        uid = find(state, key)
        creatures = [u for u, x in state["units"].items() if x["type"] == CREATURE and alive(x)]
        if uid is None or state["units"][uid]["type"] != CREATURE:
            refusals.add("gm_not_creature", (key,), value=key, valid=creatures)
            continue
        if not alive(state["units"][uid]):
            refusals.add("target_down", (key,), target=state["units"][uid]["name"], type=CREATURE, valid=creatures)
            continue
        actions = parse_actions(raw, ruleset, scenario, refusals, (key,))
        for a in actions:
            perso = (a.arg or {}).get("perso")
            if perso is not None and find(state, perso) != uid:
                refusals.add("gm_perso_mismatch", (key, a.index), value=perso, creature=key)
        out[uid] = actions
    return out, refusals


def check_gm(ruleset, state: dict, scenario, gm_orders) -> Refusals:
    actions, refusals = gm_actions(ruleset, state, scenario, gm_orders)
    if refusals:
        return refusals
    for uid, acts in actions.items():
        key = next(k for k in gm_orders.orders if find(state, k) == uid)
        refusals += check_sequence(ruleset.rules, state, None, acts, base=(key,), creature=uid)
    return refusals


# -- the blank order form ----------------------------------------------------------------------

def order_context(rules: dict, state: dict, player: str) -> dict:
    """What `pbp orders` lists for a player: their standing characters with their
    PA, weapons, the targets of each attack from where they stand and their
    spells; the other units; the costs; the board; each action's English id
    (an English form writes the English words)."""
    units, actions = state["units"], rules["actions"]
    mine = []
    for uid, u in units.items():
        if u["type"] != CHARACTER or u["player"] != player or not alive(u):
            continue
        entry = {"id": uid, "name": u["name"], "position": u["position"], "ap": u["ap_max"],
                 "weapons": [{"id": w, **a} for w, a in u["weapons"].items()], "attacks": {}, "spells": []}
        for aid, spec in actions.items():
            armed = not spec.get("weapon_type") or any(w["type"] == spec["weapon_type"] for w in u["weapons"].values())
            if spec.get("kind") == "attack" and armed:
                entry["attacks"][aid] = {"cost": spec["cost"], "targets": in_reach(rules, state, uid, spec, player)}
        for sid in u["spells"]:
            spell = rules["spells"][sid]
            entry["spells"].append({"id": sid, "en": spell.get("en") or sid, "name": spell.get("name") or {},
                                    "type": spell["type"],
                                    "cost": spell["cost"], "range": spell_range(spell, u["level"])})
        mine.append(entry)
    targets = [{"id": uid, "name": u["name"], "type": u["type"], "position": u["position"]}
               for uid, u in units.items() if alive(u) and u.get("player") != player]
    costs = {aid: spec.get("cost", spec.get("cost_per_square")) for aid, spec in actions.items()
             if spec.get("cost", spec.get("cost_per_square")) is not None}
    ranges = [spec["max_distance"] for spec in actions.values() if spec.get("max_distance")]
    return {"characters": mine, "targets": targets, "costs": costs, "board": views.board(state),
            "max_range": max(ranges) if ranges else 0,
            "english": {aid: (spec or {}).get("en") or aid for aid, spec in actions.items()}}
