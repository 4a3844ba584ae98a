"""The d100 mechanics, as pure functions of the rules data (data.yaml plus the
campaign's overrides), plain values and a dice roller. No I/O, no printing.

- a check: 1d100 <= characteristic + 5 per skill point + modifiers; 1-5 is a
  critical success and 96-100 a critical failure whatever the chance;
- trust (confiance): -5..+5 per character and faction, +-1 per point on social
  checks, doubled (capped at +-10) when the whole group is on one side;
- alignment: light points out of 10; all on one side is the stable state;
  alignment events (d20 vs d20) and the rupture roll (5d10 vs 1d50);
- gauges: what a check costs, where a recovery point goes, a character's
  state when they enter the game and their end-of-turn summary;
- characteristic generation: Nd10, +Nd4 at 30 or less, -Nd6 at 80 or more.

Sheets here are the normalised ones of sheets.py (`characteristics`, `gauges`,
`skills`, `items`...); a character's state is the one of state.yaml (`pv`,
`force`, `action`, `light`, `trust`, `uses`, `down`, `no_sleep_heal`).
"""

from __future__ import annotations

from functools import lru_cache

from pbp.model.dice import parse as parse_dice

#: parsed dice expressions, kept (a check parses the same `1d100` every time)
dice_expr = lru_cache(maxsize=256)(parse_dice)

LIGHT, DARK = "clair", "obscur"
OUTCOMES = ("critical_success", "success", "failure", "critical_failure")


# -- the check ---------------------------------------------------------------------

def skill_points(level: int, rules: dict) -> int:
    """What a skill level adds to the chance: 1 point = 5 %."""
    return level * rules["check"]["points_per_skill_level"]


def outcome(roll: int, chance: int, rules: dict) -> str:
    """critical_success / success / failure / critical_failure."""
    crit_ok, crit_ko = rules["check"]["critical_success"], rules["check"]["critical_failure"]
    if crit_ok["min"] <= roll <= crit_ok["max"]:
        return "critical_success"
    if crit_ko["min"] <= roll <= crit_ko["max"]:
        return "critical_failure"
    return "success" if roll <= chance else "failure"


def succeeded(result: str) -> bool:
    return result in ("success", "critical_success")


def situation_modifier(total: int, expr: str, spread: int) -> int:
    """A situational die's result spread evenly over -spread..+spread points:
    the lowest results give the malus, the highest the bonus."""
    parsed = dice_expr(expr)
    low, high = parsed.minimum, parsed.maximum
    if spread <= 0 or high <= low:
        return 0
    total = min(max(total, low), high)
    return (total - low) * (2 * spread + 1) // (high - low + 1) - spread


# -- trust -------------------------------------------------------------------------

def group_doubles(values: list[int], rules: dict) -> bool:
    """Every player character's trust with a faction on one side (all > 0 or all < 0)."""
    t = rules["trust"]
    if len(values) < t["group_min_characters"]:
        return False
    return all(v > 0 for v in values) or all(v < 0 for v in values)


def effective_trust(value: int, group_values: list[int], rules: dict) -> tuple[int, bool]:
    """The trust level a social check uses, and whether the group doubled it."""
    t = rules["trust"]
    if group_doubles(group_values, rules):
        doubled = value * t["group_multiplier"]
        return max(-t["cap"], min(t["cap"], doubled)), True
    return value, False


def trust_bonus(effective: int, rules: dict) -> int:
    return effective * rules["trust"]["bonus_per_point"]


def trust_delta(result: str, rules: dict) -> int:
    t = rules["trust"]
    return {"critical_success": t["critical_success_gain"], "success": t["success_gain"],
            "failure": -t["failure_loss"], "critical_failure": -t["critical_failure_loss"]}[result]


def clamp_trust(value: int, rules: dict) -> int:
    return max(rules["trust"]["min"], min(rules["trust"]["max"], value))


# -- alignment ------------------------------------------------------------------------

def opposite(side: str) -> str:
    return DARK if side == LIGHT else LIGHT


def stable_side(light: int | None, rules: dict) -> str | None:
    """`clair` with every point light, `obscur` with none, else None (oscillating,
    or an alignment not drawn yet)."""
    if light is None:
        return None
    if light >= rules["alignment"]["points"]:
        return LIGHT
    if light <= 0:
        return DARK
    return None


def stable_bonus(light: int, intent: str | None, rules: dict) -> int:
    side = stable_side(light, rules)
    return rules["alignment"]["stable_bonus"] if side is not None and intent == side else 0


def shifted(light: int, side: str, points: int, rules: dict) -> int:
    """Light points after moving `points` toward `side`, within 0..10."""
    total = rules["alignment"]["points"]
    light = light + points if side == LIGHT else light - points
    return max(0, min(total, light))


def alignment_event(light: int, reaction: str, points: int | None, dice, handle: str, rules: dict) -> dict:
    """A major event: the MJ rolls 1d20, then the player 1d20; the player's
    result <= the MJ's and the chosen reaction is accepted, else it is inverted.
    The alignment moves toward the resulting side; a stable state only breaks
    by a rupture (grave event, manipulation), so it holds against an inverted
    reaction."""
    spec = rules["alignment"]["event"]
    gm_roll = dice.roll(f"{handle}.alignement.mj", spec["gm_die"], "alignment event (MJ)")
    player_roll = dice.roll(f"{handle}.alignement.joueur", spec["player_die"], "alignment event (player)")
    accepted = player_roll.total <= gm_roll.total
    side = reaction if accepted else opposite(reaction)
    points = spec["shift"] if points is None else points
    stable = stable_side(light, rules)
    held = stable is not None and side != stable
    after = light if held else shifted(light, side, points, rules)
    return {"gm_roll": gm_roll, "player_roll": player_roll, "reaction": reaction, "accepted": accepted,
            "side": side, "points": points, "before": light, "after": after, "held": held,
            "stable_before": stable, "stable_after": stable_side(after, rules)}


def rupture(light: int, dice, handle: str, rules: dict) -> dict:
    """A grave personal event tests a stable state: the player rolls 5d10 (the
    reference), then the MJ 1d50; the MJ's result <= the reference breaks it."""
    spec = rules["alignment"]["rupture"]
    reference = dice.roll(f"{handle}.rupture.joueur", spec["player_dice"], "grave event: reference (player)")
    gm_roll = dice.roll(f"{handle}.rupture.mj", spec["gm_die"], "grave event (MJ)")
    broken = gm_roll.total <= reference.total
    return {"reference": reference, "gm_roll": gm_roll, "broken": broken,
            **break_stable(light, broken, rules)}


def break_stable(light: int, broken: bool, rules: dict) -> dict:
    stable = stable_side(light, rules)
    after = shifted(light, opposite(stable), rules["alignment"]["rupture"]["shift"], rules) \
        if broken and stable is not None else light
    return {"before": light, "after": after, "stable_before": stable, "stable_after": stable_side(after, rules)}


# -- gauges ---------------------------------------------------------------------------

def check_cost(rules: dict, sheet: dict, check_type: str | None, skill_id: str | None) -> dict:
    """Gauge points a check costs: its type (complex, instinct: Action), and a
    Force power skill (Force)."""
    spec = rules["check"]
    cost = dict(spec["types"].get(check_type or spec["default_type"]) or {})
    skill = sheet["skills"].get(skill_id) if skill_id else None
    if skill is not None and skill["force"]:
        for gauge, points in (spec.get("force_power_cost") or {}).items():
            cost[gauge] = cost.get(gauge, 0) + points
    return cost


def recovery_gauge(choice: str | None, current: dict, maxima: dict, rules: dict) -> str | None:
    """Which of Action / Force a recovery point goes to: the player's choice
    (Force only for a character who has it), else the other one if the chosen
    one is full; None when both are full."""
    options = ["action", "force"] if maxima.get("force", 0) > 0 else ["action"]
    first = choice if choice in options else rules["recovery"]["default"]
    if first not in options:
        first = options[0]
    for gauge in [first] + [o for o in options if o != first]:
        if current[gauge] < maxima[gauge]:
            return gauge
    return None


# -- a character in the state ------------------------------------------------------------

def initial_character(sheet: dict, light: int | None, rules: dict) -> dict:
    """A character's state when they enter the game: full gauges, the sheet's
    starting trust and items' uses; `light` None: an alignment still to draw."""
    return {**{g: sheet["gauges"][g] for g in rules["gauges"]}, "light": light,
            "trust": dict(sheet["trust"]),
            "uses": {i: item["uses"] for i, item in sheet["items"].items() if item["uses"] is not None},
            "down": sheet["gauges"]["pv"] <= 0, "no_sleep_heal": False}


def character(state: dict, handle: str, sheet: dict, rules: dict) -> dict:
    """A character's state; a player joining this turn gets their starting one
    (an alignment still to draw counts as not stable)."""
    me = state["characters"].get(handle)
    return me if me is not None else initial_character(sheet, sheet["alignment"], rules)


def summary(handle: str, state: dict, sheet: dict, factions: dict, rules: dict) -> dict:
    """What a player's end-of-turn sheet shows: gauges, alignment, trust, items left."""
    me = state["characters"][handle]
    total = rules["alignment"]["points"]
    gauges = [{"gauge": g, "value": me[g], "max": sheet["gauges"][g]} for g in rules["gauges"]
              if g != "force" or sheet["gauges"]["force"] > 0]
    trust = [{"faction": f, "faction_name": factions[f]["name"] if f in factions else f, "level": v}
             for f, v in me["trust"].items()]
    uses = [{"item": sheet["items"][i]["name"], "left": n} for i, n in me["uses"].items() if i in sheet["items"]]
    dark = None if me["light"] is None else total - me["light"]
    return {"player": handle, "gauges": gauges, "light": me["light"], "dark": dark,
            "stable": stable_side(me["light"], rules), "trust": trust, "uses": uses, "down": me["down"],
            "combat": state.get("combat", False)}


# -- characteristic generation ------------------------------------------------------------

def generate_characteristic(carac: str, count: int, low_count: int, high_count: int, dice, handle: str,
                            rules: dict) -> dict:
    """Nd10; a score <= 30 gains Nd4, a score >= 80 loses Nd6 (N from the MJ)."""
    gen = rules["generation"]
    base = dice.roll(f"{handle}.{carac}", f"{count}d{gen['die']}", f"generation: {carac}")
    correction, kind = None, None
    if base.total <= gen["low"]["threshold"] and low_count > 0:
        correction, kind = dice.roll(f"{handle}.{carac}.bonus", f"{low_count}d{gen['low']['die']}",
                                     f"generation: {carac} <= {gen['low']['threshold']}"), "low"
    elif base.total >= gen["high"]["threshold"] and high_count > 0:
        correction, kind = dice.roll(f"{handle}.{carac}.malus", f"{high_count}d{gen['high']['die']}",
                                     f"generation: {carac} >= {gen['high']['threshold']}"), "high"
    value = base.total + (correction.total if kind == "low" else -correction.total if kind == "high" else 0)
    bounds = rules["characteristic_range"]
    value = max(bounds["min"], min(bounds["max"], value))
    return {"carac": carac, "base": base, "correction": correction, "kind": kind, "value": value}


def generate_sheet(rules: dict, dice, handle: str, name: str, counts: dict, gauges: dict | None = None,
                   alignment: int | None = None) -> tuple[dict, dict]:
    """A new character sheet from the MJ's dice counts.

    `counts` maps each characteristic to N, or to (N d10, N d4, N d6);
    `gauges` maps pv / force / action to a dice expression or a number (the
    data's defaults otherwise). Returns the sheet (characters.yaml shape) and
    the draw (every roll, for the forum-style report)."""
    draw = {"characteristics": [], "gauges": [], "alignment": None}
    sheet: dict = {"nom": name}
    for carac in rules["characteristics"]:
        spec = counts[carac]
        n10, n4, n6 = (spec, spec, spec) if isinstance(spec, int) else tuple(spec)
        result = generate_characteristic(carac, n10, n4, n6, dice, handle, rules)
        draw["characteristics"].append(result)
        sheet[carac] = result["value"]
    defaults = rules["generation"]["gauges"]
    for gauge in rules["gauges"]:
        expr = (gauges or {}).get(gauge)
        if expr is None:
            expr = defaults.get(gauge, 0)
        parsed = parse_dice(expr)
        if parsed.dice:
            roll = dice.roll(f"{handle}.{gauge}", parsed, f"generation: {gauge}")
            value = max(0, roll.total)
        else:
            roll, value = None, max(0, parsed.constant)
        draw["gauges"].append({"gauge": gauge, "roll": roll, "value": value})
        sheet[gauge] = value
    if alignment is None:
        roll = dice.roll(f"{handle}.alignement", rules["alignment"]["draw"], "generation: light points")
        light = max(0, min(rules["alignment"]["points"], roll.total))
        draw["alignment"] = {"roll": roll, "value": light}
    else:
        light = alignment
        draw["alignment"] = {"roll": None, "value": light}
    sheet["alignement"] = light
    sheet["travers"] = ""
    sheet["competences"] = {cat: {} for cat in rules["skills"]["categories"]}
    sheet["inventaire"] = []
    sheet["equipement"] = []
    sheet["armement"] = []
    return sheet, draw
