"""d100: the base system of seed 000 (from "Caractéristiques de base"), a Star
Wars forum campaign. Every action is a d100 check against Physique, Logique or
Mental, with skills, trust towards factions and the light/dark alignment
changing the odds. See README.md for the rules as implemented.

This class declares what the ruleset provides and hands each hook to the
module that owns it:

- sheets.py   characters.yaml and world.yaml read and checked; secret values
- rules.py    the mechanics (checks, trust, alignment, gauges, generation)
- checks.py   order legality (players' orders, the MJ's gm.yaml)
- resolve.py  the set-up and the turn
- balance.py  bots, the synthetic party, the simulated MJ, summaries, odds
              (imported by the hooks that use it: the everyday commands do not)
- commands.py `pbp d100 generate`
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.model.ruleset import COMMANDS, ODDS, SIMULATE, Resolution, Ruleset

from . import checks, rules as R, sheets as S
from .commands import COMMANDS as DECLARED_COMMANDS
from .resolve import play_turn, set_up, summary_event


class D100(Ruleset):
    id = "d100"
    example = "d100"
    capabilities = frozenset({SIMULATE, ODDS, COMMANDS})
    commands = DECLARED_COMMANDS

    def __init__(self, overrides: dict | None = None):
        super().__init__(overrides)
        #: names these rules in what a scenario keeps (Scenario.derived): the
        #: sheets read with them, the bots' view of them
        self.rules_key = repr(self.rules)

    # -- the scenario (sheets.py) ------------------------------------------------------
    def sheets(self, scenario) -> dict:
        """Handle -> normalised sheet (sheets.read_sheet)."""
        return S.read(scenario, self.rules, self.rules_key)[0]

    def factions(self, scenario) -> dict:
        """Faction id -> {id, name}."""
        return S.read(scenario, self.rules, self.rules_key)[2]

    def validate_scenario(self, scenario):
        return S.read(scenario, self.rules, self.rules_key)[1] + checks.rules_problems(self.rules)

    def _me(self, state, scenario, handle) -> dict:
        return R.character(state, handle, self.sheets(scenario)[handle], self.rules)

    # -- turns (resolve.py) -------------------------------------------------------------
    def setup(self, scenario, dice, quiet: bool = False):
        # the set-up builds its events as it rolls: a quiet one is the same
        return Resolution(*set_up(self.rules, scenario, self.sheets(scenario), self.factions(scenario), dice))

    def players_to_play(self, state, scenario):
        return [h for h in scenario.roster if not self._me(state, scenario, h)["down"]]

    def resolve(self, state, scenario, orders, gm_orders, dice):
        sheets, factions = self.sheets(scenario), self.factions(scenario)
        if gm_orders.quiet:  # a simulated turn: balance.py's simulated MJ and tally
            from . import balance
        if gm_orders.quiet and not gm_orders.orders:  # a simulated turn: the simulated MJ's orders
            gm = balance.simulated_gm(self.rules, state, scenario, dice)
        else:
            gm = checks.gm_orders(self, scenario, sheets, factions, gm_orders.orders)[0]
        turn, events = play_turn(self.rules, state, scenario, sheets, factions, orders, gm, dice,
                                 quiet=gm_orders.quiet)
        if gm_orders.quiet:
            balance.record(self.rules, turn, gm_orders.turn)
        return Resolution(turn.state, events)

    def is_over(self, state):
        chars = state.get("characters") or {}
        if self.rules["all_down_ends_game"] and chars and all(c["down"] for c in chars.values()):
            return True
        if "simulation" not in state:  # a simulated game ends after `simulation.turns`
            return False
        from . import balance

        return balance.is_over(self.rules, state)

    # -- order legality (checks.py) -----------------------------------------------------
    def check_orders(self, state, scenario, orders):
        handle = orders.player
        return checks.check_orders(self.rules, self.sheets(scenario)[handle], self._me(state, scenario, handle),
                                   self.factions(scenario), state.get("combat"), orders)

    def check_gm(self, state, scenario, gm_orders):
        return checks.gm_orders(self, scenario, self.sheets(scenario), self.factions(scenario), gm_orders.orders,
                                state)[1]

    # -- the MJ's and the players' views --------------------------------------------------
    def order_context(self, state, scenario, player):
        sheet = self.sheets(scenario)[player]
        me = self._me(state, scenario, player)
        if player not in state["characters"]:  # joining this turn: the sheet they will start with
            state = {**state, "characters": {**state["characters"], player: me}}
        summary = R.summary(player, state, sheet, self.factions(scenario), self.rules)
        return {**S.sheet_data(sheet, self.rules), **summary,
                "factions": list(self.factions(scenario).values()),
                "costs": self.rules["check"]["types"], "force_power_cost": self.rules["check"]["force_power_cost"],
                "stable_bonus": self.rules["alignment"]["stable_bonus"], "down": me["down"]}

    def status(self, state, scenario):
        sheets, factions = self.sheets(scenario), self.factions(scenario)
        out = [ev.gm("scene", combat=state.get("combat", False), level=state.get("level", 1))]
        for handle in [h for h in scenario.roster if h in state["characters"]]:
            out.append(ev.gm("summary", **summary_event(handle, state, sheets[handle], factions, self.rules).data))
        return out

    def standing(self, state, scenario) -> list[dict]:
        """The public post's closing list: each character in play or out of action
        (0 PV: dead or captured, the MJ narrates which), as the thread saw them go down."""
        chars = state.get("characters") or {}
        return [{"name": scenario.name(h), "handle": h,
                 "status": "d100.standing_down" if chars[h]["down"] else "d100.standing_playing"}
                for h in scenario.roster if h in chars]

    # -- secrecy (sheets.py) --------------------------------------------------------------
    # roleplay_audience: the core's default (a character down speaks to the MJ only)
    def secret_values(self, state, scenario):
        return S.secret_values(state, self.sheets(scenario), self.factions(scenario), self.rules)

    # -- balance tools (balance.py) ----------------------------------------------------------
    def sample_scenario(self, players, rng):
        from . import balance

        return balance.sample_scenario(self.rules, players, rng)

    def legal_orders(self, state, scenario, player):
        from . import balance

        return balance.legal_orders(self.rules, self.sheets(scenario)[player], self._me(state, scenario, player),
                                    self.factions(scenario), state, player)

    def bot_orders(self, state, scenario, player, rng):
        from . import balance

        sheets = self.sheets(scenario)
        view = scenario.derived(("d100.bot_view", self.rules_key), lambda: balance.bot_view(self.rules, sheets))
        return balance.bot_orders(self.rules, sheets, view, self.factions(scenario), state, player,
                                  self._me(state, scenario, player), rng)

    def game_summary(self, state, scenario):
        from . import balance

        return balance.game_summary(self.rules, state, self.sheets(scenario), self.factions(scenario))

    def odds(self):
        from . import balance

        return balance.calculators(self.rules)


RULESET = D100
