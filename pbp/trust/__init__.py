"""The trust layer: what lets players check the MJ after the game.

The reveal bundle and the public audit (`audit`) and the dice against their
distributions (`dice_report`).

Imports: pbp.engine, pbp.render, pbp.model and pbp.base.
"""
