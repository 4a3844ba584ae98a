"""The plaintext layer: a player's forum message read into an order file.

The reading itself (`importer`), one action's values (`import_args`), the
compiled words and their typos (`wording`), and the command's work on a
campaign (`import_orders`).

Imports: pbp.engine, pbp.render, pbp.model and pbp.base.
"""
