"""Murder in the lab (seed 000, first part): a hidden-role forum game.

Investigators hunt one or more murderers hidden among the witnesses. See
README.md for the rules as implemented and data.yaml for every number. The
rules are in rules.py; this module adds the ruleset's secrecy hook.
"""

from pbp.events import GM, Players
from pbp.rulesets.murder import rules as _rules
from pbp.rulesets.murder.rules import DEAD


class Murder(_rules.Murder):
    __doc__ = _rules.Murder.__doc__

    def roleplay_audience(self, state, scenario, handle):
        """A ghost's roleplay would tell the thread which ghost acted (a possessing
        ghost is a dead murderer): it goes to the MJ only, and to the ghost's own
        report when `ghost_roleplay.own_report` is true."""
        p = state["players"].get(handle)
        if p is not None and p["status"] == DEAD:
            return Players(handle) if self.rules["ghost_roleplay"]["own_report"] else GM
        return super().roleplay_audience(state, scenario, handle)


RULESET = Murder

__all__ = ["RULESET", "Murder"]
