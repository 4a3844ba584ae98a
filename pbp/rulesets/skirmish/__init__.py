"""skirmish: tactical action resolution on a grid (seed 003). See README.md."""

from pbp.rulesets.skirmish.rules import Skirmish

RULESET = Skirmish
