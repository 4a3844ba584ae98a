"""What the argument types know of the game, and how a player's words name things.

`ArgContext` is the protocol between a ruleset and the argument types
(pbp/model/argtypes.py): the ruleset says, for one player at one moment
(`Ruleset.arg_context`), whom and what they may name; the types check a value
against it, the order form lists it and the import reads names among it.
`normalize_id` and `match_names` are how every name a player types is compared.
"""

from __future__ import annotations


def normalize_id(word) -> str:
    """`Déplacement normal` -> `deplacement_normal`."""
    text = str(word)
    if not text.isascii():  # (unicodedata is loaded only for accented words)
        import unicodedata

        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "_".join(text.lower().replace("-", " ").replace("'", " ").split())


def match_names(word, names: dict) -> list:
    """The keys of `names` (key -> name) a player's word may mean: a key itself,
    else those whose key or whole name it is, else those whose name holds it from
    the start of a word (`Wei` for Li-Wei, `sylvain`, `boucher de morn`), case,
    accents and punctuation ignored. One: found; several: ambiguous; none: unknown.
    Every name a player types goes through it (players, places, items)."""
    if isinstance(word, str) and word in names:
        return [word]
    wanted = normalize_id(word)
    if not wanted:
        return []
    exact = [k for k, name in names.items() if wanted in (normalize_id(k), normalize_id(name))]
    if exact:
        return exact
    return [k for k, name in names.items() if "_" + wanted in "_" + normalize_id(name)]


# -- the context: what a type needs to know of the game ----------------------------------

class ArgContext:
    """What the argument types know when they check a player's value.

    `scenario` (the roster and its names), `limits` (the campaign's: how long a
    name or a prose may be; None: values already bounded, as when the rules check
    what an order file gave, or the MJ's own), `actor` (whose orders: None for the
    MJ's), and `facts`, each optional, given by the ruleset (`Ruleset.arg_context`)
    for that player at that moment:

        characters  {handle: name}  who may be named at all (default: the roster)
        alive       handles         those in play (`character` with `alive: true`)
        in_sight    handles         those the actor sees (`in_sight: true`)
        places      {id: name}      every place
        adjacent    {id: name}      the places the actor may reach from where they are
        items       {id: name}      every item the actor may know of
        carried     {id: name}      the items the actor carries
    """

    def __init__(self, scenario, limits: dict | None = None, actor: str | None = None, facts: dict | None = None):
        self.scenario, self.limits, self.actor, self.facts = scenario, limits, actor, facts or {}

    def characters(self) -> dict:
        known = self.facts.get("characters")
        if known is not None:
            return dict(known)
        return {h: self.scenario.name(h) for h in self.scenario.roster}

    def name(self, handle) -> str:
        return self.characters().get(handle) or self.scenario.name(handle)
