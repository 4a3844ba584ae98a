"""A minimal ruleset for testing the core: players walk along a line of rooms
and may flip a coin. It shows the whole ruleset contract in a few lines."""

from pbp.model import events as ev
from pbp.model.orders import Action
from pbp.model.ruleset import Refusal, Resolution, Ruleset


class Toy(Ruleset):
    id = "toy"

    def validate_scenario(self, scenario):
        return []

    def setup(self, scenario, dice, quiet=False):
        state = {"players": {h: {"room": 0, "coins": 0} for h in scenario.roster}}
        return Resolution(state, [ev.public("start", count=len(scenario.roster))])

    def players_to_play(self, state, scenario):
        return [h for h in scenario.roster if state["players"][h]["room"] < self.rules["rooms"]]

    def check_orders(self, state, scenario, orders):
        refusals = []
        if sum(self.actions[a.id]["points"] for a in orders.actions) > self.rules["max_points"]:
            refusals.append(Refusal("too_many_points", orders.actions[-1].at, {"max": self.rules["max_points"]}))
        for a in orders.actions:
            if a.id == "avancer" and a.arg < 1:
                refusals.append(Refusal("no_backwards", a.at))
        return refusals

    def resolve(self, state, scenario, orders, gm_orders, dice):
        events = []
        for handle, order in orders.items():
            me = state["players"][handle]
            for action in order.actions:
                if action.id == "avancer":
                    me["room"] = min(self.rules["rooms"], me["room"] + action.arg)
                    events.append(ev.public("moved", player=handle, room=me["room"]))
                elif action.id == "pile_ou_face":
                    roll = dice.roll(f"{handle}.piece", self.rules["coin"])
                    if roll.total >= self.rules["coin_wins"]:
                        me["coins"] += 1
                    events.append(ev.private(handle, "coin", roll=roll, coins=me["coins"]))
                    events.append(ev.gm("coin_gm", player=handle, roll=roll))
        return Resolution(state, events)

    def is_over(self, state):
        return all(p["room"] >= self.rules["rooms"] for p in state["players"].values())

    # secrecy (tests/test_secrecy.py runs on every ruleset the core finds, this one too)
    def secret_values(self, state, scenario):
        # a player's coins are counted in their report only ("pièces : 2")
        return {f"pièces : {p['coins']}" for p in state["players"].values()}

    def legal_orders(self, state, scenario, player):  # what its bots pick from
        return [[Action("avancer", 1, 0)], [Action("pile_ou_face", None, 0)],
                [Action("avancer", 1, 0), Action("pile_ou_face", None, 1)]]
