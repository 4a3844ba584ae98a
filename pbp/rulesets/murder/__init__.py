"""Murder in the lab (seed 000, first part): a hidden-role forum game.

Investigators hunt one or more murderers hidden among the witnesses. See
README.md for the rules as implemented and data.yaml for every number.
"""

from pbp.rulesets.murder.rules import Murder

RULESET = Murder

__all__ = ["RULESET", "Murder"]
