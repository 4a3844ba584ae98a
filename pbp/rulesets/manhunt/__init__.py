"""manhunt: « La chasse à l'homme » (seed 001). See README.md.

The Ruleset declares what it provides and delegates each hook: rules.py holds
the rules, resolve.py (with actions.py) the turn, checks.py the legality of
orders and files, views.py what a state shows each reader, balance.py the
bots, simulations and odds, world.py the labyrinth.
"""

from __future__ import annotations

from pbp.base.errors import PbpError
from pbp.model.events import Event
from pbp.model.orders import Action
from pbp.model.ruleset import ODDS, SIMULATE, Refusal, Resolution, Ruleset, Scenario

from . import checks, resolve, rules, views
from .world import Labyrinth, labyrinth


class Manhunt(Ruleset):
    id = "manhunt"
    example = "manhunt"
    capabilities = frozenset({SIMULATE, ODDS})

    #: (scenario, its labyrinth), the last asked for: a simulation asks for every
    #: bot's orders and every turn (a ruleset's rules never change once it is made)
    _last_lab: tuple[Scenario, Labyrinth] | None = None

    def lab(self, scenario: Scenario) -> Labyrinth:
        """The scenario's labyrinth under these rules (built once per scenario)."""
        last = self._last_lab
        if last is None or last[0] is not scenario:
            last = self._last_lab = (scenario, labyrinth(scenario, self.rules))
        return last[1]

    # -- the MJ's files
    def validate_scenario(self, scenario) -> list[PbpError]:
        return checks.validate_scenario(self.rules, scenario)

    def validate_state(self, state, scenario) -> list[PbpError]:
        return checks.validate_state(self.rules, state)

    # -- turns
    def setup(self, scenario, dice, quiet: bool = False) -> Resolution:
        return Resolution(*resolve.setup(self.rules, scenario, quiet))

    def players_to_play(self, state, scenario) -> list[str]:
        return rules.players_to_play(state, scenario.roster)

    def lost_turn(self, state, scenario, player) -> str | None:
        return rules.lost_turn(state["pejis"][player])

    def check_orders(self, state, scenario, orders) -> list[Refusal]:
        return checks.check_orders(self.rules, self.lab(scenario), state, scenario, orders)

    def check_gm(self, state, scenario, gm_orders) -> list[Refusal]:
        return checks.check_gm(self.lab(scenario), state, scenario, gm_orders)

    def resolve(self, state, scenario, orders, gm_orders, dice) -> Resolution:
        return Resolution(*resolve.play(self.rules, scenario, state, orders, gm_orders, dice, self.lab(scenario)))

    def is_over(self, state) -> bool:
        return rules.is_over(state)

    # -- what a state shows each reader
    def order_context(self, state, scenario, player) -> dict:
        return views.order_context(self.rules, self.lab(scenario), state, scenario, player)

    def status(self, state, scenario) -> list[Event]:
        return views.status(self.rules, self.lab(scenario), state, scenario)

    def standing(self, state, scenario) -> list[dict]:
        """Who is still in the labyrinth, who died, who escaped: the public post's
        closing list (the status is a message key of messages.yaml)."""
        return views.standing(state, scenario)

    def secret_values(self, state, scenario) -> set[str]:
        return views.secret_values(self.rules, self.lab(scenario), state, scenario)

    # -- balance tools (balance.py, imported by these hooks alone: the everyday commands do without it)
    def sample_scenario(self, players, rng) -> Scenario:
        from . import balance

        return balance.sample_scenario(self.rules, players, rng)

    def legal_orders(self, state, scenario, player) -> list[list[Action]]:
        from . import balance

        return balance.legal_orders(self.rules, self.lab(scenario), state, scenario, player)

    def bot_orders(self, state, scenario, player, rng) -> list[Action]:
        from . import balance

        return balance.bot_orders(self.rules, self.lab(scenario), state, player, rng)

    def game_summary(self, state, scenario) -> dict:
        from . import balance

        return balance.game_summary(self.rules, state)

    def odds(self) -> dict:
        from . import balance

        return balance.calculators(self.rules)


RULESET = Manhunt
