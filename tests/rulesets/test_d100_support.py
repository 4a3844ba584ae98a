"""Builders for the d100 tests (no tests here): a scenario in memory, its
set-up state, one turn resolved with forced dice. No files."""

from __future__ import annotations

import copy

from pbp.base import yamlio
from pbp.model.dice import Dice
from pbp.model.orders import GmOrders, PlayerOrders, parse_player_orders
from pbp.model.ruleset import Scenario
from pbp.rulesets.d100 import D100
from tests.helpers import as_stored

SECRET = "d100-tests"

FACTIONS = {"empire": {"nom": "Empire galactique"}, "syndicat": {"nom": "Syndicat de la Bordure"}}


def sheet(**over) -> dict:
    base = {
        "nom": "Kira Vel", "physique": 50, "logique": 67, "mental": 60,
        "pv": 10, "force": 3, "action": 4, "alignement": 6,
        "travers": "Ne ment jamais à un enfant.",
        "competences": {
            "armes": {"sabre": 2, "telekinesie": {"niveau": 1, "force": True}},
            "techniques": {"piratage": 1, "pilotage": {"de": "1d6", "plage": 2}},
            "autres": {"persuasion": 2, "discretion": -1},
            "speciales": {"sixieme_sens": {"niveau": 1, "passif": True}},
        },
        "inventaire": ["Rations"],
        "equipement": [{"nom": "Medpac", "effet": {"pv": 3}, "usages": 1},
                       {"nom": "Kit de crochetage", "jet": {"carac": "logique", "competence": "piratage"}}],
        "armement": ["Sabre laser"],
    }
    base.update(over)
    return base


def scenario(sheets: dict | None = None, factions: dict | None = None) -> Scenario:
    sheets = sheets if sheets is not None else {
        "kira": sheet(),
        "brann": sheet(nom="Brann Dask", physique=70, logique=40, mental=45, force=0, alignement=3,
                       competences={"armes": {"blaster": 3}, "autres": {"intimidation": 2}},
                       equipement=[{"nom": "Medpac", "effet": {"pv": 3}, "usages": 2}]),
        "tia": sheet(nom="Tia Rook", physique=35, logique=75, mental=55, force=0, alignement=10,
                     competences={"techniques": {"piratage": 3}}, equipement=[]),
    }
    roster = {h: {"character": s["nom"]} for h, s in sheets.items()}
    return Scenario({"factions": FACTIONS if factions is None else factions}, sheets, roster)


def ruleset(overrides: dict | None = None) -> D100:
    return D100(overrides)


def setup_state(rs: D100, sc: Scenario, forced: dict | None = None) -> dict:
    return rs.setup(sc, Dice(SECRET, 0, forced or {})).state


def orders_from(rs: D100, sc: Scenario, handle: str, actions: list, turn: int = 1) -> PlayerOrders:
    """Parse actions as the core would (schema, aliases, defaults)."""
    text = yamlio.dumps({"player": handle, "turn": turn, "actions": actions})
    parsed, problems = parse_player_orders(text, f"{handle}.yaml", ruleset=rs, scenario=sc, turn=turn,
                                           expected_player=handle)
    assert not problems, [p.text("en") for p in problems]
    return parsed


def resolve(rs: D100, sc: Scenario, state: dict, orders: dict, gm: dict | None = None,
            forced: dict | None = None, turn: int = 1):
    """One turn: {handle: [actions]} and gm `orders:`; returns (state, events, dice)."""
    parsed = {h: orders_from(rs, sc, h, a, turn) for h, a in orders.items()}
    for h in rs.players_to_play(state, sc):
        if h not in parsed:
            parsed[h] = PlayerOrders(h, turn, [], default=True)
    gm_orders = GmOrders(turn, orders=gm or {})
    refusals = rs.check_gm(state, sc, gm_orders)
    assert not refusals, refusals
    for h, o in parsed.items():
        assert not rs.check_orders(state, sc, o), rs.check_orders(state, sc, o)
    dice = Dice(SECRET, turn, forced or {})
    result = rs.resolve(copy.deepcopy(state), sc, parsed, gm_orders, dice)
    return result.state, as_stored(result.events), dice




def of(events, kind: str, player: str | None = None) -> list:
    return [e for e in events if e.kind == kind and (player is None or e.data.get("player") == player)]
