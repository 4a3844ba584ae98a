"""pbp: a play-by-post turn processor for forum RPG events.

The data flows one way:
cli -> campaign/orders -> ruleset (with dice) -> events -> render -> archive.
"""

__version__ = "0.1.0"
