"""What the posts show of a state, and what the public post must never show.

- `sheet`: a unit as the reports and the MJ's status list it;
- `board`: the grid drawn in letters, with its legend (public: positions are seen
  by everyone on the forum's board);
- `end_events`: what every turn (and the set-up) ends with: the board, each
  player's own sheets, the MJ's status;
- `secret_values`: the sheet values, in the forms the MJ log and the reports print
  them, that no public post may contain.

A module of its own because set-up, the turn, the MJ's `pbp status`, the order
form and the secrecy hook all show a state the same way.
"""

from __future__ import annotations

from pbp import events as ev

from .rules import CHARACTER, CHARACTERISTICS, CREATURE, alive, reduction

#: how the MJ log and the reports name a skill, in French and English (the templates' SKILLS)
SKILL_LABELS = {"bagarre": ("bagarre", "brawl"), "melee": ("mêlée", "melee"), "distance": ("distance", "ranged"),
                "esquive": ("esquive", "dodge"), "magie": ("magie", "magic")}


def sheet(rules: dict, state: dict, uid: str) -> dict:
    u = state["units"][uid]
    out = {"id": uid, "name": u["name"], "type": u["type"], "symbol": u["symbol"], "position": u["position"],
           "hp": u["hp"], "hp_max": u["hp_max"], "faction": u.get("faction"),
           "effects": [dict(e) for e in u.get("effects", [])]}
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


def end_events(rules: dict, state: dict, roster) -> list:
    """The board for the thread, each player's sheets for their report, every
    sheet for the MJ."""
    events = [ev.public("board", **board(state))]
    for handle in roster:
        sheets = [sheet(rules, state, uid) for uid, u in state["units"].items()
                  if u["type"] == CHARACTER and u["player"] == handle]
        if sheets:
            events.append(ev.private(handle, "sheets", sheets=sheets))
    events.append(ev.gm("status", units=[sheet(rules, state, uid) for uid in state["units"]]))
    return events


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"  # the templates' sign(): a true minus


def secret_values(state: dict) -> set[str]:
    """The sheets' values the public post never shows (it gives the forum line:
    rolls, final chances, damage and reduction totals, who fell): every
    character's and creature's characteristics ("DEX 15"), luck ("chance (4 pts)"),
    non-zero skills ("mêlée +45"), PV ("12/20 PV") and XP ("7 XP"), as the MJ log
    and the reports print them."""
    out = set()
    for u in state["units"].values():
        if u["type"] not in (CHARACTER, CREATURE):
            continue
        out |= {f"{c} {u[c]}" for c in CHARACTERISTICS if c in u}
        out |= {f"chance ({u['luck']} pts)", f"luck ({u['luck']} pts)"}
        for skill, value in (u.get("skills") or {}).items():
            if value:
                out |= {f"{label} {_signed(value)}" for label in SKILL_LABELS.get(skill, (skill,))}
        out.add(f"{u['hp']}/{u['hp_max']} PV")
        if u["type"] == CHARACTER:
            out.add(f"{u['xp']} XP")
    return out
