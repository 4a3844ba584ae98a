"""What the posts show of a state, and what the public post must never show.

- `sheet`: a unit as the reports and the MJ's status list it;
- `board`: the grid drawn in letters, with its legend (public: positions are seen
  by everyone on the forum's board);
- `end_events`: what every turn (and the set-up) ends with: the board, each
  player's own sheets, the MJ's status;
- `public_chance`, `public_damage`, `public_reduction`: a number's parts as the
  thread may see them (the sheet's share in one sum, the situation part by part);
- `standing`: who is still in the skirmish, for the public post's footer;
- `secret_values`: the sheet values, in the forms the MJ log and the reports print
  them, that no public post may contain.

A module of its own because set-up, the turn, the MJ's `pbp status`, the order
form and the secrecy hook all show a state the same way.
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.model.dice import parse as parse_dice

from .rules import CHARACTER, CHARACTERISTICS, CREATURE, alive, players_standing, reduction

#: how the MJ log and the reports name a skill, in French and English (the templates' SKILLS)
SKILL_LABELS = {"bagarre": ("bagarre", "brawl"), "melee": ("mêlée", "melee"), "distance": ("distance", "ranged"),
                "esquive": ("esquive", "dodge"), "magie": ("magie", "magic")}


def sheet(rules: dict, state: dict, uid: str) -> dict:
    u = state["units"][uid]
    out = {"id": uid, "name": u["name"], "type": u["type"], "symbol": u["symbol"], "position": u["position"],
           "hp": u["hp"], "hp_max": u["hp_max"], "faction": u.get("faction"),
           "effects": [dict(e) for e in u.get("effects", [])]}
    if u.get("gender"):
        out["gender"] = u["gender"]
    if u["type"] == CHARACTER:
        out.update(player=u["player"], level=u["level"], xp=u["xp"])
    if "ap" in u:
        out.update(ap=u["ap"], ap_max=u["ap_max"])
    if u["type"] in (CHARACTER, CREATURE):
        out.update(characteristics={c: u[c] for c in CHARACTERISTICS}, luck=u["luck"],
                   skills=dict(u["skills"]), masteries=dict(u["masteries"]),
                   weapons=[{"id": w, **a} for w, a in u["weapons"].items()],
                   spells=list(u.get("spells", [])), stats=dict(u["stats"]))
    out["reduction"] = reduction(rules, u)["value"]
    return out


def board(state: dict) -> dict:
    """The grid as rows of letters (`█` a wall, `·` a free square, a unit's
    symbol) under a header of column numbers, and the legend of standing units."""
    grid, units = state["grid"], state["units"]
    cells = [["·"] * grid["width"] for _ in range(grid["height"])]
    for x, y in grid["walls"]:
        cells[y][x] = "█"
    legend = []
    for uid, u in units.items():
        if not alive(u):
            continue
        x, y = u["position"]
        cells[y][x] = u["symbol"]
        legend.append({"symbol": u["symbol"], "id": uid, "name": u["name"], "type": u["type"],
                       "position": u["position"], "faction": u.get("faction"),
                       "faction_name": state["factions"].get(u.get("faction"), {}).get("name")})
    header = "   " + "".join(str(x % 10) for x in range(grid["width"]))
    rows = [header] + [f"{y:>2} " + "".join(row) for y, row in enumerate(cells)]
    return {"rows": rows, "legend": legend}


def public_roster(state: dict) -> list[dict]:
    """Who is on the field, as the set-up post names them."""
    return [{"id": uid, "name": u["name"], "type": u["type"], "player": u.get("player"),
             "faction": u.get("faction"), "position": u["position"]} for uid, u in state["units"].items()]


def status(rules: dict, state: dict) -> list:
    """The MJ's overview (`pbp status`): the board and every sheet."""
    return [ev.gm("board", **board(state)),
            ev.gm("status", units=[sheet(rules, state, uid) for uid in state["units"]])]


def end_events(rules: dict, state: dict, roster, told=()) -> list:
    """The board for the thread; for each player still in, their sheets, then
    the end of the skirmish if it is over (the last thing their report says);
    for a player whose characters are all down, that (their report ends there;
    `told`: the players a `defeated` event of this turn already told); every
    sheet for the MJ."""
    events = [ev.public("board", **board(state))]
    for handle in roster:
        mine = [uid for uid, u in state["units"].items() if u["type"] == CHARACTER and u["player"] == handle]
        if not mine:
            continue
        if not any(alive(state["units"][uid]) for uid in mine):
            if handle not in told:
                events.append(ev.private(handle, "defeated", names=[state["units"][uid]["name"] for uid in mine]))
            continue
        events.append(ev.private(handle, "sheets", sheets=[sheet(rules, state, uid) for uid in mine]))
        if state.get("over"):
            events.append(ev.private(handle, "over", winners=winners(state)))
    events.append(ev.gm("status", units=[sheet(rules, state, uid) for uid in state["units"]]))
    return events


def winners(state: dict) -> list[dict]:
    """The factions with characters standing (the winners once the skirmish is over)."""
    standing = {u["faction"] for u in state["units"].values() if u["type"] == CHARACTER and alive(u)}
    return [{"id": f, "name": state["factions"].get(f, {}).get("name", f)} for f in sorted(f for f in standing if f)]


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"  # the templates' sign(): a true minus


def secret_values(state: dict) -> set[str]:
    """The sheets' values the public post never shows (it gives the forum line:
    rolls, final chances, damage and reduction totals, who fell): every
    character's and creature's characteristics ("DEX 15"), luck ("chance (4 pts)"),
    non-zero skills ("mêlée +45"), PV ("12/20 PV", "12/20 HP") and XP ("7 XP"), as
    the MJ log and the reports print them (in French and English)."""
    out = set()
    for u in state["units"].values():
        if u["type"] not in (CHARACTER, CREATURE):
            continue
        out |= {f"{c} {u[c]}" for c in CHARACTERISTICS if c in u}
        out |= {f"chance ({u['luck']} pts)", f"luck ({u['luck']} pts)"}
        for skill, value in (u.get("skills") or {}).items():
            if value:
                out |= {f"{label} {_signed(value)}" for label in SKILL_LABELS.get(skill, (skill,))}
        out |= {f"{u['hp']}/{u['hp_max']} PV", f"{u['hp']}/{u['hp_max']} HP"}
        if u["type"] == CHARACTER:
            out.add(f"{u['xp']} XP")
    return out


# -- a number's parts, as the thread may see them --------------------------------------------------

#: the parts of a chance that come from the sheet (secret one by one): the public
#: line shows their sum as one term, "fiche 56"
SHEET_PARTS = ("skill", "mastery", "characteristic", "luck")


def public_chance(chance: dict) -> dict:
    """A chance as the public line shows it: the sheet's parts summed into one
    `sheet` term (skill, mastery, characteristic, luck: each is secret, their sum
    is what the chance says anyway), then the situation part by part (faction,
    hindrance, range, effects, difficulty, the spell's bonus: what the board and
    the thread already know), parts worth 0 left out; `raw` before the cap."""
    parts = [{"key": "sheet", "value": sum(p["value"] for p in chance["parts"] if p["key"] in SHEET_PARTS)}]
    for p in chance["parts"]:
        if p["key"] in SHEET_PARTS or not p["value"]:
            continue
        shown = {"key": p["key"], "value": p["value"]}
        if p["key"] == "faction":
            shown["allies"] = list(p["allies"])
        elif p["key"] == "hindrance":
            shown["from"] = [{"name": h["name"], "distance": h["distance"], "value": h["value"]}
                             for h in p["from"] if h["value"]]
        elif p["key"] == "range":
            shown["distance"] = p["distance"]
        elif p["key"] == "effects":
            shown["names"] = [dict(n) for n in p["names"]]
        parts.append(shown)
    return {"parts": parts, "raw": chance["raw"], "cap": chance["cap"], "chance": chance["chance"]}


def public_reduction(red: dict) -> list[dict]:
    """What takes damage off, part by part: the defence's share (from DEF, whose
    value stays secret), each armour by name, natural armour, effects; 0s left out."""
    out = []
    for p in red["parts"]:
        if not p["value"]:
            continue
        if p["key"] == "DEF":
            out.append({"key": "defence", "value": p["value"]})
        elif p["key"] in ("armour", "legendary_armour"):
            out.append({"key": p["key"], "name": p["name"], "value": p["value"]})
        elif p["key"] == "effects":
            out.append({"key": "effects", "value": p["value"], "names": [dict(n) for n in p["names"]]})
        else:
            out.append({"key": p["key"], "value": p["value"]})
    return out


def public_damage(terms: list[dict], roll) -> list[dict]:
    """The damage roll term by term: the weapon's (or bare hands') dice, the
    damage bonus (or malus), the perfect die, the effects, each with its faces
    and its value. A roll forced as a total has no faces: then the terms carry
    their dice only and the roll's total stands for their sum."""
    faces = list(roll.faces if hasattr(roll, "faces") else roll.get("faces") or [])
    out = []
    for t in terms:
        expr = parse_dice(t["dice"])
        if not any(x.count or x.sides for x in expr.terms):
            continue  # a bonus of 0: nothing added
        shown = {"key": t["key"], "dice": str(expr)}
        if t.get("name"):
            shown["name"] = t["name"]
        if t.get("names"):
            shown["names"] = [dict(n) for n in t["names"]]
        if faces is not None:
            need = sum(x.count for x in expr.dice)
            if need <= len(faces):
                mine, faces = faces[:need], faces[need:]
                value, i = expr.constant, 0
                for x in expr.dice:
                    value += x.sign * sum(mine[i:i + x.count])
                    i += x.count
                shown.update(faces=mine, value=value)
            else:
                faces = None
        out.append(shown)
    if faces is None or any("value" not in t for t in out):
        for t in out:
            t.pop("faces", None)
            t.pop("value", None)
    return out


def standing(state: dict, scenario) -> list[dict]:
    """Per player of the roster: whether they are still in the skirmish (a
    character standing: `standing_playing`, else `standing_out`), and which of
    their characters stand and which are down (public: the board shows it)."""
    playing = set(players_standing(state, scenario.roster))
    out = []
    for handle in scenario.roster:
        mine = [u for u in state["units"].values() if u["type"] == CHARACTER and u.get("player") == handle]
        out.append({"name": scenario.name(handle), "handle": handle,
                    "status": "standing_playing" if handle in playing else "standing_out",
                    "standing": [u["name"] for u in mine if alive(u)],
                    "down": [u["name"] for u in mine if not alive(u)]})
    return out
