"""The model layer: what a ruleset may import, besides pbp.base.

The Ruleset contract and its discovery (`ruleset`), the core's defaults and input
limits (`defaults`), order files and their actions (`orders`: the types Action,
PlayerOrders and GmOrders, the argument checks, the names a player types),
events and their audiences (`events`), the seeded dice and the roll log (`dice`,
`dice_versions`, `dice_notation`), file schemas (`schema`), a ruleset's own
commands (`commands`), and the words of plain-text orders (`vocabulary`).

Imports: pbp.base, and the package pbp.rulesets to find the built-in rulesets.
No I/O beyond reading pbp's own data files.
"""
