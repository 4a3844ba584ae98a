"""A small in-memory skirmish board for the rules tests: sheets built in code,
orders written as YAML lines (so they go through the real order schema), dice
forced by label."""

from __future__ import annotations

import copy

from pbp.model import events as ev, orders as od
from pbp.model.dice import Dice
from pbp.model.orders import GmOrders
from pbp.model.ruleset import Scenario
from pbp.rulesets.skirmish import Skirmish
from tests.helpers import as_stored

#: the dice version these scenarios were written with: the rolls no test forces
#: (initiative, a dodge...) are the seed's, and version 0 stays supported, so its
#: numbers hold (docs/dice.md)
DICE_VERSION = 0


def deep_update(base: dict, extra: dict) -> dict:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            deep_update(base[key], value)
        else:
            base[key] = value
    return base


def sheet(player, faction, pos, **extra) -> dict:
    """A neutral character: every characteristic 10, luck 0, 20 PV, 10 PA."""
    base = {
        "joueur": player, "faction": faction, "position": list(pos), "pv": 20,
        "FOR": 10, "DEX": 10, "DEF": 10, "TAI": 10, "INT": 10, "chance": 0,
        "competences": {"bagarre": 40, "melee": 40, "distance": 40, "esquive": 30, "magie": 0},
        "equipement": {"armes": {"epee": {"nom": "épée", "type": "melee", "degats": "1d8", "avec": "à l'épée"},
                                 "arc": {"nom": "arc", "type": "distance", "degats": "1d6", "avec": "à l'arc"}}},
    }
    return deep_update(base, extra)


def creature(pos, **extra) -> dict:
    base = {"type": "creature", "position": list(pos), "pv": 30}
    return deep_update(base, extra)


class Game:
    def __init__(self, characters: dict, npcs: dict | None = None, walls=(), rules: dict | None = None,
                 width: int = 12, height: int = 8):
        """`characters` may hold non-player targets too (sheets with a `type`)."""
        npcs = dict(npcs or {})
        for uid in [u for u, s in characters.items() if "type" in s]:
            npcs[uid] = characters.pop(uid)
        for uid, s in characters.items():
            s.setdefault("nom", uid.capitalize())
        for uid, s in (npcs or {}).items():
            s.setdefault("nom", uid.capitalize())
        self.rs = Skirmish(rules or {})
        world = {"grille": {"largeur": width, "hauteur": height, "murs": [list(w) for w in walls]},
                 "factions": {"a": {"nom": "Faction A"}, "b": {"nom": "Faction B"}},
                 "cibles": npcs or {}}
        players = sorted({c["joueur"] for c in characters.values()})
        self.scenario = Scenario(world, {"personnages": characters}, {p: {"character": p} for p in players})
        problems = self.rs.validate_scenario(self.scenario)
        assert not problems, [p.text("en") for p in problems]
        self.state = self.rs.setup(self.scenario, Dice("secret", 0, version=DICE_VERSION)).state
        self.events: list = []
        self.dice: Dice | None = None

    @property
    def units(self) -> dict:
        return self.state["units"]

    def orders(self, player: str, *lines: str) -> od.PlayerOrders:
        turn = self.state["turn"] + 1
        text = f"player: {player}\nturn: {turn}\nactions:\n" + "".join(f"  - {line}\n" for line in lines)
        parsed, errors = od.parse_player_orders(text, f"turns/{turn:03d}/orders/{player}.yaml", ruleset=self.rs,
                                                scenario=self.scenario, turn=turn, expected_player=player)
        assert not errors, [e.text("en") for e in errors]
        return parsed

    def check(self, player: str, *lines: str) -> list:
        return self.rs.check_orders(self.state, self.scenario, self.orders(player, *lines))

    def check_errors(self, player: str, *lines: str) -> list[str]:
        """The refusals as the core prints them (file:line: message), in English."""
        orders = self.orders(player, *lines)
        return [e.text("en") for e in od.check_rules(orders, self.state, self.rs, self.scenario)]

    def gm(self, orders: dict | None = None) -> GmOrders:
        return GmOrders(self.state["turn"] + 1, orders=orders or {})

    def play(self, forced: dict | None = None, gm: dict | None = None, **by_player) -> list:
        """Resolves one turn; the orders are checked first, as `pbp run` does."""
        orders = {}
        for player, lines in by_player.items():
            orders[player] = self.orders(player, *lines)
            refusals = self.rs.check_orders(self.state, self.scenario, orders[player])
            assert not refusals, refusals
        gm_orders = self.gm(gm)
        assert not self.rs.check_gm(self.state, self.scenario, gm_orders)
        self.dice = Dice("secret", self.state["turn"] + 1, forced or {}, DICE_VERSION)
        result = self.rs.resolve(copy.deepcopy(self.state), self.scenario, orders, gm_orders, self.dice)
        self.state = result.state
        self.events = as_stored(result.events)
        return self.events

    def public(self, kind: str) -> list[dict]:
        return [e.data for e in self.events if e.audience == ev.PUBLIC and e.kind == kind]

    def gm_events(self, kind: str) -> list[dict]:
        return [e.data for e in self.events if e.audience == ev.GM and e.kind == kind]

    def one(self, kind: str) -> dict:
        found = self.gm_events(kind)
        assert len(found) == 1, found
        return found[0]

    def detail(self, data: dict, who: str, what: str) -> dict:
        found = [d for d in data["details"] if d["who"] == who and d["what"] == what]
        assert len(found) == 1, data["details"]
        return found[0]

    def xp(self, data: dict) -> list[tuple]:
        return [(g["who"], g["reason"], g["amount"]) for g in data["xp"]]
