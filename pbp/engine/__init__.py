"""The engine layer: one campaign folder, turn after turn.

The campaign folder and its lock (`campaign`), deadlines (`deadline`), what
plays for a player without valid orders (`at_deadline`), one turn end to end
(`turn`), the MJ's loop: check, receipt, remind (`loop`), the seals (`seal`),
the dice secret's file (`secret`) and git (`archive`).

Imports: pbp.render, pbp.model and pbp.base.
"""
