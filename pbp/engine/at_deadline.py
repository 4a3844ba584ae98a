"""What a player without valid orders plays when the turn is resolved: the
campaign's policy at the deadline.

Without valid orders in time, the turn always plays, for each such player
(`Policy.play` decides; `pbp check`, the receipt and `pbp run` say which, and
the public reminder says the rule without naming who it applies to):

- the default orders (campaign.yaml's `default_orders`, else the ruleset's),
  where the rules allow them for that player now;
- otherwise the ruleset's `fallback_orders` (its data.yaml, which a campaign's
  `rules:` may override): what is legal and harmless in every state (for the
  built-in rulesets, doing nothing: an engaged Péji who may only fight, flee or
  use an item is not made to hide).

Who it concerns: a player who sent nothing or a blank form, and, when the MJ
plays the turn at the deadline (`pbp run --at-deadline`), a player whose file
is refused (nothing of a refused file is used, not even its roleplay). Each
`Played` says why and what, for `pbp check`, `pbp run` and the MJ's report.
"""

from __future__ import annotations

from pbp.base import yamlio
from pbp.base.errors import InputError, PbpError
from pbp.base.record import Record
from pbp.model import orders as od
from pbp.model.ruleset import Refusals

#: why a player has no orders of their own this turn (Played.why)
WHY = ("missing", "blank", "refused")


class Played(Record):
    """What one player without valid orders plays, and why."""

    __slots__ = ("player", "why", "how", "orders", "refusals", "file", "source", "default")

    def __init__(self, player: str, why: str, how: str, orders: od.PlayerOrders,
                 refusals: list[PbpError] | None = None, file: str | None = None, source: str | None = None,
                 default: list[od.Action] | None = None):
        self.player = player
        self.why = why  # one of WHY
        self.how = how  # "default" (the default orders) or "fallback" (the ruleset's fallback orders)
        self.orders = orders
        #: why the default orders are not allowed to this player now (how == "fallback"), as the rules refuse them
        self.refusals = [] if refusals is None else refusals
        self.file = file  # the refused file (why == "refused")
        #: where the default orders refused to them are written: campaign.yaml and its line, None: the ruleset's
        self.source = source
        self.default = [] if default is None else default  # the default orders refused to them


class Policy:
    """The default and fallback orders of a campaign, read once for a turn;
    `play` says which one each player gets."""

    def __init__(self, campaign, state: dict, n: int):
        self.ruleset, self.scenario = campaign.ruleset, campaign.scenario
        self.state, self.n = state, n
        config = campaign.config
        rules = config.get("rules") or {}
        if "default_orders" in config:
            where = ("default_orders",)
        elif "default_orders" in rules:
            where = ("rules", "default_orders")
        else:
            where = None
        raw = config["default_orders"] if where == ("default_orders",) else \
            self.ruleset.rules.get("default_orders", [])
        #: where the default orders are written: campaign.yaml and its line, or None (the ruleset's own)
        self.default_source = self._source(campaign, where)
        self.default = self._actions(raw, campaign, where, "default_orders")
        fallback_at = ("rules", "fallback_orders") if "fallback_orders" in rules else None
        self.fallback_source = self._source(campaign, fallback_at)
        self.fallback = self._actions(self.ruleset.rules.get("fallback_orders", []), campaign, fallback_at,
                                      "fallback_orders")

    @staticmethod
    def _source(campaign, where: tuple | None) -> str | None:
        if where is None:
            return None
        line = yamlio.line_of(campaign.text, where) if campaign.text else None
        return f"campaign.yaml:{line}" if line else "campaign.yaml"

    def _actions(self, raw, campaign, where: tuple | None, key: str) -> list[od.Action]:
        """The actions of a list of orders; one the ruleset cannot read is the
        MJ's mistake, said with its line (campaign.yaml's, else the ruleset's data)."""
        problems = Refusals()
        actions = od.parse_actions(raw, self.ruleset, self.scenario, problems, at=())
        if problems:
            first = problems[0]
            if where is None:
                raise InputError(first.key, file=f"{self.ruleset.folder()}/data.yaml ({key})", **first.params)
            line = yamlio.line_of(campaign.text, where + tuple(first.at)) if campaign.text else None
            raise InputError(first.key, file="campaign.yaml", line=line, **first.params)
        return actions

    def play(self, handle: str, why: str, file: str | None = None) -> Played:
        """What `handle` plays: the default orders where the rules allow them,
        else the fallback orders; an InputError when the rules refuse both
        (a campaign's own `fallback_orders` that is not legal for this player)."""
        default = od.PlayerOrders(handle, self.n, list(self.default), default=True)
        refusals = self._refusals(default)
        if not refusals:
            return Played(handle, why, "default", default, file=file)
        fallback = od.PlayerOrders(handle, self.n, list(self.fallback), default=True)
        if self._refusals(fallback):
            raise InputError("deadline_nothing_legal", file=self.fallback_source or self.default_source,
                             player=handle, character=self.scenario.name(handle))
        return Played(handle, why, "fallback", fallback, refusals=refusals, file=file, source=self.default_source,
                      default=list(self.default))

    def _refusals(self, orders: od.PlayerOrders) -> list[PbpError]:
        """The rules' refusals of orders, without a file: what the player would be told."""
        return [InputError(r.key if not self._own(r.key) else f"{self.ruleset.id}.{r.key}", **r.params)
                for r in self.ruleset.check_orders(self.state, self.scenario, orders)]

    def _own(self, key: str) -> bool:
        from pbp.base import i18n

        return i18n.has(f"{self.ruleset.id}.{key}")


def refusal_texts(refusals: list[PbpError], lang: str) -> list[str]:
    """The rules' refusals of a player's default orders, each as the player
    would read it, without its list of valid values (the MJ's line stays short)."""
    from pbp.base import i18n

    return [i18n.t(lang, e.key, **{k: v for k, v in e.params.items() if k not in ("valid", "suggestion")})
            for e in refusals]
