"""What each audience is shown of a state between turns: the blank order form's
context (a player), the MJ's overview (`pbp status`), and what no public post
may show (the secret values the core's secrecy test searches for).

A module of its own because these read the state for a reader, where resolve.py
changes it and checks.py judges orders against it.
"""

from __future__ import annotations

from pbp.model import events as ev

from . import rules as r


def order_context(rules: dict, lab, state: dict, scenario, player: str) -> dict:
    """What `pbp orders` lists for a Péji (orders_hints.j2): where they are, what
    they carry, who engages them, and the cost of each action."""
    peji = state["pejis"][player]
    cell = peji["cell"]
    # the hunters the Péji perceives, as their report says: here, then next door by
    # direction; orders name them by name (r.match_hunters)
    seen = [{"name": r.hunter_name(scenario, h), "direction": None} for h in r.hunters_on(state, [cell])]
    for direction, exit_ in lab.exits.get(cell, []):
        seen += [{"name": r.hunter_name(scenario, h), "direction": direction}
                 for h in r.hunters_on(state, [exit_["to"]])]
    return {"place": lab.describe(cell, set(state["open_doors"])),
            "inventory": peji["inventory"], "lost_turns": peji["lost_turns"],
            "engaged": [r.hunter_name(scenario, h) for h in r.engaged_by(state, player)],
            "hunters": seen,
            "points": rules["max_points"], "door": rules["doors"]["porte"],
            "costs": {a: {k: spec[k] for k in ("points", "noise", "fatigue", "stress")}
                      for a, spec in rules["actions"].items()},
            # the thresholds the Péji plays against, and where they stand (their report says the same)
            "noise": rules["noise"], "fatigue": rules["fatigue"], "stress": rules["stress"],
            "now": {"noise": peji["noise"], "fatigue": peji["fatigue"], "stress": peji["stress"],
                    "fatigue_level": r.fatigue_level(rules, peji["fatigue"])}}


def status(rules: dict, lab, state: dict, scenario) -> list[ev.Event]:
    """The MJ's overview (status_body.j2): every Péji's numbers, every hunter's
    place, every closable doorway (open or closed) and every trap (who found
    it), with the ids gm.yaml uses next to the names."""
    out = []
    for handle, p in state["pejis"].items():
        out.append(ev.gm("peji", player=handle, name=scenario.name(handle), genre=r.peji_genre(scenario, handle),
                         status=p["status"],
                         cell=lab.name(p["cell"]), cell_id=p["cell"], noise=p["noise"], fatigue=p["fatigue"],
                         fatigue_level=r.fatigue_level(rules, p["fatigue"]), stress=p["stress"],
                         wounds=p["wounds"], inventory=p["inventory"], lost_turns=p["lost_turns"]))
    for hid, h in state["hunters"].items():
        out.append(ev.gm("chasseur", hunter=hid, name=r.hunter_name(scenario, hid), cell=lab.name(h["cell"]),
                         cell_id=h["cell"], target=h["target"], out=h["out"], wounds=h["wounds"]))
    open_doors = set(state["open_doors"])
    for cell, direction, exit_ in lab.closable_doorways():
        out.append(ev.gm("porte", door=lab.door(exit_), open=lab.door_open(cell, exit_, open_doors),
                         cell_id=cell, cell=lab.name(cell), direction=direction,
                         to_id=exit_["to"], to=lab.name(exit_["to"])))
    for cell in lab.traps:
        found = [h for h, p in state["pejis"].items() if cell in p["traps_found"]]
        out.append(ev.gm("piege", cell_id=cell, cell=lab.name(cell), found_by=found))
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


def standing(state: dict, scenario) -> list[dict]:
    """Every Péji of the roster and how they stand (`manhunt.standing_<status>`:
    in the labyrinth, dead, escaped): the thread knows it from the posts already."""
    return [{"name": scenario.name(h), "handle": h, "status": f"manhunt.standing_{state['pejis'][h]['status']}"}
            for h in scenario.roster if h in state["pejis"]]
