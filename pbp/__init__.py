"""pbp: a play-by-post turn processor for forum RPG events.

The data flows one way:
cli -> campaign/orders -> ruleset (with dice) -> events -> render -> archive,
and each module lives in the folder of its layer (base, model, render, engine,
plaintext, trust, balance, cli), importing only the layers below it
(docs/architecture.md).
"""

__version__ = "0.1.0"
