"""Turn 0 of murder (`pbp setup`): the sheet draw, the order of play and the
placement (docs/design.md murder 1, 2 and 5; README.md "Set-up").

A module of its own: the draw (two lots, re-rolls, a composition to fill, a
drawn order so the roster's order tells nothing) is a concern as big as a turn,
and shares nothing with one but the events that show the board.
"""

from __future__ import annotations

from pbp.base.errors import InputError
from pbp.model import events as ev
from pbp.model.dice import parse as parse_dice
from pbp.rulesets.murder.board import board_of
from pbp.rulesets.murder.resolve import positions, summary
from pbp.rulesets.murder.rules import (ALIVE, INNOCENT, INVESTIGATOR, MURDERER, ROLE_SCORES, clock, genres, lot,
                                       own_genres, public_rules, sheet, sheet_data, update_companions)


def setup(rules: dict, scenario, dice) -> tuple[dict, list[ev.Event]]:
    """The initial state and the set-up posts' events."""
    board = board_of(scenario)
    roster = list(scenario.roster)
    players, events = draw_sheets(rules, scenario, dice)
    witness_order, play_order = order_of_play(rules, roster, players, dice)
    witnesses = [h for h in roster if players[h]["role"] != INVESTIGATOR]
    investigators = play_order[len(witness_order):]

    # Placement: investigators in the hall; the MJ's placements (world.yaml `start`);
    # the others drawn among the free rooms; at most one witness per room.
    start = {str(h): board.lookup(r) for h, r in (scenario.world.get("start") or {}).items()}
    for h in investigators:
        players[h]["room"] = board.hall
    used = {board.hall}
    for h in witnesses:
        room = start.get(h)
        if room and room not in used:
            players[h]["room"] = room
            used.add(room)
    for h in witness_order:
        if players[h]["room"] is None:
            free = [r for r in board.order if r not in used]
            room = dice.choice(f"{h}.placement", free, f"pièce de départ de {h}")
            players[h]["room"] = room
            used.add(room)

    state = {"turn": 0, "over": False, "winner": None, "witness_order": witness_order,
             "play_order": play_order, "players": players, "traps": {}}
    update_companions(state)
    murderers = [h for h in roster if players[h]["role"] == MURDERER]
    events.append(ev.public("setup", investigators=[{"player": h, "survival": players[h]["scores"]["survival"]}
                                                    for h in investigators],
                            witnesses=witness_order, play_order=play_order, hall=board.name(board.hall),
                            rooms=board.names(), rules=public_rules(rules)))
    events.append(ev.public("clock", **clock(rules, 1)))
    events.append(ev.public("genres", genres=genres(scenario)))
    events.append(positions(state, board))
    for h in roster:
        p = players[h]
        events.append(ev.private(h, "sheet", **sheet_data(rules, scenario, h, p, sheet(rules, scenario, p)),
                                 room=board.name(p["room"]),
                                 accomplices=[m for m in murderers if m != h] if p["role"] == MURDERER else [],
                                 position=play_order.index(h) + 1, rules=public_rules(rules),
                                 genres=own_genres(rules, scenario, state, h)))
    events.append(summary(rules, state, board))
    return state, events


def draw_sheets(rules: dict, scenario, dice) -> tuple[dict[str, dict], list[ev.Event]]:
    """Each player's sheet (the players' states, in roster order) and the MJ's
    events of the draw. The first to draw take the second lot (murderers and
    investigators) until the composition is filled, the others the innocent lot;
    a sheet already taken, missing, or of a role already filled is re-rolled."""
    roster = list(scenario.roster)
    comp = rules["composition"]
    need = {MURDERER: comp["murderers"], INVESTIGATOR: comp["investigators"]}

    # Who draws first: the MJ's `draw_order`, then the others in a drawn order
    # (drawing in roster order would tell who drew in the second lot).
    fixed = [h for h in dict.fromkeys(str(h) for h in rules.get("draw_order") or []) if h in scenario.roster]
    rest = [h for h in roster if h not in fixed]
    draw_order = fixed + (dice.shuffled("tirage.ordre", rest, "ordre du tirage des fiches") if len(rest) > 1 else rest)

    lots = {name: lot(rules, scenario, name) for name in rules["lots"]}
    _check_feasible(rules, lots, need, len(roster))
    taken = {name: set() for name in lots}
    players: dict[str, dict] = {}
    events = []
    for handle in draw_order:
        name = "second" if sum(need.values()) > 0 else "innocents"
        rolls = []
        for _ in range(rules["max_draw_attempts"]):
            roll = dice.roll(f"{handle}.fiche", rules["lots"][name]["dice"], f"fiche de {handle}")
            rolls.append(roll)
            number = roll.total
            drawn = lots[name].get(number)
            if drawn is None or number in taken[name]:
                continue
            role = drawn.get("role", INNOCENT) if name == "second" else INNOCENT
            if name == "second" and need.get(role, 0) <= 0:
                continue
            break
        else:
            raise InputError("murder.draw_exhausted", file="characters.yaml", player=handle,
                             lot=rules["lots"][name]["key"], attempts=rules["max_draw_attempts"])
        taken[name].add(number)
        if name == "second":
            need[role] -= 1
        players[handle] = {
            "role": role, "lot": name, "sheet": number,
            "scores": {s: drawn[s] for s in ROLE_SCORES[role]},
            "status": ALIVE, "room": None, "turns_here": 0, "companions": [],
            "prison": None, "died": None, "warnings": [],
        }
        events.append(ev.gm("draw", player=handle, lot=rules["lots"][name]["key"], rolls=rolls,
                            sheet=number, role=role))
    return {h: players[h] for h in roster}, events


def _check_feasible(rules: dict, lots: dict, need: dict, players: int) -> None:
    """Impossible compositions are refused before any roll: enough sheets of each
    role that the lot's dice can reach."""
    reach = {}
    for name, conf in rules["lots"].items():
        expr = parse_dice(conf["dice"])
        reach[name] = {n for n in lots[name] if expr.minimum <= n <= expr.maximum}
    for role, count in need.items():
        have = [n for n in reach["second"] if lots["second"][n].get("role") == role]
        if len(have) < count:
            raise InputError("murder.composition_infeasible", file="characters.yaml", role=role, count=count,
                             have=len(have))
    innocents_needed = players - sum(need.values())
    if len(reach["innocents"]) < innocents_needed:
        raise InputError("murder.composition_infeasible", file="characters.yaml", role=INNOCENT,
                         count=innocents_needed, have=len(reach["innocents"]))


def order_of_play(rules: dict, roster: list[str], players: dict, dice) -> tuple[list[str], list[str]]:
    """(witness order, order of play): the witnesses of `witness_order` first, the
    others in a drawn order, then the investigators by ascending sheet number."""
    witnesses = [h for h in roster if players[h]["role"] != INVESTIGATOR]
    fixed = [h for h in dict.fromkeys(str(h) for h in rules.get("witness_order") or []) if h in witnesses]
    others = [h for h in witnesses if h not in fixed]
    witness_order = fixed + (dice.shuffled("temoins.ordre", others, "ordre de jeu des témoins")
                             if len(others) > 1 else others)
    investigators = sorted((h for h in roster if players[h]["role"] == INVESTIGATOR),
                           key=lambda h: players[h]["sheet"])
    return witness_order, witness_order + investigators
