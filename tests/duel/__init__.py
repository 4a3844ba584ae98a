"""A fifth ruleset written as a newcomer would, to prove the authoring guide:
two players duel, each turn both `attaquer` with 1d6, the higher wins the
duel (a tie: another turn). It declares no capability, has no example and
only one template of its own (its public post); the conformance suite plays
it like every bundled ruleset."""

from pbp.model import events as ev
from pbp.model.orders import Action
from pbp.model.ruleset import Resolution, Ruleset


class Duel(Ruleset):
    id = "duel"

    def setup(self, scenario, dice, quiet=False):
        state = {"winner": None, "players": {h: {"rolls": []} for h in scenario.roster}}
        return Resolution(state, [ev.public("duel_start", players=list(scenario.roster))])

    def players_to_play(self, state, scenario):
        return [] if state["winner"] else list(scenario.roster)

    def resolve(self, state, scenario, orders, gm_orders, dice):
        rolls = {h: dice.roll(f"{h}.attaque", self.rules["attack"]) for h, o in orders.items() if o.has("attaquer")}
        for handle, roll in rolls.items():
            state["players"][handle]["rolls"].append(roll.total)
        best = max((r.total for r in rolls.values()), default=None)
        leaders = [h for h, r in rolls.items() if r.total == best]
        if len(leaders) == 1:
            state["winner"] = leaders[0]
        events = [ev.public("attack", player=h, roll=r) for h, r in rolls.items()]
        events.append(ev.public("outcome", winner=state["winner"]))
        return Resolution(state, events)

    def is_over(self, state):
        return state["winner"] is not None

    def legal_orders(self, state, scenario, player):
        return [[Action("attaquer", None, 0)]]


RULESET = Duel
