"""The campaign's own files: world.yaml (grid, factions, non-player targets) and
characters.yaml (the characters' sheets), checked beyond what schema.yaml can say,
and read into the units of turn 0's state; the checks of a state.yaml edited by
hand. The files keep the seed's French words (`grille`, `personnages`, `nom`...);
the state is pbp's own, in English.

A module of its own: the sheet reader is also what `pbp odds` builds its
attacker and defender with (balance.py), so the odds read sheets as a turn does.
"""

from __future__ import annotations

import re

from pbp.base import i18n
from pbp.base.errors import InputError, PbpError
from pbp.model.dice import parse as parse_dice
from pbp.model.orders import normalize_id
from pbp.model.schema import Index, show_path

from .rules import CHARACTER, CHARACTERISTICS, DOOR, NPC_KINDS, OBJECT, SKILLS, STATS, WEAPON_TYPES, spell_id

#: a unit id: it is the first part of its dice labels (`aria.attaque`)
ID = re.compile(r"^[a-z][a-z0-9_]*$")


def validate_scenario(rules: dict, scenario) -> list[InputError]:
    """What schema.yaml cannot say about world.yaml and characters.yaml: squares on
    the grid, free and off the walls; ids in lower case; factions, owners and
    spells that exist; a character for every player of the roster."""
    check = _ScenarioCheck(rules, scenario)
    world = scenario.world if isinstance(scenario.world, dict) else {}
    chars = scenario.characters if isinstance(scenario.characters, dict) else {}
    if not check.grid(world.get("grille") or world.get("grid")):
        return check.errors
    check.factions = check.mapping("world.yaml", "factions", world.get("factions") or {})
    characters = chars.get("personnages") or {}
    npcs = world.get("cibles") or {}
    if not isinstance(characters, dict) or not characters:
        check.bad("characters.yaml", "personnages", "no_characters")
        return check.errors
    npcs = check.mapping("world.yaml", "cibles", npcs)
    for file, group, units in (("characters.yaml", "personnages", characters), ("world.yaml", "cibles", npcs)):
        for uid, sheet in units.items():
            check.sheet(file, group, uid, sheet, duplicate=group == "cibles" and uid in characters)
    for handle in scenario.roster:
        if handle not in check.owners:
            check.bad("campaign.yaml", f"players.{handle}", "player_without_character", player=handle)
    return check.errors


#: the whole numbers a sheet may hold besides its hit points
_SHEET_NUMBERS = (*CHARACTERISTICS, "chance", "pa", "niveau", "xp", "pv_max", "armure_naturelle")


class _ScenarioCheck:
    """validate_scenario's steps, and what they gather as they go: the errors, the
    grid and its walls, the squares and players already taken."""

    def __init__(self, rules: dict, scenario):
        self.rules, self.roster = rules, scenario.roster
        self.errors: list[InputError] = []
        self.width = self.height = 0
        self.walls: set = set()
        self.factions: dict = {}
        self.seen_cells: dict = {}
        self.owners: set = set()

    def bad(self, file, where, problem, **params):
        self.errors.append(InputError(f"skirmish.{problem}", file=file, where=where, **params))

    def bad_position(self, file, where, cell):
        self.bad(file, where, "bad_position", value=cell, width=self.width - 1, height=self.height - 1)

    def mapping(self, file, where, value) -> dict:
        """`value` when it is a mapping; else said, and an empty one."""
        if isinstance(value, dict):
            return value
        self.bad(file, where, "not_mapping")
        return {}

    def grid(self, grid) -> bool:
        """The grid's size and walls; False (said) when it has no size to check squares against."""
        if not isinstance(grid, dict) or not all(isinstance(grid.get(k), int) and grid.get(k) > 0
                                                 for k in ("largeur", "hauteur")):
            self.bad("world.yaml", "grille", "grid_missing")
            return False
        self.width, self.height = grid["largeur"], grid["hauteur"]
        walls_written = grid.get("murs") or []
        for i, cell in enumerate(walls_written if isinstance(walls_written, list) else [walls_written]):
            if not cell_ok(cell, self.width, self.height):
                self.bad_position("world.yaml", f"grille.murs.{i}", cell)
            else:
                self.walls.add(tuple(cell))
        return True

    def sheet(self, file, group, uid, sheet, duplicate: bool):
        """One unit's sheet: a character's (`personnages`) or a target's (`cibles`)."""
        where = f"{group}.{uid}"
        if not ID.match(str(uid)):
            self.bad(file, where, "bad_id", id=uid)
            return
        if duplicate:
            self.bad(file, where, "duplicate_id", id=uid)
        if not isinstance(sheet, dict):
            self.bad(file, where, "not_mapping")
            return
        for key in ("position", "pv"):
            if key not in sheet:
                self.bad(file, where, "sheet_field_missing", field=key)
        self.position(file, where, uid, sheet.get("position"))
        self.numbers(file, where, sheet)
        self.marks(file, where, sheet)
        _check_sheet_shapes(self.rules, file, where, sheet, self.bad)
        if group == "personnages":
            self.character(file, where, sheet)
        elif sheet.get("type") not in NPC_KINDS:
            self.bad(file, f"{where}.type", "bad_kind", value=sheet.get("type"), valid=list(NPC_KINDS))

    def position(self, file, where, uid, pos):
        """A square on the grid, off the walls, nobody else's."""
        if pos is None:
            return
        if not cell_ok(pos, self.width, self.height) or tuple(pos) in self.walls:
            self.bad_position(file, f"{where}.position", pos)
        elif tuple(pos) in self.seen_cells:
            self.bad(file, f"{where}.position", "same_position", other=self.seen_cells[tuple(pos)])
        else:
            self.seen_cells[tuple(pos)] = uid

    def numbers(self, file, where, sheet):
        if not isinstance(sheet.get("pv", 1), int) or sheet.get("pv", 1) < 1:
            self.bad(file, f"{where}.pv", "bad_number", field="pv")
        for key in _SHEET_NUMBERS:
            if key in sheet and (not isinstance(sheet[key], int) or isinstance(sheet[key], bool)):
                self.bad(file, f"{where}.{key}", "bad_number", field=key)

    def marks(self, file, where, sheet):
        """The unit's faction (one world.yaml lists) and its letter on the board."""
        faction = sheet.get("faction")
        if faction is not None and (not isinstance(faction, (str, int)) or faction not in self.factions):
            self.bad(file, f"{where}.faction", "unknown_faction", value=faction, valid=list(self.factions))
        symbol = sheet.get("symbole")
        if symbol is not None and not re.match(r"^[A-Za-z0-9]$", str(symbol)):
            self.bad(file, f"{where}.symbole", "bad_symbol", value=symbol)

    def character(self, file, where, sheet):
        """A character's player (one of the roster) and spells (ones the rules know)."""
        owner = sheet.get("joueur")
        if not isinstance(owner, str) or owner not in self.roster:
            self.bad(file, f"{where}.joueur", "unknown_owner", value=owner, valid=list(self.roster))
        else:
            self.owners.add(owner)
        for spell in sheet.get("sorts") if isinstance(sheet.get("sorts"), list) else []:
            if spell_id(self.rules, spell) is None:
                self.bad(file, f"{where}.sorts", "unknown_spell_sheet", value=spell, valid=list(self.rules["spells"]))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_sheet_shapes(rules: dict, file, where, sheet, bad):
    """The nested parts of a sheet have the shapes the rules read (no traceback
    on a typo in characters.yaml or world.yaml)."""
    _check_skills(file, where, sheet, bad)
    for key in ("sorts", "effets"):
        if sheet.get(key) is not None and not isinstance(sheet[key], list):
            bad(file, f"{where}.{key}", "not_list")
    if sheet.get("repliques") is not None and not isinstance(sheet["repliques"], dict):
        bad(file, f"{where}.repliques", "not_mapping")
    _check_equipment(file, where, sheet.get("equipement") or {}, bad)
    for effect in sheet.get("effets") if isinstance(sheet.get("effets"), list) else []:
        if (not isinstance(effect, dict) or effect.get("stat") not in rules["effect_stats"]
                or not _is_int(effect.get("valeur", 0)) or not _is_int(effect.get("tours", 0) or 0)):
            bad(file, f"{where}.effets", "bad_effect", valid=rules["effect_stats"])


def _check_skills(file, where, sheet, bad):
    """`competences` (skills the rules name) and `maitrises`: mappings of whole numbers."""
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
            elif not _is_int(points):
                bad(file, f"{where}.{key}.{name}", "bad_number", field=name)


def _check_equipment(file, where, equipment, bad):
    """`equipement`: armours (a number, or a reduction) and weapons of a known type with dice."""
    if not isinstance(equipment, dict):
        bad(file, f"{where}.equipement", "not_mapping")
        equipment = {}
    for key in ("armure", "armure_legendaire"):
        armour = equipment.get(key)
        if armour and not _is_int(armour) and not (isinstance(armour, dict)
                                                   and _is_int(armour.get("reduction", 0))):
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


def validate_state(state: dict) -> list[InputError]:
    """What schema.yaml cannot say about a state: every square on its grid (the
    board is drawn from it)."""
    errors = []
    grid = state["grid"]
    width, height = grid["width"], grid["height"]

    def off(at, cell):
        errors.append(InputError("skirmish.bad_position", file="state.yaml", at=at, where=show_path(at),
                                 value=cell, width=width - 1, height=height - 1))

    for i, cell in enumerate(grid["walls"]):
        if not cell_ok(cell, width, height):
            off(("grid", "walls", Index(i)), cell)
    for uid, u in state["units"].items():
        if not cell_ok(u["position"], width, height):
            off(("units", uid, "position"), u["position"])
    return errors


def cell_ok(cell, width, height) -> bool:
    return (isinstance(cell, list) and len(cell) == 2 and all(isinstance(c, int) and not isinstance(c, bool)
                                                               for c in cell)
            and 0 <= cell[0] < width and 0 <= cell[1] < height)


def initial_state(rules: dict, scenario) -> dict:
    """Turn 0's state: every sheet of characters.yaml and world.yaml copied into a
    unit (the state is self-sufficient from then on), the grid and the factions."""
    world = scenario.world
    grid = world.get("grille") or world.get("grid")
    units, used = {}, set()
    for uid, sheet in scenario.characters["personnages"].items():
        units[uid] = unit(rules, uid, sheet, CHARACTER, used)
    for uid, sheet in (world.get("cibles") or {}).items():
        units[uid] = unit(rules, uid, sheet, sheet["type"], used)
    factions = {fid: {"name": str(f.get("nom", fid) if isinstance(f, dict) else f or fid)}
                for fid, f in (world.get("factions") or {}).items()}
    return {
        "turn": 0,
        "grid": {"width": grid["largeur"], "height": grid["hauteur"],
                 "walls": sorted([list(c) for c in grid.get("murs") or []])},
        "factions": factions,
        "units": units,
        "over": False,
    }


def unit(rules: dict, uid: str, sheet: dict, kind: str, used: set) -> dict:
    """A unit of the state from its sheet (a checked one): the sheet's French
    fields under English keys, with the defaults of data.yaml; `used` holds the
    board letters already taken."""
    neutral = rules["characteristic_neutral"]
    equipment = sheet.get("equipement") or {}
    weapons = {wid: {"name": w.get("nom", wid), "type": w["type"], "damage": str(w["degats"]),
                     **({"phrase": w["avec"]} if w.get("avec") else {})}
               for wid, w in (equipment.get("armes") or {}).items()}
    default_def = (rules["npc_defaults"].get(kind) or {}).get("DEF", neutral) if kind != CHARACTER else neutral
    ap = sheet.get("pa", rules["ap"]["default" if kind == CHARACTER else "npc_default"])
    out = {
        "type": kind,
        "name": str(sheet.get("nom", uid)),
        "player": sheet.get("joueur") if kind == CHARACTER else None,
        "faction": sheet.get("faction"),
        "symbol": _symbol(sheet, kind, used),
        "position": list(sheet["position"]),
        "hp": sheet["pv"],
        "hp_max": sheet.get("pv_max", sheet["pv"]),
    }
    gender = _gender(sheet, kind)
    if gender:
        out["gender"] = gender
    if kind in (DOOR, OBJECT):
        out.update({"DEF": sheet.get("DEF", default_def), "natural_armour": sheet.get("armure_naturelle", 0),
                    "effects": [], "stats": {}})
        return out
    out.update({
        "ap": ap, "ap_max": ap,
        "level": sheet.get("niveau", 1), "xp": sheet.get("xp", 0),
        **{c: sheet.get(c, default_def if c == "DEF" else neutral) for c in CHARACTERISTICS},
        "luck": sheet.get("chance", 0),
        "skills": {s: (sheet.get("competences") or {}).get(s, 0) for s in SKILLS},
        "masteries": dict(sheet.get("maitrises") or {}),
        "spells": [spell_id(rules, s) for s in sheet.get("sorts") or []],
        "weapons": weapons,
        "armour": _armour(equipment.get("armure")),
        "legendary_armour": _armour(equipment.get("armure_legendaire")),
        "natural_armour": sheet.get("armure_naturelle", 0),
        "effects": [_effect(e) for e in sheet.get("effets") or []],
        "stats": {s: 0 for s in STATS},
    })
    if kind != CHARACTER:
        out["can_dodge"] = "esquive" in (sheet.get("competences") or {})
    return out


#: the gender a non-player target's name tells by its article ("la porte", "le tonneau")
_ARTICLE_GENDER = {"le": "m", "un": "m", "la": "f", "une": "f"}


def _gender(sheet: dict, kind: str) -> str | None:
    """The grammatical gender the posts agree with: the sheet's `genre` (f, m, n),
    else, for a door, an object or a creature, the one its name's article tells
    (a character's name has none); unknown: the posts use a neutral wording."""
    if sheet.get("genre"):
        return str(sheet["genre"])
    if kind == CHARACTER:
        return None
    first = str(sheet.get("nom", "")).strip().split(" ", 1)[0].lower()
    return _ARTICLE_GENDER.get(first)


def _armour(raw) -> dict | None:
    """`armure: 2` or `armure: {nom: mailles, reduction: 2}`."""
    if not raw:
        return None
    if isinstance(raw, int):
        return {"name": "", "reduction": raw}
    return {"name": str(raw.get("nom", "")), "reduction": int(raw.get("reduction", 0))}


def _effect(raw) -> dict:
    """`{nom, stat, valeur, tours}`; no `tours`: permanent (an item)."""
    out = {"name": str(raw.get("nom", raw["stat"])), "stat": raw["stat"], "value": int(raw.get("valeur", 0))}
    if raw.get("tours") is not None:
        out["turns"] = int(raw["tours"])
    return out


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
