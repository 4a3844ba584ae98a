"""The board: where units stand, which unit a name designates, and what an action
would do from where things stand now (its plan: path, target, weapon, spell,
cost) or why it cannot be done (a `Problem`).

A module of its own because three concerns ask it the very same question:
checks.py turns a Problem into a Refusal, resolve.py into a lost action, and the
bots (bots.py) plan with it, so that their orders are legal by construction.
No I/O, no events.
"""

from __future__ import annotations

import math
import re
from collections import deque

from pbp.base import i18n
from pbp.model.orders import match_names, normalize_id

from .rules import CHARACTER, HARMFUL, NEIGHBOURS, alive, dist2, shown, spell_id, spell_range


class Problem(Exception):
    """An action that cannot be done: a message key of messages.yaml and its
    parameters (`valid`, `suggestion`: what would be accepted)."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params


class Board:
    """The board as a player's own orders leave it: a copy of the positions, and
    the PA each unit has spent (other units stay where they are)."""

    def __init__(self, state: dict):
        self.state = {"grid": state["grid"], "factions": state.get("factions", {}),
                      "units": {uid: dict(u, position=list(u["position"])) for uid, u in state["units"].items()}}
        self.spent: dict[str, int] = {}

    def ap(self, uid: str) -> int:
        return self.state["units"][uid].get("ap_max", 0) - self.spent.get(uid, 0)

    def spend(self, uid: str, plan: dict) -> None:
        self.spent[uid] = self.spent.get(uid, 0) + plan["cost"]
        if plan["kind"] == "move":
            self.state["units"][uid]["position"] = list(plan["to"])


# -- squares ------------------------------------------------------------------------------------

#: a square as players write it: `4-2` (the posts' way), also `4,2`, `(4, 2)`, `4 2`
# Between the numbers a mark with spaces around it, or spaces alone: one reading of
# any text (`\s*\s\s*` made a run of spaces cost quadratic time).
_SQUARE = re.compile(r"\(?\s*(\d{1,9})(?:\s*[-,;/]\s*|\s+)(\d{1,9})\s*\)?")


def square(value) -> list[int] | None:
    """The [x, y] an order's `vers` means: `4-2` as the posts write squares, or
    the YAML list `[4, 2]` of earlier order files; None when it is neither."""
    if isinstance(value, (list, tuple)):
        if len(value) == 1:
            value = value[0]
        elif len(value) == 2 and all(re.fullmatch(r"\d{1,9}", str(v).strip()) for v in value):
            return [int(str(v).strip()) for v in value]
        else:
            return None
    m = _SQUARE.fullmatch(str(value).strip())
    return [int(m.group(1)), int(m.group(2))] if m else None


# -- finding units ----------------------------------------------------------------------------

def find(state: dict, name) -> str | None:
    """A unit by id, by name or by any unambiguous part of its name (accents, case
    and spaces ignored: pbp.model.orders.match_names); None when none or several."""
    if name is None:
        return None
    found = match_names(name, {uid: u["name"] for uid, u in state["units"].items()})
    return found[0] if len(found) == 1 else None


def actor(state: dict, player: str, action) -> str:
    """Which of the player's characters an action is for (its `perso` field)."""
    units = state["units"]
    own = [uid for uid, u in units.items() if u["type"] == CHARACTER and u["player"] == player]
    living = [uid for uid in own if alive(units[uid])]
    name = (action.arg or {}).get("perso")
    if name is None:
        if len(living) == 1:
            return living[0]
        if not living:
            raise Problem("character_down", character=", ".join(units[u]["name"] for u in own), valid=[])
        raise Problem("perso_missing", valid=living)
    uid = find(state, name)
    if uid is None:
        raise Problem("unknown_character", value=name, valid=living,
                      suggestion=i18n.closest(normalize_id(name), living))
    if uid not in own:
        raise Problem("not_your_character", value=name, valid=living)
    if not alive(units[uid]):
        raise Problem("character_down", character=units[uid]["name"], valid=living)
    return uid


def occupant(state: dict, cell) -> str | None:
    for uid, u in state["units"].items():
        if alive(u) and tuple(u["position"]) == tuple(cell):
            return uid
    return None


def path(state: dict, start, goal):
    """Shortest path (king moves) through free squares, start excluded; None if none."""
    grid = state["grid"]
    width, height = grid["width"], grid["height"]
    blocked = {tuple(c) for c in grid["walls"]}
    blocked |= {tuple(u["position"]) for u in state["units"].values() if alive(u)}
    blocked.discard(start)
    previous = {start: None}
    queue = deque([start])
    pop, push = queue.popleft, queue.append
    while queue:
        cell = pop()
        if cell == goal:
            found = []
            while cell != start:
                found.append(cell)
                cell = previous[cell]
            return found[::-1]
        x, y = cell
        for dx, dy in NEIGHBOURS:
            nxt = (x + dx, y + dy)
            if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in previous and nxt not in blocked:
                previous[nxt] = cell
                push(nxt)
    return None


def in_reach(rules: dict, state: dict, actor_id: str, spec: dict, player) -> list[str]:
    """The units an attack of `spec` may target from where the actor stands."""
    units = state["units"]
    me = units[actor_id]
    limit = (rules["grid"]["adjacent_below"] ** 2, False) if spec["placement"] == "adjacent" \
        else (spec["max_distance"] ** 2, True)
    out = []
    for uid, u in units.items():
        if uid == actor_id or not alive(u) or (player is not None and u.get("player") == player):
            continue
        d2 = dist2(me["position"], u["position"])
        if d2 < limit[0] or (limit[1] and d2 == limit[0]):
            out.append(uid)
    return out


def target(state: dict, actor_id: str, name, player) -> str:
    """The target of an attack or a harmful spell: standing, not the actor, not one
    of its player's own characters (the ban)."""
    units = state["units"]
    found = find(state, name)
    candidates = [uid for uid, u in units.items() if alive(u) and uid != actor_id
                  and (player is None or u.get("player") != player)]
    if found is None:
        raise Problem("unknown_target", value=name, valid=candidates,
                      suggestion=i18n.closest(normalize_id(name), candidates))
    u = units[found]
    if found == actor_id or (player is not None and u.get("player") == player):
        raise Problem("own_character", target=u["name"], valid=candidates)
    if not alive(u):
        raise Problem("target_down", target=u["name"], type=u["type"], gender=u.get("gender"), valid=candidates)
    return found


# -- planning: is an action possible now, and what does it cost? ----------------------------

def plan(rules: dict, state: dict, actor_id: str, action, player, placement: bool = True) -> dict:
    """What an action would do now, or a Problem. `placement=False` skips the
    adjacency, range and path checks: creatures act late in the turn, after the
    board has changed, so the MJ's orders are only placed at resolution."""
    spec = rules["actions"][action.id]
    kind = spec.get("kind")
    if kind == "move":
        return plan_move(state, actor_id, action, spec, placement)
    if kind == "attack":
        return plan_attack(rules, state, actor_id, action, spec, player, placement)
    if kind == "spell":
        return plan_spell(rules, state, actor_id, action, player, placement)
    raise ValueError(f"action {action.id} has an unknown kind {kind!r}")


def plan_move(state: dict, actor_id: str, action, spec: dict, placement: bool = True) -> dict:
    units, grid = state["units"], state["grid"]
    me = units[actor_id]
    where = square(action.arg["vers"])
    if where is None:
        raw = action.arg["vers"]
        shown = ", ".join(map(str, raw)) if isinstance(raw, (list, tuple)) else str(raw)
        raise Problem("bad_square", value=shown)
    x, y = where
    if not (0 <= x < grid["width"] and 0 <= y < grid["height"]):
        raise Problem("off_grid", x=x, y=y, width=grid["width"] - 1, height=grid["height"] - 1)
    if [x, y] in grid["walls"]:
        raise Problem("wall", x=x, y=y)
    if [x, y] == me["position"]:
        raise Problem("already_there", x=x, y=y)
    blocker = occupant(state, (x, y))
    if blocker is not None and placement:
        raise Problem("occupied", x=x, y=y, by=units[blocker]["name"])
    steps = path(state, tuple(me["position"]), (x, y))
    if steps is None:
        if placement:
            raise Problem("unreachable", x=x, y=y)
        steps = [None] * max(abs(x - me["position"][0]), abs(y - me["position"][1]))
    return {"kind": "move", "to": [x, y], "path": [list(p) for p in steps],
            "cost": len(steps) * spec["cost_per_square"]}


def plan_attack(rules: dict, state: dict, actor_id: str, action, spec: dict, player, placement: bool = True) -> dict:
    units = state["units"]
    me = units[actor_id]
    aim = target(state, actor_id, action.arg["cible"], player)
    weapon = None
    if spec.get("weapon_type"):
        mine = [wid for wid, w in me.get("weapons", {}).items() if w["type"] == spec["weapon_type"]]
        wanted = action.arg.get("arme")
        if wanted is not None:
            weapon = normalize_id(wanted)
            if weapon not in mine:
                raise Problem("unknown_weapon", value=wanted, character=me["name"], valid=mine,
                              suggestion=i18n.closest(weapon, mine))
        elif mine:
            weapon = mine[0]
        else:
            raise Problem("no_weapon", character=me["name"], kind=spec["weapon_type"])
    d2 = dist2(me["position"], units[aim]["position"])
    adjacent_below = rules["grid"]["adjacent_below"]
    if not placement:
        pass
    elif spec["placement"] == "adjacent" and not d2 < adjacent_below ** 2:
        raise Problem("not_adjacent", target=units[aim]["name"], distance=shown(math.sqrt(d2)), limit=adjacent_below,
                      valid=in_reach(rules, state, actor_id, spec, player))
    elif spec["placement"] == "range" and not d2 <= spec["max_distance"] ** 2:
        raise Problem("out_of_range", target=units[aim]["name"], distance=shown(math.sqrt(d2)),
                      max=spec["max_distance"], valid=in_reach(rules, state, actor_id, spec, player))
    return {"kind": "attack", "target": aim, "weapon": weapon, "cost": spec["cost"]}


def plan_spell(rules: dict, state: dict, actor_id: str, action, player, placement: bool = True) -> dict:
    units = state["units"]
    me = units[actor_id]
    spells = rules["spells"]
    sid = spell_id(rules, action.arg["sort"])
    if sid is None:
        raise Problem("unknown_spell", value=action.arg["sort"], valid=list(spells),
                      suggestion=i18n.closest(normalize_id(action.arg["sort"]), spells))
    if sid not in me.get("spells", []):
        raise Problem("spell_not_learned", spell=sid, character=me["name"], valid=me.get("spells", []))
    spell = spells[sid]
    characters_only = spell["type"] != "degats" or bool(spell.get("zone"))
    if spell["type"] in ("soin", "buff"):
        aim = find(state, action.arg["cible"])
        candidates = [uid for uid, u in units.items() if alive(u) and u["type"] == CHARACTER]
        if aim is None:
            raise Problem("unknown_target", value=action.arg["cible"], valid=candidates,
                          suggestion=i18n.closest(normalize_id(action.arg["cible"]), candidates))
        if units[aim]["type"] != CHARACTER:
            raise Problem("spell_needs_character", spell=sid, target=units[aim]["name"], valid=candidates)
        if not alive(units[aim]):
            raise Problem("target_down", target=units[aim]["name"], type=CHARACTER, gender=units[aim].get("gender"),
                          valid=candidates)
    else:
        aim = target(state, actor_id, action.arg["cible"], player)
        if characters_only and units[aim]["type"] != CHARACTER:
            others = [uid for uid, u in units.items() if alive(u) and u["type"] == CHARACTER and uid != actor_id
                      and (player is None or u.get("player") != player)]
            raise Problem("spell_needs_character", spell=sid, target=units[aim]["name"], valid=others)
    reach = spell_range(spell, me["level"])
    d2 = dist2(me["position"], units[aim]["position"])
    if placement and d2 > reach ** 2:
        raise Problem("out_of_range", target=units[aim]["name"], distance=shown(math.sqrt(d2)), max=reach, valid=[])
    return {"kind": "spell", "spell": sid, "target": aim, "cost": spell["cost"], "harmful": spell["type"] in HARMFUL}


def affordable(plan_: dict, character: str, have: int) -> None:
    """A Problem when the PA left do not pay for the plan."""
    if plan_["cost"] > have:
        raise Problem("not_enough_pa", character=character, need=plan_["cost"], have=have,
                      short=plan_["cost"] - have)
