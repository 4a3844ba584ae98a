"""manhunt for the balance tools: a synthetic labyrinth, the bots (their legal
orders and their policy), a game's summary and the exact odds of a fight
(pbp simulate, pbp odds)."""

from __future__ import annotations

from fractions import Fraction

from pbp.balance.odds import Calculator, Param, Table, distribution, pct
from pbp.model.orders import Action, PlayerOrders
from pbp.model.ruleset import Scenario

from . import checks, rules as r
from .world import CLOSED, OPEN


def sample_scenario(rules: dict, players: int, rng) -> Scenario:
    """A random maze on a grid (a spanning tree plus a few extra passages, so it
    is connected), one exit, some traps, the hunters of `simulation.hunters`."""
    sim = rules["simulation"]
    maze = _Maze(rules, rng)
    maze.carve()
    maze.add_passages()
    ids, cells = maze.ids, maze.cells
    exit_cell = rng.choice(ids)
    cells[exit_cell]["exit"] = True
    others = [c for c in ids if c != exit_cell]
    traps = [{"cell": c} for c in rng.sample(others, min(sim["traps"], len(others)))]
    handles = [f"p{i + 1}" for i in range(players)]
    pejis = {h: {"name": h, "start": rng.choice(others), "inventory": []} for h in handles}
    hunters = {f"h{i + 1}": dict(sheet, start=None) for i, sheet in enumerate(sim["hunters"])}
    return Scenario({"cells": cells, "traps": traps}, {"pejis": pejis, "hunters": hunters},
                    {h: {"character": h} for h in handles})


class _Maze:
    """sample_scenario's grid of `simulation.cells` cells (each with a random
    orientation, no exits yet) and how its passages are drawn."""

    def __init__(self, rules: dict, rng):
        sim = self.sim = rules["simulation"]
        self.rng = rng
        n = sim["cells"]
        width = max(2, round(n ** 0.5))
        self.ids = [f"S{i:03d}" for i in range(n)]
        self.pos = {cid: (i % width, i // width) for i, cid in enumerate(self.ids)}
        self.at = {xy: cid for cid, xy in self.pos.items()}
        self.steps = {d: tuple(xy) for d, xy in sim["steps"].items()}
        self.opposite = {d: back for d, xy in self.steps.items() for back, other in self.steps.items()
                         if other == (-xy[0], -xy[1])}
        self.closable = {d for d, spec in rules["doors"].items() if spec.get("closable")}
        self.cells = {cid: {"name": sim["cell_name"].replace("{id}", cid),
                            "orientation": rng.choice(sim["orientations"]), "exits": {}} for cid in self.ids}

    def link(self, a, b, d):
        """A passage from a to b in direction d (and back), through a random door."""
        door = self.rng.choice(self.sim["doors"])
        exit_ = {"to": b, "door": door}
        if door in self.closable:
            exit_["state"] = CLOSED if self.rng.random() < self.sim["closed"] else OPEN
        self.cells[a]["exits"][d] = exit_
        self.cells[b]["exits"][self.opposite[d]] = dict(exit_, to=a)

    def around(self, cid):
        """(direction, cell) of each cell next to `cid` on the grid."""
        x, y = self.pos[cid]
        return [(d, self.at[(x + dx, y + dy)]) for d, (dx, dy) in self.steps.items() if (x + dx, y + dy) in self.at]

    def carve(self):
        """A randomised depth-first maze: every cell reached by one way."""
        seen, stack = {self.ids[0]}, [self.ids[0]]
        while stack:
            cid = stack[-1]
            fresh = [(d, o) for d, o in self.around(cid) if o not in seen]
            if not fresh:
                stack.pop()
                continue
            d, other = self.rng.choice(fresh)
            self.link(cid, other, d)
            seen.add(other)
            stack.append(other)

    def add_passages(self):
        """A few more passages (`simulation.extra_passages`), so that there are loops."""
        for cid in self.ids:
            for d, other in self.around(cid):
                if d not in self.cells[cid]["exits"] and self.rng.random() < self.sim["extra_passages"] / 2:
                    self.link(cid, other, d)


def legal_orders(rules: dict, lab, state: dict, scenario, player: str) -> list[list[Action]]:
    """Legal order sets for a bot: single actions and pairs within the action
    points, each passing the players' own checks."""
    actions = rules["actions"]
    peji = state["pejis"][player]
    if peji["lost_turns"]:
        return [[]]  # anything sent would be ignored: a bot sends nothing
    singles: list[tuple[str, object]] = [("repos", None), ("fouille", None), ("se_cacher", None),
                                         ("recherche_pieges", None)]
    for d, _ in lab.exits[peji["cell"]]:
        singles += [("deplacement_normal", d), ("deplacement_rapide", [d]), ("fuite", [d])]
    here = r.hunters_on(state, [peji["cell"]])
    if here:
        singles.append(("combat", {"chasseur": here[0], "arme": None}))
    for item in peji["inventory"]:
        kind = rules["items"].get(item, {}).get("kind")
        if kind in ("potion", "objet"):
            singles.append(("utilisation_equipement", item))
        elif kind == "armure" and item not in peji["worn"]:
            singles.append(("revetir_armure", item))
    options = [[]] + [[s] for s in singles]
    cheap = [s for s in singles if actions[s[0]]["points"] == 1]
    options += [[a, b] for i, a in enumerate(cheap) for b in cheap[i + 1:] if a[0] != b[0]]
    legal = []
    for option in options:
        chosen = [Action(a, arg, i) for i, (a, arg) in enumerate(option)]
        if not checks.check_orders(rules, lab, state, scenario, PlayerOrders(player, state["turn"] + 1, chosen)):
            legal.append(chosen)
    return legal or [[]]


def bot_orders(rules: dict, lab, state: dict, player: str, rng) -> list[Action]:
    """A simple legal policy: fight or flee when engaged, rest when exhausted,
    else mostly walk, sometimes run, search or hide."""
    bot = rules["simulation"]["bot"]
    peji = state["pejis"][player]
    if peji["lost_turns"]:
        return []
    exits = lab.exit_directions(peji["cell"])
    level = r.fatigue_level(rules, peji["fatigue"])
    can_run = r.can_run(rules, peji["fatigue"]) and exits
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


def game_summary(rules: dict, state: dict) -> dict:
    """Each Péji's fate (`simulation.fates`), the causes of death, and when each
    died or escaped."""
    fates = rules["simulation"]["fates"]
    names = {r.ESCAPED: fates["escaped"], r.DEAD: fates["dead"], r.ACTIVE: fates["active"]}
    pejis = state["pejis"].values()
    deaths: dict[str, int] = {}
    for p in pejis:
        if p["status"] == r.DEAD:
            deaths[p["death"]["cause"]] = deaths.get(p["death"]["cause"], 0) + 1
    return {
        "turns": state["turn"],
        "outcomes": [names[p["status"]] for p in pejis],
        "deaths": deaths,
        "figures": {
            "tours_survecus": [p["death"]["turn"] if p["status"] == r.DEAD else state["turn"] for p in pejis],
            "bruit_a_la_mort": [p["death"]["noise"] for p in pejis if p["status"] == r.DEAD],
            "tour_d_evasion": [p["escaped_turn"] for p in pejis if p["status"] == r.ESCAPED],
        },
        "main": "tours_survecus",
    }


# -- exact odds of a fight (docs/design.md manhunt 8) ----------------------------------------------------

def assault_odds(rules: dict, params: dict) -> tuple[Fraction, Fraction, Fraction]:
    """P(the Péji wins / ties / loses one assault)."""
    malus = r.fatigue_malus(rules, r.fatigue_at_level(rules, params["fatigue_level"]))
    peji = distribution(params["peji"])
    hunter = distribution(params["hunter"])
    win = tie = Fraction(0)
    for pv, pp in peji.items():
        pt = pv - params["hunter_protection"] - malus + params["bonus"]
        for hv, hp in hunter.items():
            winner = r.assault_winner(pt, hv - params["peji_protection"])
            if winner == "peji":
                win += pp * hp
            elif winner is None:
                tie += pp * hp
    return win, tie, 1 - win - tie


def fight_odds(rules: dict, params: dict) -> dict[str, Fraction]:
    """P(Péji wins the fight), P(nobody), P(hunter wins: the Péji dies). A Péji
    whose lost assaults reach the dead wound level dies at once."""
    win, tie, lose = assault_odds(rules, params)
    dies_after = rules["wounds"]["dead_level"] - params["wounds"]
    out = {"peji": Fraction(0), "none": Fraction(0), "hunter": Fraction(0)}

    def assault(n: int, wins: int, losses: int, p: Fraction) -> None:
        if losses >= dies_after:
            out["hunter"] += p
        elif n == rules["combat"]["assaults"]:
            out[r.fight_winner(rules, {"peji": wins, "hunter": losses}) or "none"] += p
        else:
            assault(n + 1, wins + 1, losses, p * win)
            assault(n + 1, wins, losses, p * tie)
            assault(n + 1, wins, losses + 1, p * lose)

    assault(0, 0, 0, Fraction(1))
    return out


def calculators(rules: dict) -> dict[str, Calculator]:
    combat = rules["combat"]

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
            [f"{combat['assaults']} assauts, {combat['to_win']} pour gagner ; égalité : personne ne marque."])

    # the hunter's defaults: the first hunter of the simulations
    hunter = rules["simulation"]["hunters"][0]
    return {"combat": Calculator(f"un combat au corps à corps ({combat['assaults']} assauts)", {
        "peji": Param(combat["unarmed"], "arme du Péji (dés)", "dice"),
        "hunter": Param((hunter.get("weapon") or {}).get("damage", combat["unarmed"]), "arme du chasseur (dés)",
                        "dice"),
        "peji_protection": Param(0, "protection (armures) du Péji"),
        "hunter_protection": Param(hunter.get("protection", 0), "protection du chasseur"),
        "fatigue_level": Param(1, "niveau de fatigue du Péji"),
        "bonus": Param(0, "bonus du Péji (potion de force)"),
        "wounds": Param(1, "niveau de blessures du Péji au début du combat"),
    }, fight)}
