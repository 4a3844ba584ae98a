"""Places, movement and items in a rules file, as the compiler and the lint see
them: the names formulas may read (`place`, `item.<id>`, `in_sight`...), the
effects that move characters and items (`move`, `gain`, `lose`, `drop`,
`pick_up`, `use`, `find`), the effect lists the file holds beside the actions'
(a door's `open`, an item's `effects`), and what `pbp rules check` says about
the map (an exit to an unknown place, a place nobody can reach, an item no rule
gives). The engine's side is pbp/rulesets/data/places.py; the MJ's reference is
docs/rules-format.md ("Lieux, portes et objets").

    places:   {S01: {name, capacity, items, hidden, exits: {nord: S05 | {towards, door, state}}}}
    doors:    {porte: {name, state, key, if, message, open: [effects], closes}}
    items:    {corde: {name, consumed, effects: [effects]}}
    inventory: {max, start, visibility}
    movement: {start, visibility: witnesses|public|actor|gm, sight: place|adjacent}
"""

from __future__ import annotations

from pbp.base.i18n import by_lang

#: the effects of this block, in the order VERBS lists them (format.py appends them)
VERBS = ("move", "gain", "lose", "drop", "pick_up", "use", "find")
VERBS_FR = ("aller", "gagner", "perdre", "lacher", "ramasser", "utiliser", "decouvrir")
#: the French spellings of the names formulas read here (program.canonical_name)
PLAIN = {"lieu": "place", "en_vue": "in_sight", "objets": "items", "nb_objets": "item_count"}
PREFIXES = {"objet": "item", "ici": "here"}
#: door states, as the MJ may write them
STATES = {"ouverte": "open", "fermee": "closed", "verrouillee": "locked"}
#: who sees a move, as the MJ may write it
SEEN_BY = {"temoins": "witnesses", "acteur": "actor", "mj": "gm"}
#: the argument kinds this block adds: what the player names and what a refusal lists
ARG_KINDS = ("place", "direction", "item", "item_here")


def used(data: dict) -> bool:
    """Whether the rules have places or items (a state then keeps them)."""
    return bool(data.get("places") or data.get("items"))


def exits(place: dict) -> dict[str, dict]:
    """A place's exits, each as {towards, door, state} (a bare `nord: S05` has no door)."""
    out = {}
    for direction, spec in (place.get("exits") or {}).items():
        out[direction] = {"towards": spec} if isinstance(spec, str) else dict(spec)
    return out


def state_word(value) -> str | None:
    return STATES.get(value, value) if value is not None else None


def seen_by(data: dict) -> str:
    value = (data.get("movement") or {}).get("visibility", "witnesses")
    return SEEN_BY.get(value, value)


def names(data: dict) -> dict[str, str]:
    """The names a formula may read about the acting character's place and items
    (and, where there is a target, the target's)."""
    if not used(data):
        return {}
    out = {"place": "text", "in_sight": "number", "items": "list", "item_count": "number"}
    for item_id in data.get("items") or {}:
        out[f"item.{item_id}"] = "bool"
        out[f"here.{item_id}"] = "bool"
    return out


def target_names(data: dict) -> dict[str, str]:
    if not used(data):
        return {}
    out = {"target.place": "text", "target.in_sight": "bool", "target.item_count": "number"}
    for item_id in data.get("items") or {}:
        out[f"target.item.{item_id}"] = "bool"
    return out


# -- what formulas read (the engine's state, pbp/rulesets/data/places.py) -------------------

def reads(key: str) -> bool:
    head = key[7:] if key.startswith("target.") else key
    return head in ("place", "in_sight", "items", "item_count") or head.startswith(("item.", "here."))


def value(key: str, state: dict, data: dict, actor: str | None, target: str | None):
    if key.startswith("target."):
        if key == "target.in_sight":
            return bool(actor and target and in_sight(state, data, actor, target))
        return value(key[7:], state, data, target, None)
    me = state["characters"].get(actor) if actor else None
    if me is None or "place" not in me:
        return {"place": "", "items": []}.get(key, False if key.startswith(("item.", "here.")) else 0)
    if key == "place":
        return me["place"]
    if key == "items":
        return list(me["items"])
    if key == "item_count":
        return len(me["items"])
    if key == "in_sight":
        return len(seen(state, data, actor))
    if key.startswith("item."):
        return key[5:] in me["items"]
    return key[5:] in state["floor"].get(me["place"], [])


def adjacent(data: dict, place: str) -> dict[str, str]:
    """{direction word: the place it leads to} of a place's exits."""
    return {d: way["towards"] for d, way in exits((data.get("places") or {}).get(place) or {}).items()}


def in_sight(state: dict, data: dict, a: str, b: str) -> bool:
    """`b` is in sight of `a`: both in play, in the same place, or (movement.sight:
    adjacent) in a place an exit of a's leads to."""
    if not (_in_play(state, a) and _in_play(state, b)):
        return False
    here, there = state["characters"][a]["place"], state["characters"][b]["place"]
    if here == there:
        return True
    sight = (data.get("movement") or {}).get("sight", "place")
    return sight in ("adjacent", "voisins") and there in adjacent(data, here).values()


def seen(state: dict, data: dict, handle: str) -> list[str]:
    return [h for h in state["characters"] if h != handle and in_sight(state, data, handle, h)]


def here(state: dict, place: str) -> list[str]:
    """The characters in play in a place, in roster order."""
    return [h for h, me in state["characters"].items() if not me["out"] and me.get("place") == place]


def _in_play(state: dict, handle: str) -> bool:
    me = state["characters"].get(handle)
    return me is not None and not me["out"]


def effect_lists(data: dict):
    """(path, list) of the effect lists this block adds: doors' `open`, items' `effects`."""
    for door_id, door in (data.get("doors") or {}).items():
        if isinstance(door.get("open"), list):
            yield ("doors", door_id, "open"), door["open"]
    for item_id, item in (data.get("items") or {}).items():
        if isinstance(item.get("effects"), list):
            yield ("items", item_id, "effects"), item["effects"]


def compile_parts(compiler) -> None:
    """The formulas and effects of doors and items, compiled where they stand
    (program.Program.door_rules, .door_effects, .item_effects), and every name
    the map refers to checked."""
    data, program = compiler.data, compiler.program
    for door_id, door in (data.get("doors") or {}).items():
        base = ("doors", door_id)
        scope = compiler.scope({})
        if door.get("if") is not None:
            program.door_rules[door_id] = compiler.formula(door["if"], base + ("if",), scope, "bool")
        if door.get("key") is not None:
            compiler.ref(door["key"], "items", base + ("key",))
        program.door_effects[door_id] = compiler.effects(door.get("open") or [], base + ("open",), dict(scope))
    for item_id, item in (data.get("items") or {}).items():
        path = ("items", item_id, "effects")
        program.item_effects[item_id] = compiler.effects(item.get("effects") or [], path, compiler.scope({}))
    _check_map(compiler, data)


def _check_map(compiler, data: dict) -> None:
    """Every place, door and item the map, the inventory and the start name exists."""
    for place_id, place in (data.get("places") or {}).items():
        for key in ("items", "hidden"):
            for i, item in enumerate(place.get(key) or []):
                compiler.ref(item, "items", ("places", place_id, key, i))
        for direction, spec in exits(place).items():
            at = ("places", place_id, "exits", direction)
            compiler.ref(spec["towards"], "places", at if isinstance(place["exits"][direction], str)
                         else at + ("towards",))
            if spec.get("door") is not None:
                compiler.ref(spec["door"], "doors", at + ("door",))
    for i, item in enumerate((data.get("inventory") or {}).get("start") or []):
        compiler.ref(item, "items", ("inventory", "start", i))
    start = (data.get("movement") or {}).get("start")
    if start is not None:
        compiler.ref(start, "places", ("movement", "start"))


def compile_effect(compiler, verb: str, value, path: tuple, scope: dict, formulas: dict):
    """One effect of this block: `move: <steps>` (a number formula, dice allowed),
    `gain`/`lose`/`drop`/`pick_up`/`use: <item>` (an item's id, or a text formula
    naming one: `arg`, `fouille.objet`), `find: true`."""
    if verb == "move":
        formulas["move"] = compiler.formula(value if value is not True else 1, path + (verb,), scope, "number")
        if "arg" not in scope:
            compiler.errors.append(compiler.rules.error("rules_move_without_way", path + (verb,)))
        return value
    if verb == "find":
        return value
    if isinstance(value, str) and value in (compiler.data.get("items") or {}):
        return value
    formulas["item"] = compiler.formula(value, path + (verb,), scope, "text")
    return value


def arg_kind_names(kind: str) -> dict[str, str]:
    """The kind of `arg` for this block's argument kinds (all name a thing by its id)."""
    return {"arg": "text"} if kind in ARG_KINDS else {}


# -- lints (`pbp rules check`) ---------------------------------------------------------

def warnings(rules) -> list:
    """A place no exit leads to and where nobody starts; an item no rule gives
    (not on a floor, not hidden, not in a starting inventory, not gained)."""
    data = rules.data
    places = data.get("places") or {}
    errors = []
    reached = {spec["towards"] for place in places.values() for spec in exits(place).values()}
    starts = {(data.get("movement") or {}).get("start")}
    for place_id in places:
        if place_id not in reached and place_id not in starts and len(places) > 1:
            errors.append(rules.error("rules_warning_unreachable_place", ("places", place_id), place=place_id))
    given = set((data.get("inventory") or {}).get("start") or [])
    for place in places.values():
        given.update(place.get("items") or [])
        given.update(place.get("hidden") or [])
    given.update(_gained(data))
    for item_id in data.get("items") or {}:
        if item_id not in given and not _any_gain_formula(data):
            errors.append(rules.error("rules_warning_item_never_given", ("items", item_id), item=item_id))
    return errors


def _walk(effects):
    for effect in effects or []:
        if isinstance(effect, dict):
            yield effect
            yield from _walk(effect.get("then"))
            yield from _walk(effect.get("else"))


def _all_effects(data: dict):
    """Every effect of the rules, nested ones too (format.effect_lists' lists, read here
    without importing format, which imports this module)."""
    lists = [a.get("effects") for a in (data.get("actions") or {}).values()]
    lists += [t.get("effects") for g in (data.get("gauges") or {}).values() for t in g.get("thresholds") or []]
    lists += [effects for _, effects in effect_lists(data)]
    for effects in lists:
        yield from _walk(effects)


def _gained(data: dict) -> set:
    """Items a `gain` effect names by id, and items a table's rows name (a table
    rolled and gained: `gain: fouille.objet`)."""
    found = {e["gain"] for e in _all_effects(data) if isinstance(e.get("gain"), str)}
    items = data.get("items") or {}
    for table in (data.get("tables") or {}).values():
        for row in table.get("rows") or []:
            found.update(v for k, v in row.items() if isinstance(v, str) and v in items and k != "table")
    return found


def _any_gain_formula(data: dict) -> bool:
    """A `gain` whose item comes from the player's argument (`gain: arg`): any item may come."""
    return any(e.get("gain") in ("arg", "argument") for e in _all_effects(data))



# -- `pbp rules explain` -------------------------------------------------------------------

#: how this block's effects read (explain.SAYS), in each language
SAYS = {
    "move": ("avancer de {value} pas (par l'argument)", "move {value} step(s) (the argument's way)"),
    "gain": ("reçoit l'objet {value}", "gets the item {value}"),
    "lose": ("perd l'objet {value}", "loses the item {value}"),
    "drop": ("pose au sol l'objet {value}", "drops the item {value}"),
    "pick_up": ("ramasse l'objet {value}", "picks up the item {value}"),
    "use": ("utilise l'objet {value}", "uses the item {value}"),
    "find": ("découvre ce qui est caché ici", "finds what is hidden here"),
}
WORDS = by_lang({
    "places": ("Lieux", "Places"),
    "doors": ("Portes", "Doors"),
    "items": ("Objets", "Items"),
    "capacity": ("capacité {value}", "capacity {value}"),
    "floor": ("au sol : {value}", "on the floor: {value}"),
    "hidden": ("caché : {value}", "hidden: {value}"),
    "start": ("départ de tous : {value}", "everyone starts in {value}"),
    "seen": ("un déplacement est vu par : {value}", "a move is seen by: {value}"),
    "sight": ("en vue : {value}", "in sight: {value}"),
    "door_state": ("{state} au départ", "{state} at the start"),
    "key": ("clé : {value}", "key: {value}"),
    "if": ("s'ouvre si {value}", "opens if {value}"),
    "open": ("en l'ouvrant", "opening it"),
    "closes": ("se referme derrière", "closes behind"),
    "consumed": ("usage unique", "used up"),
    "use": ("utilisé", "used"),
    "inventory": ("au plus {value} objets portés", "at most {value} items carried"),
    "carried": ("porté au départ : {value}", "carried at the start: {value}"),
    "states": ({"open": "état ouvert", "closed": "état fermé", "locked": "état verrouillé"},
               {"open": "open", "closed": "closed", "locked": "locked"}),
    "seen_by": ({"witnesses": "celui qui bouge et les personnages des deux lieux", "public": "tous",
                 "actor": "celui qui bouge", "gm": "le MJ seul"},
                {"witnesses": "the mover and the characters of both places", "public": "everyone",
                 "actor": "the mover", "gm": "the GM alone"}),
    "sights": ({"place": "le même lieu", "adjacent": "le même lieu et les lieux voisins"},
               {"place": "the same place", "adjacent": "the same place and the neighbouring ones"}),
})


def explain(data: dict, lang: str, add, effects_of) -> None:
    """This block's sections of `pbp rules explain`: the map (each place, its exits
    with their doors), the doors and what opening them costs, the items and what
    using them does. `add(title, lines)` as explain.sections has it; `effects_of`
    renders an effect list in `lang`."""
    if not used(data):
        return
    w = WORDS[lang]
    add(w["places"], [(_place_line(data, ident, place, w, lang), _exit_lines(data, place, w, lang))
                      for ident, place in (data.get("places") or {}).items()] + _movement_lines(data, w))
    add(w["doors"], [(_door_line(ident, door, w, lang), [(w["open"], effects_of(door["open"]))]
                      if door.get("open") else []) for ident, door in (data.get("doors") or {}).items()])
    add(w["items"], [(_name(item, ident, lang) + f" ({ident})" + (f" — {w['consumed']}" if item.get("consumed")
                                                                  else ""),
                      [(w["use"], effects_of(item["effects"]))] if item.get("effects") else [])
                     for ident, item in (data.get("items") or {}).items()] + _inventory_lines(data, w))


def _name(spec: dict, ident: str, lang: str) -> str:
    value = spec.get("name")
    if isinstance(value, dict):
        return str(value.get(lang, value.get("fr", value.get("en", ident))))
    return ident if value is None else str(value)


def _place_line(data, ident, place, w, lang) -> str:
    parts = [f"{_name(place, ident, lang)} ({ident})"]
    if place.get("capacity") is not None:
        parts.append(w["capacity"].format(value=place["capacity"]))
    items = data.get("items") or {}
    for key in ("items", "hidden"):
        if place.get(key):
            parts.append(w["floor" if key == "items" else key].format(
                value=", ".join(_name(items.get(i) or {}, i, lang) for i in place[key])))
    return " — ".join(parts)


def _exit_lines(data, place, w, lang) -> list[str]:
    out = []
    for direction, way in exits(place).items():
        towards = way["towards"]
        line = f"{direction} → {_name((data.get('places') or {}).get(towards) or {}, towards, lang)} ({towards})"
        if way.get("door") is not None:
            door = (data.get("doors") or {}).get(way["door"]) or {}
            state = state_word(way.get("state")) or state_word(door.get("state", "closed"))
            line += f", {_name(door, way['door'], lang)}, {w['states'].get(state, state)}"
        out.append(line)
    return out


def _movement_lines(data, w) -> list[str]:
    movement = data.get("movement") or {}
    lines = [w["seen"].format(value=w["seen_by"].get(seen_by(data), seen_by(data)))]
    sight = {"lieu": "place", "voisins": "adjacent"}.get(movement.get("sight", "place"), movement.get("sight", "place"))
    lines.append(w["sight"].format(value=w["sights"].get(sight, sight)))
    if movement.get("start"):
        lines.append(w["start"].format(value=movement["start"]))
    return lines


def _door_line(ident, door, w, lang) -> str:
    state = state_word(door.get("state", "closed"))
    parts = [f"{_name(door, ident, lang)} ({ident})", w["door_state"].format(state=w["states"].get(state, state))]
    if door.get("key"):
        parts.append(w["key"].format(value=door["key"]))
    if door.get("if") is not None:
        parts.append(w["if"].format(value=door["if"]))
    if door.get("closes"):
        parts.append(w["closes"])
    return " — ".join(parts)


def _inventory_lines(data, w) -> list[str]:
    inventory = data.get("inventory") or {}
    lines = []
    if inventory.get("max") is not None:
        lines.append(w["inventory"].format(value=inventory["max"]))
    if inventory.get("start"):
        lines.append(w["carried"].format(value=", ".join(inventory["start"])))
    return lines
