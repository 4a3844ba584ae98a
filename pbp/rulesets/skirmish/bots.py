"""The bots of `pbp simulate`: a player's orders (`bot_orders`), the simulated
MJ's creature orders (`creature_actions`), and every legal set of orders
(`legal_orders`, what the core's conformance suite plays).

For each unit in sheet order, while its PA last: heal a wounded friend,
sometimes bless or curse, else the attack or damage spell with the best expected
damage per PA, else walk towards the nearest square from which a foe is in reach;
ties drawn with the bot's rng. Every attack and spell is planned with the rules'
own `board.plan` on the board as the player's earlier actions leave it (what
checks.py does), a move with the same shortest-path search, so the orders are
legal by construction. No I/O.

A module of its own (the brief's balance.py holds the synthetic skirmish, the
tally and the odds): the bots are the largest part of the balance tools, and the
one that must follow the checks step by step.
"""

from __future__ import annotations

import math
from collections import deque

from pbp.model.dice import parse as parse_dice
from pbp.model.orders import Action

from . import rules as R
from .board import Board, Problem, in_reach, plan
from .checks import passes
from .rules import NEIGHBOURS

_MEANS: dict[str, float] = {}


def mean_of(expr) -> float:
    """The mean of a dice expression (cached: bots ask often)."""
    key = str(expr)
    value = _MEANS.get(key)
    if value is None:
        parsed = parse_dice(key)
        value = parsed.constant + sum(t.sign * t.count * (t.sides + 1) / 2 for t in parsed.dice)
        _MEANS[key] = value
    return value


def bot_orders(rules: dict, state: dict, player: str, rng) -> list[Action]:
    """A player's characters, in sheet order, each with its whole PA."""
    sim = Board(state)
    actions: list[Action] = []
    dodges: dict[str, float] = {}  # a foe's allies never move in this plan: its dodge chance holds
    for uid, u in state["units"].items():
        if u["type"] == R.CHARACTER and u["player"] == player and R.alive(u):
            _plan_unit(rules, sim, uid, player, rng, actions, dodges)
    return actions


def creature_actions(rules: dict, state: dict) -> dict[str, list[Action]]:
    """The simulated MJ's orders: every standing creature that has PA fights like a
    bot (no rng: the same board gives the same orders)."""
    sim = Board(state)
    out = {}
    for uid, u in state["units"].items():
        if u["type"] == R.CREATURE and R.alive(u) and u.get("ap_max"):
            actions: list[Action] = []
            _plan_unit(rules, sim, uid, None, None, actions, {})
            if actions:
                out[uid] = actions
    return out


def _foes(units: dict, uid: str, player) -> list[str]:
    """Who a unit fights: characters (and, for a player, creatures) of another
    faction, never its own player's characters."""
    me = units[uid]
    kinds = (R.CHARACTER,) if player is None else (R.CHARACTER, R.CREATURE)
    return [f for f, x in units.items() if f != uid and R.alive(x) and x["type"] in kinds
            and (player is None or x.get("player") != player)
            and not (me.get("faction") and x.get("faction") == me.get("faction"))]


def _friends(units: dict, uid: str) -> list[str]:
    """Characters of the unit's side: its faction, or its player's."""
    me = units[uid]
    return [f for f, x in units.items() if x["type"] == R.CHARACTER and R.alive(x)
            and ((me.get("faction") and x.get("faction") == me["faction"])
                 or (me.get("player") and x.get("player") == me["player"]) or f == uid)]


def _key(aid: str, arg: dict) -> tuple:
    return ("sort", arg["sort"], arg["cible"]) if "sort" in arg else (aid, arg.get("cible"), arg.get("arme"))


def _plan_unit(rules: dict, sim, uid: str, player, rng, out: list[Action], dodges: dict) -> None:
    """Adds a unit's actions for the turn to `out`, spending them on `sim`. Attacks
    and spells are checked by `board.plan`; a move comes with its plan (the
    shortest free path, found by the same search as board.path)."""
    done: set = set()  # options that failed the check; heals, buffs and curses already cast this turn
    for _ in range(rules["simulation"]["bot"]["max_actions"]):
        ap = sim.ap(uid)
        if ap <= 0:
            return
        units = sim.state["units"]
        foes = _foes(units, uid, player)
        if not foes:
            return
        option = (_support(rules, sim, uid, ap, rng, foes, done)
                  or _best_attack(rules, sim, uid, foes, ap, done, dodges, rng)
                  or _approach(rules, sim, uid, foes, ap, rng))
        if option is None:
            return
        aid, arg, planned = option if len(option) == 3 else (*option, None)
        action = Action(aid, dict(arg, perso=uid if player is not None else None), len(out))
        if planned is None:
            try:
                planned = plan(rules, sim.state, uid, action, player)
            except Problem:
                planned = None
        if planned is None or planned["cost"] > sim.ap(uid):
            if rules["actions"][aid].get("kind") == "move":
                return
            done.add(_key(aid, arg))
            continue
        sim.spend(uid, planned)
        out.append(action)
        if "sort" in arg and rules["spells"][planned["spell"]]["type"] != "degats":
            done.add(_key(aid, arg))


def _spells(rules: dict, me: dict, kinds: tuple, ap: int):
    for sid in me.get("spells", []):
        spell = rules["spells"].get(sid)
        if spell and spell["type"] in kinds and spell["cost"] <= ap:
            yield sid, spell


def _support(rules: dict, sim, uid, ap, rng, foes, done):
    """Heal the most wounded friend under `bot.heal_below` of their PV; else, now
    and then (`bot.buff`), a buff on a friend or a curse on a foe not under it."""
    units = sim.state["units"]
    me = units[uid]
    bot = rules["simulation"]["bot"]
    here = me["position"]
    friends = None
    for sid, spell in _spells(rules, me, ("soin",), ap):
        reach = R.spell_range(spell, me.get("level", 1)) ** 2
        friends = friends or _friends(units, uid)
        hurt = [f for f in friends if units[f]["hp"] <= bot["heal_below"] * units[f]["hp_max"]
                and R.dist2(here, units[f]["position"]) <= reach and ("sort", sid, f) not in done]
        if hurt:
            target = min(hurt, key=lambda f: (units[f]["hp"] / units[f]["hp_max"], f))
            return "sort", {"sort": sid, "cible": target}
    if rng is None or rng.random() >= bot["buff"]:
        return None
    for sid, spell in _spells(rules, me, ("buff", "debuff"), ap):
        reach = R.spell_range(spell, me.get("level", 1)) ** 2
        if spell["type"] == "buff":
            friends = friends or _friends(units, uid)
            pool = [f for f in friends if not any(e.get("spell") == sid for e in units[f]["effects"])]
        else:
            pool = [f for f in foes if units[f]["type"] == R.CHARACTER
                    and not any(e.get("spell") == sid for e in units[f]["effects"])]
        pool = [f for f in pool if R.dist2(here, units[f]["position"]) <= reach and ("sort", sid, f) not in done]
        if pool:
            return "sort", {"sort": sid, "cible": rng.choice(pool)}
    return None


def _best_attack(rules: dict, sim, uid, foes, ap, done, dodges, rng):
    """The attack or damage spell with the best expected damage per PA now (a tie
    drawn with the bot's rng, so that neither side of a mirrored board is favoured)."""
    best = _Best()
    for option, value in _attack_values(rules, sim.state, uid, foes, ap, done, dodges):
        best.consider(option, value)
    for option, value in _spell_values(rules, sim.state, uid, foes, ap, done):
        best.consider(option, value)
    return best.pick(rng)


class _Best:
    """The options of the highest value seen so far, ties (within rounding) kept."""

    def __init__(self):
        self.options, self.value = [], 0.0

    def consider(self, option, value):
        if value > self.value + 1e-9:
            self.options, self.value = [option], value
        elif value > 0 and abs(value - self.value) <= 1e-9:
            self.options.append(option)

    def pick(self, rng):
        if not self.options:
            return None
        return self.options[0] if rng is None or len(self.options) == 1 else rng.choice(self.options)


def _attack_values(rules: dict, state: dict, uid, foes, ap, done, dodges):
    """Each attack the unit can afford on a foe in its reach, with its expected damage per PA."""
    units = state["units"]
    me = units[uid]
    floor = rules["simulation"]["bot"]["damage_floor"]  # a blow that reduction stops still has some worth
    reductions: dict[str, int] = {}
    for aid, spec in rules["actions"].items():
        if spec.get("kind") != "attack" or spec["cost"] > ap:
            continue
        weapons = [w for w, a in me.get("weapons", {}).items() if a["type"] == spec["weapon_type"]] \
            if spec.get("weapon_type") else [None]
        reachable = _in_attack_reach(rules, units, me["position"], spec, foes)
        if not reachable or not weapons:
            continue
        # the chance depends on the target only through the range malus; the damage not at all
        chances = {w: R.attack_chance(rules, state, uid, spec, w, reachable[0])["chance"] / 100 for w in weapons}
        damages = {w: sum(mean_of(t["dice"]) for t in R.damage_terms(rules, me, spec, w, False)) for w in weapons}
        for f in reachable:
            if f not in reductions:
                reductions[f] = R.reduction(rules, units[f])["value"]
            for w in weapons:
                if (aid, f, w) in done:
                    continue
                chance = R.attack_chance(rules, state, uid, spec, w, f)["chance"] / 100 if spec.get("range_malus") \
                    else chances[w]
                if chance > 0:
                    yield ((aid, {"cible": f, **({"arme": w} if w else {})}),
                           chance * (1 - _dodge(rules, state, f, dodges)) * max(floor, damages[w] - reductions[f])
                           / spec["cost"])


def _in_attack_reach(rules: dict, units: dict, here, spec: dict, foes) -> list:
    """The foes an attack of `spec` reaches from `here`: adjacent ones, or within its distance."""
    if spec["placement"] == "adjacent":
        adjacent = rules["grid"]["adjacent_below"] ** 2
        return [f for f in foes if R.dist2(here, units[f]["position"]) < adjacent]
    return [f for f in foes if R.dist2(here, units[f]["position"]) <= spec["max_distance"] ** 2]


def _dodge(rules: dict, state: dict, f, dodges: dict) -> float:
    """The chance that `f` dodges, kept in `dodges` for the rest of the turn."""
    if f not in dodges:
        units = state["units"]
        dodges[f] = R.dodge_chance(rules, state, f)["chance"] / 100 if R.can_dodge(rules, units[f]) else 0.0
    return dodges[f]


def _spell_values(rules: dict, state: dict, uid, foes, ap, done):
    """Each damage spell the unit can afford on a foe in its range, with its expected
    damage per PA (a zone spell counts the foes it hits less the friends)."""
    units = state["units"]
    me = units[uid]
    here = me["position"]
    for sid, spell in _spells(rules, me, ("degats",), ap):
        reach = R.spell_range(spell, me.get("level", 1)) ** 2
        chance = None
        for f in foes:
            if R.dist2(here, units[f]["position"]) > reach or ("sort", sid, f) in done:
                continue
            if spell.get("zone") and units[f]["type"] != R.CHARACTER:
                continue
            if chance is None:
                chance = R.magic_chance(rules, state, uid, spell)["chance"] / 100
            countered = R.counter_chance(rules, state, f)["chance"] / 100 \
                if units[f]["type"] == R.CHARACTER and R.can_counter(rules, units[f]) else 0.0
            hits = sum(1 if h in foes else -1 for h in R.spell_targets(state, uid, f, spell)) \
                if spell.get("zone") else 1
            yield ("sort", {"sort": sid, "cible": f}), chance * (1 - countered) * mean_of(spell["dice"]) * hits \
                / spell["cost"]


def _reach2(rules: dict, me: dict) -> int:
    """The squared distance from which the unit can hurt someone (its longest reach)."""
    best = 1
    for spec in rules["actions"].values():
        if spec.get("kind") != "attack" or me["skills"].get(spec["skill"], 0) <= 0:
            continue
        weapons = me.get("weapons", {}).values()
        if spec.get("weapon_type") and not any(a["type"] == spec["weapon_type"] for a in weapons):
            continue
        if spec["placement"] != "adjacent":
            best = max(best, math.floor(spec["max_distance"] ** 2))
    for sid in me.get("spells", []):
        spell = rules["spells"].get(sid)
        if spell and spell["type"] == "degats":
            best = max(best, math.floor(R.spell_range(spell, me.get("level", 1)) ** 2))
    return best


_OFFSETS: dict = {}


def _offsets(limit) -> list[tuple[int, int]]:
    """The (dx, dy) with dx² + dy² < limit."""
    found = _OFFSETS.get(limit)
    if found is None:
        radius = int(math.sqrt(limit)) + 1
        found = _OFFSETS[limit] = [(dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
                                   if dx * dx + dy * dy < limit]
    return found


def _approach(rules: dict, sim, uid, foes, ap, rng):
    """A move along the shortest free path towards the nearest square from which a
    foe is in reach (adjacent ones for a fighter), keeping the PA of an attack when
    the move leaves enough; if no foe can be reached, towards the closest one can get.
    The search tries the 8 directions in an order drawn with the bot's rng, so that
    among equally short ways neither side of the board is favoured."""
    state = sim.state
    units, grid = state["units"], state["grid"]
    me = units[uid]
    start = tuple(me["position"])
    targets = [tuple(units[f]["position"]) for f in foes]
    reach = _reach2(rules, me)
    adjacent = rules["grid"]["adjacent_below"] ** 2

    limit = reach + 1 if reach > 1 else adjacent  # squared distances strictly below this are in reach
    if any(R.dist2(start, t) < limit for t in targets):
        return None
    width, height = grid["width"], grid["height"]
    goals = {(tx + dx, ty + dy) for tx, ty in targets for dx, dy in _offsets(limit)
             if 0 <= tx + dx < width and 0 <= ty + dy < height}
    blocked = {tuple(c) for c in grid["walls"]} | {tuple(u["position"]) for u in units.values() if R.alive(u)}
    directions = R.NEIGHBOURS if rng is None else rng.sample(R.NEIGHBOURS, len(R.NEIGHBOURS))
    path = _shortest_path(grid, start, goals, blocked, directions, targets)
    return _move_along(rules, path, ap) if path else None


def _shortest_path(grid: dict, start, goals: set, blocked: set, directions, targets) -> list:
    """The squares from `start` (left out) to the nearest of `goals`, a breadth-first
    search around `blocked` trying `directions` in their order; when no goal can be
    reached, to the square closest to a target; empty when that is `start`."""
    width, height = grid["width"], grid["height"]
    previous = {start: None}
    queue = deque([start])
    goal = None
    while queue:
        cell = queue.popleft()
        if cell in goals:
            goal = cell
            break
        for dx, dy in directions:
            nxt = (cell[0] + dx, cell[1] + dy)
            if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in previous and nxt not in blocked:
                previous[nxt] = cell
                queue.append(nxt)
    if goal is None:  # no foe can be reached: as close as one can get
        goal = min(previous, key=lambda c: (min(R.dist2(c, t) for t in targets), R.dist2(c, start), c))
    path = []
    while goal != start:
        path.append(goal)
        goal = previous[goal]
    path.reverse()
    return path


def _move_along(rules: dict, path: list, ap):
    """The move order along `path`, as far as the PA go while keeping those of the
    cheapest attack when the whole way leaves them; None when no step can be paid."""
    move = next((aid for aid, s in rules["actions"].items() if s.get("kind") == "move"), None)
    if move is None:
        return None
    cheapest = min((s["cost"] for s in rules["actions"].values() if s.get("kind") == "attack"), default=0)
    per_square = rules["actions"][move]["cost_per_square"]
    steps = len(path) if len(path) * per_square + cheapest <= ap else min(len(path), ap // max(1, per_square))
    if steps <= 0:
        return None
    to = list(path[steps - 1])
    return move, {"vers": square_arg(to)}, {"kind": "move", "to": to, "path": [list(c) for c in path[:steps]],
                                      "cost": steps * per_square}


def square_arg(cell) -> list[str]:
    """A square as a player's `vers: 4-2` reads once checked (`["4-2"]`), so that a
    bot's orders written to a file read back the same."""
    return [f"{cell[0]}-{cell[1]}"]


# == every legal set of orders =================================================================

def legal_orders(rules: dict, state: dict, player: str) -> list[list[Action]]:
    """Nothing; each single legal action of each character; one plan with an action
    per character (attack if possible, else a step). Each passes check_orders."""
    options: dict[str, list[tuple]] = {}
    for uid, u in state["units"].items():
        if u["type"] == R.CHARACTER and u["player"] == player and R.alive(u):
            options[uid] = [f for f in _unit_options(rules, state, uid, player) if _passes(rules, state, player, [f])]
    out = [[]]
    for uid, found in options.items():
        out += [[Action(aid, arg, 0)] for aid, arg in found]
    picks = []
    for uid, found in options.items():
        pick = next((f for f in found if rules["actions"][f[0]].get("kind") == "attack"), None) or \
            next(iter(found), None)
        if pick and _passes(rules, state, player, picks + [pick]):
            picks.append(pick)
    if len(picks) > 1:
        out.append([Action(aid, arg, i) for i, (aid, arg) in enumerate(picks)])
    return out


def _unit_options(rules: dict, state: dict, uid: str, player: str) -> list[tuple]:
    """(action, argument) of every action a character might take: an attack on each
    unit in reach, each of its spells on each standing unit, a step each way."""
    units = state["units"]
    u = units[uid]
    found = []
    for aid, spec in rules["actions"].items():
        kind = spec.get("kind")
        if kind == "attack":
            found += [(aid, {"perso": uid, "cible": target, "arme": None})
                      for target in in_reach(rules, state, uid, spec, player)]
        elif kind == "spell":
            found += [(aid, {"perso": uid, "sort": sid, "cible": target})
                      for sid in u["spells"] for target, t in units.items() if R.alive(t)]
        elif kind == "move":
            x, y = u["position"]
            found += [(aid, {"perso": uid, "vers": square_arg((x + dx, y + dy))}) for dx, dy in NEIGHBOURS]
    return found


def _passes(rules: dict, state: dict, player: str, picks: list[tuple]) -> bool:
    return passes(rules, state, player, [Action(aid, arg, i) for i, (aid, arg) in enumerate(picks)])
