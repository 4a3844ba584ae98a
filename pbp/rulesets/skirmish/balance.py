"""skirmish for the balance tools (pbp simulate, pbp odds).

- `sample_scenario`: a synthetic skirmish from `simulation` in data.yaml (a grid
  with wall segments, two factions on opposite edges, 1-2 characters per player
  drawn from archetypes, the second faction mirroring the first, maybe a neutral
  creature);
- `bot_orders` (a player's characters) and `creature_actions` (the simulated MJ's
  creatures, when a simulated turn's gm.yaml gives no orders): heal a wounded
  friend, sometimes bless or curse, else the attack or damage spell with the best
  expected damage per PA, else walk towards the nearest square from which a foe is
  in reach; ties drawn with the bot's rng. Every attack and spell is planned with
  the rules' own `_plan` on the board as the player's earlier actions leave it
  (what `check_orders` does), a move with the same shortest-path search, so the
  orders are legal;
- `record`: a simulated turn's tally, kept under `state["simulation"]` (a key a
  real campaign's state never has): damage of each hit and spell, who went down,
  when and how;
- `game_summary`: the statistics of a finished game;
- `calculators`: exact odds of an attack (`touche`, `tir`, `bagarre`), of a hit's
  damage (`degats`) and of a counter-magic (`contre`). They build sheets with the
  rules' own `_unit` and call the rules' own chance functions (`attack_chance_of`,
  `dodge_chance_of`, `magic_chance_of`, `counter_chance_of`, `reduction`,
  `damage_terms`), so the odds cannot drift from what a turn does.

No I/O.
"""

from __future__ import annotations

import copy
import math
from collections import deque
from fractions import Fraction

from pbp.dice import parse as parse_dice
from pbp.odds import Calculator, Param, Table, distribution, pct
from pbp.orders import Action, normalize_id
from pbp.ruleset import Scenario

from . import rules as r  # rules imports this module: only used at call time

#: outcome labels of a game that no single faction won
UNFINISHED, DRAW, NOBODY, NO_FACTION = "inachevée", "égalité", "personne", "sans faction"
#: causes of a character going down
PHYSICAL, SPELL, REFLECTED, UNKNOWN = "combat", "sort", "sort renvoyé", "inconnue"
MAX_ACTIONS = 12  # actions a bot plans for one character in a turn, at most


# == the synthetic skirmish ==================================================================

def _draw(rng, spec):
    """[a, b] -> a whole number from a to b; anything else as is."""
    if isinstance(spec, list):
        return rng.randint(spec[0], spec[1])
    return spec


def _connected(width: int, height: int, walls: set) -> bool:
    free = [(x, y) for x in range(width) for y in range(height) if (x, y) not in walls]
    seen, queue = {free[0]}, deque([free[0]])
    while queue:
        x, y = queue.popleft()
        for dx, dy in r.NEIGHBOURS:
            nxt = (x + dx, y + dy)
            if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in walls and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen) == len(free)


def _walls(sim: dict, width: int, height: int, rng, mirror: bool) -> set:
    """Straight wall segments between the deployment zones (with their mirror image
    when the sides mirror each other), kept only if the board stays in one piece."""
    walls: set = set()
    low, high = sim["deployment"] + 1, width - sim["deployment"] - 2
    if high < low:
        return walls
    for _ in range(sim["walls"]):
        length = _draw(rng, sim["wall_length"])
        x, y = rng.randint(low, high), rng.randrange(height)
        dx, dy = rng.choice([(0, 1), (1, 0)])
        segment = {(x + dx * i, y + dy * i) for i in range(length)}
        segment = {(a, b) for a, b in segment if low <= a <= high and 0 <= b < height}
        if mirror:
            segment |= {(width - 1 - a, b) for a, b in segment}
        if segment and _connected(width, height, walls | segment):
            walls |= segment
    return walls


def _character(sim: dict, arch: dict, name: str, handle: str, faction: str, pos, rng) -> dict:
    sheet = {"nom": name, "joueur": handle, "faction": faction, "position": list(pos), "pv": _draw(rng, arch["pv"])}
    for key in (*r.CHARACTERISTICS, "chance"):
        sheet[key] = _draw(rng, arch[key])
    sheet["competences"] = {skill: _draw(rng, v) for skill, v in arch["competences"].items()}
    weapons = {}
    for choices in arch["weapons"]:
        wid = rng.choice(choices)
        weapons[wid] = dict(sim["weapons"][wid])
    sheet["maitrises"] = {wid: _draw(rng, arch["mastery"]) for wid in weapons}
    equipment = {"armes": weapons}
    armour = _draw(rng, arch.get("armour", 0))
    if armour:
        equipment["armure"] = {"nom": "armure", "reduction": armour}
    sheet["equipement"] = equipment
    spells = arch.get("spells")
    if spells:
        sheet["sorts"] = list(spells.get("always") or []) + rng.sample(list(spells["from"]), spells["draw"])
    return sheet


def sample_scenario(rules: dict, players: int, rng) -> Scenario:
    """Players p1..pN alternate between the factions; each gets 1-2 characters,
    placed at random in their faction's columns (the first faction on the left).
    With `mirror` (two factions), the board is symmetric and each player of the
    second faction gets the characters of the player before them, mirrored: a
    fair fight, whose win rates measure the rules, not the draw."""
    sim = rules["simulation"]
    width, height = sim["grid"]["width"], sim["grid"]["height"]
    factions = list(sim["factions"])
    mirror = bool(sim.get("mirror")) and len(factions) == 2
    walls = _walls(sim, width, height, rng, mirror)
    taken: set = set(walls)

    def place(side: int):
        """A free square in the side's deployment columns (more columns if full)."""
        for depth in range(sim["deployment"], width + 1):
            columns = range(depth) if side == 0 else range(width - depth, width)
            free = [(x, y) for x in columns for y in range(height) if (x, y) not in taken]
            if free:
                cell = rng.choice(free)
                taken.add(cell)
                return cell
        raise ValueError("the simulation grid is full")

    archetypes = list(sim["archetypes"].values())
    weights = [a.get("weight", 1) for a in archetypes]
    names = list(sim["names"])
    characters, roster, drawn = {}, {}, {}

    def next_name() -> str:
        n = len(characters)
        return names[n % len(names)] + (f" {n // len(names) + 1}" if n >= len(names) else "")

    for i in range(players):
        handle, side = f"p{i + 1}", i % len(factions)
        model = drawn.get(f"p{i}") if mirror and side == 1 else None
        mine = drawn[handle] = []
        for k in range(len(model) if model else _draw(rng, sim["characters_per_player"])):
            name = next_name()
            if model:
                sheet = copy.deepcopy(model[k])
                x, y = sheet["position"]
                cell = (width - 1 - x, y)
                if cell in taken:
                    cell = place(side)
                taken.add(cell)
                sheet.update(nom=name, joueur=handle, faction=factions[side], position=list(cell))
            else:
                arch = rng.choices(archetypes, weights)[0]
                sheet = _character(sim, arch, name, handle, factions[side], place(side), rng)
            characters[normalize_id(name)] = sheet
            mine.append(sheet)
        roster[handle] = {"character": " et ".join(c["nom"] for c in mine)}
    npcs = {}
    creature = sim.get("creature") or {}
    if creature and rng.random() < creature.get("probability", 1):
        centre = (width // 2, height // 2)
        free = sorted(((x, y) for x in range(width) for y in range(height) if (x, y) not in taken),
                      key=lambda c: (r.dist2(c, centre), c))
        if free:
            sheet = dict(creature["sheet"], position=list(free[0]))
            npcs[normalize_id(sheet.get("nom", "creature")).split("_")[0] or "creature"] = sheet
    world = {"grille": {"largeur": width, "hauteur": height, "murs": sorted([list(c) for c in walls])},
             "factions": {fid: {"nom": nom} for fid, nom in sim["factions"].items()}, "cibles": npcs}
    return Scenario(world, {"personnages": characters}, roster)


# == the bots ================================================================================

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


def bot_orders(rs, state: dict, player: str, rng) -> list[Action]:
    """A player's characters, in sheet order, each with its whole PA."""
    sim = r._Sim(state)
    actions: list[Action] = []
    dodges: dict[str, float] = {}  # a foe's allies never move in this plan: its dodge chance holds
    for uid, u in state["units"].items():
        if u["type"] == r.CHARACTER and u["joueur"] == player and r.alive(u):
            _plan_unit(rs, sim, uid, player, rng, actions, dodges)
    return actions


def creature_actions(rs, state: dict) -> dict[str, list[Action]]:
    """The simulated MJ's orders: every standing creature that has PA fights like a
    bot (no rng: the same board gives the same orders)."""
    sim = r._Sim(state)
    out = {}
    for uid, u in state["units"].items():
        if u["type"] == r.CREATURE and r.alive(u) and u.get("pa_max"):
            actions: list[Action] = []
            _plan_unit(rs, sim, uid, None, None, actions, {})
            if actions:
                out[uid] = actions
    return out


def _foes(units: dict, uid: str, player) -> list[str]:
    """Who a unit fights: characters (and, for a player, creatures) of another
    faction, never its own player's characters."""
    me = units[uid]
    kinds = (r.CHARACTER,) if player is None else (r.CHARACTER, r.CREATURE)
    return [f for f, x in units.items() if f != uid and r.alive(x) and x["type"] in kinds
            and (player is None or x.get("joueur") != player)
            and not (me.get("faction") and x.get("faction") == me.get("faction"))]


def _friends(units: dict, uid: str) -> list[str]:
    """Characters of the unit's side: its faction, or its player's."""
    me = units[uid]
    return [f for f, x in units.items() if x["type"] == r.CHARACTER and r.alive(x)
            and ((me.get("faction") and x.get("faction") == me["faction"])
                 or (me.get("joueur") and x.get("joueur") == me["joueur"]) or f == uid)]


def _key(aid: str, arg: dict) -> tuple:
    return ("sort", arg["sort"], arg["cible"]) if "sort" in arg else (aid, arg.get("cible"), arg.get("arme"))


def _plan_unit(rs, sim, uid: str, player, rng, out: list[Action], dodges: dict) -> None:
    """Adds a unit's actions for the turn to `out`, spending them on `sim`. Attacks
    and spells are checked by the rules' `_plan`; a move comes with its plan (the
    shortest free path, found by the same search as the rules')."""
    done: set = set()  # options that failed the check; heals, buffs and curses already cast this turn
    for _ in range(MAX_ACTIONS):
        pa = sim.pa(uid)
        if pa <= 0:
            return
        units = sim.state["units"]
        foes = _foes(units, uid, player)
        if not foes:
            return
        option = (_support(rs, sim, uid, pa, rng, foes, done)
                  or _best_attack(rs, sim, uid, foes, pa, done, dodges, rng) or _approach(rs, sim, uid, foes, pa, rng))
        if option is None:
            return
        aid, arg, plan = option if len(option) == 3 else (*option, None)
        action = Action(aid, dict(arg, perso=uid if player is not None else None), len(out))
        if plan is None:
            try:
                plan = rs._plan(sim.state, uid, action, player)
            except r.Problem:
                plan = None
        if plan is None or plan["cost"] > sim.pa(uid):
            if rs.actions[aid].get("kind") == "move":
                return
            done.add(_key(aid, arg))
            continue
        sim.spend(uid, plan)
        out.append(action)
        if "sort" in arg and rs.rules["spells"][plan["spell"]]["type"] != "degats":
            done.add(_key(aid, arg))


def _spells(rs, me: dict, kinds: tuple, pa: int):
    for sid in me.get("sorts", []):
        spell = rs.rules["spells"].get(sid)
        if spell and spell["type"] in kinds and spell["cost"] <= pa:
            yield sid, spell


def _support(rs, sim, uid, pa, rng, foes, done):
    """Heal the most wounded friend under `bot.heal_below` of their PV; else, now
    and then (`bot.buff`), a buff on a friend or a curse on a foe not under it."""
    units = sim.state["units"]
    me = units[uid]
    bot = rs.rules["simulation"]["bot"]
    here = me["position"]
    friends = None
    for sid, spell in _spells(rs, me, ("soin",), pa):
        reach = rs.spell_range(spell, me.get("niveau", 1)) ** 2
        friends = friends or _friends(units, uid)
        hurt = [f for f in friends if units[f]["pv"] <= bot["heal_below"] * units[f]["pv_max"]
                and r.dist2(here, units[f]["position"]) <= reach and ("sort", sid, f) not in done]
        if hurt:
            target = min(hurt, key=lambda f: (units[f]["pv"] / units[f]["pv_max"], f))
            return "sort", {"sort": sid, "cible": target}
    if rng is None or rng.random() >= bot["buff"]:
        return None
    for sid, spell in _spells(rs, me, ("buff", "debuff"), pa):
        reach = rs.spell_range(spell, me.get("niveau", 1)) ** 2
        if spell["type"] == "buff":
            friends = friends or _friends(units, uid)
            pool = [f for f in friends if not any(e.get("sort") == sid for e in units[f]["effets"])]
        else:
            pool = [f for f in foes if units[f]["type"] == r.CHARACTER
                    and not any(e.get("sort") == sid for e in units[f]["effets"])]
        pool = [f for f in pool if r.dist2(here, units[f]["position"]) <= reach and ("sort", sid, f) not in done]
        if pool:
            return "sort", {"sort": sid, "cible": rng.choice(pool)}
    return None


def _best_attack(rs, sim, uid, foes, pa, done, dodges, rng):
    """The attack or damage spell with the best expected damage per PA now (a tie
    drawn with the bot's rng, so that neither side of a mirrored board is favoured)."""
    state = sim.state
    units = state["units"]
    me = units[uid]
    here = me["position"]
    adjacent = rs.rules["grid"]["adjacent_below"] ** 2
    best, best_value = [], 0.0

    def consider(option, value):
        nonlocal best, best_value
        if value > best_value + 1e-9:
            best, best_value = [option], value
        elif value > 0 and abs(value - best_value) <= 1e-9:
            best.append(option)

    def dodge(f):
        if f not in dodges:
            dodges[f] = rs.dodge_chance(state, f)["chance"] / 100 if rs.can_dodge(units[f]) else 0.0
        return dodges[f]

    reductions: dict[str, int] = {}
    for aid, spec in rs.actions.items():
        if spec.get("kind") != "attack" or spec["cost"] > pa:
            continue
        if spec.get("weapon_type"):
            weapons = [w for w, a in me.get("armes", {}).items() if a["type"] == spec["weapon_type"]]
        else:
            weapons = [None]
        if spec["placement"] == "adjacent":
            in_reach = [f for f in foes if r.dist2(here, units[f]["position"]) < adjacent]
        else:
            in_reach = [f for f in foes if r.dist2(here, units[f]["position"]) <= spec["max_distance"] ** 2]
        if not in_reach or not weapons:
            continue
        # the chance depends on the target only through the range malus; the damage not at all
        chances = {w: rs.attack_chance(state, uid, spec, w, in_reach[0])["chance"] / 100 for w in weapons}
        damages = {w: sum(mean_of(t["dice"]) for t in rs.damage_terms(me, spec, w, False)) for w in weapons}
        for f in in_reach:
            if f not in reductions:
                reductions[f] = rs.reduction(units[f])["value"]
            for w in weapons:
                if (aid, f, w) in done:
                    continue
                chance = rs.attack_chance(state, uid, spec, w, f)["chance"] / 100 if spec.get("range_malus") \
                    else chances[w]
                if chance <= 0:
                    continue
                consider((aid, {"cible": f, **({"arme": w} if w else {})}),
                         chance * (1 - dodge(f)) * max(0.25, damages[w] - reductions[f]) / spec["cost"])
    for sid, spell in _spells(rs, me, ("degats",), pa):
        reach = rs.spell_range(spell, me.get("niveau", 1)) ** 2
        chance = None
        for f in foes:
            if r.dist2(here, units[f]["position"]) > reach or ("sort", sid, f) in done:
                continue
            if spell.get("zone") and units[f]["type"] != r.CHARACTER:
                continue
            if chance is None:
                chance = rs.magic_chance(state, uid, spell)["chance"] / 100
            countered = rs.counter_chance(state, f)["chance"] / 100 \
                if units[f]["type"] == r.CHARACTER and rs.can_counter(units[f]) else 0.0
            hits = 1
            if spell.get("zone"):
                hit = rs._spell_targets(state, uid, f, spell)
                hits = sum(1 if h in foes else -1 for h in hit)
            consider(("sort", {"sort": sid, "cible": f}), chance * (1 - countered) * mean_of(spell["dice"]) * hits
                     / spell["cost"])
    if not best:
        return None
    return best[0] if rng is None or len(best) == 1 else rng.choice(best)


def _reach2(rs, me: dict) -> int:
    """The squared distance from which the unit can hurt someone (its longest reach)."""
    best = 1
    for spec in rs.actions.values():
        if spec.get("kind") != "attack" or me["competences"].get(spec["skill"], 0) <= 0:
            continue
        if spec.get("weapon_type") and not any(a["type"] == spec["weapon_type"] for a in me.get("armes", {}).values()):
            continue
        if spec["placement"] != "adjacent":
            best = max(best, math.floor(spec["max_distance"] ** 2))
    for sid in me.get("sorts", []):
        spell = rs.rules["spells"].get(sid)
        if spell and spell["type"] == "degats":
            best = max(best, math.floor(rs.spell_range(spell, me.get("niveau", 1)) ** 2))
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


def _approach(rs, sim, uid, foes, pa, rng):
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
    reach = _reach2(rs, me)
    adjacent = rs.rules["grid"]["adjacent_below"] ** 2

    limit = reach + 1 if reach > 1 else adjacent  # squared distances strictly below this are in reach
    if any(r.dist2(start, t) < limit for t in targets):
        return None
    width, height = grid["width"], grid["height"]
    goals = {(tx + dx, ty + dy) for tx, ty in targets for dx, dy in _offsets(limit)
             if 0 <= tx + dx < width and 0 <= ty + dy < height}
    blocked = {tuple(c) for c in grid["walls"]} | {tuple(u["position"]) for u in units.values() if r.alive(u)}
    previous = {start: None}
    queue = deque([start])
    goal = None
    directions = r.NEIGHBOURS if rng is None else rng.sample(r.NEIGHBOURS, len(r.NEIGHBOURS))
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
        goal = min(previous, key=lambda c: (min(r.dist2(c, t) for t in targets), r.dist2(c, start), c))
    if goal == start:
        return None
    path = []
    while goal != start:
        path.append(goal)
        goal = previous[goal]
    path.reverse()
    move = next((aid for aid, s in rs.actions.items() if s.get("kind") == "move"), None)
    if move is None:
        return None
    cheapest = min((s["cost"] for s in rs.actions.values() if s.get("kind") == "attack"), default=0)
    per_square = rs.actions[move]["cost_per_square"]
    steps = len(path) if len(path) * per_square + cheapest <= pa else min(len(path), pa // max(1, per_square))
    if steps <= 0:
        return None
    to = list(path[steps - 1])
    return move, {"vers": to}, {"kind": "move", "to": to, "path": [list(c) for c in path[:steps]],
                                      "cost": steps * per_square}


# == a simulated game's tally and summary ===================================================

def record(state: dict, events: list) -> None:
    """Reads a simulated turn's public lines into `state["simulation"]`."""
    tally = state.setdefault("simulation", {"hits": [], "spell_damage": [], "downed": {}})
    units, turn = state["units"], state["turn"]

    def down(uid, cause):
        if units[uid]["type"] == r.CHARACTER and uid not in tally["downed"]:
            tally["downed"][uid] = {"turn": turn, "cause": cause}

    for e in events:
        if e.kind == "attack" and "damage" in e.data:
            tally["hits"].append(e.data["damage"]["final"])
            if e.data.get("down"):
                down(e.data["target"], PHYSICAL)
        elif e.kind == "spell":
            for key, cause in (("effect", SPELL), ("reflect_effect", REFLECTED)):
                effect = e.data.get(key)
                if not effect or effect["type"] != "degats":
                    continue
                for hit in effect["hits"]:
                    tally["spell_damage"].append(hit["value"])
                    if hit.get("down"):
                        down(hit["id"], cause)


def game_summary(state: dict, scenario) -> dict:
    """One outcome per game: the faction left standing, `égalité` (several, at the
    turn limit or when one player's characters alone stand), `personne` (nobody
    stands), `inachevée` (stopped by --max-turns). Deaths of characters by cause;
    figures: damage of each hit (the chart) and spell, XP gained and turns survived
    by each character, PV of the survivors."""
    units = state["units"]
    characters = {uid: u for uid, u in units.items() if u["type"] == r.CHARACTER}
    tally = state.get("simulation") or {}
    downed = tally.get("downed") or {}
    standing = sorted({u.get("faction") or NO_FACTION for u in characters.values() if r.alive(u)})
    if not state.get("over"):
        outcome = UNFINISHED
    elif not standing:
        outcome = NOBODY
    else:
        outcome = standing[0] if len(standing) == 1 else DRAW
    deaths: dict[str, int] = {}
    for uid, u in characters.items():
        if not r.alive(u):
            cause = (downed.get(uid) or {}).get("cause", UNKNOWN)
            deaths[cause] = deaths.get(cause, 0) + 1
    sheets = (scenario.characters or {}).get("personnages") or {} if scenario is not None else {}
    turn = state.get("turn", 0)
    return {
        "turns": turn,
        "outcomes": [outcome],
        "deaths": deaths,
        "figures": {
            "degats_par_touche": list(tally.get("hits") or []),
            "degats_par_sort": list(tally.get("spell_damage") or []),
            "xp": [u["xp"] - ((sheets.get(uid) or {}).get("xp") or 0) for uid, u in characters.items()],
            "tours_survecus": [(downed.get(uid) or {}).get("turn", turn) if not r.alive(u) else turn
                               for uid, u in characters.items()],
            "pv_restants": [u["pv"] for u in characters.values() if r.alive(u)],
        },
        "main": "degats_par_touche",
    }


# == exact odds ===============================================================================

#: what the calculators call an attack action, in the forum's words
ACTION_NAMES = {"melee": "Mêlée", "tir": "Tir", "bagarre": "Bagarre"}
#: calculator name of an attack action (the others keep their id)
CALCULATOR_OF = {"melee": "touche"}
#: default numbers: Aria (épée) against Dag, Bran's bow, as in the example campaign
SKILL_DEFAULTS = {"bagarre": 30, "melee": 45, "distance": 40}
SKILL_NAMES = {"melee": "mêlée"}
PART_NAMES = {"mastery": "maîtrise", "faction": "faction", "hindrance": "gêne", "range": "distance",
              "effects": "effets", "armure_legendaire": "armure légendaire", "armure_naturelle": "armure naturelle",
              "luck": "chance", "difficulty": "difficulté", "spell_bonus": "bonus du sort"}
D100 = "1d100"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def describe_chance(chance: dict) -> str:
    """`mêlée 45 + maîtrise 10 + FOR +6 = 61 (plafond 95)`."""
    out = []
    for i, p in enumerate(chance["parts"]):
        if p["key"] == "skill":
            label = f"{SKILL_NAMES.get(p['skill'], p['skill'])} {p['value']}"
        elif p["key"] == "characteristic":
            label = f"{p['stat']} {_signed(p['value'])}"
        else:
            label = f"{PART_NAMES.get(p['key'], p['key'])} {_signed(p['value'])}"
        out.append(label if i == 0 else f"+ {label}")
    total = f"= {chance['raw']}"
    if chance["raw"] != chance["chance"]:
        total += f" → {chance['chance']}"
    return f"{' '.join(out)} {total} (plafond {chance['cap']})"


def _faction(rs, allies: int) -> dict:
    allies = max(0, allies)
    return {"key": "faction", "value": rs.faction_bonus(allies), "allies": [f"allié {i + 1}" for i in range(allies)]}


def _p_roll(limit: int, below: int | None = None) -> Fraction:
    """P(1d100 <= limit [and < below])."""
    return sum((p for v, p in distribution(D100).items() if v <= limit and (below is None or v < below)),
               Fraction(0))


def _unit(rs, sheet: dict) -> dict:
    """A character built from bare numbers by the rules' own sheet reader."""
    return rs._unit("calcul", dict(sheet, position=[0, 0], pv=max(1, sheet.get("pv", 1))), r.CHARACTER, set())


def _effects(**values) -> list[dict]:
    return [{"nom": stat, "stat": stat, "valeur": v} for stat, v in values.items() if v]


def attacker_unit(rs, spec: dict, params: dict) -> tuple[dict, str | None]:
    """The attacking character of an attack calculator, and its weapon id."""
    skill = spec["skill"]
    sheet = {"TAI": params.get("TAI", 10), "FOR": params.get("FOR", 10), "DEX": params.get("DEX", 10),
             "competences": {skill: params["competence"]},
             "effets": _effects(attaque=params.get("attaque_bonus", 0), degats=params.get("degats_bonus", 0))}
    weapon = None
    if spec.get("weapon_type"):
        weapon = "arme"
        sheet["equipement"] = {"armes": {weapon: {"nom": "arme", "type": spec["weapon_type"],
                                                  "degats": params["arme"]}}}
        sheet["maitrises"] = {weapon: params.get("maitrise", 0)}
    return _unit(rs, sheet), weapon


def defender_unit(rs, params: dict) -> dict:
    return _unit(rs, {"DEF": params["DEF"], "chance": params.get("chance", 0), "pv": params.get("pv", 1),
                      "competences": {rs.rules["dodge"]["skill"]: params["esquive"]},
                      "equipement": {"armure": params.get("armure", 0)},
                      "effets": _effects(esquive=params.get("esquive_bonus", 0),
                                         reduction=params.get("reduction_bonus", 0))})


def damage_distribution(rs, attacker: dict, spec: dict, weapon, perfect: bool, reduction: int):
    """The dice rolled for a hit (rules.damage_terms) and the exact distribution of
    the damage after reduction."""
    expr = r.combine(*(t["dice"] for t in rs.damage_terms(attacker, spec, weapon, perfect)))
    floor = rs.rules["reduction"]["min_damage"]
    out: dict[int, Fraction] = {}
    for value, p in distribution(str(expr)).items():
        final = max(floor, value - reduction)
        out[final] = out.get(final, Fraction(0)) + p
    return str(expr), dict(sorted(out.items()))


def _mean(dist: dict) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def _at_least(dist: dict, n: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= n), Fraction(0))


def attack_odds(rs, action_id: str, params: dict) -> dict:
    """Exact odds of one attack: the chances (parts), P(perfect), P(hit),
    P(dodged), P(hit and not dodged) (of which perfect), the damage of a hit that
    lands and the chance that it downs a target of `pv` PV."""
    spec = rs.actions[action_id]
    attacker, weapon = attacker_unit(rs, spec, params)
    defender = defender_unit(rs, params)
    gene = max(0, params.get("gene", 0))
    d = math.hypot(params.get("dx", 1), params.get("dy", 0))
    chance = rs.attack_chance_of(attacker, spec, weapon, faction=lambda: _faction(rs, params.get("allies", 0)),
                                 hindrance=lambda: [{"nom": "gêne", "value": gene}] if gene else [],
                                 distance=lambda: d)
    dodge = rs.dodge_chance_of(defender, faction=lambda: _faction(rs, params.get("allies_cible", 0)))
    perfect_rules = rs.rules["perfect"]
    p_hit = _p_roll(chance["chance"])
    p_perfect = _p_roll(chance["chance"], perfect_rules["below"])
    q = _p_roll(dodge["chance"]) if rs.can_dodge(defender) else Fraction(0)
    q_perfect = q if perfect_rules["dodgeable"] else Fraction(0)
    p_dodged = (p_hit - p_perfect) * q + p_perfect * q_perfect
    landed_perfect = p_perfect * (1 - q_perfect)
    landed = p_hit - p_dodged
    reduction = rs.reduction(defender)["value"]
    expr, normal = damage_distribution(rs, attacker, spec, weapon, False, reduction)
    expr_perfect, perfect = damage_distribution(rs, attacker, spec, weapon, True, reduction)
    landed_normal = landed - landed_perfect
    pv = params.get("pv", 1)
    return {
        "chance": chance, "dodge": dodge, "distance": d, "reduction": reduction,
        "perfect": p_perfect, "hit": p_hit, "dodged": p_dodged, "landed": landed, "landed_perfect": landed_perfect,
        "damage_expr": expr, "damage_expr_perfect": expr_perfect, "damage": normal, "damage_perfect": perfect,
        "mean_landed": ((landed_normal * _mean(normal) + landed_perfect * _mean(perfect)) / landed
                        if landed else Fraction(0)),
        "mean_attack": landed_normal * _mean(normal) + landed_perfect * _mean(perfect),
        "downs": landed_normal * _at_least(normal, pv) + landed_perfect * _at_least(perfect, pv),
    }


def counter_odds(rs, params: dict) -> dict:
    """Exact odds of a damage spell against a character who may counter it."""
    m = rs.rules["magic"]
    caster = _unit(rs, {"INT": params["INT"], "DEX": params["DEX"], "competences": {m["skill"]: params["magie"]},
                        "effets": _effects(magie=params.get("magie_bonus", 0))})
    target = _unit(rs, {"INT": params["cible_INT"],
                        "competences": {rs.rules["counter_magic"]["skill"]: params["cible_magie"]}})
    cast = rs.magic_chance_of(caster, {}, faction=lambda: _faction(rs, params.get("allies", 0)))
    counter = rs.counter_chance_of(target, faction=lambda: _faction(rs, params.get("allies_cible", 0)))
    can = rs.can_counter(target)
    p_cast = _p_roll(cast["chance"])
    p_counter = _p_roll(counter["chance"]) if can else Fraction(0)
    p_reflect = _p_roll(counter["chance"], rs.rules["counter_magic"]["perfect_below"]) if can else Fraction(0)
    return {"cast": cast, "counter": counter, "can_counter": can, "p_cast": p_cast, "p_counter": p_counter,
            "p_reflect": p_reflect, "lands": p_cast * (1 - p_counter), "countered": p_cast * p_counter,
            "reflected": p_cast * p_reflect}


def _number(x: Fraction) -> str:
    return f"{float(x):.2f}"


def calculators(rs) -> dict[str, Calculator]:
    out: dict[str, Calculator] = {}
    for aid, spec in rs.actions.items():
        if spec.get("kind") == "attack":
            out[CALCULATOR_OF.get(aid, aid)] = _attack_calculator(rs, aid, spec)
    out["degats"] = _damage_calculator(rs)
    out["contre"] = _counter_calculator(rs)
    return out


def _attack_calculator(rs, aid: str, spec: dict) -> Calculator:
    name = ACTION_NAMES.get(aid, aid.replace("_", " ").capitalize())
    skill = spec["skill"]
    params = {"competence": Param(SKILL_DEFAULTS.get(skill, 40),
                                  f"compétence {SKILL_NAMES.get(skill, skill)} de l'attaquant")}
    if spec.get("mastery"):
        params["maitrise"] = Param(10, "maîtrise de l'arme")
    stats = list(dict.fromkeys(([spec["characteristic"]] if spec.get("characteristic") else [])
                               + list(spec.get("damage_base") or [])))
    for stat in stats:
        params[stat] = Param({"FOR": 16, "DEX": 16, "TAI": 12}.get(stat, 10), f"{stat} de l'attaquant")
    if spec.get("weapon_type"):
        params["arme"] = Param("1d8", "dés de dégâts de l'arme", "dice")
    if spec.get("faction"):
        params["allies"] = Param(0, "alliés de faction présents autour de l'attaquant")
    if spec.get("hindrance"):
        params["gene"] = Param(0, "gêne des autres personnages du joueur (5 à 1 case, 4 à 2... 1 à 5)")
    if spec.get("range_malus"):
        params["dx"] = Param(3, "écart en colonnes jusqu'à la cible")
        params["dy"] = Param(0, "écart en lignes jusqu'à la cible")
    params.update({
        "attaque_bonus": Param(0, "effets sur l'attaque (bénédiction : 10)"),
        "degats_bonus": Param(0, "effets sur les dégâts"),
        "esquive": Param(25, "compétence esquive du défenseur"),
        "DEF": Param(16, "DEF du défenseur"),
        "chance": Param(8, "chance du défenseur"),
        "allies_cible": Param(1, "alliés de faction présents autour du défenseur"),
        "esquive_bonus": Param(0, "effets sur l'esquive du défenseur (malédiction : -15)"),
        "armure": Param(2, "réduction des armures du défenseur"),
        "reduction_bonus": Param(0, "effets sur la réduction (peau de pierre : 2)"),
        "pv": Param(28, "PV du défenseur"),
    })

    def compute(p) -> Table:
        o = attack_odds(rs, aid, p)
        rows = [["chance d'attaque", f"{o['chance']['chance']} %"], ["chance d'esquive", f"{o['dodge']['chance']} %"],
                [f"attaque parfaite (jet de 1 à {rs.rules['perfect']['below'] - 1})", pct(o["perfect"])],
                ["touche (jet ≤ chance)", pct(o["hit"])], ["touche esquivée", pct(o["dodged"])],
                ["touche non esquivée", pct(o["landed"])], ["… dont parfaite", pct(o["landed_perfect"])],
                ["dégâts moyens d'une touche non esquivée", _number(o["mean_landed"])],
                ["dégâts moyens par attaque", _number(o["mean_attack"])],
                [f"défenseur hors de combat en une attaque ({p['pv']} PV)", pct(o["downs"])]]
        title = f"{name} : chance d'attaque {o['chance']['chance']} % contre esquive {o['dodge']['chance']} %"
        notes = [f"Attaque : {describe_chance(o['chance'])}.", f"Esquive : {describe_chance(o['dodge'])}.",
                 f"Dégâts : {o['damage_expr']} − réduction {o['reduction']} "
                 f"(parfaite : {o['damage_expr_perfect']}), jamais sous {rs.rules['reduction']['min_damage']}."]
        if spec.get("range_malus"):
            notes.insert(0, f"Distance {o['distance']:.2f} cases.")
            if spec.get("max_distance") and o["distance"] > spec["max_distance"]:
                notes.insert(1, f"Hors de portée ({spec['max_distance']} cases au plus) : ce tir serait refusé.")
        if not rs.rules["perfect"]["dodgeable"]:
            notes.append("Une attaque parfaite ne s'esquive pas.")
        return Table(title, ["", "valeur"], rows, notes)

    return Calculator(f"{name.lower()} : toucher, être esquivé, dégâts (une attaque)", params, compute)


def _damage_calculator(rs) -> Calculator:
    spec = rs.actions.get("melee") or next(s for s in rs.actions.values() if s.get("kind") == "attack")
    params = {
        "arme": Param("1d8", "dés de dégâts de l'arme (mains nues : 1d3)", "dice"),
        "TAI": Param(12, "TAI de l'attaquant"),
        "FOR": Param(16, "FOR de l'attaquant (sa DEX pour un tir)"),
        "degats_bonus": Param(0, "effets sur les dégâts"),
        "DEF": Param(16, "DEF du défenseur"),
        "armure": Param(2, "réduction des armures du défenseur"),
        "reduction_bonus": Param(0, "effets sur la réduction (peau de pierre : 2)"),
    }

    def compute(p) -> Table:
        melee = dict(spec, weapon_type=spec.get("weapon_type") or "melee")
        attacker, weapon = attacker_unit(rs, melee, dict(p, competence=0, DEX=p["FOR"]))
        defender = defender_unit(rs, dict(p, esquive=0))
        reduction = rs.reduction(defender)["value"]
        expr, normal = damage_distribution(rs, attacker, melee, weapon, False, reduction)
        expr_perfect, perfect = damage_distribution(rs, attacker, melee, weapon, True, reduction)
        rows = [[str(k), pct(normal.get(k, 0)), pct(perfect.get(k, 0)), pct(_at_least(normal, k)),
                 pct(_at_least(perfect, k))] for k in range(min(normal), max(perfect) + 1)]
        parts = " + ".join(f"{PART_NAMES.get(x['key'], x['key'])} {x['value']}"
                           for x in rs.reduction(defender)["parts"])
        return Table(f"Dégâts d'une touche : {expr} − réduction {reduction}",
                     ["dégâts", "touche", "parfaite", "au moins (touche)", "au moins (parfaite)"], rows,
                     [f"Moyenne : {_number(_mean(normal))} (parfaite, {expr_perfect} : {_number(_mean(perfect))}).",
                      f"Réduction : {parts} = {reduction}."])

    return Calculator("les dégâts d'une touche après réduction", params, compute)


def _counter_calculator(rs) -> Calculator:
    cm = rs.rules["counter_magic"]
    params = {
        "magie": Param(45, "compétence magie du lanceur"), "INT": Param(17, "INT du lanceur"),
        "DEX": Param(13, "DEX du lanceur"), "allies": Param(0, "alliés de faction autour du lanceur"),
        "magie_bonus": Param(0, "effets sur la magie du lanceur (anneaux...)"),
        "cible_magie": Param(50, "compétence magie de la cible"), "cible_INT": Param(16, "INT de la cible"),
        "allies_cible": Param(0, "alliés de faction autour de la cible"),
    }

    def compute(p) -> Table:
        o = counter_odds(rs, p)
        rows = [["chance de réussir le sort", f"{o['cast']['chance']} %"],
                ["chance de contre", f"{o['counter']['chance']} %" if o["can_counter"] else "pas de contre"],
                ["sort réussi", pct(o["p_cast"])],
                ["contré, si le sort réussit", pct(o["p_counter"])],
                [f"contre parfait (jet de 1 à {cm['perfect_below'] - 1}) : renvoyé, si le sort réussit",
                 pct(o["p_reflect"])],
                ["en tout : le sort porte", pct(o["lands"])],
                ["en tout : le sort est contré", pct(o["countered"])],
                ["en tout : le sort est renvoyé sur le lanceur", pct(o["reflected"])]]
        notes = [f"Sort : {describe_chance(o['cast'])}.", f"Contre : {describe_chance(o['counter'])}."]
        if not o["can_counter"]:
            notes.append("Sans compétence magie, la cible ne contre pas.")
        lost = [f"{(s.get('name') or {}).get('fr', sid)} ({s['cost']} PA) : {-(-s['cost'] // cm['pa_loss_divisor'])}"
                for sid, s in rs.rules["spells"].items() if s["type"] == "degats"]
        notes.append("PA perdus par la cible qui contre : " + ", ".join(lost) + " (au plus ce qui lui reste).")
        return Table(f"Contre-magie : sort à {o['cast']['chance']} %, contre à {o['counter']['chance']} %",
                     ["", "valeur"], rows, notes)

    return Calculator("la contre-magie d'un sort de dégâts (contré, renvoyé)", params, compute)
