"""The turns a character missed in a row, and what they are owed on return
(`missed_orders: on_return:`): more actions and points in the budget of the
first turn they send orders again. Kept in the state as `missed: N` (added only
for rules that need it, so other archives keep their bytes)."""

from __future__ import annotations

from . import rules as R
from .values import missed


def owed(data: dict, state: dict, handle: str) -> tuple[int, int]:
    """(actions, points) more this turn for the turns `handle` missed in a row."""
    spec = (data.get("missed_orders") or {}).get("on_return") or {}
    turns = min(missed(state, handle), spec.get("max", 1))
    return spec.get("actions", 0) * turns, spec.get("points", 0) * turns


def count(turn, orders: dict, skipped: list[str]) -> None:
    """After the actions: a character in play whose orders were the default ones
    (nothing sent) missed one more turn; one who sent orders is back (count reset).
    `skipped`: characters who lost the turn (no orders were theirs to send)."""
    if not turn.program.track_missed:
        return
    for handle, me in turn.state["characters"].items():
        if me["out"] or handle in skipped or handle not in orders:
            continue
        if orders[handle].default:
            me["missed"] = me.get("missed", 0) + 1
            owed_actions, owed_points = owed(turn.data, turn.state, handle)
            if owed_actions or owed_points:
                turn.emit(R.audience(("actor",), handle), "owed", who=handle, turns=me["missed"], actions=owed_actions,
                          points=owed_points)
        else:
            me.pop("missed", None)
