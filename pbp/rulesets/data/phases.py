"""Turn order, days and phases, and what happens every N turns, as a turn plays them.

- The order of play: the roster's (campaign.yaml `players:`), or `turn_order:`
  `by:` a formula (each character's view) or `initiative:` rolled for each
  character in play every turn (labelled `<handle>.initiative.d1`...), the
  highest first; `groups:` puts the characters of one team before the next
  (the order of `groups.order`; a value it does not list plays last). Ties
  keep the roster's order (Python's sort is stable).
- The calendar: the turn being played is turn N (between turns, when orders are
  checked, the next one), day (N - 1) // turns_per_day + 1, turn of the day
  (N - 1) % turns_per_day + 1, its phase the one of that rank.
- `periodic:` effects run at the end of turn N when N >= from and
  (N - from) is a multiple of `every` (from: `every` by default), after every
  action and before the votes are counted.
"""

from __future__ import annotations

from pbp.model import events as ev

from . import rules as R
from .values import calendar_value as value


def announce(turn) -> None:
    """The day and phase of the turn, first in the post (rules with a calendar)."""
    data, state = turn.data, turn.state
    if not data.get("calendar"):
        return
    phases = data["calendar"].get("phases") or []
    rank = value(state, data, "turn_of_day")
    turn.emit(ev.PUBLIC, "calendar", day=value(state, data, "day"), turn_of_day=rank,
              phase=R.words(phases[rank - 1]) if rank <= len(phases) else None)


def ordered(turn) -> list[str]:
    """The roster in the order of play of this turn (initiative rolled and said)."""
    roster, data, program = list(turn.scenario.roster), turn.data, turn.program
    order = data.get("turn_order") or {}
    formula = program.order.get("initiative") or program.order.get("by")
    scores = {}
    if formula is not None:
        playing = R.playing(turn.state, roster)
        for handle in playing:
            scope = turn.new_scope(handle, f"{handle}.initiative")
            scores[handle] = turn.evaluate(formula, scope, R.visibility(order.get("visibility"))) \
                if "initiative" in program.order else \
                formula.evaluate(R.env(formula.names_used, turn.state, data, handle, None, None, {}))
        roster.sort(key=lambda h: -scores.get(h, float("-inf")))
    groups = order.get("groups")
    if groups is not None:
        ranks = {value: i for i, value in enumerate(groups["order"])}
        stats = {h: me["stats"] for h, me in turn.state["characters"].items()}
        roster.sort(key=lambda h: ranks.get(str(stats.get(h, {}).get(groups["stat"])), len(ranks)))
    if formula is not None or groups is not None:
        seen = R.audience(R.visibility(order.get("visibility")), None)
        turn.emit(seen, "order", order=[h for h in roster if R.in_play(turn.state, h)],
                  scores={h: R.as_number(s) for h, s in scores.items()}, initiative="initiative" in program.order)
    return roster


def periodic(turn) -> None:
    """The `periodic:` effects due at the end of this turn."""
    n = turn.state["turn"]
    for i, spec in enumerate(turn.data.get("periodic") or []):
        start = spec.get("from", spec["every"])
        if n < start or (n - start) % spec["every"]:
            continue
        effects = turn.program.periodic[i]
        if spec.get("each"):
            for handle in R.playing(turn.state, turn.scenario.roster):
                turn.run(effects, turn.new_scope(handle, f"{handle}.every{i + 1}"))
        else:
            turn.run(effects, turn.new_scope(None, f"every{i + 1}"))
