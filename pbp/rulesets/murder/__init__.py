"""Murder in the lab (seed 000, first part): a hidden-role forum game.
Investigators hunt one or more murderers hidden among the witnesses.

The Ruleset below only declares what the ruleset is and provides, and hands
each hook to the module that owns it (README.md, "Layout"):

- board.py    the rooms, passages and shortest paths of world.yaml
- rules.py    the rules as pure functions (numbers from data.yaml)
- checks.py   what the rules refuse: orders, the MJ's orders and files
- draw.py     turn 0: the sheet draw, the order of play, the placement
- resolve.py  a turn: orders in the order of play -> new state + events
- balance.py  bots, the synthetic lab, game summaries, exact odds (imported by
              the hooks that use it: the everyday commands do not)
"""

from __future__ import annotations

from pbp.model.events import GM, Players
from pbp.model.ruleset import ODDS, SIMULATE, Resolution, Ruleset
from pbp.rulesets.murder import checks, draw, resolve, rules
from pbp.rulesets.murder.board import board_of, world_in


class Murder(Ruleset):
    """Investigators, innocent witnesses and murderers in a lab; traps, ghosts,
    interrogations, accusations and prison."""

    id = "murder"
    example = "murder"
    capabilities = frozenset({SIMULATE, ODDS})

    # -- the MJ's files
    def world_in(self, world, lang):
        return world_in(world, lang, self.rules.get("room_names") or {})

    def validate_scenario(self, scenario):
        return checks.validate_scenario(self.rules, scenario)

    def validate_state(self, state, scenario):
        return checks.validate_state(state, scenario)

    # -- turns
    def setup(self, scenario, dice, quiet: bool = False) -> Resolution:
        # the draw builds its events as it rolls: a quiet set-up is the same one
        return Resolution(*draw.setup(self.rules, scenario, dice))

    def players_to_play(self, state, scenario) -> list[str]:
        """Everyone but the dead investigators (they have no ghost power), until the end."""
        if state.get("over"):
            return []
        players = state["players"]
        return [h for h in scenario.roster if h in players
                and not (players[h]["status"] == rules.DEAD and players[h]["role"] == rules.INVESTIGATOR)]

    def check_orders(self, state, scenario, orders):
        return checks.check_orders(self.rules, state, scenario, orders)

    def check_gm(self, state, scenario, gm_orders):
        return checks.check_gm(gm_orders)

    def resolve(self, state, scenario, orders, gm_orders, dice) -> Resolution:
        return Resolution(*resolve.resolve(self.rules, state, scenario, orders, dice))

    def is_over(self, state) -> bool:
        return bool(state.get("over"))

    def closed_actions(self, state, scenario, player) -> set[str]:
        return checks.closed_actions(state, player, set(self.actions))

    def order_context(self, state, scenario, player) -> dict:
        return checks.order_context(self.rules, state, scenario, player)

    def status(self, state, scenario):
        return resolve.status(self.rules, state, scenario)

    def standing(self, state, scenario) -> list[dict]:
        """The public post's closing list: who is alive, in prison, dead or executed
        (never a role: a victim's sheet stays secret)."""
        return rules.standing(state, scenario)

    # -- secrecy
    def roleplay_audience(self, state, scenario, handle):
        """A ghost's roleplay would tell the thread which ghost acted (a possessing
        ghost is a dead murderer): it goes to the MJ only, and to the ghost's own
        report when `ghost_roleplay.own_report` is true."""
        if rules.is_ghost(state, handle):
            return Players(handle) if self.rules["ghost_roleplay"]["own_report"] else GM
        return super().roleplay_audience(state, scenario, handle)

    def secret_values(self, state, scenario) -> set[str]:
        return rules.secret_values(self.rules, state, scenario, board_of(scenario))

    # -- balance tools (pbp simulate, pbp odds)
    def legal_orders(self, state, scenario, player):
        from . import balance

        return balance.legal_orders(self.rules, state, scenario, player)

    def sample_scenario(self, players, rng):
        from . import balance

        return balance.sample_scenario(self.rules, players, rng)

    def game_summary(self, state, scenario):
        from . import balance

        return balance.game_summary(state)

    def odds(self):
        from . import balance

        return balance.calculators(self.rules)


RULESET = Murder

__all__ = ["RULESET", "Murder"]
