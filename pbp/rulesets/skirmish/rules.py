"""The skirmish rules (seed 003), as pure functions: plain values in, plain values
out, every number from `rules` (data.yaml merged with the campaign's overrides).
No I/O, no events, no dice: the callers roll and report.

- geometry: Euclidean distance between square centres (docs/design.md skirmish 1);
- characteristic and luck bonuses, faction help, own-character hindrance, the
  range malus (docs/design.md skirmish 2-5);
- the chances of an attack, a dodge, a spell and a counter, each as its parts
  (so the MJ log shows them) and capped; who may dodge or counter;
- damage: the damage-bonus table, the dice of a hit, the reduction (docs/design.md skirmish 6);
- spells: range by level, the units a zone touches, the PA a counter costs;
- levels from XP, and the players still in the game.

Each chance comes in two forms: `*_chance(rules, state, uid, ...)` reads the
situation off the board, `*_chance_of(rules, unit, ..., faction=...)` adds up the
parts from a unit and callables giving its situation, so that `pbp odds`
(balance.py) computes them from bare numbers with the very same code.
"""

from __future__ import annotations

import math

from pbp.model.dice import DiceExpr, Term, parse as parse_dice
from pbp.model.orders import normalize_id

CHARACTER, CREATURE, DOOR, OBJECT = "character", "creature", "door", "object"
NPC_KINDS = (CREATURE, DOOR, OBJECT)
CHARACTERISTICS = ("FOR", "DEX", "DEF", "TAI", "INT")
SKILLS = ("bagarre", "melee", "distance", "esquive", "magie")
WEAPON_TYPES = ("melee", "distance")
SPELL_TYPES = ("degats", "soin", "buff", "debuff")
HARMFUL = ("degats", "debuff")
#: what a unit's record counts (the players' reports show it)
STATS = ("attacks", "hits", "perfects", "dodges", "spells_cast", "spells_landed", "counters",
         "damage_dealt", "damage_taken", "downed")
#: king moves, in the order the path search tries them
NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


# -- small pure helpers ---------------------------------------------------------------

def half_up(x: float) -> int:
    """Round to the nearest integer, halves up (Python's round() rounds halves to even)."""
    return math.floor(x + 0.5)


def dist2(a, b) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def distance(a, b) -> float:
    """Euclidean distance between square centres (docs/design.md skirmish 1)."""
    return math.sqrt(dist2(a, b))


def shown(d: float) -> float:
    """A distance as logged: two decimals."""
    return round(d, 2)


def alive(unit: dict) -> bool:
    return unit.get("hp", 0) > 0


def combine(*exprs) -> DiceExpr:
    """One dice expression from several (`1d8`, `1d4`, `-1d6`, 2): their terms, zeros dropped."""
    terms = []
    for expr in exprs:
        if expr is None:
            continue
        for term in parse_dice(expr).terms:
            if term.count or term.sides:
                terms.append(term)
    return DiceExpr(tuple(terms) or (Term(1, 0, 0),))


def spell_id(rules: dict, name) -> str | None:
    """A spell by its id, English id or alias (accents, case and spaces ignored)."""
    key = normalize_id(name)
    for sid, spec in rules["spells"].items():
        if key in (normalize_id(sid), normalize_id(spec.get("en") or sid),
                   *(normalize_id(a) for a in spec.get("aliases") or [])):
            return sid
    return None


def players_standing(state: dict, roster) -> list[str]:
    """The handles (in roster order) with at least one character standing."""
    owners = {u["player"] for u in state["units"].values() if u["type"] == CHARACTER and alive(u)}
    return [h for h in roster if h in owners]


# -- bonuses ------------------------------------------------------------------------------

def char_bonus(rules: dict, value: int) -> int:
    return value - rules["characteristic_neutral"]


def luck_bonus(rules: dict, value: int) -> int:
    luck = rules["luck"]
    return max(0, min(luck["max"], value // luck["step"]))


def faction_allies(rules: dict, state: dict, uid: str) -> list[str]:
    """The standing characters and creatures of the unit's faction present around it."""
    units, faction = state["units"], rules["faction"]
    me = units[uid]
    if not me.get("faction"):
        return []
    out = []
    for other, u in units.items():
        if other == uid or not alive(u) or u.get("faction") != me["faction"] or u["type"] not in (CHARACTER,
                                                                                                 CREATURE):
            continue
        if not faction["count_own_characters"] and me.get("player") and u.get("player") == me["player"]:
            continue
        if dist2(me["position"], u["position"]) <= faction["radius"] ** 2:
            out.append(other)
    return out


def faction_bonus(rules: dict, n: int) -> int:
    """round(sum_{i=1..n} b / i): rising with every ally, by ever smaller steps."""
    b = rules["faction"]["b"]
    return half_up(sum(b / i for i in range(1, n + 1)))


def faction_part(rules: dict, state: dict, uid: str) -> dict:
    allies = faction_allies(rules, state, uid)
    return {"key": "faction", "value": faction_bonus(rules, len(allies)),
            "allies": [state["units"][a]["name"] for a in allies]}


def hindrance(rules: dict, state: dict, uid: str) -> list[dict]:
    """Each other visible character of the same player: max(0, 5 - (d - 1)), rounded."""
    units, hind = state["units"], rules["hindrance"]
    me = units[uid]
    if not me.get("player"):
        return []
    out = []
    for other, u in units.items():
        if other == uid or not alive(u) or u.get("player") != me["player"]:
            continue
        d = distance(me["position"], u["position"])
        if d > rules["grid"]["visible_within"]:
            continue
        value = max(0, half_up(hind["per_character"] - (d - hind["free_squares"])))
        out.append({"id": other, "name": u["name"], "distance": shown(d), "value": value})
    return out


def range_malus(rules: dict, d: float) -> int:
    malus = rules["range_malus"]
    return max(0, half_up(malus["per_square"] * (d - malus["free_squares"])))


def effects_on(unit: dict, stat: str) -> tuple[int, list[dict]]:
    """The total of a unit's effects on `stat`, and those effects (name, spell name)."""
    found = [e for e in unit.get("effects", []) if e["stat"] == stat]
    return sum(e["value"] for e in found), [{"name": e["name"], **({"spell_name": e["spell_name"]}
                                                                    if e.get("spell_name") else {})} for e in found]


def capped(parts: list[dict], cap: int) -> dict:
    raw = sum(p["value"] for p in parts)
    return {"parts": parts, "raw": raw, "cap": cap, "chance": max(0, min(cap, raw))}


def _effects_part(unit: dict, stat: str, parts: list) -> None:
    value, names = effects_on(unit, stat)
    if names:
        parts.append({"key": "effects", "value": value, "names": names})


def _characteristic_part(rules: dict, me: dict, stat: str) -> dict:
    return {"key": "characteristic", "stat": stat, "score": me[stat], "value": char_bonus(rules, me[stat])}


# -- chances -------------------------------------------------------------------------------

def attack_chance(rules: dict, state: dict, uid: str, spec: dict, weapon, target: str) -> dict:
    units = state["units"]
    me = units[uid]
    return attack_chance_of(rules, me, spec, weapon, faction=lambda: faction_part(rules, state, uid),
                            hindrance=lambda: hindrance(rules, state, uid),
                            distance=lambda: distance(me["position"], units[target]["position"]))


def attack_chance_of(rules: dict, me: dict, spec: dict, weapon, faction, hindrance, distance) -> dict:
    """`faction()`: the faction part; `hindrance()`: the hindering characters
    ([{value, ...}]); `distance()`: to the target. Each is asked only when the
    action's spec uses it."""
    parts = [{"key": "skill", "skill": spec["skill"], "value": me["skills"].get(spec["skill"], 0)}]
    if spec.get("mastery") and weapon:
        parts.append({"key": "mastery", "weapon": me["weapons"][weapon]["name"],
                      "value": me["masteries"].get(weapon, 0)})
    if spec.get("characteristic"):
        parts.append(_characteristic_part(rules, me, spec["characteristic"]))
    if spec.get("faction"):
        parts.append(faction())
    if spec.get("hindrance"):
        found = hindrance()
        parts.append({"key": "hindrance", "value": -sum(h["value"] for h in found), "from": found})
    if spec.get("range_malus"):
        d = distance()
        parts.append({"key": "range", "distance": shown(d), "value": -range_malus(rules, d)})
    _effects_part(me, "attaque", parts)
    return capped(parts, spec["cap"])


def dodge_chance(rules: dict, state: dict, uid: str) -> dict:
    return dodge_chance_of(rules, state["units"][uid], faction=lambda: faction_part(rules, state, uid))


def dodge_chance_of(rules: dict, me: dict, faction) -> dict:
    dodge = rules["dodge"]
    parts = [{"key": "skill", "skill": dodge["skill"], "value": me["skills"].get(dodge["skill"], 0)},
             _characteristic_part(rules, me, dodge["characteristic"])]
    if dodge["luck"]:
        parts.append({"key": "luck", "score": me["luck"], "value": luck_bonus(rules, me["luck"])})
    if dodge["faction"]:
        parts.append(faction())
    _effects_part(me, "esquive", parts)
    return capped(parts, dodge["cap"])


def magic_chance(rules: dict, state: dict, uid: str, spell: dict) -> dict:
    return magic_chance_of(rules, state["units"][uid], spell, faction=lambda: faction_part(rules, state, uid))


def magic_chance_of(rules: dict, me: dict, spell: dict, faction) -> dict:
    magic = rules["magic"]
    parts = [{"key": "skill", "skill": magic["skill"], "value": me["skills"].get(magic["skill"], 0)}]
    parts += [_characteristic_part(rules, me, c) for c in magic["characteristics"]]
    if magic["faction"]:
        parts.append(faction())
    if spell.get("bonus"):
        parts.append({"key": "spell_bonus", "value": spell["bonus"]})
    _effects_part(me, "magie", parts)
    return capped(parts, magic["cap"])


def counter_chance(rules: dict, state: dict, uid: str) -> dict:
    return counter_chance_of(rules, state["units"][uid], faction=lambda: faction_part(rules, state, uid))


def counter_chance_of(rules: dict, me: dict, faction) -> dict:
    counter = rules["counter_magic"]
    parts = [{"key": "skill", "skill": counter["skill"], "value": me["skills"].get(counter["skill"], 0)}]
    parts += [_characteristic_part(rules, me, c) for c in counter["characteristics"]]
    if counter["faction"]:
        parts.append(faction())
    parts.append({"key": "difficulty", "value": -counter["difficulty"]})
    return capped(parts, counter["cap"])


def succeeds(roll_total: int, chance: int) -> bool:
    """Every d100 of the rules succeeds on a roll at most the chance."""
    return roll_total <= chance


def can_dodge(rules: dict, unit: dict) -> bool:
    if unit["type"] == CHARACTER:
        return True
    return unit["type"] == CREATURE and rules["dodge"]["creatures"] and unit.get("can_dodge", False)


def can_counter(rules: dict, unit: dict) -> bool:
    if unit["type"] not in (CHARACTER, CREATURE) or "skills" not in unit:
        return False
    counter = rules["counter_magic"]
    return not counter["requires_skill"] or unit["skills"].get(counter["skill"], 0) > 0


# -- damage ----------------------------------------------------------------------------------

def damage_bonus(rules: dict, total: int) -> str:
    for row in rules["damage_bonus"]:
        if row["up_to"] is None or total <= row["up_to"]:
            return str(row["dice"])
    return "0"


def reduction(rules: dict, unit: dict) -> dict:
    red = rules["reduction"]
    parts = [{"key": "DEF", "score": unit["DEF"], "value": min(red["def_max"], max(0, unit["DEF"]) // red["def_step"])}]
    for key in ("armour", "legendary_armour"):
        if unit.get(key):
            parts.append({"key": key, "name": unit[key]["name"], "value": unit[key]["reduction"]})
    if unit.get("natural_armour"):
        parts.append({"key": "natural_armour", "value": unit["natural_armour"]})
    _effects_part(unit, "reduction", parts)
    return {"parts": parts, "value": max(red["floor"], sum(p["value"] for p in parts))}


def final_damage(rules: dict, rolled: int, reduced_by: int = 0) -> int:
    """What a hit removes: the roll minus the reduction, never below the floor."""
    return max(rules["reduction"]["min_damage"], rolled - reduced_by)


def damage_terms(rules: dict, unit: dict, spec: dict, weapon, perfect: bool) -> list[dict]:
    """The dice of a hit, term by term: the weapon's (or bare hands'), the damage
    bonus of TAI+FOR (or the action's `damage_base`), the perfect die, the effects."""
    terms = []
    if weapon:
        w = unit["weapons"][weapon]
        terms.append({"key": "weapon", "name": w["name"], "dice": w["damage"]})
    else:
        terms.append({"key": "bare_hands", "dice": str(spec["damage_dice"])})
    stats = spec["damage_base"]
    total = sum(unit[s] for s in stats)
    terms.append({"key": "bonus", "stats": "+".join(stats), "sum": total, "dice": damage_bonus(rules, total)})
    if perfect:
        terms.append({"key": "perfect", "dice": str(rules["perfect"]["dice"])})
    value, names = effects_on(unit, "degats")
    if names:
        terms.append({"key": "effects", "names": names, "dice": str(value)})
    return terms


def is_perfect(rules: dict, roll_total: int) -> bool:
    """A hit (the roll already under the chance) whose roll is low enough is perfect."""
    return roll_total < rules["perfect"]["below"]


# -- spells ----------------------------------------------------------------------------------

def spell_range(spell: dict, level: int) -> float:
    r = spell["range"]
    value = r["base"] + r.get("per_level", 0) * (level - 1)
    return min(value, r["max"]) if r.get("max") is not None else value


def spell_targets(state: dict, uid: str, target: str, spell: dict) -> list[str]:
    """The target, then everyone else in the zone (harmful zones spare the caster
    and its player's characters; healing and buffs touch characters only)."""
    if not spell.get("zone"):
        return [target]
    units = state["units"]
    centre = units[target]["position"]
    player = units[uid].get("player")
    hits = [target]
    for other, u in units.items():
        if other == target or not alive(u) or dist2(centre, u["position"]) > spell["zone"] ** 2:
            continue
        if spell["type"] in HARMFUL and (other == uid or (player and u.get("player") == player)):
            continue
        if spell["type"] != "degats" and u["type"] != CHARACTER:
            continue
        hits.append(other)
    return hits


def counter_ap_loss(rules: dict, spell: dict, left: int) -> int:
    """A successful counter costs ceil(cost / divisor) PA, at most what is left."""
    return min(left, -(-spell["cost"] // rules["counter_magic"]["ap_loss_divisor"]))


def reflects(rules: dict, roll_total: int) -> bool:
    """A successful counter whose roll is low enough sends the spell back."""
    return roll_total < rules["counter_magic"]["perfect_below"]


# -- levels --------------------------------------------------------------------------------------

def level_for(rules: dict, xp: int, level: int) -> int:
    """The level XP gives (never below the one held: a level is never lost)."""
    for i, need in enumerate(rules["levels"]):
        if xp >= need:
            level = max(level, i + 1)
    return level
