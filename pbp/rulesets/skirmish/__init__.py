"""skirmish: tactical action resolution on a grid (seed 003). See README.md.

Characters (several per player), creatures, doors and objects stand on a grid.
Each turn every acting unit spends its PA, in initiative order, on moves, brawl,
melee and ranged attacks and spells. This class declares the ruleset and hands
each hook to the module that owns it:

- rules.py    the rules as pure functions (chances, damage, reduction, spells, levels)
- board.py    where units stand, names, and what an action would do now (its plan)
- sheets.py   world.yaml and characters.yaml: their checks, and the sheets read into units
- checks.py   order legality (players' orders, the MJ's creatures), the order form
- resolve.py  the turn: orders in initiative order -> new state + events
- views.py    what the posts show of a state (sheets, board), and what stays secret
- bots.py     the bots and the simulated MJ (pbp simulate, the conformance suite)
- balance.py  the synthetic skirmish, a game's tally and summary (pbp simulate)
- odds.py     the exact odds (pbp odds)
"""

from __future__ import annotations

from pbp.model.ruleset import ODDS, SIMULATE, Resolution, Ruleset

from . import bots, checks, resolve, rules, sheets, views


class Skirmish(Ruleset):
    id = "skirmish"
    example = "skirmish"
    capabilities = frozenset({SIMULATE, ODDS})

    # -- the campaign's files ------------------------------------------------------------
    def validate_scenario(self, scenario):
        return sheets.validate_scenario(self.rules, scenario)

    def validate_state(self, state, scenario):
        return sheets.validate_state(state)

    # -- turns ---------------------------------------------------------------------------
    def setup(self, scenario, dice, quiet: bool = False) -> Resolution:
        return resolve.setup(self.rules, scenario, quiet)

    def players_to_play(self, state, scenario):
        return rules.players_standing(state, scenario.roster)

    def check_orders(self, state, scenario, orders):
        return checks.check_orders(self.rules, state, orders)

    def check_gm(self, state, scenario, gm_orders):
        return checks.check_gm(self, state, scenario, gm_orders)

    def resolve(self, state, scenario, orders, gm_orders, dice) -> Resolution:
        """A simulated turn (`gm_orders.quiet`) builds no MJ log, private sheets nor
        board, lets the simulated MJ order the creatures when gm.yaml gives no
        orders, and keeps its tally under `state["simulation"]`."""
        quiet = gm_orders.quiet
        if quiet and not gm_orders.orders:
            creatures = bots.creature_actions(self.rules, state)
        else:
            creatures, _ = checks.gm_actions(self, state, scenario, gm_orders)
        result = resolve.turn(self.rules, state, scenario, orders, creatures, dice, quiet)
        if quiet:
            from . import balance

            balance.record(result.state, result.events)
        return result

    def is_over(self, state):
        return bool(state.get("over"))

    # -- what the MJ and the players see -------------------------------------------------
    def order_context(self, state, scenario, player):
        return checks.order_context(self.rules, state, player)

    def status(self, state, scenario):
        return views.status(self.rules, state)

    def secret_values(self, state, scenario):
        return views.secret_values(state)

    def standing(self, state, scenario):
        """Who is still in the skirmish, for the public post's footer: per player,
        `standing_playing` or `standing_out`, and their characters standing and down."""
        return views.standing(state, scenario)

    # -- balance tools (pbp simulate, pbp odds) ------------------------------------------
    def legal_orders(self, state, scenario, player):
        return bots.legal_orders(self.rules, state, player)

    def bot_orders(self, state, scenario, player, rng):
        return bots.bot_orders(self.rules, state, player, rng)

    def sample_scenario(self, players, rng):
        from . import balance

        return balance.sample_scenario(self.rules, players, rng)

    def game_summary(self, state, scenario):
        from . import balance

        return balance.game_summary(state, scenario)

    def odds(self):
        from .odds import calculators  # exact odds (dyce, fractions): `pbp odds` alone needs them

        return calculators(self.rules)


RULESET = Skirmish
