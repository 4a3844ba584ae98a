"""The MJ's loop between two `pbp run`s: who has sent what, what pbp
understood of each file (the receipt to send back), and who to remind.

Nothing here writes: each function reads the turn's inputs through the very
code `pbp run` uses (turn.gather, turn.compute) and returns what the commands
print with the common templates (check, receipt, remind).
"""

from __future__ import annotations

from pbp import orders as od, turn
from pbp.campaign import Campaign
from pbp.deadline import turn_deadline
from pbp.errors import ForcedRollError, PbpError
from pbp.record import Record


class TurnCheck(Record):
    """Everything `pbp check` says of turn n."""

    __slots__ = ("turn", "inputs", "forced", "unused", "rolls")

    def __init__(self, turn: int, inputs: turn.TurnInputs, forced: list[PbpError] | None = None,
                 unused: list[PbpError] | None = None, rolls: list | None = None):
        self.turn = turn
        self.inputs = inputs
        self.forced = [] if forced is None else forced  # forced rolls the dice cannot give
        self.unused = [] if unused is None else unused  # forced labels no roll asks for
        self.rolls = [] if rolls is None else rolls  # the labels the turn rolls, as resolved now

    @property
    def ok(self) -> bool:
        return not self.inputs.errors and not self.forced


def check_turn(campaign: Campaign, n: int) -> TurnCheck:
    """Turn n's orders judged in one pass; when they are all valid, the turn is
    also resolved in memory so gm.yaml's forced rolls are checked against the
    dice they force (a value the die cannot give, a label nothing rolls)."""
    state = campaign.state(n - 1)
    if campaign.ruleset.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    inputs = turn.gather(campaign, n, state)
    report = TurnCheck(n, inputs)
    if inputs.errors:
        return report
    try:
        out = turn.compute(campaign, n, inputs, files=False, state=state)  # read once, no output bytes
    except ForcedRollError as exc:
        report.forced.append(exc)
        return report
    report.unused = list(out.warnings)
    report.rolls = out.rolls
    return report


def deadline_text(campaign: Campaign, n: int) -> str | None:
    return turn_deadline(campaign.config.get("deadline"), n, campaign.lang)


def _arg_text(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} : {_arg_text(v)}" for k, v in value.items() if v not in (None, [], {}))
    if isinstance(value, list):
        return ", ".join(_arg_text(v) for v in value)
    return "" if value is None else str(value)


def action_lines(campaign: Campaign, actions: list[od.Action]) -> list[str]:
    """Each action as the player wrote it, in the campaign's language: its id
    (or its English id), then its argument."""
    rs = campaign.ruleset
    out = []
    for action in actions:
        spec = rs.actions.get(action.id) or {}
        name = spec.get("en", action.id) if campaign.lang == "en" else action.id
        arg = _arg_text(action.arg)
        out.append(f"{name.replace('_', ' ')}{' : ' + arg if arg and campaign.lang == 'fr' else ''}"
                   f"{': ' + arg if arg and campaign.lang == 'en' else ''}")
    return out


def receipt(campaign: Campaign, handle: str, n: int) -> dict:
    """What pbp understood of `handle`'s orders for turn n, for the receipt template."""
    inputs = turn.gather(campaign, n, campaign.state(n - 1))
    mine = [e.text(campaign.lang) for e in inputs.by_player.get(handle, [])]
    orders = inputs.orders.get(handle)
    if handle in inputs.refused:
        state = "refused"
    elif handle in inputs.lost:
        state = "lost"
    elif handle in inputs.blank:
        state = "blank"
    elif handle in inputs.defaulted:
        state = "missing"
    elif handle in inputs.valid:
        state = "valid"
    else:
        state = "out"
    return dict(player=handle, character=campaign.names.get(handle, handle), turn=n, state=state,
                actions=action_lines(campaign, orders.actions) if orders else [],
                roleplay=orders.roleplay if orders and not orders.default else "",
                problems=mine, lost_reason=inputs.lost.get(handle), ruleset=campaign.ruleset.id,
                deadline=deadline_text(campaign, n))


def reminder(campaign: Campaign, n: int) -> dict:
    """Who still has to send valid orders for turn n, for the reminder post.
    Only players who have something to order count (not a lost turn, not out
    of the game, not set inactive by the missed-orders policy)."""
    inputs = turn.gather(campaign, n, campaign.state(n - 1))
    missing = [h for h in inputs.missing + inputs.blank if h not in inputs.inactive]
    refused = [h for h in inputs.refused if h in campaign.roster]
    return dict(turn=n, missing=[h for h in campaign.roster if h in missing],
                refused=[h for h in campaign.roster if h in refused], deadline=deadline_text(campaign, n),
                received=len(inputs.valid))
