"""Legality against the state: a player's orders (`check_orders`), the MJ's hunter
orders (`check_gm`), and what schema.yaml cannot say about the MJ's files
(`validate_scenario`, `validate_state`).

Every refusal is a `Refusal` at the path of the offending value in its file
(the core names the line) with what would be valid; the message keys are in
messages.yaml.
"""

from __future__ import annotations

from pbp.base.errors import InputError, PbpError
from pbp.base.i18n import closest
from pbp.model.orders import normalize_id
from pbp.model.ruleset import Refusal, Refusals

from . import rules as r
from .world import DEFAULT_DOOR


# -- a player's orders ------------------------------------------------------------------

def check_orders(rules: dict, lab, state: dict, scenario, orders) -> list[Refusal]:
    me = state["pejis"][orders.player]
    actions = rules["actions"]
    out = Refusals()
    if me["lost_turns"]:
        return out  # a lost turn (Manhunt.lost_turn): the core accepts the file and ignores its actions
    points = sum(actions[a.id]["points"] for a in orders.actions)
    if points > rules["max_points"]:
        out.add("too_many_points", orders.actions[-1].at, points=points, max=rules["max_points"])
    seen = set()
    engaged = r.engaged_by(state, orders.player)
    for a in orders.actions:
        if a.id in seen:
            out.add("twice", a.at, action=a.id)
        seen.add(a.id)
        if engaged and a.id not in rules["engaged_actions"]:
            out.add("engaged", a.at, hunter=r.hunter_name(scenario, engaged[0]), valid=rules["engaged_actions"])
            continue
        if a.id in r.MOVES:
            first = a.arg if isinstance(a.arg, str) else a.arg[0]
            if lab.neighbour(me["cell"], first) is None:
                out.add("no_exit", a.at, direction=first, valid=[d for d, _ in lab.exits[me["cell"]]])
            if a.id in r.RUNS and not r.can_run(rules, me["fatigue"]):
                out.add("too_tired_to_run", a.at, level=r.fatigue_level(rules, me["fatigue"]))
        elif a.id == "combat":
            _check_target(out, scenario, a, r.hunters_on(state, [me["cell"]]), "no_hunter_here")
            _check_weapon(out, rules, me, a, "melee")
        elif a.id == "tir":
            reach = [me["cell"], *lab.neighbours(me["cell"])]
            _check_target(out, scenario, a, r.hunters_on(state, reach), "no_hunter_in_range")
            if not r.weapons(rules, me, "distance"):
                out.add("no_ranged_weapon", a.at)
            else:
                _check_weapon(out, rules, me, a, "distance")
        elif a.id == "utilisation_equipement":
            _check_item(out, rules, me, a, ("potion", "objet"), "not_usable")
        elif a.id == "revetir_armure":
            item = _check_item(out, rules, me, a, ("armure",), "not_armour")
            if item in me["worn"]:
                out.add("already_worn", a.at, item=item)
        elif a.id == "jeter":
            for i, item in enumerate(a.arg):
                if r.find_item(me["inventory"], item) is None:
                    _not_carried(out, a.at + (i,), me, item)
    return out


def _suggest(word, candidates) -> str | None:
    """The candidate closest to what the player wrote, case and accents aside."""
    by_key = {normalize_id(c): c for c in candidates}
    found = closest(normalize_id(word), list(by_key))
    return by_key[found] if found else None


def _suggest_hunter(word, names) -> str | None:
    """The hunter's name closest to what the player wrote, whole or by one of its
    words (`Sylos` -> `Sylas l'Elfe sylvain`)."""
    by_key = {}
    for name in names:
        by_key.setdefault(normalize_id(name), name)
        for part in normalize_id(name).split("_"):
            if len(part) >= 3:
                by_key.setdefault(part, name)
    found = closest(normalize_id(word), list(by_key))
    return by_key[found] if found else None


def _not_carried(out: Refusals, at, me, item) -> None:
    if not me["inventory"]:
        out.add("carry_nothing", at, item=item)
        return
    out.add("not_carried", at, item=item, valid=me["inventory"], suggestion=_suggest(item, me["inventory"]))


def _check_target(out: Refusals, scenario, action, present: list[str], none_key: str) -> None:
    """The hunter a fight or a shot names must be in reach; unnamed, there must be
    one, and only one."""
    hid = action.arg.get("chasseur")
    names = [r.hunter_name(scenario, h) for h in present]
    if not present:
        out.add(none_key, action.at)
    elif hid is None:
        if len(present) > 1:
            out.add("which_hunter", action.at, valid=names)
    else:
        # by id or by any unambiguous part of a name, case and accents aside (`Sylas`)
        found = r.match_hunters(scenario, hid, among=present)
        if len(found) > 1:
            out.add("hunter_ambiguous", action.at, hunter=hid, valid=[r.hunter_name(scenario, h) for h in found])
        elif not found:
            out.add("hunter_not_there", action.at, hunter=hid, valid=names, suggestion=_suggest_hunter(hid, names))


def _check_weapon(out: Refusals, rules, me, action, kind) -> None:
    weapon = action.arg.get("arme")
    valid = r.weapons(rules, me, kind)
    if weapon is not None and r.find_item(valid, weapon) is None:
        if not valid:
            out.add("no_weapon_at_all", action.at, item=weapon)
        else:
            out.add("no_such_weapon", action.at, item=weapon, valid=valid, suggestion=_suggest(weapon, valid))


def _check_item(out: Refusals, rules, me, action, kinds, key) -> str | None:
    """The item carried that the action names (accents and case aside), or None."""
    item = r.find_item(me["inventory"], action.arg)
    if item is None:
        _not_carried(out, action.at, me, action.arg)
    elif rules["items"].get(item, {}).get("kind") not in kinds:
        out.add(key, action.at, item=item)
    return item


# -- the MJ's orders (gm.yaml `orders:`) ---------------------------------------------------

def check_gm(lab, state: dict, scenario, gm_orders) -> list[Refusal]:
    out = Refusals()
    raw = gm_orders.orders
    for key in raw:
        if key != r.GM_HUNTERS:
            out.add("gm_unknown", (key,), key=key, valid=[r.GM_HUNTERS])
    hunters = raw.get(r.GM_HUNTERS) or {}
    if not isinstance(hunters, dict):
        out.add("gm_hunters_shape", (r.GM_HUNTERS,))
        return out
    playing = r.players_to_play(state, scenario.roster)
    for hid, order in hunters.items():
        at = (r.GM_HUNTERS, hid)
        if hid not in state["hunters"]:
            out.add("gm_no_hunter", at, hunter=hid, valid=list(state["hunters"]))
            continue
        if order in r.HUNTER_WAIT or order in r.HUNTER_REMOVE:
            continue
        if _hunter_order_shaped(out, at, order, playing):
            _check_hunter_order(lab, state, out, at, order, playing)
    return out


def _hunter_order_shaped(out: Refusals, at: tuple, order, playing: list) -> bool:
    """A hunter's order is a mapping of its verbs, each naming one cell or one peji;
    said when not."""
    if not isinstance(order, dict) or not order or any(k not in r.HUNTER_VERBS for k in order):
        out.add("gm_hunter_order", at, valid=[*r.HUNTER_VERBS, r.HUNTER_WAIT[0], r.HUNTER_REMOVE[0]])
        return False
    # the MJ's file is read as carefully as a player's: a list or a mapping where
    # one name is expected is refused, neither shown as if it were that name nor a crash
    shaped = [verb for verb in r.HUNTER_VERBS if isinstance(order.get(verb), (dict, list))]
    for verb in shaped:
        if verb in ("placer", "aller"):
            out.add("gm_not_one_cell", at + (verb,), verb=verb)
        else:
            out.add("gm_not_one_peji", at + (verb,), verb=verb, valid=playing)
    return not shaped


def _check_hunter_order(lab, state: dict, out: Refusals, at: tuple, order: dict, playing: list) -> None:
    """What a hunter's well-shaped order asks is possible: a cell of the labyrinth,
    a move to a neighbour, a target still playing, an attack in the same cell."""
    hunter = at[-1]
    cell = order.get("placer", state["hunters"][hunter]["cell"])
    if "placer" in order and cell not in lab.cells:
        out.add("gm_bad_cell", at + ("placer",), cell=cell)
    if "aller" in order and order["aller"] not in lab.neighbours(cell):
        out.add("gm_not_adjacent", at + ("aller",), cell=order["aller"], valid=lab.neighbours(cell) if cell else [])
    for verb in ("cible", "attaquer"):
        if verb in order and order[verb] not in playing:
            out.add("gm_bad_target", at + (verb,), player=order[verb], valid=playing)
    if "attaquer" in order and order["attaquer"] in state["pejis"] and \
            state["pejis"][order["attaquer"]]["cell"] != cell:
        out.add("gm_not_same_cell", at + ("attaquer",), player=order["attaquer"])
    if "aller" in order and "attaquer" in order:
        out.add("gm_move_and_attack", at)


# -- the MJ's files -------------------------------------------------------------------------

def _known(value, table) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool) and value in table


def _exits_of(cell) -> dict:
    exits = cell.get("exits") if isinstance(cell, dict) else None
    return exits if isinstance(exits, dict) else {}


def validate_scenario(rules: dict, scenario) -> list[PbpError]:
    """What schema.yaml cannot say about world.yaml and characters.yaml (exits
    both ways, a sheet per player...). Safe on any input: the schema has passed
    when the campaign loads the files, but simulations and tests call this on
    their own data. Each problem carries `at`, its path in its file."""
    errors: list[PbpError] = []
    world = scenario.world if isinstance(scenario.world, dict) else {}
    characters = scenario.characters if isinstance(scenario.characters, dict) else {}

    def bad(file, key, at, **params):
        errors.append(InputError(f"manhunt.{key}", file=file, at=at, **params))

    cells = world.get("cells")
    if not isinstance(cells, dict) or not cells:
        bad("world.yaml", "world_no_cells", ("cells",))
        return errors
    for cid, cell in cells.items():
        for d, exit_ in _exits_of(cell).items():
            _check_exit(rules, cells, cid, d, exit_, bad)
    _check_traps(world.get("traps") or [], cells, bad)
    pejis = characters.get("pejis")
    pejis = pejis if isinstance(pejis, dict) else {}
    for handle in scenario.roster:
        _check_peji(rules, cells, pejis, handle, bad)
    _check_hunters(characters.get("hunters") or {}, cells, bad)
    return errors


def _check_traps(traps, cells: dict, bad) -> None:
    """world.yaml's traps: each in a cell of the world."""
    for i, trap in enumerate(traps if isinstance(traps, list) else [traps]):
        cell = trap.get("cell") if isinstance(trap, dict) else trap
        if not isinstance(trap, dict) or not _known(cell, cells):
            bad("world.yaml", "world_bad_trap", ("traps", i), cell=cell)


def _check_hunters(hunters, cells: dict, bad) -> None:
    """characters.yaml's hunters: sheets, starting (when they say where) in a cell of the world."""
    for hid, sheet in (hunters.items() if isinstance(hunters, dict) else []):
        at = ("hunters", hid)
        if not isinstance(sheet, dict):
            bad("characters.yaml", "bad_hunter", at, hunter=hid)
        elif sheet.get("start") is not None and not _known(sheet["start"], cells):
            bad("characters.yaml", "bad_start", at + ("start",), player=hid, cell=sheet["start"])


def _check_exit(rules: dict, cells: dict, cid, d, exit_, bad) -> None:
    """An exit of cell `cid`: a direction the rules know, to a cell of the world,
    through a known door, with an exit back."""
    at = ("cells", cid, "exits", d)
    to = exit_.get("to") if isinstance(exit_, dict) else exit_
    if not _known(d, rules["directions"]):
        bad("world.yaml", "world_bad_direction", at, cell=cid, direction=d, valid=rules["directions"])
        return
    if not isinstance(exit_, dict) or not _known(to, cells):
        bad("world.yaml", "world_bad_exit", at, cell=cid, direction=d, to=to)
        return
    door, doors = exit_.get("door", DEFAULT_DOOR), rules["doors"]
    if not _known(door, doors):
        bad("world.yaml", "world_bad_door", at + ("door",), cell=cid, direction=d, door=door, valid=list(doors))
    if not any(isinstance(e, dict) and e.get("to") == cid for e in _exits_of(cells[to]).values()):
        bad("world.yaml", "world_one_way", at, cell=cid, to=to)


def _check_peji(rules: dict, cells: dict, pejis: dict, handle, bad) -> None:
    """A player's sheet: there, starting in a cell of the world, carrying items the rules know."""
    sheet = pejis.get(handle)
    at = ("pejis", handle)
    if not isinstance(sheet, dict):
        bad("characters.yaml", "no_sheet", at if handle in pejis else ("pejis",), player=handle)
        return
    if not _known(sheet.get("start"), cells):
        bad("characters.yaml", "bad_start", at + ("start",), player=handle, cell=sheet.get("start"))
        return
    for key in ("inventory", "worn"):
        carried = sheet.get(key) or []
        for i, item in enumerate(carried if isinstance(carried, list) else [carried]):
            if not _known(item, rules["items"]):
                bad("characters.yaml", "unknown_item", at + (key, i), player=handle, item=item)


def validate_state(rules: dict, state: dict) -> list[PbpError]:
    """What schema.yaml cannot say about a state the MJ may have edited: wound levels
    within the rules' scale, and no noise that would call more hunters at once than
    there are (each call is played: a typo such as 1000000 would never end)."""
    errors: list[PbpError] = []
    dead = rules["wounds"]["dead_level"]
    hunters = len(state["hunters"])
    for handle, peji in state["pejis"].items():
        at = ("pejis", handle)
        calls = r.noise_calls(rules, peji)
        if calls > hunters:
            errors.append(InputError("manhunt.state_noise", file="state.yaml", at=at + ("noise",),
                                     where=f"pejis.{handle}.noise", noise=peji["noise"], mark=peji["noise_mark"],
                                     calls=calls, hunters=hunters))
        if peji["wounds"] > dead or (peji["status"] == r.ACTIVE and peji["wounds"] >= dead):
            errors.append(InputError("manhunt.state_wounds_active" if peji["wounds"] == dead else
                                     "manhunt.state_wounds", file="state.yaml", at=at + ("wounds",),
                                     where=f"pejis.{handle}.wounds", value=peji["wounds"], dead=dead, high=dead - 1))
    for hid, hunter in state["hunters"].items():
        if hunter["wounds"] > dead:
            errors.append(InputError("manhunt.state_wounds", file="state.yaml", at=("hunters", hid, "wounds"),
                                     where=f"hunters.{hid}.wounds", value=hunter["wounds"], dead=dead))
    return errors
