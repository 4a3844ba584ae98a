"""What the murder rules refuse, before anything is resolved: a player's orders
against the state (`check_orders`), the MJ's orders (`check_gm`), and the MJ's
files beyond what schema.yaml says (`validate_scenario`, `validate_state`);
and what a player's blank order form lists (`order_context`).

Every refusal is a `Refusal` at the path of the offending value (the core puts
it on its line) with what would be valid; every file problem an InputError
with its `at`. Pure: no I/O, no printing.
"""

from __future__ import annotations

from pbp.base.errors import InputError, PbpError
from pbp.base.i18n import closest
from pbp.base.record import Record
from pbp.model.orders import Action, normalize_id
from pbp.model.ruleset import Refusals
from pbp.rulesets.murder.board import Board, board_of
from pbp.rulesets.murder.rules import (ALIVE, DEAD, GENRES, INNOCENT, INVESTIGATOR, MAJORITIES, MURDERER,
                                       PRISON, ROLE_SCORES, TEXT_FIELDS, VOTE_COUNTS, accusation_day, destinations,
                                       living, movement_dice, next_accusation, occupants, own_genres, suspects)
from pbp.model.schema import Index, show_path

#: what each kind of ghost may do (any other action of the dead is refused)
GHOST_ACTIONS = {INNOCENT: "hanter", MURDERER: "posseder"}


def _err(key: str, file: str, /, **params) -> PbpError:
    return InputError(f"murder.{key}", file=file, **params)


# -- a player's orders -------------------------------------------------------------------------

class _Player(Record):
    """One player's order check: who they are and what the board looks like now."""

    __slots__ = ("rules", "state", "scenario", "board", "handle", "p")

    def __init__(self, rules: dict, state: dict, scenario: object, board: Board, handle: str, p: dict):
        self.rules = rules
        self.state = state
        self.scenario = scenario
        self.board = board
        self.handle = handle
        self.p = p

    def name(self, handle) -> str:
        return self.scenario.name(handle)

    def destinations(self) -> list[str]:
        return [self.board.label(r) for r in destinations(self.rules, self.state, self.board, self.handle)]

    def room(self, text, at, out: Refusals) -> str | None:
        """The room a player named, or None (refused: unknown room)."""
        room = self.board.lookup(text)
        if room is None:
            # compared as the lookup compares (case and accents aside): `salle b` means Salle B
            names = {normalize_id(name): name for name in self.board.labels()}
            out.add("unknown_room", at, value=text, valid=self.board.labels(),
                    suggestion=names.get(closest(normalize_id(text), names)))
        return room

    def required_room(self, action: Action, out: Refusals) -> str | None:
        """The `salle` field of a ghost's action, or None (refused)."""
        text = action.arg.get("salle")
        if text is None:
            out.add("room_missing", action.at, action=action.id, valid=self.board.labels())
            return None
        return self.room(text, action.at + ("salle",), out)


def check_orders(rules: dict, state: dict, scenario, orders) -> Refusals:
    """Each action at most once, each legal for the player's status, role and
    room at check time; a player who must leave names a move."""
    out = Refusals()
    p = state["players"].get(orders.player)
    if p is None:
        return out
    who = _Player(rules, state, scenario, board_of(scenario), orders.player, p)
    seen: set[str] = set()
    for action in orders.actions:
        if action.id in seen:
            out.add("duplicate_action", action.at, action=action.id)
            continue
        seen.add(action.id)
        _check_action(who, action, out)
    if "rester" in seen and "deplacer" in seen:
        out.add("stay_and_move", next(a.at for a in orders.actions if a.id == "rester"))
    if p["status"] == ALIVE and not orders.default and p["turns_here"] >= rules["max_stay"] and "deplacer" not in seen:
        out.add("stayed_too_long", ("actions",), room=who.board.label(p["room"]), turns=p["turns_here"],
                max=rules["max_stay"], valid=who.destinations())
    return out


def closed_actions(state: dict, player: str, actions: set[str]) -> set[str]:
    """What `_check_action` refuses for the player's status alone: a prisoner acts not,
    the dead only haunt or possess (by role), the living never do."""
    p = state["players"].get(player)
    if p is None or p["status"] == PRISON or state.get("over"):
        return set(actions)
    if p["status"] == DEAD:
        return actions - {GHOST_ACTIONS.get(p["role"])}
    return actions & set(GHOST_ACTIONS.values())


def _check_action(who: _Player, action: Action, out: Refusals) -> None:
    p = who.p
    if p["status"] == PRISON:
        out.add("in_prison", action.at, action=action.id)
        return
    if p["status"] == DEAD:
        allowed = GHOST_ACTIONS.get(p["role"])
        if action.id != allowed:
            out.add("dead_action", action.at, action=action.id, valid=[allowed] if allowed else [])
            return
    elif action.id in GHOST_ACTIONS.values():
        out.add("not_a_ghost", action.at, action=action.id)
        return
    check = _ACTIONS.get(action.id)
    if check is not None:
        check(who, action, out)


def _move(who: _Player, action: Action, out: Refusals) -> None:
    room = who.room(action.arg, action.at, out)
    if room is None:
        return
    if room == who.p["room"]:
        out.add("already_there", action.at, room=who.board.label(room), valid=who.destinations())
        return
    here = occupants(who.state, room, who.handle)
    limit = who.rules["witness_room_limit"]
    if who.p["role"] != INVESTIGATOR and len(here) > limit:
        out.add("room_full", action.at, room=who.board.label(room), count=len(here), max=limit,
                valid=who.destinations())


def _trap(who: _Player, action: Action, out: Refusals) -> None:
    p = who.p
    if p["role"] != MURDERER:
        out.add("not_murderer", action.at)
        return
    others = occupants(who.state, p["room"], who.handle)
    if others:
        out.add("trap_not_alone", action.at, room=who.board.label(p["room"]), others=[who.name(h) for h in others])
    elif p["room"] in who.state["traps"]:
        out.add("already_trapped", action.at, room=who.board.label(p["room"]))


def _interrogate(who: _Player, action: Action, out: Refusals) -> None:
    p, players, arg = who.p, who.state["players"], action.arg
    if p["role"] != INVESTIGATOR:
        out.add("not_investigator", action.at, action=action.id)
        return
    valid = [who.name(h) for h in occupants(who.state, p["room"], who.handle) if players[h]["role"] != INVESTIGATOR]
    target = players.get(arg)
    if arg == who.handle:
        out.add("interrogate_self", action.at, valid=valid)
    elif target is None or target["status"] != ALIVE:
        out.add("target_not_on_board", action.at, player=who.name(arg), valid=valid)
    elif target["role"] == INVESTIGATOR:
        out.add("interrogate_investigator", action.at, player=who.name(arg), valid=valid)
    elif target["room"] != p["room"]:
        out.add("interrogate_other_room", action.at, player=who.name(arg), their_room=who.board.label(target["room"]),
                room=who.board.label(p["room"]), valid=valid)


def _accuse(who: _Player, action: Action, out: Refusals) -> None:
    rules, players, arg = who.rules, who.state["players"], action.arg
    turn = who.state["turn"] + 1
    if who.p["role"] != INVESTIGATOR:
        out.add("not_investigator", action.at, action=action.id)
        return
    if not accusation_day(rules, turn):
        out.add("accusation_off_day", action.at, turn=turn, every=rules["accusation_every"],
                next=next_accusation(rules, turn))
        return
    valid = [who.name(h) for h in suspects(who.state)]
    target = players.get(arg)
    if target is None or target["role"] == INVESTIGATOR:
        out.add("accuse_investigator", action.at, player=who.name(arg), valid=valid)
    elif target["status"] != ALIVE:
        out.add("target_not_on_board", action.at, player=who.name(arg), valid=valid)


def _haunt(who: _Player, action: Action, out: Refusals) -> None:
    if who.required_room(action, out) is None:
        return
    warn = action.arg.get("avertir")
    if warn is not None and (warn == who.handle or (who.state["players"].get(warn) or {}).get("status") != ALIVE):
        out.add("warn_not_on_board", action.at + ("avertir",), player=who.name(warn),
                valid=[who.name(h) for h in living(who.state)])


def _possess(who: _Player, action: Action, out: Refusals) -> None:
    innocents = living(who.state, INNOCENT)
    valid = [who.name(h) for h in innocents]
    target = action.arg.get("cible")
    if target is None:
        out.add("target_missing", action.at, action=action.id, valid=valid)
        return
    if target not in innocents:
        out.add("possess_not_innocent", action.at + ("cible",), player=who.name(target), valid=valid)
        return
    room = who.required_room(action, out)
    if room is not None and room == who.state["players"][target]["room"]:
        out.add("possess_same_room", action.at + ("salle",), player=who.name(target), room=who.board.label(room))


_ACTIONS = {"deplacer": _move, "pieger": _trap, "interroger": _interrogate, "accuser": _accuse,
            "hanter": _haunt, "posseder": _possess}


def check_gm(gm_orders) -> Refusals:
    """murder has no MJ orders: gm.yaml gives narration and forced rolls only."""
    out = Refusals()
    for key in gm_orders.orders:
        out.add("unknown_gm_order", (key,), key=key)
    return out


# -- the blank order form ---------------------------------------------------------------------

def order_context(rules: dict, state: dict, scenario, player: str) -> dict:
    """What `pbp orders` lists for a player: their situation and what they may order."""
    p = state["players"].get(player)
    if p is None:
        return {}
    board = board_of(scenario)
    players = state["players"]
    turn = state["turn"] + 1
    ctx = {"role": p["role"], "status": p["status"], "room": board.name(p["room"]),
           "rooms": [{"id": r, "name": board.label(r)} for r in board.order],
           "turn": turn, "accusation_day": accusation_day(rules, turn),
           "next_accusation": next_accusation(rules, turn), "over": state.get("over", False),
           "max_stay": rules["max_stay"], "genre": own_genres(rules, scenario, state, player).get(player)}
    if p["status"] == ALIVE:
        here = occupants(state, p["room"], player)
        ctx["neighbours"] = [{"name": board.label(r), "length": board.adj[p["room"]][r]}
                             for r in board.neighbours(p["room"])]
        ctx["here"] = [scenario.name(h) for h in here]
        ctx["must_leave"] = p["turns_here"] >= rules["max_stay"]
        ctx["destinations"] = [board.label(r) for r in destinations(rules, state, board, player)]
        ctx["movement"] = movement_dice(rules, p["role"])
        ctx["can_trap"] = p["role"] == MURDERER and not ctx["here"] and p["room"] not in state["traps"]
        ctx["witnesses_here"] = [scenario.name(h) for h in here if players[h]["role"] != INVESTIGATOR]
        ctx["suspects"] = [scenario.name(h) for h in suspects(state)]
    if p["status"] == DEAD and p["role"] == MURDERER:
        ctx["innocents"] = [scenario.name(h) for h in living(state, INNOCENT)]
    if p["status"] == DEAD and p["role"] == INNOCENT:
        ctx["living"] = [scenario.name(h) for h in living(state)]
    return ctx


# -- the MJ's files -----------------------------------------------------------------------------

def validate_scenario(rules: dict, scenario) -> list[PbpError]:
    """What schema.yaml cannot say about the board and the sheets (passages between
    known rooms, a connected board, enough sheets and rooms...). Safe on any input:
    simulations and tests call it on their own data. Each problem carries `at`,
    its path in its file."""
    world = scenario.world if isinstance(scenario.world, dict) else {}
    if not isinstance(world.get("rooms"), dict) or not world["rooms"]:
        return [_err("world_no_rooms", "world.yaml", at=("rooms",))]
    board = board_of(scenario)
    problems = _board_problems(board, world, scenario.roster) + _sheet_problems(rules, scenario.characters)
    comp = rules["composition"]
    for key in ("murderers", "investigators"):
        value = comp.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            problems.append(_err("composition_bad", "campaign.yaml", at=("rules", "composition", key), key=key,
                                 value=value))
    if not problems:
        problems = _campaign_problems(rules, scenario.roster, board)
    return problems


def _board_problems(board: Board, world: dict, roster: dict) -> list[PbpError]:
    problems = [_err(key, "world.yaml", at=("passages", params["index"] - 1), **params)
                for key, params in board.problems]
    if board.hall not in board.rooms:
        problems.append(_err("world_no_hall", "world.yaml", at=("hall",), room=board.hall, valid=board.order))
    if not board.problems and not board.connected():
        problems.append(_err("world_disconnected", "world.yaml", at=("passages",)))
    start = world.get("start") or {}
    if not isinstance(start, dict):
        problems.append(_err("world_bad_start", "world.yaml", at=("start",), player="start", room="-",
                             valid=board.order))
        start = {}
    used = {}
    for handle, room in start.items():
        room_id = board.lookup(room)
        at = ("start", handle)
        if str(handle) not in roster:
            problems.append(_err("world_start_unknown_player", "world.yaml", at=at, player=handle,
                                 valid=list(roster)))
        elif room_id is None or room_id == board.hall:
            problems.append(_err("world_bad_start", "world.yaml", at=at, player=handle, room=room,
                                 valid=[r for r in board.order if r != board.hall]))
        elif room_id in used:
            problems.append(_err("world_start_twice", "world.yaml", at=at, room=room, first=used[room_id],
                                 player=handle))
        else:
            used[room_id] = handle
    return problems


def _sheet_problems(rules: dict, characters) -> list[PbpError]:
    chars = characters if isinstance(characters, dict) else {}
    problems = []
    score_min, score_max = rules["scores"]["min"], rules["scores"]["max"]
    for lot, conf in rules["lots"].items():
        raw = chars.get(conf["key"])
        if not isinstance(raw, dict) or not raw:
            problems.append(_err("chars_no_lot", "characters.yaml", at=(conf["key"],), lot=conf["key"]))
            continue
        for number, sheet in raw.items():
            where = f"{conf['key']}.{number}"
            at = (conf["key"], number)
            if isinstance(number, bool) or not isinstance(number, int) or not isinstance(sheet, dict):
                problems.append(_err("chars_bad_sheet", "characters.yaml", at=at, sheet=where))
                continue
            role = sheet.get("role", INNOCENT if lot == "innocents" else None)
            allowed = (INNOCENT,) if lot == "innocents" else (MURDERER, INVESTIGATOR)
            if role not in allowed:
                problems.append(_err("chars_bad_role", "characters.yaml", at=at + ("role",), sheet=where,
                                     role=role, valid=list(allowed)))
                continue
            for name in list(TEXT_FIELDS) + (["alibi"] if role == INNOCENT else []):
                if not isinstance(sheet.get(name), (str, int)) or str(sheet.get(name)).strip() == "":
                    problems.append(_err("chars_missing_field", "characters.yaml", at=at + (name,), sheet=where,
                                         field=name))
            for score in ROLE_SCORES[role]:
                value = sheet.get(score)
                if isinstance(value, bool) or not isinstance(value, int) or not score_min <= value <= score_max:
                    problems.append(_err("chars_bad_score", "characters.yaml", at=at + (score,), sheet=where,
                                         score=score, value=value, low=score_min, high=score_max))
    return problems


def _campaign_problems(rules: dict, roster: dict, board: Board) -> list[PbpError]:
    """What a well-formed board and sheets still need from campaign.yaml."""
    problems = []
    comp = rules["composition"]
    wanted = comp["murderers"] + comp["investigators"]
    if len(roster) <= wanted:
        problems.append(_err("too_few_players", "campaign.yaml", at=("players",), count=len(roster),
                             murderers=comp["murderers"], investigators=comp["investigators"], needed=wanted + 1))
    witnesses = len(roster) - comp["investigators"]
    free_rooms = len(board.rooms) - 1
    if witnesses > free_rooms:
        problems.append(_err("not_enough_rooms", "world.yaml", witnesses=witnesses, rooms=free_rooms))
    for key in ("draw_order", "witness_order"):
        for handle in rules.get(key) or []:
            if str(handle) not in roster:
                problems.append(_err("order_unknown_player", "campaign.yaml", at=("rules", key), key=key,
                                     player=handle, valid=list(roster)))
    for key, allowed in (("majority", MAJORITIES), ("vote_count", VOTE_COUNTS)):
        if rules.get(key) not in allowed:
            problems.append(_err("bad_rule_choice", "campaign.yaml", at=("rules", key), key=key,
                                 value=rules.get(key), valid=list(allowed)))
    for handle, entry in roster.items():
        genre = entry.get("genre") if isinstance(entry, dict) else None
        if genre is not None and genre not in GENRES:
            problems.append(_err("bad_genre", "campaign.yaml", at=("players", handle, "genre"), player=handle,
                                 value=genre, valid=list(GENRES)))
    release = rules.get("release_room")
    if release is not None and board.lookup(release) is None:
        problems.append(_err("bad_release_room", "campaign.yaml", at=("rules", "release_room"), room=release,
                             valid=board.order))
    return problems


def validate_state(state: dict, scenario) -> list[PbpError]:
    """What schema.yaml cannot say about a state: its rooms are the board's own
    ids, exactly (the board reads world.yaml's ids as text; a room written `101`
    in state.yaml would not be found)."""
    rooms = board_of(scenario).rooms
    problems = []

    def check(room, at):
        if room is not None and not (isinstance(room, str) and room in rooms):
            problems.append(_err("state_bad_room", "state.yaml", at=at, where=show_path(at), room=room,
                                 valid=list(rooms)))

    for handle, p in state["players"].items():
        check(p["room"], ("players", handle, "room"))
        if p["died"]:
            check(p["died"].get("room"), ("players", handle, "died", "room"))
        for i, room in enumerate(p["warnings"]):
            check(room, ("players", handle, "warnings", Index(i)))
    for room in state["traps"]:
        check(room, ("traps", room))
    return problems
