"""The values formulas read from the blocks of a rules file, as pure functions
of the state (no other module of the ruleset imported: pbp/rulesets/data/rules.py
reads them for `env`): a character's states, a team's count, the day and phase
of the turn played, the turns a character missed in a row."""

from __future__ import annotations

from pbp.datarules.phases import turns_per_day

#: set in the state while a turn is being resolved (and removed before it is written)
RESOLVING = "_resolving"


def state_value(state: dict, handle: str | None, name: str):
    """`state.<id>` (the character has it) or `state.<id>.left` (turns it lasts after
    the current one; 0 without a duration)."""
    ident, _, part = name.partition(".")
    mine = (state["characters"][handle].get("states") or {}) if handle is not None else {}
    if part == "left":
        last = mine.get(ident)
        return max(0, last - state["turn"]) if last is not None else 0
    return ident in mine


def team_count(state: dict, data: dict, team: str) -> int:
    """`team.<value>`: how many characters in play have that team."""
    stat = ((data.get("end") or {}).get("teams") or {}).get("stat")
    return sum(1 for me in state["characters"].values() if not me["out"] and str(me["stats"].get(stat)) == team)


def turn_played(state: dict) -> int:
    """The turn a formula speaks of: the one being resolved, or (between turns) the next."""
    return state["turn"] if state.get(RESOLVING) else state["turn"] + 1


def calendar_value(state: dict, data: dict, name: str):
    """`day`, `turn_of_day` or `phase` (its French text when it has two) of the turn played."""
    n, per_day = turn_played(state), turns_per_day(data)
    rank = (n - 1) % per_day + 1
    if name == "day":
        return (n - 1) // per_day + 1
    if name == "turn_of_day":
        return rank
    phases = (data.get("calendar") or {}).get("phases") or []
    if rank > len(phases):
        return ""
    phase = phases[rank - 1]
    return str(phase.get("fr", phase.get("en", ""))) if isinstance(phase, dict) else str(phase)


def missed(state: dict, handle: str | None) -> int:
    """`missed` (`absences`): the turns `handle` missed in a row before the turn played."""
    return state["characters"][handle].get("missed", 0) if handle is not None else 0


def plain_value(state: dict, data: dict, actor: str | None, name: str):
    """A block's name without a prefix: the calendar's (`jour`, `phase`...) or the turns missed (`absences`)."""
    from pbp.datarules.absence import PLAIN as MISSED
    from pbp.datarules.phases import PLAIN as CALENDAR

    if name in CALENDAR:
        return calendar_value(state, data, CALENDAR[name])
    if name in MISSED:
        return missed(state, actor)
    return None


def whole(value) -> int:
    """A formula's number as a count of turns or dice takes it: a fraction rounded down."""
    import math

    return int(value) if isinstance(value, bool) else math.floor(value)
