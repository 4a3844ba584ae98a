"""manhunt for the balance tools: a synthetic labyrinth, a bot, a game's summary
and the exact odds of a fight (pbp simulate, pbp odds)."""

from __future__ import annotations

from fractions import Fraction
from pbp.odds import Calculator, Param, Table, distribution, pct
from pbp.orders import Action
from pbp.ruleset import Scenario

from . import rules as r

OPPOSITE = {"nord": "sud", "sud": "nord", "est": "ouest", "ouest": "est"}
STEP = {"nord": (0, -1), "sud": (0, 1), "est": (1, 0), "ouest": (-1, 0)}


def sample_scenario(rules: dict, players: int, rng) -> Scenario:
    """A random maze on a grid (a spanning tree plus a few extra passages, so it
    is connected), one exit, some traps, the hunters of `simulation.hunters`."""
    sim = rules["simulation"]
    n = sim["cells"]
    width = max(2, round(n ** 0.5))
    ids = [f"S{i:03d}" for i in range(n)]
    pos = {cid: (i % width, i // width) for i, cid in enumerate(ids)}
    at = {xy: cid for cid, xy in pos.items()}
    cells = {cid: {"name": f"salle {cid}", "orientation": rng.choice(["N-S", "E-W"]), "exits": {}} for cid in ids}

    def link(a, b, d):
        door = rng.choice(sim["doors"])
        exit_ = {"to": b, "door": door}
        if door != "ouverture":
            exit_["state"] = "fermee" if rng.random() < sim["closed"] else "ouverte"
        cells[a]["exits"][d] = exit_
        cells[b]["exits"][OPPOSITE[d]] = dict(exit_, to=a)

    def around(cid):
        x, y = pos[cid]
        return [(d, at[(x + dx, y + dy)]) for d, (dx, dy) in STEP.items() if (x + dx, y + dy) in at]

    seen, stack = {ids[0]}, [ids[0]]
    while stack:  # randomised depth-first maze
        cid = stack[-1]
        fresh = [(d, o) for d, o in around(cid) if o not in seen]
        if not fresh:
            stack.pop()
            continue
        d, other = rng.choice(fresh)
        link(cid, other, d)
        seen.add(other)
        stack.append(other)
    for cid in ids:
        for d, other in around(cid):
            if d not in cells[cid]["exits"] and rng.random() < sim["extra_passages"] / 2:
                link(cid, other, d)
    exit_cell = rng.choice(ids)
    cells[exit_cell]["exit"] = True
    others = [c for c in ids if c != exit_cell]
    traps = [{"cell": c} for c in rng.sample(others, min(sim["traps"], len(others)))]
    handles = [f"p{i + 1}" for i in range(players)]
    pejis = {h: {"name": h, "start": rng.choice(others), "inventory": []} for h in handles}
    hunters = {f"h{i + 1}": dict(sheet, start=None) for i, sheet in enumerate(sim["hunters"])}
    return Scenario({"cells": cells, "traps": traps}, {"pejis": pejis, "hunters": hunters},
                    {h: {"character": h} for h in handles})


def bot_orders(rules: dict, lab, state: dict, player: str, rng) -> list[Action]:
    """A simple legal policy: fight or flee when engaged, rest when exhausted,
    else mostly walk, sometimes run, search or hide."""
    bot = rules["simulation"]["bot"]
    peji = state["pejis"][player]
    if peji["lost_turns"]:
        return []
    exits = [d for d, _ in lab.exits[peji["cell"]]]
    level = r.fatigue_level(rules, peji["fatigue"])
    can_run = level < rules["fatigue"]["no_running_level"] and exits
    engaged = r.engaged_by(state, player)
    if engaged:
        if can_run and rng.random() < bot["flee_when_engaged"]:
            return [Action("fuite", [rng.choice(exits)], 0)]
        # the rules want the hunter named when several are in reach: the one tracking the Péji
        several = len(r.hunters_on(state, [peji["cell"]])) > 1
        return [Action("combat", {"chasseur": engaged[0] if several else None, "arme": None}, 0)]
    if level >= bot["rest_from_fatigue_level"]:
        return [Action("repos", None, 0)]
    roll = rng.random()
    if exits and roll < bot["move"]:
        actions = [Action("deplacement_normal", rng.choice(exits), 0)]
        if rng.random() < bot["search_traps_after_move"]:
            actions.append(Action("recherche_pieges", None, 1))
        return actions
    roll -= bot["move"]
    if can_run and roll < bot["run"]:
        return [Action("deplacement_rapide", [rng.choice(exits)], 0)]
    roll -= bot["run"]
    if roll < bot["search"]:
        return [Action("fouille", None, 0)]
    return [Action("se_cacher", None, 0)]


FATES = {r.ESCAPED: "évadé", r.DEAD: "mort", r.ACTIVE: "encore dans le labyrinthe"}


def game_summary(state: dict) -> dict:
    pejis = state["pejis"].values()
    deaths: dict[str, int] = {}
    for p in pejis:
        if p["status"] == r.DEAD:
            deaths[p["death"]["cause"]] = deaths.get(p["death"]["cause"], 0) + 1
    return {
        "turns": state["turn"],
        "outcomes": [FATES[p["status"]] for p in pejis],
        "deaths": deaths,
        "figures": {
            "tours_survecus": [p["death"]["turn"] if p["status"] == r.DEAD else state["turn"] for p in pejis],
            "bruit_a_la_mort": [p["death"]["noise"] for p in pejis if p["status"] == r.DEAD],
            "tour_d_evasion": [p["escaped_turn"] for p in pejis if p["status"] == r.ESCAPED],
        },
        "main": "tours_survecus",
    }


# -- exact odds of a fight (DESIGN 8) ----------------------------------------------------

def assault_odds(rules: dict, params: dict) -> tuple[Fraction, Fraction, Fraction]:
    """P(the Péji wins / ties / loses one assault)."""
    f = rules["fatigue"]
    malus = f["combat_malus"] if params["fatigue_level"] >= f["combat_malus_level"] else 0
    peji = distribution(params["peji"])
    hunter = distribution(params["hunter"])
    win = tie = Fraction(0)
    for pv, pp in peji.items():
        pt = pv - params["hunter_protection"] - malus + params["bonus"]
        for hv, hp in hunter.items():
            ht = hv - params["peji_protection"]
            if pt > ht:
                win += pp * hp
            elif pt == ht:
                tie += pp * hp
    return win, tie, 1 - win - tie


def fight_odds(rules: dict, params: dict) -> dict[str, Fraction]:
    """P(Péji wins the fight), P(nobody), P(hunter wins: the Péji dies). A Péji
    whose lost assaults reach the dead wound level dies at once."""
    c = rules["combat"]
    win, tie, lose = assault_odds(rules, params)
    dies_after = rules["wounds"]["dead_level"] - params["wounds"]
    out = {"peji": Fraction(0), "none": Fraction(0), "hunter": Fraction(0)}

    def assault(n: int, wins: int, losses: int, p: Fraction) -> None:
        if losses >= dies_after:
            out["hunter"] += p
        elif n == c["assaults"]:
            out["peji" if wins >= c["to_win"] else "hunter" if losses >= c["to_win"] else "none"] += p
        else:
            assault(n + 1, wins + 1, losses, p * win)
            assault(n + 1, wins, losses, p * tie)
            assault(n + 1, wins, losses + 1, p * lose)

    assault(0, 0, 0, Fraction(1))
    return out


def calculators(rules: dict) -> dict[str, Calculator]:
    def fight(params) -> Table:
        win, tie, lose = assault_odds(rules, params)
        fight = fight_odds(rules, params)
        title = (f"Combat : Péji {params['peji']} (protection {params['peji_protection']}, fatigue niveau "
                 f"{params['fatigue_level']}) contre chasseur {params['hunter']} (protection "
                 f"{params['hunter_protection']})")
        return Table(title, ["", "probabilité"], [
            ["assaut gagné", pct(win)], ["assaut nul", pct(tie)], ["assaut perdu", pct(lose)],
            ["le Péji gagne le combat", pct(fight["peji"])], ["personne ne gagne", pct(fight["none"])],
            ["le chasseur gagne : le Péji meurt", pct(fight["hunter"])]],
            [f"{rules['combat']['assaults']} assauts, {rules['combat']['to_win']} pour gagner ; égalité : "
             "personne ne marque."])

    return {"combat": Calculator("un combat au corps à corps (3 assauts)", {
        "peji": Param(rules["combat"]["unarmed"], "arme du Péji (dés)", "dice"),
        "hunter": Param("2d6+1", "arme du chasseur (dés)", "dice"),
        "peji_protection": Param(0, "protection (armures) du Péji"),
        "hunter_protection": Param(1, "protection du chasseur"),
        "fatigue_level": Param(1, "niveau de fatigue du Péji"),
        "bonus": Param(0, "bonus du Péji (potion de force)"),
        "wounds": Param(1, "niveau de blessures du Péji au début du combat"),
    }, fight)}
