"""What each audience is shown of a state between turns: the blank order form's
context (a player), the MJ's overview (`pbp status`), and what no public post
may show (the secret values the core's secrecy test searches for).

A module of its own because these read the state for a reader, where resolve.py
changes it and checks.py judges orders against it.
"""

from __future__ import annotations

from pbp import events as ev

from . import rules as r


def order_context(rules: dict, lab, state: dict, scenario, player: str) -> dict:
    """What `pbp orders` lists for a Péji (orders_hints.j2): where they are, what
    they carry, who engages them, and the cost of each action."""
    peji = state["pejis"][player]
    return {"place": lab.describe(peji["cell"], set(state["open_doors"])),
            "inventory": peji["inventory"], "lost_turns": peji["lost_turns"],
            "engaged": [r.hunter_name(scenario, h) for h in r.engaged_by(state, player)],
            "points": rules["max_points"], "door": rules["doors"]["porte"],
            "costs": {a: {k: spec[k] for k in ("points", "noise", "fatigue", "stress")}
                      for a, spec in rules["actions"].items()}}


def status(rules: dict, lab, state: dict, scenario) -> list[ev.Event]:
    """The MJ's overview (status_body.j2): every Péji's numbers, every hunter's place."""
    out = []
    for handle, p in state["pejis"].items():
        out.append(ev.gm("peji", player=handle, name=scenario.name(handle), status=p["status"],
                         cell=lab.name(p["cell"]), noise=p["noise"], fatigue=p["fatigue"],
                         fatigue_level=r.fatigue_level(rules, p["fatigue"]), stress=p["stress"],
                         wounds=p["wounds"], inventory=p["inventory"], lost_turns=p["lost_turns"]))
    for hid, h in state["hunters"].items():
        out.append(ev.gm("chasseur", hunter=hid, name=r.hunter_name(scenario, hid), cell=lab.name(h["cell"]),
                         target=h["target"], out=h["out"], wounds=h["wounds"]))
    return out


def secret_values(rules: dict, lab, state: dict, scenario) -> set[str]:
    """The public post names no place, no item and no hunter's weapon (it tells
    who did what kind of action, fights, shots, panics, traps sprung, deaths,
    escapes): every cell (id, name, description) — so every trap's cell and
    every position, a hunter's included — every trap's description, every item
    a Péji may carry or find, and the hunters' weapons are secret in any state.
    (Whom a hunter tracks is a player's name, public as such: the audiences
    alone keep it secret.)"""
    out = set()
    for cid, cell in lab.cells.items():
        cell = cell or {}
        out |= {str(cid), str(cell.get("name") or ""), str(cell.get("description") or "")}
    out |= {str(trap.get("description") or "") for trap in lab.traps.values()}
    out |= set(rules["items"])
    for peji in state["pejis"].values():
        out |= set(peji["inventory"]) | set(peji["worn"])
    for sheet in (scenario.characters.get("hunters") or {}).values():
        weapon = (sheet or {}).get("weapon") or {}
        out.add(str(weapon.get("name") or ""))
    return {v.strip() for v in out if v.strip()}
