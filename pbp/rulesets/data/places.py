"""Places, movement and items as a data ruleset plays them (rules.yaml's
`places:`, `doors:`, `items:`, `inventory:`, `movement:`; compiled by
pbp/datarules/places.py).

The state keeps, only when the rules have places or items: each character's
`place` and carried `items`, each door's state (`doors`, keyed `A|B` by the two
places it joins, whichever side it is crossed from), the items on each floor
(`floor`) and those still hidden (`hidden`).

A step through an exit: the exit must exist; a place at its `capacity` (the
characters in play there) stops the mover before any door is touched; a locked
door opens for a mover carrying its `key`, else stops them; a closed door that
the door's `if:` refuses stops them; otherwise a closed door is opened, its
`open:` effects run on the mover (the price of opening it), and it stays open
unless it `closes`. Who sees a move is `movement.visibility`: `witnesses` (the
default: the mover and the characters in the place left and in the place
entered), `public`, `actor` or `gm`. Items go to the carrier's inventory, seen
by `inventory.visibility` (the owner by default); a full inventory (`max`)
leaves a gained or found item on the floor.
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.base.errors import ByLang, PbpError
from pbp.datarules import places as P
from pbp.datarules.places import adjacent, here, in_sight, reads, seen, value  # noqa: F401 (the engine's names)
from pbp.datarules.format import word
from pbp.model.orders import normalize_id

from . import rules as R

#: the most steps one `move` effect takes (a formula may roll more)
MOST_STEPS = 20


# -- the state -------------------------------------------------------------------------

def door_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def set_up(data: dict, scenario, state: dict) -> None:
    """Turn 0's places and items: characters.yaml's `lieu`/`place` and
    `objets`/`items` over the rules' `movement.start` and `inventory.start`."""
    if not P.used(data):
        return
    places = data.get("places") or {}
    start = (data.get("movement") or {}).get("start") or next(iter(places), None)
    carried = list((data.get("inventory") or {}).get("start") or [])
    for handle, me in state["characters"].items():
        sheet = scenario.characters.get(handle) or {}
        me["place"] = sheet.get("lieu", sheet.get("place", start))
        me["items"] = list(sheet.get("objets", sheet.get("items", carried)))
    state["doors"] = _doors(data)
    state["floor"] = {p: list(spec.get("items") or []) for p, spec in places.items() if spec.get("items")}
    state["hidden"] = {p: list(spec.get("hidden") or []) for p, spec in places.items() if spec.get("hidden")}


def _doors(data: dict) -> dict[str, str]:
    """Each door's state at the start, by the places it joins: the first of its
    two exits written in the file sets it (its `state`, else its kind's)."""
    doors = {}
    for place_id, place in (data.get("places") or {}).items():
        for way in P.exits(place).values():
            if way.get("door") is not None:
                kind = data["doors"][way["door"]]
                doors.setdefault(door_key(place_id, way["towards"]),
                                 P.state_word(way.get("state")) or P.state_word(kind.get("state", "closed")))
    return doors


SHEET_KEYS = ("lieu", "place", "objets", "items")


def sheet_problems(data: dict, handle: str, key: str, value) -> str | None:
    """What is wrong with a characters.yaml key of this block (None: nothing)."""
    if key in ("lieu", "place"):
        return None if isinstance(value, str) and value in (data.get("places") or {}) else "data.sheet_unknown_place"
    if not isinstance(value, list) or any(not isinstance(v, str) or v not in (data.get("items") or {})
                                          for v in value):
        return "data.sheet_unknown_items"
    return None


# -- arguments: what a player may name -----------------------------------------------------

def options(data: dict, kind: str, state: dict, handle: str, place: str | None = None) -> list[str]:
    """The values an argument of this block may take for `handle` standing in
    `place` (their own by default): what a refusal lists and a bot tries."""
    me = state["characters"][handle]
    place = me["place"] if place is None else place
    if kind == "direction":
        return list(adjacent(data, place))
    if kind == "place":
        return list(dict.fromkeys(adjacent(data, place).values()))
    if kind == "item":
        return list(dict.fromkeys(me["items"]))
    return list(dict.fromkeys(state["floor"].get(place, [])))


def match(data: dict, kind: str, value, state: dict, handle: str, place: str | None = None) -> str | None:
    """The id an argument names (a direction word, or a place or an item by id
    or name, accents and case aside); a direction may be named by the place it
    leads to. None when it names none of the options."""
    wanted = normalize_id(str(value))
    ways = adjacent(data, state["characters"][handle]["place"] if place is None else place)
    for option in options(data, kind, state, handle, place):
        section = {"place": "places", "item": "items", "item_here": "items"}.get(kind)
        spellings = [option]
        if section:
            spellings += list(R.name_of((data.get(section) or {}).get(option) or {}, option).values())
        if any(normalize_id(s) == wanted for s in spellings):
            return option
    if kind == "direction":
        for direction, towards in ways.items():
            names = [towards, *R.name_of((data.get("places") or {}).get(towards) or {}, towards).values()]
            if any(normalize_id(n) == wanted for n in names):
                return direction
    return None


REFUSALS = {"direction": "no_exit", "place": "not_adjacent", "item": "not_carried", "item_here": "not_here"}


def arg_kind(spec: dict) -> str | None:
    """The kind of an action's argument when it is one of this block's."""
    arg = spec.get("arg")
    kind = word(arg if isinstance(arg, str) or arg is None else arg.get("type"))
    return kind if kind in P.ARG_KINDS else None


def normalized(data: dict, spec: dict, arg, state: dict, handle: str):
    """An action's argument as the turn plays it: the id it names where the actor stands."""
    kind = arg_kind(spec)
    if kind is None or arg is None:
        return arg
    return match(data, kind, arg, state, handle) or arg


def shown(data: dict, spec: dict, arg):
    """An argument as a post shows it: a place's or an item's name (both languages), a direction as written."""
    kind = arg_kind(spec)
    section = {"place": "places", "item": "items", "item_here": "items"}.get(kind)
    if section is None or arg not in (data.get(section) or {}):
        return arg
    return R.name_of(data[section][arg], arg)


def check_arg(rs, kind: str, value, state: dict, handle: str, place: str | None, at, problems) -> str | None:
    """An argument of this block checked where `handle` stands (`place`, as the
    orders before it leave them): its id, or None with a refusal naming what
    would be valid."""
    data = rs.program.data
    found = match(data, kind, value, state, handle, place)
    where = state["characters"][handle]["place"] if place is None else place
    if found is None:
        problems.add(REFUSALS[kind], at, value=value, valid=open_options(rs, kind, state, handle, where))
        return None
    if kind in ("direction", "place"):
        way = found if kind == "direction" else next(d for d, t in adjacent(data, where).items() if t == found)
        reason = blocked(rs, state, handle, where, way)
        if reason is not None:
            problems.add(reason[0], at, value=value, **reason[1], valid=open_options(rs, kind, state, handle, where))
            return None
    return found


def open_options(rs, kind: str, state: dict, handle: str, where: str) -> list[str]:
    """The options of an argument that would pass now: for a way, the exits not blocked."""
    data = rs.program.data
    found = options(data, kind, state, handle, where)
    if kind not in ("direction", "place"):
        return found
    ways = adjacent(data, where)
    return [o for o in found if blocked(rs, state, handle, where, o if kind == "direction" else
                                        next(d for d, t in ways.items() if t == o)) is None]


def blocked(rs, state: dict, handle: str, where: str, way: str):
    """Why `handle` cannot leave `where` by `way` now ((refusal key, params)), else None."""
    data = rs.program.data
    towards = adjacent(data, where)[way]
    capacity = ((data.get("places") or {}).get(towards) or {}).get("capacity")
    if capacity is not None and len([h for h in here(state, towards) if h != handle]) >= capacity:
        return "place_full", {"place": ByLang(**R.name_of(data["places"][towards], towards)), "capacity": capacity}
    door = P.exits(data["places"][where])[way].get("door")
    if door is None:
        return None
    spec, door_state = data["doors"][door], state["doors"][door_key(where, towards)]
    name = ByLang(**R.name_of(spec, door))
    if door_state == "locked" and spec.get("key") not in state["characters"][handle]["items"]:
        return "door_locked", {"door": name}
    formula = rs.program.door_rules.get(door)
    if door_state != "open" and formula is not None:
        values = R.env(formula.names_used, state, data, handle, None, None, {})
        if not formula.evaluate(values):
            return "door_refused", {"door": name, "reason": ByLang(**R.words(spec.get("message"), formula.source))}
    return None


def project(rs, action_id: str, arg, state: dict, handle: str, place: str) -> str | None:
    """Where `handle` stands after this action, as far as the orders' check can
    tell (a move by a fixed number of steps): the place, or None when unknown (a
    move by a roll) — the actions after it are then checked at the turn."""
    moves = [e for e in rs.program.actions.get(action_id, ()) if e.verb == "move"]
    if not moves:
        return place
    steps = moves[0].formulas["move"]
    if steps.dice_terms or steps.names_used:
        return None
    data = rs.program.data
    for _ in range(min(int(steps.evaluate({})), MOST_STEPS)):
        ways = adjacent(data, place)
        if arg in ways:
            place = ways[arg]
        elif arg in ways.values():
            return arg
        else:
            break
    return place


# -- the turn's effects (methods of resolve.Turn) ----------------------------------------

def do_move(turn, effect, scope) -> None:
    steps = max(0, min(int(turn.evaluate(effect.formulas["move"], scope, effect.to)), MOST_STEPS))
    for handle in turn.who(effect, scope):
        for _ in range(steps):
            if not R.in_play(turn.state, handle) or not _step(turn, handle, scope):
                break


def _step(turn, handle: str, scope) -> bool:
    """One step of `handle` the way the action's argument says: False when it stops."""
    data, state = turn.data, turn.state
    where = state["characters"][handle]["place"]
    if where == scope.arg:
        return False  # a move to a place: arrived
    way = match(data, "direction", scope.arg, state, handle)
    if way is None:
        turn.emit(ev._players((handle,)), "blocked", who=handle, way=scope.arg, reason="no_exit",
                  valid=list(adjacent(data, where)))
        return False
    reason = blocked(turn.rs, state, handle, where, way)
    if reason is not None:
        turn.emit(ev._players((handle,)), "blocked", who=handle, way=way, reason=reason[0],
                  valid=[d for d in adjacent(data, where) if blocked(turn.rs, state, handle, where, d) is None])
        return False
    towards = adjacent(data, where)[way]
    opened = _cross_door(turn, handle, where, way, towards, type(scope))
    witnesses = here(state, where) + here(state, towards)
    state["characters"][handle]["place"] = towards
    turn.emit(_move_audience(data, handle, witnesses), "move", who=handle, way=way,
              start=R.name_of(data["places"][where], where), end=R.name_of(data["places"][towards], towards),
              door=opened)
    return towards != scope.arg


def _cross_door(turn, handle: str, where: str, way: str, towards: str, scope_of):
    """The door on the way, opened if it is not (its price paid): its name, or None."""
    data, state = turn.data, turn.state
    door = P.exits(data["places"][where])[way].get("door")
    if door is None:
        return None
    key = door_key(where, towards)
    spec = data["doors"][door]
    if state["doors"][key] == "open":
        return None
    # the price is paid by the mover, its dice labelled by the door (`<handle>.<door>...`)
    turn.run(turn.program.door_effects[door], scope_of(handle, None, None, f"{handle}.{door}"))
    state["doors"][key] = "closed" if spec.get("closes") else "open"
    return R.name_of(spec, door)


def _move_audience(data: dict, handle: str, witnesses: list[str]):
    seen_by = P.seen_by(data)
    if seen_by == "public":
        return ev.PUBLIC
    if seen_by == "gm":
        return ev.GM
    if seen_by == "actor":
        return ev._players((handle,))
    return ev._players(tuple(dict.fromkeys([handle, *witnesses])))


def _item(turn, effect, scope) -> str | None:
    if "item" not in effect.formulas:
        return effect.value
    found = turn.evaluate(effect.formulas["item"], scope, effect.to)
    found = match(turn.data, "item", found, turn.state, scope.actor) if found not in (turn.data.get("items") or {}) \
        else found
    return found or None


def _told(turn, handle: str, item: str, how: str) -> None:
    data = turn.data
    seen_by = R.visibility((data.get("inventory") or {}).get("visibility") or "owner")
    turn.emit(R.audience(seen_by, handle), "item", who=handle, how=how,
              name=R.name_of((data.get("items") or {}).get(item) or {}, item))


def _carry(turn, handle: str, item: str, how: str) -> None:
    """`item` into the inventory, or onto the floor when the inventory is full."""
    me = turn.state["characters"][handle]
    limit = (turn.data.get("inventory") or {}).get("max")
    if limit is not None and len(me["items"]) >= limit:
        turn.state["floor"].setdefault(me["place"], []).append(item)
        _told(turn, handle, item, "full")
        return
    me["items"].append(item)
    _told(turn, handle, item, how)


def do_gain(turn, effect, scope) -> None:
    item = _item(turn, effect, scope)
    if item is not None:
        for handle in turn.who(effect, scope):
            _carry(turn, handle, item, "gain")


def do_lose(turn, effect, scope) -> None:
    item = _item(turn, effect, scope)
    for handle in turn.who(effect, scope):
        items = turn.state["characters"][handle]["items"]
        if item in items:
            items.remove(item)
            _told(turn, handle, item, "lose")


def do_drop(turn, effect, scope) -> None:
    item = _item(turn, effect, scope)
    for handle in turn.who(effect, scope):
        me = turn.state["characters"][handle]
        if item in me["items"]:
            me["items"].remove(item)
            turn.state["floor"].setdefault(me["place"], []).append(item)
            _told(turn, handle, item, "drop")


def do_pick_up(turn, effect, scope) -> None:
    item = _item(turn, effect, scope)
    for handle in turn.who(effect, scope):
        floor = turn.state["floor"].get(turn.state["characters"][handle]["place"], [])
        if item in floor:
            floor.remove(item)
            _carry(turn, handle, item, "pick_up")


def do_use(turn, effect, scope) -> None:
    item = _item(turn, effect, scope)
    me = turn.state["characters"][scope.actor]
    if item not in me["items"]:
        return
    limit = turn.rs.rules["limits"]["threshold_chain"]
    if scope.depth >= limit:  # an item whose effects use an item whose effects use...
        raise PbpError("data.use_chain", item=item, limit=limit)
    _told(turn, scope.actor, item, "use")
    turn.run(turn.program.item_effects.get(item, ()), type(scope)(scope.actor, scope.target, scope.arg,
                                                          f"{scope.label}.{item}", scope.depth + 1))
    if (turn.data["items"][item] or {}).get("consumed") and item in me["items"]:
        me["items"].remove(item)


def do_find(turn, effect, scope) -> None:
    for handle in turn.who(effect, scope):
        hidden = turn.state["hidden"].get(turn.state["characters"][handle]["place"])
        while hidden:
            _carry(turn, handle, hidden.pop(0), "find")


# -- what readers see ------------------------------------------------------------------------

def sheet_rows(data: dict, state: dict, handle: str) -> list[dict]:
    """A character's place and items as their sheet lists them (the rules have them)."""
    me = state["characters"][handle]
    if "place" not in me:
        return []
    place_seen = ["public"] if P.seen_by(data) == "public" else ["owner"]
    # a sheet's value is one text: place and item names in the rules' first language
    items = ", ".join(R.name_of((data.get("items") or {}).get(i) or {}, i)["fr"] for i in me["items"]) or "-"
    rows = [{"id": "place", "name": {"fr": "Lieu", "en": "Place"},
             "value": R.name_of((data.get("places") or {}).get(me["place"]) or {}, me["place"])["fr"],
             "visibility": place_seen}]
    if data.get("items"):
        rows.append({"id": "items", "name": {"fr": "Objets", "en": "Items"}, "value": items, "visibility": list(R.visibility((data.get("inventory") or {}).get("visibility")
                                                                 or "owner"))})
    return rows


def secret_values(data: dict, state: dict) -> set[str]:
    """The sheet lines of places and items no public post may show."""
    found = set()
    for handle in state["characters"]:
        for row in sheet_rows(data, state, handle):
            if "public" not in row["visibility"] and row["value"] != "-":
                found.update(f"{name} {row['value']}" for name in row["name"].values())
    return found


def form_hints(rs, state: dict, handle: str) -> dict:
    """What the player's order form lists: the exits open to them now (each with
    the place it leads to) and the items they carry. Empty without places."""
    me = state["characters"].get(handle)
    if me is None or "place" not in me:
        return {}
    data = rs.program.data
    ways = adjacent(data, me["place"])
    exits_open = [{"way": d, "to": R.name_of(data["places"][ways[d]], ways[d])}
                  for d in open_options(rs, "direction", state, handle, me["place"])]
    carried = [R.name_of((data.get("items") or {}).get(i) or {}, i) for i in me["items"]]
    return {"exits": exits_open, "carried": carried}


def import_names(rs, state: dict, handle: str) -> dict:
    """What `pbp orders import` may read for an argument of this block, by action:
    the exits of the player's place (by their word), the places next to it, the items they carry or that lie here; only
    what their own position lets them name (the same options a refusal lists)."""
    from pbp.model.vocabulary import Entry

    data = rs.program.data
    me = state["characters"].get(handle)
    if not P.used(data) or not isinstance(me, dict) or me.get("place") not in (data.get("places") or {}):
        return {}
    out = {}
    for action_id, spec in data["actions"].items():
        kind = arg_kind(spec)
        if kind is None:
            continue
        entries = []
        for option in options(data, kind, state, handle):
            if kind == "direction":  # its word alone: a place's name may hold another exit's word ("couloir ouest")
                spellings = [option]
            else:
                section = "places" if kind == "place" else "items"
                spellings = [option, *R.name_of((data.get(section) or {}).get(option) or {}, option).values()]
            entries.append(Entry(option, tuple(dict.fromkeys(s.replace("_", " ") for s in spellings))))
        out[action_id] = entries
    return out


def state_problems(data: dict, state: dict, roster=()) -> list:
    """A state.yaml the MJ edited by hand, against the rules' map: each character's
    place a place of the rules, their items and the floors' items items of the
    rules, each door's state open, closed or locked."""
    if not P.used(data):
        return []
    places, items = data.get("places") or {}, data.get("items") or {}
    errors = []
    characters = state.get("characters") if isinstance(state.get("characters"), dict) else {}
    for handle in roster:
        if handle not in characters:  # the engine reads every player's place
            errors.append(PbpError("data.state_missing_character", file="state.yaml", at=("characters",),
                                   handle=handle))
    for handle, me in characters.items():
        if not isinstance(me, dict):
            continue
        if not isinstance(me.get("place"), str) or me.get("place") not in places:
            errors.append(PbpError("data.state_unknown_place", file="state.yaml", at=("characters", handle, "place"),
                                   value=me.get("place"), valid=list(places)))
        if not isinstance(me.get("items"), list):
            errors.append(PbpError("data.state_items_shape", file="state.yaml",
                                   at=("characters", handle, "items") if "items" in me else ("characters", handle),
                                   handle=handle, value="null" if me.get("items") is None else me.get("items")))
        for i, item in enumerate(me.get("items") if isinstance(me.get("items"), list) else []):
            if not isinstance(item, str) or item not in items:
                errors.append(PbpError("data.state_unknown_item", file="state.yaml",
                                       at=("characters", handle, "items", i), value=item, valid=list(items)))
    return errors + _map_problems(data, state, items)


def _map_problems(data: dict, state: dict, items: dict) -> list:
    """The map's own keys of a state.yaml: `doors` (every door of the rules, each
    open, closed or locked), `floor` and `hidden` (place -> items of the rules)."""
    errors = []
    for key in ("doors", "floor", "hidden"):
        if not isinstance(state.get(key), dict):
            errors.append(PbpError("data.state_map_shape", file="state.yaml", at=(key,) if key in state else (),
                                   key=key, value="null" if state.get(key) is None else state.get(key)))
    doors = state.get("doors") if isinstance(state.get("doors"), dict) else {}
    for key, door in doors.items():
        if not isinstance(door, str) or door not in ("open", "closed", "locked"):
            errors.append(PbpError("data.state_door", file="state.yaml", at=("doors", key), value=door,
                                   valid=["open", "closed", "locked"]))
    if isinstance(state.get("doors"), dict):
        for key in _doors(data):
            if key not in doors:
                errors.append(PbpError("data.state_missing_door", file="state.yaml", at=("doors",), door=key))
    for section in ("floor", "hidden"):
        held = state.get(section) if isinstance(state.get(section), dict) else {}
        for place, found in held.items():
            for i, item in enumerate(found if isinstance(found, list) else [found]):
                if not isinstance(item, str) or item not in items:
                    at = (section, place, i) if isinstance(found, list) else (section, place)
                    errors.append(PbpError("data.state_unknown_item", file="state.yaml", at=at, value=item,
                                           valid=list(items)))
    return errors
