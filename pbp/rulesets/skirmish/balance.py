"""skirmish for `pbp simulate` (the bots are in bots.py, the exact odds of
`pbp odds` in odds.py: each is big enough to be read on its own).

- `sample_scenario`: a synthetic skirmish from `simulation` in data.yaml (a grid
  with wall segments, two factions on opposite edges, 1-2 characters per player
  drawn from archetypes, the second faction mirroring the first, maybe a neutral
  creature);
- `record`: a simulated turn's tally, kept under `state["simulation"]` (a key a
  real campaign's state never has): damage of each hit and spell, who went down,
  when and how;
- `game_summary`: the statistics of a finished game.

No I/O.
"""

from __future__ import annotations

import copy
from collections import deque

from pbp.model.orders import normalize_id
from pbp.model.ruleset import Scenario

from . import rules as R

#: outcome labels of a game that no single faction won
UNFINISHED, DRAW, NOBODY, NO_FACTION = "inachevée", "égalité", "personne", "sans faction"
#: causes of a character going down
PHYSICAL, SPELL, REFLECTED, UNKNOWN = "combat", "sort", "sort renvoyé", "inconnue"



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
        for dx, dy in R.NEIGHBOURS:
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
    for key in (*R.CHARACTERISTICS, "chance"):
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
                      key=lambda c: (R.dist2(c, centre), c))
        if free:
            sheet = dict(creature["sheet"], position=list(free[0]))
            npcs[normalize_id(sheet.get("nom", "creature")).split("_")[0] or "creature"] = sheet
    world = {"grille": {"largeur": width, "hauteur": height, "murs": sorted([list(c) for c in walls])},
             "factions": {fid: {"nom": nom} for fid, nom in sim["factions"].items()}, "cibles": npcs}
    return Scenario(world, {"personnages": characters}, roster)


# == a simulated game's tally and summary ===================================================

def record(state: dict, events: list) -> None:
    """Reads a simulated turn's public lines into `state["simulation"]`."""
    tally = state.setdefault("simulation", {"hits": [], "spell_damage": [], "downed": {}})
    units, turn = state["units"], state["turn"]

    def down(uid, cause):
        if units[uid]["type"] == R.CHARACTER and uid not in tally["downed"]:
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
    characters = {uid: u for uid, u in state["units"].items() if u["type"] == R.CHARACTER}
    tally = state.get("simulation") or {}
    downed = tally.get("downed") or {}
    deaths: dict[str, int] = {}
    for uid, u in characters.items():
        if not R.alive(u):
            cause = (downed.get(uid) or {}).get("cause", UNKNOWN)
            deaths[cause] = deaths.get(cause, 0) + 1
    return {
        "turns": state.get("turn", 0),
        "outcomes": [_outcome(state, characters)],
        "deaths": deaths,
        "figures": _figures(state, scenario, characters, tally, downed),
        "main": "degats_par_touche",
    }


def _outcome(state: dict, characters: dict) -> str:
    """The faction left standing, or UNFINISHED, NOBODY, DRAW."""
    standing = sorted({u.get("faction") or NO_FACTION for u in characters.values() if R.alive(u)})
    if not state.get("over"):
        return UNFINISHED
    if not standing:
        return NOBODY
    return standing[0] if len(standing) == 1 else DRAW


def _figures(state: dict, scenario, characters: dict, tally: dict, downed: dict) -> dict:
    """game_summary's figures: damage of each hit and spell, and by character the XP
    gained since its sheet, the turns survived and the PV of the survivors."""
    sheets = (scenario.characters or {}).get("personnages") or {} if scenario is not None else {}
    turn = state.get("turn", 0)
    return {
        "degats_par_touche": list(tally.get("hits") or []),
        "degats_par_sort": list(tally.get("spell_damage") or []),
        "xp": [u["xp"] - ((sheets.get(uid) or {}).get("xp") or 0) for uid, u in characters.items()],
        "tours_survecus": [(downed.get(uid) or {}).get("turn", turn) if not R.alive(u) else turn
                           for uid, u in characters.items()],
        "pv_restants": [u["hp"] for u in characters.values() if R.alive(u)],
    }
