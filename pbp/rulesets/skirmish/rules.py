"""The skirmish ruleset (seed 003): tactical action resolution on a square grid.

Characters (several per player), creatures, doors and objects stand on a grid.
Each turn every acting unit spends its PA, in initiative order (DEX, highest
first), on moves, brawl, melee and ranged attacks and spells. An action resolves
in the seed's order: check it is possible, spend the PA, roll the main d100, let
the target defend (dodge, counter-magic), apply the result, award XP. Every roll,
chance, bonus and malus is kept for the MJ's log; the public post gets the forum
line.

Pure: state + orders + dice in, new state + events out. Every number comes from
`self.rules` (data.yaml merged with the campaign's overrides).
"""

from __future__ import annotations

import math
import re
from collections import deque

from pbp import events as ev, i18n
from pbp.dice import DiceExpr, Term, parse as parse_dice
from pbp.errors import PbpError
from pbp.orders import Action, PlayerOrders, normalize_id, parse_actions
from pbp.ruleset import ODDS, SIMULATE, Refusal, Refusals, Resolution, Ruleset
from pbp.schema import Index, show_path

from . import balance

CHARACTER, CREATURE, DOOR, OBJECT = "character", "creature", "door", "object"
NPC_KINDS = (CREATURE, DOOR, OBJECT)
CHARACTERISTICS = ("FOR", "DEX", "DEF", "TAI", "INT")
SKILLS = ("bagarre", "melee", "distance", "esquive", "magie")
WEAPON_TYPES = ("melee", "distance")
SPELL_TYPES = ("degats", "soin", "buff", "debuff")
HARMFUL = ("degats", "debuff")
ID = re.compile(r"^[a-z][a-z0-9_]*$")
STATS = ("attaques", "touches", "parfaites", "esquives", "sorts", "sorts_reussis", "contres",
         "degats_infliges", "degats_subis", "mises_hors_combat")
NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


# -- small pure helpers ---------------------------------------------------------------

def half_up(x: float) -> int:
    """Round to the nearest integer, halves up (Python's round() rounds halves to even)."""
    return math.floor(x + 0.5)


def dist2(a, b) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def distance(a, b) -> float:
    """Euclidean distance between square centres (DESIGN skirmish 1)."""
    return math.sqrt(dist2(a, b))


def shown(d: float) -> float:
    """A distance as logged: two decimals."""
    return round(d, 2)


def alive(unit: dict) -> bool:
    return unit.get("pv", 0) > 0


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


#: the order field a refusal points at: the core places it on that field's own line
#: when the action is written as a block, else on the action's
FIELD_OF = {
    "unknown_character": "perso", "not_your_character": "perso", "character_down": "perso",
    "off_grid": "vers", "wall": "vers", "already_there": "vers", "occupied": "vers", "unreachable": "vers",
    "unknown_target": "cible", "own_character": "cible", "target_down": "cible", "not_adjacent": "cible",
    "out_of_range": "cible", "spell_needs_character": "cible", "unknown_weapon": "arme",
    "unknown_spell": "sort", "spell_not_learned": "sort",
}


class Problem(Exception):
    """An action that cannot be done: a Refusal at check time, a `lost` event at resolution."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params


class Skirmish(Ruleset):
    id = "skirmish"
    example = "skirmish"
    capabilities = frozenset({SIMULATE, ODDS})

    # == scenario =====================================================================
    def validate_scenario(self, scenario):
        errors = []

        def bad(file, where, problem, **params):
            errors.append(PbpError(f"skirmish.{problem}", file=file, where=where, **params))

        world = scenario.world if isinstance(scenario.world, dict) else {}
        chars = scenario.characters if isinstance(scenario.characters, dict) else {}
        grid = world.get("grille") or world.get("grid")
        if not isinstance(grid, dict) or not all(isinstance(grid.get(k), int) and grid.get(k) > 0
                                                 for k in ("largeur", "hauteur")):
            bad("world.yaml", "grille", "grid_missing")
            return errors
        width, height = grid["largeur"], grid["hauteur"]
        walls = set()
        walls_written = grid.get("murs") or []
        for i, cell in enumerate(walls_written if isinstance(walls_written, list) else [walls_written]):
            if not self._cell_ok(cell, width, height):
                bad("world.yaml", f"grille.murs.{i}", "bad_position", value=cell, width=width - 1,
                    height=height - 1)
            else:
                walls.add(tuple(cell))
        factions = world.get("factions") or {}
        if not isinstance(factions, dict):
            bad("world.yaml", "factions", "not_mapping")
            factions = {}
        characters = chars.get("personnages") or {}
        npcs = world.get("cibles") or {}
        if not isinstance(characters, dict) or not characters:
            bad("characters.yaml", "personnages", "no_characters")
            return errors
        if not isinstance(npcs, dict):
            bad("world.yaml", "cibles", "not_mapping")
            npcs = {}
        seen_cells, owners = {}, set()
        spells = self.rules["spells"]
        for file, group, units in (("characters.yaml", "personnages", characters), ("world.yaml", "cibles", npcs)):
            for uid, sheet in units.items():
                where = f"{group}.{uid}"
                if not ID.match(str(uid)):
                    bad(file, where, "bad_id", id=uid)
                    continue
                if group == "cibles" and uid in characters:
                    bad(file, where, "duplicate_id", id=uid)
                if not isinstance(sheet, dict):
                    bad(file, where, "not_mapping")
                    continue
                for key in ("position", "pv"):
                    if key not in sheet:
                        bad(file, where, "sheet_field_missing", field=key)
                pos = sheet.get("position")
                if pos is not None:
                    if not self._cell_ok(pos, width, height) or tuple(pos) in walls:
                        bad(file, f"{where}.position", "bad_position", value=pos, width=width - 1,
                            height=height - 1)
                    elif tuple(pos) in seen_cells:
                        bad(file, f"{where}.position", "same_position", other=seen_cells[tuple(pos)])
                    else:
                        seen_cells[tuple(pos)] = uid
                if not isinstance(sheet.get("pv", 1), int) or sheet.get("pv", 1) < 1:
                    bad(file, f"{where}.pv", "bad_number", field="pv")
                for key in (*CHARACTERISTICS, "chance", "pa", "niveau", "xp", "pv_max", "armure_naturelle"):
                    if key in sheet and (not isinstance(sheet[key], int) or isinstance(sheet[key], bool)):
                        bad(file, f"{where}.{key}", "bad_number", field=key)
                faction = sheet.get("faction")
                if faction is not None and (not isinstance(faction, (str, int)) or faction not in factions):
                    bad(file, f"{where}.faction", "unknown_faction", value=faction, valid=list(factions))
                symbol = sheet.get("symbole")
                if symbol is not None and not re.match(r"^[A-Za-z0-9]$", str(symbol)):
                    bad(file, f"{where}.symbole", "bad_symbol", value=symbol)
                self._check_sheet_shapes(file, where, sheet, bad)
                if group == "personnages":
                    owner = sheet.get("joueur")
                    if not isinstance(owner, str) or owner not in scenario.roster:
                        bad(file, f"{where}.joueur", "unknown_owner", value=owner, valid=list(scenario.roster))
                    else:
                        owners.add(owner)
                    for spell in sheet.get("sorts") if isinstance(sheet.get("sorts"), list) else []:
                        if self._spell_id(spell) is None:
                            bad(file, f"{where}.sorts", "unknown_spell_sheet", value=spell, valid=list(spells))
                else:
                    if sheet.get("type") not in NPC_KINDS:
                        bad(file, f"{where}.type", "bad_kind", value=sheet.get("type"), valid=list(NPC_KINDS))
        for handle in scenario.roster:
            if handle not in owners:
                bad("campaign.yaml", f"players.{handle}", "player_without_character", player=handle)
        return errors

    def _check_sheet_shapes(self, file, where, sheet, bad):
        """The nested parts of a sheet have the shapes the rules read (no traceback
        on a typo in characters.yaml or world.yaml)."""
        def is_int(v):
            return isinstance(v, int) and not isinstance(v, bool)

        for key, valid in (("competences", list(SKILLS)), ("maitrises", None)):
            value = sheet.get(key)
            if value is None:
                continue
            if not isinstance(value, dict):
                bad(file, f"{where}.{key}", "not_mapping")
                continue
            for name, points in value.items():
                if valid is not None and name not in valid:
                    bad(file, f"{where}.{key}.{name}", "unknown_skill", value=name, valid=valid,
                        suggestion=i18n.closest(str(name), valid))
                elif not is_int(points):
                    bad(file, f"{where}.{key}.{name}", "bad_number", field=name)
        for key in ("sorts", "effets"):
            if sheet.get(key) is not None and not isinstance(sheet[key], list):
                bad(file, f"{where}.{key}", "not_list")
        if sheet.get("repliques") is not None and not isinstance(sheet["repliques"], dict):
            bad(file, f"{where}.repliques", "not_mapping")
        equipment = sheet.get("equipement") or {}
        if not isinstance(equipment, dict):
            bad(file, f"{where}.equipement", "not_mapping")
            equipment = {}
        for key in ("armure", "armure_legendaire"):
            armour = equipment.get(key)
            if armour and not is_int(armour) and not (isinstance(armour, dict)
                                                      and is_int(armour.get("reduction", 0))):
                bad(file, f"{where}.equipement.{key}", "bad_armour")
        weapons = equipment.get("armes") or {}
        if not isinstance(weapons, dict):
            bad(file, f"{where}.equipement.armes", "not_mapping")
            weapons = {}
        for wid, w in weapons.items():
            if not isinstance(w, dict) or w.get("type") not in WEAPON_TYPES:
                bad(file, f"{where}.equipement.armes.{wid}", "bad_weapon", valid=list(WEAPON_TYPES))
                continue
            try:
                parse_dice(w.get("degats", ""))
            except PbpError:
                bad(file, f"{where}.equipement.armes.{wid}.degats", "bad_weapon_dice", value=w.get("degats"))
        for effect in sheet.get("effets") if isinstance(sheet.get("effets"), list) else []:
            if (not isinstance(effect, dict) or effect.get("stat") not in self.rules["effect_stats"]
                    or not is_int(effect.get("valeur", 0)) or not is_int(effect.get("tours", 0) or 0)):
                bad(file, f"{where}.effets", "bad_effect", valid=self.rules["effect_stats"])

    def validate_state(self, state, scenario):
        """What schema.yaml cannot say about a state: every square on its grid (the
        board is drawn from it)."""
        errors = []
        grid = state["grid"]
        width, height = grid["width"], grid["height"]

        def off(at, cell):
            errors.append(PbpError("skirmish.bad_position", file="state.yaml", at=at, where=show_path(at), value=cell,
                                   width=width - 1, height=height - 1))

        for i, cell in enumerate(grid["walls"]):
            if not self._cell_ok(cell, width, height):
                off(("grid", "walls", Index(i)), cell)
        for uid, unit in state["units"].items():
            if not self._cell_ok(unit["position"], width, height):
                off(("units", uid, "position"), unit["position"])
        return errors

    @staticmethod
    def _cell_ok(cell, width, height) -> bool:
        return (isinstance(cell, list) and len(cell) == 2 and all(isinstance(c, int) and not isinstance(c, bool)
                                                                   for c in cell)
                and 0 <= cell[0] < width and 0 <= cell[1] < height)

    # == set-up =======================================================================
    def setup(self, scenario, dice):
        world = scenario.world
        grid = world.get("grille") or world.get("grid")
        units, used = {}, set()
        for uid, sheet in scenario.characters["personnages"].items():
            units[uid] = self._unit(uid, sheet, CHARACTER, used)
        for uid, sheet in (world.get("cibles") or {}).items():
            units[uid] = self._unit(uid, sheet, sheet["type"], used)
        factions = {fid: {"nom": str(f.get("nom", fid) if isinstance(f, dict) else f or fid)}
                    for fid, f in (world.get("factions") or {}).items()}
        state = {
            "turn": 0,
            "grid": {"width": grid["largeur"], "height": grid["hauteur"],
                     "walls": sorted([list(c) for c in grid.get("murs") or []])},
            "factions": factions,
            "units": units,
            "over": False,
        }
        events = [ev.public("setup", factions=factions, units=self._public_roster(state))]
        events += self._end_events(state, scenario)
        return Resolution(state, events)

    def _unit(self, uid, sheet, kind, used) -> dict:
        neutral = self.rules["characteristic_neutral"]
        equipment = sheet.get("equipement") or {}
        armes = {wid: {"nom": w.get("nom", wid), "type": w["type"], "degats": str(w["degats"]),
                       **({"avec": w["avec"]} if w.get("avec") else {})}
                 for wid, w in (equipment.get("armes") or {}).items()}
        default_def = (self.rules["npc_defaults"].get(kind) or {}).get("DEF", neutral) if kind != CHARACTER else neutral
        pa = sheet.get("pa", self.rules["pa"]["default" if kind == CHARACTER else "npc_default"])
        unit = {
            "type": kind,
            "nom": str(sheet.get("nom", uid)),
            "joueur": sheet.get("joueur") if kind == CHARACTER else None,
            "faction": sheet.get("faction"),
            "symbole": self._symbol(sheet, kind, used),
            "position": list(sheet["position"]),
            "pv": sheet["pv"],
            "pv_max": sheet.get("pv_max", sheet["pv"]),
        }
        if kind in (DOOR, OBJECT):
            unit.update({"DEF": sheet.get("DEF", default_def), "armure_naturelle": sheet.get("armure_naturelle", 0),
                         "effets": [], "stats": {}})
            return unit
        unit.update({
            "pa": pa, "pa_max": pa,
            "niveau": sheet.get("niveau", 1), "xp": sheet.get("xp", 0),
            **{c: sheet.get(c, default_def if c == "DEF" else neutral) for c in CHARACTERISTICS},
            "chance": sheet.get("chance", 0),
            "competences": {s: (sheet.get("competences") or {}).get(s, 0) for s in SKILLS},
            "maitrises": dict(sheet.get("maitrises") or {}),
            "sorts": [self._spell_id(s) for s in sheet.get("sorts") or []],
            "armes": armes,
            "armure": self._armour(equipment.get("armure")),
            "armure_legendaire": self._armour(equipment.get("armure_legendaire")),
            "armure_naturelle": sheet.get("armure_naturelle", 0),
            "effets": [self._effect(e) for e in sheet.get("effets") or []],
            "repliques": {str(k): str(v) for k, v in (sheet.get("repliques") or {}).items()},
            "stats": {s: 0 for s in STATS},
        })
        if kind != CHARACTER:
            unit["esquive_possible"] = "esquive" in (sheet.get("competences") or {})
        return unit

    @staticmethod
    def _armour(raw):
        if not raw:
            return None
        if isinstance(raw, int):
            return {"nom": "", "reduction": raw}
        return {"nom": str(raw.get("nom", "")), "reduction": int(raw.get("reduction", 0))}

    @staticmethod
    def _effect(raw) -> dict:
        out = {"nom": str(raw.get("nom", raw["stat"])), "stat": raw["stat"], "valeur": int(raw.get("valeur", 0))}
        if raw.get("tours") is not None:
            out["tours"] = int(raw["tours"])
        return out

    @staticmethod
    def _symbol(sheet, kind, used) -> str:
        """The unit's letter on the board: the sheet's `symbole`, else the first free
        letter of its name (capital for characters, small for the others)."""
        wanted = sheet.get("symbole")
        candidates = [str(wanted)] if wanted else []
        name = normalize_id(sheet.get("nom", "")).replace("_", "")
        letters = [c for c in name if c.isalpha()] + list("abcdefghijklmnopqrstuvwxyz") + list("0123456789")
        candidates += [c.upper() if kind == CHARACTER else c.lower() for c in letters]
        for c in candidates:
            if c not in used:
                used.add(c)
                return c
        return "?"

    # == players and orders ===========================================================
    def players_to_play(self, state, scenario):
        owners = {u["joueur"] for u in state["units"].values() if u["type"] == CHARACTER and alive(u)}
        return [h for h in scenario.roster if h in owners]

    def is_over(self, state):
        return bool(state.get("over"))

    def check_orders(self, state, scenario, orders):
        return self._check_sequence(state, orders.player, orders.actions, base=None)

    def _check_sequence(self, state, player, actions, base, creature=None) -> list[Refusal]:
        """Checks a list of actions against the state, simulating their own moves and
        PA in the order written (other units stay where they are)."""
        refusals = []
        sim = _Sim(state)
        for action in actions:
            at = action.at if base is None else base + (action.index,)
            try:
                actor = creature or self._actor(state, player, action)
                plan = self._plan(sim.state, actor, action, player, placement=creature is None)
                have = sim.pa(actor)
                if plan["cost"] > have:
                    raise Problem("not_enough_pa", character=state["units"][actor]["nom"], need=plan["cost"],
                                  have=have, short=plan["cost"] - have)
            except Problem as p:
                if p.key in FIELD_OF:
                    at = at + (FIELD_OF[p.key],)
                refusals.append(Refusal(p.key, at, p.params))
                continue
            sim.spend(actor, plan)
        return refusals

    def _actor(self, state, player, action) -> str:
        """Which of the player's characters an action is for (its `perso` field)."""
        units = state["units"]
        own = [uid for uid, u in units.items() if u["type"] == CHARACTER and u["joueur"] == player]
        living = [uid for uid in own if alive(units[uid])]
        name = (action.arg or {}).get("perso")
        if name is None:
            if len(living) == 1:
                return living[0]
            if not living:
                raise Problem("character_down", character=", ".join(units[u]["nom"] for u in own), valid=[])
            raise Problem("perso_missing", valid=living)
        uid = self._find(state, name)
        if uid is None:
            raise Problem("unknown_character", value=name, valid=living, suggestion=i18n.closest(normalize_id(name),
                                                                                              living))
        if uid not in own:
            raise Problem("not_your_character", value=name, valid=living)
        if not alive(units[uid]):
            raise Problem("character_down", character=units[uid]["nom"], valid=living)
        return uid

    @staticmethod
    def _find(state, name) -> str | None:
        """A unit by id or by name (accents, case and spaces ignored)."""
        if name is None:
            return None
        if isinstance(name, str) and name in state["units"]:  # an id as is (ids are already normalized)
            return name
        key = normalize_id(name)
        units = state["units"]
        if key in units:
            return key
        for uid, u in units.items():
            if normalize_id(u["nom"]) == key:
                return uid
        return None

    def _spell_id(self, name) -> str | None:
        key = normalize_id(name)
        for sid, spec in self.rules["spells"].items():
            if key in (normalize_id(sid), normalize_id(spec.get("en") or sid),
                       *(normalize_id(a) for a in spec.get("aliases") or [])):
                return sid
        return None

    # == planning: is an action possible now, and what does it cost? =================
    def _plan(self, state, actor_id, action, player, placement=True) -> dict:
        """What an action would do now, or a Problem. `placement=False` skips the
        adjacency, range and path checks: creatures act late in the turn, after the
        board has changed, so the MJ's orders are only placed at resolution."""
        spec = self.actions[action.id]
        kind = spec.get("kind")
        if kind == "move":
            return self._plan_move(state, actor_id, action, spec, placement)
        if kind == "attack":
            return self._plan_attack(state, actor_id, action, spec, player, placement)
        if kind == "spell":
            return self._plan_spell(state, actor_id, action, player, placement)
        raise ValueError(f"action {action.id} has an unknown kind {kind!r}")

    def _plan_move(self, state, actor_id, action, spec, placement=True) -> dict:
        units, grid = state["units"], state["grid"]
        me = units[actor_id]
        x, y = action.arg["vers"]
        if not (0 <= x < grid["width"] and 0 <= y < grid["height"]):
            raise Problem("off_grid", x=x, y=y, width=grid["width"] - 1, height=grid["height"] - 1)
        if [x, y] in grid["walls"]:
            raise Problem("wall", x=x, y=y)
        if [x, y] == me["position"]:
            raise Problem("already_there", x=x, y=y)
        blocker = self._occupant(state, (x, y))
        if blocker is not None and placement:
            raise Problem("occupied", x=x, y=y, by=units[blocker]["nom"])
        path = self._path(state, tuple(me["position"]), (x, y))
        if path is None:
            if placement:
                raise Problem("unreachable", x=x, y=y)
            path = [None] * max(abs(x - me["position"][0]), abs(y - me["position"][1]))
        return {"kind": "move", "to": [x, y], "path": [list(p) for p in path],
                "cost": len(path) * spec["cost_per_square"]}

    @staticmethod
    def _occupant(state, cell) -> str | None:
        for uid, u in state["units"].items():
            if alive(u) and tuple(u["position"]) == tuple(cell):
                return uid
        return None

    @staticmethod
    def _path(state, start, goal):
        """Shortest path (king moves) through free squares, start excluded; None if none."""
        grid = state["grid"]
        width, height = grid["width"], grid["height"]
        blocked = {tuple(c) for c in grid["walls"]}
        blocked |= {tuple(u["position"]) for u in state["units"].values() if u.get("pv", 0) > 0}
        blocked.discard(start)
        previous = {start: None}
        queue = deque([start])
        pop, push = queue.popleft, queue.append
        while queue:
            cell = pop()
            if cell == goal:
                path = []
                while cell != start:
                    path.append(cell)
                    cell = previous[cell]
                return path[::-1]
            x, y = cell
            for dx, dy in NEIGHBOURS:
                nxt = (x + dx, y + dy)
                if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in previous and nxt not in blocked:
                    previous[nxt] = cell
                    push(nxt)
        return None

    def _target(self, state, actor_id, name, player, *, hostile=True, characters_only=False,
                valid_filter=None) -> str:
        units = state["units"]
        target = self._find(state, name)
        candidates = [uid for uid, u in units.items() if alive(u) and uid != actor_id
                      and (not hostile or player is None or u.get("joueur") != player)
                      and (not characters_only or u["type"] == CHARACTER)]
        if target is None:
            raise Problem("unknown_target", value=name, valid=candidates,
                          suggestion=i18n.closest(normalize_id(name), candidates))
        u = units[target]
        if hostile and (target == actor_id or (player is not None and u.get("joueur") == player)):
            raise Problem("own_character", target=u["nom"], valid=candidates)
        if not alive(u):
            raise Problem("target_down", target=u["nom"], type=u["type"], valid=candidates)
        return target

    def _plan_attack(self, state, actor_id, action, spec, player, placement=True) -> dict:
        units = state["units"]
        me = units[actor_id]
        target = self._target(state, actor_id, action.arg["cible"], player)
        weapon = None
        if spec.get("weapon_type"):
            mine = [wid for wid, w in me.get("armes", {}).items() if w["type"] == spec["weapon_type"]]
            wanted = action.arg.get("arme")
            if wanted is not None:
                weapon = normalize_id(wanted)
                if weapon not in mine:
                    raise Problem("unknown_weapon", value=wanted, character=me["nom"], valid=mine,
                                  suggestion=i18n.closest(weapon, mine))
            elif mine:
                weapon = mine[0]
            else:
                raise Problem("no_weapon", character=me["nom"], kind=spec["weapon_type"])
        d2 = dist2(me["position"], units[target]["position"])
        if not placement:
            pass
        elif spec["placement"] == "adjacent" and not d2 < self.rules["grid"]["adjacent_below"] ** 2:
            raise Problem("not_adjacent", target=units[target]["nom"], distance=shown(math.sqrt(d2)),
                          limit=self.rules["grid"]["adjacent_below"],
                          valid=self._in_reach(state, actor_id, spec, player))
        elif spec["placement"] == "range" and not d2 <= spec["max_distance"] ** 2:
            raise Problem("out_of_range", target=units[target]["nom"], distance=shown(math.sqrt(d2)),
                          max=spec["max_distance"], valid=self._in_reach(state, actor_id, spec, player))
        return {"kind": "attack", "target": target, "weapon": weapon, "cost": spec["cost"]}

    def _in_reach(self, state, actor_id, spec, player) -> list[str]:
        units = state["units"]
        me = units[actor_id]
        limit = (self.rules["grid"]["adjacent_below"] ** 2, False) if spec["placement"] == "adjacent" \
            else (spec["max_distance"] ** 2, True)
        out = []
        for uid, u in units.items():
            if uid == actor_id or not alive(u) or (player is not None and u.get("joueur") == player):
                continue
            d2 = dist2(me["position"], u["position"])
            if d2 < limit[0] or (limit[1] and d2 == limit[0]):
                out.append(uid)
        return out

    def spell_range(self, spell: dict, level: int) -> float:
        r = spell["range"]
        value = r["base"] + r.get("per_level", 0) * (level - 1)
        return min(value, r["max"]) if r.get("max") is not None else value

    def _plan_spell(self, state, actor_id, action, player, placement=True) -> dict:
        units = state["units"]
        me = units[actor_id]
        spells = self.rules["spells"]
        sid = self._spell_id(action.arg["sort"])
        if sid is None:
            raise Problem("unknown_spell", value=action.arg["sort"], valid=list(spells),
                          suggestion=i18n.closest(normalize_id(action.arg["sort"]), spells))
        if sid not in me.get("sorts", []):
            raise Problem("spell_not_learned", spell=sid, character=me["nom"], valid=me.get("sorts", []))
        spell = spells[sid]
        harmful = spell["type"] in HARMFUL
        characters_only = spell["type"] != "degats" or bool(spell.get("zone"))
        if spell["type"] in ("soin", "buff"):
            target = self._find(state, action.arg["cible"])
            candidates = [uid for uid, u in units.items() if alive(u) and u["type"] == CHARACTER]
            if target is None:
                raise Problem("unknown_target", value=action.arg["cible"], valid=candidates,
                              suggestion=i18n.closest(normalize_id(action.arg["cible"]), candidates))
            if units[target]["type"] != CHARACTER:
                raise Problem("spell_needs_character", spell=sid, target=units[target]["nom"], valid=candidates)
            if not alive(units[target]):
                raise Problem("target_down", target=units[target]["nom"], type=CHARACTER, valid=candidates)
        else:
            target = self._target(state, actor_id, action.arg["cible"], player)
            if characters_only and units[target]["type"] != CHARACTER:
                others = [uid for uid, u in units.items() if alive(u) and u["type"] == CHARACTER and uid != actor_id
                          and (player is None or u.get("joueur") != player)]
                raise Problem("spell_needs_character", spell=sid, target=units[target]["nom"], valid=others)
        reach = self.spell_range(spell, me["niveau"])
        d2 = dist2(me["position"], units[target]["position"])
        if placement and d2 > reach ** 2:
            raise Problem("out_of_range", target=units[target]["nom"], distance=shown(math.sqrt(d2)), max=reach,
                          valid=[])
        return {"kind": "spell", "spell": sid, "target": target, "cost": spell["cost"], "harmful": harmful}

    # == the MJ's orders: creatures ==================================================
    def _gm_actions(self, state, scenario, gm_orders):
        """{creature id: [Action]} and the refusals of gm.yaml's `orders`."""
        out, refusals = {}, []
        for key, raw in (gm_orders.orders or {}).items():
            uid = self._find(state, key)
            creatures = [u for u, x in state["units"].items() if x["type"] == CREATURE and alive(x)]
            if uid is None or state["units"][uid]["type"] != CREATURE:
                refusals.append(Refusal("gm_not_creature", (key,), {"value": key, "valid": creatures}))
                continue
            if not alive(state["units"][uid]):
                refusals.append(Refusal("target_down", (key,), {"target": state["units"][uid]["nom"],
                                                                 "type": CREATURE, "valid": creatures}))
                continue
            collect = Refusals()
            actions = parse_actions(raw, self, scenario, collect, (key,))
            refusals += collect
            for a in actions:
                perso = (a.arg or {}).get("perso")
                if perso is not None and self._find(state, perso) != uid:
                    refusals.append(Refusal("gm_perso_mismatch", (key, a.index), {"value": perso, "creature": key}))
            out[uid] = actions
        return out, refusals

    def check_gm(self, state, scenario, gm_orders):
        actions, refusals = self._gm_actions(state, scenario, gm_orders)
        if refusals:
            return refusals
        for uid, acts in actions.items():
            key = next(k for k in gm_orders.orders if self._find(state, k) == uid)
            refusals += self._check_sequence(state, None, acts, base=(key,), creature=uid)
        return refusals

    # == resolution ====================================================================
    def resolve(self, state, scenario, orders, gm_orders, dice):
        """A turn. A simulated one (`gm_orders.quiet`) builds no MJ log, private
        sheets nor board, lets the simulated MJ order the creatures when gm.yaml
        gives no orders, and keeps its tally under `state["simulation"]`."""
        quiet = gm_orders.quiet
        units = state["units"]
        state["turn"] = state.get("turn", 0) + 1
        for u in units.values():
            if alive(u) and "pa_max" in u:
                u["pa"] = u["pa_max"]
        queues: dict[str, list] = {}
        for handle, order in orders.items():
            for action in order.actions:
                queues.setdefault(self._actor(state, handle, action), []).append((handle, action))
        if quiet and not gm_orders.orders:
            gm_actions = balance.creature_actions(self, state)
        else:
            gm_actions, _ = self._gm_actions(state, scenario, gm_orders)
        for uid, acts in gm_actions.items():
            queues.setdefault(uid, []).extend((None, a) for a in acts)
        position = {uid: i for i, uid in enumerate(units)}
        order = sorted(queues, key=lambda uid: (-units[uid]["DEX"], -units[uid]["chance"], position[uid]))
        events = [ev.public("initiative", order=[{"id": uid, "nom": units[uid]["nom"]} for uid in order])]
        if not quiet:
            events.append(ev.gm("initiative", order=[{"id": uid, "nom": units[uid]["nom"], "DEX": units[uid]["DEX"],
                                                      "chance": units[uid]["chance"]} for uid in order]))
        for uid in order:
            told = False
            for i, (player, action) in enumerate(queues[uid]):
                if not alive(units[uid]):
                    if not told:
                        events.append(ev.public("down_skip", actor=uid, nom=units[uid]["nom"],
                                                count=len(queues[uid]) - i))
                        told = True
                    continue
                events += self._resolve_action(state, uid, player, action, dice, quiet)
        events += self._end_turn(state, scenario, quiet)
        if quiet:
            balance.record(state, events)
        return Resolution(state, events)

    def _resolve_action(self, state, uid, player, action, dice, quiet=False) -> list:
        units = state["units"]
        me = units[uid]
        try:
            plan = self._plan(state, uid, action, player)
            if plan["cost"] > me["pa"]:
                raise Problem("not_enough_pa", character=me["nom"], need=plan["cost"], have=me["pa"],
                              short=plan["cost"] - me["pa"])
        except Problem as p:
            data = {"actor": uid, "nom": me["nom"], "action": action.id, "reason": p.key,
                    "params": {k: v for k, v in p.params.items() if k not in ("valid", "suggestion")}}
            return [ev.public("lost", **data)]
        me["pa"] -= plan["cost"]
        if plan["kind"] == "move":
            before = list(me["position"])
            me["position"] = plan["to"]
            return [ev.public("move", actor=uid, nom=me["nom"], start=before, to=plan["to"],
                              squares=len(plan["path"]), cost=plan["cost"])]
        out = _Outcome(self, state, uid)
        if plan["kind"] == "attack":
            self._attack(state, uid, action, plan, dice, out)
        else:
            self._spell(state, uid, plan, dice, out)
        return out.events(plan, quiet)

    # -- chances -------------------------------------------------------------------------
    def char_bonus(self, value: int) -> int:
        return value - self.rules["characteristic_neutral"]

    def luck_bonus(self, value: int) -> int:
        luck = self.rules["luck"]
        return max(0, min(luck["max"], value // luck["step"]))

    def faction_allies(self, state, uid) -> list[str]:
        units, rules = state["units"], self.rules["faction"]
        me = units[uid]
        if not me.get("faction"):
            return []
        out = []
        for other, u in units.items():
            if other == uid or not alive(u) or u.get("faction") != me["faction"] or u["type"] not in (CHARACTER,
                                                                                                     CREATURE):
                continue
            if not rules["count_own_characters"] and me.get("joueur") and u.get("joueur") == me["joueur"]:
                continue
            if dist2(me["position"], u["position"]) <= rules["radius"] ** 2:
                out.append(other)
        return out

    def faction_bonus(self, n: int) -> int:
        """round(sum_{i=1..n} b / i): rising with every ally, by ever smaller steps."""
        b = self.rules["faction"]["b"]
        return half_up(sum(b / i for i in range(1, n + 1)))

    def hindrance(self, state, uid) -> list[dict]:
        """Each other visible character of the same player: max(0, 5 - (d - 1)), rounded."""
        units, rules = state["units"], self.rules["hindrance"]
        me = units[uid]
        if not me.get("joueur"):
            return []
        out = []
        for other, u in units.items():
            if other == uid or not alive(u) or u.get("joueur") != me["joueur"]:
                continue
            d = distance(me["position"], u["position"])
            if d > self.rules["grid"]["visible_within"]:
                continue
            value = max(0, half_up(rules["per_character"] - (d - rules["free_squares"])))
            out.append({"id": other, "nom": u["nom"], "distance": shown(d), "value": value})
        return out

    def range_malus(self, d: float) -> int:
        rules = self.rules["range_malus"]
        return max(0, half_up(rules["per_square"] * (d - rules["free_squares"])))

    @staticmethod
    def effects_on(unit, stat) -> tuple[int, list[dict]]:
        """The total of a unit's effects on `stat`, and those effects (name, spell name)."""
        found = [e for e in unit.get("effets", []) if e["stat"] == stat]
        return sum(e["valeur"] for e in found), [{"nom": e["nom"], **({"sort_nom": e["sort_nom"]}
                                                                        if e.get("sort_nom") else {})} for e in found]

    @staticmethod
    def capped(parts, cap) -> dict:
        raw = sum(p["value"] for p in parts)
        return {"parts": parts, "raw": raw, "cap": cap, "chance": max(0, min(cap, raw))}

    def _faction_part(self, state, uid) -> dict:
        allies = self.faction_allies(state, uid)
        return {"key": "faction", "value": self.faction_bonus(len(allies)),
                "allies": [state["units"][a]["nom"] for a in allies]}

    def _effects_part(self, unit, stat, parts):
        value, names = self.effects_on(unit, stat)
        if names:
            parts.append({"key": "effects", "value": value, "names": names})

    # The chances below are built from a unit and its situation (faction part,
    # hindering characters, distance), so that `pbp odds` computes them with the
    # very same code from bare numbers (balance.py): `*_chance` reads the
    # situation off the board, `*_chance_of` adds up the parts.

    def attack_chance(self, state, uid, spec, weapon, target) -> dict:
        units = state["units"]
        me = units[uid]
        return self.attack_chance_of(me, spec, weapon, faction=lambda: self._faction_part(state, uid),
                                     hindrance=lambda: self.hindrance(state, uid),
                                     distance=lambda: distance(me["position"], units[target]["position"]))

    def attack_chance_of(self, me, spec, weapon, faction, hindrance, distance) -> dict:
        """`faction()`: the faction part; `hindrance()`: the hindering characters
        ([{value, ...}]); `distance()`: to the target. Each is asked only when the
        action's spec uses it."""
        parts = [{"key": "skill", "skill": spec["skill"], "value": me["competences"].get(spec["skill"], 0)}]
        if spec.get("mastery") and weapon:
            parts.append({"key": "mastery", "weapon": me["armes"][weapon]["nom"],
                          "value": me["maitrises"].get(weapon, 0)})
        if spec.get("characteristic"):
            c = spec["characteristic"]
            parts.append({"key": "characteristic", "stat": c, "score": me[c], "value": self.char_bonus(me[c])})
        if spec.get("faction"):
            parts.append(faction())
        if spec.get("hindrance"):
            found = hindrance()
            parts.append({"key": "hindrance", "value": -sum(h["value"] for h in found), "from": found})
        if spec.get("range_malus"):
            d = distance()
            parts.append({"key": "range", "distance": shown(d), "value": -self.range_malus(d)})
        self._effects_part(me, "attaque", parts)
        return self.capped(parts, spec["cap"])

    def dodge_chance(self, state, uid) -> dict:
        return self.dodge_chance_of(state["units"][uid], faction=lambda: self._faction_part(state, uid))

    def dodge_chance_of(self, me, faction) -> dict:
        rules = self.rules["dodge"]
        parts = [{"key": "skill", "skill": rules["skill"], "value": me["competences"].get(rules["skill"], 0)}]
        c = rules["characteristic"]
        parts.append({"key": "characteristic", "stat": c, "score": me[c], "value": self.char_bonus(me[c])})
        if rules["luck"]:
            parts.append({"key": "luck", "score": me["chance"], "value": self.luck_bonus(me["chance"])})
        if rules["faction"]:
            parts.append(faction())
        self._effects_part(me, "esquive", parts)
        return self.capped(parts, rules["cap"])

    def magic_chance(self, state, uid, spell) -> dict:
        return self.magic_chance_of(state["units"][uid], spell, faction=lambda: self._faction_part(state, uid))

    def magic_chance_of(self, me, spell, faction) -> dict:
        rules = self.rules["magic"]
        parts = [{"key": "skill", "skill": rules["skill"], "value": me["competences"].get(rules["skill"], 0)}]
        for c in rules["characteristics"]:
            parts.append({"key": "characteristic", "stat": c, "score": me[c], "value": self.char_bonus(me[c])})
        if rules["faction"]:
            parts.append(faction())
        if spell.get("bonus"):
            parts.append({"key": "spell_bonus", "value": spell["bonus"]})
        self._effects_part(me, "magie", parts)
        return self.capped(parts, rules["cap"])

    def counter_chance(self, state, uid) -> dict:
        return self.counter_chance_of(state["units"][uid], faction=lambda: self._faction_part(state, uid))

    def counter_chance_of(self, me, faction) -> dict:
        rules = self.rules["counter_magic"]
        parts = [{"key": "skill", "skill": rules["skill"], "value": me["competences"].get(rules["skill"], 0)}]
        for c in rules["characteristics"]:
            parts.append({"key": "characteristic", "stat": c, "score": me[c], "value": self.char_bonus(me[c])})
        if rules["faction"]:
            parts.append(faction())
        parts.append({"key": "difficulty", "value": -rules["difficulty"]})
        return self.capped(parts, rules["cap"])

    def can_dodge(self, unit) -> bool:
        if unit["type"] == CHARACTER:
            return True
        return unit["type"] == CREATURE and self.rules["dodge"]["creatures"] and unit.get("esquive_possible", False)

    def can_counter(self, unit) -> bool:
        if unit["type"] not in (CHARACTER, CREATURE) or "competences" not in unit:
            return False
        skill = self.rules["counter_magic"]["skill"]
        return not self.rules["counter_magic"]["requires_skill"] or unit["competences"].get(skill, 0) > 0

    # -- damage ----------------------------------------------------------------------------
    def damage_bonus(self, total: int) -> str:
        for row in self.rules["damage_bonus"]:
            if row["up_to"] is None or total <= row["up_to"]:
                return str(row["dice"])
        return "0"

    def reduction(self, unit) -> dict:
        rules = self.rules["reduction"]
        parts = [{"key": "DEF", "score": unit["DEF"],
                  "value": min(rules["def_max"], max(0, unit["DEF"]) // rules["def_step"])}]
        for key in ("armure", "armure_legendaire"):
            if unit.get(key):
                parts.append({"key": key, "nom": unit[key]["nom"], "value": unit[key]["reduction"]})
        if unit.get("armure_naturelle"):
            parts.append({"key": "armure_naturelle", "value": unit["armure_naturelle"]})
        self._effects_part(unit, "reduction", parts)
        return {"parts": parts, "value": max(rules["floor"], sum(p["value"] for p in parts))}

    def damage_terms(self, unit, spec, weapon, perfect: bool) -> list[dict]:
        terms = []
        if weapon:
            terms.append({"key": "weapon", "nom": unit["armes"][weapon]["nom"], "dice": unit["armes"][weapon]["degats"]})
        else:
            terms.append({"key": "bare_hands", "dice": str(spec["damage_dice"])})
        stats = spec["damage_base"]
        total = sum(unit[s] for s in stats)
        terms.append({"key": "bonus", "stats": "+".join(stats), "sum": total, "dice": self.damage_bonus(total)})
        if perfect:
            terms.append({"key": "perfect", "dice": str(self.rules["perfect"]["dice"])})
        value, names = self.effects_on(unit, "degats")
        if names:
            terms.append({"key": "effects", "names": names, "dice": str(value)})
        return terms

    # -- attacks ---------------------------------------------------------------------------
    def _attack(self, state, uid, action, plan, dice, out):
        units = state["units"]
        me, target = units[uid], plan["target"]
        foe = units[target]
        spec = self.actions[action.id]
        weapon = plan["weapon"]
        out.info.update(action=action.id, target=target, target_nom=foe["nom"], target_type=foe["type"],
                        distance=shown(distance(me["position"], foe["position"])))
        if weapon:
            w = me["armes"][weapon]
            out.info["weapon"] = {"id": weapon, "nom": w["nom"], **({"avec": w["avec"]} if w.get("avec") else {})}
        chance = self.attack_chance(state, uid, spec, weapon, target)
        roll = dice.roll(f"{uid}.attaque", "1d100", f"{action.id} -> {target}")
        hit = roll.total <= chance["chance"]
        perfect = hit and roll.total < self.rules["perfect"]["below"]
        out.info["attack"] = {"roll": roll, "chance": chance["chance"], "hit": hit, "perfect": perfect}
        out.detail(uid, "attaque", roll=roll, **chance)
        out.count(uid, "attaques")
        if not hit:
            out.xp(uid, "attack_missed")
            if foe["type"] == CHARACTER:
                out.xp(target, "defender_missed")
            out.retort(uid, "attaque_ratee")
            return
        if self.can_dodge(foe) and (not perfect or self.rules["perfect"]["dodgeable"]):
            dodge = self.dodge_chance(state, target)
            droll = dice.roll(f"{target}.esquive", "1d100", f"{uid} -> {target}")
            dodged = droll.total <= dodge["chance"]
            out.info["dodge"] = {"roll": droll, "chance": dodge["chance"], "success": dodged}
            out.detail(target, "esquive", roll=droll, **dodge)
            if dodged:
                out.count(target, "esquives")
                out.xp(uid, "attack_dodged")
                out.xp(target, "dodge")
                out.retort(target, "esquive")
                return
        out.count(uid, "touches")
        if perfect:
            out.count(uid, "parfaites")
            out.retort(uid, "parfaite")
        terms = self.damage_terms(me, spec, weapon, perfect)
        droll = dice.roll(f"{uid}.degats", combine(*(t["dice"] for t in terms)), f"{action.id} -> {target}")
        red = self.reduction(foe)
        final = max(self.rules["reduction"]["min_damage"], droll.total - red["value"])
        out.info["damage"] = {"roll": droll, "reduction": red["value"], "final": final}
        out.detail(uid, "degats", roll=droll, terms=terms)
        out.detail(target, "reduction", value=red["value"], parts=red["parts"])
        out.xp(uid, "hit")
        if perfect:
            out.xp(uid, "perfect_bonus")
        out.hurt(uid, target, final)

    # -- spells ----------------------------------------------------------------------------
    def _spell(self, state, uid, plan, dice, out):
        units = state["units"]
        me, target = units[uid], plan["target"]
        sid = plan["spell"]
        spell = self.rules["spells"][sid]
        foe = units[target]
        out.info.update(action="sort", spell=sid, spell_name=spell.get("name") or {}, spell_type=spell["type"],
                        target=target, target_nom=foe["nom"], target_type=foe["type"],
                        distance=shown(distance(me["position"], foe["position"])), zone=spell.get("zone"))
        out.count(uid, "sorts")
        chance = self.magic_chance(state, uid, spell)
        roll = dice.roll(f"{uid}.magie", "1d100", f"{sid} -> {target}")
        success = roll.total <= chance["chance"]
        out.info["cast"] = {"roll": roll, "chance": chance["chance"], "success": success}
        out.detail(uid, "magie", roll=roll, **chance)
        if not success:
            out.retort(uid, "sort_rate")
            return
        if spell["type"] == "degats" and foe["type"] == CHARACTER and self.can_counter(foe):
            rules = self.rules["counter_magic"]
            counter = self.counter_chance(state, target)
            croll = dice.roll(f"{target}.contre", "1d100", f"{sid} <- {uid}")
            blocked = croll.total <= counter["chance"]
            perfect = blocked and croll.total < rules["perfect_below"]
            lost = 0
            if blocked and "pa" in foe:
                lost = min(foe["pa"], -(-spell["cost"] // rules["pa_loss_divisor"]))
                foe["pa"] -= lost
            out.info["counter"] = {"who": target, "nom": foe["nom"], "roll": croll, "chance": counter["chance"],
                                   "success": blocked, "perfect": perfect, "pa_lost": lost}
            out.detail(target, "contre", roll=croll, **counter)
            if blocked:
                out.count(target, "contres")
                out.xp(target, "counter")
                if perfect:
                    out.xp(target, "counter_perfect_bonus")
                out.retort(uid, "sort_contre")
                if perfect:
                    out.info["reflected"] = True
                    self._spell_effect(state, uid, uid, [uid], spell, sid, dice, out, source=target)
                return
        out.xp(uid, "spell_success")
        out.count(uid, "sorts_reussis")
        self._spell_effect(state, uid, target, self._spell_targets(state, uid, target, spell), spell, sid, dice,
                           out)

    def _spell_targets(self, state, uid, target, spell) -> list[str]:
        """The target, then everyone else in the zone (harmful zones spare the caster
        and its player's characters; healing and buffs touch characters only)."""
        if not spell.get("zone"):
            return [target]
        units = state["units"]
        centre = units[target]["position"]
        player = units[uid].get("joueur")
        hits = [target]
        for other, u in units.items():
            if other == target or not alive(u) or dist2(centre, u["position"]) > spell["zone"] ** 2:
                continue
            if spell["type"] in HARMFUL and (other == uid or (player and u.get("joueur") == player)):
                continue
            if spell["type"] != "degats" and u["type"] != CHARACTER:
                continue
            hits.append(other)
        return hits

    def _spell_effect(self, state, uid, target, hits, spell, sid, dice, out, source=None):
        """Applies a spell's effect to `hits`; `source` is who deals it when it was
        reflected (the countering target), else the caster."""
        units = state["units"]
        reflected = source is not None
        source = source or uid
        kind = spell["type"]
        effect = {"type": kind, "hits": []}
        if kind in ("degats", "soin"):
            roll = dice.roll(f"{uid}.effet", spell["dice"], f"{sid} -> {target}")
            effect["roll"] = roll
            out.detail(uid, "effet", roll=roll, terms=[{"key": "spell", "dice": str(spell["dice"])}])
            for hit in hits:
                u = units[hit]
                if kind == "degats":
                    value = roll.total
                    if self.rules["magic"]["reduction_applies"]:
                        red = self.reduction(u)
                        out.detail(hit, "reduction", value=red["value"], parts=red["parts"])
                        value = max(self.rules["reduction"]["min_damage"], value - red["value"])
                    else:
                        value = max(self.rules["reduction"]["min_damage"], value)
                    effect["hits"].append({"id": hit, "nom": u["nom"], "value": value})
                    out.hurt(source, hit, value, effect["hits"][-1])
                else:
                    healed = max(0, min(u["pv_max"] - u["pv"], roll.total))
                    u["pv"] += healed
                    effect["hits"].append({"id": hit, "nom": u["nom"], "value": healed})
                    out.touched(hit)
        else:
            value = spell["value"]
            effect.update(stat=spell["stat"], value=value, duration=spell["duration"])
            for hit in hits:
                u = units[hit]
                u["effets"] = [e for e in u["effets"] if e.get("sort") != sid]
                u["effets"].append({"nom": sid, "stat": spell["stat"], "valeur": value,
                                    "tours": spell["duration"], "sort": sid,
                                    "sort_nom": dict(spell.get("name") or {})})
                effect["hits"].append({"id": hit, "nom": u["nom"], "value": value})
                out.touched(hit)
        out.info["reflect_effect" if reflected else "effect"] = effect

    # -- end of turn -----------------------------------------------------------------------
    def _end_turn(self, state, scenario, quiet=False) -> list:
        events = []
        units = state["units"]
        for uid, u in units.items():
            kept, gone = [], []
            for e in u.get("effets", []):
                if "tours" in e:
                    e["tours"] -= 1
                    if e["tours"] <= 0:
                        gone.append({"nom": e["nom"], **({"sort_nom": e["sort_nom"]} if e.get("sort_nom") else {})})
                        continue
                kept.append(e)
            u["effets"] = kept
            if gone and alive(u):
                events.append(ev.public("effects_end", actor=uid, nom=u["nom"], effects=gone))
            if u["type"] == CHARACTER and alive(u):
                level = u["niveau"]
                for i, need in enumerate(self.rules["levels"]):
                    if u["xp"] >= need:
                        level = max(level, i + 1)
                if level > u["niveau"]:
                    u["niveau"] = level
                    events.append(ev.public("level_up", actor=uid, nom=u["nom"], level=level))
        standing = {u["faction"] for u in units.values() if u["type"] == CHARACTER and alive(u)}
        owners = {u["joueur"] for u in units.values() if u["type"] == CHARACTER and alive(u)}
        end = self.rules["end"]
        limit = end.get("turn_limit")
        if ((end["last_faction_standing"] and len(standing) <= 1) or (end["last_player_standing"] and len(owners) <= 1)
                or (limit and state["turn"] >= limit)):
            state["over"] = True
            winners = sorted(f for f in standing if f)
            events.append(ev.public("over", winners=[{"id": f, "nom": state["factions"].get(f, {}).get("nom", f)}
                                                     for f in winners]))
        return events if quiet else events + self._end_events(state, scenario)

    def _end_events(self, state, scenario) -> list:
        events = [ev.public("board", **self.board(state))]
        for handle in scenario.roster:
            sheets = [self.sheet(state, uid) for uid, u in state["units"].items()
                      if u["type"] == CHARACTER and u["joueur"] == handle]
            if sheets:
                events.append(ev.private(handle, "sheets", sheets=sheets))
        events.append(ev.gm("status", units=[self.sheet(state, uid) for uid in state["units"]]))
        return events

    # == views ============================================================================
    def sheet(self, state, uid) -> dict:
        u = state["units"][uid]
        out = {"id": uid, "nom": u["nom"], "type": u["type"], "symbole": u["symbole"], "position": u["position"],
               "pv": u["pv"], "pv_max": u["pv_max"], "faction": u.get("faction"),
               "effets": [dict(e) for e in u.get("effets", [])]}
        if u["type"] == CHARACTER:
            out.update(joueur=u["joueur"], niveau=u["niveau"], xp=u["xp"])
        if "pa" in u:
            out.update(pa=u["pa"], pa_max=u["pa_max"])
        if u["type"] in (CHARACTER, CREATURE):
            out.update(characteristics={c: u[c] for c in CHARACTERISTICS}, chance=u["chance"],
                       competences=dict(u["competences"]), maitrises=dict(u["maitrises"]),
                       armes=[{"id": w, **a} for w, a in u["armes"].items()],
                       sorts=list(u.get("sorts", [])), stats=dict(u["stats"]))
        out["reduction"] = self.reduction(u)["value"]
        return out

    def board(self, state) -> dict:
        grid, units = state["grid"], state["units"]
        cells = [["·"] * grid["width"] for _ in range(grid["height"])]
        for x, y in grid["walls"]:
            cells[y][x] = "█"
        legend = []
        for uid, u in units.items():
            if not alive(u):
                continue
            x, y = u["position"]
            cells[y][x] = u["symbole"]
            legend.append({"symbole": u["symbole"], "id": uid, "nom": u["nom"], "type": u["type"],
                           "position": u["position"], "faction": u.get("faction"),
                           "faction_nom": state["factions"].get(u.get("faction"), {}).get("nom")})
        header = "   " + "".join(str(x % 10) for x in range(grid["width"]))
        rows = [header] + [f"{y:>2} " + "".join(row) for y, row in enumerate(cells)]
        return {"rows": rows, "legend": legend}

    def _public_roster(self, state) -> list[dict]:
        return [{"id": uid, "nom": u["nom"], "type": u["type"], "joueur": u.get("joueur"),
                 "faction": u.get("faction"), "position": u["position"]} for uid, u in state["units"].items()]

    def status(self, state, scenario):
        return [ev.gm("board", **self.board(state)),
                ev.gm("status", units=[self.sheet(state, uid) for uid in state["units"]])]

    # == order forms and bots ================================================================
    def order_context(self, state, scenario, player):
        units = state["units"]
        mine = []
        for uid, u in units.items():
            if u["type"] != CHARACTER or u["joueur"] != player or not alive(u):
                continue
            entry = {"id": uid, "nom": u["nom"], "position": u["position"], "pa": u["pa_max"],
                     "armes": [{"id": w, **a} for w, a in u["armes"].items()], "attacks": {}, "spells": []}
            for aid, spec in self.actions.items():
                armed = not spec.get("weapon_type") or any(w["type"] == spec["weapon_type"]
                                                           for w in u["armes"].values())
                if spec.get("kind") == "attack" and armed:
                    entry["attacks"][aid] = {"cost": spec["cost"], "targets": self._in_reach(state, uid, spec, player)}
            for sid in u["sorts"]:
                spell = self.rules["spells"][sid]
                entry["spells"].append({"id": sid, "name": spell.get("name") or {}, "type": spell["type"],
                                        "cost": spell["cost"], "range": self.spell_range(spell, u["niveau"])})
            mine.append(entry)
        targets = [{"id": uid, "nom": u["nom"], "type": u["type"], "position": u["position"]}
                   for uid, u in units.items() if alive(u) and u.get("joueur") != player]
        costs = {aid: spec.get("cost", spec.get("cost_per_square")) for aid, spec in self.actions.items()
                 if spec.get("cost", spec.get("cost_per_square")) is not None}
        ranges = [spec["max_distance"] for spec in self.actions.values() if spec.get("max_distance")]
        return {"characters": mine, "targets": targets, "costs": costs, "board": self.board(state),
                "max_range": max(ranges) if ranges else 0}

    def legal_orders(self, state, scenario, player):
        """Nothing; each single legal action of each character; one plan with an action
        per character (attack if possible, else a step). Each passes check_orders."""
        units = state["units"]
        options: dict[str, list[dict]] = {}
        for uid, u in units.items():
            if u["type"] != CHARACTER or u["joueur"] != player or not alive(u):
                continue
            found = []
            for aid, spec in self.actions.items():
                kind = spec.get("kind")
                if kind == "attack":
                    for target in self._in_reach(state, uid, spec, player):
                        found.append((aid, {"perso": uid, "cible": target, "arme": None}))
                elif kind == "spell":
                    for sid in u["sorts"]:
                        for target, t in units.items():
                            if alive(t):
                                found.append((aid, {"perso": uid, "sort": sid, "cible": target}))
                elif kind == "move":
                    x, y = u["position"]
                    for dx, dy in NEIGHBOURS:
                        found.append((aid, {"perso": uid, "vers": [x + dx, y + dy]}))
            options[uid] = [f for f in found if self._passes(state, player, [f])]
        out = [[]]
        for uid, found in options.items():
            out += [[Action(aid, arg, 0)] for aid, arg in found]
        plan = []
        for uid, found in options.items():
            pick = next((f for f in found if self.actions[f[0]].get("kind") == "attack"), None) or \
                next(iter(found), None)
            if pick and self._passes(state, player, plan + [pick]):
                plan.append(pick)
        if len(plan) > 1:
            out.append([Action(aid, arg, i) for i, (aid, arg) in enumerate(plan)])
        return out

    # == balance tools (balance.py) ========================================================
    def bot_orders(self, state, scenario, player, rng):
        return balance.bot_orders(self, state, player, rng)

    def sample_scenario(self, players, rng):
        return balance.sample_scenario(self.rules, players, rng)

    def game_summary(self, state, scenario):
        return balance.game_summary(state, scenario)

    def odds(self):
        return balance.calculators(self)

    def _passes(self, state, player, picks) -> bool:
        actions = [Action(aid, arg, i) for i, (aid, arg) in enumerate(picks)]
        return not self.check_orders(state, None, PlayerOrders(player, state.get("turn", 0) + 1, actions))


class _Sim:
    """The board as a player's own orders leave it, for check_orders."""

    def __init__(self, state):
        self.state = {"grid": state["grid"], "factions": state.get("factions", {}),
                      "units": {uid: dict(u, position=list(u["position"])) for uid, u in state["units"].items()}}
        self.spent: dict[str, int] = {}

    def pa(self, uid) -> int:
        u = self.state["units"][uid]
        return u.get("pa_max", 0) - self.spent.get(uid, 0)

    def spend(self, uid, plan):
        self.spent[uid] = self.spent.get(uid, 0) + plan["cost"]
        if plan["kind"] == "move":
            self.state["units"][uid]["position"] = list(plan["to"])


class _Outcome:
    """What one attack or spell did: the public forum line, the MJ's log, XP, PV."""

    def __init__(self, rules: Skirmish, state, uid):
        self.rules, self.state, self.uid = rules, state, uid
        self.units = state["units"]
        self.info = {"actor": uid, "nom": self.units[uid]["nom"]}
        self.details: list[dict] = []
        self.gains: list[dict] = []
        self.touched_ids: list[str] = [uid]
        self.downed: list[dict] = []

    def detail(self, who, what, **data):
        self.touched(who)
        self.details.append({"who": who, "nom": self.units[who]["nom"], "what": what, **data})

    def count(self, who, stat):
        stats = self.units[who].get("stats")
        if stats is not None and stat in stats:
            stats[stat] += 1

    def xp(self, who, reason):
        u = self.units[who]
        amount = self.rules.rules["xp"][reason]
        if u["type"] != CHARACTER or not amount:
            return
        self.touched(who)
        u["xp"] += amount
        self.gains.append({"who": who, "nom": u["nom"], "reason": reason, "amount": amount})

    def retort(self, who, kind):
        u = self.units[who]
        self.info["retort"] = {"who": who, "nom": u["nom"], "kind": kind,
                               "text": (u.get("repliques") or {}).get(kind)}

    def touched(self, who):
        if who not in self.touched_ids:
            self.touched_ids.append(who)

    def hurt(self, by, who, amount, record=None):
        u = self.units[who]
        self.touched(who)
        u["pv"] = max(0, u["pv"] - amount)
        if "stats" in self.units[by] and "degats_infliges" in self.units[by]["stats"]:
            self.units[by]["stats"]["degats_infliges"] += amount
        if "degats_subis" in u.get("stats", {}):
            u["stats"]["degats_subis"] += amount
        down = u["pv"] == 0
        if record is not None:
            record["down"] = down
        else:
            self.info["down"] = down
        if down:
            self.count(by, "mises_hors_combat")
            self.downed.append({"id": who, "nom": u["nom"], "type": u["type"]})

    def events(self, plan, quiet=False) -> list:
        kind = plan["kind"]
        public = dict(self.info, cost=plan["cost"])
        if quiet:  # a simulation reads the public line only (balance.record)
            return [ev.public(kind, **public)]
        pv = {uid: {"nom": self.units[uid]["nom"], "pv": self.units[uid]["pv"], "pv_max": self.units[uid]["pv_max"],
                    **({"pa": self.units[uid]["pa"]} if "pa" in self.units[uid] else {})}
              for uid in self.touched_ids}
        out = [ev.public(kind, **public),
               ev.gm(kind, **public, details=self.details, xp=self.gains, pv=pv)]
        players = []
        for uid in self.touched_ids:
            p = self.units[uid].get("joueur")
            if p and p not in players:
                players.append(p)
        for p in players:
            mine = {uid for uid, u in self.units.items() if u.get("joueur") == p}
            out.append(ev.private(p, kind, **public,
                                  details=[d for d in self.details if d["who"] in mine],
                                  xp=[g for g in self.gains if g["who"] in mine],
                                  pv={uid: v for uid, v in pv.items() if uid in mine}))
        return out
