"""The balance layer: a ruleset's numbers weighed before a game.

Exact odds (`odds`) and self-play (`simulate`).

Imports: pbp.engine, pbp.render, pbp.model and pbp.base.
"""
